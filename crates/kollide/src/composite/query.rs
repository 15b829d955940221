//! The convex queries against a composite: overlap, distance, contact and manifold, each
//! answered through the candidate parts and merged.
//!
//! Every function takes the composite first (`c` placed by `pose_c`) and any convex shape
//! second (`b` placed by `pose_b`); poses and answers are in the **world frame**, with the
//! conventions of the convex query of the same name (normals from the composite towards B).

use super::{Composite, Found};
use crate::math::{Aabb, Pose, Real};
use crate::query::contact::output::CoreContact;
use crate::query::gjk::SimplexCache;
use crate::query::manifold::clip3d::{reduce_indices, Candidate};
use crate::query::manifold::{clip_contact, contact_along, manifold_warm, ManifoldCache, ToleranceError};
use crate::query::Space;
use crate::query::{
    Contact, ContactId, ContactStatus, DistanceOutput, GjkStatus, Manifold, ManifoldPoint,
    MAX_MANIFOLD_POINTS,
};
use crate::shape::{bounding_box, Support};

/// Normals closer than this cosine (about 2°) count as one direction when the manifolds
/// of several parts are merged.
const SAME_NORMAL_COS: f64 = 0.9994;

/// Where part `i` sits in the world.
#[inline(always)]
pub(crate) fn part_pose<V: Space, C: Composite<V> + ?Sized>(c: &C, i: u32, pose_c: &Pose<V>) -> Pose<V> {
    match c.part_pose(i) {
        Some(p) => pose_c.compose(&p),
        None => *pose_c,
    }
}

/// B's box in the composite's frame, grown by a rounding slack so that no part a box test
/// rejects can be nearer than rounding. `None` when B's support is not finite.
pub(crate) fn box_in<V: Space, B: Support<V> + ?Sized>(b: &B, pose_cb: &Pose<V>) -> Option<Aabb<V>> {
    let bb = bounding_box(b, pose_cb);
    if !bb.is_finite() {
        return None;
    }
    let mag = bb.min.abs_elem().max_elem(bb.max.abs_elem()).max_component();
    Some(bb.loosened(V::Real::EPSILON * V::Real::from_usize(16) * (mag + V::Real::ONE)))
}

/// Every part, for a B whose box is not finite (the part queries then report the status).
fn everything<V: Space>() -> Aabb<V> {
    Aabb::new(V::splat(-V::Real::INFINITY), V::splat(V::Real::INFINITY))
}

/// Whether the composite `c` and the convex shape `b` overlap (touching counts), and the
/// first part found overlapping B. Poses are in the **world frame**.
///
/// [`intersects`] on each part whose box meets B's box (in the composite's frame).
///
/// ```
/// use kollide::composite::{self, TriMesh};
/// use kollide::shape::Ball;
/// use kollide::math::{Pose3, Vec3};
/// let floor = TriMesh::new(
///     vec![Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, 1.0), Vec3::new(-1.0, 0.0, 1.0)],
///     vec![[0, 2, 1], [0, 3, 2]],
/// );
/// let ball = Ball::new(0.5);
/// assert!(composite::intersects(&floor, &Pose3::IDENTITY, &ball, &Pose3::from_translation(Vec3::new(0.5, 0.4, 0.5))).is_some());
/// assert!(composite::intersects(&floor, &Pose3::IDENTITY, &ball, &Pose3::from_translation(Vec3::new(0.5, 0.6, 0.5))).is_none());
/// ```
#[must_use]
pub fn intersects<V: Space, C: Composite<V> + ?Sized, B: Support<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> Option<u32> {
    let bb = box_in(b, &pose_c.inv_compose(pose_b)).unwrap_or_else(everything);
    let mut found = None;
    c.visit_overlaps(&bb, |i| {
        if crate::query::intersects(&c.part(i), &part_pose(c, i, pose_c), b, pose_b) {
            found = Some(i);
            return false;
        }
        true
    });
    found
}

