//! The static BVH: a binary tree of boxes over items that do not move (or move together and
//! are refitted), built top-down with the binned surface-area heuristic.

use crate::math::{above, Aabb, Real, Vector};
use std::fmt;

mod traverse;
mod validate;
mod wide;

pub use validate::BvhInvariant;

/// Items per leaf at most.
pub(super) const MAX_LEAF: usize = 4;
/// Bins of the surface-area heuristic per split (Wald 2007 uses 16 to 32; 12 measured as
/// good as 16 on terrains and soups, for less work).
const BINS: usize = 12;
/// Below this depth the heuristic chooses; deeper, splits are by count, so that no input
/// (a million equal boxes, a long line of them) makes the tree deeper than
/// `SAH_DEPTH + log2(n)`.
const SAH_DEPTH: usize = 40;
/// The most pending siblings a depth-first walk keeps: one per level.
pub(super) const MAX_DEPTH: usize = SAH_DEPTH + 34;
/// The most nodes on a path from the root: what `validate` checks.
pub(super) const MAX_DEPTH_NODES: usize = MAX_DEPTH + 1;
/// With the `rayon` feature, subtrees at least this big build in parallel.
#[cfg(feature = "rayon")]
const PARALLEL_ITEMS: usize = 20_000;

/// A node: its box, and either its items (`count > 0`: `items[first..first + count]`) or
/// its children (`count == 0`: nodes `first` and `first + 1`, side by side so that one
/// cache line or two adjacent ones bring both boxes). Every child comes after its parent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Node<V> {
    pub aabb: Aabb<V>,
    pub first: u32,
    pub count: u32,
}

/// Why a [`Bvh`] could not be built or refitted.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BvhError {
    /// Box `index` has a NaN or infinite corner.
    NonFiniteBox {
        /// The item.
        index: usize,
    },
    /// Box `index` has `min > max` on some axis.
    InvalidBox {
        /// The item.
        index: usize,
    },
    /// [`Bvh::refit`] got a different number of boxes.
    LengthMismatch {
        /// The tree's item count.
        expected: usize,
        /// The count given.
        got: usize,
    },
    /// More items than `u32` indices address.
    TooManyItems {
        /// How many were given.
        count: usize,
    },
}

impl fmt::Display for BvhError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFiniteBox { index } => write!(f, "boxes[{index}] has a corner that is not finite"),
            Self::InvalidBox { index } => write!(f, "boxes[{index}] has min > max on some axis"),
            Self::LengthMismatch { expected, got } => {
                write!(f, "the tree has {expected} items, {got} boxes were given")
            }
            Self::TooManyItems { count } => write!(f, "{count} items are more than u32 indices address"),
        }
    }
}

impl std::error::Error for BvhError {}

/// A bounding volume hierarchy over fixed items (triangles of a mesh, parts of a compound),
/// 2D or 3D, `f32` or `f64`: item `i` is the box `boxes[i]` it was built from.
///
/// Built top-down with the binned surface-area heuristic (Wald 2007, "On fast construction of
/// SAH-based bounding volume hierarchies"), at most 4 items per leaf, nodes in depth-first
/// order (32 bytes each for `Vec3`). Rays and swept boxes walk the same tree collapsed to
/// four children a node, their boxes tested as the lanes of one slab test (128 bytes a node
/// for `f32`, about one node for every six items). [`refit`](Bvh::refit) keeps the topology when the items
/// move. The queries take closures that answer for one item, so the tree knows nothing of
/// what the items are: [`visit_overlaps`](Bvh::visit_overlaps), rays near to far with the
/// best hit pruning the rest ([`cast_ray`](Bvh::cast_ray)), swept boxes
/// ([`cast_aabb`](Bvh::cast_aabb)), nearest items ([`nearest`](Bvh::nearest)), and pairs
/// between two trees or within one. No query allocates except the pair searches.
///
/// ```
/// use kollide::bvh::Bvh;
/// use kollide::math::{Aabb, Vec3};
/// let boxes: Vec<Aabb<Vec3>> = (0..100)
///     .map(|i| Aabb::from_ball(Vec3::new(i as f32, 0.0, 0.0), 0.4))
///     .collect();
/// let bvh = Bvh::new(&boxes);
/// assert!(bvh.validate(&boxes).is_ok());
/// let mut found = Vec::new();
/// bvh.visit_overlaps(&Aabb::new(Vec3::new(9.5, -1.0, -1.0), Vec3::new(11.5, 1.0, 1.0)), |i| {
///     found.push(i);
///     true
/// });
/// found.sort();
/// assert_eq!(found, [10, 11]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Bvh<V: Vector> {
    pub(super) nodes: Vec<Node<V>>,
    pub(super) items: Vec<u32>,
    /// `item_boxes[k]` is the box of `items[k]`: leaves test their items' own boxes, so
    /// every query is exact at the item level, and without reaching into the caller's data.
    pub(super) item_boxes: Vec<Aabb<V>>,
    /// The same tree four children a node (`wide.rs`), derived from `nodes`: what rays and
    /// swept boxes walk.
    wide: Vec<wide::Node4<V::Real>>,
}

