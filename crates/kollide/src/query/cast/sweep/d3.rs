//! The swept sphere against triangles (3D): face, edge and vertex.
//!
//! One triangle at a time, in the frame of the mover (world for a sphere, the unit sphere's
//! space for an ellipsoid), every quantity written relative to the feature it concerns so
//! that large coordinates keep their precision (Fauerby 2003; Ericson, *Real-Time
//! Collision Detection*, 5.1.5 and 5.5.7, for the regions and the swept tests).

use super::driver::{
    band, corner_toi, flat_slack, max_abs, narrow, near_plane, probe_start, start_contact, unit_scale, Item,
    Mover, Root, SoupItem,
};
use super::trace::{Probe, SweepTest, SweepVerdict};
use super::SweepFeature;
use crate::math::{Pose, Real, Vector3};
use crate::query::cast::numeric::unit_or_safe;
use crate::query::contact::contact;
use crate::query::contact::output::Contact;
use crate::query::Space;
use crate::shape::{Ellipsoid, Triangle};

impl<V: Vector3 + Space> SoupItem<V> for [V; 3] {
    #[inline(always)]
    fn bounds(&self) -> (V, V) {
        let [a, b, c] = *self;
        (a.min_elem(b).min_elem(c), a.max_elem(b).max_elem(c))
    }
    #[inline(always)]
    fn is_finite(&self) -> bool {
        self.iter().all(|p| p.is_finite_vec())
    }
    #[inline(always)]
    fn corners(&self) -> &[V] {
        self
    }
    #[inline(always)]
    fn map(&self, f: impl Fn(V) -> V) -> Self {
        [f(self[0]), f(self[1]), f(self[2])]
    }
    #[inline]
    fn sweep<P: Probe<V>>(&self, mover: &Mover<V>, limit: V::Real, probe: &mut P) -> Item<V> {
        sweep_triangle(self, mover, limit, probe)
    }
    fn contact(&self, ellipsoid: &Ellipsoid<V>, pose: &Pose<V>) -> Option<Contact<V>> {
        let [a, b, c] = *self;
        contact(ellipsoid, pose, &Triangle { a, b, c }, &Pose::IDENTITY, V::Real::ZERO, None)
    }
}

/// The three edges as (start, direction): a→b, b→c, c→a.
#[inline(always)]
fn edges<V: Space>([a, b, c]: [V; 3]) -> [(V, V); 3] {
    [(a, b - a), (b, c - b), (c, a - c)]
}

