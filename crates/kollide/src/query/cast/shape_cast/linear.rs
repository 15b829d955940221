//! The linear shape cast: GJK ray casting on the Minkowski difference of the cores.
//!
//! Algorithm: van den Bergen, "Ray Casting against General Convex Objects with Application
//! to Continuous Collision Detection" (2004), with the radii and the target distance
//! handled as a skin around the cores (the way Box2D v3's `b2ShapeCast` does). Written here
//! from the paper's argument:
//!
//! In A's frame (A held still, B moving at the relative velocity `r`), B's points at time
//! `t` are `b + t r`, so the shapes are within `R` (radii plus target) at `t` exactly when
//! the point `x = t r` is within `R` of the Minkowski difference `D = A ⊖ B` (the cores at
//! time 0). For any direction `v`, the support point `p` of `D` along `v` puts all of `D` on
//! the far side of the plane through `p` normal to `v`; while `x` is more than `R` beyond
//! that plane the shapes cannot be within `R`, and `x` reaches it no earlier than
//! `(p·v + R|v|) / (r·v)` (never when `r·v >= 0`). Each step takes the point of the current
//! simplex closest to `x`, advances `t` to that bound when the plane allows it, and adds the
//! support point to the simplex. The time only ever moves to a proven lower bound of the
//! time of impact, so the cast never tunnels; it stops when the simplex realizes a distance
//! within the tolerance of `R`.

use crate::math::{Pose, Real, Rotation};
use crate::query::cast::motion::{CastOutput, CastStatus, CastStep};
use crate::query::cast::numeric::{gt, le, unit_or, unit_or_safe};
use crate::query::gjk::{self, GjkSettings, Goal, Simplex, SimplexVertex};
use crate::query::Space;
use crate::shape::Support;

/// Iteration cap of the GJK ray cast (support points). Polytopes need about as many as
/// GJK's distance (fewer than 10 for boxes and small hulls); smooth shapes converge
/// linearly and need a few tens at the f64 tolerance.
pub(crate) const MAX_RAY_ITERATIONS: u32 = 96;

/// Supports along v that may fail to prove it the contact normal, at one time, before the
/// best proven direction is taken instead.
const MAX_UNPROVEN: u32 = 3;

/// The most extra support points spent at a hit to prove the contact normal (see `cast`).
const SETTLE_ITERATIONS: usize = 16;

/// The most fresh distance queries a cast spends where rounding stalls its simplex.
const MAX_RESCUES: u32 = 8;

/// The rounding floor of the tolerance, in units of `ε M` (see [`tolerance`]).
pub(crate) const FLOOR_ULPS: usize = 8;

/// How the GJK ray cast ended, in A's frame at time 0 (B's points shifted to time `toi`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum LinearOutcome<V: Space> {
    /// The shapes are within the target (plus the tolerance) at time 0: the caller decides
    /// from the contact there whether this is a start within or a miss.
    Within,
    /// First time within the target, with the closest points (radii added) and the unit
    /// normal from A to B, in A's frame.
    Hit { toi: V::Real, point_a: V, point_b: V, normal: V, distance: V::Real, iterations: u32 },
    /// Proven farther than the target over the whole interval.
    Miss { iterations: u32, distance: V::Real },
    /// Cap, stall or non-finite numbers: the shapes are proven apart up to `safe_toi`.
    Failed { safe_toi: V::Real, iterations: u32, distance: V::Real },
}

/// The tolerance on the distance at the time of impact: `rel × (R + L) + 8 ε M`, `R` the
/// radii plus the target, `L` the size of the cores (the largest distance of a support
/// point from its shape's origin), `M` the size of the coordinates involved (sizes plus
/// offsets: the rounding floor, [`FLOOR_ULPS`] ulps of it).
#[inline]
pub(crate) fn tolerance<R: Real>(radius: R, size: R, scale: R) -> R {
    R::GJK_REL_TOLERANCE * (radius + size) + R::EPSILON * R::from_usize(FLOOR_ULPS) * scale
}

