//! A world of bodies (a run-time shape and a pose each) in the broad phase's dynamic tree,
//! answering queries against all of them and the contact pairs of a frame.

use super::contacts::PairStates;
use super::options::{BodyOptions, CollisionGroups};
use super::shape::RuntimeShape;
use crate::bvh::{BroadPhase, ProxyId};
use crate::composite::Found;
use crate::math::{Aabb, Pose, PoseError, Real};
use crate::query::cast::{CastInput, CastOutput, Ray, RayOutcome};
use crate::query::Space;
use crate::query::{DistanceOutput, Manifold};
use std::fmt;

/// A body's handle: stable while the body lives; reused after it is removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyId(pub u32);

/// The contact of two bodies in a frame.
#[derive(Copy, Debug, PartialEq)]
pub struct ContactPair<V: Space> {
    /// The body with the lower id (A of the manifold).
    pub a: BodyId,
    /// The other body.
    pub b: BodyId,
    /// Their manifold (normal from A to B), with the parts of its deepest point.
    pub manifold: Found<Manifold<V>>,
}

// By copy: a derived `clone` of a generic type clones field by field, and a frame's
// hundreds of kilobytes of pairs were copied at a fifth of memory speed.
impl<V: Space> Clone for ContactPair<V> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

/// Why a body could not be added or moved.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum WorldError {
    /// The pose is not finite or its rotation is not normalized: the bad value, as
    /// [`Pose::try_new`] names it.
    BadPose(PoseError),
    /// The shape's box at that pose is not finite.
    NonFiniteBounds,
    /// No body with this id.
    NoSuchBody(BodyId),
    /// An item of a batch call was refused (nothing of the batch was applied).
    InBatch {
        /// Its index in the batch.
        index: usize,
        /// Why.
        error: Box<WorldError>,
    },
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadPose(e) => write!(f, "bad pose: {e}"),
            Self::NonFiniteBounds => f.write_str("the shape's bounding box at this pose is not finite"),
            Self::NoSuchBody(id) => write!(f, "no body with id {}", id.0),
            Self::InBatch { index, error } => write!(f, "batch item {index}: {error}"),
        }
    }
}

impl std::error::Error for WorldError {}

#[derive(Clone, Debug)]
pub(super) struct Body<V: Space, S> {
    pub(super) shape: S,
    pub(super) pose: Pose<V>,
    pub(super) proxy: ProxyId,
    pub(super) options: BodyOptions,
}

/// Bodies (a run-time shape, [`Shape2`](super::Shape2) or [`Shape3`](super::Shape3), and a
/// world pose each) in a dynamic AABB tree with enlarged boxes, and the queries a game or a
/// mover asks of them: the first body a ray or a moving shape meets, the bodies a shape
/// overlaps, the closest body, and the contact pairs of a frame (kept incrementally by the
/// [`BroadPhase`]).
///
/// ```
/// use kollide::world::{Shape3, World};
/// use kollide::shape::{Ball, Cuboid};
/// use kollide::query::cast::{Ray, RayOutcome};
/// use kollide::math::{DPose3, DVec3};
/// let mut world = World::new();
/// let ground = world.insert(Shape3::from(Cuboid::new(DVec3::new(10.0, 0.5, 10.0))), DPose3::from_translation(DVec3::new(0.0, -0.5, 0.0))).unwrap();
/// let ball = world.insert(Shape3::from(Ball::new(0.5)), DPose3::from_translation(DVec3::new(0.0, 0.4, 0.0))).unwrap();
/// let hit = world.ray_cast(&Ray::new(DVec3::new(3.0, 5.0, 0.0), DVec3::NEG_Y), 100.0).unwrap();
/// assert_eq!(hit.body, ground);
/// let pairs = world.contact_pairs(0.0);
/// assert_eq!(pairs.len(), 1);
/// assert_eq!((pairs[0].a, pairs[0].b), (ground, ball));
/// ```
#[derive(Clone, Debug)]
pub struct World<V: Space, S> {
    pub(super) bodies: Vec<Option<Body<V, S>>>,
    free: Vec<u32>,
    /// `body_of[proxy]`: the body of each live proxy.
    pub(super) body_of: Vec<u32>,
    pub(super) broad: BroadPhase<V>,
    /// The state kept for each pair of the broad phase between frames (see
    /// [`World::contacts`]).
    pub(super) pair_states: PairStates<V>,
    /// By body index: moved (or new, or regrouped) since the last [`World::contacts`].
    pub(super) moved_flags: Vec<bool>,
    /// The bodies with their flag set.
    pub(super) moved: Vec<u32>,
    /// The largest margin contacts were asked for: each body's box in the broad phase is
    /// its shape's box loosened by this, so that the broad phase's pairs hold every pair
    /// within the margin.
    pub(super) contact_margin: V::Real,
}

