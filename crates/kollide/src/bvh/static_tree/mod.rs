//! The static BVH: a binary tree of boxes over items that do not move (or move together and
//! are refitted), built top-down with the binned surface-area heuristic.

use crate::math::{above, Aabb, Lanes4, Real, Vector};
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
/// Nodes of at most this many items find their cut from the items, not from bins.
const FEW: usize = 8;
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

/// Four lanes of `V`'s scalar: a build's boxes, the first `DIM` lanes used, the rest 0.
type Lanes<V> = <<V as Vector>::Real as Real>::X4;

/// A box as lanes.
#[derive(Clone, Copy)]
struct Box4<V: Vector> {
    lo: Lanes<V>,
    hi: Lanes<V>,
}

impl<V: Vector> Box4<V> {
    #[inline(always)]
    fn empty() -> Self {
        Self { lo: Lanes::<V>::splat(V::Real::INFINITY), hi: Lanes::<V>::splat(-V::Real::INFINITY) }
    }

    /// As [`Aabb::union`], lane by lane (the same operands in the same order).
    #[inline(always)]
    fn union(self, other: Self) -> Self {
        Self { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }

    /// As [`Aabb::including`].
    #[inline(always)]
    fn including(self, p: Lanes<V>) -> Self {
        Self { lo: self.lo.min(p), hi: self.hi.max(p) }
    }

    /// As [`Aabb::center`].
    #[inline(always)]
    fn center(self) -> Lanes<V> {
        (self.lo + self.hi) * Lanes::<V>::splat(V::Real::HALF)
    }

    /// As [`Aabb::surface_area`], to the bit.
    #[inline(always)]
    fn surface_area(self) -> V::Real {
        let d = (self.hi - self.lo).max(Lanes::<V>::splat(V::Real::ZERO)).to_array();
        if V::DIM == 2 {
            V::Real::TWO * (d[0] + d[1])
        } else {
            V::Real::TWO * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0])
        }
    }

    fn aabb(self) -> Aabb<V> {
        Aabb { min: V::from_lanes(self.lo), max: V::from_lanes(self.hi) }
    }
}

/// What a build moves about: an item's box as lanes and its index, side by side, so that
/// every pass over a node's items reads them in order instead of gathering.
#[derive(Clone, Copy)]
struct Item<V: Vector> {
    aabb: Box4<V>,
    index: u32,
    /// Its bin on each axis in the split being chosen (in what would be padding).
    bins: [u8; 4],
}

/// The box of a node's items and the box of their centroids: what a split needs to know.
#[derive(Clone, Copy)]
struct Bounds<V: Vector> {
    aabb: Box4<V>,
    centroids: Box4<V>,
}

impl<V: Vector> Bounds<V> {
    /// No items.
    fn empty() -> Self {
        Self { aabb: Box4::empty(), centroids: Box4::empty() }
    }

    fn of(items: &[Item<V>]) -> Self {
        items.iter().fold(Self::empty(), |b, it| Self {
            aabb: b.aabb.union(it.aabb),
            centroids: b.centroids.including(it.aabb.center()),
        })
    }
}

