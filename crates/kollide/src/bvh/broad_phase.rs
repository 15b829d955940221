//! The broad phase: bodies' boxes in a [`DynamicTree`] and the set of overlapping pairs,
//! kept up to date between frames.
//!
//! How: the set of *candidate* pairs holds every pair whose fat boxes meet (it may hold a
//! few more, dropped lazily). Fat boxes change only when a proxy is re-inserted, so
//! [`BroadPhase::update`] queries the tree only for proxies inserted or re-inserted since
//! the last call (the move buffer; Box2D's idea), then walks the candidates once: a pair
//! with a removed or re-inserted member whose fat boxes no longer meet is dropped, and a
//! pair with a member whose tight box changed has its *tight* overlap tested again. The
//! reported pairs are the candidates whose tight boxes meet.

use super::dynamic::{check_box, DynamicTree, DynamicTreeError, ProxyId};
use crate::math::{Aabb, Real, Vector};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Flags of a proxy changed since the last update.
const MOVED: u8 = 1; // new, or re-inserted: its fat box changed
const TIGHT: u8 = 2; // its tight box changed
const REMOVED: u8 = 4;

/// The smallest move buffer searched in parallel with the `rayon` feature (measured: below
/// it the threads cost more than they save).
#[cfg(feature = "rayon")]
const PAR_MIN_MOVED: usize = 1024;

/// A hasher for pair keys (two `u32` ids in a `u64`): splitmix64's finaliser.
#[derive(Default)]
struct PairHasher(u64);

impl Hasher for PairHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline(always)]
    fn write_u64(&mut self, x: u64) {
        let mut z = self.0 ^ x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        self.0 = z ^ (z >> 31);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type PairMap = HashMap<u64, u32, BuildHasherDefault<PairHasher>>;

#[inline(always)]
fn key(a: u32, b: u32) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

/// A candidate pair `a < b` and whether their tight boxes met at the last update.
#[derive(Clone, Copy, Debug)]
struct Pair {
    a: u32,
    b: u32,
    touching: bool,
}

/// What [`BroadPhase::update`] changed in the pair set. Each pair is `(lo, hi)` by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairChanges {
    /// Pairs whose tight boxes meet now and did not at the previous update.
    pub added: Vec<(ProxyId, ProxyId)>,
    /// Pairs whose tight boxes met at the previous update and do not now (or a member was
    /// removed).
    pub removed: Vec<(ProxyId, ProxyId)>,
}

/// Bodies' boxes and the set of pairs whose boxes meet, maintained incrementally.
///
/// Give each body its tight box (world frame) with [`BroadPhase::insert`], tell it when
/// the body moves with [`BroadPhase::set_aabb`] (or goes with [`BroadPhase::remove`]), and
/// call [`BroadPhase::update`] once per frame: afterwards [`BroadPhase::pairs`] is exactly
/// the set of unordered pairs of bodies whose tight boxes meet (touching counts), and the
/// returned [`PairChanges`] says which pairs began and ended. Ids of removed bodies are not
/// reused before the next update, so a pair in `removed` always means the old body.
///
/// ```
/// use kollide::bvh::BroadPhase;
/// use kollide::math::{Aabb, Vec2};
///
/// let mut bp = BroadPhase::<Vec2>::new(0.1);
/// let a = bp.insert(Aabb::new(Vec2::ZERO, Vec2::ONE)).unwrap();
/// let b = bp.insert(Aabb::new(Vec2::splat(2.0), Vec2::splat(3.0))).unwrap();
/// assert!(bp.update().added.is_empty());
/// bp.set_aabb(b, Aabb::new(Vec2::splat(0.5), Vec2::splat(1.5))).unwrap();
/// let changes = bp.update();
/// assert_eq!(changes.added, vec![(a, b)]);
/// assert_eq!(bp.pairs().collect::<Vec<_>>(), vec![(a, b)]);
/// bp.remove(a);
/// assert_eq!(bp.update().removed, vec![(a, b)]);
/// assert_eq!(bp.pair_count(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct BroadPhase<V: Vector> {
    tree: DynamicTree<V>,
    /// Tight boxes by id.
    tight: Vec<Aabb<V>>,
    /// Change flags by id.
    flags: Vec<u8>,
    /// Ids with `MOVED`, each once.
    moved: Vec<u32>,
    /// Ids with any flag, each once.
    touched: Vec<u32>,
    /// Ids removed since the last update (detached in the tree).
    removed: Vec<u32>,
    pairs: Vec<Pair>,
    index: PairMap,
    touching: usize,
}

