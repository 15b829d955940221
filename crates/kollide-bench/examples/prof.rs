//! Profiling harness: one convex query on one bench case, looped for a few seconds, so a
//! profiler sees nothing else. `cargo run --release -p kollide-bench --example prof -- CASE
//! QUERY [SECONDS]`, CASE one of `cuboid-cuboid`, `hull8`, `hull64`, `cuboid-hull64`,
//! `poly8`, `poly64` (or `hull16`, `hull32`, which are not bench rows); QUERY one of `distance`, `intersects`, `contact`, or `contact-steps`
//! (GJK, EPA and SAT iterations per query, from the traces). The scenes are the bench's own
//! (same seeds, pools and poses). It prints the fastest pass over the 1000 pairs; for A/B
//! comparisons run two builds' binaries in turn, several times (the machine drifts).

use kollide_bench::gen::{self, BenchRng, Spread};
use kollide_bench::scene::{Scene2, Scene3};
use kollide_bench::spec2::{PolygonSpec, Spec2};
use kollide_bench::spec3::{CuboidSpec, HullSpec, Spec3};
use std::hint::black_box;
use std::time::Instant;

const SEED: u64 = 0x6b6f_6c6c_6964_6500;

fn pool<T>(rng: &mut BenchRng, n: usize, mut make: impl FnMut(&mut BenchRng) -> T) -> Vec<T> {
    (0..n).map(|_| make(rng)).collect()
}

fn hulls(rng: &mut BenchRng, points: usize) -> Vec<HullSpec> {
    pool(rng, 16, |r| HullSpec::random(r, points))
}

fn time(secs: f64, n: usize, mut f: impl FnMut()) {
    let start = Instant::now();
    let mut reps = 0u64;
    let mut best = f64::MAX;
    while start.elapsed().as_secs_f64() < secs {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64());
        reps += 1;
    }
    println!("{:.1} ns/query (best of {reps})", best * 1e9 / n as f64);
}

/// One body for 2D and 3D: `$scene` and `$spec` name the dimension's scene and spec types.
macro_rules! run_case {
    ($fn_name:ident, $scene:ident, $spec:ident) => {
        fn $fn_name<A: $spec, B: $spec>(scene: &$scene<A, B>, query: &str, secs: f64) {
            let ka: Vec<A::Kollide> = scene.shapes_a.iter().map(|s| s.kollide()).collect();
            let kb: Vec<B::Kollide> = scene.shapes_b.iter().map(|s| s.kollide()).collect();
            let kp: Vec<_> = scene.pairs.iter().map(|p| (p.ia, p.ib, p.kollide())).collect();
            let n = kp.len();
            match query {
                "distance" => time(secs, n, || {
                    for (ia, ib, k) in &kp {
                        black_box(kollide::query::distance(&ka[*ia], &k[0], &kb[*ib], &k[1]));
                    }
                }),
                "intersects" => time(secs, n, || {
                    for (ia, ib, k) in &kp {
                        black_box(kollide::query::intersects(&ka[*ia], &k[0], &kb[*ib], &k[1]));
                    }
                }),
                "contact" => time(secs, n, || {
                    for (ia, ib, k) in &kp {
                        black_box(kollide::query::contact(&ka[*ia], &k[0], &kb[*ib], &k[1], 0.0, None));
                    }
                }),
                "contact-steps" => {
                    let (mut gjk, mut epa, mut sat, mut with_epa) = (0, 0, 0, 0);
                    for (ia, ib, k) in &kp {
                        let mut t = kollide::query::ContactTrace::default();
                        black_box(kollide::query::contact(
                            &ka[*ia],
                            &k[0],
                            &kb[*ib],
                            &k[1],
                            0.0,
                            Some(&mut t),
                        ));
                        gjk += t.gjk.len();
                        epa += t.epa.len();
                        sat += t.sat.len();
                        with_epa += usize::from(!t.epa.is_empty());
                    }
                    let per = |x: usize| x as f64 / n as f64;
                    println!(
                        "per query: gjk {:.2} epa {:.2} sat {:.2}; queries with EPA {with_epa}",
                        per(gjk),
                        per(epa),
                        per(sat)
                    );
                }
                _ => panic!("unknown query {query}"),
            }
        }
    };
}

run_case!(run3, Scene3, Spec3);
run_case!(run2, Scene2, Spec2);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let case = args.first().map_or("cuboid-cuboid", String::as_str);
    let query = args.get(1).map_or("distance", String::as_str);
    let secs: f64 = args.get(2).map_or(3.0, |s| s.parse().expect("seconds"));
    // Case numbers as in the bench's main: `SEED + i` for the i-th case.
    let (index, touch) = match case {
        "cuboid-cuboid" => (2, 0.89),
        "hull8" => (4, 0.84),
        "hull64" => (5, 1.0),
        // Hulls of other sizes (not bench rows): the hull64 case's seed and spread.
        "hull16" | "hull32" => (5, 1.0),
        "cuboid-hull64" => (8, 0.93),
        "poly8" => (9, 0.95),
        "poly64" => (10, 1.0),
        _ => panic!("unknown case {case}"),
    };
    let mut r = gen::rng(SEED + index);
    let spread = Spread::around(touch);
    match case {
        "cuboid-cuboid" => {
            let (a, b) = (pool(&mut r, 64, CuboidSpec::random), pool(&mut r, 64, CuboidSpec::random));
            run3(&Scene3::new(&mut r, 1000, a, b, spread), query, secs);
        }
        "hull8" | "hull16" | "hull32" | "hull64" => {
            let n: usize = case["hull".len()..].parse().expect("hull size");
            let (a, b) = (hulls(&mut r, n), hulls(&mut r, n));
            run3(&Scene3::new(&mut r, 1000, a, b, spread), query, secs);
        }
        "cuboid-hull64" => {
            let (a, b) = (pool(&mut r, 64, CuboidSpec::random), hulls(&mut r, 64));
            run3(&Scene3::new(&mut r, 1000, a, b, spread), query, secs);
        }
        _ => {
            let n = if case == "poly8" { 8 } else { 64 };
            let a = pool(&mut r, 16, |r| PolygonSpec::random(r, n));
            let b = pool(&mut r, 16, |r| PolygonSpec::random(r, n));
            run2(&Scene2::new(&mut r, 1000, a, b, spread), query, secs);
        }
    }
}