/// The earliest contact of the mover with triangle `tri` at a time in `[0, limit]`.
///
/// Everything is computed in units of the local size (the radius plus the triangle's
/// extent about the centre), scaled by a power of two (exact), so that `f32` keeps its
/// precision from `1e-6` to `1e6` where fourth powers would underflow or overflow. Each
/// test tried is reported to `probe` (points in the caller's units).
fn sweep_triangle<V: Vector3 + Space, P: Probe<V>>(
    tri: &[V; 3],
    mover: &Mover<V>,
    limit: V::Real,
    probe: &mut P,
) -> Item<V> {
    let zero = V::Real::ZERO;
    let [a, b, c] = *tri;
    let centre = mover.center;
    let (m, e1, e2) = (centre - a, b - a, c - a);
    let k = unit_scale(mover.radius + max_abs(m).max(max_abs(e1)).max(max_abs(e2)));
    let inv_k = V::Real::ONE / k;
    let mv = mover.scaled(k);
    let r = mv.radius;
    let (m, e1, e2) = (m * k, e1 * k, e2 * k);
    let tol = band(r + max_abs(m).max(max_abs(e1)).max(max_abs(e2)));
    // The face's normal and its sine from the edges each brought near unit size (their
    // ratio is all that matters): a sliver 1e17 long and 3e-7 wide in f32, scaled to the
    // long side, had a cross product whose square was subnormal, and its "unit" normal came
    // out 0.89 long (fuzz target `mover`).
    let (u1, u2) = (unit_scale(max_abs(e1)), unit_scale(max_abs(e2)));
    let (f1, f2) = (e1 * u1, e2 * u2);
    let cross = f1.cross3(f2);
    let nn2 = cross.dot(cross);
    let ee = f1.dot(f1) * f2.dot(f2);
    // The face has a normal when the sine of its angle is not lost in rounding; without one
    // the triangle is met through its edges and corners only.
    let face = nn2 > flat_slack(V::Real::ONE) * flat_slack(V::Real::ONE) * ee && nn2.is_finite();
    let (n, s0, sd) = if face {
        let n = cross / nn2.sqrt();
        (n, n.dot(m), n.dot(mv.disp))
    } else {
        (V::ZERO, zero, zero)
    };
    if face && mv.cull && (s0 < zero || (mv.dd > zero && sd >= zero)) {
        probe.tried(SweepTest::Culled, SweepVerdict::Skipped, None, None);
        return Item::Nothing;
    }
    // Which side the centre starts on, and how fast it comes towards the plane.
    let side = if s0 >= zero { V::Real::ONE } else { -V::Real::ONE };
    let toward = -side * sd;
    if face && s0.abs() > r + tol {
        // Nothing of the triangle can be reached before the band about its plane is.
        let reachable = toward > zero && s0.abs() - r - tol <= toward * limit;
        if !reachable {
            probe.tried(SweepTest::OutOfReach, SweepVerdict::Skipped, None, None);
            return Item::Nothing;
        }
    } else {
        let (gap, point, feature) = closest(tri, centre, k, face.then_some((n, s0)));
        let fallback = if face {
            if sd > zero {
                -n
            } else {
                n
            }
        } else {
            no_face_normal(tri, mv.disp)
        };
        let cond = if face { (ee / nn2).sqrt() } else { V::Real::ONE };
        if let Some(item) = start_contact(&mv, gap, point, feature, fallback, tol, cond, limit) {
            probe_start(probe, &item, point);
            return item.unscaled(inv_k);
        }
    }
    if limit < zero {
        return Item::Nothing;
    }
    if face && s0.abs() > r && toward > flat_slack((ee / nn2).sqrt()) * mv.dlen {
        let t = (s0.abs() - r) / toward;
        if t <= limit {
            let foot = m + mv.disp * t - n * (side * r);
            // Within the band outside the edges counts: the edges' cylinders refuse a path
            // that only grazes them, and one that meets the plane right at an edge, grazing
            // it, and then sinks into the face would otherwise slip between the two tests
            // (in f32, a ball running along an edge at a shallow angle went 1e-3 deep).
            if inside_by(foot, e1, e2, n, tol) {
                probe.tried(SweepTest::Face, SweepVerdict::Hit, Some(t), Some(a + foot * inv_k));
                return Item::Hit {
                    toi: t,
                    point: a + foot * inv_k,
                    normal: n * side,
                    feature: SweepFeature::Face,
                };
            }
            probe.tried(SweepTest::Face, SweepVerdict::OffFeature, Some(t), Some(a + foot * inv_k));
        } else if P::ON {
            let foot = m + mv.disp * t - n * (side * r);
            let verdict =
                if inside(foot, e1, e2, n) { SweepVerdict::TooLate } else { SweepVerdict::OffFeature };
            probe.tried(SweepTest::Face, verdict, Some(t), Some(a + foot * inv_k));
        }
    } else if face {
        probe.tried(SweepTest::Face, SweepVerdict::NoRoot, None, None);
    }
    // The face missed (or has no normal): the edges' cylinders and the corners' spheres,
    // all of them, so that a contact rejected by the face test through rounding is found.
    let mut best: Option<(V::Real, V, V, SweepFeature)> = None;
    let mut keep = |t: V::Real, point: V, gap: V, feature: SweepFeature| {
        let in_time = t >= zero && t <= best.map_or(limit, |(bt, ..)| bt);
        if !in_time {
            return SweepVerdict::TooLate;
        }
        best = Some((t, point, gap, feature));
        SweepVerdict::Hit
    };
    // The earliest graze (an edge or a corner met no deeper than the band): a contact only if
    // the path then sinks into the triangle by another feature.
    let mut graze: Option<(V::Real, V, V, SweepFeature)> = None;
    let mut grazed = |t: V::Real, point: V, gap: V, feature: SweepFeature| {
        if t >= zero && t <= limit && graze.is_none_or(|(gt, ..)| t < gt) {
            graze = Some((t, point, gap, feature));
        }
        SweepVerdict::NoRoot
    };
    for (i, (p, e)) in (0u8..).zip(edges(*tri)) {
        let (mp, ek) = ((centre - p) * k, e * k);
        let (verdict, toi, point) = match edge_toi(mp, ek, &mv, tol) {
            Some((root, s)) if s >= zero && s <= V::Real::ONE => {
                let (t, gap) = (root_time(root), |t: V::Real| mp + mv.disp * t - ek * s);
                let verdict = match root {
                    Root::Entry(t) => keep(t, p + e * s, gap(t), SweepFeature::Edge),
                    Root::Graze(t) => grazed(t, p + e * s, gap(t), SweepFeature::Edge),
                };
                (verdict, Some(t), Some(p + e * s))
            }
            Some((root, s)) => (SweepVerdict::OffFeature, Some(root_time(root)), Some(p + e * s)),
            None => (SweepVerdict::NoRoot, None, None),
        };
        probe.tried(SweepTest::Edge(i), verdict, toi, point);
    }
    for (i, corner) in (0u8..).zip([a, b, c]) {
        let mc = (centre - corner) * k;
        let mxd = mc.cross3(mv.disp);
        match corner_toi(mc, &mv, mxd.dot(mxd), tol) {
            Some(Root::Entry(t)) => {
                let verdict = keep(t, corner, mc + mv.disp * t, SweepFeature::Vertex);
                probe.tried(SweepTest::Vertex(i), verdict, Some(t), Some(corner));
            }
            Some(Root::Graze(t)) => {
                let verdict = grazed(t, corner, mc + mv.disp * t, SweepFeature::Vertex);
                probe.tried(SweepTest::Vertex(i), verdict, Some(t), Some(corner));
            }
            None => probe.tried(SweepTest::Vertex(i), SweepVerdict::NoRoot, None, None),
        }
    }
    if best.is_none() && face {
        // A path that grazed an edge or a corner within the band and then sinks deeper
        // than the band over the face (where the face test met the plane just off the
        // triangle) is met at the graze: the times after it when the centre is within
        // `r - tol` of the plane and its foot inside the three edges, all linear in time.
        if let Some((t, ..)) = graze {
            let (d, e3) = (mv.disp, e2 - e1);
            let (mut lo, mut hi) = (t, limit);
            let over = near_plane(&mut lo, &mut hi, s0, sd, r - tol)
                && narrow(&mut lo, &mut hi, e1.cross3(m).dot(n), e1.cross3(d).dot(n))
                && narrow(&mut lo, &mut hi, e3.cross3(m - e1).dot(n), e3.cross3(d).dot(n))
                && narrow(&mut lo, &mut hi, m.cross3(e2).dot(n), d.cross3(e2).dot(n));
            if over {
                best = graze;
            }
        }
    }
    match best {
        Some((toi, point, gap, feature)) => {
            let fallback = unit_or_safe(-mv.disp, V::axis(0));
            Item::Hit { toi, point, normal: unit_or_safe(gap, fallback), feature }
        }
        None => Item::Nothing,
    }
}