impl<V: Vector> Default for Bvh<V> {
    fn default() -> Self {
        Self { nodes: Vec::new(), items: Vec::new(), item_boxes: Vec::new(), wide: Vec::new() }
    }
}

fn check<V: Vector>(boxes: &[Aabb<V>]) -> Result<(), BvhError> {
    if boxes.len() >= u32::MAX as usize {
        return Err(BvhError::TooManyItems { count: boxes.len() });
    }
    for (index, b) in boxes.iter().enumerate() {
        if !b.is_finite() {
            return Err(BvhError::NonFiniteBox { index });
        }
        if !b.is_valid() {
            return Err(BvhError::InvalidBox { index });
        }
    }
    Ok(())
}

/// What a build reads: the boxes and their centroids.
struct Input<'a, V> {
    boxes: &'a [Aabb<V>],
    centroids: Vec<V>,
}

impl<V: Vector> Bvh<V> {
    /// The tree over `boxes` (item `i` is `boxes[i]`); empty input gives an empty tree.
    ///
    /// # Errors
    /// [`BvhError`] naming the first non-finite or inverted box.
    pub fn try_new(boxes: &[Aabb<V>]) -> Result<Self, BvhError> {
        check(boxes)?;
        Ok(Self::build(boxes, false))
    }

    /// [`try_new`](Self::try_new), building big subtrees on all cores (same tree).
    ///
    /// # Errors
    /// As [`try_new`](Self::try_new).
    #[cfg(feature = "rayon")]
    pub fn try_new_par(boxes: &[Aabb<V>]) -> Result<Self, BvhError> {
        check(boxes)?;
        Ok(Self::build(boxes, true))
    }

    /// `try_new_par` with the `rayon` feature, [`try_new`](Self::try_new) without: what the
    /// composites build with.
    ///
    /// # Errors
    /// As [`try_new`](Self::try_new).
    pub fn try_new_best(boxes: &[Aabb<V>]) -> Result<Self, BvhError> {
        check(boxes)?;
        Ok(Self::build(boxes, cfg!(feature = "rayon")))
    }

    /// The tree over `boxes`.
    ///
    /// # Panics
    /// With the message of [`try_new`](Self::try_new)'s error.
    #[must_use]
    pub fn new(boxes: &[Aabb<V>]) -> Self {
        Self::try_new(boxes).unwrap_or_else(|e| panic!("Bvh::new: {e}"))
    }

    fn build(boxes: &[Aabb<V>], parallel: bool) -> Self {
        if boxes.is_empty() {
            return Self::default();
        }
        let input = Input { boxes, centroids: boxes.iter().map(Aabb::center).collect() };
        let mut items: Vec<u32> = (0..boxes.len() as u32).collect();
        let nodes = build_range(&input, &mut items, 0, 0, parallel);
        let item_boxes = items.iter().map(|&i| boxes[i as usize]).collect();
        let wide = wide::collapse(&nodes);
        Self { nodes, items, item_boxes, wide }
    }

    /// How many items.
    #[must_use]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// `true` for a tree without items.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The box of everything (empty for an empty tree).
    #[must_use]
    pub fn root_aabb(&self) -> Aabb<V> {
        self.nodes.first().map_or_else(Aabb::empty, |n| n.aabb)
    }

