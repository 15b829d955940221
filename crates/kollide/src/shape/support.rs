//! The one trait a convex shape provides, and the adapters that compose it.
//!
//! A convex shape in kollide is a *core* (any convex set, given by its support function)
//! grown by a *radius* (a Minkowski sum with a ball). A ball is a point core with a radius,
//! a capsule a segment core with a radius; a box has radius 0. GJK runs on the cores and
//! adds the radii at the end, which is both faster and more exact than sampling a curved
//! surface (the design of Jolt's `AddConvexRadius` and Box2D's proxies).

use super::support_face::{Feature, SupportFace};
use super::{ConvexHull, ConvexPolygon};
use crate::math::{Pose, Real, Vector};

/// The `hint` of [`Support::support_hinted`] that means "no previous vertex": the shape
/// chooses where to start.
pub const NO_HINT: u32 = u32::MAX;

/// The support mapping of a convex shape: the one method a user's own shape implements.
///
/// All points and directions are in the shape's **local frame**.
///
/// ```
/// use kollide::shape::Support;
/// use kollide::query::{distance, DistanceStatus};
/// use kollide::math::{DPose3, DVec3};
///
/// /// A user's own convex shape: the unit octahedron |x| + |y| + |z| <= 1.
/// struct Octahedron;
/// impl Support<DVec3> for Octahedron {
///     fn support(&self, d: DVec3) -> DVec3 {
///         let a = d.abs();
///         if a.x >= a.y && a.x >= a.z { DVec3::X * d.x.signum() }
///         else if a.y >= a.z { DVec3::Y * d.y.signum() }
///         else { DVec3::Z * d.z.signum() }
///     }
/// }
/// let out = distance(&Octahedron, &DPose3::IDENTITY,
///                    &Octahedron, &DPose3::from_translation(DVec3::new(3.0, 0.0, 0.0)));
/// assert_eq!(out.status, DistanceStatus::Converged);
/// assert!((out.distance - 1.0).abs() < 1e-12);
/// ```
pub trait Support<V: Vector> {
    /// A point of the core farthest along `dir`: any `p` in the core with
    /// `p·dir = max over the core of q·dir`.
    ///
    /// `dir` is any vector, not necessarily unit. For a zero `dir` return any point of the
    /// core (never NaN).
    fn support(&self, dir: V) -> V;

    /// The radius the core is grown by (0 for sharp shapes). Must be finite and `>= 0`.
    #[inline(always)]
    fn radius(&self) -> V::Real {
        V::Real::ZERO
    }

    /// [`support`](Support::support) with a hint: polytopes with many vertices keep in
    /// `hint` the index of the vertex they returned last, and start their search there.
    /// Callers pass the same `hint` for a run of nearby directions, starting from
    /// [`NO_HINT`] (then the shape picks its own start). Shapes without vertices ignore it;
    /// a shape must accept any value (out of range means no hint).
    #[inline(always)]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        let _ = hint;
        self.support(dir)
    }

    /// Which closed-form primitive the core is, if any, so the dispatcher can skip GJK
    /// (see [`crate::query::distance`]). Leave the default for general shapes.
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::General
    }

    /// The whole feature of the core farthest along `dir` (a face, an edge or a vertex), for
    /// contact manifolds; see [`SupportFace`]. The default is the single support point with
    /// [`Feature::Unknown`], right for curved shapes; polytopes give their face so that a
    /// box resting on a box touches at four corners, not one.
    #[inline]
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        face.set_point(self.support(dir), Feature::Unknown);
    }

    /// A point inside the core, used to pick GJK's first direction. The default is the
    /// local origin, which suits shapes centred on their frame.
    #[inline(always)]
    fn interior_point(&self) -> V {
        V::ZERO
    }
}

/// A core simple enough for closed-form queries or separating-axis tests (in the shape's
/// local frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Primitive<'a, V> {
    /// The core is one point (a ball, or a zero-length capsule).
    Point(V),
    /// The core is the segment from `.0` to `.1` (a capsule, a segment).
    Segment(V, V),
    /// The core is the box `[-h, h]` centred on the local origin (a cuboid, a rectangle).
    Box(V),
    /// The core is this convex polygon (2D).
    Polygon(&'a ConvexPolygon<V>),
    /// The core is this convex hull (3D).
    Hull(&'a ConvexHull<V>),
    /// The core is the triangle `(a, b, c)` (flat in 3D).
    Triangle(V, V, V),
    /// The core is the ellipsoid (ellipse in 2D) centred on the local origin with these
    /// semi-axes along the local axes.
    Ellipsoid(V),
    /// The core is the cylinder (3D) about the local y axis whose bounding box has these
    /// half extents: `x = z = radius`, `y = half_height`.
    Cylinder(V),
    /// The core is the cone (3D) about the local y axis, apex at `+half_height`, base disk at
    /// `-half_height`, whose bounding box has these half extents: `x = z = radius`,
    /// `y = half_height`.
    Cone(V),
    /// Anything else: use GJK.
    General,
}

impl<V: Vector, S: Support<V> + ?Sized> Support<V> for &S {
    #[inline(always)]
    fn support(&self, dir: V) -> V {
        (**self).support(dir)
    }
    #[inline(always)]
    fn radius(&self) -> V::Real {
        (**self).radius()
    }
    #[inline(always)]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        (**self).support_hinted(dir, hint)
    }
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        (**self).primitive()
    }
    #[inline]
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        (**self).support_face(dir, face);
    }
    #[inline(always)]
    fn interior_point(&self) -> V {
        (**self).interior_point()
    }
}

