//! Penetration depth of overlapping cores: the expanding polytope algorithm (EPA).
//!
//! Runs on the *cores* of two shapes in A's frame, after GJK has found that they overlap,
//! and finds the shortest translation of B that separates them: the point of the boundary
//! of the Minkowski difference `A ⊖ B` closest to the origin.

pub(crate) mod epa2d;
pub(crate) mod epa3d;

use crate::math::Vector;

/// How EPA ended.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpaStatus {
    /// The depth is within the tolerance of the true one.
    Converged,
    /// Rounding stopped progress first; the answer is the best face found.
    Stalled,
    /// The iteration cap was reached; the answer is the best face found.
    MaxIterations,
    /// No polytope with volume could be built (touching or flat cores); the answer is a
    /// valid unit direction with the depth measured along it.
    Degenerate,
    /// A support function returned NaN or infinity.
    NonFiniteSupport,
}

/// What EPA found, in A's frame.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct EpaResult<V: Vector> {
    /// Penetration depth of the cores, `>= 0`.
    pub depth: V::Real,
    /// Unit direction from A towards B: translating B by `depth * normal` makes the cores
    /// touch.
    pub normal: V,
    /// The point of A's core deepest inside B: `point_a = point_b + depth * normal`.
    pub point_a: V,
    /// The point of B's core deepest inside A.
    pub point_b: V,
    /// EPA iterations.
    pub iterations: u32,
    /// How it ended.
    pub status: EpaStatus,
}
