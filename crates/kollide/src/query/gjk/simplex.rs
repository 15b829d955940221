//! The GJK simplex and the parts of its solver shared by 2D and 3D.

use crate::math::{Lanes4, Real};
use crate::query::Space;

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
/// After [`Space::solve_simplex`] the vertices are exactly those with weight `> 0`, and
/// `Σ λᵢ wᵢ` is the point of their hull closest to the origin.
#[derive(Clone, Copy, Debug)]
pub struct Simplex<V: Space> {
    pub(crate) verts: [SimplexVertex<V>; 4],
    /// Each vertex's point of B in **B's own frame**, as B's support function gave it
    /// (what the warm-start cache keeps; zero for vertices pushed without one, which
    /// only EPA does, and EPA's simplex is never cached).
    pub(crate) local_b: [V; 4],
    /// The length of the translation that placed B's points in A's frame (0 when they
    /// were not placed): a point of B placed near A's origin is small, but its rounding is
    /// that of the numbers it was made from, its own size in B's frame plus this.
    pub(crate) placement: V::Real,
    /// Each vertex's [`vertex_scale`], taken when it was pushed (it is read every
    /// iteration, and costs two square roots).
    pub(crate) scales: [V::Real; 4],
    pub(crate) lambdas: [V::Real; 4],
    pub(crate) count: usize,
    /// The closest point to the origin, as computed by the solver (see [`SubSimplex::v`]).
    pub(crate) v: V,
}

impl<V: Space> Default for Simplex<V> {
    fn default() -> Self {
        Self {
            verts: [SimplexVertex::default(); 4],
            local_b: [V::ZERO; 4],
            placement: V::Real::ZERO,
            scales: [V::Real::ZERO; 4],
            lambdas: [V::Real::ZERO; 4],
            count: 0,
            v: V::ZERO,
        }
    }
}

