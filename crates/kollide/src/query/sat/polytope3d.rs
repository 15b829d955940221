//! Separating axes between boxes and convex hulls in 3D (to be written).

use super::SatOutcome;
use crate::math::{Pose, Vector3};
use crate::shape::Primitive;

/// The separating-axis contact of two polytope cores (boxes, hulls), B placed
/// by `pose_ab`.
pub(crate) fn contact<V: Vector3>(
    a: Primitive<'_, V>,
    b: Primitive<'_, V>,
    pose_ab: &Pose<V>,
    threshold: V::Real,
) -> SatOutcome<V> {
    let _ = (a, b, pose_ab, threshold);
    SatOutcome::NotApplicable
}
