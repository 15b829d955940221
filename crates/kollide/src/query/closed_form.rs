//! Closed forms for cores that are points or segments (balls, capsules, segments).

use crate::math::Real;
use crate::query::contact::output::{ContactStatus, CoreContact};
use crate::query::Space;

/// The closest points `(p, q)` of segments `p0 p1` and `q0 q1` (either may be a point).
///
/// Minimises `|p(s) - q(t)|²` over `s, t ∈ [0, 1]` by clamping in the order that keeps it
/// exact on the boundary (Ericson, *Real-Time Collision Detection*, §5.1.9); parallel and
/// zero-length segments take the branch without division.
// Always inlined: called out of line it returns its two points through memory and the
// closed forms (balls, capsules) spend a fifth of their time on the call.
#[inline(always)]
pub(crate) fn segment_segment<V: Space>(p0: V, p1: V, q0: V, q1: V) -> (V, V) {
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let (s, t) = segment_params(d1, d2, r);
    (p0 + d1 * s, q0 + d2 * t)
}

/// The parameters `(s, t)` of the closest points `p0 + s d1` and `q0 + t d2`, with
/// `r = p0 - q0`. They do not change when the three vectors are scaled together, which is
/// how lengths whose products of four overflow (segments 1e10 long in `f32`) or underflow
/// are handled: the terms below are of degree four in the lengths.
#[inline(always)]
fn segment_params<V: Space>(d1: V, d2: V, r: V) -> (V::Real, V::Real) {
    let zero = V::Real::ZERO;
    let a = d1.length_squared();
    let e = d2.length_squared();
    if a <= zero && e <= zero && d1 == V::ZERO && d2 == V::ZERO {
        return (zero, zero);
    }
    // Degree-two size of the problem; its square bounds every product below by a small
    // factor. Outside the safe range, rescale (exact, by a power of two) and solve again.
    let size = a.max(e).max(r.length_squared());
    let high = V::Real::MAX.sqrt() * V::Real::from_f64(1.0 / 64.0);
    let low = (V::Real::MIN_POSITIVE / V::Real::EPSILON).sqrt();
    if !(size < high && size >= low) {
        return segment_params_rescaled(d1, d2, r);
    }
    segment_params_in_range(d1, d2, r, a, e)
}

/// [`segment_params`] for vectors whose squares overflow or underflow.
#[cold]
#[inline(never)]
fn segment_params_rescaled<V: Space>(d1: V, d2: V, r: V) -> (V::Real, V::Real) {
    let m = d1.abs_elem().max_elem(d2.abs_elem()).max_elem(r.abs_elem()).max_component();
    if !(m > V::Real::ZERO && m.is_finite()) {
        // A difference overflowed: no closest pair can be told apart; the ends will do (the
        // distance of the caller is then infinite and reported as such).
        return (V::Real::ZERO, V::Real::ZERO);
    }
    let p = m.recip_pow2();
    let (d1, d2, r) = (d1 * p, d2 * p, r * p);
    segment_params_in_range(d1, d2, r, d1.length_squared(), d2.length_squared())
}

