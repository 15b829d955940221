//! Separating-axis tests.

mod box_box;
pub(crate) mod box_box3d;
pub(crate) mod polygon2d;
pub(crate) mod polytope3d;
mod segment_box;

pub(crate) use box_box::boxes_intersect;
pub(crate) use segment_box::segment_box;

use super::contact::CoreContact;
use crate::math::Vector;

/// What a separating-axis test found about two polytope cores (A's frame).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum SatOutcome<V: Vector> {
    /// This pair of primitives has no separating-axis test: use GJK and EPA.
    NotApplicable,
    /// An axis separates the cores by more than the threshold asked: no contact.
    Separated,
    /// The cores are apart, but maybe by less than the threshold: the distance is GJK's.
    Apart,
    /// The cores overlap or touch: the exact penetration along the best axis.
    Penetrating(CoreContact<V>),
}
