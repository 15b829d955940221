//! Math: glam re-exports, the scalar and vector traits the algorithms are written over, poses.

mod aabb;
mod morton;
mod pose;
mod real;
mod rotation;
mod vector;

pub(crate) use aabb::{exit_widening, is_parallel};
pub use aabb::{inverse_direction, Aabb};
pub use glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};
pub(crate) use morton::MortonGrid;
pub use pose::{DPose2, DPose3, Pose, Pose2, Pose3, PoseError};
pub(crate) use real::{above, at_least};
pub use real::{Lanes4, Real};
pub use rotation::{Rot2, Rotation, RotationOf, ROTATION_NORM_TOLERANCE};
pub use vector::{Vector, Vector2, Vector3};
