//! Welding: vertices at the same position (exactly, or within a tolerance) merged into one,
//! so that a mesh stored as a triangle soup (every triangle with corners of its own, as STL
//! and many glTF files store it) has shared vertices, hence adjacency.

use crate::math::Vector3;
use std::collections::HashMap;

/// Which vertices [`TriMesh::try_new_welded`](super::TriMesh::try_new_welded) and the mesh
/// file readers merge.
///
/// Welding keeps the triangles, in their order, and changes only which vertex index each
/// corner names: a triangle whose corners merge is kept (with no area), never dropped. How
/// many vertices were merged is in [`MeshReport::welded_vertices`](super::MeshReport).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub enum Weld {
    /// Every vertex stays as given.
    None,
    /// Vertices at exactly the same position (`+0` and `-0` alike) become the first of them.
    /// No coordinate changes.
    #[default]
    Exact,
    /// Each vertex, in order, becomes the nearest vertex kept so far within this distance
    /// (Euclidean, computed in `f64`), or is kept when none is that close. A merged vertex
    /// moves by at most the tolerance, and the kept vertices are pairwise farther apart
    /// than it: merging does not chain along a row of close vertices. `Within(0.0)` is
    /// [`Exact`](Self::Exact). The tolerance must be finite and `>= 0`.
    Within(f64),
}

/// The result of welding: the kept vertices, in the order of their first appearance, and
/// for each input vertex the index of the kept vertex it became.
pub(crate) struct Welded<V> {
    pub vertices: Vec<V>,
    pub remap: Vec<u32>,
}

/// Welds `vertices` (finite) as `weld` says; `None` when nothing merges, so the caller keeps
/// its vertices and indices as they are.
pub(crate) fn weld<V: Vector3>(vertices: &[V], weld: Weld) -> Option<Welded<V>> {
    let (remap, kept) = match weld {
        Weld::None => return None,
        Weld::Within(t) if t > 0.0 => within(vertices, t),
        _ => exact(vertices),
    };
    if kept.len() == vertices.len() {
        return None;
    }
    Some(Welded { vertices: kept.iter().map(|&i| vertices[i as usize]).collect(), remap })
}

/// The bits of a position with `-0` read as `+0`: equal keys for equal positions.
pub(crate) fn position_key<V: Vector3>(v: V) -> [u64; 3] {
    let a = v.to_f64_array();
    [(a[0] + 0.0).to_bits(), (a[1] + 0.0).to_bits(), (a[2] + 0.0).to_bits()]
}

/// For each vertex, the new index of the first vertex at its position; and the input
/// indices of the vertices kept.
fn exact<V: Vector3>(vertices: &[V]) -> (Vec<u32>, Vec<u32>) {
    let mut first: HashMap<[u64; 3], u32> = HashMap::with_capacity(vertices.len());
    let mut kept = Vec::new();
    let remap = vertices
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            *first.entry(position_key(v)).or_insert_with(|| {
                kept.push(i as u32);
                (kept.len() - 1) as u32
            })
        })
        .collect();
    (remap, kept)
}

/// [`Weld::Within`]: the kept vertices sit in a grid of cells at least `tol` wide, so a
/// vertex within `tol` of a kept one lies in the same cell or a neighbouring one.
fn within<V: Vector3>(vertices: &[V], tol: f64) -> (Vec<u32>, Vec<u32>) {
    // Cells no smaller than 2^-40 of the largest coordinate keep the cell numbers within
    // 2^41 (exact in f64 and i64); a cell wider than `tol` only holds more candidates. The
    // factor 1.01 keeps two points within `tol` in neighbouring cells despite the rounding
    // of the division.
    let reach = vertices.iter().flat_map(|v| v.to_f64_array()).fold(0.0f64, |m, x| m.max(x.abs()));
    let size = 1.01 * tol.max(reach * 2f64.powi(-40));
    let cell = |p: [f64; 3]| p.map(|x| (x / size).floor() as i64);
    let mut grid: HashMap<[i64; 3], Vec<u32>> = HashMap::new();
    // The positions of the vertices kept so far, by their new index.
    let mut points: Vec<[f64; 3]> = Vec::new();
    let tol2 = tol * tol;
    let remap = vertices
        .iter()
        .map(|v| {
            let p = v.to_f64_array();
            let c = cell(p);
            let mut best: Option<(f64, u32)> = None;
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for dz in -1..=1 {
                        let Some(ids) = grid.get(&[c[0] + dx, c[1] + dy, c[2] + dz]) else { continue };
                        for &k in ids {
                            let q = points[k as usize];
                            let d2 = (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2);
                            // Nearest first; among equals, the one kept first.
                            if d2 <= tol2 && best.is_none_or(|(b, j)| d2 < b || (d2 == b && k < j)) {
                                best = Some((d2, k));
                            }
                        }
                    }
                }
            }
            match best {
                Some((_, k)) => k,
                None => {
                    let k = points.len() as u32;
                    points.push(p);
                    grid.entry(c).or_default().push(k);
                    k
                }
            }
        })
        .collect();
    // New indices are given in order of first appearance: the first input vertex of each.
    let mut input_of_kept = Vec::with_capacity(points.len());
    let mut next = 0u32;
    for (i, &r) in (0u32..).zip(&remap) {
        if r == next {
            input_of_kept.push(i);
            next += 1;
        }
    }
    (remap, input_of_kept)
}
