//! Separating axes between convex polygons and rectangles (to be written).

use super::SatOutcome;
use crate::math::{Pose, Vector2};
use crate::shape::Primitive;

/// The separating-axis contact of two polygon cores (rectangles, convex polygons), B placed
/// by `pose_ab`.
pub(crate) fn contact<V: Vector2>(
    a: Primitive<'_, V>,
    b: Primitive<'_, V>,
    pose_ab: &Pose<V>,
    threshold: V::Real,
) -> SatOutcome<V> {
    let _ = (a, b, pose_ab, threshold);
    SatOutcome::NotApplicable
}
