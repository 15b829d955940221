//! The mesh build row (query `build`, case `trimesh-bunny`): kollide's `TriMesh::new`
//! against parry's `TriMesh::new` on the same vertices and triangles, a closed scan-like
//! surface the size of the Stanford bunny.
//!
//! The surface is a sphere pushed out and in by smooth bumps, sampled on the six faces of
//! a cube, `n = 76` cells a side: 69,312 triangles over 34,658 shared vertices (the bunny
//! has 69,451 over 35,947). A scan's files list vertices and triangles in no useful order,
//! so both lists are shuffled (the triangles' corners keep their winding). Before timing,
//! the two meshes answer the same 2,000 rays from outside towards random inner points;
//! times of impact a relative 1e-3 apart are disagreements.

use crate::report::Row;
use crate::timing;
use glam::Vec3;
use kollide::composite::{self, TriMesh};
use kollide::math::Pose3;
use kollide::query::cast::{Ray, RayOutcome};
use kollide_bench::gen::{self, BenchRng};
use parry3d::query::{Ray as PRay, RayCast};
use parry3d::shape::TriMesh as PTriMesh;
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::HashMap;
use std::hint::black_box;

/// Cells per cube face side: 12 x 76² = 69,312 triangles.
const CELLS: u32 = 76;
const RAYS: usize = 2_000;

/// The radius along the unit direction `d`: three bumps on a unit sphere.
fn radius(d: Vec3) -> f32 {
    1.0 + 0.12 * (3.0 * d.x + 0.4).sin() * (2.0 * d.y - 0.3).cos()
        + 0.08 * (5.0 * d.y + 1.1).sin() * (4.0 * d.z).sin()
        + 0.05 * (7.0 * d.z - 0.7).cos() * (6.0 * d.x + 2.0).sin()
}

/// The bumpy sphere over a cube's face grids of `cells` a side (`12 cells²` triangles), vertices shared along the cube's edges (by
/// their integer grid coordinates), then both lists shuffled.
pub(crate) fn surface(rng: &mut BenchRng, cells: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let n = cells as i32;
    let mut ids: HashMap<[i32; 3], u32> = HashMap::new();
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    // Each face: the axis it is normal to, its side, and two axes with u x v outwards.
    let faces: [(usize, i32, usize, usize); 6] =
        [(0, 1, 1, 2), (0, -1, 2, 1), (1, 1, 2, 0), (1, -1, 0, 2), (2, 1, 0, 1), (2, -1, 1, 0)];
    for (axis, side, u, v) in faces {
        let mut at = |i: i32, j: i32| {
            let mut g = [0i32; 3];
            g[axis] = side * n;
            g[u] = 2 * i - n;
            g[v] = 2 * j - n;
            *ids.entry(g).or_insert_with(|| {
                let d = Vec3::new(g[0] as f32, g[1] as f32, g[2] as f32).normalize();
                vertices.push(d * radius(d));
                (vertices.len() - 1) as u32
            })
        };
        for j in 0..n {
            for i in 0..n {
                let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
                triangles.push([a, b, c]);
                triangles.push([a, c, d]);
            }
        }
    }
    let mut order: Vec<u32> = (0..vertices.len() as u32).collect();
    order.shuffle(rng);
    let mut shuffled = vec![Vec3::ZERO; vertices.len()];
    for (old, &new) in order.iter().enumerate() {
        shuffled[new as usize] = vertices[old];
    }
    for t in &mut triangles {
        *t = t.map(|i| order[i as usize]);
        t.rotate_left(rng.random_range(0..3));
    }
    triangles.shuffle(rng);
    (shuffled, triangles)
}

/// The build row.
pub fn run(seed: u64) -> Vec<Row> {
    let mut rng = gen::rng(seed);
    let (vertices, indices) = surface(&mut rng, CELLS);
    let mesh = TriMesh::new(vertices.clone(), indices.clone());
    let pmesh = PTriMesh::new(vertices.clone(), indices.clone()).expect("valid mesh");
    let id_pose = parry3d::math::Pose::IDENTITY;
    let mut bad = 0;
    for _ in 0..RAYS {
        let mut dir = || {
            Vec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
        };
        let origin = dir().normalize_or(Vec3::X) * 3.0;
        let target = dir() * 0.5;
        let d = (target - origin).normalize();
        let k =
            composite::ray_cast(&mesh, &Pose3::IDENTITY, &Ray::new(origin, d), 10.0).map(|h| match h.value {
                RayOutcome::Hit(h) => h.toi,
                _ => 0.0,
            });
        let p = pmesh.cast_ray(&id_pose, &PRay::new(origin, d), 10.0, true);
        bad += usize::from(match (k, p) {
            (Some(x), Some(y)) => (x - y).abs() > 1e-3 * (1.0 + y.abs()),
            (None, None) => false,
            _ => true,
        });
    }
    drop((mesh, pmesh));
    let times = timing::measure(
        1,
        &mut [
            &mut || {
                black_box(
                    TriMesh::new(black_box(vertices.clone()), black_box(indices.clone())).triangle_count(),
                );
            },
            &mut || {
                let m = PTriMesh::new(black_box(vertices.clone()), black_box(indices.clone()))
                    .expect("valid mesh");
                black_box(m.indices().len());
            },
        ],
    );
    vec![Row {
        case: "trimesh-bunny".to_string(),
        query: "build",
        overlap: 0.0,
        pairs: indices.len(),
        disagreements: bad,
        distance_detail: None,
        kollide_ns: times[0],
        parry_ns: times[1],
        target: 1.0,
    }]
}
