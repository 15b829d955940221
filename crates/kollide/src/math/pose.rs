//! Poses: a rotation followed by a translation, in 2D and 3D.

use super::{Rot2, Rotation, Vector, Vector2, ROTATION_NORM_TOLERANCE};
use core::fmt;

/// A rigid transform: `p ↦ rotation.rotate(p) + translation`.
///
/// A shape's pose maps its local frame into the world frame. Build one with
/// [`Pose::try_new`] when the numbers come from outside (it checks them), or with the
/// infallible constructors when they are known to be good. The fields can be read and
/// written; a struct literal is not possible because of a private filler that keeps the
/// memory between the fields defined (it makes `Pose3` as fast whatever bytes a caller's
/// own structs carried, see `math/vector.rs`).
///
/// ```
/// use kollide::math::Pose3;
/// use glam::{Quat, Vec3};
/// let pose = Pose3::try_new(Vec3::new(1.0, 0.0, 0.0), Quat::from_rotation_z(1.0)).unwrap();
/// let back = pose.inverse().transform_point(pose.transform_point(Vec3::Y));
/// assert!((back - Vec3::Y).length() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose<V: Vector> {
    /// Where the local origin lands, in the parent (usually world) frame.
    pub translation: V,
    pad: V::PosePad,
    /// The rotation of the local axes.
    pub rotation: V::Rotation,
}

/// A 2D pose in `f32`.
pub type Pose2 = Pose<glam::Vec2>;
/// A 3D pose in `f32`.
pub type Pose3 = Pose<glam::Vec3>;
/// A 2D pose in `f64`.
pub type DPose2 = Pose<glam::DVec2>;
/// A 3D pose in `f64`.
pub type DPose3 = Pose<glam::DVec3>;

/// Why a pose was refused by [`Pose::try_new`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum PoseError {
    /// A translation component is NaN or infinite.
    NonFiniteTranslation {
        /// Which component (0 = x, 1 = y, 2 = z).
        component: usize,
    },
    /// A rotation component is NaN or infinite.
    NonFiniteRotation,
    /// The rotation's norm is too far from 1 to be a rotation typed in with rounding error.
    NonUnitRotation {
        /// The norm found.
        norm: f64,
    },
}

impl fmt::Display for PoseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFiniteTranslation { component } => {
                write!(f, "translation component {component} is not finite")
            }
            Self::NonFiniteRotation => write!(f, "rotation has a component that is not finite"),
            Self::NonUnitRotation { norm } => write!(
                f,
                "rotation norm is {norm}, not 1 (within {ROTATION_NORM_TOLERANCE}): not a unit quaternion / complex"
            ),
        }
    }
}

impl std::error::Error for PoseError {}

impl<V: Vector> Default for Pose<V> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<V: Vector> Pose<V> {
    /// The identity pose.
    pub const IDENTITY: Self =
        Self { translation: V::ZERO, pad: V::POSE_PAD, rotation: <V::Rotation as Rotation<V>>::IDENTITY };

    /// A pose from parts that are trusted to be finite with a unit rotation.
    #[must_use]
    pub const fn new(translation: V, rotation: V::Rotation) -> Self {
        Self { translation, pad: V::POSE_PAD, rotation }
    }

    /// The same pose moved to another translation.
    #[must_use]
    pub const fn with_translation(self, translation: V) -> Self {
        Self::new(translation, self.rotation)
    }

    /// A pose from parts given by a user, checked.
    ///
    /// A rotation whose norm is within [`ROTATION_NORM_TOLERANCE`] of 1 is renormalized
    /// (that much is rounding in the caller's arithmetic); further away it is refused,
    /// because rotating by a non-unit quaternion would also scale.
    ///
    /// # Errors
    /// [`PoseError`] naming the non-finite component or the bad norm.
    pub fn try_new(translation: V, rotation: V::Rotation) -> Result<Self, PoseError> {
        let t = translation.to_f64_array();
        if let Some(component) = (0..V::DIM).find(|&i| !t[i].is_finite()) {
            return Err(PoseError::NonFiniteTranslation { component });
        }
        if !rotation.is_finite_rot() {
            return Err(PoseError::NonFiniteRotation);
        }
        let norm = rotation.norm();
        if (norm - 1.0).abs() > ROTATION_NORM_TOLERANCE {
            return Err(PoseError::NonUnitRotation { norm });
        }
        let rotation = rotation.try_normalized().ok_or(PoseError::NonUnitRotation { norm })?;
        Ok(Self::new(translation, rotation))
    }

