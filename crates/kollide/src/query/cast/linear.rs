//! The linear shape cast: GJK ray casting on the Minkowski difference of the cores.
//!
//! Algorithm: van den Bergen, "Ray Casting against General Convex Objects with Application
//! to Continuous Collision Detection" (2004), with the radii and the target distance
//! handled as a skin around the cores (the way Box2D v3's `b2ShapeCast` does). Written here
//! from the paper's argument:
//!
//! In A's frame (A held still, B moving at the relative velocity `r`), B's points at time
//! `t` are `b + t r`, so the shapes are within `R` (radii plus target) at `t` exactly when
//! the point `x = t r` is within `R` of the Minkowski difference `D = A ⊖ B` (the cores at
//! time 0). For any direction `v`, the support point `p` of `D` along `v` puts all of `D` on
//! the far side of the plane through `p` normal to `v`; while `x` is more than `R` beyond
//! that plane the shapes cannot be within `R`, and `x` reaches it no earlier than
//! `(p·v + R|v|) / (r·v)` (never when `r·v >= 0`). Each step takes the point of the current
//! simplex closest to `x`, advances `t` to that bound when the plane allows it, and adds the
//! support point to the simplex. The time only ever moves to a proven lower bound of the
//! time of impact, so the cast never tunnels; it stops when the simplex realizes a distance
//! within the tolerance of `R`.

use super::motion::{CastOutput, CastStatus, CastStep};
use super::numeric::{le, unit_or, unit_or_safe};
use crate::math::{Pose, Real, Rotation, Vector};
use crate::query::gjk::{Simplex, SimplexVertex};
use crate::shape::Support;

/// Iteration cap of the GJK ray cast (support points). Polytopes need about as many as
/// GJK's distance (fewer than 10 for boxes and small hulls); smooth shapes converge
/// linearly and need a few tens at the f64 tolerance.
pub(crate) const MAX_RAY_ITERATIONS: u32 = 96;

/// The rounding floor of the tolerance, in units of `ε M` (see [`tolerance`]).
pub(crate) const FLOOR_ULPS: usize = 8;

/// How the GJK ray cast ended, in A's frame at time 0 (B's points shifted to time `toi`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum LinearOutcome<V: Vector> {
    /// The shapes are within the target (plus the tolerance) at time 0: the caller decides
    /// from the contact there whether this is a start within or a miss.
    Within,
    /// First time within the target, with the closest points (radii added) and the unit
    /// normal from A to B, in A's frame.
    Hit { toi: V::Real, point_a: V, point_b: V, normal: V, distance: V::Real, iterations: u32 },
    /// Proven farther than the target over the whole interval.
    Miss { iterations: u32, distance: V::Real },
    /// Cap, stall or non-finite numbers: the shapes are proven apart up to `safe_toi`.
    Failed { safe_toi: V::Real, iterations: u32, distance: V::Real },
}

/// The tolerance on the distance at the time of impact: `rel × (R + L) + 8 ε M`, `R` the
/// radii plus the target, `L` the size of the cores (the largest distance of a support
/// point from its shape's origin), `M` the size of the coordinates involved (sizes plus
/// offsets: the rounding floor, [`FLOOR_ULPS`] ulps of it).
#[inline]
pub(crate) fn tolerance<R: Real>(radius: R, size: R, scale: R) -> R {
    R::GJK_REL_TOLERANCE * (radius + size) + R::EPSILON * R::from_usize(FLOOR_ULPS) * scale
}

