//! Mesh diagnostics: what a [`TriMesh`] is made of and how well it holds together.

use super::internal_edges;
use super::weld::position_key;
use super::TriMesh;
use crate::math::{Aabb, Vector3};
use crate::query::Space;
use std::collections::HashMap;

/// A triangle with a face is a sliver when its height over its longest edge is below this
/// fraction of that edge (`2 area / longest² < SLIVER_RATIO`).
pub const SLIVER_RATIO: f64 = 1e-3;

/// What [`TriMesh::report`] finds. Edges and vertices are counted by position: vertices at
/// exactly the same position are one vertex of the surface, as for the mesh's adjacency.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct MeshReport<V> {
    /// Triangles.
    pub triangles: usize,
    /// Vertices stored (after welding).
    pub vertices: usize,
    /// Vertices merged into others when the mesh was built
    /// ([`TriMesh::try_new_welded`], the file readers); 0 for [`TriMesh::try_new`].
    pub welded_vertices: usize,
    /// Stored vertices at exactly the position of an earlier one (left unwelded; the
    /// adjacency treats them as that one).
    pub duplicate_vertices: usize,
    /// Stored vertices that no triangle uses.
    pub unused_vertices: usize,
    /// Triangles without a face: corners repeated or collinear in the arithmetic of `V`
    /// (queries answer them through their edges).
    pub zero_area_triangles: usize,
    /// Triangles with a face thinner than [`SLIVER_RATIO`] of their longest edge.
    pub sliver_triangles: usize,
    /// Distinct edges (corner pairs at distinct positions; a collapsed edge of a zero-area
    /// triangle is none).
    pub edges: usize,
    /// Edges of exactly one triangle.
    pub boundary_edges: usize,
    /// Edges of more than two triangles.
    pub non_manifold_edges: usize,
    /// Edges of exactly two triangles that both run in the same direction: one of the two
    /// is flipped against the other.
    pub misoriented_edges: usize,
    /// Every edge borders exactly two triangles (watertight and edge-manifold).
    pub closed: bool,
    /// Every edge of two triangles is run once each way by them: neighbours agree on which
    /// side is the front (`misoriented_edges == 0`).
    pub oriented: bool,
    /// The box around the vertices the triangles use, in the mesh's local frame.
    pub aabb: Aabb<V>,
    /// Heap bytes held by the mesh ([`TriMesh::memory_bytes`]).
    pub memory_bytes: usize,
}

/// Per undirected edge: how many triangles use it, and how many of them run it from its
/// lower vertex id to its higher.
#[derive(Clone, Copy, Default)]
struct EdgeUse {
    count: u32,
    forward: u32,
}

pub(super) fn report<V: Vector3 + Space>(mesh: &TriMesh<V>) -> MeshReport<V> {
    let vertices = mesh.vertices();
    let mut first: HashMap<[u64; 3], u32> = HashMap::with_capacity(vertices.len());
    let canon: Vec<u32> =
        (0u32..).zip(vertices).map(|(i, &v)| *first.entry(position_key(v)).or_insert(i)).collect();
    let duplicate_vertices = vertices.len() - first.len();
    drop(first);

    let mut used = vec![false; vertices.len()];
    let mut edges: HashMap<(u32, u32), EdgeUse> = HashMap::with_capacity(mesh.triangle_count() * 2);
    let (mut zero_area_triangles, mut sliver_triangles) = (0, 0);
    let mut aabb = Aabb::empty();
    for (i, tri) in (0u32..).zip(mesh.indices()) {
        let corners = mesh.corners(i);
        for (&k, &p) in tri.iter().zip(&corners) {
            used[k as usize] = true;
            aabb = aabb.including(p);
        }
        if internal_edges::face_normal(&corners).is_none() {
            zero_area_triangles += 1;
        } else if is_sliver(&corners) {
            sliver_triangles += 1;
        }
        for k in 0..3 {
            let (a, b) = (canon[tri[k] as usize], canon[tri[(k + 1) % 3] as usize]);
            if a == b {
                continue;
            }
            let e = edges.entry((a.min(b), a.max(b))).or_default();
            e.count += 1;
            e.forward += u32::from(a < b);
        }
    }
    let (mut boundary_edges, mut non_manifold_edges, mut misoriented_edges) = (0, 0, 0);
    for e in edges.values() {
        match e.count {
            1 => boundary_edges += 1,
            2 => misoriented_edges += usize::from(e.forward != 1),
            _ => non_manifold_edges += 1,
        }
    }
    MeshReport {
        triangles: mesh.triangle_count(),
        vertices: vertices.len(),
        welded_vertices: mesh.welded_vertices(),
        duplicate_vertices,
        unused_vertices: used.iter().filter(|&&u| !u).count(),
        zero_area_triangles,
        sliver_triangles,
        edges: edges.len(),
        boundary_edges,
        non_manifold_edges,
        misoriented_edges,
        closed: !edges.is_empty() && boundary_edges == 0 && non_manifold_edges == 0,
        oriented: misoriented_edges == 0,
        aabb,
        memory_bytes: mesh.memory_bytes(),
    }
}

/// Whether a triangle with a face is thinner than [`SLIVER_RATIO`], in `f64`.
fn is_sliver<V: Vector3>(corners: &[V; 3]) -> bool {
    let [a, b, c] = corners.map(|p| p.to_f64_array());
    let sub = |p: [f64; 3], q: [f64; 3]| [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
    let (u, v, w) = (sub(b, a), sub(c, a), sub(c, b));
    let cross = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    let norm2 = |x: [f64; 3]| x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
    let longest2 = norm2(u).max(norm2(v)).max(norm2(w));
    // 2 area / longest² = |u x v| / longest².
    norm2(cross).sqrt() < SLIVER_RATIO * longest2
}
