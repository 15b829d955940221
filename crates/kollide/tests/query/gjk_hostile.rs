//! Degenerate and hostile inputs: touching and coincident shapes, flat and needle-thin
//! polytopes, duplicate points, extreme scales, bad numbers, a broken user support function.
//! Truth comes from closed forms or the f64 oracle; "never a panic, never NaN" throughout.

use crate::common;
use kollide::query::Space;

use common::oracle;
use common::{assert_close, pose, rng, unit, PointCloud};
use glam::{DQuat, DVec2, DVec3, Vec2, Vec3};
use kollide::math::{DPose2, DPose3, Pose, Pose3, PoseError, Real, Rot2};
use kollide::query::{distance, intersection_test, intersects, DistanceOutput, GjkStatus};
use kollide::shape::*;

fn finite<V: Space>(out: &DistanceOutput<V>) {
    for x in [out.distance, out.lower_bound, out.point_a[0], out.point_b[0], out.normal[0]] {
        assert!(!x.to_f64().is_nan(), "NaN in {out:?}");
    }
    assert!(out.distance.is_finite(), "{out:?}");
}

#[test]
fn touching_boxes_face_edge_vertex() {
    let cube = Cuboid::new(DVec3::ONE);
    let id = DPose3::IDENTITY;
    // Face to face, edge to face (B turned 45° about z), vertex to face (B turned so a
    // corner points down the x axis). Each B is placed at the exact touching distance.
    let s2 = 2f64.sqrt();
    let s3 = 3f64.sqrt();
    let corner_to_x = DQuat::from_rotation_arc(DVec3::ONE.normalize(), DVec3::NEG_X);
    let cases = [
        DPose3::from_translation(DVec3::new(2.0, 0.3, -0.2)),
        DPose3::new(DVec3::new(1.0 + s2, 0.1, 0.2), DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4)),
        DPose3::new(DVec3::new(1.0 + s3, 0.2, 0.1), corner_to_x),
    ];
    for pb in cases {
        let out = distance(&cube, &id, &cube, &pb);
        finite(&out);
        assert!(out.distance <= 1e-12, "touching boxes at {pb:?}: {out:?}");
        assert!(out.lower_bound <= 0.0 + 1e-15 && out.upper_bound >= 0.0);
        assert!(intersects(&cube, &id, &cube, &pb), "touching counts as intersecting: {pb:?}");
        // Pulled apart by 1e-9 along x: separated, and the distance says by how much.
        let apart = pb.with_translation(pb.translation + DVec3::X * 1e-9);
        let out = distance(&cube, &id, &cube, &apart);
        assert_close(out.distance, 1e-9, 1e-13, "boxes 1e-9 apart");
        let hit = intersection_test(&cube, &id, &cube, &apart);
        assert!(!hit.intersects, "{hit:?} {out:?}");
    }
}

#[test]
fn touching_balls_and_capsules() {
    let ball = Ball::new(0.5);
    let out = distance(&ball, &DPose3::IDENTITY, &ball, &DPose3::from_translation(DVec3::new(0.6, 0.8, 0.0)));
    assert_close(out.distance, 0.0, 1e-15, "touching balls");
    assert!(intersects(
        &ball,
        &DPose3::IDENTITY,
        &ball,
        &DPose3::from_translation(DVec3::new(0.6, 0.8, 0.0))
    ));
    let cap = Capsule::<DVec2>::new(1.0, 0.25);
    let pb = DPose2::from_angle(DVec2::new(0.5, 0.0), 0.0);
    assert!(intersects(&cap, &DPose2::IDENTITY, &cap, &pb));
    assert_close(distance(&cap, &DPose2::IDENTITY, &cap, &pb).distance, 0.0, 1e-15, "touching capsules");
}

/// Every shape against itself at the same pose: distance 0, overlapping, no NaN.
#[test]
fn identical_shapes_at_the_same_pose() {
    let p = Pose3::new(Vec3::new(0.3, -2.0, 1.0), glam::Quat::from_rotation_y(0.7));
    fn same<S: Support<Vec3>>(s: &S, p: &Pose3, name: &str) {
        let out = distance(s, p, s, p);
        finite(&out);
        assert_eq!(out.distance, 0.0, "{name}: {out:?}");
        assert_eq!(out.status, GjkStatus::Overlapping, "{name}: {out:?}");
        assert!(intersects(s, p, s, p), "{name}");
    }
    same(&Ball::new(1.0), &p, "ball");
    same(&Cuboid::new(Vec3::new(1.0, 2.0, 0.5)), &p, "cuboid");
    same(&Capsule::new(1.0, 0.2), &p, "capsule");
    same(&Cylinder::new(1.0, 0.2), &p, "cylinder");
    same(&Cone::new(1.0, 0.2), &p, "cone");
    same(&Ellipsoid::new(Vec3::new(1.0, 2.0, 0.5)), &p, "ellipsoid");
    same(&Segment::new(Vec3::ZERO, Vec3::X), &p, "segment");
    same(&Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y), &p, "triangle");
    same(&Rounded::try_new(Cuboid::new(Vec3::ONE), 0.1).unwrap(), &p, "rounded cuboid");
    same(&PointCloud(vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]), &p, "tetrahedron");
    let poly = ConvexPolygon::from_points(&[Vec2::ZERO, Vec2::X, Vec2::Y]);
    let p2 = Pose::from_angle(Vec2::new(1.0, 2.0), 0.3);
    let out = distance(&poly, &p2, &poly, &p2);
    assert_eq!((out.distance, out.status), (0.0, GjkStatus::Overlapping), "{out:?}");
}

