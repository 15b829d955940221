//! Ray casts against truth: every closed form and the GJK ray cast on thousands of random
//! rays with random poses, judged by the independent f64 oracle of `common/ray_oracle.rs`
//! (a convex function per solid, golden-section search and bisection along the ray). One
//! body per check, run for 2D and 3D, f32 and f64. Hand-worked cases (every primitive on its
//! faces, edges, tangents and inside starts) are in `cast_ray_exact.rs`; flat shapes
//! (3D triangles, segments, points), `max_toi`, scales, extreme directions and bad input in
//! `cast_ray_flat.rs`.

use crate::common;
use crate::ray_oracle;
use kollide::query::Space;

use common::{rng, unit, FromParts, RotF64, ViaGjk};
use glam::{DVec2, DVec3, Vec2, Vec3};
use kollide::math::{Pose, Real, Vector2, Vector3};
use kollide::query::cast::{ray_cast, Ray, RayHit, RayOutcome};
use kollide::shape::{
    Ball, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Ellipsoid, Rounded, Support, Triangle,
};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use ray_oracle::{cast as truth_of, Frame, Solid, Truth};

/// Rays per shape.
const RAYS: usize = 2000;

fn d3<V: Space>(v: V) -> DVec3 {
    DVec3::from_array(v.to_f64_array())
}

fn is_f32<V: Space>() -> bool {
    V::Real::EPSILON.to_f64() > 1e-10
}

/// Relative tolerance on distances (times the size of the coordinates): rounding of the
/// local frame in f32; GJK's stated tolerance, amplified by rays that meet the surface at a
/// slant (the grazing ones within the band are not judged).
fn rel_tol<V: Space>(gjk: bool) -> f64 {
    match (is_f32::<V>(), gjk) {
        (true, false) => 2e-5,
        (true, true) => 3e-4,
        (false, false) => 1e-12,
        (false, true) => 3e-9,
    }
}

/// A random point of the ball of radius `r` (the disk in 2D, `z = 0`).
fn in_ball<V: Space>(rng: &mut ChaCha8Rng, r: f64) -> DVec3 {
    loop {
        let mut p = DVec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), 0.0);
        if V::DIM == 3 {
            p.z = rng.random_range(-1.0..1.0);
        }
        if p.length_squared() <= 1.0 {
            return p * r;
        }
    }
}

/// What a run saw, for the report and the coverage checks.
#[derive(Debug, Default)]
struct Stats {
    hits: usize,
    insides: usize,
    misses: usize,
    borderline: usize,
    max_err: f64,
}

/// Checks one answer's touch point against the solid: the time, the point on the ray and
/// on the surface, and the normal a unit outward normal of a supporting plane there.
#[allow(clippy::too_many_arguments)]
fn check_touch<V: Space>(
    solid: &Solid,
    frame: &Frame,
    ray: &Ray<V>,
    hit: &RayHit<V>,
    expected: f64,
    tol_t: f64,
    tol_d: f64,
    ctx: &dyn Fn() -> String,
) -> f64 {
    let err = (hit.toi.to_f64() - expected).abs();
    assert!(err <= tol_t, "toi {} vs truth {expected}: difference {err:e} > {tol_t:e}; {}", hit.toi, ctx());
    let on_ray = d3(ray.origin()) + d3(ray.direction()) * hit.toi.to_f64();
    let off = (d3(hit.point) - on_ray).length();
    assert!(off <= tol_d, "point {:?} is {off:e} off the ray; {}", hit.point, ctx());
    let p = frame.point_to_local(d3(hit.point));
    let g = solid.g(p);
    assert!(g.abs() <= tol_d, "point {:?} is {g:e} from the surface (> {tol_d:e}); {}", hit.point, ctx());
    let n = frame.vector_to_local(d3(hit.normal));
    let unit_err = (n.length() - 1.0).abs();
    assert!(unit_err <= 1e-5, "normal {:?} not unit ({unit_err:e}); {}", hit.normal, ctx());
    let gap = solid.support(n) - n.dot(p);
    assert!(
        gap.abs() <= tol_d,
        "normal {:?} does not support the solid at the point: gap {gap:e}; {}",
        n,
        ctx()
    );
    err / tol_t.max(f64::MIN_POSITIVE) * tol_d
}