/// The GJK ray cast of B (placed by `pose_ab` in A's frame, moving at `r` in that frame)
/// against A over `[0, max_toi]`, to the distance `target` between the surfaces.
pub(crate) fn cast<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    r: V,
    max_toi: V::Real,
    target: V::Real,
    mut trace: Option<&mut Vec<CastStep<V>>>,
) -> LinearOutcome<V> {
    let zero = V::Real::ZERO;
    let (ra, rb) = (a.radius(), b.radius());
    let radius = ra + rb + target;
    let rot = pose_ab.rotation.applied();
    let place = |local: V| V::Rotation::apply(&rot, local) + pose_ab.translation;
    let (mut hint_a, mut hint_b) = (crate::shape::NO_HINT, crate::shape::NO_HINT);
    // The support point of D along `dir`: A's farthest along dir, B's farthest against it
    // (B at time 0, A's frame).
    let mut support = |dir: V| {
        let pa = a.support_hinted(dir, &mut hint_a);
        let pb = place(b.support_hinted(V::Rotation::apply_inverse(&rot, -dir), &mut hint_b));
        (pa, pb)
    };

    let mut simplex = Simplex::<V>::default();
    let mut lambda = zero;
    let mut x = V::ZERO;
    // The normal of the last plane the time advanced to (A towards B).
    let mut plane_normal = V::ZERO;
    // First direction: from a point of D towards x (x = 0).
    let guess = place(b.interior_point()) - a.interior_point();
    let mut v = if guess.length_squared() > zero { guess } else { V::axis(0) };
    let mut scale2 = zero;
    let mut size2 = zero;
    let mut iterations = 0u32;
    let mut have_v = false;
    let mut rescues = 0u32;
    // The direction of the last support sought, and that support's point of D (less B's
    // shift): the gap it proves along the direction is read at a hit (see `hit_normal`).
    let (mut last_dir, mut last_p) = (V::ZERO, V::ZERO);
    // The tolerance for the sizes seen so far (set with each support).
    let mut tol = zero;
    // Realized within the band, with v yet to be proven the normal by the next support.
    let mut pending = false;
    // Supports along v that failed to prove it the normal at this time.
    let mut unproven = 0u32;
    loop {
        if have_v {
            let vv = v.length_squared();
            // (`tol` as of the last support: the sizes have not changed since.)
            // Realized within half the tolerance: hits are reported at most `tol / 2` beyond
            // the target, so that a path grazing the band (whose time is ill-conditioned)
            // still stops where any reading of the tolerance calls it touching.
            let reach = radius + tol * V::Real::HALF;
            if simplex.count == V::DIM + 1 || vv <= reach * reach {
                // Realized within the target (plus tolerance) at `lambda`.
                if lambda == zero {
                    return LinearOutcome::Within;
                }
                // The time is found, but `v` is the contact normal only where it points along
                // a separating direction: a path grazing a vertex or an edge of D stops the
                // search as soon as the simplex comes within the band, and `v` may then point
                // anywhere from that corner (into the shapes, even). The last support proves
                // it when v has not turned from where it was sought (see `proven_by_last`);
                // otherwise the next support, along v, is asked to (below), and the search
                // goes on at this time until one does.
                if simplex.count == V::DIM + 1 {
                    // The cores overlap to rounding: the best direction proven on the way.
                    let pair = |dir| support_pair(a, b, (rot, pose_ab.translation), dir);
                    let proofs = Proofs { last: (last_dir, last_p), plane: plane_normal };
                    let (normal, v) = fallback_normal(&mut simplex, &pair, x, v, proofs, radius, tol, scale2);
                    return hit(&simplex, normal, v.length(), (ra, rb), lambda, iterations);
                }
                if proven_by_last(v, vv, (last_dir, last_p), x, radius, tol, scale2) {
                    let vlen = vv.sqrt();
                    return hit(&simplex, v / vlen, vlen, (ra, rb), lambda, iterations);
                }
                pending = true;
            }
        }
        if iterations >= MAX_RAY_ITERATIONS {
            if pending {
                // Within the band at this time, with no support along v proving it the
                // normal (rounding in f32 turns v by more than the proof allows): the time
                // is found, the normal is the best direction proven on the way.
                let pair = |dir| support_pair(a, b, (rot, pose_ab.translation), dir);
                let proofs = Proofs { last: (last_dir, last_p), plane: plane_normal };
                let (normal, v) = fallback_normal(&mut simplex, &pair, x, v, proofs, radius, tol, scale2);
                return hit(&simplex, normal, v.length(), (ra, rb), lambda, iterations);
            }
            return LinearOutcome::Failed { safe_toi: lambda, iterations, distance: v.length() - ra - rb };
        }
        let (pa, pb0) = support(v);
        iterations += 1;
        if !pa.is_finite_vec() || !pb0.is_finite_vec() || !v.is_finite_vec() {
            return LinearOutcome::Failed { safe_toi: lambda, iterations, distance: zero };
        }
        scale2 = scale2.max(pa.length_squared()).max(pb0.length_squared()).max(x.length_squared());
        size2 = size2.max(pa.length_squared()).max((pb0 - pose_ab.translation).length_squared());
        let p = pa - pb0;
        let vlen = v.length();
        tol = tolerance(radius, size2.sqrt(), scale2.sqrt());
        // Aim a quarter of the tolerance above the target: rounding then never carries the
        // time past the first touch, and there is always a separating direction (Box2D's
        // skin).
        let aim = radius + tol * V::Real::from_f64(0.25);
        let duplicate =
            simplex.vertices().iter().zip(&simplex.local_b).any(|(s, &b0)| s.a == pa && b0 == pb0);
        if pending {
            // v realized the band: it is the normal where the support along it shows a gap
            // within half the tolerance of |v|.
            let gap = (x - p).dot(v);
            // (The rounding of that gap: a few ulps of the coordinates. Its proof holds
            // however small v is, which in f32 is within rounding of the origin at a gap
            // of the tolerance.)
            let noise = V::Real::EPSILON * V::Real::from_usize(16) * scale2.sqrt();
            if vlen > zero && vlen * vlen - gap <= (tol * V::Real::HALF + noise) * vlen {
                return hit(&simplex, v / vlen, vlen, (ra, rb), lambda, iterations);
            }
            pending = false;
            unproven += 1;
            if unproven >= MAX_UNPROVEN {
                // Rounding turns v at this distance (in f32, a polytope's v at a gap of
                // the tolerance is off by several degrees): the time is found, and the
                // normal is the best direction proven, this support's or the last plane's.
                let proofs = Proofs { last: (v, p), plane: plane_normal };
                let normal = best_proven(proofs, x, radius);
                return hit(&simplex, normal, vlen, (ra, rb), lambda, iterations);
            }
        }
        let mut advanced = false;
        if (x - p).dot(v) > aim * vlen {
            let vr = v.dot(r);
            if vr >= zero {
                // The whole ray stays beyond this plane.
                return LinearOutcome::Miss { iterations, distance: (x - p).dot(v) / vlen - ra - rb };
            }
            let next = (p.dot(v) + aim * vlen) / vr;
            if !le(next, max_toi) {
                return LinearOutcome::Miss { iterations, distance: (x - p).dot(v) / vlen - ra - rb };
            }
            plane_normal = v / vlen;
            // Rounding may put `next` at or a hair behind the time reached: time never
            // goes back, and a step rounded to nothing is no progress.
            if next > lambda {
                lambda = next;
                x = r * lambda;
                if !x.is_finite_vec() {
                    return LinearOutcome::Failed { safe_toi: lambda, iterations, distance: zero };
                }
                advanced = true;
                unproven = 0;
                // Re-express the simplex at the new time: B's points move with B.
                for i in 0..simplex.count {
                    let b = simplex.local_b[i] + x;
                    simplex.verts[i].b = b;
                    simplex.verts[i].w = simplex.verts[i].a - b;
                }
                simplex.refresh_scales();
            }
        }
        // This support's direction and point, for `hit_normal`.
        last_dir = v;
        last_p = p;
        if duplicate && !advanced {
            // Rounding blocks progress: the simplex's closest point is off by more than the
            // tolerance (a sliver of a simplex where the path grazes an edge or a vertex of D).
            // A fresh GJK at this time, certified, decides (see `rescue`): within the band,
            // the hit; otherwise the time advances to where the gap proven along its best
            // direction could close, and the search starts again from there.
            if rescues >= MAX_RESCUES {
                return LinearOutcome::Failed { safe_toi: lambda, iterations, distance: vlen - ra - rb };
            }
            rescues += 1;
            let at = Reached { lambda, plane_normal, v, iterations };
            match rescue(a, b, pose_ab, r, at, (radius, tol, aim, max_toi), scale2.sqrt()) {
                Rescued::Done(out) => return out,
                Rescued::Advance { lambda: next, normal, iterations: spent } => {
                    lambda = next;
                    x = r * lambda;
                    plane_normal = normal;
                    simplex = Simplex::<V>::default();
                    v = normal;
                    have_v = false;
                    unproven = 0;
                    iterations = spent;
                    continue;
                }
            }
        }
        if !duplicate {
            let b = pb0 + x;
            simplex.push_with_local(SimplexVertex { w: pa - b, a: pa, b }, pb0);
        }
        let sub = V::solve_simplex(&simplex);
        simplex.reduce_to(&sub);
        // The simplex's closest point to the origin is `c - x` (c on D): v = x - c.
        v = -sub.v;
        have_v = true;
        if let Some(steps) = trace.as_deref_mut() {
            // In A's frame at time `lambda` (B moved by `x`).
            let vlen = v.length();
            let normal = if vlen > zero { v / vlen } else { plane_normal };
            let (pa, pb) = simplex.witnesses();
            let (point_a, point_b) = (pa + normal * ra, pb - normal * rb);
            steps.push(CastStep { time: lambda, distance: vlen - ra - rb, point_a, point_b, normal });
        }
    }
}

