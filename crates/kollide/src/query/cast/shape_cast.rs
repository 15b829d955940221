//! The shape cast: when do two moving convex shapes first come within a distance?

use super::motion::{CastInput, CastOutput};
use crate::math::{Pose, Vector};
use crate::shape::Support;

/// The first time in `[0, input.max_toi]` at which `a` and `b`, starting at `pose_a` and
/// `pose_b` (world frame) and moving as `input.motion_a` and `input.motion_b` say, come
/// within `input.target_distance` of each other.
///
/// Pure translations (both angular velocities zero) use the linear cast; rotating bodies use
/// conservative advancement on the warm-started distance query with a bound on how fast the
/// rotation can move a point of each shape. See [`CastOutput`] for what each status
/// promises, and [`super::CastStatus::StartedWithin`] for pairs within the distance at
/// time 0.
///
/// Never panics; nothing in the answer is NaN.
#[must_use]
pub fn shape_cast<V: Vector, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    input: &CastInput<V>,
) -> CastOutput<V> {
    let _ = (a, pose_a, b, pose_b, input);
    todo!("shape_cast")
}
