//! A check on the penetration GJK and EPA report, by support functions alone.
//!
//! For any unit direction `u`, `push(u) = max_A u·x − min_B u·x` is how far B must move
//! along `u` to clear A: the depth *along* `u` (negative when `u` separates the shapes, by
//! `-push(u)`). The penetration depth is the least push over all directions, so every
//! `push(u)` is an upper bound of it, and a push that EPA's own normal does not reach is a
//! sign that EPA lost its polytope to rounding. That happens on shapes whose support points
//! span many orders of magnitude (an ellipsoid 1e10 long and 2 thick);
//! then a few fixed directions (the axes of both shapes and the line of centres) give a
//! push that is valid by construction, reported with a `Stalled` status.

use crate::math::{Pose, Real};
use crate::query::contact::output::{ContactStatus, CoreContact};
use crate::query::Space;
use crate::shape::Support;

/// The push of B's core out of A's core along unit `n` (A's frame), with A's extreme
/// point along `n` and B's along `-n`.
#[inline]
fn push_along<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    n: V,
) -> (V::Real, V, V) {
    push_along_in(a, b, pose_ab, n, pose_ab.inverse_transform_vector(n))
}

/// [`push_along`] with the direction also given in B's frame (`n_b`), so that B's own axes
/// reach B's support function exactly: turned into A's frame and back they pick up
/// rounding, which on an ellipsoid 1e10 long moves the support point to its far tip.
#[inline]
fn push_along_in<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    n: V,
    n_b: V,
) -> (V::Real, V, V) {
    let pa = a.support(n);
    let pb = pose_ab.transform_point(b.support(-n_b));
    (n.dot(pa) - n.dot(pb), pa, pb)
}

/// The least push found among `n` and the fixed directions (the axes of both shapes, both
/// ways, and the line of centres), then refined by a pattern search over directions: each
/// push raised by its rounding, so it bounds the true push along its direction from above.
/// Returns the push, its direction and A's extreme point along it.
fn least_push<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    n: V,
) -> (V::Real, V, V) {
    // Raised by its rounding: an upper bound of the push along `u` (points 1e10 out round
    // by 1e3 in f32; a push within that of zero proves nothing either way).
    let eval = |u: V, u_b: V| {
        let (h, pa, pb) = push_along_in(a, b, pose_ab, u, u_b);
        (h + noise_along(pa, pb), pa)
    };
    // The best push, its direction in A's frame and in B's, and A's extreme point.
    let mut best = (V::Real::INFINITY, n, V::ZERO, V::ZERO);
    let consider = |u: V, u_b: V, best: &mut (V::Real, V, V, V)| {
        let (h, pa) = eval(u, u_b);
        if h.is_finite() && h < best.0 {
            *best = (h, u, u_b, pa);
        }
    };
    consider(n, pose_ab.inverse_transform_vector(n), &mut best);
    // The axes of both frames: where the shapes' extents are simplest, and (each taken in
    // its own shape's frame) free of the rounding of a turned direction.
    for i in 0..V::DIM {
        for s in [V::Real::ONE, -V::Real::ONE] {
            let u = V::axis(i) * s;
            consider(u, pose_ab.inverse_transform_vector(u), &mut best);
            consider(pose_ab.transform_vector(u), u, &mut best);
        }
    }
    // In 3D, each axis of A crossed with each of B: square to an axis of both, as the
    // separating axes of two edges are. The least push of two elongated shapes lies there:
    // a capsule across an ellipsoid 1e10 long, where EPA lost its polytope to rounding,
    // left the pattern search below on the ridge where the capsule's ends trade places,
    // 2.5% above the core depth. Made in B's frame, so the direction is exactly square to
    // B's axis.
    for i in 0..V::DIM {
        let a_axis = pose_ab.inverse_transform_vector(V::axis(i));
        for j in 0..V::DIM {
            let c = V::axis(j).cross_or_zero(a_axis);
            let len = c.length();
            if len > V::Real::EPSILON.sqrt() {
                for u_b in [c / len, -c / len] {
                    consider(pose_ab.transform_vector(u_b), u_b, &mut best);
                }
            }
        }
    }
    let centres = pose_ab.transform_point(b.interior_point()) - a.interior_point();
    let len = centres.length();
    if len > V::Real::ZERO && len.is_finite() {
        let u = centres / len;
        consider(u, pose_ab.inverse_transform_vector(u), &mut best);
    }
    // Pattern search: turn the best direction towards or away from each axis by about
    // `step` radians, keep any improvement, halve the step when none helps. Turns towards
    // A's axes are made in A's frame, towards B's in B's, so a direction that lies exactly
    // square to a shape's long axis stays so.
    let mut step = V::Real::from_f64(0.25);
    let floor = V::Real::EPSILON.sqrt();
    let turned = |u: V, e: V, s: V::Real| {
        let t = e - u * u.dot(e);
        let tl = t.length();
        (tl >= floor).then(|| {
            let w = u + t * (s / tl);
            w / w.length()
        })
    };
    for _ in 0..REFINE_STEPS {
        if step < floor || !best.0.is_finite() {
            break;
        }
        let before = best.0;
        for i in 0..V::DIM {
            for s in [step, -step] {
                if let Some(w) = turned(best.1, V::axis(i), s) {
                    consider(w, pose_ab.inverse_transform_vector(w), &mut best);
                }
                if let Some(w_b) = turned(best.2, V::axis(i), s) {
                    consider(pose_ab.transform_vector(w_b), w_b, &mut best);
                }
            }
        }
        if best.0 >= before {
            step *= V::Real::HALF;
        }
    }
    (best.0, best.1, best.3)
}

