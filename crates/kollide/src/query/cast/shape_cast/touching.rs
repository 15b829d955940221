//! Shapes that touch at the start of a cast: do they approach?
//!
//! Let `s(t)` be the signed distance of the shapes at time `t`. When they touch at time 0
//! (`s(0) = 0` within rounding), the contact normal is not one direction but a cone `N`: every
//! unit `n` along which the shapes' slabs just meet (at a vertex of the Minkowski difference,
//! the normals of all its faces there). Danskin's theorem gives the rate at which the shapes
//! part: `s'(0+) = max over n in N of n · (relative velocity)`. They approach exactly when
//! that is negative, so one normal picked from the cone (EPA's, for instance) cannot decide.
//!
//! **Linear motion.** The signed distance of convex shapes moving along lines is convex in
//! time (a maximum of affine functions, one per direction). So B, moving at `r` relative to
//! A, ever goes deeper than touching exactly when the swept body `B ⊕ [0, L r̂]` (B and every
//! translate of it along the motion, for any length `L > 0`) overlaps A with a positive
//! depth: if some later pose penetrates, the convexity of `s` makes every earlier one up to
//! it penetrate too, and the first-order test follows. That depth is measured by the
//! contact query on the swept body, so it decides with the same accuracy as any contact:
//! a motion into the contact sweeps `L sin(angle)` deep, one out of it or along it `0`.
//!
//! **Turning motion.** The signed distance is no longer convex; the pair is probed at doubling
//! times from one short enough that the first-order change rules (see `approaches`): it
//! approaches when the first probe that moved by more than the tolerance went deeper.

use crate::query::cast::motion::Motion;
use crate::query::cast::numeric::gt;
use crate::query::Space;

/// The most probes of a turning pair (doubling from its first step to the cast's reach).
const PROBES: usize = 40;
use crate::math::{Pose, Real};
use crate::query::{contact, distance};
use crate::shape::Support;

/// A shape swept along a segment: the Minkowski sum of `shape` with `[0, motion]` (local
/// frame), its radius unchanged.
struct Swept<'a, S: ?Sized, V> {
    shape: &'a S,
    motion: V,
}

impl<V: Space, S: Support<V> + ?Sized> Support<V> for Swept<'_, S, V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        let p = self.shape.support(dir);
        if self.motion.dot(dir) > V::Real::ZERO {
            p + self.motion
        } else {
            p
        }
    }
    #[inline]
    fn radius(&self) -> V::Real {
        self.shape.radius()
    }
    #[inline]
    fn interior_point(&self) -> V {
        self.shape.interior_point() + self.motion * V::Real::HALF
    }
}

/// Whether shapes at signed distance `depth0` at time 0 (touching within `tol`, or apart)
/// get closer than `depth0 - tol` as they move on for a distance `cap` (twice their
/// size): B moving relative to A. Translating, the least distance (or greatest depth) over
/// the motion is that of A and the swept B: exactly, for apart shapes. `size` is the shapes'
/// length scale (sizes and radii), used for the probe's first step.
#[allow(clippy::too_many_arguments)]
pub(super) fn approaches<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    ma: &Motion<V>,
    mb: &Motion<V>,
    depth0: V::Real,
    size: V::Real,
    cap: V::Real,
    tol: V::Real,
) -> bool {
    let zero = V::Real::ZERO;
    if ma.is_linear() && mb.is_linear() {
        let r = mb.velocity - ma.velocity;
        let speed = r.length();
        if !(speed > zero && speed.is_finite()) {
            return false;
        }
        // A sweep of `cap`, past the contact whatever the motion's speed.
        let motion = pose_b.inverse_transform_vector(r * (cap / speed));
        let swept = Swept { shape: b, motion };
        return deeper(a, pose_a, &swept, pose_b, depth0 - tol);
    }
    // Turning: probe ahead at doubling times; the first probe whose distance has moved by
    // more than the tolerance says which way it goes; one that stays within it all along is
    // sliding along.
    let spin = |m: &Motion<V>, pose: &Pose<V>, s: &dyn Fn(V) -> V| {
        let mut far = zero;
        for i in 0..V::DIM {
            for sign in [V::Real::ONE, -V::Real::ONE] {
                let p = pose.transform_point(s(pose.inverse_transform_vector(V::axis(i) * sign)));
                far = far.max((p - pose.translation).length());
            }
        }
        V::angular_speed(m.angular_velocity) * (far * V::Real::TWO)
    };
    let speed = (mb.velocity - ma.velocity).length()
        + spin(ma, pose_a, &|d| a.support(d))
        + spin(mb, pose_b, &|d| b.support(d));
    if !(speed > zero && speed.is_finite()) {
        return false;
    }
    let end = cap / speed;
    // The first step moves no point more than `√(tol size)`: there a rate of closing above
    // `√(tol / size)` moves the distance by more than the tolerance while the turning's
    // second-order part (`~ step² / size`) stays within it. Slower rates are decided by
    // what the distance does further on.
    let mut h = (tol * size).sqrt() / speed;
    for _ in 0..PROBES {
        let t = h.min(end);
        let (pa, pb) = (ma.pose_at(pose_a, t), mb.pose_at(pose_b, t));
        if deeper(a, &pa, b, &pb, depth0 - tol) {
            return true;
        }
        if !deeper(a, &pa, b, &pb, depth0 + tol) {
            return false;
        }
        if !gt(end, t) {
            return false;
        }
        h *= V::Real::TWO;
    }
    false
}

/// The core of a shape, without its radius.
struct Core<'a, S: ?Sized>(&'a S);

impl<V: Space, S: Support<V> + ?Sized> Support<V> for Core<'_, S> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.0.support(dir)
    }
    #[inline]
    fn interior_point(&self) -> V {
        self.0.interior_point()
    }
}

/// Whether the signed distance of the placed shapes is proven below `level`. Cores apart
/// (where there are radii, or the level asks for a distance): GJK's certified upper bound on
/// their distance, less the radii; cores touching or overlapping: the contact query's depth
/// (EPA's, or the separating axes').
fn deeper<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    level: V::Real,
) -> bool {
    let radii = a.radius() + b.radius();
    if radii > V::Real::ZERO || level > V::Real::ZERO {
        let cores = distance(&Core(a), pose_a, &Core(b), pose_b);
        if cores.lower_bound > V::Real::ZERO {
            return cores.upper_bound - radii < level;
        }
    }
    contact(a, pose_a, b, pose_b, V::Real::ZERO, None).is_some_and(|c| c.distance < level)
}
