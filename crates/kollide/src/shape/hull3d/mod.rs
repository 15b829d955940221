//! Convex hull (3D): the convex hull of a point set, as a closed triangle mesh.

use super::error::check_points;
mod build;
mod faces;
mod predicates;

use super::{Feature, Primitive, ShapeError, Support, SupportFace};
use crate::math::{Real, Vector3};
use build::convex_hull;
use faces::hull_faces;

// Up to `SCAN_LIMIT` vertices the support scans; above, it climbs from a hint (the last
// support of the query, or a start table by direction). The costs that set the limit are in
// BENCHMARKS.md, "Hull supports: scan or climb".

/// Vertex count up to which the support function always scans: above it a warm climb is
/// faster than the scan and a climb from a far hint not much slower.
const SCAN_LIMIT: usize = 32;

/// The same where the vertices are scanned eight or four at a time by axis and lane
/// (`scan::scan_blocks`, `f32`).
const BLOCK_SCAN_LIMIT: usize = 64;

/// Vertex count up to which the scan reads the vertices as one block by axis and lane
/// (`scan::scan_block`, `f32`).
const ONE_BLOCK: usize = 8;

/// Vertex count from which the scan reads the vertices stored by axis and lane, where
/// the scalar type allows it; below it, the vertices as they are (`scan::scan`).
const BLOCK_SCAN_FROM: usize = 17;

/// A convex polyhedron: the convex hull of the points it was built from, stored as a closed
/// triangle mesh, counter-clockwise seen from outside.
///
/// Points inside the hull, duplicates and points on a face or an edge are not vertices of
/// the hull, so they are not kept (the shape is the same set either way). Points closer to
/// the surface than the build tolerance count as on it (see
/// [`ConvexHull::try_from_points`]). Flat faces with more than three corners are split into
/// triangles. The support function climbs the vertex adjacency from a hint, so GJK with a
/// warm cache costs about the same on 4096 vertices as on 32.
///
/// ```
/// use kollide::shape::{ConvexHull, Support};
/// use glam::Vec3;
/// let mut points = Vec::new();
/// for i in 0..8 {
///     let bit = |k: u32| if i & (1 << k) != 0 { 1.0 } else { -1.0 };
///     points.push(Vec3::new(bit(0), bit(1), bit(2))); // the corners of a cube
/// }
/// points.push(Vec3::new(0.2, 0.3, -0.1)); // inside: not a vertex
/// points.push(Vec3::new(0.0, 0.0, 1.0)); // centre of a face: not a vertex
/// let cube = ConvexHull::try_from_points(&points).unwrap();
/// assert_eq!(cube.vertices().len(), 8);
/// assert_eq!(cube.triangles().len(), 12);
/// assert_eq!(cube.support(Vec3::new(1.0, -2.0, 0.5)), Vec3::new(1.0, -1.0, 1.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
// Serialized as its points and rebuilt (validated) when deserialized: see `serde_points.rs`.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "super::serde_points::PointsRepr<V>",
        into = "super::serde_points::PointsRepr<V>",
        bound(
            serialize = "V: Vector3 + serde::Serialize",
            deserialize = "V: Vector3 + serde::de::DeserializeOwned"
        )
    )
)]
pub struct ConvexHull<V> {
    vertices: Vec<V>,
    triangles: Vec<[u32; 3]>,
    normals: Vec<V>,
    /// Vertex adjacency in CSR form: the neighbours of vertex `i` are
    /// `neighbours[neighbour_start[i]..neighbour_start[i + 1]]`.
    neighbour_start: Vec<u32>,
    neighbours: Vec<u32>,
    /// The direction cube map: for each of its cells, where the climb starts (see
    /// [`cube_map`]).
    starts: Vec<u32>,
    /// Hill climbing is used (many vertices, all of them corners); otherwise a scan.
    climb: bool,
    /// The vertices eight to a block by axis and lane, for the scan (`scan::blocks8`;
    /// `f32` only); empty when the support climbs or scans the vertices as they are.
    blocks: Vec<[f32; super::scan::BLOCK]>,
    interior: V,
    /// No triangles merged: face `f` is triangle `f`, its normal `normals[f]`, and
    /// `face_start`, `face_loops` and `merged_normals` are empty (on a million-point sphere
    /// this saves a quarter of the hull's memory).
    faces_are_triangles: bool,
    /// Merged polygonal faces: face `f`'s loop is `face_loops[face_start[f]..face_start[f + 1]]`.
    face_start: Vec<u32>,
    face_loops: Vec<u32>,
    /// Outward unit normal of each merged face.
    merged_normals: Vec<V>,
    /// Each face's plane offset, in `f64` (the struct has no `Vector` bound to name the
    /// scalar; converted when read).
    offsets: Vec<f64>,
    /// Each edge once: vertices (lower first) and the two faces beside it.
    edges: Vec<([u32; 2], [u32; 2])>,
    /// Vertex-to-face incidence (CSR).
    vertex_face_start: Vec<u32>,
    vertex_faces: Vec<u32>,
    /// The largest distance of a vertex from the local origin (in every component).
    extent: V,
}