impl<V: Space> Simplex<V> {
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
        self.push_with_local(v, V::ZERO);
    }

    /// Appends a vertex with its point of B in B's own frame (see `local_b`).
    pub(crate) fn push_with_local(&mut self, v: SimplexVertex<V>, local_b: V) {
        self.push_with_scale(v, local_b, vertex_scale(&v, local_b, self.placement));
    }

    /// [`Self::push_with_local`] with the vertex's [`vertex_scale`] already at hand.
    #[inline(always)]
    pub(crate) fn push_with_scale(&mut self, v: SimplexVertex<V>, local_b: V, scale: V::Real) {
        debug_assert!(self.count < 4);
        self.verts[self.count] = v;
        self.local_b[self.count] = local_b;
        self.scales[self.count] = scale;
        self.count += 1;
    }

    /// Takes each vertex's [`vertex_scale`] again, after its points were moved in place.
    #[inline]
    pub(crate) fn refresh_scales(&mut self) {
        for i in 0..self.count {
            self.scales[i] = vertex_scale(&self.verts[i], self.local_b[i], self.placement);
        }
    }

    /// The point of the simplex closest to the origin (`Σ λᵢ wᵢ`, or the more accurate
    /// projection the solver found).
    pub(crate) fn closest(&self) -> V {
        self.v
    }

    /// `(Σ λᵢ aᵢ, Σ λᵢ bᵢ)`: the closest points on the two cores, in A's frame.
    pub(crate) fn witnesses(&self) -> (V, V) {
        let weights = &self.lambdas[..self.count];
        // Weights below 0, or not summing to 1, come only from rounding on a simplex too
        // flat for its sizes: a hull's corner at 1e-12 beside corners at 18 in f32 gave a
        // triangle the weights (493, 1, 3.9), which placed the witnesses 750 units from
        // both shapes (fuzz; tests/regressions_scale.rs). Such weights say nothing: the
        // vertex nearest the origin is then the answer, a true pair of points of the
        // shapes `|w|` apart, unless the origin is in the simplex to rounding: then the
        // sub-simplices solved afresh give a closer pair (a segment's weights (0.0038, 1)
        // left the common point 0.13 off B; fuzz, `tests/regressions_scale.rs`).
        let sum = weights.iter().fold(V::Real::ZERO, |s, &l| s + l);
        let sane = weights.iter().all(|&l| l >= V::Real::ZERO)
            && (sum - V::Real::ONE).abs() <= V::Real::from_f64(1e-3);
        let touch = V::Real::EPSILON * V::Real::from_usize(16);
        let touch2 = touch * touch;
        let vv = self.v.length_squared();
        let full = self.count == V::DIM + 1;
        let (a, b) = if sane {
            self.weighted_points()
        } else {
            let by_length = |p: &&SimplexVertex<V>, q: &&SimplexVertex<V>| {
                p.w.length_squared().to_f64().total_cmp(&q.w.length_squared().to_f64())
            };
            let nearest = self.vertices().iter().min_by(by_length);
            nearest.map_or_else(|| self.weighted_points(), |v| (v.a, v.b))
        };
        let max2 = self.max_norm_squared();
        if !full && vv > touch2 * max2 {
            // Apart. The points should be `|v|` apart, to rounding. On a sliver simplex
            // they may not be: a cone's rim and apex on either side of a speck, with two
            // more rim points beside the first, made a triangle whose weights failed, and
            // the nearest vertex, 4.95 away, was reported for a speck 0.0029 from the cone
            // as a converged distance (fuzz, `casts`, f32); sane but ill-conditioned
            // weights put the points 40% farther apart than `|v|`. The sub-simplices
            // solved afresh then give a pair as near as `|v|`, to rounding.
            let reach = vv.sqrt() + touch * max2.sqrt();
            let gap = (a - b).length_squared();
            if gap <= reach * reach {
                return (a, b);
            }
            let mut best = (a, b, gap);
            self.nearest_pair_below(&mut best, reach * reach);
            return (best.0, best.1);
        }
        // The origin is in the simplex, or at the rounding floor of its coordinates: the
        // two points should coincide to rounding.
        let scale2 =
            if sane { self.weighted_norm_squared() } else { a.length_squared().max(b.length_squared()) };
        if full || vv <= touch2 * scale2 {
            return self.touching_witnesses(a, b, touch2 * scale2);
        }
        (a, b)
    }

    /// `(Σ λᵢ aᵢ, Σ λᵢ bᵢ)` with the simplex's own weights.
    fn weighted_points(&self) -> (V, V) {
        let (mut a, mut b) = (V::ZERO, V::ZERO);
        for i in 0..self.count {
            a += self.verts[i].a * self.lambdas[i];
            b += self.verts[i].b * self.lambdas[i];
        }
        (a, b)
    }

    /// The witnesses of a simplex that holds the origin to rounding: `(a, b)` from its
    /// weights when they put the two points together to rounding. Otherwise the weights
    /// are ill-conditioned (a simplex too thin for its size) and the answer is the pair,
    /// among the sub-simplices solved afresh, whose points are nearest each other: each is
    /// a true pair of points of the shapes, no farther apart than the simplex is thick.
    /// - Needle hulls 4e13 long in f64 gave a tetrahedron whose weights sum to 1 but put
    ///   A's point 6e8 off B (fuzz, `crates/kollide-fuzz/tests/findings.rs`).
    /// - A triangle 1e-11 thick (B's corners 2e-11 from its corner on A's edge) gave the
    ///   weights (0.99624, 0.00382, 0), summing to 1 + 6e-5: a common point 6e-6 off B.
    ///   The edge left when the zero weight is dropped, solved again on its own, is exact
    ///   (fuzz, `tests/regressions_scale.rs`).
    fn touching_witnesses(&self, a: V, b: V, bound: V::Real) -> (V, V) {
        let gap = (a - b).length_squared();
        if gap <= bound {
            return (a, b);
        }
        let mut best = (a, b, gap);
        self.nearest_pair_below(&mut best, bound);
        (best.0, best.1)
    }

    /// Lowers `best` to the nearest pair of points that this simplex, solved afresh, or any
    /// of its sub-simplices gives (stopping at the first within `bound`). Each candidate's
    /// weights are scaled to sum to 1, so its points are convex combinations: on the shapes.
    fn nearest_pair_below(&self, best: &mut (V, V, V::Real), bound: V::Real) {
        let mut solved = *self;
        let sub = V::solve_simplex(self);
        solved.reduce_to(&sub);
        let sum = solved.weights().iter().fold(V::Real::ZERO, |s, &l| s + l);
        if sum > V::Real::ZERO && solved.weights().iter().all(|&l| l >= V::Real::ZERO) {
            let (fa, fb) = solved.weighted_points();
            let (fa, fb) = (fa / sum, fb / sum);
            let gap = (fa - fb).length_squared();
            if gap < best.2 {
                *best = (fa, fb, gap);
            }
        }
        if best.2 <= bound || self.count < 2 {
            return;
        }
        for skip in 0..self.count {
            let mut facet = Simplex::<V> { placement: self.placement, ..Simplex::default() };
            for (i, v) in self.vertices().iter().enumerate() {
                if i != skip {
                    facet.push_with_scale(*v, self.local_b[i], self.scales[i]);
                }
            }
            facet.nearest_pair_below(best, bound);
            if best.2 <= bound {
                return;
            }
        }
    }

    /// The largest size of the numbers that made a vertex (see [`vertex_scale`]), squared:
    /// the scale rounding errors are measured against (each `w = a - b` is rounded relative
    /// to its parts, which may be much larger than `w` when the shapes are far from A's
    /// origin).
    pub(crate) fn max_norm_squared(&self) -> V::Real {
        let mut m = V::Real::ZERO;
        for &s in &self.scales[..self.count] {
            m = m.max(s);
        }
        m * m
    }

    /// The scale of the rounding in the closest point `Σ λᵢ wᵢ`, squared:
    /// `(Σ λᵢ sᵢ)²` with `sᵢ` the [`vertex_scale`]. Smaller than [`Self::max_norm_squared`]
    /// when a far vertex carries almost no weight (the closest point of a long edge next to
    /// its near end).
    pub(crate) fn weighted_norm_squared(&self) -> V::Real {
        let mut m = V::Real::ZERO;
        for (&l, &s) in self.weights().iter().zip(&self.scales[..self.count]) {
            m += l * s;
        }
        m * m
    }

    /// Keeps only the vertices `sub` names, with its weights and closest point. In place:
    /// kept vertices move only towards the front, so none is overwritten before it is moved.
    #[inline(always)]
    pub(crate) fn reduce_to(&mut self, sub: &SubSimplex<V>) {
        let mut k = 0;
        let lambda = sub.lambda.to_array();
        for (i, &weight) in lambda.iter().enumerate().take(self.count) {
            if sub.keeps(i) {
                if i != k {
                    self.verts[k] = self.verts[i];
                    self.local_b[k] = self.local_b[i];
                    self.scales[k] = self.scales[i];
                }
                self.lambdas[k] = weight;
                k += 1;
            }
        }
        self.count = k;
        self.v = sub.v;
    }

    /// Drops the newest vertex (a step that did not help).
    pub(crate) fn pop(&mut self) {
        self.count -= 1;
    }
}

