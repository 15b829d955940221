//! EPA in 2D: a convex polygon around the origin, grown one support point at a time.
//!
//! Each iteration takes the edge closest to the origin, asks for the support point `w` of
//! `A ⊖ B` along its outward normal and inserts it between the edge's ends; neighbours that
//! `w` makes reflex (it lies beyond their other edge) are dropped, the 2D horizon, so the
//! polygon stays convex and its closest edge stays a lower bound (van den Bergen 2001).

use super::{
    blow_up, clamp_weights, degenerate, finite, from_face, non_finite, rel_tolerance, track_upper,
    unfinished, Cores, EpaResult, EpaStatus, EpaStep, Scaled, Start, MAX_FLAT_STEPS, MAX_ITERATIONS,
    MAX_VERTICES,
};
use crate::math::{Pose, Real, Rotation, Vector2};
use crate::query::gjk::{Simplex, SimplexVertex};
use crate::query::Space;
use crate::shape::Support;

/// The outward unit normal and the distance from the origin of the edge `p → q` of a
/// counter-clockwise polygon, or `None` when the edge is too short for its normal to be
/// more than rounding. The line goes through the edge's midpoint.
fn edge<V: Vector2 + Space>(p: V, q: V) -> Option<(V, V::Real)> {
    let e = q - p;
    // `length_safe`: squares below the normal range (an edge 1e-20 long in f32) lose the
    // precision of the normal, and squares beyond it overflow.
    let l = e.length_safe();
    let size = p.length_safe().max(q.length_safe());
    if !(l.is_finite() && l > V::Real::EPSILON * V::Real::from_usize(16) * size && l > V::Real::ZERO) {
        return None;
    }
    let n = -e.perp2() / l;
    Some((n, n.dot((p + q) * V::Real::HALF)))
}

/// The penetration of the cores of `a` and `b` (B placed by `pose_ab`, everything in A's
/// frame), from GJK's final simplex. See the module docs of `epa` for the bounds and the
/// tolerance.
pub(crate) fn penetration<V: Vector2 + Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    simplex: &Simplex<V>,
    trace: Option<&mut Vec<EpaStep<V>>>,
) -> EpaResult<V>
where
    // Implied by `Vector`, but the compiler loses it once `Vector2` fixes the rotation type.
    V::Rotation: Rotation<V>,
{
    super::at_scale(a, b, pose_ab, simplex, trace, penetration_scaled)
}

