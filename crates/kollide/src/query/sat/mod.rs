//! Separating-axis tests.

use crate::query::Space;
mod box_box;
pub(crate) mod box_box3d;
mod poly3d;
pub(crate) mod polygon2d;
pub(crate) mod polytope3d;
mod segment_box;

pub(crate) use box_box::boxes_intersect;
pub(crate) use segment_box::segment_box;

use crate::math::Real;
use crate::query::contact::output::CoreContact;

/// What a separating-axis test found about two polytope cores (A's frame).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum SatOutcome<V: Space> {
    /// This pair of primitives has no separating-axis test: use GJK and EPA.
    NotApplicable,
    /// An axis separates the cores by more than the threshold asked: no contact.
    Separated,
    /// The cores are apart, but maybe by less than the threshold: the distance is GJK's.
    Apart,
    /// The cores overlap or touch: the exact penetration along the best axis.
    Penetrating(CoreContact<V>),
}

/// What an axis of the separating-axis test is: the normal of a face of A or of B (an edge
/// in 2D), or the cross product of an edge of A and an edge of B (3D), by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatAxis {
    /// The normal of A's face (2D: edge) `i`.
    FaceA(usize),
    /// The normal of B's face (2D: edge) `j`.
    FaceB(usize),
    /// The cross product of A's edge `i` and B's edge `j`.
    Edges(usize, usize),
}

/// One axis the separating-axis test tried (recorded by
/// a traced [`contact`](crate::query::contact)), in A's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatStep<V: Space> {
    /// Which axis.
    pub kind: SatAxis,
    /// The axis, unit, oriented from A towards B.
    pub axis: V,
    /// The cores' separation along it: the gap between their projections when positive,
    /// minus their overlap when negative.
    pub separation: V::Real,
    /// The axis the test keeps so far (the greatest separation; ties within rounding go to
    /// A's faces, then B's, then edge pairs), after this one, by its separation.
    pub best: V::Real,
    /// A's core projected on the axis: `[min, max]`.
    pub a: [V::Real; 2],
    /// B's core projected on the axis: `[min, max]`.
    pub b: [V::Real; 2],
}

/// Where a separating-axis test records its axes, when asked to.
pub(crate) type SatTrace<'t, V> = Option<&'t mut Vec<SatStep<V>>>;

/// Records an axis (the projections are filled in by the caller, from the shapes).
#[inline]
pub(crate) fn record<V: Space>(
    trace: &mut SatTrace<'_, V>,
    kind: SatAxis,
    axis: V,
    separation: V::Real,
    best: V::Real,
) {
    if let Some(t) = trace {
        let none = [V::Real::ZERO; 2];
        t.push(SatStep { kind, axis, separation, best, a: none, b: none });
    }
}
