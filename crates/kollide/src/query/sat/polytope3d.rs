//! Separating axes between boxes and convex hulls in 3D, with the exact penetration depth.
//!
//! Two convex polyhedra are disjoint exactly when some face normal of either, or the cross
//! product of an edge of each, separates them; when none does, the least overlap over those
//! axes is the penetration depth (the faces of the Minkowski difference A ⊖ B are exactly
//! the face-vertex, vertex-face and edge-edge pairs). Only the edge pairs that build a face
//! of A ⊖ B matter: their arcs on the Gauss map cross (Gregorius, "The Separating Axis Test
//! between Convex Polyhedra", GDC 2013); every other pair is skipped with four dot products.
//!
//! Axes of nearly parallel edges (cross product below `4 √ε` of the edge lengths) are
//! skipped: their direction is rounding noise, and the faces around them give the depth
//! within `4 √ε` of the edges' length. When a face axis and an edge axis tie within
//! rounding, the face axis wins (the manifold of a face contact is stable from frame to
//! frame, the Box2D and Jolt habit).
//!
//! Accuracy: the depth is the overlap along the best axis computed in the query's
//! precision, within `1e-10·size` (`f64`) and `2e-5·size` (`f32`) of an `f64` brute force
//! over all candidate axes in the tests (`tests/contact_sat3d.rs`, sizes 1e-6 to 1e6).
//!
//! Cost: faces of both (one support call each) plus, for a box against anything, three
//! O(1) edge checks per edge of the other (the signs of the Gauss-map test name the one box
//! edge that can pair with it); two hulls test every edge pair. Past a few dozen edges GJK
//! and EPA are faster (they touch only the few vertices near the answer), so hull pairs
//! with more than [`MAX_EDGE_PAIRS`] edge pairs and boxes against hulls with more than
//! [`MAX_BOX_HULL_EDGES`] edges are left to them (measurements next to the constants).

use super::box_box3d;
use super::poly3d::{face_witness, Poly};
use super::{record, SatAxis, SatOutcome, SatTrace};
use crate::math::{Pose, Real, Rotation, Vector3};
use crate::query::contact::output::{ContactStatus, CoreContact};
use crate::query::Space;
use crate::shape::{Cuboid, Primitive};

/// Hull pairs with more edge pairs than this go to GJK and EPA: the edge loop is quadratic.
///
/// Measured on the bench's random sphere-point hulls (1000 pairs, about half overlapping,
/// f32, ns per overlapping / separated query, SAT vs GJK+EPA): 4 points (6 edges, 36 pairs)
/// 1650 / 320 vs 2820 / 670; 5 points (9 edges, 81 pairs) 3360 / 440 vs 2210 / 620;
/// 8 points (18 edges) 8870 / 630 vs 3830 / 860. SAT only wins for tetrahedron pairs.
pub(crate) const MAX_EDGE_PAIRS: usize = 36;

/// A box against a hull with more edges than this goes to GJK and EPA.
///
/// Measured as for [`MAX_EDGE_PAIRS`] (ns per overlapping / separated query, SAT vs
/// GJK+EPA): 12 points (30 edges) 3520 / 440 vs 3940 / 650; 20 points (54 edges)
/// 5380 / 600 vs 4770 / 740; 64 points (186 edges) 8800 / 500 vs 5040 / 880.
pub(crate) const MAX_BOX_HULL_EDGES: usize = 40;

/// Whether two polytope cores overlap without a contact: never answered in 3D (`None`),
/// where intersection questions go to GJK (see `query::dispatch`).
#[inline(always)]
pub(crate) fn overlaps<V: Vector3 + Space>(
    _a: Primitive<'_, V>,
    _b: Primitive<'_, V>,
    _pose_ab: &Pose<V>,
    _threshold: V::Real,
) -> Option<bool> {
    None
}

/// The separating-axis contact of two polytope cores (boxes, hulls), B placed by `pose_ab`
/// (B's pose in A's frame); everything returned is in A's frame. `NotApplicable` for other
/// primitives, for hull pairs with more than [`MAX_EDGE_PAIRS`] edge pairs and for boxes
/// against hulls with more than [`MAX_BOX_HULL_EDGES`] edges.
pub(crate) fn contact<V: Vector3 + Space>(
    a: Primitive<'_, V>,
    b: Primitive<'_, V>,
    pose_ab: &Pose<V>,
    threshold: V::Real,
    trace: SatTrace<'_, V>,
) -> SatOutcome<V> {
    match (a, b) {
        (Primitive::Box(ha), Primitive::Box(hb)) => box_box3d::contact(ha, hb, pose_ab, threshold, trace),
        (Primitive::Box(ha), Primitive::Hull(hb)) if hb.edges().len() <= MAX_BOX_HULL_EDGES => {
            polytopes(&Cuboid { half_extents: ha }, hb, pose_ab, threshold, trace)
        }
        (Primitive::Hull(ha), Primitive::Box(hb)) if ha.edges().len() <= MAX_BOX_HULL_EDGES => {
            polytopes(ha, &Cuboid { half_extents: hb }, pose_ab, threshold, trace)
        }
        (Primitive::Hull(ha), Primitive::Hull(hb))
            if ha.edges().len() * hb.edges().len() <= MAX_EDGE_PAIRS =>
        {
            polytopes(ha, hb, pose_ab, threshold, trace)
        }
        _ => SatOutcome::NotApplicable,
    }
}

