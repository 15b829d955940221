//! Penetration depth of overlapping cores: the expanding polytope algorithm (EPA).
//!
//! Runs on the *cores* of two shapes in A's frame, after GJK has found that they overlap,
//! and finds the shortest translation of B that separates them: the point of the boundary
//! of the Minkowski difference `M = A ⊖ B` closest to the origin.
//!
//! The algorithm is van den Bergen's (2001, "Proximity queries and penetration depth
//! computation on 3D game objects", GDC; also his book "Collision Detection in Interactive
//! 3D Environments", 2003, §4.3.3), organized the way Jolt's `EPAPenetrationDepth.h` does
//! it: grow GJK's final simplex into a polytope that holds the origin (`blow_up`, shared by
//! 2D and 3D), then repeatedly split the face closest to the origin with the support point
//! along its normal (`epa2d.rs`, `epa3d.rs`).
//!
//! Bounds: every face of the polytope is made of points of `M`, so (the polytope being
//! convex and holding the origin) the distance of the closest face is a **lower bound** of
//! the depth; the support distance along any unit `u`, `h(u) = max_A x·u − min_B x·u`, is
//! the depth *along* `u` and an **upper bound**. EPA stops when they meet within
//! [`rel_tolerance`] (`1e-5` relative in `f32`, `1e-10` in `f64`) or within the rounding of
//! the coordinates (`NOISE_ULPS` ulps of the largest support point coordinate).

use crate::query::Space;
pub(crate) mod epa2d;
pub(crate) mod epa3d;

use crate::math::{Pose, Real, Rotation};
use crate::query::gjk::{Simplex, SimplexVertex};
use crate::shape::{Support, NO_HINT};

/// How EPA ended.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EpaStatus {
    /// The depth is within the tolerance of the true one (see the module docs): the upper
    /// and lower bounds met, or the cores touch within rounding (depth ~0).
    Converged,
    /// Rounding stopped progress first (a support point already in the polytope, a split
    /// that would break convexity); the answer is the best face found.
    Stalled,
    /// The iteration or vertex cap was reached; the answer is the best face found.
    MaxIterations,
    /// No polytope with volume could be built (touching or flat cores); the answer is a
    /// valid unit direction with the depth measured along it.
    Degenerate,
    /// A support function returned NaN or infinity: the other fields are placeholders
    /// (depth 0, the x axis, points at the origin), never NaN.
    NonFiniteSupport,
}

/// What EPA found, in A's frame.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct EpaResult<V: Space> {
    /// Penetration depth of the cores, `>= 0`: the distance of the best face (a lower
    /// bound of the true depth, within the tolerance of it when `Converged`).
    pub depth: V::Real,
    /// Unit direction from A towards B: translating B by `depth * normal` makes the cores
    /// touch. It is the outward normal of the best face of `A ⊖ B`.
    pub normal: V,
    /// The point of A's core deepest inside B: `point_a = point_b + depth * normal`.
    pub point_a: V,
    /// The point of B's core deepest inside A.
    pub point_b: V,
    /// EPA iterations (support calls of the main loop).
    pub iterations: u32,
    /// How it ended.
    pub status: EpaStatus,
}

/// Iteration cap of the main loop. Polytopes need ~5 to 30; a curved surface is
/// approached geometrically (in 3D the gap shrinks ~4x every 8 iterations on a sphere), so
/// reaching `1e-10` relative in `f64` takes ~140.
pub(crate) const MAX_ITERATIONS: u32 = 256;
/// Cap on the vertices of the polytope.
pub(crate) const MAX_VERTICES: usize = 260;
/// How many iterations in a row may leave the lower bound (the closest face's distance)
/// where it was before EPA stops as `Stalled`. Ties between faces at the same distance
/// (symmetric polytopes) take a few; rounding on a curved surface in `f32` takes forever.
pub(crate) const MAX_FLAT_STEPS: u32 = 16;
/// Rounding floor, in ulps of the largest coordinate of the support points: a gap or an
/// offset below it is noise.
const NOISE_ULPS: usize = 32;

/// The relative tolerance on the gap between the bounds: `1e-5` for `f32`, `1e-10` for
/// `f64` (polytopes converge exactly; curved shapes may stop as `Stalled` before it).
pub(crate) fn rel_tolerance<R: Real>() -> R {
    if R::EPSILON.to_f64() > 1e-10 {
        R::from_f64(1e-5)
    } else {
        R::from_f64(1e-10)
    }
}