/// The support pair of the cast along `dir` without hints (for the paths off the main loop,
/// which keeps its hints in registers): A's farthest point along `dir`, B's (placed by
/// `pose_ab`, at time 0) farthest against it.
#[inline(never)]
fn support_pair<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    (rot, t): (<V::Rotation as Rotation<V>>::Applied, V),
    dir: V,
) -> (V, V) {
    (a.support(dir), V::Rotation::apply(&rot, b.support(V::Rotation::apply_inverse(&rot, -dir))) + t)
}

/// The hit at time `lambda` with `normal`, the simplex's witnesses moved out by the radii.
#[inline]
fn hit<V: Space>(
    simplex: &Simplex<V>,
    normal: V,
    vlen: V::Real,
    (ra, rb): (V::Real, V::Real),
    lambda: V::Real,
    iterations: u32,
) -> LinearOutcome<V> {
    let (pa, pb) = simplex.witnesses();
    LinearOutcome::Hit {
        toi: lambda,
        point_a: pa + normal * ra,
        point_b: pb - normal * rb,
        normal,
        distance: vlen - ra - rb,
        iterations,
    }
}

/// What the search proved on the way: the direction of the last support sought with that
/// support's point of D (less B's shift), and the last advancing plane's normal (`V::ZERO`
/// for none), along which the cores are apart by the radii at least (by `aim` when the time
/// advanced to it, and the gap only grows with the time reached).
struct Proofs<V: Space> {
    last: (V, V),
    plane: V,
}

