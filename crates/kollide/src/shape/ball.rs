//! Ball (3D) / circle (2D): a point core grown by a radius.

use super::error::check_positive;
use super::{Primitive, ShapeError, Support};
use crate::math::Vector;

/// A ball centred on its local origin (a circle in 2D).
///
/// ```
/// use kollide::shape::Ball;
/// use glam::Vec3;
/// let ball = Ball::<Vec3>::try_new(0.5).unwrap();
/// assert_eq!(ball.radius, 0.5);
/// assert!(Ball::<Vec3>::try_new(-1.0).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ball<V: Vector> {
    /// The radius, finite and `> 0`.
    pub radius: V::Real,
}

impl<V: Vector> Ball<V> {
    /// A ball of the given radius.
    ///
    /// # Errors
    /// [`ShapeError`] when `radius` is not finite or not `> 0`.
    pub fn try_new(radius: V::Real) -> Result<Self, ShapeError> {
        check_positive("radius", radius)?;
        Ok(Self { radius })
    }

    /// A ball of the given radius.
    ///
    /// # Panics
    /// When `radius` is not finite or not `> 0` (see [`Ball::try_new`]).
    #[must_use]
    pub fn new(radius: V::Real) -> Self {
        Self::try_new(radius).unwrap_or_else(|e| panic!("Ball::new: {e}"))
    }
}

impl<V: Vector> Support<V> for Ball<V> {
    #[inline(always)]
    fn support(&self, _dir: V) -> V {
        V::ZERO
    }
    #[inline(always)]
    fn radius(&self) -> V::Real {
        self.radius
    }
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Point(V::ZERO)
    }
}
