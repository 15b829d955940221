//! `contact` on balls and capsules against closed forms computed independently in f64, in
//! 2D and 3D, f32 and f64: separated, touching, penetrating, and crossing cores.
//!
//! Truth for two capsules (balls are capsules with zero-length cores): their Minkowski
//! difference is the parallelogram `P = segA ⊖ segB` grown by `R = ra + rb`. The signed
//! distance is `dist(0, P) - R` when the cores are apart; when they cross it is
//! `-(R + depth of 0 in P)`, and the depth of the origin in `P` is the penetration of the two
//! point sets (0 in 3D, where `P` is flat), computed by the brute-force oracle.

use crate::common;
use kollide::query::Space;

use common::oracle;
use common::{assert_close, assert_mixed, rng, unit, vec_in};
use glam::{DVec2, DVec3};
use kollide::math::{Pose, Real};
use kollide::query::{contact, Contact, ContactStatus};
use kollide::shape::{Ball, Capsule, Support};
use rand::Rng;

/// The signed distance of two capsule cores `(p0, p1)`, `(q0, q1)` grown by `radius`,
/// in f64 from the oracle.
fn capsule_truth(p: [[f64; 3]; 2], q: [[f64; 3]; 2], dim: usize, radius: f64) -> f64 {
    let v = |a: [f64; 3]| DVec3::from_array(a);
    let d = oracle::segment_segment(v(p[0]), v(p[1]), v(q[0]), v(q[1]));
    // In 2D, cores that cross overlap by a positive depth (a separated pair gives a
    // negative overlap here, and then `d` is the truth). In 3D crossing cores overlap by 0.
    if dim == 2 && (p[0] != p[1] || q[0] != q[1]) {
        let w = |a: [f64; 3]| DVec2::new(a[0], a[1]);
        let inside = oracle::penetration_2d(&[w(p[0]), w(p[1])], &[w(q[0]), w(q[1])]).0;
        if inside > 0.0 {
            return -(radius + inside);
        }
    }
    d - radius
}

/// Checks the invariants every contact keeps, whatever the pair.
#[track_caller]
fn check_shape_of<V: Space>(c: &Contact<V>, ctx: &str) {
    assert_eq!(c.status, ContactStatus::Converged, "{ctx}");
    assert_close(c.normal.length().to_f64(), 1.0, 1e-5, ctx);
    let gap = c.point_a + c.normal * c.distance - c.point_b;
    let size = c.point_a.abs_elem().max_elem(c.point_b.abs_elem()).max_component().to_f64().max(1.0);
    assert!(
        gap.length().to_f64() <= 1e-5 * size,
        "point_b != point_a + distance * normal (off by {gap:?}): {ctx}"
    );
}