/// Whether the last support (sought along `last_dir`, found at `last_p`) proves `v` the
/// contact normal at `x`: it proved the cores apart by the radii along its direction, and
/// v points there to within `tol / (8 M)`, an angle that cannot lose a quarter of the
/// tolerance over D's extent.
#[inline]
fn proven_by_last<V: Space>(
    v: V,
    vv: V::Real,
    (last_dir, last_p): (V, V),
    x: V,
    radius: V::Real,
    tol: V::Real,
    scale2: V::Real,
) -> bool {
    let zero = V::Real::ZERO;
    // The gap between the cores that support proves along its direction, times its length.
    let last_gap = (x - last_p).dot(last_dir);
    let (ll, vl) = (last_dir.length_squared(), v.dot(last_dir));
    if !(last_gap >= zero && last_gap * last_gap >= radius * radius * ll && vl > zero && ll > zero) {
        return false;
    }
    // The part of v across the last direction (times `|l|²`), against the turn allowed:
    // formed as a difference of vectors, not of squared cosines, which keeps angles down
    // to the rounding where `1 - cos²` loses them below its square root; free of
    // divisions. Where the products leave the normal range (sizes past 1e5 or below 3e-4
    // in f32) the next support decides.
    let across = v * ll - last_dir * vl;
    let bound = tol * tol * vv * ll * ll;
    let in_range = bound >= V::Real::MIN_POSITIVE && bound < V::Real::INFINITY;
    in_range && across.length_squared() * V::Real::from_usize(64) * scale2 <= bound
}

