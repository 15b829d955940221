//! Quickhull in 3D: the construction behind [`ConvexHull`](super::ConvexHull).
//!
//! Quickhull (Barber, Dobkin & Huhdanpaa, "The Quickhull Algorithm for Convex Hulls", ACM TOMS
//! 1996): start from a tetrahedron, give every point to a face it lies above, then repeatedly
//! add the point farthest above a face, replacing the faces it sees by a cone to the horizon.
//!
//! Floating point breaks the textbook version in three places; each has its remedy here.
//! - **Topology is exact.** A face is visible from the new point iff the exact sign of the
//!   orientation determinant says so: a floating-point filter with a rounding bound, and an
//!   exact expansion fallback when the filter cannot decide (Shewchuk, "Adaptive Precision
//!   Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997). The surface is then
//!   always the exact hull of the points inserted so far: the visible faces form a disc, the
//!   horizon is one simple cycle, and the mesh stays closed and convex.
//! - **Thick faces.** A point is inserted only when it is certainly more than `tol` above a
//!   face, or above a face and farther than `DROP * tol` from the surface (near a sharp ridge
//!   a point can be within `tol` of both planes and far from both triangles). Every dropped
//!   point is inside, or within `DROP * tol` of a face, so of every later, larger hull.
//! - **Clean-up.** A point inserted early can end up inside a flat facet or on an edge once
//!   the corners arrive (a cube's edge midpoints). The faces are grouped into near-planar
//!   facets; a vertex inside one facet or on the edge of two is not a corner, and the hull is
//!   rebuilt from the corners alone.

use core::array::from_fn;

type P = [f64; 3];

const NONE: u32 = u32::MAX;
/// Rounding bound of [`Plane::eval`]: `ERR1 Σ |n_i q_i| + ERR2 Σ m_i |q_i|`. The normal is
/// computed to within `ε/2 |n| + ~20 ε² m` (exact differences and products, first-order
/// terms rounded once), `q` and the dot product add about `2 ε Σ |n_i q_i|`; both constants
/// have a margin of about 2. The second-order term only matters for slivers, whose normal is
/// tiny next to its products (`m`): with the plain `(b - a) × (c - a)` their bound would be
/// `ε m |q|`, useless for a needle.
const ERR1: f64 = 4.0 * f64::EPSILON;
const ERR2: f64 = 64.0 * f64::EPSILON * f64::EPSILON;
/// A point not certainly more than `tol` above any face is dropped when it is within
/// `DROP * tol` of the surface (Euclidean distance, not plane distance: near a sharp ridge a
/// point can be close to both planes and still far from the hull).
const DROP: f64 = 2.0;
/// Clean-up rounds: each removes non-corners, or puts back removed vertices that turned
/// out to matter. A safety cap; stress tests never needed more than 4.
const MAX_ROUNDS: usize = 6;

#[inline(always)]
fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
#[inline(always)]
fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
#[inline(always)]
fn cross(a: P, b: P) -> P {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// The plane of triangle `a b c`, set up for the filtered orientation test. The fields the
/// hot loop reads come first and fill one cache line.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Plane {
    /// `(b - a) × (c - a)`, to nearly full precision: outward when `a b c` is
    /// counter-clockwise seen from outside.
    n: P,
    a: P,
    len: f64,
    /// The rounding bound for any point of the (scaled) cloud, where `|q_i| <= 2`.
    coarse: f64,
    /// Per component, the weight of `|q_i|` in the rounding bound.
    w: P,
    bc: [P; 2],
}

impl Plane {
    fn new(a: P, b: P, c: P) -> Self {
        let diff = |x: P| -> [[f64; 2]; 3] { from_fn(|k| two_sum(x[k], -a[k]).into()) };
        let (e, f) = (diff(b), diff(c));
        let (mut n, mut w) = ([0.0; 3], [0.0; 3]);
        for k in 0..3 {
            let (i, j) = ((k + 1) % 3, (k + 2) % 3);
            let ((p1, r1), (p2, r2)) = (two_prod(e[i][0], f[j][0]), two_prod(e[j][0], f[i][0]));
            let (s, rs) = two_sum(p1, -p2);
            let lo = e[i][0] * f[j][1] + e[i][1] * f[j][0] - e[j][0] * f[i][1] - e[j][1] * f[i][0];
            n[k] = s + (rs + (r1 - r2) + lo);
            w[k] = ERR1 * n[k].abs() + ERR2 * (p1.abs() + p2.abs());
        }
        let coarse = 2.0 * (w[0] + w[1] + w[2]);
        Self { n, a, len: dot(n, n).sqrt(), coarse, w, bc: [b, c] }
    }