impl<V: Vector> Default for BroadPhase<V> {
    /// An empty broad phase with margin 0.
    fn default() -> Self {
        Self::new(V::Real::ZERO)
    }
}

impl<V: Vector> BroadPhase<V> {
    /// An empty broad phase whose tree loosens boxes by `margin` (world units): larger
    /// margins re-insert less often but test more candidate pairs.
    ///
    /// # Errors
    /// [`DynamicTreeError::InvalidMargin`] for a negative or non-finite margin.
    pub fn try_new(margin: V::Real) -> Result<Self, DynamicTreeError> {
        Ok(Self {
            tree: DynamicTree::try_new(margin)?,
            tight: Vec::new(),
            flags: Vec::new(),
            moved: Vec::new(),
            touched: Vec::new(),
            removed: Vec::new(),
            pairs: Vec::new(),
            index: PairMap::default(),
            touching: 0,
        })
    }

    /// [`BroadPhase::try_new`], panicking on a bad margin.
    ///
    /// ```
    /// let bp = kollide::bvh::BroadPhase::<kollide::math::DVec3>::new(0.05);
    /// assert_eq!(bp.pair_count(), 0);
    /// ```
    ///
    /// # Panics
    /// With the [`DynamicTreeError`] message for a negative or non-finite margin.
    #[must_use]
    pub fn new(margin: V::Real) -> Self {
        match Self::try_new(margin) {
            Ok(b) => b,
            Err(e) => panic!("BroadPhase::new: {e}"),
        }
    }

    /// The tree of fat boxes (read only).
    #[must_use]
    pub fn tree(&self) -> &DynamicTree<V> {
        &self.tree
    }

    /// The tight box of a live body, `None` for a stale id.
    #[must_use]
    pub fn aabb(&self, id: ProxyId) -> Option<Aabb<V>> {
        self.tree.fat_aabb(id).map(|_| self.tight[id.0 as usize])
    }

