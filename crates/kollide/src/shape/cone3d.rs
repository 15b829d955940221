//! Cone (3D only): apex up the local y axis, base disk below.

use super::cylinder3d::disk_support;
use super::error::check_positive;
use super::{ShapeError, Support};
use crate::math::{Real, Vector3};

/// A solid cone centred on its local origin: apex at `(0, +half_height, 0)`, base disk of
/// `radius` at `y = -half_height`.
///
/// ```
/// use kollide::shape::{Cone, Support};
/// use glam::Vec3;
/// let c = Cone::<Vec3>::try_new(1.0, 0.5).unwrap();
/// assert_eq!(c.support(Vec3::Y), Vec3::Y);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cone<V: Vector3> {
    /// Half the height, finite and `> 0`.
    pub half_height: V::Real,
    /// The radius of the base, finite and `> 0`.
    pub radius: V::Real,
}

impl<V: Vector3> Cone<V> {
    /// A cone along the local y axis.
    ///
    /// # Errors
    /// [`ShapeError`] when a size is not finite or not `> 0`.
    pub fn try_new(half_height: V::Real, radius: V::Real) -> Result<Self, ShapeError> {
        check_positive("half_height", half_height)?;
        check_positive("radius", radius)?;
        Ok(Self { half_height, radius })
    }

    /// A cone along the local y axis.
    ///
    /// # Panics
    /// On the inputs [`Cone::try_new`] refuses.
    #[must_use]
    pub fn new(half_height: V::Real, radius: V::Real) -> Self {
        Self::try_new(half_height, radius).unwrap_or_else(|e| panic!("Cone::new: {e}"))
    }
}

impl<V: Vector3> Support<V> for Cone<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        let apex = V::new3(V::Real::ZERO, self.half_height, V::Real::ZERO);
        let base = disk_support(dir, self.radius) - apex;
        if apex.dot(dir) >= base.dot(dir) {
            apex
        } else {
            base
        }
    }
    #[inline(always)]
    fn interior_point(&self) -> V {
        // The centroid sits a quarter of the height above the base; the origin is inside too,
        // but the centroid is more central for GJK's first direction.
        V::new3(V::Real::ZERO, -self.half_height * V::Real::HALF, V::Real::ZERO)
    }
}
