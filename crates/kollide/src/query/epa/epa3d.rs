//! EPA in 3D: a triangle mesh around the origin, grown one support point at a time.
//!
//! Each iteration takes the face closest to the origin, asks for the support point `w` of
//! `A ⊖ B` along its normal, removes the faces `w` sees that are connected to the closest
//! face (a depth-first walk over the faces' neighbours, so that a stray face flipped by
//! rounding cannot tear the mesh), and closes the hole with a fan of triangles from `w` to
//! the horizon (the edges between removed and kept faces, which the walk collects). Van den
//! Bergen 2001; Jolt's `EPAPenetrationDepth.h` and `EPAConvexHullBuilder.h` take the same
//! steps. Every face knows its three neighbours, so an iteration touches only the faces
//! around `w`; the new faces take the slots of the removed ones, which keeps the linear
//! scan for the closest face short (a priority queue measured slower at the few dozen
//! faces EPA meets).

use super::{
    blow_up, clamp_weights, degenerate, finite, from_face, non_finite, rel_tolerance, track_upper,
    unfinished, Cores, EpaResult, EpaStatus, EpaStep, Scaled, Start, MAX_FLAT_STEPS, MAX_ITERATIONS,
    MAX_VERTICES,
};
use crate::math::{Pose, Real, Vector3};
use crate::query::gjk::{Simplex, SimplexVertex};
use crate::query::Space;
use crate::shape::Support;

/// No neighbour yet (only while the initial tetrahedron is being linked).
const NONE: u32 = u32::MAX;

/// A triangle of the polytope, wound counter-clockwise seen from outside.
#[derive(Clone, Copy, Debug)]
struct Face<V: Vector3 + Space> {
    v: [usize; 3],
    /// `adj[e]` is the face across edge `e` (`v[e] -> v[e + 1]`).
    adj: [u32; 3],
    /// Unit outward normal when `valid`; the raw cross product (maybe zero) otherwise.
    n: V,
    /// Distance of the plane from the origin along `n` (when `valid`).
    d: V::Real,
    /// The iteration that last marked the face as seen by the new support point.
    mark: u32,
    /// `false` for a sliver whose normal is rounding noise: it keeps the mesh closed but is
    /// never chosen as the closest face.
    valid: bool,
    alive: bool,
}

impl<V: Vector3 + Space> Face<V> {
    /// The face `i j k` (counter-clockwise seen from outside). The normal is the cross
    /// product of the two shortest edges and the plane goes through the centroid, the
    /// best-conditioned choices for a thin triangle.
    #[inline(always)]
    fn new(verts: &[SimplexVertex<V>], [i, j, k]: [usize; 3], adj: [u32; 3]) -> Self {
        let (w0, w1, w2) = (verts[i].w, verts[j].w, verts[k].w);
        let (e0, e1, e2) = (w1 - w0, w2 - w1, w0 - w2);
        let (l0, l1, l2) = (e0.length_squared(), e1.length_squared(), e2.length_squared());
        // Every pair of edges gives the same cross product in exact arithmetic.
        let (n, short2) = if l0 >= l1 && l0 >= l2 {
            (e1.cross3(e2), l1 * l2)
        } else if l1 >= l2 {
            (e2.cross3(e0), l2 * l0)
        } else {
            (e0.cross3(e1), l0 * l1)
        };
        let nn = n.length_squared();
        let tiny = V::Real::EPSILON * V::Real::from_usize(16);
        let valid = nn.is_finite() && nn > tiny * tiny * short2 && nn > V::Real::ZERO;
        let (n, d) = if valid {
            // `length_safe`: a face 1e-12 across in f32 has a squared normal below the normal
            // range, and the square root of a subnormal left normals 1.3% short (fuzz).
            let n = n / n.length_safe();
            let centroid = (w0 + w1 + w2) / V::Real::from_usize(3);
            (n, n.dot(centroid))
        } else {
            (n, n.dot(w0))
        };
        Self { v: [i, j, k], adj, n, d, mark: 0, valid, alive: true }
    }

