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
