//! The motion of a body over a time interval, and the input and output of a shape cast.

use crate::math::{Pose, Real};
use crate::query::Space;

/// How a body moves: a constant linear velocity and a constant angular velocity, both in the
/// **world frame**, the rotation about the body's own origin (its pose's translation).
///
/// The pose at time `t` of a body that starts at `pose` is
/// `translation + t * velocity` with the rotation turned by `t * angular_velocity`
/// ([`Motion::pose_at`]). Units: the velocity is per unit of time, the angular velocity in
/// radians per unit of time (a number in 2D, counter-clockwise; a vector in 3D, axis times
/// rate).
///
/// ```
/// use kollide::query::cast::Motion;
/// use kollide::math::{Pose2, Vec2};
/// let m = Motion::<Vec2> { velocity: Vec2::X, angular_velocity: core::f32::consts::PI };
/// let p = m.pose_at(&Pose2::IDENTITY, 0.5);
/// assert!((p.translation - Vec2::new(0.5, 0.0)).length() < 1e-6);
/// assert!((p.transform_vector(Vec2::X) - Vec2::Y).length() < 1e-6); // a quarter turn
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion<V: Space> {
    /// Linear velocity of the body's origin.
    pub velocity: V,
    /// Angular velocity about the body's origin.
    pub angular_velocity: V::AngularVelocity,
}

/// No motion at all.
impl<V: Space> Default for Motion<V> {
    fn default() -> Self {
        Self::linear(V::ZERO)
    }
}

impl<V: Space> Motion<V> {
    /// A pure translation at `velocity`.
    #[must_use]
    pub fn linear(velocity: V) -> Self {
        Self { velocity, angular_velocity: V::AngularVelocity::default() }
    }

    /// `true` when the body does not rotate.
    #[must_use]
    pub fn is_linear(&self) -> bool {
        V::angular_speed(self.angular_velocity) == V::Real::ZERO
    }

    /// `true` when every component of both velocities is finite.
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.velocity.is_finite_vec() && V::angular_speed(self.angular_velocity).is_finite()
    }

    /// The velocity (world frame) of the point `point` (world frame) of a body at `pose`
    /// moving this way: `velocity + angular_velocity × (point - pose.translation)`.
    ///
    /// Computed from the rotation itself, so it is written once for 2D and 3D: for a unit
    /// axis `k`, `k × q` is half the difference of `q` turned by a quarter turn each way
    /// about `k` (the terms along `k` cancel).
    #[must_use]
    pub fn point_velocity(&self, pose: &Pose<V>, point: V) -> V {
        let rate = V::angular_speed(self.angular_velocity);
        if rate == V::Real::ZERO || !rate.is_finite() {
            return self.velocity;
        }
        let quarter = V::Real::from_f64(core::f64::consts::FRAC_PI_2) / rate;
        let id = <V::Rotation as crate::math::Rotation<V>>::IDENTITY;
        let q = point - pose.translation;
        let plus = crate::math::Rotation::rotate(V::turned(id, self.angular_velocity, quarter), q);
        let minus = crate::math::Rotation::rotate(V::turned(id, self.angular_velocity, -quarter), q);
        self.velocity + (plus - minus) * (V::Real::HALF * rate)
    }

    /// The pose at time `t` of a body that is at `pose` at time 0.
    #[must_use]
    pub fn pose_at(&self, pose: &Pose<V>, t: V::Real) -> Pose<V> {
        let rotation =
            if self.is_linear() { pose.rotation } else { V::turned(pose.rotation, self.angular_velocity, t) };
        Pose::new(pose.translation + self.velocity * t, rotation)
    }
}

/// What a [`shape_cast`](super::shape_cast) is asked: how each body moves, for how long, and
/// how close counts as touching.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastInput<V: Space> {
    /// How A moves.
    pub motion_a: Motion<V>,
    /// How B moves.
    pub motion_b: Motion<V>,
    /// The end of the time interval `[0, max_toi]` searched (in the units of the
    /// velocities: 1 for "this frame's displacement"). Must be finite and `>= 0`; a NaN or
    /// negative value is an empty interval (`Miss`).
    pub max_toi: V::Real,
    /// The distance at which the shapes count as touching (a skin, so that a mover stops
    /// short of contact); `0` for exact contact. A NaN or negative value counts as 0.
    pub target_distance: V::Real,
}

impl<V: Space> CastInput<V> {
    /// A linear cast of A at `velocity_a` and B at `velocity_b` over `[0, max_toi]`, to
    /// contact (`target_distance` 0).
    #[must_use]
    pub fn linear(velocity_a: V, velocity_b: V, max_toi: V::Real) -> Self {
        Self {
            motion_a: Motion::linear(velocity_a),
            motion_b: Motion::linear(velocity_b),
            max_toi,
            target_distance: V::Real::ZERO,
        }
    }
}