/// Random capsule pairs (some with zero-length cores: balls), a third of them with crossing
/// cores, checked against [`capsule_truth`]; returns how many penetrate.
fn capsules<V: Space>(seed: u64, tol: f64) -> (usize, usize)
where
    V::Rotation: common::FromParts + common::RotF64<V>,
{
    let mut r = rng(seed);
    let (mut hits, n) = (0, 4000);
    for i in 0..n {
        let ha = if i % 5 == 0 { 0.0 } else { r.random_range(0.1..1.5) };
        let hb = if i % 7 == 0 { 0.0 } else { r.random_range(0.1..1.5) };
        let (ra, rb) = (r.random_range(0.05..0.6), r.random_range(0.05..0.6));
        let a = Capsule::<V>::new(V::Real::from_f64(ha), V::Real::from_f64(ra));
        let b = Capsule::<V>::new(V::Real::from_f64(hb), V::Real::from_f64(rb));
        let pa: Pose<V> = common::pose(&mut r, 2.0);
        let mut pb: Pose<V> = common::pose(&mut r, 2.0);
        if i % 3 == 0 {
            // Make the cores cross: put B's centre on A's core.
            let t = r.random_range(-1.0..1.0) * ha;
            pb.translation = pa.transform_point(V::axis(1) * V::Real::from_f64(t));
        }
        let world = |pose: &Pose<V>, h: f64| {
            let tip = V::axis(1) * V::Real::from_f64(h);
            [common::to_world_f64(pose, -tip), common::to_world_f64(pose, tip)]
        };
        let truth = capsule_truth(world(&pa, ha), world(&pb, hb), V::DIM, ra + rb);
        let margin = 0.25;
        let out = contact(&a, &pa, &b, &pb, V::Real::from_f64(margin), None);
        let ctx = format!("pair {i}: truth {truth}, {out:?}, {pa:?} {pb:?}");
        match out {
            None => assert!(truth > margin - tol, "no contact although {ctx}"),
            Some(c) => {
                check_shape_of(&c, &ctx);
                assert_close(c.distance.to_f64(), truth, tol, &ctx);
                // The points lie on the surfaces: within the radius of their core.
                for (p, pose, h, rad) in [(c.point_a, &pa, ha, ra), (c.point_b, &pb, hb, rb)] {
                    let core = world(pose, h);
                    let d = oracle::point_segment(
                        DVec3::from_array(p.to_f64_array()),
                        DVec3::from_array(core[0]),
                        DVec3::from_array(core[1]),
                    );
                    assert_close(d, rad, tol, &format!("surface point {p:?}: {ctx}"));
                }
            }
        }
        hits += usize::from(truth < 0.0);
    }
    (hits, n)
}

#[test]
fn capsules_and_balls_f64_3d() {
    let (hits, n) = capsules::<DVec3>(31, 1e-12);
    assert_mixed(hits, n, "capsules f64 3D");
}

#[test]
fn capsules_and_balls_f64_2d() {
    let (hits, n) = capsules::<DVec2>(32, 1e-12);
    assert_mixed(hits, n, "capsules f64 2D");
}

#[test]
fn capsules_and_balls_f32_3d() {
    let (hits, n) = capsules::<glam::Vec3>(33, 2e-5);
    assert_mixed(hits, n, "capsules f32 3D");
}

#[test]
fn capsules_and_balls_f32_2d() {
    let (hits, n) = capsules::<glam::Vec2>(34, 2e-5);
    assert_mixed(hits, n, "capsules f32 2D");
}

/// Coincident centres, coincident parallel cores, a point on a core: no direction is given
/// by the geometry, yet the normal must be a unit vector and the depth exact.
#[test]
fn coincident_cores_give_a_unit_normal_and_the_full_depth() {
    let ball = Ball::<DVec3>::new(0.5);
    let c = contact(&ball, &Pose::IDENTITY, &ball, &Pose::IDENTITY, 0.0, None).expect("overlapping");
    check_shape_of(&c, "coincident balls");
    assert_close(c.distance, -1.0, 1e-15, "coincident balls");

    let cap = Capsule::<DVec3>::new(1.0, 0.25);
    let c = contact(&cap, &Pose::IDENTITY, &cap, &Pose::IDENTITY, 0.0, None).expect("overlapping");
    check_shape_of(&c, "coincident capsules");
    assert_close(c.distance, -0.5, 1e-15, "coincident capsules: the depth is 2r, square to the core");
    assert!(c.normal.y.abs() < 1e-15, "normal {:?} must be square to the shared core", c.normal);

    // 2D: collinear overlapping cores.
    let cap = Capsule::<DVec2>::new(1.0, 0.25);
    let shifted = Pose::from_translation(DVec2::new(0.0, 0.5));
    let c = contact(&cap, &Pose::IDENTITY, &cap, &shifted, 0.0, None).expect("overlapping");
    check_shape_of(&c, "collinear 2D capsules");
    assert_close(c.distance, -0.5, 1e-15, "collinear 2D capsules");

    // A ball centred on a capsule's core, in 3D.
    let c = contact(
        &Capsule::<DVec3>::new(1.0, 0.25),
        &Pose::IDENTITY,
        &Ball::new(0.5),
        &Pose::from_translation(DVec3::Y * 0.3),
        0.0,
        None,
    )
    .expect("overlapping");
    check_shape_of(&c, "ball on a core");
    assert_close(c.distance, -0.75, 1e-15, "ball on a core");
}

