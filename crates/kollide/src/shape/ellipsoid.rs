//! Ellipsoid (3D) / ellipse (2D), centred and axis-aligned in its local frame.

use super::error::check_positive_vec;
use super::{Primitive, ShapeError, Support};
use crate::math::{Real, Vector};

/// The ellipsoid `Σ (xᵢ / rᵢ)² <= 1` (an ellipse in 2D).
///
/// Its surface is curved in every direction, so GJK converges to it rather than landing on
/// it exactly: distances carry the tolerance stated on [`crate::query::distance`].
///
/// ```
/// use kollide::shape::{Ellipsoid, Support};
/// use glam::DVec2;
/// let e = Ellipsoid::try_new(DVec2::new(2.0, 1.0)).unwrap();
/// assert!((e.support(DVec2::X) - DVec2::new(2.0, 0.0)).length() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ellipsoid<V> {
    /// The semi-axes along the local axes, each finite and `> 0`.
    pub radii: V,
}

impl<V: Vector> Ellipsoid<V> {
    /// An ellipsoid with the given semi-axes.
    ///
    /// # Errors
    /// [`ShapeError`] naming the component that is not finite or not `> 0`.
    pub fn try_new(radii: V) -> Result<Self, ShapeError> {
        check_positive_vec("radii", radii)?;
        Ok(Self { radii })
    }

    /// An ellipsoid with the given semi-axes.
    ///
    /// # Panics
    /// On the inputs [`Ellipsoid::try_new`] refuses.
    #[must_use]
    pub fn new(radii: V) -> Self {
        Self::try_new(radii).unwrap_or_else(|e| panic!("Ellipsoid::new: {e}"))
    }
}

impl<V: Vector> Support<V> for Ellipsoid<V> {
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Ellipsoid(self.radii)
    }
    #[inline]
    fn support(&self, dir: V) -> V {
        // The support of {R u : |u| <= 1} along d is R (R d) / |R d|.
        let rd = self.radii.mul_elem(dir);
        let l2 = rd.dot(rd);
        // |R d|² a normal number: its square root is exact to rounding.
        if l2 >= V::Real::MIN_POSITIVE * V::Real::from_usize(4) && l2 < V::Real::INFINITY {
            return self.radii.mul_elem(rd) / l2.sqrt();
        }
        // A zero direction (any point will do), or one so large or small that |R d|²
        // overflowed or lost digits (a subnormal square, for a direction near 1e-20 in f32,
        // put the point off the surface and broke GJK's lower bound: fuzz target
        // `queries`): the direction scaled by a power of two, which leaves the point as it is.
        let m = dir.abs_elem().max_component();
        if !(m > V::Real::ZERO && m.is_finite()) {
            return V::ZERO;
        }
        let rd = self.radii.mul_elem(dir * m.recip_pow2());
        let len = rd.length();
        if len > V::Real::ZERO && len.is_finite() {
            self.radii.mul_elem(rd) / len
        } else {
            V::ZERO
        }
    }
}