/// One bin of the heuristic: the box of its items and how many.
#[derive(Clone, Copy)]
struct Bin<V: Vector> {
    aabb: Box4<V>,
    count: usize,
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
        let item = |(i, b): (usize, &Aabb<V>)| Item {
            aabb: Box4 { lo: b.min.to_lanes(), hi: b.max.to_lanes() },
            index: i as u32,
            bins: [0; 4],
        };
        #[cfg(feature = "rayon")]
        if parallel && boxes.len() >= PARALLEL_ITEMS {
            // The same passes on all cores (the bounds unite exactly in any order).
            use rayon::prelude::*;
            let mut work: Vec<Item<V>> = boxes.par_iter().enumerate().map(item).collect();
            let bounds = work.par_chunks(PARALLEL_ITEMS / 4).map(Bounds::of).reduce(Bounds::empty, |a, b| {
                Bounds { aabb: a.aabb.union(b.aabb), centroids: a.centroids.union(b.centroids) }
            });
            let nodes = build_range(&mut work, bounds, 0, 0, true);
            let items = work.par_iter().map(|it| it.index).collect();
            let item_boxes = work.par_iter().map(|it| it.aabb.aabb()).collect();
            let wide = wide::collapse(&nodes);
            return Self { nodes, items, item_boxes, wide };
        }
        let mut work: Vec<Item<V>> = boxes.iter().enumerate().map(item).collect();
        let bounds = Bounds::of(&work);
        let nodes = build_range(&mut work, bounds, 0, 0, parallel);
        let items = work.iter().map(|it| it.index).collect();
        let item_boxes = work.iter().map(|it| it.aabb.aabb()).collect();
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

/// Builds the subtree of `items` (the first of which is at `offset` in the whole item list,
/// `bounds` theirs) at `depth`: its root is node 0 of the result, child links relative to
/// the result.
fn build_range<V: Vector>(
    items: &mut [Item<V>],
    bounds: Bounds<V>,
    offset: usize,
    depth: usize,
    parallel: bool,
) -> Vec<Node<V>> {
    let mut out = Vec::with_capacity(2 * items.len() / MAX_LEAF + 1);
    out.push(Node { aabb: Aabb::empty(), first: 0, count: 0 });
    build_node(items, bounds, offset, depth, parallel, &mut out, 0);
    out
}

/// Fills node `me` (already in `out`) with the subtree of `items` (`bounds` theirs),
/// appending its descendants to `out`.
fn build_node<V: Vector>(
    items: &mut [Item<V>],
    bounds: Bounds<V>,
    offset: usize,
    depth: usize,
    parallel: bool,
    out: &mut Vec<Node<V>>,
    me: usize,
) {
    out[me] = Node { aabb: bounds.aabb.aabb(), first: offset as u32, count: items.len() as u32 };
    if items.len() <= 1 {
        return;
    }
    let Some((mid, left_bounds, right_bounds)) = split(items, &bounds, depth, parallel) else {
        return; // a leaf: the heuristic found no split worth its cost
    };
    let (left, right) = items.split_at_mut(mid);
    let l = out.len();
    out[me].count = 0;
    out[me].first = l as u32;
    #[cfg(feature = "rayon")]
    if parallel && left.len() + right.len() >= PARALLEL_ITEMS {
        let (a, b) = rayon::join(
            || build_range(left, left_bounds, offset, depth + 1, true),
            || build_range(right, right_bounds, offset + mid, depth + 1, true),
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
    build_node(left, left_bounds, offset, depth + 1, parallel, out, l);
    build_node(right, right_bounds, offset + mid, depth + 1, parallel, out, l + 1);
}

/// Partitions `items` for a split and returns the size of the left part with both parts'
/// bounds, or `None` to make a leaf. Binned SAH on every axis where the centroids spread
/// (the best cut of all), the axes binned in one pass over the items; by count along the
/// widest axis when the centroids coincide or the tree is already deep.
fn split<V: Vector>(
    items: &mut [Item<V>],
    bounds: &Bounds<V>,
    depth: usize,
    parallel: bool,
) -> Option<(usize, Bounds<V>, Bounds<V>)> {
    let n = items.len();
    let low = bounds.centroids.lo;
    let extent = (bounds.centroids.hi - low).to_array();
    let widest = (1..V::DIM).fold(0, |a, i| if extent[i] > extent[a] { i } else { a });
    let by_count = |items: &mut [Item<V>]| {
        let mid = n / 2;
        items.select_nth_unstable_by(mid, |a, b| {
            let (x, y) = (a.aabb.center().to_array()[widest], b.aabb.center().to_array()[widest]);
            x.partial_cmp(&y).unwrap_or(core::cmp::Ordering::Equal)
        });
        let (left, right) = items.split_at(mid);
        Some((mid, Bounds::of(left), Bounds::of(right)))
    };
    if !above(extent[widest], V::Real::ZERO) || depth >= SAH_DEPTH {
        return if n > MAX_LEAF { by_count(items) } else { None };
    }
    if n <= 2 {
        // A split costs at least the node visit, 2, which is no less than a leaf of two.
        return None;
    }
    let mut spread = [false; 4];
    let mut scale = [V::Real::ZERO; 4];
    for axis in 0..V::DIM {
        spread[axis] = above(extent[axis], V::Real::ZERO);
        if spread[axis] {
            scale[axis] = V::Real::from_usize(BINS) / extent[axis];
        }
    }
    let scale = Lanes::<V>::from_array(scale);
    // Each centroid's position in the bins of every axis, `(c - low) * scale` as lanes.
    let bins_of = |b: Box4<V>| ((b.center() - low) * scale).to_array();
    let to_bins = |it: &mut Item<V>| {
        let at = bins_of(it.aabb);
        for axis in 0..V::DIM {
            if spread[axis] {
                it.bins[axis] = at[axis].to_bin((BINS - 1) as u8);
            }
        }
    };
    let Cut { best, left: left_box, right: right_box } = if n <= FEW {
        best_of_few(items, &spread, widest, to_bins)
    } else {
        best_binned(items, &spread, widest, to_bins, parallel)
    };
    if !best.0.is_finite() {
        return if n > MAX_LEAF { by_count(items) } else { None };
    }
    // A leaf costs one test per item (its box, then the item when the box is met); a split
    // costs a node visit (two child boxes, the stack: taken as 2) plus its items weighted by
    // the chance of entering each child.
    let leaf_cost = V::Real::from_usize(n);
    let split_cost = V::Real::TWO + best.0 / bounds.aabb.surface_area().max(V::Real::EPSILON);
    if n <= MAX_LEAF && !above(leaf_cost, split_cost) {
        return None;
    }
    let (_, axis, cut) = best;
    // Lomuto's partition without a branch on the side (which is random from item to item):
    // item `k` trades places with item `mid` every time, and `mid` moves on when `k` went
    // left. Everything in `mid..k` is on the right, so a right item's trade only reorders
    // the right side. The centroids' boxes are taken after, a pass over each side.
    let mut mid = 0;
    for k in 0..n {
        let left = usize::from(items[k].bins[axis]) <= cut;
        items.swap(k, mid);
        mid += usize::from(left);
    }
    let centroids =
        |part: &[Item<V>]| part.iter().fold(Box4::<V>::empty(), |b, it| b.including(it.aabb.center()));
    let (left_c, right_c) = (centroids(&items[..mid]), centroids(&items[mid..]));
    if mid == 0 || mid == n {
        return by_count(items);
    }
    Some((mid, Bounds { aabb: left_box, centroids: left_c }, Bounds { aabb: right_box, centroids: right_c }))
}

/// A split's choice: `(cost, axis, last bin of the left side)` and both sides' boxes.
struct Cut<V: Vector> {
    best: (V::Real, usize, usize),
    left: Box4<V>,
    right: Box4<V>,
}

/// The best cut of the bins: `(cost, axis, last bin of the left side)` and the boxes of
/// both sides (an infinite cost when no axis has two non-empty bins). Each item's bins are
/// set by `to_bins` on the way.
fn best_binned<V: Vector>(
    items: &mut [Item<V>],
    spread: &[bool; 4],
    widest: usize,
    to_bins: impl Fn(&mut Item<V>) + Sync,
    parallel: bool,
) -> Cut<V> {
    let n = items.len();
    let bins = binned(items, spread, &to_bins, parallel);
    // (cost, axis, last bin of the left side). An empty bin changes neither side, so its
    // cut costs what the cut before it does: the sweeps skip empty bins' arithmetic.
    let mut best = (V::Real::INFINITY, widest, 0usize);
    for axis in 0..V::DIM {
        if !spread[axis] {
            continue;
        }
        let bins = &bins[axis];
        // Sweep from the right for the right sides' areas and counts, then from the left.
        let mut right_area = [V::Real::ZERO; BINS];
        let (mut acc, mut count, mut area) = (Box4::<V>::empty(), 0usize, V::Real::ZERO);
        for b in (1..BINS).rev() {
            if bins[b].count > 0 {
                acc = acc.union(bins[b].aabb);
                count += bins[b].count;
                area = acc.surface_area() * V::Real::from_usize(count);
            }
            right_area[b] = area;
        }
        let (mut left, mut count) = (Box4::<V>::empty(), 0usize);
        for b in 0..BINS - 1 {
            if bins[b].count == 0 {
                continue;
            }
            left = left.union(bins[b].aabb);
            count += bins[b].count;
            if count == n {
                break;
            }
            let cost = left.surface_area() * V::Real::from_usize(count) + right_area[b + 1];
            if cost < best.0 {
                best = (cost, axis, b);
            }
        }
    }
    let (_, axis, cut) = best;
    let side = |b: &[Bin<V>]| b.iter().fold(Box4::empty(), |a, x| a.union(x.aabb));
    Cut { best, left: side(&bins[axis][..=cut]), right: side(&bins[axis][cut + 1..]) }
}

/// The bins of every spread axis, each item's bins set by `to_bins` on the way; with the
/// `rayon` feature and `parallel`, a big node's items binned in chunks on all cores and the
/// chunks' bins merged (counts add, boxes unite: the same bins in any order).
fn binned<V: Vector>(
    items: &mut [Item<V>],
    spread: &[bool; 4],
    to_bins: &(impl Fn(&mut Item<V>) + Sync),
    parallel: bool,
) -> [[Bin<V>; BINS]; 3] {
    let empty = [[Bin { aabb: Box4::<V>::empty(), count: 0 }; BINS]; 3];
    let fill = |items: &mut [Item<V>]| {
        let mut bins = empty;
        for it in items.iter_mut() {
            to_bins(it);
            for axis in 0..V::DIM {
                if spread[axis] {
                    let b = &mut bins[axis][usize::from(it.bins[axis])];
                    *b = Bin { aabb: b.aabb.union(it.aabb), count: b.count + 1 };
                }
            }
        }
        bins
    };
    #[cfg(feature = "rayon")]
    if parallel && items.len() >= PARALLEL_ITEMS {
        use rayon::prelude::*;
        let merge = |mut a: [[Bin<V>; BINS]; 3], b: [[Bin<V>; BINS]; 3]| {
            for (x, y) in a.iter_mut().flatten().zip(b.iter().flatten()) {
                *x = Bin { aabb: x.aabb.union(y.aabb), count: x.count + y.count };
            }
            a
        };
        return items.par_chunks_mut(PARALLEL_ITEMS / 4).map(fill).reduce(|| empty, merge);
    }
    let _ = parallel;
    fill(items)
}

/// [`best_binned`] for a few items, to the bit: every occupied bin but the last of each
/// axis is a cut, in the order the sweep meets them. The items are united into their bins
/// once an axis, and each cut's sides are the occupied bins before and after it (unions
/// are exact, so in any order the same box).
fn best_of_few<V: Vector>(
    items: &mut [Item<V>],
    spread: &[bool; 4],
    widest: usize,
    to_bins: impl Fn(&mut Item<V>),
) -> Cut<V> {
    let n = items.len();
    debug_assert!(n <= FEW);
    items.iter_mut().for_each(&to_bins);
    let mut best =
        Cut { best: (V::Real::INFINITY, widest, 0usize), left: Box4::empty(), right: Box4::empty() };
    for (axis, _) in spread.iter().enumerate().take(V::DIM).filter(|&(_, &s)| s) {
        let mut boxes = [Box4::<V>::empty(); BINS];
        let mut counts = [0usize; BINS];
        let mut occupied = 0u16;
        for it in items.iter() {
            let b = usize::from(it.bins[axis]);
            boxes[b] = boxes[b].union(it.aabb);
            counts[b] += 1;
            occupied |= 1 << b;
        }
        // The occupied bins in order, and the box of each one's bins onwards.
        let mut order = [0usize; FEW];
        let mut m = 0;
        while occupied != 0 {
            order[m] = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            m += 1;
        }
        let mut onwards = [Box4::<V>::empty(); FEW + 1];
        for k in (0..m).rev() {
            onwards[k] = onwards[k + 1].union(boxes[order[k]]);
        }
        let (mut left, mut count) = (Box4::<V>::empty(), 0usize);
        for k in 0..m.saturating_sub(1) {
            let cut = order[k];
            left = left.union(boxes[cut]);
            count += counts[cut];
            let right = onwards[k + 1];
            let cost = left.surface_area() * V::Real::from_usize(count)
                + right.surface_area() * V::Real::from_usize(n - count);
            if cost < best.best.0 {
                best = Cut { best: (cost, axis, cut), left, right };
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use rand::{Rng, SeedableRng};

    /// `best_of_few` chooses the cut `best_binned` chooses on the same bins, to the bit,
    /// with the same boxes on both sides: it only saves the sweep over empty bins. Boxes on
    /// a coarse grid, so that centroids share bins and costs tie.
    #[test]
    fn the_cut_of_a_few_items_is_the_binned_cut() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x6b6f);
        let mut compared = 0;
        for round in 0..3000 {
            let n = 3 + round % (FEW - 2);
            let mut coordinate = || rng.random_range(0..6) as f32 * 0.5;
            let items: Vec<Item<Vec3>> = (0..n)
                .map(|i| {
                    let c = Vec3::new(coordinate(), coordinate(), coordinate());
                    let h = Vec3::new(coordinate(), coordinate(), coordinate()) * 0.3;
                    Item {
                        aabb: Box4 { lo: (c - h).to_lanes(), hi: (c + h).to_lanes() },
                        index: i as u32,
                        bins: [0; 4],
                    }
                })
                .collect();
            let bounds = Bounds::of(&items);
            let low = bounds.centroids.lo;
            let extent = (bounds.centroids.hi - low).to_array();
            let spread = [extent[0] > 0.0, extent[1] > 0.0, extent[2] > 0.0, false];
            let scale = Lanes::<Vec3>::from_array(core::array::from_fn(|k| {
                if spread[k] {
                    BINS as f32 / extent[k]
                } else {
                    0.0
                }
            }));
            let to_bins = |it: &mut Item<Vec3>| {
                let at = ((it.aabb.center() - low) * scale).to_array();
                for axis in 0..3 {
                    if spread[axis] {
                        it.bins[axis] = at[axis].to_bin((BINS - 1) as u8);
                    }
                }
            };
            let few = best_of_few(&mut items.clone(), &spread, 0, to_bins);
            let binned = best_binned(&mut items.clone(), &spread, 0, to_bins, false);
            assert_eq!(few.best.0.to_bits(), binned.best.0.to_bits(), "cost, round {round}");
            if few.best.0.is_finite() {
                assert_eq!((few.best.1, few.best.2), (binned.best.1, binned.best.2), "cut, round {round}");
                assert_eq!(few.left.aabb(), binned.left.aabb(), "left box, round {round}");
                assert_eq!(few.right.aabb(), binned.right.aabb(), "right box, round {round}");
                compared += 1;
            }
        }
        assert!(compared > 2500, "only {compared} rounds had a cut");
    }
}
