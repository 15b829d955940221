//! The contact and manifold rows: both libraries' `contact` (and contact manifolds) on the
//! same pairs, checked against each other, then timed.
//!
//! Margin (parry's "prediction") is 0: separated pairs give no contact on either side.
//! In the `manifold` and `manifold-moving` rows each library keeps its per-pair state from
//! one call to the next, the way a physics engine does from frame to frame: parry its
//! manifolds and workspaces, kollide a `ManifoldCache`. In `manifold-cold` neither does.

use crate::report::Row;
use crate::timing;
use kollide::query::MAX_MANIFOLD_POINTS;
use kollide_bench::check::BENCH_DISTANCE;
use kollide_bench::scene::{Scene2, Scene3};
use kollide_bench::spec2::Spec2;
use kollide_bench::spec3::Spec3;
use std::hint::black_box;

/// Disagreements printed per case (all are counted).
const PRINT_LIMIT: usize = 5;

/// What the issue asks of a case's contact queries.
#[derive(Clone, Copy, Debug)]
pub struct ContactTargets {
    /// Speedup for `contact`.
    pub contact: f64,
    /// Speedup for `manifold`, when the case has a manifold row.
    pub manifold: Option<f64>,
}

impl ContactTargets {
    /// A `contact` row only, not slower than parry.
    pub const PAR: Self = Self { contact: 1.0, manifold: None };
    /// A `contact` row with this target.
    #[must_use]
    pub const fn contact(x: f64) -> Self {
        Self { contact: x, manifold: None }
    }
    /// Adds `manifold` rows (the issue names no speed target for them: reported only).
    #[must_use]
    pub const fn with_manifold(self) -> Self {
        Self { manifold: Some(0.0), ..self }
    }
}

/// Whether two optional signed distances agree: both absent, both present and within the
/// bench tolerance, or one absent with the other within the touching band of 0.
fn agree(k: Option<f64>, p: Option<f64>) -> bool {
    match (k, p) {
        (None, None) => true,
        (Some(k), Some(p)) => BENCH_DISTANCE.allows(k, p),
        (Some(x), None) | (None, Some(x)) => x.abs() <= BENCH_DISTANCE.abs,
    }
}

/// Steps of each pair's trajectory in the `manifold-moving` rows.
const MOVING_STEPS: usize = 32;

/// The deepest signed distance over parry's manifolds of one pair, if any point.
macro_rules! parry_deepest {
    ($manifolds:expr) => {
        $manifolds.iter().flat_map(|m| m.points.iter()).map(|p| f64::from(p.dist)).reduce(f64::min)
    };
}

