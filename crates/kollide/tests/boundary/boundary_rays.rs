//! Rays at the boundary: rays tangent to a solid at a chosen point (a face, an edge, a
//! vertex, a curved side, a cone's rim and apex), rays cutting in at a slight angle and rays
//! passing by at a small gap, judged by the f64 oracle of `common/ray_oracle.rs`; and f32
//! rays from far away onto small triangles, meshes, terrains and worlds.
//!
//! What is judged: a ray passing beyond the tolerance misses; one entering the solid by more
//! than it hits; a hit's time lies between the first time the ray is within the tolerance of
//! the solid and the first time it is that deep inside, its point is on the surface (within
//! the tolerance) and its normal is an outward normal there (the solid lies behind the plane
//! through the point, within the tolerance). The long form runs with `--ignored`.

use crate::common::boundary::{random_rotation, random_unit, Solid, Tally};
use crate::common::rng;
use crate::ray_oracle::{self, Truth};
use glam::{DQuat, DVec2, DVec3, Vec2, Vec3};
use kollide::composite::{self, HeightField, TriMesh};
use kollide::math::{Pose, Real, Rot2, Vector};
use kollide::query::cast::{ray_cast, Ray, RayOutcome};
use kollide::query::Space;
use kollide::shape::{Convex2, Convex3, Triangle};
use kollide::world::{Shape3, World};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The oracle's solid for one of the generators' solids (`None` for a flat triangle in 3D,
/// which has no inside to graze).
fn oracle_solid(s: &Solid, dim: usize) -> Option<ray_oracle::Solid> {
    Some(match s {
        Solid::Box(h) => ray_oracle::Solid::Box { h: *h, r: 0.0, dim },
        Solid::Hull(p) => ray_oracle::Solid::polytope(p.clone(), 0.0, dim),
        Solid::Triangle(t) if dim == 2 => ray_oracle::Solid::polytope(t.to_vec(), 0.0, 2),
        Solid::Triangle(_) => return None,
        Solid::Segment(a, b, r) if *r > 0.0 => ray_oracle::Solid::Capsule { a: *a, b: *b, r: *r },
        Solid::Segment(..) => return None,
        Solid::Ball(r) => ray_oracle::Solid::Ball { centre: DVec3::ZERO, r: *r },
        Solid::Cylinder { half_height, radius } => {
            ray_oracle::Solid::Cylinder { r: *radius, h: *half_height }
        }
        Solid::Cone { half_height, radius } => ray_oracle::Solid::Cone { r: *radius, h: *half_height },
        Solid::Ellipsoid(r) => ray_oracle::Solid::Ellipsoid {
            radii: if dim == 2 { DVec3::new(r.x, r.y, 1.0) } else { *r },
            r: 0.0,
        },
    })
}

/// A solid to graze: any of the families, and cones and cylinders more often (their rims
/// and apexes are what the closed forms find hardest).
fn random_solid(rng: &mut ChaCha8Rng, dim: usize) -> Solid {
    use crate::common::boundary::Family;
    loop {
        let s = match rng.random_range(0..6) {
            0 | 1 => Solid::random(rng, Family::Sharp, dim),
            2 => Solid::random(rng, Family::Round, dim),
            _ => Solid::random(rng, Family::Curved, dim),
        };
        if oracle_solid(&s, dim).is_some() {
            return s;
        }
    }
}

/// An outward normal at a chosen kind of point of the solid (local frame): random (smooth
/// sides, vertices, edges), a face's, or for cones and cylinders their rims and apex.
fn graze_normal(rng: &mut ChaCha8Rng, s: &Solid, dim: usize) -> (DVec3, &'static str) {
    let faces = s.face_normals(dim);
    match (s, rng.random_range(0..3)) {
        (Solid::Cone { half_height, radius }, 0) => {
            // Inside the apex's cone of normals: within 90° less the half angle of +y.
            let half = (radius / (2.0 * half_height)).atan();
            let tilt = rng.random_range(0.0..(std::f64::consts::FRAC_PI_2 - half));
            let az = rng.random_range(0.0..std::f64::consts::TAU);
            (DVec3::new(tilt.sin() * az.cos(), tilt.cos(), tilt.sin() * az.sin()), "apex")
        }
        (Solid::Cone { half_height, radius }, 1) | (Solid::Cylinder { half_height, radius }, 1) => {
            // The rim: between the side's normal and the base's (-y).
            let side = if let Solid::Cone { .. } = s { (radius / (2.0 * half_height)).atan() } else { 0.0 };
            let a = rng.random_range(-std::f64::consts::FRAC_PI_2..side);
            let az = rng.random_range(0.0..std::f64::consts::TAU);
            let (c, y) = (a.cos(), a.sin());
            (DVec3::new(c * az.cos(), y, c * az.sin()), "rim")
        }
        (_, 2) if !faces.is_empty() => (faces[rng.random_range(0..faces.len())], "face"),
        _ => (random_unit(rng, dim), "any"),
    }
}

/// kollide's ray cast of a solid in the space `V` (2D or 3D, f32 or f64).
pub trait RaySpace: Space {
    fn cast_solid(s: &Solid, rotation: DQuat, translation: DVec3, o: DVec3, d: DVec3) -> RayOutcome<Self>;
}
macro_rules! ray_space3 {
    ($v:ty, $conv:expr) => {
        impl RaySpace for $v {
            fn cast_solid(
                s: &Solid,
                rotation: DQuat,
                translation: DVec3,
                o: DVec3,
                d: DVec3,
            ) -> RayOutcome<Self> {
                let v = |p: DVec3| <$v>::from_f64_array(p.to_array());
                let shape: Convex3<$v> = s.convex3();
                let pose = Pose::new(v(translation), $conv(rotation));
                ray_cast(&shape, &pose, &Ray::new(v(o), v(d)), <$v as Vector>::Real::INFINITY)
            }
        }
    };
}
macro_rules! ray_space2 {
    ($v:ty, $r:ty) => {
        impl RaySpace for $v {
            fn cast_solid(
                s: &Solid,
                rotation: DQuat,
                translation: DVec3,
                o: DVec3,
                d: DVec3,
            ) -> RayOutcome<Self> {
                let v = |p: DVec3| <$v>::from_f64_array(p.to_array());
                let shape: Convex2<$v> = s.convex2();
                let x = rotation * DVec3::X;
                let pose = Pose::new(v(translation), Rot2::from_angle(x.y.atan2(x.x) as $r));
                ray_cast(&shape, &pose, &Ray::new(v(o), v(d)), <$r>::INFINITY)
            }
        }
    };
}
ray_space3!(glam::DVec3, |q: DQuat| q);
ray_space3!(Vec3, |q: DQuat| q.as_quat());
ray_space2!(DVec2, f64);
ray_space2!(Vec2, f32);

/// Rays tangent to a solid (or cutting in at a slight angle, or passing by at a small gap),
/// from a random distance and at a random speed.
pub fn grazing_rays<V: RaySpace>(seed: u64, cases: usize) -> Tally {
    let dim = V::DIM;
    let f32 = V::Real::EPSILON.to_f64() > 1e-10;
    let mut rng = rng(seed);
    let mut tally = Tally::default();
    for _ in 0..cases {
        let mut solid = random_solid(&mut rng, dim);
        let rotation = random_rotation(&mut rng, dim);
        let mut translation = random_unit(&mut rng, dim) * rng.random_range(0.0..3.0);
        if f32 {
            solid = solid.rounded_f32();
            translation = translation.as_vec3().as_dvec3();
        }
        let rotation = if f32 { rotation.as_quat().normalize().as_dquat() } else { rotation };
        let (n_local, feature) = graze_normal(&mut rng, &solid, dim);
        let radius = solid.core().map_or(0.0, |(_, r)| r);
        let q_local = solid.support(n_local, dim) + n_local * radius;
        let (q, n) = (rotation * q_local + translation, rotation * n_local);
        let tangent = {
            let t = random_unit(&mut rng, dim);
            let t = t - n * t.dot(n);
            if t.length() > 1e-3 {
                t.normalize()
            } else {
                n.any_orthonormal_vector()
            }
        };
        let size = oracle_solid(&solid, dim).unwrap().reach();
        let (path, dir, gap) = match rng.random_range(0..4) {
            0 => ("tangent", tangent, 0.0),
            1 => ("cutting in", (tangent - n * 10f64.powf(rng.random_range(-6.0..-2.0))).normalize(), 0.0),
            2 => ("passing by", tangent, size * 10f64.powf(rng.random_range(-8.0..-3.0))),
            _ => ("passing by far", tangent, size * 10f64.powf(rng.random_range(-3.0..-1.0))),
        };
        let speed = 10f64.powf(rng.random_range(-2.0..1.0));
        let t_c = rng.random_range(0.5..20.0) / speed;
        let d = dir * speed;
        let mut o = q + n * gap - d * t_c;
        // Along a line of a cone's or cylinder's side (in the surface), from beyond one end.
        let (mut d, path) = (d, path);
        let path = match (&solid, rng.random_range(0..4)) {
            (Solid::Cone { half_height, radius } | Solid::Cylinder { half_height, radius }, 0) => {
                let az = rng.random_range(0.0..std::f64::consts::TAU);
                let top_r = if let Solid::Cone { .. } = solid { 0.0 } else { *radius };
                let top = DVec3::new(top_r * az.cos(), *half_height, top_r * az.sin());
                let bottom = DVec3::new(radius * az.cos(), -half_height, radius * az.sin());
                let (from, to) = if rng.random_bool(0.5) { (top, bottom) } else { (bottom, top) };
                let (from, to) = (rotation * from + translation, rotation * to + translation);
                d = (to - from) * speed;
                o = from - d * t_c;
                "along the side"
            }
            _ => path,
        };
        if f32 {
            o = o.as_vec3().as_dvec3();
            d = d.as_vec3().as_dvec3();
        }
        let out = V::cast_solid(&solid, rotation, translation, o, d);
        // The oracle in the solid's frame.
        let oracle = oracle_solid(&solid, dim).unwrap();
        let to_local = |p: DVec3| rotation.inverse() * (p - translation);
        let (ol, dl) = (to_local(o), rotation.inverse() * d);
        let tol = if f32 { 2e-5 } else { 1e-9 } * (size + o.length() + translation.length());
        let truth = ray_oracle::cast(&oracle, ol, dl, tol);
        let g = |t: f64| oracle.g(ol + dl * t);
        let mut wrong = None;
        match (truth, out) {
            (Truth::Miss, RayOutcome::Miss) | (Truth::Borderline, RayOutcome::Miss) => {}
            (Truth::Miss, o) => wrong = Some(format!("passes by, got {o:?}")),
            (Truth::Hit(t), RayOutcome::Miss) => wrong = Some(format!("enters at {t}, got a miss")),
            (Truth::Hit(_) | Truth::Borderline, RayOutcome::Hit(h)) => {
                let toi = h.toi.to_f64();
                let p = DVec3::from_array(h.point.to_f64_array());
                let nn = DVec3::from_array(h.normal.to_f64_array());
                let (pl, nl) = (to_local(p), rotation.inverse() * nn);
                // The first time within the tolerance (g is convex along the ray: its least
                // value, then bisection before it).
                let (mut lo, mut hi) = (0.0, toi.max(t_c) * 2.0 + 1.0);
                for _ in 0..200 {
                    let (x, y) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
                    if g(x) < g(y) {
                        hi = y;
                    } else {
                        lo = x;
                    }
                }
                let tm = 0.5 * (lo + hi);
                let (mut lo, mut hi) = (0.0, tm);
                if g(0.0) <= tol {
                    hi = 0.0;
                }
                while hi - lo > 1e-15 * hi.max(1e-300) && hi > 0.0 {
                    let m = 0.5 * (lo + hi);
                    if m <= lo || m >= hi {
                        break;
                    }
                    if g(m) <= tol {
                        hi = m;
                    } else {
                        lo = m;
                    }
                }
                let early = hi;
                let beyond = oracle.support(nl) - nl.dot(pl);
                if toi < early * (1.0 - 1e-12) - tol / d.length() {
                    wrong =
                        Some(format!("hit at {toi} before the ray comes within the tolerance at {early}"));
                } else if g(toi) < -tol {
                    wrong = Some(format!("hit at {toi} already {:e} deep", -g(toi)));
                } else if oracle.g(pl).abs() > tol {
                    wrong = Some(format!("hit point {:e} off the surface", oracle.g(pl)));
                } else if beyond > (if f32 { 1e-3 } else { 1e-6 }) * size || (nl.length() - 1.0).abs() > 1e-4
                {
                    wrong = Some(format!(
                        "normal {nn:?} not outward at the point: the solid reaches {beyond:e} beyond"
                    ));
                }
            }
            (Truth::Inside(_) | Truth::Borderline, RayOutcome::Inside { .. }) => {}
            (t, o) => wrong = Some(format!("truth {t:?}, got {o:?}")),
        }
        let kind = format!("{feature}, {path}");
        let wrong = wrong.map(|w| {
            format!("{w}: {solid:?} at {translation:?} {rotation:?}, ray {o:?} + t {d:?} (truth {truth:?}, tol {tol:e})")
        });
        tally.record(kind, wrong);
    }
    tally
}

#[test]
fn rays_grazing_3d() {
    grazing_rays::<glam::DVec3>(21, 3000).assert_clean("grazing rays, 3D f64", 3000);
    grazing_rays::<Vec3>(22, 3000).assert_clean("grazing rays, 3D f32", 3000);
}

#[test]
fn rays_grazing_2d() {
    grazing_rays::<DVec2>(23, 2000).assert_clean("grazing rays, 2D f64", 2000);
    grazing_rays::<Vec2>(24, 2000).assert_clean("grazing rays, 2D f32", 2000);
}

/// f32 rays from far away onto small triangles: aimed at least 5% inside every edge, with
/// (distance of the origin / size) / sin(angle to the plane) up to 1e5, over sizes from 1e-4
/// to 1e3 at offsets up to 1e3 sizes from the origin. The truth is the f64 crossing of the
/// f32 ray with the triangle's plane; a case counts only where the f32 numbers keep the aim
/// 4% inside (rounding the origin moves it). Returns (cases, misses, times off by 1e-3).
pub fn far_rays_f32(seed: u64, cases: usize) -> (usize, usize, usize) {
    let mut rng = rng(seed);
    let (mut total, mut missed, mut off) = (0, 0, 0);
    while total < cases {
        let size = 10f64.powf(rng.random_range(-4.0..3.0));
        let centre = random_unit(&mut rng, 3) * size * 10f64.powf(rng.random_range(0.0..3.0));
        let corner = |rng: &mut ChaCha8Rng| (centre + random_unit(rng, 3) * size).as_vec3().as_dvec3();
        let (a, b, c) = (corner(&mut rng), corner(&mut rng), corner(&mut rng));
        let nn = (b - a).cross(c - a);
        if nn.length() < 0.2 * size * size {
            continue;
        }
        let n = nn.normalize();
        let (mut u, mut v) = (rng.random_range(0.0..1.0), rng.random_range(0.0..1.0));
        if u + v > 1.0 {
            (u, v) = (1.0 - u, 1.0 - v);
        }
        if u < 0.05 || v < 0.05 || 1.0 - u - v < 0.05 {
            continue;
        }
        let aim = a * (1.0 - u - v) + b * u + c * v;
        let angle = rng.random_range(1.0f64..60.0).to_radians();
        let t = n.any_orthonormal_vector();
        let t = (t * rng.random_range(-1.0..1.0) + n.cross(t) * rng.random_range(-1.0..1.0)).normalize();
        let side = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        let d = (t * angle.cos() - n * angle.sin() * side).normalize();
        let longest = (b - a).length().max((c - b).length()).max((a - c).length());
        let dist = longest * 1e5 * angle.sin() * rng.random_range(0.01..1.0);
        let (o32, d32) = ((aim - d * dist).as_vec3(), d.as_vec3());
        let (o, d) = (o32.as_dvec3(), d32.as_dvec3());
        let toi = (a - o).dot(nn) / d.dot(nn);
        let x = o + d * toi;
        let area = nn.length_squared();
        let bary =
            [(c - b).cross(x - b), (a - c).cross(x - c), (b - a).cross(x - a)].map(|e| e.dot(nn) / area);
        if bary.iter().any(|&w| w < 0.04) {
            continue;
        }
        total += 1;
        let tri = Triangle::new(a.as_vec3(), b.as_vec3(), c.as_vec3());
        match ray_cast(&tri, &Pose::IDENTITY, &Ray::new(o32, d32), f32::INFINITY) {
            RayOutcome::Hit(h) => {
                if ((h.toi as f64 - toi) / toi).abs() > 1e-3 {
                    off += 1;
                }
            }
            _ => missed += 1,
        }
    }
    (total, missed, off)
}

/// f32 rays from 1 km at 2 to 10 degrees onto a 100 m ground of 1 m cells (flat, or with
/// bumps of 0.5 m), aimed at least 5% inside a triangle's edges, through a `TriMesh`, a
/// `HeightField` and a `World` holding each. Returns (cases, misses per path).
pub fn far_rays_terrain(seed: u64, cases: usize, bumpy: bool) -> (usize, [usize; 4]) {
    let n = 101usize;
    let height = |r: usize, c: usize| {
        if bumpy {
            ((r as f64 * 0.37).sin() * 0.3 + (c as f64 * 0.23).cos() * 0.2) as f32
        } else {
            0.0
        }
    };
    let heights: Vec<Vec<f32>> = (0..n).map(|r| (0..n).map(|c| height(r, c)).collect()).collect();
    let field = HeightField::new(heights, Vec3::new(100.0, 1.0, 100.0));
    let vertices: Vec<Vec3> =
        (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).map(|(r, c)| field.point(r, c)).collect();
    let id = |r: usize, c: usize| (r * n + c) as u32;
    let mut indices = vec![];
    for r in 0..n - 1 {
        for c in 0..n - 1 {
            indices.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
            indices.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
        }
    }
    let mesh = TriMesh::new(vertices.clone(), indices.clone());
    let mut world_mesh = World::new();
    world_mesh.insert(Shape3::TriMesh(Arc::new(mesh.clone())), Pose::IDENTITY).unwrap();
    let mut world_field = World::new();
    world_field.insert(Shape3::HeightField(Arc::new(field.clone())), Pose::IDENTITY).unwrap();
    let mut rng = rng(seed);
    let (mut total, mut missed) = (0, [0; 4]);
    while total < cases {
        let tri = indices[rng.random_range(0..indices.len())];
        let [a, b, c] = tri.map(|i| vertices[i as usize].as_dvec3());
        let (mut u, mut v) = (rng.random_range(0.0..1.0), rng.random_range(0.0..1.0));
        if u + v > 1.0 {
            (u, v) = (1.0 - u, 1.0 - v);
        }
        if u < 0.05 || v < 0.05 || 1.0 - u - v < 0.05 {
            continue;
        }
        let aim = a * (1.0 - u - v) + b * u + c * v;
        let angle = rng.random_range(2.0f64..10.0).to_radians();
        let az = rng.random_range(0.0..std::f64::consts::TAU);
        let d = DVec3::new(az.cos() * angle.cos(), -angle.sin(), az.sin() * angle.cos());
        let ray = Ray::new((aim - d * 1000.0).as_vec3(), d.as_vec3());
        total += 1;
        let hit = |o: Option<RayOutcome<Vec3>>| matches!(o, Some(RayOutcome::Hit(_)));
        let answers = [
            hit(composite::ray_cast(&mesh, &Pose::IDENTITY, &ray, 2000.0).map(|h| h.value)),
            hit(composite::ray_cast(&field, &Pose::IDENTITY, &ray, 2000.0).map(|h| h.value)),
            hit(world_mesh.ray_cast(&ray, 2000.0).map(|h| h.value)),
            hit(world_field.ray_cast(&ray, 2000.0).map(|h| h.value)),
        ];
        for (m, got) in missed.iter_mut().zip(answers) {
            if !got {
                *m += 1;
            }
        }
    }
    (total, missed)
}

#[test]
fn f32_rays_from_afar_hit_small_triangles() {
    // Before the edge volumes were taken from a vertex, 3 in 4 of these missed.
    let (total, missed, off) = far_rays_f32(31, 20_000);
    assert_eq!((missed, off), (0, 0), "{missed} misses and {off} times off by 1e-3 in {total} far f32 rays");
}

#[test]
fn f32_rays_from_a_kilometre_hit_terrain_cells() {
    for bumpy in [false, true] {
        let (total, missed) = far_rays_terrain(32, 5_000, bumpy);
        assert_eq!(missed, [0; 4], "bumpy {bumpy}: misses (mesh, field, world mesh, world field) of {total}");
    }
}

#[test]
#[ignore = "long form: cargo test --release -p kollide --test all boundary_rays -- --ignored"]
fn boundary_rays_long() {
    grazing_rays::<glam::DVec3>(121, 40_000).assert_clean("grazing rays, 3D f64", 40_000);
    grazing_rays::<Vec3>(122, 40_000).assert_clean("grazing rays, 3D f32", 40_000);
    grazing_rays::<DVec2>(123, 20_000).assert_clean("grazing rays, 2D f64", 20_000);
    grazing_rays::<Vec2>(124, 20_000).assert_clean("grazing rays, 2D f32", 20_000);
    let (total, missed, off) = far_rays_f32(131, 400_000);
    assert_eq!((missed, off), (0, 0), "far f32 rays: {missed} misses, {off} off, of {total}");
    for bumpy in [false, true] {
        let (total, missed) = far_rays_terrain(132, 100_000, bumpy);
        assert_eq!(missed, [0; 4], "bumpy {bumpy}: misses of {total}");
    }
}