/// The entry of the path into the cylinder of the mover's radius about the line through
/// `p` along `e` (`m` = centre minus `p`), and the parameter of the touched point on the
/// edge line: a [`Root::Graze`] when the path goes no deeper than the band `tol`; the edge
/// is hit only when that parameter is in `[0, 1]` (else the ends' spheres or the face
/// answer).
///
/// With `w = e × d` and `u = e × m`, the squared distance to the line times `|e|²` is
/// `|u + t w|²`; its reduced discriminant is `|e|² (r² |w|² - (m · w)²)`, where `|m · w| /
/// |w|` is the distance between the edge line and the path: computed so, a graze keeps its
/// sign, where `b² - a c` would be lost in cancellation.
#[inline]
fn edge_toi<V: Vector3 + Space>(m: V, e: V, mv: &Mover<V>, tol: V::Real) -> Option<(Root<V::Real>, V::Real)> {
    let zero = V::Real::ZERO;
    let r = mv.radius;
    let w = e.cross3(mv.disp);
    let a = w.dot(w);
    let ee = e.dot(e);
    let trip = m.dot(w);
    let h = r * r * a - trip * trip;
    if !(a > zero && h >= zero) {
        return None;
    }
    let u = e.cross3(m);
    let b = u.dot(w);
    let c = u.dot(u) - r * r * ee;
    if !(b < zero && c > zero) {
        return None;
    }
    let t = c / ((ee * h).sqrt() - b);
    let root = if h > V::Real::TWO * r * tol * a { Root::Entry(t) } else { Root::Graze(t) };
    Some((root, e.dot(m + mv.disp * t) / ee))
}

