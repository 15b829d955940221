//! Concave polygons as composites: their convex pieces are the parts, in a BVH, and a
//! contact pushing a shape out through a diagonal between two pieces (an edge inside the
//! polygon) gives way to any other. The `compound_*` functions are the composite queries
//! without the part index, kept under the names the polygon's users know.

use super::query::{composite_contact, composite_distance, composite_intersects, composite_manifold};
use super::{Composite, ConcavePolygon};
use crate::math::{Pose, Real, Vector2};
use crate::query::Space;
use crate::query::{Contact, DistanceOutput, Manifold};
use crate::shape::{ConvexPolygon, Feature, Support};

/// Normals closer than this cosine (about 2°) count as the same direction: a piece contact
/// along a diagonal's normal.
const SAME_NORMAL_COS: f64 = 0.9994;

impl<V: Vector2 + Space> Composite<V> for ConcavePolygon<V> {
    type Part<'a> = &'a ConvexPolygon<V>;

    fn part_count(&self) -> usize {
        self.pieces().len()
    }

    #[inline]
    fn part(&self, i: u32) -> &ConvexPolygon<V> {
        &self.pieces()[i as usize]
    }

    walks_of_bvh!(self => self.bvh());

    /// A piece's vertex `k` is the polygon's vertex `piece_vertex_indices(i)[k]`.
    fn part_feature(&self, i: u32, f: Feature) -> Feature {
        let map = self.piece_vertex_indices(i as usize);
        let get = |k: u32| map.get(k as usize).copied();
        match f {
            Feature::Vertex(k) => get(k).map_or(f, Feature::Vertex),
            Feature::Edge(j, k) => match (get(j), get(k)) {
                (Some(x), Some(y)) => Feature::edge(x, y),
                _ => f,
            },
            Feature::Face(k) => get(k).map_or(f, Feature::Face),
            Feature::Unknown => f,
        }
    }

    /// Whether the normal is the outward normal of one of the piece's diagonals and the
    /// point lies along it.
    fn through_inside(&self, i: u32, point: V, normal: V) -> bool {
        let cos = V::Real::from_f64(SAME_NORMAL_COS);
        let v = self.vertices();
        self.piece_diagonals(i as usize).iter().any(|&[u, w]| {
            let (a, b) = (v[u as usize], v[w as usize]);
            let e = b - a;
            let len2 = e.length_squared();
            // Outward (right-hand) normal of a counter-clockwise edge: (e.y, -e.x).
            let out = V::new2(e[1], -e[0]);
            let t = (point - a).dot(e) / len2;
            let slack = V::Real::from_f64(1e-3);
            out.dot(normal) >= cos * len2.sqrt() && t >= -slack && t <= V::Real::ONE + slack
        })
    }
}