    /// How many nodes.
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The heap bytes the tree holds.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Node<V>>()
            + self.items.capacity() * 4
            + self.item_boxes.capacity() * core::mem::size_of::<Aabb<V>>()
            + self.wide.capacity() * core::mem::size_of::<wide::Node4<V::Real>>()
    }

    /// The number of nodes on the longest path from the root to a leaf (0 when empty).
    #[must_use]
    pub fn depth(&self) -> usize {
        if self.nodes.is_empty() {
            return 0;
        }
        let mut depth = vec![0u32; self.nodes.len()];
        depth[0] = 1;
        let mut best = 1;
        for i in 0..self.nodes.len() {
            let n = self.nodes[i];
            best = best.max(depth[i]);
            if n.count == 0 {
                depth[n.first as usize] = depth[i] + 1;
                depth[n.first as usize + 1] = depth[i] + 1;
            }
        }
        best as usize
    }

    /// New boxes for the same items (`boxes[i]` for item `i`, say after the vertices of a
    /// mesh moved): every node's box is recomputed bottom-up; the topology is kept, so
    /// queries stay exact but may slow down if the items moved far.
    ///
    /// # Errors
    /// [`BvhError`] for a count mismatch or a bad box; the tree is unchanged then.
    pub fn refit(&mut self, boxes: &[Aabb<V>]) -> Result<(), BvhError> {
        if boxes.len() != self.items.len() {
            return Err(BvhError::LengthMismatch { expected: self.items.len(), got: boxes.len() });
        }
        check(boxes)?;
        for (slot, &item) in self.item_boxes.iter_mut().zip(&self.items) {
            *slot = boxes[item as usize];
        }
        // Children come after their parents: one pass from the back sees them first.
        for i in (0..self.nodes.len()).rev() {
            let n = self.nodes[i];
            let aabb = if n.count > 0 {
                let range = n.first as usize..(n.first + n.count) as usize;
                self.item_boxes[range].iter().fold(Aabb::empty(), |b, x| b.union(x))
            } else {
                self.nodes[n.first as usize].aabb.union(&self.nodes[n.first as usize + 1].aabb)
            };
            self.nodes[i].aabb = aabb;
        }
        self.wide = wide::collapse(&self.nodes);
        Ok(())
    }
}

/// Builds the subtree of `items` (the first of which is at `offset` in the whole item list)
/// at `depth`: its root is node 0 of the result, child links relative to the result.
fn build_range<V: Vector>(
    input: &Input<'_, V>,
    items: &mut [u32],
    offset: usize,
    depth: usize,
    parallel: bool,
) -> Vec<Node<V>> {
    let mut out = Vec::with_capacity(2 * items.len() / MAX_LEAF + 1);
    out.push(Node { aabb: Aabb::empty(), first: 0, count: 0 });
    build_node(input, items, offset, depth, parallel, &mut out, 0);
    out
}

/// Fills node `me` (already in `out`) with the subtree of `items`, appending its
/// descendants to `out`.
fn build_node<V: Vector>(
    input: &Input<'_, V>,
    items: &mut [u32],
    offset: usize,
    depth: usize,
    parallel: bool,
    out: &mut Vec<Node<V>>,
    me: usize,
) {
    let aabb = items.iter().fold(Aabb::empty(), |b, &i| b.union(&input.boxes[i as usize]));
    out[me] = Node { aabb, first: offset as u32, count: items.len() as u32 };
    if items.len() <= 1 {
        return;
    }
    let Some(mid) = split(input, items, &aabb, depth) else {
        return; // a leaf: the heuristic found no split worth its cost
    };
    let (left, right) = items.split_at_mut(mid);
    let l = out.len();
    out[me].count = 0;
    out[me].first = l as u32;
    #[cfg(feature = "rayon")]
    if parallel && left.len() + right.len() >= PARALLEL_ITEMS {
        let (a, b) = rayon::join(
            || build_range(input, left, offset, depth + 1, true),
            || build_range(input, right, offset + mid, depth + 1, true),
        );
        // The two roots side by side at `l`, then each subtree's other nodes.
        let (base_a, base_b) = (l + 2, l + 2 + a.len() - 1);
        let place = |k: usize, root: usize, base: usize| if k == 0 { root } else { base + k - 1 };
        let moved = |n: &Node<V>, root: usize, base: usize| {
            let mut n = *n;
            if n.count == 0 {
                n.first = place(n.first as usize, root, base) as u32;
            }
            n
        };
        out.push(moved(&a[0], l, base_a));
        out.push(moved(&b[0], l + 1, base_b));
        out.extend(a[1..].iter().map(|n| moved(n, l, base_a)));
        out.extend(b[1..].iter().map(|n| moved(n, l + 1, base_b)));
        return;
    }
    let _ = parallel;
    let placeholder = Node { aabb: Aabb::empty(), first: 0, count: 0 };
    out.push(placeholder);
    out.push(placeholder);
    build_node(input, left, offset, depth + 1, parallel, out, l);
    build_node(input, right, offset + mid, depth + 1, parallel, out, l + 1);
}