/// The support mapping of the Minkowski difference of the cores in A's frame, with hints
/// for both shapes and the running scale of the support points (what rounding is measured
/// against).
pub(crate) struct Cores<'a, V: Space, A: ?Sized, B: ?Sized> {
    a: &'a A,
    b: &'a B,
    rotation: <V::Rotation as Rotation<V>>::Applied,
    translation: V,
    hint_a: u32,
    hint_b: u32,
    scale2: V::Real,
    /// The power of two every support point is multiplied by.
    scale: V::Real,
}

impl<'a, V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized> Cores<'a, V, A, B> {
    /// The cores of `a` and `b` seen at `scale` (see [`Scaled`]): every support point is
    /// multiplied by it, `simplex` must already be.
    pub(crate) fn new(a: &'a A, b: &'a B, pose_ab: &Pose<V>, simplex: &Simplex<V>, scale: V::Real) -> Self {
        let mut scale2 = (pose_ab.translation * scale).length_squared();
        for s in simplex.vertices() {
            scale2 = scale2.max(s.a.length_squared()).max(s.b.length_squared());
        }
        Self {
            a,
            b,
            rotation: pose_ab.rotation.applied(),
            translation: pose_ab.translation,
            hint_a: NO_HINT,
            hint_b: NO_HINT,
            scale2,
            scale,
        }
    }

    /// The support point of `A ⊖ B` along `dir` (any length), with its parts.
    #[inline]
    pub(crate) fn support(&mut self, dir: V) -> SimplexVertex<V> {
        let pa = self.a.support_hinted(dir, &mut self.hint_a);
        let local = self.b.support_hinted(V::Rotation::apply_inverse(&self.rotation, -dir), &mut self.hint_b);
        let pb = V::Rotation::apply(&self.rotation, local) + self.translation;
        let (pa, pb) = (pa * self.scale, pb * self.scale);
        let m = pa.length_squared().max(pb.length_squared());
        if m > self.scale2 {
            self.scale2 = m;
        }
        SimplexVertex { w: pa - pb, a: pa, b: pb }
    }

    /// The rounding floor of distances between support points (see `NOISE_ULPS`).
    #[inline]
    pub(crate) fn noise(&self) -> V::Real {
        V::Real::EPSILON * V::Real::from_usize(NOISE_ULPS) * self.scale2.sqrt()
    }
}

/// One EPA iteration as recorded by a traced [`crate::query::contact`], in A's local frame
/// (the frame GJK and EPA work in): the polytope around the origin, its face closest to the
/// origin (whose distance is a lower bound on the cores' penetration depth along its
/// normal) and the support point found along that normal.
#[derive(Clone, Debug, PartialEq)]
pub struct EpaStep<V: Space> {
    /// The polytope's faces: edges `[p, q]` in 2D (counter-clockwise), triangles in 3D.
    pub faces: Vec<Vec<V>>,
    /// Which face is closest to the origin.
    pub closest: usize,
    /// Its outward unit normal.
    pub normal: V,
    /// Its distance from the origin.
    pub lower: V::Real,
    /// The support point of the Minkowski difference of the cores along `normal`.
    pub w: V,
}

/// EPA at a scale near 1. Its face normals are cross products of differences of support
/// points and its tests compare their squares with products of squared edge lengths: the
/// fourth and sixth powers of the shapes' size, which underflow for shapes of 1e-12 in
/// `f32` (a contact with NaN points and a normal 0.99 long, `tests/regressions_scale.rs`)
/// and overflow for huge ones. So EPA runs on the support points multiplied by a power of
/// two that brings the largest GJK point near 1 (exact: every operation then rounds as
/// it would have at the original scale, minus the underflow and overflow), and its answer
/// is divided back.
pub(crate) struct Scaled<V: Space> {
    /// The power of two the points are multiplied by.
    pub(crate) scale: V::Real,
    /// GJK's simplex at that scale.
    pub(crate) simplex: Simplex<V>,
}

