//! kollide against parry and against brute-force truth, on thousands of random pairs per
//! shape pair (fixed seeds; every sample covers both outcomes: 25% < overlap < 75%).
//!
//! For every pair: kollide `f32`, kollide `f64` (the same `f32` numbers converted exactly)
//! and parry `f32` give `distance` and `intersects`. The truth:
//! - polytopes and rounded segments (balls, capsules): the brute-force `f64` oracle of
//!   `kollide_bench::oracle3` / `oracle2`;
//! - cylinders and cones: a certificate checked independently of both libraries: kollide
//!   `f64`'s witness points must lie in the shapes (so the true distance is at most
//!   `|point_b - point_a|`) and the gap between the shapes' extents along its normal (from
//!   the shapes' parameters) bounds the distance from below; the two must meet within
//!   1e-8 + 1e-8 rel, else kollide fails. An overlap is certified by its witness point lying
//!   in both shapes.
//!
//! What fails a test:
//! - kollide (`f32` or `f64`) off the oracle by more than the stated tolerance, or its
//!   `intersects` contradicting the oracle outside the band around touching;
//! - kollide off parry by more than the peer tolerance **unless** the truth shows kollide
//!   right and parry off (then it is parry's error: printed, counted, and reported, not a
//!   failure).
//!
//! Tolerances, `|x - y| <= abs + rel × max(x, y)` (shape sizes are about 1, positions up
//! to about 7, so `f32` rounding is a few 1e-7):
//! - kollide `f64` vs truth: 1e-9 + 1e-9 rel (exact up to rounding);
//! - kollide `f32` vs truth: 2e-5 + 1e-5 rel (a few dozen `f32` ulps at 7; a little tighter
//!   than the `max(1e-5 rel, 80 ε M)` gap kollide documents for `Converged`, M ≈ 3-4 here);
//! - kollide vs parry, polytopes and closed forms: 1e-4 + 1e-4 rel;
//! - kollide vs parry, curved shapes parry runs GJK on (capsules, cylinders, cones): parry
//!   stops when its gap is `<= sqrt(10 ε_f32) ≈ 1.09e-3` of the distance, so 1e-4 + 2e-3 rel;
//! - `intersects` may differ only where the distance is below 1e-4 (both sides).

use glam::{DQuat, DVec3};
use kollide::query::DistanceOutput;
use kollide_bench::check::{intersects_agree, Tolerance};
use kollide_bench::gen::{self, BenchRng, Spread};
use kollide_bench::scene::{Scene2, Scene3};
use kollide_bench::spec2::{Capsule2Spec, CircleSpec, PolygonSpec, RectSpec, Spec2};
use kollide_bench::spec3::{BallSpec, CapsuleSpec, ConeSpec, CuboidSpec, CylinderSpec, HullSpec, Spec3};
use kollide_bench::{oracle2, oracle3};

/// Pairs per shape pair.
const PAIRS: usize = 2000;
const TRUTH_F64: Tolerance = Tolerance { abs: 1.0e-9, rel: 1.0e-9 };
const TRUTH_F32: Tolerance = Tolerance { abs: 2.0e-5, rel: 1.0e-5 };
const PEER_EXACT: Tolerance = Tolerance { abs: 1.0e-4, rel: 1.0e-4 };
const PEER_CURVED: Tolerance = Tolerance { abs: 1.0e-4, rel: 2.0e-3 };
const BAND: f64 = 1.0e-4;
/// How tight a certificate's interval must be.
const CERTIFIED: Tolerance = Tolerance { abs: 1.0e-8, rel: 1.0e-8 };
/// How far outside a shape a witness point may be (rounding).
const INSIDE: f64 = 1.0e-9;
/// Lines printed per kind of finding.
const PRINT: usize = 8;