/// The normal of a hit that no support along v proves (the simplex holds the origin, the
/// cores overlapping to rounding, or its closest point is off by rounding): `settle` from
/// the best direction proven on the way, the last support's or the last plane's (whose gap
/// is the radii at least).
#[allow(clippy::too_many_arguments)]
#[cold]
#[inline(never)]
fn fallback_normal<V: Space>(
    simplex: &mut Simplex<V>,
    support: &impl Fn(V) -> (V, V),
    x: V,
    v: V,
    proofs: Proofs<V>,
    radius: V::Real,
    tol: V::Real,
    scale2: V::Real,
) -> (V, V) {
    let noise = V::Real::EPSILON * V::Real::from_usize(1024) * scale2.sqrt();
    settle(simplex, support, x, v, proven_gap(proofs, x, radius), tol, noise)
}

/// Of the directions in `proofs`, the one with the larger gap proven between the cores at
/// `x`, with that gap (the plane's is the radii at least): `(-inf, 0)` for none.
fn proven_gap<V: Space>(proofs: Proofs<V>, x: V, radius: V::Real) -> (V::Real, V) {
    let zero = V::Real::ZERO;
    let (last_dir, last_p) = proofs.last;
    let proven = |(gap, dir): (V::Real, V)| {
        let len = dir.length();
        if len > zero && gap > -V::Real::INFINITY {
            (gap / len, dir / len)
        } else {
            (-V::Real::INFINITY, V::ZERO)
        }
    };
    let (p, l) = (proven((radius, proofs.plane)), proven(((x - last_p).dot(last_dir), last_dir)));
    if l.0 > p.0 {
        l
    } else {
        p
    }
}

/// The direction of [`proven_gap`], or the last one sought where neither is a direction.
#[cold]
#[inline(never)]
fn best_proven<V: Space>(proofs: Proofs<V>, x: V, radius: V::Real) -> V {
    let last = proofs.last.0;
    match proven_gap(proofs, x, radius) {
        (_, dir) if dir != V::ZERO => dir,
        _ => unit_or_safe(last, V::axis(0)),
    }
}

/// The contact normal of a hit at `x` (B's shift at the time found): the time is right, but
/// `v` is the normal only where it points along a separating direction. A path grazing a
/// vertex or an edge of D stops the search as soon as the simplex comes within the
/// tolerance, and `v` may then point anywhere from that corner (into the shapes, even). GJK
/// goes on at this time until the support along `v` proves a gap along it within half the
/// tolerance; the normal is then `v`, else the direction of the largest gap proven (`plane`,
/// the last advancing plane's gap and normal, to start with). Returns the normal and the
/// final `v` (the simplex is left with it).
#[inline(never)]
fn settle<V: Space>(
    simplex: &mut Simplex<V>,
    support: &impl Fn(V) -> (V, V),
    x: V,
    mut v: V,
    plane: (V::Real, V),
    tol: V::Real,
    noise: V::Real,
) -> (V, V) {
    let zero = V::Real::ZERO;
    let mut best = plane;
    // The gap proven along the current v (none yet).
    let mut gap_v = -V::Real::INFINITY;
    for _ in 0..SETTLE_ITERATIONS {
        let vv = v.length_squared();
        if simplex.count == V::DIM + 1 || !gt(vv, zero) {
            break;
        }
        let (pa, pb0) = support(v);
        if !pa.is_finite_vec() || !pb0.is_finite_vec() {
            break;
        }
        let w = pa - (pb0 + x);
        let vlen = vv.sqrt();
        // The gap between the shapes' cores along v, proven by the support pair.
        let gap = -w.dot(v) / vlen;
        gap_v = gap;
        if gap > best.0 {
            best = (gap, v / vlen);
        }
        // Proven within half the tolerance: v is a separating direction to it, and is kept
        // (iterating further on a flat contact only turns it within the tolerance's slack,
        // by up to `√(tol / size)`).
        if vlen - gap <= tol * V::Real::HALF + noise {
            break;
        }
        if simplex.vertices().iter().zip(&simplex.local_b).any(|(s, &b0)| s.a == pa && b0 == pb0) {
            break;
        }
        simplex.push_with_local(SimplexVertex { w, a: pa, b: pb0 + x }, pb0);
        let sub = V::solve_simplex(simplex);
        simplex.reduce_to(&sub);
        v = -sub.v;
        gap_v = -V::Real::INFINITY;
    }
    let vlen = v.length();
    // A v well above the rounding whose gap is proven within the tolerance is the normal;
    // otherwise the direction of the largest proven gap.
    let normal = if vlen > noise && gap_v >= vlen - tol {
        v / vlen
    } else if best.1 != V::ZERO {
        best.1
    } else if vlen > zero {
        v / vlen
    } else {
        plane.1
    };
    (normal, v)
}

