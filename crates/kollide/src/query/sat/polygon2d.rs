//! Separating axes between convex polygons and rectangles (2D).
//!
//! Two convex polygons are disjoint exactly when the outward normal of some edge of one of
//! them separates their projections, and when they overlap the shortest translation that
//! separates them is along one of these normals (the edges of the Minkowski difference are
//! the edges of both polygons). So the contact is the edge normal of greatest separation
//! (Gottschalk 1996; Ericson, *Real-Time Collision Detection* §5.2.1; the structure of
//! Box2D v3's `b2CollidePolygons` / `b2FindMaxSeparation`, read, not copied).
//!
//! Each edge's separation needs the other polygon's vertex lowest along the edge normal.
//! The normals of one polygon turn counter-clockwise edge after edge, and so does that
//! vertex: each search walks on from the previous answer over the other polygon's boundary
//! (unimodal along a convex polygon), so all edges of both cost `O(n + m)` dot products in
//! total, not `O(n m)`, with no vertex transformed. The first search starts from the
//! polygon's table of 8 extreme vertices.

use super::{record, SatAxis, SatOutcome, SatTrace};
use crate::math::{Pose, Real, Vector2};
use crate::query::box_distance::FeatureGap;
use crate::query::closed_form::segment_segment;
use crate::query::contact::output::{ContactStatus, CoreContact};
use crate::query::Space;
use crate::shape::{ConvexPolygon, Primitive};

/// A polygon core as vertices (counter-clockwise) and outward unit edge normals (edge `i`
/// runs from vertex `i` to vertex `i + 1`), in its own frame.
struct Outline<'a, V: Vector2 + Space> {
    verts: &'a [V],
    normals: &'a [V],
    /// The polygon, for its table of start vertices (`None` for a rectangle: 4 vertices are
    /// scanned).
    poly: Option<&'a ConvexPolygon<V>>,
    /// A lower bound of the support value along any unit direction (local frame).
    inner: V::Real,
    /// An upper bound of the support value along any unit direction: the scale of rounding.
    outer: V::Real,
}

impl<'a, V: Vector2 + Space> Outline<'a, V> {
    /// The outline of a rectangle or polygon core (`None` for other primitives); a
    /// rectangle's corners and normals are built into `rect`, which must outlive it.
    #[inline]
    fn of(p: Primitive<'a, V>, rect: &'a mut Option<([V; 4], [V; 4])>) -> Option<Self> {
        match p {
            Primitive::Box(h) => {
                let (verts, normals) = rect.insert(rectangle(h));
                Some(Outline { verts, normals, poly: None, inner: h[0].min(h[1]), outer: h.length() })
            }
            Primitive::Polygon(p) => Some(Outline {
                verts: p.vertices(),
                normals: p.normals(),
                poly: Some(p),
                inner: p.inner_radius(),
                outer: p.outer_radius(),
            }),
            _ => None,
        }
    }
}

/// The corners and edge normals of the rectangle `[-h, h]`, counter-clockwise from the
/// lower left (edges: bottom, right, top, left).
fn rectangle<V: Vector2 + Space>(h: V) -> ([V; 4], [V; 4]) {
    let (x, y) = (h[0], h[1]);
    let (o, z) = (V::Real::ONE, V::Real::ZERO);
    (
        [V::new2(-x, -y), V::new2(x, -y), V::new2(x, y), V::new2(-x, y)],
        [V::new2(z, -o), V::new2(o, z), V::new2(z, o), V::new2(-o, z)],
    )
}

