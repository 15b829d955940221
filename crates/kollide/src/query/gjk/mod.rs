//! GJK (Gilbert, Johnson, Keerthi 1988), written once for 2D and 3D, `f32` and `f64`.
//!
//! Runs on the *cores* of two shapes (see [`crate::shape::Support`]) in A's local frame,
//! with the signed-volumes sub-algorithm of Montanari et al. (2017) and the termination
//! test of van den Bergen (1999): stop when the upper bound `|v|` and the lower bound
//! `max_k (v_k · w_k) / |v_k|` are within the tolerance.

use crate::query::Space;
pub(crate) mod cache;
pub(crate) mod simplex;
#[doc(hidden)]
pub use simplex::SubSimplex;
pub(crate) mod simplex2d;
pub(crate) mod simplex3d;

use crate::math::Rotation;
use crate::math::{Pose, Real};
use crate::shape::{Support, NO_HINT};
pub use cache::SimplexCache;
pub use simplex::{Simplex, SimplexVertex};

/// How GJK ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum GjkStatus {
    /// The bounds met within the tolerance, or within the rounding of the coordinates
    /// (see [`crate::query::distance`] for the exact promise).
    Converged,
    /// The cores overlap: the simplex encloses the origin, or shrank to it.
    Overlapping,
    /// Rounding stopped progress before the tolerance was met. The bounds still hold.
    Stalled,
    /// The iteration cap was reached. The bounds still hold.
    MaxIterations,
    /// A support point was not finite (a user's own shape returned NaN or infinity), or
    /// the arithmetic on the support points overflowed (coordinates whose squares exceed the
    /// largest float: beyond about 1e19 in `f32`, 1e154 in `f64`). Nothing is certified:
    /// the bounds are `[0, ∞)`.
    NonFiniteSupport,
}

impl GjkStatus {
    /// The name used by the command-line tool: `"converged"`, `"overlapping"`, ...
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Converged => "converged",
            Self::Overlapping => "overlapping",
            Self::Stalled => "stalled",
            Self::MaxIterations => "max_iterations",
            Self::NonFiniteSupport => "non_finite_support",
        }
    }
}

/// Knobs of GJK. `Default` gives the documented tolerances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkSettings<R> {
    /// Stop when `upper - lower <= rel_tolerance * upper` (default
    /// [`Real::GJK_REL_TOLERANCE`]: `1e-5` for `f32`, `1e-9` for `f64`).
    pub rel_tolerance: R,
    /// Iteration cap (default 64; GJK on polytopes usually needs fewer than 10).
    pub max_iterations: u32,
}

impl<R: Real> Default for GjkSettings<R> {
    fn default() -> Self {
        Self { rel_tolerance: R::GJK_REL_TOLERANCE, max_iterations: 64 }
    }
}

/// One GJK iteration as recorded by a traced [`crate::query::distance_cached`], in A's local frame:
/// the simplex it started from, its closest point `v`, the new support point `w` of the
/// Minkowski difference of the cores in direction `-v`, and the bounds on the core distance
/// after it (before rounding slack).
#[derive(Clone, Copy, Debug)]
pub struct GjkStep<V: Space> {
    /// The simplex at the start of the iteration.
    pub simplex: Simplex<V>,
    /// Its point closest to the origin.
    pub v: V,
    /// The support point found along `-v`.
    pub w: V,
    /// The best lower bound so far.
    pub lower: V::Real,
    /// The upper bound `|v|`.
    pub upper: V::Real,
}

/// How many consecutive steps that improve neither |v| (beyond rounding) nor the lower
/// bound GJK takes before it stops as `Stalled`.
const MAX_FLAT_STEPS: u32 = 3;

/// What GJK found about the cores, all in A's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CoreResult<V: Space> {
    pub simplex: Simplex<V>,
    /// Certified lower bound on the core distance.
    pub lower: V::Real,
    /// Certified upper bound on the core distance (`|v|` plus rounding slack).
    pub upper: V::Real,
    pub iterations: u32,
    pub status: GjkStatus,
}

/// What GJK is asked: the distance, or only whether the distance is above `threshold`
/// (then it stops as soon as the bounds decide it).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Goal<R> {
    Distance,
    Separation {
        threshold: R,
    },
    /// The distance, unless it is proven above `threshold` (then stop, `Converged`, with
    /// the lower bound above it).
    DistanceWithin {
        threshold: R,
    },
}

