//! Contact manifolds in 3D: the incident face clipped against the sides of the reference
//! face (Sutherland–Hodgman, "Reentrant Polygon Clipping", CACM 1974), the survivors
//! projected on the reference plane, then reduced to at most four points spanning the
//! largest area (the reduction of Jolt's `PruneContactPoints`: deepest, farthest from it,
//! then the largest triangles on either side of that line).
//!
//! Every clipped point carries the names of the features that made it: a corner of the
//! incident face inside the reference face, a crossing of an incident edge with a side of the
//! reference face, or a corner of the reference face inside the incident face. The names
//! depend only on which features touch, so they are unchanged by small motions.

use super::{ContactId, Manifold, ManifoldPoint, MAX_MANIFOLD_POINTS};
use crate::math::{Real, Vector3};
use crate::query::contact::output::CoreContact;
use crate::query::Space;
use crate::shape::{Feature, SupportFace, MAX_FACE_POINTS};

/// Room for a clipped polygon: each of up to 32 side planes adds at most one corner.
const MAX_CLIPPED: usize = 2 * MAX_FACE_POINTS;

/// What a clipped point is, in terms of the two faces (reference first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClipId {
    /// Corner `id` of the incident face.
    Incident(u32),
    /// Side `(i, j)` of the reference face (vertex ids) crossed by incident edge `(k, l)`.
    Crossing(u32, u32, u32, u32),
    /// Corner `id` of the reference face.
    Reference(u32),
}

/// Which edge leaves a corner of the polygon being clipped.
#[derive(Clone, Copy, Debug)]
enum EdgeLabel {
    /// Part of the incident edge between these vertex ids.
    Incident(u32, u32),
    /// Along side `k` of the reference face.
    Side(usize),
}

/// A point of the polygon being clipped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClipPoint<V> {
    pub(crate) point: V,
    pub(crate) id: ClipId,
    next: EdgeLabel,
}

/// A fixed-size buffer of up to `N` clipped points (no allocation; small faces use a small
/// buffer, which is cheaper to set up).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clipped<V, const N: usize> {
    pub(crate) points: [ClipPoint<V>; N],
    pub(crate) len: usize,
}

impl<V: Vector3 + Space, const N: usize> Clipped<V, N> {
    fn new() -> Self {
        let p = ClipPoint { point: V::ZERO, id: ClipId::Incident(0), next: EdgeLabel::Side(0) };
        Self { points: [p; N], len: 0 }
    }
    #[inline]
    fn push(&mut self, p: ClipPoint<V>) {
        if self.len < N {
            self.points[self.len] = p;
            self.len += 1;
        }
    }
    /// The points.
    pub(crate) fn as_slice(&self) -> &[ClipPoint<V>] {
        &self.points[..self.len]
    }
}

/// The outward normal of a counter-clockwise polygon (Newell's method), unit; `None` when the
/// polygon has no area.
#[inline]
pub(crate) fn polygon_normal<V: Vector3 + Space>(pts: &[V]) -> Option<V> {
    if pts.len() < 3 {
        return None;
    }
    let mut n = V::ZERO;
    let o = pts[0];
    for k in 1..pts.len() - 1 {
        n += (pts[k] - o).cross3(pts[k + 1] - o);
    }
    // `length_safe`: the square of a sum of cross products overflows for faces 1e10 wide
    // in f32 (1e77 in f64), which would cost the face its normal.
    let l = n.length_safe();
    (l > V::Real::ZERO && l.is_finite()).then(|| n / l)
}

