//! `cargo run --release -p kollide-bench --features parallel -- scaling [MAX_THREADS]`: how
//! kollide's parallel paths (its `rayon` feature) scale with threads. For 1, 2, 4, ... up to
//! the machine's threads (or `MAX_THREADS`), the fastest of three runs in a rayon pool of
//! that many threads, and the speed-up over one thread, of:
//!
//! - `all_pairs` of 1,000,000 boxes (half extents 0.5 to 1, about three neighbours each);
//! - the world frame of 100,000 bodies (the heap of the `world-frame` rows, a tenth moving:
//!   `World::set_poses` and `World::contacts`);
//! - 400,000 rays at a 1,000,000-triangle mesh (a `par_iter` over the rays in user code);
//! - the static tree (`Bvh::try_new_best`) of 1,000,000 boxes;
//! - `TriMesh::new` of the 1,000,000 triangles;
//!
//! then the heap bytes per item of the mesh, of a `BroadPhase` of 100,000 boxes and of the
//! world.

use crate::world_heap::{heap, kollide_shape, pool, unit, MARGIN, STEP};
use glam::{Quat, Vec3};
use kollide::bvh::{all_pairs, Bvh};
use kollide::composite::{self, TriMesh};
use kollide::math::Pose3;
use kollide::query::cast::Ray;
use kollide::world::{Shape3, World};
use kollide_bench::gen;
use rand::Rng;
use rayon::prelude::*;
use std::hint::black_box;
use std::time::Instant;

/// The fastest of three runs of `f` in a pool of `threads` threads, in milliseconds.
fn time(threads: usize, f: &mut (dyn FnMut() + Send)) -> f64 {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
    pool.install(|| {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e3
            })
            .fold(f64::INFINITY, f64::min)
    })
}

/// Runs the scaling table up to `max_threads` and prints it (markdown).
pub fn run(seed: u64, max_threads: usize) {
    let mut counts = vec![1];
    while counts.last().is_some_and(|&t| t * 2 <= max_threads) {
        counts.push(counts.last().map_or(1, |t| t * 2));
    }
    if counts.last() != Some(&max_threads) {
        counts.push(max_threads);
    }
    let mut rng = gen::rng(seed);
    eprintln!("scaling: building the inputs");
    let million = gen::boxes(&mut rng, 1_000_000);
    let (vertices, indices) = gen::surface(&mut rng, 289);
    let mesh = TriMesh::new(vertices.clone(), indices.clone());
    let rays: Vec<Ray<Vec3>> = (0..400_000)
        .map(|_| {
            let origin = unit(&mut rng) * 3.0;
            let target = unit(&mut rng) * rng.random_range(0.0..0.5);
            Ray::new(origin, (target - origin).normalize())
        })
        .collect();
    let specs = pool(&mut rng);
    let shapes: Vec<Shape3<Vec3>> = specs.iter().map(kollide_shape).collect();
    let bodies = heap(&mut rng, 100_000, shapes.len());
    let mut world: World<Vec3, Shape3<Vec3>> = World::new();
    let ids: Vec<_> = bodies
        .iter()
        .map(|b| world.insert(shapes[b.shape].clone(), Pose3::new(b.pose.0, b.pose.1)).expect("finite"))
        .collect();
    let movers: Vec<(usize, Vec3, Quat)> = (0..bodies.len())
        .filter(|i| i % 10 == 3)
        .map(|i| (i, unit(&mut rng) * STEP + bodies[i].pose.0, bodies[i].pose.1))
        .collect();
    let forth: Vec<_> = movers.iter().map(|&(i, p, q)| (ids[i], Pose3::new(p, q))).collect();
    let back: Vec<_> = movers.iter().map(|&(i, _, q)| (ids[i], Pose3::new(bodies[i].pose.0, q))).collect();
    black_box(world.contacts(MARGIN).pairs.len());
    let mut at_forth = false;

    println!("| case | threads | ms | speed-up |");
    println!("|---|---:|---:|---:|");
    let row = |name: &str, f: &mut (dyn FnMut() + Send)| {
        let mut one = f64::NAN;
        for &t in &counts {
            let ms = time(t, f);
            if t == 1 {
                one = ms;
            }
            println!("| {name} | {t} | {ms:.1} | {:.2}x |", one / ms);
        }
    };
    row("all pairs, 1M boxes", &mut || {
        black_box(all_pairs(&million).len());
    });
    row("world frame, 100k bodies", &mut || {
        world.set_poses(if at_forth { &back } else { &forth }).expect("finite");
        at_forth = !at_forth;
        black_box(world.contacts(MARGIN).pairs.len());
    });
    row("400k rays, 1M triangles", &mut || {
        let hits = rays
            .par_iter()
            .filter(|r| composite::ray_cast(&mesh, &Pose3::IDENTITY, r, 10.0).is_some())
            .count();
        black_box(hits);
    });
    row("static tree, 1M boxes", &mut || {
        black_box(Bvh::try_new_best(&million).map(|t| t.len()).ok());
    });
    row("TriMesh::new, 1M triangles", &mut || {
        black_box(TriMesh::new(vertices.clone(), indices.clone()).triangle_count());
    });

    // What the structures hold (heap bytes), per item.
    let mut broad = kollide::bvh::BroadPhase::new(0.1);
    for b in &million[..100_000] {
        broad.insert(*b).expect("finite");
    }
    broad.update();
    let pairs = world.contacts(MARGIN).pairs.len();
    println!();
    println!("| structure | bytes | per |");
    println!("|---|---:|---|");
    println!(
        "| `TriMesh`, 1M triangles | {:.0} | triangle |",
        mesh.memory_bytes() as f64 / indices.len() as f64
    );
    println!("| `BroadPhase`, 100k boxes | {:.0} | proxy |", broad.memory_bytes() as f64 / 100_000.0);
    println!(
        "| `World`, 100k bodies, {} broad-phase pairs | {:.0} | body |",
        world.broad_phase().pair_count(),
        world.memory_bytes() as f64 / bodies.len() as f64
    );
    black_box(pairs);
}