impl<V: Space> Scaled<V> {
    /// The scale of GJK's `simplex` and `pose_ab`, or of `reach` (a size of the shapes)
    /// when larger.
    pub(crate) fn new(pose_ab: &Pose<V>, simplex: &Simplex<V>, reach: V::Real) -> Self {
        let mut m = pose_ab.translation.length_squared().max(reach * reach);
        for v in simplex.vertices() {
            m = m.max(v.a.length_squared()).max(v.b.length_squared());
        }
        // A largest norm of 0 (everything at the origin), or beyond the floats, stays as is.
        let m = m.sqrt();
        let scale = if m > V::Real::ZERO && m.is_finite() { m.recip_pow2() } else { V::Real::ONE };
        let mut simplex = *simplex;
        for v in &mut simplex.verts[..simplex.count] {
            *v = SimplexVertex { w: v.w * scale, a: v.a * scale, b: v.b * scale };
        }
        for s in &mut simplex.scales[..simplex.count] {
            *s *= scale;
        }
        simplex.v = simplex.v * scale;
        Self { scale, simplex }
    }

    /// `r` (computed at the scale) at the original scale.
    pub(crate) fn unscale(&self, r: EpaResult<V>) -> EpaResult<V> {
        let back = V::Real::ONE / self.scale;
        EpaResult { depth: r.depth * back, point_a: r.point_a * back, point_b: r.point_b * back, ..r }
    }
}

/// EPA (`run`, the 2D or 3D one) at the scale GJK's points give (see [`Scaled`]), and
/// again at the scale of the shapes when it met support points far larger.
///
/// GJK's points alone can be far smaller than the shapes: a simplex that stopped at a point
/// 1e-12 from the origin, where shapes 1e17 long touch, in f32. Scaled up to 1 by that point,
/// the shapes' points were 1e28 and EPA's cross products of them overflowed: it answered a
/// depth of 1e17 along the shapes' length (fuzz target `queries`). The retry costs nothing
/// in the common case, where the points met stay within a few times GJK's.
pub(crate) fn at_scale<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    simplex: &Simplex<V>,
    mut trace: Option<&mut Vec<EpaStep<V>>>,
    run: impl Fn(&mut Cores<'_, V, A, B>, &Scaled<V>, Option<&mut Vec<EpaStep<V>>>) -> EpaResult<V>,
) -> EpaResult<V> {
    let first_step = trace.as_ref().map_or(0, |t| t.len());
    let scaled = Scaled::new(pose_ab, simplex, V::Real::ZERO);
    let mut cores = Cores::new(a, b, pose_ab, &scaled.simplex, scaled.scale);
    let r = run(&mut cores, &scaled, trace.as_deref_mut());
    // Support points met beyond 2^20 (at the scale, where GJK's largest is about 1), or
    // whose squares overflowed: their products of degree 4 and 6 near or past the limits of
    // f32. Run again at the scale of the shapes' reach along the axes.
    let seen = cores.scale2.sqrt();
    if scaled.scale > V::Real::ONE && (seen > V::Real::from_f64(1048576.0) || !seen.is_finite()) {
        if let Some(t) = trace.as_deref_mut() {
            t.truncate(first_step);
        }
        let mut reach = V::Real::ZERO;
        for i in 0..V::DIM {
            for d in [V::axis(i), -V::axis(i)] {
                let on_b = pose_ab.transform_point(b.support(pose_ab.inverse_transform_vector(d)));
                reach =
                    reach.max(a.support(d).abs_elem().max_component()).max(on_b.abs_elem().max_component());
            }
        }
        let again = Scaled::new(pose_ab, simplex, reach);
        let mut cores = Cores::new(a, b, pose_ab, &again.simplex, again.scale);
        return again.unscale(run(&mut cores, &again, trace));
    }
    scaled.unscale(r)
}

/// `true` when every coordinate of the vertex is finite.
#[inline]
pub(crate) fn finite<V: Space>(s: &SimplexVertex<V>) -> bool {
    s.w.is_finite_vec() && s.a.is_finite_vec() && s.b.is_finite_vec()
}

/// The answer when a support function returned NaN or infinity: placeholders, never NaN.
pub(crate) fn non_finite<V: Space>(iterations: u32) -> EpaResult<V> {
    EpaResult {
        depth: V::Real::ZERO,
        normal: V::axis(0),
        point_a: V::ZERO,
        point_b: V::ZERO,
        iterations,
        status: EpaStatus::NonFiniteSupport,
    }
}

