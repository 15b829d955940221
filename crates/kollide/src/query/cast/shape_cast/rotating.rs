//! Time of impact of rotating bodies: conservative advancement.
//!
//! Mirtich, "Impulse-based dynamic simulation of rigid body systems" (PhD thesis, 1996),
//! ch. 2: advance time by the distance divided by a bound on how fast it can shrink, so
//! that the step never passes the first contact. The argument, as used here:
//!
//! At time `t` the distance query gives a unit normal `n` (A towards B). Asking each shape
//! for its support point along `±n` gives the *gap* `g` between the slabs the shapes
//! occupy along `n` (less the radii): a certified lower bound on their distance, with its
//! own separating direction. Along this **fixed** `n` the gap can shrink no faster than
//! `S = -(v_b - v_a)·n + |ω_a| r_a + |ω_b| r_b`, at every later time, where `r` is the
//! largest distance from a body's origin (its centre of rotation) to a point of its shape:
//! a body's extent along `n` moves at its origin's speed along `n` plus at most `|ω| r`
//! from the turning. So the shapes stay farther apart than the target for
//! `dt = (g - target) / S`, and for ever when `S <= 0`. Using the gap along the normal
//! rather than the distance itself keeps the bound honest: the projection of the linear
//! velocity on `n` is valid only for a fixed direction, and the gap is measured along
//! exactly that direction. The distance query is warm-started from one `SimplexCache`
//! along the way (its lower bounds are sound after any motion, see
//! `gjk::cache::SimplexCache`).
//!
//! When rounding blurs the normal of nearly touching shapes, the step falls back on the
//! lower bound of the distance query over the bound on any point's relative speed,
//! `|v_b - v_a| + |ω_a| r_a + |ω_b| r_b` (no direction involved).
//!
//! Near the hit the steps shrink geometrically (by the ratio of the true approach speed to
//! the bound `S`), so the search stops at a tolerance and is capped at [`MAX_ADVANCES`]
//! distance queries, returning `Failed` with the last proven time. Grazing contacts (a
//! corner sweeping tangentially onto a face, whose distance falls only quadratically to
//! zero) are where conservative advancement is slow: there the cap may end the search, with
//! the last proven time in `safe_toi`.

use super::face_normal::face_normal;
use super::{failed, start_state, Start};
use crate::math::{Pose, Real};
use crate::query::cast::motion::{CastInput, CastOutput, CastStatus, CastStep, Motion};
use crate::query::cast::numeric::{gt, le};
use crate::query::distance_cached;
use crate::query::gjk::SimplexCache;
use crate::query::Space;
use crate::shape::Support;

/// The cap on distance queries of one rotational cast.
pub(crate) const MAX_ADVANCES: u32 = 256;

/// The cap on doubling steps that look for the time a pair within the target at time 0
/// (and not approaching) has moved apart.
const MAX_ESCAPE_STEPS: u32 = 64;

/// The largest distance from the shape's local origin to a point of the shape: the
/// half-diagonal of the core's bounding box (from `2 DIM` support calls) plus the radius.
fn reach<V: Space, S: Support<V> + ?Sized>(s: &S) -> V::Real {
    let mut corner = V::ZERO;
    for i in 0..V::DIM {
        let e = V::axis(i);
        let h = s.support(e).dot(e).max(-s.support(-e).dot(e)).max(V::Real::ZERO);
        corner += e * h;
    }
    // Without squaring past the float range: a part 1e156 across has a finite reach.
    corner.length_safe() + s.radius()
}

/// The rotational tolerance: `rel × (target + reach) + 40 ε M`, `rel` ten times GJK's
/// (`1e-4` in `f32`, `1e-8` in `f64`), `reach` that of the turning bodies.
fn tolerance<R: Real>(target: R, reach: R, scale: R) -> R {
    R::GJK_REL_TOLERANCE * R::from_usize(10) * (target + reach) + R::EPSILON * R::from_usize(40) * scale
}

