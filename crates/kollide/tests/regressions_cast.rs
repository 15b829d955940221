//! Regressions of the continuous queries, each telling its story.

use kollide::math::{DPose3, DVec3, Pose3, Vec3};
use kollide::query::cast::{ray_cast, Ray, RayOutcome};
use kollide::shape::Cone;

/// A ray from far away hit a cone at the right time but reported the wrong normal.
///
/// The cone's quadratic is solved from the point of the ray's line nearest the cone (so a
/// far origin's size does not swamp the cone's), at time `tc` along the ray; the normal was
/// then evaluated at `m + t d` with the full time `t` instead of `t - tc`, i.e. at a point
/// about `tc` units off. Found by the random-ray oracle after a change of inlining moved
/// which rays took the shifted path; it holds for any origin farther than twice the cone's
/// reach.
#[test]
fn cone_normal_of_a_ray_from_far_away() {
    // Apex at y = 1, base of radius 1 at y = -1: at y = 0 the side is at x = 0.5, and the
    // outward normal is the gradient of x² + z² - (1 - y)²/4 there: (0.5, 0.25, 0) unit.
    let want = DVec3::new(0.5, 0.25, 0.0).normalize();
    let cone = Cone::<DVec3>::new(1.0, 1.0);
    for far in [3.0, 10.0, 1.0e4] {
        let ray = Ray::new(DVec3::new(far, 0.0, 0.0), DVec3::NEG_X);
        let RayOutcome::Hit(hit) = ray_cast(&cone, &DPose3::IDENTITY, &ray, f64::INFINITY) else {
            panic!("the ray from {far} must hit the cone");
        };
        assert!((hit.toi - (far - 0.5)).abs() < 1e-9 * far, "toi {} from {far}", hit.toi);
        assert!((hit.normal - want).length() < 1e-9, "normal {:?} from {far}, want {want:?}", hit.normal);
    }
    let cone = Cone::<Vec3>::new(1.0, 1.0);
    let ray = Ray::new(Vec3::new(10.0, 0.0, 0.0), Vec3::NEG_X);
    let RayOutcome::Hit(hit) = ray_cast(&cone, &Pose3::IDENTITY, &ray, f32::INFINITY) else { panic!() };
    assert!((hit.normal - want.as_vec3()).length() < 1e-5, "f32 normal {:?}", hit.normal);
}

/// A turning compound cast its parts along straight lines (found by the fuzz target
/// `casts`).
///
/// Each part off the compound's origin was given the velocity its origin has at the start,
/// `v + ω × r`, and cast as a body turning about its own origin: right for the first
/// instant, but the part then runs along the tangent instead of the arc, and a turning
/// compound missed what its parts sweep through (or hit it at the wrong time). A ball on an
/// arm of length 2 turning at 1 rad/s about z meets a ball at (0, 2, 0) when their centres
/// are 1 apart: 4 cos²θ + (2 sin θ - 2)² = 1, sin θ = 7/8, at t = asin(7/8); the tangent
/// (2, 2t, 0) never comes within 2 and was a miss. Both orders (the compound as A, as B) and
/// a mesh triangle off the origin likewise.
#[test]
fn a_turning_compound_carries_its_parts_on_arcs() {
    use kollide::composite::{composite_pair_cast, composite_shape_cast, Compound, TriMesh};
    use kollide::query::cast::{CastInput, CastStatus, Motion};
    use kollide::shape::{Ball, Convex3};
    let arm = Compound::new(vec![(
        DPose3::from_translation(DVec3::new(2.0, 0.0, 0.0)),
        Convex3::Ball(Ball::new(0.5)),
    )]);
    let target = Ball::new(0.5);
    let at = DPose3::from_translation(DVec3::new(0.0, 2.0, 0.0));
    let turning = Motion { velocity: DVec3::ZERO, angular_velocity: DVec3::Z };
    let expected = (7.0f64 / 8.0).asin();
    let input = CastInput { motion_a: turning, ..CastInput::linear(DVec3::ZERO, DVec3::ZERO, 3.0) };
    let out = composite_shape_cast(&arm, &DPose3::IDENTITY, &target, &at, &input).expect("a hit").value;
    assert_eq!(out.status, CastStatus::Hit, "{out:?}");
    assert!((out.toi - expected).abs() < 1e-6, "toi {} expected {expected}", out.toi);
    // The compound as B of a pair of composites: B's parts turn about B's origin.
    let still = Compound::new(vec![(at, Convex3::Ball(Ball::new(0.5)))]);
    let input_b = CastInput { motion_b: turning, ..CastInput::linear(DVec3::ZERO, DVec3::ZERO, 3.0) };
    let out = composite_pair_cast(&still, &DPose3::IDENTITY, &arm, &DPose3::IDENTITY, &input_b)
        .expect("a hit")
        .value;
    assert!((out.toi - expected).abs() < 1e-6, "pair toi {} expected {expected}", out.toi);
    // A triangle of a mesh far from the mesh's origin (parts are placed at their first
    // corner): a thin triangle at x = 2 swept round at 1 rad/s meets the ball at (0, 2, 0)
    // when its corner nearest the axis, at distance 2 along the arm, comes within 0.5.
    let mesh = TriMesh::new(
        vec![DVec3::new(2.0, 0.0, -1.0), DVec3::new(3.0, 0.0, -1.0), DVec3::new(2.0, 0.0, 1.0)],
        vec![[0, 1, 2]],
    );
    let out = composite_shape_cast(&mesh, &DPose3::IDENTITY, &target, &at, &input).expect("a hit").value;
    // The triangle's nearest point to the ball's centre is its corner edge at radius 2 (the
    // centre's projection onto the turned plane falls inside radius 2): the chord between
    // two points at radius 2 an angle φ apart is 4 sin(φ / 2), which is 0.5 at
    // φ = 2 asin(1/8) short of a quarter turn.
    let edge = std::f64::consts::FRAC_PI_2 - 2.0 * (0.125f64).asin();
    assert_eq!(out.status, CastStatus::Hit, "{out:?}");
    assert!((out.toi - edge).abs() < 1e-5, "mesh toi {} expected {edge}", out.toi);
}