impl<V: Vector2 + Space> Outline<'_, V> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.verts.len()
    }

    #[inline(always)]
    fn next(&self, k: usize) -> usize {
        if k + 1 == self.len() {
            0
        } else {
            k + 1
        }
    }

    #[inline(always)]
    fn prev(&self, k: usize) -> usize {
        if k == 0 {
            self.len() - 1
        } else {
            k - 1
        }
    }

    /// Whether `x` (in this outline's frame) lies inside it, or outside by at most `tol`:
    /// `n·(x - a) <= tol` for every edge. With more than [`ARC_FROM`] edges only an arc is
    /// tested, as in [`max_separation_arc`]: `n·(x - a) <= n·x - inner`, and outside the arc
    /// around the edge of largest `n·x` that bound, with the rounding of both allowed for,
    /// is below `tol`.
    #[inline]
    fn contains(&self, x: V, tol: V::Real) -> bool {
        let len = self.len();
        if len <= ARC_FROM {
            return self.contains_all(x, tol);
        }
        let inside = |i: usize| self.normals[i].dot(x - self.verts[i]) <= tol;
        let rise = |i: usize| self.normals[i].dot(x);
        let peak = self.peak(rise, self.facing(x));
        let margin = V::Real::EPSILON * V::Real::from_usize(32) * (x.length() + self.outer);
        let beyond = |i: usize| rise(i) - self.inner + margin < tol;
        if !inside(peak) {
            return false;
        }
        let (mut i, mut tried) = (self.next(peak), 1);
        while tried < len && !beyond(i) {
            if !inside(i) {
                return false;
            }
            (i, tried) = (self.next(i), tried + 1);
        }
        i = self.prev(peak);
        while tried < len && !beyond(i) {
            if !inside(i) {
                return false;
            }
            (i, tried) = (self.prev(i), tried + 1);
        }
        true
    }

    /// [`Outline::contains`] testing every edge.
    #[inline(always)]
    fn contains_all(&self, x: V, tol: V::Real) -> bool {
        self.normals.iter().zip(self.verts).all(|(n, v)| n.dot(x - *v) <= tol)
    }

    /// The edge where `rise` (a function of the edge normal, `n·d`) is largest, walked to
    /// uphill from edge `from`: `n·d` rises to one maximum around the outline and falls.
    #[inline(always)]
    fn peak(&self, rise: impl Fn(usize) -> V::Real, from: usize) -> usize {
        let mut peak = from;
        let forward = rise(self.next(from)) > rise(from);
        for _ in 0..self.len() {
            let k = if forward { self.next(peak) } else { self.prev(peak) };
            if rise(k) <= rise(peak) {
                break;
            }
            peak = k;
        }
        peak
    }

    /// An edge whose normal is near `d`: where the search for the best edge starts (for a
    /// separated pair, often the separating edge itself).
    #[inline]
    fn facing(&self, d: V) -> usize {
        match self.poly {
            Some(p) => self.prev(p.start_vertex(d)),
            // Rectangle edges: bottom, right, top, left.
            None => match (d[0].abs() >= d[1].abs(), d[0] >= V::Real::ZERO, d[1] >= V::Real::ZERO) {
                (true, true, _) => 1,
                (true, false, _) => 3,
                (false, _, true) => 2,
                (false, _, false) => 0,
            },
        }
    }

    /// A vertex near the lowest along `d`, to start [`Outline::lowest`] from.
    #[inline]
    fn start(&self, d: V) -> usize {
        match self.poly {
            Some(p) => p.start_vertex(-d),
            None => {
                let mut best = 0;
                for k in 1..self.len() {
                    if self.verts[k].dot(d) < self.verts[best].dot(d) {
                        best = k;
                    }
                }
                best
            }
        }
    }

    /// The vertex lowest along `d` and its dot product, walking downhill from vertex `i`.
    /// `p·d` along a convex polygon's boundary falls to one minimum and rises again, so the
    /// walk ends there. Equal values are walked over: an edge far shorter than the rounding
    /// of `p·d` reads as flat, and stopping there left the minimum unseen (a polygon with an
    /// edge 2e-100 long beside edges of 2 was found apart from a polygon it overlapped by
    /// 0.93: fuzz target `queries`). Each direction is capped at `n` steps.
    #[inline(always)]
    fn lowest(&self, d: V, i: usize) -> (usize, V::Real) {
        let v = self.verts;
        let di = v[i].dot(d);
        let mut best = (i, di);
        for forward in [true, false] {
            let (mut k, mut dk) = (i, di);
            for _ in 0..self.len() {
                let j = if forward { self.next(k) } else { self.prev(k) };
                let dj = v[j].dot(d);
                if dj > dk {
                    break;
                }
                (k, dk) = (j, dj);
                if dk < best.1 {
                    best = (k, dk);
                }
            }
            if best.0 != i {
                break;
            }
        }
        best
    }
}

/// The edge of `p` along whose outward normal `q` lies farthest out.
#[derive(Clone, Copy, Debug)]
struct Axis<R> {
    /// `min over q of n·x - n·p_edge`: positive when the edge separates the polygons,
    /// minus the overlap along its normal otherwise.
    sep: R,
    /// The edge of `p`.
    edge: usize,
    /// The vertex of `q` lowest along the edge's normal.
    vertex: usize,
}

/// Outlines of more edges than this search only an arc of their edges (see
/// [`max_separation_arc`]); smaller ones try every edge in turn.
const ARC_FROM: usize = 8;