/// Clips the incident polygon (or segment, or point) `inc` against the side planes of the
/// reference polygon `reference` (counter-clockwise about its outward unit normal `normal`).
/// Points on a side count as inside. Returns the points of `inc` inside every side plane.
/// `N` must be at least the number of corners of both faces together.
pub(crate) fn clip_to_sides<V: Vector3 + Space, const N: usize>(
    reference: &SupportFace<V>,
    normal: V,
    inc: &SupportFace<V>,
) -> Clipped<V, N> {
    let (rp, rid) = (reference.points(), reference.ids());
    let (ip, iid) = (inc.points(), inc.ids());
    let mut cur = Clipped::new();
    let nr = rp.len();
    let side = |k: usize| {
        let (s, e) = (rp[k], rp[(k + 1) % nr]);
        ((e - s).cross3(normal), s)
    };
    if ip.len() <= 2 {
        // A point or a segment: clip the parameter interval.
        let (p0, p1) = (ip[0], ip[ip.len() - 1]);
        let (mut t0, mut t1) = (V::Real::ZERO, V::Real::ONE);
        let (mut id0, mut id1) = (ClipId::Incident(iid[0]), ClipId::Incident(iid[ip.len() - 1]));
        for k in 0..nr {
            let (s, o) = side(k);
            let (d0, d1) = (s.dot(p0 - o), s.dot(p1 - o));
            let cross = ClipId::Crossing(rid[k], rid[(k + 1) % nr], iid[0], iid[ip.len() - 1]);
            if d0 > V::Real::ZERO && d1 > V::Real::ZERO {
                return cur;
            } else if d0 > V::Real::ZERO {
                let t = d0 / (d0 - d1);
                if t > t0 {
                    (t0, id0) = (t, cross);
                }
            } else if d1 > V::Real::ZERO {
                let t = d0 / (d0 - d1);
                if t < t1 {
                    (t1, id1) = (t, cross);
                }
            }
        }
        if t0 > t1 {
            return cur;
        }
        let label = EdgeLabel::Side(0);
        cur.push(ClipPoint { point: p0 + (p1 - p0) * t0, id: id0, next: label });
        if ip.len() == 2 {
            cur.push(ClipPoint { point: p0 + (p1 - p0) * t1, id: id1, next: label });
        }
        return cur;
    }
    let n = ip.len();
    for k in 0..n {
        let next = EdgeLabel::Incident(iid[k], iid[(k + 1) % n]);
        cur.push(ClipPoint { point: ip[k], id: ClipId::Incident(iid[k]), next });
    }
    let mut tmp = Clipped::new();
    for k in 0..nr {
        let (s, o) = side(k);
        tmp.len = 0;
        let m = cur.len;
        if m == 0 {
            break;
        }
        for i in 0..m {
            let p = cur.points[i];
            let q = cur.points[(i + 1) % m];
            let (dp, dq) = (s.dot(p.point - o), s.dot(q.point - o));
            let (p_in, q_in) = (dp <= V::Real::ZERO, dq <= V::Real::ZERO);
            if p_in != q_in {
                let t = dp / (dp - dq);
                let id = match p.next {
                    EdgeLabel::Incident(a, b) => ClipId::Crossing(rid[k], rid[(k + 1) % nr], a, b),
                    // Two sides meet at a reference corner.
                    EdgeLabel::Side(j) => {
                        ClipId::Reference(if j == (k + 1) % nr { rid[(k + 1) % nr] } else { rid[k] })
                    }
                };
                let next = if p_in { EdgeLabel::Side(k) } else { p.next };
                tmp.push(ClipPoint { point: p.point + (q.point - p.point) * t, id, next });
            }
            if q_in {
                tmp.push(q);
            }
        }
        core::mem::swap(&mut cur, &mut tmp);
    }
    cur
}

/// A candidate manifold point before the reduction to four.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate<V: Space> {
    pub(crate) a: V,
    pub(crate) b: V,
    pub(crate) distance: V::Real,
    pub(crate) id: ContactId,
}

/// Clips the core faces `face_a` and `face_b` (A's frame) along `contact` (radii added,
/// normal from A to B) into `out`, in A's frame; see the module docs. Leaves `out` empty when
/// neither face is a polygon and they are not two segments (the caller then uses the
/// contact point).
pub(crate) fn clip<V: Vector3 + Space>(
    face_a: &SupportFace<V>,
    face_b: &SupportFace<V>,
    contact: &CoreContact<V>,
    radius_a: V::Real,
    radius_b: V::Real,
    margin: V::Real,
    out: &mut Manifold<V>,
) {
    let n = contact.normal;
    if face_a.is_empty() || face_b.is_empty() {
        return;
    }
    let zero = V::Real::ZERO;
    // How well each face faces the other shape (a polygon's outward normal against the
    // contact normal; anything else cannot be the reference).
    let na = polygon_normal(face_a.points());
    let nb = polygon_normal(face_b.points());
    let score_a = na.map(|x| x.dot(n));
    let score_b = nb.map(|x| -x.dot(n));
    let a_ref = match (score_a, score_b) {
        (Some(sa), Some(sb)) => sa >= sb,
        (Some(_), None) => true,
        (None, Some(_)) => false,
        (None, None) => {
            if face_a.len() == 2 && face_b.len() == 2 {
                segments(face_a, face_b, contact, radius_a, radius_b, margin, out);
            }
            return;
        }
    };
    let (reference, incident, nr) =
        if a_ref { (face_a, face_b, na.unwrap_or(n)) } else { (face_b, face_a, nb.unwrap_or(-n)) };
    if nr.dot(if a_ref { n } else { -n }) <= zero {
        return; // the reference face looks away: no face contact
    }
    if reference.len() + incident.len() <= SMALL {
        clip_with::<V, SMALL>(reference, incident, nr, a_ref, contact, radius_a, radius_b, margin, out);
    } else {
        clip_with::<V, MAX_CLIPPED>(reference, incident, nr, a_ref, contact, radius_a, radius_b, margin, out);
    }
}

