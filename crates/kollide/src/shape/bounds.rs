//! The axis-aligned bounding box of a placed convex shape: closed forms for points,
//! segments and boxes, one pass over the vertices of a small hull or polygon, else from its
//! support function.

use super::{Primitive, Support};
use crate::math::{Aabb, Pose, Rotation, Vector};

/// The least axis-aligned box, in the frame `pose` maps into (the **world frame** for a
/// world pose), holding `shape` placed by `pose`: its core's extreme points along the
/// frame's axes, grown by its radius. Exact for every convex shape: a core that is a point,
/// a segment or a box by its closed form (a box's half extent along world axis `i` is
/// `sum_j |R_ij| h_j`), a hull or polygon whose support scans its vertices by placing each
/// vertex once, any other by `2 · DIM` support calls. A shape whose support is not finite
/// gives a non-finite box.
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
    match scanned_vertices(shape) {
        Some(points) => placed_points_box(points, pose, r),
        None => from_supports(shape, pose),
    }
}

/// The vertices of a hull or polygon whose support scans them (not empty).
fn scanned_vertices<V: Vector, S: Support<V> + ?Sized>(shape: &S) -> Option<&[V]> {
    match shape.primitive() {
        Primitive::Hull(h) => h.scanned_vertices(),
        Primitive::Polygon(p) => p.scanned_vertices(),
        _ => None,
    }
}

/// The box of `points` placed by `pose`, grown by `r` (`points` not empty). The extremes
/// along the frame's axes are those of the placed points: the same points, placed the
/// same way, that the support calls would pick.
fn placed_points_box<V: Vector>(points: &[V], pose: &Pose<V>, r: V) -> Aabb<V> {
    let m = pose.rotation.applied();
    let place = |p: V| V::Rotation::apply(&m, p);
    let first = place(points[0]);
    let (min, max) = points[1..].iter().fold((first, first), |(lo, hi), &p| {
        let q = place(p);
        (lo.min_elem(q), hi.max_elem(q))
    });
    let t = pose.translation;
    Aabb::new(min + t - r, max + t + r)
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
    if let Some(points) = scanned_vertices(shape) {
        let (min, max) =
            points.iter().fold((points[0], points[0]), |(lo, hi), &p| (lo.min_elem(p), hi.max_elem(p)));
        let r = V::splat(shape.radius());
        return Aabb::new(min - r, max + r);
    }
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

    /// Small hulls and polygons are boxed by placing every vertex once: the same boxes the
    /// support calls give, placed and in their own frame, rounded or not.
    #[test]
    fn vertex_passes_equal_the_boxes_by_supports() {
        fn by_supports_local<V: Vector, S: Support<V>>(shape: &S) -> Aabb<V> {
            let (mut min, mut max) = (V::ZERO, V::ZERO);
            for i in 0..V::DIM {
                let axis = V::axis(i);
                max += axis * shape.support(axis).dot(axis);
                min += axis * shape.support(-axis).dot(axis);
            }
            let r = V::splat(shape.radius());
            Aabb::new(min - r, max + r)
        }
        fn close<V: Vector>(a: Aabb<V>, b: Aabb<V>) {
            for k in 0..V::DIM {
                for (x, y) in [(a.min[k], b.min[k]), (a.max[k], b.max[k])] {
                    let (x, y) = (x.to_f64(), y.to_f64());
                    assert!((x - y).abs() <= 1e-12 * (1.0 + y.abs()), "axis {k}: {x} against {y}");
                }
            }
        }
        let point = |i: usize| {
            let t = i as f64;
            DVec3::new((1.3 * t).sin(), (2.1 * t).cos() * 0.7, (0.7 * t + 0.4).sin() * 1.5)
        };
        for n in [4, 12, 30, 64, 200] {
            let hull = crate::shape::ConvexHull::from_points(&(0..n).map(point).collect::<Vec<_>>());
            let polygon = crate::shape::ConvexPolygon::from_points(
                &(0..n.min(40)).map(|i| point(i).truncate()).collect::<Vec<_>>(),
            );
            for i in 0..20 {
                let t = f64::from(i);
                let axis = DVec3::new(t.cos(), 0.5, (0.3 * t).sin()).normalize();
                let pose = Pose::<DVec3>::new(DVec3::new(-t, 3.0, t), DQuat::from_axis_angle(axis, 0.9 * t));
                close(bounding_box(&hull, &pose), from_supports(&hull, &pose));
                let rounded = crate::shape::Rounded::try_new(hull.clone(), 0.25).unwrap();
                close(bounding_box(&rounded, &pose), from_supports(&rounded, &pose));
                let pose2 = Pose::<DVec2>::from_angle(DVec2::new(t, 2.0), 0.7 * t);
                close(bounding_box(&polygon, &pose2), from_supports(&polygon, &pose2));
            }
            close(local_bounding_box(&hull), by_supports_local(&hull));
            close(local_bounding_box(&polygon), by_supports_local(&polygon));
        }
    }
}