/// The edge of `p` of greatest separation from `q` (`pose` places `q` in `p`'s frame)
/// among those separating by more than `floor`; `None` as soon as one separates them by
/// more than `threshold`. Each edge tried goes into `trace` (`p_is_b` with the pose of B in
/// A's frame when `p` is B, so the axes are recorded in A's frame; `shown_best` is the best
/// separation to report while no edge of `p` has beaten `floor`).
///
/// Edge `i` separates by `n·(t - a_i) - max over q of (-n)·x`, and that maximum is at least
/// `q.inner`: an edge whose bound `n·(t - a_i) - q.inner` cannot beat the best so far costs
/// one dot product. The search starts at the edge facing `q`, which is often the best (and
/// for separated shapes the one that proves it), so most other edges are skipped; ties go to
/// the first edge counter-clockwise from it. Outlines of more than [`ARC_FROM`] edges try
/// only an arc of them, with the same answer ([`max_separation_arc`]).
#[inline]
fn max_separation<V: Vector2 + Space>(
    p: &Outline<'_, V>,
    q: &Outline<'_, V>,
    pose: &Pose<V>,
    threshold: V::Real,
    floor: V::Real,
    trace: &mut SatTrace<'_, V>,
    (p_is_b, shown_best): (Option<&Pose<V>>, V::Real),
) -> Option<Axis<V::Real>> {
    if p.len() > ARC_FROM {
        return max_separation_arc(p, q, pose, threshold, floor, trace, (p_is_b, shown_best));
    }
    max_separation_all(p, q, pose, threshold, floor, trace, (p_is_b, shown_best))
}

/// [`max_separation`] trying every edge in turn, from the facing one.
#[inline(always)]
fn max_separation_all<V: Vector2 + Space>(
    p: &Outline<'_, V>,
    q: &Outline<'_, V>,
    pose: &Pose<V>,
    threshold: V::Real,
    floor: V::Real,
    trace: &mut SatTrace<'_, V>,
    (p_is_b, shown_best): (Option<&Pose<V>>, V::Real),
) -> Option<Axis<V::Real>> {
    let t = pose.translation;
    let mut best = Axis { sep: floor, edge: usize::MAX, vertex: 0 };
    let mut i = p.facing(t);
    let mut hint = usize::MAX;
    for _ in 0..p.len() {
        let n = p.normals[i];
        let offset = n.dot(t - p.verts[i]);
        if offset - q.inner > best.sep {
            // n·(R v + t - a) = (Rᵀ n)·v + n·(t - a): one rotation per edge, none per vertex.
            let nq = pose.inverse_transform_vector(n);
            if hint == usize::MAX {
                hint = q.start(nq);
            }
            let (j, low) = q.lowest(nq, hint);
            hint = j;
            let sep = low + offset;
            if sep > best.sep {
                best = Axis { sep, edge: i, vertex: j };
            }
            if trace.is_some() {
                let shown = if best.edge == usize::MAX { shown_best } else { best.sep };
                match p_is_b {
                    None => record(trace, SatAxis::FaceA(i), n, sep, shown),
                    Some(ab) => record(trace, SatAxis::FaceB(i), -ab.transform_vector(n), sep, shown),
                }
            }
            if sep > threshold {
                return None;
            }
        } else {
            // The lowest vertex moves on while edges are skipped: start afresh.
            hint = usize::MAX;
        }
        i = p.next(i);
    }
    Some(best)
}