/// Partitions `items` for a split and returns the size of the left part, or `None` to make
/// a leaf. Binned SAH on every axis where the centroids spread (the best cut of all); by
/// count along the widest axis when the centroids coincide or the tree is already deep.
fn split<V: Vector>(input: &Input<'_, V>, items: &mut [u32], aabb: &Aabb<V>, depth: usize) -> Option<usize> {
    let n = items.len();
    let bounds = Aabb::from_points(items.iter().map(|&i| input.centroids[i as usize]));
    let extent = bounds.extents();
    let widest = (1..V::DIM).fold(0, |a, i| if extent[i] > extent[a] { i } else { a });
    let by_count = |items: &mut [u32]| {
        let mid = n / 2;
        items.select_nth_unstable_by(mid, |&a, &b| {
            let (x, y) = (input.centroids[a as usize][widest], input.centroids[b as usize][widest]);
            x.partial_cmp(&y).unwrap_or(core::cmp::Ordering::Equal)
        });
        Some(mid)
    };
    if !above(extent[widest], V::Real::ZERO) || depth >= SAH_DEPTH {
        return if n > MAX_LEAF { by_count(items) } else { None };
    }
    let bin_of = |i: u32, axis: usize| {
        let scale = V::Real::from_usize(BINS) / extent[axis];
        let b = ((input.centroids[i as usize][axis] - bounds.min[axis]) * scale).to_f64() as usize;
        b.min(BINS - 1)
    };
    // (cost, axis, last bin of the left side)
    let mut best = (V::Real::INFINITY, widest, 0usize);
    for axis in 0..V::DIM {
        if !above(extent[axis], V::Real::ZERO) {
            continue;
        }
        let mut bins = [(Aabb::<V>::empty(), 0usize); BINS];
        for &i in items.iter() {
            let b = bin_of(i, axis);
            bins[b].0 = bins[b].0.union(&input.boxes[i as usize]);
            bins[b].1 += 1;
        }
        // Sweep from the right for the right sides' areas and counts, then from the left.
        let mut right_area = [V::Real::ZERO; BINS];
        let mut acc = (Aabb::<V>::empty(), 0usize);
        for b in (1..BINS).rev() {
            acc = (acc.0.union(&bins[b].0), acc.1 + bins[b].1);
            right_area[b] = acc.0.surface_area() * V::Real::from_usize(acc.1);
        }
        let mut left = (Aabb::<V>::empty(), 0usize);
        for b in 0..BINS - 1 {
            left = (left.0.union(&bins[b].0), left.1 + bins[b].1);
            if left.1 == 0 || left.1 == n {
                continue;
            }
            let cost = left.0.surface_area() * V::Real::from_usize(left.1) + right_area[b + 1];
            if cost < best.0 {
                best = (cost, axis, b);
            }
        }
    }
    if !best.0.is_finite() {
        return if n > MAX_LEAF { by_count(items) } else { None };
    }
    // A leaf costs one test per item (its box, then the item when the box is met); a split
    // costs a node visit (two child boxes, the stack: taken as 2) plus its items weighted by
    // the chance of entering each child.
    let leaf_cost = V::Real::from_usize(n);
    let split_cost = V::Real::TWO + best.0 / aabb.surface_area().max(V::Real::EPSILON);
    if n <= MAX_LEAF && !above(leaf_cost, split_cost) {
        return None;
    }
    let (_, axis, cut) = best;
    let mut mid = 0;
    for k in 0..n {
        if bin_of(items[k], axis) <= cut {
            items.swap(k, mid);
            mid += 1;
        }
    }
    if mid == 0 || mid == n {
        return by_count(items);
    }
    Some(mid)
}