    /// A pure translation.
    #[must_use]
    pub fn from_translation(translation: V) -> Self {
        Self::new(translation, <V::Rotation as Rotation<V>>::IDENTITY)
    }

    /// Maps a point from the local frame to the parent frame.
    #[inline(always)]
    #[must_use]
    pub fn transform_point(&self, p: V) -> V {
        self.rotation.rotate(p) + self.translation
    }

    /// Maps a direction from the local frame to the parent frame (no translation).
    #[inline(always)]
    #[must_use]
    pub fn transform_vector(&self, v: V) -> V {
        self.rotation.rotate(v)
    }

    /// Maps a point from the parent frame to the local frame.
    #[inline(always)]
    #[must_use]
    pub fn inverse_transform_point(&self, p: V) -> V {
        self.rotation.inverse_rotate(p - self.translation)
    }

    /// Maps a direction from the parent frame to the local frame.
    #[inline(always)]
    #[must_use]
    pub fn inverse_transform_vector(&self, v: V) -> V {
        self.rotation.inverse_rotate(v)
    }

    /// The inverse pose.
    #[must_use]
    pub fn inverse(&self) -> Self {
        let rotation = self.rotation.inverse();
        Self::new(-rotation.rotate(self.translation), rotation)
    }

    /// `self ∘ other`: first `other`, then `self`.
    #[must_use]
    pub fn compose(&self, other: &Self) -> Self {
        Self::new(self.transform_point(other.translation), self.rotation.compose(other.rotation))
    }

    /// `self⁻¹ ∘ other`: the pose of `other`'s frame expressed in `self`'s frame.
    ///
    /// With `self = pose_a` and `other = pose_b` this is `pose_ab`, the pose of shape B in
    /// shape A's local frame.
    #[must_use]
    pub fn inv_compose(&self, other: &Self) -> Self {
        // One rotation instead of the two of `self.inverse().compose(other)`.
        Self::new(
            self.rotation.inverse_rotate(other.translation - self.translation),
            self.rotation.inverse().compose(other.rotation),
        )
    }
}

impl<V: Vector2> Pose<V> {
    /// A 2D pose from a translation and an angle in radians (counter-clockwise).
    #[must_use]
    pub fn from_angle(translation: V, angle: V::Real) -> Self {
        Self::new(translation, Rot2::from_angle(angle))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DQuat, DVec3};

    #[test]
    fn inv_compose_is_relative_pose() {
        let a = DPose3::new(DVec3::new(1.0, 2.0, 3.0), DQuat::from_rotation_x(0.3));
        let b = DPose3::new(DVec3::new(-1.0, 0.5, 2.0), DQuat::from_rotation_y(-1.1));
        let ab = a.inv_compose(&b);
        let p = DVec3::new(0.3, -0.7, 0.2);
        let direct = a.inverse_transform_point(b.transform_point(p));
        assert!((ab.transform_point(p) - direct).length() < 1e-12);
    }

    #[test]
    fn try_new_rejects_bad_numbers() {
        let q = DQuat::from_xyzw(0.0, 0.0, 0.0, 2.0);
        assert!(
            matches!(DPose3::try_new(DVec3::ZERO, q), Err(PoseError::NonUnitRotation { norm }) if norm == 2.0)
        );
        assert_eq!(
            DPose3::try_new(DVec3::new(0.0, f64::NAN, 0.0), DQuat::IDENTITY),
            Err(PoseError::NonFiniteTranslation { component: 1 })
        );
        let nearly = DQuat::from_xyzw(0.0, 0.0, 0.0, 1.00001);
        let p = DPose3::try_new(DVec3::ZERO, nearly).unwrap();
        assert!((p.rotation.length() - 1.0).abs() < 1e-15);
    }
}

#[cfg(test)]
mod layout_tests {
    use super::*;

    /// No pose may leave padding bytes (see `POSE_PAD` in `math/vector.rs`): the size of a
    /// pose is exactly the sum of its parts.
    #[test]
    fn poses_have_no_padding() {
        use core::mem::size_of;
        assert_eq!(size_of::<Pose3>(), size_of::<glam::Vec3>() + 4 + size_of::<glam::Quat>());
        assert_eq!(size_of::<DPose3>(), size_of::<glam::DVec3>() + size_of::<glam::DQuat>());
        assert_eq!(size_of::<Pose2>(), size_of::<glam::Vec2>() + size_of::<Rot2<f32>>());
        assert_eq!(size_of::<DPose2>(), size_of::<glam::DVec2>() + size_of::<Rot2<f64>>());
    }
}