/// Random rays at `shape` (a random pose each), judged by the oracle on `solid`.
fn random_rays<V: Space, S: Support<V>>(name: &str, shape: &S, solid: &Solid, seed: u64, gjk: bool) -> Stats
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut r = rng(seed);
    let reach = solid.reach();
    let rel = rel_tol::<V>(gjk);
    let band = if is_f32::<V>() { 2e-3 } else { 1e-6 } * reach;
    let mut stats = Stats::default();
    for k in 0..RAYS {
        let pose: Pose<V> = common::pose(&mut r, 5.0);
        let frame = Frame::of(&pose);
        // Aim at a point in the shape (one ray in 3) or out of it near it (the others), from outside its enclosing ball (one ray in 6 from inside it).
        let target = loop {
            let p = in_ball::<V>(&mut r, 1.6 * reach);
            let g = solid.g(p);
            if (k % 3 == 0 && g <= 0.0) || (k % 3 != 0 && g > 0.0) {
                break p;
            }
        };
        let start = if k % 6 == 0 {
            loop {
                let p = in_ball::<V>(&mut r, reach);
                if solid.g(p) < 0.0 {
                    break p;
                }
            }
        } else {
            let u: V = unit(&mut r);
            d3(u) * (reach * r.random_range(1.2..4.0))
        };
        let speed = r.random_range(0.2..3.0);
        let o_w = frame.point_to_world(start);
        let d_w = frame.point_to_world(target) - frame.point_to_world(start);
        let ray = Ray::new(V::from_f64_array(o_w.to_array()), V::from_f64_array((d_w * speed).to_array()));
        // The oracle reads the rounded numbers kollide gets.
        let (o, d) = (frame.point_to_local(d3(ray.origin())), frame.vector_to_local(d3(ray.direction())));
        let max_toi = if k % 4 == 1 { r.random_range(0.0..1.5) / speed } else { f64::INFINITY };
        let out = ray_cast(shape, &pose, &ray, V::Real::from_f64(max_toi));
        let truth = truth_of(solid, o, d, band);
        let tol_d = rel * (reach + d3(ray.origin()).length() + d3(pose.translation).length());
        let tol_t = tol_d / d.length();
        let ctx = || {
            format!(
                "{name} ray {k}: {ray:?}, max_toi {max_toi}, pose {pose:?}, truth {truth:?}, kollide {out:?}"
            )
        };
        match (truth, out) {
            (Truth::Borderline, _) => stats.borderline += 1,
            (Truth::Miss, RayOutcome::Miss) => stats.misses += 1,
            (Truth::Hit(t), _) if (t - max_toi).abs() <= tol_t => stats.borderline += 1,
            (Truth::Hit(t), RayOutcome::Miss) if t > max_toi => stats.misses += 1,
            (Truth::Hit(t), RayOutcome::Hit(hit)) if t < max_toi => {
                stats.hits += 1;
                let e = check_touch(solid, &frame, &ray, &hit, t, tol_t, tol_d, &ctx);
                stats.max_err = stats.max_err.max(e / (reach + o_w.length()));
            }
            (Truth::Inside(t), RayOutcome::Inside { exit }) => {
                stats.insides += 1;
                let e = check_touch(solid, &frame, &ray, &exit, t, tol_t, tol_d, &ctx);
                stats.max_err = stats.max_err.max(e / (reach + o_w.length()));
            }
            _ => panic!("outcome differs from the truth: {}", ctx()),
        }
    }
    let judged = stats.hits + stats.insides + stats.misses;
    let rate = (stats.hits + stats.insides) as f64 / judged as f64;
    eprintln!("{name}: {stats:?}, hit rate {rate:.2}");
    assert!((0.3..=0.7).contains(&rate), "{name}: hit rate {rate:.2} outside [0.3, 0.7]");
    assert!(stats.insides >= RAYS / 40, "{name}: only {} rays started inside", stats.insides);
    assert!(stats.borderline <= RAYS / 20, "{name}: {} borderline rays, too many to judge", stats.borderline);
    stats
}