    /// `true` when `w` is strictly above the face's plane.
    #[inline(always)]
    fn sees(&self, verts: &[SimplexVertex<V>], w: V) -> bool {
        if self.valid {
            self.n.dot(w) > self.d
        } else {
            self.n.dot(w - verts[self.v[0]].w) > V::Real::ZERO
        }
    }

    /// The index of the edge `p -> q` of the face (it must have it).
    #[inline(always)]
    fn edge(&self, p: usize, q: usize) -> usize {
        if self.v[0] == p && self.v[1] == q {
            0
        } else if self.v[1] == p && self.v[2] == q {
            1
        } else {
            2
        }
    }
}

/// A directed edge `p -> q` of the horizon, and the face `out` (kept) across it, where it
/// is edge `e`.
#[derive(Clone, Copy, Debug)]
struct Rim {
    p: usize,
    q: usize,
    out: u32,
    e: u8,
}

/// The penetration of the cores of `a` and `b` (B placed by `pose_ab`, everything in A's
/// frame), from GJK's final simplex. See the module docs of `epa` for the bounds and the
/// tolerance.
pub(crate) fn penetration<V: Vector3 + Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    simplex: &Simplex<V>,
    trace: Option<&mut Vec<EpaStep<V>>>,
) -> EpaResult<V> {
    super::at_scale(a, b, pose_ab, simplex, trace, penetration_scaled)
}

