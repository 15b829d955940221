//! The polygonal faces and the edges of a convex hull: coplanar neighbouring triangles merged
//! into one face (a cube has 6 quads, not 12 triangles), each with its outward normal, plane
//! offset and counter-clockwise vertex loop, and every edge with its two faces.
//!
//! Separating-axis tests need exactly these: a face normal per face (not per triangle, or a
//! box hull tests each axis twice and its manifold splits along a diagonal), and edges with
//! both adjacent normals for the Gauss-map pruning of edge-edge axes (Gregorius, "The
//! Separating Axis Test between Convex Polyhedra", GDC 2013).
//!
//! Merging follows the facet grouping of the hull build (`hull_build3d.rs`): faces grow from
//! the largest triangle first, and a triangle joins when its three vertices lie within the
//! build tolerance of the *seed's* plane, so a gently curved surface cannot creep into one
//! face.

use crate::math::Real;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for the small integer keys of mesh edges: one multiply and a rotation (the
/// default SipHash, built against hostile keys, took a tenth of a million-point hull's
/// build; these keys are our own vertex indices).
#[derive(Default)]
struct IndexHasher(u64);

impl Hasher for IndexHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(26) ^ i).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// A map keyed by vertex indices or directed edges.
type IndexMap<K, V> = HashMap<K, V, BuildHasherDefault<IndexHasher>>;

