//! Times the convex hull of points on the unit sphere (every point a vertex):
//! `cargo run --release -p kollide --example hull_million -- [f64|f32] [N]` (default f64,
//! a million points). Peak memory: run the built binary under `/usr/bin/time -v`.

use glam::{DVec3, Vec3};
use kollide::shape::ConvexHull;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// `n` points uniform on the unit sphere, the same ones on every run (rejection sampling in
/// the cube, then normalised, as the hull tests do).
fn sphere_points(n: usize) -> Vec<[f64; 3]> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    (0..n)
        .map(|_| loop {
            let p: [f64; 3] = core::array::from_fn(|_| rng.random_range(-1.0..1.0));
            let l = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
            if l > 0.1 && l <= 1.0 {
                break p.map(|x| x / l);
            }
        })
        .collect()
}

fn report(label: &str, n: usize, secs: f64, vertices: usize, triangles: usize, faces: usize) {
    println!("{label}: {n} points, {secs:.3} s, {vertices} vertices, {triangles} triangles, {faces} faces");
}

fn main() {
    let mut args = std::env::args().skip(1);
    let scalar = args.next().unwrap_or_else(|| "f64".into());
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    // Consumed by the conversion below: the process holds one copy of the input.
    let pts = sphere_points(n);
    match scalar.as_str() {
        "f32" => {
            let pts: Vec<Vec3> = pts.into_iter().map(|p| DVec3::from_array(p).as_vec3()).collect();
            let start = Instant::now();
            let hull = ConvexHull::try_from_points(&pts).expect("a sphere has volume");
            let secs = start.elapsed().as_secs_f64();
            report("f32", n, secs, hull.vertices().len(), hull.triangles().len(), hull.face_count());
        }
        _ => {
            let pts: Vec<DVec3> = pts.into_iter().map(DVec3::from_array).collect();
            let start = Instant::now();
            let hull = ConvexHull::try_from_points(&pts).expect("a sphere has volume");
            let secs = start.elapsed().as_secs_f64();
            report("f64", n, secs, hull.vertices().len(), hull.triangles().len(), hull.face_count());
        }
    }
}
