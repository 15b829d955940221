//! The dynamic AABB tree: proxies with fat boxes, inserted, removed and moved one at a time,
//! kept balanced by rotations (the idea of Box2D's `b2DynamicTree` and Bullet's `btDbvt`,
//! written for kollide over [`Vector`]).
//!
//! Layout: one node pool (`Vec<Node>`) with a free list; a proxy *is* its leaf node, so a
//! [`ProxyId`] is a node index, stable while the proxy lives (moves and rebuilds keep it).
//! An internal node holds its two children's boxes (and which of them are leaves), so a
//! walk tests both children from the one node it entered, never reading a child it does
//! not enter; a node is one 64-byte cache line for `f32` in 3D. An internal node's own box
//! is the union of its two (kept in its parent, or computed for the root).
//! The insertion (sibling choice, rotations) is in `dynamic_insert.rs`, the queries in
//! `dynamic_query.rs`, the invariant check in `dynamic_validate.rs`.

use crate::math::{Aabb, Real, Vector};
use core::fmt;

mod insert;
mod query;
mod validate;

pub use validate::TreeInvariant;

/// The id of a proxy in a [`DynamicTree`] (or a body in a
/// [`BroadPhase`](super::BroadPhase)). Ids of removed proxies are reused by later inserts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ProxyId(pub u32);

/// "No node": the parent of the root, the end of the free list.
pub(super) const NULL: u32 = u32::MAX;

/// How Box2D predicts motion: a moved proxy's fat box is stretched by this many
/// displacements along its motion.
const DISPLACEMENT_MULTIPLIER: f64 = 2.0;

/// A moved proxy stays in its leaf (see [`DynamicTree::move_proxy`]) while the box around
/// it and its sibling has at most this many times their two areas together.
const IN_PLACE_GROWTH: f64 = 2.0;

/// What a node of the pool is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// On the free list (`parent` links to the next free node).
    Free,
    /// An inner node with two children.
    Internal,
    /// A proxy in the tree.
    Leaf,
    /// A removed proxy whose id is held back (see `DynamicTree::detach`).
    Detached,
}

/// A node of the pool. For a leaf, `child1` and `child2` hold the low and high halves of
/// the user value.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub(super) struct Node<V> {
    /// Internal: the boxes of `child1` and `child2`, each exactly that child's box (a
    /// leaf's fat box, an internal node's union of its two). Leaf: its fat box, then the
    /// box it was last given (inside the fat box). World frame.
    pub boxes: [Aabb<V>; 2],
    /// The parent, or the next free node, or `NULL`.
    pub parent: u32,
    pub child1: u32,
    pub child2: u32,
    /// 0 for a leaf, 1 + the taller child's height otherwise.
    pub height: u16,
    pub kind: Kind,
    /// Internal: bit 0 set when `child1` is a leaf, bit 1 when `child2` is.
    pub leaf_children: u8,
}

impl<V: Vector> Node<V> {
    #[inline(always)]
    pub(super) fn is_leaf(&self) -> bool {
        self.kind == Kind::Leaf
    }
    /// The node's own box: a leaf's fat box, or the union of an internal node's children.
    #[inline(always)]
    pub(super) fn bounds(&self) -> Aabb<V> {
        if self.kind == Kind::Leaf {
            self.boxes[0]
        } else {
            self.boxes[0].union(&self.boxes[1])
        }
    }
    /// The children as `[child1, child2]`, in the order of `boxes`.
    #[inline(always)]
    pub(super) fn children(&self) -> [u32; 2] {
        [self.child1, self.child2]
    }
    /// Whether child `slot` (0 or 1) is a leaf.
    #[inline(always)]
    pub(super) fn child_is_leaf(&self, slot: usize) -> bool {
        self.leaf_children & (1 << slot) != 0
    }
    #[inline(always)]
    pub(super) fn user(&self) -> u64 {
        u64::from(self.child1) | (u64::from(self.child2) << 32)
    }
    #[inline(always)]
    pub(super) fn set_user(&mut self, user: u64) {
        self.child1 = user as u32;
        self.child2 = (user >> 32) as u32;
    }
}