/// The distance between the composite `c` and the convex shape `b`, and the nearest part.
/// Poses and results are in the **world frame**, as for [`distance`].
///
/// A best-first search over the parts: [`distance`] runs on parts in increasing order of
/// the gap between their box and B's, until the next box is farther than the best distance
/// found. The answer is the nearest part's, with `lower_bound` the least lower bound of the
/// parts queried (a part left out is at least as far as the answer) and `iterations` their
/// sum. `status` is the nearest part's, unless another part that could be as near did not
/// converge (then that part's status: the bounds still hold). `Overlapping` (distance 0)
/// as soon as one part overlaps B. A composite with no parts (no constructor makes one)
/// gives an infinite distance with status `MaxIterations`.
///
/// ```
/// use kollide::composite::{self, TriMesh};
/// use kollide::shape::Ball;
/// use kollide::math::{DPose3, DVec3};
/// let floor = TriMesh::new(
///     vec![DVec3::new(-1.0, 0.0, -1.0), DVec3::new(1.0, 0.0, -1.0), DVec3::new(1.0, 0.0, 1.0), DVec3::new(-1.0, 0.0, 1.0)],
///     vec![[0, 2, 1], [0, 3, 2]],
/// );
/// let out = composite::distance(&floor, &DPose3::IDENTITY, &Ball::new(0.5), &DPose3::from_translation(DVec3::new(0.2, 2.0, 0.3)));
/// assert!((out.value.distance - 1.5).abs() < 1e-12);
/// ```
#[must_use]
pub fn distance<V: Space, C: Composite<V> + ?Sized, B: Support<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> Found<DistanceOutput<V>> {
    let bb = box_in(b, &pose_c.inv_compose(pose_b));
    let mut best: Option<Found<DistanceOutput<V>>> = None;
    let mut lower = V::Real::INFINITY;
    let mut iterations = 0u32;
    let mut unsure: Option<(V::Real, GjkStatus)> = None;
    let mut stop: Option<Found<DistanceOutput<V>>> = None;
    let gap = |node: &Aabb<V>| match bb {
        Some(bb) => node.gap_squared(&bb).sqrt(),
        None => V::Real::ZERO,
    };
    c.nearest(V::Real::INFINITY, gap, |i, _| {
        if stop.is_some() {
            return None;
        }
        let out = crate::query::distance(&c.part(i), &part_pose(c, i, pose_c), b, pose_b);
        iterations = iterations.saturating_add(out.iterations);
        lower = lower.min(out.lower_bound);
        if matches!(out.status, GjkStatus::Overlapping | GjkStatus::NonFiniteSupport) {
            stop = Some(Found::on_part(i, out));
            // A value of 0 prunes every remaining box.
            return Some(V::Real::ZERO);
        }
        if out.status != GjkStatus::Converged {
            unsure = Some((out.lower_bound, out.status));
        }
        if best.is_none_or(|o| out.distance < o.value.distance) {
            best = Some(Found::on_part(i, out));
            return Some(out.distance);
        }
        None
    });
    if let Some(mut s) = stop {
        s.value.iterations = iterations;
        return s;
    }
    let Some(best) = best else {
        return Found::new(DistanceOutput {
            distance: V::Real::INFINITY,
            lower_bound: V::Real::ZERO,
            upper_bound: V::Real::INFINITY,
            point_a: pose_c.translation,
            point_b: pose_b.translation,
            normal: V::ZERO,
            iterations,
            status: GjkStatus::MaxIterations,
        });
    };
    let status = match unsure {
        Some((l, s)) if l < best.value.distance => s,
        _ => best.value.status,
    };
    let value =
        DistanceOutput { lower_bound: lower.min(best.value.lower_bound), iterations, status, ..best.value };
    Found { value, ..best }
}

