//! Closed forms for cores that are points or segments (balls, capsules, segments).

use crate::math::{Real, Vector};

/// The closest points `(p, q)` of segments `p0 p1` and `q0 q1` (either may be a point).
///
/// Minimises `|p(s) - q(t)|²` over `s, t ∈ [0, 1]` by clamping in the order that keeps it
/// exact on the boundary (Ericson, *Real-Time Collision Detection*, §5.1.9); parallel and
/// zero-length segments take the branch without division.
// Always inlined: called out of line it returns its two points through memory and the
// closed forms (balls, capsules) spend a fifth of their time on the call.
#[inline(always)]
pub(crate) fn segment_segment<V: Vector>(p0: V, p1: V, q0: V, q1: V) -> (V, V) {
    let zero = V::Real::ZERO;
    let one = V::Real::ONE;
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    let clamp01 = |x: V::Real| x.max(zero).min(one);
    let (s, t);
    if a <= zero && e <= zero {
        return (p0, q0);
    }
    if a <= zero {
        s = zero;
        t = clamp01(f / e);
    } else {
        let c = d1.dot(r);
        if e <= zero {
            t = zero;
            s = clamp01(-c / a);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            // Parallel (denom ~ 0): any s works; take 0 and let the t-clamp settle it.
            let s0 = if denom > V::Real::EPSILON * a * e { clamp01((b * f - c * e) / denom) } else { zero };
            let t0 = (b * s0 + f) / e;
            if t0 < zero {
                t = zero;
                s = clamp01(-c / a);
            } else if t0 > one {
                t = one;
                s = clamp01((b - c) / a);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    (p0 + d1 * s, q0 + d2 * t)
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