impl<V> ConvexHull<V> {
    /// The vertices, when the support scans them (few of them) rather than climbing: one
    /// pass over them is then the cheapest way to their extremes along several directions.
    pub(crate) fn scanned_vertices(&self) -> Option<&[V]> {
        (!self.climb).then_some(self.vertices.as_slice())
    }
}

impl<V: Vector3> ConvexHull<V> {
    /// The convex hull of `points`: quickhull with exact orientation tests (see
    /// `hull_build3d.rs` for the algorithm and its robustness measures).
    ///
    /// The computation runs in `f64` whatever `V` is; the vertices are input points, bit for
    /// bit. With `tol = 3 ε (max|x| + max|y| + max|z|)` (ε the machine epsilon of `V`'s
    /// scalar, so the tolerance follows the precision of the input and the scale of the
    /// cloud): points within about `tol` of the surface count as on it and are not vertices,
    /// and every input point is inside the hull or at most `4 tol` outside any face plane.
    /// Duplicates are harmless. A cloud thinner than `tol` is [`ShapeError::Coplanar`]; a
    /// thin but thicker one (a square with `1e-9` jitter in `f64`) is a valid, thin hull.
    ///
    /// Expected cost `O(n log n)`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] naming the first bad coordinate (`points[4].y`),
    /// [`ShapeError::TooFewPoints`] for fewer than 4 points, [`ShapeError::Coplanar`] when the
    /// points span no volume (all within `tol` of one plane, one line or one point),
    /// [`ShapeError::TooManyPoints`] for `u32::MAX` points or more (indices are `u32`).
    pub fn try_from_points(points: &[V]) -> Result<Self, ShapeError> {
        check_points(points, 4)?;
        if points.len() >= u32::MAX as usize {
            return Err(ShapeError::TooManyPoints { count: points.len(), max: u32::MAX as usize - 1 });
        }
        let coords: Vec<[f64; 3]> = points.iter().map(|p| p.to_f64_array()).collect();
        let mesh = convex_hull(coords, V::Real::EPSILON.to_f64())
            .map_err(|_| ShapeError::Coplanar { count: points.len() })?;
        let vertices: Vec<V> = mesh.vertices.iter().map(|&i| points[i as usize]).collect();
        let f64s: Vec<[f64; 3]> = mesh.vertices.iter().map(|&i| points[i as usize].to_f64_array()).collect();
        drop(mesh.vertices);
        // The build tolerance, in the input's units (see `hull_build3d::convex_hull`).
        let sums = (0..3).map(|k| f64s.iter().fold(0.0f64, |m, p| m.max(p[k].abs()))).sum::<f64>();
        let tol = 3.0 * V::Real::EPSILON.to_f64() * sums;
        // The adjacency is handed over and freed inside, before the incidence is built: the
        // largest of these arrays coexist here, at the peak of a big build's memory.
        let mut faces = hull_faces(&f64s, &mesh.triangles, mesh.adjacent, tol);
        let n = f64s.len() as f64;
        let centroid = f64s.iter().fold([0.0; 3], |s, p| [s[0] + p[0] / n, s[1] + p[1] / n, s[2] + p[2] / n]);
        let extent =
            f64s.iter().map(|p| (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt()).fold(0.0, f64::max);
        drop(f64s);
        let normals =
            core::mem::take(&mut faces.triangle_normals).into_iter().map(V::from_f64_array).collect();
        let (neighbour_start, neighbours) = adjacency(vertices.len(), &mesh.triangles);
        let by_blocks = V::Real::IS_F32 && (vertices.len() <= ONE_BLOCK || vertices.len() >= BLOCK_SCAN_FROM);
        let climb = mesh.clean && vertices.len() > if by_blocks { BLOCK_SCAN_LIMIT } else { SCAN_LIMIT };
        Ok(Self {
            faces_are_triangles: faces.are_triangles,
            face_start: faces.start,
            face_loops: faces.loops,
            merged_normals: faces.normals.into_iter().map(V::from_f64_array).collect(),
            offsets: faces.offsets,
            edges: faces.edges,
            vertex_face_start: faces.vertex_face_start,
            vertex_faces: faces.vertex_faces,
            extent: V::splat(V::Real::from_f64(extent)),
            starts: if climb { cube_map(&vertices, &neighbour_start, &neighbours) } else { Vec::new() },
            blocks: if climb || !by_blocks {
                Vec::new()
            } else {
                super::scan::blocks8(&vertices).unwrap_or_default()
            },
            climb,
            interior: V::from_f64_array(centroid),
            vertices,
            triangles: mesh.triangles,
            normals,
            neighbour_start,
            neighbours,
        })
    }

    /// The convex hull of `points`.
    ///
    /// # Panics
    /// On the inputs [`ConvexHull::try_from_points`] refuses.
    #[must_use]
    pub fn from_points(points: &[V]) -> Self {
        Self::try_from_points(points).unwrap_or_else(|e| panic!("ConvexHull::from_points: {e}"))
    }

    /// The vertices: the input points that are corners of the hull, in no particular order.
    #[must_use]
    pub fn vertices(&self) -> &[V] {
        &self.vertices
    }

    /// The triangles of the surface, as indices into [`vertices`](Self::vertices),
    /// counter-clockwise seen from outside. The surface is closed: every edge is shared by
    /// exactly two triangles.
    #[must_use]
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// How many polygonal faces the hull has: coplanar neighbouring triangles are merged into
    /// one face (a cube has 6), within the build tolerance of
    /// [`try_from_points`](Self::try_from_points).
    ///
    /// The faces, [`edges`](Self::edges) and [`vertices`](Self::vertices) satisfy Euler's
    /// formula `V - E + F = 2`.
    #[must_use]
    pub fn face_count(&self) -> usize {
        self.offsets.len()
    }

    /// The corners of face `f` (indices into [`vertices`](Self::vertices)),
    /// counter-clockwise seen from outside.
    ///
    /// # Panics
    /// When `f >= face_count()`.
    #[must_use]
    pub fn face_vertices(&self, f: usize) -> &[u32] {
        if self.faces_are_triangles {
            &self.triangles[f]
        } else {
            &self.face_loops[self.face_start[f] as usize..self.face_start[f + 1] as usize]
        }
    }

    /// The plane of face `f` in the hull's local frame: its outward unit normal `n` and offset
    /// `d`, so that the face lies on `n · x = d` and the hull in `n · x <= d` (both within the
    /// build tolerance; `d` is the largest `n · v` over the face's corners).
    ///
    /// # Panics
    /// When `f >= face_count()`.
    #[must_use]
    pub fn face_plane(&self, f: usize) -> (V, V::Real) {
        (self.face_normal(f), V::Real::from_f64(self.offsets[f]))
    }

    /// Every edge between two faces, once: `([i, j], [f, g])` joins vertices `i < j` and
    /// separates face `f` (which runs the edge from `i` to `j`) from face `g`.
    #[must_use]
    pub fn edges(&self) -> &[([u32; 2], [u32; 2])] {
        &self.edges
    }

    /// The faces around vertex `i`.
    ///
    /// # Panics
    /// When `i` is not a vertex index.
    #[must_use]
    pub fn vertex_faces(&self, i: usize) -> &[u32] {
        &self.vertex_faces[self.vertex_face_start[i] as usize..self.vertex_face_start[i + 1] as usize]
    }

    /// The outward unit normal of each triangle (same order as
    /// [`triangles`](Self::triangles)), computed in `f64`.
    #[must_use]
    pub fn face_normals(&self) -> &[V] {
        &self.normals
    }

    /// The vertices joined to vertex `i` by an edge of the surface (indices into
    /// [`vertices`](Self::vertices)).
    ///
    /// # Panics
    /// When `i` is not a vertex index.
    #[must_use]
    pub fn neighbours(&self, i: usize) -> &[u32] {
        &self.neighbours[self.neighbour_start[i] as usize..self.neighbour_start[i + 1] as usize]
    }
}

impl<V: Copy> ConvexHull<V> {
    /// The outward unit normal of face `f`.
    #[inline(always)]
    fn face_normal(&self, f: usize) -> V {
        if self.faces_are_triangles {
            self.normals[f]
        } else {
            self.merged_normals[f]
        }
    }
}

/// The CSR vertex adjacency of a closed mesh: each directed edge `a -> b` appears in exactly
/// one triangle, so listing `b` under `a` for each lists every neighbour once.
fn adjacency(n: usize, triangles: &[[u32; 3]]) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; n + 1];
    for t in triangles {
        for &a in t {
            start[a as usize + 1] += 1;
        }
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut neighbours = vec![0u32; start[n] as usize];
    for t in triangles {
        for k in 0..3 {
            let a = t[k] as usize;
            neighbours[fill[a] as usize] = t[(k + 1) % 3];
            fill[a] += 1;
        }
    }
    (start, neighbours)
}