/// Cap on the pattern search's rounds (each tries `4 × DIM` directions); the step halves
/// from 0.25 rad to `√ε` in about 12 (f32) or 26 (f64) rounds without a move.
const REFINE_STEPS: usize = 120;

/// The coordinates' rounding next to which a depth means little: a few ulps of the
/// extreme points along `n`.
fn noise_along<V: Space>(pa: V, pb: V) -> V::Real {
    let mag = pa.abs_elem().max_elem(pb.abs_elem()).max_component();
    V::Real::EPSILON * V::Real::from_usize(64) * mag
}

/// EPA's answer `c` (penetrating cores), checked: kept when its normal pushes B clear by
/// its depth and the depth stands well above the rounding of the coordinates EPA worked
/// with (`scale`: the largest support point of GJK's final simplex). Otherwise the least
/// push found, when it clearly beats EPA's, as `Stalled`.
pub(crate) fn checked_penetration<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    c: CoreContact<V>,
    scale: V::Real,
) -> CoreContact<V> {
    if c.status == ContactStatus::NonFiniteSupport {
        return c;
    }
    let depth = -c.distance;
    let (h, pa, pb) = push_along(a, b, pose_ab, c.normal);
    if !(pa.is_finite_vec() && pb.is_finite_vec()) {
        return non_finite(pose_ab);
    }
    // EPA's normal on a curved surface is good to about the square root of its depth
    // tolerance, so the push along it exceeds the depth by second-order amounts: the square
    // root of the relative tolerance (3e-3 in f32, 3e-5 in f64), plus rounding, is
    // "consistent". What this catches is an answer off by more (4e-4 to 100x on the probe's
    // ellipsoids).
    let margin = V::Real::GJK_REL_TOLERANCE.sqrt() * depth.abs();
    let consistent = h <= depth + margin + noise_along(pa, pb) && h.is_finite();
    // EPA's polytope is made of points as large as `scale`: a depth within a few dozen of
    // their ulps is rounding, whatever EPA's status says.
    let precise = V::Real::EPSILON * V::Real::from_usize(64) * scale < depth;
    if consistent && precise && c.status == ContactStatus::Converged {
        return c;
    }
    let (push, normal, point_a) = least_push(a, b, pose_ab, c.normal);
    // (The push found already carries its own rounding; EPA's may be noisier than its
    // depth, as on the probe's ellipsoid in f32, and is not given the benefit of it.)
    if !push.is_finite() || (consistent && push >= h - margin) {
        // No direction found does clearly better than EPA's own normal: its answer, with
        // its points on both shapes, stands.
        return c;
    }
    stalled_push(push, normal, point_a)
}

