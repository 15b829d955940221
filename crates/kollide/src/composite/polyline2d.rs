//! Polylines (2D): points joined in order, in a BVH, with the vertex rule that keeps
//! contacts off the joints.

use super::sweep::SoupParts;
use super::Composite;
use crate::bvh::Bvh;
use crate::math::{Aabb, Pose, Real, Vector2};
use crate::query::Space;
use crate::shape::{Feature, Segment};
use std::fmt;

/// Normals within this cosine of each other are the same direction.
const SAME_DIRECTION_COS: f64 = 1.0 - 1e-6;

/// How close to an end, relative to the segment's length, a contact point counts as on it.
const AT_END_REL: f64 = 1e-3;

/// Why a [`Polyline`] could not be built.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PolylineError {
    /// Fewer than 2 points.
    TooFewPoints {
        /// How many were given.
        count: usize,
    },
    /// A point is NaN or infinite.
    NonFiniteVertex {
        /// The point.
        index: usize,
    },
    /// More points than `u32` indices address.
    TooLarge {
        /// How many were given.
        count: usize,
    },
}

impl fmt::Display for PolylineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewPoints { count } => write!(f, "a polyline needs at least 2 vertices, got {count}"),
            Self::NonFiniteVertex { index } => write!(f, "vertices[{index}] is not finite"),
            Self::TooLarge { count } => write!(f, "{count} vertices are more than u32 indices address"),
        }
    }
}

impl std::error::Error for PolylineError {}

/// A polyline in its **local frame**: segment `i` joins vertex `i` to vertex `i + 1`. When
/// the last vertex equals the first, the line is closed and the two end segments are
/// neighbours. Seen from both sides; segments of zero length are kept (points).
///
/// A contact found at a joint with a normal the line does not have there (the joint
/// between two collinear segments, or a concave one) is taken along the segment's normal,
/// so a circle rolling along a straight line of many segments never bumps at a joint.
///
/// ```
/// use kollide::composite::{self, Polyline};
/// use kollide::shape::Ball;
/// use kollide::math::{DPose2, DVec2};
/// let ground = Polyline::new(vec![DVec2::new(-2.0, 0.0), DVec2::new(0.0, 0.0), DVec2::new(2.0, 1.0)]);
/// let out = composite::distance(&ground, &DPose2::IDENTITY, &Ball::new(0.25), &DPose2::from_translation(DVec2::new(-1.0, 1.0)));
/// assert_eq!(out.part_a, Some(0));
/// assert!((out.value.distance - 0.75).abs() < 1e-12);
/// ```
#[derive(Clone, Debug)]
pub struct Polyline<V: Vector2 + Space> {
    vertices: Vec<V>,
    closed: bool,
    bvh: Bvh<V>,
}

impl<V: Vector2 + Space> Polyline<V> {
    /// The polyline through `vertices`.
    ///
    /// # Errors
    /// [`PolylineError`] naming the bad value.
    pub fn try_new(vertices: Vec<V>) -> Result<Self, PolylineError> {
        if vertices.len() < 2 {
            return Err(PolylineError::TooFewPoints { count: vertices.len() });
        }
        if vertices.len() >= u32::MAX as usize {
            return Err(PolylineError::TooLarge { count: vertices.len() });
        }
        if let Some(index) = vertices.iter().position(|v| !v.is_finite_vec()) {
            return Err(PolylineError::NonFiniteVertex { index });
        }
        let boxes: Vec<Aabb<V>> = vertices.windows(2).map(|w| Aabb::from_points([w[0], w[1]])).collect();
        let bvh = Bvh::try_new_best(&boxes).map_err(|_| PolylineError::TooLarge { count: vertices.len() })?;
        let closed = vertices.len() > 3 && vertices.first() == vertices.last();
        Ok(Self { vertices, closed, bvh })
    }

    /// The polyline through `vertices`.
    ///
    /// # Panics
    /// With the message of [`try_new`](Self::try_new)'s error.
    #[must_use]
    pub fn new(vertices: Vec<V>) -> Self {
        Self::try_new(vertices).unwrap_or_else(|e| panic!("Polyline::new: {e}"))
    }

    /// The vertices.
    #[must_use]
    pub fn vertices(&self) -> &[V] {
        &self.vertices
    }