    /// Number of bodies.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tree.len()
    }

    /// `true` when there is no body.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tree.is_empty()
    }

    /// Heap bytes held (tree, per-body arrays, pairs).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.tree.memory_bytes()
            + self.tight.capacity() * core::mem::size_of::<Aabb<V>>()
            + self.flags.capacity()
            + (self.moved.capacity() + self.touched.capacity() + self.removed.capacity()) * 4
            + self.pairs.capacity() * core::mem::size_of::<Pair>()
            + self.index.capacity() * (core::mem::size_of::<(u64, u32)>() + 1)
    }

    fn mark(&mut self, id: u32, flag: u8) {
        let i = id as usize;
        if self.flags.len() <= i {
            self.flags.resize(i + 1, 0);
            self.tight.resize(i + 1, Aabb::empty());
        }
        if self.flags[i] == 0 {
            self.touched.push(id);
        }
        if flag & MOVED != 0 && self.flags[i] & MOVED == 0 {
            self.moved.push(id);
        }
        self.flags[i] |= flag;
    }

    /// Adds a body with the tight box `aabb` (world frame). Its pairs appear at the next
    /// [`BroadPhase::update`].
    ///
    /// # Errors
    /// A non-finite or inverted box (nothing added).
    pub fn insert(&mut self, aabb: Aabb<V>) -> Result<ProxyId, DynamicTreeError> {
        let id = self.tree.insert(aabb, 0)?;
        self.mark(id.0, MOVED | TIGHT);
        self.tight[id.0 as usize] = aabb;
        Ok(id)
    }

    /// Removes a body; its pairs are reported removed at the next update. Returns `false`
    /// (and does nothing) for a stale id. The id is reused only after that update.
    pub fn remove(&mut self, id: ProxyId) -> bool {
        if !self.tree.detach(id) {
            return false;
        }
        self.mark(id.0, REMOVED);
        self.removed.push(id.0);
        true
    }

    /// Gives a body its new tight box (world frame). The tree changes only when the box
    /// leaves the fat box; the fat box is then stretched along the move (the change of the
    /// box's centre), unless the move is more than four times the box's size plus the
    /// margin (a teleport, not stretched).
    ///
    /// # Errors
    /// A non-finite or inverted box, or [`DynamicTreeError::StaleId`] (nothing changed).
    pub fn set_aabb(&mut self, id: ProxyId, aabb: Aabb<V>) -> Result<(), DynamicTreeError> {
        check_box(&aabb)?;
        let old = self.aabb(id).ok_or(DynamicTreeError::StaleId { id })?;
        let mut d = aabb.center() - old.center();
        let reach = (aabb.extents().max_component() + self.tree.margin()) * V::Real::from_f64(4.0);
        if !d.is_finite_vec() || d.length_squared() > reach * reach {
            d = V::ZERO;
        }
        let reinserted = self.tree.move_proxy(id, aabb, d)?;
        self.mark(id.0, if reinserted { MOVED | TIGHT } else { TIGHT });
        self.tight[id.0 as usize] = aabb;
        Ok(())
    }

    /// The pairs `(lo, hi)` (by id) whose tight boxes met at the last update, in no
    /// particular order.
    pub fn pairs(&self) -> impl Iterator<Item = (ProxyId, ProxyId)> + '_ {
        self.pairs.iter().filter(|p| p.touching).map(|p| (ProxyId(p.a), ProxyId(p.b)))
    }

    /// Number of pairs whose tight boxes met at the last update.
    #[must_use]
    pub fn pair_count(&self) -> usize {
        self.touching
    }

    /// Brings the pair set up to date with every insert, remove and move since the last
    /// call and reports what changed (see the type's docs). With the `rayon` feature a big
    /// move buffer is searched in parallel.
    pub fn update(&mut self) -> PairChanges {
        let found = self.search_moved();
        for (a, b) in found {
            let k = key(a, b);
            if let std::collections::hash_map::Entry::Vacant(e) = self.index.entry(k) {
                e.insert(self.pairs.len() as u32);
                self.pairs.push(Pair { a, b, touching: false });
            }
        }
        let mut changes = PairChanges::default();
        let mut i = 0;
        while i < self.pairs.len() {
            let p = self.pairs[i];
            let f = self.flags[p.a as usize] | self.flags[p.b as usize];
            if f == 0 {
                i += 1;
                continue;
            }
            let keep = if f & REMOVED != 0 {
                false
            } else if f & MOVED != 0 {
                match (self.tree.fat_aabb(ProxyId(p.a)), self.tree.fat_aabb(ProxyId(p.b))) {
                    (Some(x), Some(y)) => x.intersects(&y),
                    _ => false,
                }
            } else {
                true
            };
            if !keep {
                if p.touching {
                    changes.removed.push((ProxyId(p.a), ProxyId(p.b)));
                    self.touching -= 1;
                }
                self.index.remove(&key(p.a, p.b));
                self.pairs.swap_remove(i);
                if let Some(q) = self.pairs.get(i) {
                    self.index.insert(key(q.a, q.b), i as u32);
                }
                continue;
            }
            let t = self.tight[p.a as usize].intersects(&self.tight[p.b as usize]);
            if t != p.touching {
                self.pairs[i].touching = t;
                if t {
                    changes.added.push((ProxyId(p.a), ProxyId(p.b)));
                    self.touching += 1;
                } else {
                    changes.removed.push((ProxyId(p.a), ProxyId(p.b)));
                    self.touching -= 1;
                }
            }
            i += 1;
        }
        for &id in &self.touched {
            self.flags[id as usize] = 0;
        }
        self.touched.clear();
        self.moved.clear();
        for &id in &self.removed {
            self.tree.release(ProxyId(id));
        }
        self.removed.clear();
        changes
    }

    /// The candidate pairs `(lo, hi)` of the move buffer: every live pair with a moved
    /// member whose fat boxes meet, each found once (a pair of two moved proxies by the
    /// higher id's search only).
    fn search_moved(&self) -> Vec<(u32, u32)> {
        #[cfg(feature = "rayon")]
        if self.moved.len() >= PAR_MIN_MOVED {
            use rayon::prelude::*;
            let parts: Vec<Vec<(u32, u32)>> = self
                .moved
                .par_chunks(256)
                .map(|chunk| {
                    let mut out = Vec::new();
                    for &p in chunk {
                        self.search_one(p, &mut out);
                    }
                    out
                })
                .collect();
            return parts.concat();
        }
        let mut out = Vec::new();
        for &p in &self.moved {
            self.search_one(p, &mut out);
        }
        out
    }

    fn search_one(&self, p: u32, out: &mut Vec<(u32, u32)>) {
        if self.flags[p as usize] & REMOVED != 0 {
            return;
        }
        let Some(fat) = self.tree.fat_aabb(ProxyId(p)) else { return };
        self.tree.visit_overlaps(&fat, |ProxyId(q)| {
            if q != p && !(q < p && self.flags[q as usize] & MOVED != 0) {
                out.push(if p < q { (p, q) } else { (q, p) });
            }
            true
        });
    }
}