/// The time of a root.
#[inline(always)]
fn root_time<R>(root: Root<R>) -> R {
    match root {
        Root::Entry(t) | Root::Graze(t) => t,
    }
}

/// Whether `f` (relative to corner `a`), in the plane, is in the triangle with edges
/// `e1 = b - a`, `e2 = c - a` and unit normal `n`: inclusive, each side by its own edge,
/// and within the triangle's box (by a few roundings).
///
/// The box matters for slivers: when two edges of a sliver round to one line, a point far
/// out along that line makes both their cross products zero, which the inclusive sides
/// accept (fuzz, f32: a sphere 5.85 from a sliver 0.005 long, centred on the line of its
/// long edges, was reported overlapping it by its whole radius).
#[inline]
fn inside<V: Vector3 + Space>(f: V, e1: V, e2: V, n: V) -> bool {
    inside_by(f, e1, e2, n, V::Real::ZERO)
}

/// [`inside`], or at most `by` (a length) outside each edge.
#[inline]
fn inside_by<V: Vector3 + Space>(f: V, e1: V, e2: V, n: V, by: V::Real) -> bool {
    let slack = V::Real::from_usize(8) * V::Real::EPSILON * (max_abs(f) + max_abs(e1) + max_abs(e2)) + by;
    let lo = e1.min_elem(e2).min_elem(V::ZERO) - V::splat(slack);
    let hi = e1.max_elem(e2).max_elem(V::ZERO) + V::splat(slack);
    let in_box = (0..3).all(|i| f[i] >= lo[i] && f[i] <= hi[i]);
    // Each side by its edge: `(edge × (f - start)) · n` is the edge's length times the
    // signed distance of `f` inside its line (compared squared: no square roots).
    let e3 = e2 - e1;
    let by2 = by * by;
    let side = |s: V::Real, e: V| s >= V::Real::ZERO || s * s <= by2 * e.dot(e);
    in_box
        && side(e1.cross3(f).dot(n), e1)
        && side(e3.cross3(f - e1).dot(n), e3)
        && side(f.cross3(e2).dot(n), e2)
}

/// The closest point of the triangle to `centre`: (centre minus it, scaled by `k`; it, in
/// the world; its feature). `plane` is the unit normal and the centre's signed height
/// (scaled) when the triangle has a face.
fn closest<V: Vector3 + Space>(
    tri: &[V; 3],
    centre: V,
    k: V::Real,
    plane: Option<(V, V::Real)>,
) -> (V, V, SweepFeature) {
    let zero = V::Real::ZERO;
    let [a, b, c] = *tri;
    if let Some((n, s0)) = plane {
        let foot = (centre - a) * k - n * s0;
        if inside(foot, (b - a) * k, (c - a) * k, n) {
            return (n * s0, a + foot / k, SweepFeature::Face);
        }
    }
    let mut best: Option<(V::Real, V, V, SweepFeature)> = None;
    for (p, e) in edges(*tri) {
        let (mp, ek) = ((centre - p) * k, e * k);
        let ee = ek.dot(ek);
        let s = if ee > zero { (ek.dot(mp) / ee).max(zero).min(V::Real::ONE) } else { zero };
        let gap = mp - ek * s;
        let d2 = gap.dot(gap);
        let feature = if s > zero && s < V::Real::ONE { SweepFeature::Edge } else { SweepFeature::Vertex };
        if best.is_none_or(|(bd, ..)| d2 < bd) {
            best = Some((d2, gap, p + e * s, feature));
        }
    }
    match best {
        Some((_, gap, point, feature)) => (gap, point, feature),
        None => ((centre - a) * k, a, SweepFeature::Vertex),
    }
}

/// A normal for a triangle without area whose line or point the centre lies on: against
/// the displacement, else across the longest edge.
fn no_face_normal<V: Vector3 + Space>(tri: &[V; 3], disp: V) -> V {
    let zero = V::Real::ZERO;
    if disp.dot(disp) > zero {
        return unit_or_safe(-disp, V::axis(0));
    }
    let (mut e, mut len) = (V::ZERO, zero);
    for (_, edge) in edges(*tri) {
        let l = edge.dot(edge);
        if l > len {
            (e, len) = (edge, l);
        }
    }
    if len > zero {
        e.any_orthogonal()
    } else {
        V::axis(1)
    }
}