/// The gap between the shapes along the unit `normal` (world frame, A towards B): B's
/// least extent along it minus A's greatest, less the radii and a rounding slack. A lower
/// bound on their distance.
fn gap_along<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    normal: V,
) -> V::Real {
    let pa = pose_a.transform_point(a.support(pose_a.inverse_transform_vector(normal)));
    let pb = pose_b.transform_point(b.support(pose_b.inverse_transform_vector(-normal)));
    let mag = pa.abs_elem().max_elem(pb.abs_elem()).max_component();
    let slack = V::Real::EPSILON * V::Real::from_usize(32) * mag;
    (pb - pa).dot(normal) - a.radius() - b.radius() - slack
}

/// Conservative advancement for bodies of which at least one rotates.
pub(crate) fn rotational<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    input: &CastInput<V>,
    target: V::Real,
    mut trace: Option<&mut Vec<CastStep<V>>>,
) -> CastOutput<V> {
    let zero = V::Real::ZERO;
    let (ma, mb) = (&input.motion_a, &input.motion_b);
    let max_toi = input.max_toi;
    let (reach_a, reach_b) = (reach(a), reach(b));
    let (wa, wb) = (V::angular_speed(ma.angular_velocity), V::angular_speed(mb.angular_velocity));
    let spin = wa * reach_a + wb * reach_b;
    // The relative part of the tolerance scales with the reach of the bodies that turn (a
    // still wall's size says nothing about how precisely a plank spinning into it is met);
    // the rounding floor (`scale`) still counts every coordinate.
    let turning = |w: V::Real, r: V::Real| if w > zero { r } else { zero };
    let size = turning(wa, reach_a) + turning(wb, reach_b);
    let relative = mb.velocity - ma.velocity;
    let scale0 = pose_a.translation.abs_elem().max_elem(pose_b.translation.abs_elem()).max_component();
    let mut cache = SimplexCache::default();
    let mut t = zero;
    let mut iterations = 0u32;
    let mut last_distance = zero;

    // Within the target at time 0 and not approaching: move on to a time they are apart.
    let first = distance_cached(a, pose_a, b, pose_b, &mut cache, None);
    iterations += 1;
    if first.status == crate::query::GjkStatus::NonFiniteSupport
        || !(first.distance.is_finite() && spin.is_finite())
    {
        // Past the float range nothing is proven, not even at time 0.
        return failed(zero, zero, iterations);
    }
    let tol0 = tolerance(target, size, scale0 + reach_a + reach_b);
    if first.distance <= target + tol0 {
        match start_state(a, pose_a, b, pose_b, ma, mb, target) {
            Start::Within(out) | Start::OutOfRange(out) => return out,
            Start::Leaving(out) => match escape(a, pose_a, b, pose_b, ma, mb, max_toi, target + tol0) {
                Some((t_out, n)) => {
                    t = t_out;
                    iterations += n;
                }
                None => return failed(zero, out.distance, iterations + MAX_ESCAPE_STEPS),
            },
        }
    }

    // Turning never takes a point of a body farther than its reach from its origin: if the
    // two balls of those radii about the moving origins stay apart by more than the target
    // over what is left of the interval, nothing can meet (this settles pairs that spin in
    // place or drift apart, over an infinite interval too).
    let bounding = reach_a + reach_b + target;
    if balls_stay_apart(pose_a, pose_b, ma, mb, t, max_toi, bounding) {
        return CastOutput::miss(max_toi, first.distance, iterations);
    }
    loop {
        if iterations >= MAX_ADVANCES {
            if balls_stay_apart(pose_a, pose_b, ma, mb, t, max_toi, bounding) {
                return CastOutput::miss(max_toi, last_distance, iterations);
            }
            return failed(t, last_distance, iterations);
        }
        let (pa, pb) = (ma.pose_at(pose_a, t), mb.pose_at(pose_b, t));
        let d = distance_cached(a, &pa, b, &pb, &mut cache, None);
        iterations += 1;
        if d.status == crate::query::GjkStatus::NonFiniteSupport || !d.distance.is_finite() {
            return failed(t, last_distance, iterations);
        }
        last_distance = d.distance;
        if let Some(steps) = trace.as_deref_mut() {
            let (point_a, point_b, normal) = (d.point_a, d.point_b, d.normal);
            steps.push(CastStep { time: t, distance: d.distance, point_a, point_b, normal });
        }
        let scale =
            pa.translation.abs_elem().max_elem(pb.translation.abs_elem()).max_component() + reach_a + reach_b;
        let tol = tolerance(target, size, scale);
        if d.distance <= target + tol {
            if d.normal == V::ZERO {
                // Overlapping cores: the step before was not safe after all (it cannot be,
                // short of rounding); report what is proven.
                return failed(t, d.distance, iterations);
            }
            return CastOutput {
                status: CastStatus::Hit,
                toi: t,
                safe_toi: t,
                distance: d.distance,
                point_a: d.point_a,
                point_b: d.point_b,
                normal: d.normal,
                face_normal: face_normal(b, &pb, d.normal),
                iterations,
            };
        }
        let n = d.normal;
        let gap = gap_along(a, &pa, b, &pb, n);
        let speed = -relative.dot(n) + spin;
        let aim = target + tol * V::Real::HALF;
        if !gt(speed, zero) {
            // The gap along n never shrinks.
            return CastOutput::miss(max_toi, d.distance, iterations);
        }
        // Two certified steps; the longer is taken. Along the normal (the gap and the
        // speed bound along it), and without one: GJK's certified lower bound over the
        // bound on any point's relative speed, which still advances when rounding has
        // blurred the normal of nearly touching shapes (f32).
        let along = (gap - aim) / speed;
        let any = (d.lower_bound - aim) / (relative.length() + spin);
        let step = if gt(any, along) { any } else { along };
        if !gt(step, zero) {
            // The distance is above the band but neither certified bound is: rounding at
            // this scale; what is proven is the time reached.
            return failed(t, d.distance, iterations);
        }
        let next = t + step;
        if !le(next, max_toi) {
            return CastOutput::miss(max_toi, d.distance, iterations);
        }
        if !gt(next, t) {
            // The step underflowed next to t: no progress is possible.
            return failed(t, d.distance, iterations);
        }
        t = next;
    }
}