/// Cells along each side of a face of the direction cube map (6 faces of CELLS² cells).
const CELLS: usize = 8;

/// The cell of the direction cube map that `d` falls in: the face of the dominant axis and
/// sign, then a grid over the other two components divided by the dominant one.
#[inline(always)]
fn cube_cell<V: Vector3>(d: V) -> usize {
    let (x, y, z) = (d[0], d[1], d[2]);
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, m, u, w) = if ax >= ay && ax >= az {
        (if x >= V::Real::ZERO { 0 } else { 1 }, ax, y, z)
    } else if ay >= az {
        (if y >= V::Real::ZERO { 2 } else { 3 }, ay, z, x)
    } else {
        (if z >= V::Real::ZERO { 4 } else { 5 }, az, x, y)
    };
    if m <= V::Real::ZERO {
        return 0; // zero direction: any start will do (NaN falls through to cell 0 below)
    }
    let half = V::Real::from_usize(CELLS) * V::Real::HALF;
    let cell = |t: V::Real| {
        let c = ((t / m + V::Real::ONE) * half).to_f64() as usize; // truncation toward zero
        c.min(CELLS - 1)
    };
    (face * CELLS + cell(u)) * CELLS + cell(w)
}

/// The direction at the centre of cube-map cell `index` (the inverse of [`cube_cell`]).
fn cell_direction(index: usize) -> [f64; 3] {
    let (face, rest) = (index / (CELLS * CELLS), index % (CELLS * CELLS));
    let centre = |c: usize| (c as f64 + 0.5) / CELLS as f64 * 2.0 - 1.0;
    let (u, w) = (centre(rest / CELLS), centre(rest % CELLS));
    let s = if face % 2 == 0 { 1.0 } else { -1.0 };
    match face / 2 {
        0 => [s, u, w],
        1 => [w, s, u],
        _ => [u, w, s],
    }
}