/// Why a dynamic tree or broad-phase call was refused. Each variant names the bad value.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum DynamicTreeError {
    /// A box has a NaN or infinite coordinate (components listed x, y, z; z is 0 in 2D).
    NonFiniteBox {
        /// The box's `min` corner.
        min: [f64; 3],
        /// The box's `max` corner.
        max: [f64; 3],
    },
    /// A box has `min > max` along `axis` (0 = x, 1 = y, 2 = z).
    InvertedBox {
        /// The axis.
        axis: usize,
        /// `min` along it.
        min: f64,
        /// `max` along it.
        max: f64,
    },
    /// A displacement has a NaN or infinite component.
    NonFiniteDisplacement {
        /// The displacement (z is 0 in 2D).
        displacement: [f64; 3],
    },
    /// The margin is negative, NaN or infinite.
    InvalidMargin {
        /// The margin given.
        margin: f64,
    },
    /// The id names no live proxy (it was removed, or never given out).
    StaleId {
        /// The id.
        id: ProxyId,
    },
    /// The node pool would pass `u32` indices.
    TooManyProxies {
        /// Proxies held when the insert was refused.
        count: usize,
    },
}

impl fmt::Display for DynamicTreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFiniteBox { min, max } => {
                write!(f, "box [{min:?}, {max:?}] has a coordinate that is not finite")
            }
            Self::InvertedBox { axis, min, max } => {
                write!(f, "box has min {min} > max {max} along axis {axis}")
            }
            Self::NonFiniteDisplacement { displacement } => {
                write!(f, "displacement {displacement:?} has a component that is not finite")
            }
            Self::InvalidMargin { margin } => write!(f, "margin {margin} is not finite and >= 0"),
            Self::StaleId { id } => write!(f, "proxy id {} names no live proxy", id.0),
            Self::TooManyProxies { count } => {
                write!(f, "{count} proxies: the node pool would pass u32 indices")
            }
        }
    }
}

impl std::error::Error for DynamicTreeError {}

/// Checks a user's box: finite, `min <= max`.
pub(super) fn check_box<V: Vector>(aabb: &Aabb<V>) -> Result<(), DynamicTreeError> {
    if !aabb.is_finite() {
        return Err(DynamicTreeError::NonFiniteBox {
            min: aabb.min.to_f64_array(),
            max: aabb.max.to_f64_array(),
        });
    }
    for axis in 0..V::DIM {
        if aabb.min[axis] > aabb.max[axis] {
            return Err(DynamicTreeError::InvertedBox {
                axis,
                min: aabb.min[axis].to_f64(),
                max: aabb.max[axis].to_f64(),
            });
        }
    }
    Ok(())
}

/// A bounding volume hierarchy of *proxies* that can be inserted, removed and moved one at
/// a time: the broad phase of a world of moving bodies.
///
/// Each proxy holds a *fat* box: the box it was given, loosened by the tree's margin (and
/// stretched along its motion when moved), so that small moves change nothing in the tree.
/// All boxes are in the world frame. The tree is kept balanced by rotations (its height
/// stays within a small multiple of `log2 len`); [`DynamicTree::rebuild`] rebuilds it from
/// scratch for query quality.
///
/// ```
/// use kollide::bvh::DynamicTree;
/// use kollide::math::{Aabb, Vec2};
///
/// let mut tree = DynamicTree::<Vec2>::new(0.1);
/// let a = tree.insert(Aabb::new(Vec2::ZERO, Vec2::ONE), 7).unwrap();
/// let b = tree.insert(Aabb::new(Vec2::splat(3.0), Vec2::splat(4.0)), 8).unwrap();
/// let mut found = Vec::new();
/// tree.visit_overlaps(&Aabb::new(Vec2::splat(0.5), Vec2::splat(2.0)), |id| {
///     found.push(id);
///     true
/// });
/// assert_eq!(found, vec![a]);
/// // A small move stays inside the fat box: nothing to do.
/// let moved = tree.move_proxy(a, Aabb::new(Vec2::splat(0.05), Vec2::splat(1.05)), Vec2::splat(0.05));
/// assert_eq!(moved, Ok(false));
/// assert_eq!(tree.remove(b), Some(8));
/// assert_eq!(tree.remove(b), None); // stale
/// assert!(tree.validate().is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct DynamicTree<V: Vector> {
    pub(super) nodes: Vec<Node<V>>,
    pub(super) root: u32,
    pub(super) free: u32,
    pub(super) leaf_count: usize,
    pub(super) detached_count: usize,
    pub(super) free_count: usize,
    pub(super) margin: V::Real,
}

impl<V: Vector> Default for DynamicTree<V> {
    /// An empty tree with margin 0 (fat boxes are the given boxes).
    fn default() -> Self {
        Self::new(V::Real::ZERO)
    }
}