/// The contact of part `i` with B, world frame, taken along the composite's own normal when
/// the one found crosses an internal edge (see [`Composite::corrected_normal`]); `None` when
/// farther apart than `margin`.
fn part_contact<V: Space, C: Composite<V> + ?Sized, B: Support<V> + ?Sized>(
    c: &C,
    i: u32,
    pose_c: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> Option<Contact<V>> {
    let pose_p = part_pose(c, i, pose_c);
    let part = c.part(i);
    let found = crate::query::contact(&part, &pose_p, b, pose_b, margin, None)?;
    // Apart, the part's closest points are the composite's own whenever the part is the
    // nearest (the one kept): its normal is then one the surface has. Only a penetrating
    // contact can take a direction through an internal edge.
    if found.status == ContactStatus::NonFiniteSupport || found.distance >= V::Real::ZERO {
        return Some(found);
    }
    let local_point = pose_c.inverse_transform_point(found.point_a);
    let local_normal = pose_c.inverse_transform_vector(found.normal);
    let Some(n) = c.corrected_normal(i, local_point, local_normal) else {
        return Some(found);
    };
    let pose_pb = pose_p.inv_compose(pose_b);
    let n_part = match c.part_pose(i) {
        Some(p) => p.inverse_transform_vector(n),
        None => n,
    };
    let along = contact_along(&part, b, &pose_pb, n_part);
    // Only the direction may change, never the depth: a contact's depth is the part's own
    // (the deepest part is the answer, as brute force over the parts says). Where the face
    // normal gives another depth the part's contact stands; on a flat seam the neighbour's
    // face contact is at least as deep and is the one kept.
    // Relative to the cores' depth and to the coordinates' rounding, not absolute: a
    // tolerance of 1e-6 let a polyline 1e-12 across answer 1.4e-12 deep where its deepest
    // segment is 1e-12 deep (found by the fuzz target `queries`). Not relative to the whole
    // depth either, which the radii make as large as they are: a ball of radius 8.4e5
    // centred on the line of a segment but 0.56 beyond its end took the segment's face
    // normal, and with it a depth 0.56 too deep (found by the fuzz target `queries`).
    let radii = part.radius() + b.radius();
    let mag = found.point_a.abs_elem().max_elem(found.point_b.abs_elem()).max_component();
    let tol = V::Real::from_f64(1e-6) * (found.distance + radii).abs()
        + V::Real::EPSILON * V::Real::from_usize(64) * (mag + radii);
    if (along.distance - found.distance).abs() <= tol {
        Some(to_world(&pose_p, &along))
    } else {
        Some(found)
    }
}

/// A contact in a part's frame placed in the world.
fn to_world<V: Space>(pose: &Pose<V>, c: &CoreContact<V>) -> Contact<V> {
    Contact {
        distance: c.distance,
        normal: pose.transform_vector(c.normal),
        point_a: pose.transform_point(c.point_a),
        point_b: pose.transform_point(c.point_b),
        status: c.status,
    }
}

/// The contact between the composite `c` and the convex shape `b`: the deepest (least
/// signed distance) of the parts' contacts, with its part, or `None` when B is more than
/// `margin` from every part. Poses and results are in the **world frame**, with the
/// conventions of [`contact`] (normal from the composite to B, `point_b = point_a +
/// distance * normal`).
///
/// The depth is the deepest part's, as brute force over the parts gives it. A box sliding
/// across a flat floor of many triangles is pushed up, never sideways by a seam: the
/// triangles under it give the face normal and are the deepest, a sliver beside a seam gives
/// a shallower contact; where a part's contact of the same depth has a normal the surface
/// does not have there (see [`Composite::corrected_normal`]), the face's normal is taken.
/// (Apart, the nearest part's closest points are the surface's own, and so is their normal.)
///
/// ```
/// use kollide::composite::{self, TriMesh};
/// use kollide::shape::Cuboid;
/// use kollide::math::{DPose3, DVec3};
/// let floor = TriMesh::new(
///     vec![DVec3::new(-2.0, 0.0, -2.0), DVec3::new(2.0, 0.0, -2.0), DVec3::new(2.0, 0.0, 2.0), DVec3::new(-2.0, 0.0, 2.0)],
///     vec![[0, 2, 1], [0, 3, 2]],
/// );
/// // A box sunk 0.01 into the floor across the diagonal seam:
/// let cube = Cuboid::new(DVec3::splat(0.5));
/// let c = composite::contact(&floor, &DPose3::IDENTITY, &cube, &DPose3::from_translation(DVec3::new(0.0, 0.49, 0.0)), 0.0).unwrap();
/// assert!((c.value.distance + 0.01).abs() < 1e-12);
/// assert!((c.value.normal - DVec3::Y).length() < 1e-12);
/// ```
#[must_use]
pub fn contact<V: Space, C: Composite<V> + ?Sized, B: Support<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> Option<Found<Contact<V>>> {
    let margin = margin.max(V::Real::ZERO);
    let bb = box_in(b, &pose_c.inv_compose(pose_b)).map_or_else(everything, |bb| bb.loosened(margin));
    // The deepest contact, preferring those that do not push B out through the inside, but
    // a penetrating one always before one apart: an apart piece beside the one a segment
    // crosses must not make the pair apart (found by the fuzz target `queries`).
    // (apart, through the inside): the rank, lower first.
    type Rank = (bool, bool);
    let mut best: Option<(Rank, Found<Contact<V>>)> = None;
    c.visit_overlaps(&bb, |i| {
        let Some(found) = part_contact(c, i, pose_c, b, pose_b, margin) else {
            return true;
        };
        if found.status == ContactStatus::NonFiniteSupport {
            best = Some(((false, false), Found::on_part(i, found)));
            return false;
        }
        let rank = (
            found.distance >= V::Real::ZERO,
            inside(c, i, pose_c, found.distance, found.point_a, found.normal),
        );
        let key = (rank, found.distance.to_f64());
        if best.as_ref().is_none_or(|(r, o)| key < (*r, o.value.distance.to_f64())) {
            best = Some((rank, Found::on_part(i, found)));
        }
        true
    });
    best.map(|(_, o)| o)
}

/// Whether a penetrating contact of part `i` (world frame) leaves through the inside of
/// the composite ([`Composite::through_inside`]).
fn inside<V: Space, C: Composite<V> + ?Sized>(
    c: &C,
    i: u32,
    pose_c: &Pose<V>,
    distance: V::Real,
    point: V,
    normal: V,
) -> bool {
    distance < V::Real::ZERO
        && c.through_inside(i, pose_c.inverse_transform_point(point), pose_c.inverse_transform_vector(normal))
}

/// A manifold merged from several parts: the points, and the part each came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PartManifold<V: Space> {
    /// The merged manifold (world frame). Feature ids name the composite's own features
    /// (a mesh's vertex and triangle numbers).
    pub manifold: Manifold<V>,
    /// `parts[k]` is the part of `manifold.points()[k]`.
    pub parts: [u32; MAX_MANIFOLD_POINTS],
}

impl<V: Space> PartManifold<V> {
    /// The points with their parts.
    pub fn points(&self) -> impl Iterator<Item = (&ManifoldPoint<V>, u32)> + '_ {
        self.manifold.points().iter().zip(self.parts)
    }
}