/// [`penetration`] on the points multiplied by `scaled.scale` (`cores` measures them at that
/// scale), answered at that scale.
fn penetration_scaled<V: Vector3 + Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    cores: &mut Cores<'_, V, A, B>,
    scaled: &Scaled<V>,
    mut trace: Option<&mut Vec<EpaStep<V>>>,
) -> EpaResult<V> {
    let back = V::Real::ONE / scaled.scale;
    let simplex = &scaled.simplex;
    let start = match blow_up(cores, simplex) {
        Start::Done(r) => return r,
        Start::Simplex(s) => s,
    };
    let mut verts: Vec<SimplexVertex<V>> = Vec::with_capacity(32);
    verts.extend_from_slice(&start);
    let mut faces: Vec<Face<V>> = Vec::with_capacity(128);
    for (f, opposite) in [([0, 1, 2], 3), ([0, 1, 3], 2), ([0, 2, 3], 1), ([1, 2, 3], 0)] {
        let (w0, w1, w2) = (verts[f[0]].w, verts[f[1]].w, verts[f[2]].w);
        let out = (w1 - w0).cross3(w2 - w0).dot(verts[opposite].w - w0) <= V::Real::ZERO;
        faces.push(Face::new(&verts, if out { f } else { [f[0], f[2], f[1]] }, [NONE; 3]));
    }
    // Each edge of the tetrahedron is shared by exactly two faces, in opposite directions.
    for g in 0..4 {
        for e in 0..3 {
            let (p, q) = (faces[g].v[e], faces[g].v[(e + 1) % 3]);
            for h in 0..4 {
                if h != g && faces[h].v.contains(&p) && faces[h].v.contains(&q) {
                    faces[g].adj[e] = h as u32;
                }
            }
        }
    }
    let rel = rel_tolerance::<V::Real>();
    let mut iterations = 0;
    let mut upper = None;
    let (mut lower, mut flat_steps) = (-V::Real::MAX, 0);
    let mut removed: Vec<u32> = Vec::with_capacity(32);
    let mut horizon: Vec<Rim> = Vec::with_capacity(32);
    loop {
        let Some(fi) = closest(&faces) else {
            // Every face is a sliver: nothing to measure a normal on.
            return degenerate(cores, iterations);
        };
        let f = faces[fi];
        if iterations >= MAX_ITERATIONS {
            return unfinished(
                upper,
                answer(&verts, &faces, &f, cores.noise(), iterations, EpaStatus::MaxIterations),
                EpaStatus::MaxIterations,
            );
        }
        let s = cores.support(f.n);
        iterations += 1;
        if let Some(t) = trace.as_deref_mut() {
            t.push(step(&verts, &faces, fi, &s, back));
        }
        if !finite(&s) {
            return non_finite(iterations);
        }
        track_upper(&mut upper, f.n, &s);
        let noise = cores.noise();
        let gap = f.n.dot(s.w) - f.d;
        if gap <= rel * f.d.max(V::Real::ZERO) || gap <= noise {
            return answer(&verts, &faces, &f, cores.noise(), iterations, EpaStatus::Converged);
        }
        // The lower bound must rise; on a curved surface in f32 rounding can leave it flat
        // for good (thin faces with noisy normals).
        if f.d > lower {
            (lower, flat_steps) = (f.d, 0);
        } else {
            flat_steps += 1;
        }
        if verts.iter().any(|v| v.w == s.w) || flat_steps > MAX_FLAT_STEPS {
            return unfinished(
                upper,
                answer(&verts, &faces, &f, cores.noise(), iterations, EpaStatus::Stalled),
                EpaStatus::Stalled,
            );
        }
        if verts.len() >= MAX_VERTICES {
            return unfinished(
                upper,
                answer(&verts, &faces, &f, cores.noise(), iterations, EpaStatus::MaxIterations),
                EpaStatus::MaxIterations,
            );
        }

        // The faces `w` sees, connected to the closest one: a depth-first walk over the
        // neighbours, which also collects the horizon (the edges to faces kept), in order
        // around it in the usual case.
        let mark = iterations;
        removed.clear();
        horizon.clear();
        faces[fi].mark = mark;
        removed.push(fi as u32);
        for e in 0..3 {
            silhouette(&mut faces, &verts, s.w, mark, fi, e, &mut removed, &mut horizon);
        }
        if !single_loop(&mut horizon) {
            // The removed region is not a disc (rounding flipped a face in the middle):
            // patching it would break the mesh.
            return unfinished(
                upper,
                answer(&verts, &faces, &f, cores.noise(), iterations, EpaStatus::Stalled),
                EpaStatus::Stalled,
            );
        }
        let wi = verts.len();
        verts.push(s);
        // The fan from `w` to the horizon, built at the end of `faces` and moved into the
        // slots of the removed faces (then packed after the old faces) once it is accepted:
        // the face on rim `k` goes to `slot(k)`.
        let base = faces.len();
        let count = horizon.len();
        let reused = removed.len().min(count);
        let slot = |k: usize| if k < reused { removed[k] as usize } else { base + k - reused };
        let mut broken = false;
        for (k, r) in horizon.iter().enumerate() {
            // The neighbours around the loop, without a division.
            let next = slot(if k + 1 == count { 0 } else { k + 1 }) as u32;
            let prev = slot(if k == 0 { count - 1 } else { k - 1 }) as u32;
            let g = Face::new(&verts, [r.p, r.q, wi], [r.out, next, prev]);
            // The grown polytope holds the old one, so no face of it can be closer to the
            // origin than the closest old face: one that is means rounding broke convexity.
            broken |= g.valid && g.d < f.d - noise;
            faces.push(g);
        }
        if broken {
            faces.truncate(base);
            return unfinished(
                upper,
                answer(&verts, &faces, &f, cores.noise(), iterations, EpaStatus::Stalled),
                EpaStatus::Stalled,
            );
        }
        for &g in &removed {
            faces[g as usize].alive = false;
        }
        for k in 0..count {
            faces[slot(k)] = faces[base + k];
        }
        faces.truncate(base + count - reused);
        for (k, r) in horizon.iter().enumerate() {
            faces[r.out as usize].adj[r.e as usize] = slot(k) as u32;
        }
    }
}

/// Crosses edge `e` of the removed face `g`: removes the face beyond it (and walks on from
/// it) if `w` sees it, or records the edge as part of the horizon.
#[allow(clippy::too_many_arguments)]
fn silhouette<V: Vector3 + Space>(
    faces: &mut [Face<V>],
    verts: &[SimplexVertex<V>],
    w: V,
    mark: u32,
    g: usize,
    e: usize,
    removed: &mut Vec<u32>,
    horizon: &mut Vec<Rim>,
) {
    let gf = &faces[g];
    let (p, q) = (gf.v[e], gf.v[(e + 1) % 3]);
    let h = gf.adj[e] as usize;
    let hf = &faces[h];
    if hf.mark == mark {
        return;
    }
    let eh = hf.edge(q, p);
    if hf.sees(verts, w) {
        faces[h].mark = mark;
        removed.push(h as u32);
        silhouette(faces, verts, w, mark, h, (eh + 1) % 3, removed, horizon);
        silhouette(faces, verts, w, mark, h, (eh + 2) % 3, removed, horizon);
    } else {
        horizon.push(Rim { p, q, out: h as u32, e: eh as u8 });
    }
}