/// Flat (coplanar), needle-thin (nearly collinear) and duplicated point sets, against the
/// oracle in f64.
#[test]
fn flat_needle_and_duplicate_polytopes() {
    let mut r = rng(21);
    let mut checked = 0;
    for k in 0..600 {
        let mut a: Vec<DVec3> = (0..8).map(|_| unit::<DVec3>(&mut r)).collect();
        match k % 3 {
            0 => a.iter_mut().for_each(|p| p.z = 0.0), // flat
            1 => a.iter_mut().for_each(|p| *p = DVec3::new(p.x, p.y * 1e-7, p.z * 1e-7)), // needle
            _ => a = a.iter().flat_map(|p| [*p, *p, *p]).collect(), // duplicates
        }
        let b: Vec<DVec3> = (0..6).map(|_| unit::<DVec3>(&mut r)).collect();
        let (pa, pb): (DPose3, DPose3) = (pose(&mut r, 1.2), pose(&mut r, 1.2));
        let wa: Vec<DVec3> = a.iter().map(|&p| pa.transform_point(p)).collect();
        let wb: Vec<DVec3> = b.iter().map(|&p| pb.transform_point(p)).collect();
        let truth = oracle::polytope_distance_3d(&wa, &wb);
        let out = distance(&PointCloud(a), &pa, &PointCloud(b), &pb);
        finite(&out);
        assert_close(out.distance, truth, 1e-9, &format!("case {k}"));
        assert!(out.lower_bound <= truth && truth <= out.upper_bound, "case {k}: {out:?} truth {truth}");
        checked += 1;
    }
    assert_eq!(checked, 600);
}

/// The same random pairs scaled to 1e-6 and 1e6: distances scale, statuses stay clean.
fn scaled<V: Space>(scale: f64, tol_rel: f64, seed: u64)
where
    V::Rotation: common::FromParts + common::RotF64<V>,
{
    let mut r = rng(seed);
    let s = V::Real::from_f64(scale);
    for k in 0..400 {
        let a: Vec<V> = (0..8).map(|_| unit::<V>(&mut r) * s).collect();
        let b: Vec<V> = (0..8).map(|_| unit::<V>(&mut r) * s).collect();
        let mut pa: Pose<V> = pose(&mut r, 1.5);
        let mut pb: Pose<V> = pose(&mut r, 1.5);
        pa.translation = pa.translation * s;
        pb.translation = pb.translation * s;
        let w = |p: &Pose<V>, v: &[V]| {
            v.iter().map(|&x| DVec3::from_array(common::to_world_f64(p, x))).collect::<Vec<_>>()
        };
        let truth = if V::DIM == 3 {
            oracle::polytope_distance_3d(&w(&pa, &a), &w(&pb, &b))
        } else {
            let f = |v: Vec<DVec3>| v.iter().map(|p| p.truncate()).collect::<Vec<_>>();
            oracle::polygon_distance_2d(&f(w(&pa, &a)), &f(w(&pb, &b)))
        };
        let out = distance(&PointCloud(a), &pa, &PointCloud(b), &pb);
        finite(&out);
        assert!(
            matches!(out.status, GjkStatus::Converged | GjkStatus::Overlapping),
            "scale {scale}, case {k}: {out:?}"
        );
        assert_close(out.distance.to_f64(), truth, tol_rel * scale, &format!("scale {scale}, case {k}"));
        let (lo, hi) = (out.lower_bound.to_f64(), out.upper_bound.to_f64());
        assert!(lo <= truth && truth <= hi, "scale {scale}, case {k}: bounds [{lo}, {hi}] miss {truth}");
    }
}

#[test]
fn tiny_and_huge_scales() {
    for scale in [1e-6, 1e6] {
        scaled::<DVec3>(scale, 1e-9, 31);
        scaled::<DVec2>(scale, 1e-9, 32);
        scaled::<Vec3>(scale, 2e-5, 33);
        scaled::<Vec2>(scale, 2e-5, 34);
    }
}