/// A candidate answer of the sub-algorithm: which vertices of the simplex it keeps (a bit
/// mask: bit `i` for vertex `i`), their weights (by vertex index, zero for the others), and
/// the closest point they describe.
///
/// `v` is `Σ λᵢ wᵢ` unless the solver had a more accurate formula: for a triangle it is the
/// projection of the origin on the triangle's plane along the normal, whose direction is
/// exact to a few ulps even when |v| is tiny next to the coordinates (near contact), where
/// `Σ λᵢ wᵢ` would lose the direction to cancellation.
///
/// The solver's answers are returned in memory and copied on, and a copy reads a piece of
/// the struct in one wide load, which cannot be forwarded from narrower stores: it waits
/// for them to retire. Hence a mask rather than a list of indices (the list had to be
/// compacted after the solve and copied back, about a tenth of a box-box distance query),
/// the mask a `u32` rather than a byte (stored alone, then copied out with the padding after
/// it as one word), and the weights one register of four lanes written whole (see
/// [`spread`]; stored one by one, their copy cost about 5% of a hull8 distance query).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct SubSimplex<V: Space> {
    pub(crate) mask: u32,
    /// The weights by vertex index.
    pub(crate) lambda: <V::Real as Real>::X4,
    pub(crate) v: V,
    /// `|v|²`, taken where `v` is made ([`Self::new`]), while `v` is in registers: squared
    /// after the solve, `v` was read back from the returned struct and waited for the
    /// stores that wrote it.
    pub(crate) vv: V::Real,
}

impl<V: Space> SubSimplex<V> {
    /// The candidate keeping the vertices of `mask` with weights `lambda` (by vertex
    /// index, zero for the others) and closest point `v`.
    #[inline(always)]
    pub(crate) fn new(mask: u32, lambda: [V::Real; 4], v: V) -> Self {
        Self { mask, lambda: Lanes4::from_array(lambda), v, vv: v.length_squared() }
    }

    #[inline(always)]
    pub fn vertex(w: &[SimplexVertex<V>; 4], i: usize) -> Self {
        Self::new(1 << i, spread([i], [V::Real::ONE]), w[i].w)
    }

    /// The segment `i j` with weights `1 - mu` and `mu`, closest point `Σ λᵢ wᵢ`.
    #[inline(always)]
    pub fn segment(w: &[SimplexVertex<V>; 4], i: usize, j: usize, mu: V::Real) -> Self {
        let li = V::Real::ONE - mu;
        Self::new((1 << i) | (1 << j), spread([i, j], [li, mu]), w[i].w * li + w[j].w * mu)
    }