/// [`penetration`] on the points multiplied by `scaled.scale` (`cores` measures them at that
/// scale), answered at that scale.
fn penetration_scaled<V: Vector2 + Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    cores: &mut Cores<'_, V, A, B>,
    scaled: &Scaled<V>,
    mut trace: Option<&mut Vec<EpaStep<V>>>,
) -> EpaResult<V>
where
    V::Rotation: Rotation<V>,
{
    let back = V::Real::ONE / scaled.scale;
    let simplex = &scaled.simplex;
    let start = match blow_up(cores, simplex) {
        Start::Done(r) => return r,
        Start::Simplex(s) => s,
    };
    let mut verts: Vec<SimplexVertex<V>> = Vec::with_capacity(32);
    verts.extend_from_slice(&start[..3]);
    let ccw = (verts[1].w - verts[0].w).perp_dot2(verts[2].w - verts[0].w) >= V::Real::ZERO;
    // The polygon, counter-clockwise, as indices into `verts`.
    let mut ring: Vec<usize> = if ccw { vec![0, 1, 2] } else { vec![0, 2, 1] };
    ring.reserve(32);

    let rel = rel_tolerance::<V::Real>();
    let mut iterations = 0;
    let (mut lower, mut flat_steps) = (-V::Real::MAX, 0);
    let mut upper = None;
    loop {
        let len = ring.len();
        let mut best: Option<(V::Real, V, usize)> = None;
        for i in 0..len {
            let (p, q) = (verts[ring[i]].w, verts[ring[(i + 1) % len]].w);
            if let Some((n, d)) = edge(p, q) {
                if best.is_none_or(|(bd, ..)| d < bd) {
                    best = Some((d, n, i));
                }
            }
        }
        let Some((d, n, i)) = best else {
            return degenerate(cores, iterations);
        };
        let ends = [verts[ring[i]], verts[ring[(i + 1) % len]]];
        if iterations >= MAX_ITERATIONS {
            return unfinished(
                upper,
                answer(&ends, n, d, iterations, EpaStatus::MaxIterations),
                EpaStatus::MaxIterations,
            );
        }
        let s = cores.support(n);
        iterations += 1;
        if let Some(t) = trace.as_deref_mut() {
            let at = |k: usize| verts[ring[k % len]].w * back;
            let faces = (0..len).map(|k| vec![at(k), at(k + 1)]).collect();
            t.push(EpaStep { faces, closest: i, normal: n, lower: d * back, w: s.w * back });
        }
        if !finite(&s) {
            return non_finite(iterations);
        }
        track_upper(&mut upper, n, &s);
        let noise = cores.noise();
        let gap = n.dot(s.w) - d;
        if gap <= rel * d.max(V::Real::ZERO) || gap <= noise {
            return answer(&ends, n, d, iterations, EpaStatus::Converged);
        }
        // The lower bound must rise (see `MAX_FLAT_STEPS`).
        if d > lower {
            (lower, flat_steps) = (d, 0);
        } else {
            flat_steps += 1;
        }
        if verts.iter().any(|v| v.w == s.w) || flat_steps > MAX_FLAT_STEPS {
            return unfinished(
                upper,
                answer(&ends, n, d, iterations, EpaStatus::Stalled),
                EpaStatus::Stalled,
            );
        }
        if verts.len() >= MAX_VERTICES {
            return unfinished(
                upper,
                answer(&ends, n, d, iterations, EpaStatus::MaxIterations),
                EpaStatus::MaxIterations,
            );
        }
        let wi = verts.len();
        verts.push(s);
        let w = s.w;
        let mut pos = i + 1;
        ring.insert(pos, wi);
        // Drop the neighbours `w` turned reflex, behind it and ahead of it.
        while ring.len() > 3 {
            let len = ring.len();
            let (j, jj) = ((pos + len - 1) % len, (pos + len - 2) % len);
            let (pj, pjj) = (verts[ring[j]].w, verts[ring[jj]].w);
            if (pj - pjj).perp_dot2(w - pj) >= V::Real::ZERO {
                break;
            }
            ring.remove(j);
            if j < pos {
                pos -= 1;
            }
        }
        while ring.len() > 3 {
            let len = ring.len();
            let (j, jj) = ((pos + 1) % len, (pos + 2) % len);
            let (pj, pjj) = (verts[ring[j]].w, verts[ring[jj]].w);
            if (pj - w).perp_dot2(pjj - pj) >= V::Real::ZERO {
                break;
            }
            ring.remove(j);
            if j < pos {
                pos -= 1;
            }
        }
        // The grown polygon holds the old one: a new edge closer to the origin than the
        // old closest one means rounding broke convexity.
        let len = ring.len();
        let (prev, next) = (verts[ring[(pos + len - 1) % len]].w, verts[ring[(pos + 1) % len]].w);
        for (p, q) in [(prev, w), (w, next)] {
            if edge(p, q).is_some_and(|(_, de)| de < d - noise) {
                return unfinished(
                    upper,
                    answer(&ends, n, d, iterations, EpaStatus::Stalled),
                    EpaStatus::Stalled,
                );
            }
        }
    }
}

/// The answer from the edge `ends` (normal `n`, distance `d`): the witnesses from the
/// parameter of the origin's projection `d n` on it.
fn answer<V: Vector2 + Space>(
    ends: &[SimplexVertex<V>; 2],
    n: V,
    d: V::Real,
    iterations: u32,
    status: EpaStatus,
) -> EpaResult<V> {
    let e = ends[1].w - ends[0].w;
    let t = (n * d - ends[0].w).dot(e) / e.length_squared();
    let mut lambda = [V::Real::ONE - t, t];
    clamp_weights(&mut lambda);
    from_face(ends, &lambda, n, d, iterations, status)
}
