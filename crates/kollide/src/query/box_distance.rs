//! The distance between two boxes without GJK: the closest features, found directly.
//!
//! Two convex polytopes are nearest at a vertex of one against the other, or at two edges
//! (Cameron and Culley 1986). A vertex against a box is a clamp of its coordinates to the
//! box's half extents, so the 2 x 2^d vertex cases cost a few operations each. Two edges are
//! nearest at interior points only when the gap is perpendicular to both, that is along one
//! of the d = 3 cross products of A's and B's axes, and then that axis separates the boxes
//! by the distance itself, more than any other axis: the edges are those that support the
//! boxes along the best-separating cross axis. (In 2D two segments that do not cross are
//! nearest at an endpoint, so the vertex cases are all there is.)
//!
//! Every direction `n` gives a lower bound, the gap between the boxes' supports along it;
//! taken along the best candidate's gap it certifies that candidate. When it does not (a
//! tie of faces makes the edge choice arbitrary, or the boxes overlap with no vertex inside
//! the other box) the caller runs GJK.

use crate::math::{Pose, Real, Rotation};
use crate::query::closed_form::segment_segment;
use crate::query::gjk::GjkStatus;
use crate::query::Space;

/// The closest points of two boxes' cores in A's frame, with certified bounds on their
/// distance.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct FeatureGap<V: Space> {
    pub pa: V,
    pub pb: V,
    pub len: V::Real,
    pub lower: V::Real,
    pub upper: V::Real,
    /// `Converged`, or `Overlapping` when a corner of one box lies in the other (to rounding).
    pub status: GjkStatus,
}

impl<V: Space> FeatureGap<V> {
    /// Points `pa`, `pb` found `len` apart, with `lower` a lower bound on the distance (both
    /// before rounding): the answer when the bounds, each widened by `slack`, meet within
    /// `rel` of the upper one or within `floor` (`Converged`); `None` when they do not, or
    /// when a number is not finite.
    pub(crate) fn certified(
        (pa, pb, len): (V, V, V::Real),
        lower: V::Real,
        slack: V::Real,
        floor: V::Real,
        rel: V::Real,
    ) -> Option<Self> {
        let (upper, lower) = (len + slack, lower - slack);
        let met = len.is_finite() && upper - lower <= (rel * upper).max(floor);
        met.then(|| Self {
            pa,
            pb,
            len,
            lower: lower.max(V::Real::ZERO),
            upper,
            status: GjkStatus::Converged,
        })
    }

    /// A point `x` common to both cores to rounding (`slack`): `Overlapping`, distance 0.
    pub(crate) fn overlapping(x: V, slack: V::Real) -> Self {
        let zero = V::Real::ZERO;
        Self { pa: x, pb: x, len: zero, lower: zero, upper: slack, status: GjkStatus::Overlapping }
    }
}

