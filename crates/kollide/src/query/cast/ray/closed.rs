//! Closed-form ray casts against the primitive cores, in the shape's local frame: spheres,
//! capsules, boxes (slabs), polygons and hulls (Cyrus–Beck clipping by the face planes),
//! segments and triangles, ellipsoids, cylinders and cones.
//!
//! Every solid is closed, and each cast works out the span `[t0, t1]` of the ray's *line*
//! inside it, which [`pick`] turns into a hit, an inside start or a miss. Quadratics are
//! solved without cancellation: the root of larger magnitude as `q / a`, the other as
//! `c / q` (Press et al., *Numerical Recipes*, §5.6); for balls and capsules the
//! discriminant is the cross-product form `|d|² r² - |m × d|²`, exact however far the origin
//! (Haines et al., "Precision improvements for ray/sphere intersection", *Ray Tracing Gems*,
//! 2019); for cylinders and cones an origin far from the shape is first moved along the
//! line to the point closest to the centre.

use super::Cast;
use crate::math::{Lanes4, Real};
use crate::query::cast::numeric::{ge, unit_or};
use crate::query::Space;

/// Which end of the span the ray reports.
#[derive(Clone, Copy, Debug)]
enum End<R> {
    /// The ray enters at this time (`> 0`).
    Entry(R),
    /// The origin is in the solid and the ray leaves at this time (`> 0`).
    Exit(R),
}

/// The report for a closed solid that the ray's line meets over `[t0, t1]` (empty when
/// `t0 > t1` or NaN): a hit at `t0 > 0` within `max_toi`, the exit `t1 > 0` when the origin
/// is in the span, nothing when the span ends at or before 0 (a start on the surface
/// heading out included).
#[inline(always)]
fn pick<R: Real>(t0: R, t1: R, max_toi: R) -> Option<End<R>> {
    if !(t0 <= t1 && t1 > R::ZERO) {
        return None;
    }
    if t0 > R::ZERO {
        return if t0 <= max_toi { Some(End::Entry(t0)) } else { None };
    }
    Some(End::Exit(t1))
}

/// The [`Cast`] for `end`, with the normal `normal(t, entering)` (unit) at its time.
///
/// `normal` is called from one place: called from two (entry and exit), a long closure
/// was left out of line, and a caller that wants only the time (`ray_toi`) still paid for
/// the normal (a capsule's ray, 16% of its time).
#[inline(always)]
fn report<V: Space>(end: Option<End<V::Real>>, normal: impl FnOnce(V::Real, bool) -> V) -> Cast<V> {
    let (t, entering) = match end {
        None => return Cast::Miss,
        Some(End::Entry(t)) => (t, true),
        Some(End::Exit(t)) => (t, false),
    };
    let n = normal(t, entering);
    if entering {
        Cast::Hit(t, n)
    } else {
        Cast::Inside(t, n)
    }
}

/// `-d / |d|`: the normal of last resort, facing the ray's origin.
#[inline(always)]
fn back<V: Space>(d: V) -> V {
    unit_or(-d, V::axis(0))
}

/// The roots of `a t² + 2 b t + c = 0`, smaller first, given `disc = b² - a c >= 0` (which
/// the caller computes in the form that suits it) and `a != 0`.
#[inline(always)]
fn roots<R: Real>(a: R, b: R, c: R, disc: R) -> (R, R) {
    let s = disc.sqrt();
    // q = -(b + sign(b) √disc): the two terms have the same sign, nothing cancels.
    let q = if b >= R::ZERO { -(b + s) } else { s - b };
    if q == R::ZERO {
        // b = 0 and disc = 0: a double root at 0.
        return (R::ZERO, R::ZERO);
    }
    let (x, y) = (q / a, c / q);
    if x <= y {
        (x, y)
    } else {
        (y, x)
    }
}

/// `m`, or when it lies farther than twice `reach` from the centre, the point of the line
/// `m + t d` closest to the centre, with the time it sits at (so a far origin's size does
/// not swamp the shape's in the quadratics).
#[inline(always)]
fn near_centre<V: Space>(m: V, d: V, dd: V::Real, reach: V::Real) -> (V, V::Real) {
    let four = V::Real::TWO * V::Real::TWO;
    if m.dot(m) > four * reach * reach {
        let tc = -m.dot(d) / dd;
        (m + d * tc, tc)
    } else {
        (m, V::Real::ZERO)
    }
}

/// `|x × y|²` (the squared 2D cross product in 2D): with `|x|² |y|² - (x·y)²` it is the
/// same number, without the cancellation.
#[inline(always)]
fn cross_sq<V: Space>(x: V, y: V) -> V::Real {
    if V::DIM == 2 {
        let c = cross2(x, y);
        c * c
    } else {
        let c = x.cross_or_zero(y);
        c.dot(c)
    }
}

/// The span of the line `m + t d` in the ball of radius `r` about the origin, if it meets
/// it (a tangent line meets it at one point). The discriminant `b² - |d|² c` is
/// `|d|² r² - |m × d|²` (no cancellation, however far the origin), and the near root is
/// `c / q` with `c = |m|² - r²`, whose sign says exactly whether the origin is inside.
#[inline(always)]
fn ball_span<V: Space>(m: V, d: V, dd: V::Real, r: V::Real) -> Option<(V::Real, V::Real)> {
    let disc = dd * r * r - cross_sq(m, d);
    if !ge(disc, V::Real::ZERO) {
        return None;
    }
    Some(roots(dd, m.dot(d), m.dot(m) - r * r, disc))
}

