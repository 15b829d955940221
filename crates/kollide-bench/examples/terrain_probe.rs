//! A quick side-by-side of first-hit rays on a 256x256 terrain mesh, kollide against parry
//! (a probe for profiling; the bench's terrain rows are the measurement of record).

use glam::Vec3;
use kollide::composite::{self, TriMesh};
use kollide::math::Pose3;
use kollide::query::cast::Ray;
use parry3d::query::{Ray as PRay, RayCast};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let n = 256usize;
    let h = |x: f32, z: f32| (x * 0.05).sin() * 4.0 + (z * 0.07).cos() * 3.0 + ((x + z) * 0.3).sin() * 0.5;
    let mut v = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let (x, z) = (c as f32 - 128.0, r as f32 - 128.0);
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
    let mesh = TriMesh::new(v.clone(), t.clone());
    let kb = start.elapsed();
    let start = Instant::now();
    let pmesh = parry3d::shape::TriMesh::new(v, t).unwrap();
    let pb = start.elapsed();
    println!("build kollide {:.1} ms, parry {:.1} ms", kb.as_secs_f64() * 1e3, pb.as_secs_f64() * 1e3);
    let mut rays = Vec::new();
    let mut s = 12345u64;
    let mut rnd = || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((s >> 33) as f32) / (1u64 << 31) as f32
    };
    for i in 0..100_000 {
        let o = Vec3::new(rnd() * 250.0 - 125.0, 20.0 + rnd() * 20.0, rnd() * 250.0 - 125.0);
        let target = Vec3::new(rnd() * 250.0 - 125.0, 0.0, rnd() * 250.0 - 125.0);
        let d = if i % 2 == 0 { Vec3::new(rnd() - 0.5, -1.0, rnd() - 0.5) } else { (target - o).normalize() };
        rays.push((o, d));
    }
    let kr: Vec<Ray<Vec3>> = rays.iter().map(|&(o, d)| Ray::new(o, d)).collect();
    let pr: Vec<PRay> = rays.iter().map(|&(o, d)| PRay::new(o, d)).collect();
    // Agreement first.
    let mut bad = 0;
    for (a, b) in kr.iter().zip(&pr) {
        let x = composite::ray_cast(&mesh, &Pose3::IDENTITY, a, 1000.0).map(|h| match h.value {
            kollide::query::cast::RayOutcome::Hit(h) => h.toi,
            _ => 0.0,
        });
        let y = pmesh.cast_ray(&parry3d::math::Pose::IDENTITY, b, 1000.0, true);
        match (x, y) {
            (Some(x), Some(y)) if (x - y).abs() <= 1e-3 * (1.0 + y) => {}
            (None, None) => {}
            _ => bad += 1,
        }
    }
    println!("disagreements: {bad}");
    // A box resting on the terrain: kollide's contact, the least part contact without the
    // internal-edge rule, and parry's.
    {
        use kollide::composite;
        let he = Vec3::new(0.8, 0.5, 0.6);
        let kbox = kollide::shape::Cuboid::new(he);
        let pbox = parry3d::shape::Cuboid::new(he);
        for k in 0..5 {
            let (x, z) = (-60.0 + 23.7 * k as f32, 17.0 - 11.3 * k as f32);
            let g = 100.0
                - composite::ray_cast(
                    &mesh,
                    &Pose3::IDENTITY,
                    &Ray::new(Vec3::new(x, 100.0, z), Vec3::NEG_Y),
                    1000.0,
                )
                .map(|h| match h.value {
                    kollide::query::cast::RayOutcome::Hit(h) => h.toi,
                    _ => 0.0,
                })
                .unwrap();
            let pose =
                Pose3::new(Vec3::new(x, g + he.y - 0.02, z), glam::Quat::from_rotation_y(0.3 * k as f32));
            let c = composite::contact(&mesh, &Pose3::IDENTITY, &kbox, &pose, 0.0).unwrap();
            let mut least = f32::INFINITY;
            for i in 0..mesh.triangle_count() as u32 {
                if let Some(cc) =
                    kollide::query::contact(&mesh.triangle(i), &Pose3::IDENTITY, &kbox, &pose, 0.0, None)
                {
                    least = least.min(cc.distance);
                }
            }
            let pp = parry3d::math::Pose::from_parts(pose.translation, pose.rotation);
            let q = parry3d::query::contact(&parry3d::math::Pose::IDENTITY, &pmesh, &pp, &pbox, 0.0)
                .unwrap()
                .map(|c| (c.dist, c.normal1));
            println!(
                "box {k}: kollide {} n {:?} part {}, least raw {least}, parry {q:?}",
                c.value.distance,
                c.value.normal,
                c.part_a.unwrap()
            );
        }
    }
    // The same samples as heightfields.
    let heights: Vec<f32> = (0..n * n).map(|k| h((k % n) as f32 - 128.0, (k / n) as f32 - 128.0)).collect();
    let field =
        kollide::composite::HeightField::try_from_grid(n, n, heights.clone(), Vec3::new(255.0, 1.0, 255.0))
            .unwrap();
    // parry's array is column-major, and its cells are split along the other diagonal
    // unless marked zigzag: both set so that the surfaces are the same.
    let column_major: Vec<f32> = (0..n * n).map(|k| heights[(k % n) * n + k / n]).collect();
    let mut pfield = parry3d::shape::HeightField::new(
        parry3d::utils::Array2::new(n, n, column_major),
        Vec3::new(255.0, 1.0, 255.0),
    );
    for i in 0..n - 1 {
        for j in 0..n - 1 {
            pfield.set_cell_status(i, j, parry3d::shape::HeightFieldCellStatus::ZIGZAG_SUBDIVISION);
        }
    }
    let mut bad_h = 0;
    for (a, b) in kr.iter().zip(&pr) {
        let x = composite::ray_cast(&field, &Pose3::IDENTITY, a, 1000.0).map(|h| match h.value {
            kollide::query::cast::RayOutcome::Hit(h) => h.toi,
            _ => 0.0,
        });
        let y = pfield.cast_ray(&parry3d::math::Pose::IDENTITY, b, 1000.0, true);
        match (x, y) {
            (Some(x), Some(y)) if (x - y).abs() <= 1e-2 * (1.0 + y) => {}
            (None, None) => {}
            _ => bad_h += 1,
        }
    }
    println!("heightfield disagreements: {bad_h}");
    for _ in 0..3 {
        let t0 = Instant::now();
        for r in &kr {
            black_box(composite::ray_cast(&field, &Pose3::IDENTITY, black_box(r), 1000.0));
        }
        let k = t0.elapsed().as_secs_f64() * 1e9 / kr.len() as f64;
        let t0 = Instant::now();
        for r in &pr {
            black_box(pfield.cast_ray(&parry3d::math::Pose::IDENTITY, black_box(r), 1000.0, true));
        }
        let p = t0.elapsed().as_secs_f64() * 1e9 / pr.len() as f64;
        println!("heightfield: kollide {k:.0} ns/ray, parry {p:.0} ns/ray, ratio {:.2}", p / k);
    }
    for _ in 0..3 {
        let t0 = Instant::now();
        for r in &kr {
            black_box(composite::ray_cast(&mesh, &Pose3::IDENTITY, black_box(r), 1000.0));
        }
        let k = t0.elapsed().as_secs_f64() * 1e9 / kr.len() as f64;
        let t0 = Instant::now();
        for r in &pr {
            black_box(pmesh.cast_ray(&parry3d::math::Pose::IDENTITY, black_box(r), 1000.0, true));
        }
        let p = t0.elapsed().as_secs_f64() * 1e9 / pr.len() as f64;
        println!("kollide {k:.0} ns/ray, parry {p:.0} ns/ray, ratio {:.2}", p / k);
    }
}
