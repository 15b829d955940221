//! Triangle meshes (3D): triangles over shared vertices, in a BVH, with the adjacency that
//! keeps contacts off internal edges.

use super::internal_edges::{self, Neighbour};
use super::mesh_report::{self, MeshReport};
use super::sweep::SoupParts;
use super::weld::{self, position_key, Weld};
use super::Composite;
use crate::bvh::{Bvh, BvhError};
use crate::math::{Aabb, Pose, Vector3};
use crate::query::cast::{Ray, RayOutcome, TriangleRay};
use crate::query::Space;
use crate::shape::{Feature, Triangle};
use std::fmt;

/// No neighbour across an edge: a boundary edge, or one shared by more than two triangles.
const NO_NEIGHBOUR: u32 = u32::MAX;

/// Why a [`TriMesh`] could not be built.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TriMeshError {
    /// No vertices or no triangles.
    Empty {
        /// `"vertices"` or `"indices"`.
        what: &'static str,
    },
    /// A vertex coordinate is NaN or infinite.
    NonFiniteVertex {
        /// The vertex.
        index: usize,
    },
    /// A triangle names a vertex that does not exist.
    IndexOutOfRange {
        /// The triangle.
        triangle: usize,
        /// Which of its corners (0, 1, 2).
        corner: usize,
        /// The index it gives.
        index: u32,
        /// How many vertices there are.
        vertex_count: usize,
    },
    /// [`TriMesh::set_vertices`] was given a different number of vertices.
    VertexCountChanged {
        /// The mesh's count.
        expected: usize,
        /// The count given.
        got: usize,
    },
    /// More triangles or vertices than `u32` indices address.
    TooLarge {
        /// `"vertices"` or `"indices"`.
        what: &'static str,
        /// How many were given.
        count: usize,
    },
    /// A [`Weld::Within`] tolerance that is negative or not finite.
    BadWeldTolerance {
        /// The tolerance given.
        value: f64,
    },
}

impl fmt::Display for TriMeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty { what } => write!(f, "a mesh needs at least one entry in {what}, got none"),
            Self::NonFiniteVertex { index } => write!(f, "vertices[{index}] is not finite"),
            Self::IndexOutOfRange { triangle, corner, index, vertex_count } => write!(
                f,
                "indices[{triangle}][{corner}] = {index} is out of range: there are {vertex_count} vertices"
            ),
            Self::VertexCountChanged { expected, got } => {
                write!(f, "the mesh has {expected} vertices, {got} were given to replace them")
            }
            Self::TooLarge { what, count } => {
                write!(f, "{what} has {count} entries, more than u32 indices address")
            }
            Self::BadWeldTolerance { value } => {
                write!(f, "the weld tolerance must be finite and >= 0, got {value}")
            }
        }
    }
}

impl std::error::Error for TriMeshError {}

/// A triangle mesh in its **local frame**: vertices, triangles as index triples, a
/// [`Bvh`] over the triangles, and which triangle lies across each edge.
///
/// Any triangle soup is accepted: open or closed, consistently wound or not, with
/// degenerate triangles (kept, and answered through their edges). Vertices at exactly the
/// same position count as one for the adjacency, so a soup whose triangles repeat their
/// corners still has its seams recognised. The mesh is a surface, seen from both sides:
/// a shape inside a closed mesh is not overlapping it.
///
/// ```
/// use kollide::composite::TriMesh;
/// use kollide::math::Vec3;
/// let quad = TriMesh::try_new(
///     vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z],
///     vec![[0, 2, 1], [0, 3, 2]],
/// ).unwrap();
/// assert_eq!(quad.triangle_count(), 2);
/// assert_eq!(quad.neighbour(0, 0), Some(1)); // across the diagonal 0-2
/// ```
#[derive(Clone, Debug)]
pub struct TriMesh<V: Vector3 + Space> {
    vertices: Vec<V>,
    indices: Vec<[u32; 3]>,
    /// `neighbours[t][k]`: the triangle across edge `k` (corner `k` to `k + 1`) of `t`.
    neighbours: Vec<[u32; 3]>,
    /// Triangle corners in the order of the tree's leaves (`slot_corners[k]` is triangle
    /// `bvh.item_order()[k]`): a ray reads the triangles it tests side by side.
    slot_corners: Vec<[V; 3]>,
    /// Per vertex: a real corner of the surface (on the boundary or on a crease), where
    /// contacts keep their normals.
    corner: Vec<bool>,
    bvh: Bvh<V>,
    /// Vertices merged into others when built ([`TriMesh::try_new_welded`]).
    welded: usize,
}

