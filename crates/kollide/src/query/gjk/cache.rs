//! The warm-start cache of GJK (temporal coherence).

use crate::query::Space;
use crate::shape::NO_HINT;

use super::simplex::{Simplex, SimplexVertex};
use super::GjkSettings;

/// What GJK remembers between two queries on the **same pair of shapes**, so the next query
/// starts from the last answer instead of from scratch (Box2D's `b2SimplexCache`).
///
/// Pass `SimplexCache::default()` (empty) the first time; keep passing the same cache while
/// the shapes move. The cache stores the final simplex as points of each shape, which stay
/// points of the shapes whatever the poses become (they move with their shape);
/// GJK rebuilds its first simplex from them and usually finishes in one or two iterations
/// when the shapes moved a little. It also keeps the hill-climbing start vertex of each
/// polytope.
///
/// A cache used with a different pair of shapes gives a wrong upper bound (its points are
/// not points of those shapes): reset it with [`SimplexCache::clear`] when the pair changes.
///
/// ```
/// use kollide::query::{distance_cached, SimplexCache};
/// use kollide::shape::Cuboid;
/// use kollide::math::{Pose3, Vec3};
/// let cube = Cuboid::new(Vec3::ONE);
/// let mut cache = SimplexCache::default();
/// for step in 0..10 {
///     let pose_b = Pose3::from_translation(Vec3::new(3.0 + 0.01 * step as f32, 0.5, 0.0));
///     let out = distance_cached(&cube, &Pose3::IDENTITY, &cube, &pose_b, &mut cache, None);
///     assert!((out.distance - (1.0 + 0.01 * step as f32)).abs() < 1e-5);
/// }
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SimplexCache<V: Space> {
    pub(crate) count: usize,
    /// Points of A's core, in A's frame (the working frame, so they need no mapping).
    pub(crate) a: [V; 4],
    /// Points of B's core in **B's own frame**, exactly as B's support function returned
    /// them. Loading places them with the new pose in one transform: they are points of B
    /// whatever the poses were or become. (They used to be kept in A's frame under the old
    /// pose and moved by `new ∘ old⁻¹`, which cancels catastrophically after a large jump:
    /// the loaded points were no longer on B, and the bounds GJK certified from them could
    /// exclude the true distance. See `tests/regressions_cache.rs`.)
    pub(crate) b: [V; 4],
    pub(crate) hint_a: u32,
    pub(crate) hint_b: u32,
    /// How GJK runs for this pair.
    pub(crate) settings: GjkSettings<V::Real>,
}

impl<V: Space> Default for SimplexCache<V> {
    fn default() -> Self {
        Self {
            count: 0,
            a: [V::ZERO; 4],
            b: [V::ZERO; 4],
            hint_a: NO_HINT,
            hint_b: NO_HINT,
            settings: GjkSettings::default(),
        }
    }
}

impl<V: Space> SimplexCache<V> {
    /// An empty cache whose queries run GJK with `settings` (the default cache uses
    /// `GjkSettings::default()`).
    #[must_use]
    pub fn with_settings(settings: GjkSettings<V::Real>) -> Self {
        Self { settings, ..Self::default() }
    }

    /// The settings GJK runs with for this pair.
    #[must_use]
    pub fn settings(&self) -> GjkSettings<V::Real> {
        self.settings
    }

    /// Empties the cache (the next query starts cold); the settings stay.
    pub fn clear(&mut self) {
        *self = Self::with_settings(self.settings);
    }

    /// `true` when the cache holds no simplex.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Stores the final simplex (a copy: the points are placed only when loaded, so a
    /// query whose cache is thrown away pays nothing for it).
    pub(crate) fn store(&mut self, simplex: &Simplex<V>) {
        self.count = simplex.count;
        for (i, v) in simplex.vertices().iter().enumerate() {
            self.a[i] = v.a;
            self.b[i] = simplex.local_b[i];
        }
    }

    /// The stored simplex as vertices under the current pose: A's points are unchanged in
    /// A's frame; B's points are placed by `place` (B's local frame to A's frame, the
    /// same map GJK applies to B's support points).
    pub(crate) fn load(&self, place: impl Fn(V) -> V, simplex: &mut Simplex<V>) {
        for i in 0..self.count {
            let (a, local) = (self.a[i], self.b[i]);
            let b = place(local);
            simplex.push_with_local(SimplexVertex { w: a - b, a, b }, local);
        }
    }
}