#[test]
fn bad_numbers_are_named_at_construction() {
    let nan = f64::NAN;
    let inf = f64::INFINITY;
    let msg = |e: ShapeError| e.to_string();
    assert_eq!(msg(Ball::<DVec3>::try_new(nan).unwrap_err()), "radius is not finite (NaN or infinity)");
    assert_eq!(msg(Ball::<DVec3>::try_new(-1.0).unwrap_err()), "radius must be > 0, got -1");
    assert_eq!(msg(Ball::<DVec3>::try_new(0.0).unwrap_err()), "radius must be > 0, got 0");
    assert_eq!(
        msg(Cuboid::try_new(DVec3::new(1.0, inf, 1.0)).unwrap_err()),
        "half_extents.y is not finite (NaN or infinity)"
    );
    assert_eq!(
        msg(Cuboid::try_new(DVec3::new(1.0, 1.0, -2.0)).unwrap_err()),
        "half_extents.z must be > 0, got -2"
    );
    assert_eq!(msg(Capsule::<DVec3>::try_new(-0.5, 1.0).unwrap_err()), "half_height must be >= 0, got -0.5");
    assert_eq!(
        msg(Capsule::<DVec3>::try_new(0.5, nan).unwrap_err()),
        "radius is not finite (NaN or infinity)"
    );
    assert_eq!(msg(Cylinder::<DVec3>::try_new(0.0, 1.0).unwrap_err()), "half_height must be > 0, got 0");
    assert_eq!(msg(Cone::<DVec3>::try_new(1.0, inf).unwrap_err()), "radius is not finite (NaN or infinity)");
    assert_eq!(msg(Ellipsoid::try_new(DVec2::new(0.0, 1.0)).unwrap_err()), "radii.x must be > 0, got 0");
    assert_eq!(
        msg(Segment::try_new(DVec3::ZERO, DVec3::new(nan, 0.0, 0.0)).unwrap_err()),
        "b.x is not finite (NaN or infinity)"
    );
    assert_eq!(
        msg(Triangle::try_new(DVec2::ZERO, DVec2::X, DVec2::new(0.0, inf)).unwrap_err()),
        "c.y is not finite (NaN or infinity)"
    );
    assert_eq!(
        msg(Rounded::try_new(Ball::<DVec3>::new(1.0), -0.1).unwrap_err()),
        "round must be >= 0, got -0.1"
    );
    let pts = [DVec2::ZERO, DVec2::X, DVec2::new(0.0, nan), DVec2::Y];
    assert_eq!(
        msg(ConvexPolygon::try_from_points(&pts).unwrap_err()),
        "points[2].y is not finite (NaN or infinity)"
    );
    assert_eq!(
        ConvexPolygon::try_from_points(&[DVec2::ZERO, DVec2::X]).unwrap_err(),
        ShapeError::TooFewPoints { count: 2, needed: 3 }
    );
    let line = [DVec2::ZERO, DVec2::X, DVec2::X * 2.0, DVec2::X, DVec2::ZERO];
    assert_eq!(ConvexPolygon::try_from_points(&line).unwrap_err(), ShapeError::Collinear { count: 5 });
    // Poses: non-finite translation, non-unit rotations in 2D and 3D.
    assert_eq!(
        DPose3::try_new(DVec3::new(0.0, 0.0, inf), DQuat::IDENTITY),
        Err(PoseError::NonFiniteTranslation { component: 2 })
    );
    assert!(matches!(
        DPose3::try_new(DVec3::ZERO, DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
        Err(PoseError::NonUnitRotation { .. })
    ));
    assert!(matches!(
        DPose3::try_new(DVec3::ZERO, DQuat::from_xyzw(nan, 0.0, 0.0, 1.0)),
        Err(PoseError::NonFiniteRotation)
    ));
    let r2 = Rot2 { cos: 2.0, sin: 0.0 };
    assert!(
        matches!(DPose2::try_new(DVec2::ZERO, r2), Err(PoseError::NonUnitRotation { norm }) if norm == 2.0)
    );
}

/// A user's support function that returns NaN (a bug in their code) gives a status, not a
/// panic, a NaN distance or an endless loop.
#[test]
fn broken_user_support_reports_a_status() {
    struct Broken;
    impl Support<DVec3> for Broken {
        fn support(&self, d: DVec3) -> DVec3 {
            if d.x > 0.0 {
                DVec3::NAN
            } else {
                DVec3::ONE
            }
        }
    }
    let cube = Cuboid::new(DVec3::ONE);
    // B lies along +x, so A's support is asked along +x at once.
    for x in [5.0, 50.0] {
        let pb = DPose3::from_translation(DVec3::new(x, 0.0, 0.0));
        let out = distance(&Broken, &DPose3::IDENTITY, &cube, &pb);
        assert_eq!(out.status, GjkStatus::NonFiniteSupport, "{out:?}");
        assert_eq!(out.lower_bound, 0.0);
        assert_eq!(out.upper_bound, f64::INFINITY);
        let hit = intersection_test(&Broken, &DPose3::IDENTITY, &cube, &pb);
        assert_eq!(hit.status, GjkStatus::NonFiniteSupport);
    }
}
