//! `cargo run --release -p kollide-bench`: kollide against parry on identical inputs, one
//! run, one table (stdout, markdown) and `target/kollide-bench.csv`.
//!
//! Every case checks each pair's answers from both libraries before timing them and counts
//! the disagreements (rules in `kollide_bench::check`); progress and any disagreement go to
//! stderr.

mod broadphase_cases;
mod build_cases;
mod cases;
mod cast_cases;
mod contact_cases;
#[cfg(feature = "rapier")]
mod mover_cases;
mod ray_cases;
mod report;
#[cfg(feature = "parallel")]
mod scaling;
mod sweep_cases;
mod terrain_cases;
mod terrain_obvhs;
mod timing;
mod warm;
#[cfg(feature = "rapier")]
mod world_cases;
#[cfg(any(feature = "rapier", feature = "parallel"))]
mod world_heap;

use cases::{run2, run3, Targets};
use contact_cases::{contact2, contact3, ContactTargets};
use kollide_bench::gen::{self, BenchRng, Spread};
use kollide_bench::scene::{Scene2, Scene3};
use kollide_bench::spec2::PolygonSpec;
use kollide_bench::spec3::{BallSpec, CapsuleSpec, CuboidSpec, HullSpec};
use report::Row;
use std::time::Instant;

/// Pairs per case.
const PAIRS: usize = 1000;
/// Seeds: case `i` uses `SEED + i`.
const SEED: u64 = 0x6b6f_6c6c_6964_6500;

fn pool<T>(rng: &mut BenchRng, n: usize, mut make: impl FnMut(&mut BenchRng) -> T) -> Vec<T> {
    (0..n).map(|_| make(rng)).collect()
}

/// Hull pool sizes: fewer distinct hulls for the big ones (building them is the slow part).
fn hull_pool(rng: &mut BenchRng, points: usize) -> Vec<HullSpec> {
    let n = match points {
        0..=64 => 16,
        65..=512 => 8,
        _ => 4,
    };
    pool(rng, n, |r| HullSpec::random(r, points))
}

