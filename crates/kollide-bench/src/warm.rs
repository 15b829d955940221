//! The warm-start case: `distance` along a smooth trajectory, kollide with one
//! `SimplexCache` reused across steps, kollide cold, and parry, on the same poses.

use crate::report::Row;
use crate::timing;
use glam::{Quat, Vec3};
use kollide::query::SimplexCache;
use kollide_bench::check::Tally;
use kollide_bench::gen;
use kollide_bench::spec3::{HullSpec, Spec3};
use std::hint::black_box;

/// Steps along the trajectory.
pub const STEPS: usize = 1000;

/// The trajectory: B orbits A once in a tilted plane, its centre distance breathing between
/// 1.75 and 2.55 (the hulls have radius 1, so it comes into contact now and then), turning
/// 0.01 rad per step about a fixed axis. One step moves B's centre by about 0.014.
fn trajectory(rng: &mut gen::BenchRng) -> Vec<(Vec3, Quat)> {
    let tilt = Quat::from_rotation_x(0.4) * Quat::from_rotation_z(0.3);
    let spin_axis = gen::unit_vec3(rng);
    let start = gen::rotation3(rng);
    (0..STEPS)
        .map(|k| {
            let theta = core::f32::consts::TAU * k as f32 / STEPS as f32;
            let r = 2.15 + 0.4 * (5.0 * theta).sin();
            let pos = tilt * Vec3::new(r * theta.cos(), r * theta.sin(), 0.0);
            let rot = (Quat::from_axis_angle(spin_axis, 0.01 * k as f32) * start).normalize();
            (pos, rot)
        })
        .collect()
}

/// Runs the case. Returns the warm row (`distance`), the cold row (`distance-cold`), and
/// the warm-vs-cold factor (`cold ns / warm ns`).
pub fn run(seed: u64, name: &str) -> (Vec<Row>, f64) {
    let mut rng = gen::rng(seed);
    let (a, b) = (HullSpec::random(&mut rng, 64), HullSpec::random(&mut rng, 64));
    let (ka, kb, pa, pb) = (a.kollide(), b.kollide(), a.parry(), b.parry());
    let pose_a = (Vec3::new(0.1, -0.2, 0.05), gen::rotation3(&mut rng));
    let steps = trajectory(&mut rng);
    let kpa = kollide::math::Pose3::new(pose_a.0, pose_a.1);
    let ppa = parry3d::math::Pose::from_parts(pose_a.0, pose_a.1);
    let kp: Vec<_> = steps.iter().map(|&(t, q)| kollide::math::Pose3::new(pose_a.0 + t, q)).collect();
    let pp: Vec<_> = steps.iter().map(|&(t, q)| parry3d::math::Pose::from_parts(pose_a.0 + t, q)).collect();

    // Check: warm against parry, and warm against cold (which must agree to rounding).
    let (mut tally, mut cache, mut warm_cold_differ, mut iters_warm, mut iters_cold) =
        (Tally::default(), SimplexCache::default(), 0, 0u64, 0u64);
    for (i, (k, p)) in kp.iter().zip(&pp).enumerate() {
        let warm = kollide::query::distance_cached(&ka, &kpa, &kb, k, &mut cache, None);
        let cold = kollide::query::distance(&ka, &kpa, &kb, k);
        let p_dist = parry3d::query::distance(&ppa, &pa, p, &pb).expect("parry supports hulls").distance;
        iters_warm += u64::from(warm.iterations);
        iters_cold += u64::from(cold.iterations);
        let hit = warm.distance == 0.0;
        if !tally.record(hit, p_dist == 0.0, f64::from(warm.distance), f64::from(p_dist)) {
            eprintln!("  DISAGREE {name} step {i}: kollide warm {:e}, parry {p_dist:e}", warm.distance);
        }
        if !kollide_bench::check::BENCH_DISTANCE.allows(f64::from(warm.distance), f64::from(cold.distance)) {
            warm_cold_differ += 1;
            eprintln!(
                "  DISAGREE {name} step {i}: kollide warm {:e}, cold {:e}",
                warm.distance, cold.distance
            );
        }
    }
    eprintln!(
        "  {name}: GJK iterations per step: warm {:.2}, cold {:.2}; warm-vs-cold disagreements {warm_cold_differ}",
        iters_warm as f64 / STEPS as f64,
        iters_cold as f64 / STEPS as f64
    );

    let mut warm = || {
        let mut cache = SimplexCache::default();
        for k in black_box(&kp) {
            black_box(kollide::query::distance_cached(&ka, &kpa, &kb, k, &mut cache, None));
        }
    };
    let mut cold = || {
        for k in black_box(&kp) {
            black_box(kollide::query::distance(&ka, &kpa, &kb, k));
        }
    };
    let mut parry = || {
        for p in black_box(&pp) {
            let _ = black_box(parry3d::query::distance(&ppa, &pa, p, &pb));
        }
    };
    let t = timing::measure(STEPS, &mut [&mut warm, &mut cold, &mut parry]);
    let row = |query, kollide_ns, disagreements, target| Row {
        case: name.to_string(),
        query,
        overlap: tally.overlap_fraction(),
        pairs: STEPS,
        disagreements,
        distance_detail: Some((tally.parry_higher, tally.max_rel_diff)),
        kollide_ns,
        parry_ns: t[2],
        target,
    };
    // The cold row's disagreements are kollide cold against kollide warm.
    let cold = Row { distance_detail: None, ..row("distance-cold", t[1], warm_cold_differ, 1.0) };
    let rows = vec![row("distance", t[0], tally.disagreements(), 1.0), cold];
    (rows, t[1] / t[0])
}
