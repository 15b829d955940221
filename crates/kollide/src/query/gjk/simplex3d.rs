//! The simplex sub-algorithm in 3D: signed volumes (Montanari, Petrinic, Barbieri 2017,
//! "Improving the GJK algorithm for faster and more reliable distance queries between
//! convex objects", ACM TOG 36(3)). Weights are ratios of signed volumes (areas for a
//! triangle, measured along its normal after projecting the origin on its plane), which
//! stays accurate for the thin and nearly flat simplices GJK meets near convergence.

use super::simplex::{nearest, same_sign, solve_segment, spread, Simplex, SimplexVertex, SubSimplex};
use crate::math::{Real, Vector3};
use crate::query::Space;

/// The sub-simplex whose hull holds the point closest to the origin.
pub(crate) fn solve<V: Vector3 + Space>(simplex: &Simplex<V>) -> SubSimplex<V> {
    match simplex.count {
        1 => SubSimplex::vertex(&simplex.verts, 0),
        2 => solve_segment(&simplex.verts, 0, 1),
        3 => solve_triangle(&simplex.verts, [0, 1, 2]),
        _ => solve_tetrahedron(&simplex.verts),
    }
    .without_zero_weights()
}

fn solve_triangle<V: Vector3 + Space>(w: &[SimplexVertex<V>; 4], t: [usize; 3]) -> SubSimplex<V> {
    let (a, b, c) = (w[t[0]].w, w[t[1]].w, w[t[2]].w);
    let mut plane = TrianglePlane::new(a, b, c);
    if !plane.in_range() {
        // Its quantities grow as the fourth power of the coordinates: in f32 they overflow
        // from about 4e9 (and underflow below 1e-10), long before the squares GJK's
        // promise is stated for (1e19). Solved again on the corners scaled by a power of
        // two (exact): the weights are ratios and do not change; the point scales back.
        // (Unscaled, a point 1e10 inside an f32 cylinder of 1e10 took every triangle as
        // flat, and GJK stalled with the distance to an edge, 1.3e9.)
        let s = largest_coordinate(&[a, b, c]).recip_pow2();
        if s != V::Real::ONE && s.is_finite() {
            plane = TrianglePlane::new(a * s, b * s, c * s);
            plane.p0 = plane.p0 * (V::Real::ONE / s);
        }
    }
    let edges = [(t[1], t[2]), (t[0], t[2]), (t[0], t[1])];
    if plane.flat {
        // Collinear or coincident corners: the answer is on one of the edges.
        return nearest(w, edges.iter().map(|&(i, j)| solve_segment(w, i, j)));
    }
    let TrianglePlane { cs, mu, p0, .. } = plane;
    if cs.iter().all(|&x| same_sign(mu, x)) {
        let inv = V::Real::ONE / mu;
        let lambda = spread(t, [cs[0] * inv, cs[1] * inv, cs[2] * inv]);
        return SubSimplex::new((1 << t[0]) | (1 << t[1]) | (1 << t[2]), lambda, p0);
    }
    nearest(w, (0..3).filter(|&m| !same_sign(mu, cs[m])).map(|m| solve_segment(w, edges[m].0, edges[m].1)))
}

/// The largest absolute coordinate of `points`.
#[inline(always)]
fn largest_coordinate<V: Vector3 + Space>(points: &[V]) -> V::Real {
    points.iter().fold(V::Real::ZERO, |m, p| m.max(p.abs_elem().max_component()))
}

/// A triangle's plane and the signed areas that weigh its corners.
struct TrianglePlane<V: Vector3 + Space> {
    /// Collinear or coincident corners (to rounding).
    flat: bool,
    /// Each corner's signed area, measured along the normal.
    cs: [V::Real; 3],
    /// The whole triangle's (`n · n`).
    mu: V::Real,
    /// The origin projected on the plane.
    p0: V,
    /// The product of the squared lengths of the pivot's edges: the scale of the
    /// flatness test.
    scale2: V::Real,
}

