//! The contacts of a frame with state kept per pair: each pair of the broad phase keeps
//! its [`ManifoldCache`] (and the GJK warm start inside it) and whether it was in contact,
//! from one frame to the next.

use super::bodies::{BodyId, ContactPair, World};
use super::options::{pairs_with, ContactFrame};
use super::shape::RuntimeShape;
use crate::bvh::ProxyId;
use crate::query::{ManifoldCache, Space};

/// What a pair of the broad phase keeps between frames.
#[derive(Clone, Debug)]
pub(crate) struct PairState<V: Space> {
    /// The pair's proxies `(lo, hi)` as one sort key: a proxy id is not reused before the
    /// broad-phase update that reports its pairs gone, so a key names one pair of bodies
    /// for as long as its state lives.
    key: u64,
    /// The bodies, `a < b` (A and B of the manifold).
    a: BodyId,
    b: BodyId,
    cache: ManifoldCache<V>,
    /// In contact at the last frame.
    touching: bool,
}

fn key(p: ProxyId, q: ProxyId) -> u64 {
    (u64::from(p.0.min(q.0)) << 32) | u64::from(p.0.max(q.0))
}

impl<V: Space, S: RuntimeShape<V>> World<V, S> {
    /// The contacts of this frame, and what changed since the previous one.
    ///
    /// Brings the broad phase up to date (only moved bodies are searched), then computes
    /// the manifold of each pair whose boxes meet and that makes a pair (one body at least
    /// dynamic, collision groups that meet: see [`BodyKind`](super::BodyKind) and
    /// [`CollisionGroups`](super::CollisionGroups)), and keeps those with points within
    /// `margin`. Each pair keeps its manifold between frames: two convex bodies that barely
    /// moved relative to each other re-project the kept manifold (within the tolerances of
    /// [`ManifoldCache`]'s defaults) and otherwise recompute it warm-started; pairs with a
    /// mesh, terrain or compound are computed afresh every frame. With the `rayon` feature
    /// the pairs are computed on all cores; the answer is the same, in the same order.
    pub fn contacts(&mut self, margin: V::Real) -> ContactFrame<V> {
        self.broad.update();
        let mut stopped = Vec::new();
        // The kept states merged with the broad phase's pairs (both sorted by key): states
        // of pairs that are gone end; new pairs start with an empty cache.
        let mut old = core::mem::take(&mut self.pair_states).into_iter().peekable();
        let mut states = Vec::with_capacity(self.broad.pair_count());
        for (p, q) in self.broad.pairs() {
            let k = key(p, q);
            while let Some(s) = old.next_if(|s| s.key < k) {
                if s.touching {
                    stopped.push((s.a, s.b));
                }
            }
            if let Some(s) = old.next_if(|s| s.key == k) {
                states.push(s);
                continue;
            }
            let (Some((ia, _)), Some((ib, _))) = (self.live(p), self.live(q)) else {
                continue;
            };
            states.push(PairState {
                key: k,
                a: ia.min(ib),
                b: ia.max(ib),
                cache: ManifoldCache::default(),
                touching: false,
            });
        }
        for s in old {
            if s.touching {
                stopped.push((s.a, s.b));
            }
        }
        let bodies = &self.bodies;
        let step = |s: &mut PairState<V>| -> Option<ContactPair<V>> {
            let body = |id: BodyId| bodies.get(id.0 as usize).and_then(Option::as_ref);
            let (Some(a), Some(b)) = (body(s.a), body(s.b)) else {
                s.touching = false;
                return None;
            };
            if !pairs_with(&a.options, &b.options) {
                s.touching = false;
                return None;
            }
            let m = S::manifold_cached(&a.shape, &a.pose, &b.shape, &b.pose, margin, &mut s.cache);
            s.touching = !m.value.is_empty();
            s.touching.then_some(ContactPair { a: s.a, b: s.b, manifold: m })
        };
        let before: Vec<bool> = states.iter().map(|s| s.touching).collect();
        #[cfg(feature = "rayon")]
        let found: Vec<Option<ContactPair<V>>> = {
            use rayon::prelude::*;
            states.par_iter_mut().with_min_len(64).map(step).collect()
        };
        #[cfg(not(feature = "rayon"))]
        let found: Vec<Option<ContactPair<V>>> = states.iter_mut().map(step).collect();
        let mut started = Vec::new();
        for (s, &was) in states.iter().zip(&before) {
            match (was, s.touching) {
                (false, true) => started.push((s.a, s.b)),
                (true, false) => stopped.push((s.a, s.b)),
                _ => {}
            }
        }
        self.pair_states = states;
        let mut pairs: Vec<ContactPair<V>> = found.into_iter().flatten().collect();
        pairs.sort_by_key(|c| (c.a, c.b));
        started.sort_unstable();
        stopped.sort_unstable();
        ContactFrame { pairs, started, stopped }
    }
}