/// [`max_separation`] of an outline of many edges, trying only an arc of them: the same
/// edge and separation (ties go to the edge first counter-clockwise from the facing one,
/// whatever order the edges are tried in), and the same `None`; the vertex of `q` may be
/// another of equal height where an edge of `q` lies square to the axis.
///
/// As `n·a_i >= p.inner`, edge `i`'s bound is at most `n·t - p.inner - q.inner`, and `n·t`
/// falls on both sides of its largest value around the polygon (the normals turn once
/// around the circle): the search starts at the edge of largest `n·t` (walked to from the
/// facing edge) and goes out both ways until that coarse bound, with the rounding of both
/// allowed for, falls below the best separation found; no edge beyond can reach it. For an
/// outline nearly round the arc is a few edges.
#[inline]
fn max_separation_arc<V: Vector2 + Space>(
    p: &Outline<'_, V>,
    q: &Outline<'_, V>,
    pose: &Pose<V>,
    threshold: V::Real,
    floor: V::Real,
    trace: &mut SatTrace<'_, V>,
    (p_is_b, shown_best): (Option<&Pose<V>>, V::Real),
) -> Option<Axis<V::Real>> {
    let t = pose.translation;
    let len = p.len();
    let facing = p.facing(t);
    let mut best = Axis { sep: floor, edge: usize::MAX, vertex: 0 };
    // The place of an edge in the order of the search over all edges, for ties.
    let order = |i: usize| if i >= facing { i - facing } else { i + len - facing };
    // Tries edge `i` with the vertex of `q` to start the walk from (`usize::MAX`: none);
    // returns the vertex the walk ended on (`usize::MAX` when the edge was skipped), or
    // `None` when the edge separates by more than `threshold`.
    let mut try_edge = |i: usize, hint: usize, best: &mut Axis<V::Real>| -> Option<usize> {
        let n = p.normals[i];
        let offset = n.dot(t - p.verts[i]);
        let before = |sep: V::Real, best: &Axis<V::Real>| {
            sep > best.sep || (sep == best.sep && best.edge != usize::MAX && order(i) < order(best.edge))
        };
        if !before(offset - q.inner, best) {
            return Some(usize::MAX);
        }
        // n·(R v + t - a) = (Rᵀ n)·v + n·(t - a): one rotation per edge, none per vertex.
        let nq = pose.inverse_transform_vector(n);
        let start = if hint == usize::MAX { q.start(nq) } else { hint };
        let (j, low) = q.lowest(nq, start);
        let sep = low + offset;
        if before(sep, best) {
            *best = Axis { sep, edge: i, vertex: j };
        }
        if trace.is_some() {
            let shown = if best.edge == usize::MAX { shown_best } else { best.sep };
            match p_is_b {
                None => record(trace, SatAxis::FaceA(i), n, sep, shown),
                Some(ab) => record(trace, SatAxis::FaceB(i), -ab.transform_vector(n), sep, shown),
            }
        }
        (sep <= threshold).then_some(j)
    };
    let rise = |i: usize| p.normals[i].dot(t);
    let peak = p.peak(rise, facing);
    // The rounding of `n·t` and of an edge's bound: a few ulps of the lengths involved.
    let margin = V::Real::EPSILON * V::Real::from_usize(32) * (t.length() + p.outer + q.outer);
    let beyond = |i: usize, best: &Axis<V::Real>| rise(i) - p.inner - q.inner + margin < best.sep;
    // The peak, then on counter-clockwise, then clockwise from the peak, each edge once (one
    // loop, so that `try_edge` is inlined once).
    let (mut i, mut hint, mut tried, mut forward, mut at_peak) = (peak, usize::MAX, 0, true, usize::MAX);
    loop {
        hint = try_edge(i, hint, &mut best)?;
        if tried == 0 {
            at_peak = hint;
        }
        tried += 1;
        if forward {
            let k = p.next(i);
            if tried < len && !beyond(k, &best) {
                i = k;
                continue;
            }
            (forward, i, hint) = (false, p.prev(peak), at_peak);
        } else {
            i = p.prev(i);
        }
        if tried >= len || beyond(i, &best) {
            return Some(best);
        }
    }
}

/// The witness of `axis`, in `p`'s frame: a point of `q`'s boundary on the edge's side
/// strip, and its projection onto the edge's line (a point of `p`'s boundary). The lowest
/// vertex of `q` when it lies beside the edge; otherwise the point where one of its two
/// edges crosses into the strip (the touching feature of `q` is then an edge parallel to
/// the reference edge). Returns the points and whether the vertex itself lay beside the
/// edge.
fn witness<V: Vector2 + Space>(
    p: &Outline<'_, V>,
    q: &Outline<'_, V>,
    pose: &Pose<V>,
    axis: &Axis<V::Real>,
    tol: V::Real,
) -> (V, V, bool) {
    let n = p.normals[axis.edge];
    let r0 = p.verts[axis.edge];
    let len = (p.verts[p.next(axis.edge)] - r0).length();
    let u = n.perp2();
    let w = pose.transform_point(q.verts[axis.vertex]);
    let s = u.dot(w - r0);
    let zero = V::Real::ZERO;
    let beside = s >= -tol && s <= len + tol;
    let mut on_q = w;
    if !beside {
        let bound = if s < zero { zero } else { len };
        let mut best: Option<(V::Real, V)> = None;
        for k in [q.prev(axis.vertex), q.next(axis.vertex)] {
            let wk = pose.transform_point(q.verts[k]);
            let sk = u.dot(wk - r0);
            if (sk - bound) * (s - bound) <= zero && sk != s {
                let x = w + (wk - w) * ((bound - s) / (sk - s));
                let depth = n.dot(x - r0);
                if best.is_none_or(|(d, _)| depth < d) {
                    best = Some((depth, x));
                }
            }
        }
        if let Some((_, x)) = best {
            on_q = x;
        }
    }
    let on_p = on_q - n * n.dot(on_q - r0);
    (on_p, on_q, beside)
}

