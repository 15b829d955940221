//! The GJK ray cast against any convex shape given by its support function (core plus
//! radius), in the shape's local frame.
//!
//! Conservative advancement along the ray (van den Bergen, "Ray casting against general
//! convex objects with application to continuous collision detection", 2004; Box2D v3's
//! `b2ShapeCast` grows the core by a radius the same way): GJK keeps a simplex of support
//! points `p` of the core and measures the distance from the current ray point `x`; when
//! the support plane along `v = x - (closest point)`, pushed out by the radius, separates
//! `x` from the shape, `x` jumps forward to that plane (the ray cannot meet the shape
//! before it) or, if the ray heads away from it, the ray misses. It stops when `x` is within
//! the tolerance of the rounded surface.
//!
//! Tolerance: the hit point lies outside the shape within `tol = rel × s` of its surface,
//! `rel` `1e-5` for `f32` and `1e-10` for `f64`, `s` the size of the coordinates (the
//! largest support point's distance from the local origin, plus the radius); the time of
//! impact is never later than the true one.

use super::Cast;
use crate::math::Real;
use crate::query::cast::numeric::{ge, gt, unit_or};
use crate::query::gjk::{Simplex, SimplexVertex};
use crate::query::Space;
use crate::shape::{Support, NO_HINT};

/// Iteration cap of one march (on polytopes a march takes a handful; on smooth shapes
/// 10 to 30 in `f64`).
const MAX_ITERATIONS: u32 = 64;

/// How one march along a ray ended.
#[derive(Clone, Copy, Debug)]
enum March<V: Space> {
    /// The ray misses the shape within `[0, max_toi]`.
    Miss,
    /// The ray reaches the shape (within the tolerance) at this time, with the outward
    /// normal there.
    Hit(V::Real, V),
    /// The origin itself is within the tolerance of the shape, or in it.
    Start,
}

/// The relative tolerance for this scalar type (see the module docs).
#[inline(always)]
fn rel_tolerance<R: Real>() -> R {
    if R::EPSILON > R::from_f64(1.0e-10) {
        R::from_f64(1.0e-5)
    } else {
        R::from_f64(1.0e-10)
    }
}

/// The ray `o + t d` against `shape` (local frame).
pub(super) fn cast<V: Space, S: Support<V> + ?Sized>(shape: &S, o: V, d: V, max_toi: V::Real) -> Cast<V> {
    let r = shape.radius();
    match march(shape, r, o, d, max_toi) {
        March::Miss => Cast::Miss,
        March::Hit(t, n) => Cast::Hit(t, n),
        March::Start => {
            let dlen = d.length();
            let (leave, tol) = exit(shape, r, o, d);
            match leave {
                Some((t, n)) if t * dlen > tol => Cast::Inside(t, n),
                _ => {
                    // The ray leaves at once. A solid's surface at the origin: a miss. A flat
                    // shape (no thickness behind the origin either): a hit at 0.
                    let (behind, tol) = exit(shape, r, o, -d);
                    match behind {
                        Some((t, _)) if t * dlen > tol => Cast::Miss,
                        _ => Cast::Hit(V::Real::ZERO, unit_or(-d, V::axis(0))),
                    }
                }
            }
        }
    }
}

/// Where the ray `o + t d`, whose origin is in (or at) the shape, leaves it: cast back from
/// a point beyond the shape's support along `d`. Also returns the distance tolerance.
fn exit<V: Space, S: Support<V> + ?Sized>(
    shape: &S,
    r: V::Real,
    o: V,
    d: V,
) -> (Option<(V::Real, V)>, V::Real) {
    let dd = d.dot(d);
    let dlen = dd.sqrt();
    let far = shape.support(d);
    let near = shape.support(-d);
    let tol = rel_tolerance::<V::Real>() * (far.length().max(near.length()).max(o.length()) + r);
    if !(far.is_finite_vec() && near.is_finite_vec()) {
        return (None, tol);
    }
    // Past the support plane along d by the radius plus the core's depth along d (at
    // least the tolerance), so the march back starts clearly outside.
    let depth = (far - near).dot(d) / dlen;
    let beyond = (far - o).dot(d) / dd + (r + r + depth.max(tol)) / dlen;
    if !gt(beyond, V::Real::ZERO) || !beyond.is_finite() {
        return (None, tol);
    }
    let start = o + d * beyond;
    match march(shape, r, start, -d, beyond + beyond) {
        March::Hit(s, n) => (Some((beyond - s, n)), tol),
        March::Miss | March::Start => (None, tol),
    }
}