/// Where the search stands when rounding stalls it.
struct Reached<V: Space> {
    lambda: V::Real,
    plane_normal: V,
    v: V,
    iterations: u32,
}

/// What a rescue decided: the answer, or the time to go on from with the direction proven
/// there (and the support points spent so far).
enum Rescued<V: Space> {
    Done(LinearOutcome<V>),
    Advance { lambda: V::Real, normal: V, iterations: u32 },
}

/// Where rounding stalls the ray cast's simplex (a sliver of a simplex where the path grazes
/// an edge or a vertex of D, its closest point off by more than the tolerance): GJK afresh
/// on the cores at the time reached, certified, decides. Within the band (`radius + tol /
/// 2`), the hit, its normal from GJK's simplex (not from witness points: at a gap of 1e-9
/// their rounding turns their direction by 1e-7, enough to make the shapes overlap along
/// it). Otherwise, of that direction, `v` and the last plane's normal, the one with the
/// largest gap its support pair proves between the cores (less rounding): the time
/// advances to where that gap could close at the closing speed along it (`aim` above the
/// radii), or the path misses. Where that gap is below `aim` (no time to advance to) but
/// GJK's bound is within the full tolerance and the gap the radii to half of it, the hit,
/// with that direction: rounding on slivers keeps the bound above half the tolerance in f32.
/// Otherwise `Failed`, with the time reached (safe: proven apart until then).
#[cold]
#[inline(never)]
fn rescue<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    r: V,
    at: Reached<V>,
    (radius, tol, aim, max_toi): (V::Real, V::Real, V::Real, V::Real),
    scale: V::Real,
) -> Rescued<V> {
    let zero = V::Real::ZERO;
    let (ra, rb) = (a.radius(), b.radius());
    let (lambda, x) = (at.lambda, r * at.lambda);
    let failed = |iterations| {
        Rescued::Done(LinearOutcome::Failed {
            safe_toi: lambda,
            iterations,
            distance: at.v.length() - ra - rb,
        })
    };
    let placed = Pose::new(pose_ab.translation + x, pose_ab.rotation);
    let core = gjk::run(a, b, &placed, None, &GjkSettings::default(), Goal::Distance, None);
    let iterations = at.iterations + core.iterations;
    let mut best = (-V::Real::INFINITY, V::ZERO);
    for dir in [-core.simplex.closest(), at.v, at.plane_normal] {
        let len = dir.length();
        if !gt(len, zero) || !dir.is_finite_vec() {
            continue;
        }
        let n = dir / len;
        let (qa, qb0) = support_pair(a, b, (pose_ab.rotation.applied(), pose_ab.translation), n);
        let gap = (qb0 + x - qa).dot(n) - V::Real::EPSILON * V::Real::from_usize(FLOOR_ULPS) * scale;
        if gap > best.0 {
            best = (gap, n);
        }
    }
    let (gap, n) = best;
    let placed_hit = |n: V| {
        let (pa, pb) = core.simplex.witnesses();
        Rescued::Done(LinearOutcome::Hit {
            toi: lambda,
            point_a: pa + n * ra,
            point_b: pb - n * rb,
            normal: n,
            distance: core.upper.min((pb - pa).length()) - ra - rb,
            iterations,
        })
    };
    let found = core.status != crate::query::GjkStatus::NonFiniteSupport && lambda > zero && n != V::ZERO;
    if found && core.upper <= radius + tol * V::Real::HALF {
        return placed_hit(n);
    }
    if !gt(gap, aim) {
        // No time to advance to. The shapes are within the full tolerance by GJK's bound
        // (which rounding keeps above half of it in f32, on slivers) and apart along `n`
        // to half of it, less rounding: touching, by the band's wider reading, with `n` a
        // separating direction to the tolerance.
        if found && core.upper <= radius + tol && gap >= ra + rb - tol * V::Real::HALF {
            return placed_hit(n);
        }
        return failed(iterations);
    }
    let closing = -n.dot(r);
    if !gt(closing, zero) {
        // Apart along n, and never closer along it.
        return Rescued::Done(LinearOutcome::Miss { iterations, distance: gap - ra - rb });
    }
    let next = lambda + (gap - aim) / closing;
    if !le(next, max_toi) {
        return Rescued::Done(LinearOutcome::Miss { iterations, distance: gap - ra - rb });
    }
    if !gt(next, lambda) || !(r * next).is_finite_vec() {
        return failed(iterations);
    }
    Rescued::Advance { lambda: next, normal: n, iterations }
}

