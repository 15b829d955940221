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
//!   rebuilt from the corners alone (`cleanup.rs`, `covers.rs`).
//!
//! A million points on a sphere (every one a vertex) is the size this is laid out for: the
//! points are taken in Morton order, a face is 36 bytes, the points waiting above a face are
//! a list threaded through one array, and only faces with waiting points keep their plane.

use super::predicates::{cross, dot, orient, sub, Plane, Side, P};
use crate::math::MortonGrid;
use core::array::from_fn;

mod cleanup;
mod covers;

const NONE: u32 = u32::MAX;
/// A point not certainly more than `tol` above any face is dropped when it is within
/// `DROP * tol` of the surface (Euclidean distance, not plane distance: near a sharp ridge a
/// point can be close to both planes and still far from the hull).
const DROP: f64 = 2.0;
/// Clean-up rounds: each removes non-corners, or puts back removed vertices that turned
/// out to matter. A safety cap; stress tests never needed more than 4.
const MAX_ROUNDS: usize = 6;

/// A triangle of the hull under construction. Edge `i` runs from `v[i]` to `v[i + 1]`.
/// Kept small (36 bytes): a million-point hull has two million of them.
#[derive(Clone, Copy, Debug)]
struct Face {
    /// The corners; `v[0] == NONE` for a dead face (its slot is on the free list).
    v: [u32; 3],
    /// The face across edge `i`.
    adj: [u32; 3],
    /// Search stamp: `2 s` visible, `2 s + 1` not visible in search `s`.
    mark: u32,
    /// The first of the points given to this face (see [`Builder::assign`]), or `NONE`.
    head: u32,
    /// Its slot in [`Builder::planes`], or `NONE` when the plane is not stored.
    plane: u32,
}

impl Face {
    fn is_dead(&self) -> bool {
        self.v[0] == NONE
    }
    fn kill(&mut self) {
        self.v[0] = NONE;
    }
}

/// A stored face plane and the farthest point above it (the next apex).
#[derive(Clone, Copy, Debug)]
struct FacePlane {
    plane: Plane,
    apex: u32,
    /// The apex's distance above the plane.
    height: f64,
}

/// A hull as indices: `vertices` index the input points, `triangles` index `vertices`
/// (counter-clockwise seen from outside).
#[derive(Debug)]
pub(crate) struct HullMesh {
    pub(crate) vertices: Vec<u32>,
    pub(crate) triangles: Vec<[u32; 3]>,
    /// The triangle across each edge: `adjacent[t][k]` shares the edge from `triangles[t][k]`
    /// to `triangles[t][k + 1]`.
    pub(crate) adjacent: Vec<[u32; 3]>,
    /// Every vertex is a corner (touches three facets). Hill climbing on the support function
    /// relies on it; the clean-up ends with `true` except when it hits its round cap.
    pub(crate) clean: bool,
}

/// The points span no volume (all within `tol` of one plane).
#[derive(Debug)]
pub(crate) struct Flat;

/// The convex hull of `points` (finite, any count). `eps` is the relative precision of the
/// caller's scalar: points within `3 eps (max|x| + max|y| + max|z|)` of a face count as on it.
/// Takes the points by value to free them once they are copied in build order.
pub(crate) fn convex_hull(points: Vec<P>, eps: f64) -> Result<HullMesh, Flat> {
    let max_abs = points.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
    if points.len() < 4 || max_abs == 0.0 {
        return Err(Flat);
    }
    // Scale by a power of two (exact) so coordinates are below 1: no overflow in products.
    // Two factors, each a normal number, cover every exponent.
    let exp = -(max_abs.log2().floor() as i32 + 1);
    let (s1, s2) = (2f64.powi(exp / 2), 2f64.powi(exp - exp / 2));
    // The points in Morton order: the build reads the points of one face, and they are
    // close together, so they are close in memory too (2x faster on a million points).
    let order = morton_order(&points);
    // Then onto the grid of 2^-300 (which moves only coordinates below 2^-247, by less than
    // 2^-301, far inside `tol`): the exact orientation's products of three differences are
    // then multiples of 2^-900, above the subnormal grid, so none of its terms underflows.
    // (Points at 2.2e-308 beside points at 18 broke the hull: a point was left 0.96 outside
    // a face; fuzz target `shapes`.) The mesh indexes the caller's points, unmoved.
    let grid = |x: f64| (x * 2f64.powi(300)).round() * 2f64.powi(-300);
    let pts: Vec<P> = order.iter().map(|&i| points[i as usize].map(|x| grid(x * s1 * s2))).collect();
    drop(points);
    let sums: P = from_fn(|k| pts.iter().fold(0.0f64, |m, p| m.max(p[k].abs())));
    let tol = 3.0 * eps * (sums[0] + sums[1] + sums[2]);
    // Every return path of the build gives indices into `pts`: renumber them here, once.
    cleaned_hull(&pts, tol).map(|mesh| mesh.renumbered(&order))
}