/// Runs GJK on the cores of `a` (in its own frame, which is the working frame) and `b`
/// placed by `pose_ab`, starting from `cache` and leaving the final simplex in it.
pub(crate) fn run<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    cache: Option<&mut SimplexCache<V>>,
    settings: &GjkSettings<V::Real>,
    goal: Goal<V::Real>,
    mut trace: Option<&mut Vec<GjkStep<V>>>,
) -> CoreResult<V> {
    let b = Placed::new(b, pose_ab);
    let (mut hint_a, mut hint_b) = cache.as_ref().map_or((NO_HINT, NO_HINT), |c| (c.hint_a, c.hint_b));
    let mut simplex = Simplex::<V> { placement: pose_ab.translation.length(), ..Simplex::default() };
    // A support point of the Minkowski difference, with B's point in B's own frame (kept
    // for the cache).
    let support = |dir: V, ha: &mut u32, hb: &mut u32| {
        let pa = a.support_hinted(dir, ha);
        let (pb, local_b) = b.support_hinted(-dir, hb);
        (SimplexVertex { w: pa - pb, a: pa, b: pb }, local_b)
    };

    if let Some(cache) = cache.as_deref().filter(|c| c.count > 0) {
        cache.load(|p| b.place(p), &mut simplex);
        let sub = V::solve_simplex(&simplex);
        simplex.reduce_to(&sub);
    } else {
        let guess = a.interior_point() - b.interior_point();
        let dir = if guess.length_squared() > V::Real::ZERO { -guess } else { V::axis(0) };
        let (w, local_b) = support(dir, &mut hint_a, &mut hint_b);
        simplex.push_with_local(w, local_b);
        simplex.lambdas[0] = V::Real::ONE;
        simplex.v = simplex.verts[0].w;
    }

    let eps = V::Real::EPSILON;
    let mut lower = V::Real::ZERO;
    // The certified lower bound: each iteration's bound less the rounding of its own
    // support point. (Any direction's support bound holds, however v was rounded; only w and
    // the dot product carry error. A slack taken from the largest point seen instead made a
    // triangle with one vertex at 1e10 look as if it touched a cube 12 away.)
    let mut lower_cert = V::Real::ZERO;
    let mut iterations = 0;
    let mut flat_steps = 0;
    // The largest |a|² or |b|² of the support points seen: the scale rounding is measured
    // against (see `Simplex::max_norm_squared`), kept as a running maximum rather than
    // recomputed over the simplex each iteration (it can only be larger: still sound).
    let mut scale2 = simplex.max_norm_squared();
    let mut v = simplex.closest();
    let mut vv = v.length_squared();
    let status = loop {
        // |v| at the rounding floor of the coordinates (of the points on A and B, see
        // `max_norm_squared`) means the origin is in the simplex as far as floating point
        // can tell: the cores touch or overlap.
        // Checked first: squares that overflowed (points beyond ~1e19 in `f32`, ~1e154 in
        // `f64`) would make every test below pass, and shapes 1e20 apart "overlap". No
        // certified answer can be computed then; say so.
        if !(vv.is_finite() && scale2.is_finite()) {
            break GjkStatus::NonFiniteSupport;
        }
        // The running maximum may hold a far vertex the simplex has since dropped, or one
        // that carries almost no weight; the rounding of v is that of the vertices it is made
        // of, in their proportions, so the test is confirmed on those (a triangle with one vertex at 1e25 "overlapped" a cube 1.4e8 from its near
        // corner).
        let touch = eps * V::Real::from_usize(16);
        let touch2 = touch * touch;
        if simplex.count == V::DIM + 1
            || (vv <= touch2 * scale2 && vv <= touch2 * simplex.weighted_norm_squared())
        {
            break GjkStatus::Overlapping;
        }
        if iterations >= settings.max_iterations {
            break GjkStatus::MaxIterations;
        }
        let (w, local_b) = support(-v, &mut hint_a, &mut hint_b);
        iterations += 1;
        if !w.w.is_finite_vec() {
            break GjkStatus::NonFiniteSupport;
        }
        let vlen = vv.sqrt();
        let vw = v.dot(w.w);
        let lower_before = lower;
        lower = lower.max(vw / vlen);
        let w_scale = simplex::vertex_scale(&w, local_b, simplex.placement);
        lower_cert = lower_cert.max(vw / vlen - vertex_slack::<V>(w_scale));
        if let Some(t) = trace.as_deref_mut() {
            t.push(GjkStep { simplex, v, w: w.w, lower, upper: vlen });
        }
        if let Goal::Separation { threshold } | Goal::DistanceWithin { threshold } = goal {
            // Separated once the certified lower bound clears the threshold.
            if lower_cert > threshold {
                break GjkStatus::Converged;
            }
        }
        if vlen - lower <= settings.rel_tolerance * vlen {
            break GjkStatus::Converged;
        }
        // The gap cannot shrink below the rounding of the coordinates (`scale`): stop there.
        // (Near contact v itself stays accurate because the solver takes it from the
        // face normal, see `SubSimplex`.) Only a separating direction (vw > 0) can be judged
        // this way.
        scale2 = scale2.max(w_scale * w_scale);
        let noise = |scale2: V::Real| eps * scale2.sqrt() * V::Real::from_usize(16) * vlen;
        if vw > V::Real::ZERO && vv - vw <= noise(scale2) {
            // Confirmed on the points at hand, as for the overlap test above.
            let here = simplex.weighted_norm_squared().max(w_scale * w_scale);
            if vv - vw <= noise(here) {
                break GjkStatus::Converged;
            }
        }
        if simplex.vertices().iter().any(|s| s.w == w.w) {
            // The new support point is already a vertex. In exact arithmetic the gap would
            // be 0 and a test above would have stopped; here rounding blocks progress.
            break GjkStatus::Stalled;
        }
        simplex.push_with_scale(w, local_b, w_scale);
        let sub = V::solve_simplex(&simplex);
        let vv_new = sub.vv;
        if vv_new < lower_cert * lower_cert && below_certified(&simplex, vv_new, lower_cert) {
            // No point of the simplex can be nearer the origin than the certified lower
            // bound: the solver's point is rounding on a sliver (a cone's rim points beside
            // its apex, in f32, gave a point 1.8e-3 from the origin past a bound of 4.9e-3,
            // and a "converged" distance under its own lower bound; fuzz, `casts`). The
            // simplex before this step is the answer.
            simplex.pop();
            break GjkStatus::Stalled;
        }
        if sub.count() <= V::DIM && vv_new >= vv {
            // |v| did not decrease. Near a face-face contact, and near convergence on a
            // smooth surface, a step gains only second order in |v| (lost in rounding) but
            // first order in the direction of v, which is what tightens the lower bound:
            // accept a step that is no worse than rounding; stop when it is clearly worse,
            // or after a few such steps in a row that did not raise the lower bound either
            // (cycling).
            let noise = (vv + vv.sqrt() * scale2.sqrt()) * eps * V::Real::from_usize(16);
            flat_steps = if lower > lower_before { 0 } else { flat_steps + 1 };
            if vv_new > vv + noise || flat_steps > MAX_FLAT_STEPS {
                simplex.pop();
                break GjkStatus::Stalled;
            }
        }
        simplex.reduce_to(&sub);
        v = sub.v;
        vv = vv_new;
        if let Goal::Separation { threshold } = goal {
            if vv <= threshold * threshold {
                break GjkStatus::Converged;
            }
        }
    };

    if let Some(cache) = cache {
        cache.store(&simplex);
        cache.hint_a = hint_a;
        cache.hint_b = hint_b;
    }

    let (mut lower, mut upper) = (lower_cert, vv.sqrt());
    let slack = rounding_slack(&simplex);
    let mut status = status;
    if !(slack.is_finite() && upper.is_finite()) {
        // The last support points overflowed when squared (see the loop's first test).
        status = GjkStatus::NonFiniteSupport;
    }
    if status == GjkStatus::NonFiniteSupport {
        return CoreResult { simplex, lower: V::Real::ZERO, upper: V::Real::INFINITY, iterations, status };
    }
    if status == GjkStatus::Overlapping {
        // Enclosing the origin proves the overlap; |v| at the rounding floor proves only
        // that the distance is below rounding.
        lower = V::Real::ZERO;
        upper = if simplex.count == V::DIM + 1 { V::Real::ZERO } else { upper + slack };
    } else {
        lower = lower.max(V::Real::ZERO);
        upper += slack;
        // The promise of `Converged` (see `query::distance`): the certified gap is within
        // the relative tolerance or 80 ulps of the coordinates (16 for GJK's own stopping
        // floor, 2 x 32 for the slack on each bound). A stall that meets it has converged
        // as far as the numbers allow.
        let promise = settings.rel_tolerance * upper;
        let floor = slack * V::Real::from_usize(80) / V::Real::from_usize(8 * (V::DIM + 1));
        if status == GjkStatus::Stalled && upper - lower <= promise.max(floor) {
            status = GjkStatus::Converged;
        }
    }
    CoreResult { simplex, lower, upper, iterations, status }
}