    /// The same candidate with closest point `v` (a more accurate formula for it).
    #[inline(always)]
    pub(crate) fn with_point(self, v: V) -> Self {
        Self { v, vv: v.length_squared(), ..self }
    }

    /// How many vertices it keeps.
    #[inline(always)]
    pub(crate) fn count(&self) -> usize {
        self.mask.count_ones() as usize
    }

    /// Whether it keeps vertex `i`.
    #[inline(always)]
    pub(crate) fn keeps(&self, i: usize) -> bool {
        self.mask & (1 << i) != 0
    }

    /// Drops vertices whose weight is 0 (the origin's projection lies on their opposite face).
    #[inline(always)]
    pub fn without_zero_weights(mut self) -> Self {
        type X4<V> = <<V as crate::math::Vector>::Real as Real>::X4;
        let zero = <X4<V> as Lanes4<V::Real>>::splat(V::Real::ZERO);
        let positive = u32::from(<X4<V> as Lanes4<V::Real>>::bits(zero.lt(self.lambda)));
        let kept = self.mask & positive;
        if kept == 0 {
            // Cannot happen with weights summing to 1; keep the first vertex rather than none.
            let first = self.mask.trailing_zeros() as usize;
            self.lambda = Lanes4::from_array(spread([first], [V::Real::ONE]));
            self.mask = 1 << first;
        } else {
            self.mask = kept;
        }
        self
    }
}

/// The weights `values` placed at the vertex indices `at`, zero elsewhere. Chosen lane by
/// lane rather than stored at a variable index: the weights are read back as one wide load,
/// which cannot be forwarded from narrower stores, and waited for them.
#[inline(always)]
pub(crate) fn spread<R: Real, const K: usize>(at: [usize; K], values: [R; K]) -> [R; 4] {
    core::array::from_fn(|lane| {
        let mut x = R::ZERO;
        for k in 0..K {
            if at[k] == lane {
                x = values[k];
            }
        }
        x
    })
}

/// Closest point to the origin on the segment `w[i] w[j]`.
///
/// The parameter is the origin's projection clamped to the segment; coincident ends keep
/// the first one (no division by a zero length).
#[inline(always)]
pub(crate) fn solve_segment<V: Space>(w: &[SimplexVertex<V>; 4], i: usize, j: usize) -> SubSimplex<V> {
    let (p, q) = (w[i].w, w[j].w);
    let t = q - p;
    let tt = t.length_squared();
    let s = -p.dot(t);
    if s <= V::Real::ZERO || tt <= V::Real::ZERO {
        return SubSimplex::vertex(w, i);
    }
    if s >= tt {
        return SubSimplex::vertex(w, j);
    }
    SubSimplex::segment(w, i, j, s / tt)
}

/// The size of the numbers a vertex was made from, which its rounding is relative to:
/// `|a|`, `|b|`, and for a point of B placed in A's frame by a translation of length
/// `placement`, its size in B's frame plus that (`local_b`; zero when not kept).
///
/// (Measured on `|a|` and `|b|` alone, a speck touching a ball 8 across, 1e-6 apart in
/// f32, had B's points near A's origin, small, each rounded by ~1e-6 when placed from 8
/// away: GJK's upper bound came out 5e-13 under a certified lower bound of 3e-7, fuzz
/// target `queries`.)
#[inline(always)]
pub(crate) fn vertex_scale<V: Space>(v: &SimplexVertex<V>, local_b: V, placement: V::Real) -> V::Real {
    let placed = if placement > V::Real::ZERO { local_b.length() + placement } else { V::Real::ZERO };
    v.a.length_squared().max(v.b.length_squared()).sqrt().max(placed)
}

/// `true` when `x` is on the same side of zero as `reference` (zero counts as same: the
/// origin then lies on a face, where the face's own weights are exact).
#[inline(always)]
pub(crate) fn same_sign<R: Real>(reference: R, x: R) -> bool {
    (reference > R::ZERO && x >= R::ZERO) || (reference < R::ZERO && x <= R::ZERO)
}

/// Picks the candidate nearest to the origin among those produced by `candidates`.
#[inline(always)]
pub(crate) fn nearest<V: Space>(
    w: &[SimplexVertex<V>; 4],
    candidates: impl Iterator<Item = SubSimplex<V>>,
) -> SubSimplex<V> {
    let mut best: Option<(V::Real, SubSimplex<V>)> = None;
    for c in candidates {
        let d = c.vv;
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map_or(SubSimplex::vertex(w, 0), |(_, c)| c)
}
