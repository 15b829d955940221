//! Segment: two end points (2D and 3D).

use super::error::check_finite_vec;
use super::support_face::segment_face;
use super::{Primitive, ShapeError, Support, SupportFace};
use crate::math::{Real, Vector};

/// The segment between two points of the local frame. Equal end points are allowed (a point).
///
/// ```
/// use kollide::shape::{Segment, Support};
/// use glam::Vec2;
/// let s = Segment::try_new(Vec2::ZERO, Vec2::X).unwrap();
/// assert_eq!(s.support(Vec2::new(1.0, 5.0)), Vec2::X);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Segment<V> {
    /// First end point.
    pub a: V,
    /// Second end point.
    pub b: V,
}

impl<V: Vector> Segment<V> {
    /// The segment from `a` to `b`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] naming the bad coordinate.
    pub fn try_new(a: V, b: V) -> Result<Self, ShapeError> {
        check_finite_vec("a", a)?;
        check_finite_vec("b", b)?;
        Ok(Self { a, b })
    }

    /// The segment from `a` to `b`.
    ///
    /// # Panics
    /// When a coordinate is not finite.
    #[must_use]
    pub fn new(a: V, b: V) -> Self {
        Self::try_new(a, b).unwrap_or_else(|e| panic!("Segment::new: {e}"))
    }
}

impl<V: Vector> Support<V> for Segment<V> {
    #[inline(always)]
    fn support(&self, dir: V) -> V {
        if (self.b - self.a).dot(dir) > V::Real::ZERO {
            self.b
        } else {
            self.a
        }
    }
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Segment(self.a, self.b)
    }
    #[inline]
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        segment_face(self.a, self.b, dir, face);
    }
    #[inline(always)]
    fn interior_point(&self) -> V {
        (self.a + self.b) * V::Real::HALF
    }
}