impl<V: Vector3 + Space> TriMesh<V> {
    /// The mesh of `indices` over `vertices`.
    ///
    /// # Errors
    /// [`TriMeshError`] naming the bad value: no vertices or no triangles, a non-finite
    /// vertex, an index out of range, more than `u32` can count.
    pub fn try_new(vertices: Vec<V>, indices: Vec<[u32; 3]>) -> Result<Self, TriMeshError> {
        check(&vertices, &indices)?;
        let boxes: Vec<Aabb<V>> = map_range(indices.len(), |i| triangle_box(&vertices, &indices[i]));
        let bvh = Bvh::try_new_best(&boxes).map_err(|e| match e {
            // Finite vertices make finite boxes, and the counts were checked above.
            BvhError::TooManyItems { count } => TriMeshError::TooLarge { what: "indices", count },
            _ => TriMeshError::NonFiniteVertex { index: 0 },
        })?;
        let adjacent = adjacency(&vertices, &indices);
        let mut mesh = Self {
            vertices,
            indices,
            neighbours: Vec::new(),
            slot_corners: Vec::new(),
            corner: Vec::new(),
            bvh,
            welded: 0,
        };
        mesh.corner = mesh.corners_of_surface(adjacent);
        let order = mesh.bvh.item_order();
        mesh.slot_corners = map_range(order.len(), |k| mesh.corners(order[k]));
        Ok(mesh)
    }

    /// The mesh of `indices` over `vertices`, with the vertices welded as `weld` says: the
    /// same triangles, in the same order, at the same corners (within the tolerance of
    /// [`Weld::Within`]), over fewer vertices. How many merged is
    /// [`welded_vertices`](Self::welded_vertices), also in the [`report`](Self::report).
    ///
    /// ```
    /// use kollide::composite::{TriMesh, Weld};
    /// use kollide::math::DVec3;
    /// // Two triangles of a square stored as a soup: six corners, four positions.
    /// let soup = vec![DVec3::ZERO, DVec3::X, DVec3::new(1.0, 0.0, 1.0),
    ///                 DVec3::ZERO, DVec3::new(1.0, 0.0, 1.0), DVec3::Z];
    /// let quad = TriMesh::try_new_welded(soup, vec![[0, 2, 1], [3, 5, 4]], Weld::Exact).unwrap();
    /// assert_eq!((quad.vertices().len(), quad.welded_vertices()), (4, 2));
    /// assert_eq!(quad.indices(), &[[0, 2, 1], [0, 3, 2]]);
    /// ```
    ///
    /// # Errors
    /// As [`try_new`](Self::try_new), naming the vertices and indices as given, and
    /// [`TriMeshError::BadWeldTolerance`].
    pub fn try_new_welded(
        vertices: Vec<V>,
        mut indices: Vec<[u32; 3]>,
        weld: Weld,
    ) -> Result<Self, TriMeshError> {
        if let Weld::Within(value) = weld {
            if !(value.is_finite() && value >= 0.0) {
                return Err(TriMeshError::BadWeldTolerance { value });
            }
        }
        check(&vertices, &indices)?;
        let Some(welded) = weld::weld(&vertices, weld) else { return Self::try_new(vertices, indices) };
        for t in &mut indices {
            *t = t.map(|i| welded.remap[i as usize]);
        }
        let merged = vertices.len() - welded.vertices.len();
        let mut mesh = Self::try_new(welded.vertices, indices)?;
        mesh.welded = merged;
        Ok(mesh)
    }

    /// The mesh of `indices` over `vertices`.
    ///
    /// # Panics
    /// With the message of [`try_new`](Self::try_new)'s error.
    #[must_use]
    pub fn new(vertices: Vec<V>, indices: Vec<[u32; 3]>) -> Self {
        Self::try_new(vertices, indices).unwrap_or_else(|e| panic!("TriMesh::new: {e}"))
    }

