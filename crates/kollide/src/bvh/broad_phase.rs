//! The broad phase: bodies' boxes in a [`DynamicTree`] and the set of overlapping pairs,
//! kept up to date between frames.
//!
//! How: the sorted list of *candidate* pairs holds exactly the pairs whose fat boxes meet.
//! Fat boxes change only when a proxy is inserted or leaves its fat box, so
//! [`BroadPhase::update`] queries the tree only for those proxies (the move buffer; Box2D's
//! idea; four at a time, in Z-order), sorts what it finds and merges it with the candidates
//! in one sequential pass (in place; no hashing): a pair with a removed member, or with a
//! moved member that the search did not find again, is dropped; a pair with a member whose
//! tight box changed has its *tight* overlap tested again. A frame that moves no fat box
//! and removes nothing skips the search and the pass: it tests again only the pairs of the
//! proxies whose tight box changed, through a per-proxy index of the candidates. The
//! reported pairs are the candidates whose tight boxes meet.

use super::dynamic::{DynamicTree, DynamicTreeError, ProxyId};
use super::sweep_prune::all_pairs;
use crate::math::{Aabb, MortonGrid, Real, Vector};

/// Flags of a proxy changed since the last update.
const MOVED: u8 = 1; // new, or its fat box changed
const TIGHT: u8 = 2; // its tight box changed
const REMOVED: u8 = 4;

/// The update rebuilds the tree top-down before its search when at least one proxy in this
/// many is in the move buffer, and as many were inserted one by one since the tree was last
/// built (a first frame, a scene reloaded): then the rebuilt tree answers the searches
/// faster than the rebuild costs. Measured at 100k boxes (f32, 3D), update with and
/// without the rebuild: 25k moved 75 / 56 ms, 50k moved 140 / 146 ms, all moved after
/// inserting one by one 200 / 235 ms.
const REBUILD_ONE_IN: usize = 2;

/// The smallest move buffer searched in parallel with the `rayon` feature. Measured on 2
/// cores, 100k boxes: 1024 moved, no gain; 4096, 8.5 -> 8.2 ms; 16384, 32 -> 23 ms.
#[cfg(feature = "rayon")]
const PAR_MIN_MOVED: usize = 4096;

/// A frame that moves no fat box tests again only the changed proxies' pairs, found through
/// the per-proxy index, while the candidate pairs are at most this many (their arrays then
/// stay in cache: 12 bytes a pair, 1.5 MB), or at most one proxy in `BY_PROXY_SHARE`
/// changed; else one pass over all candidates is faster, reading them in order. Measured on
/// the world-frame heap, a tenth of the bodies moving: 10k bodies, the index 110 us against
/// 220 for the pass; 100k, 5.3 ms against 3.5.
const BY_PROXY_MAX_PAIRS: usize = 1 << 17;
const BY_PROXY_SHARE: usize = 16;

/// The sort key of the pair `(a, b)`.
#[inline(always)]
fn key(a: u32, b: u32) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

/// The number of entries of the sorted `pairs` whose key is below `k` (where `k` would be
/// inserted), searched from the end: `hi` steps back by 1, 2, 4, ... while the entry
/// there is not below `k`, then a binary search in the last step's span.
fn gallop_back(pairs: &[Pair], k: u64) -> usize {
    let (mut lo, mut hi, mut step) = (0, pairs.len(), 1);
    while step <= hi {
        let probe = hi - step;
        let q = pairs[probe];
        if key(q.a, q.b) < k {
            lo = probe + 1;
            break;
        }
        hi = probe;
        step *= 2;
    }
    lo + pairs[lo..hi].partition_point(|q| key(q.a, q.b) < k)
}

/// A candidate pair `a < b` and whether their tight boxes met at the last update.
#[derive(Clone, Copy, Debug)]
struct Pair {
    a: u32,
    b: u32,
    touching: bool,
}