/// For every cell of the direction cube map, the extreme vertex along the cell's centre
/// direction: where a climb starts, a few steps from the answer for any direction in the
/// cell. Each cell's answer is found by climbing from the previous cell's (neighbouring
/// cells have nearby answers), so the table costs little more than its size to build.
fn cube_map<V: Vector3>(points: &[V], start: &[u32], neighbours: &[u32]) -> Vec<u32> {
    let dot = |p: &V, d: &[f64; 3]| {
        let p = p.to_f64_array();
        p[0] * d[0] + p[1] * d[1] + p[2] * d[2]
    };
    let mut table = Vec::with_capacity(6 * CELLS * CELLS);
    let mut i = 0usize;
    for cell in 0..6 * CELLS * CELLS {
        let d = cell_direction(cell);
        for _ in 0..points.len() {
            let mut next = i;
            for &j in &neighbours[start[i] as usize..start[i + 1] as usize] {
                if dot(&points[j as usize], &d) > dot(&points[next], &d) {
                    next = j as usize;
                }
            }
            if next == i {
                break;
            }
            i = next;
        }
        table.push(i as u32);
    }
    table
}

impl<V: Vector3> Support<V> for ConvexHull<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        let mut hint = super::NO_HINT;
        self.support_hinted(dir, &mut hint)
    }

    /// With many vertices, climbs from a start vertex to a neighbour with a larger dot
    /// product until none is larger: on a convex polyhedron whose vertices are all corners,
    /// a vertex no neighbour improves on is a global maximum. The start is the better of
    /// vertex `*hint` and the vertex the direction cube map gives for `dir` (so a stale hint,
    /// as GJK's first iterations leave, costs nothing). With few vertices, scans.
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        let v = &self.vertices;
        let n = v.len();
        let hinted = (*hint as usize) < n;
        if !self.climb {
            // Exact: only `f32` hulls keep blocks.
            let dir32 = || dir.to_f64_array().map(|x| x as f32);
            let best = if let [block] = self.blocks.as_slice() {
                super::scan::scan_block(block, dir32())
            } else if self.blocks.is_empty() {
                super::scan::scan(v, dir)
            } else {
                super::scan::scan_blocks(&self.blocks, dir32())
            };
            *hint = best as u32;
            return v[best];
        }
        let mut i = self.starts[cube_cell(dir)] as usize;
        if hinted && v[*hint as usize].dot(dir) > v[i].dot(dir) {
            i = *hint as usize;
        }
        let mut best_dot = v[i].dot(dir);
        // Each step strictly increases the dot product, so no vertex is visited twice and
        // ties (a face or an edge square to `dir`) cannot cycle: at most n - 1 steps.
        for _ in 0..n {
            let mut next = i;
            let range = self.neighbour_start[i] as usize..self.neighbour_start[i + 1] as usize;
            for &j in &self.neighbours[range] {
                let d = v[j as usize].dot(dir);
                if d > best_dot {
                    best_dot = d;
                    next = j as usize;
                }
            }
            if next == i {
                break;
            }
            i = next;
        }
        *hint = i as u32;
        v[i]
    }

    #[inline]
    fn interior_point(&self) -> V {
        self.interior
    }

    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Hull(self)
    }

    /// The face whose normal is most aligned with `dir` among the faces around the support
    /// vertex (all faces when there are few): vertex ids are hull vertex indices, the
    /// feature is `Feature::Face(f)` with `f` a face index (see
    /// [`face_vertices`](ConvexHull::face_vertices)). Faces with more than
    /// [`crate::shape::MAX_FACE_POINTS`] corners give their first ones.
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        let f = self.best_face(dir);
        face.reset(Feature::Face(f as u32));
        for &v in self.face_vertices(f) {
            face.push(self.vertices[v as usize], v);
        }
    }
}