/// Two balls (point cores `p` and `q`, world frame) moving at `va` and `vb`: the first time
/// their surfaces come within `target`, from the quadratic `|q - p + t (vb - va)| = R`.
/// `None` when they are within `R` at time 0 (the caller decides from the contact).
#[allow(clippy::too_many_arguments)]
pub(crate) fn ball_ball<V: Space>(
    p: V,
    ra: V::Real,
    va: V,
    q: V,
    rb: V::Real,
    vb: V,
    max_toi: V::Real,
    target: V::Real,
) -> Option<CastOutput<V>> {
    let zero = V::Real::ZERO;
    let d0 = q - p;
    let r = vb - va;
    let scale = p.abs_elem().max_elem(q.abs_elem()).max_component() + ra + rb;
    let tol = tolerance(ra + rb + target, zero, scale);
    let dist0 = || d0.length() - ra - rb;
    if d0.length_squared() <= (ra + rb + target + tol) * (ra + rb + target + tol) {
        return None;
    }
    // Aim a quarter of the tolerance above the target, as the GJK cast does: rounding never
    // makes the time late.
    let radius = ra + rb + target + tol * V::Real::from_f64(0.25);
    let c = d0.length_squared() - radius * radius;
    let (a2, b) = (r.length_squared(), d0.dot(r));
    // b >= 0: not closing; disc < 0: passing by.
    let disc = b * b - a2 * c;
    if b >= zero || a2 == zero || disc < zero {
        return Some(CastOutput::miss(max_toi, dist0(), 0));
    }
    // The smaller root, in the form without cancellation: t = c / (-b + sqrt(disc)).
    let t = c / (-b + disc.sqrt());
    if !t.is_finite() || t > max_toi {
        return Some(CastOutput::miss(max_toi, dist0(), 0));
    }
    let (pt, qt) = (p + va * t, q + vb * t);
    // At the root the centres are `radius` apart (up to the rounding of t): dividing by it
    // instead of by |gap| saves a square root on the hot path; the normal is unit to a few
    // ulps. (Two point cores with no radius meet only head-on: the normal is the motion's.)
    // Unless the positions dwarf the radius: balls 2.7 wide at 3e9 in f32 have centres
    // placed to within hundreds of units, and the quotient was 1.41 long (found by the fuzz
    // target `mover`); then the gap is normalized by its own length.
    // A gap within the rounding of the positions has no direction of its own: balls 1e-100
    // across meeting at 0.14 got centres rounded to one point, and a zero normal (fuzz
    // target `casts`). Such balls meet as points do, head-on along the approach.
    let gap = qt - pt;
    let noise = V::Real::EPSILON * V::Real::from_usize(16) * scale;
    let head_on = || unit_or_safe(-r, V::axis(0));
    let normal =
        if radius > noise && gap.abs_elem().max_component() > noise { gap / radius } else { head_on() };
    let off = normal.length_squared() - V::Real::ONE;
    let normal = if off.abs() > V::Real::from_f64(1e-4) { unit_or(gap, normal) } else { normal };
    Some(CastOutput {
        status: CastStatus::Hit,
        toi: t,
        safe_toi: t,
        distance: radius - ra - rb,
        point_a: pt + normal * ra,
        point_b: qt - normal * rb,
        normal,
        face_normal: None,
        iterations: 0,
    })
}

/// How a cast of two segment cores ended (see [`segments`]).
pub(crate) enum SegmentCast<V: Space> {
    /// The answer.
    Done(CastOutput<V>),
    /// Within the band at time 0: the caller decides from the contact.
    Within,
    /// No proof of progress (rounding, or the iteration cap): the GJK cast decides.
    Undecided,
}

