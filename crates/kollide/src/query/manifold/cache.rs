//! Persistent manifolds: a pair's manifold kept from one frame to the next and re-projected
//! while the pair has barely moved (temporal coherence, as physics engines keep theirs).

use crate::query::Space;
use core::fmt;

use super::{manifold_warm, ContactId, Manifold, ManifoldPoint, MAX_MANIFOLD_POINTS};
use crate::math::{Pose, Real, Rotation};
use crate::query::gjk::SimplexCache;
use crate::query::{distance_cached, ContactStatus};
use crate::shape::{local_bounding_box, Feature, Support};

/// The drift allowed by [`ManifoldCache::default`], as a fraction of the pair's size (the
/// longest side of the smaller shape's local bounding box): 1 mm for a 1 m box on any floor.
pub const DEFAULT_RELATIVE_DRIFT: f64 = 1.0e-3;
/// The turn of the normal allowed by [`ManifoldCache::default`], in radians (1 degree).
pub const DEFAULT_MAX_TURN: f64 = core::f64::consts::PI / 180.0;

/// How far a kept manifold may drift before [`manifold_cached`] recomputes it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Drift<R> {
    /// A fraction of the pair's size, measured once per pair.
    Relative(R),
    /// A length, in the shapes' units.
    Absolute(R),
}

/// A tolerance given to [`ManifoldCache::with_tolerance`] that is negative, NaN or infinite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToleranceError {
    /// Which tolerance: `"drift"` or `"max_turn"`.
    pub name: &'static str,
    /// The value given.
    pub value: f64,
}

impl fmt::Display for ToleranceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "manifold cache tolerance `{}` is {}: it must be finite and >= 0", self.name, self.value)
    }
}

impl std::error::Error for ToleranceError {}

/// What [`manifold_cached`] keeps about **one pair of shapes** between frames: the last
/// computed manifold, each point stored on its own shape (A's points in A's frame, B's in
/// B's), the normal as seen from both shapes, and GJK's [`SimplexCache`] for the next
/// recomputation.
///
/// While the pair has barely moved the kept points are re-projected instead of recomputed:
/// each of B's points is placed by B's new pose (it is a point of B); its motion relative
/// to A since the computation splits into a part along the kept normal, which changes the
/// point's signed distance, and a part across it, by which A's point slides along A's
/// contact plane. The manifold is recomputed from scratch when any of these fails:
///
/// - the normal, carried by B's rotation, turned by more than `max_turn` (radians);
/// - a point of A slid more than `drift` from where it was when the manifold was last
///   computed (drift is measured from that computation, so it never accumulates); a drift
///   below the rounding of the points' coordinates (8 ulps of their distance from the
///   origin) counts as that rounding, so a standing pair never recomputes on noise;
/// - a point changed between penetrating and apart, or moved beyond the margin;
/// - the margin changed, or the kept manifold was empty or had a non-finite status.
///
/// A pair found farther apart than the margin keeps a separating axis instead (the direction
/// of their closest points): while the shapes' extreme points along it are still more than
/// the margin apart, the manifold is empty without further work (a proof, not an
/// estimate: two support points per frame). A pair that was apart is recomputed by GJK's
/// certified distance first, the manifold's search only when that is within the margin; a
/// pair in contact that parts keeps its last normal as the axis when that already
/// separates it by more than the margin.
///
/// So a re-projected manifold is the recomputed one of at most a few frames ago, with B's
/// points exact, A's points within `drift` of A's surface, the same ids, and a normal within
/// `max_turn`. [`ManifoldCache::default`] allows a drift of [`DEFAULT_RELATIVE_DRIFT`] of the
/// pair's size and a turn of 1 degree; [`ManifoldCache::with_tolerance`] takes a drift in
/// length units, and a zero drift re-projects only while nothing moved beyond that
/// rounding.
///
/// Start with `ManifoldCache::default()` and pass the same cache every frame while the pair
/// exists. A cache used with another pair answers for the old one until it recomputes:
/// call [`ManifoldCache::clear`] when the pair changes.
///
/// ```
/// use kollide::query::{manifold_cached, ManifoldCache};
/// use kollide::shape::Cuboid;
/// use kollide::math::{DPose3, DVec3};
/// let floor = Cuboid::new(DVec3::new(5.0, 0.5, 5.0));
/// let cube = Cuboid::new(DVec3::splat(0.5));
/// let mut cache = ManifoldCache::default();
/// for frame in 0..3 {
///     // The cube rests 0.01 deep and creeps along x by 1 µm a frame.
///     let pose = DPose3::from_translation(DVec3::new(1e-6 * frame as f64, 0.99, 0.0));
///     let m = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &pose, 0.0, &mut cache);
///     assert_eq!(m.len(), 4);
///     assert!(m.points().iter().all(|p| (p.distance + 0.01).abs() < 1e-12));
///     // The first frame computes; the next two re-project.
///     assert_eq!(cache.reused(), frame > 0);
/// }
/// ```
#[derive(Clone, Copy, Debug)]
// In declared order: what re-projection reads first, GJK's warm start (read only when the
// manifold is recomputed) last, so a kept pair's frame reads fewer cache lines.
#[repr(C)]
pub struct ManifoldCache<V: Space> {
    drift: Drift<V::Real>,
    /// `cos(max_turn)`.
    min_cos_turn: V::Real,
    /// The drift in length units, once the pair's size is known (negative: not yet).
    drift_length: V::Real,
    /// The last computed manifold can be re-projected.
    kept: bool,
    /// A separating axis in A's frame (unit), kept while the pair is apart (else zero).
    axis_in_a: V,
    margin: V::Real,
    status: ContactStatus,
    /// The normal in A's frame and in B's frame.
    normal_in_a: V,
    normal_in_b: V,
    len: usize,
    /// Points on A, in A's frame; points on B, in B's frame and in A's frame; distances.
    point_a: [V; MAX_MANIFOLD_POINTS],
    point_b: [V; MAX_MANIFOLD_POINTS],
    point_b_in_a: [V; MAX_MANIFOLD_POINTS],
    /// The largest kept point's distance from its frame's origin (both frames): with the
    /// poses' translations, the size of the coordinates a re-projection rounds.
    point_extent: V::Real,
    distance: [V::Real; MAX_MANIFOLD_POINTS],
    id: [ContactId; MAX_MANIFOLD_POINTS],
    reused: bool,
    /// A's support point along `axis_in_a` (A's frame) and A's radius: A's side of the gap
    /// is fixed in A's frame, so the test of a kept axis reads nothing of A.
    support_in_a: V,
    radius_a: V::Real,
    simplex: SimplexCache<V>,
}

