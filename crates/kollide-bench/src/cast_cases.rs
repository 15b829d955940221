//! The cast rows: kollide's `shape_cast` against parry's `cast_shapes` (linear, query
//! `"cast"`) and `cast_shapes_nonlinear` (query `"toi-rotating"`), on identical inputs.
//!
//! Each case reuses its scene (the same pools and pair poses as the distance rows, from
//! their own seed): B starts 3 units farther from A than its scene pose, along the line
//! between their centres, and moves back by that much plus a random sideways drift over
//! `[0, 1]`, so that about half of the pairs meet. The rotating rows add a random angular
//! velocity to each body (rotation about its origin; parry's local centre at the origin).
//! Answers are checked before timing: both miss, or both hit with times within
//! [`TOI_TOLERANCE`]; other pairs are counted as disagreements and the first few printed.

use crate::report::Row;
use crate::timing;
use glam::{Vec2, Vec3};
use kollide::query::cast::{shape_cast, CastInput, CastStatus, Motion};
use kollide_bench::gen::{self, BenchRng};
use kollide_bench::scene::{Scene2, Scene3};
use kollide_bench::spec2::Spec2;
use kollide_bench::spec3::Spec3;
use rand::Rng;
use std::hint::black_box;

/// Times of impact (over `[0, 1]`) that differ by at most this agree.
const TOI_TOLERANCE: f64 = 2.0e-3;
/// Disagreements printed per row (all are counted).
const PRINT_LIMIT: usize = 3;

/// The motion of one pair: B's start (translation), both velocities, both angular
/// velocities (zero for the linear rows).
#[derive(Clone, Copy, Debug)]
struct Motion3 {
    start_b: Vec3,
    va: Vec3,
    vb: Vec3,
    wa: Vec3,
    wb: Vec3,
}

fn motion3(rng: &mut BenchRng, ta: Vec3, tb: Vec3, spin: f32) -> Motion3 {
    let u = (tb - ta).normalize_or(Vec3::X);
    let drift =
        Vec3::new(gen::uniform(rng, -1.0, 1.0), gen::uniform(rng, -1.0, 1.0), gen::uniform(rng, -1.0, 1.0));
    let va = drift * 0.3;
    let vb = -u * 3.0 + drift;
    let w = |rng: &mut BenchRng| {
        if spin > 0.0 {
            gen::unit_vec3(rng) * gen::uniform(rng, 0.0, spin)
        } else {
            Vec3::ZERO
        }
    };
    Motion3 { start_b: tb + u * 3.0, va, vb, wa: w(rng), wb: w(rng) }
}

fn agree(k: Option<f64>, p: Option<f64>) -> bool {
    match (k, p) {
        (None, None) => true,
        (Some(x), Some(y)) => (x - y).abs() <= TOI_TOLERANCE,
        // A grazing or late hit the other side misses: only near the end of the interval.
        (Some(x), None) | (None, Some(x)) => x >= 1.0 - TOI_TOLERANCE,
    }
}

/// The kollide answer as a time of impact (`None` for a miss; `Failed` counts as its safe
/// time, which the check then judges).
fn kollide_toi(status: CastStatus, toi: f32) -> Option<f64> {
    match status {
        CastStatus::Miss => None,
        _ => Some(f64::from(toi)),
    }
}

/// The `cast` row (and with `rotating`, the `toi-rotating` row) of a 3D case.
pub fn cast3<A: Spec3, B: Spec3>(name: &str, scene: &Scene3<A, B>, seed: u64, rotating: bool) -> Vec<Row> {
    use parry3d::query::{NonlinearRigidMotion, ShapeCastOptions};
    let mut rng = gen::rng(seed);
    let ka: Vec<A::Kollide> = scene.shapes_a.iter().map(|s| s.kollide()).collect();
    let kb: Vec<B::Kollide> = scene.shapes_b.iter().map(|s| s.kollide()).collect();
    let pa: Vec<A::Parry> = scene.shapes_a.iter().map(|s| s.parry()).collect();
    let pb: Vec<B::Parry> = scene.shapes_b.iter().map(|s| s.parry()).collect();
    let mut rows = Vec::new();
    for (query, spin) in [("cast", 0.0f32), ("toi-rotating", 3.0)] {
        if spin > 0.0 && !rotating {
            continue;
        }
        let cases: Vec<_> = scene
            .pairs
            .iter()
            .map(|p| {
                let m = motion3(&mut rng, p.a.0, p.b.0, spin);
                let kpa = kollide::math::Pose3::new(p.a.0, p.a.1);
                let kpb = kollide::math::Pose3::new(m.start_b, p.b.1);
                let ppa = parry3d::math::Pose::from_parts(p.a.0, p.a.1);
                let ppb = parry3d::math::Pose::from_parts(m.start_b, p.b.1);
                let input = CastInput {
                    motion_a: Motion { velocity: m.va, angular_velocity: m.wa },
                    motion_b: Motion { velocity: m.vb, angular_velocity: m.wb },
                    max_toi: 1.0,
                    target_distance: 0.0,
                };
                (p.ia, p.ib, kpa, kpb, ppa, ppb, input, m)
            })
            .collect();
        let options = ShapeCastOptions {
            max_time_of_impact: 1.0,
            target_distance: 0.0,
            stop_at_penetration: true,
            compute_impact_geometry_on_penetration: true,
        };
        let parry_one = |c: &(usize, usize, _, _, parry3d::math::Pose, parry3d::math::Pose, _, Motion3)| {
            let (ia, ib, _, _, ppa, ppb, _, m) = c;
            if spin == 0.0 {
                parry3d::query::cast_shapes(ppa, m.va, &pa[*ia], ppb, m.vb, &pb[*ib], options)
            } else {
                let ma = NonlinearRigidMotion {
                    start: *ppa,
                    local_center: Vec3::ZERO,
                    linvel: m.va,
                    angvel: m.wa,
                };
                let mb = NonlinearRigidMotion {
                    start: *ppb,
                    local_center: Vec3::ZERO,
                    linvel: m.vb,
                    angvel: m.wb,
                };
                parry3d::query::cast_shapes_nonlinear(&ma, &pa[*ia], &mb, &pb[*ib], 0.0, 1.0, true)
            }
            .expect("parry supports the pair")
        };
        let (mut differ, mut hits, mut failed, mut printed) = (0, 0, 0, 0);
        for (i, c) in cases.iter().enumerate() {
            let (ia, ib, kpa, kpb, _, _, input, _) = c;
            let k = shape_cast(&ka[*ia], kpa, &kb[*ib], kpb, input, None);
            let p = parry_one(c);
            let (kt, pt) = (kollide_toi(k.status, k.toi), p.map(|h| f64::from(h.time_of_impact)));
            hits += usize::from(kt.is_some());
            failed += usize::from(k.status == CastStatus::Failed);
            if !agree(kt, pt) {
                differ += 1;
                if printed < PRINT_LIMIT {
                    printed += 1;
                    eprintln!(
                        "  DISAGREE {name} {query} pair {i}: kollide {:?} {kt:?}, parry {pt:?}",
                        k.status
                    );
                }
            }
        }
        let n = cases.len();
        eprintln!("  {name} {query}: kollide hits {hits}/{n}, failed {failed}, disagreements {differ}");
        let mut k_run = || {
            for (ia, ib, kpa, kpb, _, _, input, _) in black_box(&cases) {
                black_box(shape_cast(&ka[*ia], kpa, &kb[*ib], kpb, input, None));
            }
        };
        let mut p_run = || {
            for c in black_box(&cases) {
                let _ = black_box(parry_one(c));
            }
        };
        let t = timing::measure(n, &mut [&mut k_run, &mut p_run]);
        rows.push(Row {
            case: name.to_string(),
            query,
            overlap: hits as f64 / n as f64,
            pairs: n,
            disagreements: differ,
            distance_detail: None,
            kollide_ns: t[0],
            parry_ns: t[1],
            target: if spin == 0.0 && name == "hull64" { 2.0 } else { 1.0 },
        });
    }
    rows
}