    /// How many segments.
    #[must_use]
    pub fn segment_count(&self) -> usize {
        self.vertices.len() - 1
    }

    /// Segment `i`.
    #[must_use]
    pub fn segment(&self, i: u32) -> Segment<V> {
        let i = i as usize;
        Segment { a: self.vertices[i], b: self.vertices[i + 1] }
    }

    /// Whether the last vertex is the first (a closed loop).
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The hierarchy over the segments.
    #[must_use]
    pub fn bvh(&self) -> &Bvh<V> {
        &self.bvh
    }

    /// The segment before (`end = 0`) or after (`end = 1`) segment `i`.
    fn neighbour(&self, i: usize, end: usize) -> Option<usize> {
        let n = self.segment_count();
        match (end, i) {
            (0, 0) => self.closed.then_some(n - 1),
            (0, _) => Some(i - 1),
            (_, _) if i + 1 == n => self.closed.then_some(0),
            _ => Some(i + 1),
        }
    }
}

/// The unit normal of `a b` on the right of its direction (`(e.y, -e.x)`), if not degenerate.
fn right_normal<V: Vector2 + Space>(a: V, b: V) -> Option<V> {
    let e = b - a;
    let n = V::new2(e[1], -e[0]);
    let len = n.length();
    (len > V::Real::ZERO).then(|| n / len)
}

impl<V: Vector2 + Space> Composite<V> for Polyline<V> {
    type Part<'a> = Segment<V>;

    fn part_count(&self) -> usize {
        self.segment_count()
    }

    #[inline]
    /// The segment with its first end at the origin, placed there by `part_pose` (see
    /// `TriMesh`'s `part`: queries work at the size of the shapes).
    fn part(&self, i: u32) -> Segment<V> {
        let s = self.segment(i);
        Segment { a: V::ZERO, b: s.b - s.a }
    }

    #[inline]
    fn part_pose(&self, i: u32) -> Option<Pose<V>> {
        Some(Pose::from_translation(self.segment(i).a))
    }

    walks_of_bvh!(self => self.bvh);

    fn part_feature(&self, i: u32, feature: Feature) -> Feature {
        // A segment names its ends 0 and 1: the polyline's vertices i and i + 1.
        match feature {
            Feature::Vertex(k) => Feature::Vertex(i + k),
            Feature::Edge(..) | Feature::Face(_) => Feature::Face(i),
            Feature::Unknown => feature,
        }
    }

    fn corrected_normal(&self, i: u32, point: V, normal: V) -> Option<V> {
        let i = i as usize;
        let (a, b) = (self.vertices[i], self.vertices[i + 1]);
        let n = right_normal(a, b)?;
        let side = if normal.dot(n) < V::Real::ZERO { -V::Real::ONE } else { V::Real::ONE };
        let face = n * side;
        let same = V::Real::from_f64(SAME_DIRECTION_COS);
        if normal.dot(face) >= same {
            return None;
        }
        let tol = V::Real::from_f64(AT_END_REL) * (b - a).length();
        let end = if (point - a).length() <= tol {
            0
        } else if (point - b).length() <= tol {
            1
        } else {
            return None; // inside the segment: its own normal, whatever it is
        };
        let j = self.neighbour(i, end)?;
        let (c, d) = (self.vertices[j], self.vertices[j + 1]);
        let other = right_normal(c, d)? * side;
        if normal.dot(other) >= same {
            return None;
        }
        let (joint, apex) = if end == 0 { (a, c) } else { (b, d) };
        // Convex when the neighbour's far end lies below this segment's line.
        let convex = (apex - joint).dot(face) < V::Real::ZERO && face.dot(other) < same;
        let turn = face.perp_dot2(other);
        let between = convex
            && face.perp_dot2(normal) * turn >= V::Real::ZERO
            && normal.perp_dot2(other) * turn >= V::Real::ZERO;
        if between {
            None
        } else {
            Some(face)
        }
    }
}

impl<V: Vector2 + Space> SoupParts<V> for Polyline<V> {
    type Item = [V; 2];
    #[inline]
    fn soup_item(&self, i: u32) -> [V; 2] {
        [self.vertices[i as usize], self.vertices[i as usize + 1]]
    }
}