impl<V: Space> Default for ManifoldCache<V> {
    /// An empty cache with the default tolerances (a drift of [`DEFAULT_RELATIVE_DRIFT`] of
    /// the pair's size, a turn of [`DEFAULT_MAX_TURN`]).
    fn default() -> Self {
        Self::with_drift(
            Drift::Relative(V::Real::from_f64(DEFAULT_RELATIVE_DRIFT)),
            V::Real::from_f64(DEFAULT_MAX_TURN.cos()),
        )
    }
}

impl<V: Space> ManifoldCache<V> {
    fn with_drift(drift: Drift<V::Real>, min_cos_turn: V::Real) -> Self {
        let unknown = ContactId { a: Feature::Unknown, b: Feature::Unknown };
        Self {
            drift,
            min_cos_turn,
            drift_length: -V::Real::ONE,
            kept: false,
            axis_in_a: V::ZERO,
            support_in_a: V::ZERO,
            radius_a: V::Real::ZERO,
            margin: V::Real::ZERO,
            status: ContactStatus::Converged,
            normal_in_a: V::ZERO,
            normal_in_b: V::ZERO,
            len: 0,
            point_a: [V::ZERO; MAX_MANIFOLD_POINTS],
            point_b: [V::ZERO; MAX_MANIFOLD_POINTS],
            point_b_in_a: [V::ZERO; MAX_MANIFOLD_POINTS],
            point_extent: V::Real::ZERO,
            distance: [V::Real::ZERO; MAX_MANIFOLD_POINTS],
            id: [unknown; MAX_MANIFOLD_POINTS],
            simplex: SimplexCache::default(),
            reused: false,
        }
    }