    /// The vertices.
    #[must_use]
    pub fn vertices(&self) -> &[V] {
        &self.vertices
    }

    /// The triangles, as indices into [`vertices`](Self::vertices).
    #[must_use]
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.indices
    }

    /// How many triangles.
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        self.indices.len()
    }

    /// Triangle `i`'s corners.
    #[inline]
    #[must_use]
    pub fn corners(&self, i: u32) -> [V; 3] {
        let t = self.indices[i as usize];
        [self.vertices[t[0] as usize], self.vertices[t[1] as usize], self.vertices[t[2] as usize]]
    }

    /// Triangle `i` as a shape.
    #[inline]
    #[must_use]
    pub fn triangle(&self, i: u32) -> Triangle<V> {
        let [a, b, c] = self.corners(i);
        Triangle { a, b, c }
    }

    /// The triangle across edge `k` (corner `k` to corner `k + 1`) of triangle `i`; `None`
    /// on the boundary, or where more than two triangles share the edge.
    #[must_use]
    pub fn neighbour(&self, i: u32, k: usize) -> Option<u32> {
        let n = self.neighbours[i as usize][k];
        (n != NO_NEIGHBOUR).then_some(n)
    }

    /// How many vertices were merged into others when the mesh was built
    /// ([`try_new_welded`](Self::try_new_welded), the file readers); 0 otherwise.
    #[must_use]
    pub fn welded_vertices(&self) -> usize {
        self.welded
    }

    /// The mesh's diagnostics: counts of vertices, welded and duplicate vertices, zero-area
    /// and sliver triangles, boundary, non-manifold and misoriented edges, whether it is
    /// closed and consistently oriented, its box and its memory. Computed on each call
    /// (linear in the size of the mesh).
    ///
    /// ```
    /// use kollide::composite::TriMesh;
    /// use kollide::math::DVec3;
    /// // A tetrahedron, its faces wound outwards.
    /// let v = vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
    /// let tet = TriMesh::new(v, vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]);
    /// let r = tet.report();
    /// assert_eq!((r.triangles, r.vertices, r.edges, r.boundary_edges), (4, 4, 6, 0));
    /// assert!(r.closed && r.oriented);
    /// ```
    #[must_use]
    pub fn report(&self) -> MeshReport<V> {
        mesh_report::report(self)
    }

    /// The hierarchy over the triangles (item `i` is triangle `i`).
    #[must_use]
    pub fn bvh(&self) -> &Bvh<V> {
        &self.bvh
    }

    /// Heap bytes held by the mesh (vertices, triangles, adjacency, BVH).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.vertices.capacity() * core::mem::size_of::<V>()
            + self.indices.capacity() * 12
            + self.neighbours.capacity() * 12
            + self.corner.capacity()
            + self.slot_corners.capacity() * core::mem::size_of::<[V; 3]>()
            + self.bvh.memory_bytes()
    }

    /// The neighbour across edge `k` of triangle `i` as the internal-edge rule needs it.
    fn neighbour_of(&self, i: u32, k: usize) -> Option<Neighbour<V>> {
        self.neighbour_with(i, k, |j| internal_edges::face_normal(&self.corners(j)))
    }

    /// [`Self::neighbour_of`] with the neighbour `j`'s face normal given by `normal(j)`.
    fn neighbour_with(&self, i: u32, k: usize, normal: impl Fn(u32) -> Option<V>) -> Option<Neighbour<V>> {
        let tri = self.indices[i as usize];
        let j = self.neighbour(i, k)?;
        let other = self.corners(j);
        let mut n = normal(j)?;
        // The neighbour runs the shared edge the other way when both are wound alike; the
        // same way means its winding (hence its normal) is flipped.
        let (a, b) = (self.vertices[tri[k] as usize], self.vertices[tri[(k + 1) % 3] as usize]);
        let shared_same_way = (0..3).any(|m| other[m] == a && other[(m + 1) % 3] == b);
        if shared_same_way {
            n = -n;
        }
        let apex = (0..3).map(|m| other[m]).find(|&p| p != a && p != b)?;
        Some(Neighbour { normal: n, apex })
    }

    /// Takes the mesh's neighbours from `adjacent` and says which vertices are real corners
    /// of the surface: on a boundary or crease edge, or of a degenerate triangle. Each side
    /// is judged as [`internal_edges::edge_is_active`] judges it with the neighbour from
    /// [`Self::neighbour_of`], its normal flipped where the neighbour runs the edge the
    /// same way (`adjacent.same_way`, found with the neighbours).
    fn corners_of_surface(&mut self, adjacent: Adjacency) -> Vec<bool> {
        let Adjacency { neighbours, canon, same_way, tris, start, around } = adjacent;
        self.neighbours = neighbours;
        let normals: Vec<Option<V>> =
            map_range(self.indices.len(), |i| internal_edges::face_normal(&self.corners(i as u32)));
        // Bit `k`: side `k` is active.
        let sides = map_range(self.indices.len(), |i| {
            (0..3).fold(0u8, |bits, k| {
                let is_active = match normals[i] {
                    None => true,
                    Some(n) => {
                        let j = self.neighbours[i][k];
                        let other = (j != NO_NEIGHBOUR).then(|| normals[j as usize]).flatten();
                        let flip = same_way[i] >> k & 1 == 1;
                        internal_edges::edge_is_active(n, other.map(|m| if flip { -m } else { m }))
                    }
                };
                bits | u8::from(is_active) << k
            })
        });
        // A position is a corner when an active side starts or ends there: of each use, the
        // side from its corner and the side into it (a degenerate triangle's sides counted
        // from the triangle).
        let active = map_range(self.vertices.len(), |v| {
            around[start[v] as usize..start[v + 1] as usize].iter().any(|e| {
                let bits = sides[e.tri as usize];
                if e.next == DEGENERATE {
                    let t = &tris[e.tri as usize];
                    (0..3).any(|k| bits >> k & 1 == 1 && (t[k] as usize == v || t[(k + 1) % 3] as usize == v))
                } else {
                    (bits >> e.corner | bits >> ((e.corner + 2) % 3)) & 1 == 1
                }
            })
        });
        map_range(self.vertices.len(), |v| active[canon[v] as usize])
    }

    /// Moves the vertices (same count, same triangles): the hierarchy is refitted (same
    /// topology) and the adjacency recomputed.
    ///
    /// # Errors
    /// [`TriMeshError::NonFiniteVertex`] or [`TriMeshError::VertexCountChanged`]; the mesh
    /// is unchanged on error.
    pub fn set_vertices(&mut self, vertices: Vec<V>) -> Result<(), TriMeshError> {
        if vertices.len() != self.vertices.len() {
            return Err(TriMeshError::VertexCountChanged {
                expected: self.vertices.len(),
                got: vertices.len(),
            });
        }
        if let Some(index) = vertices.iter().position(|v| !v.is_finite_vec()) {
            return Err(TriMeshError::NonFiniteVertex { index });
        }
        let boxes: Vec<Aabb<V>> = self.indices.iter().map(|t| triangle_box(&vertices, t)).collect();
        self.bvh.refit(&boxes).map_err(|_| TriMeshError::NonFiniteVertex { index: 0 })?;
        self.vertices = vertices;
        // Coincident vertices and creases may have changed with the positions.
        self.corner = self.corners_of_surface(adjacency(&self.vertices, &self.indices));
        self.slot_corners = self.bvh.item_order().iter().map(|&i| self.corners(i)).collect();
        Ok(())
    }
}

