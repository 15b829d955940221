//! The upper reference for rays on the terrain mesh: obvhs, a ray-tracing BVH crate (an
//! eight-wide compressed BVH, built by PLOC, traversed four nodes at a time with SIMD),
//! building and tracing the same triangles with the same rays. Query `ray-obvhs`, case
//! `terrain-trimesh`; obvhs stands in the parry column.
//!
//! obvhs answers only the distance along the ray (its Möller–Trumbore test, both sides),
//! kollide the full `RayHit` with the normal and the triangle's feature; a time of impact a
//! relative 1e-3 apart is a disagreement. Both build times are printed beside the row.

use crate::report::Row;
use crate::timing;
use glam::{Vec3, Vec3A};
use kollide::composite::{self, TriMesh};
use kollide::math::Pose3;
use kollide::query::cast::{Ray, RayOutcome};
use obvhs::cwbvh::builder::build_cwbvh_from_tris;
use obvhs::ray::{Ray as ORay, RayHit};
use obvhs::triangle::Triangle;
use obvhs::BvhBuildParams;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The `ray-obvhs` row for `rays` (origin, unit direction) on the mesh of `vertices` and
/// `indices`, up to `max_toi`.
pub fn row(vertices: &[Vec3], indices: &[[u32; 3]], rays: &[(Vec3, Vec3)], max_toi: f32) -> Row {
    let t = Instant::now();
    let mesh = TriMesh::new(vertices.to_vec(), indices.to_vec());
    let kollide_build = t.elapsed();
    let tris: Vec<Triangle> = indices
        .iter()
        .map(|t| Triangle {
            v0: Vec3A::from(vertices[t[0] as usize]),
            v1: Vec3A::from(vertices[t[1] as usize]),
            v2: Vec3A::from(vertices[t[2] as usize]),
        })
        .collect();
    let t = Instant::now();
    let bvh = build_cwbvh_from_tris(&tris, BvhBuildParams::medium_build(), &mut Duration::default());
    let obvhs_build = t.elapsed();
    // Triangles in the BVH's order, as obvhs's own examples do, so a hit reads them in turn.
    let ordered: Vec<Triangle> = bvh.primitive_indices.iter().map(|&i| tris[i as usize]).collect();
    let kr: Vec<Ray<Vec3>> = rays.iter().map(|&(o, d)| Ray::new(o, d)).collect();
    let or: Vec<ORay> = rays.iter().map(|&(o, d)| ORay::new(o.into(), d.into(), 0.0, max_toi)).collect();
    let kollide_toi = |r: &Ray<Vec3>| {
        composite::ray_cast(&mesh, &Pose3::IDENTITY, r, max_toi).map(|h| match h.value {
            RayOutcome::Hit(h) => h.toi,
            _ => 0.0,
        })
    };
    let obvhs_toi = |r: &ORay| {
        let mut hit = RayHit::none();
        bvh.ray_traverse(*r, &mut hit, |ray, id| ordered[id].intersect(ray)).then_some(hit.t)
    };
    let bad = kr
        .iter()
        .zip(&or)
        .filter(|(k, o)| match (kollide_toi(k), obvhs_toi(o)) {
            (Some(x), Some(y)) => (x - y).abs() > 1e-3 * (1.0 + y.abs()),
            (None, None) => false,
            _ => true,
        })
        .count();
    let hits = kr.iter().filter(|r| kollide_toi(r).is_some()).count();
    let t = timing::measure(
        rays.len(),
        &mut [
            &mut || {
                for r in &kr {
                    black_box(kollide_toi(black_box(r)));
                }
            },
            &mut || {
                for r in &or {
                    black_box(obvhs_toi(black_box(r)));
                }
            },
        ],
    );
    eprintln!(
        "{:>16}: {} triangles built in {:.1} ms by kollide (binned SAH), {:.1} ms by obvhs (PLOC, CWBVH)",
        "ray-obvhs",
        indices.len(),
        kollide_build.as_secs_f64() * 1e3,
        obvhs_build.as_secs_f64() * 1e3
    );
    Row {
        case: "terrain-trimesh".to_string(),
        query: "ray-obvhs",
        overlap: hits as f64 / rays.len() as f64,
        pairs: rays.len(),
        disagreements: bad,
        distance_detail: None,
        kollide_ns: t[0],
        parry_ns: t[1],
        target: 0.0,
    }
}
