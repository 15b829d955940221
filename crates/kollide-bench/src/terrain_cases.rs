//! The terrain ray rows: 100,000 first-hit rays on a 256 x 256-sample terrain, as kollide's
//! `TriMesh` and `HeightField` against parry's `TriMesh` and `HeightField` on the same `f32`
//! samples, triangles and rays (query `ray`, cases `terrain-trimesh`, `terrain-heightfield`).
//!
//! The surfaces are the same: parry's heightfield takes its samples column-major and splits
//! a cell along the other diagonal unless the cell is marked zigzag, so it is given the
//! transposed samples and every cell is marked. Half the rays fall straight down from 20 to
//! 40 units above, half go obliquely from there to a random ground point; both libraries'
//! times of impact are compared before timing (a relative 1e-3 apart is a disagreement).

use crate::report::Row;
use crate::timing;
use glam::Vec3;
use kollide::composite::{composite_ray_cast, HeightField, TriMesh};
use kollide::math::Pose3;
use kollide::query::cast::{Ray, RayOutcome};
use kollide_bench::gen::{self, BenchRng};
use parry3d::query::{Ray as PRay, RayCast};
use parry3d::shape::{HeightFieldCellStatus, TriMesh as PTriMesh};
use rand::Rng;
use std::hint::black_box;

/// Samples per side.
const N: usize = 256;
/// Rays per case.
const RAYS: usize = 100_000;
const MAX_TOI: f32 = 1000.0;

/// The terrain's height at grid point (r, c): hills and ripples.
fn height(r: usize, c: usize) -> f32 {
    let (x, z) = (c as f32 - 128.0, r as f32 - 128.0);
    (x * 0.05).sin() * 4.0 + (z * 0.07).cos() * 3.0 + ((x + z) * 0.3).sin() * 0.5
}

fn rays(rng: &mut BenchRng) -> Vec<(Vec3, Vec3)> {
    (0..RAYS)
        .map(|i| {
            let o = Vec3::new(
                rng.random_range(-125.0..125.0),
                rng.random_range(20.0..40.0),
                rng.random_range(-125.0..125.0),
            );
            let d = if i % 2 == 0 {
                Vec3::new(rng.random_range(-0.5..0.5), -1.0, rng.random_range(-0.5..0.5))
            } else {
                let target = Vec3::new(rng.random_range(-125.0..125.0), 0.0, rng.random_range(-125.0..125.0));
                (target - o).normalize()
            };
            (o, d)
        })
        .collect()
}

fn toi(o: Option<kollide::composite::OnPart<RayOutcome<Vec3>>>) -> Option<f32> {
    o.map(|h| match h.value {
        RayOutcome::Hit(h) => h.toi,
        _ => 0.0,
    })
}

fn disagreements(k: &[Option<f32>], p: &[Option<f32>]) -> usize {
    k.iter()
        .zip(p)
        .filter(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => (x - y).abs() > 1e-3 * (1.0 + y.abs()),
            (None, None) => false,
            _ => true,
        })
        .count()
}

/// The two ray rows.
pub fn run(seed: u64) -> Vec<Row> {
    let mut rng = gen::rng(seed);
    let samples: Vec<f32> = (0..N * N).map(|k| height(k / N, k % N)).collect();
    let scale = Vec3::new((N - 1) as f32, 1.0, (N - 1) as f32);
    let field = HeightField::try_from_grid(N, N, samples.clone(), scale).expect("valid field");
    let vertices: Vec<Vec3> = (0..N * N).map(|k| field.point(k / N, k % N)).collect();
    let id = |r: usize, c: usize| (r * N + c) as u32;
    let mut indices = Vec::new();
    for r in 0..N - 1 {
        for c in 0..N - 1 {
            indices.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
            indices.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
        }
    }
    let mesh = TriMesh::new(vertices.clone(), indices.clone());
    let pmesh = PTriMesh::new(vertices, indices).expect("valid mesh");
    let column_major: Vec<f32> = (0..N * N).map(|k| samples[(k % N) * N + k / N]).collect();
    let mut pfield = parry3d::shape::HeightField::new(parry3d::utils::Array2::new(N, N, column_major), scale);
    for i in 0..N - 1 {
        for j in 0..N - 1 {
            pfield.set_cell_status(i, j, HeightFieldCellStatus::ZIGZAG_SUBDIVISION);
        }
    }
    let rays = rays(&mut rng);
    let kr: Vec<Ray<Vec3>> = rays.iter().map(|&(o, d)| Ray::new(o, d)).collect();
    let pr: Vec<PRay> = rays.iter().map(|&(o, d)| PRay::new(o, d)).collect();
    let id_pose = parry3d::math::Pose::IDENTITY;
    let mut rows = Vec::new();
    let mut row = |case: &str, bad: usize, hits: usize, k: f64, p: f64, target: f64| {
        rows.push(Row {
            case: case.to_string(),
            query: "ray",
            overlap: hits as f64 / RAYS as f64,
            pairs: RAYS,
            disagreements: bad,
            distance_detail: None,
            kollide_ns: k,
            parry_ns: p,
            target,
        });
    };

    let k: Vec<Option<f32>> =
        kr.iter().map(|r| toi(composite_ray_cast(&mesh, &Pose3::IDENTITY, r, MAX_TOI))).collect();
    let p: Vec<Option<f32>> = pr.iter().map(|r| pmesh.cast_ray(&id_pose, r, MAX_TOI, true)).collect();
    let bad = disagreements(&k, &p);
    let hits = k.iter().filter(|x| x.is_some()).count();
    let t = timing::measure(
        RAYS,
        &mut [
            &mut || {
                for r in &kr {
                    black_box(composite_ray_cast(&mesh, &Pose3::IDENTITY, black_box(r), MAX_TOI));
                }
            },
            &mut || {
                for r in &pr {
                    black_box(pmesh.cast_ray(&id_pose, black_box(r), MAX_TOI, true));
                }
            },
        ],
    );
    row("terrain-trimesh", bad, hits, t[0], t[1], 1.5);

    let k: Vec<Option<f32>> =
        kr.iter().map(|r| toi(composite_ray_cast(&field, &Pose3::IDENTITY, r, MAX_TOI))).collect();
    let p: Vec<Option<f32>> = pr.iter().map(|r| pfield.cast_ray(&id_pose, r, MAX_TOI, true)).collect();
    let bad = disagreements(&k, &p);
    let hits = k.iter().filter(|x| x.is_some()).count();
    let t = timing::measure(
        RAYS,
        &mut [
            &mut || {
                for r in &kr {
                    black_box(composite_ray_cast(&field, &Pose3::IDENTITY, black_box(r), MAX_TOI));
                }
            },
            &mut || {
                for r in &pr {
                    black_box(pfield.cast_ray(&id_pose, black_box(r), MAX_TOI, true));
                }
            },
        ],
    );
    row("terrain-heightfield", bad, hits, t[0], t[1], 2.0);
    rows
}
