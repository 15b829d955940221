//! Cylinder (3D only), its axis along the local y axis.

use super::error::check_positive;
use super::support_face::SEGMENT_FACE_TILT;
use super::{Feature, Primitive, ShapeError, Support, SupportFace};
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
    // `length_safe`: a direction near 1e-20 in f32 has a subnormal square, whose square
    // root would put the rim point off the rim.
    let len = radial.length_safe();
    if len > V::Real::ZERO && len.is_finite() {
        radial * (radius / len)
    } else {
        V::ZERO
    }
}

/// How many rim points stand for a cylinder's cap or a cone's base in a support face: a
/// regular 16-gon inscribed in the disk (so every point of it lies on the surface; it covers
/// `16 sin(π/8) cos(π/8) / π ≈ 97%` of the disk's area).
pub(crate) const CAP_POINTS: u32 = 16;

/// A disk's support face is its cap polygon when `dir` is within this of the axis (the
/// tangent of the angle, about 1.1°).
pub(crate) const CAP_FACE_TILT: f64 = 0.02;

/// Pushes the inscribed [`CAP_POINTS`]-gon of the disk of `radius` at height `y`, counter-
/// clockwise seen from `+y` when `up`, else from `-y`; ids `first..first + CAP_POINTS`.
pub(crate) fn push_cap<V: Vector3>(
    face: &mut SupportFace<V>,
    radius: V::Real,
    y: V::Real,
    up: bool,
    first: u32,
) {
    for k in 0..CAP_POINTS {
        let (s, c) = (core::f64::consts::TAU * f64::from(k) / f64::from(CAP_POINTS)).sin_cos();
        // A positive turn about +y takes x towards -z.
        let s = if up { -s } else { s };
        let (x, z) = (V::Real::from_f64(c) * radius, V::Real::from_f64(s) * radius);
        face.push(V::new3(x, y, z), first + k);
    }
}

impl<V: Vector3> Support<V> for Cylinder<V> {
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Cylinder(V::new3(self.radius, self.half_height, self.radius))
    }
    #[inline]
    fn support(&self, dir: V) -> V {
        let h = if dir[1] >= V::Real::ZERO { self.half_height } else { -self.half_height };
        disk_support(dir, self.radius) + V::new3(V::Real::ZERO, h, V::Real::ZERO)
    }

    /// Within about 1.1° of the axis: the cap, as an inscribed 16-gon (ids
    /// `0..16` for the bottom cap, `Feature::Face(0)`, `16..32` for the top one,
    /// `Feature::Face(1)`). Within about 0.6° of square to the axis: the side segment under
    /// `dir` (ids 32 bottom, 33 top, `Feature::Edge(32, 33)`). Otherwise the rim point
    /// ([`Feature::Unknown`]).
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        let radial = (dir[0] * dir[0] + dir[2] * dir[2]).sqrt();
        let axial = dir[1].abs();
        if radial <= V::Real::from_f64(CAP_FACE_TILT) * axial {
            let up = dir[1] >= V::Real::ZERO;
            let y = if up { self.half_height } else { -self.half_height };
            face.reset(Feature::Face(u32::from(up)));
            push_cap(face, self.radius, y, up, if up { CAP_POINTS } else { 0 });
        } else if axial <= V::Real::from_f64(SEGMENT_FACE_TILT) * radial {
            let rim = disk_support(dir, self.radius);
            let h = V::new3(V::Real::ZERO, self.half_height, V::Real::ZERO);
            face.reset(Feature::Edge(2 * CAP_POINTS, 2 * CAP_POINTS + 1));
            face.push(rim - h, 2 * CAP_POINTS);
            face.push(rim + h, 2 * CAP_POINTS + 1);
        } else {
            face.set_point(self.support(dir), Feature::Unknown);
        }
    }
}
