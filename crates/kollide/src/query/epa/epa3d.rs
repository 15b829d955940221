//! EPA in 3D: a triangle mesh around the origin, grown one support point at a time.
//!
//! Each iteration takes the face closest to the origin, asks for the support point `w` of
//! `A ⊖ B` along its normal, removes the faces `w` sees (found among the faces whose plane
//! it is above, flood-filled from the closest face so that a stray face flipped by rounding
//! cannot tear the mesh), and closes the hole with a fan of triangles from `w` to the
//! horizon (the boundary of the removed region, found by cancelling the directed edges the
//! removed faces share). Van den Bergen 2001; Jolt's `EPAPenetrationDepth.h` and
//! `EPAConvexHullBuilder.h` take the same steps with a priority queue and explicit edge
//! adjacency; with the few dozen faces EPA meets a linear scan is as fast.

use super::{
    blow_up, clamp_weights, degenerate, finite, from_face, non_finite, rel_tolerance, track_upper,
    unfinished, Cores, EpaResult, EpaStatus, Start, MAX_FLAT_STEPS, MAX_ITERATIONS, MAX_VERTICES,
};
use crate::math::{Pose, Real, Vector3};
use crate::query::gjk::{Simplex, SimplexVertex};
use crate::shape::Support;

/// A triangle of the polytope, wound counter-clockwise seen from outside.
#[derive(Clone, Copy, Debug)]
struct Face<V: Vector3> {
    v: [usize; 3],
    /// Unit outward normal when `valid`; the raw cross product (maybe zero) otherwise.
    n: V,
    /// Distance of the plane from the origin along `n` (when `valid`).
    d: V::Real,
    /// `false` for a sliver whose normal is rounding noise: it keeps the mesh closed but is
    /// never chosen as the closest face.
    valid: bool,
    alive: bool,
}

impl<V: Vector3> Face<V> {
    /// The face `i j k` (counter-clockwise seen from outside). The normal is the cross
    /// product of the two shortest edges and the plane goes through the centroid, the
    /// best-conditioned choices for a thin triangle.
    fn new(verts: &[SimplexVertex<V>], [i, j, k]: [usize; 3]) -> Self {
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
        if valid {
            let n = n / nn.sqrt();
            let centroid = (w0 + w1 + w2) / V::Real::from_usize(3);
            Self { v: [i, j, k], n, d: n.dot(centroid), valid, alive: true }
        } else {
            Self { v: [i, j, k], n, d: n.dot(w0), valid, alive: true }
        }
    }

    /// `true` when `w` is strictly above the face's plane.
    fn sees(&self, verts: &[SimplexVertex<V>], w: V) -> bool {
        if self.valid {
            self.n.dot(w) > self.d
        } else {
            self.n.dot(w - verts[self.v[0]].w) > V::Real::ZERO
        }
    }

    /// The directed edges, in winding order.
    fn edges(&self) -> [(usize, usize); 3] {
        let [a, b, c] = self.v;
        [(a, b), (b, c), (c, a)]
    }

    /// `true` when the faces share an edge (traversed in opposite directions).
    fn adjacent(&self, other: &Self) -> bool {
        self.edges().iter().any(|&(p, q)| other.edges().contains(&(q, p)))
    }
}