/// The contact manifold between the composite `c` and the convex shape `b`, merged from the
/// manifolds of the parts within `margin`: up to 2 points in 2D and 4 in 3D sharing one
/// normal, in the **world frame** (as [`manifold`]), each with its part.
///
/// Each part near B gives its manifold (taken along the surface's normal when the one found
/// crosses an internal edge, as in [`contact`]); the reference is the deepest, and
/// the points of every part manifold whose normal is within about 2° of it join: a box
/// resting across four triangles gets its four corners. Of those, the deepest point, the
/// one farthest from it and the two spanning the largest area are kept. Empty when B is
/// more than `margin` from every part.
///
/// ```
/// use kollide::composite::{self, TriMesh};
/// use kollide::shape::Cuboid;
/// use kollide::math::{DPose3, DVec3};
/// let floor = TriMesh::new(
///     vec![DVec3::new(-2.0, 0.0, -2.0), DVec3::new(2.0, 0.0, -2.0), DVec3::new(2.0, 0.0, 2.0), DVec3::new(-2.0, 0.0, 2.0)],
///     vec![[0, 2, 1], [0, 3, 2]],
/// );
/// let cube = Cuboid::new(DVec3::splat(0.5));
/// let m = composite::manifold(&floor, &DPose3::IDENTITY, &cube, &DPose3::from_translation(DVec3::new(0.0, 0.49, 0.0)), 0.0);
/// assert_eq!(m.manifold.len(), 4);
/// assert!(m.manifold.points().iter().all(|p| (p.distance + 0.01).abs() < 1e-12));
/// ```
#[must_use]
pub fn manifold<V: Space, C: Composite<V> + ?Sized, B: Support<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> PartManifold<V> {
    let margin = margin.max(V::Real::ZERO);
    let mut found = Vec::new();
    let answer = |i| part_manifold(c, i, pose_c, b, pose_b, margin, None);
    match gather(c, pose_c, b, pose_b, margin, &mut found, answer) {
        Some(bad) => bad,
        None => merge(c, &found),
    }
}

/// The parts' manifolds that [`manifold`] merges: `answer(i)` for each part whose box meets
/// B's box loosened by `margin` (the composite's frame), those with points gathered into
/// `found` with whether they push through the inside. A non-finite answer with points
/// stops the walk and is returned as the whole answer.
fn gather<V: Space, C: Composite<V> + ?Sized, B: Support<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
    found: &mut Vec<(u32, bool, Manifold<V>)>,
    mut answer: impl FnMut(u32) -> Manifold<V>,
) -> Option<PartManifold<V>> {
    let bb = near_box(b, pose_c, pose_b, margin);
    let mut g = Gathering { c, pose_c, found, bad: None };
    c.visit_overlaps(&bb, |i| {
        let m = answer(i);
        g.keep(i, &m)
    });
    g.finish()
}

/// B's box in the composite's frame loosened by `margin`: the box [`gather`] meets parts
/// with (everything when B's support is not finite).
fn near_box<V: Space, B: Support<V> + ?Sized>(
    b: &B,
    pose_c: &Pose<V>,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> Aabb<V> {
    box_in(b, &pose_c.inv_compose(pose_b)).map_or_else(everything, |bb| bb.loosened(margin))
}

/// [`gather`]'s body, given the parts' manifolds one by one.
struct Gathering<'a, V: Space, C: ?Sized> {
    c: &'a C,
    pose_c: &'a Pose<V>,
    found: &'a mut Vec<(u32, bool, Manifold<V>)>,
    bad: Option<(u32, Manifold<V>)>,
}

impl<V: Space, C: Composite<V> + ?Sized> Gathering<'_, V, C> {
    /// Keeps part `i`'s manifold `m` when it has points; false to stop (a non-finite
    /// answer, then the whole answer).
    #[inline(always)]
    fn keep(&mut self, i: u32, m: &Manifold<V>) -> bool {
        if m.status == ContactStatus::NonFiniteSupport && !m.is_empty() {
            self.bad = Some((i, *m));
            return false;
        }
        if let Some(p) = m.deepest().copied() {
            self.found.push((i, inside(self.c, i, self.pose_c, p.distance, p.point_a, m.normal), *m));
        }
        true
    }

    /// The non-finite answer that stopped the walk, as the whole answer.
    fn finish(self) -> Option<PartManifold<V>> {
        self.bad.map(|(i, manifold)| PartManifold { manifold, parts: [i; MAX_MANIFOLD_POINTS] })
    }
}