    /// An empty cache that re-projects while A's points stay within `drift` (a length) of
    /// where they were last computed and the normal turns by at most `max_turn` radians.
    ///
    /// # Errors
    /// [`ToleranceError`] when either is negative, NaN or infinite.
    pub fn with_tolerance(drift: V::Real, max_turn: V::Real) -> Result<Self, ToleranceError> {
        for (name, x) in [("drift", drift), ("max_turn", max_turn)] {
            if !x.is_finite() || x < V::Real::ZERO {
                return Err(ToleranceError { name, value: x.to_f64() });
            }
        }
        // Turns beyond a half turn allow every normal.
        let cos = if max_turn.to_f64() >= core::f64::consts::PI { -2.0 } else { max_turn.to_f64().cos() };
        Ok(Self::with_drift(Drift::Absolute(drift), V::Real::from_f64(cos)))
    }

    /// Forgets the kept manifold and simplex (the tolerances stay): the next query computes
    /// afresh. Call it when the cache is given to another pair.
    pub fn clear(&mut self) {
        *self = Self::with_drift(self.drift, self.min_cos_turn);
    }

    /// `true` when the last [`manifold_cached`] re-projected the kept manifold, `false` when
    /// it computed the manifold afresh.
    #[must_use]
    pub fn reused(&self) -> bool {
        self.reused
    }

    /// The drift in length units: the absolute tolerance, or the relative one times the
    /// pair's size (measured on first use; a pair of unbounded size gets 0).
    fn drift_length<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(&mut self, a: &A, b: &B) -> V::Real {
        if self.drift_length < V::Real::ZERO {
            self.drift_length = match self.drift {
                Drift::Absolute(d) => d,
                Drift::Relative(r) => {
                    // The smaller shape's size: a pebble on a plain must not drift by the
                    // plain's 1e-3.
                    let size = longest_side(a).min(longest_side(b));
                    let d = r * size;
                    if d.is_finite() {
                        d
                    } else {
                        V::Real::ZERO
                    }
                }
            };
        }
        self.drift_length
    }

    /// `true` when the kept separating axis still separates the shapes by more than
    /// `margin`: their extreme points along it are farther apart (radii included).
    /// `side_a(axis)` gives A's support point along the axis (A's frame) and A's radius.
    fn still_apart<B: Support<V> + ?Sized>(
        &self,
        pose_a: &Pose<V>,
        b: &B,
        pose_b: &Pose<V>,
        margin: V::Real,
        side_a: impl FnOnce(V) -> (V, V::Real),
    ) -> bool {
        if self.axis_in_a == V::ZERO || margin != self.margin {
            return false;
        }
        let (support_a, radius_a) = side_a(self.axis_in_a);
        separates(self.axis_in_a, support_a, radius_a, pose_a, b, pose_b, margin)
    }

    /// Keeps the world-frame unit `normal` (from A to B) as the pair's separating axis,
    /// with A's side of it; nothing when it is not a finite unit vector.
    fn keep_axis<A: Support<V> + ?Sized>(&mut self, a: &A, pose_a: &Pose<V>, normal: V) {
        let axis = pose_a.inverse_transform_vector(normal);
        if unit_axis(axis) {
            self.axis_in_a = axis;
            self.support_in_a = a.support(axis);
            self.radius_a = a.radius();
        }
    }