/// Faces and edges of a closed triangle mesh, computed in `f64`.
#[derive(Debug, Default)]
pub(crate) struct HullFaces {
    /// Every face is one triangle: face `t` is triangle `t`, with its unit normal; `start`,
    /// `loops` and `normals` are then empty (a million-point sphere saves 80 MB in `f64`).
    pub(crate) are_triangles: bool,
    /// Face `f`'s loop is `loops[start[f]..start[f + 1]]` (vertex indices, CCW from outside).
    pub(crate) start: Vec<u32>,
    pub(crate) loops: Vec<u32>,
    /// Outward unit normal of each face (the sum of its triangles' normals).
    pub(crate) normals: Vec<[f64; 3]>,
    /// Outward unit normal of each triangle, robust to slivers (see [`triangle_normal`]).
    pub(crate) triangle_normals: Vec<[f64; 3]>,
    /// `max over the loop of normal · vertex`: the face plane is `normal · x = offset`.
    pub(crate) offsets: Vec<f64>,
    /// Each edge once: its two vertices (lower first) and the faces on either side, the
    /// first being the face that runs the edge from `v[0]` to `v[1]`.
    pub(crate) edges: Vec<([u32; 2], [u32; 2])>,
    /// Vertex-to-face incidence in CSR form.
    pub(crate) vertex_face_start: Vec<u32>,
    pub(crate) vertex_faces: Vec<u32>,
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `n` scaled to unit length (a zero vector stays zero).
fn unit(n: [f64; 3]) -> [f64; 3] {
    let l = dot(n, n).sqrt().max(f64::MIN_POSITIVE);
    n.map(|x| x / l)
}

/// The normal of triangle `p` (counter-clockwise seen from where it points), twice its
/// area long, taken at the corner opposite the longest edge: there the two edges crossed
/// are the shortest, and the products that cancel are as small as the triangle allows.
fn triangle_normal(p: [[f64; 3]; 3]) -> [f64; 3] {
    let len2 = |a: [f64; 3], b: [f64; 3]| dot(sub(a, b), sub(a, b));
    let (l0, l1, l2) = (len2(p[1], p[2]), len2(p[2], p[0]), len2(p[0], p[1]));
    // The corner k is opposite edge k; the cyclic order keeps the orientation.
    let k = if l0 >= l1 && l0 >= l2 {
        0
    } else if l1 >= l2 {
        1
    } else {
        2
    };
    let (a, b, c) = (p[k], p[(k + 1) % 3], p[(k + 2) % 3]);
    // The edges as unevaluated sums `s + t` (exact differences), and each 2x2 determinant
    // by Kahan's fused multiply-add form: a sliver whose edges are nearly parallel (three
    // points along a 1e8-long needle, 1 apart sideways) loses nothing to the cancellation.
    let (e, f) = (diff_exact(b, a), diff_exact(c, a));
    let det = |i: usize, j: usize| {
        let main = det2(e.0[i], f.0[j], e.0[j], f.0[i]);
        main + (e.0[i] * f.1[j] + e.1[i] * f.0[j] - e.0[j] * f.1[i] - e.1[j] * f.0[i])
    };
    [det(1, 2), det(2, 0), det(0, 1)]
}

/// `a - b` exactly, as `(s, t)` with `s + t = a - b` (Knuth's two-sum, per component).
fn diff_exact(a: [f64; 3], b: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    let mut s = [0.0; 3];
    let mut t = [0.0; 3];
    for i in 0..3 {
        s[i] = a[i] - b[i];
        let bv = s[i] - a[i];
        let av = s[i] - bv;
        t[i] = (a[i] - av) - (b[i] + bv);
    }
    (s, t)
}

/// `a b - c d` to within about an ulp of the result (Kahan's algorithm with fused
/// multiply-adds: the rounding of `c d` is recovered exactly and added back).
fn det2(a: f64, b: f64, c: f64, d: f64) -> f64 {
    let w = c * d;
    let err = (-c).mul_add(d, w);
    a.mul_add(b, -w) + err
}

/// "No such triangle or face".
const NONE: u32 = u32::MAX;

/// Merges the triangles of a closed convex mesh into faces, and gives each triangle its
/// unit normal. `adjacent[t][k]` is the triangle across edge `k` of triangle `t` (the edge
/// from `t[k]` to `t[k + 1]`), and `tol` is the hull's build tolerance (a vertex within `tol`
/// of a plane counts as on it).
pub(crate) fn hull_faces(
    points: &[[f64; 3]],
    triangles: &[[u32; 3]],
    adjacent: Vec<[u32; 3]>,
    tol: f64,
) -> HullFaces {
    // Coordinates whose products overflow or lose digits are scaled by a power of two
    // first: exact, and the unit normals do not change; the offsets and tolerance scale
    // back. A normal is a cross product of edges, and its squared length, taken to make it
    // unit, grows as the fourth power of the coordinates: it overflows beyond ~1e77 and
    // is subnormal below ~1e-77. (At 1e158 every normal came out zero; the
    // bound was then 1e100, and a hull at 1e78 still got zero normals, so that SAT called
    // it penetrating a box 1e77 away: the metamorphic property `huge_scale`.)
    let m = points.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
    if m > 1e60 || (m < 1e-60 && m > 0.0) {
        let p = m.recip_pow2();
        let scaled: Vec<[f64; 3]> = points.iter().map(|q| q.map(|x| x * p)).collect();
        let mut faces = hull_faces(&scaled, triangles, adjacent, tol * p);
        faces.offsets.iter_mut().for_each(|d| *d /= p);
        return faces;
    }
    let mut faces = if any_merge(points, triangles, &adjacent, tol) {
        merged_faces(points, triangles, &adjacent, tol)
    } else {
        triangle_faces(points, triangles, &adjacent)
    };
    drop(adjacent);
    faces.vertex_faces(points.len(), triangles);
    faces
}

/// Whether a triangle would take a neighbour into its face (the test of
/// [`merged_faces`]): on a smooth cloud (a sphere) none does, and every face is a triangle.
fn any_merge(points: &[[f64; 3]], triangles: &[[u32; 3]], adjacent: &[[u32; 3]], tol: f64) -> bool {
    triangles.iter().zip(adjacent).any(|(&st, adj)| {
        let n = triangle_normal(st.map(|i| points[i as usize]));
        let len = dot(n, n).sqrt();
        let p0 = points[st[0] as usize];
        let near = |v: u32| st.contains(&v) || (dot(n, sub(points[v as usize], p0)) / len).abs() <= tol;
        len > 0.0 && adj.iter().any(|&u| u != NONE && triangles[u as usize].iter().all(|&v| near(v)))
    })
}

/// The faces when no triangles merge: face `t` is triangle `t`, with its unit normal.
fn triangle_faces(points: &[[f64; 3]], triangles: &[[u32; 3]], adjacent: &[[u32; 3]]) -> HullFaces {
    let unit_normals: Vec<[f64; 3]> =
        triangles.iter().map(|t| unit(triangle_normal(t.map(|i| points[i as usize])))).collect();
    let offsets = triangles
        .iter()
        .zip(&unit_normals)
        .map(|(t, &n)| t.iter().map(|&v| dot(n, points[v as usize])).fold(f64::MIN, f64::max))
        .collect();
    let mut edges = Vec::with_capacity(3 * triangles.len() / 2 + 1);
    for (t, (tri, adj)) in triangles.iter().zip(adjacent).enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            if a < b {
                let g = if adj[k] == NONE { t as u32 } else { adj[k] };
                edges.push(([a, b], [t as u32, g]));
            }
        }
    }
    edges.sort_unstable();
    HullFaces { are_triangles: true, offsets, edges, triangle_normals: unit_normals, ..HullFaces::default() }
}