impl<V: Vector> DynamicTree<V> {
    /// An empty tree whose fat boxes are the given boxes loosened by `margin` (world units;
    /// 0 is allowed: every move that leaves the box re-inserts).
    ///
    /// # Errors
    /// [`DynamicTreeError::InvalidMargin`] when `margin` is negative, NaN or infinite.
    pub fn try_new(margin: V::Real) -> Result<Self, DynamicTreeError> {
        if !(margin.is_finite() && margin >= V::Real::ZERO) {
            return Err(DynamicTreeError::InvalidMargin { margin: margin.to_f64() });
        }
        Ok(Self {
            nodes: Vec::new(),
            root: NULL,
            free: NULL,
            leaf_count: 0,
            detached_count: 0,
            free_count: 0,
            margin,
        })
    }

    /// [`DynamicTree::try_new`], panicking on a bad margin.
    ///
    /// ```
    /// let tree = kollide::bvh::DynamicTree::<kollide::math::Vec3>::new(0.05);
    /// assert!(tree.is_empty() && tree.height() == 0);
    /// ```
    ///
    /// # Panics
    /// With the [`DynamicTreeError`] message when `margin` is negative or not finite.
    #[must_use]
    pub fn new(margin: V::Real) -> Self {
        match Self::try_new(margin) {
            Ok(t) => t,
            Err(e) => panic!("DynamicTree::new: {e}"),
        }
    }

    /// Builds a tree over `boxes` in one go (top-down, better than inserting one by one and
    /// much faster): `boxes[i]` becomes `ProxyId(i)` with user value `i`.
    ///
    /// ```
    /// use kollide::bvh::{DynamicTree, ProxyId};
    /// use kollide::math::{Aabb, Vec3};
    /// let boxes: Vec<_> = (0..100).map(|i| Aabb::from_ball(Vec3::splat(i as f32), 0.5)).collect();
    /// let tree = DynamicTree::try_from_boxes(0.0, &boxes).unwrap();
    /// assert_eq!(tree.len(), 100);
    /// assert_eq!(tree.user(ProxyId(42)), Some(42));
    /// assert!(tree.height() <= 8);
    /// ```
    ///
    /// # Errors
    /// The first bad box's error (nothing is built), or an invalid margin.
    pub fn try_from_boxes(margin: V::Real, boxes: &[Aabb<V>]) -> Result<Self, DynamicTreeError> {
        let mut tree = Self::try_new(margin)?;
        if boxes.len() >= (u32::MAX / 2) as usize {
            return Err(DynamicTreeError::TooManyProxies { count: boxes.len() });
        }
        tree.nodes.reserve(2 * boxes.len());
        for (i, b) in boxes.iter().enumerate() {
            check_box(b)?;
            tree.nodes.push(Node {
                boxes: [b.loosened(margin), *b],
                parent: NULL,
                child1: 0,
                child2: 0,
                height: 0,
                kind: Kind::Leaf,
                leaf_children: 0,
            });
            tree.nodes[i].set_user(i as u64);
        }
        tree.leaf_count = boxes.len();
        tree.rebuild();
        Ok(tree)
    }

    /// The margin fat boxes are loosened by.
    #[must_use]
    pub fn margin(&self) -> V::Real {
        self.margin
    }

    /// Number of proxies.
    #[must_use]
    pub fn len(&self) -> usize {
        self.leaf_count
    }

