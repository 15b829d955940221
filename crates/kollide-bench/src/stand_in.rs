//! TEMPORARY stand-in for `kollide::shape::ConvexHull` (being written on another branch):
//! the support of a point set by a linear scan. Removed when the real hull is merged.

use kollide::math::Vector;
use kollide::shape::{ShapeError, Support};

/// The convex hull of a point set, represented by the points themselves.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexHull<V> {
    points: Vec<V>,
}

impl<V: Vector> ConvexHull<V> {
    /// Keeps the points.
    ///
    /// # Errors
    /// [`ShapeError::TooFewPoints`] for fewer than 4 points.
    pub fn try_from_points(points: &[V]) -> Result<Self, ShapeError> {
        if points.len() < 4 {
            return Err(ShapeError::TooFewPoints { count: points.len(), needed: 4 });
        }
        Ok(Self { points: points.to_vec() })
    }
}

impl<V: Vector> Support<V> for ConvexHull<V> {
    fn support(&self, dir: V) -> V {
        let mut best = self.points[0];
        let mut best_dot = best.dot(dir);
        for &p in &self.points[1..] {
            let d = p.dot(dir);
            if d > best_dot {
                best = p;
                best_dot = d;
            }
        }
        best
    }
}
