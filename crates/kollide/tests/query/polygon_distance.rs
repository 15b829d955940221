//! 2D polygon distance by closest features (the dispatcher's path for two rectangles or
//! convex polygons) against the f64 oracle and against GJK on the same shapes: random pairs
//! of every kind, slivers among them, about half overlapping, in f32 and f64.

use crate::common::{self, rng, ViaGjk};
use crate::poly2d::{self, random_pair, world, KINDS};
use glam::{DVec2, Vec2};
use kollide::math::{Real, Vector2};
use kollide::query::{distance, GjkStatus, Space};

/// Returns (separated pairs, answered without GJK; overlapping pairs, answered without GJK).
fn polygons<V: Vector2 + Space>(seed: u64, pairs: usize, tol: f64) -> [usize; 4]
where
    V::Rotation: common::RotF64<V> + common::FromParts,
{
    let mut r = rng(seed);
    let mut counts = [0; 4];
    for k in 0..pairs {
        let (a, b) = random_pair::<V>(&mut r, KINDS[k % 4], 1.0);
        let pa = poly2d::pose_near::<V>(&mut r, V::ZERO, 0.3);
        let pb = poly2d::pose_near::<V>(&mut r, V::ZERO, 2.2);
        let out = distance(&a, &pa, &b, &pb);
        let gjk = distance(&ViaGjk(a.clone()), &pa, &ViaGjk(b.clone()), &pb);
        let t = common::oracle::polygon_distance_2d(&world(&a, &pa), &world(&b, &pb));
        let (d, lo, up) = (out.distance.to_f64(), out.lower_bound.to_f64(), out.upper_bound.to_f64());
        assert!(lo <= t + tol * 1e-3 && t <= up + tol * 1e-3, "pair {k}: [{lo}, {up}] miss {t} ({out:?})");
        assert!((d - t).abs() <= tol, "pair {k}: distance {d}, oracle {t} ({out:?})");
        assert!((d - gjk.distance.to_f64()).abs() <= tol, "pair {k}: {d} against GJK's {:?}", gjk.distance);
        assert!(matches!(out.status, GjkStatus::Converged | GjkStatus::Overlapping), "pair {k}: {out:?}");
        assert_eq!(out.status == GjkStatus::Overlapping, d == 0.0, "pair {k}: {out:?}");
        let closed = usize::from(out.iterations == 0);
        if t > tol {
            counts[0] += 1;
            counts[1] += closed;
            let gap = (out.point_b - out.point_a).length().to_f64();
            assert!((gap - d).abs() <= tol, "pair {k}: witnesses {gap} apart, distance {d}");
            // Each witness on its own polygon's boundary, to rounding.
            for (p, s, pose) in [(out.point_a, &a, &pa), (out.point_b, &b, &pb)] {
                let w = common::to_world_f64(&kollide::math::Pose::IDENTITY, p);
                let e = poly2d::boundary_distance(DVec2::new(w[0], w[1]), &world(s, pose));
                assert!(e <= tol, "pair {k}: witness {p:?} {e} off its polygon");
            }
        } else if t == 0.0 {
            counts[2] += 1;
            counts[3] += closed;
            // The common point lies in both polygons.
            let w = common::to_world_f64(&kollide::math::Pose::IDENTITY, out.point_a);
            for (s, pose) in [(&a, &pa), (&b, &pb)] {
                let e = poly2d::solid_distance(DVec2::new(w[0], w[1]), &world(s, pose));
                assert!(e <= tol, "pair {k}: common point {:?} {e} outside a polygon", out.point_a);
            }
        }
    }
    counts
}

#[track_caller]
fn mostly_closed([apart, apart_closed, over, over_closed]: [usize; 4]) {
    assert!(apart > 500 && over > 500, "sample: {apart} apart, {over} overlapping");
    assert!(apart_closed * 10 >= apart * 9, "closed form answered {apart_closed} of {apart} separated pairs");
    assert!(over_closed * 10 >= over * 8, "closed form answered {over_closed} of {over} overlapping pairs");
}

#[test]
fn polygon_distance_f64() {
    mostly_closed(polygons::<DVec2>(71, 4000, 1e-9));
}

#[test]
fn polygon_distance_f32() {
    mostly_closed(polygons::<Vec2>(72, 4000, 2e-5));
}