/// The separating-axis contact of two polygon cores (rectangles `Primitive::Box`, convex
/// polygons `Primitive::Polygon`), B placed by `pose_ab` (B's pose in A's frame); other
/// primitives give `NotApplicable`.
///
/// - an edge normal separates the cores by more than `threshold`: `Separated`;
/// - they are apart by at most `threshold` along the best edge normal: `Apart` (the true
///   distance may be larger, at a pair of vertices: the caller asks GJK), except that a gap
///   within rounding of 0 with B's vertex beside A's edge (or the reverse) is a touching
///   contact;
/// - they overlap or touch: `Penetrating` with the minimum translation, in A's frame: the
///   exact depth (up to the rounding of the coordinates, a few `ε` times their magnitude),
///   the unit normal from A to B, and witness points on each core's boundary with
///   `point_b = point_a + distance * normal`.
///
/// When the best edges of A and B separate equally within rounding, A's edge is the axis,
/// so a manifold built on it does not flip between frames.
pub(crate) fn contact<V: Vector2 + Space>(
    a: Primitive<'_, V>,
    b: Primitive<'_, V>,
    pose_ab: &Pose<V>,
    threshold: V::Real,
    mut trace: SatTrace<'_, V>,
) -> SatOutcome<V> {
    let (mut rect_a, mut rect_b) = (None, None);
    let (Some(oa), Some(ob)) = (Outline::of(a, &mut rect_a), Outline::of(b, &mut rect_b)) else {
        return SatOutcome::NotApplicable;
    };
    let floor = -V::Real::INFINITY;
    let Some(axis_a) = max_separation(&oa, &ob, pose_ab, threshold, floor, &mut trace, (None, floor)) else {
        return SatOutcome::Separated;
    };
    // Rounding of a separation: a few ulps of the largest length involved.
    let scale = oa.outer + ob.outer + pose_ab.translation.length();
    let tol = V::Real::EPSILON * V::Real::from_usize(16) * scale;
    // B's edges must beat A's best by more than rounding (A's axis wins ties, so manifolds
    // do not flip between frames).
    let pose_ba = pose_ab.inverse();
    let shown = (Some(pose_ab), axis_a.sep);
    let Some(axis_b) = max_separation(&ob, &oa, &pose_ba, threshold, axis_a.sep + tol, &mut trace, shown)
    else {
        return SatOutcome::Separated;
    };
    let use_b = axis_b.edge != usize::MAX;
    let sep = if use_b { axis_b.sep } else { axis_a.sep };
    if sep > tol {
        return SatOutcome::Apart;
    }
    let (normal, point_a, point_b, beside) = if use_b {
        // B's edge is the reference: work in B's frame, then map back.
        let (on_b, on_a, beside) = witness(&ob, &oa, &pose_ba, &axis_b, tol);
        let normal = -pose_ab.transform_vector(ob.normals[axis_b.edge]);
        (normal, pose_ab.transform_point(on_a), pose_ab.transform_point(on_b), beside)
    } else {
        let (on_a, on_b, beside) = witness(&oa, &ob, pose_ab, &axis_a, tol);
        (oa.normals[axis_a.edge], on_a, on_b, beside)
    };
    if sep > V::Real::ZERO && !beside {
        // A gap within rounding of 0 along the edge, but the nearest vertex is past its end:
        // the distance may be larger (vertex to vertex), GJK measures it.
        return SatOutcome::Apart;
    }
    SatOutcome::Penetrating(CoreContact {
        distance: sep,
        normal,
        point_a,
        point_b,
        status: ContactStatus::Converged,
    })
}

/// Whether two polygon cores (rectangles, convex polygons) overlap, B placed by `pose_ab`,
/// where the edges decide it: `Some(false)` when an edge separates them by more than
/// `threshold` ([`contact`] says `Separated`), `Some(true)` when the best separating edge
/// (chosen as [`contact`] chooses it) does not separate them at all (its contact would be
/// `Penetrating` at a depth of zero or more); `None` otherwise, and for other primitives.
/// The same edges as [`contact`], without its witness points.
pub(crate) fn overlaps<V: Vector2 + Space>(
    a: Primitive<'_, V>,
    b: Primitive<'_, V>,
    pose_ab: &Pose<V>,
    threshold: V::Real,
) -> Option<bool> {
    let (mut rect_a, mut rect_b) = (None, None);
    let (oa, ob) = (Outline::of(a, &mut rect_a)?, Outline::of(b, &mut rect_b)?);
    let floor = -V::Real::INFINITY;
    let mut no_trace: SatTrace<'_, V> = None;
    let Some(axis_a) = max_separation(&oa, &ob, pose_ab, threshold, floor, &mut no_trace, (None, floor))
    else {
        return Some(false);
    };
    let scale = oa.outer + ob.outer + pose_ab.translation.length();
    let tol = V::Real::EPSILON * V::Real::from_usize(16) * scale;
    let pose_ba = pose_ab.inverse();
    let Some(axis_b) =
        max_separation(&ob, &oa, &pose_ba, threshold, axis_a.sep + tol, &mut no_trace, (None, floor))
    else {
        return Some(false);
    };
    let sep = if axis_b.edge != usize::MAX { axis_b.sep } else { axis_a.sep };
    (sep <= V::Real::ZERO).then_some(true)
}