/// Buffer size for small faces (two boxes: 8).
const SMALL: usize = 12;

/// [`clip`] once the reference face (normal `nr`) is chosen, with room for `N` points.
#[allow(clippy::too_many_arguments)]
#[inline]
fn clip_with<V: Vector3 + Space, const N: usize>(
    reference: &SupportFace<V>,
    incident: &SupportFace<V>,
    nr: V,
    a_ref: bool,
    contact: &CoreContact<V>,
    radius_a: V::Real,
    radius_b: V::Real,
    margin: V::Real,
    out: &mut Manifold<V>,
) {
    let n = contact.normal;
    let clipped = clip_to_sides::<V, N>(reference, nr, incident);
    let origin = reference.points()[0];
    let mut cands = [Candidate { a: V::ZERO, b: V::ZERO, distance: V::Real::ZERO, id: unknown_id() }; N];
    let mut count = 0;
    for c in clipped.as_slice() {
        let on_ref = c.point - nr * nr.dot(c.point - origin);
        let (pa, pb) = if a_ref { (on_ref, c.point) } else { (c.point, on_ref) };
        let distance = (pb - pa).dot(n) - radius_a - radius_b;
        if distance > margin {
            continue;
        }
        let (ref_f, inc_f) = match c.id {
            ClipId::Incident(v) => (reference.feature(), Feature::Vertex(v)),
            ClipId::Crossing(i, j, k, l) => (Feature::edge(i, j), Feature::edge(k, l)),
            ClipId::Reference(v) => (Feature::Vertex(v), incident.feature()),
        };
        let id = if a_ref { ContactId { a: ref_f, b: inc_f } } else { ContactId { a: inc_f, b: ref_f } };
        cands[count] = Candidate { a: pa + n * radius_a, b: pb - n * radius_b, distance, id };
        count += 1;
    }
    reduce(&cands[..count], n, out);
}

fn unknown_id() -> ContactId {
    ContactId { a: Feature::Unknown, b: Feature::Unknown }
}

/// Two segments (capsules side by side): B's segment clipped to the slab between the planes
/// square to A's segment at its ends, each survivor paired with its foot on A's line.
fn segments<V: Vector3 + Space>(
    face_a: &SupportFace<V>,
    face_b: &SupportFace<V>,
    contact: &CoreContact<V>,
    radius_a: V::Real,
    radius_b: V::Real,
    margin: V::Real,
    out: &mut Manifold<V>,
) {
    let n = contact.normal;
    let (a0, a1) = (face_a.points()[0], face_a.points()[1]);
    let (b0, b1) = (face_b.points()[0], face_b.points()[1]);
    let (ia, ib) = (face_a.ids(), face_b.ids());
    let d = a1 - a0;
    let dd = d.length_squared();
    if dd <= V::Real::ZERO {
        return;
    }
    let (s0, s1) = ((b0 - a0).dot(d) / dd, (b1 - a0).dot(d) / dd);
    let (lo, hi) = (s0.min(s1), s0.max(s1));
    let (t_lo, t_hi) = (lo.max(V::Real::ZERO), hi.min(V::Real::ONE));
    if t_lo > t_hi || s0 == s1 {
        return;
    }
    let mut cands = [Candidate { a: V::ZERO, b: V::ZERO, distance: V::Real::ZERO, id: unknown_id() }; 2];
    let edge_b = Feature::edge(ib[0], ib[1]);
    for (k, t) in [t_lo, t_hi].into_iter().enumerate() {
        // The point of B's segment whose foot on A's line is at parameter t.
        let u = (t - s0) / (s1 - s0);
        let pb = b0 + (b1 - b0) * u;
        let pa = a0 + d * t;
        let clipped = if k == 0 { t_lo > lo } else { t_hi < hi };
        let id = if clipped {
            ContactId { a: Feature::Vertex(if t == V::Real::ZERO { ia[0] } else { ia[1] }), b: edge_b }
        } else {
            let end = if (u - V::Real::ZERO).abs() < (u - V::Real::ONE).abs() { ib[0] } else { ib[1] };
            ContactId { a: Feature::edge(ia[0], ia[1]), b: Feature::Vertex(end) }
        };
        let distance = (pb - pa).dot(n) - radius_a - radius_b;
        cands[k] = Candidate { a: pa + n * radius_a, b: pb - n * radius_b, distance, id };
    }
    let keep = cands.iter().filter(|c| c.distance <= margin).count();
    if keep > 0 {
        let mut kept = [cands[0]; 2];
        let mut m = 0;
        for c in cands.iter().filter(|c| c.distance <= margin) {
            kept[m] = *c;
            m += 1;
        }
        reduce(&kept[..m], n, out);
    }
}

