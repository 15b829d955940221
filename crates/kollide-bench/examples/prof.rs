//! Profiling harness: one convex query on one bench case, looped for a few seconds, so a
//! profiler sees nothing else. `cargo run --release -p kollide-bench --example prof -- CASE
//! QUERY [SECONDS]`, CASE one of `ball-ball`, `cuboid-cuboid`, `hull8`, `hull64`, `cuboid-hull64`,
//! `poly8`, `poly64` (or `hull16`, `hull32`, which are not bench rows); QUERY one of
//! `distance`, `intersects`, `contact`, `contact-steps` (GJK, EPA and SAT iterations per
//! query, from the traces) or `answers` (each pair's answers, a line a pair, to compare two
//! builds); or CASE one of `ball`,
//! `cuboid`, `capsule` with QUERY `ray` (`ray_toi`) or `ray-normal` (`ray_cast`), on rays
//! drawn as the bench's ray rows draw them (not the same rays); or CASE `boxes10k`,
//! `boxes100k` with QUERY `pairs` (`all_pairs`, the grid's build included), `pairs-cold` (the
//! same, L2 evicted between calls as parry's walk does in the bench), `grid-build` and
//! `grid-visit` (`GridPairs::new` and `visit_pairs` apart) or `frame` (the
//! broad phase's frame: 10% of the boxes moved by `set_aabb`, then `update`; it prints the
//! two parts' times apart); or CASE `trimesh-bunny` with QUERY `build` (`TriMesh::new` of
//! the `build` row's mesh) or `tree` (its `Bvh` alone); or CASE `terrain` with QUERY `ray` (the
//! `terrain-trimesh` `ray` row's mesh and rays). The scenes are the bench's own (same seeds, pools and poses). It prints the fastest pass over the 1000 pairs; for A/B
//! comparisons run two builds' binaries in turn, several times (the machine drifts).

use kollide_bench::gen::{self, BenchRng, Spread};
use kollide_bench::scene::{Scene2, Scene3};
use kollide_bench::spec2::{PolygonSpec, Spec2};
use kollide_bench::spec3::{BallSpec, CapsuleSpec, CuboidSpec, HullSpec, Spec3};
use rand::Rng;
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
                "answers" => {
                    // One line a pair: distance, its bounds, intersects, the contact's
                    // signed distance (or "none"); for comparing two builds' answers.
                    for (ia, ib, k) in &kp {
                        let (a, b) = (&ka[*ia], &kb[*ib]);
                        let d = kollide::query::distance(a, &k[0], b, &k[1]);
                        let hit = kollide::query::intersects(a, &k[0], b, &k[1]);
                        let c = kollide::query::contact(a, &k[0], b, &k[1], 0.0, None);
                        let c = c.map_or("none".to_string(), |c| format!("{:e}", c.distance));
                        println!("{:e} {:e} {:e} {hit} {c}", d.distance, d.lower_bound, d.upper_bound);
                    }
                }
                _ => panic!("unknown query {query}"),
            }
        }
    };
}

run_case!(run3, Scene3, Spec3);
run_case!(run2, Scene2, Spec2);

/// Rays at a pool of shapes, drawn as the bench's ray rows draw them: poses in a 10-wide
/// box, one origin in eight inside the shape's reach, the rest 1.5-4 reaches out, aimed at
/// a ball 1.3 reaches wide.
fn rays<S: Spec3>(secs: f64, query: &str, make: impl FnMut(&mut BenchRng) -> S) {
    use glam::Vec3;
    use kollide::query::cast::{ray_cast, ray_toi, Ray};
    let mut r = gen::rng(SEED + 100);
    let shapes = pool(&mut r, 32, make);
    let reach = |s: &S| {
        let dirs = (0..27)
            .filter(|&i| i != 13)
            .map(|i| Vec3::new((i % 3) as f32 - 1.0, (i / 3 % 3) as f32 - 1.0, (i / 9) as f32 - 1.0));
        dirs.map(|d| s.extent(d.normalize())).fold(0.0f32, f32::max)
    };
    let ks: Vec<S::Kollide> = shapes.iter().map(Spec3::kollide).collect();
    let cases: Vec<_> = (0..1000)
        .map(|k| {
            let i = r.random_range(0..shapes.len());
            let reach = reach(&shapes[i]);
            let at = Vec3::new(
                gen::uniform(&mut r, -5.0, 5.0),
                gen::uniform(&mut r, -5.0, 5.0),
                gen::uniform(&mut r, -5.0, 5.0),
            );
            let pose = kollide::math::Pose3::new(at, gen::rotation3(&mut r));
            let from = if k % 8 == 0 { 0.5 } else { gen::uniform(&mut r, 1.5, 4.0) };
            let origin = at + gen::unit_vec3(&mut r) * (reach * from);
            let target = at + gen::unit_vec3(&mut r) * (reach * 1.3 * gen::uniform(&mut r, 0.0, 1.0).cbrt());
            let dir = (target - origin) * gen::uniform(&mut r, 0.5, 2.0);
            (i, pose, Ray::new(origin, dir))
        })
        .collect();
    match query {
        "ray" => time(secs, cases.len(), || {
            for (i, pose, ray) in black_box(&cases) {
                black_box(ray_toi(&ks[*i], pose, ray, 1.0e3));
            }
        }),
        "ray-normal" => time(secs, cases.len(), || {
            for (i, pose, ray) in black_box(&cases) {
                black_box(ray_cast(&ks[*i], pose, ray, 1.0e3));
            }
        }),
        _ => panic!("unknown query {query}"),
    }
}