/// The penetration of the cores of `a` and `b` (B placed by `pose_ab`, everything in A's
/// frame), from GJK's final simplex. See the module docs of `epa` for the bounds and the
/// tolerance.
pub(crate) fn penetration<V: Vector3, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    simplex: &Simplex<V>,
) -> EpaResult<V> {
    let mut cores = Cores::new(a, b, pose_ab, simplex);
    let start = match blow_up(&mut cores, simplex) {
        Start::Done(r) => return r,
        Start::Simplex(s) => s,
    };
    let mut verts: Vec<SimplexVertex<V>> = Vec::with_capacity(32);
    verts.extend_from_slice(&start);
    let mut faces: Vec<Face<V>> = Vec::with_capacity(64);
    for (f, opposite) in [([0, 1, 2], 3), ([0, 1, 3], 2), ([0, 2, 3], 1), ([1, 2, 3], 0)] {
        let (w0, w1, w2) = (verts[f[0]].w, verts[f[1]].w, verts[f[2]].w);
        let out = (w1 - w0).cross3(w2 - w0).dot(verts[opposite].w - w0) <= V::Real::ZERO;
        faces.push(Face::new(&verts, if out { f } else { [f[0], f[2], f[1]] }));
    }

    let rel = rel_tolerance::<V::Real>();
    let mut iterations = 0;
    let mut upper = None;
    let (mut lower, mut flat_steps) = (-V::Real::MAX, 0);
    let mut candidates: Vec<usize> = Vec::with_capacity(16);
    let mut removed: Vec<usize> = Vec::with_capacity(16);
    let mut horizon: Vec<(usize, usize)> = Vec::with_capacity(16);
    let mut fresh: Vec<Face<V>> = Vec::with_capacity(16);
    let mut free: Vec<usize> = Vec::with_capacity(16);
    loop {
        let Some(fi) = closest(&faces) else {
            // Every face is a sliver: nothing to measure a normal on.
            return degenerate(&mut cores, iterations);
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

        // The faces `w` sees, connected to the closest one.
        candidates.clear();
        candidates
            .extend((0..faces.len()).filter(|&g| faces[g].alive && g != fi && faces[g].sees(&verts, s.w)));
        removed.clear();
        removed.push(fi);
        let mut k = 0;
        while k < removed.len() {
            let g = faces[removed[k]];
            let mut c = 0;
            while c < candidates.len() {
                if faces[candidates[c]].adjacent(&g) {
                    removed.push(candidates.swap_remove(c));
                } else {
                    c += 1;
                }
            }
            k += 1;
        }
        // Their boundary: the directed edges not shared by two removed faces.
        horizon.clear();
        for &g in &removed {
            for (p, q) in faces[g].edges() {
                if let Some(pos) = horizon.iter().position(|&e| e == (q, p)) {
                    horizon.swap_remove(pos);
                } else {
                    horizon.push((p, q));
                }
            }
        }
        if !single_loop(&horizon) {
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
        fresh.clear();
        for &(p, q) in &horizon {
            let g = Face::new(&verts, [p, q, wi]);
            // The grown polytope holds the old one, so no face of it can be closer to the
            // origin than the closest old face: one that is means rounding broke convexity.
            if g.valid && g.d < f.d - noise {
                return unfinished(
                    upper,
                    answer(&verts, &faces, &f, cores.noise(), iterations, EpaStatus::Stalled),
                    EpaStatus::Stalled,
                );
            }
            fresh.push(g);
        }
        for &g in &removed {
            faces[g].alive = false;
            free.push(g);
        }
        for g in fresh.drain(..) {
            match free.pop() {
                Some(slot) => faces[slot] = g,
                None => faces.push(g),
            }
        }
    }
}

/// The live, valid face closest to the origin.
fn closest<V: Vector3>(faces: &[Face<V>]) -> Option<usize> {
    let mut best: Option<(V::Real, usize)> = None;
    for (i, f) in faces.iter().enumerate() {
        if f.alive && f.valid && best.is_none_or(|(d, _)| f.d < d) {
            best = Some((f.d, i));
        }
    }
    best.map(|(_, i)| i)
}

/// `true` when the directed edges form one closed loop through distinct vertices.
fn single_loop(edges: &[(usize, usize)]) -> bool {
    let n = edges.len();
    if n < 3 {
        return false;
    }
    let (first, mut at) = edges[0];
    let mut steps = 1;
    while at != first {
        let Some(&(_, next)) = edges.iter().find(|e| e.0 == at) else {
            return false;
        };
        at = next;
        steps += 1;
        if steps > n {
            return false;
        }
    }
    steps == n
}

/// The answer from face `f`: its normal and distance, and the witnesses from the
/// barycentric weights of the origin's projection `q = d n` (signed areas measured along
/// the normal). A flat facet of `A ⊖ B` is split into several coplanar triangles whose
/// distances tie; the projection lies in one of them, not always in `f`: the witnesses
/// come from the tied face that holds it best (largest least weight).
fn answer<V: Vector3>(
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