    /// The orientation determinant `((b-a) × (c-a)) · (p-a)` in floating point, and a bound on
    /// its distance to the exact value.
    #[inline(always)]
    fn eval(&self, p: P) -> (f64, f64) {
        let q = sub(p, self.a);
        let bound = self.w[0] * q[0].abs() + self.w[1] * q[1].abs() + self.w[2] * q[2].abs();
        (dot(self.n, q), bound)
    }

    /// The determinant to about 16 digits, exact in sign.
    fn exact(&self, p: P) -> f64 {
        orient_exact(self.a, self.bc[0], self.bc[1], p)
    }

    /// The exact sign of the determinant: `p` is strictly above the plane.
    fn sees(&self, p: P) -> bool {
        let (det, bound) = self.eval(p);
        if det.abs() > bound {
            det > 0.0
        } else {
            self.exact(p) > 0.0
        }
    }

    /// Where `p` is: certainly more than `tol` above the plane (with the distance), certainly
    /// not above it, or in between.
    #[inline(always)]
    fn classify(&self, p: P, tol: f64) -> Side {
        let det = dot(self.n, sub(p, self.a));
        let lim = tol * self.len;
        // The coarse bound first: most points are far from the plane.
        if det + self.coarse <= 0.0 {
            return Side::Below;
        }
        if det - self.coarse > lim {
            return Side::Above(det / self.len);
        }
        let (det, bound) = self.eval(p);
        if det - bound > lim {
            Side::Above(det / self.len)
        } else if det + bound <= 0.0 {
            Side::Below
        } else {
            Side::Near
        }
    }

    /// The distance from `p` to the triangle (not its plane), in floating point.
    fn triangle_distance(&self, p: P) -> f64 {
        let abc = [self.a, self.bc[0], self.bc[1]];
        let (mut inside, mut edge) = (true, f64::INFINITY);
        for k in 0..3 {
            let (u, e) = (abc[k], sub(abc[(k + 1) % 3], abc[k]));
            let q = sub(p, u);
            // `n × e` points into the triangle across edge `k`.
            inside &= dot(cross(self.n, e), q) >= 0.0;
            let t = if dot(e, e) > 0.0 { (dot(q, e) / dot(e, e)).clamp(0.0, 1.0) } else { 0.0 };
            let r = sub(q, e.map(|x| x * t));
            edge = edge.min(dot(r, r).sqrt());
        }
        if inside && self.len > 0.0 {
            (dot(self.n, sub(p, self.a)) / self.len).abs()
        } else {
            edge
        }
    }

    /// `true` when `p` is at most `tol` above the plane (exactly, up to the rounding of `len`).
    fn at_most(&self, p: P, tol: f64) -> bool {
        let (det, bound) = self.eval(p);
        let lim = tol * self.len;
        if det + bound <= lim {
            true
        } else if det - bound > lim {
            false
        } else {
            self.exact(p) <= lim
        }
    }

    /// `true` when `p` is within `tol` of the plane.
    fn near(&self, p: P, tol: f64) -> bool {
        let (det, bound) = self.eval(p);
        let lim = tol * self.len;
        if det.abs() + bound <= lim {
            true
        } else if det.abs() - bound > lim {
            false
        } else {
            self.exact(p).abs() <= lim
        }
    }
}

/// Where a point is relative to a face, see [`Plane::classify`].
enum Side {
    Above(f64),
    Below,
    Near,
}

/// `a + b` as the rounded sum and its exact error (Knuth's two-sum).
#[inline(always)]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `a * b` as the rounded product and its exact error (Dekker's split; the points are scaled
/// so nothing here overflows).
#[inline(always)]
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let split = |x: f64| {
        let c = 134_217_729.0 * x; // 2^27 + 1
        let hi = c - (c - x);
        (hi, x - hi)
    };
    let p = a * b;
    let ((ah, al), (bh, bl)) = (split(a), split(b));
    (p, al * bl - (((p - ah * bh) - al * bh) - ah * bl))
}

