//! The serialized form of point-set shapes: their points only. Deserializing rebuilds the
//! shape with its checked constructor, so data from a file gets the same validation as data
//! from code (a hand-edited adjacency or face list could otherwise break the invariants the
//! queries rely on).

use super::{ConvexHull, ConvexPolygon, ShapeError};
use crate::math::{Vector2, Vector3};

/// `{"points": [...]}`: the vertices of a hull or polygon.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PointsRepr<V> {
    points: Vec<V>,
}

impl<V: Vector2> TryFrom<PointsRepr<V>> for ConvexPolygon<V> {
    type Error = ShapeError;
    fn try_from(r: PointsRepr<V>) -> Result<Self, ShapeError> {
        Self::try_from_points(&r.points)
    }
}

impl<V: Vector2> From<ConvexPolygon<V>> for PointsRepr<V> {
    fn from(p: ConvexPolygon<V>) -> Self {
        Self { points: p.vertices().to_vec() }
    }
}

impl<V: Vector3> TryFrom<PointsRepr<V>> for ConvexHull<V> {
    type Error = ShapeError;
    fn try_from(r: PointsRepr<V>) -> Result<Self, ShapeError> {
        Self::try_from_points(&r.points)
    }
}

impl<V: Vector3> From<ConvexHull<V>> for PointsRepr<V> {
    fn from(h: ConvexHull<V>) -> Self {
        Self { points: h.vertices().to_vec() }
    }
}