/// What [`BroadPhase::update`] changed in the pair set. Each pair is `(lo, hi)` by id;
/// both lists are sorted.
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
/// call [`BroadPhase::update`] once per frame (or build all at once with
/// [`BroadPhase::try_from_boxes`]): afterwards [`BroadPhase::pairs`] is exactly
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
    /// Change flags by id.
    flags: Vec<u8>,
    /// Ids with `MOVED`, each once.
    moved: Vec<u32>,
    /// Ids with any flag, each once.
    touched: Vec<u32>,
    /// Ids removed since the last update (detached in the tree).
    removed: Vec<u32>,
    /// Tree insertions (new or re-inserted proxies) since the tree was last built whole.
    inserted: usize,
    /// Candidate pairs sorted by `(a, b)`.
    pairs: Vec<Pair>,
    touching: usize,
    /// The candidates of each proxy, as indices into `pairs` (`by_proxy[start[i]..start[i +
    /// 1]]` for proxy `i`), valid while `pairs` keeps its entries in place: built when a
    /// frame moves no fat box, dropped when the candidates change.
    start: Vec<u32>,
    by_proxy: Vec<u32>,
    by_proxy_valid: bool,
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
            flags: Vec::new(),
            moved: Vec::new(),
            touched: Vec::new(),
            removed: Vec::new(),
            inserted: 0,
            pairs: Vec::new(),
            touching: 0,
            start: Vec::new(),
            by_proxy: Vec::new(),
            by_proxy_valid: false,
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

    /// A broad phase over `boxes` built in one go (the tree top-down, much faster than
    /// inserting one by one): `boxes[i]` is the tight box of `ProxyId(i)`. All pairs
    /// appear at the first [`BroadPhase::update`].
    ///
    /// ```
    /// use kollide::bvh::{BroadPhase, ProxyId};
    /// use kollide::math::{Aabb, Vec3};
    /// let boxes: Vec<_> = (0..10).map(|i| Aabb::from_ball(Vec3::new(i as f32, 0.0, 0.0), 0.5)).collect();
    /// let mut bp = BroadPhase::try_from_boxes(0.1, &boxes).unwrap();
    /// assert_eq!(bp.update().added.len(), 9);
    /// assert_eq!(bp.aabb(ProxyId(3)), Some(boxes[3]));
    /// ```
    ///
    /// # Errors
    /// The first bad box's error, or an invalid margin (nothing is built).
    pub fn try_from_boxes(margin: V::Real, boxes: &[Aabb<V>]) -> Result<Self, DynamicTreeError> {
        let mut bp = Self::try_new(margin)?;
        bp.tree = DynamicTree::try_from_boxes(margin, boxes)?;
        bp.flags = vec![MOVED | TIGHT; boxes.len()];
        bp.moved = (0..boxes.len() as u32).collect();
        bp.touched = bp.moved.clone();
        Ok(bp)
    }

    /// The tree of fat boxes (read only).
    #[must_use]
    pub fn tree(&self) -> &DynamicTree<V> {
        &self.tree
    }

    /// The tight box of a live body, `None` for a stale id.
    #[must_use]
    pub fn aabb(&self, id: ProxyId) -> Option<Aabb<V>> {
        self.tree.given_aabb(id)
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
            + self.flags.capacity()
            + (self.moved.capacity() + self.touched.capacity() + self.removed.capacity()) * 4
            + self.pairs.capacity() * core::mem::size_of::<Pair>()
            + (self.start.capacity() + self.by_proxy.capacity()) * 4
    }

    fn mark(&mut self, id: u32, flag: u8) {
        let i = id as usize;
        if self.flags.len() <= i {
            self.flags.resize(i + 1, 0);
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
        self.inserted += 1;
        self.mark(id.0, MOVED | TIGHT);
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
    /// leaves the fat box, which is then the new box loosened by the margin (not stretched
    /// along the move, as in Box2D v3: a body going back and forth would otherwise query
    /// the tree with a box grown on the side it is leaving; the move itself is cheap, the
    /// proxy mostly keeping its place in the tree, see [`DynamicTree::move_proxy`]).
    ///
    /// # Errors
    /// A non-finite or inverted box, or [`DynamicTreeError::StaleId`] (nothing changed).
    pub fn set_aabb(&mut self, id: ProxyId, aabb: Aabb<V>) -> Result<(), DynamicTreeError> {
        let reinserted = self.tree.move_proxy(id, aabb, V::ZERO)?;
        self.inserted += usize::from(reinserted);
        self.mark(id.0, if reinserted { MOVED | TIGHT } else { TIGHT });
        Ok(())
    }

    /// The pairs `(lo, hi)` (by id) whose tight boxes met at the last update, sorted.
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
        let big = |k: usize| k >= 64 && k * REBUILD_ONE_IN >= self.tree.len();
        if big(self.moved.len()) && big(self.inserted) {
            self.tree.rebuild();
            self.inserted = 0;
        }
        let mut changes = PairChanges::default();
        let few =
            self.pairs.len() <= BY_PROXY_MAX_PAIRS || self.touched.len() * BY_PROXY_SHARE <= self.tree.len();
        if self.moved.is_empty() && self.removed.is_empty() && few {
            // No fat box changed, so neither did the candidates: only the pairs of proxies
            // whose tight box changed are tested again, found through `by_proxy`.
            self.refresh_touched(&mut changes);
            return self.finish(changes);
        }
        self.by_proxy_valid = false;
        let found = self.search_moved();
        // One pass over the sorted candidates, merged with the sorted found pairs and
        // compacted in place; found pairs that are new are set aside and merged in after.
        let mut fresh = Vec::new();
        // Kept pairs with a changed member, by their place after the compaction: their
        // tight boxes are tested in a second loop. Read at random, the boxes miss the cache;
        // in a loop of independent tests without branches between them the misses overlap,
        // where in this pass each waited behind the branches on the flags.
        let mut retest: Vec<u32> = Vec::new();
        let (mut w, mut j) = (0, 0);
        for i in 0..self.pairs.len() {
            let p = self.pairs[i];
            let k = key(p.a, p.b);
            while j < found.len() && found[j] < k {
                fresh.push(found[j]);
                j += 1;
            }
            let was_found = j < found.len() && found[j] == k;
            j += usize::from(was_found);
            let f = self.flags[p.a as usize] | self.flags[p.b as usize];
            if f != 0 {
                // The search found every pair with a re-inserted member whose fat boxes
                // meet: such a pair it did not find is no candidate any more.
                let keep = f & REMOVED == 0 && (f & MOVED == 0 || was_found);
                if !keep {
                    self.report(&mut changes, p, false);
                    continue;
                }
                retest.push(w as u32);
            }
            if w != i {
                self.pairs[w] = p;
            }
            w += 1;
        }
        for &at in &retest {
            let p = self.pairs[at as usize];
            let t = self.meet(p.a, p.b);
            self.report(&mut changes, p, t);
            self.pairs[at as usize].touching = t;
        }
        fresh.extend_from_slice(&found[j..]);
        self.pairs.truncate(w);
        if !fresh.is_empty() {
            let fresh: Vec<Pair> = fresh
                .into_iter()
                .map(|k| {
                    let (a, b) = ((k >> 32) as u32, k as u32);
                    let t = self.meet(a, b);
                    self.report(&mut changes, Pair { a, b, touching: false }, t);
                    Pair { a, b, touching: t }
                })
                .collect();
            // Merge from the back, moving the blocks between insertion points whole. Each
            // insertion point is found by galloping back from the previous one (probes 1,
            // 2, 4, ... entries back, then a binary search in the last step): the probes
            // stay near memory just read, where a binary search over the whole list would
            // miss the cache at every step.
            let mut end = self.pairs.len();
            self.pairs.resize(end + fresh.len(), fresh[0]);
            for (k, p) in fresh.iter().enumerate().rev() {
                let at = gallop_back(&self.pairs[..end], key(p.a, p.b));
                self.pairs.copy_within(at..end, at + k + 1);
                self.pairs[at + k] = *p;
                end = at;
            }
        }
        self.finish(changes)
    }

    /// The tight test again for every candidate pair of a proxy in `touched` (the
    /// frame moved no fat box).
    fn refresh_touched(&mut self, changes: &mut PairChanges) {
        if !self.by_proxy_valid {
            // Counting sort of the pairs' ends by proxy.
            self.start.clear();
            self.start.resize(self.flags.len() + 1, 0);
            for p in &self.pairs {
                self.start[p.a as usize + 1] += 1;
                self.start[p.b as usize + 1] += 1;
            }
            for i in 1..self.start.len() {
                self.start[i] += self.start[i - 1];
            }
            self.by_proxy.clear();
            self.by_proxy.resize(2 * self.pairs.len(), 0);
            let mut next = self.start.clone();
            for (k, p) in self.pairs.iter().enumerate() {
                for end in [p.a, p.b] {
                    self.by_proxy[next[end as usize] as usize] = k as u32;
                    next[end as usize] += 1;
                }
            }
            self.by_proxy_valid = true;
        }
        for t in 0..self.touched.len() {
            let id = self.touched[t] as usize;
            let Some(&to) = self.start.get(id + 1) else { continue };
            for n in self.start[id]..to {
                let k = self.by_proxy[n as usize] as usize;
                let p = self.pairs[k];
                let now = self.meet(p.a, p.b);
                if now != p.touching {
                    self.report(changes, p, now);
                    self.pairs[k].touching = now;
                }
            }
        }
    }

    /// The end of an update: the changes sorted, the flags and buffers cleared, removed
    /// ids released.
    fn finish(&mut self, mut changes: PairChanges) -> PairChanges {
        changes.added.sort_unstable();
        changes.removed.sort_unstable();
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

    /// Whether the tight boxes of two proxies meet (kept in their leaves, as the box each
    /// was last given).
    #[inline(always)]
    fn meet(&self, a: u32, b: u32) -> bool {
        self.tree.given(a).intersects(self.tree.given(b))
    }

    /// Records a pair's change of touching state (`p.touching` before, `t` now).
    fn report(&mut self, changes: &mut PairChanges, p: Pair, t: bool) {
        if t != p.touching {
            if t {
                changes.added.push((ProxyId(p.a), ProxyId(p.b)));
                self.touching += 1;
            } else {
                changes.removed.push((ProxyId(p.a), ProxyId(p.b)));
                self.touching -= 1;
            }
        }
    }

    /// The candidate pairs `(lo, hi)` of the move buffer, sorted: every live pair with a
    /// moved member whose fat boxes meet, each found once (a pair of two moved proxies by the
    /// higher id's search only).
    fn search_moved(&self) -> Vec<u64> {
        if self.moved.len() >= 64 {
            let live = self.moved.iter().filter(|&&p| self.flags[p as usize] & REMOVED == 0).count();
            if live == self.tree.len() {
                return self.search_all();
            }
        }
        #[cfg(feature = "rayon")]
        if self.moved.len() >= PAR_MIN_MOVED {
            use rayon::prelude::*;
            let parts: Vec<Vec<u64>> = self
                .spatial_order()
                .par_chunks(256)
                .map(|chunk| {
                    let (mut out, mut stack) = (Vec::new(), Vec::new());
                    for group in chunk.chunks(4) {
                        self.search_four(group, &mut stack, &mut out);
                    }
                    out
                })
                .collect();
            let mut all = parts.concat();
            all.par_sort_unstable();
            return all;
        }
        let mut out = Vec::new();
        let mut stack = Vec::new();
        for group in self.spatial_order().chunks(4) {
            self.search_four(group, &mut stack, &mut out);
        }
        out.sort_unstable();
        out
    }

    /// The live moved proxies along a Z-order (Morton) curve of their fat boxes' centres
    /// over the tree's box: searched in this order, consecutive searches walk mostly the
    /// same nodes, which then stay in cache.
    fn spatial_order(&self) -> Vec<u32> {
        let root = self.tree.root_aabb();
        let grid = MortonGrid::new(root.min.to_f64_array(), root.max.to_f64_array());
        let mut keyed: Vec<(u64, u32)> = self
            .moved
            .iter()
            .filter(|&&p| self.flags[p as usize] & REMOVED == 0)
            .filter_map(|&p| Some((grid.key(self.tree.fat_aabb(ProxyId(p))?.center().to_f64_array()), p)))
            .collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|(_, p)| p).collect()
    }

    /// Every pair of live proxies whose fat boxes meet, by [`all_pairs`]: the search when
    /// every proxy is in the move buffer (a first update), where one search of all pairs
    /// beats querying the tree once per proxy (see `sweep_prune.rs`).
    fn search_all(&self) -> Vec<u64> {
        let (ids, boxes): (Vec<u32>, Vec<Aabb<V>>) = self.tree.proxies().map(|(id, b)| (id.0, b)).unzip();
        let mut out: Vec<u64> = all_pairs(&boxes)
            .into_iter()
            .map(|(i, j)| {
                let (a, b) = (ids[i as usize], ids[j as usize]);
                if a < b {
                    key(a, b)
                } else {
                    key(b, a)
                }
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// The candidate pairs of up to four live moved proxies (see
    /// [`BroadPhase::search_moved`]), searched in one walk of the tree.
    fn search_four(&self, group: &[u32], stack: &mut Vec<(u32, u8)>, out: &mut Vec<u64>) {
        let mut boxes = [Aabb::empty(); 4];
        for (b, &p) in boxes.iter_mut().zip(group) {
            *b = self.tree.fat_aabb(ProxyId(p)).unwrap_or_default();
        }
        self.tree.overlaps4(&boxes[..group.len()], stack, |q, mut mask| {
            while mask != 0 {
                let p = group[mask.trailing_zeros() as usize];
                mask &= mask - 1;
                if q != p && !(q < p && self.flags[q as usize] & MOVED != 0) {
                    out.push(if p < q { key(p, q) } else { key(q, p) });
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn galloping_back_finds_the_binary_search_insertion_point() {
        // Sorted keys with runs of equal keys, and probes below, between, on and above them.
        let pairs: Vec<Pair> =
            (0..300u32).map(|i| Pair { a: i / 7, b: (i * 13) % 5 + 10 * (i / 7), touching: false }).collect();
        let mut pairs = pairs;
        pairs.sort_unstable_by_key(|p| key(p.a, p.b));
        for end in [0, 1, 2, 3, 5, 64, 299, 300] {
            let part = &pairs[..end];
            for a in 0..45u32 {
                for b in 0..460u32 {
                    let k = key(a, b);
                    assert_eq!(
                        gallop_back(part, k),
                        part.partition_point(|q| key(q.a, q.b) < k),
                        "{end} {a} {b}"
                    );
                }
            }
        }
    }
}