/// The exact orientation determinant's sign, as a float of that sign (0 when exactly
/// coplanar), about as large as the determinant: every difference and product is kept exactly
/// as a sum of floats and the terms are added into a non-overlapping expansion (Shewchuk's
/// grow-expansion), whose largest component carries the sign.
fn orient_exact(a: P, b: P, c: P, p: P) -> f64 {
    let diff = |x: P| -> [[f64; 2]; 3] { from_fn(|k| two_sum(x[k], -a[k]).into()) };
    let (e, f, q) = (diff(b), diff(c), diff(p));
    // 6 permutations x 8 (hi/lo) choices x 4 terms per exact triple product = 192 terms.
    let (mut sum, mut len) = ([0.0f64; 200], 0);
    let mut grow = |mut g: f64| {
        let mut out = 0;
        for h in 0..len {
            let (s, err) = two_sum(g, sum[h]);
            (g, sum[out]) = (s, err);
            out += (err != 0.0) as usize;
        }
        sum[out] = g;
        len = out + (g != 0.0) as usize;
    };
    const PERMS: [(usize, usize, usize, f64); 6] =
        [(0, 1, 2, 1.0), (1, 2, 0, 1.0), (2, 0, 1, 1.0), (0, 2, 1, -1.0), (1, 0, 2, -1.0), (2, 1, 0, -1.0)];
    for (i, j, k, sign) in PERMS {
        for (x, y, z) in
            e[i].into_iter().flat_map(|x| f[j].into_iter().flat_map(move |y| q[k].map(|z| (x, y, z))))
        {
            let (p1, p0) = two_prod(sign * x, y);
            for t in [p1, p0] {
                let (r1, r0) = two_prod(t, z);
                grow(r0);
                grow(r1);
            }
        }
    }
    if len == 0 {
        0.0
    } else {
        sum[len - 1]
    }
}

/// A triangle of the hull under construction. Edge `i` runs from `v[i]` to `v[i + 1]`.
#[derive(Debug)]
#[repr(C)]
struct Face {
    plane: Plane,
    v: [u32; 3],
    /// The face across edge `i`.
    adj: [u32; 3],
    alive: bool,
    /// Search stamp: `2 s` visible, `2 s + 1` not visible in search `s`.
    mark: u64,
    /// The points given to this face (see [`Builder::assign`]).
    outside: Vec<u32>,
}

/// A hull as indices: `vertices` index the input points, `triangles` index `vertices`
/// (counter-clockwise seen from outside).
#[derive(Debug)]
pub(crate) struct HullMesh {
    pub(crate) vertices: Vec<u32>,
    pub(crate) triangles: Vec<[u32; 3]>,
    /// The outward unit normal of each triangle.
    pub(crate) normals: Vec<P>,
    /// Every vertex is a corner (touches three facets). Hill climbing on the support function
    /// relies on it; the clean-up ends with `true` except when it hits its round cap.
    pub(crate) clean: bool,
}

/// The points span no volume (all within `tol` of one plane).
#[derive(Debug)]
pub(crate) struct Flat;