/// The answer from a face of the polytope: its unit outward `normal`, its distance
/// `depth` and the barycentric weights `lambda` of the origin's projection on it (`>= 0`,
/// summing to 1) over its vertices `verts`.
pub(crate) fn from_face<V: Space>(
    verts: &[SimplexVertex<V>],
    lambda: &[V::Real],
    normal: V,
    depth: V::Real,
    iterations: u32,
    status: EpaStatus,
) -> EpaResult<V> {
    let depth = depth.max(V::Real::ZERO);
    let (mut pa, mut pb) = (V::ZERO, V::ZERO);
    for (s, &l) in verts.iter().zip(lambda) {
        pa += s.a * l;
        pb += s.b * l;
    }
    // `pa - pb` is the projection of the origin on the face, `depth * normal` up to
    // rounding: split the difference so that `point_a - point_b` is exactly along the
    // normal and each point moves by half the rounding.
    let mid = (pa + pb) * V::Real::HALF;
    let half = normal * (depth * V::Real::HALF);
    EpaResult { depth, normal, point_a: mid + half, point_b: mid - half, iterations, status }
}

/// Barycentric weights clamped to `>= 0` and renormalized (rounding can push the
/// projection of the origin a hair outside the closest face).
pub(crate) fn clamp_weights<R: Real>(lambda: &mut [R]) {
    let mut sum = R::ZERO;
    for l in lambda.iter_mut() {
        *l = l.max(R::ZERO);
        sum += *l;
    }
    if sum > R::ZERO && sum.is_finite() {
        for l in lambda.iter_mut() {
            *l = *l / sum;
        }
    } else {
        let n = R::from_usize(lambda.len());
        for l in lambda.iter_mut() {
            *l = R::ONE / n;
        }
    }
}

/// Where `blow_up` left things: a full simplex (`DIM + 1` affinely independent support
/// points whose hull holds the origin, possibly on its boundary) for the main loop, or the
/// final answer already (touching cores, flat cores, bad support).
pub(crate) enum Start<V: Space> {
    Simplex([SimplexVertex<V>; 4]),
    Done(EpaResult<V>),
}

/// Grows GJK's final simplex into a full-dimensional simplex that holds the origin.
///
/// GJK stops as soon as the origin is in its simplex, which may then be a point, a segment
/// or a triangle (touching cores, or a symmetric configuration such as identical shapes at
/// the same pose). Each missing dimension is added with the support points along both
/// signs of a direction `u` square to the current simplex: the origin lies in the simplex,
/// so `±u·s` is the depth along `±u`. If either is at the rounding floor the cores touch
/// and the depth is 0 along it (the depth is `>= 0` because the cores overlap, and at most
/// the depth along any direction): that is the answer, `Converged`. Otherwise the farther
/// of the two is added; the origin then lies on the boundary of the larger simplex, which
/// is all EPA needs (its closest face has distance 0 and is split first).
pub(crate) fn blow_up<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    cores: &mut Cores<'_, V, A, B>,
    simplex: &Simplex<V>,
) -> Start<V> {
    let mut s = *simplex;
    if s.count == 0 {
        let v = cores.support(V::axis(0));
        s.push(v);
        s.lambdas[0] = V::Real::ONE;
    }
    if !s.vertices().iter().all(finite) {
        return Start::Done(non_finite(0));
    }
    // Keep the vertices that hold the origin's closest point (GJK's sub-algorithm): they are
    // affinely independent, up to its flatness test.
    let sub = V::solve_simplex(&s);
    s.reduce_to(&sub);
    let (touch_a, _) = s.witnesses();
    let zero = V::Real::ZERO;
    // The best direction tried (least depth along it), for the degenerate answer.
    let mut best: Option<(V::Real, V, SimplexVertex<V>)> = None;
    while s.count < V::DIM + 1 {
        let u = orthogonal(&s.verts[..s.count]);
        let Some(u) = u else {
            break;
        };
        let plus = cores.support(u);
        let minus = cores.support(-u);
        if !finite(&plus) || !finite(&minus) {
            return Start::Done(non_finite(0));
        }
        let noise = cores.noise();
        let (hp, hm) = (u.dot(plus.w), -u.dot(minus.w));
        for (h, dir, sv) in [(hp, u, plus), (hm, -u, minus)] {
            if best.is_none_or(|(bh, ..)| h < bh) {
                best = Some((h, dir, sv));
            }
            if h <= noise {
                // Touching (within rounding) along `dir`: depth 0 there, and it cannot be
                // less. The contact point is GJK's (the origin's preimage on A).
                let depth = h.max(zero);
                return Start::Done(EpaResult {
                    depth,
                    normal: dir,
                    point_a: touch_a,
                    point_b: touch_a - dir * depth,
                    iterations: 0,
                    status: EpaStatus::Converged,
                });
            }
        }
        let w0 = s.verts[0].w;
        let (off_p, off_m) = (u.dot(plus.w - w0), -u.dot(minus.w - w0));
        let (off, sv) = if off_p >= off_m { (off_p, plus) } else { (off_m, minus) };
        if off <= noise {
            break;
        }
        s.push(sv);
    }
    if s.count == V::DIM + 1 {
        return Start::Simplex(s.verts);
    }
    // No volume: answer along the best direction tried, the depth measured along it.
    let (h, normal, sv) = match best {
        Some(b) => b,
        None => {
            let sv = cores.support(V::axis(0));
            if !finite(&sv) {
                return Start::Done(non_finite(0));
            }
            (sv.w[0], V::axis(0), sv)
        }
    };
    let depth = h.max(zero);
    Start::Done(EpaResult {
        depth,
        normal,
        point_a: sv.a,
        point_b: sv.a - normal * depth,
        iterations: 0,
        status: EpaStatus::Degenerate,
    })
}

