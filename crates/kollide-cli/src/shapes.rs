//! The shapes a query line can name, as one enum per dimension.
//!
//! kollide's queries are generic over the shape type, and the library has no shape enum:
//! a program that learns its shapes at run time defines its own, like these, and
//! implements [`Support`] by delegating to the variant. Every method of the trait is
//! delegated (not only `support`), so the closed forms for balls, capsules and segments
//! ([`Support::primitive`]) and the hinted search of polygons still apply.

use kollide::math::{Vector, Vector2, Vector3};
use kollide::shape::{
    Ball, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Ellipsoid, Primitive, Rounded, Segment,
    Support, Triangle,
};

/// A 2D shape read from a query line.
#[derive(Clone, Debug)]
pub enum Shape2<V: Vector2> {
    /// `"circle"`.
    Circle(Ball<V>),
    /// `"rectangle"`.
    Rectangle(Cuboid<V>),
    /// `"capsule"`.
    Capsule(Capsule<V>),
    /// `"ellipse"`.
    Ellipse(Ellipsoid<V>),
    /// `"segment"`.
    Segment(Segment<V>),
    /// `"triangle"`.
    Triangle(Triangle<V>),
    /// `"convex_polygon"`.
    ConvexPolygon(ConvexPolygon<V>),
    /// Any of the above with `"round": r`. Boxed because the enum contains itself.
    Rounded(Box<Rounded<Shape2<V>, V::Real>>),
}

/// A 3D shape read from a query line.
#[derive(Clone, Debug)]
pub enum Shape3<V: Vector3> {
    /// `"ball"`.
    Ball(Ball<V>),
    /// `"cuboid"`.
    Cuboid(Cuboid<V>),
    /// `"capsule"`.
    Capsule(Capsule<V>),
    /// `"cylinder"`.
    Cylinder(Cylinder<V>),
    /// `"cone"`.
    Cone(Cone<V>),
    /// `"ellipsoid"`.
    Ellipsoid(Ellipsoid<V>),
    /// `"segment"`.
    Segment(Segment<V>),
    /// `"triangle"`.
    Triangle(Triangle<V>),
    /// `"convex_hull"`.
    ConvexHull(Box<ConvexHull<V>>),
    /// Any of the above with `"round": r`. Boxed because the enum contains itself.
    Rounded(Box<Rounded<Shape3<V>, V::Real>>),
}

/// Implements [`Support`] for a shape enum by forwarding each method to the variant.
macro_rules! delegate_support {
    ($enum:ident, $bound:ident, [$($variant:ident),+ $(,)?]) => {
        impl<V: $bound> Support<V> for $enum<V> {
            #[inline]
            fn support(&self, dir: V) -> V {
                match self {
                    $(Self::$variant(s) => s.support(dir),)+
                }
            }
            #[inline]
            fn radius(&self) -> V::Real {
                match self {
                    $(Self::$variant(s) => s.radius(),)+
                }
            }
            #[inline]
            fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
                match self {
                    $(Self::$variant(s) => s.support_hinted(dir, hint),)+
                }
            }
            #[inline]
            fn primitive(&self) -> Primitive<'_, V> {
                match self {
                    $(Self::$variant(s) => s.primitive(),)+
                }
            }
            #[inline]
            fn support_face(&self, dir: V, face: &mut kollide::shape::SupportFace<V>) {
                match self {
                    $(Self::$variant(s) => s.support_face(dir, face),)+
                }
            }
            #[inline]
            fn interior_point(&self) -> V {
                match self {
                    $(Self::$variant(s) => s.interior_point(),)+
                }
            }
        }
    };
}

delegate_support!(
    Shape2,
    Vector2,
    [Circle, Rectangle, Capsule, Ellipse, Segment, Triangle, ConvexPolygon, Rounded]
);
delegate_support!(
    Shape3,
    Vector3,
    [Ball, Cuboid, Capsule, Cylinder, Cone, Ellipsoid, Segment, Triangle, ConvexHull, Rounded]
);

/// Wraps a shape in [`Rounded`]: how each enum builds its `Rounded` variant.
pub trait Round<V: Vector>: Sized {
    /// The shape grown by `radius` (already checked by [`Rounded::try_new`]).
    fn round(rounded: Rounded<Self, V::Real>) -> Self;
}

impl<V: Vector2> Round<V> for Shape2<V> {
    fn round(rounded: Rounded<Self, V::Real>) -> Self {
        Self::Rounded(Box::new(rounded))
    }
}

impl<V: Vector3> Round<V> for Shape3<V> {
    fn round(rounded: Rounded<Self, V::Real>) -> Self {
        Self::Rounded(Box::new(rounded))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide::math::{DVec2, DVec3};

    #[test]
    fn delegation_keeps_primitives_and_radius() {
        let capsule = Shape3::Capsule(Capsule::<DVec3>::new(1.0, 0.5));
        assert_eq!(capsule.primitive(), Primitive::Segment(DVec3::NEG_Y, DVec3::Y));
        assert_eq!(capsule.radius(), 0.5);
        let inner = Shape2::Segment(Segment::new(DVec2::ZERO, DVec2::X));
        let rounded = Shape2::round(Rounded::try_new(inner, 0.25).unwrap());
        assert_eq!(rounded.radius(), 0.25);
        assert_eq!(rounded.primitive(), Primitive::Segment(DVec2::ZERO, DVec2::X));
        assert_eq!(rounded.interior_point(), DVec2::new(0.5, 0.0));
    }
}
