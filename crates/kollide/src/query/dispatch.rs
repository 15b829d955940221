//! The one place that maps a pair of shapes to an algorithm.
//!
//! Shapes describe their core through [`Support::primitive`]; a pair of points or segments
//! has a closed form, everything else goes to GJK. The order of the pair never matters:
//! point-segment is segment-segment with a zero-length segment.

use crate::math::Vector;
use crate::shape::{Primitive, Support};

/// The algorithm chosen for a pair.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Algorithm<V> {
    /// Both cores are points or segments: exact closest points in A's frame, given as two
    /// segments (a point is a zero-length segment).
    SegmentSegment { a: (V, V), b: (V, V) },
    /// General convex cores.
    Gjk,
}

fn as_segment<V: Copy>(p: Primitive<V>) -> Option<(V, V)> {
    match p {
        Primitive::Point(x) => Some((x, x)),
        Primitive::Segment(x, y) => Some((x, y)),
        Primitive::General => None,
    }
}

/// Chooses the algorithm for `a` (in its frame) and `b`, whose primitive is already in A's
/// frame.
pub(crate) fn choose<V: Vector, A: Support<V> + ?Sized, B: Support<V>>(a: &A, b_in_a: &B) -> Algorithm<V> {
    match (as_segment(a.primitive()), as_segment(b_in_a.primitive())) {
        (Some(a), Some(b)) => Algorithm::SegmentSegment { a, b },
        _ => Algorithm::Gjk,
    }
}
