//! Box-box intersection (the separating-axis path of the dispatcher) against the f64 oracle
//! on random pairs, with a share of nearly parallel boxes (the edge-edge axes degenerate).

use crate::common;
use kollide::query::Space;

use common::{assert_mixed, rng, to_world_f64, vec_in, FromParts, RotF64};
use glam::{DVec2, DVec3};
use kollide::math::Pose;
use kollide::query::{distance, intersects};
use kollide::shape::Cuboid;

/// The corners of the box of half extents `he` (also used by `box_distance`).
pub(super) fn corners<V: Space>(he: V) -> Vec<V> {
    (0..1 << V::DIM)
        .map(|m| {
            let s: [f64; 3] = core::array::from_fn(|i| if m >> i & 1 == 1 { 1.0 } else { -1.0 });
            he.mul_elem(V::from_f64_array(s))
        })
        .collect()
}

fn boxes<V: Space>(seed: u64, pairs: usize, tol: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    let mut hits = 0;
    for k in 0..pairs {
        let (ha, hb) = (vec_in::<V>(&mut r, 0.1, 1.0), vec_in::<V>(&mut r, 0.1, 1.0));
        let pa = Pose::new(vec_in::<V>(&mut r, -1.0, 1.0), common::rotation::<V>(&mut r));
        // Every fourth pair: B turned like A up to rounding (parallel edges).
        let rb = if k % 4 == 0 { pa.rotation } else { common::rotation::<V>(&mut r) };
        let pb = Pose::new(vec_in::<V>(&mut r, -1.0, 1.0), rb);
        let w = |p: &Pose<V>, c: Vec<V>| c.into_iter().map(|x| to_world_f64(p, x)).collect::<Vec<_>>();
        let (wa, wb) = (w(&pa, corners(ha)), w(&pb, corners(hb)));
        let truth = if V::DIM == 3 {
            let f = |v: &[[f64; 3]]| v.iter().map(|p| DVec3::from_array(*p)).collect::<Vec<_>>();
            common::oracle::polytope_distance_3d(&f(&wa), &f(&wb))
        } else {
            let f = |v: &[[f64; 3]]| v.iter().map(|p| DVec2::new(p[0], p[1])).collect::<Vec<_>>();
            common::oracle::polygon_distance_2d(&f(&wa), &f(&wb))
        };
        let hit = intersects(&Cuboid::new(ha), &pa, &Cuboid::new(hb), &pb);
        if truth > tol {
            assert!(!hit, "pair {k}: SAT says overlap, oracle distance {truth}");
        } else if truth == 0.0 {
            assert!(hit, "pair {k}: SAT says apart, oracle says overlap");
        }
        // The boolean agrees with GJK's distance outside the rounding band.
        let d = distance(&Cuboid::new(ha), &pa, &Cuboid::new(hb), &pb).distance;
        if kollide::math::Real::to_f64(d) > tol {
            assert!(!hit, "pair {k}: SAT overlap, GJK distance {d:?}");
        }
        hits += hit as usize;
    }
    assert_mixed(hits, pairs, "box pairs");
}

#[test]
fn boxes_3d_f64() {
    boxes::<DVec3>(51, 3000, 1e-9);
}

#[test]
fn boxes_3d_f32() {
    boxes::<glam::Vec3>(52, 3000, 2e-5);
}

#[test]
fn boxes_2d_f64() {
    boxes::<DVec2>(53, 3000, 1e-9);
}

#[test]
fn boxes_2d_f32() {
    boxes::<glam::Vec2>(54, 3000, 2e-5);
}