/// Coplanar neighbouring triangles merged into faces.
fn merged_faces(points: &[[f64; 3]], triangles: &[[u32; 3]], adjacent: &[[u32; 3]], tol: f64) -> HullFaces {
    let nt = triangles.len();
    let twin = |t: u32, k: usize| adjacent[t as usize][k];
    // Each triangle's normal (twice its area long), computed once: the careful formula
    // costs a few dozen flops, and the sort below would otherwise redo it per comparison.
    let tri_normals: Vec<[f64; 3]> =
        triangles.iter().map(|t| triangle_normal(t.map(|i| points[i as usize]))).collect();
    let mut order: Vec<u32> = (0..nt as u32).collect();
    let area2: Vec<f64> = tri_normals.iter().map(|&n| dot(n, n)).collect();
    order.sort_by(|&s, &t| area2[t as usize].total_cmp(&area2[s as usize]));
    drop(area2);
    let mut group = vec![NONE; nt];
    // Group `g`'s triangles are `members[group_start[g]..group_start[g + 1]]`.
    let (mut members, mut group_start) = (Vec::with_capacity(nt), vec![0u32]);
    let mut stack = Vec::new();
    for &seed in &order {
        if group[seed as usize] != NONE {
            continue;
        }
        let g = (group_start.len() - 1) as u32;
        let st = triangles[seed as usize];
        let n = tri_normals[seed as usize];
        let len = dot(n, n).sqrt();
        let p0 = points[st[0] as usize];
        let near = |v: u32| st.contains(&v) || (dot(n, sub(points[v as usize], p0)) / len).abs() <= tol;
        members.push(seed);
        group[seed as usize] = g;
        stack.clear();
        stack.push(seed);
        while let Some(t) = stack.pop() {
            for k in 0..3 {
                let u = twin(t, k);
                if u == NONE {
                    continue;
                }
                let ut = triangles[u as usize];
                if group[u as usize] == NONE && len > 0.0 && ut.iter().all(|&v| near(v)) {
                    group[u as usize] = g;
                    members.push(u);
                    stack.push(u);
                }
            }
        }
        group_start.push(members.len() as u32);
    }
    drop(order);
    // Boundary loops; a group whose boundary is not one simple cycle (never seen on a
    // convex mesh, but rounding is rounding) is split back into its triangles.
    let mut faces = HullFaces::default();
    let mut next: IndexMap<u32, u32> = IndexMap::default();
    let mut face_of_triangle = vec![NONE; nt];
    let push_loop = |faces: &mut HullFaces, lp: &[u32], members: &[u32], face_of_triangle: &mut Vec<u32>| {
        let f = faces.normals.len() as u32;
        faces.start.push(faces.loops.len() as u32);
        faces.loops.extend_from_slice(lp);
        // The sum of the member triangles' normals (each twice its area): in exact
        // arithmetic Newell's normal of the loop, but each term is computed on the
        // triangle's short edges. (Newell's terms, edge times coordinate, cancelled on a
        // needle 1.2e8 long and 1 wide to a tilt of 2e-8 rad: points stood 2 units outside
        // the plane. Probe F11.)
        let mut n = [0.0; 3];
        for &t in members {
            let m = tri_normals[t as usize];
            n = [n[0] + m[0], n[1] + m[1], n[2] + m[2]];
        }
        let n = unit(n);
        faces.offsets.push(lp.iter().map(|&v| dot(n, points[v as usize])).fold(f64::MIN, f64::max));
        faces.normals.push(n);
        for &t in members {
            face_of_triangle[t as usize] = f;
        }
    };
    for run in group_start.windows(2) {
        let members = &members[run[0] as usize..run[1] as usize];
        next.clear();
        let mut simple = true;
        for &t in members {
            let tri = triangles[t as usize];
            for k in 0..3 {
                let (a, b) = (tri[k], tri[(k + 1) % 3]);
                let u = twin(t, k);
                let inside = u != NONE && group[u as usize] == group[t as usize];
                if !inside && next.insert(a, b).is_some() {
                    simple = false;
                }
            }
        }
        let mut lp = Vec::with_capacity(next.len());
        if simple {
            if let Some((&first, _)) = next.iter().min_by_key(|&(&a, _)| a) {
                let mut v = first;
                for _ in 0..next.len() {
                    lp.push(v);
                    v = next[&v];
                    if v == first {
                        break;
                    }
                }
                simple = v == first && lp.len() == next.len();
            }
        }
        if simple && lp.len() >= 3 {
            push_loop(&mut faces, &lp, members, &mut face_of_triangle);
        } else {
            for &t in members {
                push_loop(&mut faces, &triangles[t as usize], &[t], &mut face_of_triangle);
            }
        }
    }
    faces.start.push(faces.loops.len() as u32);
    // Every edge between two faces, once (from its lower vertex), with the face that runs it
    // that way first; edges inside a merged face have that face on both sides.
    let mut edges: Vec<([u32; 2], [u32; 2])> = Vec::with_capacity(3 * nt / 2);
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            let u = twin(t as u32, k);
            let f = face_of_triangle[t];
            let g = if u == NONE { f } else { face_of_triangle[u as usize] };
            if a < b && (f != g || u == NONE) {
                edges.push(([a, b], [f, g]));
            }
        }
    }
    edges.sort_unstable();
    faces.edges = edges;
    faces.triangle_normals = tri_normals.into_iter().map(unit).collect();
    // The hull keeps these for its lifetime: no growth slack (30 MB on a million points).
    for v in [&mut faces.start, &mut faces.loops] {
        v.shrink_to_fit();
    }
    faces.normals.shrink_to_fit();
    faces.offsets.shrink_to_fit();
    faces.edges.shrink_to_fit();
    faces
}

impl HullFaces {
    /// The loop of face `f`.
    fn face_loop<'a>(&'a self, triangles: &'a [[u32; 3]], f: usize) -> &'a [u32] {
        if self.are_triangles {
            &triangles[f]
        } else {
            &self.loops[self.start[f] as usize..self.start[f + 1] as usize]
        }
    }

    /// Fills the vertex-to-face incidence.
    fn vertex_faces(&mut self, vertex_count: usize, triangles: &[[u32; 3]]) {
        let face_count = if self.are_triangles { triangles.len() } else { self.normals.len() };
        let mut count = vec![0u32; vertex_count + 1];
        for f in 0..face_count {
            for &v in self.face_loop(triangles, f) {
                count[v as usize + 1] += 1;
            }
        }
        for i in 0..vertex_count {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut inc = vec![0u32; count[vertex_count] as usize];
        for f in 0..face_count {
            for &v in self.face_loop(triangles, f) {
                inc[fill[v as usize] as usize] = f as u32;
                fill[v as usize] += 1;
            }
        }
        self.vertex_face_start = count;
        self.vertex_faces = inc;
    }
}