/// The distance between a concave polygon `a` and a convex shape `b`: 0 when they overlap
/// (B inside the polygon counts), else the least distance between B and the boundary.
///
/// [`composite_distance`] without the piece: poses and results in the **world frame**, as
/// for [`crate::query::distance`], which runs on the pieces nearest first until the next
/// piece's box is farther than the best distance found. A shape overlapping the polygon
/// across a diagonal between pieces gives `Overlapping` from a piece, as it should.
///
/// ```
/// use kollide::composite::compound_distance;
/// use kollide::composite::ConcavePolygon;
/// use kollide::shape::Ball;
/// use kollide::math::{DPose2, DVec2};
/// let l = ConcavePolygon::new(&[
///     DVec2::new(0.0, 0.0), DVec2::new(2.0, 0.0), DVec2::new(2.0, 1.0),
///     DVec2::new(1.0, 1.0), DVec2::new(1.0, 2.0), DVec2::new(0.0, 2.0),
/// ]);
/// // A circle of radius 0.25 in the notch of the L, 0.5 from both inner edges:
/// let ball = Ball::new(0.25);
/// let out = compound_distance(&l, &DPose2::IDENTITY, &ball, &DPose2::from_translation(DVec2::new(1.5, 1.5)));
/// assert!((out.distance - 0.25).abs() < 1e-9);
/// ```
#[must_use]
pub fn compound_distance<V: Vector2 + Space, B: Support<V> + ?Sized>(
    a: &ConcavePolygon<V>,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> DistanceOutput<V> {
    composite_distance(a, pose_a, b, pose_b).value
}

/// Whether a concave polygon `a` and a convex shape `b` overlap (touching counts; B wholly
/// inside the polygon counts). Poses are in the **world frame**.
///
/// [`composite_intersects`] without the piece: [`crate::query::intersects`] on each piece
/// whose bounding box meets B's.
///
/// ```
/// use kollide::composite::compound_intersects;
/// use kollide::composite::ConcavePolygon;
/// use kollide::shape::Ball;
/// use kollide::math::{Pose2, Vec2};
/// let l = ConcavePolygon::new(&[
///     Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(2.0, 1.0),
///     Vec2::new(1.0, 1.0), Vec2::new(1.0, 2.0), Vec2::new(0.0, 2.0),
/// ]);
/// let ball = Ball::new(0.25);
/// // In the notch: inside the bounding box of the L but not touching it.
/// assert!(!compound_intersects(&l, &Pose2::IDENTITY, &ball, &Pose2::from_translation(Vec2::new(1.5, 1.5))));
/// assert!(compound_intersects(&l, &Pose2::IDENTITY, &ball, &Pose2::from_translation(Vec2::new(1.5, 1.2))));
/// ```
#[must_use]
pub fn compound_intersects<V: Vector2 + Space, B: Support<V> + ?Sized>(
    a: &ConcavePolygon<V>,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> bool {
    composite_intersects(a, pose_a, b, pose_b).is_some()
}

/// The contact between a concave polygon `a` and a convex shape `b`: the deepest (least
/// signed distance) of the contacts of its convex pieces, or `None` when B is more than
/// `margin` from every piece.
///
/// [`composite_contact`] without the piece: poses and results in the **world frame**, with
/// the conventions of [`crate::query::contact`] (normal from A to B, `point_b = point_a +
/// distance * normal`).
///
/// Separated shapes (within `margin`) get the exact answer: the nearest piece is nearest
/// to the polygon's boundary. For penetrating shapes a piece's own contact may push B
/// through a diagonal between pieces, an edge that is not a surface of the polygon (a
/// small ball sunk into a floor near such a diagonal). Contacts whose normal is the
/// outward normal of one of their piece's diagonals, at a point along that diagonal, are
/// used only when no piece gives another; then (B deep inside, reaching a diagonal sooner than the boundary) the normal
/// and depth are those of the piece, not of the whole polygon, which can be deeper.
///
/// ```
/// use kollide::composite::compound_contact;
/// use kollide::composite::ConcavePolygon;
/// use kollide::shape::Ball;
/// use kollide::math::{DPose2, DVec2};
/// let l = ConcavePolygon::new(&[
///     DVec2::new(0.0, 0.0), DVec2::new(2.0, 0.0), DVec2::new(2.0, 1.0),
///     DVec2::new(1.0, 1.0), DVec2::new(1.0, 2.0), DVec2::new(0.0, 2.0),
/// ]);
/// let ball = Ball::new(0.25);
/// // Above the short top edge of the L, 0.05 away:
/// let c = compound_contact(&l, &DPose2::IDENTITY, &ball, &DPose2::from_translation(DVec2::new(1.6, 1.3)), 0.1)
///     .unwrap();
/// assert!((c.distance - 0.05).abs() < 1e-9);
/// assert!((c.normal - DVec2::Y).length() < 1e-9);
/// ```
#[must_use]
pub fn compound_contact<V: Vector2 + Space, B: Support<V> + ?Sized>(
    a: &ConcavePolygon<V>,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> Option<Contact<V>> {
    composite_contact(a, pose_a, b, pose_b, margin).map(|c| c.value)
}

/// The contact manifold between a concave polygon `a` and a convex shape `b`: at most 2
/// points sharing one normal, in the **world frame** (as [`crate::query::manifold`]):
/// [`composite_manifold`] without the parts.
///
/// Each nearby piece gives its manifold; the reference is the deepest piece manifold
/// (preferring, as [`compound_contact`] does, those not pushing B through a diagonal), and
/// every point of a piece manifold whose normal is within about 2° of the reference joins
/// it: a box resting across two pieces gets points from both. Of those, the deepest point
/// and the one farthest from it are kept. Each point's distance is measured along its own
/// piece's normal. Feature ids name the polygon's vertices (`Vertex(k)` is
/// `a.vertices()[k]`). Empty when B is more than `margin` from every piece.
///
/// ```
/// use kollide::composite::compound_manifold;
/// use kollide::composite::ConcavePolygon;
/// use kollide::shape::Ball;
/// use kollide::math::{DPose2, DVec2};
/// let l = ConcavePolygon::new(&[
///     DVec2::new(0.0, 0.0), DVec2::new(2.0, 0.0), DVec2::new(2.0, 1.0),
///     DVec2::new(1.0, 1.0), DVec2::new(1.0, 2.0), DVec2::new(0.0, 2.0),
/// ]);
/// let ball = Ball::new(0.25);
/// let m = compound_manifold(&l, &DPose2::IDENTITY, &ball, &DPose2::from_translation(DVec2::new(1.6, 1.3)), 0.1);
/// assert_eq!(m.len(), 1);
/// assert!((m.points()[0].distance - 0.05).abs() < 1e-9);
/// ```
#[must_use]
pub fn compound_manifold<V: Vector2 + Space, B: Support<V> + ?Sized>(
    a: &ConcavePolygon<V>,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> Manifold<V> {
    composite_manifold(a, pose_a, b, pose_b, margin).manifold
}
