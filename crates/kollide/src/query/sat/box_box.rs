//! Box-box overlap by the separating-axis theorem (Gottschalk, Lin, Manocha 1996, "OBBTree";
//! Ericson, *Real-Time Collision Detection*, §4.4.1), written once for 2D and 3D.
//!
//! Two convex polytopes are disjoint exactly when some axis separates their projections;
//! for two boxes the candidates are the face normals of each (2 + 2 in 2D, 3 + 3 in 3D) and
//! in 3D the 9 cross products of their edge directions.

use crate::math::{Pose, Real};
use crate::query::Space;

/// Whether the boxes `[-he_a, he_a]` (in A's frame) and `[-he_b, he_b]` placed by `pose_ab`
/// (B's pose in A's frame) overlap. Touching counts as overlapping, and so does a gap
/// within the rounding of the coordinates: `false` means an axis separates them by more
/// than the rounding slack, as in [`crate::query::intersection_test`].
#[inline]
pub(crate) fn boxes_intersect<V: Space>(he_a: V, he_b: V, pose_ab: &Pose<V>) -> bool {
    let t = pose_ab.translation;
    let axes_b: [V; 3] =
        core::array::from_fn(|j| if j < V::DIM { pose_ab.transform_vector(V::axis(j)) } else { V::ZERO });
    // Rounding of the projections below: a few ulps of the largest length involved. An
    // edge-edge axis of near-parallel edges is short and its direction uncertain by
    // ~eps/|l|, so its slack does not shrink with |l| (the `+ 1`).
    let mut size = t.abs_elem().max_component();
    for i in 0..V::DIM {
        size += he_a[i] + he_b[i];
    }
    let ulps = V::Real::EPSILON * V::Real::from_usize(16) * size;
    let separates = |l: V, unit: bool| {
        let mut radii = V::Real::ZERO;
        for (i, axis_b) in axes_b.iter().enumerate().take(V::DIM) {
            radii += he_a[i] * l[i].abs() + he_b[i] * l.dot(*axis_b).abs();
        }
        let slack = if unit { ulps } else { ulps * (l.length() + V::Real::ONE) };
        l.dot(t).abs() > radii + slack
    };
    for (i, axis_b) in axes_b.iter().enumerate().take(V::DIM) {
        if separates(V::axis(i), true) || separates(*axis_b, true) {
            return false;
        }
    }
    if V::DIM == 3 {
        for i in 0..3 {
            for axis_b in &axes_b {
                if separates(V::axis(i).cross_or_zero(*axis_b), false) {
                    return false;
                }
            }
        }
    }
    true
}