/// The ball of radius `r > 0` about `centre`.
///
/// Written out rather than through [`ball_span`] and [`pick`]: it is the hottest ray cast,
/// and the case split lets it skip work. An origin outside (`c > 0`) that heads away
/// (`m·d >= 0`) misses with no square root; only the root that is reported is divided out;
/// the normal is the point's offset times `1 / r` (a multiplication, the reciprocal taken
/// off the critical path), renormalized only when rounding made it visibly non-unit (an
/// origin far from a small ball).
#[inline(always)]
pub(super) fn sphere<V: Space>(centre: V, r: V::Real, o: V, d: V, max_toi: V::Real) -> Cast<V> {
    let zero = V::Real::ZERO;
    let inv_r = V::Real::ONE / r;
    let m = o - centre;
    let b = m.dot(d);
    let c = m.dot(m) - r * r;
    let outside = c > zero;
    if outside && b >= zero {
        return Cast::Miss;
    }
    let dd = d.dot(d);
    // b² - |d|² c and |d|² r² - |m × d|² are the same number. The first is cheaper (no
    // cross product on the way to the square root) and loses only about 32 ulps of |d|² r²
    // to cancellation while |m|² <= 16 r²; farther out the second keeps it exact.
    let near = m.dot(m) <= V::Real::from_usize(16) * r * r;
    let disc = if near { b * b - dd * c } else { dd * r * r - cross_sq(m, d) };
    if !ge(disc, zero) {
        return Cast::Miss;
    }
    let s = disc.sqrt();
    let normal_at = |t: V::Real| {
        let n = (m + d * t) * inv_r;
        let err = n.dot(n) - V::Real::ONE;
        if err.abs() <= V::Real::EPSILON * V::Real::from_usize(64) {
            n
        } else {
            unit_or(m + d * t, back(d))
        }
    };
    if outside {
        // Entry: the smaller root (-b - s) / dd, written as c / (s - b) (b < 0 here: no
        // cancellation).
        let t = c / (s - b);
        // (NaN compares false: a miss.)
        if !ge(max_toi, t) {
            return Cast::Miss;
        }
        return Cast::Hit(t, normal_at(t));
    }
    // The origin is in the closed ball. On the surface (c = 0) heading out or along it
    // (b >= 0), the exit is at 0: a miss. Decided by signs, before any division, so a caller
    // that wants only the time (`ray_toi`) pays for no exit. The exit is the larger root
    // (-b + s) / dd, in the form without cancellation for either sign of b.
    if c == zero && b >= zero {
        return Cast::Miss;
    }
    let t = if b <= zero { (s - b) / dd } else { c / -(b + s) };
    Cast::Inside(t, normal_at(t))
}

/// The ellipsoid with semi-axes `radii` about the local origin: the unit sphere after
/// dividing every coordinate by its radius (times are unchanged), the normal mapped back
/// by the inverse transpose of that scaling.
#[inline]
pub(super) fn ellipsoid<V: Space>(radii: V, o: V, d: V, max_toi: V::Real) -> Cast<V> {
    let mut inv = V::ZERO;
    for i in 0..V::DIM {
        inv += V::axis(i) * (V::Real::ONE / radii[i]);
    }
    let (os, ds) = (o.mul_elem(inv), d.mul_elem(inv));
    let dd = ds.dot(ds);
    let Some((t0, t1)) = ball_span(os, ds, dd, V::Real::ONE) else {
        return Cast::Miss;
    };
    // The normal is the gradient `q / r²` at the scaled point `q`, taken as `q (inv / max
    // inv)`: the same direction, without the overflow of `1 / r²` for a radius of 1e-100
    // (a flat ellipsoid, hit at its rim: the gradient was infinite, and the fallback
    // pointed into the solid; fuzz target `casts`, tangent rays).
    report(pick(t0, t1, max_toi), |t, _| {
        let inv_n = inv / inv.max_component();
        unit_or((os + ds * t).mul_elem(inv_n), back(d))
    })
}

/// The capsule: the segment from `centre - e` to `centre + e` grown by `r > 0` (a ball when
/// `e` is zero).
///
/// The line's span in the infinite cylinder about the segment's line decides it: an end of
/// that span beyond an end of the segment lies in that end's ball instead (past the end
/// cap, the capsule is that ball), so at most two more quadratics are solved.
#[inline(always)]
pub(super) fn capsule<V: Space>(centre: V, e: V, r: V::Real, o: V, d: V, max_toi: V::Real) -> Cast<V> {
    let zero = V::Real::ZERO;
    // The half-axis `e` is kept unnormalized (|e| = half length): heights along the axis are
    // measured in units of |e|² and compared with |e|², which spares a square root and a
    // division per ray.
    let ee = e.dot(e);
    // An origin outside the capsule's bounding ball (radius hl + r <= √(2 (hl² + r²)))
    // heading away from its centre misses: no square root spent.
    let m = o - centre;
    if m.dot(m) > V::Real::TWO * (ee + r * r) && m.dot(d) >= zero {
        return Cast::Miss;
    }
    let inv_ee = V::Real::ONE / ee;
    if !(ee > zero && inv_ee.is_finite()) {
        // No length to speak of: a ball.
        return sphere(centre, r, o, d, max_toi);
    }
    let dd = d.dot(d);
    let (mz, dz) = (m.dot(e), d.dot(e));
    let (mp, dp) = (m - e * (mz * inv_ee), d - e * (dz * inv_ee));
    let aa = dp.dot(dp);
    let ends = |z: V::Real| if z > zero { e } else { -e };
    let span = if aa <= dd * V::Real::EPSILON * V::Real::EPSILON {
        // Along the axis: inside the infinite cylinder all the way or never; the span runs
        // from one end ball to the other.
        if mp.dot(mp) > r * r {
            return Cast::Miss;
        }
        let (Some(first), Some(last)) =
            (ball_span(m - ends(-dz), d, dd, r), ball_span(m - ends(dz), d, dd, r))
        else {
            return Cast::Miss;
        };
        (first.0, last.1)
    } else {
        // |mp × dp|² = ((m × d) · e)² / |e|² in 3D; 0 in 2D, where both are along one line.
        // `(w / |e|²) w`, not `w² / |e|²`: w is a triple product, and its square overflows
        // f32 for a capsule 1e17 long (a ray from deep inside one was reported missing).
        let w = m.cross_or_zero(d).dot(e);
        let disc = aa * r * r - w * inv_ee * w;
        if !ge(disc, zero) {
            return Cast::Miss;
        }
        let (s0, s1) = roots(aa, mp.dot(dp), mp.dot(mp) - r * r, disc);
        let (z0, z1) = (mz + dz * s0, mz + dz * s1);
        let t0 = if z0.abs() > ee {
            match ball_span(m - ends(z0), d, dd, r) {
                Some((t, _)) => t,
                None => return Cast::Miss,
            }
        } else {
            s0
        };
        let t1 = if t0 > zero {
            // The entry is ahead of the origin: it is the answer whatever the exit after it
            // (see `pick`), so the exit's end ball is not solved.
            t0
        } else if z1.abs() > ee {
            match ball_span(m - ends(z1), d, dd, r) {
                Some((_, t)) => t,
                None => return Cast::Miss,
            }
        } else {
            s1
        };
        (t0, t1)
    };
    let inv_r = V::Real::ONE / r;
    report(pick(span.0, span.1, max_toi), |t, _| capsule_normal(m, d, e, ee, inv_ee, r, inv_r, t))
}

