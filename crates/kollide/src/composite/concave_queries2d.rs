//! Concave polygons as composites: their convex pieces are the parts, in a BVH, and a
//! contact pushing a shape out through a diagonal between two pieces (an edge inside the
//! polygon) gives way to any other. The composite queries answer it with the
//! piece.

use super::{Composite, ConcavePolygon};
use crate::math::{Real, Vector2};
use crate::query::Space;
use crate::shape::{ConvexPolygon, Feature};

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
