//! 2D contact manifolds (clipping the incident edge against the reference edge): random
//! rectangle and polygon pairs against the f64 oracle, closed-form resting contacts (box,
//! capsule, ball, rounded polygons), and ids that survive small motions.
//!
//! One test body, run in f32 and f64.

use crate::common;
use crate::poly2d;
use kollide::query::Space;

use common::{assert_close, assert_mixed, oracle, rng, FromParts, RotF64};
use glam::DVec2;
use kollide::math::{Pose, Real, Rot2, Vector2};
use kollide::query::{manifold, ContactId, Manifold};
use kollide::shape::{Ball, Capsule, ConvexPolygon, Cuboid, Feature, Rounded, Support};
use poly2d::*;

fn ids<V: Vector2 + Space>(m: &Manifold<V>) -> Vec<ContactId> {
    let mut v: Vec<ContactId> = m.points().iter().map(|p| p.id).collect();
    v.sort_by_key(|id| format!("{id:?}"));
    v
}

/// Random pairs: every point on both boundaries, as deep as the contact at most, the
/// deepest as deep as the oracle's depth; ids kept after moving B by 1e-5 of the size.
fn random_manifolds<V: Vector2 + Space>(seed: u64, pairs: usize)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    let rel = rel_tol::<V>();
    let (mut overlapping, mut two, mut stable, mut moved_total) = (0, 0, 0, 0);
    for k in 0..pairs {
        let (a, b) = random_pair::<V>(&mut r, KINDS[k % 4], 1.0);
        let pa = pose_near::<V>(&mut r, V::ZERO, 2.0);
        let mut pb = pose_near::<V>(&mut r, pa.translation, 2.0);
        if k % 3 == 0 {
            pb.rotation = pa.rotation;
        }
        let margin = if k % 2 == 0 { 0.0 } else { 0.1 };
        let (wa, wb) = (world(&a, &pa), world(&b, &pb));
        let tol = rel * size_of(&wa, &wb);
        let ctx = format!("pair {k}: {a:?} at {pa:?}, {b:?} at {pb:?}");
        let m = manifold(&a, &pa, &b, &pb, V::Real::from_f64(margin));
        let truth = oracle::polygon_distance_2d(&wa, &wb);
        if truth > margin + tol {
            assert!(m.is_empty(), "{ctx}: {m:?} but the oracle distance is {truth:e}");
            continue;
        }
        let depth = if truth == 0.0 { oracle::penetration_2d(&wa, &wb).0 } else { -truth };
        if truth == 0.0 {
            overlapping += 1;
        }
        if m.is_empty() {
            assert!(depth.abs() <= tol || (truth - margin).abs() <= tol, "{ctx}: empty, depth {depth:e}");
            continue;
        }
        assert!(m.len() <= 2, "{ctx}: {} points", m.len());
        two += usize::from(m.len() == 2);
        let n = d2(m.normal);
        assert!((n.length() - 1.0).abs() < 1e-5, "{ctx}: normal {n}");
        // A GJK normal (apart cores) is within GJK's tolerance.
        let tol = if truth > 0.0 { tol + 10.0 * V::Real::GJK_REL_TOLERANCE.to_f64() } else { tol };
        for p in m.points() {
            let (qa, qb) = (d2(p.point_a), d2(p.point_b));
            let d = p.distance.to_f64();
            assert!(boundary_distance(qa, &wa) <= tol, "{ctx}: {p:?} point_a off A");
            assert!(boundary_distance(qb, &wb) <= tol, "{ctx}: {p:?} point_b off B");
            assert!((qb - qa - n * d).length() <= tol, "{ctx}: {p:?} not along the normal");
            assert!(
                d <= margin + tol && d >= -depth - tol,
                "{ctx}: {p:?} distance outside [-{depth:e}, margin]"
            );
            assert!(p.id.a != Feature::Unknown && p.id.b != Feature::Unknown, "{ctx}: {p:?}");
        }
        let deepest = m.deepest().unwrap().distance.to_f64();
        assert_close(deepest, -depth, tol, &format!("deepest point, {ctx}"));
        // A small motion keeps the ids (unless it moves a corner across a side of the
        // reference edge's strip, which is rare at this size).
        if truth == 0.0 && depth > 1e-3 {
            let nudge: V = common::unit::<V>(&mut r) * V::Real::from_f64(1e-5);
            let moved = Pose::new(pb.translation + nudge, pb.rotation);
            let m2 = manifold(&a, &pa, &b, &moved, V::Real::from_f64(margin));
            moved_total += 1;
            stable += usize::from(ids(&m) == ids(&m2));
        }
    }
    assert_mixed(overlapping, pairs, "manifold pairs");
    assert!(two > pairs / 20, "too few two-point manifolds: {two}");
    assert!(stable * 100 >= moved_total * 98, "ids kept in only {stable} of {moved_total} nudged manifolds");
}

