//! A box against a point or a segment core (a ball or a capsule on a box), 2D and 3D:
//! separating axes with exact witnesses.
//!
//! The Minkowski difference of a box and a segment is a polytope whose face normals are the
//! box's axes and, in 3D, the cross products of the segment with the box's axes (in 2D the
//! segment's normal). The least overlap over those axes is the exact penetration depth; a
//! point core has only the box's axes.

use super::SatOutcome;
use crate::math::Real;
use crate::query::closed_form::segment_segment;
use crate::query::contact::output::{ContactStatus, CoreContact};
use crate::query::Space;

/// The best axis so far: separation along `normal` (from the box towards the segment) and
/// which kind of axis it is.
#[derive(Clone, Copy)]
struct Axis<V: Space> {
    separation: V::Real,
    normal: V,
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Box face `i`.
    Face(usize),
    /// In 3D the cross product of the segment with box axis `i`; in 2D the segment's normal.
    Edge(usize),
}

/// The contact of the box `[-h, h]` (core of A, in its own frame) with the segment `p q`
/// (core of B, a point when `p == q`) in the same frame; `threshold` is how far apart the
/// cores are of interest.
pub(crate) fn segment_box<V: Space>(h: V, p: V, q: V, threshold: V::Real) -> SatOutcome<V> {
    let zero = V::Real::ZERO;
    let mag = h.max_elem(p.abs_elem()).max_elem(q.abs_elem()).max_component();
    // Ties within rounding go to the face axes, whose witnesses make steadier manifolds.
    let bias = V::Real::EPSILON * V::Real::from_usize(32) * mag;
    let mut best: Option<Axis<V>> = None;
    let mut offer = |axis: Axis<V>| {
        let better = match (best, axis.kind) {
            (None, _) => true,
            (Some(b), Kind::Face(_)) => axis.separation > b.separation,
            (Some(b), Kind::Edge(_)) => axis.separation > b.separation + bias,
        };
        if better {
            best = Some(axis);
        }
    };
    for i in 0..V::DIM {
        // Along +e_i and -e_i: the segment's least coordinate against the box's face.
        offer(Axis { separation: p[i].min(q[i]) - h[i], normal: V::axis(i), kind: Kind::Face(i) });
        offer(Axis { separation: -p[i].max(q[i]) - h[i], normal: -V::axis(i), kind: Kind::Face(i) });
    }
    let d = q - p;
    let dd = d.length_squared();
    if dd > zero {
        let mut edge = |u: V, i: usize| {
            let len = u.length();
            // Nearly parallel to a box axis: that axis is a face axis already.
            if len <= V::Real::EPSILON.sqrt() * dd.sqrt() {
                return;
            }
            let u = u / len;
            let reach = h.mul_elem(u).abs_elem().dot(V::splat(V::Real::ONE));
            for n in [u, -u] {
                offer(Axis { separation: p.dot(n).min(q.dot(n)) - reach, normal: n, kind: Kind::Edge(i) });
            }
        };
        if V::DIM == 3 {
            for i in 0..3 {
                edge(d.cross_or_zero(V::axis(i)), i);
            }
        } else {
            edge(V::from_f64_array([-d[1].to_f64(), d[0].to_f64(), 0.0]), 0);
        }
    }
    let Some(axis) = best else { return SatOutcome::NotApplicable };
    if axis.separation > threshold {
        return SatOutcome::Separated;
    }
    if axis.separation > zero {
        return SatOutcome::Apart;
    }
    let depth = -axis.separation;
    let n = axis.normal;
    let (point_a, point_b) = match axis.kind {
        Kind::Face(i) => {
            // B's point and its projection on the face (the two are `depth` apart, up to
            // rounding, when the deepest end is over the face).
            let b = deepest_on_face(h, p, q, n, i);
            (b + n * (h[i] - b.dot(n)), b)
        }
        Kind::Edge(i) if V::DIM == 3 => {
            // The box edge along axis i that is farthest along n, against the segment.
            let corner = h.mul_elem(n.sign_elem());
            let half = V::axis(i) * h[i];
            let centre = corner - V::axis(i) * corner[i];
            segment_segment(centre - half, centre + half, p, q)
        }
        Kind::Edge(_) => {
            // 2D: the box corner farthest along n, and its foot on the segment.
            let corner = h.mul_elem(n.sign_elem());
            (corner, corner - n * depth)
        }
    };
    SatOutcome::Penetrating(CoreContact {
        distance: -depth,
        normal: n,
        point_a,
        point_b,
        status: ContactStatus::Converged,
    })
}

/// The point of the segment deepest along `-n` (n is ± axis `i`) among those over the box's
/// face: the foot of the penetration lies over the face, so when the deepest end does not
/// (a segment lying flat on the face, within rounding) the deepest point of its part over
/// the face is taken.
fn deepest_on_face<V: Space>(h: V, p: V, q: V, n: V, i: usize) -> V {
    let d = q - p;
    // Clip the segment to the slab |x_j| <= h_j for the axes j other than i.
    let (mut t0, mut t1) = (V::Real::ZERO, V::Real::ONE);
    for j in (0..V::DIM).filter(|&j| j != i) {
        if d[j] != V::Real::ZERO {
            let (a, b) = ((-h[j] - p[j]) / d[j], (h[j] - p[j]) / d[j]);
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
        }
    }
    if t0 > t1 {
        (t0, t1) = (V::Real::ZERO, V::Real::ONE);
    }
    let (x0, x1) = (p + d * t0, p + d * t1);
    if x0.dot(n) <= x1.dot(n) {
        x0
    } else {
        x1
    }
}