/// The outward unit normal of the capsule (`e`, `ee = |e|²`, radius `r`, `inv_r = 1 / r`)
/// at the ray's point `m + d t`, `m` the origin's offset from its centre. Out of line, as
/// a closure, it stayed called when only the time was wanted (a capsule ray: 16% of the
/// time): inlined by force.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn capsule_normal<V: Space>(
    m: V,
    d: V,
    e: V,
    ee: V::Real,
    inv_ee: V::Real,
    r: V::Real,
    inv_r: V::Real,
    t: V::Real,
) -> V {
    // Outward: from the closest point of the segment to the surface point, which is r
    // away (renormalized only when rounding made it visibly non-unit).
    let p = m + d * t;
    let z = p.dot(e).max(-ee).min(ee);
    let radial = p - e * (z * inv_ee);
    let n = radial * inv_r;
    if (n.dot(n) - V::Real::ONE).abs() <= V::Real::EPSILON * V::Real::from_usize(64) {
        n
    } else if r <= V::Real::EPSILON * V::Real::from_usize(64) * (p.abs_elem().max_component() + ee.sqrt()) {
        // A radius within the rounding of the point: `radial` is that rounding, its
        // direction anything (a capsule of radius 1e-12 in f32 was hit at its end with
        // a normal pointing back along its core; fuzz target `casts`, tangent rays).
        core_normal(-d, e, z, ee)
    } else {
        unit_or(radial, core_normal(-d, e, z, ee))
    }
}

/// A normal for a capsule whose radius is lost in rounding (the point is on its core): of
/// the core's normals at height `z` along the half axis `e`, the one nearest `u` (a ray's
/// `-d`): across the axis inside the segment, and at an end anything not pointing back
/// into it.
#[cold]
fn core_normal<V: Space>(u: V, e: V, z: V::Real, ee: V::Real) -> V {
    let zero = V::Real::ZERO;
    let along = u.dot(e);
    let at_end = z.abs() >= ee;
    let outward_end = at_end && along * z > zero;
    let u = if outward_end { u } else { u - e * (along / ee) };
    unit_or(u, back(e.any_orthogonal()))
}

/// The 2D cross product of the first two components.
#[inline(always)]
fn cross2<V: Space>(x: V, y: V) -> V::Real {
    x[0] * y[1] - x[1] * y[0]
}

/// A flat segment `a b` (a point when `a == b`), 2D or 3D: it has no inside, so a ray
/// starting on it hits it at 0. In 3D, and for a ray along the segment's line, the ray
/// must pass within a few ulps of the coordinates to hit. The normal is the part of `-d`
/// square to the segment (in 2D the side facing the origin), or `-d` itself along the line.
pub(super) fn segment<V: Space>(a: V, b: V, o: V, d: V, max_toi: V::Real) -> Cast<V> {
    segment_hit(a, b, o, d, max_toi).map_or(Cast::Miss, |(t, n)| Cast::Hit(t, n))
}

fn segment_hit<V: Space>(a: V, b: V, o: V, d: V, max_toi: V::Real) -> Option<(V::Real, V)> {
    let (zero, one) = (V::Real::ZERO, V::Real::ONE);
    let (e, w) = (b - a, a - o);
    let (dd, ee) = (d.dot(d), e.dot(e));
    let eps = V::Real::EPSILON;
    let tol = eps * V::Real::from_usize(16) * (w.length() + e.length());
    let normal = || {
        let side = if ee > zero { d - e * (d.dot(e) / ee) } else { V::ZERO };
        unit_or(-side, back(d))
    };
    // Solve o + t d = a + s e: by 2D cross products, or in 3D through n = d × e (the
    // lines must also be within `tol` of each other). `sin2` is the squared sine of their
    // angle times `dd ee`.
    let (t, s, sin2) = if V::DIM == 2 {
        let den = cross2(d, e);
        if den == zero {
            return collinear(w, e, d, dd, tol, max_toi);
        }
        (cross2(w, e) / den, cross2(w, d) / den, den * den)
    } else {
        let n = d.cross_or_zero(e);
        let (nn, wn) = (n.dot(n), w.dot(n));
        if !(nn.is_finite() && wn.is_finite()) {
            return scaled(a, b, b, o, d, |a, b, _, o, d| segment_hit(a, b, o, d, max_toi), None);
        }
        if nn <= eps * eps * dd * ee {
            return collinear(w, e, d, dd, tol, max_toi);
        }
        if wn.abs() > tol * nn.sqrt() {
            return None;
        }
        let (tn, sn) = (w.cross_or_zero(e).dot(n), w.cross_or_zero(d).dot(n));
        if !(tn.is_finite() && sn.is_finite()) {
            // `(w × e) · n` is of degree three in the coordinates: a ray crossing a segment
            // 1e17 long 5e16 from its end, in f32, missed it.
            return scaled(a, b, b, o, d, |a, b, _, o, d| segment_hit(a, b, o, d, max_toi), None);
        }
        (tn / nn, sn / nn, nn)
    };
    // Lines within a few hundred ulps of parallel (a ray along the segment, turned by a
    // pose, is parallel only up to rounding): their crossing is ill-conditioned, t and s
    // may land anywhere along them. When the whole segment lies within `tol` of the ray's
    // line, the ray first meets it where it first reaches it, as for a parallel one.
    let k = V::Real::from_usize(256) * eps;
    if sin2 <= k * k * dd * ee {
        if let Some(hit) = collinear(w, e, d, dd, tol, max_toi) {
            return Some(hit);
        }
    }
    if t >= zero && t <= max_toi && s >= zero && s <= one {
        Some((t, normal()))
    } else {
        None
    }
}

/// A segment (`a = o + w`, `b = a + e`) parallel to the ray: hit where the ray first
/// reaches it, when it lies on the ray's line (both ends within `tol` of it).
fn collinear<V: Space>(
    w: V,
    e: V,
    d: V,
    dd: V::Real,
    tol: V::Real,
    max_toi: V::Real,
) -> Option<(V::Real, V)> {
    let ta = w.dot(d) / dd;
    let off = w - d * ta;
    if off.dot(off) > tol * tol {
        return None;
    }
    let tb = ta + e.dot(d) / dd;
    let off = off + e - d * (tb - ta);
    if off.dot(off) > tol * tol {
        return None;
    }
    let (lo, hi) = if ta <= tb { (ta, tb) } else { (tb, ta) };
    let t = lo.max(V::Real::ZERO);
    if hi >= V::Real::ZERO && t <= max_toi {
        Some((t, back(d)))
    } else {
        None
    }
}