/// The checks of [`TriMesh::try_new`]: something to build, counts that `u32` addresses,
/// finite vertices, indices in range.
fn check<V: Vector3 + Space>(vertices: &[V], indices: &[[u32; 3]]) -> Result<(), TriMeshError> {
    if vertices.is_empty() {
        return Err(TriMeshError::Empty { what: "vertices" });
    }
    if indices.is_empty() {
        return Err(TriMeshError::Empty { what: "indices" });
    }
    for (what, count) in [("vertices", vertices.len()), ("indices", indices.len())] {
        if count >= u32::MAX as usize {
            return Err(TriMeshError::TooLarge { what, count });
        }
    }
    if let Some(index) = vertices.iter().position(|v| !v.is_finite_vec()) {
        return Err(TriMeshError::NonFiniteVertex { index });
    }
    for (triangle, t) in indices.iter().enumerate() {
        for (corner, &index) in t.iter().enumerate() {
            if index as usize >= vertices.len() {
                return Err(TriMeshError::IndexOutOfRange {
                    triangle,
                    corner,
                    index,
                    vertex_count: vertices.len(),
                });
            }
        }
    }
    Ok(())
}

fn triangle_box<V: Vector3 + Space>(vertices: &[V], t: &[u32; 3]) -> Aabb<V> {
    Aabb::from_points(t.iter().map(|&i| vertices[i as usize]))
}

