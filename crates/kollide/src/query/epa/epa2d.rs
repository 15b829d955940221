//! EPA in 2D (to be written).

use super::{EpaResult, EpaStatus};
use crate::math::{Pose, Real, Vector2};
use crate::query::gjk::Simplex;
use crate::shape::Support;

/// The penetration of the cores of `a` and `b` (B placed by `pose_ab`), from GJK's final
/// simplex.
pub(crate) fn penetration<V: Vector2, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    simplex: &Simplex<V>,
) -> EpaResult<V> {
    let _ = (a, b, pose_ab, simplex);
    EpaResult {
        depth: V::Real::ZERO,
        normal: V::axis(0),
        point_a: V::ZERO,
        point_b: V::ZERO,
        iterations: 0,
        status: EpaStatus::Degenerate,
    }
}
