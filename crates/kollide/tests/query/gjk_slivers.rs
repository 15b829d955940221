//! GJK on the sliver simplices that round shapes make near their surface: a point just off a
//! cone's side or a cylinder's rim meets support points that are nearly collinear (the apex
//! and rim points a hair apart), and the triangle solver must keep its normal accurate
//! there. Judged by the f64 distances of `common/oracle.rs`; specks by ellipsoids, whose
//! support points crowd the same way, too.

use kollide::math::{DPose3, DQuat, DVec2, DVec3, Pose3};
use kollide::query::{distance, intersection_test, GjkStatus};
use kollide::shape::{Ball, Cone, Cylinder};
use rand::{Rng, SeedableRng};

use crate::common::oracle::{point_cone, point_cylinder, point_ellipsoid};

/// The f64 distance from `p` (the shape's frame) to a cylinder or a cone.
fn shape_distance(cylinder: bool, p: DVec3, h: f64, r: f64) -> f64 {
    if cylinder {
        point_cylinder(p, h, r)
    } else {
        point_cone(p, h, r)
    }
}

/// The profile of a cone (apex up, as kollide builds it) or a cylinder of half height `h`
/// and radius `r`.
fn profile(cylinder: bool, h: f64, r: f64) -> Vec<DVec2> {
    let (bottom, rim) = (DVec2::new(0.0, -h), DVec2::new(r, -h));
    if cylinder {
        vec![bottom, rim, DVec2::new(r, h), DVec2::new(0.0, h)]
    } else {
        vec![bottom, rim, DVec2::new(0.0, h)]
    }
}

/// A point just outside a round shape's surface must never be reported overlapping it, the
/// bounds must hold the truth, and `intersects` may only say true for a gap too thin to
/// prove (`Stalled`, within 4√ε of the size; 1.3√ε was the most seen over a million): 40,000 cones and cylinders of aspect 1:30 to 30:1, posed
/// at random, each with a speck a relative 1e-5 to 0.1 (f32) or 1e-12 to 0.1 (f64) off a
/// random point of its side, rim or base.
///
/// Before the triangle solver measured from the corner opposite its longest edge, 9 of these
/// 40,000 (in a sweep of 200,000: 17 of 50,000 cones in f32, 24 of 50,000 in f64) were
/// reported overlapping, as far as 5e-4 off the side in f32 and 3e-9 in f64: the normal of a
/// sliver triangle came out a few per cent off.
#[test]
fn specks_just_off_cones_and_cylinders_are_apart_within_the_bounds() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x511_7e25);
    let mut wrong = Vec::new();
    for k in 0..40_000 {
        let (cylinder, in_f32) = (k % 2 == 1, k % 4 < 2);
        let h: f64 = 10f64.powf(rng.random_range(-1.0..1.5));
        let r = h * 10f64.powf(rng.random_range(-1.5..1.5));
        // A point on the profile's outer edges, moved out along the edge's normal.
        let outline = profile(cylinder, h, r);
        let i = rng.random_range(0..outline.len() - 1);
        let (a, b) = (outline[i], outline[i + 1]);
        let on = a + (b - a) * rng.random_range(0.0..1.0);
        let out = -(b - a).perp().normalize();
        let exponent = if in_f32 { rng.random_range(-5.0..-1.0) } else { rng.random_range(-12.0..-1.0) };
        let q = on + out * 10f64.powf(exponent) * h.max(r);
        let turn = rng.random_range(0.0..std::f64::consts::TAU);
        let local = DVec3::new(q.x.abs() * turn.cos(), q.y, q.x.abs() * turn.sin());
        let axis =
            DVec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
        let rotation = DQuat::from_axis_angle(axis.normalize(), rng.random_range(0.0..std::f64::consts::TAU));
        let translation = DVec3::new(
            rng.random_range(-10.0..10.0),
            rng.random_range(-10.0..10.0),
            rng.random_range(-10.0..10.0),
        );
        let pose = DPose3::new(translation, rotation);
        let at = pose.transform_point(local);
        let (truth, status, lower, upper, hit, eps) = if in_f32 {
            // Judged on the f32 inputs as given: the pose and sizes rounded.
            let (pose32, at32, h32, r32) =
                (Pose3::new(translation.as_vec3(), rotation.as_quat()), at.as_vec3(), h as f32, r as f32);
            let rotation64 = DQuat::from_array(pose32.rotation.to_array().map(f64::from));
            let back = DPose3::new(pose32.translation.as_dvec3(), rotation64)
                .inverse_transform_point(at32.as_dvec3());
            let truth = shape_distance(cylinder, back, f64::from(h32), f64::from(r32));
            let speck = (Ball::new(1e-12f32), Pose3::from_translation(at32));
            let (d, i) = if cylinder {
                let shape = Cylinder::new(h32, r32);
                (
                    distance(&shape, &pose32, &speck.0, &speck.1),
                    intersection_test(&shape, &pose32, &speck.0, &speck.1),
                )
            } else {
                let shape = Cone::new(h32, r32);
                (
                    distance(&shape, &pose32, &speck.0, &speck.1),
                    intersection_test(&shape, &pose32, &speck.0, &speck.1),
                )
            };
            (truth, d.status, f64::from(d.lower_bound), f64::from(d.upper_bound), i, f64::from(f32::EPSILON))
        } else {
            let back = pose.inverse_transform_point(at);
            let truth = shape_distance(cylinder, back, h, r);
            let speck = (Ball::new(1e-300), DPose3::from_translation(at));
            let (d, i) = if cylinder {
                let shape = Cylinder::new(h, r);
                (
                    distance(&shape, &pose, &speck.0, &speck.1),
                    intersection_test(&shape, &pose, &speck.0, &speck.1),
                )
            } else {
                let shape = Cone::new(h, r);
                (
                    distance(&shape, &pose, &speck.0, &speck.1),
                    intersection_test(&shape, &pose, &speck.0, &speck.1),
                )
            };
            (truth, d.status, d.lower_bound, d.upper_bound, i, f64::EPSILON)
        };
        // `intersects` may say true only for a gap it could not prove (`Stalled`), and only
        // within a few √ε of the size (see `intersection_test`).
        let thin = 4.0 * eps.sqrt() * h.max(r);
        if hit.intersects && truth > 0.0 && (truth > thin || hit.status != GjkStatus::Stalled) {
            wrong.push(format!("intersects: h {h} r {r} at {at:?} ({pose:?}): truth {truth:e}, {hit:?}"));
        }
        let slack = 1e-9 * truth;
        if truth > upper + slack || truth < lower - slack {
            let shape = if cylinder { "cylinder" } else { "cone" };
            let float = if in_f32 { "f32" } else { "f64" };
            wrong.push(format!("{float} {shape} h {h} r {r} at {at:?} ({pose:?}): truth {truth:e}, {status:?} [{lower:e}, {upper:e}]"));
        }
    }
    assert!(wrong.is_empty(), "{} of 40,000:\n{}", wrong.len(), wrong.join("\n"));
}