/// The broad-phase rows' boxes (the bench's seeds): `all_pairs`, or one frame of 10% moving
/// (forth and back, as the bench times it), its two parts timed apart.
fn broad_phase(secs: f64, case: &str, query: &str) {
    use kollide::bvh::{all_pairs, BroadPhase, ProxyId};
    let (index, n) = if case == "boxes10k" { (400, 10_000) } else { (401, 100_000) };
    let mut r = gen::rng(SEED + index);
    let a = gen::boxes(&mut r, n);
    let (moved, b) = gen::moved_tenth(&mut r, &a);
    match query {
        "pairs" => time(secs, n, || {
            black_box(all_pairs(black_box(&a)).len());
        }),
        "pairs-cold" => {
            // As in the bench, where parry's walk runs between two calls: a 2 MiB sweep
            // evicts L2 between calls (untimed).
            let mut junk = vec![0u64; 1 << 18];
            let start = Instant::now();
            let (mut best, mut reps) = (f64::MAX, 0u64);
            while start.elapsed().as_secs_f64() < secs {
                for (k, x) in junk.iter_mut().enumerate() {
                    *x = x.wrapping_add(k as u64);
                }
                black_box(&junk);
                let t = Instant::now();
                black_box(all_pairs(black_box(&a)).len());
                best = best.min(t.elapsed().as_secs_f64());
                reps += 1;
            }
            println!("{:.1} ns/query (best of {reps})", best * 1e9 / n as f64);
        }
        "grid-build" => time(secs, n, || {
            black_box(kollide::bvh::GridPairs::new(black_box(&a)).map(|g| g.len()));
        }),
        "grid-visit" => {
            let g = kollide::bvh::GridPairs::new(&a).unwrap();
            let mut out: Vec<(u32, u32)> = Vec::with_capacity(4 * n);
            time(secs, n, || {
                out.clear();
                g.visit_pairs(|i, j| out.push((i, j)));
                black_box(out.len());
            })
        }
        "frame" => {
            let mut bp = BroadPhase::new(0.1);
            let ids: Vec<ProxyId> = a.iter().map(|x| bp.insert(*x).expect("finite")).collect();
            bp.update();
            let (mut set, mut update, mut frames) = (f64::MAX, f64::MAX, 0u64);
            let start = Instant::now();
            while start.elapsed().as_secs_f64() < secs || frames % 2 == 1 {
                let to = if frames % 2 == 0 { &b } else { &a };
                let t0 = Instant::now();
                for &i in &moved {
                    let _ = bp.set_aabb(ids[i as usize], to[i as usize]);
                }
                let t1 = Instant::now();
                black_box(bp.update());
                set = set.min((t1 - t0).as_secs_f64());
                update = update.min(t1.elapsed().as_secs_f64());
                frames += 1;
            }
            println!(
                "set_aabb {:.1} us, update {:.1} us a frame (best of {frames}; {} moved, {} pairs)",
                set * 1e6,
                update * 1e6,
                moved.len(),
                bp.pair_count()
            );
        }
        _ => panic!("unknown query {query}"),
    }
}