/// The first of the times `h, 2h, 4h, ...` (up to `max_toi`) at which the shapes are
/// farther apart than `threshold`, with the distance queries spent; `None` when there is
/// none within the cap.
#[allow(clippy::too_many_arguments)]
fn escape<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    ma: &Motion<V>,
    mb: &Motion<V>,
    max_toi: V::Real,
    threshold: V::Real,
) -> Option<(V::Real, u32)> {
    // A first step of about a thousandth of the interval (or of a unit of time when it is
    // infinite), doubled until the pair is apart.
    let mut h = if max_toi.is_finite() { max_toi } else { V::Real::ONE } * V::Real::from_f64(1.0e-3);
    let mut cache = SimplexCache::default();
    for n in 1..=MAX_ESCAPE_STEPS {
        let t = h.min(max_toi);
        let d = distance_cached(a, &ma.pose_at(pose_a, t), b, &mb.pose_at(pose_b, t), &mut cache, None);
        if d.lower_bound > threshold {
            return Some((t, n));
        }
        if !gt(max_toi, t) {
            return None;
        }
        h *= V::Real::TWO;
    }
    None
}

/// Whether the balls of radius `gap` (the two reaches plus the target) about the bodies'
/// origins, moving with their linear velocities, stay apart over `[t, max_toi]`: the
/// distance of the origins at their closest approach within it exceeds `gap` (by more than
/// the rounding of the numbers involved).
#[allow(clippy::too_many_arguments)]
fn balls_stay_apart<V: Space>(
    pose_a: &Pose<V>,
    pose_b: &Pose<V>,
    ma: &Motion<V>,
    mb: &Motion<V>,
    t: V::Real,
    max_toi: V::Real,
    gap: V::Real,
) -> bool {
    let zero = V::Real::ZERO;
    let v = mb.velocity - ma.velocity;
    let d0 = (pose_b.translation + mb.velocity * t) - (pose_a.translation + ma.velocity * t);
    let vv = v.dot(v);
    // The time after t of the closest approach, within the interval.
    let mut s = if vv > zero { (-d0.dot(v) / vv).max(zero) } else { zero };
    if max_toi.is_finite() {
        s = s.min((max_toi - t).max(zero));
    }
    let closest = (d0 + v * s).length();
    let slack = V::Real::EPSILON * V::Real::from_usize(64) * (d0.length() + gap);
    closest.is_finite() && closest > gap + slack
}
