//! Distances against closed forms computed independently in f64: balls, boxes, capsules
//! (segment-segment), ellipsoids, cylinders, cones, rounded shapes. Both the closed-form
//! dispatch and GJK on the same shapes (via a wrapper that hides the primitive) are checked.

use crate::common;
use kollide::query::Space;

use common::oracle;
use common::{assert_close, assert_mixed, rng, unit, vec_in, ViaGjk};
use glam::{DQuat, DVec3, Vec3};
use kollide::math::{Pose, Real};
use kollide::query::{distance, intersects, GjkStatus};
use kollide::shape::{Ball, Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Rounded, Support};

/// Checks a query output against an independent truth: distance, bounds, status, points.
#[track_caller]
fn check<V: Space, A: Support<V>, B: Support<V>>(
    a: &A,
    pa: &Pose<V>,
    b: &B,
    pb: &Pose<V>,
    truth: f64,
    tol: f64,
) -> bool {
    let out = distance(a, pa, b, pb);
    let ctx = format!(
        "truth {truth}, output {out:?}, pa {pa:?}, pb {pb:?}, radii {:?} {:?}",
        a.radius(),
        b.radius()
    );
    assert!(matches!(out.status, GjkStatus::Converged | GjkStatus::Overlapping), "{ctx}");
    assert_close(out.distance.to_f64(), truth, tol, &ctx);
    let (lo, hi) = (out.lower_bound.to_f64(), out.upper_bound.to_f64());
    assert!(lo <= truth + tol * 0.01 && truth <= hi + tol * 0.01, "bounds [{lo}, {hi}] miss {truth}: {ctx}");
    if truth > tol {
        assert_close((out.point_b - out.point_a).length().to_f64(), truth, tol, &ctx);
        assert_close(out.normal.length().to_f64(), 1.0, 1e-5, &ctx);
    }
    let hit = intersects(a, pa, b, pb);
    if truth > tol {
        assert!(!hit, "intersects although {ctx}");
    } else if truth == 0.0 {
        assert!(hit, "no intersection although {ctx}");
    }
    truth == 0.0
}

fn dpose(t: DVec3, q: DQuat) -> Pose<DVec3> {
    Pose::new(t, q)
}

fn random_rot(r: &mut rand_chacha::ChaCha8Rng) -> DQuat {
    let u: DVec3 = unit(r);
    DQuat::from_axis_angle(u, rand::Rng::random_range(r, -3.0..3.0))
}

#[test]
fn ball_ball_and_ball_box() {
    let mut r = rng(11);
    let (mut hits, n) = (0, 3000);
    for _ in 0..n {
        let (ra, rb) = (rand::Rng::random_range(&mut r, 0.1..1.0), rand::Rng::random_range(&mut r, 0.1..1.0));
        let (ca, cb): (DVec3, DVec3) = (vec_in(&mut r, -0.8, 0.8), vec_in(&mut r, -0.8, 0.8));
        let truth = ((ca - cb).length() - ra - rb).max(0.0);
        let (pa, pb) = (dpose(ca, random_rot(&mut r)), dpose(cb, random_rot(&mut r)));
        hits += check(&Ball::new(ra), &pa, &Ball::new(rb), &pb, truth, 1e-12) as usize;
        check(&ViaGjk(Ball::new(ra)), &pa, &ViaGjk(Ball::new(rb)), &pb, truth, 1e-12);
        // Ball against box: distance from the centre to the box, in the box's frame.
        let he: DVec3 = vec_in(&mut r, 0.1, 1.0);
        let local = pb.inverse_transform_point(ca);
        let truth = (oracle::point_box(local, he) - ra).max(0.0);
        check(&Ball::new(ra), &pa, &Cuboid::new(he), &pb, truth, 1e-10);
        // The same box rounded: the distance drops by the rounding radius.
        let round = 0.05;
        let truth = (oracle::point_box(local, he) - ra - round).max(0.0);
        check(&Ball::new(ra), &pa, &Rounded::try_new(Cuboid::new(he), round).unwrap(), &pb, truth, 1e-10);
    }
    assert_mixed(hits, n, "ball-ball");
}

