//! The contacts of a frame with state kept per pair: each pair of the broad phase keeps
//! its [`PairCache`] (the GJK warm start and the kept manifold, one per part with a
//! composite), its last manifold and whether
//! it was in contact, from one frame to the next.
//!
//! The states live in slots that do not move while their pair lives (a slab with a free
//! list); a list of `(pair key, slot)` sorted by key is merged with the broad phase's sorted
//! pairs each frame. A pair neither of whose bodies moved (nor changed its groups) since
//! the last frame, asked with the same margin, keeps its last manifold as it is.

use super::bodies::{BodyId, ContactPair, World};
use super::options::{pairs_with, ContactFrame};
use super::shape::{PairCache, RuntimeShape};
use crate::bvh::ProxyId;
use crate::composite::Found;
use crate::math::Real;
use crate::query::{Manifold, Space};

/// What a pair of the broad phase keeps between frames.
#[derive(Clone, Debug)]
pub(crate) struct PairSlot<V: Space> {
    /// The bodies, `a < b` (A and B of the manifold).
    a: BodyId,
    b: BodyId,
    cache: PairCache<V>,
    /// The manifold of the last frame (empty when not in contact).
    last: Found<Manifold<V>>,
}

/// A live pair in the sorted list: its key, slot and bodies, and whether it was in contact
/// at the last frame (read each frame without touching the slot).
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The pair's proxies `(lo, hi)`. A proxy id is not reused before the broad-phase
    /// update that reports its pairs gone, so a key names one pair of bodies for as long
    /// as its slot lives.
    key: u64,
    slot: u32,
    a: BodyId,
    b: BodyId,
    touching: bool,
    /// Not computed yet.
    fresh: bool,
}

/// The state [`World::contacts`] keeps.
#[derive(Clone, Debug)]
pub(crate) struct PairStates<V: Space> {
    slots: Vec<PairSlot<V>>,
    free: Vec<u32>,
    /// Every live pair, sorted by key.
    index: Vec<Entry>,
    /// The margin of the last frame.
    margin: Option<V::Real>,
}

impl<V: Space> Default for PairStates<V> {
    fn default() -> Self {
        Self { slots: Vec::new(), free: Vec::new(), index: Vec::new(), margin: None }
    }
}

impl<V: Space> PairStates<V> {
    /// Heap bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.slots.capacity() * core::mem::size_of::<PairSlot<V>>()
            + self.free.capacity() * 4
            + self.index.capacity() * core::mem::size_of::<Entry>()
            + self.slots.iter().map(|s| s.cache.heap_bytes()).sum::<usize>()
    }
}

fn key(p: ProxyId, q: ProxyId) -> u64 {
    (u64::from(p.0.min(q.0)) << 32) | u64::from(p.0.max(q.0))
}