/// A unit direction square to the affine hull of 1 to `DIM` points (any direction for a
/// point), or `None` when the points are too close to collinear to define one.
fn orthogonal<V: Space>(p: &[SimplexVertex<V>]) -> Option<V> {
    let u = match p.len() {
        1 => return Some(V::axis(0)),
        2 => {
            let d = p[1].w - p[0].w;
            if d.length_squared() <= V::Real::ZERO {
                return Some(V::axis(0));
            }
            d.any_orthogonal()
        }
        _ => {
            let n = (p[1].w - p[0].w).cross_or_zero(p[2].w - p[0].w);
            // `length_safe`: the cross product of a tiny segment pair (a triangle 0.25 long
            // touching a cylinder 1e-12 across, in f32) has a subnormal square, whose root
            // made a contact normal 0.987 long (fuzz, `tests/regressions_scale.rs`).
            let l = n.length_safe();
            if l <= V::Real::ZERO || !l.is_finite() {
                return None;
            }
            n / l
        }
    };
    u.is_finite_vec().then_some(u)
}

/// No face with a trustworthy normal: the depth measured along the x axis (a valid unit
/// direction; the depth along it is an honest upper bound), `Degenerate`.
pub(crate) fn degenerate<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    cores: &mut Cores<'_, V, A, B>,
    iterations: u32,
) -> EpaResult<V> {
    let n = V::axis(0);
    let s = cores.support(n);
    if !finite(&s) {
        return non_finite(iterations);
    }
    let depth = n.dot(s.w).max(V::Real::ZERO);
    EpaResult {
        depth,
        normal: n,
        point_a: s.a,
        point_b: s.a - n * depth,
        iterations,
        status: EpaStatus::Degenerate,
    }
}

/// The least support value of `A ⊖ B` seen along a searched direction: moving B by `h · n`
/// makes the cores touch, so `h` bounds the depth from above and `n` separates.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Upper<V: Space> {
    h: V::Real,
    n: V,
    a: V,
}

/// Keeps the least of the support values `n · s.w` seen (`n` unit).
#[inline]
pub(crate) fn track_upper<V: Space>(upper: &mut Option<Upper<V>>, n: V, s: &SimplexVertex<V>) {
    let h = n.dot(s.w);
    if upper.is_none_or(|u| h < u.h) {
        *upper = Some(Upper { h, n, a: s.a });
    }
}

/// The answer when EPA stops before converging (`Stalled`, `MaxIterations`): the searched
/// direction with the least support value, which is a valid separating direction (moving
/// B by the reported depth along it makes the cores touch), where the closest face would
/// only give a lower bound whose direction may not separate at all (a cone's rim seen
/// from inside stalls that way). `point_a` is A's extreme point along the normal and
/// `point_b = point_a - depth · normal` lies on B's supporting plane. Without a searched
/// direction, the face answer `face`.
pub(crate) fn unfinished<V: Space>(
    upper: Option<Upper<V>>,
    face: EpaResult<V>,
    status: EpaStatus,
) -> EpaResult<V> {
    match upper {
        Some(u) => {
            let depth = u.h.max(V::Real::ZERO);
            EpaResult {
                depth,
                normal: u.n,
                point_a: u.a,
                point_b: u.a - u.n * depth,
                iterations: face.iterations,
                status,
            }
        }
        None => EpaResult { status, ..face },
    }
}
