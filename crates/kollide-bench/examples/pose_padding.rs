//! Reproducer: the same ball-ball pairs, the same pose values, 10x apart in time depending
//! only on the four padding bytes after `Pose<Vec3>::translation`.
//!
//! `cargo run --release -p kollide-bench --example pose_padding`
//!
//! "by value" stores poses built with `Pose3::new` (the padding holds whatever the
//! construction left); "field-assigned" writes the same translation and rotation into
//! storage cloned from `Pose3::IDENTITY`. kollide's pose arithmetic loads the translation as
//! 16 bytes and computes on the padding lane too; garbage there (a denormal, say) makes the
//! SSE instructions take microcode assists.

use kollide::math::Pose3;
use kollide_bench::gen::{self, Spread};
use kollide_bench::scene::Scene3;
use kollide_bench::spec3::{BallSpec, Spec3};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let mut rng = gen::rng(1);
    let pool_a: Vec<BallSpec> = (0..64).map(|_| BallSpec::random(&mut rng)).collect();
    let pool_b: Vec<BallSpec> = (0..64).map(|_| BallSpec::random(&mut rng)).collect();
    let scene = Scene3::new(&mut rng, 1000, pool_a, pool_b, Spread::default());
    let ka: Vec<_> = scene.shapes_a.iter().map(Spec3::kollide).collect();
    let kb: Vec<_> = scene.shapes_b.iter().map(Spec3::kollide).collect();
    let by_value: Vec<_> = scene.pairs.iter().map(|p| (p.ia, p.ib, p.kollide())).collect();
    let mut assigned = vec![(0usize, 0usize, [Pose3::IDENTITY; 2]); by_value.len()];
    for (out, p) in assigned.iter_mut().zip(&scene.pairs) {
        (out.0, out.1) = (p.ia, p.ib);
        (out.2[0].translation, out.2[0].rotation) = p.a;
        (out.2[1].translation, out.2[1].rotation) = p.b;
    }
    assert!(by_value.iter().zip(&assigned).all(|(x, y)| x == y), "same values");
    for (name, poses) in [("by value", &by_value), ("field-assigned", &assigned)] {
        let mut best = f64::MAX;
        for _ in 0..50 {
            let t = Instant::now();
            for (ia, ib, p) in black_box(poses) {
                black_box(kollide::query::intersects(&ka[*ia], &p[0], &kb[*ib], &p[1]));
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!("{name:>15}: {:.1} ns per ball-ball intersects", best * 1.0e9 / poses.len() as f64);
    }
}
