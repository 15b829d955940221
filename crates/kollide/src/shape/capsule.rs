//! Capsule: a segment along the local y axis grown by a radius (2D and 3D).

use super::error::{check_non_negative, check_positive};
use super::support_face::segment_face;
use super::{Primitive, ShapeError, Support, SupportFace};
use crate::math::{Real, Vector};

/// A capsule whose core segment runs from `(0, -half_height)` to `(0, +half_height)` along
/// the local y axis, grown by `radius`.
///
/// ```
/// use kollide::shape::Capsule;
/// use glam::Vec3;
/// let c = Capsule::<Vec3>::try_new(1.0, 0.25).unwrap();
/// assert_eq!(c.segment(), (Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Capsule<V: Vector> {
    /// Half the length of the core segment, finite and `>= 0` (0 makes a ball).
    pub half_height: V::Real,
    /// The radius, finite and `> 0`.
    pub radius: V::Real,
}

impl<V: Vector> Capsule<V> {
    /// A capsule along the local y axis.
    ///
    /// # Errors
    /// [`ShapeError`] when `half_height` is negative or `radius` not `> 0`, or either is
    /// not finite.
    pub fn try_new(half_height: V::Real, radius: V::Real) -> Result<Self, ShapeError> {
        check_non_negative("half_height", half_height)?;
        check_positive("radius", radius)?;
        Ok(Self { half_height, radius })
    }

    /// A capsule along the local y axis.
    ///
    /// # Panics
    /// On the inputs [`Capsule::try_new`] refuses.
    #[must_use]
    pub fn new(half_height: V::Real, radius: V::Real) -> Self {
        Self::try_new(half_height, radius).unwrap_or_else(|e| panic!("Capsule::new: {e}"))
    }

    /// The end points of the core segment, in the local frame.
    #[must_use]
    pub fn segment(&self) -> (V, V) {
        let tip = V::axis(1) * self.half_height;
        (-tip, tip)
    }
}

impl<V: Vector> Support<V> for Capsule<V> {
    #[inline(always)]
    fn support(&self, dir: V) -> V {
        let h = if dir[1] >= V::Real::ZERO { self.half_height } else { -self.half_height };
        V::axis(1) * h
    }
    #[inline(always)]
    fn radius(&self) -> V::Real {
        self.radius
    }
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        let (a, b) = self.segment();
        Primitive::Segment(a, b)
    }
    #[inline]
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        let (a, b) = self.segment();
        segment_face(a, b, dir, face);
    }
}