/// What [`manifold_cached`] keeps about **one pair** of a composite and a convex shape
/// between calls: a [`ManifoldCache`] for each part that B's box met in the last call, so a
/// shape resting on a mesh re-projects each triangle's manifold while it barely moves (see
/// [`ManifoldCache`] for the tolerances and what a re-projected manifold promises) and
/// recomputes only the parts it moved on. Parts B's box no longer meets are forgotten.
///
/// Start with `PartManifoldCache::default()` and pass the same cache every call while the
/// pair exists; call [`PartManifoldCache::clear`] when it is given to another pair.
#[derive(Clone, Debug)]
pub struct PartManifoldCache<V: Space> {
    /// An empty cache with the tolerances, copied for each newly met part.
    template: ManifoldCache<V>,
    /// Each part met by the last call, in the order it was visited. Updated in place.
    parts: Vec<KeptPart<V>>,
    /// The number of the current call (wrapping; only equality is read).
    call: u32,
    /// The parts whose boxes meet `near_box` (B's box of an earlier call, grown by a
    /// fraction of its size; the composite's frame), with their boxes, in the order of the
    /// walk: while B's box stays inside `near_box`, the parts it meets are those of the list
    /// whose boxes meet it, in the same order (see [`Composite::visit_overlaps_boxed`]), and
    /// no walk is needed. `near_count`: the composite's part count when the list was made.
    near: Vec<(u32, Aabb<V>)>,
    near_box: Option<Aabb<V>>,
    near_count: usize,
    /// Buffers of a call, kept for their allocations: the parts' manifolds, the candidate
    /// points of the merge and their parts.
    found: Vec<(u32, bool, Manifold<V>)>,
    cands: Vec<Candidate<V>>,
    cand_parts: Vec<u32>,
    reused: usize,
    computed: usize,
}

/// A part's kept state in a [`PartManifoldCache`]: its index, the call that last met it,
/// where it sits in the composite ([`Composite::part_pose`], kept so that a re-projection
/// reads nothing of the part), and its cache.
#[derive(Clone, Debug)]
struct KeptPart<V: Space> {
    index: u32,
    call: u32,
    pose: Option<Pose<V>>,
    cache: ManifoldCache<V>,
}

/// How far the box of the parts' list reaches beyond B's box, as a fraction of B's box's
/// longest side, on each side: B may move by this much before the composite is walked again.
const NEAR_REACH: f64 = 0.125;

impl<V: Space> Default for PartManifoldCache<V> {
    /// Each part's cache is [`ManifoldCache::default`].
    fn default() -> Self {
        Self::with_part_cache(ManifoldCache::default())
    }
}

impl<V: Space> PartManifoldCache<V> {
    fn with_part_cache(template: ManifoldCache<V>) -> Self {
        Self {
            template,
            parts: Vec::new(),
            call: 0,
            near: Vec::new(),
            near_box: None,
            near_count: 0,
            found: Vec::new(),
            cands: Vec::new(),
            cand_parts: Vec::new(),
            reused: 0,
            computed: 0,
        }
    }

    /// An empty cache whose parts re-project while within `drift` (a length) and `max_turn`
    /// radians, as [`ManifoldCache::with_tolerance`].
    ///
    /// # Errors
    /// [`ToleranceError`] when either is negative, NaN or infinite.
    pub fn with_tolerance(drift: V::Real, max_turn: V::Real) -> Result<Self, ToleranceError> {
        Ok(Self::with_part_cache(ManifoldCache::with_tolerance(drift, max_turn)?))
    }

    /// Forgets every part's kept manifold (the tolerances stay).
    pub fn clear(&mut self) {
        self.parts.clear();
        self.near.clear();
        self.near_box = None;
        self.reused = 0;
        self.computed = 0;
    }

    /// How many parts the last call re-projected (or found still apart along a kept axis)
    /// without computing.
    #[must_use]
    pub fn reused_parts(&self) -> usize {
        self.reused
    }

    /// How many parts the last call computed afresh.
    #[must_use]
    pub fn computed_parts(&self) -> usize {
        self.computed
    }

    /// Memory held, in bytes (the caches of the parts met and the buffers kept).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        core::mem::size_of::<Self>()
            + self.parts.capacity() * core::mem::size_of::<KeptPart<V>>()
            + self.near.capacity() * core::mem::size_of::<(u32, Aabb<V>)>()
            + self.found.capacity() * core::mem::size_of::<(u32, bool, Manifold<V>)>()
            + self.cands.capacity() * core::mem::size_of::<Candidate<V>>()
            + self.cand_parts.capacity() * 4
    }
}

/// Where part `i` is in `parts` (visited in about the same order as last time, so the
/// search starts where the last one ended), or `None`.
fn kept_part<V: Space>(parts: &[KeptPart<V>], cursor: &mut usize, i: u32) -> Option<usize> {
    let at = (*cursor..parts.len()).chain(0..(*cursor).min(parts.len())).find(|&k| parts[k].index == i)?;
    *cursor = at + 1;
    Some(at)
}