impl<V: Vector3 + Space> TrianglePlane<V> {
    #[inline(always)]
    fn new(a: V, b: V, c: V) -> Self {
        // Everything is measured from the corner opposite the longest edge (the pivot),
        // along its two edges, the shortest two: the rounding of a cross product is that of
        // its factors' lengths, so this keeps the normal and the weights accurate on a
        // sliver. (Measured from any corner, the normal of a sliver from a cone's apex to
        // two rim points 1e-4 apart, edges 17 long, came out 2% off in f32; the origin's
        // projection moved by 0.05 and a speck 0.0008 off the cone's side overlapped it.)
        let (ab, bc, ca) = (b - a, c - b, a - c);
        let (lab, lbc, lca) = (ab.length_squared(), bc.length_squared(), ca.length_squared());
        // The pivot `p`, and the corners after it in the order a, b, c, a: `q`, `r`.
        let (pivot, p, pq, pr, scale2) = if lbc >= lab && lbc >= lca {
            (0, a, ab, -ca, lab * lca)
        } else if lca >= lab {
            (1, b, bc, -ab, lbc * lab)
        } else {
            (2, c, ca, -bc, lca * lbc)
        };
        let n = pq.cross3(pr);
        let nn = n.length_squared();
        let flat = nn <= V::Real::EPSILON * V::Real::EPSILON * scale2;
        // Project the origin on the triangle's plane; each weight is the signed area of the
        // triangle with that corner replaced by the projection, measured along the normal
        // (`mu = n·n` is the whole triangle's).
        // The plane's offset is measured from the corner nearest the origin: it carries the
        // rounding of the corner it is measured from, and GJK's upper bound allows for that
        // of the corners in their weights, which the nearest never exceeds. (Measured from a
        // corner 2 away, the offset of a face 1e-12 from the origin came out 1e-13 in f32,
        // and the upper bound fell below the certified lower one: fuzz target `queries`.)
        let (aa, bb, cc) = (a.length_squared(), b.length_squared(), c.length_squared());
        // (The three offsets are taken and one is chosen, so no branch waits on the choice.)
        let (an, bn, cn) = (a.dot(n), b.dot(n), c.dot(n));
        let bc_off = if bb <= cc { bn } else { cn };
        let offset = if aa <= bb.min(cc) { an } else { bc_off };
        let p0 = n * (offset / nn);
        // The weights of q and r: the signed areas, along the normal, of the triangles
        // with q or r replaced by the projection `p0`. As `p0` is along `n`, its part of
        // `(p0 - p) × pr · n` is zero, so `cq = (pr × p) · n` and `cr = (p × pq) · n`:
        // they do not wait for the division that places `p0`. The pivot's is what is left.
        let cq = pr.cross3(p).dot(n);
        let cr = p.cross3(pq).dot(n);
        let cp = nn - cq - cr;
        let cs = match pivot {
            0 => [cp, cq, cr],
            1 => [cr, cp, cq],
            _ => [cq, cr, cp],
        };
        Self { flat, cs, mu: nn, p0, scale2 }
    }

    /// Whether nothing overflowed, and the flatness test's threshold is a normal number.
    #[inline(always)]
    fn in_range(&self) -> bool {
        let eps2 = V::Real::EPSILON * V::Real::EPSILON;
        self.scale2.is_finite()
            && self.mu.is_finite()
            && (self.flat || self.cs.iter().all(|x| x.is_finite()))
            && (self.scale2 >= V::Real::MIN_POSITIVE / eps2 || self.scale2 == V::Real::ZERO)
    }
}

fn solve_tetrahedron<V: Vector3 + Space>(w: &[SimplexVertex<V>; 4]) -> SubSimplex<V> {
    let (a, b, c, d) = (w[0].w, w[1].w, w[2].w, w[3].w);
    let mut vol = Volumes::new(a, b, c, d);
    if !vol.in_range() {
        // Volumes grow as the cube of the coordinates (in f32 they overflow from about
        // 2e12): measured again on the corners scaled by a power of two, as for the triangle.
        let s = largest_coordinate(&[a, b, c, d]).recip_pow2();
        if s != V::Real::ONE && s.is_finite() {
            vol = Volumes::new(a * s, b * s, c * s, d * s);
        }
    }
    let Volumes { det, cs, flat, .. } = vol;
    if !flat && cs.iter().all(|&x| same_sign(det, x)) {
        let inv = V::Real::ONE / det;
        // The origin is inside: the closest point is the origin itself.
        return SubSimplex::new(0b1111, [cs[0] * inv, cs[1] * inv, cs[2] * inv, cs[3] * inv], V::ZERO);
    }
    const FACES: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
    nearest(w, (0..4).filter(|&m| flat || !same_sign(det, cs[m])).map(|m| solve_triangle(w, FACES[m])))
}

/// A tetrahedron's signed volume and those that weigh its corners.
struct Volumes<R> {
    det: R,
    /// Each corner's: the volume with that corner replaced by the origin.
    cs: [R; 4],
    /// `|ab| |ac| |ad|`, the scale of the flatness test.
    scale: R,
    /// Flat to rounding.
    flat: bool,
}

impl<R: crate::math::Real> Volumes<R> {
    #[inline(always)]
    fn new<V: Vector3 + Space<Real = R>>(a: V, b: V, c: V, d: V) -> Self {
        let (ab, ac, ad) = (b - a, c - a, d - a);
        let det = ab.dot(ac.cross3(ad));
        let cs = [b.dot(c.cross3(d)), -a.dot(ac.cross3(ad)), -ab.dot(a.cross3(ad)), -ab.dot(ac.cross3(a))];
        let scale = ab.length() * ac.length() * ad.length();
        let flat = det.abs() <= R::EPSILON * scale;
        Self { det, cs, scale, flat }
    }

    /// Whether nothing overflowed, and the flatness test's threshold is a normal number.
    #[inline(always)]
    fn in_range(&self) -> bool {
        self.scale.is_finite()
            && self.det.is_finite()
            && self.cs.iter().all(|x| x.is_finite())
            && (self.scale >= R::MIN_POSITIVE / R::EPSILON || self.scale == R::ZERO)
    }
}
