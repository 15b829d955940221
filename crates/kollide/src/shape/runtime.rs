//! Convex shapes chosen at run time: one enum per dimension holding every kollide convex
//! shape, a rounded one, or a user's own [`Support`] shape.
//!
//! kollide's queries are generic over the shape type, so a program that learns its shapes at
//! run time (from a file, a level editor) needs one type for all of them. [`Convex2`] and
//! [`Convex3`] are that type: they implement [`Support`] by delegating **every** method to
//! the variant, so the dispatcher still sees a ball's point core or a box's half extents
//! ([`Support::primitive`]) and chooses the closed form or the separating-axis test, exactly
//! as for the concrete shape. A user's shape behind an `Arc<dyn Support>` goes to GJK like
//! any general convex shape.
//!
//! These are the convex parts of a [`Compound`](crate::composite::Compound) and the convex
//! half of the world's shape enums ([`crate::world`]).

use super::{
    Ball, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Ellipsoid, Primitive, Rounded, Segment,
    Support, SupportFace, Triangle,
};
use crate::math::{Vector2, Vector3};
use std::sync::Arc;

/// A user's own convex shape, shared: any [`Support`] implementation.
pub type UserShape<V> = Arc<dyn Support<V> + Send + Sync>;

/// A 2D convex shape chosen at run time.
///
/// ```
/// use kollide::shape::{Ball, Convex2, Cuboid, Primitive, Support};
/// use kollide::query::distance;
/// use kollide::math::{DPose2, DVec2};
/// let shapes = [Convex2::Ball(Ball::new(0.5)), Convex2::Cuboid(Cuboid::new(DVec2::new(1.0, 0.5)))];
/// // The closed forms are still seen through the enum:
/// assert_eq!(shapes[0].primitive(), Primitive::Point(DVec2::ZERO));
/// let d = distance(&shapes[0], &DPose2::from_translation(DVec2::new(3.0, 0.0)), &shapes[1], &DPose2::IDENTITY);
/// assert!((d.distance - 1.5).abs() < 1e-12);
/// ```
#[derive(Clone)]
pub enum Convex2<V: Vector2> {
    /// A circle.
    Ball(Ball<V>),
    /// A rectangle.
    Cuboid(Cuboid<V>),
    /// A capsule (a stadium).
    Capsule(Capsule<V>),
    /// An ellipse.
    Ellipsoid(Ellipsoid<V>),
    /// A segment.
    Segment(Segment<V>),
    /// A filled triangle.
    Triangle(Triangle<V>),
    /// A convex polygon (shared: cloning the enum does not copy its vertices).
    ConvexPolygon(Arc<ConvexPolygon<V>>),
    /// Any of these grown by a radius.
    Rounded(Arc<Rounded<Convex2<V>, V::Real>>),
    /// A user's own convex shape.
    User(UserShape<V>),
}

/// A 3D convex shape chosen at run time.
///
/// ```
/// use kollide::shape::{Ball, Convex3, Cuboid, Primitive, Support};
/// use kollide::query::intersects;
/// use kollide::math::{Pose3, Vec3};
/// let ball = Convex3::Ball(Ball::new(0.5));
/// let cube = Convex3::Cuboid(Cuboid::new(Vec3::splat(1.0)));
/// assert_eq!(cube.primitive(), Primitive::Box(Vec3::splat(1.0)));
/// assert!(intersects(&ball, &Pose3::from_translation(Vec3::new(1.4, 0.0, 0.0)), &cube, &Pose3::IDENTITY));
/// ```
#[derive(Clone)]
pub enum Convex3<V: Vector3> {
    /// A ball.
    Ball(Ball<V>),
    /// A box.
    Cuboid(Cuboid<V>),
    /// A capsule.
    Capsule(Capsule<V>),
    /// A cylinder.
    Cylinder(Cylinder<V>),
    /// A cone.
    Cone(Cone<V>),
    /// An ellipsoid.
    Ellipsoid(Ellipsoid<V>),
    /// A segment.
    Segment(Segment<V>),
    /// A triangle.
    Triangle(Triangle<V>),
    /// A convex hull (shared: cloning the enum does not copy its vertices).
    ConvexHull(Arc<ConvexHull<V>>),
    /// Any of these grown by a radius.
    Rounded(Arc<Rounded<Convex3<V>, V::Real>>),
    /// A user's own convex shape.
    User(UserShape<V>),
}