impl<V: crate::math::Vector> ConvexHull<V> {
    /// Each merged face's outward unit normal and offset, as [`ConvexHull::face_plane`]
    /// gives them, for code generic over the dimension (the ray cast).
    #[inline]
    pub(crate) fn face_planes_iter(&self) -> impl Iterator<Item = (V, V::Real)> + '_ {
        (0..self.offsets.len()).map(|f| (self.face_normal(f), V::Real::from_f64(self.offsets[f])))
    }

    /// The number of merged faces, for code generic over the dimension.
    #[inline]
    pub(crate) fn plane_count(&self) -> usize {
        self.offsets.len()
    }
}

impl<V: Vector3> ConvexHull<V> {
    /// The largest distance of a vertex from the local origin.
    #[inline(always)]
    pub(crate) fn extent_bound(&self) -> V::Real {
        self.extent[0]
    }

    /// The face most aligned with `dir` (see `support_face`).
    #[inline]
    pub(crate) fn best_face(&self, dir: V) -> usize {
        let pick = |faces: &mut dyn Iterator<Item = usize>| {
            let mut best = (V::Real::INFINITY * -V::Real::ONE, 0usize);
            for f in faces {
                let d = self.face_normal(f).dot(dir);
                if d > best.0 {
                    best = (d, f);
                }
            }
            best.1
        };
        if self.offsets.len() <= 32 {
            pick(&mut (0..self.offsets.len()))
        } else {
            let mut hint = super::NO_HINT;
            self.support_hinted(dir, &mut hint);
            let i = hint as usize;
            let first = self.vertex_face_start[i] as usize;
            let last = self.vertex_face_start[i + 1] as usize;
            pick(&mut self.vertex_faces[first..last].iter().map(|&f| f as usize))
        }
    }
}