fn main() {
    // Optional arguments: run only the cases whose names contain one of them (for profiling).
    let filters: Vec<String> = std::env::args().skip(1).collect();
    if filters.first().is_some_and(|f| f == "scaling") {
        #[cfg(feature = "parallel")]
        {
            let most = std::thread::available_parallelism().map_or(1, |n| n.get());
            let max = filters.get(1).and_then(|x| x.parse().ok()).unwrap_or(most);
            scaling::run(SEED + 800, max);
        }
        #[cfg(not(feature = "parallel"))]
        eprintln!("scaling needs kollide's rayon paths: cargo run --release -p kollide-bench --features parallel -- scaling");
        return;
    }
    let wanted = |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()));
    let start = Instant::now();
    let mut rows: Vec<Row> = Vec::new();
    let mut case = 0u64;
    let mut next_rng = || {
        case += 1;
        gen::rng(SEED + case)
    };

    macro_rules! case3 {
        ($name:expr, $touch:expr, $targets:expr, $contact:expr, |$rng:ident| $a:expr, $b:expr) => {{
            let t = Instant::now();
            let mut $rng = next_rng();
            if wanted($name) {
                let (a, b) = ($a, $b);
                let scene = Scene3::new(&mut $rng, PAIRS, a, b, Spread::around($touch));
                rows.extend(run3($name, &scene, $targets));
                rows.extend(contact3($name, &scene, $contact));
                eprintln!("{:>16}: {:.1} s", $name, t.elapsed().as_secs_f64());
            }
        }};
    }
    macro_rules! case2 {
        ($name:expr, $touch:expr, $targets:expr, $contact:expr, |$rng:ident| $a:expr, $b:expr) => {{
            let t = Instant::now();
            let mut $rng = next_rng();
            if wanted($name) {
                let (a, b) = ($a, $b);
                let scene = Scene2::new(&mut $rng, PAIRS, a, b, Spread::around($touch));
                rows.extend(run2($name, &scene, $targets));
                rows.extend(contact2($name, &scene, $contact));
                eprintln!("{:>16}: {:.1} s", $name, t.elapsed().as_secs_f64());
            }
        }};
    }

    case3!(
        "ball-ball",
        1.0,
        Targets::PAR,
        ContactTargets::PAR,
        |r| pool(&mut r, 64, BallSpec::random),
        pool(&mut r, 64, BallSpec::random)
    );
    case3!(
        "cuboid-cuboid",
        0.89,
        Targets { intersects: 1.0, distance: 1.5 },
        ContactTargets::contact(5.0).with_manifold(),
        |r| pool(&mut r, 64, CuboidSpec::random),
        pool(&mut r, 64, CuboidSpec::random)
    );
    case3!(
        "capsule-capsule",
        0.89,
        Targets::both(10.0),
        ContactTargets::contact(10.0),
        |r| pool(&mut r, 64, CapsuleSpec::random),
        pool(&mut r, 64, CapsuleSpec::random)
    );
    case3!(
        "hull8",
        0.84,
        Targets::both(1.5),
        ContactTargets::contact(1.5),
        |r| hull_pool(&mut r, 8),
        hull_pool(&mut r, 8)
    );
    case3!(
        "hull64",
        1.0,
        Targets::both(2.0),
        ContactTargets::contact(3.0).with_manifold(),
        |r| hull_pool(&mut r, 64),
        hull_pool(&mut r, 64)
    );
    case3!(
        "hull512",
        0.98,
        Targets::PAR,
        ContactTargets::PAR,
        |r| hull_pool(&mut r, 512),
        hull_pool(&mut r, 512)
    );
    case3!(
        "hull4096",
        0.99,
        Targets::both(10.0),
        ContactTargets::PAR,
        |r| hull_pool(&mut r, 4096),
        hull_pool(&mut r, 4096)
    );
    case3!(
        "cuboid-hull64",
        0.93,
        Targets::both(2.0),
        ContactTargets::PAR,
        |r| pool(&mut r, 64, CuboidSpec::random),
        hull_pool(&mut r, 64)
    );
    case2!(
        "poly8",
        0.95,
        Targets::both(2.0),
        ContactTargets::contact(2.0).with_manifold(),
        |r| pool(&mut r, 16, |r| PolygonSpec::random(r, 8)),
        pool(&mut r, 16, |r| PolygonSpec::random(r, 8))
    );
    case2!(
        "poly64",
        1.0,
        Targets::both(2.0),
        ContactTargets::contact(2.0).with_manifold(),
        |r| pool(&mut r, 16, |r| PolygonSpec::random(r, 64)),
        pool(&mut r, 16, |r| PolygonSpec::random(r, 64))
    );

    // Shape casts: a "cast" row (linear, against parry's `cast_shapes`) for every case and a
    // "toi-rotating" row (against `cast_shapes_nonlinear`) for two, on each case's scene
    // rebuilt from its seed (`SEED + i`, the same pools and poses as its rows above). A
    // filter `/cast` runs only these rows.
    {
        macro_rules! cast3 {
            ($i:expr, $name:expr, $touch:expr, $rotating:expr, |$rng:ident| $a:expr, $b:expr) => {{
                if wanted(concat!($name, "/cast")) {
                    let t = Instant::now();
                    let mut $rng = gen::rng(SEED + $i);
                    let (a, b) = ($a, $b);
                    let scene = Scene3::new(&mut $rng, PAIRS, a, b, Spread::around($touch));
                    rows.extend(cast_cases::cast3($name, &scene, SEED + 300 + $i, $rotating));
                    eprintln!("{:>16}: {:.1} s", concat!($name, "/cast"), t.elapsed().as_secs_f64());
                }
            }};
        }
        macro_rules! cast2 {
            ($i:expr, $name:expr, $touch:expr, |$rng:ident| $a:expr, $b:expr) => {{
                if wanted(concat!($name, "/cast")) {
                    let t = Instant::now();
                    let mut $rng = gen::rng(SEED + $i);
                    let (a, b) = ($a, $b);
                    let scene = Scene2::new(&mut $rng, PAIRS, a, b, Spread::around($touch));
                    rows.extend(cast_cases::cast2($name, &scene, SEED + 300 + $i));
                    eprintln!("{:>16}: {:.1} s", concat!($name, "/cast"), t.elapsed().as_secs_f64());
                }
            }};
        }
        cast3!(
            1,
            "ball-ball",
            1.0,
            false,
            |r| pool(&mut r, 64, BallSpec::random),
            pool(&mut r, 64, BallSpec::random)
        );
        cast3!(
            2,
            "cuboid-cuboid",
            0.89,
            true,
            |r| pool(&mut r, 64, CuboidSpec::random),
            pool(&mut r, 64, CuboidSpec::random)
        );
        cast3!(
            3,
            "capsule-capsule",
            0.89,
            false,
            |r| pool(&mut r, 64, CapsuleSpec::random),
            pool(&mut r, 64, CapsuleSpec::random)
        );
        cast3!(4, "hull8", 0.84, false, |r| hull_pool(&mut r, 8), hull_pool(&mut r, 8));
        cast3!(5, "hull64", 1.0, true, |r| hull_pool(&mut r, 64), hull_pool(&mut r, 64));
        cast3!(6, "hull512", 0.98, false, |r| hull_pool(&mut r, 512), hull_pool(&mut r, 512));
        cast3!(7, "hull4096", 0.99, false, |r| hull_pool(&mut r, 4096), hull_pool(&mut r, 4096));
        cast3!(
            8,
            "cuboid-hull64",
            0.93,
            false,
            |r| pool(&mut r, 64, CuboidSpec::random),
            hull_pool(&mut r, 64)
        );
        cast2!(
            9,
            "poly8",
            0.95,
            |r| pool(&mut r, 16, |r| PolygonSpec::random(r, 8)),
            pool(&mut r, 16, |r| PolygonSpec::random(r, 8))
        );
        cast2!(
            10,
            "poly64",
            1.0,
            |r| pool(&mut r, 16, |r| PolygonSpec::random(r, 64)),
            pool(&mut r, 16, |r| PolygonSpec::random(r, 64))
        );
    }

    let mut warm_vs_cold = None;
    if wanted("warm-hull64") {
        let t = Instant::now();
        let (warm_rows, ratio) = warm::run(SEED + 100, "warm-hull64");
        if let [warm, cold] = warm_rows.as_slice() {
            warm_vs_cold = Some((ratio, warm.kollide_ns, cold.kollide_ns));
        }
        rows.extend(warm_rows);
        eprintln!("{:>16}: {:.1} s", "warm-hull64", t.elapsed().as_secs_f64());
    }

    // Ray casts (query "ray"): kollide's ray_cast against parry's cast_ray.
    if wanted("ray") {
        let t = Instant::now();
        rows.extend(ray_cases::run(SEED + 300));
        eprintln!("{:>16}: {:.1} s", "ray", t.elapsed().as_secs_f64());
    }

    // Rays on a 256 x 256 terrain as a mesh and as a heightfield (filter "terrain").
    if wanted("terrain-trimesh")
        || wanted("terrain-heightfield")
        || wanted("-terrain")
        || wanted("box-on-terrain")
    {
        let t = Instant::now();
        rows.extend(terrain_cases::run(SEED + 500));
        eprintln!("{:>16}: {:.1} s", "terrain rays", t.elapsed().as_secs_f64());
    }

    // The broad phase: 10,000 and 100,000 random boxes (filter "broadphase").
    for (i, (n, case)) in [(10_000, "boxes10k"), (100_000, "boxes100k")].into_iter().enumerate() {
        if wanted(&format!("broadphase-{case}")) {
            let t = Instant::now();
            rows.extend(broadphase_cases::run(SEED + 400 + i as u64, n, case));
            eprintln!("{:>16}: {:.1} s", format!("broadphase {case}"), t.elapsed().as_secs_f64());
        }
    }

    // The mover on the demo world against rapier's character controller (filter "demo").
    if wanted("trimesh-bunny") {
        let t = Instant::now();
        rows.extend(build_cases::run(SEED + 600));
        eprintln!("{:>16}: {:.1} s", "trimesh build", t.elapsed().as_secs_f64());
    }

    for (i, (n, case)) in [(10_000, "mixed10k"), (100_000, "mixed100k")].into_iter().enumerate() {
        if wanted(case) || wanted("world-frame") {
            #[cfg(feature = "rapier")]
            {
                let t = Instant::now();
                rows.extend(world_cases::run(SEED + 700 + i as u64, n, case));
                eprintln!("{:>16}: {:.1} s", format!("world {case}"), t.elapsed().as_secs_f64());
            }
            #[cfg(not(feature = "rapier"))]
            {
                let _ = (i, n);
                eprintln!(
                    "{:>16}: the world-frame rows need rapier3d: cargo run --release -p kollide-bench --features rapier",
                    case
                );
            }
        }
    }

    if wanted("demo-ball") || wanted("demo-capsule") || wanted("demo-ellipsoid") {
        #[cfg(feature = "rapier")]
        {
            let t = Instant::now();
            rows.extend(mover_cases::run());
            eprintln!("{:>16}: {:.1} s", "mover", t.elapsed().as_secs_f64());
        }
        #[cfg(not(feature = "rapier"))]
        eprintln!(
            "{:>16}: the mover rows need rapier3d: cargo run --release -p kollide-bench --features rapier",
            "mover"
        );
    }

    // The sweep rows: a ball and an ellipsoid through a soup of 1,000 triangles.
    let mut sweep_notes = String::new();
    if wanted("ball-soup1000") || wanted("ellipsoid-soup1000") {
        let t = Instant::now();
        let (sweep_rows, notes) = sweep_cases::run(SEED + 200, &wanted);
        rows.extend(sweep_rows);
        sweep_notes = notes;
        eprintln!("{:>16}: {:.1} s", "sweep soups", t.elapsed().as_secs_f64());
    }

    println!("{}", report::markdown(&rows));
    print!("{sweep_notes}");
    if let Some((ratio, ..)) = warm_vs_cold {
        println!(
            "warm-hull64: kollide warm (one SimplexCache along the trajectory) is {ratio:.2}x faster than kollide cold (target >= 3x: {})",
            if ratio >= 3.0 { "ok" } else { "miss" }
        );
    }
    let disagreements: usize = rows.iter().map(|r| r.disagreements).sum();
    println!("disagreements with parry (all cases): {disagreements}");
    print!("{}", report::disagreement_lines(&rows));

    let path = report::csv_path();
    let mut csv = report::csv(&rows);
    // The ratio row: baseline column = kollide cold, so "speedup" is warm against cold.
    if let Some((ratio, warm_ns, cold_ns)) = warm_vs_cold {
        csv.push_str(&format!("warm-hull64,warm-vs-cold,{warm_ns:.2},{cold_ns:.2},{ratio:.3}\n"));
    }
    match std::fs::write(&path, csv) {
        Ok(()) => println!("wrote {}", path.display()),
        Err(e) => eprintln!("could not write {}: {e}", path.display()),
    }
    eprintln!("total {:.1} s", start.elapsed().as_secs_f64());
}