    /// Keeps `m` (world frame) for re-projection, with A's and B's poses; an empty `m` gets
    /// a separating axis when GJK finds the shapes apart beyond the margin.
    fn keep<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &mut self,
        m: &Manifold<V>,
        (a, pose_a): (&A, &Pose<V>),
        (b, pose_b): (&B, &Pose<V>),
        margin: V::Real,
    ) {
        self.margin = margin;
        self.axis_in_a = V::ZERO;
        if m.is_empty() {
            // A pair that was in contact and parted is most often separated along its last
            // normal: two support calls prove it, where GJK would run to the end.
            let was_kept = core::mem::replace(&mut self.kept, false);
            if was_kept && unit_axis(self.normal_in_a) {
                let axis = self.normal_in_a;
                let (support, radius) = (a.support(axis), a.radius());
                if separates(axis, support, radius, pose_a, b, pose_b, margin) {
                    (self.axis_in_a, self.support_in_a, self.radius_a) = (axis, support, radius);
                    return;
                }
            }
            let d = distance_cached(a, pose_a, b, pose_b, &mut self.simplex, None);
            if d.lower_bound > margin && d.lower_bound.is_finite() {
                self.keep_axis(a, pose_a, d.normal);
            }
            return;
        }
        self.status = m.status;
        self.len = m.len();
        self.normal_in_a = pose_a.inverse_transform_vector(m.normal);
        self.normal_in_b = pose_b.inverse_transform_vector(m.normal);
        let mut finite = self.normal_in_a.is_finite_vec() && self.normal_in_b.is_finite_vec();
        self.point_extent = V::Real::ZERO;
        for (i, p) in m.points().iter().enumerate() {
            self.point_a[i] = pose_a.inverse_transform_point(p.point_a);
            self.point_b[i] = pose_b.inverse_transform_point(p.point_b);
            self.point_b_in_a[i] = pose_a.inverse_transform_point(p.point_b);
            let extent = self.point_b[i].length().max(self.point_b_in_a[i].length());
            self.point_extent = self.point_extent.max(extent);
            self.distance[i] = p.distance;
            self.id[i] = p.id;
            finite &= self.point_a[i].is_finite_vec() && self.point_b[i].is_finite_vec();
        }
        self.kept = finite && !m.is_empty() && m.status != ContactStatus::NonFiniteSupport;
    }

    /// The kept manifold re-projected under the new poses, written to `out`, or false when
    /// it must be recomputed (see the type's docs; `out` is then partly written).
    fn reproject(
        &self,
        pose_a: &Pose<V>,
        pose_b: &Pose<V>,
        margin: V::Real,
        drift: V::Real,
        out: &mut Manifold<V>,
    ) -> bool {
        // `!=` is also true for a NaN margin, which `manifold` reads as 0: recompute.
        if !self.kept || margin != self.margin {
            return false;
        }
        // The rotations as matrices in 3D: a dozen points and vectors are placed below.
        let (rot_a, rot_b) = (pose_a.rotation.applied(), pose_b.rotation.applied());
        let place_a = |p: V| V::Rotation::apply(&rot_a, p) + pose_a.translation;
        let place_b = |p: V| V::Rotation::apply(&rot_b, p) + pose_b.translation;
        let normal = V::Rotation::apply(&rot_a, self.normal_in_a);
        if normal.dot(V::Rotation::apply(&rot_b, self.normal_in_b)) < self.min_cos_turn {
            return false;
        }
        out.clear();
        out.normal = normal;
        out.status = self.status;
        // Placing a point rounds it by a few ulps of its coordinates: a drift below that is
        // noise, and a standing pair of tiny shapes far from the origin must not recompute
        // on it (1e-12 shapes beside a 20 m hull in f32 did, every frame, and the warm
        // recomputation could land on another feature within the tolerance).
        let extent = self.point_extent + pose_a.translation.length() + pose_b.translation.length();
        let rounding = V::Real::from_f64(8.0) * V::Real::EPSILON * extent;
        let allowed = drift.max(rounding);
        let drift_squared = allowed * allowed;
        for i in 0..self.len {
            // B's point moved by `shift` relative to A since the manifold was computed: its
            // part along the normal changes the distance, the rest slides A's point along
            // A's contact plane (the drift). Standing still, nothing changes at all.
            let point_b = place_b(self.point_b[i]);
            let shift = point_b - place_a(self.point_b_in_a[i]);
            // A motion along the normal below the rounding is none: it must not move a
            // touching point (distance 0) across zero and force a recomputation.
            let along = shift.dot(normal);
            let along = if along.abs() <= rounding { V::Real::ZERO } else { along };
            let slide = shift - normal * along;
            let point_a = place_a(self.point_a[i]) + slide;
            let distance = self.distance[i] + along;
            let within = distance <= margin && slide.length_squared() <= drift_squared;
            // A NaN anywhere makes `within` false: recompute.
            if !within || (distance < V::Real::ZERO) != (self.distance[i] < V::Real::ZERO) {
                return false;
            }
            out.push(ManifoldPoint { point_a, point_b, distance, id: self.id[i] });
        }
        true
    }
}

/// A finite vector of about unit length, usable as a separating axis.
fn unit_axis<V: Space>(axis: V) -> bool {
    axis.is_finite_vec() && (axis.length_squared() - V::Real::ONE).abs() < V::Real::HALF
}