/// What one shape pair gave.
#[derive(Default)]
struct Findings {
    pairs: usize,
    overlapping: usize,
    near_touching: usize,
    /// kollide wrong (fails the test).
    failures: Vec<String>,
    /// parry off while kollide matches the truth (reported, not a failure).
    parry_off: Vec<String>,
    worst_peer: f64,
    worst_truth32: f64,
    worst_truth64: f64,
    /// The pair behind `worst_truth32`.
    worst_truth32_pair: String,
}

impl Findings {
    fn finish(self, name: &str) {
        let frac = self.overlapping as f64 / self.pairs as f64;
        eprintln!(
            "{name}: {} pairs, overlap {:.1}%, near-touching {}, kollide failures {}, parry off (truth) {}, \
             max |kollide-parry| {:.2e}, max |kollide32-truth| {:.2e}, max |kollide64-truth| {:.2e}",
            self.pairs,
            100.0 * frac,
            self.near_touching,
            self.failures.len(),
            self.parry_off.len(),
            self.worst_peer,
            self.worst_truth32,
            self.worst_truth64
        );
        if self.worst_truth32 > 1.0e-6 {
            eprintln!("  worst kollide f32: {}", self.worst_truth32_pair);
        }
        for s in self.parry_off.iter().take(PRINT) {
            eprintln!("  parry off: {s}");
        }
        for s in self.failures.iter().take(PRINT) {
            eprintln!("  KOLLIDE WRONG: {s}");
        }
        assert!(self.failures.is_empty(), "{name}: {} kollide failures (see stderr)", self.failures.len());
        assert!(0.25 < frac && frac < 0.75, "{name}: overlap fraction {frac} outside (0.25, 0.75)");
    }
}

/// One pair's answers.
struct Answers {
    k32: (bool, f64),
    k64: (bool, f64),
    parry: (bool, f64),
    /// The true distance lies in `[lo, hi]` (`lo == hi` from the brute-force oracle).
    truth: Option<(f64, f64)>,
}

/// `x` within `tol` of the interval `[lo, hi]`.
fn within(tol: Tolerance, x: f64, (lo, hi): (f64, f64)) -> bool {
    tol.allows(x, x.clamp(lo, hi))
}

/// The certified interval of the true distance from kollide `f64`'s answer (see the module
/// docs), `None` when the shapes give no certificate, `Err` when kollide's answer fails it.
fn certify3<A: Spec3, B: Spec3>(
    a: &A,
    b: &B,
    [(ta, ra), (tb, rb)]: [(DVec3, DQuat); 2],
    out: &DistanceOutput<DVec3>,
) -> Option<Result<(f64, f64), String>> {
    let out_a = a.outside64(ra.inverse() * (out.point_a - ta))?;
    let out_b = b.outside64(rb.inverse() * (out.point_b - tb))?;
    if out_a > INSIDE || out_b > INSIDE {
        return Some(Err(format!("witness points outside the shapes by {out_a:e} (A) and {out_b:e} (B)")));
    }
    let upper = (out.point_b - out.point_a).length();
    if out.distance == 0.0 {
        return Some(if upper <= INSIDE {
            Ok((0.0, 0.0))
        } else {
            Err(format!("distance 0 with witnesses {upper:e} apart"))
        });
    }
    // The gap between the shapes' extents along n bounds the distance from below for any
    // unit n; start from kollide's normal and climb (the gap is concave in n).
    let gap = |n: DVec3| {
        let reach_a = ta.dot(n) + a.extent64(ra.inverse() * n)?;
        let reach_b = tb.dot(n) - b.extent64(rb.inverse() * -n)?;
        Some(reach_b - reach_a)
    };
    let lower = climb(out.normal, |n| gap(n).unwrap_or(f64::MIN))?.max(0.0);
    Some(if CERTIFIED.allows(lower, upper) {
        // Rounding may put the lower bound a hair above the upper one.
        Ok((lower.min(upper), upper))
    } else {
        Err(format!("not certified: lower bound {lower:e} along the normal, upper {upper:e}"))
    })
}

