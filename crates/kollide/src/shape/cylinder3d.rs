//! Cylinder (3D only), its axis along the local y axis.

use super::error::check_positive;
use super::{ShapeError, Support};
use crate::math::{Real, Vector3};

/// A solid cylinder centred on its local origin, axis along y, from `y = -half_height` to
/// `y = +half_height`.
///
/// ```
/// use kollide::shape::{Cylinder, Support};
/// use glam::Vec3;
/// let c = Cylinder::<Vec3>::try_new(1.0, 0.5).unwrap();
/// assert_eq!(c.support(Vec3::new(1.0, 1.0, 0.0)), Vec3::new(0.5, 1.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cylinder<V: Vector3> {
    /// Half the height, finite and `> 0`.
    pub half_height: V::Real,
    /// The radius of the disks, finite and `> 0`.
    pub radius: V::Real,
}

impl<V: Vector3> Cylinder<V> {
    /// A cylinder along the local y axis.
    ///
    /// # Errors
    /// [`ShapeError`] when a size is not finite or not `> 0`.
    pub fn try_new(half_height: V::Real, radius: V::Real) -> Result<Self, ShapeError> {
        check_positive("half_height", half_height)?;
        check_positive("radius", radius)?;
        Ok(Self { half_height, radius })
    }

    /// A cylinder along the local y axis.
    ///
    /// # Panics
    /// On the inputs [`Cylinder::try_new`] refuses.
    #[must_use]
    pub fn new(half_height: V::Real, radius: V::Real) -> Self {
        Self::try_new(half_height, radius).unwrap_or_else(|e| panic!("Cylinder::new: {e}"))
    }
}

/// The point of the disk `x² + z² <= r²` (at height 0) farthest along `dir`.
#[inline(always)]
pub(crate) fn disk_support<V: Vector3>(dir: V, radius: V::Real) -> V {
    let radial = V::new3(dir[0], V::Real::ZERO, dir[2]);
    let len = radial.length();
    if len > V::Real::ZERO && len.is_finite() {
        radial * (radius / len)
    } else {
        V::ZERO
    }
}

impl<V: Vector3> Support<V> for Cylinder<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        let h = if dir[1] >= V::Real::ZERO { self.half_height } else { -self.half_height };
        disk_support(dir, self.radius) + V::new3(V::Real::ZERO, h, V::Real::ZERO)
    }
}