#[test]
fn random_manifolds_f32() {
    random_manifolds::<glam::Vec2>(21, 3000);
}

#[test]
fn random_manifolds_f64() {
    random_manifolds::<glam::DVec2>(22, 3000);
}

/// The manifold mapped back into A's frame.
fn local<V: Vector2 + Space>(m: &Manifold<V>, pa: &Pose<V>) -> Vec<(DVec2, DVec2, f64, ContactId)> {
    let mut v: Vec<_> = m
        .points()
        .iter()
        .map(|p| {
            let f = |x: V| d2(pa.inverse_transform_point(x));
            (f(p.point_a), f(p.point_b), p.distance.to_f64(), p.id)
        })
        .collect();
    v.sort_by(|x, y| x.0.x.total_cmp(&y.0.x));
    v
}

fn v2<V: Vector2 + Space>(x: f64, y: f64) -> V {
    V::from_f64_array([x, y, 0.0])
}

/// B placed by `rel` in A's frame, the whole scene at a random world pose.
fn scene<V: Vector2 + Space>(r: &mut rand_chacha::ChaCha8Rng, rel: Pose<V>) -> (Pose<V>, Pose<V>)
where
    V::Rotation: FromParts,
{
    let pa = pose_near::<V>(r, V::ZERO, 5.0);
    let pb = pa.compose(&rel);
    (pa, pb)
}

/// Checks the points of `m` (in A's frame) against closed forms: x of the points on A, the
/// surface heights of A and B, the distance, and all ids `id`.
#[allow(clippy::too_many_arguments)]
#[track_caller]
fn expect<V: Vector2 + Space>(
    m: &Manifold<V>,
    pa: &Pose<V>,
    xs: &[f64],
    ya: f64,
    yb: &[f64],
    tol: f64,
    what: &str,
) -> Vec<ContactId> {
    let pts = local(m, pa);
    assert_eq!(pts.len(), xs.len(), "{what}: {m:?}");
    let n = d2(pa.inverse_transform_vector(m.normal));
    assert!((n - DVec2::Y).length() <= tol, "{what}: normal {n}");
    for (k, (qa, qb, d, _)) in pts.iter().enumerate() {
        assert_close(qa.x, xs[k], tol, &format!("{what}: point {k} x"));
        assert_close(qb.x, xs[k], tol, &format!("{what}: point {k} x on B"));
        assert_close(qa.y, ya, tol, &format!("{what}: point {k} on A"));
        assert_close(qb.y, yb[k], tol, &format!("{what}: point {k} on B"));
        assert_close(*d, yb[k] - ya, tol, &format!("{what}: point {k} distance"));
    }
    pts.iter().map(|p| p.3).collect()
}