/// The box `[-h, h]` (2D and 3D): the slabs of the axes, the normal that of the slab
/// that decided the end.
#[inline(always)]
pub(super) fn cuboid<V: Space>(h: V, o: V, d: V, max_toi: V::Real) -> Cast<V> {
    let (mut t0, mut t1) = (-V::Real::INFINITY, V::Real::INFINITY);
    let (mut i0, mut i1) = (0, 0);
    // The axes one by one, written out (a loop over them was left rolled, each component
    // fetched through memory).
    let mut slab = |i: usize| {
        // One division per axis. A component so small that its reciprocal overflows (zero,
        // or below ~1e-38 in f32 where the direction's largest component is at least 1e-8,
        // see `ray_cast`) counts as parallel: otherwise 0 × ∞ could appear below.
        let inv = V::Real::ONE / d[i];
        if !inv.is_finite() {
            // Parallel to the slab: in it (its planes included) all along, or never.
            return o[i].abs() <= h[i];
        }
        let (p, q) = ((-h[i] - o[i]) * inv, (h[i] - o[i]) * inv);
        let (lo, hi) = if p <= q { (p, q) } else { (q, p) };
        if lo > t0 {
            t0 = lo;
            i0 = i;
        }
        if hi < t1 {
            t1 = hi;
            i1 = i;
        }
        true
    };
    if !(slab(0) && slab(1) && (V::DIM < 3 || slab(2))) {
        return Cast::Miss;
    }
    report(pick(t0, t1, max_toi), |_, entering| {
        let (i, s) = if entering { (i0, -d[i0]) } else { (i1, d[i1]) };
        if s >= V::Real::ZERO {
            V::axis(i)
        } else {
            -V::axis(i)
        }
    })
}

/// The convex polytope `{x : n · x <= offset}` over `planes` (Cyrus & Beck 1978): the
/// entry is the latest crossing of a plane the ray enters, the exit the earliest of one it
/// leaves. The planes' normals must be unit.
pub(super) fn planes<V: Space>(
    planes: impl Iterator<Item = (V, V::Real)>,
    o: V,
    d: V,
    max_toi: V::Real,
) -> Cast<V> {
    match clip(planes, o, d) {
        Some((t0, n0, t1, n1)) => report(pick(t0, t1, max_toi), |_, entering| if entering { n0 } else { n1 }),
        None => Cast::Miss,
    }
}

/// The span of the line `o + t d` in `{x : n · x <= offset}` and the (not necessarily unit)
/// normals of the planes at its ends, or `None` when it misses.
#[inline(always)]
fn clip<V: Space>(
    planes: impl Iterator<Item = (V, V::Real)>,
    o: V,
    d: V,
) -> Option<(V::Real, V, V::Real, V)> {
    let zero = V::Real::ZERO;
    let (mut t0, mut t1) = (-V::Real::INFINITY, V::Real::INFINITY);
    let (mut n0, mut n1) = (V::ZERO, V::ZERO);
    for (n, offset) in planes {
        // num >= 0: the origin is on the inner side; the crossing is at num / den.
        let num = offset - n.dot(o);
        let den = n.dot(d);
        // Compare by multiplying (den != 0, t0 and t1 never NaN); divide only on a change.
        if den < zero {
            if num < t0 * den {
                t0 = num / den;
                n0 = n;
            }
        } else if den > zero {
            if num < t1 * den {
                t1 = num / den;
                n1 = n;
            }
        } else if num < zero {
            return None;
        }
    }
    (t0 <= t1).then_some((t0, n0, t1, n1))
}

/// A triangle: flat in 3D (hit at 0 from a start on it; degenerate ones by their edges), a
/// solid in 2D (its three edge lines; a collinear one or a sliver is flat, by its edges).
pub(super) fn triangle<V: Space>(a: V, b: V, c: V, o: V, d: V, max_toi: V::Real) -> Cast<V> {
    if V::DIM == 2 {
        let area = cross2(b - a, c - a);
        // A sliver (height within a few hundred ulps of its longest side, collinear ones
        // included) by its edges: its three edge lines are then almost parallel, and a ray
        // along them crossed each far from the triangle, where rounding put the entry (a
        // triangle 1e-12 thick in f32 was hit 7.7 units off; tests/regressions_cast.rs).
        let longest = (b - a).length_squared().max((c - b).length_squared()).max((a - c).length_squared());
        let solid = area.abs() > V::Real::from_usize(256) * V::Real::EPSILON * longest;
        if !solid {
            // (NaN included.)
            return edges(a, b, c, o, d, max_toi);
        }
        // Outward normals: the edge turned a quarter turn clockwise for a counter-clockwise
        // triangle, anticlockwise otherwise.
        let out = |p: V, q: V| {
            let e = q - p;
            let n = V::axis(0) * e[1] - V::axis(1) * e[0];
            let n = if area > V::Real::ZERO { n } else { -n };
            (n, n.dot(p))
        };
        let faces = [out(a, b), out(b, c), out(c, a)];
        return match clip(faces.into_iter(), o, d) {
            Some((t0, n0, t1, n1)) => {
                report(pick(t0, t1, max_toi), |_, entering| unit_or(if entering { n0 } else { n1 }, back(d)))
            }
            None => Cast::Miss,
        };
    }
    flat_triangle(a, b, c, o, d, max_toi)
}

