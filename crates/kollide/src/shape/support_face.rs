//! Support faces: the whole feature of a shape farthest along a direction, with names for
//! its parts, so contact manifolds can clip one face against another and give each contact
//! point an id that survives small motions.

use crate::math::Vector;

/// How many corners a [`SupportFace`] holds. Larger faces (a hull face with more corners,
/// a cylinder cap) are given by a subset of their corners, which is still a face polygon
/// inside the true face, so every point clipped from it lies on the surface.
pub const MAX_FACE_POINTS: usize = 32;

/// A named part of a shape's core: the id a contact point carries on each side.
///
/// Vertex numbers are the shape's own (a hull's vertex index, a box's corner as a bit mask
/// of the signs of its coordinates, ...); an edge is named by its two vertices, the lower
/// number first, so it has one name whichever face it was reached from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Feature {
    /// A corner.
    Vertex(u32),
    /// The edge between two corners (lower number first).
    Edge(u32, u32),
    /// A face.
    Face(u32),
    /// The shape names no features: a curved surface (a ball, an ellipsoid), or a user's
    /// shape that gives only a support point.
    Unknown,
}

impl Feature {
    /// The edge between vertices `i` and `j`, in its one spelling (lower number first).
    #[must_use]
    #[inline]
    pub fn edge(i: u32, j: u32) -> Self {
        if i <= j {
            Self::Edge(i, j)
        } else {
            Self::Edge(j, i)
        }
    }
}

/// The feature of a core farthest along a direction: one point (a vertex or a curved
/// surface), two (an edge; a face in 2D) or a convex polygon (a face in 3D), in the shape's
/// **local frame**.
///
/// In 3D the corners of a face are in counter-clockwise order seen from outside (from the
/// tip of the direction). Corner `i` carries the id `ids[i]` (a vertex number); the side from
/// corner `i` to corner `i + 1` is the edge between their vertices.
#[derive(Clone, Copy, Debug)]
pub struct SupportFace<V> {
    points: [V; MAX_FACE_POINTS],
    ids: [u32; MAX_FACE_POINTS],
    len: usize,
    feature: Feature,
}

impl<V: Vector> Default for SupportFace<V> {
    fn default() -> Self {
        Self {
            points: [V::ZERO; MAX_FACE_POINTS],
            ids: [0; MAX_FACE_POINTS],
            len: 0,
            feature: Feature::Unknown,
        }
    }
}

impl<V: Vector> SupportFace<V> {
    /// Empties the face and names it (`Feature::Face(k)`, `Feature::Edge(..)`, ...).
    #[inline]
    pub fn reset(&mut self, feature: Feature) {
        self.len = 0;
        self.feature = feature;
    }

    /// Appends a corner with its vertex id. Corners past [`MAX_FACE_POINTS`] are ignored
    /// (see there for why that is still a valid face); returns whether it was kept.
    #[inline]
    pub fn push(&mut self, point: V, id: u32) -> bool {
        if self.len == MAX_FACE_POINTS {
            return false;
        }
        self.points[self.len] = point;
        self.ids[self.len] = id;
        self.len += 1;
        true
    }

    /// Makes the face a single point (what a curved shape or a plain support function gives).
    #[inline]
    pub fn set_point(&mut self, point: V, feature: Feature) {
        self.reset(feature);
        let id = match feature {
            Feature::Vertex(v) => v,
            _ => u32::MAX,
        };
        self.push(point, id);
    }

    /// The corners.
    #[must_use]
    #[inline]
    pub fn points(&self) -> &[V] {
        &self.points[..self.len]
    }

    /// The vertex id of each corner.
    #[must_use]
    #[inline]
    pub fn ids(&self) -> &[u32] {
        &self.ids[..self.len]
    }

    /// How many corners.
    #[must_use]
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` before the first corner is pushed.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// What the whole face is: a vertex, an edge or a face of the shape.
    #[must_use]
    #[inline]
    pub fn feature(&self) -> Feature {
        self.feature
    }

    /// Maps every corner by `f` (to move the face into another frame).
    #[inline]
    pub fn map_points(&mut self, f: impl Fn(V) -> V) {
        for p in &mut self.points[..self.len] {
            *p = f(*p);
        }
    }
}

/// A segment turned less than this (the cosine between it and the face's plane, about
/// 0.6°) from square to the direction gives both ends as its support face; more, and only
/// the nearer end. Tilted ends of a rounded segment are its core points moved by the radius
/// along the contact normal, which is off the true surface by at most `r·c²/2` for a tilt
/// of cosine `c`: below `5e-5 r` here.
pub const SEGMENT_FACE_TILT: f64 = 0.01;

/// The support face of the segment `a b` (vertex ids 0 and 1) along `dir`: the whole
/// segment when it is within [`SEGMENT_FACE_TILT`] of square to `dir`, else its end
/// farther along `dir`.
#[inline]
pub(crate) fn segment_face<V: Vector>(a: V, b: V, dir: V, face: &mut SupportFace<V>) {
    use crate::math::Real;
    let ab = b - a;
    let along = ab.dot(dir);
    let limit = V::Real::from_f64(SEGMENT_FACE_TILT);
    if along * along <= limit * limit * ab.length_squared() * dir.length_squared() {
        face.reset(Feature::Edge(0, 1));
        face.push(a, 0);
        face.push(b, 1);
    } else if along > V::Real::ZERO {
        face.set_point(b, Feature::Vertex(1));
    } else {
        face.set_point(a, Feature::Vertex(0));
    }
}
