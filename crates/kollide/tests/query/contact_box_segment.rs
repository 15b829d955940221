//! `contact` between a box and a ball or a capsule (a point or segment core grown by a
//! radius), 2D and 3D, f32 and f64, in both orders, against the f64 brute-force oracle: the
//! signed distance of the cores is the least overlap over all candidate axes when they
//! overlap, else their distance; the radius is then taken off.

use crate::common;
use kollide::query::Space;

use common::oracle;
use common::{assert_close, assert_mixed, rng, to_world_f64, FromParts, RotF64};
use glam::{DVec2, DVec3};
use kollide::math::{Pose, Real};
use kollide::query::{contact, ContactStatus};
use kollide::shape::{Capsule, Cuboid};
use rand::Rng;

/// The corners of the box `[-h, h]` placed by `pose`, in f64.
fn corners<V: Space>(h: V, pose: &Pose<V>) -> Vec<[f64; 3]>
where
    V::Rotation: RotF64<V>,
{
    (0..1 << V::DIM)
        .map(|k| {
            let mut c = h;
            let mut v = [0.0; 3];
            for (i, x) in v.iter_mut().enumerate().take(V::DIM) {
                *x = if k & (1 << i) != 0 { h[i].to_f64() } else { -h[i].to_f64() };
            }
            c = V::from_f64_array(v).max_elem(-c).min_elem(c);
            to_world_f64(pose, c)
        })
        .collect()
}

/// The signed distance of two point sets' hulls: minus the penetration when they overlap,
/// else the distance.
fn signed(va: &[[f64; 3]], vb: &[[f64; 3]], dim: usize) -> f64 {
    if dim == 3 {
        let (a, b): (Vec<DVec3>, Vec<DVec3>) = (
            va.iter().map(|p| DVec3::from_array(*p)).collect(),
            vb.iter().map(|p| DVec3::from_array(*p)).collect(),
        );
        let depth = oracle::penetration_3d(&a, &b).0;
        if depth > 0.0 {
            -depth
        } else {
            oracle::polytope_distance_3d(&a, &b)
        }
    } else {
        let (a, b): (Vec<DVec2>, Vec<DVec2>) = (
            va.iter().map(|p| DVec2::new(p[0], p[1])).collect(),
            vb.iter().map(|p| DVec2::new(p[0], p[1])).collect(),
        );
        let depth = oracle::penetration_2d(&a, &b).0;
        if depth > 0.0 {
            -depth
        } else {
            oracle::polygon_distance_2d(&a, &b)
        }
    }
}

fn boxes_and_capsules<V: Space>(seed: u64, tol: f64) -> (usize, usize)
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut r = rng(seed);
    let (mut hits, n) = (0, 3000);
    for i in 0..n {
        let h: V = common::vec_in(&mut r, 0.2, 1.5);
        let cuboid = Cuboid::new(h);
        // Every fourth capsule is a ball (zero-length core).
        let half = if i % 4 == 0 { 0.0 } else { r.random_range(0.1..1.5) };
        let radius = r.random_range(0.05..0.5);
        let capsule = Capsule::<V>::new(V::Real::from_f64(half), V::Real::from_f64(radius));
        let pose_box: Pose<V> = common::pose(&mut r, 1.0);
        let pose_cap: Pose<V> = common::pose(&mut r, if V::DIM == 3 { 1.6 } else { 2.2 });
        let tip = V::axis(1) * V::Real::from_f64(half);
        let core = [to_world_f64(&pose_cap, -tip), to_world_f64(&pose_cap, tip)];
        let truth = signed(&corners(h, &pose_box), &core, V::DIM) - radius;
        let margin = V::Real::from_f64(0.1);
        let size = 3.0;
        for box_first in [true, false] {
            let out = if box_first {
                contact(&cuboid, &pose_box, &capsule, &pose_cap, margin, None)
            } else {
                contact(&capsule, &pose_cap, &cuboid, &pose_box, margin, None)
            };
            let ctx = format!("pair {i} (box first: {box_first}): truth {truth}, {out:?}");
            let Some(c) = out else {
                assert!(truth > 0.1 - tol * size, "no contact although {ctx}");
                continue;
            };
            assert!(
                matches!(c.status, ContactStatus::Converged | ContactStatus::Stalled),
                "status {:?}: {ctx}",
                c.status
            );
            assert_close(c.distance.to_f64(), truth, tol * size, &ctx);
            assert_close(c.normal.length().to_f64(), 1.0, 1e-5, &ctx);
            // The normal realizes the distance: B's extent along -n against A's along n.
            let gap = c.point_b - c.point_a - c.normal * c.distance;
            assert!(
                gap.length().to_f64() <= 20.0 * tol * size,
                "points disagree with distance*normal by {gap:?}: {ctx}"
            );
        }
        hits += usize::from(truth < 0.0);
    }
    (hits, n)
}

#[test]
fn box_capsule_f64_3d() {
    let (hits, n) = boxes_and_capsules::<DVec3>(41, 1e-12);
    assert_mixed(hits, n, "box-capsule f64 3D");
}

#[test]
fn box_capsule_f64_2d() {
    let (hits, n) = boxes_and_capsules::<DVec2>(42, 1e-12);
    assert_mixed(hits, n, "box-capsule f64 2D");
}

#[test]
fn box_capsule_f32_3d() {
    let (hits, n) = boxes_and_capsules::<glam::Vec3>(43, 1e-5);
    assert_mixed(hits, n, "box-capsule f32 3D");
}

#[test]
fn box_capsule_f32_2d() {
    let (hits, n) = boxes_and_capsules::<glam::Vec2>(44, 1e-5);
    assert_mixed(hits, n, "box-capsule f32 2D");
}

/// A ball centred inside a box: the depth is the radius plus the distance to the nearest
/// face, along that face's normal.
#[test]
fn ball_inside_a_box() {
    let cuboid = Cuboid::new(DVec3::new(2.0, 1.0, 3.0));
    let ball = Capsule::<DVec3>::new(0.0, 0.25);
    let c = contact(
        &cuboid,
        &Pose::IDENTITY,
        &ball,
        &Pose::from_translation(DVec3::new(0.5, 0.7, -1.0)),
        0.0,
        None,
    )
    .expect("inside");
    assert_close(c.distance, -(0.25 + 0.3), 1e-15, "depth");
    assert!((c.normal - DVec3::Y).length() < 1e-15, "normal {:?}", c.normal);
    assert_close(c.point_a.y, 1.0, 1e-15, "A's point on the top face");
    assert_close(c.point_b.y, 0.7 - 0.25, 1e-15, "B's point at the bottom of the ball");
}