fn resting<V: Vector2 + Space>(seed: u64)
where
    V::Rotation: FromParts,
{
    let mut r = rng(seed);
    let tol = 1e3 * V::Real::EPSILON.to_f64() * 10.0;
    let floor = Cuboid::new(v2::<V>(5.0, 0.5));
    let zero = V::Real::ZERO;
    for case in 0..50 {
        // A box sunk 0.01 into the floor: its two lower corners, ids kept under 1e-5 moves.
        let cube = Cuboid::new(v2::<V>(0.5, 0.5));
        let rel = Pose::from_translation(v2::<V>(0.3, 0.99));
        let (pa, pb) = scene(&mut r, rel);
        let m = manifold(&floor, &pa, &cube, &pb, zero);
        let id = expect(&m, &pa, &[-0.2, 0.8], 0.5, &[0.49, 0.49], tol, "box on box");
        assert_eq!(id[0], ContactId { a: Feature::Face(3), b: Feature::Vertex(0) }, "{m:?}");
        assert_eq!(id[1], ContactId { a: Feature::Face(3), b: Feature::Vertex(1) }, "{m:?}");
        for d in [v2::<V>(1e-5, 0.0), v2::<V>(0.0, 1e-5), v2::<V>(-1e-5, -1e-5)] {
            let moved = Pose::new(pb.translation + pa.transform_vector(d), pb.rotation);
            assert_eq!(ids(&manifold(&floor, &pa, &cube, &moved, zero)), ids(&m), "box moved by {d:?}");
        }
        // Tilted by 0.01 rad: the corners at their own closed-form depths.
        let tilt = 0.01f64;
        let rel = Pose::new(v2::<V>(0.3, 1.0), Rot2::from_angle(V::Real::from_f64(tilt)));
        let (pa, pb) = scene(&mut r, rel);
        let (c, s) = (tilt.cos(), tilt.sin());
        let corner = |x: f64, y: f64| DVec2::new(0.3 + c * x - s * y, 1.0 + s * x + c * y);
        let (k0, k1) = (corner(-0.5, -0.5), corner(0.5, -0.5));
        // (The raised corner is 0.005 above the floor: inside a margin of 0.1.)
        let m = manifold(&floor, &pa, &cube, &pb, V::Real::from_f64(0.1));
        expect(&m, &pa, &[k0.x, k1.x], 0.5, &[k0.y, k1.y], tol, "tilted box on box");
        // A box hanging over the floor's edge: the floor's corner cuts the box's edge.
        let rel = Pose::from_translation(v2::<V>(4.8, 0.99));
        let (pa, pb) = scene(&mut r, rel);
        let m = manifold(&floor, &pa, &cube, &pb, zero);
        let id = expect(&m, &pa, &[4.3, 5.0], 0.5, &[0.49, 0.49], tol, "box over the edge");
        assert_eq!(id[1], ContactId { a: Feature::Vertex(3), b: Feature::Face(2) }, "{m:?}");
        // A capsule lying on the floor, sunk 0.02: both ends of its core.
        let capsule = Capsule::<V>::new(V::Real::ONE, V::Real::from_f64(0.25));
        let rel = Pose::new(
            v2::<V>(-1.0, 0.73),
            Rot2::from_angle(V::Real::from_f64(case as f64 * 1e-9 - std::f64::consts::FRAC_PI_2)),
        );
        let (pa, pb) = scene(&mut r, rel);
        let m = manifold(&floor, &pa, &capsule, &pb, zero);
        let gtol = tol + 1e-4;
        expect(&m, &pa, &[-2.0, 0.0], 0.5, &[0.48, 0.48], gtol, "capsule on box");
        // A ball sunk 0.1: one point under its centre.
        let ball = Ball::<V>::new(V::Real::from_f64(0.5));
        let (pa, pb) = scene(&mut r, Pose::from_translation(v2::<V>(2.0, 0.9)));
        let m = manifold(&floor, &pa, &ball, &pb, zero);
        let id = expect(&m, &pa, &[2.0], 0.5, &[0.4], tol, "ball on box");
        assert_eq!(id[0], ContactId { a: Feature::Face(3), b: Feature::Unknown });
    }
}

#[test]
fn resting_contacts_f32_f64() {
    resting::<glam::Vec2>(31);
    resting::<glam::DVec2>(32);
}

