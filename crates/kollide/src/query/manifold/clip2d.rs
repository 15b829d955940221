//! Contact manifolds in 2D: clipping the incident edge against the reference edge.
//!
//! The reference edge is the core face better aligned with the contact normal; the other
//! face (the incident edge, or a single point for curved cores) is cut to the strip the
//! reference edge sweeps along the normal, and each remaining point is paired with the
//! point of the reference edge straight across it along the normal. Radii then move the
//! points out along the normal. This is the 2D case of Sutherland–Hodgman clipping as in
//! Box2D's `b2ClipPolygons` (Catto, GDC 2007 "Contact manifolds"), rewritten for kollide's
//! core-plus-radius shapes and feature ids.

use super::{ContactId, Manifold, ManifoldPoint};
use crate::math::{Real, Vector2};
use crate::query::contact::output::CoreContact;
use crate::query::Space;
use crate::shape::{Feature, SupportFace};

/// Below this cosine between the contact normal and the reference edge's normal, points
/// projected along the normal onto the edge are ill-conditioned: clipping gives up and the
/// caller keeps the single contact point.
const MIN_ALIGNMENT: f64 = 0.1;

/// A face as clipping sees it: one or two corners with their features.
struct Side<V> {
    p: [V; 2],
    /// The feature of each corner.
    vertex: [Feature; 2],
    /// The feature of the whole face.
    whole: Feature,
    /// How many corners (1 or 2; two equal corners count as 1).
    len: usize,
}

impl<V: Vector2 + Space> Side<V> {
    fn of(face: &SupportFace<V>) -> Option<Self> {
        let pts = face.points();
        let whole = face.feature();
        match pts.len() {
            0 => None,
            1 => Some(Self { p: [pts[0]; 2], vertex: [whole; 2], whole, len: 1 }),
            _ => {
                let ids = face.ids();
                let last = pts.len() - 1;
                let len = if pts[0] == pts[last] { 1 } else { 2 };
                let vertex =
                    if len == 1 { [whole; 2] } else { [Feature::Vertex(ids[0]), Feature::Vertex(ids[last])] };
                Some(Self { p: [pts[0], pts[last]], vertex, whole, len })
            }
        }
    }

    /// `|cos|` of the angle between `n` and the edge's normal (0 for a single point).
    fn alignment(&self, n: V) -> V::Real {
        if self.len < 2 {
            return V::Real::ZERO;
        }
        // Scaled first: the square of a tiny edge (a capsule of half height 1e-217)
        // underflows to 0, and 0 / 0 made the choice of reference edge NaN.
        let e = self.p[1] - self.p[0];
        let size = e.abs_elem().max_component();
        if !crate::math::above(size, V::Real::ZERO) {
            return V::Real::ZERO;
        }
        let e = e / size;
        n.perp_dot2(e).abs() / e.length()
    }
}

/// Clips the core faces `face_a` and `face_b` (A's frame) along `contact` (radii added,
/// normal from A to B) into `out`, in A's frame: at most 2 points, each on both surfaces
/// (cores grown by `radius_a` and `radius_b` along the normal), no farther apart than
/// `margin`.
///
/// Ids: a corner of the incident edge kept whole is named by (reference edge, that
/// corner); a point cut at a side of the strip by (the reference edge's corner at that
/// side, the incident edge); each on A's side and B's side as [`ContactId`] says. A point
/// face (a ball's centre) is named by its own feature.
///
/// Degenerate input: two single points, or a reference edge nearly square to the normal,
/// push nothing (the caller keeps the contact point).
pub(crate) fn clip<V: Vector2 + Space>(
    face_a: &SupportFace<V>,
    face_b: &SupportFace<V>,
    contact: &CoreContact<V>,
    radius_a: V::Real,
    radius_b: V::Real,
    margin: V::Real,
    out: &mut Manifold<V>,
) {
    let (Some(sa), Some(sb)) = (Side::of(face_a), Side::of(face_b)) else {
        return;
    };
    let n = contact.normal;
    let (align_a, align_b) = (sa.alignment(n), sb.alignment(n));
    // Prefer A's edge unless B's is clearly better aligned (stable under small motions).
    let slack = V::Real::from_f64(1e-4);
    let a_is_ref = align_a + slack >= align_b;
    let (reference, incident, align) = if a_is_ref { (&sa, &sb, align_a) } else { (&sb, &sa, align_b) };
    if reference.len < 2 || align < V::Real::from_f64(MIN_ALIGNMENT) {
        return;
    }
    let (r0, r1) = (reference.p[0], reference.p[1]);
    // Outward normal of the reference edge (towards the other shape), not normalized: it
    // only enters the ratio giving `g` below. Brought near unit size by a power of two
    // (exact), so its products with positions do not overflow (an edge 2e175 long in f64
    // gave infinite and NaN points: fuzz target `queries`).
    let m = (r1 - r0).perp2();
    let mut m = m * m.abs_elem().max_component().recip_pow2();
    let towards = if a_is_ref { n } else { -n };
    if m.dot(towards) < V::Real::ZERO {
        m = -m;
    }
    // The strip swept by the reference edge along the normal: `t` across the normal.
    let t = n.perp2();
    let (t0, t1) = (t.dot(r0), t.dot(r1));
    let (lo, lo_end, hi, hi_end) = if t0 <= t1 { (t0, 0, t1, 1) } else { (t1, 1, t0, 0) };
    let scale = r0.abs_elem().max_elem(r1.abs_elem()).max_component();
    let tol = V::Real::EPSILON * V::Real::from_usize(8) * scale;
    let margin = margin.max(V::Real::ZERO);
    let (i0, i1) = (incident.p[0], incident.p[1]);
    let (s0, s1) = (t.dot(i0), t.dot(i1));
    let count = incident.len;
    for k in 0..count {
        let (p, s) = if k == 0 { (i0, s0) } else { (i1, s1) };
        let (o, so) = if k == 0 { (i1, s1) } else { (i0, s0) };
        // Keep the corner, or cut the incident edge at the side of the strip it is past.
        let (point, id_ref, id_inc) = if s >= lo - tol && s <= hi + tol {
            (p, reference.whole, incident.vertex[k])
        } else if count < 2 {
            continue;
        } else {
            let (bound, end) = if s < lo { (lo, lo_end) } else { (hi, hi_end) };
            // The other corner must be inside past this side for the edge to cross it.
            if (so - bound) * (s - bound) > V::Real::ZERO || so == s {
                continue;
            }
            let x = p + (o - p) * ((bound - s) / (so - s));
            (x, reference.vertex[end], incident.whole)
        };
        // Across the normal onto the reference edge's line: `point + n g` with m·(· - r0) = 0.
        let g = m.dot(r0 - point) / m.dot(n);
        let on_ref = point + n * g;
        let (core_a, core_b, gap, id) = if a_is_ref {
            (on_ref, point, -g, ContactId { a: id_ref, b: id_inc })
        } else {
            (point, on_ref, g, ContactId { a: id_inc, b: id_ref })
        };
        let distance = gap - radius_a - radius_b;
        if distance > margin {
            continue;
        }
        out.push(ManifoldPoint {
            point_a: core_a + n * radius_a,
            point_b: core_b - n * radius_b,
            distance,
            id,
        });
    }
}