fn f64s<V: Space>(points: &[V]) -> Vec<DVec3> {
    points.iter().map(|&p| d3(p)).collect()
}

fn cloud<V: Space>(rng: &mut ChaCha8Rng, n: usize, radius: f64) -> Vec<V> {
    (0..n).map(|_| V::from_f64_array(in_ball::<V>(rng, radius).to_array())).collect()
}

/// The shapes both dimensions have, each with its oracle solid; `gjk` hides the closed
/// form so the GJK ray cast answers.
fn common_shapes<V: Space>(seed: u64, gjk: bool)
where
    V::Rotation: FromParts + RotF64<V>,
{
    let dim = V::DIM;
    let v = |x: f64, y: f64, z: f64| V::from_f64_array([x, y, z]);
    macro_rules! case {
        ($name:expr, $shape:expr, $solid:expr) => {{
            let (shape, solid) = ($shape, $solid);
            let prec = if is_f32::<V>() { "f32" } else { "f64" };
            let name = format!("{}{} {dim}D {prec}", if gjk { "gjk " } else { "" }, $name);
            if gjk {
                random_rays::<V, _>(&name, &ViaGjk(shape), &solid, seed, true);
            } else {
                random_rays::<V, _>(
                    &name,
                    &shape,
                    &solid,
                    seed,
                    shape.radius() > V::Real::ZERO
                        && !matches!(
                            shape.primitive(),
                            kollide::shape::Primitive::Point(_) | kollide::shape::Primitive::Segment(..)
                        ),
                );
            }
        }};
    }
    let h = v(0.9, 0.5, 0.3);
    case!("ball", Ball::<V>::new(V::Real::from_f64(0.8)), Solid::Ball { centre: DVec3::ZERO, r: 0.8 });
    case!(
        "capsule",
        Capsule::<V>::new(V::Real::from_f64(0.7), V::Real::from_f64(0.4)),
        Solid::Capsule { a: DVec3::new(0.0, -0.7, 0.0), b: DVec3::new(0.0, 0.7, 0.0), r: 0.4 }
    );
    case!("cuboid", Cuboid::new(h), Solid::Box { h: d3(h), r: 0.0, dim });
    let radii = if dim == 2 { v(1.0, 0.45, 1.0) } else { v(1.0, 0.6, 0.4) };
    // The oracle's 2D ellipse has a unit third semi-axis (its points have z = 0).
    let oracle_radii = if dim == 2 { d3(radii) + DVec3::Z } else { d3(radii) };
    case!("ellipsoid", Ellipsoid::new(radii), Solid::Ellipsoid { radii: oracle_radii, r: 0.0 });
    let small = v(0.5, 0.4, 0.3);
    case!(
        "rounded cuboid",
        Rounded::try_new(Cuboid::new(small), V::Real::from_f64(0.25)).unwrap(),
        Solid::Box { h: d3(small), r: 0.25, dim }
    );
}