/// Far apart pairs beyond the margin give `None`; inside it, the closest points.
#[test]
fn margin_decides_between_none_and_closest_points() {
    let ball = Ball::<DVec2>::new(1.0);
    let at = |x: f64| Pose::from_translation(DVec2::new(x, 0.0));
    assert!(contact(&ball, &Pose::IDENTITY, &ball, &at(2.5), 0.0, None).is_none());
    assert!(contact(&ball, &Pose::IDENTITY, &ball, &at(2.5), 0.4, None).is_none());
    let c = contact(&ball, &Pose::IDENTITY, &ball, &at(2.5), 0.6, None).expect("within the margin");
    assert_close(c.distance, 0.5, 1e-15, "speculative contact");
    assert_close(c.point_a.x, 1.0, 1e-15, "point on A");
    assert_close(c.point_b.x, 1.5, 1e-15, "point on B");
    // Exactly touching counts with a zero margin.
    let c = contact(&ball, &Pose::IDENTITY, &ball, &at(2.0), 0.0, None).expect("touching");
    assert_close(c.distance, 0.0, 1e-15, "touching");
    // A random direction, far scale: the normal follows the centres.
    let mut r = rng(5);
    for _ in 0..100 {
        let u: DVec3 = unit(&mut r);
        let s: f64 = 10f64.powf(r.random_range(-6.0..6.0));
        let b = Ball::<DVec3>::new(s);
        let c = contact(&b, &Pose::IDENTITY, &b, &Pose::from_translation(u * s * 1.5), 0.0, None)
            .expect("overlap");
        assert!((c.normal - u).length() < 1e-12, "normal {:?} vs {u:?} at scale {s}", c.normal);
        assert_close(c.distance / s, -0.5, 1e-12, "relative depth");
        let _ = vec_in::<DVec3>(&mut r, -1.0, 1.0);
    }
}

/// Shapes stay on the closed-form path however they are wrapped (`&S`, `Rounded`).
#[test]
fn radius_is_core_plus_rounding() {
    let ball = Ball::<DVec3>::new(0.5);
    assert_eq!(ball.radius(), 0.5);
    let rounded = kollide::shape::Rounded::try_new(Capsule::<DVec3>::new(1.0, 0.25), 0.25).unwrap();
    let c = contact(&rounded, &Pose::IDENTITY, &&ball, &Pose::from_translation(DVec3::X * 0.75), 0.0, None)
        .expect("overlap");
    assert_close(c.distance, -0.25, 1e-15, "rounded capsule vs ball");
}

/// A negative or NaN margin counts as 0, in `contact` and `manifold` alike (documented), so
/// a resting box keeps its four points.
#[test]
fn negative_or_nan_margin_counts_as_zero() {
    use kollide::query::manifold;
    use kollide::shape::Cuboid;
    let floor = Cuboid::new(DVec3::new(5.0, 0.5, 5.0));
    let cube = Cuboid::new(DVec3::splat(0.5));
    let on = Pose::from_translation(DVec3::new(0.0, 0.99, 0.0));
    for margin in [-0.1, f64::NAN, 0.0] {
        let c = contact(&floor, &Pose::IDENTITY, &cube, &on, margin, None).expect("penetrating");
        assert_close(c.distance, -0.01, 1e-12, "depth");
        assert_eq!(manifold(&floor, &Pose::IDENTITY, &cube, &on, margin).len(), 4, "margin {margin}");
    }
    let apart = Pose::from_translation(DVec3::new(0.0, 1.2, 0.0));
    assert!(contact(&floor, &Pose::IDENTITY, &cube, &apart, -0.1, None).is_none());
    assert!(manifold(&floor, &Pose::IDENTITY, &cube, &apart, f64::NAN).is_empty());
}