/// The upper bound and status of a GJK run that are right for its witnesses, `len` apart.
///
/// Points of a simplex closest to the origin are never farther apart than `|v|` in exact
/// arithmetic; when the witnesses are (beyond `r.upper`, which counts the rounding) the
/// solver's `v` was rounding on a sliver, and it bounds nothing: a cone's apex and rim
/// points beside a speck gave `|v|` 3.3e-4 for a true distance of 1.3e-3 (f32; fuzz,
/// `casts`). The points themselves are then the upper bound (with their own rounding), and
/// the run is `Converged` only if the bounds still meet its promise.
pub(crate) fn bounds_with_witnesses<V: Space>(
    r: &CoreResult<V>,
    len: V::Real,
    rel: V::Real,
) -> (V::Real, GjkStatus) {
    let farther = len > r.upper;
    if !farther || matches!(r.status, GjkStatus::Overlapping | GjkStatus::NonFiniteSupport) {
        return (r.upper, r.status);
    }
    widened_by_witnesses(r, len, rel)
}

#[cold]
#[inline(never)]
fn widened_by_witnesses<V: Space>(r: &CoreResult<V>, len: V::Real, rel: V::Real) -> (V::Real, GjkStatus) {
    let slack = rounding_slack(&r.simplex);
    let upper = len + slack;
    let floor = slack * V::Real::from_usize(80) / V::Real::from_usize(8 * (V::DIM + 1));
    let status = if r.status == GjkStatus::Converged && upper - r.lower > (rel * upper).max(floor) {
        GjkStatus::Stalled
    } else {
        r.status
    };
    (upper, status)
}