    /// `true` when the tree holds no proxy.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.leaf_count == 0
    }

    /// The number of node levels below the root (0 for empty or one proxy).
    #[must_use]
    pub fn height(&self) -> usize {
        if self.root == NULL {
            0
        } else {
            usize::from(self.nodes[self.root as usize].height)
        }
    }

    /// Heap bytes held by the node pool.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Node<V>>()
    }

    /// The box of the whole tree (the root's), empty when the tree is.
    #[must_use]
    pub fn root_aabb(&self) -> Aabb<V> {
        if self.root == NULL {
            Aabb::empty()
        } else {
            self.nodes[self.root as usize].bounds()
        }
    }

    /// The leaf index of a live proxy.
    #[inline(always)]
    pub(super) fn leaf(&self, id: ProxyId) -> Option<usize> {
        let i = id.0 as usize;
        (i < self.nodes.len() && self.nodes[i].kind == Kind::Leaf).then_some(i)
    }

    /// The fat box of a live proxy (world frame), `None` for a stale id.
    #[must_use]
    pub fn fat_aabb(&self, id: ProxyId) -> Option<Aabb<V>> {
        self.leaf(id).map(|i| self.nodes[i].boxes[0])
    }

    /// The box a live proxy was last given (inserted, moved or built with; world frame),
    /// inside its fat box; `None` for a stale id.
    ///
    /// ```
    /// use kollide::bvh::DynamicTree;
    /// use kollide::math::{Aabb, Vec2};
    /// let mut tree = DynamicTree::<Vec2>::new(0.5);
    /// let b = Aabb::new(Vec2::ZERO, Vec2::ONE);
    /// let id = tree.insert(b, 0).unwrap();
    /// assert_eq!(tree.given_aabb(id), Some(b));
    /// assert_eq!(tree.fat_aabb(id), Some(b.loosened(0.5)));
    /// ```
    #[must_use]
    pub fn given_aabb(&self, id: ProxyId) -> Option<Aabb<V>> {
        self.leaf(id).map(|i| self.nodes[i].boxes[1])
    }

    /// The given box kept in node `i` (a leaf, live or detached: the broad phase asks only
    /// for proxies it holds).
    #[inline(always)]
    pub(in crate::bvh) fn given(&self, i: u32) -> &Aabb<V> {
        &self.nodes[i as usize].boxes[1]
    }

    /// The user value a live proxy was inserted with, `None` for a stale id.
    #[must_use]
    pub fn user(&self, id: ProxyId) -> Option<u64> {
        self.leaf(id).map(|i| self.nodes[i].user())
    }

    /// Every live proxy with its fat box, in id order.
    pub fn proxies(&self) -> impl Iterator<Item = (ProxyId, Aabb<V>)> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.is_leaf())
            .map(|(i, n)| (ProxyId(i as u32), n.boxes[0]))
    }

    /// Adds a proxy for the box `aabb` (world frame) carrying `user`; its fat box is `aabb`
    /// loosened by the margin.
    ///
    /// # Errors
    /// [`DynamicTreeError::NonFiniteBox`] or [`DynamicTreeError::InvertedBox`] for a bad
    /// box, [`DynamicTreeError::TooManyProxies`] past `u32` indices; the tree is unchanged.
    pub fn insert(&mut self, aabb: Aabb<V>, user: u64) -> Result<ProxyId, DynamicTreeError> {
        check_box(&aabb)?;
        // The leaf and its new parent: refuse before touching anything.
        if self.nodes.len() + 2 - self.free_count.min(2) >= (NULL - 1) as usize {
            return Err(DynamicTreeError::TooManyProxies { count: self.leaf_count });
        }
        let i = self.allocate();
        let node = &mut self.nodes[i as usize];
        node.boxes = [aabb.loosened(self.margin), aabb];
        node.kind = Kind::Leaf;
        node.height = 0;
        node.set_user(user);
        self.leaf_count += 1;
        self.insert_leaf(i);
        Ok(ProxyId(i))
    }

    /// Removes a proxy; returns its user value, or `None` (and does nothing) for a stale id.
    /// The id may be given to a later insert.
    pub fn remove(&mut self, id: ProxyId) -> Option<u64> {
        let i = self.leaf(id)?;
        let user = self.nodes[i].user();
        self.remove_leaf(i as u32);
        self.leaf_count -= 1;
        self.release_node(i as u32);
        Some(user)
    }

    /// Takes a proxy out of the tree but keeps its id from reuse until
    /// [`DynamicTree::release`]: the broad phase holds removed ids back until its pairs
    /// forget them.
    pub(super) fn detach(&mut self, id: ProxyId) -> bool {
        let Some(i) = self.leaf(id) else { return false };
        self.remove_leaf(i as u32);
        self.leaf_count -= 1;
        self.nodes[i].kind = Kind::Detached;
        self.detached_count += 1;
        true
    }

    /// Frees a detached id for reuse.
    pub(super) fn release(&mut self, id: ProxyId) {
        let i = id.0 as usize;
        if i < self.nodes.len() && self.nodes[i].kind == Kind::Detached {
            self.detached_count -= 1;
            self.release_node(i as u32);
        }
    }

    /// Gives a proxy its new box `aabb` (world frame), having moved by `displacement` since
    /// its last box. While `aabb` stays inside the fat box (and the fat box is not far too
    /// big for it: within the new fat box grown by four margins and the stretch) nothing
    /// changes and `false` is returned; otherwise the proxy gets the fat box `aabb` loosened
    /// by the margin and stretched twice `displacement` ahead (Box2D's prediction), and
    /// `true` is returned: in place when that box stays near the proxy's sibling or inside
    /// its grandparent's box (the ancestors' boxes refitted), else re-inserted. The id is
    /// kept.
    ///
    /// ```
    /// use kollide::bvh::DynamicTree;
    /// use kollide::math::{Aabb, Vec3};
    /// let mut tree = DynamicTree::<Vec3>::new(0.1);
    /// let id = tree.insert(Aabb::new(Vec3::ZERO, Vec3::ONE), 0).unwrap();
    /// let far = Aabb::new(Vec3::splat(5.0), Vec3::splat(6.0));
    /// assert_eq!(tree.move_proxy(id, far, Vec3::new(5.0, 5.0, 5.0)), Ok(true));
    /// assert!(tree.fat_aabb(id).unwrap().contains(&far));
    /// ```
    ///
    /// # Errors
    /// A bad box or displacement, or [`DynamicTreeError::StaleId`]; the tree is unchanged.
    pub fn move_proxy(
        &mut self,
        id: ProxyId,
        aabb: Aabb<V>,
        displacement: V,
    ) -> Result<bool, DynamicTreeError> {
        check_box(&aabb)?;
        if !displacement.is_finite_vec() {
            return Err(DynamicTreeError::NonFiniteDisplacement {
                displacement: displacement.to_f64_array(),
            });
        }
        let i = self.leaf(id).ok_or(DynamicTreeError::StaleId { id })?;
        let mut fat = aabb.loosened(self.margin);
        let d = displacement * V::Real::from_f64(DISPLACEMENT_MULTIPLIER);
        for k in 0..V::DIM {
            let mut lo = fat.min;
            let mut hi = fat.max;
            if d[k] < V::Real::ZERO {
                lo += V::axis(k) * d[k];
            } else {
                hi += V::axis(k) * d[k];
            }
            fat = Aabb::new(lo, hi);
        }
        let old = self.nodes[i].boxes[0];
        if old.contains(&aabb) {
            // Still inside; keep it unless the old box is far bigger than needed (a fast
            // body that stopped): bigger than the new fat box grown by four margins and
            // the stretch (so a body moving steadily keeps its box even with margin 0).
            let huge = fat.loosened(V::Real::from_f64(4.0) * self.margin + d.abs_elem().max_component());
            if huge.contains(&old) {
                self.nodes[i].boxes[1] = aabb;
                return Ok(false);
            }
        }
        // A move that keeps the proxy near its sibling (the new parent's area at most
        // `IN_PLACE_GROWTH` times the two children's areas together), or inside its
        // grandparent's box, keeps the proxy where it is: its ancestors' boxes are refitted
        // exactly on the way up, stopping at the first that does not change. A body
        // jittering or going back and forth so costs a few box unions, not a re-insertion,
        // and cannot drift away from the part of the tree it was placed in (Box2D v3 and
        // parry enlarge in place too).
        let parent = self.nodes[i].parent;
        if parent != NULL {
            let p = &self.nodes[parent as usize];
            // The sibling's box is kept in the parent: no read of the sibling.
            let s = p.boxes[usize::from(p.child1 == i as u32)];
            let near = s.union(&fat).surface_area()
                <= V::Real::from_f64(IN_PLACE_GROWTH) * (s.surface_area() + fat.surface_area());
            let grand = p.parent;
            if near || (grand != NULL && self.nodes[grand as usize].bounds().contains(&fat)) {
                self.nodes[i].boxes = [fat, aabb];
                self.refit_upwards(i as u32);
                return Ok(true);
            }
        }
        self.remove_leaf(i as u32);
        self.nodes[i].boxes = [fat, aabb];
        self.insert_leaf(i as u32);
        Ok(true)
    }

    /// A node from the free list, or a new one (callers check the `u32` limit first).
    pub(super) fn allocate(&mut self) -> u32 {
        if self.free != NULL {
            let i = self.free;
            self.free = self.nodes[i as usize].parent;
            self.free_count -= 1;
            let n = &mut self.nodes[i as usize];
            n.parent = NULL;
            n.child1 = NULL;
            n.child2 = NULL;
            return i;
        }
        self.nodes.push(Node {
            boxes: [Aabb::empty(); 2],
            parent: NULL,
            child1: NULL,
            child2: NULL,
            height: 0,
            kind: Kind::Internal,
            leaf_children: 0,
        });
        (self.nodes.len() - 1) as u32
    }

    /// Puts a node on the free list.
    pub(super) fn release_node(&mut self, i: u32) {
        let n = &mut self.nodes[i as usize];
        n.kind = Kind::Free;
        n.parent = self.free;
        n.child1 = NULL;
        n.child2 = NULL;
        n.height = 0;
        self.free = i;
        self.free_count += 1;
    }
}
