//! The side-by-side cases: check every pair's answers, then time both libraries.

use crate::report::Row;
use crate::timing;
use kollide_bench::check::Tally;
use kollide_bench::scene::{Scene2, Scene3};
use kollide_bench::spec2::Spec2;
use kollide_bench::spec3::Spec3;
use std::hint::black_box;

/// Disagreements printed per case (all are counted).
const PRINT_LIMIT: usize = 5;

/// What the issue asks of a case: speedups over parry for `intersects` and `distance`.
#[derive(Clone, Copy, Debug)]
pub struct Targets {
    /// For `intersects`.
    pub intersects: f64,
    /// For `distance`.
    pub distance: f64,
}

impl Targets {
    /// Not slower than parry.
    pub const PAR: Self = Self { intersects: 1.0, distance: 1.0 };
    /// The same target for both queries.
    #[must_use]
    pub const fn both(x: f64) -> Self {
        Self { intersects: x, distance: x }
    }
}

/// One body for 2D and 3D: `$scene`, `$spec` and `$parry` name the dimension's types and
/// parry crate.
macro_rules! run_case {
    ($fn_name:ident, $scene:ident, $spec:ident, $parry:ident) => {
        /// Checks then times one case; returns its `intersects` and `distance` rows.
        pub fn $fn_name<A: $spec, B: $spec>(name: &str, scene: &$scene<A, B>, targets: Targets) -> Vec<Row> {
            let ka: Vec<A::Kollide> = scene.shapes_a.iter().map(|s| s.kollide()).collect();
            let kb: Vec<B::Kollide> = scene.shapes_b.iter().map(|s| s.kollide()).collect();
            let pa: Vec<A::Parry> = scene.shapes_a.iter().map(|s| s.parry()).collect();
            let pb: Vec<B::Parry> = scene.shapes_b.iter().map(|s| s.parry()).collect();
            let kp: Vec<_> = scene.pairs.iter().map(|p| (p.ia, p.ib, p.kollide())).collect();
            let pp: Vec<_> = scene.pairs.iter().map(|p| (p.ia, p.ib, p.parry())).collect();

            let (mut tally, mut printed, mut iterations) = (Tally::default(), 0, (0u64, 0u64));
            for (i, ((ia, ib, k), (_, _, p))) in kp.iter().zip(&pp).enumerate() {
                let (ia, ib) = (*ia, *ib);
                let k_int = kollide::query::intersection_test(&ka[ia], &k[0], &kb[ib], &k[1]);
                let k_out = kollide::query::distance(&ka[ia], &k[0], &kb[ib], &k[1]);
                let (k_hit, k_dist) = (k_int.intersects, k_out.distance);
                iterations.0 += u64::from(k_int.iterations);
                iterations.1 += u64::from(k_out.iterations);
                let p_hit = $parry::query::intersection_test(&p[0], &pa[ia], &p[1], &pb[ib])
                    .expect("parry supports the pair")
                    .intersecting;
                let p_dist = $parry::query::distance(&p[0], &pa[ia], &p[1], &pb[ib])
                    .expect("parry supports the pair")
                    .distance;
                if !tally.record(k_hit, p_hit, f64::from(k_dist), f64::from(p_dist)) && printed < PRINT_LIMIT
                {
                    printed += 1;
                    eprintln!(
                        "  DISAGREE {name} pair {i}: kollide intersects={k_hit} distance={k_dist:e}, \
                         parry intersects={p_hit} distance={p_dist:e}; {:?}",
                        scene.pairs[i]
                    );
                }
            }

            let n = kp.len();
            eprintln!(
                "  {name}: kollide GJK iterations per query: intersects {:.2}, distance {:.2}",
                iterations.0 as f64 / n as f64,
                iterations.1 as f64 / n as f64
            );
            let mut k_int = || {
                for (ia, ib, k) in black_box(&kp) {
                    black_box(kollide::query::intersects(&ka[*ia], &k[0], &kb[*ib], &k[1]));
                }
            };
            let mut p_int = || {
                for (ia, ib, p) in black_box(&pp) {
                    let _ = black_box($parry::query::intersection_test(&p[0], &pa[*ia], &p[1], &pb[*ib]));
                }
            };
            let t_int = timing::measure(n, &mut [&mut k_int, &mut p_int]);
            let mut k_dist = || {
                for (ia, ib, k) in black_box(&kp) {
                    black_box(kollide::query::distance(&ka[*ia], &k[0], &kb[*ib], &k[1]));
                }
            };
            let mut p_dist = || {
                for (ia, ib, p) in black_box(&pp) {
                    let _ = black_box($parry::query::distance(&p[0], &pa[*ia], &p[1], &pb[*ib]));
                }
            };
            let t_dist = timing::measure(n, &mut [&mut k_dist, &mut p_dist]);

            let row = |query, t: &[f64], disagreements, target, distance_detail| Row {
                case: name.to_string(),
                query,
                overlap: tally.overlap_fraction(),
                pairs: n,
                disagreements,
                distance_detail,
                kollide_ns: t[0],
                parry_ns: t[1],
                target,
            };
            vec![
                row("intersects", &t_int, tally.intersects_differ, targets.intersects, None),
                row(
                    "distance",
                    &t_dist,
                    tally.distance_differ,
                    targets.distance,
                    Some((tally.parry_higher, tally.max_rel_diff)),
                ),
            ]
        }
    };
}

run_case!(run3, Scene3, Spec3, parry3d);
run_case!(run2, Scene2, Spec2, parry2d);
