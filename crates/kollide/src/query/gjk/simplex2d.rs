//! The simplex sub-algorithm in 2D: signed areas (Montanari, Petrinic, Barbieri 2017,
//! "Improving the GJK algorithm for faster and more reliable distance queries between
//! convex objects", ACM TOG 36(3)).

use super::simplex::{nearest, same_sign, solve_segment, Simplex, SubSimplex};
use crate::math::{Real, Vector2};
use crate::query::Space;

/// Twice the signed area of the triangle `p q r`.
#[inline(always)]
fn area2<V: Vector2 + Space>(p: V, q: V, r: V) -> V::Real {
    (q - p).perp_dot2(r - p)
}

/// The sub-simplex whose hull holds the point closest to the origin.
#[inline(always)]
pub(crate) fn solve<V: Vector2 + Space>(simplex: &Simplex<V>) -> SubSimplex<V> {
    let w = &simplex.verts;
    let mut sub = match simplex.count {
        1 => SubSimplex::vertex(w, 0),
        2 => solve_segment(w, 0, 1),
        _ => solve_triangle(simplex),
    }
    .without_zero_weights();
    if sub.count() == 2 {
        // Project along the edge's normal: its direction is exact to a few ulps even when
        // |v| is tiny next to the coordinates (see `SubSimplex`).
        let (i, j) = (sub.mask.trailing_zeros() as usize, 31 - sub.mask.leading_zeros() as usize);
        let (p, q) = (w[i].w, w[j].w);
        let n = (q - p).perp2();
        let nn = n.length_squared();
        if nn > V::Real::ZERO {
            sub = sub.with_point(n * (p.dot(n) / nn));
        }
    }
    sub
}

fn solve_triangle<V: Vector2 + Space>(simplex: &Simplex<V>) -> SubSimplex<V> {
    let w = &simplex.verts;
    let (a, b, c) = (w[0].w, w[1].w, w[2].w);
    let o = V::ZERO;
    let mu = area2(a, b, c);
    // Each weight is the area of the triangle with that vertex replaced by the origin.
    let cs = [area2(o, b, c), area2(a, o, c), area2(a, b, o)];
    let scale = (b - a).length() * (c - a).length();
    let flat = mu.abs() <= V::Real::EPSILON * scale;
    if !flat && cs.iter().all(|&x| same_sign(mu, x)) {
        let inv = V::Real::ONE / mu;
        // The origin is inside: the closest point is the origin itself.
        return SubSimplex::new(0b111, [cs[0] * inv, cs[1] * inv, cs[2] * inv, V::Real::ZERO], V::ZERO);
    }
    // The origin is outside an edge (or the triangle is flat): the answer lies on an edge
    // whose opposite weight has the wrong sign.
    const EDGES: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];
    nearest(
        w,
        (0..3).filter(|&k| flat || !same_sign(mu, cs[k])).map(|k| solve_segment(w, EDGES[k].0, EDGES[k].1)),
    )
}
