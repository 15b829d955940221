//! Writes the shipped example mesh, `examples/rock.obj`: a rock made from a cube whose six
//! faces are grids of `n x n` cells, each grid point pushed onto a sphere and then out or in
//! along its direction by a smooth bump function. The mesh is closed and wound outwards;
//! each face's grid keeps its own copy of the points on the cube's edges, as meshes
//! exported face by face do, so reading it welds them (`welded_vertices` in its report).
//!
//! ```sh
//! cargo run -p kollide --example make_rock                      # examples/rock.obj, n = 20
//! cargo run -p kollide --example make_rock -- 150 /tmp/big.obj  # 270,000 triangles
//! ```
//!
//! `n` gives `12 n²` triangles over `6 (n + 1)²` stored vertices (`6 n² + 2` once welded).
//! Every vertex lies between [`MIN_RADIUS`] and [`MAX_RADIUS`] from the origin.

use std::fmt::Write as _;

/// The rock's radius along a direction lies within these bounds.
pub const MIN_RADIUS: f64 = 1.0 - BUMPS;
/// See [`MIN_RADIUS`].
pub const MAX_RADIUS: f64 = 1.0 + BUMPS;
/// The largest height of the bumps (the sum of their amplitudes).
const BUMPS: f64 = 0.25;

/// The radius of the rock along the unit direction `d`: 1 plus three bumps of amplitude
/// 0.12, 0.08 and 0.05 (each a product of sines, hence within its amplitude).
pub fn radius(d: [f64; 3]) -> f64 {
    let [x, y, z] = d;
    1.0 + 0.12 * (3.0 * x + 0.4).sin() * (2.0 * y - 0.3).cos()
        + 0.08 * (5.0 * y + 1.1).sin() * (4.0 * z).sin()
        + 0.05 * (7.0 * z - 0.7).cos() * (6.0 * x + 2.0).sin()
}

/// The rock of `n x n` cells a face: its vertices (each face's grid in turn, row by row)
/// and triangles (counter-clockwise seen from outside).
pub fn rock(n: u32) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    // Each face: the axis it is normal to, its side, and two axes spanning it such that
    // u x v points out of the cube.
    let faces: [(usize, f64, usize, usize); 6] =
        [(0, 1.0, 1, 2), (0, -1.0, 2, 1), (1, 1.0, 2, 0), (1, -1.0, 0, 2), (2, 1.0, 0, 1), (2, -1.0, 1, 0)];
    let grid = |i: u32| -1.0 + 2.0 * f64::from(i) / f64::from(n);
    for (axis, side, u, v) in faces {
        let first = vertices.len() as u32;
        for j in 0..=n {
            for i in 0..=n {
                let mut p = [0.0; 3];
                p[axis] = side;
                p[u] = grid(i);
                p[v] = grid(j);
                let len = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                let d = [p[0] / len, p[1] / len, p[2] / len];
                let r = radius(d);
                vertices.push([d[0] * r, d[1] * r, d[2] * r]);
            }
        }
        let at = |i: u32, j: u32| first + j * (n + 1) + i;
        for j in 0..n {
            for i in 0..n {
                triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
            }
        }
    }
    (vertices, triangles)
}

/// The mesh as OBJ text, coordinates with 6 decimals (so the copies of a point on a cube
/// edge, computed alike, are written alike).
pub fn obj_text(vertices: &[[f64; 3]], triangles: &[[u32; 3]]) -> String {
    let mut s = String::from(
        "# A rock: kollide's example mesh, written by `cargo run -p kollide --example make_rock`.\n",
    );
    for p in vertices {
        let _ = writeln!(s, "v {:.6} {:.6} {:.6}", p[0], p[1], p[2]);
    }
    for t in triangles {
        let _ = writeln!(s, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    s
}

#[allow(dead_code)]
fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().map_or(20, |a| a.parse().expect("n: a whole number of cells"));
    let out =
        args.next().unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/rock.obj").into());
    let (vertices, triangles) = rock(n);
    std::fs::write(&out, obj_text(&vertices, &triangles)).expect("write the mesh");
    println!("{out}: {} triangles, {} vertices", triangles.len(), vertices.len());
}