/// The distance between the box of half extents `he_a` at the origin and the box of half
/// extents `he_b` placed by `pose_ab`, in A's frame; `None` when the closest features
/// could not be certified within `rel` (the caller's GJK answers then).
#[inline(never)]
pub(crate) fn box_box_distance<V: Space>(
    he_a: V,
    he_b: V,
    pose_ab: &Pose<V>,
    rel: V::Real,
) -> Option<FeatureGap<V>> {
    let zero = V::Real::ZERO;
    let t = pose_ab.translation;
    let rotation = pose_ab.rotation.applied();
    let axes_b: [V; 3] =
        core::array::from_fn(
            |j| if j < V::DIM { V::Rotation::apply(&rotation, V::axis(j)) } else { V::ZERO },
        );
    // B's half axes in A's frame, and A's half axes in B's frame (the rows of the rotation).
    let half_b: [V; 3] = core::array::from_fn(|j| if j < V::DIM { axes_b[j] * he_b[j] } else { V::ZERO });
    let half_a: [V; 3] = core::array::from_fn(|i| {
        if i < V::DIM {
            V::Rotation::apply_inverse(&rotation, V::axis(i)) * he_a[i]
        } else {
            V::ZERO
        }
    });
    let t_in_b = -V::Rotation::apply_inverse(&rotation, t);

    // The vertex cases: each box's corners clamped to the other box, eight lanes at a time.
    let gaps_b = corner_gaps(t, &half_b, he_a);
    let gaps_a = corner_gaps(t_in_b, &half_a, he_b);
    // The smallest of the sixteen, as a tree of plain compares (`f32::min`'s NaN rule made a
    // serial chain; a NaN pose is caught by the finiteness tests).
    let lt = |x: V::Real, y: V::Real| if x < y { x } else { y };
    let mut m: [V::Real; CORNERS] = core::array::from_fn(|k| lt(gaps_b[k], gaps_a[k]));
    let mut width = CORNERS / 2;
    while width > 0 {
        for k in 0..width {
            m[k] = lt(m[k], m[k + width]);
        }
        width /= 2;
    }
    let best = m[0];
    if !(best.is_finite() && t.is_finite_vec()) {
        return None;
    }
    let (mut pa, mut pb) = if let Some(k) = gaps_b.iter().position(|&g| g == best) {
        let p = corner(t, &half_b, k);
        (p.max_elem(-he_a).min_elem(he_a), p)
    } else {
        // A's corner, and its nearest point of B mapped back to A's frame.
        let k = gaps_a.iter().position(|&g| g == best).unwrap_or(0);
        let q = corner(t_in_b, &half_a, k);
        let c = q.max_elem(-he_b).min_elem(he_b);
        let mut own = V::ZERO;
        for i in 0..V::DIM {
            own += V::axis(i) * if k >> i & 1 == 1 { he_a[i] } else { -he_a[i] };
        }
        (own, V::Rotation::apply(&rotation, c) + t)
    };

    // The size of the numbers, `|t| + |he_a| + |he_b|`. Each bound below is a sum of a
    // few products of numbers no larger (B's corners, the projections on a unit axis), with
    // B's axes from the rotation good to a few ulps: its rounding stays within 24 ulps of
    // the size (the ulps GJK allows a support point of that size).
    let size = t.length() + he_a.length() + he_b.length();
    if !size.is_finite() {
        // Squares beyond the largest float: GJK reports what can be said.
        return None;
    }
    let slack = V::Real::EPSILON * V::Real::from_usize(24) * size;
    let floor = V::Real::EPSILON * V::Real::from_usize(80) * size;
    if best == zero {
        // A corner of one box lies in the other (or on it), as far as its rounding tells:
        // the boxes overlap, or touch, or are apart by less than that rounding.
        return Some(FeatureGap::overlapping(pb, slack));
    }
    // The gap between the supports along unit `n`: a lower bound on the distance.
    let separation = |n: V| {
        let mut s = n.dot(t);
        for i in 0..V::DIM {
            s -= he_a[i] * n[i].abs() + n.dot(half_b[i]).abs();
        }
        s
    };
    let mut len = best.sqrt();
    let mut lower = separation((pb - pa) / len);
    if V::DIM == 3 && FeatureGap::certified((pa, pb, len), lower, slack, floor, rel).is_none() {
        // The edge cases: the cross axis that separates most, and its supporting edges.
        // For A's axis i and B's axis j (column j of the rotation R, `r[i][j]`), the axis
        // l = e_i x b_j has |l|² = r[i1][j]² + r[i2][j]² and separates by
        // |t · l| - ha[i1] |r[i2][j]| - ha[i2] |r[i1][j]| - hb[j1] |r[i][j2]| - hb[j2] |r[i][j1]|
        // before normalising (i1, i2 and j1, j2 the other two axes in cyclic order). The
        // winner's separation is computed again below along its unit axis: that one bounds.
        let r = |i: usize, j: usize| axes_b[j][i];
        let mut best_sep = -V::Real::INFINITY;
        let mut best_axis = (0usize, 0usize);
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let ll = r(i1, j) * r(i1, j) + r(i2, j) * r(i2, j);
                let tl = t[i2] * r(i1, j) - t[i1] * r(i2, j);
                let radii = he_a[i1] * r(i2, j).abs()
                    + he_a[i2] * r(i1, j).abs()
                    + he_b[j1] * r(i, j2).abs()
                    + he_b[j2] * r(i, j1).abs();
                let sep = (tl.abs() - radii) / ll.sqrt();
                if ll > V::Real::EPSILON && sep > best_sep {
                    best_sep = sep;
                    best_axis = (i, j);
                }
            }
        }
        let (i, j) = best_axis;
        let l = V::axis(i).cross_or_zero(axes_b[j]);
        let n = l / l.length();
        let n = if n.dot(t) < zero { -n } else { n };
        let best_sep = if best_sep > -V::Real::INFINITY { separation(n) } else { best_sep };
        if best_sep > lower && best_sep > zero {
            // A's edge along axis i at the corner that leads along n; B's along axis j at
            // the corner that leads along -n.
            let mut a_mid = V::ZERO;
            for k in 0..3 {
                if k != i {
                    a_mid += V::axis(k) * if n[k] < zero { -he_a[k] } else { he_a[k] };
                }
            }
            let a_half = V::axis(i) * he_a[i];
            let mut b_mid = t;
            for (k, h) in half_b.iter().enumerate() {
                if k != j {
                    b_mid = if n.dot(*h) < zero { b_mid + *h } else { b_mid - *h };
                }
            }
            let b_half = half_b[j];
            let (ea, eb) = segment_segment(a_mid - a_half, a_mid + a_half, b_mid - b_half, b_mid + b_half);
            let edge_len = (eb - ea).length();
            lower = lower.max(best_sep);
            if edge_len < len {
                (pa, pb, len) = (ea, eb, edge_len);
            }
        }
    }
    if lower <= zero {
        return None;
    }
    FeatureGap::certified((pa, pb, len), lower, slack, floor, rel)
}

/// Eight lanes: the corners of a box in 3D (in 2D the last four repeat the first four).
const CORNERS: usize = 8;

/// Corner `k` of the box centred at `centre` with half axes `half`: axis `j` taken forwards
/// when bit `j` of `k` is set.
#[inline(always)]
fn corner<V: Space>(centre: V, half: &[V; 3], k: usize) -> V {
    let mut p = centre;
    for (j, h) in half.iter().enumerate().take(V::DIM) {
        p = if k >> j & 1 == 1 { p + *h } else { p - *h };
    }
    p
}

/// The squared distance of each corner of the box (`centre`, `half`) to the box of half
/// extents `he` at the origin, axis by axis over eight lanes: `Σ_i max(|x_i| - he_i, 0)²`.
#[inline(always)]
fn corner_gaps<V: Space>(centre: V, half: &[V; 3], he: V) -> [V::Real; CORNERS] {
    let zero = V::Real::ZERO;
    let mut gaps = [zero; CORNERS];
    for i in 0..V::DIM {
        let mut x = [centre[i]; CORNERS];
        for (j, h) in half.iter().enumerate() {
            let h = h[i];
            for (k, x) in x.iter_mut().enumerate() {
                *x = if k >> j & 1 == 1 { *x + h } else { *x - h };
            }
        }
        for (g, x) in gaps.iter_mut().zip(x) {
            let e = (x.abs() - he[i]).max(zero);
            *g += e * e;
        }
    }
    gaps
}
