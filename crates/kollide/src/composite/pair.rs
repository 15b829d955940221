//! Two composites: each part of the first against the second, through the composite
//! queries (so both sides are culled by their own walks).
//!
//! Poses and answers are in the **world frame**; answers name a part of each side.

use super::cast::shape_cast;
use super::query::{contact, distance, intersects, manifold, part_pose};
use super::{Composite, Found};
use crate::math::{Aabb, Pose, Real};
use crate::query::cast::{CastInput, CastOutput, CastStatus};
use crate::query::Space;
use crate::query::{Contact, DistanceOutput, GjkStatus, Manifold};
use crate::shape::Transformed;

/// B's box in A's frame (conservative when turned).
fn box_of<V: Space, B: Composite<V> + ?Sized>(pose_a: &Pose<V>, b: &B, pose_b: &Pose<V>) -> Aabb<V> {
    b.local_aabb().transformed(&pose_a.inv_compose(pose_b))
}

/// Whether two composites overlap, and the first pair of parts found overlapping.
#[must_use]
pub fn pair_intersects<V: Space, A: Composite<V> + ?Sized, B: Composite<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> Option<(u32, u32)> {
    let bb = box_of(pose_a, b, pose_b);
    let mut found = None;
    a.visit_overlaps(&bb, |i| {
        if let Some(j) = intersects(b, pose_b, &a.part(i), &part_pose(a, i, pose_a)) {
            found = Some((i, j));
            return false;
        }
        true
    });
    found
}

/// The distance between two composites: a best-first search over A's parts, each answered
/// by [`distance`] against B. `None` only for a composite without parts.
#[must_use]
pub fn pair_distance<V: Space, A: Composite<V> + ?Sized, B: Composite<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> Option<Found<DistanceOutput<V>>> {
    let bb = box_of(pose_a, b, pose_b);
    let mut best: Option<Found<DistanceOutput<V>>> = None;
    let mut lower = V::Real::INFINITY;
    let mut done = false;
    a.nearest(
        V::Real::INFINITY,
        |node| node.gap_squared(&bb).sqrt(),
        |i, _| {
            if done {
                return None;
            }
            let on = distance(b, pose_b, &a.part(i), &part_pose(a, i, pose_a));
            let out = on.value.flipped();
            lower = lower.min(out.lower_bound);
            let found = Found { value: out, part_a: Some(i), part_b: on.part_a, body: () };
            if matches!(out.status, GjkStatus::Overlapping | GjkStatus::NonFiniteSupport) {
                best = Some(found);
                done = true;
                return Some(V::Real::ZERO);
            }
            if best.is_none_or(|o| out.distance < o.value.distance) {
                best = Some(found);
                return Some(out.distance);
            }
            None
        },
    );
    best.map(|mut b| {
        b.value.lower_bound = b.value.lower_bound.min(lower);
        b
    })
}

/// The deepest contact between two composites within `margin`.
#[must_use]
pub fn pair_contact<V: Space, A: Composite<V> + ?Sized, B: Composite<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> Option<Found<Contact<V>>> {
    let margin = margin.max(V::Real::ZERO);
    let bb = box_of(pose_a, b, pose_b).loosened(margin);
    let mut best: Option<Found<Contact<V>>> = None;
    a.visit_overlaps(&bb, |i| {
        if let Some(on) = contact(b, pose_b, &a.part(i), &part_pose(a, i, pose_a), margin) {
            let c = on.value.flipped();
            if best.is_none_or(|o| c.distance < o.value.distance) {
                best = Some(Found { value: c, part_a: Some(i), part_b: on.part_a, body: () });
            }
        }
        true
    });
    best
}

/// The manifold of the deepest pair of parts of two composites within `margin` (the
/// manifold of one part of A against B, merged over B's parts), with that part of A and
/// the part of B of its deepest point. Empty when farther apart than `margin`.
#[must_use]
pub fn pair_manifold<V: Space, A: Composite<V> + ?Sized, B: Composite<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> Found<Manifold<V>> {
    let margin = margin.max(V::Real::ZERO);
    let bb = box_of(pose_a, b, pose_b).loosened(margin);
    let mut best = Found::new(Manifold::empty());
    let depth = |m: &Manifold<V>| m.deepest().map_or(f64::INFINITY, |p| p.distance.to_f64());
    a.visit_overlaps(&bb, |i| {
        let pm = manifold(b, pose_b, &a.part(i), &part_pose(a, i, pose_a), margin);
        if pm.manifold.is_empty() {
            return true;
        }
        if depth(&pm.manifold) < depth(&best.value) {
            let k = pm
                .manifold
                .points()
                .iter()
                .enumerate()
                .min_by(|x, y| x.1.distance.to_f64().total_cmp(&y.1.distance.to_f64()))
                .map_or(0, |(k, _)| k);
            best =
                Found { value: pm.manifold.flipped(), part_a: Some(i), part_b: Some(pm.parts[k]), body: () };
        }
        true
    });
    best
}

/// The earliest time of impact between two composites: each part of B cast against A
/// ([`shape_cast`]), with the time limit shrunk to the best so far. Every part of
/// B is tried (meant for small moving compounds). `None` when nothing is hit.
#[must_use]
pub fn pair_shape_cast<V: Space, A: Composite<V> + ?Sized, B: Composite<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    input: &CastInput<V>,
) -> Option<Found<CastOutput<V>>> {
    let mut best: Option<Found<CastOutput<V>>> = None;
    let mut failed: Option<Found<CastOutput<V>>> = None;
    let mut limit = input.max_toi;
    let turning_b = V::angular_speed(input.motion_b.angular_velocity) > V::Real::ZERO;
    for j in 0..b.part_count() as u32 {
        let part_input = CastInput { max_toi: limit, ..*input };
        let on = match b.part_pose(j) {
            // A turning B carries its parts on arcs about its origin (see shape_cast).
            Some(local) if turning_b => {
                shape_cast(a, pose_a, &Transformed { shape: b.part(j), pose: local }, pose_b, &part_input)
            }
            _ => shape_cast(a, pose_a, &b.part(j), &part_pose(b, j, pose_b), &part_input),
        };
        let Some(on) = on else {
            continue;
        };
        let found = Found { value: on.value, part_a: on.part_a, part_b: Some(j), body: () };
        match on.value.status {
            CastStatus::Failed => {
                if failed.as_ref().is_none_or(|f| on.value.safe_toi < f.value.safe_toi) {
                    failed = Some(found);
                }
            }
            CastStatus::Hit | CastStatus::StartedWithin => {
                if best.as_ref().is_none_or(|b| super::cast::earlier(&on.value, &b.value)) {
                    limit = on.value.toi;
                    best = Some(found);
                }
            }
            CastStatus::Miss => {}
        }
    }
    match (best, failed) {
        (Some(b), Some(f)) if f.value.safe_toi < b.value.toi => Some(f),
        (None, Some(f)) => Some(f),
        (b, _) => b,
    }
}
