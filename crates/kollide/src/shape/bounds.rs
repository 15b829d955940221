//! The axis-aligned bounding box of a placed convex shape: closed forms for points,
//! segments and boxes, else from its support function.

use super::{Primitive, Support};
use crate::math::{Aabb, Pose, Vector};

/// The least axis-aligned box, in the frame `pose` maps into (the **world frame** for a
/// world pose), holding `shape` placed by `pose`: its core's extreme points along the
/// frame's axes, grown by its radius. Exact for every convex shape: a core that is a point,
/// a segment or a box by its closed form (a box's half extent along world axis `i` is
/// `sum_j |R_ij| h_j`), any other by `2 · DIM` support calls. A shape whose support is not
/// finite gives a non-finite box.
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
    let r = V::splat(shape.radius());
    match shape.primitive() {
        Primitive::Point(p) => {
            let c = pose.transform_point(p);
            return Aabb::new(c - r, c + r);
        }
        Primitive::Segment(a, b) => {
            let (a, b) = (pose.transform_point(a), pose.transform_point(b));
            return Aabb::new(a.min_elem(b) - r, a.max_elem(b) + r);
        }
        Primitive::Box(h) => {
            let mut e = V::ZERO;
            for j in 0..V::DIM {
                e += pose.transform_vector(V::axis(j) * h[j]).abs_elem();
            }
            let c = pose.translation;
            return Aabb::new(c - e - r, c + e + r);
        }
        _ => {}
    }
    from_supports(shape, pose)
}

/// [`bounding_box`] by `2 · DIM` support calls, for any core.
fn from_supports<V: Vector, S: Support<V> + ?Sized>(shape: &S, pose: &Pose<V>) -> Aabb<V> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{DQuat, DVec2, DVec3, Real};
    use crate::shape::{Ball, Capsule, Cuboid, Segment};

    /// The closed forms give the boxes the support calls give, at turned poses.
    #[test]
    fn closed_forms_equal_the_boxes_by_supports() {
        fn same<V: Vector, S: Support<V>>(shape: &S, pose: &Pose<V>) {
            assert!(!matches!(shape.primitive(), Primitive::General));
            let (a, b) = (bounding_box(shape, pose), from_supports(shape, pose));
            for k in 0..V::DIM {
                for (x, y) in [(a.min[k], b.min[k]), (a.max[k], b.max[k])] {
                    let (x, y) = (x.to_f64(), y.to_f64());
                    assert!((x - y).abs() <= 1e-12 * (1.0 + y.abs()), "axis {k}: {x} against {y}");
                }
            }
        }
        for i in 0..50 {
            let t = f64::from(i);
            let axis = DVec3::new(t.sin(), (1.7 * t).cos(), 0.3 + (0.4 * t).sin()).normalize();
            let pose =
                Pose::<DVec3>::new(DVec3::new(t, -2.0 * t, 0.5), DQuat::from_axis_angle(axis, 0.37 * t));
            same(&Ball::<DVec3>::new(0.7), &pose);
            same(&Capsule::<DVec3>::new(1.3, 0.4), &pose);
            same(&Cuboid::new(DVec3::new(0.3, 1.1, 2.0)), &pose);
            same(&Segment::new(DVec3::new(-1.0, 0.2, 0.0), DVec3::new(0.5, 2.0, -3.0)), &pose);
            let pose2 = Pose::<DVec2>::from_angle(DVec2::new(t, 1.0 - t), 0.61 * t);
            same(&Cuboid::new(DVec2::new(0.3, 1.1)), &pose2);
            same(&Capsule::<DVec2>::new(1.3, 0.4), &pose2);
        }
    }
}