/// The `cast` row of a 2D case (linear only).
pub fn cast2<A: Spec2, B: Spec2>(name: &str, scene: &Scene2<A, B>, seed: u64) -> Vec<Row> {
    use parry2d::query::ShapeCastOptions;
    let mut rng = gen::rng(seed);
    let ka: Vec<A::Kollide> = scene.shapes_a.iter().map(|s| s.kollide()).collect();
    let kb: Vec<B::Kollide> = scene.shapes_b.iter().map(|s| s.kollide()).collect();
    let pa: Vec<A::Parry> = scene.shapes_a.iter().map(|s| s.parry()).collect();
    let pb: Vec<B::Parry> = scene.shapes_b.iter().map(|s| s.parry()).collect();
    let cases: Vec<_> = scene
        .pairs
        .iter()
        .map(|p| {
            let (ta, tb) = (p.a.0, p.b.0);
            let u = (tb - ta).normalize_or(Vec2::X);
            let drift = Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
            let (va, vb, start_b) = (drift * 0.3, -u * 3.0 + drift, tb + u * 3.0);
            let [kpa, mut kpb] = p.kollide();
            kpb.translation = start_b;
            let [ppa, mut ppb] = p.parry();
            ppb.translation = start_b;
            (p.ia, p.ib, kpa, kpb, ppa, ppb, va, vb)
        })
        .collect();
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    let (mut differ, mut hits, mut printed) = (0, 0, 0);
    for (i, (ia, ib, kpa, kpb, ppa, ppb, va, vb)) in cases.iter().enumerate() {
        let k = shape_cast(&ka[*ia], kpa, &kb[*ib], kpb, &CastInput::linear(*va, *vb, 1.0), None);
        let p = parry2d::query::cast_shapes(ppa, *va, &pa[*ia], ppb, *vb, &pb[*ib], options)
            .expect("parry supports the pair");
        let (kt, pt) = (kollide_toi(k.status, k.toi), p.map(|h| f64::from(h.time_of_impact)));
        hits += usize::from(kt.is_some());
        if !agree(kt, pt) {
            differ += 1;
            if printed < PRINT_LIMIT {
                printed += 1;
                eprintln!("  DISAGREE {name} cast pair {i}: kollide {:?} {kt:?}, parry {pt:?}", k.status);
            }
        }
    }
    let n = cases.len();
    eprintln!("  {name} cast: kollide hits {hits}/{n}, disagreements {differ}");
    let mut k_run = || {
        for (ia, ib, kpa, kpb, _, _, va, vb) in black_box(&cases) {
            black_box(shape_cast(&ka[*ia], kpa, &kb[*ib], kpb, &CastInput::linear(*va, *vb, 1.0), None));
        }
    };
    let mut p_run = || {
        for (ia, ib, _, _, ppa, ppb, va, vb) in black_box(&cases) {
            let _ = black_box(parry2d::query::cast_shapes(ppa, *va, &pa[*ia], ppb, *vb, &pb[*ib], options));
        }
    };
    let t = timing::measure(n, &mut [&mut k_run, &mut p_run]);
    vec![Row {
        case: name.to_string(),
        query: "cast",
        overlap: hits as f64 / n as f64,
        pairs: n,
        disagreements: differ,
        distance_detail: None,
        kollide_ns: t[0],
        parry_ns: t[1],
        target: 1.0,
    }]
}