/// [`manifold`] with temporal coherence, for a convex shape `b` resting on or moving slowly
/// over the composite `c`: each part's manifold is kept in `cache` and re-projected while
/// the pair barely moved (see [`PartManifoldCache`]); the parts' manifolds are merged as
/// [`manifold`] merges them. World frame; `margin` as in [`manifold`].
///
/// ```
/// use kollide::composite::{self, PartManifoldCache, TriMesh};
/// use kollide::shape::Cuboid;
/// use kollide::math::{DPose3, DVec3};
/// let floor = TriMesh::new(
///     vec![DVec3::new(-2.0, 0.0, -2.0), DVec3::new(2.0, 0.0, -2.0), DVec3::new(2.0, 0.0, 2.0), DVec3::new(-2.0, 0.0, 2.0)],
///     vec![[0, 2, 1], [0, 3, 2]],
/// );
/// let cube = Cuboid::new(DVec3::splat(0.5));
/// let mut cache = PartManifoldCache::default();
/// for frame in 0..3 {
///     let pose = DPose3::from_translation(DVec3::new(1e-6 * frame as f64, 0.49, 0.0));
///     let m = composite::manifold_cached(&floor, &DPose3::IDENTITY, &cube, &pose, 0.0, &mut cache);
///     assert_eq!(m.manifold.len(), 4);
///     // The first call computes both triangles; the next ones re-project them.
///     assert_eq!(cache.computed_parts(), if frame == 0 { 2 } else { 0 });
/// }
/// ```
#[must_use]
pub fn manifold_cached<V: Space, C: Composite<V> + ?Sized, B: Support<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
    cache: &mut PartManifoldCache<V>,
) -> PartManifold<V> {
    let margin = margin.max(V::Real::ZERO);
    let mut found = core::mem::take(&mut cache.found);
    found.clear();
    cache.call = cache.call.wrapping_add(1);
    let call = cache.call;
    let bb = near_box(b, pose_c, pose_b, margin);
    let near_ok = bb.is_finite() && refresh_near(c, &bb, cache);
    let (template, parts) = (&cache.template, &mut cache.parts);
    let (mut cursor, mut reused, mut computed) = (0, 0, 0);
    let mut answer = |i, out: &mut Manifold<V>| {
        let at = kept_part(parts, &mut cursor, i).unwrap_or_else(|| {
            parts.push(KeptPart { index: i, call, pose: c.part_pose(i), cache: *template });
            parts.len() - 1
        });
        let entry = &mut parts[at];
        entry.call = call;
        // As `part_pose`, from the kept part pose.
        let pose_p = entry.pose.map_or(*pose_c, |p| pose_c.compose(&p));
        if entry.cache.kept_into(&pose_p, b, pose_b, margin, out) {
            reused += 1;
        } else {
            // Kept with the composite's feature ids, so a re-projection need not rename them
            // (a mesh reads the triangle's corners for it); a non-finite answer, the whole
            // answer when it has points, keeps the part's ids as `manifold` gives them.
            *out = entry.cache.recompute(&c.part(i), &pose_p, b, pose_b, margin, |simplex| {
                let mut m = part_manifold(c, i, pose_c, b, pose_b, margin, Some(simplex));
                if m.status != ContactStatus::NonFiniteSupport {
                    for p in m.points_mut() {
                        p.id.a = c.part_feature(i, p.id.a);
                    }
                }
                m
            });
            computed += 1;
        }
    };
    // Each part's manifold is written to one scratch manifold, copied only when kept.
    let mut scratch = Manifold::empty();
    let mut g = Gathering { c, pose_c, found: &mut found, bad: None };
    let mut offer = |i| {
        answer(i, &mut scratch);
        g.keep(i, &scratch)
    };
    if near_ok {
        for (i, part_box) in &cache.near {
            if part_box.intersects(&bb) && !offer(*i) {
                break;
            }
        }
    } else {
        c.visit_overlaps(&bb, offer);
    }
    let bad = g.finish();
    // Parts B's box no longer meets are forgotten.
    cache.parts.retain(|e| e.call == call);
    let out = match bad {
        Some(bad) => bad,
        None => merge_into(c, &found, true, &mut cache.cands, &mut cache.cand_parts),
    };
    cache.found = found;
    (cache.reused, cache.computed) = (reused, computed);
    out
}

/// Makes `cache`'s list of near parts answer for B's box `bb` (finite, the composite's
/// frame), walking the composite again when `bb` left the list's box: false when the
/// composite keeps no part boxes (then it is walked directly).
fn refresh_near<V: Space, C: Composite<V> + ?Sized>(
    c: &C,
    bb: &Aabb<V>,
    cache: &mut PartManifoldCache<V>,
) -> bool {
    if cache.near_count == c.part_count() && cache.near_box.is_some_and(|n| n.contains(bb)) {
        return true;
    }
    let sides = bb.max - bb.min;
    let longest = (0..V::DIM).fold(V::Real::ZERO, |m, k| m.max(sides.dot(V::axis(k))));
    let reach = bb.loosened(longest * V::Real::from_f64(NEAR_REACH));
    cache.near.clear();
    cache.near_box = None;
    let near = &mut cache.near;
    if c.visit_overlaps_boxed(&reach, |i, part_box| {
        near.push((i, *part_box));
        true
    })
    .is_none()
    {
        return false;
    }
    cache.near_box = Some(reach);
    cache.near_count = c.part_count();
    true
}