/// Rounded shapes: the points of the cores' manifold moved out by each radius, whether the
/// cores overlap (separating axes) or not (GJK).
fn rounded<V: Vector2 + Space>(seed: u64)
where
    V::Rotation: FromParts,
{
    let mut r = rng(seed);
    let tol = 1e3 * V::Real::EPSILON.to_f64() * 10.0 + 1e-4;
    let hexagon = ConvexPolygon::from_points(&[
        v2::<V>(-0.5, -0.3),
        v2(0.5, -0.3),
        v2(0.7, 0.0),
        v2(0.5, 0.3),
        v2(-0.5, 0.3),
        v2(-0.7, 0.0),
    ]);
    let (ra, rb) = (0.02, 0.05);
    let floor = Rounded::try_new(Cuboid::new(v2::<V>(5.0, 0.5)), V::Real::from_f64(ra)).unwrap();
    let puck = Rounded::try_new(hexagon.clone(), V::Real::from_f64(rb)).unwrap();
    // Core bottom heights: apart by 0.04 (rounded surfaces sunk 0.03), and overlapping.
    for bottom in [0.54, 0.45] {
        let rel = Pose::from_translation(v2::<V>(1.0, bottom + 0.3));
        let (pa, pb) = scene(&mut r, rel);
        let m = manifold(&floor, &pa, &puck, &pb, V::Real::ZERO);
        let yb = bottom - rb;
        expect(&m, &pa, &[0.5, 1.5], 0.5 + ra, &[yb, yb], tol, &format!("rounded, core bottom {bottom}"));
        // The same as the cores' manifold, moved out by the radii.
        let cores = manifold(floor.inner(), &pa, &hexagon, &pb, V::Real::from_f64(1.0));
        assert_eq!(ids(&cores), ids(&m));
        for (p, q) in local(&m, &pa).iter().zip(local(&cores, &pa)) {
            assert_close(p.2, q.2 - ra - rb, tol, "distance minus the radii");
            assert_close(p.0.y, q.0.y + ra, tol, "A's point out by its radius");
            assert_close(p.1.y, q.1.y - rb, tol, "B's point out by its radius");
        }
        assert!(floor.radius() > V::Real::ZERO);
    }
}

#[test]
fn rounded_polygons_f32_f64() {
    rounded::<glam::Vec2>(41);
    rounded::<glam::DVec2>(42);
}

/// Hostile: identical shapes at one pose, slivers, and tiny and huge scales give finite
/// manifolds with unit normals and points on both boundaries.
fn hostile<V: Vector2 + Space>(seed: u64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    for k in 0..400 {
        let scale = [1e-6, 1.0, 1e6][k % 3];
        let (a, b) = random_pair::<V>(&mut r, KINDS[k % 4], scale);
        let pa = pose_near::<V>(&mut r, V::ZERO, 2.0 * scale);
        let (b, pb) = if k % 2 == 0 {
            (a.clone(), pa)
        } else {
            (b, pose_near::<V>(&mut r, pa.translation, 0.5 * scale))
        };
        let (wa, wb) = (world(&a, &pa), world(&b, &pb));
        let tol = rel_tol::<V>() * size_of(&wa, &wb);
        let m = manifold(&a, &pa, &b, &pb, V::Real::ZERO);
        if !oracle::polygons_overlap_2d(&wa, &wb) {
            continue;
        }
        let ctx = format!("case {k}: {a:?} at {pa:?}, {b:?} at {pb:?}: {m:?}");
        assert!(!m.is_empty() || oracle::penetration_2d(&wa, &wb).0 <= tol, "{ctx}");
        for p in m.points() {
            assert!(boundary_distance(d2(p.point_a), &wa) <= tol, "{ctx}");
            assert!(boundary_distance(d2(p.point_b), &wb) <= tol, "{ctx}");
            assert!(p.distance.is_finite(), "{ctx}");
        }
        if !m.is_empty() {
            assert!((d2(m.normal).length() - 1.0).abs() < 1e-5, "{ctx}");
        }
    }
}

#[test]
fn hostile_f32_f64() {
    hostile::<glam::Vec2>(51);
    hostile::<glam::DVec2>(52);
}