/// The GJK ray cast of B (placed by `pose_ab` in A's frame, moving at `r` in that frame)
/// against A over `[0, max_toi]`, to the distance `target` between the surfaces.
pub(crate) fn cast<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    r: V,
    max_toi: V::Real,
    target: V::Real,
    mut trace: Option<&mut Vec<CastStep<V>>>,
) -> LinearOutcome<V> {
    let zero = V::Real::ZERO;
    let (ra, rb) = (a.radius(), b.radius());
    let radius = ra + rb + target;
    let rot = pose_ab.rotation.applied();
    let place = |local: V| V::Rotation::apply(&rot, local) + pose_ab.translation;
    let (mut hint_a, mut hint_b) = (crate::shape::NO_HINT, crate::shape::NO_HINT);
    // The support point of D along `dir`: A's farthest along dir, B's farthest against it
    // (B at time 0, A's frame).
    let mut support = |dir: V| {
        let pa = a.support_hinted(dir, &mut hint_a);
        let pb = place(b.support_hinted(V::Rotation::apply_inverse(&rot, -dir), &mut hint_b));
        (pa, pb)
    };

    let mut simplex = Simplex::<V>::default();
    let mut lambda = zero;
    let mut x = V::ZERO;
    // The normal of the last plane the time advanced to (A towards B).
    let mut plane_normal = V::ZERO;
    // First direction: from a point of D towards x (x = 0).
    let guess = place(b.interior_point()) - a.interior_point();
    let mut v = if guess.length_squared() > zero { guess } else { V::axis(0) };
    let mut scale2 = zero;
    let mut size2 = zero;
    let mut iterations = 0u32;
    let mut have_v = false;
    loop {
        if have_v {
            let vv = v.length_squared();
            let tol = tolerance(radius, size2.sqrt(), scale2.sqrt());
            let reach = radius + tol;
            if simplex.count == V::DIM + 1 || vv <= reach * reach {
                // Realized within the target (plus tolerance) at `lambda`.
                if lambda == zero {
                    return LinearOutcome::Within;
                }
                let vlen = vv.sqrt();
                // The direction of v is trustworthy only well above the rounding of the
                // coordinates; below, the last plane's normal is the contact normal.
                let noise = V::Real::EPSILON * V::Real::from_usize(1024) * scale2.sqrt();
                let normal = if vlen > noise || plane_normal == V::ZERO { v / vlen } else { plane_normal };
                let (pa, pb) = simplex.witnesses();
                return LinearOutcome::Hit {
                    toi: lambda,
                    point_a: pa + normal * ra,
                    point_b: pb - normal * rb,
                    normal,
                    distance: vlen - ra - rb,
                    iterations,
                };
            }
        }
        if iterations >= MAX_RAY_ITERATIONS {
            return LinearOutcome::Failed { safe_toi: lambda, iterations, distance: v.length() - ra - rb };
        }
        let (pa, pb0) = support(v);
        iterations += 1;
        if !pa.is_finite_vec() || !pb0.is_finite_vec() || !v.is_finite_vec() {
            return LinearOutcome::Failed { safe_toi: lambda, iterations, distance: zero };
        }
        scale2 = scale2.max(pa.length_squared()).max(pb0.length_squared()).max(x.length_squared());
        size2 = size2.max(pa.length_squared()).max((pb0 - pose_ab.translation).length_squared());
        let p = pa - pb0;
        let vlen = v.length();
        let tol = tolerance(radius, size2.sqrt(), scale2.sqrt());
        // Aim half a tolerance above the target: rounding then never carries the time past
        // the first touch, and there is always a separating direction (Box2D's skin).
        let aim = radius + tol * V::Real::HALF;
        let mut advanced = false;
        if (x - p).dot(v) > aim * vlen {
            let vr = v.dot(r);
            if vr >= zero {
                // The whole ray stays beyond this plane.
                return LinearOutcome::Miss { iterations, distance: (x - p).dot(v) / vlen - ra - rb };
            }
            let next = (p.dot(v) + aim * vlen) / vr;
            if !le(next, max_toi) {
                return LinearOutcome::Miss { iterations, distance: (x - p).dot(v) / vlen - ra - rb };
            }
            // Rounding may put `next` a hair behind: time never goes back.
            lambda = lambda.max(next);
            x = r * lambda;
            if !x.is_finite_vec() {
                return LinearOutcome::Failed { safe_toi: lambda, iterations, distance: zero };
            }
            plane_normal = v / vlen;
            advanced = true;
            // Re-express the simplex at the new time: B's points move with B.
            for i in 0..simplex.count {
                let b = simplex.local_b[i] + x;
                simplex.verts[i].b = b;
                simplex.verts[i].w = simplex.verts[i].a - b;
            }
            simplex.refresh_scales();
        }
        let duplicate =
            simplex.vertices().iter().zip(&simplex.local_b).any(|(s, &b0)| s.a == pa && b0 == pb0);
        if duplicate && !advanced {
            // Rounding blocks progress: the time reached is still proven safe.
            return LinearOutcome::Failed { safe_toi: lambda, iterations, distance: vlen - ra - rb };
        }
        if !duplicate {
            let b = pb0 + x;
            simplex.push_with_local(SimplexVertex { w: pa - b, a: pa, b }, pb0);
        }
        let sub = V::solve_simplex(&simplex);
        simplex.reduce_to(&sub);
        // The simplex's closest point to the origin is `c - x` (c on D): v = x - c.
        v = -sub.v;
        have_v = true;
        if let Some(steps) = trace.as_deref_mut() {
            // In A's frame at time `lambda` (B moved by `x`).
            let vlen = v.length();
            let normal = if vlen > zero { v / vlen } else { plane_normal };
            let (pa, pb) = simplex.witnesses();
            let (point_a, point_b) = (pa + normal * ra, pb - normal * rb);
            steps.push(CastStep { time: lambda, distance: vlen - ra - rb, point_a, point_b, normal });
        }
    }
}

