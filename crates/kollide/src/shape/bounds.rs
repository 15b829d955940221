//! The axis-aligned bounding box of a placed convex shape, from its support function.

use super::Support;
use crate::math::{Aabb, Pose, Vector};

/// The least axis-aligned box, in the frame `pose` maps into (the **world frame** for a
/// world pose), holding `shape` placed by `pose`: its core's extreme points along the
/// frame's axes, grown by its radius. Exact for every convex shape (`2 · DIM` support
/// calls). A shape whose support is not finite gives a non-finite box.
///
/// ```
/// use kollide::shape::{bounding_box, Capsule};
/// use kollide::math::{Pose3, Vec3};
/// let b = bounding_box(&Capsule::new(1.0, 0.5), &Pose3::from_translation(Vec3::X));
/// assert_eq!(b.min, Vec3::new(0.5, -1.5, -0.5));
/// assert_eq!(b.max, Vec3::new(1.5, 1.5, 0.5));
/// ```
#[must_use]
pub fn bounding_box<V: Vector, S: Support<V> + ?Sized>(shape: &S, pose: &Pose<V>) -> Aabb<V> {
    let mut min = V::ZERO;
    let mut max = V::ZERO;
    for i in 0..V::DIM {
        let axis = V::axis(i);
        let d = pose.inverse_transform_vector(axis);
        let hi = pose.transform_point(shape.support(d)).dot(axis);
        let lo = pose.transform_point(shape.support(-d)).dot(axis);
        max += axis * hi;
        min += axis * lo;
    }
    let r = shape.radius();
    Aabb::new(min - V::splat(r), max + V::splat(r))
}

/// [`bounding_box`] in the shape's own frame (no rotation).
#[must_use]
pub fn local_bounding_box<V: Vector, S: Support<V> + ?Sized>(shape: &S) -> Aabb<V> {
    let mut min = V::ZERO;
    let mut max = V::ZERO;
    for i in 0..V::DIM {
        let axis = V::axis(i);
        max += axis * shape.support(axis).dot(axis);
        min += axis * shape.support(-axis).dot(axis);
    }
    let r = shape.radius();
    Aabb::new(min - V::splat(r), max + V::splat(r))
}