/// GJK's answer `c` for cores it could not finish on (`Stalled`, `MaxIterations`): apart by
/// `c.distance` along `c.normal`, realized by points, with a certified lower bound `lower`.
/// Kept when the lower bound proves the cores apart, or when the normal indeed separates
/// them by about that distance. Otherwise GJK lost track of the shapes (its simplex could
/// not enclose an origin that may well be inside) and the least push found decides: a
/// separating one keeps GJK's (upper-bound) distance; if none separates, the cores are
/// reported penetrating by the least push, `Stalled` (an upper bound of the depth).
pub(crate) fn checked_apart<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    c: CoreContact<V>,
    lower: V::Real,
) -> CoreContact<V> {
    if lower > V::Real::ZERO {
        return c;
    }
    let (h, pa, pb) = push_along(a, b, pose_ab, c.normal);
    if !(pa.is_finite_vec() && pb.is_finite_vec()) {
        return non_finite(pose_ab);
    }
    let tol = V::Real::GJK_REL_TOLERANCE * c.distance.abs() + noise_along(pa, pb);
    if -h >= c.distance - tol || !h.is_finite() {
        return c;
    }
    let (push, normal, point_a) = least_push(a, b, pose_ab, c.normal);
    if !(push.is_finite() && push > V::Real::ZERO) {
        return c;
    }
    stalled_push(push, normal, point_a)
}

/// GJK's unfinished answer `c` (cores apart by `c.distance`, an upper bound realized by
/// points) for cores whose radii `radii` make the shapes penetrate. The depth `radii -
/// c.distance` would then be a *lower* bound, and B moved by it along `c.normal` would not
/// clear A unless `c.normal` were the exact closest direction. The gap along `c.normal`,
/// measured by support points and lowered by its rounding, replaces the distance: the depth
/// becomes the push along that normal (or a smaller one the pattern search finds), an upper
/// bound of the true depth, as `Stalled` promises. (Fuzz finding: a rounded ellipsoid against a cone at 1e17 in f32, where GJK
/// stopped with an upper bound 40% over the true gap of the cores.)
pub(crate) fn deepened_for_radii<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    c: CoreContact<V>,
    radii: V::Real,
) -> CoreContact<V> {
    let unfinished = matches!(c.status, ContactStatus::Stalled | ContactStatus::MaxIterations);
    if !(unfinished && c.distance >= V::Real::ZERO && c.distance < radii) {
        return c;
    }
    let (h, pa, pb) = push_along(a, b, pose_ab, c.normal);
    if !(pa.is_finite_vec() && pb.is_finite_vec()) {
        return non_finite(pose_ab);
    }
    let push = h + noise_along(pa, pb);
    if !push.is_finite() || -push >= c.distance {
        return c;
    }
    // The pattern search may find a direction with a smaller push (a tighter depth).
    let (least, normal, point_a) = least_push(a, b, pose_ab, c.normal);
    if least.is_finite() && least < push {
        return stalled_push(least, normal, point_a);
    }
    stalled_push(push, c.normal, pa)
}

/// The least push found as the answer: a valid upper bound of the depth along a direction
/// that separates, with A's extreme point and its image on B's supporting plane for points
/// (off B when B meets that plane in a face): `Stalled`, as documented.
fn stalled_push<V: Space>(push: V::Real, normal: V, point_a: V) -> CoreContact<V> {
    CoreContact {
        distance: -push,
        normal,
        point_a,
        point_b: point_a - normal * push,
        status: ContactStatus::Stalled,
    }
}

/// The answer when a support point is not finite (only a user's shape can do that): the
/// status alone means anything.
pub(crate) fn non_finite<V: Space>(pose_ab: &Pose<V>) -> CoreContact<V> {
    CoreContact {
        distance: V::Real::ZERO,
        normal: V::axis(0),
        point_a: V::ZERO,
        point_b: pose_ab.translation,
        status: ContactStatus::NonFiniteSupport,
    }
}
