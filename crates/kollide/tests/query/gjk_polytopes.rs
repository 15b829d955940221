//! GJK distance and intersection on random polytope pairs, against the f64 brute-force
//! oracle (feature pairs for the distance, separating axes for overlap).
//!
//! One test body, run for 2D and 3D in f32 and f64.

use crate::common;
use kollide::query::Space;

use common::oracle;
use common::{assert_close, assert_mixed, pose, rng, to_world_f64, unit, FromParts, PointCloud, RotF64};
use glam::{DVec2, DVec3};
use kollide::math::{Pose, Real};
use kollide::query::{distance, intersection_test, GjkStatus};
use kollide::shape::Support;

/// Oracle distance between two point sets placed by poses, computed in f64.
fn oracle_distance<V: Space>(a: &[V], pa: &Pose<V>, b: &[V], pb: &Pose<V>) -> f64
where
    V::Rotation: RotF64<V>,
{
    let wa: Vec<[f64; 3]> = a.iter().map(|&p| to_world_f64(pa, p)).collect();
    let wb: Vec<[f64; 3]> = b.iter().map(|&p| to_world_f64(pb, p)).collect();
    if V::DIM == 2 {
        let f = |v: &[[f64; 3]]| v.iter().map(|p| DVec2::new(p[0], p[1])).collect::<Vec<_>>();
        oracle::polygon_distance_2d(&f(&wa), &f(&wb))
    } else {
        let f = |v: &[[f64; 3]]| v.iter().map(|p| DVec3::from_array(*p)).collect::<Vec<_>>();
        oracle::polytope_distance_3d(&f(&wa), &f(&wb))
    }
}

/// Checks one pair; returns whether the oracle says the shapes overlap.
#[allow(clippy::too_many_arguments)]
fn check_pair<V: Space, A: Support<V>, B: Support<V>>(
    a: &A,
    va: &[V],
    pa: &Pose<V>,
    b: &B,
    vb: &[V],
    pb: &Pose<V>,
    tol: f64,
    label: &str,
) -> bool
where
    V::Rotation: RotF64<V>,
{
    let truth = oracle_distance(va, pa, vb, pb);
    let out = distance(a, pa, b, pb);
    let d = out.distance.to_f64();
    let ctx = format!("{label}: poses {pa:?} {pb:?}");
    // `Stalled` is honest but must stay rare and close: in f32 a thin last simplex can
    // leave a gap a little above the documented promise (80 ulps of the coordinates).
    let m = va.iter().chain(vb).map(|p| p.length().to_f64()).fold(0.0, f64::max)
        + (pb.translation - pa.translation).length().to_f64();
    let promise = (V::Real::GJK_REL_TOLERANCE.to_f64() * out.upper_bound.to_f64())
        .max(80.0 * V::Real::EPSILON.to_f64() * m);
    match out.status {
        GjkStatus::Converged | GjkStatus::Overlapping => {}
        GjkStatus::Stalled => {
            let gap = (out.upper_bound - out.lower_bound).to_f64();
            assert!(gap <= 4.0 * promise, "{ctx}: stalled with gap {gap:e} > 4 x {promise:e}: {out:?}");
            STALLS.with(|s| s.set(s.get() + 1));
        }
        s => panic!("{ctx}: status {s:?}, truth {truth:e}, output {out:?}"),
    }
    assert_close(d, truth, tol, &format!("distance, {ctx}"));
    // Certified bounds hold on every pair, whatever the precision.
    let (lo, hi) = (out.lower_bound.to_f64(), out.upper_bound.to_f64());
    assert!(lo <= truth && truth <= hi, "{ctx}: bounds [{lo:e}, {hi:e}] miss the truth {truth:e}");
    // The witness points realize the distance.
    let gap = (out.point_b - out.point_a).length().to_f64();
    assert_close(gap, d, tol, &format!("|point_b - point_a|, {ctx}"));
    // The witnesses lie on their shapes: the distance from each to the other shape is the
    // distance (an independent check through the oracle with a one-point set).
    if truth > tol {
        let on_a = oracle_distance(&[out.point_a], &Pose::IDENTITY, vb, pb);
        let on_b = oracle_distance(va, pa, &[out.point_b], &Pose::IDENTITY);
        assert_close(on_a, truth, tol * 4.0, &format!("point_a to B, {ctx}"));
        assert_close(on_b, truth, tol * 4.0, &format!("point_b to A, {ctx}"));
    }
    let hit = intersection_test(a, pa, b, pb);
    // Within the tolerance of touching either answer is right.
    if truth > tol {
        assert!(!hit.intersects, "{ctx}: intersects, but the oracle distance is {truth:e}");
    } else if truth == 0.0 && out.lower_bound.to_f64() == 0.0 && d > tol {
        panic!("{ctx}: oracle overlap but distance {d:e}");
    }
    if truth == 0.0 {
        // SAT found no separating axis: the sets overlap or touch.
        assert!(hit.intersects || d <= tol, "{ctx}: oracle overlap, intersects = false, distance {d:e}");
    }
    truth == 0.0
}

