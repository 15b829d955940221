//! Cuboid (3D box) / rectangle (2D), centred and axis-aligned in its local frame.

use super::error::check_positive_vec;
use super::{Primitive, ShapeError, Support};
use crate::math::Vector;

/// An axis-aligned box centred on its local origin (a rectangle in 2D).
///
/// ```
/// use kollide::shape::{Cuboid, Support};
/// use glam::Vec2;
/// let rect = Cuboid::try_new(Vec2::new(2.0, 1.0)).unwrap();
/// assert_eq!(rect.support(Vec2::new(1.0, -1.0)), Vec2::new(2.0, -1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cuboid<V> {
    /// Half the size along each local axis, every component finite and `> 0`.
    pub half_extents: V,
}

impl<V: Vector> Cuboid<V> {
    /// A box with the given half extents.
    ///
    /// # Errors
    /// [`ShapeError`] naming the component that is not finite or not `> 0`.
    pub fn try_new(half_extents: V) -> Result<Self, ShapeError> {
        check_positive_vec("half_extents", half_extents)?;
        Ok(Self { half_extents })
    }

    /// A box with the given half extents.
    ///
    /// # Panics
    /// When a component is not finite or not `> 0` (see [`Cuboid::try_new`]).
    #[must_use]
    pub fn new(half_extents: V) -> Self {
        Self::try_new(half_extents).unwrap_or_else(|e| panic!("Cuboid::new: {e}"))
    }
}

impl<V: Vector> Support<V> for Cuboid<V> {
    #[inline(always)]
    fn support(&self, dir: V) -> V {
        self.half_extents.mul_elem(dir.sign_elem())
    }
    #[inline(always)]
    fn primitive(&self) -> Primitive<V> {
        Primitive::Box(self.half_extents)
    }
}