/// Whether `|v|` (`vv` its square) is below the certified lower bound beyond the rounding
/// of the simplex's points (out of line: only a failing solver gets here).
#[cold]
#[inline(never)]
fn below_certified<V: Space>(simplex: &Simplex<V>, vv: V::Real, lower_cert: V::Real) -> bool {
    vv.sqrt() + vertex_slack::<V>(simplex.max_norm_squared().sqrt()) < lower_cert
}

/// How far rounding can move the upper bound: v is a weighted sum of support points, each
/// computed through a pose, so its error is a few ulps of the coordinates involved, in
/// their proportions (of the points on A and B, not of their difference, which may be much
/// smaller; a far vertex of almost no weight adds almost nothing).
fn rounding_slack<V: Space>(simplex: &Simplex<V>) -> V::Real {
    V::Real::EPSILON * V::Real::from_usize(8 * (V::DIM + 1)) * simplex.weighted_norm_squared().sqrt()
}

/// How far rounding can move one support point's bound `v · w / |v|`: a few ulps of the
/// numbers that made `w` (its [`simplex::vertex_scale`], `scale`).
#[inline(always)]
fn vertex_slack<V: Space>(scale: V::Real) -> V::Real {
    V::Real::EPSILON * V::Real::from_usize(8 * (V::DIM + 1)) * scale
}

/// Shape B in A's frame with its rotation in applied (matrix) form: B's support is asked
/// for several times a query, each time rotating a direction in and a point out, and the
/// quaternion formula's chain of dependent cross products was the hottest code of GJK.
struct Placed<'a, V: Space, B: ?Sized> {
    shape: &'a B,
    rotation: <V::Rotation as Rotation<V>>::Applied,
    translation: V,
}

impl<'a, V: Space, B: Support<V> + ?Sized> Placed<'a, V, B> {
    #[inline(always)]
    fn new(shape: &'a B, pose: &Pose<V>) -> Self {
        Self { shape, rotation: pose.rotation.applied(), translation: pose.translation }
    }

    /// B's support point along `dir` (A's frame): placed in A's frame, and as B gave it
    /// in its own frame.
    #[inline(always)]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> (V, V) {
        let local = self.shape.support_hinted(V::Rotation::apply_inverse(&self.rotation, dir), hint);
        (self.place(local), local)
    }

    /// A point of B's frame placed in A's frame.
    #[inline(always)]
    fn place(&self, local: V) -> V {
        V::Rotation::apply(&self.rotation, local) + self.translation
    }

    #[inline(always)]
    fn interior_point(&self) -> V {
        V::Rotation::apply(&self.rotation, self.shape.interior_point()) + self.translation
    }
}