impl<V: Space, S: RuntimeShape<V>> Default for World<V, S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Space, S: RuntimeShape<V>> World<V, S> {
    /// An empty world whose boxes are enlarged by 0.1 (in the world's length unit).
    #[must_use]
    pub fn new() -> Self {
        Self::with_margin(V::Real::from_f64(0.1))
    }

    /// An empty world whose tree enlarges boxes by `margin` (a body moving less than that
    /// does not touch the tree). A negative or non-finite margin counts as 0.
    #[must_use]
    pub fn with_margin(margin: V::Real) -> Self {
        let margin = if margin.is_finite() { margin.max(V::Real::ZERO) } else { V::Real::ZERO };
        Self {
            bodies: Vec::new(),
            free: Vec::new(),
            body_of: Vec::new(),
            broad: BroadPhase::new(margin),
            pair_states: PairStates::default(),
            moved_flags: Vec::new(),
            moved: Vec::new(),
            contact_margin: V::Real::ZERO,
        }
    }

    /// How many bodies.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bodies.len() - self.free.len()
    }

    /// `true` when there are no bodies.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The body's shape and pose.
    #[must_use]
    pub fn body(&self, id: BodyId) -> Option<(&S, &Pose<V>)> {
        self.bodies.get(id.0 as usize)?.as_ref().map(|b| (&b.shape, &b.pose))
    }

    /// Every body, with its shape and pose.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyId, &S, &Pose<V>)> + '_ {
        self.bodies
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.as_ref().map(|b| (BodyId(i as u32), &b.shape, &b.pose)))
    }

    /// Heap bytes held: bodies (not what their shapes share through `Arc`s), the broad
    /// phase and the state kept per pair.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.bodies.capacity() * core::mem::size_of::<Option<Body<V, S>>>()
            + (self.free.capacity() + self.body_of.capacity() + self.moved.capacity()) * 4
            + self.moved_flags.capacity()
            + self.broad.memory_bytes()
            + self.pair_states.memory_bytes()
    }

    /// The broad phase (its tree and pairs).
    #[must_use]
    pub fn broad_phase(&self) -> &BroadPhase<V> {
        &self.broad
    }

    /// The body's box in the broad phase: its shape's box at `pose`, loosened by the
    /// contact margin.
    pub(super) fn broad_box(&self, shape: &S, pose: &Pose<V>) -> Aabb<V> {
        let b = shape.aabb(pose);
        if self.contact_margin > V::Real::ZERO {
            b.loosened(self.contact_margin)
        } else {
            b
        }
    }

    /// [`World::broad_box`], the pose and the box checked.
    fn checked_box(&self, shape: &S, pose: &Pose<V>) -> Result<Aabb<V>, WorldError> {
        Pose::try_new(pose.translation, pose.rotation).map_err(WorldError::BadPose)?;
        let b = self.broad_box(shape, pose);
        if b.is_finite() {
            Ok(b)
        } else {
            Err(WorldError::NonFiniteBounds)
        }
    }

    /// Adds a dynamic body in every collision group, user data 0 (see
    /// [`World::insert_with`]).
    ///
    /// # Errors
    /// [`WorldError::BadPose`] or [`WorldError::NonFiniteBounds`]; the world is unchanged.
    pub fn insert(&mut self, shape: S, pose: Pose<V>) -> Result<BodyId, WorldError> {
        self.insert_with(shape, pose, BodyOptions::default())
    }

    /// Adds a body with its kind, collision groups and user data.
    ///
    /// ```
    /// use kollide::world::{BodyKind, BodyOptions, CollisionGroups, Shape3, World};
    /// use kollide::shape::{Ball, Cuboid};
    /// use kollide::math::{DPose3, DVec3};
    /// let mut world = World::new();
    /// let at = |y: f64| DPose3::from_translation(DVec3::new(0.0, y, 0.0));
    /// let fixed = BodyOptions { kind: BodyKind::Static, ..BodyOptions::default() };
    /// let floor = world.insert_with(Shape3::from(Cuboid::new(DVec3::new(5.0, 0.5, 5.0))), at(-0.5), fixed).unwrap();
    /// // A second static body touching the floor makes no pair.
    /// world.insert_with(Shape3::from(Cuboid::new(DVec3::splat(0.5))), at(0.5), fixed).unwrap();
    /// let ball = world.insert_with(
    ///     Shape3::from(Ball::new(0.5)), DPose3::from_translation(DVec3::new(3.0, 0.49, 0.0)),
    ///     BodyOptions { user_data: 42, ..BodyOptions::default() },
    /// ).unwrap();
    /// let frame = world.contacts(0.0);
    /// assert_eq!(frame.started, vec![(floor, ball)]);
    /// assert_eq!(world.options(ball).unwrap().user_data, 42);
    /// // Groups that do not meet end the contact at the next frame.
    /// world.set_groups(ball, CollisionGroups::new(0b10, 0b10)).unwrap();
    /// world.set_groups(floor, CollisionGroups::new(0b01, 0b01)).unwrap();
    /// assert_eq!(world.contacts(0.0).stopped, vec![(floor, ball)]);
    /// ```
    ///
    /// # Errors
    /// [`WorldError::BadPose`] or [`WorldError::NonFiniteBounds`]; the world is unchanged.
    pub fn insert_with(
        &mut self,
        shape: S,
        pose: Pose<V>,
        options: BodyOptions,
    ) -> Result<BodyId, WorldError> {
        let b = self.checked_box(&shape, &pose)?;
        let proxy = self.broad.insert(b).map_err(|_| WorldError::NonFiniteBounds)?;
        let index = match self.free.pop() {
            Some(i) => {
                self.bodies[i as usize] = Some(Body { shape, pose, proxy, options });
                i
            }
            None => {
                self.bodies.push(Some(Body { shape, pose, proxy, options }));
                (self.bodies.len() - 1) as u32
            }
        };
        let p = proxy.0 as usize;
        if self.body_of.len() <= p {
            self.body_of.resize(p + 1, u32::MAX);
        }
        self.body_of[p] = index;
        self.mark_moved(index);
        Ok(BodyId(index))
    }

    /// Removes a body and gives back its shape and pose (`None` for an unknown id).
    pub fn remove(&mut self, id: BodyId) -> Option<(S, Pose<V>)> {
        let body = self.bodies.get_mut(id.0 as usize)?.take()?;
        self.broad.remove(body.proxy);
        self.body_of[body.proxy.0 as usize] = u32::MAX;
        self.free.push(id.0);
        Some((body.shape, body.pose))
    }

    /// Moves a body.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`], [`WorldError::BadPose`] or
    /// [`WorldError::NonFiniteBounds`]; the body is unchanged on error.
    pub fn set_pose(&mut self, id: BodyId, pose: Pose<V>) -> Result<(), WorldError> {
        let body =
            self.bodies.get(id.0 as usize).and_then(Option::as_ref).ok_or(WorldError::NoSuchBody(id))?;
        let (b, proxy) = (self.checked_box(&body.shape, &pose)?, body.proxy);
        self.broad.set_aabb(proxy, b).map_err(|_| WorldError::NonFiniteBounds)?;
        self.body_mut(id)?.pose = pose;
        self.mark_moved(id.0);
        Ok(())
    }

    /// Moves many bodies: `poses[k] = (body, pose)`. All are checked first: on an error
    /// nothing moves.
    ///
    /// # Errors
    /// [`WorldError::InBatch`] with the index of the first refused item and why (as
    /// [`World::set_pose`]).
    pub fn set_poses(&mut self, poses: &[(BodyId, Pose<V>)]) -> Result<(), WorldError> {
        let batch = |index: usize, e: WorldError| WorldError::InBatch { index, error: Box::new(e) };
        let mut boxes = Vec::with_capacity(poses.len());
        for (index, (id, pose)) in poses.iter().enumerate() {
            let body = self.bodies.get(id.0 as usize).and_then(Option::as_ref);
            let body = body.ok_or_else(|| batch(index, WorldError::NoSuchBody(*id)))?;
            boxes.push(self.checked_box(&body.shape, pose).map_err(|e| batch(index, e))?);
        }
        for ((id, pose), b) in poses.iter().zip(boxes) {
            let Some(body) = self.bodies.get_mut(id.0 as usize).and_then(Option::as_mut) else { continue };
            // Checked finite above, and the proxy is live while the body is.
            if self.broad.set_aabb(body.proxy, b).is_ok() {
                body.pose = *pose;
            }
        }
        for (id, _) in poses {
            self.mark_moved(id.0);
        }
        Ok(())
    }

    /// The body's kind, collision groups and user data.
    #[must_use]
    pub fn options(&self, id: BodyId) -> Option<BodyOptions> {
        self.bodies.get(id.0 as usize)?.as_ref().map(|b| b.options)
    }

    /// Sets the body's collision groups (they decide its pairs from the next frame).
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`].
    pub fn set_groups(&mut self, id: BodyId, groups: CollisionGroups) -> Result<(), WorldError> {
        self.body_mut(id)?.options.groups = groups;
        self.mark_moved(id.0);
        Ok(())
    }

    /// Sets the body's user data.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`].
    pub fn set_user_data(&mut self, id: BodyId, user_data: u64) -> Result<(), WorldError> {
        self.body_mut(id)?.options.user_data = user_data;
        Ok(())
    }

    /// Marks a body for its pairs to be computed again at the next frame.
    fn mark_moved(&mut self, index: u32) {
        let i = index as usize;
        if self.moved_flags.len() <= i {
            self.moved_flags.resize(i + 1, false);
        }
        if !self.moved_flags[i] {
            self.moved_flags[i] = true;
            self.moved.push(index);
        }
    }

    fn body_mut(&mut self, id: BodyId) -> Result<&mut Body<V, S>, WorldError> {
        self.bodies.get_mut(id.0 as usize).and_then(Option::as_mut).ok_or(WorldError::NoSuchBody(id))
    }

    pub(super) fn live(&self, proxy: ProxyId) -> Option<(BodyId, &Body<V, S>)> {
        let i = *self.body_of.get(proxy.0 as usize)?;
        let b = self.bodies.get(i as usize)?.as_ref()?;
        Some((BodyId(i), b))
    }

    /// The first body the ray meets within `[0, max_toi]` (in units of its direction).
    #[must_use]
    pub fn ray_cast(&self, ray: &Ray<V>, max_toi: V::Real) -> Option<Found<RayOutcome<V>, BodyId>> {
        let mut best: Option<Found<RayOutcome<V>, BodyId>> = None;
        self.broad.tree().cast_ray(ray.origin(), ray.direction(), max_toi, |proxy, limit| {
            let (id, body) = self.live(proxy)?;
            let a = body.shape.ray_cast(&body.pose, ray, limit)?;
            let toi = match a.value {
                RayOutcome::Hit(h) => h.toi,
                RayOutcome::Inside { .. } => V::Real::ZERO,
                RayOutcome::Miss => return None,
            };
            best = Some(a.with_body(id));
            Some(toi)
        });
        best
    }

    /// The first body the shape `shape` at `pose` meets moving by `motion` (linear and
    /// angular velocity, world frame) within `max_toi`, the bodies standing still (as
    /// [`crate::query::cast::shape_cast`] with the body as A and the moving shape as B).
    #[must_use]
    pub fn shape_cast(
        &self,
        shape: &S,
        pose: &Pose<V>,
        motion: crate::query::cast::Motion<V>,
        max_toi: V::Real,
    ) -> Option<Found<CastOutput<V>, BodyId>> {
        self.shape_cast_within(shape, pose, motion, max_toi, V::Real::ZERO)
    }

    /// [`World::shape_cast`] to the first time the shape comes within `target_distance` of a body
    /// (a mover's skin): the answer of the body that gets there first.
    #[must_use]
    pub fn shape_cast_within(
        &self,
        shape: &S,
        pose: &Pose<V>,
        motion: crate::query::cast::Motion<V>,
        max_toi: V::Real,
        target_distance: V::Real,
    ) -> Option<Found<CastOutput<V>, BodyId>> {
        let start = shape.aabb(pose);
        let turning = V::angular_speed(motion.angular_velocity) > V::Real::ZERO;
        let (start, dir) = if turning {
            // A turning shape stays within its box's circumradius of its origin.
            let reach = (start.max - pose.translation).length().max((start.min - pose.translation).length());
            (Aabb::from_ball(pose.translation, reach), motion.velocity)
        } else {
            (start, motion.velocity)
        };
        // Bodies within the target of the path count: the swept box grows by it.
        let start =
            start.loosened(if target_distance > V::Real::ZERO { target_distance } else { V::Real::ZERO });
        let input = CastInput {
            motion_a: crate::query::cast::Motion::linear(V::ZERO),
            motion_b: motion,
            max_toi,
            target_distance,
        };
        let mut best: Option<Found<CastOutput<V>, BodyId>> = None;
        self.visit_swept(&start, dir, max_toi, |id, body_shape, body_pose, limit| {
            let a =
                S::shape_cast(body_shape, body_pose, shape, pose, &CastInput { max_toi: limit, ..input })?;
            let t = a.value.toi;
            let better = best.as_ref().is_none_or(|b| crate::composite::earlier(&a.value, &b.value));
            if better {
                best = Some(a.with_body(id));
                return Some(t);
            }
            None
        });
        best
    }

    /// The bodies whose boxes the box `aabb` (world frame) meets as it moves by `motion`
    /// over `[0, max_toi]`, nearest first, for a caller with its own narrow phase (the
    /// mover's swept spheres). The boxes are the broad phase's, enlarged (by the tree's
    /// margin, see [`World::with_margin`], and the largest margin [`World::contacts`] was
    /// asked for): a superset of the bodies whose own boxes meet it.
    /// `f(body, shape, pose, limit)` answers a body's time of first contact within
    /// `limit`, or `None`; an answer becomes the limit for the bodies after.
    pub fn visit_swept(
        &self,
        aabb: &Aabb<V>,
        motion: V,
        max_toi: V::Real,
        mut f: impl FnMut(BodyId, &S, &Pose<V>, V::Real) -> Option<V::Real>,
    ) {
        self.broad.tree().cast_aabb(aabb, motion, max_toi, |proxy, limit| {
            let (id, body) = self.live(proxy)?;
            f(id, &body.shape, &body.pose, limit)
        });
    }

    /// The bodies whose boxes meet the box `aabb` (world frame; touching counts), in no set
    /// order, for a caller with its own narrow phase. The boxes are the broad phase's,
    /// enlarged as for [`World::visit_swept`].
    pub fn visit_overlaps(&self, aabb: &Aabb<V>, mut f: impl FnMut(BodyId, &S, &Pose<V>)) {
        self.broad.tree().visit_overlaps(aabb, |proxy| {
            if let Some((id, body)) = self.live(proxy) {
                f(id, &body.shape, &body.pose);
            }
            true
        });
    }

    /// Every body the shape at `pose` overlaps (touching counts), with the parts found.
    #[must_use]
    pub fn overlaps(&self, shape: &S, pose: &Pose<V>) -> Vec<Found<(), BodyId>> {
        let b = shape.aabb(pose);
        let mut out = Vec::new();
        self.broad.tree().visit_overlaps(&b, |proxy| {
            if let Some((id, body)) = self.live(proxy) {
                if let Some(a) = S::intersects(&body.shape, &body.pose, shape, pose) {
                    out.push(a.with_body(id));
                }
            }
            true
        });
        out.sort_by_key(|h| h.body);
        out
    }

    /// The body closest to the shape at `pose` (distance 0 when overlapping), searching no
    /// farther than `max_distance`; the distance output has the body as A.
    #[must_use]
    pub fn closest(
        &self,
        shape: &S,
        pose: &Pose<V>,
        max_distance: V::Real,
    ) -> Option<Found<DistanceOutput<V>, BodyId>> {
        let b = shape.aabb(pose);
        let mut best: Option<Found<DistanceOutput<V>, BodyId>> = None;
        self.broad.tree().nearest(
            max_distance,
            |node| node.gap_squared(&b).sqrt(),
            |proxy, limit| {
                let (id, body) = self.live(proxy)?;
                let a = S::distance(&body.shape, &body.pose, shape, pose)?;
                let d = a.value.distance;
                if d < limit || (d <= limit && best.is_none()) {
                    best = Some(a.with_body(id));
                    return Some(d);
                }
                None
            },
        );
        best.filter(|h| h.value.distance <= max_distance)
    }

    /// The contact pairs of this frame: [`World::contacts`]`(margin).pairs`.
    pub fn contact_pairs(&mut self, margin: V::Real) -> Vec<ContactPair<V>> {
        self.contacts(margin).pairs
    }
}
