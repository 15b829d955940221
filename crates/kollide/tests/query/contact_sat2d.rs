//! 2D contacts of rectangles and convex polygons (the separating-axis path) against the f64
//! brute-force oracle: depth, normal, witness points, and which pairs are reported at all.
//!
//! One test body, run in f32 and f64 and at the scales 1, 1e-6 and 1e6.

use crate::common;
use crate::poly2d;
use kollide::query::Space;

use common::{assert_close, assert_mixed, oracle, rng, FromParts, RotF64};
use glam::DVec2;
use kollide::math::{Pose, Real, Vector2};
use kollide::query::{contact, ContactStatus};
use kollide::shape::Cuboid;
use poly2d::*;
use rand::Rng;

/// Tallies of what a random sample covered.
#[derive(Default, Debug)]
struct Seen {
    overlapping: usize,
    deep: usize,
    within_margin: usize,
    touching_requery: usize,
}

/// `pairs` random pairs of every kind at size about `scale`, half of them with a margin.
fn random_pairs<V: Vector2 + Space>(seed: u64, pairs: usize, scale: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    let mut seen = Seen::default();
    let rel = rel_tol::<V>();
    for k in 0..pairs {
        let (a, b) = random_pair::<V>(&mut r, KINDS[k % 4], scale);
        let pa = pose_near::<V>(&mut r, V::ZERO, 2.0 * scale);
        // Every eighth pair nearly concentric (deep), the others spread about A.
        let spread = if k % 8 == 0 { 0.2 } else { 2.0 };
        let mut pb = pose_near::<V>(&mut r, pa.translation, spread * scale);
        if k % 3 == 0 {
            // Turned like A (up to the rounding of the relative pose): parallel edges for
            // rectangles, where the touching features are edges and the witness is cut.
            pb.rotation = pa.rotation;
        }
        let margin = if k % 2 == 0 { 0.0 } else { 0.1 * scale };
        let (wa, wb) = (world(&a, &pa), world(&b, &pb));
        let tol = rel * size_of(&wa, &wb);
        let ctx = format!("pair {k} ({:?}): {a:?} at {pa:?}, {b:?} at {pb:?}", KINDS[k % 4]);
        let out = contact(&a, &pa, &b, &pb, V::Real::from_f64(margin), None);
        if oracle::polygons_overlap_2d(&wa, &wb) {
            seen.overlapping += 1;
            let (depth, _) = oracle::penetration_2d(&wa, &wb);
            let Some(c) = out else {
                assert!(depth <= tol, "{ctx}: no contact, oracle depth {depth:e}");
                continue;
            };
            assert_eq!(c.status, ContactStatus::Converged, "{ctx}");
            if depth > 0.3 * scale {
                seen.deep += 1;
            }
            check_penetration(&c, &wa, &wb, depth, tol, &ctx);
            // Moving B by the minimum translation makes the shapes touch.
            let moved = Pose::new(pb.translation - c.normal * c.distance, pb.rotation);
            let wm = world(&b, &moved);
            let left = oracle::penetration_2d(&wa, &wm).0;
            assert!(left.abs() <= 4.0 * tol, "{ctx}: after the move by {c:?} the oracle depth is {left:e}");
            if let Some(t) = contact(&a, &pa, &b, &moved, V::Real::ZERO, None) {
                seen.touching_requery += 1;
                assert!(
                    t.distance.to_f64().abs() <= 4.0 * tol,
                    "{ctx}: touching, distance {:e}",
                    t.distance.to_f64()
                );
                assert_unit(t.normal, &ctx);
            }
        } else {
            let truth = oracle::polygon_distance_2d(&wa, &wb);
            if truth > margin + tol {
                assert!(
                    out.is_none(),
                    "{ctx}: contact {out:?}, oracle distance {truth:e} > margin {margin:e}"
                );
            } else if truth < margin - tol {
                let c = out.unwrap_or_else(|| panic!("{ctx}: no contact, oracle distance {truth:e}"));
                seen.within_margin += 1;
                // Apart cores: GJK's distance, within its relative tolerance.
                let gjk = V::Real::GJK_REL_TOLERANCE.to_f64() * truth;
                assert_close(c.distance.to_f64(), truth, 2.0 * tol + gjk, &format!("distance, {ctx}"));
                assert_unit(c.normal, &ctx);
            }
        }
    }
    assert_mixed(seen.overlapping, pairs, "rectangle/polygon pairs");
    assert!(seen.deep > pairs / 50, "too few deep pairs: {seen:?}");
    assert!(seen.within_margin > pairs / 50, "too few pairs within the margin: {seen:?}");
    assert!(seen.touching_requery > pairs / 10, "too few touching re-queries: {seen:?}");
}

#[track_caller]
fn assert_unit<V: Vector2 + Space>(n: V, ctx: &str) {
    let l = d2(n).length();
    assert!((l - 1.0).abs() <= 1e-5, "{ctx}: normal {n:?} of length {l}");
}

/// A penetrating contact against the oracle's depth: the distance is minus the depth, the
/// normal realizes it, the witnesses lie on the boundaries and differ by distance x normal.
#[track_caller]
fn check_penetration<V: Vector2 + Space>(
    c: &kollide::query::Contact<V>,
    wa: &[DVec2],
    wb: &[DVec2],
    depth: f64,
    tol: f64,
    ctx: &str,
) {
    assert_close(c.distance.to_f64(), -depth, tol, &format!("distance, {ctx}"));
    assert_unit(c.normal, ctx);
    let n = d2(c.normal).normalize();
    assert_close(overlap_along(wa, wb, n), depth, tol, &format!("overlap along the normal, {ctx}"));
    let (pa, pb) = (d2(c.point_a), d2(c.point_b));
    assert!(boundary_distance(pa, wa) <= tol, "{ctx}: point_a {pa} off A by {:e}", boundary_distance(pa, wa));
    assert!(boundary_distance(pb, wb) <= tol, "{ctx}: point_b {pb} off B by {:e}", boundary_distance(pb, wb));
    let gap = pb - pa - n * c.distance.to_f64();
    assert!(gap.length() <= tol, "{ctx}: point_b - point_a - distance n = {gap}");
}

