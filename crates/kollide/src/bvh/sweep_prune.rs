//! All overlapping pairs of a set of boxes in one go: sort-and-sweep, and the dynamic
//! tree's equivalent (build top-down, then query each box).
//!
//! Which wins, measured (release, 2 cores, f32, boxes uniform in a square or cube, sized so
//! each meets about 3 others; milliseconds, best of several runs on a noisy machine):
//!
//! | case                              | sweep | tree build + query each |
//! |-----------------------------------|------:|------------------------:|
//! | 2D, 10k boxes                     |   3.5 |   5.2                   |
//! | 2D, 100k boxes                    |   122 |   181                   |
//! | 3D, 10k boxes                     |    11 |   7.5                   |
//! | 3D, 100k boxes                    |   420 |   140                   |
//! | 3D, 100k, one frame of 10% moving |   430 (from scratch) | 15 (`BroadPhase`: set_aabb + update) |
//!
//! The sweep tests each box against every box overlapping it along the sweep axis: about
//! `n^(1/2)` of them in 2D but `n^(2/3)` in 3D, which is why the tree wins in 3D. So
//! [`BroadPhase`](super::BroadPhase) searches all pairs with the sweep in 2D when every
//! proxy is in its move buffer (first update), and with the tree otherwise; a frame where
//! some bodies move is always the incremental tree search.

use super::dynamic::DynamicTree;
use super::grid_pairs::all_pairs_into;
use crate::math::{Aabb, Real, Vector};

/// Every pair `(i, j)`, `i < j`, of `boxes` that meet (touching counts), by sort-and-sweep:
/// the boxes are sorted by their `min` along the axis where their centres spread most
/// (greatest variance), then each is tested against the following boxes that start before
/// it ends. Boxes with a NaN coordinate, or with `min > max`, meet nothing and are
/// skipped. Pairs come sorted by the sweep order, not by index.
///
/// O(n log n + k · s): fast when few boxes share a slice of the sweep axis; a long box
/// along that axis is tested against all it spans. Measured faster than
/// [`all_pairs_tree`] in 2D (about 1.5x at 10k and 100k boxes), slower in 3D (3x at 100k).
///
/// ```
/// use kollide::bvh::all_pairs_sweep;
/// use kollide::math::{Aabb, Vec2};
/// let boxes = [Aabb::new(Vec2::ZERO, Vec2::ONE),
///              Aabb::new(Vec2::splat(5.0), Vec2::splat(6.0)),
///              Aabb::new(Vec2::splat(1.0), Vec2::splat(2.0))];
/// assert_eq!(all_pairs_sweep(&boxes), vec![(0, 2)]);
/// ```
#[must_use]
pub fn all_pairs_sweep<V: Vector>(boxes: &[Aabb<V>]) -> Vec<(u32, u32)> {
    let live = |b: &Aabb<V>| {
        b.is_valid() && !b.min.to_f64_array().iter().chain(&b.max.to_f64_array()).any(|x| x.is_nan())
    };
    // The axis of greatest spread of the centres (in f64: no overflow of the squares).
    let mut sum = [0.0f64; 3];
    let mut sq = [0.0f64; 3];
    let mut n = 0usize;
    for b in boxes.iter().filter(|b| live(b)) {
        let c = b.center().to_f64_array();
        for k in 0..V::DIM {
            if c[k].is_finite() {
                sum[k] += c[k];
                sq[k] += c[k] * c[k];
            }
        }
        n += 1;
    }
    let nf = n.max(1) as f64;
    let var = |k: usize| sq[k] / nf - (sum[k] / nf) * (sum[k] / nf);
    let axis = (1..V::DIM).fold(0, |best, k| if var(k) > var(best) { k } else { best });

    let mut sorted: Vec<(Aabb<V>, u32)> =
        boxes.iter().enumerate().filter(|(_, b)| live(b)).map(|(i, b)| (*b, i as u32)).collect();
    sorted.sort_unstable_by(|x, y| x.0.min[axis].to_f64().total_cmp(&y.0.min[axis].to_f64()));
    let mut out = Vec::new();
    for (i, (a, ia)) in sorted.iter().enumerate() {
        let end = a.max[axis];
        for (b, ib) in &sorted[i + 1..] {
            if b.min[axis] > end {
                break;
            }
            if a.intersects(b) {
                out.push(if ia < ib { (*ia, *ib) } else { (*ib, *ia) });
            }
        }
    }
    out
}

/// The same pairs as [`all_pairs_sweep`] (in another order), found by building a
/// [`DynamicTree`] over the boxes top-down and querying it with each box: the faster of the
/// two in 3D. Boxes must be finite with `min <= max`; otherwise `None`.
///
/// ```
/// use kollide::bvh::all_pairs_tree;
/// use kollide::math::{Aabb, Vec3};
/// let boxes = [Aabb::new(Vec3::ZERO, Vec3::ONE), Aabb::new(Vec3::ONE, Vec3::splat(2.0))];
/// assert_eq!(all_pairs_tree(&boxes), Some(vec![(0, 1)]));
/// ```
#[must_use]
pub fn all_pairs_tree<V: Vector>(boxes: &[Aabb<V>]) -> Option<Vec<(u32, u32)>> {
    let tree = DynamicTree::try_from_boxes(V::Real::ZERO, boxes).ok()?;
    let mut out = Vec::new();
    tree.visit_self_pairs(|a, b| {
        out.push((a.0, b.0));
        true
    });
    Some(out)
}

/// Every pair `(i, j)`, `i < j`, of `boxes` that meet (touching counts), by whichever
/// search suits the boxes: the uniform grid of [`GridPairs`](super::GridPairs) when the boxes are of similar
/// size and spread out (the fastest by far then), else in 3D a [`DynamicTree`] built top-down
/// and walked against itself, else [`all_pairs_sweep`]. Boxes with a NaN coordinate or `min > max` meet
/// nothing. Pairs come in no particular order (the same order on every call with the same
/// boxes, with or without the `rayon` feature).
///
/// The grid's arrays (about 41 bytes a box) are kept per thread between calls, up to
/// 64 MiB, so calling this every frame allocates only the returned pairs.
///
/// Measured at 100,000 boxes in 3D (f32, uniform in a cube, about 3 neighbours each;
/// release, this project's 2-core machine): grid 3.2-3.8 ms, dynamic tree build + walk
/// 37 ms, static `Bvh` build + walk 95 ms, sweep 420 ms.
///
/// ```
/// use kollide::bvh::all_pairs;
/// use kollide::math::{Aabb, DVec3};
/// let boxes = [Aabb::new(DVec3::ZERO, DVec3::ONE),
///              Aabb::new(DVec3::splat(0.5), DVec3::splat(2.0)),
///              Aabb::new(DVec3::splat(5.0), DVec3::splat(6.0))];
/// assert_eq!(all_pairs(&boxes), vec![(0, 1)]);
/// ```
#[must_use]
pub fn all_pairs<V: Vector>(boxes: &[Aabb<V>]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    if all_pairs_into(boxes, &mut out) {
        return out;
    }
    if V::DIM == 3 {
        if let Ok(tree) = DynamicTree::try_from_boxes(V::Real::ZERO, boxes) {
            tree.visit_self_pairs(|a, b| {
                out.push((a.0, b.0));
                true
            });
            return out;
        }
    }
    all_pairs_sweep(boxes)
}
