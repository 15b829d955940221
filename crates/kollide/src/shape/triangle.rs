//! Triangle: three points (2D and 3D). Flat in 3D, as triangles of a mesh are.

use super::error::check_finite_vec;
use super::{ShapeError, Support};
use crate::math::{Real, Vector};

/// The triangle with corners `a`, `b`, `c` in the local frame. Degenerate triangles
/// (collinear or equal corners) are allowed: they are still convex sets.
///
/// ```
/// use kollide::shape::{Triangle, Support};
/// use glam::Vec3;
/// let t = Triangle::try_new(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap();
/// assert_eq!(t.support(Vec3::new(1.0, 0.5, 0.0)), Vec3::X);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Triangle<V> {
    /// First corner.
    pub a: V,
    /// Second corner.
    pub b: V,
    /// Third corner.
    pub c: V,
}

impl<V: Vector> Triangle<V> {
    /// The triangle `a b c`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] naming the bad coordinate.
    pub fn try_new(a: V, b: V, c: V) -> Result<Self, ShapeError> {
        check_finite_vec("a", a)?;
        check_finite_vec("b", b)?;
        check_finite_vec("c", c)?;
        Ok(Self { a, b, c })
    }

    /// The triangle `a b c`.
    ///
    /// # Panics
    /// When a coordinate is not finite.
    #[must_use]
    pub fn new(a: V, b: V, c: V) -> Self {
        Self::try_new(a, b, c).unwrap_or_else(|e| panic!("Triangle::new: {e}"))
    }
}

impl<V: Vector> Support<V> for Triangle<V> {
    #[inline(always)]
    fn support(&self, dir: V) -> V {
        let (da, db, dc) = (self.a.dot(dir), self.b.dot(dir), self.c.dot(dir));
        if da >= db && da >= dc {
            self.a
        } else if db >= dc {
            self.b
        } else {
            self.c
        }
    }
    #[inline(always)]
    fn interior_point(&self) -> V {
        (self.a + self.b + self.c) * (V::Real::ONE / (V::Real::TWO + V::Real::ONE))
    }
}