/// The live, valid face closest to the origin.
fn closest<V: Vector3 + Space>(faces: &[Face<V>]) -> Option<usize> {
    let mut best: Option<(V::Real, usize)> = None;
    for (i, f) in faces.iter().enumerate() {
        if f.alive && f.valid && best.is_none_or(|(d, _)| f.d < d) {
            best = Some((f.d, i));
        }
    }
    best.map(|(_, i)| i)
}

/// The traced iteration: the live faces (at the caller's scale), which is closest, and the
/// new support point.
fn step<V: Vector3 + Space>(
    verts: &[SimplexVertex<V>],
    faces: &[Face<V>],
    fi: usize,
    s: &SimplexVertex<V>,
    back: V::Real,
) -> EpaStep<V> {
    let mut out = Vec::new();
    let mut closest = 0;
    for (i, f) in faces.iter().enumerate().filter(|(_, f)| f.alive) {
        if i == fi {
            closest = out.len();
        }
        out.push(f.v.iter().map(|&k| verts[k].w * back).collect());
    }
    EpaStep { faces: out, closest, normal: faces[fi].n, lower: faces[fi].d * back, w: s.w * back }
}

/// Puts the directed edges in order around one closed loop, and returns `true` when they
/// form one through distinct vertices. Cheap when they already are in order (the walk
/// usually leaves them so).
fn single_loop(edges: &mut [Rim]) -> bool {
    let n = edges.len();
    if n < 3 {
        return false;
    }
    for k in 1..n {
        let at = edges[k - 1].q;
        if edges[k].p != at {
            let Some(j) = (k + 1..n).find(|&j| edges[j].p == at) else {
                return false;
            };
            edges.swap(k, j);
        }
    }
    if edges[n - 1].q != edges[0].p {
        return false;
    }
    // One closed walk of `n` edges; it is a simple loop when no vertex repeats.
    (1..n).all(|k| edges[..k].iter().all(|e| e.p != edges[k].p))
}

/// The answer from face `f`: its normal and distance, and the witnesses from the
/// barycentric weights of the origin's projection `q = d n` (signed areas measured along
/// the normal). A flat facet of `A ⊖ B` is split into several coplanar triangles whose
/// distances tie; the projection lies in one of them, not always in `f`: the witnesses
/// come from the tied face that holds it best (largest least weight).
fn answer<V: Vector3 + Space>(
    verts: &[SimplexVertex<V>],
    faces: &[Face<V>],
    f: &Face<V>,
    noise: V::Real,
    iterations: u32,
    status: EpaStatus,
) -> EpaResult<V> {
    let q = f.n * f.d;
    let weights = |g: &Face<V>| {
        let (p0, p1, p2) = (verts[g.v[0]].w - q, verts[g.v[1]].w - q, verts[g.v[2]].w - q);
        let raw = [p1.cross3(p2).dot(g.n), p2.cross3(p0).dot(g.n), p0.cross3(p1).dot(g.n)];
        let sum = raw[0] + raw[1] + raw[2];
        let least = raw[0].min(raw[1]).min(raw[2]) / sum;
        (raw, if least.is_finite() { least } else { -V::Real::MAX })
    };
    let (mut best, mut lambda) = (*f, weights(f));
    if lambda.1 < V::Real::ZERO {
        let cos_tie = V::Real::ONE - V::Real::EPSILON * V::Real::from_usize(1024);
        for g in faces.iter().filter(|g| g.alive && g.valid && g.d <= f.d + noise && g.n.dot(f.n) >= cos_tie)
        {
            let l = weights(g);
            if l.1 > lambda.1 {
                (best, lambda) = (*g, l);
            }
        }
    }
    let mut lambda = lambda.0;
    clamp_weights(&mut lambda);
    let tri = [verts[best.v[0]], verts[best.v[1]], verts[best.v[2]]];
    from_face(&tri, &lambda, f.n, f.d, iterations, status)
}
