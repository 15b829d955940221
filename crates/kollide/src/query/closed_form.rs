//! Closed forms for cores that are points or segments (balls, capsules, segments).

use crate::math::Real;
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
