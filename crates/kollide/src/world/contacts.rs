//! The contacts of a frame with state kept per pair: each pair of the broad phase keeps
//! its [`PairCache`] (the GJK warm start and the kept manifold, one per part with a
//! composite), its last manifold and whether
//! it was in contact, from one frame to the next.
//!
//! The states live in slots that do not move while their pair lives (a slab with a free
//! list); a list of `(pair key, slot)` sorted by key is merged with the broad phase's sorted
//! pairs each frame. A pair neither of whose bodies moved (nor changed its groups) since
//! the last frame, asked with the same margin, keeps its last manifold as it is. A pair the
//! broad phase drops stays dormant with its slot for [`DORMANT_FRAMES`] frames (a list
//! sorted by key, merged the same way) and takes it back if found again meanwhile.

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

/// What the step of a frame does with a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Not computed: the pair keeps its last manifold.
    Kept,
    /// Computed: no points (before the step: to be computed).
    Empty,
    /// Computed: in contact.
    Touching,
}

/// A slot's work in a frame: its bodies, and what the step did.
#[derive(Clone, Copy, Debug)]
struct Work {
    a: BodyId,
    b: BodyId,
    outcome: Outcome,
}

impl Work {
    const IDLE: Self = Self { a: BodyId(u32::MAX), b: BodyId(u32::MAX), outcome: Outcome::Kept };
}

/// How many frames a pair the broad phase dropped keeps its slot (its GJK warm start and
/// separating axis), so that it starts warm if its boxes meet again meanwhile: bodies
/// resting side by side and jittering make and break such pairs every frame or two.
const DORMANT_FRAMES: u32 = 4;

/// A pair the broad phase dropped whose slot is kept, since frame `since`.
#[derive(Clone, Copy, Debug)]
struct Dormant {
    entry: Entry,
    since: u32,
}

/// The state [`World::contacts`] keeps.
#[derive(Clone, Debug)]
pub(crate) struct PairStates<V: Space> {
    slots: Vec<PairSlot<V>>,
    free: Vec<u32>,
    /// Every live pair, sorted by key.
    index: Vec<Entry>,
    /// Pairs dropped by the broad phase in the last [`DORMANT_FRAMES`] frames, both bodies
    /// still there, sorted by key: a pair found again takes its slot back.
    dormant: Vec<Dormant>,
    /// Frames computed so far (wrapping).
    frame: u32,
    /// The margin of the last frame.
    margin: Option<V::Real>,
}

impl<V: Space> Default for PairStates<V> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            free: Vec::new(),
            index: Vec::new(),
            dormant: Vec::new(),
            frame: 0,
            margin: None,
        }
    }
}

impl<V: Space> PairStates<V> {
    /// Heap bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.slots.capacity() * core::mem::size_of::<PairSlot<V>>()
            + self.free.capacity() * 4
            + self.index.capacity() * core::mem::size_of::<Entry>()
            + self.dormant.capacity() * core::mem::size_of::<Dormant>()
            + self.slots.iter().map(|s| s.cache.heap_bytes()).sum::<usize>()
    }
}