/// How a shape cast ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum CastStatus {
    /// The shapes come within `target_distance` at `toi` (within the stated tolerance); the
    /// points and normal are those of that moment. The normal is an outward normal of B's
    /// contact feature (any of a vertex's or an edge's cone of normals) and a separating
    /// direction then: along it the shapes are apart by their distance, to the tolerance.
    Hit,
    /// The shapes stay farther apart than `target_distance` over all of `[0, max_toi]`
    /// (proven, not sampled); or, for a linear cast of shapes already within it at time 0
    /// but not approaching, they never come closer than they are then.
    Miss,
    /// At time 0 the shapes are already within `target_distance` and approaching:
    /// `distance` is their signed distance then (negative when penetrating), with the
    /// normal and points of that moment. Shapes within it but moving apart are not
    /// reported this way: the cast looks for a later impact.
    ///
    /// At the boundary: shapes touching at time 0 *approach* only when the motion takes
    /// them deeper than touching (by more than the tolerance over the cast); touching and
    /// separating is a [`Miss`](Self::Miss), and so is touching and sliding tangentially.
    /// Where they touch at a vertex or an edge, the contact's normal is a whole cone, and
    /// moving out along any normal of it separates them.
    StartedWithin,
    /// The iteration cap or the numbers stopped the search: `safe_toi` is the last time up to
    /// which the shapes are proven to stay farther apart than `target_distance`. Never a
    /// silent miss.
    Failed,
}

impl CastStatus {
    /// The name used by the command-line tool: `"hit"`, `"miss"`, `"started_within"`,
    /// `"failed"`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hit => "hit",
            Self::Miss => "miss",
            Self::StartedWithin => "started_within",
            Self::Failed => "failed",
        }
    }
}

/// The answer of a [`shape_cast`](super::shape_cast), in the **world frame** at time `toi`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastOutput<V: Space> {
    /// How the cast ended.
    pub status: CastStatus,
    /// `Hit`: the time of impact; `StartedWithin`: 0; `Miss`: `max_toi` (0 when `max_toi`
    /// is NaN or negative); `Failed`: equal to `safe_toi`.
    pub toi: V::Real,
    /// The last time up to which the shapes are proven to stay farther apart than
    /// `target_distance` (`Hit`: `toi`, the search only ever advances to proven times;
    /// `Miss`: `max_toi`; `StartedWithin`: 0).
    pub safe_toi: V::Real,
    /// The signed distance between the shapes at `toi` (`Hit`: `target_distance` within the
    /// tolerance, see [`shape_cast`](super::shape_cast); `StartedWithin`: the distance at
    /// time 0, negative when penetrating; `Failed`: the last distance computed, at
    /// `safe_toi`; `Miss`: the last distance the search computed, at the last time it
    /// looked, which need not be `max_toi`: a miss is often proven long before).
    pub distance: V::Real,
    /// A point on A's surface at `toi` (`Hit`, `StartedWithin`; else zero).
    pub point_a: V,
    /// A point on B's surface at `toi` (`Hit`, `StartedWithin`; else zero).
    pub point_b: V,
    /// Unit contact normal from A towards B at `toi` (`Hit`, `StartedWithin`; else zero).
    pub normal: V,
    /// When B's feature at `point_b` is a face (a polytope's face; a box's side): that face's
    /// outward unit normal (a mover tells floor from wall by it). `None` for edges,
    /// vertices and curved surfaces.
    pub face_normal: Option<V>,
    /// Iterations of the search (distance queries of conservative advancement).
    pub iterations: u32,
}

impl<V: Space> CastOutput<V> {
    /// The time of impact when the cast found one: `Some(toi)` for
    /// [`CastStatus::Hit`], `Some(0)` for [`CastStatus::StartedWithin`], `None` for a miss
    /// or a failure (whose `safe_toi` still says how far the motion is safe).
    #[must_use]
    pub fn hit_toi(&self) -> Option<V::Real> {
        match self.status {
            CastStatus::Hit => Some(self.toi),
            CastStatus::StartedWithin => Some(V::Real::ZERO),
            _ => None,
        }
    }

    /// The same answer for the pair taken the other way round (B, A): points swapped,
    /// normal reversed. `face_normal` (a face of B) names no face of the new B and is
    /// dropped.
    #[must_use]
    pub fn flipped(self) -> Self {
        Self { point_a: self.point_b, point_b: self.point_a, normal: -self.normal, face_normal: None, ..self }
    }

    /// A miss over `[0, max_toi]`; `distance` is the last one computed.
    #[must_use]
    pub(crate) fn miss(max_toi: V::Real, distance: V::Real, iterations: u32) -> Self {
        Self {
            status: CastStatus::Miss,
            toi: max_toi,
            safe_toi: max_toi,
            distance,
            point_a: V::ZERO,
            point_b: V::ZERO,
            normal: V::ZERO,
            face_normal: None,
            iterations,
        }
    }
}

/// One advancement of a shape cast (recorded by
/// a traced [`shape_cast`](crate::query::cast::shape_cast)), in the world frame: the
/// time reached, which the cast has proven free of contact before it, and the bodies' closest
/// points and distance there as that step measured them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastStep<V: Space> {
    /// The time reached.
    pub time: V::Real,
    /// The distance between the surfaces at that time (an upper bound: the step's estimate).
    pub distance: V::Real,
    /// A's closest point at that time.
    pub point_a: V,
    /// B's closest point at that time.
    pub point_b: V,
    /// The unit direction from A towards B (zero when the step had none).
    pub normal: V,
}