/// `f(i)` for every `i` in `0..n`, in order; on all cores with the `rayon` feature.
fn map_range<T: Send>(n: usize, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        (0..n).into_par_iter().with_min_len(4096).map(f).collect()
    }
    #[cfg(not(feature = "rayon"))]
    {
        (0..n).map(f).collect()
    }
}

/// Runs `fill(k, part)` on the consecutive parts of `dest` cut at `cuts` (part `k` is
/// `dest[cuts[k]..cuts[k + 1]]`; `cuts` starts at 0 and ends at `dest.len()`), on all
/// cores with the `rayon` feature. For scatters: each `fill` reads its whole input in order
/// and writes only what lands in its part, so the random writes are shared out.
fn fill_parts<T: Send>(dest: &mut [T], cuts: &[usize], fill: impl Fn(usize, &mut [T]) + Sync + Send) {
    let mut parts = Vec::with_capacity(cuts.len().saturating_sub(1));
    let mut rest = dest;
    for w in cuts.windows(2) {
        let (part, tail) = rest.split_at_mut(w[1] - w[0]);
        parts.push(part);
        rest = tail;
    }
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        parts.into_par_iter().enumerate().for_each(|(k, part)| fill(k, part));
    }
    #[cfg(not(feature = "rayon"))]
    for (k, part) in parts.into_iter().enumerate() {
        fill(k, part);
    }
}

/// How many parts [`fill_parts`] cuts a scatter into: one a thread.
fn scatter_parts() -> usize {
    #[cfg(feature = "rayon")]
    {
        rayon::current_num_threads().max(1)
    }
    #[cfg(not(feature = "rayon"))]
    {
        1
    }
}

/// `parts + 1` cuts of `0..n` into equal parts.
fn even_cuts(n: usize, parts: usize) -> Vec<usize> {
    (0..=parts).map(|k| n * k / parts).collect()
}

/// What [`adjacency`] finds: the triangle across each edge, each vertex's canonical id,
/// and for each triangle which of its sides the neighbour runs the same way (bit `k`:
/// the neighbour across side `k` has that side from corner `k` to corner `k + 1` too).
struct Adjacency {
    neighbours: Vec<[u32; 3]>,
    canon: Vec<u32>,
    same_way: Vec<u8>,
    /// The triangles by canonical ids, and the uses of each position
    /// (`around[start[v]..start[v + 1]]`), for the corner flags.
    tris: Vec<[u32; 3]>,
    start: Vec<u32>,
    around: Vec<Around>,
}

/// One use of a position by a triangle: the triangle, which of its corners is there, and
/// the positions after and before it along the triangle's winding (`next == DEGENERATE`
/// for a triangle with two corners at one position, whose sides are counted from the
/// triangle itself).
#[derive(Clone, Copy, Default)]
struct Around {
    tri: u32,
    next: u32,
    prev: u32,
    corner: u8,
}

/// Canonical ids are below `u32::MAX` (vertex counts are), so this marks no position.
const DEGENERATE: u32 = u32::MAX;

