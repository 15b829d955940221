//! Cone (3D only): apex up the local y axis, base disk below.

use super::cylinder3d::{disk_support, push_cap, CAP_FACE_TILT, CAP_POINTS};
use super::error::check_positive;
use super::support_face::SEGMENT_FACE_TILT;
use super::{Feature, Primitive, ShapeError, Support, SupportFace};
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
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Cone(V::new3(self.radius, self.half_height, self.radius))
    }
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
    /// Within about 1.1° of `-y`: the base, as an inscribed 16-gon (ids `0..16`, `Feature::Face(0)`).
    /// Within about 0.6° of square to a side line: that side segment from the base rim
    /// (id 17) to the apex (id 16), `Feature::Edge(16, 17)`. Otherwise the apex
    /// (`Feature::Vertex(16)`) or a rim point ([`Feature::Unknown`]).
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        let (zero, h, r) = (V::Real::ZERO, self.half_height, self.radius);
        let radial = (dir[0] * dir[0] + dir[2] * dir[2]).sqrt();
        let apex = V::new3(zero, h, zero);
        if dir[1] < zero && radial <= V::Real::from_f64(CAP_FACE_TILT) * -dir[1] {
            face.reset(Feature::Face(0));
            push_cap(face, r, -h, false, 0);
            return;
        }
        // The side line under `dir` runs from the rim point to the apex, along
        // (-r u, 2h) in (radial, y) coordinates: `dir` is square to it when its radial part
        // times r equals its axial part times 2h.
        let along = -radial * r + dir[1] * (h + h);
        let glen = (r * r + V::Real::from_usize(4) * h * h).sqrt();
        let dlen = (radial * radial + dir[1] * dir[1]).sqrt();
        if radial > zero && along.abs() <= V::Real::from_f64(SEGMENT_FACE_TILT) * glen * dlen {
            face.reset(Feature::Edge(CAP_POINTS, CAP_POINTS + 1));
            face.push(disk_support(dir, r) - apex, CAP_POINTS + 1);
            face.push(apex, CAP_POINTS);
            return;
        }
        let p = self.support(dir);
        if p == apex {
            face.set_point(p, Feature::Vertex(CAP_POINTS));
        } else {
            face.set_point(p, Feature::Unknown);
        }
    }

    #[inline(always)]
    fn interior_point(&self) -> V {
        // The centroid sits a quarter of the height above the base; the origin is inside too,
        // but the centroid is more central for GJK's first direction.
        V::new3(V::Real::ZERO, -self.half_height * V::Real::HALF, V::Real::ZERO)
    }
}