/// Part `i`'s manifold with B (world frame), along the surface's normal when the one found
/// crosses an internal edge.
fn part_manifold<V: Space, C: Composite<V> + ?Sized, B: Support<V> + ?Sized>(
    c: &C,
    i: u32,
    pose_c: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
    warm: Option<&mut SimplexCache<V>>,
) -> Manifold<V> {
    let pose_p = part_pose(c, i, pose_c);
    let part = c.part(i);
    let m = manifold_warm(&part, &pose_p, b, pose_b, margin, warm);
    let Some(deepest) = m.deepest().copied() else {
        return m;
    };
    if m.status == ContactStatus::NonFiniteSupport || deepest.distance >= V::Real::ZERO {
        return m;
    }
    let local_point = pose_c.inverse_transform_point(deepest.point_a);
    let local_normal = pose_c.inverse_transform_vector(m.normal);
    let Some(n) = c.corrected_normal(i, local_point, local_normal) else {
        return m;
    };
    let pose_pb = pose_p.inv_compose(pose_b);
    let n_part = match c.part_pose(i) {
        Some(p) => p.inverse_transform_vector(n),
        None => n,
    };
    let along = contact_along(&part, b, &pose_pb, n_part);
    if along.distance > margin {
        return Manifold::empty();
    }
    let mut out = clip_contact(&part, b, &pose_pb, &along, margin);
    out.normal = pose_p.transform_vector(out.normal);
    for p in out.points_mut() {
        p.point_a = pose_p.transform_point(p.point_a);
        p.point_b = pose_p.transform_point(p.point_b);
    }
    out
}

/// Merges the parts' manifolds around the deepest one (preferring those that do not push
/// through the inside).
fn merge<V: Space, C: Composite<V> + ?Sized>(c: &C, found: &[(u32, bool, Manifold<V>)]) -> PartManifold<V> {
    merge_into(c, found, false, &mut Vec::new(), &mut Vec::new())
}

/// [`merge`] with buffers for the candidate points and their parts; `renamed`: the points'
/// ids already name the composite's features ([`Composite::part_feature`]).
fn merge_into<V: Space, C: Composite<V> + ?Sized>(
    c: &C,
    found: &[(u32, bool, Manifold<V>)],
    renamed: bool,
    cands: &mut Vec<Candidate<V>>,
    parts: &mut Vec<u32>,
) -> PartManifold<V> {
    cands.clear();
    parts.clear();
    let mut out = PartManifold { manifold: Manifold::empty(), parts: [0; MAX_MANIFOLD_POINTS] };
    let depth = |m: &Manifold<V>| m.deepest().map_or(f64::INFINITY, |p| p.distance.to_f64());
    let Some((_, _, reference)) = found.iter().min_by(|x, y| {
        // Penetrating before apart, then not through the inside, then the deepest (as
        // contact).
        let rank = |f: &(u32, bool, Manifold<V>)| (depth(&f.2) >= 0.0, f.1);
        rank(x).cmp(&rank(y)).then(depth(&x.2).total_cmp(&depth(&y.2)))
    }) else {
        return out;
    };
    let normal = reference.normal;
    let cos = V::Real::from_f64(SAME_NORMAL_COS);
    for (i, _, m) in found {
        if m.normal.dot(normal) < cos {
            continue;
        }
        for p in m.points() {
            // Two parts sharing an edge report its end points twice: keep one.
            let id = if renamed { p.id } else { ContactId { a: c.part_feature(*i, p.id.a), b: p.id.b } };
            let twin =
                cands.iter().any(|q| q.id == id && (q.a - p.point_a).length_squared() <= tiny(p.point_a));
            if !twin {
                cands.push(Candidate { a: p.point_a, b: p.point_b, distance: p.distance, id });
                parts.push(*i);
            }
        }
    }
    out.manifold.normal = normal;
    out.manifold.status = reference.status;
    let (chosen, count) = reduce_indices(cands, normal);
    for (k, &j) in chosen[..count].iter().enumerate() {
        let q = &cands[j];
        out.manifold.push(ManifoldPoint { point_a: q.a, point_b: q.b, distance: q.distance, id: q.id });
        out.parts[k] = parts[j];
    }
    out
}