/// The hull of `pts` with the clean-up rounds (see the module doc); its vertices index `pts`.
fn cleaned_hull(pts: &[P], tol: f64) -> Result<HullMesh, Flat> {
    let n = pts.len();
    let mut ids: Vec<u32> = (0..n as u32).collect();
    // Points of earlier hulls this one may not contain (non-corners the clean-up removed,
    // points a rebuild dropped), and those the clean-up may not remove (it did, wrongly).
    // Each must stay within `DROP * tol` of every face plane; then so does each earlier hull,
    // and the points the first build dropped (within `DROP * tol` of it) are within
    // `2 DROP * tol` of the final hull.
    let (mut removed, mut pinned) = (Vec::new(), vec![false; n]);
    let mut last = None;
    for round in 0..MAX_ROUNDS {
        let hull = match Builder::run(pts, &ids, tol) {
            Ok(h) => h,
            // A rebuild from the corners alone cannot be flatter than the hull it came from;
            // if rounding says otherwise, keep that hull.
            Err(Flat) => return last.ok_or(Flat),
        };
        let covered = hull.covers(&removed, DROP * tol);
        let (mut kept, mut back) = (Vec::new(), Vec::new());
        for (&v, &c) in removed.iter().zip(&covered) {
            if c {
                kept.push(v)
            } else {
                back.push(v)
            }
        }
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

impl HullMesh {
    /// The mesh with its vertices `v` replaced by `order[v]`.
    fn renumbered(mut self, order: &[u32]) -> Self {
        self.vertices.iter_mut().for_each(|v| *v = order[*v as usize]);
        self
    }
}

/// The indices of `points` sorted along a Z-order (Morton) curve over their bounding box.
fn morton_order(points: &[P]) -> Vec<u32> {
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for p in points {
        for k in 0..3 {
            (lo[k], hi[k]) = (lo[k].min(p[k]), hi[k].max(p[k]));
        }
    }
    let grid = MortonGrid::new(lo, hi);
    let mut keyed: Vec<(u64, u32)> =
        points.iter().enumerate().map(|(i, p)| (grid.key(*p), i as u32)).collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

struct Builder<'a> {
    pts: &'a [P],
    tol: f64,
    faces: Vec<Face>,
    /// Dead face slots, reused first.
    free: Vec<u32>,
    /// The planes of the faces that hold points (and of the faces just made, while their
    /// points are handed out); a face without points computes its plane when asked.
    planes: Vec<FacePlane>,
    free_planes: Vec<u32>,
    /// The conflict lists: the point after each point in its face's list (`NONE` ends it).
    next_point: Vec<u32>,
    /// Search stamp of the current [`Builder::insert`].
    stamp: u32,
    /// Scratch of [`Builder::assign`].
    assign_planes: Vec<Plane>,
    /// A point strictly inside every hull of the build, normally: the centre of the first
    /// tetrahedron (see `covers.rs`).
    centre: P,
}

impl<'a> Builder<'a> {
    /// Quickhull over the points `ids` of `pts`.
    fn run(pts: &'a [P], ids: &[u32], tol: f64) -> Result<Self, Flat> {
        let [a, b, c, d] = initial_simplex(pts, ids, tol).ok_or(Flat)?;
        let mut hull = Builder {
            pts,
            tol,
            faces: Vec::with_capacity(2 * ids.len().min(1 << 24)),
            free: Vec::new(),
            planes: Vec::new(),
            free_planes: Vec::new(),
            next_point: vec![NONE; pts.len()],
            stamp: 0,
            assign_planes: Vec::new(),
            centre: from_fn(|k| [a, b, c, d].iter().map(|&i| pts[i as usize][k]).sum::<f64>() / 4.0),
        };
        // `d` is below `a b c`; face k's edge i borders face ADJ[k][i].
        const ADJ: [[u32; 3]; 4] = [[1, 2, 3], [3, 2, 0], [1, 3, 0], [2, 1, 0]];
        for (k, v) in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]].into_iter().enumerate() {
            let f = hull.add_face(v);
            hull.faces[f as usize].adj = ADJ[k];
        }
        let rest: Vec<u32> = ids.iter().copied().filter(|i| ![a, b, c, d].contains(i)).collect();
        hull.assign(&rest, &[0, 1, 2, 3], NONE);
        drop(rest);

        let mut stack: Vec<u32> = vec![0, 1, 2, 3];
        let mut scratch = Scratch::default();
        let mut next_of = vec![NONE; pts.len()];
        // Terminates: each pass pops a face; faces are pushed only after a point is inserted
        // or dropped, and each point is inserted or dropped at most once.
        while let Some(f) = stack.pop() {
            let face = &hull.faces[f as usize];
            if face.is_dead() || face.head == NONE {
                continue;
            }
            let apex = hull.planes[face.plane as usize].apex;
            if hull.insert(f, apex, &mut scratch, &mut next_of) {
                stack.extend_from_slice(&scratch.new_faces);
            } else {
                // Unreachable with exact predicates (a broken invariant, such as underflow in
                // the exact arithmetic): drop the point rather than corrupt the mesh.
                hull.drop_point(f, apex);
                stack.push(f);
            }
        }
        Ok(hull)
    }

    /// The corners of face `f`.
    fn corners_of(&self, f: u32) -> [P; 3] {
        self.faces[f as usize].v.map(|i| self.pts[i as usize])
    }

    /// Face `f`'s plane: its stored one, or one computed now.
    fn plane_of(&self, f: u32) -> Plane {
        match self.faces[f as usize].plane {
            NONE => {
                let [a, b, c] = self.corners_of(f);
                Plane::new(a, b, c)
            }
            slot => self.planes[slot as usize].plane,
        }
    }

    /// `p` is strictly above face `f` (exact sign).
    fn sees(&self, f: u32, p: P) -> bool {
        let [a, b, c] = self.corners_of(f);
        match self.faces[f as usize].plane {
            NONE => orient(a, b, c, p) > 0.0,
            slot => self.planes[slot as usize].plane.sees(&[b, c], p),
        }
    }

    /// A new face with its plane stored (it is about to be given points).
    fn add_face(&mut self, v: [u32; 3]) -> u32 {
        let [a, b, c] = v.map(|i| self.pts[i as usize]);
        let entry = FacePlane { plane: Plane::new(a, b, c), apex: NONE, height: 0.0 };
        let slot = match self.free_planes.pop() {
            Some(s) => {
                self.planes[s as usize] = entry;
                s
            }
            None => {
                self.planes.push(entry);
                (self.planes.len() - 1) as u32
            }
        };
        let fresh = Face { v, adj: [NONE; 3], mark: 0, head: NONE, plane: slot };
        match self.free.pop() {
            Some(f) => {
                self.faces[f as usize] = fresh;
                f
            }
            None => {
                self.faces.push(fresh);
                (self.faces.len() - 1) as u32
            }
        }
    }

    /// Gives up face `f`'s stored plane when it holds no points: it is not needed for
    /// assignment any more, and an occasional visibility test recomputes it.
    fn release_plane_if_empty(&mut self, f: u32) {
        let face = &mut self.faces[f as usize];
        if face.head == NONE && face.plane != NONE {
            self.free_planes.push(face.plane);
            face.plane = NONE;
        }
    }

    /// Removes `apex` from face `f`'s points and picks the next farthest.
    fn drop_point(&mut self, f: u32, apex: u32) {
        let mut rest = Vec::new();
        let mut p = self.faces[f as usize].head;
        while p != NONE {
            if p != apex {
                rest.push(p);
            }
            p = self.next_point[p as usize];
        }
        self.faces[f as usize].head = NONE;
        let slot = self.faces[f as usize].plane as usize;
        (self.planes[slot].apex, self.planes[slot].height) = (NONE, 0.0);
        for p in rest {
            let d = self.planes[slot].plane.eval(self.pts[p as usize]).0 / self.planes[slot].plane.len;
            self.give(f, p, d);
        }
        self.release_plane_if_empty(f);
    }

    /// Puts point `p`, `d` above face `f`, on its list (the face's plane is stored).
    fn give(&mut self, f: u32, p: u32, d: f64) {
        let face = &mut self.faces[f as usize];
        self.next_point[p as usize] = face.head;
        face.head = p;
        let entry = &mut self.planes[face.plane as usize];
        if entry.apex == NONE || d > entry.height {
            (entry.apex, entry.height) = (p, d);
        }
    }

    /// Gives each point to the first face among `faces` it is above by more than `tol` (any
    /// such face is visible from it, which is all quickhull needs; stopping there halves the
    /// tests on a sphere, where no point is ever inside).
    /// A point above none is dropped when it is inside or within `DROP * tol` of the faces it
    /// may be above; otherwise (close to their planes but far from the triangles: beyond a
    /// sharp ridge) it goes to the face it is above the most. The faces' planes are stored.
    fn assign(&mut self, points: &[u32], faces: &[u32], skip: u32) {
        // The planes side by side: the loop below reads each once per point.
        let mut local = core::mem::take(&mut self.assign_planes);
        local.clear();
        local.extend(faces.iter().map(|&f| self.planes[self.faces[f as usize].plane as usize].plane));
        for &p in points {
            if p == skip {
                continue;
            }
            let x = self.pts[p as usize];
            let (mut best, mut best_d) = (NONE, 0.0);
            let mut near_dist = f64::INFINITY;
            for (&f, plane) in faces.iter().zip(&local) {
                match plane.classify(x, self.tol) {
                    Side::Above(d) => {
                        (best, best_d) = (f, d);
                        break;
                    }
                    Side::Near if best == NONE => {
                        let [_, b, c] = self.corners_of(f);
                        near_dist = near_dist.min(plane.triangle_distance(&[b, c], x));
                    }
                    _ => {}
                }
            }
            if best == NONE && near_dist > DROP * self.tol && near_dist.is_finite() {
                // Rare: keep it for the face it is exactly the most above, if any (none: it
                // is inside the hull).
                for &f in faces {
                    let plane = &self.planes[self.faces[f as usize].plane as usize].plane;
                    if let Side::Near = plane.classify(x, self.tol) {
                        let [_, b, c] = self.corners_of(f);
                        let d = plane.exact(&[b, c], x) / plane.len;
                        if d > 0.0 && (best == NONE || d > best_d) {
                            (best, best_d) = (f, d);
                        }
                    }
                }
            }
            if best != NONE {
                self.give(best, p, best_d);
            }
        }
        self.assign_planes = local;
        for &f in faces {
            self.release_plane_if_empty(f);
        }
    }

    /// Adds `apex` (above face `f`): removes the faces it sees and connects it to the horizon.
    /// Returns `false`, with the mesh unchanged, if the visible region is not a disc.
    fn insert(&mut self, f: u32, apex: u32, s: &mut Scratch, next_of: &mut [u32]) -> bool {
        s.clear();
        let p = self.pts[apex as usize];
        if !self.sees(f, p) {
            return false;
        }
        if self.stamp >= u32::MAX / 2 - 1 {
            self.faces.iter_mut().for_each(|face| face.mark = 0);
            self.stamp = 0;
        }
        self.stamp += 1;
        let (vis, invis) = (2 * self.stamp, 2 * self.stamp + 1);
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
                if mark != invis && self.sees(g, p) {
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
            let mut q = self.faces[vf as usize].head;
            while q != NONE {
                s.orphans.push(q);
                q = self.next_point[q as usize];
            }
            let face = &mut self.faces[vf as usize];
            face.head = NONE;
            self.release_plane_if_empty(vf);
            self.faces[vf as usize].kill();
            self.free.push(vf);
        }
        let (orphans, new_faces) = (core::mem::take(&mut s.orphans), core::mem::take(&mut s.new_faces));
        self.assign(&orphans, &new_faces, apex);
        (s.orphans, s.new_faces) = (orphans, new_faces);
        true
    }

    /// The live faces.
    fn live(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.faces.len() as u32).filter(|&f| !self.faces[f as usize].is_dead())
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
        ids.iter()
            .copied()
            .find(|&i| off_plane(i) || plane.exact(&[at(b), at(c)], at(i)).abs() > tol * plane.len)
    })?;
    if plane.exact(&[at(b), at(c)], at(d)) > 0.0 {
        core::mem::swap(&mut b, &mut c);
    }
    Some([a, b, c, d])
}