/// The triangle across each edge, by vertex position (exact duplicates are one vertex), and
/// each vertex's canonical id (the first index at its position).
///
/// An edge used by exactly two triangle sides (twice by one degenerate triangle included)
/// pairs them; an edge used once borders nothing, and one used three times or more is
/// non-manifold: no single neighbour on any of its sides. A collapsed edge (both ends at one
/// position) borders nothing.
///
/// How: the uses of each position (a compressed list, each triangle once per position it
/// touches, with the positions beside it along the winding). A side from `a` to `b` is
/// used by every triangle in `a`'s list that holds `b`, so the lists are read one after
/// the other, each side answered from its first end's list without reading the other
/// triangles (with the `rayon` feature, the positions shared out across threads); the
/// sides of degenerate triangles are counted from the triangles.
fn adjacency<V: Vector3 + Space>(vertices: &[V], indices: &[[u32; 3]]) -> Adjacency {
    // Canonical vertex ids: the first index at each exact position (+0.0 and -0.0 are one
    // position), from the vertices sorted by position and then index.
    let mut sorted: Vec<([u64; 3], u32)> =
        map_range(vertices.len(), |i| (position_key(vertices[i]), i as u32));
    #[cfg(feature = "rayon")]
    rayon::slice::ParallelSliceMut::par_sort_unstable(&mut sorted[..]);
    #[cfg(not(feature = "rayon"))]
    sorted.sort_unstable();
    // Each sorted entry's canonical id (its run's first index), then scattered by index.
    let mut first = Vec::with_capacity(sorted.len());
    for run in sorted.chunk_by(|x, y| x.0 == y.0) {
        first.extend(core::iter::repeat_n(run[0].1, run.len()));
    }
    let mut canon = vec![0u32; vertices.len()];
    let parts = scatter_parts();
    let cuts = even_cuts(vertices.len(), parts);
    fill_parts(&mut canon, &cuts, |k, part| {
        let lo = cuts[k];
        for (&(_, i), &c) in sorted.iter().zip(&first) {
            if let Some(slot) = (i as usize).checked_sub(lo).and_then(|j| part.get_mut(j)) {
                *slot = c;
            }
        }
    });
    drop((sorted, first));
    let tris: Vec<[u32; 3]> = map_range(indices.len(), |i| indices[i].map(|v| canon[v as usize]));
    let degenerate = |t: &[u32; 3]| t[0] == t[1] || t[1] == t[2] || t[2] == t[0];
    // The uses of each position, by ascending triangle: `around[start[v]..start[v + 1]]`,
    // by a counting sort whose counts and writes are shared out by ranges of positions.
    let distinct = |t: &[u32; 3], k: usize| (0..k).all(|m| t[m] != t[k]);
    let mut start = vec![0u32; vertices.len() + 1];
    fill_parts(&mut start[1..], &cuts, |k, part| {
        let lo = cuts[k];
        for t in &tris {
            for c in 0..3 {
                if distinct(t, c) {
                    if let Some(n) = (t[c] as usize).checked_sub(lo).and_then(|j| part.get_mut(j)) {
                        *n += 1;
                    }
                }
            }
        }
    });
    for v in 0..vertices.len() {
        start[v + 1] += start[v];
    }
    let total = start[vertices.len()] as usize;
    // Ranges of positions holding about equal numbers of uses.
    let position_cuts: Vec<usize> = (0..=parts)
        .map(|k| {
            if k == parts {
                vertices.len()
            } else {
                start.partition_point(|&s| (s as usize) < total * k / parts)
            }
        })
        .collect();
    let use_cuts: Vec<usize> = position_cuts.iter().map(|&p| start[p] as usize).collect();
    let mut around = vec![Around::default(); total];
    fill_parts(&mut around, &use_cuts, |k, part| {
        let (lo, hi, base) = (position_cuts[k], position_cuts[k + 1], use_cuts[k]);
        let mut next: Vec<u32> = start[lo..hi].to_vec();
        for (i, t) in tris.iter().enumerate() {
            let flat = degenerate(t);
            for c in 0..3 {
                let p = t[c] as usize;
                if (lo..hi).contains(&p) && distinct(t, c) {
                    let at = &mut next[p - lo];
                    part[*at as usize - base] = Around {
                        tri: i as u32,
                        next: if flat { DEGENERATE } else { t[(c + 1) % 3] },
                        prev: t[(c + 2) % 3],
                        corner: c as u8,
                    };
                    *at += 1;
                }
            }
        }
    });
    // The uses of the edge `a b` in the list `uses` (of `a`) other than side `k` of
    // triangle `i`: the partner where there are exactly two uses, and whether it runs the
    // edge the same way.
    let partner = |uses: &[Around], i: usize, k: usize, a: u32, b: u32| -> (u32, bool) {
        let (mut count, mut other, mut same) = (0, NO_NEIGHBOUR, false);
        for e in uses {
            if e.next != DEGENERATE {
                // A triangle with three positions uses the edge `a b` once if it holds `b`.
                if e.next == b || e.prev == b {
                    count += 1;
                    if (e.tri as usize, usize::from(e.corner)) != (i, k) {
                        (other, same) = (e.tri, e.next == b);
                    }
                }
                continue;
            }
            let t = &tris[e.tri as usize];
            for m in 0..3 {
                let (p, q) = (t[m], t[(m + 1) % 3]);
                if (p == a && q == b) || (p == b && q == a) {
                    count += 1;
                    if (e.tri as usize, m) != (i, k) {
                        (other, same) = (e.tri, p == a);
                    }
                }
            }
        }
        if count == 2 {
            (other, same)
        } else {
            (NO_NEIGHBOUR, false)
        }
    };
    let list = |a: usize| &around[start[a] as usize..start[a + 1] as usize];
    // The answer for each use of a non-degenerate triangle: its side from that corner.
    let answers_of = |a: usize| {
        let uses = list(a);
        uses.iter().map(move |e| {
            if e.next == DEGENERATE {
                (NO_NEIGHBOUR, false)
            } else {
                partner(uses, e.tri as usize, usize::from(e.corner), a as u32, e.next)
            }
        })
    };
    #[cfg(feature = "rayon")]
    let answers: Vec<(u32, bool)> = {
        use rayon::prelude::*;
        (0..vertices.len()).into_par_iter().with_min_len(2048).flat_map_iter(answers_of).collect()
    };
    #[cfg(not(feature = "rayon"))]
    let answers: Vec<(u32, bool)> = {
        let mut all = Vec::with_capacity(around.len());
        for a in 0..vertices.len() {
            all.extend(answers_of(a));
        }
        all
    };
    let mut neighbours = vec![[NO_NEIGHBOUR; 3]; tris.len()];
    let mut same_way = vec![0u8; tris.len()];
    for (e, &(j, same)) in around.iter().zip(&answers) {
        neighbours[e.tri as usize][usize::from(e.corner)] = j;
        same_way[e.tri as usize] |= u8::from(same) << e.corner;
    }
    for (i, t) in tris.iter().enumerate() {
        if !degenerate(t) {
            continue;
        }
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let (j, same) =
                if a == b { (NO_NEIGHBOUR, false) } else { partner(list(a as usize), i, k, a, b) };
            neighbours[i][k] = j;
            same_way[i] = same_way[i] & !(1 << k) | u8::from(same) << k;
        }
    }
    Adjacency { neighbours, canon, same_way, tris, start, around }
}