fn shapes_2d<V: Vector2 + Space>(seed: u64, gjk: bool)
where
    V::Rotation: FromParts + RotF64<V>,
{
    common_shapes::<V>(seed, gjk);
    let mut r = rng(seed + 1);
    let pts: Vec<V> = cloud(&mut r, 9, 1.0);
    let poly = ConvexPolygon::from_points(&pts);
    let solid = Solid::polytope(f64s(poly.vertices()), 0.0, 2);
    let tag = |n: &str| {
        format!("{}{n} 2D {}", if gjk { "gjk " } else { "" }, if is_f32::<V>() { "f32" } else { "f64" })
    };
    let tri = Triangle::new(pts[0], pts[1], pts[2]);
    let tri_solid = Solid::polytope(f64s(&pts[..3]), 0.0, 2);
    let rounded = Rounded::try_new(poly.clone(), V::Real::from_f64(0.2)).unwrap();
    let rounded_solid = Solid::polytope(f64s(poly.vertices()), 0.2, 2);
    if gjk {
        random_rays::<V, _>(&tag("polygon"), &ViaGjk(poly), &solid, seed, true);
        random_rays::<V, _>(&tag("triangle"), &ViaGjk(tri), &tri_solid, seed, true);
    } else {
        random_rays::<V, _>(&tag("polygon"), &poly, &solid, seed, false);
        random_rays::<V, _>(&tag("triangle"), &tri, &tri_solid, seed, false);
        random_rays::<V, _>(&tag("rounded polygon"), &rounded, &rounded_solid, seed, true);
    }
}

fn shapes_3d<V: Vector3 + Space>(seed: u64, gjk: bool)
where
    V::Rotation: FromParts + RotF64<V>,
{
    common_shapes::<V>(seed, gjk);
    let mut r = rng(seed + 1);
    let f = V::Real::from_f64;
    let tag = |n: &str| {
        format!("{}{n} 3D {}", if gjk { "gjk " } else { "" }, if is_f32::<V>() { "f32" } else { "f64" })
    };
    let hull = ConvexHull::from_points(&cloud::<V>(&mut r, 14, 1.0));
    let hull_solid = Solid::polytope(f64s(hull.vertices()), 0.0, 3);
    let cyl = Cylinder::<V>::new(f(0.6), f(0.5));
    let cyl_solid = Solid::Cylinder { r: 0.5, h: 0.6 };
    let cone = Cone::<V>::new(f(0.7), f(0.6));
    let cone_solid = Solid::Cone { r: 0.6, h: 0.7 };
    if gjk {
        random_rays::<V, _>(&tag("hull"), &ViaGjk(hull), &hull_solid, seed, true);
        random_rays::<V, _>(&tag("cylinder"), &ViaGjk(cyl), &cyl_solid, seed, true);
        random_rays::<V, _>(&tag("cone"), &ViaGjk(cone), &cone_solid, seed, true);
    } else {
        random_rays::<V, _>(&tag("hull"), &hull, &hull_solid, seed, false);
        random_rays::<V, _>(&tag("cylinder"), &cyl, &cyl_solid, seed, false);
        random_rays::<V, _>(&tag("cone"), &cone, &cone_solid, seed, false);
        let rounded = Rounded::try_new(hull.clone(), f(0.15)).unwrap();
        let solid = Solid::polytope(f64s(hull.vertices()), 0.15, 3);
        random_rays::<V, _>(&tag("rounded hull"), &rounded, &solid, seed, true);
        let radii = V::new3(f(0.6), f(0.4), f(0.3));
        let rounded = Rounded::try_new(Ellipsoid::new(radii), f(0.2)).unwrap();
        random_rays::<V, _>(
            &tag("rounded ellipsoid"),
            &rounded,
            &Solid::Ellipsoid { radii: d3(radii), r: 0.2 },
            seed,
            true,
        );
    }
}

#[test]
fn random_rays_2d_f32() {
    shapes_2d::<Vec2>(100, false);
}
#[test]
fn random_rays_2d_f64() {
    shapes_2d::<DVec2>(200, false);
}
#[test]
fn random_rays_3d_f32() {
    shapes_3d::<Vec3>(300, false);
}
#[test]
fn random_rays_3d_f64() {
    shapes_3d::<DVec3>(400, false);
}
#[test]
fn gjk_random_rays_2d() {
    shapes_2d::<Vec2>(500, true);
    shapes_2d::<DVec2>(600, true);
}
#[test]
fn gjk_random_rays_3d() {
    shapes_3d::<Vec3>(700, true);
    shapes_3d::<DVec3>(800, true);
}
