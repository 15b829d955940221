//! The README's mesh example: loads the shipped rock (`examples/rock.obj`), casts 100,000
//! rays at it and reports the hits.
//!
//! ```sh
//! cargo run --release -p kollide --features obj --example mesh_rays
//! cargo run --release -p kollide --features obj --example mesh_rays -- other.obj 20000
//! ```
//!
//! The rays start on a sphere of radius 3 around the rock; every other one aims at a point
//! within 0.5 of the centre (inside the rock, so it must hit), the others point the
//! opposite way (away from everything, so they must miss).

use kollide::composite::{self, TriMesh, Weld};
use kollide::prelude::*;

/// Ray `k` of `count`: its origin on a golden spiral over the sphere of radius 3, aimed at
/// a point within 0.5 of the centre when `k` is even, the opposite way when odd.
pub fn ray(k: usize, count: usize) -> Ray<DVec3> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let y = 1.0 - 2.0 * (k as f64 + 0.5) / count as f64;
    let r = (1.0 - y * y).sqrt();
    let a = golden * k as f64;
    let origin = DVec3::new(r * a.cos(), y, r * a.sin()) * 3.0;
    let aim = DVec3::new((0.7 * a).sin(), (1.3 * a).cos(), (0.9 * a).sin()) * 0.28; // within 0.5
    let toward = aim - origin;
    Ray::new(origin, if k & 1 == 0 { toward } else { -toward })
}

/// How many of `count` rays hit the mesh.
pub fn hits(mesh: &TriMesh<DVec3>, count: usize) -> usize {
    (0..count)
        .filter(|&k| composite::ray_cast(mesh, &DPose3::IDENTITY, &ray(k, count), f64::INFINITY).is_some())
        .count()
}

#[allow(dead_code)]
fn main() {
    let mut args = std::env::args().skip(1);
    let path =
        args.next().unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/rock.obj").into());
    let count: usize = args.next().map_or(100_000, |a| a.parse().expect("a number of rays"));
    let rock = TriMesh::<DVec3>::from_file(&path, Weld::Exact).unwrap_or_else(|e| panic!("{e}"));
    let report = rock.report();
    println!(
        "{path}: {} triangles, {} vertices ({} welded), closed: {}, oriented: {}",
        report.triangles, report.vertices, report.welded_vertices, report.closed, report.oriented
    );
    let start = std::time::Instant::now();
    let hit = hits(&rock, count);
    println!("{hit} of {count} rays hit, in {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
}