/// Two balls (point cores `p` and `q`, world frame) moving at `va` and `vb`: the first time
/// their surfaces come within `target`, from the quadratic `|q - p + t (vb - va)| = R`.
/// `None` when they are within `R` at time 0 (the caller decides from the contact).
#[allow(clippy::too_many_arguments)]
pub(crate) fn ball_ball<V: Vector>(
    p: V,
    ra: V::Real,
    va: V,
    q: V,
    rb: V::Real,
    vb: V,
    max_toi: V::Real,
    target: V::Real,
) -> Option<CastOutput<V>> {
    let zero = V::Real::ZERO;
    let d0 = q - p;
    let r = vb - va;
    let scale = p.abs_elem().max_elem(q.abs_elem()).max_component() + ra + rb;
    let tol = tolerance(ra + rb + target, zero, scale);
    let dist0 = || d0.length() - ra - rb;
    if d0.length_squared() <= (ra + rb + target + tol) * (ra + rb + target + tol) {
        return None;
    }
    // Aim half a tolerance above the target, as the GJK cast does: rounding never makes
    // the time late.
    let radius = ra + rb + target + tol * V::Real::HALF;
    let c = d0.length_squared() - radius * radius;
    let (a2, b) = (r.length_squared(), d0.dot(r));
    // b >= 0: not closing; disc < 0: passing by.
    let disc = b * b - a2 * c;
    if b >= zero || a2 == zero || disc < zero {
        return Some(CastOutput::miss(max_toi, dist0(), 0));
    }
    // The smaller root, in the form without cancellation: t = c / (-b + sqrt(disc)).
    let t = c / (-b + disc.sqrt());
    if !t.is_finite() || t > max_toi {
        return Some(CastOutput::miss(max_toi, dist0(), 0));
    }
    let (pt, qt) = (p + va * t, q + vb * t);
    // At the root the centres are `radius` apart (up to the rounding of t): dividing by it
    // instead of by |gap| saves a square root on the hot path; the normal is unit to a few
    // ulps. (Two point cores with no radius meet only head-on: the normal is the motion's.)
    // Unless the positions dwarf the radius: balls 2.7 wide at 3e9 in f32 have centres
    // placed to within hundreds of units, and the quotient was 1.41 long (found by the fuzz
    // target `mover`); then the gap is normalized by its own length.
    // A gap within the rounding of the positions has no direction of its own: balls 1e-100
    // across meeting at 0.14 got centres rounded to one point, and a zero normal (fuzz
    // target `casts`). Such balls meet as points do, head-on along the approach.
    let gap = qt - pt;
    let noise = V::Real::EPSILON * V::Real::from_usize(16) * scale;
    let head_on = || unit_or_safe(-r, V::axis(0));
    let normal =
        if radius > noise && gap.abs_elem().max_component() > noise { gap / radius } else { head_on() };
    let off = normal.length_squared() - V::Real::ONE;
    let normal = if off.abs() > V::Real::from_f64(1e-4) { unit_or(gap, normal) } else { normal };
    Some(CastOutput {
        status: CastStatus::Hit,
        toi: t,
        safe_toi: t,
        distance: radius - ra - rb,
        point_a: pt + normal * ra,
        point_b: qt - normal * rb,
        normal,
        face_normal: None,
        iterations: 0,
    })
}
