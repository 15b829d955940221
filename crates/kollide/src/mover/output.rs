//! What a move answers: where the character ends, how the step ended, what it touched and
//! the ground it stands on.

use crate::math::Vector3;
use crate::query::cast::SweepFeature;
use crate::query::Space;
use crate::world::BodyId;

/// How a step ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveStatus {
    /// The whole (slid) displacement was made.
    Moved,
    /// The contact planes left no room to go on: the character stopped short.
    Blocked,
    /// The iteration cap ended the step with motion left.
    MaxIterations,
    /// The character overlapped the world at the start (or stood under a terrain's surface,
    /// which is solid below); it was pushed out along the contact normals (bounded; out of
    /// a terrain, up onto its surface), then moved. The step's other outcome is not
    /// reported.
    StartedInside,
}

impl MoveStatus {
    /// The scene format's name: `"moved"`, `"blocked"`, `"max_iterations"`,
    /// `"started_inside"`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Moved => "moved",
            Self::Blocked => "blocked",
            Self::MaxIterations => "max_iterations",
            Self::StartedInside => "started_inside",
        }
    }
}

/// A contact the character met during a step (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveContact<V: Vector3 + Space> {
    /// The point of the world touched.
    pub point: V,
    /// The unit normal of the contact plane, from the world towards the character.
    pub normal: V,
    /// What was touched.
    pub feature: SweepFeature,
    /// The body touched.
    pub body: BodyId,
    /// Its part (triangle or compound part), for a composite.
    pub part: Option<u32>,
}

/// Where the character stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground<V: Vector3 + Space> {
    /// The ground's unit normal (within `max_slope` of `up`).
    pub normal: V,
    /// The body under the character.
    pub body: BodyId,
    /// Its part, for a composite.
    pub part: Option<u32>,
}

/// The result of one step.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveOutput<V: Vector3 + Space> {
    /// The new position.
    pub position: V,
    /// The displacement actually made (new position less the start).
    pub displacement: V,
    /// The ground under the character after the step, if it stands on walkable ground.
    pub ground: Option<Ground<V>>,
    /// Every contact of the step, in the order met.
    pub contacts: Vec<MoveContact<V>>,
    /// How the step ended.
    pub status: MoveStatus,
    /// Casts made.
    pub iterations: u32,
}

impl<V: Vector3 + Space> MoveOutput<V> {
    /// Whether the character stands on walkable ground.
    #[must_use]
    pub fn grounded(&self) -> bool {
        self.ground.is_some()
    }
}