/// The distance between two polygon cores (rectangles, convex polygons) by their closest
/// features, B placed by `pose_ab`, in A's frame; `None` for other primitives, or when the
/// features found are not certified within `rel` (the caller's GJK answers then).
///
/// Apart, two convex polygons are nearest at a vertex of one against an edge of the other.
/// The edge of greatest separation and the other polygon's vertex lowest along its normal
/// are nearest when the vertex lies beside the edge; otherwise the nearest pair is at the
/// edge's end: that end against the vertex's two edges, or the vertex against the next edge
/// of the reference polygon. The gap between the supports along the best candidate's
/// direction certifies it. Overlapping, that lowest vertex is a common point when it lies
/// inside the reference polygon (it is on its own polygon's boundary).
pub(crate) fn distance<V: Vector2 + Space>(
    a: Primitive<'_, V>,
    b: Primitive<'_, V>,
    pose_ab: &Pose<V>,
    rel: V::Real,
) -> Option<FeatureGap<V>> {
    let (mut rect_a, mut rect_b) = (None, None);
    let (Some(oa), Some(ob)) = (Outline::of(a, &mut rect_a), Outline::of(b, &mut rect_b)) else {
        return None;
    };
    let (zero, inf) = (V::Real::ZERO, V::Real::INFINITY);
    let scale = oa.outer + ob.outer + pose_ab.translation.length();
    if !scale.is_finite() {
        // Squares beyond the largest float: GJK reports what can be said.
        return None;
    }
    let tol = V::Real::EPSILON * V::Real::from_usize(16) * scale;
    // (Rounding of the bounds: 24 ulps of the size, as for two boxes.)
    let slack = V::Real::EPSILON * V::Real::from_usize(24) * scale;
    let floor = V::Real::EPSILON * V::Real::from_usize(80) * scale;
    let pose_ba = pose_ab.inverse();
    let overlapping = |x: V| FeatureGap::overlapping(x, slack);
    // First the edge of each polygon facing the other (of many edges, the one whose normal
    // is nearest the direction to the other's origin), without the search over all edges:
    // when it separates and the other's lowest vertex lies beside it, that vertex and its
    // projection are the nearest pair (the separation is a lower bound, their gap equals
    // it); when it does not separate, that vertex is often inside the facing polygon.
    for (p, q, pose, use_b) in [(&oa, &ob, pose_ab, false), (&ob, &oa, &pose_ba, true)] {
        let to_a = |x: V| if use_b { pose_ab.transform_point(x) } else { x };
        let t = pose.translation;
        let e = if p.len() > ARC_FROM { p.peak(|i| p.normals[i].dot(t), p.facing(t)) } else { p.facing(t) };
        let n = p.normals[e];
        let nq = pose.inverse_transform_vector(n);
        let (j, low) = q.lowest(nq, q.start(nq));
        let sep = low + n.dot(pose.translation - p.verts[e]);
        let w = pose.transform_point(q.verts[j]);
        if sep > tol {
            let (r0, r1) = (p.verts[e], p.verts[p.next(e)]);
            let u = r1 - r0;
            let s = u.dot(w - r0);
            if s >= zero && s <= u.length_squared() {
                let on_p = w - n * n.dot(w - r0);
                let len = (w - on_p).length();
                let (pa, pb) = if use_b { (to_a(w), to_a(on_p)) } else { (on_p, w) };
                if let Some(found) = FeatureGap::certified((pa, pb, len), sep, slack, floor, rel) {
                    return Some(found);
                }
            }
        } else if sep <= zero && p.contains(w, tol) {
            return Some(overlapping(to_a(w)));
        }
    }
    let mut no_trace: SatTrace<'_, V> = None;
    let axis_a = max_separation(&oa, &ob, pose_ab, inf, -inf, &mut no_trace, (None, -inf))?;
    let axis_b = max_separation(&ob, &oa, &pose_ba, inf, axis_a.sep + tol, &mut no_trace, (None, -inf))?;
    // Work in the frame of the reference polygon `p`; `q` is placed in it by `pose`.
    let use_b = axis_b.edge != usize::MAX;
    let (p, q, pose, axis) = if use_b { (&ob, &oa, &pose_ba, axis_b) } else { (&oa, &ob, pose_ab, axis_a) };
    let to_a = |x: V| if use_b { pose_ab.transform_point(x) } else { x };
    let w = pose.transform_point(q.verts[axis.vertex]);
    if axis.sep <= zero {
        return p.contains(w, tol).then(|| overlapping(to_a(w)));
    }
    // Point `x` against segment `s0 s1` (a point is a segment of length 0): the point on
    // the segment, and the squared distance.
    let point_segment = |x: V, s0: V, s1: V| {
        let (_, y) = segment_segment(x, x, s0, s1);
        (y, (x - y).length_squared())
    };
    let e = axis.edge;
    let (r0, r1) = (p.verts[e], p.verts[p.next(e)]);
    // (point on p, point on q, squared gap)
    let (on_p, d2) = point_segment(w, r0, r1);
    let mut best = (on_p, w, d2);
    let s = (r1 - r0).dot(w - r0);
    if s <= zero || s >= (r1 - r0).length_squared() {
        // Past an end `r` of the edge: `r` against the vertex's edges, the vertex against
        // the reference polygon's edge beyond `r`.
        let (r, beyond) = if s <= zero { (r0, p.verts[p.prev(e)]) } else { (r1, p.verts[p.next(p.next(e))]) };
        let (on_p, d2) = point_segment(w, r, beyond);
        if d2 < best.2 {
            best = (on_p, w, d2);
        }
        for k in [q.prev(axis.vertex), q.next(axis.vertex)] {
            let (on_q, d2) = point_segment(r, w, pose.transform_point(q.verts[k]));
            if d2 < best.2 {
                best = (r, on_q, d2);
            }
        }
    }
    let (on_p, on_q, d2) = best;
    let len = d2.sqrt();
    if !(len > zero && len.is_finite()) {
        return None;
    }
    // The gap between the supports along the candidate's direction: `p`'s highest vertex
    // along `n`, `q`'s lowest, each walked to from the candidate's own vertex.
    let n = (on_q - on_p) / len;
    let (_, p_low) = p.lowest(-n, e);
    let (_, q_low) = q.lowest(pose.inverse_transform_vector(n), axis.vertex);
    let lower = (q_low + n.dot(pose.translation) + p_low).max(axis.sep);
    let (pa, pb) = if use_b { (to_a(on_q), to_a(on_p)) } else { (on_p, on_q) };
    // (A NaN anywhere fails the test: GJK answers then.)
    FeatureGap::certified((pa, pb, len), lower, slack, floor, rel)
}