/// The convex hull of `points` (finite, any count). `eps` is the relative precision of the
/// caller's scalar: points within `3 eps (max|x| + max|y| + max|z|)` of a face count as on it.
pub(crate) fn convex_hull(points: &[P], eps: f64) -> Result<HullMesh, Flat> {
    let max_abs = points.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
    if points.len() < 4 || max_abs == 0.0 {
        return Err(Flat);
    }
    // Scale by a power of two (exact) so coordinates are below 1: no overflow in products.
    // Two factors, each a normal number, cover every exponent.
    let exp = -(max_abs.log2().floor() as i32 + 1);
    let (s1, s2) = (2f64.powi(exp / 2), 2f64.powi(exp - exp / 2));
    let pts: Vec<P> = points.iter().map(|p| p.map(|x| x * s1 * s2)).collect();
    let sums: P = from_fn(|k| pts.iter().fold(0.0f64, |m, p| m.max(p[k].abs())));
    let tol = 3.0 * eps * (sums[0] + sums[1] + sums[2]);

    let n = points.len();
    let mut ids: Vec<u32> = (0..n as u32).collect();
    // Points of earlier hulls this one may not contain (non-corners the clean-up removed,
    // points a rebuild dropped), and those the clean-up may not remove (it did, wrongly).
    // Each must stay within `DROP * tol` of every face plane; then so does each earlier hull,
    // and the points the first build dropped (within `DROP * tol` of it) are within
    // `2 DROP * tol` of the final hull.
    let (mut removed, mut pinned) = (Vec::new(), vec![false; n]);
    let mut last = None;
    for round in 0..MAX_ROUNDS {
        let hull = match Builder::run(&pts, &ids, tol) {
            Ok(h) => h,
            // A rebuild from the corners alone cannot be flatter than the hull it came from;
            // if rounding says otherwise, keep that hull.
            Err(Flat) => return last.ok_or(Flat),
        };
        let (kept, back): (Vec<u32>, Vec<u32>) = removed.iter().partition(|&&v| hull.covers(v, DROP * tol));
        if !back.is_empty() {
            back.iter().for_each(|&v| pinned[v as usize] = true);
            ids.extend(&back);
            removed = kept;
            continue;
        }
        let mut mesh = hull.mesh();
        let mut keep = vec![false; n];
        mesh.vertices.iter().for_each(|&v| keep[v as usize] = true);
        if round > 0 {
            removed.extend(ids.iter().filter(|&&v| !keep[v as usize]));
        }
        match hull.corners(&pinned) {
            Some(corners) if corners.len() < mesh.vertices.len() => {
                keep.iter_mut().for_each(|k| *k = false);
                corners.iter().for_each(|&v| keep[v as usize] = true);
                removed.extend(mesh.vertices.iter().filter(|&&v| !keep[v as usize]));
                ids = corners;
                last = Some(mesh);
            }
            _ => {
                mesh.clean = true;
                return Ok(mesh);
            }
        }
    }
    // Only after MAX_ROUNDS rounds of clean-up: a valid hull that may keep a few non-corners.
    last.ok_or(Flat)
}

struct Builder<'a> {
    pts: &'a [P],
    tol: f64,
    faces: Vec<Face>,
    free: Vec<u32>,
    stamp: u64,
}

