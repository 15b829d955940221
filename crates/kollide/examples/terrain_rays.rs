//! Times first-hit rays against a terrain mesh of 256x256 samples, or of `N x N` with
//! `cargo run --release -p kollide --example terrain_rays -- N` (708 gives a million
//! triangles); prints the build time and memory too.

use kollide::composite::{self, TriMesh};
use kollide::math::{Pose3, Vec3};
use kollide::query::cast::Ray;
use std::time::Instant;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(256);
    let half = n as f32 / 2.0;
    let h = |x: f32, z: f32| (x * 0.05).sin() * 4.0 + (z * 0.07).cos() * 3.0 + ((x + z) * 0.3).sin() * 0.5;
    let mut v = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let (x, z) = (c as f32 - half, r as f32 - half);
            v.push(Vec3::new(x, h(x, z), z));
        }
    }
    let id = |r: usize, c: usize| (r * n + c) as u32;
    let mut t = Vec::new();
    for r in 0..n - 1 {
        for c in 0..n - 1 {
            t.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
            t.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
        }
    }
    let start = Instant::now();
    let mesh = TriMesh::new(v, t);
    println!(
        "build {:.1} ms, {} triangles, {:.1} MB, {} nodes, depth {}",
        start.elapsed().as_secs_f64() * 1e3,
        mesh.triangle_count(),
        mesh.memory_bytes() as f64 / 1e6,
        mesh.bvh().node_count(),
        mesh.bvh().depth()
    );
    let mut rays = Vec::new();
    let mut s = 12345u64;
    let mut rnd = || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((s >> 33) as f32) / (1u64 << 31) as f32
    };
    for i in 0..100_000 {
        let o = Vec3::new(
            (rnd() - 0.5) * (n as f32 - 6.0),
            20.0 + rnd() * 20.0,
            (rnd() - 0.5) * (n as f32 - 6.0),
        );
        let target = Vec3::new((rnd() - 0.5) * (n as f32 - 6.0), 0.0, (rnd() - 0.5) * (n as f32 - 6.0));
        let d = if i % 2 == 0 { Vec3::new(rnd() - 0.5, -1.0, rnd() - 0.5) } else { (target - o).normalize() };
        rays.push(Ray::new(o, d));
    }
    for _ in 0..3 {
        let start = Instant::now();
        let mut hits = 0;
        for r in &rays {
            if composite::ray_cast(&mesh, &Pose3::IDENTITY, r, 1000.0).is_some() {
                hits += 1;
            }
        }
        let dt = start.elapsed().as_secs_f64();
        println!("{} rays, {} hits, {:.0} ns/ray", rays.len(), hits, dt * 1e9 / rays.len() as f64);
    }
}