#[cfg(test)]
mod tests {
    use super::{contact, max_separation_all, max_separation_arc, overlaps, Outline};
    use crate::math::Pose;
    use crate::query::sat::SatOutcome;
    use crate::shape::{ConvexPolygon, Primitive};
    use glam::Vec2;
    use rand::{Rng, SeedableRng};

    /// Convex polygons of 9 to 80 vertices: nearly round, long and thin, with clusters of
    /// vertices (edges far shorter than the others), and on a coarse integer grid (parallel
    /// edges and equal separations).
    fn polygon(rng: &mut impl Rng, kind: u32) -> ConvexPolygon<Vec2> {
        loop {
            let n = rng.random_range(9..80);
            let scale = Vec2::new(rng.random_range(0.2..3.0), rng.random_range(0.2..3.0));
            let points: Vec<Vec2> = (0..n)
                .map(|k| {
                    let a = match kind {
                        0 => core::f32::consts::TAU * k as f32 / n as f32,
                        2 => rng.random_range(0..4) as f32 * 1.5 + rng.random_range(0.0..1e-3),
                        _ => rng.random_range(0.0..core::f32::consts::TAU),
                    };
                    let p = Vec2::new(a.cos(), a.sin()) * if kind == 1 { scale } else { Vec2::ONE };
                    if kind == 3 {
                        (p * 6.0).round()
                    } else {
                        p
                    }
                })
                .collect();
            if let Ok(poly) = ConvexPolygon::try_from_points(&points) {
                if poly.vertices().len() > super::ARC_FROM {
                    return poly;
                }
            }
        }
    }