/// Whether the unit `axis_in_a` (A's frame) separates the shapes by more than `margin`:
/// their extreme points along it, A's given as `support_a` (A's frame) with its radius, are
/// farther apart than that, with the rounding of the gap's computation taken off.
fn separates<V: Space, B: Support<V> + ?Sized>(
    axis_in_a: V,
    support_a: V,
    radius_a: V::Real,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> bool {
    let axis = pose_a.transform_vector(axis_in_a);
    let on_a = pose_a.transform_point(support_a);
    let on_b = pose_b.transform_point(b.support(pose_b.inverse_transform_vector(-axis)));
    let gap = (on_b - on_a).dot(axis) - radius_a - b.radius();
    // The gap's rounding: a few ulps of the coordinates it was computed from.
    let slack = V::Real::from_f64(8.0) * V::Real::EPSILON * (on_a.length() + on_b.length());
    gap - slack > margin
}

/// The longest side of a shape's bounding box in its own frame.
fn longest_side<V: Space, S: Support<V> + ?Sized>(shape: &S) -> V::Real {
    let bounds = local_bounding_box(shape);
    let sides = bounds.max - bounds.min;
    (0..V::DIM).fold(V::Real::ZERO, |m, i| m.max(sides.dot(V::axis(i))))
}

/// [`super::manifold`] with temporal coherence: re-projects the pair's kept manifold while
/// the shapes have barely moved relative to each other, and recomputes it (GJK warm-started
/// from the cache) when they moved more than the cache's tolerances. See [`ManifoldCache`]
/// for the tolerances and what a re-projected manifold promises; ids are those of the last
/// computation, so they stay the same while the contact does.
///
/// Poses and results are in the **world frame**; `margin` as in [`super::manifold`].
#[must_use]
pub fn manifold_cached<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
    cache: &mut ManifoldCache<V>,
) -> Manifold<V> {
    kept_or(a, pose_a, b, pose_b, margin, cache, |simplex| {
        manifold_warm(a, pose_a, b, pose_b, margin, Some(simplex))
    })
}

/// The body of [`manifold_cached`] for any way of computing a manifold of `a` and `b`
/// (world frame): the kept one re-projected while it may be, else `compute` (given the
/// cache's simplex to warm-start from), kept for the next call.
fn kept_or<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
    cache: &mut ManifoldCache<V>,
    compute: impl FnOnce(&mut SimplexCache<V>) -> Manifold<V>,
) -> Manifold<V> {
    // A's side of a kept axis from A itself (cheaper than reading it from the cache).
    if cache.still_apart(pose_a, b, pose_b, margin, |axis| (a.support(axis), a.radius())) {
        cache.reused = true;
        return Manifold::empty();
    }
    let mut m = Manifold::empty();
    if cache.reprojected(pose_a, pose_b, margin, &mut m) {
        return m;
    }
    cache.recompute(a, pose_a, b, pose_b, margin, compute)
}

impl<V: Space> ManifoldCache<V> {
    /// The kept answer under the new poses, written to `out`, when it may stand (an empty
    /// manifold while the kept axis still separates, the kept manifold re-projected while
    /// within the tolerances): `out` is then the answer, its slots beyond its length left
    /// as they were (a scratch manifold). False when it must be recomputed by
    /// [`ManifoldCache::recompute`] (`out` is then partly written). Reads nothing of A but
    /// its pose, so a composite's part need not be fetched for it.
    pub(crate) fn kept_into<B: Support<V> + ?Sized>(
        &mut self,
        pose_a: &Pose<V>,
        b: &B,
        pose_b: &Pose<V>,
        margin: V::Real,
        out: &mut Manifold<V>,
    ) -> bool {
        if self.still_apart(pose_a, b, pose_b, margin, |_| (self.support_in_a, self.radius_a)) {
            self.reused = true;
            out.clear();
            return true;
        }
        self.reprojected(pose_a, pose_b, margin, out)
    }

    /// The kept manifold re-projected to `out` when within the tolerances (then marked
    /// reused); false when it must be recomputed.
    fn reprojected(
        &mut self,
        pose_a: &Pose<V>,
        pose_b: &Pose<V>,
        margin: V::Real,
        out: &mut Manifold<V>,
    ) -> bool {
        // The drift is known once a manifold was kept (`recompute` measures it first).
        if self.drift_length < V::Real::ZERO
            || !self.reproject(pose_a, pose_b, margin, self.drift_length, out)
        {
            return false;
        }
        self.reused = true;
        true
    }