/// A shape placed by a pose: its support is in the pose's parent frame.
///
/// Used by the queries to express shape B in shape A's frame; also handy to build a
/// compound of convex pieces or to test a user's support function.
#[derive(Clone, Copy, Debug)]
pub struct Transformed<S, V: Vector> {
    /// The shape, in its local frame.
    pub shape: S,
    /// The pose of the shape's local frame in the parent frame.
    pub pose: Pose<V>,
}

impl<V: Vector, S: Support<V>> Support<V> for Transformed<S, V> {
    #[inline(always)]
    fn support(&self, dir: V) -> V {
        let local = self.shape.support(self.pose.inverse_transform_vector(dir));
        self.pose.transform_point(local)
    }
    #[inline(always)]
    fn radius(&self) -> V::Real {
        self.shape.radius()
    }
    #[inline(always)]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        let local = self.shape.support_hinted(self.pose.inverse_transform_vector(dir), hint);
        self.pose.transform_point(local)
    }
    #[inline]
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        self.shape.support_face(self.pose.inverse_transform_vector(dir), face);
        face.map_points(|p| self.pose.transform_point(p));
    }
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        match self.shape.primitive() {
            Primitive::Point(p) => Primitive::Point(self.pose.transform_point(p)),
            Primitive::Segment(a, b) => {
                Primitive::Segment(self.pose.transform_point(a), self.pose.transform_point(b))
            }
            Primitive::Triangle(a, b, c) => Primitive::Triangle(
                self.pose.transform_point(a),
                self.pose.transform_point(b),
                self.pose.transform_point(c),
            ),
            // A box (or an ellipsoid, cylinder, cone) turned by a pose is no longer centred
            // and axis-aligned; polytopes are stored in their own frame.
            Primitive::Box(_)
            | Primitive::Polygon(_)
            | Primitive::Hull(_)
            | Primitive::Ellipsoid(_)
            | Primitive::Cylinder(_)
            | Primitive::Cone(_)
            | Primitive::General => Primitive::General,
        }
    }
    #[inline(always)]
    fn interior_point(&self) -> V {
        self.pose.transform_point(self.shape.interior_point())
    }
}

/// A shape grown by an extra radius (Minkowski sum with a ball): rounded boxes, rounded
/// hulls, thick triangles. Built with [`Rounded::try_new`].
///
/// ```
/// use kollide::shape::{Cuboid, Rounded, Support};
/// use glam::Vec3;
/// let rounded = Rounded::try_new(Cuboid::try_new(Vec3::ONE).unwrap(), 0.1).unwrap();
/// assert_eq!(rounded.radius(), 0.1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rounded<S, R> {
    shape: S,
    extra: R,
}

impl<S, R: Real> Rounded<S, R> {
    /// Grows `shape` by `radius`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`](super::ShapeError::NonFinite) or
    /// [`ShapeError::Negative`](super::ShapeError::Negative) for a bad radius.
    pub fn try_new(shape: S, radius: R) -> Result<Self, super::ShapeError> {
        super::error::check_non_negative("round", radius)?;
        Ok(Self { shape, extra: radius })
    }

    /// The inner shape.
    #[must_use]
    pub fn inner(&self) -> &S {
        &self.shape
    }

    /// The radius added by this wrapper (on top of the inner shape's own).
    #[must_use]
    pub fn extra_radius(&self) -> R {
        self.extra
    }
}

impl<V: Vector, S: Support<V>> Support<V> for Rounded<S, V::Real> {
    #[inline(always)]
    fn support(&self, dir: V) -> V {
        self.shape.support(dir)
    }
    #[inline(always)]
    fn radius(&self) -> V::Real {
        self.shape.radius() + self.extra
    }
    #[inline(always)]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        self.shape.support_hinted(dir, hint)
    }
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        self.shape.primitive()
    }
    #[inline]
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        self.shape.support_face(dir, face);
    }
    #[inline(always)]
    fn interior_point(&self) -> V {
        self.shape.interior_point()
    }
}

/// The Minkowski difference `A ⊖ B = { a - b }` of two shapes in one frame: A and B
/// overlap exactly when it contains the origin. GJK works on this set.
#[derive(Clone, Copy, Debug)]
pub struct MinkowskiDifference<A, B> {
    /// The first shape.
    pub a: A,
    /// The second shape, in the same frame as `a`.
    pub b: B,
}

impl<V: Vector, A: Support<V>, B: Support<V>> Support<V> for MinkowskiDifference<A, B> {
    #[inline(always)]
    fn support(&self, dir: V) -> V {
        self.a.support(dir) - self.b.support(-dir)
    }
    #[inline(always)]
    fn radius(&self) -> V::Real {
        self.a.radius() + self.b.radius()
    }
    #[inline(always)]
    fn interior_point(&self) -> V {
        self.a.interior_point() - self.b.interior_point()
    }
}