/// The `manifold` rows of a case: kollide's `manifold_cached` with one `ManifoldCache` per
/// pair against parry keeping its manifolds per pair, on standing pairs (`manifold`) and
/// along creeping trajectories (`manifold-moving`); and both computing afresh
/// (`manifold-cold`: kollide's plain `manifold`, parry's manifolds cleared first). The
/// disagreements count pairs (or steps) whose deepest points differ beyond the bench
/// tolerance.
macro_rules! manifold_rows {
    ($parry:ident, $name:expr, $scene:expr, $ka:expr, $kb:expr, $pa:expr, $pb:expr, $kp:expr, $pp:expr, $target:expr) => {{
        use kollide::query::{manifold, manifold_cached, ManifoldCache};
        use kollide_bench::scene::Drifting as _;
        use $parry::query::PersistentQueryDispatcher as _;
        let (name, scene, ka, kb, pa, pb, kp, pp, target) = ($name, $scene, $ka, $kb, $pa, $pb, $kp, $pp, $target);
        let n = kp.len();
        let dispatcher = $parry::query::DefaultQueryDispatcher;
        let pos12: Vec<_> = pp.iter().map(|(ia, ib, p)| (*ia, *ib, p[0].inv_mul(&p[1]))).collect();
        let mut kept: Vec<Vec<$parry::query::ContactManifold<(), ()>>> = vec![Vec::new(); n];
        let mut workspaces: Vec<Option<$parry::query::ContactManifoldsWorkspace>> = (0..n).map(|_| None).collect();
        let mut caches = vec![ManifoldCache::default(); n];
        let (mut counts, mut differ, mut touching) = ((0usize, 0usize), 0, 0);
        for (j, ((ia, ib, k), (_, _, p12))) in kp.iter().zip(&pos12).enumerate() {
            let m = manifold_cached(&ka[*ia], &k[0], &kb[*ib], &k[1], 0.0, &mut caches[j]);
            counts.0 += m.len();
            touching += usize::from(!m.is_empty());
            let _ = dispatcher.contact_manifolds(p12, &pa[*ia], &pb[*ib], 0.0, &mut kept[j], &mut workspaces[j]);
            counts.1 += kept[j].iter().map(|m| m.points.len()).sum::<usize>();
            differ += usize::from(!agree(m.deepest().map(|p| f64::from(p.distance)), parry_deepest!(kept[j])));
        }
        eprintln!(
            "  {name}: manifold points per pair: kollide {:.2}, parry {:.2} (kollide keeps at most {MAX_MANIFOLD_POINTS}); deepest points differ on {differ} pairs",
            counts.0 as f64 / n as f64,
            counts.1 as f64 / n as f64
        );
        let row = |query, t: &[f64], pairs, touching: usize, disagreements| Row {
            case: name.to_string(),
            query,
            overlap: touching as f64 / pairs as f64,
            pairs,
            disagreements,
            distance_detail: None,
            kollide_ns: t[0],
            parry_ns: t[1],
            target,
        };
        let mut rows = Vec::new();
        {
            let mut k_run = || {
                for (j, (ia, ib, k)) in black_box(kp).iter().enumerate() {
                    black_box(manifold_cached(&ka[*ia], &k[0], &kb[*ib], &k[1], 0.0, &mut caches[j]));
                }
            };
            let mut p_run = || {
                for (j, (ia, ib, p12)) in black_box(&pos12).iter().enumerate() {
                    let _ = black_box(dispatcher.contact_manifolds(
                        p12, &pa[*ia], &pb[*ib], 0.0, &mut kept[j], &mut workspaces[j],
                    ));
                }
            };
            let t = timing::measure(n, &mut [&mut k_run, &mut p_run]);
            rows.push(row("manifold", &t, n, touching, differ));
        }
        {
            // Both without temporal coherence: kollide's plain `manifold`; parry's manifolds
            // cleared before each call, as for a pair met for the first time.
            let mut k_cold = || {
                for (ia, ib, k) in black_box(kp) {
                    black_box(manifold(&ka[*ia], &k[0], &kb[*ib], &k[1], 0.0));
                }
            };
            let mut cold: Vec<Vec<$parry::query::ContactManifold<(), ()>>> = vec![Vec::new(); n];
            let mut cold_ws: Vec<Option<$parry::query::ContactManifoldsWorkspace>> = (0..n).map(|_| None).collect();
            let mut p_cold = || {
                for (j, (ia, ib, p12)) in black_box(&pos12).iter().enumerate() {
                    cold[j].clear();
                    let _ = black_box(dispatcher.contact_manifolds(
                        p12, &pa[*ia], &pb[*ib], 0.0, &mut cold[j], &mut cold_ws[j],
                    ));
                }
            };
            let t = timing::measure(n, &mut [&mut k_cold, &mut p_cold]);
            rows.push(row("manifold-cold", &t, n, touching, differ));
        }
        {
            // Every pair creeps along its own line for MOVING_STEPS steps; each library keeps
            // one cache per pair across the steps (and across repetitions: a repetition
            // starts with a jump back to step 0, for both).
            let seeds: Vec<u64> = (0..n as u64).map(|j| 0x5eed_0000 + j).collect();
            let k_steps: Vec<Vec<_>> = scene
                .pairs
                .iter()
                .zip(&seeds)
                .map(|(p, &seed)| (0..MOVING_STEPS).map(|k| p.drifted(k, seed).kollide()).collect())
                .collect();
            let p_steps: Vec<Vec<_>> = scene
                .pairs
                .iter()
                .zip(&seeds)
                .map(|(p, &seed)| {
                    (0..MOVING_STEPS)
                        .map(|k| {
                            let q = p.drifted(k, seed).parry();
                            q[0].inv_mul(&q[1])
                        })
                        .collect()
                })
                .collect();
            let mut caches = vec![ManifoldCache::default(); n];
            let mut kept: Vec<Vec<$parry::query::ContactManifold<(), ()>>> = vec![Vec::new(); n];
            let mut workspaces: Vec<Option<$parry::query::ContactManifoldsWorkspace>> =
                (0..n).map(|_| None).collect();
            let (mut differ, mut touching, mut reused) = (0, 0, 0);
            for (j, (ia, ib, _)) in kp.iter().enumerate() {
                for (k, p12) in k_steps[j].iter().zip(&p_steps[j]) {
                    let m = manifold_cached(&ka[*ia], &k[0], &kb[*ib], &k[1], 0.0, &mut caches[j]);
                    reused += usize::from(caches[j].reused());
                    touching += usize::from(!m.is_empty());
                    let _ = dispatcher.contact_manifolds(p12, &pa[*ia], &pb[*ib], 0.0, &mut kept[j], &mut workspaces[j]);
                    differ +=
                        usize::from(!agree(m.deepest().map(|p| f64::from(p.distance)), parry_deepest!(kept[j])));
                }
            }
            let steps = n * MOVING_STEPS;
            eprintln!(
                "  {name}: manifold-moving: {steps} steps, {touching} touching; kollide answered {reused} ({:.0}%) from its cache (re-projected points or a kept separating axis); deepest points differ on {differ} steps",
                100.0 * reused as f64 / steps as f64
            );
            let mut k_run = || {
                for (j, (ia, ib, _)) in black_box(kp).iter().enumerate() {
                    for k in &k_steps[j] {
                        black_box(manifold_cached(&ka[*ia], &k[0], &kb[*ib], &k[1], 0.0, &mut caches[j]));
                    }
                }
            };
            let mut p_run = || {
                for (j, (ia, ib, _)) in black_box(&pos12).iter().enumerate() {
                    for p12 in &p_steps[j] {
                        let _ = black_box(dispatcher.contact_manifolds(
                            p12, &pa[*ia], &pb[*ib], 0.0, &mut kept[j], &mut workspaces[j],
                        ));
                    }
                }
            };
            let t = timing::measure(steps, &mut [&mut k_run, &mut p_run]);
            rows.push(row("manifold-moving", &t, steps, touching, differ));
        }
        rows
    }};
}