/// The 3D triangle. The ray crosses it when the three signed volumes `d · (p × q)` of its
/// edges `p q` seen from the origin share a sign (each is a barycentric coordinate of the
/// crossing times `d · n`; an edge shared by two triangles gets exactly opposite values,
/// so no ray slips between them): Plücker coordinates, as in Amanatides & Choi (1997).
fn flat_triangle<V: Space>(a: V, b: V, c: V, o: V, d: V, max_toi: V::Real) -> Cast<V> {
    let zero = V::Real::ZERO;
    let eps = V::Real::EPSILON;
    let (ab, ac) = (b - a, c - a);
    let n = ab.cross_or_zero(ac);
    let nn = n.dot(n);
    if !nn.is_finite() {
        // The normal's square overflowed (a triangle 7e13 long and 3e9 wide, in f32): its
        // unit normal came out zero, divided by the infinite root (fuzz target `casts`).
        return scaled(a, b, c, o, d, |a, b, c, o, d| flat_triangle(a, b, c, o, d, max_toi), Cast::Miss);
    }
    if nn <= eps * eps * ab.dot(ab) * ac.dot(ac) {
        return edges(a, b, c, o, d, max_toi);
    }
    let den = n.dot(d);
    let pa = a - o;
    if den == zero {
        // Parallel to the plane: in it (within rounding), the ray meets the edges, or
        // starts inside the triangle.
        let tol = eps * V::Real::from_usize(16) * (pa.length() + ab.length() + ac.length());
        if pa.dot(n).abs() > tol * nn.sqrt() {
            return Cast::Miss;
        }
        let inside =
            [(a, b), (b, c), (c, a)].iter().all(|&(p, q)| (q - p).cross_or_zero(o - p).dot(n) >= zero);
        return if inside { Cast::Hit(zero, back(d)) } else { edges(a, b, c, o, d, max_toi) };
    }
    let (pb, pc) = (b - o, c - o);
    let (u, v, w) =
        (edge_volume(b, c, pb, pc, d), edge_volume(c, a, pc, pa, d), edge_volume(a, b, pa, pb, d));
    let crosses =
        if den > zero { u >= zero && v >= zero && w >= zero } else { u <= zero && v <= zero && w <= zero };
    if !crosses {
        return Cast::Miss;
    }
    let t = pa.dot(n) / den;
    if !t.is_finite() {
        // `pa · n` is of degree three in the coordinates: it overflows for a triangle 1e17
        // across (f32), and a ray crossing it missed.
        return scaled(a, b, c, o, d, |a, b, c, o, d| flat_triangle(a, b, c, o, d, max_toi), Cast::Miss);
    }
    if !(t >= zero && t <= max_toi) {
        return Cast::Miss;
    }
    // The signed volumes are products of the corners seen from the origin: from far away
    // (|o| of 3e9 in f32 against a triangle 1.6 across) they cancel to noise, and a ray
    // 3e9 away "crossed" (tests/regressions_cast.rs). A true crossing lies on the
    // triangle, so within rounding of its bounding box; anything else is that noise.
    let hit = o + d * t;
    // (Lengths bounded by twice their largest component: no square roots.)
    let size = |v: V| v.abs_elem().max_component();
    let reach = V::Real::from_usize(128) * eps * (size(o) + t * size(d) + size(pa) + size(ab));
    let on_box = (0..V::DIM).all(|i| {
        let lo = a[i].min(b[i]).min(c[i]) - reach;
        let hi = a[i].max(b[i]).max(c[i]) + reach;
        hit[i] >= lo && hit[i] <= hi
    });
    if !on_box {
        return Cast::Miss;
    }
    let unit = n / nn.sqrt();
    Cast::Hit(t, if den > zero { -unit } else { unit })
}

/// The answer of [`flat_triangle4`] by lane (bit `k` of a mask for lane `k`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Triangles4<R> {
    /// Lanes off the common path: `flat_triangle` answers them.
    pub special: u8,
    /// Lanes crossed at `t[k] >= 0` on the triangle: a hit when `t[k] <= max_toi`.
    pub crossed: u8,
    /// The crossing times.
    pub t: [R; 4],
    /// The hit's normal, facing the ray, by axis and lane.
    pub normal: [[R; 4]; 3],
}