impl<V: Vector3 + Space> Composite<V> for TriMesh<V> {
    type Part<'a> = Triangle<V>;

    fn part_count(&self) -> usize {
        self.indices.len()
    }

    /// The triangle with its first corner at the origin, placed by [`Composite::part_pose`]:
    /// the queries then work in coordinates the size of the triangle and the other shape's
    /// distance to it, not of the mesh's place in the world. In `f32` a terrain 100 units
    /// from the origin otherwise loses the rounding floor of 100-unit coordinates (a cast
    /// reported a hit 5e-4 short of the surface; see `tests/composite_mesh.rs`). The
    /// differences to a nearby corner are exact in floating point (Sterbenz), so the part
    /// is the stored triangle.
    #[inline]
    fn part(&self, i: u32) -> Triangle<V> {
        let [a, b, c] = self.corners(i);
        Triangle { a: V::ZERO, b: b - a, c: c - a }
    }

    #[inline]
    fn part_pose(&self, i: u32) -> Option<Pose<V>> {
        Some(Pose::from_translation(self.corners(i)[0]))
    }

    walks_of_bvh!(self => self.bvh);

    // Out of line: inlined into `ray_cast` the traversal loop ran slower (BENCHMARKS.md).
    #[inline(never)]
    fn first_ray_hit(&self, ray: &Ray<V>, max_toi: V::Real) -> Option<(u32, RayOutcome<V>)> {
        // Each triangle's test is `ray_cast` of the triangle at the identity pose, with its
        // per-ray part done once.
        let prepared = TriangleRay::new(ray);
        let mut best = None;
        self.bvh.cast_ray_leaves(ray.origin(), ray.direction(), max_toi, |slots, limit| {
            let first = slots.start;
            let (k, hit) = prepared.first_hit(&self.slot_corners[slots], limit)?;
            best = Some((first + k, hit));
            Some((first + k, hit.toi))
        });
        best.map(|(slot, hit)| (self.bvh.item_order()[slot], prepared.outcome(hit)))
    }

