//! Regression: a warm start after a large jump broke the certified bounds (outside probe,
//! finding F2).
//!
//! The story: `SimplexCache` kept B's points in A's frame under the pose of the last query
//! and moved them to the new pose with `new ∘ old⁻¹`. After a jump of 1e17 that composition
//! cancels catastrophically (f64 carries 16 digits, the jump 17): the loaded "points of B"
//! were tens of units off B, GJK trusted them as support points, and the upper bound it
//! certified (0.1655) was far below the true distance (0.7515), with status `Converged`.
//! Smaller jumps gave smaller errors (1e-12 after a jump of 1e4), enough for
//! `lower_bound > upper_bound` now and then. The cache now keeps B's points in B's own
//! frame, as B's support function returned them, and places them with the new pose in one
//! transform, so they are points of B whatever happened before. Conservative advancement
//! (`shape_cast` with rotation) steps on these lower bounds: they must be sound.

use crate::common;

use crate::solid3d;
use common::oracle;
use glam::{DQuat, DVec2, DVec3};
use kollide::math::{DPose2, DPose3};
use kollide::query::{distance, distance_cached, SimplexCache};
use kollide::shape::Cuboid;
use solid3d::{corners, world};

/// The probe's reproducer, and the same jump at other sizes.
#[test]
fn warm_start_after_a_large_jump_keeps_the_bounds() {
    let cube = Cuboid::new(DVec3::ONE);
    let pb = DPose3::new(DVec3::new(3.0, 0.7, -0.4), DQuat::from_rotation_y(0.3));
    let cube_corners = corners(DVec3::ONE);
    let truth =
        oracle::polytope_distance_3d(&world(&DPose3::IDENTITY, &cube_corners), &world(&pb, &cube_corners));
    // The probe's independent figure (scipy's hull of the Minkowski difference).
    assert!((truth - 0.751_527_562_964_325_3).abs() < 1e-12, "oracle {truth}");
    let cold = distance(&cube, &DPose3::IDENTITY, &cube, &pb);
    for jump in [1e2, 1e4, 1e8, 1e12, 1e15, 1e17, 1e30] {
        let mut cache = SimplexCache::default();
        let far = DPose3::new(DVec3::new(jump, -0.3 * jump, 0.1), DQuat::from_rotation_x(1.1));
        let _ = distance_cached(&cube, &DPose3::IDENTITY, &cube, &far, &mut cache, None);
        let warm = distance_cached(&cube, &DPose3::IDENTITY, &cube, &pb, &mut cache, None);
        assert!(
            warm.lower_bound <= truth && truth <= warm.upper_bound,
            "jump {jump:e}: warm bounds [{}, {}] exclude the truth {truth}",
            warm.lower_bound,
            warm.upper_bound
        );
        assert!((warm.distance - cold.distance).abs() <= 1e-9, "jump {jump:e}: warm {warm:?} cold {cold:?}");
    }
}

/// The probe's 2D squares: a jump of only 1e4 put the warm upper bound 1.3e-12 below the
/// true distance (checked there in exact rational arithmetic).
#[test]
fn warm_start_after_a_jump_in_2d() {
    let square = Cuboid::new(DVec2::ONE);
    let pb = DPose2::from_angle(DVec2::new(3.0, 0.7), 0.3);
    let sq = |p: &DPose2| -> Vec<DVec2> {
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .iter()
            .map(|&(x, y)| p.transform_point(DVec2::new(x, y)))
            .collect()
    };
    let truth = oracle::polygon_distance_2d(&sq(&DPose2::IDENTITY), &sq(&pb));
    assert!((truth - 0.822_016_916_252_81).abs() < 1e-13, "oracle {truth}");
    for (jump, angle) in [1e4, 1e8, 1e16].into_iter().flat_map(|j| (0..8).map(move |k| (j, 0.8 * k as f64))) {
        let mut cache = SimplexCache::default();
        let far = DPose2::from_angle(DVec2::new(jump, 0.7 * jump), angle);
        let _ = distance_cached(&square, &DPose2::IDENTITY, &square, &far, &mut cache, None);
        let warm = distance_cached(&square, &DPose2::IDENTITY, &square, &pb, &mut cache, None);
        assert!(
            warm.lower_bound <= truth && truth <= warm.upper_bound,
            "jump {jump:e} angle {angle}: warm bounds [{}, {}] exclude the truth {truth} (by {:e})",
            warm.lower_bound,
            warm.upper_bound,
            (truth - warm.upper_bound).max(warm.lower_bound - truth)
        );
    }
}