/// [`flat_triangle`] for four 3D triangles at once (corner `a` of lane `k` is `a[axis][k]`,
/// and so on), along its common path: a finite, non-degenerate normal, a ray not parallel
/// to the plane, a finite crossing time. The lanes repeat its operations in its order
/// (glam's `cross` and `dot`; IEEE lanes, no fused multiply-add), so each lane's answer is
/// `flat_triangle`'s bit for bit; the lanes off the common path are left to it. When no
/// lane on the common path crosses, the times and normals are not computed (zeros).
#[inline(always)]
pub(super) fn flat_triangle4<R: Real>(
    a: &[[R; 4]; 3],
    b: &[[R; 4]; 3],
    c: &[[R; 4]; 3],
    o: [R; 3],
    d: [R; 3],
) -> Triangles4<R> {
    type L<R> = <R as Real>::X4;
    let v = |p: &[[R; 4]; 3]| p.map(<L<R> as Lanes4<R>>::from_array);
    let s = |x: [R; 3]| x.map(<L<R> as Lanes4<R>>::splat);
    let (a, b, c, o, d) = (v(a), v(b), v(c), s(o), s(d));
    let sub = |p: [L<R>; 3], q: [L<R>; 3]| [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
    let dot = |p: [L<R>; 3], q: [L<R>; 3]| p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
    let cross = |p: [L<R>; 3], q: [L<R>; 3]| {
        [p[1] * q[2] - q[1] * p[2], p[2] * q[0] - q[2] * p[0], p[0] * q[1] - q[0] * p[1]]
    };
    let splat = <L<R> as Lanes4<R>>::splat;
    let bits = <L<R> as Lanes4<R>>::bits;
    let zero = splat(R::ZERO);
    let (ab, ac) = (sub(b, a), sub(c, a));
    let n = cross(ab, ac);
    let nn = dot(n, n);
    let finite = bits(nn.lt(splat(R::INFINITY)));
    let eps = R::EPSILON;
    let degenerate = bits(nn.le(splat(eps * eps) * dot(ab, ab) * dot(ac, ac)));
    let den = dot(n, d);
    let parallel = bits(den.eq(zero));
    let (pa, pb, pc) = (sub(a, o), sub(b, o), sub(c, o));
    // `edge_volume`, its arm chosen by the same lexicographic order of the edge's ends.
    let volume = |p: [L<R>; 3], q: [L<R>; 3], pp: [L<R>; 3], pq: [L<R>; 3]| {
        // p <= q lexicographically: the first coordinate decides unless equal, and so on.
        let (eq0, eq1) = (p[0].eq(q[0]), p[1].eq(q[1]));
        let forward = (!eq0 & p[0].lt(q[0])) | (eq0 & ((!eq1 & p[1].lt(q[1])) | (eq1 & p[2].le(q[2]))));
        let pick = |x: L<R>, y: L<R>| L::<R>::select(forward, x, y);
        let arm = [pick(pp[0], pq[0]), pick(pp[1], pq[1]), pick(pp[2], pq[2])];
        dot(d, cross(arm, sub(q, p)))
    };
    let (u, v, w) = (volume(b, c, pb, pc), volume(c, a, pc, pa), volume(a, b, pa, pb));
    let front_mask = zero.lt(den);
    let front = bits(front_mask);
    let all_ge = bits(zero.le(u) & zero.le(v) & zero.le(w));
    let all_le = bits(u.le(zero) & v.le(zero) & w.le(zero));
    let crosses = (front & all_ge) | (!front & all_le);
    let common = finite & !degenerate & !parallel;
    if crosses & common & 0b1111 == 0 {
        // No lane on the common path crosses: the rest is for the others.
        let none = [R::ZERO; 4];
        return Triangles4 { special: !common & 0b1111, crossed: 0, t: none, normal: [none; 3] };
    }
    let t = dot(pa, n) / den;
    let t_finite = bits(t.abs().lt(splat(R::INFINITY)));
    let special = (!common | (crosses & !t_finite)) & 0b1111;
    // The crossing on the triangle, within rounding of its bounding box.
    let hit = [o[0] + d[0] * t, o[1] + d[1] * t, o[2] + d[2] * t];
    let size = |v: [L<R>; 3]| v[0].abs().max(v[1].abs()).max(v[2].abs());
    let reach = splat(R::from_usize(128) * eps) * (size(o) + t * size(d) + size(pa) + size(ab));
    let mut on_box = t.le(t); // every lane but NaN
    for axis in 0..3 {
        let lo = a[axis].min(b[axis]).min(c[axis]) - reach;
        let hi = a[axis].max(b[axis]).max(c[axis]) + reach;
        on_box = on_box & lo.le(hit[axis]) & hit[axis].le(hi);
    }
    let crossed = crosses & !special & bits(zero.le(t)) & bits(on_box) & 0b1111;
    let root = nn.sqrt();
    let face = |x: L<R>| {
        let unit = x / root;
        L::<R>::select(front_mask, -unit, unit).to_array()
    };
    Triangles4 { special, crossed, t: t.to_array(), normal: [face(n[0]), face(n[1]), face(n[2])] }
}

/// The signed volume `d · ((p - o) × (q - o))` of the edge `p q` seen from the ray: a
/// barycentric coordinate of the crossing, times `d · n`; `pp` and `pq` are `p - o` and
/// `q - o`.
///
/// Written as `d · (s × (q - p))` with `s` either arm, which is the same number: one long arm
/// and the short edge, so its rounding grows with the distance of the origin, not with its
/// square (two long arms cancel to noise from far away). The arm is the one from the edge's
/// lexicographically smaller end, so the two triangles sharing an edge (which see it as
/// `q - p` and `p - q`, exact negatives) compute exactly opposite values and no ray slips
/// between them.
#[inline(always)]
fn edge_volume<V: Space>(p: V, q: V, pp: V, pq: V, d: V) -> V::Real {
    // Lexicographic `p <= q`: the first coordinate decides unless the two are equal (rare,
    // and predictable).
    let forward = if p[0] != q[0] {
        p[0] < q[0]
    } else if p[1] != q[1] {
        p[1] < q[1]
    } else {
        p[2] <= q[2]
    };
    let arm = if forward { pp } else { pq };
    d.dot(arm.cross_or_zero(q - p))
}

/// `cast(a, b, c, o, d)` on everything scaled by a power of two that brings the largest
/// coordinate near 1, which is exact: the ray crosses at the same time, with the same
/// normal. For the closed forms whose products of two or three coordinates overflowed;
/// `none` when nothing is large enough to scale down.
#[cold]
#[inline(never)]
fn scaled<V: Space, T>(a: V, b: V, c: V, o: V, d: V, cast: impl FnOnce(V, V, V, V, V) -> T, none: T) -> T {
    let m = a
        .abs_elem()
        .max_elem(b.abs_elem())
        .max_elem(c.abs_elem())
        .max_elem(o.abs_elem())
        .max_elem(d.abs_elem());
    let k = m.max_component().recip_pow2();
    if k < V::Real::ONE && k > V::Real::ZERO {
        cast(a * k, b * k, c * k, o * k, d * k)
    } else {
        none
    }
}

/// The first hit of the three edges of `a b c` taken as flat segments. An edge of no
/// length is a point, whose normal alone is the ray's reverse; unless all three are, that
/// point ends the others, and its normal is the nearest not pointing back along them (the
/// ray's reverse pointed back along a segment at its end; fuzz target `casts`, tangent
/// rays).
fn edges<V: Space>(a: V, b: V, c: V, o: V, d: V, max_toi: V::Real) -> Cast<V> {
    let mut best: Option<(V::Real, V)> = None;
    let point = a == b && b == c;
    for (p, q, r) in [(a, b, c), (b, c, a), (c, a, b)] {
        if let Some((t, mut n)) = segment_hit(p, q, o, d, max_toi) {
            let (e, zero) = (r - p, V::Real::ZERO);
            let (along, ee) = (n.dot(e), e.dot(e));
            if p == q && !point && along > zero && ee > zero {
                n = unit_or(n - e * (along / ee), n);
            }
            if best.is_none_or(|(bt, _)| t < bt) {
                best = Some((t, n));
            }
        }
    }
    best.map_or(Cast::Miss, |(t, n)| Cast::Hit(t, n))
}

/// The slab `|y| <= h` of the cylinder and cone: its span, or `None` when a ray parallel
/// to it runs outside.
#[inline(always)]
fn y_slab<V: Space>(m: V, d: V, h: V::Real) -> Option<(V::Real, V::Real)> {
    if d[1] == V::Real::ZERO {
        return (m[1].abs() <= h).then_some((-V::Real::INFINITY, V::Real::INFINITY));
    }
    let (p, q) = ((-h - m[1]) / d[1], (h - m[1]) / d[1]);
    Some(if p <= q { (p, q) } else { (q, p) })
}

/// The cap normal of an end decided by the slab: `-y` entering upwards, `+y` leaving.
#[inline(always)]
fn cap<V: Space>(d: V, entering: bool) -> V {
    if (d[1] > V::Real::ZERO) == entering {
        -V::axis(1)
    } else {
        V::axis(1)
    }
}

/// The cylinder about the y axis, radius `e.x`, half height `e.y` (3D): the side's
/// quadratic in `(x, z)` clipped by the slab of the caps.
pub(super) fn cylinder<V: Space>(e: V, o: V, d: V, max_toi: V::Real) -> Cast<V> {
    let zero = V::Real::ZERO;
    let (r, h) = (e[0], e[1]);
    let dd = d.dot(d);
    let (m, tc) = near_centre(o, d, dd, (r * r + h * h).sqrt());
    let Some((mut t0, mut t1)) = y_slab(m, d, h) else {
        return Cast::Miss;
    };
    let (mut side0, mut side1) = (false, false);
    let flat = |v: V| v - V::axis(1) * v[1];
    let (mp, dp) = (flat(m), flat(d));
    let aa = dp.dot(dp);
    if aa <= dd * V::Real::EPSILON * V::Real::EPSILON {
        // Along the axis.
        if mp.dot(mp) > r * r {
            return Cast::Miss;
        }
    } else {
        let bb = mp.dot(dp);
        let perp = mp - dp * (bb / aa);
        let disc = aa * (r * r - perp.dot(perp));
        if !ge(disc, zero) {
            return Cast::Miss;
        }
        let (s0, s1) = roots(aa, bb, mp.dot(mp) - r * r, disc);
        if s0 > t0 {
            t0 = s0;
            side0 = true;
        }
        if s1 < t1 {
            t1 = s1;
            side1 = true;
        }
    }
    report(pick(t0 + tc, t1 + tc, max_toi), |t, entering| {
        if if entering { side0 } else { side1 } {
            unit_or(flat(m + d * (t - tc)), back(d))
        } else {
            cap(d, entering)
        }
    })
}

/// The outward normal at a cone's apex nearest to `u` (a ray's `-d`): `u` itself when it
/// lies in the apex's cone of normals (within `90° - θ` of `+y`, `θ` the half angle), else
/// the side's normal in `u`'s azimuth.
fn apex_normal<V: Space>(u: V, r: V::Real, h: V::Real) -> V {
    let len = (r * r + (h + h) * (h + h)).sqrt();
    let (sin, cos) = (r / len, (h + h) / len);
    let u = unit_or(u, V::axis(1));
    if u[1] >= sin {
        return u;
    }
    side_normal(u, sin, cos)
}

/// The cone's side normal in the azimuth of `u` (`sin`, `cos` of the half angle).
fn side_normal<V: Space>(u: V, sin: V::Real, cos: V::Real) -> V {
    let across = unit_or(u - V::axis(1) * u[1], V::axis(0));
    across * cos + V::axis(1) * sin
}

/// The normal for a hit at `p` near a cone's apex (local frame), by a ray along `d`: of
/// the apex's normals, the one whose plane through `p` leaves least of the cone beyond it
/// (the apex: a normal `n` of its cone has the cone behind its plane through the apex, so
/// through `p` the apex is `n · (apex - p)` beyond). Facing the ray (`apex_normal`), or the
/// side's normals in the azimuths of `±d` (the plane of a ray running along the side) and
/// of `p` (the side's own normal there, blurred by rounding this near the apex).
#[cold]
fn near_apex_normal<V: Space>(p: V, d: V, r: V::Real, h: V::Real) -> V {
    let len = (r * r + (h + h) * (h + h)).sqrt();
    let (sin, cos) = (r / len, (h + h) / len);
    let to_apex = V::axis(1) * h - p;
    let facing = apex_normal(-d, r, h);
    let mut best = (facing.dot(to_apex), facing);
    // (Only a normal the ray does not run into from behind, beyond the rounding of a ray
    // given along the side: its direction is off the side's by ulps of the inputs, which
    // a far origin multiplies.)
    let behind = d.length() * V::Real::EPSILON.sqrt();
    for u in [d, -d, p] {
        let n = side_normal(u, sin, cos);
        let beyond = n.dot(to_apex);
        if n.dot(d) <= behind && beyond < best.0 {
            best = (beyond, n);
        }
    }
    best.1
}

/// The cone about the y axis, base radius `e.x` at `y = -e.y`, apex at `y = +e.y` (3D).
///
/// Within the slab `|y| <= h` the solid is `x² + z² <= k² (h - y)²` with `k = r / 2h` (the
/// other nappe of that double cone lies above the apex). On the line that quadratic is
/// `<= 0` on an interval, on the two sides of one (the line crosses both nappes), on a
/// half-line or everywhere; each piece is clipped by the slab and the span is their hull.
///
/// A flat cone (`k > 1`) is measured with `x` and `z` shrunk by `1 / k`, so the quadratic
/// is `x'² + z'² <= (h - y)²`: squaring `k` itself overflows for radii far beyond the height
/// (a radius of 1e150 over a height of 0.7 in f64 made every coefficient infinite).
pub(super) fn cone<V: Space>(e: V, o: V, d: V, max_toi: V::Real) -> Cast<V> {
    let one = V::Real::ONE;
    let (r, h) = (e[0], e[1]);
    let k = r / (h + h);
    // The quadratic is `s² (x² + z²) - sk² (h - y)²`: `s = 1, sk = k` for a steep cone,
    // `s = 2h / r, sk = 1` for a flat one (never `1 / k`, which is 0 when `k` overflows).
    let (s, sk) = if k > one { ((h + h) / r, one) } else { (one, k) };
    let sk2 = sk * sk;
    let dd = d.dot(d);
    // The size of the numbers the hit point is computed from (the origin's), for its rounding.
    let reach_in = o.abs_elem().max_component();
    let (mut m, mut tc) = near_centre(o, d, dd, (r * r + h * h).sqrt());
    let Some((mut lo, mut hi)) = y_slab(m, d, h) else {
        return Cast::Miss;
    };
    // From a point far outside the slab (which the recentring above leaves for a flat cone,
    // whose reach is its radius) the quadratic is formed at the line's point in the middle
    // of the slab instead: formed farther, its terms grow as `(k (h - y))²` and the
    // discriminant cancels them (a ray crossing a cone of radius 1e150 and height 0.7 from
    // 6e149 below it lost every digit and hit at 9.6e149 off it; fuzz target `casts`).
    // Nearer, the shift would only add its rounding.
    //
    // That point is the line's point at `y = 0`, taken with `y` exactly 0 rather than as
    // computed: its time `tm` is rounded, and so is `m + d tm`, and where the slab is
    // thinner than the rounding of the times (a direction and an origin of 1e150 crossing
    // a slab 0.7 thick) the computed `y` was noise of 1e134 that put the point far outside
    // the slab again, and the quadratic formed there called a ray 1.4 radii from the axis
    // inside (fuzz target `casts`). Along the line, `x` and `z` move by less than their own
    // rounding in the time `tm` is off by.
    let four = V::Real::TWO * V::Real::TWO;
    if m[1].abs() > four * h && lo.is_finite() && hi.is_finite() {
        let tm = -m[1] / d[1];
        let at = m + d * tm;
        m = at - V::axis(1) * at[1];
        tc += tm;
        let Some(slab) = y_slab(m, d, h) else {
            return Cast::Miss;
        };
        (lo, hi) = slab;
    }
    let Some((mut t0, mut t1, mut side0, mut side1)) = cone_span(m, d, h, s, sk2, lo, hi) else {
        return Cast::Miss;
    };
    // A line meeting the side near the apex is measured again from its point nearest the
    // apex: formed about a point a size away, the quadratic's terms of order size² cancel to
    // what the apex's neighbourhood holds (`~ δ²` for a line passing `δ` from it), and for
    // `δ` under `√ε` of the size its roots were noise (a ray grazing the apex hit 2e-9 off
    // the cone in f64, 2e-4 in f32). Near: within `64 √ε` of the smaller of radius and
    // height, which the noise of the first roots cannot leave.
    let apex = V::axis(1) * h;
    let small = r.min(h) * V::Real::EPSILON.sqrt() * V::Real::from_usize(64);
    // (Its height first: a scalar test that rules out all but the lines passing the apex.)
    let near = |t: V::Real| {
        (m[1] + d[1] * t - h).abs() <= small && (m + d * t - apex).length_squared() <= small * small
    };
    if t0 <= t1 && (side0 && near(t0) || side1 && near(t1)) {
        let Some((again, shift)) = cone_span_from_apex(m, d, dd, h, s, sk2) else {
            return Cast::Miss;
        };
        m += d * shift;
        tc += shift;
        (t0, t1, side0, side1) = again;
    }
    report(pick(t0 + tc, t1 + tc, max_toi), |t, entering| {
        if if entering { side0 } else { side1 } {
            // The gradient of x² + z² - k² (h - y)², at the point (t counts from the
            // original origin, m sits at time tc).
            // For a flat cone the gradient divided by `k`: `(x / k, k (h - y), z / k)`,
            // with `k (h - y)` formed as `(h - y) / 2h` times `r` so it stays within `r`.
            let p = m + d * (t - tc);
            let gy = if k > one { (h - p[1]) / (h + h) * r } else { k * k * (h - p[1]) };
            let g = V::axis(0) * (p[0] * s) + V::axis(1) * gy + V::axis(2) * (p[2] * s);
            // Near the apex the side's normal turns with the point's azimuth, which rounding
            // blurs (at the apex itself the gradient vanishes): within `√(noise size)` of it,
            // where the side's normal would be off by more than the apex's distance, the
            // normal is the one of the apex's cone of normals nearest to facing the ray (the
            // cone then lies behind its plane to within that distance).
            let noise = V::Real::EPSILON * V::Real::from_usize(64) * (r + h + reach_in);
            let below = h - p[1];
            if below * below <= noise * (r + h) && (p - apex).length_squared() <= noise * (r + h) {
                near_apex_normal(p, d, r, h)
            } else {
                unit_or(g, back(d))
            }
        } else if cap(d, entering)[1] > V::Real::ZERO {
            // The slab's top is the apex alone (a ray along the side, within rounding of
            // it, meets the slab there first).
            if entering {
                near_apex_normal(m + d * (t - tc), d, r, h)
            } else {
                apex_normal(d, r, h)
            }
        } else {
            cap(d, entering)
        }
    })
}

/// The span of the line `m + t d` in the cone (quadratic in the slab `lo..hi` of `t`), in the
/// scaled form of [`cone`]: `None` for a miss; the times and whether each end is on the
/// side (not a cap).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn cone_span<V: Space>(
    m: V,
    d: V,
    h: V::Real,
    s: V::Real,
    sk2: V::Real,
    lo: V::Real,
    hi: V::Real,
) -> Option<Span<V::Real>> {
    let (zero, inf) = (V::Real::ZERO, V::Real::INFINITY);
    let w0 = h - m[1];
    let (mx, mz, dx, dz) = (m[0] * s, m[2] * s, d[0] * s, d[2] * s);
    let aa = dx * dx + dz * dz - sk2 * d[1] * d[1];
    let bb = mx * dx + mz * dz + sk2 * w0 * d[1];
    let cc = mx * mx + mz * mz - sk2 * w0 * w0;
    let mut pieces = [(inf, -inf); 2];
    if aa == zero {
        // 2 bb t + cc <= 0.
        pieces[0] = if bb > zero {
            (-inf, -cc / (bb + bb))
        } else if bb < zero {
            (-cc / (bb + bb), inf)
        } else if cc <= zero {
            (-inf, inf)
        } else {
            return None;
        };
    } else {
        let disc = bb * bb - aa * cc;
        if disc >= zero {
            let (s0, s1) = roots(aa, bb, cc, disc);
            if aa > zero {
                pieces[0] = (s0, s1);
            } else {
                pieces = [(-inf, s0), (s1, inf)];
            }
        } else if aa < zero {
            pieces[0] = (-inf, inf);
        } else {
            return None;
        }
    }
    // The hull of the pieces' parts within the slab, remembering which end the side made.
    let (mut t0, mut t1) = (inf, -inf);
    let (mut side0, mut side1) = (false, false);
    for (p, q) in pieces {
        let (s, e) = (p.max(lo), q.min(hi));
        if s <= e {
            if s < t0 {
                t0 = s;
                side0 = p > lo;
            }
            if e > t1 {
                t1 = e;
                side1 = q < hi;
            }
        }
    }
    Some((t0, t1, side0, side1))
}

/// A line's span in the cone, `(t0, t1, side0, side1)`: the times, and whether each end
/// is on the side (not a cap).
type Span<R> = (R, R, bool, bool);

/// [`cone_span`] from the line's point nearest the apex, and the time that point is at
/// after `m` (for a line that meets the side near the apex).
#[cold]
#[inline(never)]
fn cone_span_from_apex<V: Space>(
    m: V,
    d: V,
    dd: V::Real,
    h: V::Real,
    s: V::Real,
    sk2: V::Real,
) -> Option<(Span<V::Real>, V::Real)> {
    let shift = (V::axis(1) * h - m).dot(d) / dd;
    let m = m + d * shift;
    let (lo, hi) = y_slab(m, d, h)?;
    Some((cone_span(m, d, h, s, sk2, lo, hi)?, shift))
}