/// Which axis gave the least overlap so far.
#[derive(Clone, Copy, Debug)]
enum Axis {
    FaceA(usize),
    FaceB(usize),
    Edges(usize, usize),
}

/// The separating-axis test over the faces of both and the Gauss-map-pruned edge pairs.
pub(crate) fn polytopes<V: Vector3 + Space, A: Poly<V>, B: Poly<V>>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    threshold: V::Real,
    mut trace: SatTrace<'_, V>,
) -> SatOutcome<V> {
    let m = pose_ab.rotation.applied();
    let rot = |v: V| <V::Rotation as Rotation<V>>::apply(&m, v);
    let unrot = |v: V| <V::Rotation as Rotation<V>>::apply_inverse(&m, v);
    let t = pose_ab.translation;
    let size = a.extent() + b.extent() + t.length();
    let bias = V::Real::EPSILON * V::Real::from_usize(16) * size;
    let neg_inf = -V::Real::INFINITY;
    let mut best_face = (neg_inf, Axis::FaceA(0), V::ZERO);
    let (mut ha, mut hb) = (crate::shape::NO_HINT, crate::shape::NO_HINT);
    for f in 0..a.face_count() {
        let (n, d) = a.face(f);
        let q = rot(b.support_point(unrot(-n), &mut hb)) + t;
        let sep = n.dot(q) - d;
        if sep > best_face.0 {
            best_face = (sep, Axis::FaceA(f), n);
        }
        record(&mut trace, SatAxis::FaceA(f), n, sep, best_face.0);
        if sep > threshold {
            return SatOutcome::Separated;
        }
    }
    for f in 0..b.face_count() {
        let (nb, d) = b.face(f);
        let n = rot(nb);
        let p = a.support_point(-n, &mut ha);
        let sep = n.dot(p - t) - d;
        // B's faces must beat A's by more than rounding.
        if sep > best_face.0 + bias {
            best_face = (sep, Axis::FaceB(f), -n);
        }
        record(&mut trace, SatAxis::FaceB(f), -n, sep, best_face.0);
        if sep > threshold {
            return SatOutcome::Separated;
        }
    }
    let mut best_edge = (neg_inf, Axis::Edges(0, 0), V::ZERO);
    let centre = a.centre();
    let cut = V::Real::from_usize(16) * V::Real::EPSILON;
    let box_a = a.box_half_extents();
    for j in 0..b.edge_count() {
        let (q0, q1, m0, m1) = b.edge(j);
        let (q0, eb, m0, m1) = (rot(q0) + t, rot(q1 - q0), rot(m0), rot(m1));
        // The edges' directions are made unit before their cross product: at 1e17 in f32
        // the product of the squared lengths overflowed, every edge pair looked parallel,
        // and a needle box 1e16 from a hull was reported penetrating (fuzz).
        let ub = eb / eb.length_safe();
        // The axis of A's edge `i` (from p0 along ea) and this edge, once their arcs are
        // known to cross; `true` when it separates by more than the threshold.
        let mut axis = |i: usize, p0: V, ea: V| {
            let l = (ea / ea.length_safe()).cross3(ub);
            let l2 = l.length_squared();
            // Nearly parallel (or a zero edge: NaN): the neighbouring faces decide.
            if l2.partial_cmp(&cut) != Some(core::cmp::Ordering::Greater) {
                return false;
            }
            let mut n = l / l2.sqrt();
            if n.dot(p0 - centre) < V::Real::ZERO {
                n = -n;
            }
            let sep = n.dot(q0 - p0);
            if sep > best_edge.0 {
                best_edge = (sep, Axis::Edges(i, j), n);
            }
            let best = if best_edge.0 > best_face.0 + bias { best_edge.0 } else { best_face.0 };
            record(&mut trace, SatAxis::Edges(i, j), n, sep, best);
            sep > threshold
        };
        if box_a.is_some() {
            // A box: along each axis k at most one of its four edges has an arc crossing
            // this one, and the signs say which. With the edge (k, su, sw) of `Cuboid::edge`
            // (ea = 2 h_k su sw e_k, normals su e_u and sw e_w) the three conditions below
            // read m0_k m1_k < 0, su = -sign(m0_k eb_w), sw = -su sign(eb_u eb_w).
            for k in 0..3 {
                let (u, w) = ((k + 1) % 3, (k + 2) % 3);
                let zero = V::Real::ZERO;
                if m0[k] * m1[k] >= zero || eb[u] == zero || eb[w] == zero {
                    continue;
                }
                let su = m0[k] * eb[w] < zero;
                let sw = (eb[u] * eb[w] < zero) == su;
                let e = 4 * k + usize::from(su) + 2 * usize::from(sw);
                let (p0, p1, ..) = a.edge(e);
                if axis(e, p0, p1 - p0) {
                    return SatOutcome::Separated;
                }
            }
            continue;
        }
        for i in 0..a.edge_count() {
            let (p0, p1, n0, n1) = a.edge(i);
            let ea = p1 - p0;
            // The arcs n0-n1 (A) and -m0 - -m1 (B) cross on the Gauss map (Gregorius 2013,
            // with the triple products written as dot products with the edge directions).
            let (x0, x1) = (m0.dot(ea), m1.dot(ea));
            let (y0, y1) = (n0.dot(eb), n1.dot(eb));
            if !(x0 * x1 < V::Real::ZERO && y0 * y1 < V::Real::ZERO && x0 * y1 < V::Real::ZERO) {
                continue;
            }
            if axis(i, p0, ea) {
                return SatOutcome::Separated;
            }
        }
    }
    let (sep, axis, normal) = if best_edge.0 > best_face.0 + bias { best_edge } else { best_face };
    // Apart by more than rounding: GJK measures the gap. Within rounding of touching, the
    // axis is the answer (GJK would find a zero gap with no direction in it).
    if sep > bias {
        return SatOutcome::Apart;
    }
    if let Axis::Edges(..) = axis {
        // An edge pair's separation is the distance between the edges' lines, which is the
        // gap between the projections only when those edges are the ones the shapes reach
        // along the axis. The Gauss-map test says so, but for an edge whose direction is
        // rounding noise (2.5e-13 long on a hull 150 across) it can be wrong, and the depth
        // then came out short of the overlap (fuzz). The projections decide: when they do
        // not agree, GJK and EPA answer.
        let on_b = rot(b.support_point(unrot(-normal), &mut hb)) + t;
        let gap = normal.dot(on_b) - normal.dot(a.support_point(normal, &mut ha));
        if (gap - sep).abs() > V::Real::from_usize(4) * bias {
            return SatOutcome::NotApplicable;
        }
    }
    // A normal that is not unit proves nothing (a face plane lost to overflow came out
    // zero, and the zero normal was reported with a depth of 0): GJK and EPA answer.
    let sixteenth = V::Real::ONE / V::Real::from_usize(16);
    let off_unit = (normal.length_squared() - V::Real::ONE).abs();
    if !off_unit.is_finite() || off_unit > sixteenth {
        return SatOutcome::NotApplicable;
    }
    let (point_a, point_b) = match axis {
        Axis::FaceA(f) => face_witness(a, b, pose_ab, f, normal, sep),
        Axis::FaceB(f) => {
            let flipped = Pose::new(pose_ab.inverse_transform_point(V::ZERO), pose_ab.rotation.inverse());
            let (pb, pa) = face_witness(b, a, &flipped, f, b.face(f).0, sep);
            (pose_ab.transform_point(pa), pose_ab.transform_point(pb))
        }
        Axis::Edges(i, j) => {
            let (p0, p1, ..) = a.edge(i);
            let (q0, q1, ..) = b.edge(j);
            crate::query::closed_form::segment_segment(p0, p1, rot(q0) + t, rot(q1) + t)
        }
    };
    let distance = sep;
    SatOutcome::Penetrating(CoreContact {
        distance,
        normal,
        point_a,
        point_b,
        status: ContactStatus::Converged,
    })
}

/// Hulls in 3D are measured by GJK: no closest-feature search here (two boxes have theirs,
/// see `query::box_distance`).
#[inline(always)]
pub(crate) fn distance<V: Vector3 + Space>(
    _a: Primitive<'_, V>,
    _b: Primitive<'_, V>,
    _pose_ab: &Pose<V>,
    _rel: V::Real,
) -> Option<crate::query::box_distance::FeatureGap<V>> {
    None
}