/// A shape's parameters, or just its kind for point sets.
fn short(s: &dyn core::fmt::Debug) -> String {
    let text = format!("{s:?}");
    if text.len() <= 120 {
        text
    } else {
        format!("{}...", &text[..40])
    }
}

/// Maximizes `f` over unit vectors by pattern search from `start` (8 directions in the
/// tangent plane, step halving down to 1e-13). Returns the best value, `None` if `f` never
/// gave a finite one.
fn climb(start: DVec3, f: impl Fn(DVec3) -> f64) -> Option<f64> {
    let (mut n, mut best) = (start.normalize(), f(start.normalize()));
    let mut step = 1.0e-3;
    while step > 1.0e-13 {
        let (u, v) = n.any_orthonormal_pair();
        let moved = (0..8).find_map(|k| {
            let angle = core::f64::consts::FRAC_PI_4 * f64::from(k);
            let m = (n + (u * angle.cos() + v * angle.sin()) * step).normalize();
            let value = f(m);
            (value > best).then_some((m, value))
        });
        match moved {
            Some((m, value)) => (n, best) = (m, value),
            None => step *= 0.5,
        }
    }
    best.is_finite().then_some(best)
}

fn no_certificate2<A, B, P, O>(_: &A, _: &B, _: P, _: &O) -> Option<Result<(f64, f64), String>> {
    None
}

/// Judges one pair; `what` describes it for the messages.
fn judge(f: &mut Findings, a: &Answers, peer: Tolerance, what: &dyn Fn() -> String) {
    f.pairs += 1;
    f.overlapping += usize::from(a.k64.0);
    f.worst_peer = f.worst_peer.max((a.k32.1 - a.parry.1).abs()).max((a.k64.1 - a.parry.1).abs());
    let (k32, k64, p) = (a.k32, a.k64, a.parry);
    let mut parry_flagged = false;
    if let Some((lo, hi)) = a.truth {
        let t = 0.5 * (lo + hi);
        let off32 = (k32.1 - k32.1.clamp(lo, hi)).abs();
        if off32 > f.worst_truth32 {
            f.worst_truth32 = off32;
            f.worst_truth32_pair = format!("{:e} vs truth {t:e}; {}", k32.1, what());
        }
        f.worst_truth64 = f.worst_truth64.max((k64.1 - k64.1.clamp(lo, hi)).abs());
        for (label, k, tol) in [("f32", k32, TRUTH_F32), ("f64", k64, TRUTH_F64)] {
            if !within(tol, k.1, (lo, hi)) {
                f.failures.push(format!("kollide {label} distance {:e} vs truth {t:e}; {}", k.1, what()));
            }
            if !intersects_agree(k.0, hi == 0.0, k.1, t, BAND) {
                f.failures.push(format!(
                    "kollide {label} intersects={} vs truth distance {t:e}; {}",
                    k.0,
                    what()
                ));
            }
        }
        if !within(peer, p.1, (lo, hi)) || !intersects_agree(p.0, hi == 0.0, p.1, t, BAND) {
            parry_flagged = true;
            f.parry_off.push(format!(
                "parry distance {:e} intersects={} vs truth {t:e} (kollide f32 {:e}, f64 {:e}); {}",
                p.1,
                p.0,
                k32.1,
                k64.1,
                what()
            ));
        }
    }
    for (label, k) in [("f32", k32), ("f64", k64)] {
        let hits_differ = k.0 != p.0;
        if hits_differ && intersects_agree(k.0, p.0, k.1, p.1, BAND) {
            f.near_touching += 1;
        }
        let disagree = !peer.allows(k.1, p.1) || !intersects_agree(k.0, p.0, k.1, p.1, BAND);
        if disagree && a.truth.is_none() {
            f.failures.push(format!(
                "kollide {label} distance {:e} intersects={} vs parry {:e} intersects={} (no truth); {}",
                k.1,
                k.0,
                p.1,
                p.0,
                what()
            ));
        } else if disagree && !parry_flagged {
            // kollide matched the oracle (else it failed above) and parry did too: the two
            // differ by less than the sum of the tolerances. Count it against kollide.
            f.failures.push(format!(
                "kollide {label} {:e} vs parry {:e} beyond the peer tolerance though both within truth's; {}",
                k.1,
                p.1,
                what()
            ));
        }
    }
}