    fn part_feature(&self, i: u32, feature: Feature) -> Feature {
        let t = self.indices[i as usize];
        let get = |k: u32| t.get(k as usize).copied();
        match feature {
            Feature::Vertex(k) => get(k).map_or(feature, Feature::Vertex),
            Feature::Edge(j, k) => match (get(j), get(k)) {
                (Some(x), Some(y)) => Feature::edge(x, y),
                _ => feature,
            },
            Feature::Face(_) => Feature::Face(i),
            Feature::Unknown => feature,
        }
    }

    fn corrected_normal(&self, i: u32, point: V, normal: V) -> Option<V> {
        let tri = self.indices[i as usize];
        internal_edges::corrected_normal(
            &self.corners(i),
            point,
            normal,
            |k| self.neighbour_of(i, k),
            |k| self.corner[tri[k] as usize],
        )
    }
}

impl<V: Vector3 + Space> SoupParts<V> for TriMesh<V> {
    type Item = [V; 3];
    #[inline]
    fn soup_item(&self, i: u32) -> [V; 3] {
        self.corners(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::DVec3;
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;

    /// The corner flags by their definition: a vertex is a real corner when some side at
    /// its position is active as [`internal_edges::edge_is_active`] judges it with the
    /// neighbour of [`TriMesh::neighbour_of`] (every side of a triangle without a normal).
    fn corners_by_definition(mesh: &TriMesh<DVec3>) -> Vec<bool> {
        let mut active = HashMap::new();
        for i in 0..mesh.triangle_count() as u32 {
            let tri = mesh.indices()[i as usize];
            let n = internal_edges::face_normal(&mesh.corners(i));
            for k in 0..3 {
                let is_active = n.is_none_or(|n| {
                    internal_edges::edge_is_active(n, mesh.neighbour_of(i, k).map(|nb| nb.normal))
                });
                if is_active {
                    for c in [tri[k], tri[(k + 1) % 3]] {
                        active.insert(position_key(mesh.vertices()[c as usize]), true);
                    }
                }
            }
        }
        mesh.vertices().iter().map(|v| active.contains_key(&position_key(*v))).collect()
    }

    #[test]
    fn corner_flags_follow_the_internal_edge_rule_on_soups_with_creases_and_flips() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3202);
        for case in 0..300 {
            // Positions on a small lattice: coplanar neighbours (flat sides), creases,
            // neighbours wound both ways, repeated corners, sides of three triangles,
            // duplicated positions under other indices.
            let positions = rng.random_range(4..10);
            let mut vertices: Vec<DVec3> = (0..positions)
                .map(|_| {
                    DVec3::new(
                        rng.random_range(0..3) as f64,
                        rng.random_range(0..3) as f64,
                        rng.random_range(0..2) as f64 * 0.5,
                    )
                })
                .collect();
            for _ in 0..rng.random_range(0..4) {
                let copy = vertices[rng.random_range(0..vertices.len())];
                vertices.push(copy);
            }
            let n = vertices.len() as u32;
            let indices: Vec<[u32; 3]> = (0..rng.random_range(1..16))
                .map(|_| [rng.random_range(0..n), rng.random_range(0..n), rng.random_range(0..n)])
                .collect();
            let mesh = TriMesh::new(vertices, indices);
            assert_eq!(mesh.corner, corners_by_definition(&mesh), "case {case}: {:?}", mesh.indices());
        }
    }
}