/// Pushes at most [`MAX_MANIFOLD_POINTS`] of `cands`: the deepest, the farthest from it, then
/// the points making the largest triangles with those two on either side of their line
/// (areas measured across the normal `n`).
///
/// Each choice takes the first candidate within [`REDUCE_SLACK`] (relative) of the best, so
/// exact ties (a rectangle's parallel sides give equal areas, a flat resting face equal
/// depths) go to the earlier candidate instead of to rounding: the choice is the same
/// however the candidates were computed, and stays put under small motions.
pub(crate) fn reduce<V: Space>(cands: &[Candidate<V>], n: V, out: &mut Manifold<V>) {
    let (chosen, count) = reduce_indices(cands, n);
    for &i in &chosen[..count] {
        let c = &cands[i];
        out.push(ManifoldPoint { point_a: c.a, point_b: c.b, distance: c.distance, id: c.id });
    }
}

/// The indices of the candidates [`reduce`] keeps, and how many.
pub(crate) fn reduce_indices<V: Space>(
    cands: &[Candidate<V>],
    n: V,
) -> ([usize; MAX_MANIFOLD_POINTS], usize) {
    let mut chosen = [0; MAX_MANIFOLD_POINTS];
    let mut count = 0;
    let mut keep = |i: usize| {
        chosen[count] = i;
        count += 1;
    };
    if cands.len() <= MAX_MANIFOLD_POINTS {
        (0..cands.len()).for_each(&mut keep);
        return (chosen, count);
    }
    let slack = V::Real::from_f64(REDUCE_SLACK);
    // The first candidate within `slack * scale` of the largest `f`, and that largest value.
    let argmax = |f: &dyn Fn(&Candidate<V>) -> V::Real, scale: V::Real| {
        let mut best = f(&cands[0]);
        for c in &cands[1..] {
            best = best.max(f(c));
        }
        let floor = best - slack * scale;
        let i = cands.iter().position(|c| f(c) >= floor).unwrap_or(0);
        (best, i)
    };
    let depth_scale = cands.iter().fold(V::Real::ZERO, |m, c| m.max(c.distance.abs()));
    let (_, i0) = argmax(&|c| -c.distance, depth_scale);
    let p0 = cands[i0].a;
    let flat = |v: V| v - n * n.dot(v);
    let far = |c: &Candidate<V>| flat(c.a - p0).length_squared();
    let mut far_max = V::Real::ZERO;
    for c in cands {
        far_max = far_max.max(far(c));
    }
    let (_, i1) = argmax(&far, far_max);
    let p1 = cands[i1].a;
    let area = |c: &Candidate<V>| (p1 - p0).cross_or_zero(c.a - p0).dot(n);
    let (a2, i2) = argmax(&|c| area(c), far_max);
    let (a3, i3) = argmax(&|c| -area(c), far_max);
    keep(i0);
    if i1 != i0 {
        keep(i1);
    }
    if a2 > slack * far_max {
        keep(i2);
    }
    if a3 > slack * far_max {
        keep(i3);
    }
    (chosen, count)
}

/// Relative tolerance of the choices in [`reduce`].
const REDUCE_SLACK: f64 = 1e-5;
