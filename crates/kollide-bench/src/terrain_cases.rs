//! The terrain ray rows: 100,000 first-hit rays on a 256 x 256-sample terrain, as kollide's
//! `TriMesh` and `HeightField` against parry's `TriMesh` and `HeightField` on the same `f32`
//! samples, triangles and rays (query `ray`, cases `terrain-trimesh`, `terrain-heightfield`).
//!
//! The surfaces are the same: parry's heightfield takes its samples column-major and splits
//! a cell along the other diagonal unless the cell is marked zigzag, so it is given the
//! transposed samples and every cell is marked. Half the rays fall straight down from 20 to
//! 40 units above, half go obliquely from there to a random ground point; both libraries'
//! times of impact are compared before timing (a relative 1e-3 apart is a disagreement).
//!
//! On the mesh also: 2,000 falling, sliding casts of a ball and of a turned box (query
//! `cast`, cases `ball-terrain`, `box-terrain`: kollide `composite::shape_cast`, parry
//! `cast_shapes`), and 2,000 turned boxes resting on the terrain, their centre the height of
//! the ground under it plus their half height less 0.02 (queries `contact` and `manifold`,
//! case `box-on-terrain`: kollide `composite::contact`/`composite::manifold`, parry `contact`
//! and `contact_manifolds`, each with its manifolds kept between calls: kollide's
//! `composite::manifold_cached` with a `PartManifoldCache` per box).

use crate::report::Row;
use crate::timing;
use glam::Vec3;
use kollide::composite::{self, HeightField, TriMesh};
use kollide::math::Pose3;
use kollide::query::cast::{CastInput, CastStatus, Ray, RayOutcome};
use kollide::shape::{Ball, Cuboid};
use kollide_bench::gen::{self, BenchRng};
use parry3d::query::{PersistentQueryDispatcher, ShapeCastOptions};
use parry3d::query::{Ray as PRay, RayCast};
use parry3d::shape::{HeightFieldCellStatus, TriMesh as PTriMesh};
use rand::Rng;
use std::hint::black_box;

/// Samples per side.
const N: usize = gen::TERRAIN_SAMPLES;
/// Rays per case.
const RAYS: usize = 100_000;
const MAX_TOI: f32 = 1000.0;