impl<V: Space, S: RuntimeShape<V>> World<V, S> {
    /// The contacts of this frame, and what changed since the previous one.
    ///
    /// Brings the broad phase up to date (only moved bodies are searched), then computes
    /// the manifold of each pair whose boxes come within `margin` and that makes a pair
    /// (one body at least dynamic, collision groups that meet: see
    /// [`BodyKind`](super::BodyKind) and [`CollisionGroups`](super::CollisionGroups)), and
    /// keeps those with points within `margin`. Each pair keeps its state between frames: a
    /// pair whose bodies did not move keeps its manifold; two convex bodies that barely
    /// moved relative to each other re-project the kept manifold (within the tolerances of
    /// [`ManifoldCache`](crate::query::ManifoldCache)'s defaults) and otherwise recompute
    /// it warm-started; a composite and a convex body keep one such manifold per part
    /// ([`PartManifoldCache`](crate::composite::PartManifoldCache)); two composites are
    /// computed afresh when they move. With the `rayon`
    /// feature the pairs are computed on all cores; the answer is the same, in the same
    /// order.
    pub fn contacts(&mut self, margin: V::Real) -> ContactFrame<V> {
        if margin > self.contact_margin && margin.is_finite() {
            // Pairs apart by up to the margin must be pairs of the broad phase: from now on
            // every body's box is loosened by it (once: a smaller margin later keeps them).
            self.contact_margin = margin;
            for body in self.bodies.iter().flatten() {
                // Finite boxes stay finite when loosened by a finite margin.
                let _ = self.broad.set_aabb(body.proxy, self.broad_box(&body.shape, &body.pose));
            }
        }
        // The kept pairs are the broad phase's pairs of the last frame (only this function
        // updates it), sorted by key: this frame's are those less the removed plus the
        // added. The runs between changes are copied whole; slots of pairs that are gone
        // are freed; new pairs take a free slot.
        let changes = self.broad.update();
        let mut stopped = Vec::new();
        let mut states = core::mem::take(&mut self.pair_states);
        let old = core::mem::take(&mut states.index);
        let mut index = Vec::with_capacity(old.len() + changes.added.len());
        let removed: Vec<u64> = changes.removed.iter().map(|&(p, q)| key(p, q)).collect();
        let (mut i, mut r, mut n) = (0, 0, 0);
        loop {
            let next = match (removed.get(r), changes.added.get(n)) {
                (None, None) => break,
                (Some(&k), None) => k,
                (None, Some(&(p, q))) => key(p, q),
                (Some(&k), Some(&(p, q))) => k.min(key(p, q)),
            };
            // Changes are a few percent of the pairs: a scan to the next one beats a
            // binary search (which misses the cache at every step on a big list).
            let upto = i + old[i..].iter().position(|e| e.key >= next).unwrap_or(old.len() - i);
            index.extend_from_slice(&old[i..upto]);
            i = upto;
            let here = old.get(i).filter(|e| e.key == next).copied();
            if removed.get(r) == Some(&next) {
                r += 1;
                if let Some(e) = here {
                    // A pair the broad phase no longer has: its slot is freed, its contact
                    // stops.
                    if e.touching {
                        stopped.push((e.a, e.b));
                    }
                    states.free.push(e.slot);
                    i += 1;
                }
                continue;
            }
            let (p, q) = changes.added[n];
            n += 1;
            if let Some(e) = here {
                // Kept already (cannot happen: a pair is added only when it was not there).
                index.push(e);
                i += 1;
                continue;
            }
            let (Some((ia, _)), Some((ib, _))) = (self.live(p), self.live(q)) else {
                continue;
            };
            let (a, b) = (ia.min(ib), ia.max(ib));
            let fresh = PairSlot { a, b, cache: PairCache::default(), last: Found::new(Manifold::empty()) };
            let slot = match states.free.pop() {
                Some(slot) => {
                    states.slots[slot as usize] = fresh;
                    slot
                }
                None => {
                    states.slots.push(fresh);
                    (states.slots.len() - 1) as u32
                }
            };
            index.push(Entry { key: next, slot, a, b, touching: false, fresh: true });
        }
        index.extend_from_slice(&old[i..]);
        let same_margin = states.margin == Some(margin);
        states.margin = Some(margin);
        // The pairs to compute: new, or a body moved, or another margin.
        let moved = |id: BodyId| self.moved_flags.get(id.0 as usize).copied().unwrap_or(true);
        // By slot: 0 not computed this frame, else 1 + whether the new manifold has points
        // (set by the step, so the pass below reads this array, not the slots).
        let mut dirty = vec![0u8; states.slots.len()];
        for e in &mut index {
            if e.fresh || !same_margin || moved(e.a) || moved(e.b) {
                dirty[e.slot as usize] = 1;
                e.fresh = false;
            }
        }

        let bodies = &self.bodies;
        let step = |(s, dirty): (&mut PairSlot<V>, &mut u8)| {
            if *dirty == 0 {
                return;
            }
            let body = |id: BodyId| bodies.get(id.0 as usize).and_then(Option::as_ref);
            s.last = match (body(s.a), body(s.b)) {
                (Some(a), Some(b)) if pairs_with(&a.options, &b.options) => {
                    S::manifold_cached(&a.shape, &a.pose, &b.shape, &b.pose, margin, &mut s.cache)
                }
                _ => Found::new(Manifold::empty()),
            };
            *dirty = 1 + u8::from(!s.last.value.is_empty());
        };
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            states.slots.par_iter_mut().zip(dirty.par_iter_mut()).with_min_len(64).for_each(step);
        }
        #[cfg(not(feature = "rayon"))]
        states.slots.iter_mut().zip(dirty.iter_mut()).for_each(step);

        let mut started = Vec::new();
        let mut order = Vec::new();
        for e in &mut index {
            let d = dirty[e.slot as usize];
            if d != 0 {
                let now = d == 2;
                match (e.touching, now) {
                    (false, true) => started.push((e.a, e.b)),
                    (true, false) => stopped.push((e.a, e.b)),
                    _ => {}
                }
                e.touching = now;
            }
            if e.touching {
                order.push((e.a, e.b, e.slot));
            }
        }
        states.index = index;
        order.sort_unstable();
        let pairs = order
            .iter()
            .map(|&(a, b, slot)| ContactPair { a, b, manifold: states.slots[slot as usize].last })
            .collect();
        self.pair_states = states;
        for &id in &self.moved {
            if let Some(flag) = self.moved_flags.get_mut(id as usize) {
                *flag = false;
            }
        }
        self.moved.clear();
        started.sort_unstable();
        stopped.sort_unstable();
        ContactFrame { pairs, started, stopped }
    }
}