#[test]
fn random_pairs_f32() {
    random_pairs::<glam::Vec2>(1, 4000, 1.0);
}

#[test]
fn random_pairs_f64() {
    random_pairs::<glam::DVec2>(2, 4000, 1.0);
}

#[test]
fn random_pairs_tiny_and_huge() {
    for (seed, scale) in [(3, 1e-6), (4, 1e6)] {
        random_pairs::<glam::Vec2>(seed, 1000, scale);
        random_pairs::<glam::DVec2>(seed + 10, 1000, scale);
    }
}

/// Squares sharing an edge exactly: touching, depth 0 along the shared edge's normal.
fn touching_edges<V: Vector2 + Space>()
where
    V::Rotation: FromParts,
{
    let sq = Cuboid::new(V::splat(V::Real::ONE));
    let pb = Pose::from_translation(V::from_f64_array([2.0, 0.5, 0.0]));
    let c = contact(&sq, &Pose::IDENTITY, &sq, &pb, V::Real::ZERO, None).expect("touching squares");
    assert_eq!(c.status, ContactStatus::Converged);
    assert_eq!(c.distance, V::Real::ZERO);
    assert_eq!(d2(c.normal), DVec2::X);
    assert_eq!(d2(c.point_a).x, 1.0);
    // The same pair placed anywhere in the world, turned: touching within rounding.
    let mut r = rng(7);
    for k in 0..200 {
        let pa = pose_near::<V>(&mut r, V::ZERO, 10.0);
        let pb_world = Pose::new(pa.transform_point(pb.translation), pa.rotation);
        let tol = 1e3 * V::Real::EPSILON.to_f64() * 12.0;
        if let Some(c) = contact(&sq, &pa, &sq, &pb_world, V::Real::ZERO, None) {
            assert!(c.distance.to_f64().abs() <= tol, "case {k}: distance {:e}", c.distance.to_f64());
            let along = d2(c.normal).dot(d2(pa.transform_vector(V::axis(0))));
            assert!(along > 1.0 - 1e-5, "case {k}: normal {:?}", c.normal);
        }
    }
}

#[test]
fn touching_edges_f32_f64() {
    touching_edges::<glam::Vec2>();
    touching_edges::<glam::DVec2>();
}

/// A shape against itself at the same pose: the depth is its least width, along a normal.
fn identical<V: Vector2 + Space>(seed: u64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    for k in 0..300 {
        let (a, _) = random_pair::<V>(&mut r, KINDS[k % 4], 1.0);
        let p = pose_near::<V>(&mut r, V::ZERO, 3.0);
        let w = world(&a, &p);
        let (depth, _) = oracle::penetration_2d(&w, &w);
        let tol = rel_tol::<V>() * size_of(&w, &w);
        let c = contact(&a, &p, &a, &p, V::Real::ZERO, None).expect("identical shapes overlap");
        assert_eq!(c.status, ContactStatus::Converged);
        check_penetration(&c, &w, &w, depth, tol, &format!("identical {k}: {a:?}"));
    }
}

#[test]
fn identical_shapes_f32_f64() {
    identical::<glam::Vec2>(8);
    identical::<glam::DVec2>(9);
}

/// Polygons of 30 to 120 vertices (the walks over the boundary and the skipped edges matter
/// here): depth, normal and witnesses against the oracle.
fn many_vertices<V: Vector2 + Space>(seed: u64, pairs: usize)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    let mut overlapping = 0;
    for k in 0..pairs {
        let na = r.random_range(30..=120);
        let nb = r.random_range(30..=120);
        let a = Shape2::Poly(polygon_of::<V>(&mut r, na, 1.0, false));
        let b = Shape2::Poly(polygon_of::<V>(&mut r, nb, 1.0, false));
        let pa = pose_near::<V>(&mut r, V::ZERO, 2.0);
        let pb = pose_near::<V>(&mut r, pa.translation, 2.0);
        let (wa, wb) = (world(&a, &pa), world(&b, &pb));
        let tol = rel_tol::<V>() * size_of(&wa, &wb);
        let ctx = format!("pair {k}: {a:?} at {pa:?}, {b:?} at {pb:?}");
        let out = contact(&a, &pa, &b, &pb, V::Real::ZERO, None);
        if oracle::polygons_overlap_2d(&wa, &wb) {
            overlapping += 1;
            let (depth, _) = oracle::penetration_2d(&wa, &wb);
            match out {
                Some(c) => check_penetration(&c, &wa, &wb, depth, tol, &ctx),
                None => assert!(depth <= tol, "{ctx}: no contact, oracle depth {depth:e}"),
            }
        } else if oracle::polygon_distance_2d(&wa, &wb) > tol {
            assert!(out.is_none(), "{ctx}: {out:?}");
        }
    }
    assert_mixed(overlapping, pairs, "large polygon pairs");
}

#[test]
fn many_vertices_f32_f64() {
    many_vertices::<glam::Vec2>(61, 300);
    many_vertices::<glam::DVec2>(62, 300);
}