macro_rules! agreement {
    ($fn_name:ident, $scene:ident, $spec:ident, $parry:ident, $oracle:ident, $certify:ident) => {
        fn $fn_name<A: $spec, B: $spec>(name: &str, scene: &$scene<A, B>, peer: Tolerance) {
            let ka: Vec<_> = scene.shapes_a.iter().map(|s| s.kollide()).collect();
            let kb: Vec<_> = scene.shapes_b.iter().map(|s| s.kollide()).collect();
            let ka64: Vec<_> = scene.shapes_a.iter().map(|s| s.kollide64()).collect();
            let kb64: Vec<_> = scene.shapes_b.iter().map(|s| s.kollide64()).collect();
            let pa: Vec<_> = scene.shapes_a.iter().map(|s| s.parry()).collect();
            let pb: Vec<_> = scene.shapes_b.iter().map(|s| s.parry()).collect();
            let oa: Vec<_> = scene.shapes_a.iter().map(|s| s.oracle()).collect();
            let ob: Vec<_> = scene.shapes_b.iter().map(|s| s.oracle()).collect();
            let mut f = Findings::default();
            for (i, pair) in scene.pairs.iter().enumerate() {
                let (ia, ib) = (pair.ia, pair.ib);
                let k = pair.kollide();
                let k64 = pair.kollide64();
                let p = pair.parry();
                let parts = pair.f64_parts();
                let [(ta, ra), (tb, rb)] = parts;
                let out64 = kollide::query::distance(&ka64[ia], &k64[0], &kb64[ib], &k64[1]);
                let mut truth = match (&oa[ia], &ob[ib]) {
                    (Some(x), Some(y)) => {
                        $oracle::distance(&x.placed(ta, ra), &y.placed(tb, rb)).map(|t| (t, t))
                    }
                    _ => None,
                };
                if truth.is_none() {
                    match $certify(&scene.shapes_a[ia], &scene.shapes_b[ib], parts, &out64) {
                        Some(Ok(interval)) => truth = Some(interval),
                        Some(Err(e)) => {
                            f.failures.push(format!("kollide f64 {e}; {name} pair {i}: {pair:?}"))
                        }
                        None => {}
                    }
                }
                let answers = Answers {
                    k32: (
                        kollide::query::intersects(&ka[ia], &k[0], &kb[ib], &k[1]),
                        f64::from(kollide::query::distance(&ka[ia], &k[0], &kb[ib], &k[1]).distance),
                    ),
                    k64: (kollide::query::intersects(&ka64[ia], &k64[0], &kb64[ib], &k64[1]), out64.distance),
                    parry: (
                        $parry::query::intersection_test(&p[0], &pa[ia], &p[1], &pb[ib])
                            .unwrap()
                            .intersecting,
                        f64::from($parry::query::distance(&p[0], &pa[ia], &p[1], &pb[ib]).unwrap().distance),
                    ),
                    truth,
                };
                judge(&mut f, &answers, peer, &|| {
                    format!(
                        "{name} pair {i}: {pair:?}, {}, {}",
                        short(&scene.shapes_a[ia]),
                        short(&scene.shapes_b[ib])
                    )
                });
            }
            f.finish(name);
        }
    };
}

agreement!(agree3, Scene3, Spec3, parry3d, oracle3, certify3);
agreement!(agree2, Scene2, Spec2, parry2d, oracle2, no_certificate2);

fn pool<T>(rng: &mut BenchRng, n: usize, mut make: impl FnMut(&mut BenchRng) -> T) -> Vec<T> {
    (0..n).map(|_| make(rng)).collect()
}