macro_rules! delegate {
    ($enum:ident, $bound:ident, [$($variant:ident),+ $(,)?]) => {
        impl<V: $bound> Support<V> for $enum<V> {
            #[inline]
            fn support(&self, dir: V) -> V {
                match self {
                    $(Self::$variant(s) => s.support(dir),)+
                    Self::User(s) => s.support(dir),
                }
            }
            #[inline]
            fn radius(&self) -> V::Real {
                match self {
                    $(Self::$variant(s) => s.radius(),)+
                    Self::User(s) => s.radius(),
                }
            }
            #[inline]
            fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
                match self {
                    $(Self::$variant(s) => s.support_hinted(dir, hint),)+
                    Self::User(s) => s.support_hinted(dir, hint),
                }
            }
            #[inline]
            fn primitive(&self) -> Primitive<'_, V> {
                match self {
                    $(Self::$variant(s) => s.primitive(),)+
                    Self::User(s) => s.primitive(),
                }
            }
            #[inline]
            fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
                match self {
                    $(Self::$variant(s) => s.support_face(dir, face),)+
                    Self::User(s) => s.support_face(dir, face),
                }
            }
            #[inline]
            fn interior_point(&self) -> V {
                match self {
                    $(Self::$variant(s) => s.interior_point(),)+
                    Self::User(s) => s.interior_point(),
                }
            }
        }

        impl<V: $bound> core::fmt::Debug for $enum<V> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self {
                    Self::User(_) => f.write_str("User(..)"),
                    $(Self::$variant(s) => f.debug_tuple(stringify!($variant)).field(s).finish(),)+
                }
            }
        }

        impl<V: $bound> $enum<V> {
            /// This shape grown by `radius` (a [`Rounded`] variant).
            ///
            /// # Errors
            /// [`ShapeError`](super::ShapeError) for a negative or non-finite radius.
            pub fn rounded(self, radius: V::Real) -> Result<Self, super::ShapeError> {
                Ok(Self::Rounded(Arc::new(Rounded::try_new(self, radius)?)))
            }
        }
    };
}

// Every variant but `User`, which each impl matches by hand (a user's shape need not be Debug).
delegate!(Convex2, Vector2, [Ball, Cuboid, Capsule, Ellipsoid, Segment, Triangle, ConvexPolygon, Rounded]);
delegate!(
    Convex3,
    Vector3,
    [Ball, Cuboid, Capsule, Cylinder, Cone, Ellipsoid, Segment, Triangle, ConvexHull, Rounded]
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{DVec2, DVec3};

    #[test]
    fn delegation_keeps_primitives_and_radius() {
        let capsule = Convex3::Capsule(Capsule::<DVec3>::new(1.0, 0.5));
        assert_eq!(capsule.primitive(), Primitive::Segment(DVec3::NEG_Y, DVec3::Y));
        assert_eq!(capsule.radius(), 0.5);
        let inner = Convex2::Segment(Segment::new(DVec2::ZERO, DVec2::X));
        let rounded = inner.rounded(0.25).unwrap();
        assert_eq!(rounded.radius(), 0.25);
        assert_eq!(rounded.primitive(), Primitive::Segment(DVec2::ZERO, DVec2::X));
        assert_eq!(rounded.interior_point(), DVec2::new(0.5, 0.0));
        assert!(Convex2::Ball(Ball::<DVec2>::new(1.0)).rounded(-1.0).is_err());
    }
}