/// The `build` row's mesh (the bench's seed): `TriMesh::new` whole (`build`), or its tree
/// alone (`tree`: `Bvh::new` over the triangles' boxes). Prints milliseconds a build.
fn mesh_build(secs: f64, query: &str) {
    use kollide::bvh::Bvh;
    use kollide::composite::TriMesh;
    use kollide::math::Aabb;
    let (vertices, indices) = gen::surface(&mut gen::rng(SEED + 600), gen::BUNNY_CELLS);
    let boxes: Vec<Aabb<glam::Vec3>> = indices
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| vertices[i as usize]);
            Aabb::new(a.min(b).min(c), a.max(b).max(c))
        })
        .collect();
    let start = Instant::now();
    let (mut best, mut reps) = (f64::MAX, 0u64);
    while start.elapsed().as_secs_f64() < secs || reps == 0 {
        let (v, i) = (vertices.clone(), indices.clone());
        let t = Instant::now();
        match query {
            "build" => {
                black_box(TriMesh::new(black_box(v), black_box(i)).triangle_count());
            }
            "tree" => {
                black_box(Bvh::new(black_box(&boxes)).node_count());
            }
            _ => panic!("unknown query {query}"),
        }
        best = best.min(t.elapsed().as_secs_f64());
        reps += 1;
    }
    // A fingerprint of the tree, to compare two builds' trees: its item order, depth and size.
    let tree = Bvh::new(&boxes);
    let print = tree
        .item_order()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &i| (h ^ u64::from(i)).wrapping_mul(0x100_0000_01b3));
    println!(
        "{:.3} ms a build (best of {reps}; {} triangles; tree {print:016x}, {} nodes, depth {})",
        best * 1e3,
        indices.len(),
        tree.node_count(),
        tree.depth()
    );
}

/// The `terrain-trimesh` `ray` row: the bench's mesh and its 100,000 rays (the same seed),
/// `composite::ray_cast` on each.
fn terrain(secs: f64, query: &str) {
    use kollide::composite::{self, TriMesh};
    use kollide::math::Pose3;
    use kollide::query::cast::Ray;
    assert_eq!(query, "ray", "unknown query {query}");
    let (vertices, indices) = gen::terrain_mesh();
    let mesh = TriMesh::new(vertices, indices);
    let rays: Vec<Ray<glam::Vec3>> = gen::terrain_rays(&mut gen::rng(SEED + 500), 100_000)
        .into_iter()
        .map(|(o, d)| Ray::new(o, d))
        .collect();
    time(secs, rays.len(), || {
        for ray in &rays {
            black_box(composite::ray_cast(&mesh, &Pose3::IDENTITY, black_box(ray), 1000.0));
        }
    });
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let case = args.first().map_or("cuboid-cuboid", String::as_str);
    let query = args.get(1).map_or("distance", String::as_str);
    let secs: f64 = args.get(2).map_or(3.0, |s| s.parse().expect("seconds"));
    match case {
        "ball" => return rays(secs, query, BallSpec::random),
        "cuboid" => return rays(secs, query, CuboidSpec::random),
        "capsule" => return rays(secs, query, CapsuleSpec::random),
        "boxes10k" | "boxes100k" => return broad_phase(secs, case, query),
        "trimesh-bunny" => return mesh_build(secs, query),
        "terrain" => return terrain(secs, query),
        _ => {}
    }
    // Case numbers as in the bench's main: `SEED + i` for the i-th case.
    let (index, touch) = match case {
        "ball-ball" => (1, 1.0),
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
        "ball-ball" => {
            let (a, b) = (pool(&mut r, 64, BallSpec::random), pool(&mut r, 64, BallSpec::random));
            run3(&Scene3::new(&mut r, 1000, a, b, spread), query, secs);
        }
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
            let scene = Scene2::new(&mut r, 1000, a, b, spread);
            if query == "oracle" {
                let (mut worst, mut sum) = (0.0f64, 0.0f64);
                for pr in &scene.pairs {
                    let k = pr.kollide();
                    let (ka, kb) = (scene.shapes_a[pr.ia].kollide(), scene.shapes_b[pr.ib].kollide());
                    let d = kollide::query::distance(&ka, &k[0], &kb, &k[1]).distance as f64;
                    let [(ta, ra), (tb, rb)] = pr.f64_parts();
                    let oa = scene.shapes_a[pr.ia].oracle().unwrap().placed(ta, ra);
                    let ob = scene.shapes_b[pr.ib].oracle().unwrap().placed(tb, rb);
                    let truth = kollide_bench::oracle2::distance(&oa, &ob).unwrap_or(0.0);
                    let e = (d - truth).abs();
                    worst = worst.max(e / truth.max(1e-3));
                    sum += e;
                }
                println!(
                    "worst relative error {worst:e}, mean absolute {:e}",
                    sum / scene.pairs.len() as f64
                );
                return;
            }
            run2(&scene, query, secs);
        }
    }
}
