//! The simplex sub-algorithm in 3D: signed volumes (Montanari, Petrinic, Barbieri 2017,
//! "Improving the GJK algorithm for faster and more reliable distance queries between
//! convex objects", ACM TOG 36(3)). Weights are ratios of signed volumes (areas for a
//! triangle, measured along its normal after projecting the origin on its plane), which
//! stays accurate for the thin and nearly flat simplices GJK meets near convergence.

use super::simplex::{nearest, same_sign, solve_segment, Simplex, SimplexVertex, SubSimplex};
use crate::math::{Real, Vector3};

/// The sub-simplex whose hull holds the point closest to the origin.
pub(crate) fn solve<V: Vector3>(simplex: &Simplex<V>) -> SubSimplex<V> {
    match simplex.count {
        1 => SubSimplex::vertex(&simplex.verts, 0),
        2 => solve_segment(&simplex.verts, 0, 1),
        3 => solve_triangle(&simplex.verts, [0, 1, 2]),
        _ => solve_tetrahedron(&simplex.verts),
    }
    .without_zero_weights()
}

fn solve_triangle<V: Vector3>(w: &[SimplexVertex<V>; 4], t: [usize; 3]) -> SubSimplex<V> {
    let (a, b, c) = (w[t[0]].w, w[t[1]].w, w[t[2]].w);
    let (ab, ac) = (b - a, c - a);
    let n = ab.cross3(ac);
    let nn = n.length_squared();
    let scale2 = ab.length_squared() * ac.length_squared();
    let flat = nn <= V::Real::EPSILON * V::Real::EPSILON * scale2;
    let edges = [(t[1], t[2]), (t[0], t[2]), (t[0], t[1])];
    if flat {
        // Collinear or coincident corners: the answer is on one of the edges.
        return nearest(w, edges.iter().map(|&(i, j)| solve_segment(w, i, j)));
    }
    // Project the origin on the triangle's plane; each weight is the signed area of the
    // triangle with that corner replaced by the projection, measured along the normal
    // (`mu = n·n` is the whole triangle's).
    let p0 = n * (a.dot(n) / nn);
    let (pa, pb, pc) = (a - p0, b - p0, c - p0);
    let cs = [pb.cross3(pc).dot(n), pc.cross3(pa).dot(n), pa.cross3(pb).dot(n)];
    let mu = nn;
    if cs.iter().all(|&x| same_sign(mu, x)) {
        let inv = V::Real::ONE / mu;
        return SubSimplex {
            index: [t[0], t[1], t[2], 0],
            lambda: [cs[0] * inv, cs[1] * inv, cs[2] * inv, V::Real::ZERO],
            count: 3,
            v: p0,
        };
    }
    nearest(w, (0..3).filter(|&m| !same_sign(mu, cs[m])).map(|m| solve_segment(w, edges[m].0, edges[m].1)))
}

fn solve_tetrahedron<V: Vector3>(w: &[SimplexVertex<V>; 4]) -> SubSimplex<V> {
    let (a, b, c, d) = (w[0].w, w[1].w, w[2].w, w[3].w);
    let (ab, ac, ad) = (b - a, c - a, d - a);
    let det = ab.dot(ac.cross3(ad));
    // Each weight is the volume of the tetrahedron with that vertex replaced by the origin.
    let cs = [b.dot(c.cross3(d)), -a.dot(ac.cross3(ad)), -ab.dot(a.cross3(ad)), -ab.dot(ac.cross3(a))];
    let scale = ab.length() * ac.length() * ad.length();
    let flat = det.abs() <= V::Real::EPSILON * scale;
    if !flat && cs.iter().all(|&x| same_sign(det, x)) {
        let inv = V::Real::ONE / det;
        // The origin is inside: the closest point is the origin itself.
        return SubSimplex {
            index: [0, 1, 2, 3],
            lambda: [cs[0] * inv, cs[1] * inv, cs[2] * inv, cs[3] * inv],
            count: 4,
            v: V::ZERO,
        };
    }
    const FACES: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
    nearest(w, (0..4).filter(|&m| flat || !same_sign(det, cs[m])).map(|m| solve_triangle(w, FACES[m])))
}