macro_rules! run_contact_case {
    ($fn_name:ident, $scene:ident, $spec:ident, $parry:ident) => {
        /// Checks then times one case's `contact` (and `manifold`) queries.
        pub fn $fn_name<A: $spec, B: $spec>(name: &str, scene: &$scene<A, B>, targets: ContactTargets) -> Vec<Row> {
            let ka: Vec<A::Kollide> = scene.shapes_a.iter().map(|s| s.kollide()).collect();
            let kb: Vec<B::Kollide> = scene.shapes_b.iter().map(|s| s.kollide()).collect();
            let pa: Vec<A::Parry> = scene.shapes_a.iter().map(|s| s.parry()).collect();
            let pb: Vec<B::Parry> = scene.shapes_b.iter().map(|s| s.parry()).collect();
            let kp: Vec<_> = scene.pairs.iter().map(|p| (p.ia, p.ib, p.kollide())).collect();
            let pp: Vec<_> = scene.pairs.iter().map(|p| (p.ia, p.ib, p.parry())).collect();
            let n = kp.len();

            let (mut differ, mut printed, mut max_diff, mut touching) = (0, 0, 0.0f64, 0);
            for (i, ((ia, ib, k), (_, _, p))) in kp.iter().zip(&pp).enumerate() {
                let kc = kollide::query::contact(&ka[*ia], &k[0], &kb[*ib], &k[1], 0.0, None);
                let pc = $parry::query::contact(&p[0], &pa[*ia], &p[1], &pb[*ib], 0.0)
                    .expect("parry supports the pair");
                let (kd, pd) = (kc.map(|c| f64::from(c.distance)), pc.map(|c| f64::from(c.dist)));
                touching += usize::from(kd.is_some());
                if let (Some(x), Some(y)) = (kd, pd) {
                    max_diff = max_diff.max((x - y).abs());
                }
                if !agree(kd, pd) {
                    differ += 1;
                    if printed < PRINT_LIMIT {
                        printed += 1;
                        eprintln!(
                            "  DISAGREE {name} contact pair {i}: kollide {kd:?}, parry {pd:?}; {:?}; A {:?}; B {:?}",
                            scene.pairs[i], scene.shapes_a[*ia], scene.shapes_b[*ib]
                        );
                    }
                }
            }
            eprintln!(
                "  {name}: contact reported for {touching}/{n} pairs; largest |kollide - parry| depth difference {max_diff:.2e}"
            );

            let mut k_run = || {
                for (ia, ib, k) in black_box(&kp) {
                    black_box(kollide::query::contact(&ka[*ia], &k[0], &kb[*ib], &k[1], 0.0, None));
                }
            };
            let mut p_run = || {
                for (ia, ib, p) in black_box(&pp) {
                    let _ = black_box($parry::query::contact(&p[0], &pa[*ia], &p[1], &pb[*ib], 0.0));
                }
            };
            let t = timing::measure(n, &mut [&mut k_run, &mut p_run]);
            let row = |query, t: &[f64], disagreements, target| Row {
                case: name.to_string(),
                query,
                overlap: touching as f64 / n as f64,
                pairs: n,
                disagreements,
                distance_detail: None,
                kollide_ns: t[0],
                parry_ns: t[1],
                target,
            };
            let mut rows = vec![row("contact", &t, differ, targets.contact)];

            if let Some(target) = targets.manifold {
                rows.extend(manifold_rows!($parry, name, scene, &ka, &kb, &pa, &pb, &kp, &pp, target));
            }
            rows
        }
    };
}

run_contact_case!(contact3, Scene3, Spec3, parry3d);
run_contact_case!(contact2, Scene2, Spec2, parry2d);