/// Conservative advancement from `o` along `d` to the shape (core grown by `r`).
fn march<V: Space, S: Support<V> + ?Sized>(shape: &S, r: V::Real, o: V, d: V, max_toi: V::Real) -> March<V> {
    let zero = V::Real::ZERO;
    let rel = rel_tolerance::<V::Real>();
    let mut simplex = Simplex::<V>::default();
    let mut hint = NO_HINT;
    let mut lambda = zero;
    let mut x = o;
    // The normal of the last plane the ray advanced to (the answer for a sharp core).
    let mut normal = V::ZERO;
    let mut v = x - shape.interior_point();
    let mut scale = x.length();
    let done = |lambda: V::Real, normal: V, v: V| {
        if lambda == zero {
            March::Start
        } else if r > zero {
            // x is at about r from the core: v points out of the surface.
            March::Hit(lambda, unit_or(v, unit_or(normal, -d)))
        } else {
            March::Hit(lambda, unit_or(normal, -d))
        }
    };
    let sixty_four = V::Real::from_usize(64);
    for _ in 0..MAX_ITERATIONS {
        let vlen = v.length();
        let tol = rel * (scale + r);
        // x in the core, or (sharp core) within the tolerance of it.
        if simplex.count == V::DIM + 1 || vlen == zero || (r == zero && vlen <= tol) {
            return done(lambda, normal, v);
        }
        let p = shape.support_hinted(v, &mut hint);
        if !p.is_finite_vec() {
            return March::Miss;
        }
        scale = scale.max(p.length());
        let vw = v.dot(x - p);
        let advance = vw > r * vlen;
        // Rounded core: x within the tolerance of the surface, and v (the normal) as exact
        // as the numbers allow: the GJK gap `|v| - v·w / |v|` at the rounding of the
        // coordinates (a flat face of a rounded box would otherwise tilt the normal by up
        // to `sqrt(2 tol / r)`).
        if !advance && vlen - r <= tol && vlen * vlen - vw <= sixty_four * V::Real::EPSILON * scale * vlen {
            return done(lambda, normal, v);
        }
        if advance {
            // Every point of the shape is at most r beyond the plane through p normal to
            // v: the ray can advance to that offset plane, or never meets it.
            let vd = v.dot(d);
            if vd >= zero {
                return March::Miss;
            }
            lambda -= (vw - r * vlen) / vd;
            if !ge(max_toi, lambda) {
                return March::Miss;
            }
            x = o + d * lambda;
            scale = scale.max(x.length());
            normal = v;
            for s in simplex.verts[..simplex.count].iter_mut() {
                s.a = x;
                s.w = x - s.b;
            }
            simplex.refresh_scales();
        }
        if !simplex.vertices().iter().any(|s| s.b == p) {
            simplex.push(SimplexVertex { w: x - p, a: x, b: p });
        } else if !advance {
            // No new support point and x did not move: rounding stops progress here; x is
            // as close as the numbers allow.
            return done(lambda, normal, v);
        }
        let sub = V::solve_simplex(&simplex);
        simplex.reduce_to(&sub);
        v = sub.v;
    }
    // The cap (not met in the tests): lambda is a proven lower bound of the time of impact.
    done(lambda, normal, v)
}
