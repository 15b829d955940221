//! Regression tests: each tells the story of what broke.

use glam::{Quat, Vec3};
use kollide::math::Pose3;
use kollide::query::{distance, GjkStatus};

use kollide::shape::{Cuboid, Triangle};

/// Two boxes face to face, one tilted by small to moderate angles, in f32: the family of
/// configurations around the stall below. The exact distance is closed-form: the lowest
/// corner of the tilted box above the top face of the other.
#[test]
fn tilted_face_face_boxes_converge_in_f32() {
    let a = Cuboid::new(Vec3::new(1.0, 0.5, 0.8));
    let b = Cuboid::new(Vec3::new(0.6, 0.3, 0.7));
    let mut tilts = 0;
    for i in 0..200 {
        let angle = 1e-4 * 1.05f32.powi(i); // 1e-4 .. ~1.7
        if angle > 0.5 {
            break;
        }
        let rot = Quat::from_axis_angle(Vec3::new(0.3, 0.0, 1.0).normalize(), angle);
        let gap = 0.25;
        // Lowest point of B (in A's frame, before lifting) along y.
        let low = (0..8)
            .map(|m| {
                let c = Vec3::new(
                    if m & 1 == 1 { 0.6 } else { -0.6 },
                    if m & 2 == 2 { 0.3 } else { -0.3 },
                    if m & 4 == 4 { 0.7 } else { -0.7 },
                );
                (rot * c).y as f64
            })
            .fold(f64::MAX, f64::min);
        let lift = 0.5 + gap - low as f32;
        let pose_b = Pose3::new(Vec3::new(0.1, lift, -0.05), rot);
        let out = distance(&a, &Pose3::IDENTITY, &b, &pose_b);
        let truth = lift as f64 + low - 0.5;
        assert_eq!(out.status, GjkStatus::Converged, "tilt {angle}: {out:?}");
        let (lo, hi) = (out.lower_bound as f64, out.upper_bound as f64);
        assert!(lo <= truth && truth <= hi, "tilt {angle}: bounds [{lo}, {hi}] miss {truth}");
        assert!(hi - lo <= 1e-4 * truth, "tilt {angle}: bounds [{lo}, {hi}] wider than 1e-4 relative");
        tilts += 1;
    }
    assert!(tilts > 100);
}

/// The exact pair the random test found (f32, a thin box against a triangle whose face is
/// nearly parallel to the box's).
///
/// GJK stopped as `Stalled` after two iterations with a lower bound 8e-4 below the distance:
/// the last step improved |v| only to second order in the tilt (below f32 rounding) while
/// it fixed the direction of v to first order, and a strict "|v| must decrease" check threw
/// it away. Now a step no worse than rounding is accepted (a few times at most). Truth from the f64 brute-force oracle of
/// `gjk_polytopes.rs`: 0.5294271832534652.
#[test]
fn random_pair_738_box_triangle_f32_converges() {
    let cube = Cuboid::new(Vec3::new(0.7592296, 0.6691357, 0.11963047));
    let triangle = Triangle::new(
        Vec3::new(-0.2957059, -0.87323254, 0.38732797),
        Vec3::new(0.9203035, 0.36304873, -0.1457294),
        Vec3::new(0.5716648, -0.10971706, 0.8131184),
    );
    let pa = Pose3::new(
        Vec3::new(-0.75678414, -0.0067782705, -0.36427283),
        Quat::from_xyzw(0.58320117, 0.45933372, -0.4572751, -0.48968193),
    );
    let pb = Pose3::new(
        Vec3::new(-0.62749535, 0.70966315, 0.7109743),
        Quat::from_xyzw(0.106711134, 0.5265026, 0.44386747, -0.71720946),
    );
    let truth = 0.5294271832534652;
    let out = distance(&cube, &pa, &triangle, &pb);
    assert_eq!(out.status, GjkStatus::Converged, "{out:?}");
    let (lo, hi) = (out.lower_bound as f64, out.upper_bound as f64);
    assert!(lo <= truth && truth <= hi, "bounds [{lo}, {hi}] miss {truth}");
    assert!(hi - lo <= 1e-4 * truth, "bounds [{lo}, {hi}] wider than 1e-4 relative");
}