/// Capsules: the distance between the core segments (independent formula) minus the radii.
fn capsules<V: Space>(seed: u64, tol: f64)
where
    V::Rotation: common::FromParts + common::RotF64<V>,
{
    let mut r = rng(seed);
    let (mut hits, n) = (0, 3000);
    for _ in 0..n {
        let ca = Capsule::<V>::new(
            V::Real::from_f64(rand::Rng::random_range(&mut r, 0.0..1.0)),
            V::Real::from_f64(rand::Rng::random_range(&mut r, 0.05..0.5)),
        );
        let cb = Capsule::<V>::new(
            V::Real::from_f64(rand::Rng::random_range(&mut r, 0.0..1.0)),
            V::Real::from_f64(rand::Rng::random_range(&mut r, 0.05..0.5)),
        );
        let pa = Pose::new(vec_in::<V>(&mut r, -0.7, 0.7), common::rotation::<V>(&mut r));
        let pb = Pose::new(vec_in::<V>(&mut r, -0.7, 0.7), common::rotation::<V>(&mut r));
        let w = |p: &Pose<V>, x: V| DVec3::from_array(common::to_world_f64(p, x));
        let (a0, a1) = ca.segment();
        let (b0, b1) = cb.segment();
        let core = oracle::segment_segment(w(&pa, a0), w(&pa, a1), w(&pb, b0), w(&pb, b1));
        let truth = (core - ca.radius.to_f64() - cb.radius.to_f64()).max(0.0);
        hits += check(&ca, &pa, &cb, &pb, truth, tol) as usize;
        check(&ViaGjk(ca), &pa, &ViaGjk(cb), &pb, truth, tol);
    }
    assert_mixed(hits, n, "capsules");
}

#[test]
fn capsule_capsule_3d_f64() {
    capsules::<DVec3>(12, 1e-10);
}

#[test]
fn capsule_capsule_3d_f32() {
    capsules::<Vec3>(13, 2e-5);
}

#[test]
fn capsule_capsule_2d_f64() {
    capsules::<glam::DVec2>(14, 1e-10);
}

/// Curved shapes against a ball: truth is the point-to-shape distance of the ball's centre
/// in the shape's frame, minus the ball's radius.
#[test]
fn curved_shapes_against_balls() {
    let mut r = rng(15);
    let mut hits = 0;
    let n = 3000;
    for k in 0..n {
        let rb = 0.2;
        let c: DVec3 = vec_in(&mut r, -0.95, 0.95);
        let q = random_rot(&mut r);
        let pose = dpose(vec_in(&mut r, -0.5, 0.5), q);
        let local = pose.inverse_transform_point(c);
        let ball_pose = dpose(c, DQuat::IDENTITY);
        let ball = Ball::new(rb);
        let (hh, rad) =
            (rand::Rng::random_range(&mut r, 0.2..1.0), rand::Rng::random_range(&mut r, 0.2..1.0));
        let radii: DVec3 = vec_in(&mut r, 0.2, 1.2);
        // Curved surfaces converge to the GJK tolerance (1e-9 relative): allow 1e-8.
        let hit = match k % 3 {
            0 => check(
                &Ellipsoid::new(radii),
                &pose,
                &ball,
                &ball_pose,
                (oracle::point_ellipsoid(local, radii) - rb).max(0.0),
                1e-8,
            ),
            1 => check(
                &Cylinder::new(hh, rad),
                &pose,
                &ball,
                &ball_pose,
                (oracle::point_cylinder(local, hh, rad) - rb).max(0.0),
                1e-8,
            ),
            _ => check(
                &Cone::new(hh, rad),
                &pose,
                &ball,
                &ball_pose,
                (oracle::point_cone(local, hh, rad) - rb).max(0.0),
                1e-8,
            ),
        };
        hits += hit as usize;
    }
    assert_mixed(hits, n, "curved shapes");
}
