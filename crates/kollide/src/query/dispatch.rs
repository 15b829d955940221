//! The one place that maps a pair of shapes to an algorithm.
//!
//! Shapes describe their core through [`Support::primitive`]; a pair of points or segments
//! has a closed form, everything else goes to GJK. The order of the pair never matters:
//! point-segment is segment-segment with a zero-length segment.

use crate::math::{Pose, Real};
use crate::query::Space;
use crate::shape::{Primitive, Support};

/// The algorithm chosen for a pair.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Algorithm<V> {
    /// Both cores are points or segments: exact closest points, computed in the **world
    /// frame** (a point is a zero-length segment).
    SegmentSegment { a: (V, V), b: (V, V) },
    /// Two boxes asked for their distance (closest features, see `box_distance`), or two
    /// boxes with no rounding asked whether they overlap (a separating-axis test). Half
    /// extents of A and B.
    BoxBox(V, V),
    /// Boxes, polygons and hulls asked for a contact: a separating-axis test in A's frame
    /// (per dimension, see `Space::polytope_contact`); 2D polygons asked whether they
    /// overlap (the same test) or for their distance (closest features from the edges, see
    /// `Space::polytope_distance`).
    Polytopes,
    /// A box against a point or segment core (a ball or capsule on a box), asked for a
    /// contact: separating axes in the box's frame. `box_is_a` says which shape is the box.
    BoxSegment { box_is_a: bool },
    /// General convex cores: GJK in A's frame.
    Gjk,
}

/// What is asked of the pair: some algorithms answer only one of the questions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Question {
    Distance,
    Intersection,
    Contact,
}

fn as_segment<V: Copy>(p: Primitive<'_, V>) -> Option<(V, V)> {
    match p {
        Primitive::Point(x) => Some((x, x)),
        Primitive::Segment(x, y) => Some((x, y)),
        _ => None,
    }
}

/// A primitive's point placed in the world. A ball's core is its local origin: that costs
/// no rotation.
#[inline(always)]
pub(crate) fn place<V: Space>(pose: &Pose<V>, p: V) -> V {
    if p == V::ZERO {
        pose.translation
    } else {
        pose.transform_point(p)
    }
}

/// A primitive segment placed in the world with as few rotations as its shape allows: none
/// for a point at the origin (a ball), one for a point or for a segment centred on the
/// origin (a capsule), two otherwise.
#[inline(always)]
pub(crate) fn place_segment<V: Space>(pose: &Pose<V>, (p, q): (V, V)) -> (V, V) {
    if p == q {
        let w = place(pose, p);
        (w, w)
    } else if q == -p {
        let r = pose.transform_vector(q);
        (pose.translation - r, pose.translation + r)
    } else {
        (pose.transform_point(p), pose.transform_point(q))
    }
}

/// Chooses the algorithm for `a` and `b` placed in the world by their poses.
#[inline(always)]
pub(crate) fn choose<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    question: Question,
) -> Algorithm<V> {
    let (pa, pb) = (a.primitive(), b.primitive());
    if let (Primitive::Box(ha), Primitive::Box(hb)) = (pa, pb) {
        let sharp = a.radius() == V::Real::ZERO && b.radius() == V::Real::ZERO;
        if question == Question::Distance || (question == Question::Intersection && sharp) {
            return Algorithm::BoxBox(ha, hb);
        }
    }
    let polytope =
        |p: &Primitive<'_, V>| matches!(p, Primitive::Box(_) | Primitive::Polygon(_) | Primitive::Hull(_));
    // 2D polygons asked whether they overlap: the polygon SAT decides most pairs in about
    // half the time of GJK (the bench's poly8 rows), and
    // leaves the rest (rounded pairs apart by less than their radii) to GJK. In 3D the hull
    // SAT is slower than GJK and is not used for this question.
    if question == Question::Intersection && V::DIM == 2 && polytope(&pa) && polytope(&pb) {
        return Algorithm::Polytopes;
    }
    // 2D polygons asked for their distance: the closest features found from the best
    // separating edge (see `sat::polygon2d::distance`), GJK for what that leaves.
    if question == Question::Distance && V::DIM == 2 && polytope(&pa) && polytope(&pb) {
        return Algorithm::Polytopes;
    }
    if question == Question::Contact {
        if polytope(&pa) && polytope(&pb) {
            return Algorithm::Polytopes;
        }
        match (pa, pb) {
            (Primitive::Box(_), Primitive::Point(_) | Primitive::Segment(..)) => {
                return Algorithm::BoxSegment { box_is_a: true }
            }
            (Primitive::Point(_) | Primitive::Segment(..), Primitive::Box(_)) => {
                return Algorithm::BoxSegment { box_is_a: false }
            }
            _ => {}
        }
    }
    match (as_segment(pa), as_segment(pb)) {
        (Some(a), Some(b)) => {
            Algorithm::SegmentSegment { a: place_segment(pose_a, a), b: place_segment(pose_b, b) }
        }
        _ => Algorithm::Gjk,
    }
}
