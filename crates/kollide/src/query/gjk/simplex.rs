//! The GJK simplex and the parts of its solver shared by 2D and 3D.

use crate::math::{Real, Vector};

/// One vertex of the simplex: a point `w = a - b` of the Minkowski difference of the cores,
/// remembered with the points `a` and `b` that made it (both in A's local frame), so the
/// closest points can be rebuilt from the barycentric coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SimplexVertex<V> {
    /// `a - b`.
    pub w: V,
    /// The support point of A's core, in A's frame.
    pub a: V,
    /// The support point of B's core, in A's frame.
    pub b: V,
}

/// The simplex GJK maintains: 1 to `DIM + 1` vertices with their barycentric weights.
///
/// After [`Vector::solve_simplex`] the vertices are exactly those with weight `> 0`, and
/// `Σ λᵢ wᵢ` is the point of their hull closest to the origin.
#[derive(Clone, Copy, Debug)]
pub struct Simplex<V: Vector> {
    pub(crate) verts: [SimplexVertex<V>; 4],
    pub(crate) lambdas: [V::Real; 4],
    pub(crate) count: usize,
}

impl<V: Vector> Default for Simplex<V> {
    fn default() -> Self {
        Self { verts: [SimplexVertex::default(); 4], lambdas: [V::Real::ZERO; 4], count: 0 }
    }
}

impl<V: Vector> Simplex<V> {
    /// The vertices in use.
    #[must_use]
    pub fn vertices(&self) -> &[SimplexVertex<V>] {
        &self.verts[..self.count]
    }

    /// The barycentric weights of the vertices in use (they sum to 1).
    #[must_use]
    pub fn weights(&self) -> &[V::Real] {
        &self.lambdas[..self.count]
    }

    pub(crate) fn push(&mut self, v: SimplexVertex<V>) {
        debug_assert!(self.count < 4);
        self.verts[self.count] = v;
        self.count += 1;
    }

    /// `Σ λᵢ wᵢ`: the point of the simplex closest to the origin.
    pub(crate) fn closest(&self) -> V {
        let mut v = V::ZERO;
        for i in 0..self.count {
            v += self.verts[i].w * self.lambdas[i];
        }
        v
    }

    /// `(Σ λᵢ aᵢ, Σ λᵢ bᵢ)`: the closest points on the two cores, in A's frame.
    pub(crate) fn witnesses(&self) -> (V, V) {
        let (mut a, mut b) = (V::ZERO, V::ZERO);
        for i in 0..self.count {
            a += self.verts[i].a * self.lambdas[i];
            b += self.verts[i].b * self.lambdas[i];
        }
        (a, b)
    }

    /// The largest |w| of the vertices: the scale rounding errors are measured against.
    pub(crate) fn max_norm_squared(&self) -> V::Real {
        let mut m = V::Real::ZERO;
        for i in 0..self.count {
            m = m.max(self.verts[i].w.length_squared());
        }
        m
    }

    /// Keeps only the vertices `sub` names, with its weights.
    pub(crate) fn reduce_to(&mut self, sub: &SubSimplex<V::Real>) {
        let old = self.verts;
        for k in 0..sub.count {
            self.verts[k] = old[sub.index[k]];
            self.lambdas[k] = sub.lambda[k];
        }
        self.count = sub.count;
    }
}

/// A candidate answer of the sub-algorithm: which vertices (by index into the simplex) and
/// their weights.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SubSimplex<R> {
    pub index: [usize; 4],
    pub lambda: [R; 4],
    pub count: usize,
}

impl<R: Real> SubSimplex<R> {
    pub fn vertex(i: usize) -> Self {
        Self { index: [i, 0, 0, 0], lambda: [R::ONE, R::ZERO, R::ZERO, R::ZERO], count: 1 }
    }

    /// Drops vertices whose weight is 0 (the origin's projection lies on their opposite face).
    pub fn without_zero_weights(mut self) -> Self {
        let mut k = 0;
        for i in 0..self.count {
            if self.lambda[i] > R::ZERO {
                self.index[k] = self.index[i];
                self.lambda[k] = self.lambda[i];
                k += 1;
            }
        }
        if k == 0 {
            // Cannot happen with weights summing to 1; keep the first vertex rather than none.
            return Self::vertex(self.index[0]);
        }
        self.count = k;
        self
    }

    /// The squared norm of the point this candidate describes.
    pub fn distance_squared<V: Vector<Real = R>>(&self, w: &[SimplexVertex<V>; 4]) -> R {
        let mut v = V::ZERO;
        for k in 0..self.count {
            v += w[self.index[k]].w * self.lambda[k];
        }
        v.length_squared()
    }
}

/// Closest point to the origin on the segment `w[i] w[j]`.
///
/// The parameter is the origin's projection clamped to the segment; coincident ends keep
/// the first one (no division by a zero length).
pub(crate) fn solve_segment<V: Vector>(w: &[SimplexVertex<V>; 4], i: usize, j: usize) -> SubSimplex<V::Real> {
    let (p, q) = (w[i].w, w[j].w);
    let t = q - p;
    let tt = t.length_squared();
    let s = -p.dot(t);
    if s <= V::Real::ZERO || tt <= V::Real::ZERO {
        return SubSimplex::vertex(i);
    }
    if s >= tt {
        return SubSimplex::vertex(j);
    }
    let mu = s / tt;
    SubSimplex {
        index: [i, j, 0, 0],
        lambda: [V::Real::ONE - mu, mu, V::Real::ZERO, V::Real::ZERO],
        count: 2,
    }
}

/// `true` when `x` is on the same side of zero as `reference` (zero counts as same: the
/// origin then lies on a face, where the face's own weights are exact).
#[inline(always)]
pub(crate) fn same_sign<R: Real>(reference: R, x: R) -> bool {
    (reference > R::ZERO && x >= R::ZERO) || (reference < R::ZERO && x <= R::ZERO)
}

/// Picks the candidate nearest to the origin among those produced by `candidates`.
pub(crate) fn nearest<V: Vector>(
    w: &[SimplexVertex<V>; 4],
    candidates: impl Iterator<Item = SubSimplex<V::Real>>,
) -> SubSimplex<V::Real> {
    let mut best: Option<(V::Real, SubSimplex<V::Real>)> = None;
    for c in candidates {
        let d = c.distance_squared(w);
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map_or(SubSimplex::vertex(0), |(_, c)| c)
}