/// Most steps of [`segments`] (each at least halves the distance left to the band on a
/// curved approach; a flat one takes one).
const SEGMENT_STEPS: u32 = 32;

/// Two segment cores (balls' points and capsules' segments; world frame, `p` A's, `q`
/// B's; `size` the farthest of their points from their shapes' origins) moving at `va` and
/// `vb`: conservative advancement on their exact distance, from the
/// closed-form closest points. The distance `d(t)` is convex; with `n` the direction from
/// A's closest point to B's at `t`, every point of B - A at `t' > t` lies at least
/// `d(t) - (t' - t) (-n · (vb - va))` along `n` (the supporting plane of the difference at
/// `t`, moved with it), so stepping to where that bound reaches `R + tol / 4` never passes
/// the first touch, and repeats converge from below. The hit is taken within `tol / 2`
/// of the band, as in the GJK cast, with the closest points' direction as its normal: the
/// normal of both cores' features there and a separating direction by construction.
#[allow(clippy::too_many_arguments)]
pub(crate) fn segments<V: Space>(
    (p0, p1, ra): (V, V, V::Real),
    (q0, q1, rb): (V, V, V::Real),
    (va, vb): (V, V),
    size: V::Real,
    max_toi: V::Real,
    target: V::Real,
) -> SegmentCast<V> {
    use crate::query::closed_form::segment_segment;
    let zero = V::Real::ZERO;
    let radius = ra + rb + target;
    let r = vb - va;
    let coords = p0.abs_elem().max_elem(p1.abs_elem()).max_elem(q0.abs_elem()).max_elem(q1.abs_elem());
    let speed = va.abs_elem().max_elem(vb.abs_elem()).max_component();
    // The tolerance at time t: the coordinates' size grows as the cores move.
    let tol = |t: V::Real| tolerance(radius, size, coords.max_component() + speed * t + ra + rb);
    let reach = |t: V::Real| radius + tol(t) * V::Real::HALF;
    let closest = |t: V::Real| {
        let (da, db) = (va * t, vb * t);
        let (cp, cq) = segment_segment(p0 + da, p1 + da, q0 + db, q1 + db);
        (cp, cq, cq - cp)
    };
    let (_, _, mut gap) = closest(zero);
    let mut d = gap.length();
    if !d.is_finite() || !r.is_finite_vec() {
        return SegmentCast::Undecided;
    }
    if d <= reach(zero) {
        return SegmentCast::Within;
    }
    let mut t = zero;
    for step in 1..=SEGMENT_STEPS {
        let n = gap / d;
        let closing = -n.dot(r);
        if !gt(closing, zero) {
            // The distance never falls below its value here: apart for good.
            return SegmentCast::Done(CastOutput::miss(max_toi, d - ra - rb, step));
        }
        let aim = radius + tol(t) * V::Real::from_f64(0.25);
        let next = t + (d - aim) / closing;
        if !le(next, max_toi) {
            return SegmentCast::Done(CastOutput::miss(max_toi, d - ra - rb, step));
        }
        if !gt(next, t) {
            return SegmentCast::Undecided;
        }
        t = next;
        let (cp, cq, g) = closest(t);
        gap = g;
        d = gap.length();
        if d <= reach(t) {
            // The closest points' direction is the normal where the cores' supports along
            // it prove their gap within half the tolerance of `d` (it is not, where `d` is
            // too small for the rounding of the points: bare segments crossing).
            let normal = gap / d;
            let (da, db) = (va * t, vb * t);
            let far_a = (p0 + da).dot(normal).max((p1 + da).dot(normal));
            let near_b = (q0 + db).dot(normal).min((q1 + db).dot(normal));
            let noise = V::Real::EPSILON * V::Real::from_usize(1024) * (coords.max_component() + speed * t);
            if !(d - (near_b - far_a) <= tol(t) * V::Real::HALF + noise && gt(d, noise)) {
                return SegmentCast::Undecided;
            }
            return SegmentCast::Done(CastOutput {
                status: CastStatus::Hit,
                toi: t,
                safe_toi: t,
                distance: d - ra - rb,
                point_a: cp + normal * ra,
                point_b: cq - normal * rb,
                normal,
                face_normal: None,
                iterations: step,
            });
        }
    }
    SegmentCast::Undecided
}