/// Squared rounding distance at `p`.
fn tiny<V: Space>(p: V) -> V::Real {
    let t = V::Real::EPSILON * V::Real::from_usize(64) * (p.abs_elem().max_component() + V::Real::ONE);
    t * t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::composite::{Compound, HeightField, TriMesh, Weld};
    use crate::math::{DPose3, DVec3};
    use crate::shape::{Ball, Cuboid};
    use glam::DQuat;
    use rand::{Rng, SeedableRng};

    /// A 16 x 16 terrain of unit cells with hills: a heightfield's triangles, welded.
    fn terrain() -> TriMesh<DVec3> {
        let height = |r: usize, c: usize| {
            let (x, z) = (c as f64 - 8.0, r as f64 - 8.0);
            (x * 0.3).sin() * 0.8 + (z * 0.4).cos() * 0.6
        };
        let field = HeightField::new(
            (0..17).map(|r| (0..17).map(|c| height(r, c)).collect()).collect(),
            DVec3::new(16.0, 1.0, 16.0),
        );
        let n = field.triangle_count() as u32;
        let corners = (0..n).flat_map(|i| {
            let t = field.triangle(i);
            [t.a, t.b, t.c]
        });
        let indices = (0..n).map(|i| [3 * i, 3 * i + 1, 3 * i + 2]).collect();
        TriMesh::try_new_welded(corners.collect(), indices, Weld::Exact).expect("a valid terrain")
    }

    /// Bit for bit: the answer, each point's part, and the counts of parts re-projected
    /// and computed.
    fn same(a: &PartManifold<DVec3>, b: &PartManifold<DVec3>) -> bool {
        a.parts == b.parts
            && a.manifold.len() == b.manifold.len()
            && a.manifold.normal == b.manifold.normal
            && a.manifold.status == b.manifold.status
            && a.manifold.points() == b.manifold.points()
    }

    /// A cache answering from its list of near parts answers as one that walks the
    /// composite on every call, to the bit, while B creeps (inside the list's box), jumps
    /// (out of it), turns and changes its margin.
    fn near_list_answers_as_the_walk<C: Composite<DVec3>>(c: &C, seed: u64) {
        let cube = Cuboid::new(DVec3::new(0.8, 0.5, 0.6));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (mut listed, mut walking) = (PartManifoldCache::default(), PartManifoldCache::default());
        let mut pose = DPose3::new(DVec3::new(0.0, 0.4, 0.0), DQuat::IDENTITY);
        let (mut from_list, mut refreshed) = (0, 0);
        for call in 0..600 {
            let step = if call % 50 == 49 { 3.0 } else { rng.random_range(0.0..0.06) };
            let dir = DVec3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-0.2..0.2),
                rng.random_range(-1.0..1.0),
            );
            let t = (pose.translation + dir * step)
                .clamp(DVec3::new(-6.0, -0.5, -6.0), DVec3::new(6.0, 1.5, 6.0));
            let turn = DQuat::from_rotation_y(rng.random_range(-0.01..0.01));
            pose = DPose3::new(t, turn * pose.rotation);
            let margin = if call % 97 < 10 { 0.05 } else { 0.0 };
            let had = listed.near_box;
            let a = manifold_cached(c, &DPose3::IDENTITY, &cube, &pose, margin, &mut listed);
            if had.is_some() && had == listed.near_box {
                from_list += 1;
            } else {
                refreshed += 1;
            }
            walking.near_box = None;
            let b = manifold_cached(c, &DPose3::IDENTITY, &cube, &pose, margin, &mut walking);
            assert!(same(&a, &b), "call {call}: {a:?} against {b:?}");
            assert_eq!(
                (listed.reused_parts(), listed.computed_parts()),
                (walking.reused_parts(), walking.computed_parts()),
                "call {call}"
            );
        }
        assert!(from_list > 300 && refreshed > 12, "list {from_list}, walks {refreshed}");
    }

    #[test]
    fn near_parts_list_answers_as_the_walk_on_a_terrain() {
        near_list_answers_as_the_walk(&terrain(), 3);
    }

    #[test]
    fn near_parts_list_answers_as_the_walk_on_a_compound() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let parts = (0..200)
            .map(|_| {
                let at = DVec3::new(
                    rng.random_range(-7.0..7.0),
                    rng.random_range(-0.5..0.3),
                    rng.random_range(-7.0..7.0),
                );
                (DPose3::from_translation(at), Ball::new(rng.random_range(0.2..0.6)))
            })
            .collect();
        near_list_answers_as_the_walk(&Compound::new(parts), 5);
    }

    #[test]
    fn a_near_parts_list_is_not_read_for_a_composite_of_another_size() {
        // Misuse (the docs ask for `clear`), but never a panic: the list of a 512-part mesh
        // names parts a 2-part floor does not have.
        let (big, cube) = (terrain(), Cuboid::new(DVec3::splat(0.5)));
        let floor = TriMesh::new(
            vec![
                DVec3::new(-2.0, 0.0, -2.0),
                DVec3::new(2.0, 0.0, -2.0),
                DVec3::new(2.0, 0.0, 2.0),
                DVec3::new(-2.0, 0.0, 2.0),
            ],
            vec![[0, 2, 1], [0, 3, 2]],
        );
        let mut cache = PartManifoldCache::default();
        let pose = DPose3::from_translation(DVec3::new(0.1, 0.45, 0.1));
        let _ = manifold_cached(&big, &DPose3::IDENTITY, &cube, &pose, 0.0, &mut cache);
        assert!(cache.near.len() > 2);
        let pose = DPose3::from_translation(DVec3::new(0.1, 0.49, 0.1));
        let m = manifold_cached(&floor, &DPose3::IDENTITY, &cube, &pose, 0.0, &mut cache);
        assert_eq!(cache.near.len(), 2);
        assert_eq!(m.manifold.len(), 4);
    }
}