    /// `compute` (given the cache's simplex to warm-start from), kept for the next call.
    pub(crate) fn recompute<A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
        &mut self,
        a: &A,
        pose_a: &Pose<V>,
        b: &B,
        pose_b: &Pose<V>,
        margin: V::Real,
        compute: impl FnOnce(&mut SimplexCache<V>) -> Manifold<V>,
    ) -> Manifold<V> {
        self.drift_length(a, b);
        self.reused = false;
        if !self.kept && margin >= V::Real::ZERO && margin.is_finite() {
            // Apart at the last computation (or never computed): most such pairs are still
            // apart, and GJK's certified lower bound alone says so (a manifold has no point
            // beyond the margin), where the manifold would run its own search first.
            // On a copy of the warm start: a pair found within the margin is computed from
            // the same start as without this test, so the answer is the same.
            let mut probe = self.simplex;
            let d = distance_cached(a, pose_a, b, pose_b, &mut probe, None);
            if d.lower_bound > margin && d.lower_bound.is_finite() {
                self.margin = margin;
                self.axis_in_a = V::ZERO;
                self.simplex = probe;
                self.keep_axis(a, pose_a, d.normal);
                return Manifold::empty();
            }
        }
        let m = compute(&mut self.simplex);
        self.keep(&m, (a, pose_a), (b, pose_b), margin);
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{DPose2, DPose3, DVec2, DVec3};
    use crate::query::manifold;
    use crate::shape::{ConvexPolygon, Cuboid};
    use glam::DQuat;

    #[test]
    fn bad_tolerances_are_named() {
        let e = ManifoldCache::<DVec3>::with_tolerance(-1.0, 0.1).unwrap_err();
        assert_eq!(e.name, "drift");
        let e = ManifoldCache::<DVec3>::with_tolerance(0.1, f64::NAN).unwrap_err();
        assert_eq!(e.name, "max_turn");
        assert!(e.to_string().contains("max_turn"));
        assert!(ManifoldCache::<DVec3>::with_tolerance(0.0, 0.0).is_ok());
    }

    #[test]
    fn standing_still_reprojects_the_same_manifold() {
        let floor = Cuboid::new(DVec3::new(5.0, 0.5, 5.0));
        let cube = Cuboid::new(DVec3::splat(0.5));
        let pose = DPose3::new(DVec3::new(0.3, 0.98, -0.2), DQuat::from_rotation_y(0.4));
        let fresh = manifold(&floor, &DPose3::IDENTITY, &cube, &pose, 0.0);
        let mut cache = ManifoldCache::default();
        for frame in 0..3 {
            let m = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &pose, 0.0, &mut cache);
            assert_eq!(cache.reused(), frame > 0);
            assert_eq!(m.len(), fresh.len());
            for (p, q) in m.points().iter().zip(fresh.points()) {
                assert_eq!(p.id, q.id);
                assert!((p.point_a - q.point_a).length() < 1e-12);
                assert!((p.distance - q.distance).abs() < 1e-12);
            }
        }
    }

    /// A pair apart is answered by GJK's distance alone and keeps its axis; a pair that
    /// parts keeps its last normal as the axis when that separates it (no GJK); back in
    /// contact, the manifold is computed again.
    #[test]
    fn parting_pairs_keep_an_axis_without_a_manifold_search() {
        let floor = Cuboid::new(DVec3::new(5.0, 0.5, 5.0));
        let cube = Cuboid::new(DVec3::splat(0.5));
        let at = |y: f64| DPose3::new(DVec3::new(0.2, y, 0.0), DQuat::from_rotation_y(0.3));
        let mut cache = ManifoldCache::default();
        let apart = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(1.3), 0.0, &mut cache);
        assert!(apart.is_empty() && !cache.kept && !cache.reused());
        assert!((cache.axis_in_a - DVec3::Y).length() < 1e-9, "{:?}", cache.axis_in_a);
        let m = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(0.99), 0.0, &mut cache);
        assert_eq!(m.len(), 4);
        assert!(cache.kept && cache.axis_in_a == DVec3::ZERO && !cache.reused());
        let normal = cache.normal_in_a;
        // Parted by 0.2 along the normal: the normal is the axis, exactly.
        assert!(manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(1.2), 0.0, &mut cache).is_empty());
        assert_eq!(cache.axis_in_a, normal);
        assert!(!cache.kept && !cache.reused());
        assert!(manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(1.1), 0.0, &mut cache).is_empty());
        assert!(cache.reused(), "the axis still separates");
        let m = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(0.98), 0.0, &mut cache);
        let fresh = manifold(&floor, &DPose3::IDENTITY, &cube, &at(0.98), 0.0);
        assert_eq!(m.len(), fresh.len());
        for (p, q) in m.points().iter().zip(fresh.points()) {
            assert_eq!(p.id, q.id);
            assert!((p.distance - q.distance).abs() < 1e-12);
        }
        assert!(cache.kept && !cache.reused());
    }

    #[test]
    fn a_jump_a_turn_or_a_margin_change_recomputes() {
        let floor = Cuboid::new(DVec3::new(5.0, 0.5, 5.0));
        let cube = Cuboid::new(DVec3::splat(0.5));
        let at = |x: f64, angle: f64| DPose3::new(DVec3::new(x, 0.99, 0.0), DQuat::from_rotation_y(angle));
        let mut cache = ManifoldCache::default();
        let _ = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(0.0, 0.0), 0.0, &mut cache);
        // The pair's size is 1 (the cube; the floor is 10), so the default drift is 0.001.
        let _ = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(0.0009, 0.0), 0.0, &mut cache);
        assert!(cache.reused());
        let _ = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(0.0011, 0.0), 0.0, &mut cache);
        assert!(!cache.reused(), "drifted 0.0011 from the last computation");
        let _ = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(0.0011, 0.0), 0.1, &mut cache);
        assert!(!cache.reused(), "the margin changed");
        // A turn about the vertical keeps the normal but moves the corners: 0.0012 at 0.7.
        let _ = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(0.0011, 0.0017), 0.1, &mut cache);
        assert!(!cache.reused(), "corners moved beyond the drift");
    }

    #[test]
    fn lifting_off_recomputes_and_reports_empty() {
        let floor = Cuboid::new(DVec3::new(5.0, 0.5, 5.0));
        let cube = Cuboid::new(DVec3::splat(0.5));
        let mut cache = ManifoldCache::with_tolerance(0.1, 0.1).unwrap();
        let at = |y: f64| DPose3::from_translation(DVec3::new(0.0, y, 0.0));
        assert_eq!(manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(0.999), 0.0, &mut cache).len(), 4);
        // 0.001 above: apart, beyond the margin 0, although well within the drift.
        let m = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(1.001), 0.0, &mut cache);
        assert!(m.is_empty() && !cache.reused());
    }

    /// A fuzz finding (target `queries`): shapes of 1e-12 beside a 20 m hull in f32
    /// recomputed at every frame standing still, because placing the kept points rounds them
    /// by more than a drift of 1e-3 of their size; the warm recomputation may then land on
    /// another feature within the tolerance, and the ids changed. A drift below the
    /// coordinates' rounding now counts as that rounding.
    #[test]
    fn a_tiny_shape_standing_far_from_the_origin_reprojects() {
        use crate::math::Pose3;
        use crate::shape::Ball;
        use glam::{Quat, Vec3};
        let floor = Cuboid::new(Vec3::new(20.0, 0.5, 20.0));
        let ball = Ball::new(1e-6_f32);
        let turned = Pose3::new(Vec3::new(0.7, 0.0, 1.9), Quat::from_rotation_y(0.3));
        let pose = Pose3::new(Vec3::new(15.3, 0.5 + 0.5e-6, 7.1), Quat::from_rotation_z(0.2));
        let mut cache = ManifoldCache::default();
        let first = manifold_cached(&floor, &turned, &ball, &pose, 0.0, &mut cache);
        assert_eq!(first.len(), 1);
        for _ in 0..3 {
            let again = manifold_cached(&floor, &turned, &ball, &pose, 0.0, &mut cache);
            assert!(cache.reused(), "a standing pair re-projects");
            assert_eq!(again.points()[0].id, first.points()[0].id);
            assert!((again.points()[0].distance - first.points()[0].distance).abs() < 1e-12);
        }
    }

    /// A fuzz finding (target `queries`, f64, ordinary sizes): two hulls touching at
    /// distance 0 and 1e-17 recomputed standing still, because placing the kept points moved
    /// them along the normal by a rounding error, across zero ("changed between penetrating
    /// and apart"); the warm recomputation then found another touching normal. Motion along
    /// the normal below the rounding is now none.
    #[test]
    fn touching_pairs_standing_still_reproject() {
        let floor = Cuboid::new(DVec3::new(5.0, 0.5, 5.0));
        let cube = Cuboid::new(DVec3::splat(0.5));
        for k in 0..64 {
            let t = f64::from(k);
            let axis = DVec3::new(1.0 + t.sin(), 2.0, 3.0 + t.cos()).normalize();
            let floor_pose =
                DPose3::new(DVec3::new(0.7 * t, -0.3, 1.9), DQuat::from_axis_angle(axis, 0.1 + t));
            // The cube resting exactly on the floor's top face, in the floor's frame.
            let on_top = DPose3::new(DVec3::new(0.1 * t.cos(), 1.0, 0.2), DQuat::from_rotation_y(0.3 * t));
            let pose = floor_pose.compose(&on_top);
            let mut cache = ManifoldCache::default();
            let first = manifold_cached(&floor, &floor_pose, &cube, &pose, 0.01, &mut cache);
            assert!(!first.is_empty(), "case {k}");
            let again = manifold_cached(&floor, &floor_pose, &cube, &pose, 0.01, &mut cache);
            assert!(cache.reused(), "case {k}: a touching pair standing still re-projects");
            assert_eq!(again.len(), first.len(), "case {k}");
            for (p, q) in again.points().iter().zip(first.points()) {
                assert_eq!(p.id, q.id, "case {k}");
                assert_eq!(p.distance, q.distance, "case {k}");
            }
        }
    }

    #[test]
    fn apart_pairs_keep_a_separating_axis() {
        let floor = Cuboid::new(DVec3::new(5.0, 0.5, 5.0));
        let cube = Cuboid::new(DVec3::splat(0.5));
        let at = |y: f64| DPose3::new(DVec3::new(0.0, y, 0.0), DQuat::from_rotation_y(0.3));
        let mut cache = ManifoldCache::default();
        assert!(manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(1.5), 0.1, &mut cache).is_empty());
        assert!(!cache.reused());
        // Still 0.1 + 0.3 apart along the kept axis: no recomputation.
        assert!(manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(1.4), 0.1, &mut cache).is_empty());
        assert!(cache.reused());
        // Within the margin: the axis no longer proves it, the manifold is computed.
        let m = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &at(1.05), 0.1, &mut cache);
        assert_eq!(m.len(), 4);
        assert!(!cache.reused());
    }

    #[test]
    fn polygons_in_2d() {
        let square = ConvexPolygon::try_from_points(&[
            DVec2::new(-1.0, -1.0),
            DVec2::new(1.0, -1.0),
            DVec2::new(1.0, 1.0),
            DVec2::new(-1.0, 1.0),
        ])
        .unwrap();
        let small =
            ConvexPolygon::try_from_points(&square.vertices().iter().map(|&v| v * 0.5).collect::<Vec<_>>())
                .unwrap();
        let mut cache = ManifoldCache::default();
        for k in 0..4 {
            let pose = DPose2::from_angle(DVec2::new(1e-4 * f64::from(k), 1.45), 0.0);
            let m = manifold_cached(&square, &DPose2::IDENTITY, &small, &pose, 0.0, &mut cache);
            let fresh = manifold(&square, &DPose2::IDENTITY, &small, &pose, 0.0);
            assert_eq!(cache.reused(), k > 0);
            assert_eq!(m.len(), 2);
            // B's corners inside A's top face: the same ids, points within the drift (1e-3
            // of the size, 2): the kept points of A are where B's corners project.
            for (p, q) in m.points().iter().zip(fresh.points()) {
                assert_eq!(p.id, q.id);
                assert!((p.point_b - q.point_b).length() <= 2e-3, "{p:?} {q:?}");
                assert!((p.point_a - q.point_a).length() <= 2e-3, "{p:?} {q:?}");
                assert!((p.distance - q.distance).abs() < 1e-12);
            }
        }
    }
}
