//! The warm-start cache: along a smooth trajectory the cached query gives the cold query's
//! answer (checked against the oracle too) in fewer iterations; a stale cache after a jump
//! is still correct.

use crate::common;

use common::oracle;
use common::{assert_close, rng, unit, PointCloud};
use glam::{DQuat, DVec3, Vec3};
use kollide::math::{DPose3, Pose3};
use kollide::query::{distance, distance_cached, GjkStatus, SimplexCache};
use kollide::shape::{Ellipsoid, Support};

/// B circles A on a wobbling orbit that crosses into overlap and out again.
fn orbit(step: usize) -> DPose3 {
    let t = step as f64 * 0.01;
    let radius = 1.9 + 0.5 * (3.0 * t).sin();
    DPose3::new(
        DVec3::new(radius * t.cos(), 0.4 * (2.0 * t).sin(), radius * t.sin()),
        DQuat::from_rotation_y(0.7 * t) * DQuat::from_rotation_x(0.3 * t),
    )
}

fn trajectory<S: Support<DVec3>>(
    a: &S,
    b: &S,
    steps: usize,
    mut oracle: impl FnMut(&DPose3) -> Option<f64>,
) -> (u32, u32) {
    let pa = DPose3::IDENTITY;
    let mut cache = SimplexCache::default();
    let (mut warm_iters, mut cold_iters, mut overlaps) = (0, 0, 0);
    for step in 0..steps {
        let pb = orbit(step);
        let warm = distance_cached(a, &pa, b, &pb, &mut cache, None);
        let cold = distance(a, &pa, b, &pb);
        assert!(
            matches!(warm.status, GjkStatus::Converged | GjkStatus::Overlapping),
            "step {step}: {warm:?}"
        );
        assert_close(warm.distance, cold.distance, 1e-9, &format!("step {step}: warm vs cold"));
        assert!(warm.lower_bound <= cold.upper_bound && cold.lower_bound <= warm.upper_bound, "step {step}");
        if let Some(truth) = oracle(&pb) {
            assert_close(warm.distance, truth, 1e-9, &format!("step {step}: warm vs oracle"));
        }
        overlaps += (cold.distance == 0.0) as usize;
        warm_iters += warm.iterations;
        cold_iters += cold.iterations;
    }
    assert!(
        overlaps > steps / 10 && overlaps < steps * 9 / 10,
        "the orbit must cross overlap: {overlaps}/{steps}"
    );
    (warm_iters, cold_iters)
}

#[test]
fn polytopes_along_a_trajectory() {
    let mut r = rng(41);
    let pts: Vec<DVec3> = (0..24).map(|_| unit::<DVec3>(&mut r)).collect();
    let hull = PointCloud(pts.clone());
    // The brute-force oracle is O(n⁴) in the points: check every 60th step against it.
    let mut step = 0;
    let (warm, cold) = trajectory(&hull, &hull, 600, |pb| {
        step += 1;
        (step % 60 == 1).then(|| {
            let wb: Vec<DVec3> = pts.iter().map(|&p| pb.transform_point(p)).collect();
            oracle::polytope_distance_3d(&pts, &wb)
        })
    });
    eprintln!("24-point hulls, 600 steps: {warm} warm iterations, {cold} cold");
    // Fewer iterations with the cache: usually 1 or 2 per step instead of ~6.
    assert!(2 * warm < cold, "warm {warm} vs cold {cold} iterations");
}

#[test]
fn ellipsoids_along_a_trajectory() {
    let a = Ellipsoid::new(DVec3::new(1.0, 0.6, 0.8));
    // Truth for ellipsoids is checked in gjk_closed_forms; here warm must match cold.
    let (warm, cold) = trajectory(&a, &a, 600, |_| None);
    eprintln!("ellipsoids, 600 steps: {warm} warm iterations, {cold} cold");
    assert!(warm < cold, "warm {warm} vs cold {cold} iterations");
}

#[test]
fn stale_cache_after_a_jump_is_still_right() {
    let mut r = rng(42);
    let pts: Vec<Vec3> = (0..12).map(|_| unit::<Vec3>(&mut r)).collect();
    let hull = PointCloud(pts.clone());
    let mut cache = SimplexCache::default();
    for k in 0..400 {
        // Poses jump anywhere each step: the cache is always stale.
        let pb = Pose3::new(common::vec_in(&mut r, -2.5, 2.5), common::rotation::<Vec3>(&mut r));
        let warm = distance_cached(&hull, &Pose3::IDENTITY, &hull, &pb, &mut cache, None);
        let wb: Vec<DVec3> = pts.iter().map(|&p| DVec3::from_array(common::to_world_f64(&pb, p))).collect();
        let wa: Vec<DVec3> = pts.iter().map(|p| p.as_dvec3()).collect();
        let truth = oracle::polytope_distance_3d(&wa, &wb);
        assert_close(warm.distance as f64, truth, 2e-5, &format!("jump {k}"));
        assert!(
            (warm.lower_bound as f64) <= truth && truth <= warm.upper_bound as f64,
            "jump {k}: {warm:?} vs {truth}"
        );
    }
}