/// `touch`: where the pairs typically touch (see [`Spread::around`]), for ~50% overlap.
fn scene3<A: Spec3, B: Spec3>(
    seed: u64,
    touch: f32,
    a: impl FnMut(&mut BenchRng) -> A,
    b: impl FnMut(&mut BenchRng) -> B,
) -> Scene3<A, B> {
    let mut rng = gen::rng(seed);
    let (pa, pb) = (pool(&mut rng, 32, a), pool(&mut rng, 32, b));
    Scene3::new(&mut rng, PAIRS, pa, pb, Spread::around(touch))
}

fn scene2<A: Spec2, B: Spec2>(
    seed: u64,
    touch: f32,
    a: impl FnMut(&mut BenchRng) -> A,
    b: impl FnMut(&mut BenchRng) -> B,
) -> Scene2<A, B> {
    let mut rng = gen::rng(seed);
    let (pa, pb) = (pool(&mut rng, 32, a), pool(&mut rng, 32, b));
    Scene2::new(&mut rng, PAIRS, pa, pb, Spread::around(touch))
}

#[test]
fn balls() {
    agree3("ball-ball", &scene3(11, 1.0, BallSpec::random, BallSpec::random), PEER_EXACT);
}

#[test]
fn cuboids() {
    agree3("cuboid-cuboid", &scene3(12, 0.87, CuboidSpec::random, CuboidSpec::random), PEER_EXACT);
}

#[test]
fn capsules() {
    agree3("capsule-capsule", &scene3(13, 0.88, CapsuleSpec::random, CapsuleSpec::random), PEER_CURVED);
}

#[test]
fn cylinders() {
    agree3("cylinder-cylinder", &scene3(14, 0.92, CylinderSpec::random, CylinderSpec::random), PEER_CURVED);
}

#[test]
fn cones() {
    agree3("cone-cone", &scene3(15, 0.79, ConeSpec::random, ConeSpec::random), PEER_CURVED);
}

#[test]
fn cylinder_cone() {
    agree3("cylinder-cone", &scene3(16, 0.86, CylinderSpec::random, ConeSpec::random), PEER_CURVED);
}

#[test]
fn hulls_of_12_points() {
    agree3(
        "hull12-hull12",
        &scene3(17, 0.89, |r| HullSpec::random(r, 12), |r| HullSpec::random(r, 12)),
        PEER_EXACT,
    );
}

#[test]
fn hulls_of_32_points() {
    agree3(
        "hull32-hull32",
        &scene3(18, 0.95, |r| HullSpec::random(r, 32), |r| HullSpec::random(r, 32)),
        PEER_EXACT,
    );
}

#[test]
fn cuboid_hull() {
    agree3("cuboid-hull32", &scene3(19, 0.9, CuboidSpec::random, |r| HullSpec::random(r, 32)), PEER_EXACT);
}

#[test]
fn polygons_of_8_points() {
    agree2(
        "poly8-poly8",
        &scene2(21, 0.94, |r| PolygonSpec::random(r, 8), |r| PolygonSpec::random(r, 8)),
        PEER_EXACT,
    );
}

#[test]
fn polygons_of_32_points() {
    agree2(
        "poly32-poly32",
        &scene2(22, 1.0, |r| PolygonSpec::random(r, 32), |r| PolygonSpec::random(r, 32)),
        PEER_EXACT,
    );
}

#[test]
fn circles() {
    agree2("circle-circle", &scene2(23, 1.0, CircleSpec::random, CircleSpec::random), PEER_EXACT);
}

#[test]
fn rectangles() {
    agree2("rect-rect", &scene2(24, 0.93, RectSpec::random, RectSpec::random), PEER_EXACT);
}

#[test]
fn capsules_2d() {
    agree2("capsule2-capsule2", &scene2(25, 0.91, Capsule2Spec::random, Capsule2Spec::random), PEER_CURVED);
}

#[test]
fn rect_polygon() {
    agree2("rect-poly8", &scene2(26, 0.93, RectSpec::random, |r| PolygonSpec::random(r, 8)), PEER_EXACT);
}