    /// The arc of edges gives the edge, separation and early exit of the search over every
    /// edge, on polygons apart, touching and overlapping, turned at random or by quarter
    /// turns (exact ties between parallel edges).
    #[test]
    fn arc_search_finds_the_edge_of_the_full_search() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x5a7);
        let (mut r1, mut r2) = (None, None);
        for case in 0..20_000 {
            let (pa, pb) = (polygon(&mut rng, case % 4), polygon(&mut rng, (case / 4) % 4));
            let angle = if case % 3 == 0 {
                core::f32::consts::FRAC_PI_2 * rng.random_range(0..4) as f32
            } else {
                rng.random_range(0.0..core::f32::consts::TAU)
            };
            let dir = rng.random_range(0.0..core::f32::consts::TAU);
            let reach = rng.random_range(0.0..8.0);
            let t = if case % 5 == 0 {
                (Vec2::new(dir.cos(), dir.sin()) * reach).round()
            } else {
                Vec2::new(dir.cos(), dir.sin()) * reach
            };
            let pose = Pose::from_angle(t, angle);
            let oa = Outline::of(Primitive::Polygon(&pa), &mut r1).unwrap();
            let ob = Outline::of(Primitive::Polygon(&pb), &mut r2).unwrap();
            for (threshold, floor) in
                [(f32::INFINITY, f32::NEG_INFINITY), (0.0, f32::NEG_INFINITY), (f32::INFINITY, -0.5)]
            {
                let all = max_separation_all(&oa, &ob, &pose, threshold, floor, &mut None, (None, floor));
                let arc = max_separation_arc(&oa, &ob, &pose, threshold, floor, &mut None, (None, floor));
                match (all, arc) {
                    (None, None) => {}
                    (Some(x), Some(y)) => {
                        assert_eq!(
                            (x.edge, x.sep),
                            (y.edge, y.sep),
                            "case {case}: {t} {angle} {threshold} {floor}"
                        );
                    }
                    _ => panic!("case {case}: {all:?} against {arc:?}"),
                }
            }
            // Points inside, on and outside the outline.
            for _ in 0..8 {
                let x = Vec2::new(rng.random_range(-4.0..4.0), rng.random_range(-4.0..4.0));
                let x = if case % 2 == 0 { x * 0.5 } else { x };
                for tol in [0.0, 1e-6, 0.01] {
                    assert_eq!(oa.contains(x, tol), oa.contains_all(x, tol), "case {case}: {x} {tol}");
                }
            }
            for &v in pa.vertices() {
                assert_eq!(oa.contains(v, 0.0), oa.contains_all(v, 0.0), "case {case}: vertex {v}");
            }
        }
    }

    /// Where the edges decide an overlap, it is the contact's answer: `Separated` for
    /// `false`, `Penetrating` at a depth of zero or more for `true`; on polygons and
    /// rectangles apart, touching (integer grids) and overlapping.
    #[test]
    fn overlap_by_edges_is_the_contacts_answer() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x0e1);
        let (mut decided, mut rects) = (0, 0);
        for case in 0..20_000u32 {
            let pa = polygon(&mut rng, case % 4);
            let pb = polygon(&mut rng, (case / 4) % 4);
            let half = Vec2::new(rng.random_range(0.1..2.0f32), rng.random_range(0.1..2.0f32))
                .round()
                .max(Vec2::ONE);
            let a = if case % 3 == 0 { Primitive::Box(half) } else { Primitive::Polygon(&pa) };
            let b = Primitive::Polygon(&pb);
            let angle = core::f32::consts::FRAC_PI_2 * rng.random_range(0..4) as f32;
            let angle = if case % 2 == 0 { angle } else { rng.random_range(0.0..core::f32::consts::TAU) };
            let t = Vec2::new(rng.random_range(-5.0..5.0f32), rng.random_range(-5.0..5.0f32));
            let t = if case % 5 == 0 { t.round() } else { t };
            let pose = Pose::from_angle(t, angle);
            let threshold = if case % 7 == 0 { 0.25 } else { 1e-5 };
            let Some(hit) = overlaps(a, b, &pose, threshold) else { continue };
            decided += 1;
            rects += usize::from(case % 3 == 0);
            match contact(a, b, &pose, threshold, None) {
                SatOutcome::Separated => assert!(!hit, "case {case}"),
                SatOutcome::Penetrating(c) => {
                    assert!(hit && c.distance <= 0.0, "case {case}: {}", c.distance)
                }
                other => panic!("case {case}: decided {hit}, the contact says {other:?}"),
            }
        }
        assert!(decided > 15_000 && rects > 4_000, "{decided} decided, {rects} with a rectangle");
    }
}