/// A random unit vector (not uniform on the sphere; any spread does here).
fn unit(rng: &mut impl Rng) -> DVec3 {
    DVec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
        .normalize()
}

/// Specks just off ellipsoids of aspect up to 1:1000, posed at random, 1e-5 to 0.1 (f32) or
/// 1e-12 to 0.1 (f64) of the largest radius off a random point of the surface: the bounds
/// hold the f64 distance (a bisection on the closest point's equation), and `intersects`
/// says true only within 4√ε of the size. (A sweep of 400,000 found nothing wrong; the
/// same judge made 1e-4 too long flags 9,914 of these 20,000.)
#[test]
fn specks_just_off_ellipsoids_are_apart_within_the_bounds() {
    use kollide::shape::Ellipsoid;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0xe11_1950);
    let mut wrong = Vec::new();
    for k in 0..20_000 {
        let in_f32 = k % 2 == 0;
        let base: f64 = 10f64.powf(rng.random_range(-1.0..1.0));
        let radii = DVec3::new(
            base,
            base * 10f64.powf(rng.random_range(-1.5..1.5)),
            base * 10f64.powf(rng.random_range(-1.5..1.5)),
        );
        let on = unit(&mut rng) * radii;
        let on = on / (on / radii).length();
        let exponent = if in_f32 { rng.random_range(-5.0..-1.0) } else { rng.random_range(-12.0..-1.0) };
        let local = on + (on / (radii * radii)).normalize() * 10f64.powf(exponent) * radii.max_element();
        let rotation = DQuat::from_axis_angle(unit(&mut rng), rng.random_range(0.0..std::f64::consts::TAU));
        let translation = unit(&mut rng) * 10.0;
        let pose = DPose3::new(translation, rotation);
        let at = pose.transform_point(local);
        let (truth, status, lower, upper, hit, eps) = if in_f32 {
            let (pose32, at32, radii32) =
                (Pose3::new(translation.as_vec3(), rotation.as_quat()), at.as_vec3(), radii.as_vec3());
            let rotation64 = DQuat::from_array(pose32.rotation.to_array().map(f64::from));
            let back = DPose3::new(pose32.translation.as_dvec3(), rotation64)
                .inverse_transform_point(at32.as_dvec3());
            let truth = point_ellipsoid(back, radii32.as_dvec3());
            let (shape, speck) =
                (Ellipsoid::new(radii32), (Ball::new(1e-12f32), Pose3::from_translation(at32)));
            let d = distance(&shape, &pose32, &speck.0, &speck.1);
            let i = intersection_test(&shape, &pose32, &speck.0, &speck.1);
            (truth, d.status, f64::from(d.lower_bound), f64::from(d.upper_bound), i, f64::from(f32::EPSILON))
        } else {
            let truth = point_ellipsoid(pose.inverse_transform_point(at), radii);
            let (shape, speck) = (Ellipsoid::new(radii), (Ball::new(1e-300), DPose3::from_translation(at)));
            let d = distance(&shape, &pose, &speck.0, &speck.1);
            let i = intersection_test(&shape, &pose, &speck.0, &speck.1);
            (truth, d.status, d.lower_bound, d.upper_bound, i, f64::EPSILON)
        };
        let float = if in_f32 { "f32" } else { "f64" };
        if hit.intersects && truth > 4.0 * eps.sqrt() * radii.max_element() {
            wrong.push(format!(
                "{float} intersects: radii {radii} at {at} ({pose:?}): truth {truth:e}, {hit:?}"
            ));
        }
        let slack = 1e-9 * truth;
        if truth > upper + slack || truth < lower - slack {
            wrong.push(format!("{float} radii {radii} at {at} ({pose:?}): truth {truth:e}, {status:?} [{lower:e}, {upper:e}]"));
        }
    }
    assert!(wrong.is_empty(), "{} of 20,000:\n{}", wrong.len(), wrong.join("\n"));
}