/// Minimises `|p(s) - q(t)|²` over `s, t ∈ [0, 1]` for numbers whose products of four
/// are finite and normal; `a = |d1|²`, `e = |d2|²`, not both zero.
#[inline(always)]
fn segment_params_in_range<V: Space>(d1: V, d2: V, r: V, a: V::Real, e: V::Real) -> (V::Real, V::Real) {
    let zero = V::Real::ZERO;
    let one = V::Real::ONE;
    let f = d2.dot(r);
    let clamp01 = |x: V::Real| x.max(zero).min(one);
    if a <= zero {
        return (zero, clamp01(f / e));
    }
    let c = d1.dot(r);
    if e <= zero {
        return (clamp01(-c / a), zero);
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    // Parallel (denom ~ 0): any s works; take 0 and let the t-clamp settle it.
    let s0 = if denom > V::Real::EPSILON * a * e { clamp01((b * f - c * e) / denom) } else { zero };
    let t0 = (b * s0 + f) / e;
    if t0 < zero {
        (clamp01(-c / a), zero)
    } else if t0 > one {
        (clamp01((b - c) / a), one)
    } else {
        (s0, t0)
    }
}

/// The unit normal of two segments' gap `gap` (of length `len`, from A's closest point to
/// B's): a closest point inside a segment (farther than `noise` from its ends) makes the true
/// gap square to that segment, so the gap's component along it, which is rounding, is
/// removed. Each segment is `(closest point, start, unit direction, length)`.
///
/// Rounding puts a few ulps of the coordinates along the segment; next to a gap not far
/// above them that tilts the normal: a point 3.8e-15 off a capsule's core got a normal 0.9
/// degrees off square, and moving out by the radius 1.8 left it 2e-4 inside (fuzz target
/// `queries`).
#[inline]
fn square_to_interiors<V: Space>(
    gap: V,
    len: V::Real,
    (pa, p0, u1, l1): (V, V, V, V::Real),
    (pb, q0, u2, l2): (V, V, V, V::Real),
    noise: V::Real,
) -> V {
    let zero = V::Real::ZERO;
    let inside = |p: V, start: V, u: V, l: V::Real| {
        let s = (p - start).dot(u);
        l > zero && s > noise && s < l - noise
    };
    let mut g = gap;
    let in_a = inside(pa, p0, u1, l1);
    if in_a {
        g -= u1 * g.dot(u1);
    }
    if inside(pb, q0, u2, l2) {
        // B's direction made square to A's when A's was removed too.
        let w = if in_a { u2 - u1 * u2.dot(u1) } else { u2 };
        let wl = w.length_safe();
        if wl > V::Real::EPSILON.sqrt() {
            let w = w / wl;
            g -= w * g.dot(w);
        }
    }
    let gl = g.length_safe();
    // Nothing left (the gap lay along the segments, which only rounding can make it): the
    // gap's own direction.
    if gl > zero && gl >= len * V::Real::HALF {
        g / gl
    } else {
        gap / len
    }
}

/// Two segment cores (points are zero-length segments), both in one frame: the closest
/// points when they are apart; when they cross, the shortest separating translation of the
/// segments themselves (their Minkowski difference is a parallelogram containing the
/// origin: flat in 3D, so the depth is 0 along its normal; in 2D the depth to its nearest
/// side).
#[inline]
pub(crate) fn segments<V: Space>(p0: V, p1: V, q0: V, q1: V) -> CoreContact<V> {
    let zero = V::Real::ZERO;
    let (pa, pb) = segment_segment(p0, p1, q0, q1);
    let gap = pb - pa;
    let len = gap.length_safe();
    // Below this the direction of `gap` is rounding noise.
    let mag =
        p0.abs_elem().max_elem(p1.abs_elem()).max_elem(q0.abs_elem()).max_elem(q1.abs_elem()).max_component();
    let noise = V::Real::EPSILON * V::Real::from_usize(64) * mag;
    let (d1, d2) = (p1 - p0, q1 - q0);
    // Lengths and the sine of the angle from unit directions: the products of the raw
    // directions are of degree four, which overflow f32 for segments 2e17 long (crossing
    // capsules got a normal along neither segment's square: found by the fuzz target
    // `queries`).
    let (l1, l2) = (d1.length_safe(), d2.length_safe());
    let unit = |d: V, l: V::Real| if l > zero { d / l } else { V::ZERO };
    let (u1, u2) = (unit(d1, l1), unit(d2, l2));
    let apart = CoreContact {
        distance: len,
        normal: square_to_interiors(gap, len, (pa, p0, u1, l1), (pb, q0, u2, l2), noise),
        point_a: pa,
        point_b: pb,
        status: ContactStatus::Converged,
    };
    // How far off the closest points may be: about `noise / sin θ` for segments at an
    // angle θ (a point and a segment: `noise`), but only about `√ε` of their size for
    // nearly parallel ones. Below that the gap may hide a crossing (2D) or point the wrong
    // way (3D): decide from the segments' directions instead. (The `√ε` bound used for
    // every pair made long capsules 0.33 apart "penetrate" by their radii.)
    let root_eps = V::Real::EPSILON.sqrt();
    let accuracy = if l1 <= noise || l2 <= noise {
        noise
    } else {
        let sin =
            if V::DIM == 3 { u1.cross_or_zero(u2).length() } else { (u1[0] * u2[1] - u1[1] * u2[0]).abs() };
        if sin > root_eps {
            noise / sin
        } else {
            root_eps * mag
        }
    };
    if len > accuracy {
        return apart;
    }
    // Candidate normals: the sides of the parallelogram A ⊖ B.
    let mut best: Option<(V::Real, V, V, V)> = None;
    // `a_face`: the axis is square to A's segment (a side of P made of A and one end of B),
    // so B's end is the witness and its partner is on A; otherwise the other way round.
    let mut consider = |n: V, a_face: bool| {
        // (`length_safe`: a side 3e26 long has a square beyond f32, found by the fuzz
        // target `queries`, which gave a zero normal.)
        let l = n.length_safe();
        if l <= zero {
            return;
        }
        let n = n / l;
        for n in [n, -n] {
            // Move B along n: A's extreme along n, B's least along n.
            let (ha, a_pt) = if p0.dot(n) >= p1.dot(n) { (p0.dot(n), p0) } else { (p1.dot(n), p1) };
            let (lb, b_pt) = if q0.dot(n) <= q1.dot(n) { (q0.dot(n), q0) } else { (q1.dot(n), q1) };
            let depth = ha - lb;
            if best.is_none_or(|(d, ..)| depth < d) {
                // The foot of the origin on the nearest side of P lies within that side.
                best = Some(if a_face {
                    (depth, n, b_pt + n * depth, b_pt)
                } else {
                    (depth, n, a_pt, a_pt - n * depth)
                });
            }
        }
    };
    if V::DIM == 3 {
        // |d1 × d2|² > noise² (|d1|² + |d2|²), divided by |d1|² |d2|² (see above).
        let c = u1.cross_or_zero(u2);
        let (n1, n2) = (
            if l1 > zero { noise / l1 } else { V::Real::INFINITY },
            if l2 > zero { noise / l2 } else { V::Real::INFINITY },
        );
        if c.length_squared() > n1 * n1 + n2 * n2 {
            // Crossing or nearly so in 3D: the parallelogram is flat, and the distance is
            // measured along its normal, oriented by the gap or, when the cores cross, from
            // A's centre towards B's.
            let n = c / c.length();
            let along = gap.dot(n);
            let centre = (q0 + q1 - p0 - p1) * V::Real::HALF;
            let toward = if along.abs() > noise { along } else { n.dot(centre) };
            let n = if toward < zero { -n } else { n };
            return CoreContact {
                distance: gap.dot(n).max(zero),
                normal: n,
                point_a: pa,
                point_b: pb,
                status: ContactStatus::Converged,
            };
        }
        if len > noise {
            return apart;
        }
    } else {
        consider(V::from_f64_array([-d1[1].to_f64(), d1[0].to_f64(), 0.0]), true);
        consider(V::from_f64_array([-d2[1].to_f64(), d2[0].to_f64(), 0.0]), false);
        // The two side normals of P decide exactly whether the origin is inside it: a
        // side that clears the origin by more than the rounding of its dot products (a few
        // ulps of the coordinates, far less than `noise`) proves the segments apart
        // however small the gap is next to `noise` (a circle 0.9 above a segment 2e6 long
        // in f32 was reported penetrating).
        let clear = best.is_some_and(|(d, ..)| d < -noise / V::Real::from_usize(16));
        if best.is_none_or(|(d, ..)| d <= zero) && (len > noise || clear) {
            // Apart, but by a gap this short its direction is rounding noise: the side that
            // proves it separates the cores along an exact normal. (A ball's centre 1.4e-15
            // off a capsule's core got the noise's direction, 22 degrees off square, and
            // moving out by the radii did not clear the capsule: fuzz target `queries`.)
            return match best {
                Some((_, n, ..)) => CoreContact { normal: n, ..apart },
                None => apart,
            };
        }
    }
    match best {
        Some((depth, n, point_a, point_b)) if depth > zero => {
            CoreContact { distance: -depth, normal: n, point_a, point_b, status: ContactStatus::Converged }
        }
        // Touching within rounding along a side of P (2D): that side's normal, along which
        // the cores do not overlap, is the one to push along. (A segment ending 1e-100 from
        // a capsule's core got the normal square to itself instead, along which moving out
        // by the radius did not clear the capsule: fuzz target `queries`.)
        Some((_, n, ..)) => CoreContact {
            distance: zero,
            normal: n,
            point_a: pa,
            point_b: pb,
            status: ContactStatus::Converged,
        },
        None => {
            // Collinear, or points: the difference is a segment or a point through the
            // origin; any direction square to it has depth 0. Prefer the one from A's
            // centre towards B's.
            let axis = if d1.length_squared() >= d2.length_squared() { d1 } else { d2 };
            let centre = (q0 + q1 - p0 - p1) * V::Real::HALF;
            let n = if axis.length_squared() > zero {
                let u = axis / axis.length_safe();
                let off = centre - u * centre.dot(u);
                let off_len = off.length_safe();
                if off_len > noise {
                    off / off_len
                } else {
                    u.any_orthogonal()
                }
            } else if centre.length_safe() > noise {
                centre / centre.length_safe()
            } else {
                V::axis(0)
            };
            CoreContact {
                distance: zero,
                normal: n,
                point_a: pa,
                point_b: pb,
                status: ContactStatus::Converged,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    /// Brute force over a fine grid of (s, t), refined: an independent check.
    fn brute(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> f64 {
        let n = 400;
        let mut best = f64::MAX;
        for i in 0..=n {
            let s = i as f64 / n as f64;
            let p = p0 + (p1 - p0) * s;
            // For fixed p the best t is a clamped projection: exact.
            let d = q1 - q0;
            let t = if d.length_squared() > 0.0 {
                ((p - q0).dot(d) / d.length_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            best = best.min((p - (q0 + d * t)).length());
        }
        best
    }

    #[test]
    fn matches_brute_force() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut r = || {
            DVec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
        };
        for k in 0..2000 {
            let (p0, p1, q0) = (r(), r(), r());
            // Every tenth pair is parallel, every 15th has a point segment.
            let q1 = if k % 10 == 0 {
                q0 + (p1 - p0) * 0.7
            } else if k % 15 == 0 {
                q0
            } else {
                r()
            };
            let (p, q) = segment_segment(p0, p1, q0, q1);
            let d = (p - q).length();
            let b = brute(p0, p1, q0, q1);
            // The grid over s is 1/400 apart, so brute force may overshoot by at most that much.
            assert!(d <= b + 1e-12, "closed form {d} worse than brute force {b}");
            assert!(b - d < 0.01, "closed form {d} far below brute force {b}");
        }
    }
}