/// Two lists sorted by key, without common keys, as one.
fn merge_by_key(a: Vec<Dormant>, b: Vec<Dormant>) -> Vec<Dormant> {
    if a.is_empty() {
        return b;
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let take_a = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => x.entry.key < y.entry.key,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return out,
        };
        out.extend(if take_a { a.next() } else { b.next() });
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
    /// computed afresh when they move. A pair whose boxes part keeps its state for a few
    /// frames, so that bodies jittering side by side, whose pairs part and meet again,
    /// start from it. With the `rayon`
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
        // added. The runs between changes are copied whole; pairs that are gone go dormant
        // (or free their slots when a body went); new pairs take a dormant pair's slot
        // back, or a free one.
        let changes = self.broad.update();
        let mut stopped = Vec::new();
        let mut states = core::mem::take(&mut self.pair_states);
        states.frame = states.frame.wrapping_add(1);
        let frame = states.frame;
        let old = core::mem::take(&mut states.index);
        let mut old_dormant = core::mem::take(&mut states.dormant);
        let mut new_dormant = Vec::new();
        let mut d = 0;
        // Both bodies of a pair still there, with the proxies of its key: a removed body's
        // proxy maps to none until this update has released it (no body was added since),
        // so a dormant pair of a removed body is found here, before its ids can be reused.
        let body = |p: u32| BodyId(self.body_of.get(p as usize).copied().unwrap_or(u32::MAX));
        let alive = |e: &Entry| {
            let (p, q) = (body((e.key >> 32) as u32), body(e.key as u32));
            (p.min(q), p.max(q)) == (e.a, e.b)
        };
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
                    // A pair the broad phase no longer has: its contact stops, its slot
                    // stays a while if both bodies are still there.
                    if e.touching {
                        stopped.push((e.a, e.b));
                    }
                    if alive(&e) {
                        new_dormant.push(Dormant { entry: Entry { touching: false, ..e }, since: frame });
                    } else {
                        states.free.push(e.slot);
                    }
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
            // The broad phase adds no pair of a removed body's proxy; a body missing all the
            // same would be skipped by the step below.
            let (ia, ib) = (body(p.0), body(q.0));
            let (a, b) = (ia.min(ib), ia.max(ib));
            while old_dormant.get(d).is_some_and(|x| x.entry.key < next) {
                d += 1;
            }
            if let Some(x) =
                old_dormant.get_mut(d).filter(|x| x.entry.key == next && x.entry.slot != u32::MAX)
            {
                if (x.entry.a, x.entry.b) == (a, b) {
                    // Found again: its state is where it was (computed below, as new).
                    index.push(Entry { fresh: true, ..x.entry });
                    x.entry.slot = u32::MAX;
                    continue;
                }
            }
            let fresh = PairSlot { cache: PairCache::default(), last: Found::new(Manifold::empty()) };
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
        // Dormant pairs not found again stay while young and both bodies are there; the
        // others free their slots. The two sorted lists merge into one.
        old_dormant.retain(|x| {
            if x.entry.slot == u32::MAX {
                return false;
            }
            let keep = frame.wrapping_sub(x.since) < DORMANT_FRAMES && alive(&x.entry);
            if !keep {
                states.free.push(x.entry.slot);
            }
            keep
        });
        states.dormant = merge_by_key(old_dormant, new_dormant);
        let same_margin = states.margin == Some(margin);
        states.margin = Some(margin);
        // The pairs to compute: new, or a body moved, or another margin.
        let moved = |id: BodyId| self.moved_flags.get(id.0 as usize).copied().unwrap_or(true);
        // By slot: the pair's bodies when it is computed this frame (read here, not from the
        // slot, which the step then touches only for its state), and the outcome the step
        // sets (so the pass below reads this array, not the slots).
        let mut work = vec![Work::IDLE; states.slots.len()];
        for e in &mut index {
            if e.fresh || !same_margin || moved(e.a) || moved(e.b) {
                work[e.slot as usize] = Work { a: e.a, b: e.b, outcome: Outcome::Empty };
                e.fresh = false;
            }
        }

        let bodies = &self.bodies;
        let step = |(s, w): (&mut PairSlot<V>, &mut Work)| {
            if w.outcome == Outcome::Kept {
                return;
            }
            let body = |id: BodyId| bodies.get(id.0 as usize).and_then(Option::as_ref);
            s.last = match (body(w.a), body(w.b)) {
                (Some(a), Some(b)) if pairs_with(&a.options, &b.options) => {
                    S::manifold_cached(&a.shape, &a.pose, &b.shape, &b.pose, margin, &mut s.cache)
                }
                _ => Found::new(Manifold::empty()),
            };
            if !s.last.value.is_empty() {
                w.outcome = Outcome::Touching;
            }
        };
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            states.slots.par_iter_mut().zip(work.par_iter_mut()).with_min_len(64).for_each(step);
        }
        #[cfg(not(feature = "rayon"))]
        states.slots.iter_mut().zip(work.iter_mut()).for_each(step);

        let mut started = Vec::new();
        let mut order = Vec::new();
        for e in &mut index {
            let outcome = work[e.slot as usize].outcome;
            if outcome != Outcome::Kept {
                let now = outcome == Outcome::Touching;
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