impl<'a> Builder<'a> {
    /// Quickhull over the points `ids` of `pts`.
    fn run(pts: &'a [P], ids: &[u32], tol: f64) -> Result<Self, Flat> {
        let [a, b, c, d] = initial_simplex(pts, ids, tol).ok_or(Flat)?;
        let mut hull = Builder { pts, tol, faces: Vec::new(), free: Vec::new(), stamp: 0 };
        // `d` is below `a b c`; face k's edge i borders face ADJ[k][i].
        const ADJ: [[u32; 3]; 4] = [[1, 2, 3], [3, 2, 0], [1, 3, 0], [2, 1, 0]];
        for (k, v) in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]].into_iter().enumerate() {
            let f = hull.add_face(v);
            hull.faces[f as usize].adj = ADJ[k];
        }
        let rest: Vec<u32> = ids.iter().copied().filter(|i| ![a, b, c, d].contains(i)).collect();
        hull.assign(&rest, &[0, 1, 2, 3], NONE);

        let mut stack: Vec<u32> = vec![0, 1, 2, 3];
        let mut scratch = Scratch::default();
        let mut next_of = vec![NONE; pts.len()];
        // Terminates: each pass pops a face; faces are pushed only after a point is inserted
        // or dropped, and each point is inserted or dropped at most once.
        while let Some(f) = stack.pop() {
            let face = &hull.faces[f as usize];
            if !face.alive || face.outside.is_empty() {
                continue;
            }
            let height = |&p: &u32| face.plane.eval(pts[p as usize]).0;
            let apex =
                face.outside.iter().copied().max_by(|p, q| height(p).total_cmp(&height(q))).unwrap_or(NONE);
            if hull.insert(f, apex, &mut scratch, &mut next_of) {
                stack.extend_from_slice(&scratch.new_faces);
            } else {
                // Unreachable with exact predicates (a broken invariant, such as underflow in
                // the exact arithmetic): drop the point rather than corrupt the mesh.
                hull.faces[f as usize].outside.retain(|&p| p != apex);
                stack.push(f);
            }
        }
        Ok(hull)
    }

    fn add_face(&mut self, v: [u32; 3]) -> u32 {
        let plane = Plane::new(self.pts[v[0] as usize], self.pts[v[1] as usize], self.pts[v[2] as usize]);
        let fresh = Face { plane, v, adj: [NONE; 3], alive: true, mark: 0, outside: Vec::new() };
        match self.free.pop() {
            Some(f) => {
                let face = &mut self.faces[f as usize];
                let outside = core::mem::take(&mut face.outside); // keeps its capacity
                *face = Face { outside, ..fresh };
                f
            }
            None => {
                self.faces.push(fresh);
                (self.faces.len() - 1) as u32
            }
        }
    }

    /// Gives each point to the face among `faces` it is farthest above by more than `tol`.
    /// A point above none is dropped when it is inside or within `DROP * tol` of the faces it
    /// may be above; otherwise (close to their planes but far from the triangles: beyond a
    /// sharp ridge) it goes to the face it is above the most.
    fn assign(&mut self, points: &[u32], faces: &[u32], skip: u32) {
        for &p in points {
            if p == skip {
                continue;
            }
            let x = self.pts[p as usize];
            let (mut best, mut best_d) = (NONE, 0.0);
            let mut near_dist = f64::INFINITY;
            for &f in faces {
                let plane = &self.faces[f as usize].plane;
                match plane.classify(x, self.tol) {
                    Side::Above(d) if best == NONE || d > best_d => (best, best_d) = (f, d),
                    Side::Near if best == NONE => near_dist = near_dist.min(plane.triangle_distance(x)),
                    _ => {}
                }
            }
            if best == NONE && near_dist > DROP * self.tol && near_dist.is_finite() {
                // Rare: keep it for the face it is exactly the most above, if any (none: it
                // is inside the hull).
                for &f in faces {
                    let plane = &self.faces[f as usize].plane;
                    if let Side::Near = plane.classify(x, self.tol) {
                        let d = plane.exact(x) / plane.len;
                        if d > 0.0 && (best == NONE || d > best_d) {
                            (best, best_d) = (f, d);
                        }
                    }
                }
            }
            if best != NONE {
                self.faces[best as usize].outside.push(p);
            }
        }
    }

    /// Adds `apex` (above face `f`): removes the faces it sees and connects it to the horizon.
    /// Returns `false`, with the mesh unchanged, if the visible region is not a disc.
    fn insert(&mut self, f: u32, apex: u32, s: &mut Scratch, next_of: &mut [u32]) -> bool {
        s.clear();
        let p = self.pts[apex as usize];
        if !self.faces[f as usize].plane.sees(p) {
            return false;
        }
        self.stamp += 1;
        let (vis, invis) = (2 * self.stamp, 2 * self.stamp + 1); // u64: never wraps
        self.faces[f as usize].mark = vis;
        s.visible.push(f);
        let mut head = 0;
        while head < s.visible.len() {
            let vf = s.visible[head];
            head += 1;
            for i in 0..3 {
                let g = self.faces[vf as usize].adj[i];
                let mark = self.faces[g as usize].mark;
                if mark == vis {
                    continue;
                }
                if mark != invis && self.faces[g as usize].plane.sees(p) {
                    self.faces[g as usize].mark = vis;
                    s.visible.push(g);
                } else {
                    self.faces[g as usize].mark = invis;
                    s.horizon.push((vf, i as u8));
                }
            }
        }
        // Order the horizon into one cycle: each horizon vertex starts exactly one edge.
        let start = |b: &Self, (vf, i): (u32, u8)| b.faces[vf as usize].v[i as usize];
        let end = |b: &Self, (vf, i): (u32, u8)| b.faces[vf as usize].v[(i as usize + 1) % 3];
        let mut simple = true;
        for (k, &e) in s.horizon.iter().enumerate() {
            let a = start(self, e) as usize;
            simple &= next_of[a] == NONE;
            next_of[a] = k as u32;
        }
        let mut k = 0u32;
        for step in 0..s.horizon.len() {
            if !simple || (step > 0 && k == 0) || k == NONE {
                simple = false;
                break;
            }
            s.order.push(k);
            k = next_of[end(self, s.horizon[k as usize]) as usize];
        }
        simple &= k == 0;
        for &e in &s.horizon {
            next_of[start(self, e) as usize] = NONE;
        }
        if !simple {
            return false;
        }
        // The cone: face k is (a_k, b_k, apex), glued to the hidden face across a_k b_k and
        // to its neighbours in the cycle.
        for &k in &s.order {
            let (vf, i) = s.horizon[k as usize];
            let g = self.faces[vf as usize].adj[i as usize];
            let (a, b) = (start(self, (vf, i)), end(self, (vf, i)));
            let nf = self.add_face([a, b, apex]);
            self.faces[nf as usize].adj[0] = g;
            let gf = &mut self.faces[g as usize];
            if let Some(j) = (0..3).find(|&j| gf.adj[j] == vf) {
                gf.adj[j] = nf;
            }
            s.new_faces.push(nf);
        }
        let h = s.new_faces.len();
        for k in 0..h {
            let nf = s.new_faces[k] as usize;
            self.faces[nf].adj[1] = s.new_faces[(k + 1) % h];
            self.faces[nf].adj[2] = s.new_faces[(k + h - 1) % h];
        }
        for &vf in &s.visible {
            let face = &mut self.faces[vf as usize];
            face.alive = false;
            s.orphans.append(&mut face.outside);
            self.free.push(vf);
        }
        let (orphans, new_faces) = (core::mem::take(&mut s.orphans), core::mem::take(&mut s.new_faces));
        self.assign(&orphans, &new_faces, apex);
        (s.orphans, s.new_faces) = (orphans, new_faces);
        true
    }

    /// The vertices that are corners: their faces span at least three near-planar facets;
    /// `None` when every vertex is one.
    ///
    /// Facets grow from the largest faces first; a face joins a facet when its three vertices
    /// are within `tol` of the seed face's plane (the seed's plane, not its neighbour's, so a
    /// gently curved surface cannot creep into one facet).
    fn corners(&self, pinned: &[bool]) -> Option<Vec<u32>> {
        let live = || (0..self.faces.len() as u32).filter(|&f| self.faces[f as usize].alive);
        let near = |plane: &Plane, skip: &[u32; 3], v: u32| {
            skip.contains(&v) || plane.near(self.pts[v as usize], self.tol)
        };
        // Fast path (a sphere): no face has a neighbour in its plane, so no facet has two
        // faces and every vertex, on at least three faces, is a corner.
        let flat_pair = live().any(|f| {
            let face = &self.faces[f as usize];
            face.adj.iter().any(|&g| self.faces[g as usize].v.iter().all(|&v| near(&face.plane, &face.v, v)))
        });
        if !flat_pair {
            return None;
        }
        let mut seeds: Vec<u32> = live().collect();
        seeds.sort_by(|&f, &g| self.faces[g as usize].plane.len.total_cmp(&self.faces[f as usize].plane.len));
        let mut facet = vec![NONE; self.faces.len()];
        let mut queue = Vec::new();
        for &seed in &seeds {
            if facet[seed as usize] != NONE {
                continue;
            }
            let (plane, seed_v) = (&self.faces[seed as usize].plane, &self.faces[seed as usize].v);
            facet[seed as usize] = seed;
            queue.clear();
            queue.push(seed);
            while let Some(f) = queue.pop() {
                for g in self.faces[f as usize].adj {
                    let face = &self.faces[g as usize];
                    if facet[g as usize] == NONE && face.v.iter().all(|&v| near(plane, seed_v, v)) {
                        facet[g as usize] = seed;
                        queue.push(g);
                    }
                }
            }
        }
        let mut incidences: Vec<(u32, u32)> =
            seeds.iter().flat_map(|&f| self.faces[f as usize].v.map(|v| (v, facet[f as usize]))).collect();
        incidences.sort_unstable();
        incidences.dedup();
        // A vertex on one facet is inside it; on two, on their common edge, within
        // `tol / cos(θ/2)` of it for normals `θ` apart: a corner unless θ <= 120°.
        let corner = |run: &[(u32, u32)]| match run {
            [(v, _), ..] if pinned[*v as usize] => true,
            [_] => false,
            [(_, f), (_, g)] => {
                let (p, q) = (&self.faces[*f as usize].plane, &self.faces[*g as usize].plane);
                dot(p.n, q.n) < -0.5 * p.len * q.len
            }
            _ => true,
        };
        Some(incidences.chunk_by(|x, y| x.0 == y.0).filter(|run| corner(run)).map(|run| run[0].0).collect())
    }

    /// `true` when point `v` is at most `tol` above every face.
    fn covers(&self, v: u32, tol: f64) -> bool {
        self.faces.iter().filter(|f| f.alive).all(|f| f.plane.at_most(self.pts[v as usize], tol))
    }

    /// The live faces, re-indexed: vertices in order of first use.
    fn mesh(&self) -> HullMesh {
        let mut local = vec![NONE; self.pts.len()];
        let (mut vertices, mut triangles, mut normals) = (Vec::new(), Vec::new(), Vec::new());
        for face in self.faces.iter().filter(|f| f.alive) {
            triangles.push(face.v.map(|v| {
                if local[v as usize] == NONE {
                    local[v as usize] = vertices.len() as u32;
                    vertices.push(v);
                }
                local[v as usize]
            }));
            // From the scaled points: no overflow or underflow whatever the input (a face too
            // thin for f64 to give it a direction would get 0, never NaN).
            normals.push(face.plane.n.map(|x| x / face.plane.len.max(f64::MIN_POSITIVE)));
        }
        HullMesh { vertices, triangles, normals, clean: false }
    }
}