thread_local! {
    /// Pairs that ended `Stalled` in the current test (each test runs on its own thread).
    static STALLS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Asserts that at most 0.5% of the pairs stalled, and says how many did.
fn assert_rare_stalls(pairs: usize, what: &str) {
    let stalls = STALLS.with(|s| s.get());
    eprintln!("{what}: {stalls} of {pairs} pairs stalled");
    assert!(stalls * 200 <= pairs, "{what}: {stalls} of {pairs} pairs stalled (more than 0.5%)");
}

fn random_cloud<V: Space>(rng: &mut rand_chacha::ChaCha8Rng, n: usize) -> Vec<V> {
    (0..n).map(|_| unit::<V>(rng)).collect()
}

fn polytope_pairs<V: Space>(seed: u64, pairs: usize, points: usize, spread: f64, tol: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    let mut overlaps = 0;
    for k in 0..pairs {
        let (va, vb) = (random_cloud::<V>(&mut r, points), random_cloud::<V>(&mut r, points));
        let (pa, pb) = (pose::<V>(&mut r, spread), pose::<V>(&mut r, spread));
        let label = format!("pair {k} of {}D {}", V::DIM, core::any::type_name::<V::Real>());
        overlaps +=
            check_pair(&PointCloud(va.clone()), &va, &pa, &PointCloud(vb.clone()), &vb, &pb, tol, &label)
                as usize;
    }
    assert_mixed(overlaps, pairs, "polytope pairs");
    assert_rare_stalls(pairs, "polytope pairs");
}

#[test]
fn polytopes_3d_f64() {
    polytope_pairs::<DVec3>(1, 1500, 8, 1.2, 1e-9);
}

#[test]
fn polytopes_3d_f32() {
    polytope_pairs::<glam::Vec3>(2, 1500, 8, 1.2, 2e-5);
}

#[test]
fn polygons_2d_f64() {
    polytope_pairs::<DVec2>(3, 2000, 7, 1.2, 1e-9);
}

#[test]
fn polygons_2d_f32() {
    polytope_pairs::<glam::Vec2>(4, 2000, 7, 1.2, 2e-5);
}

/// Boxes, triangles and segments (kollide's own shapes) against their vertex lists.
fn library_polytopes<V: Space>(seed: u64, pairs: usize, tol: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    use kollide::shape::{Cuboid, Segment, Triangle};
    let mut r = rng(seed);
    let mut overlaps = 0;
    for k in 0..pairs {
        let he = common::vec_in::<V>(&mut r, 0.1, 1.0);
        let cub = Cuboid::new(he);
        let corners: Vec<V> = (0..1 << V::DIM)
            .map(|m| {
                let mut s = [0.0; 3];
                for (i, x) in s.iter_mut().enumerate() {
                    *x = if m >> i & 1 == 1 { 1.0 } else { -1.0 };
                }
                he.mul_elem(V::from_f64_array(s))
            })
            .collect();
        let (p, q, s) = (unit::<V>(&mut r), unit::<V>(&mut r), unit::<V>(&mut r));
        let (pa, pb) = (pose::<V>(&mut r, 1.0), pose::<V>(&mut r, 1.0));
        let label = format!("pair {k} of {}D {}", V::DIM, core::any::type_name::<V::Real>());
        let hit = match k % 3 {
            0 => check_pair(&cub, &corners, &pa, &Triangle::new(p, q, s), &[p, q, s], &pb, tol, &label),
            1 => check_pair(&Segment::new(p, q), &[p, q], &pa, &cub, &corners, &pb, tol, &label),
            _ => check_pair(&cub, &corners, &pa, &cub, &corners, &pb, tol, &label),
        };
        overlaps += hit as usize;
    }
    assert_mixed(overlaps, pairs, "box/triangle/segment pairs");
    assert_rare_stalls(pairs, "box/triangle/segment pairs");
}

#[test]
fn boxes_triangles_segments_3d_f64() {
    library_polytopes::<DVec3>(5, 1500, 1e-9);
}

#[test]
fn boxes_triangles_segments_2d_f32() {
    library_polytopes::<glam::Vec2>(6, 1500, 2e-5);
}

#[test]
fn boxes_triangles_segments_3d_f32() {
    library_polytopes::<glam::Vec3>(7, 1500, 2e-5);
}
