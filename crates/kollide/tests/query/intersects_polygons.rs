//! `intersects` on 2D polygons and rectangles, which the dispatcher answers with the polygon
//! separating-axis test (falling back to GJK for rounded pairs within their radii), against
//! the f64 oracle: overlap by SAT over every vertex-pair axis, distance by brute force.

use crate::common;
use crate::poly2d;
use kollide::query::Space;

use common::{assert_mixed, oracle, rng, FromParts, RotF64};
use glam::{DVec2, Vec2};
use kollide::math::{Real, Vector2};
use kollide::query::intersects;
use kollide::shape::Rounded;
use poly2d::{pose_near, random_pair, world, KINDS};

fn check<V: Vector2 + Space>(seed: u64)
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut r = rng(seed);
    let (mut hits, mut n) = (0, 0);
    for kind in KINDS {
        for i in 0..1500 {
            let (a, b) = random_pair::<V>(&mut r, kind, 1.0);
            let pa = pose_near::<V>(&mut r, V::ZERO, 1.0);
            let pb = pose_near::<V>(&mut r, V::ZERO, 2.2);
            let (wa, wb) = (world(&a, &pa), world(&b, &pb));
            let d = oracle::polygon_distance_2d(&wa, &wb);
            // Every third pair rounded: SAT on the cores, GJK within the radii.
            let round = if i % 3 == 0 { 0.1 } else { 0.0 };
            let got = if round > 0.0 {
                let ra = Rounded::try_new(a.clone(), V::Real::from_f64(round)).unwrap();
                intersects(&ra, &pa, &b, &pb)
            } else {
                intersects(&a, &pa, &b, &pb)
            };
            let gap = d - round;
            // Within rounding of touching either answer is right.
            let band = if V::Real::EPSILON.to_f64() > 1e-10 { 1e-5 } else { 1e-12 };
            if gap.abs() > band {
                assert_eq!(got, gap <= 0.0, "{kind:?} pair {i}: oracle gap {gap}, intersects {got}");
            }
            hits += usize::from(gap <= 0.0);
            n += 1;
        }
    }
    assert_mixed(hits, n, "polygon intersects");
}

#[test]
fn polygons_f64() {
    check::<DVec2>(71);
}

#[test]
fn polygons_f32() {
    check::<Vec2>(72);
}
