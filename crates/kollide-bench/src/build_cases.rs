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
use kollide_bench::gen;
use parry3d::query::{Ray as PRay, RayCast};
use parry3d::shape::TriMesh as PTriMesh;
use rand::Rng;
use std::hint::black_box;

const RAYS: usize = 2_000;

/// The build row.
pub fn run(seed: u64) -> Vec<Row> {
    let mut rng = gen::rng(seed);
    let (vertices, indices) = gen::surface(&mut rng, gen::BUNNY_CELLS);
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