/// Buffers of [`Builder::insert`], kept across insertions.
#[derive(Default)]
struct Scratch {
    visible: Vec<u32>,
    horizon: Vec<(u32, u8)>,
    order: Vec<u32>,
    new_faces: Vec<u32>,
    orphans: Vec<u32>,
}

impl Scratch {
    fn clear(&mut self) {
        for v in [&mut self.visible, &mut self.order, &mut self.new_faces, &mut self.orphans] {
            v.clear();
        }
        self.horizon.clear();
    }
}

/// Four points of `ids` spanning a tetrahedron: the farthest pair among the axis extremes,
/// the point farthest from their line, the point farthest from that plane. `None` when the
/// cloud is within `tol` of a point, a line or a plane. The fourth point is below the plane
/// of the first three.
fn initial_simplex(pts: &[P], ids: &[u32], tol: f64) -> Option<[u32; 4]> {
    let at = |i: u32| pts[i as usize];
    let arg_max =
        |key: &dyn Fn(P) -> f64| ids.iter().copied().max_by(|&i, &j| key(at(i)).total_cmp(&key(at(j))));
    let ext: Vec<u32> = (0..6).filter_map(|k| arg_max(&|p| if k < 3 { p[k] } else { -p[k - 3] })).collect();
    let pairs = ext.iter().flat_map(|&i| ext.iter().map(move |&j| (i, j)));
    let (a, mut b) = pairs.max_by(|x, y| {
        let d = |(i, j): (u32, u32)| dot(sub(at(i), at(j)), sub(at(i), at(j)));
        d(*x).total_cmp(&d(*y))
    })?;
    let u = sub(at(b), at(a));
    if dot(u, u).sqrt() <= tol {
        return None;
    }
    let off_line = |p: P| dot(cross(sub(p, at(a)), u), cross(sub(p, at(a)), u));
    let mut c = arg_max(&off_line)?;
    if (off_line(at(c)) / dot(u, u)).sqrt() <= tol {
        return None;
    }
    let plane = Plane::new(at(a), at(b), at(c));
    let off_plane = |i: u32| {
        let (det, bound) = plane.eval(at(i));
        det.abs() - bound > tol * plane.len
    };
    // The farthest point in floating point; when rounding hides it (a needle so thin that
    // the plane's normal is noise), the first point the exact determinant puts off the plane.
    let d = arg_max(&|p| plane.eval(p).0.abs()).filter(|&i| off_plane(i)).or_else(|| {
        ids.iter().copied().find(|&i| off_plane(i) || plane.exact(at(i)).abs() > tol * plane.len)
    })?;
    if plane.exact(at(d)) > 0.0 {
        core::mem::swap(&mut b, &mut c);
    }
    Some([a, b, c, d])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact sign for integer points, by `i128` arithmetic.
    fn orient_i128(p: [[i64; 3]; 4]) -> i128 {
        let d = |x: [i64; 3]| -> [i128; 3] { from_fn(|k| (x[k] - p[0][k]) as i128) };
        let (e, f, q) = (d(p[1]), d(p[2]), d(p[3]));
        (e[1] * f[2] - e[2] * f[1]) * q[0]
            + (e[2] * f[0] - e[0] * f[2]) * q[1]
            + (e[0] * f[1] - e[1] * f[0]) * q[2]
    }

    #[test]
    fn exact_orientation_matches_integer_arithmetic() {
        // Nearly coplanar points with 40-bit integer coordinates: the products need ~120
        // bits, so plain f64 often gets the sign wrong; the exact predicate never may.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as i64
        };
        let (mut naive_wrong, mut zeros) = (0, 0);
        for _ in 0..20_000 {
            // b - a and c - a nearly parallel (so the normal is short next to the rounding of
            // the products), d in their plane up to a nudge of at most 1 per axis.
            let a: [i64; 3] = from_fn(|_| next());
            let u: [i64; 3] = from_fn(|_| (next() >> 2) - (1 << 37));
            let v: [i64; 3] = from_fn(|k| 2 * u[k] + (next() >> 30) - 512);
            let (s, t) = (next() % 5 - 2, next() % 3 - 1);
            let d: [i64; 3] = from_fn(|k| a[k] + s * u[k] + t * v[k] + next() % 3 - 1);
            let pts = [a, from_fn(|k| a[k] + u[k]), from_fn(|k| a[k] + v[k]), d];
            let truth = orient_i128(pts).signum() as f64;
            let f = pts.map(|p| p.map(|x| x as f64));
            let exact = orient_exact(f[0], f[1], f[2], f[3]);
            assert_eq!(exact.signum() * (exact != 0.0) as i32 as f64, truth, "{pts:?}");
            let (naive, bound) = Plane::new(f[0], f[1], f[2]).eval(f[3]);
            if naive.abs() > bound {
                assert_eq!(naive.signum(), truth, "the filter's bound is too small: {pts:?}");
            }
            naive_wrong += (naive.signum() * (naive != 0.0) as i32 as f64 != truth) as u32;
            zeros += (truth == 0.0) as u32;
        }
        // The sample must exercise the hard cases: exact zeros and rounding-fooled signs.
        assert!(zeros > 500 && naive_wrong > 100, "zeros {zeros}, naive wrong {naive_wrong}");
    }

    #[test]
    fn filter_bound_holds_for_slivers() {
        // Thin triangles and nearly coplanar points with coordinates of mixed magnitudes (so
        // the differences round): the filtered value is within its bound of the exact one.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut unit = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let mut uncertain = 0;
        for i in 0..20_000 {
            let thin = 10f64.powi(-(i % 14));
            let a: P = from_fn(|_| unit());
            let dir: P = from_fn(|_| unit());
            let b: P = from_fn(|k| a[k] + dir[k] + thin * unit());
            let c: P = from_fn(|k| a[k] + 0.5 * dir[k] + thin * unit());
            let (s, t) = (unit(), unit());
            let p: P = from_fn(|k| a[k] + s * (b[k] - a[k]) + t * (c[k] - a[k]) + thin * 1e-16 * unit());
            let plane = Plane::new(a, b, c);
            let ((det, bound), exact) = (plane.eval(p), orient_exact(a, b, c, p));
            assert!(
                (det - exact).abs() <= bound + 4.0 * f64::EPSILON * exact.abs(),
                "{a:?} {b:?} {c:?} {p:?}"
            );
            uncertain += (det.abs() <= bound) as u32;
        }
        assert!(uncertain > 100, "the exact fallback was needed {uncertain} times");
    }
}
