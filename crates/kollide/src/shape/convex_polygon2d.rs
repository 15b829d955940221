//! Convex polygon (2D): the convex hull of a point set.

use super::error::check_finite_vec;
use super::{ShapeError, Support};
use crate::math::{Real, Vector2};

/// Vertex count above which the support function walks from the hinted vertex instead of
/// scanning every vertex (measured: the scan wins below this on 2 cores of x86_64).
const SCAN_LIMIT: usize = 16;

/// A convex polygon: the convex hull of the points it was built from, counter-clockwise.
///
/// Points inside the hull, duplicates and points in the middle of an edge are not vertices
/// of the hull, so they are not kept (the shape is the same set either way).
///
/// ```
/// use kollide::shape::{ConvexPolygon, Support};
/// use glam::Vec2;
/// let square = ConvexPolygon::try_from_points(&[
///     Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0),
///     Vec2::new(0.0, 1.0), Vec2::new(0.5, 0.5), // inside: not a vertex
/// ]).unwrap();
/// assert_eq!(square.vertices().len(), 4);
/// assert_eq!(square.support(Vec2::new(1.0, 2.0)), Vec2::new(1.0, 1.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ConvexPolygon<V> {
    vertices: Vec<V>,
    normals: Vec<V>,
}

impl<V: Vector2> ConvexPolygon<V> {
    /// The convex hull of `points` (Andrew's monotone chain).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] naming the first bad coordinate (`points[4].y`),
    /// [`ShapeError::TooFewPoints`] for fewer than 3 points, [`ShapeError::Collinear`] when
    /// the points span no area.
    pub fn try_from_points(points: &[V]) -> Result<Self, ShapeError> {
        for (i, &p) in points.iter().enumerate() {
            check_finite_vec(&format!("points[{i}]"), p)?;
        }
        if points.len() < 3 {
            return Err(ShapeError::TooFewPoints { count: points.len(), needed: 3 });
        }
        let vertices = monotone_chain(points);
        if vertices.len() < 3 {
            return Err(ShapeError::Collinear { count: points.len() });
        }
        let n = vertices.len();
        let normals = (0..n)
            .map(|i| {
                let e = vertices[(i + 1) % n] - vertices[i];
                let out = V::new2(e[1], -e[0]);
                out / out.length()
            })
            .collect();
        Ok(Self { vertices, normals })
    }

    /// The convex hull of `points`.
    ///
    /// # Panics
    /// On the inputs [`ConvexPolygon::try_from_points`] refuses.
    #[must_use]
    pub fn from_points(points: &[V]) -> Self {
        Self::try_from_points(points).unwrap_or_else(|e| panic!("ConvexPolygon::from_points: {e}"))
    }

    /// The vertices, counter-clockwise, no three collinear.
    #[must_use]
    pub fn vertices(&self) -> &[V] {
        &self.vertices
    }

    /// The outward unit normal of edge `i` (from vertex `i` to vertex `i + 1`).
    #[must_use]
    pub fn normals(&self) -> &[V] {
        &self.normals
    }
}

/// Andrew's monotone chain: the strictly convex hull, counter-clockwise from the lowest-x
/// point. Collinear and duplicate points are dropped by the `<= 0` turn test.
fn monotone_chain<V: Vector2>(points: &[V]) -> Vec<V> {
    let mut pts: Vec<V> = points.to_vec();
    pts.sort_by(|p, q| p[0].partial_cmp(&q[0]).unwrap().then(p[1].partial_cmp(&q[1]).unwrap()));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let turn = |o: V, a: V, b: V| (a - o).perp_dot2(b - o);
    let mut hull: Vec<V> = Vec::with_capacity(2 * pts.len());
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &V>> =
            if pass == 0 { Box::new(pts.iter()) } else { Box::new(pts.iter().rev()) };
        for &p in iter {
            while hull.len() >= start + 2
                && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= V::Real::ZERO
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop(); // the last point of each chain starts the other one
    }
    hull
}

impl<V: Vector2> Support<V> for ConvexPolygon<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        let mut hint = 0;
        self.support_hinted(dir, &mut hint)
    }

    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        let v = &self.vertices;
        let n = v.len();
        if n <= SCAN_LIMIT {
            let mut best = 0;
            let mut best_dot = v[0].dot(dir);
            for (i, p) in v.iter().enumerate().skip(1) {
                let d = p.dot(dir);
                if d > best_dot {
                    best = i;
                    best_dot = d;
                }
            }
            *hint = best as u32;
            return v[best];
        }
        // The dot product along a convex polygon's boundary rises to one maximum and falls:
        // walk from the hint towards the rising neighbour (at most n steps).
        let mut i = (*hint as usize).min(n - 1);
        let mut d = v[i].dot(dir);
        for _ in 0..n {
            let next = if i + 1 == n { 0 } else { i + 1 };
            let prev = if i == 0 { n - 1 } else { i - 1 };
            let (dn, dp) = (v[next].dot(dir), v[prev].dot(dir));
            if dn > d && dn >= dp {
                i = next;
                d = dn;
            } else if dp > d {
                i = prev;
                d = dp;
            } else {
                break;
            }
        }
        *hint = i as u32;
        v[i]
    }

    #[inline]
    fn interior_point(&self) -> V {
        // The mean of three vertices spread around the polygon is strictly inside.
        let n = self.vertices.len();
        let third = V::Real::ONE / (V::Real::TWO + V::Real::ONE);
        (self.vertices[0] + self.vertices[n / 3] + self.vertices[2 * n / 3]) * third
    }
}