fn toi(o: Option<kollide::composite::Found<RayOutcome<Vec3>>>) -> Option<f32> {
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
    let (samples, scale) = gen::terrain_samples();
    let field = HeightField::try_from_grid(N, N, samples.clone(), scale).expect("valid field");
    let (vertices, indices) = gen::terrain_mesh();
    let mesh = TriMesh::new(vertices.clone(), indices.clone());
    let pmesh = PTriMesh::new(vertices.clone(), indices.clone()).expect("valid mesh");
    let column_major: Vec<f32> = (0..N * N).map(|k| samples[(k % N) * N + k / N]).collect();
    let mut pfield = parry3d::shape::HeightField::new(parry3d::utils::Array2::new(N, N, column_major), scale);
    for i in 0..N - 1 {
        for j in 0..N - 1 {
            pfield.set_cell_status(i, j, HeightFieldCellStatus::ZIGZAG_SUBDIVISION);
        }
    }
    let rays = gen::terrain_rays(&mut rng, RAYS);
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
        kr.iter().map(|r| toi(composite::ray_cast(&mesh, &Pose3::IDENTITY, r, MAX_TOI))).collect();
    let p: Vec<Option<f32>> = pr.iter().map(|r| pmesh.cast_ray(&id_pose, r, MAX_TOI, true)).collect();
    let bad = disagreements(&k, &p);
    let hits = k.iter().filter(|x| x.is_some()).count();
    let t = timing::measure(
        RAYS,
        &mut [
            &mut || {
                for r in &kr {
                    black_box(composite::ray_cast(&mesh, &Pose3::IDENTITY, black_box(r), MAX_TOI));
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
    let obvhs_row = crate::terrain_obvhs::row(&vertices, &indices, &rays, MAX_TOI);

    let k: Vec<Option<f32>> =
        kr.iter().map(|r| toi(composite::ray_cast(&field, &Pose3::IDENTITY, r, MAX_TOI))).collect();
    let p: Vec<Option<f32>> = pr.iter().map(|r| pfield.cast_ray(&id_pose, r, MAX_TOI, true)).collect();
    let bad = disagreements(&k, &p);
    let hits = k.iter().filter(|x| x.is_some()).count();
    let t = timing::measure(
        RAYS,
        &mut [
            &mut || {
                for r in &kr {
                    black_box(composite::ray_cast(&field, &Pose3::IDENTITY, black_box(r), MAX_TOI));
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
    rows.push(obvhs_row);
    rows.extend(casts_and_contacts(&mut rng, &mesh, &pmesh, &field));
    rows
}

/// The cast, contact and manifold rows on the mesh.
fn casts_and_contacts(
    rng: &mut BenchRng,
    mesh: &TriMesh<Vec3>,
    pmesh: &PTriMesh,
    field: &HeightField<Vec3>,
) -> Vec<Row> {
    const N_CASES: usize = 2000;
    let id = parry3d::math::Pose::IDENTITY;
    let ground = |x: f32, z: f32| -> f32 {
        let down = Ray::new(Vec3::new(x, 100.0, z), Vec3::NEG_Y);
        toi(composite::ray_cast(field, &Pose3::IDENTITY, &down, 1000.0)).map_or(0.0, |t| 100.0 - t)
    };
    let he = Vec3::new(0.8, 0.5, 0.6);
    let (kball, pball) = (Ball::new(1.0f32), parry3d::shape::Ball::new(1.0));
    let (kbox, pbox) = (Cuboid::new(he), parry3d::shape::Cuboid::new(he));
    let mut rows = Vec::new();
    let row = |case: &str, query: &'static str, bad: usize, frac: f64, t: &[f64], target: f64| Row {
        case: case.to_string(),
        query,
        overlap: frac,
        pairs: N_CASES,
        disagreements: bad,
        distance_detail: None,
        kollide_ns: t[0],
        parry_ns: t[1],
        target,
    };
    // Casts: from 3 to 8 units above the ground, falling and sliding.
    let starts: Vec<(Pose3, Vec3)> = (0..N_CASES)
        .map(|_| {
            let (x, z) = (rng.random_range(-120.0..120.0), rng.random_range(-120.0..120.0));
            let at = Vec3::new(x, ground(x, z) + rng.random_range(3.0..8.0), z);
            let q = glam::Quat::from_rotation_y(rng.random_range(0.0..std::f32::consts::TAU));
            let v = Vec3::new(
                rng.random_range(-3.0..3.0),
                rng.random_range(-9.0..-2.0),
                rng.random_range(-3.0..3.0),
            );
            (Pose3::new(at, q), v)
        })
        .collect();
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    macro_rules! cast_row {
        ($case:expr, $k:expr, $p:expr) => {{
            let k_one = |(pose, v): &(Pose3, Vec3)| {
                composite::shape_cast(
                    mesh,
                    &Pose3::IDENTITY,
                    $k,
                    pose,
                    &CastInput::linear(Vec3::ZERO, *v, 1.0),
                )
                .filter(|o| o.value.status == CastStatus::Hit)
                .map(|o| o.value.toi)
            };
            let p_one = |(pose, v): &(Pose3, Vec3)| {
                let pp = parry3d::math::Pose::from_parts(pose.translation, pose.rotation);
                parry3d::query::cast_shapes(&id, Vec3::ZERO, pmesh, &pp, *v, $p, options)
                    .ok()
                    .flatten()
                    .map(|h| h.time_of_impact)
            };
            let mut bad = 0;
            let mut hits = 0;
            for c in &starts {
                match (k_one(c), p_one(c)) {
                    (Some(a), Some(b)) => {
                        hits += 1;
                        if (a - b).abs() > 1e-3 {
                            eprintln!("{}: {:?} kollide {a} parry {b}", $case, c);
                            bad += 1;
                        }
                    }
                    (None, None) => {}
                    (a, b) => {
                        eprintln!("{}: {:?} kollide {a:?} parry {b:?}", $case, c);
                        bad += 1
                    }
                }
            }
            let t = timing::measure(
                N_CASES,
                &mut [
                    &mut || {
                        for c in &starts {
                            black_box(k_one(black_box(c)));
                        }
                    },
                    &mut || {
                        for c in &starts {
                            black_box(p_one(black_box(c)));
                        }
                    },
                ],
            );
            rows.push(row($case, "cast", bad, hits as f64 / N_CASES as f64, &t, 1.0));
        }};
    }
    cast_row!("ball-terrain", &kball, &pball);
    cast_row!("box-terrain", &kbox, &pbox);
    // Boxes resting on the terrain.
    let resting: Vec<Pose3> = (0..N_CASES)
        .map(|_| {
            let (x, z) = (rng.random_range(-120.0..120.0), rng.random_range(-120.0..120.0));
            let q = glam::Quat::from_rotation_y(rng.random_range(0.0..std::f32::consts::TAU));
            Pose3::new(Vec3::new(x, ground(x, z) + he.y - 0.02, z), q)
        })
        .collect();
    let to_parry = |p: &Pose3| parry3d::math::Pose::from_parts(p.translation, p.rotation);
    let mut bad = 0;
    for p in &resting {
        let k = composite::contact(mesh, &Pose3::IDENTITY, &kbox, p, 0.0).map(|c| c.value.distance);
        let q = parry3d::query::contact(&id, pmesh, &to_parry(p), &pbox, 0.0).ok().flatten().map(|c| c.dist);
        match (k, q) {
            (Some(a), Some(b)) if (a - b).abs() <= 1e-3 => {}
            (None, None) => {}
            _ => bad += 1,
        }
    }
    let t = timing::measure(
        N_CASES,
        &mut [
            &mut || {
                for p in &resting {
                    black_box(composite::contact(mesh, &Pose3::IDENTITY, &kbox, black_box(p), 0.0));
                }
            },
            &mut || {
                for p in &resting {
                    let _ =
                        black_box(parry3d::query::contact(&id, pmesh, &to_parry(black_box(p)), &pbox, 0.0));
                }
            },
        ],
    );
    rows.push(row("box-on-terrain", "contact", bad, 1.0, &t, 1.0));
    let mut kept: Vec<Vec<parry3d::query::ContactManifold<(), ()>>> = vec![Vec::new(); N_CASES];
    let mut ws: Vec<Option<parry3d::query::ContactManifoldsWorkspace>> = (0..N_CASES).map(|_| None).collect();
    let mut kept_k: Vec<composite::PartManifoldCache<Vec3>> =
        vec![composite::PartManifoldCache::default(); N_CASES];
    let (mut kn, mut pn) = (0usize, 0usize);
    for (j, p) in resting.iter().enumerate() {
        kn += composite::manifold(mesh, &Pose3::IDENTITY, &kbox, p, 0.0).manifold.len();
        let _ = parry3d::query::DefaultQueryDispatcher.contact_manifolds(
            &to_parry(p),
            pmesh,
            &pbox,
            0.0,
            &mut kept[j],
            &mut ws[j],
        );
        pn += kept[j].iter().map(|m| m.points.len()).sum::<usize>();
    }
    eprintln!(
        "  box-on-terrain: manifold points per pair: kollide {:.2}, parry {:.2}",
        kn as f64 / N_CASES as f64,
        pn as f64 / N_CASES as f64
    );
    let t = timing::measure(
        N_CASES,
        &mut [
            &mut || {
                for (j, p) in resting.iter().enumerate() {
                    black_box(composite::manifold_cached(
                        mesh,
                        &Pose3::IDENTITY,
                        &kbox,
                        black_box(p),
                        0.0,
                        &mut kept_k[j],
                    ));
                }
            },
            &mut || {
                for (j, p) in resting.iter().enumerate() {
                    let _ = black_box(parry3d::query::DefaultQueryDispatcher.contact_manifolds(
                        &to_parry(p),
                        pmesh,
                        &pbox,
                        0.0,
                        &mut kept[j],
                        &mut ws[j],
                    ));
                }
            },
        ],
    );
    rows.push(row("box-on-terrain", "manifold", 0, 1.0, &t, 1.0));
    rows
}
