//! Brute-force `f64` truth for 2D pairs: convex polygons (hull edges found by testing every
//! pair of points) and rounded segments (circles, capsules).
//!
//! Polygons overlap exactly when no edge normal of either separates them; otherwise the
//! distance is realized by a vertex and an edge.

use crate::oracle3::closest_segment_segment;
use glam::{DVec2, DVec3};

/// A convex polygon: its points and the hull edges (polygon on the left of each edge).
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    /// The points (all kept).
    pub points: Vec<DVec2>,
    /// Hull edges `(from, to)`, counter-clockwise.
    pub edges: Vec<(usize, usize)>,
}

impl Polygon {
    /// Finds the hull edges of `points` by brute force.
    ///
    /// # Panics
    /// When no edge is found (fewer than 3 points, or all collinear).
    #[must_use]
    pub fn from_points(points: &[DVec2]) -> Self {
        let n = points.len();
        let scale = points.iter().map(|p| p.length()).fold(0.0, f64::max);
        let eps = 1.0e-12 * scale.max(1.0);
        let mut edges = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let e = points[j] - points[i];
                let len = e.length();
                if i == j || len <= eps {
                    continue;
                }
                let unit = e / len;
                let (mut left, mut right) = (false, false);
                for p in points {
                    let h = unit.perp_dot(*p - points[i]);
                    left |= h > eps;
                    right |= h < -eps;
                }
                if left && !right {
                    edges.push((i, j));
                }
            }
        }
        assert!(!edges.is_empty(), "oracle polygon: no hull edge among {n} points");
        Self { points: points.to_vec(), edges }
    }

    /// The same polygon rotated by `(cos, sin)` then translated.
    #[must_use]
    pub fn placed(&self, translation: DVec2, rotation: (f64, f64)) -> Self {
        Self {
            points: self.points.iter().map(|&p| rotate(rotation, p) + translation).collect(),
            edges: self.edges.clone(),
        }
    }
}

fn rotate((c, s): (f64, f64), p: DVec2) -> DVec2 {
    DVec2::new(c * p.x - s * p.y, s * p.x + c * p.y)
}

/// A 2D shape the oracle knows.
#[derive(Clone, Debug, PartialEq)]
pub enum Oracle2 {
    /// A convex polygon.
    Polygon(Polygon),
    /// The segment `a b` grown by `radius` (a circle when `a == b`).
    Rounded {
        /// First end of the core.
        a: DVec2,
        /// Second end of the core.
        b: DVec2,
        /// Radius.
        radius: f64,
    },
}

impl Oracle2 {
    /// The same shape rotated by `(cos, sin)` (normalized here in `f64`) then translated.
    #[must_use]
    pub fn placed(&self, translation: DVec2, rotation: (f64, f64)) -> Self {
        let n = rotation.0.hypot(rotation.1);
        let rotation = (rotation.0 / n, rotation.1 / n);
        match self {
            Self::Polygon(p) => Self::Polygon(p.placed(translation, rotation)),
            Self::Rounded { a, b, radius } => Self::Rounded {
                a: rotate(rotation, *a) + translation,
                b: rotate(rotation, *b) + translation,
                radius: *radius,
            },
        }
    }
}

/// The point of segment `a b` closest to `p`.
#[must_use]
pub fn closest_point_segment(p: DVec2, a: DVec2, b: DVec2) -> DVec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 == 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
}

fn lift(p: DVec2) -> DVec3 {
    p.extend(0.0)
}

/// The true distance between two placed shapes (`0` when they overlap), or `None` for a
/// pair the oracle does not handle (polygon against rounded segment).
#[must_use]
pub fn distance(x: &Oracle2, y: &Oracle2) -> Option<f64> {
    match (x, y) {
        (Oracle2::Polygon(a), Oracle2::Polygon(b)) => Some(polygon_distance(a, b)),
        (Oracle2::Rounded { a: p0, b: p1, radius: r }, Oracle2::Rounded { a: q0, b: q1, radius: s }) => {
            let (p, q) = closest_segment_segment(lift(*p0), lift(*p1), lift(*q0), lift(*q1));
            Some(((p - q).length() - r - s).max(0.0))
        }
        _ => None,
    }
}

/// Distance between two convex polygons in one frame (`0` when they overlap).
#[must_use]
pub fn polygon_distance(a: &Polygon, b: &Polygon) -> f64 {
    let separates = |poly: &Polygon, other: &Polygon, (i, j): (usize, usize)| {
        let e = poly.points[j] - poly.points[i];
        let out = DVec2::new(e.y, -e.x);
        let top = out.dot(poly.points[i]);
        other.points.iter().all(|p| out.dot(*p) > top)
    };
    let sep = a.edges.iter().any(|&e| separates(a, b, e)) || b.edges.iter().any(|&e| separates(b, a, e));
    if !sep {
        return 0.0;
    }
    let mut best = f64::MAX;
    for (x, y) in [(a, b), (b, a)] {
        for &(i, j) in &y.edges {
            let (e0, e1) = (y.points[i], y.points[j]);
            for &p in &x.points {
                best = best.min((p - closest_point_segment(p, e0, e1)).length());
            }
        }
    }
    best
}

/// The penetration depth of two overlapping polygons: the least overlap over the unit edge
/// normals of both (negative when one separates them).
#[must_use]
pub fn penetration(a: &Polygon, b: &Polygon) -> f64 {
    let mut best = f64::MAX;
    for p in [a, b] {
        for &(i, j) in &p.edges {
            let n = (p.points[j] - p.points[i]).perp().normalize();
            for u in [n, -n] {
                let ha = a.points.iter().map(|x| x.dot(u)).fold(f64::MIN, f64::max);
                let lb = b.points.iter().map(|x| x.dot(u)).fold(f64::MAX, f64::min);
                best = best.min(ha - lb);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares() {
        let sq = Polygon::from_points(&[
            DVec2::new(-1.0, -1.0),
            DVec2::new(1.0, -1.0),
            DVec2::new(1.0, 1.0),
            DVec2::new(-1.0, 1.0),
        ]);
        assert_eq!(sq.edges.len(), 4);
        let far = sq.placed(DVec2::new(5.0, 0.5), (1.0, 0.0));
        assert!((polygon_distance(&sq, &far) - 3.0).abs() < 1e-12);
        let diamond = sq.placed(DVec2::new(0.0, 4.0), (0.5f64.sqrt(), 0.5f64.sqrt()));
        assert!((polygon_distance(&sq, &diamond) - (3.0 - 2f64.sqrt())).abs() < 1e-12);
        let over = sq.placed(DVec2::new(1.5, 1.5), (1.0, 0.0));
        assert_eq!(polygon_distance(&sq, &over), 0.0);
    }
}
