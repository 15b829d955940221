//! What a traced step of the mover did, cast by cast: the record
//! [`move_and_slide`](super::move_and_slide) fills when traced.

use super::output::MoveContact;
use crate::math::Vector3;
use crate::query::Space;

/// Why the mover cast (or pushed) in a [`MoveStep`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MovePhase {
    /// A push out of an overlapping start (no cast: `motion` is the push).
    Recover,
    /// An iteration of the slide: cast, move to the contact, solve the planes.
    Slide,
    /// The stairs' path (up by the step height, across, then down): `kept` when it landed
    /// further across than the slide and replaced it.
    Stairs {
        /// Whether the stairs' path replaced the slide.
        kept: bool,
    },
    /// The move down to the ground after the step (`snap_to_ground`).
    Snap,
    /// The look for walkable ground under the character (at the start and at the end).
    Ground,
}

/// A constraint of the plane solve: the motions `v` with `v · normal >= offset` (world
/// frame). A contact plane has offset 0; the cap that keeps a steep slope from lifting
/// the character more than it asked has the normal `-up` and the offset minus the rise
/// asked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlidePlane<V: Vector3 + Space> {
    /// The unit normal.
    pub normal: V,
    /// The least motion along it.
    pub offset: V::Real,
}

/// One cast (or push) of a traced mover step, in the **world frame**.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStep<V: Vector3 + Space> {
    /// Why.
    pub phase: MovePhase,
    /// The character's position at the cast's start.
    pub from: V,
    /// The motion cast (for [`MovePhase::Recover`], the push made).
    pub motion: V,
    /// The fraction of `motion` made before the contact (to within the skin); `None` when
    /// nothing was met and the whole motion was made.
    pub toi: Option<V::Real>,
    /// What the cast met.
    pub contact: Option<MoveContact<V>>,
    /// [`MovePhase::Slide`] and the stairs' slides: the step's planes after this contact.
    pub planes: Vec<SlidePlane<V>>,
    /// The motion left after the contact, as asked of the plane solve (the rest of this
    /// cast's motion; into walkable ground, taken up along `up`).
    pub wanted: Option<V>,
    /// The closest motion to `wanted` that every plane allows.
    pub solved: Option<V>,
    /// The motion cast next: `solved` tilted a hair off the planes it runs along, or zero
    /// when it turned back against the displacement asked (the corner guard).
    pub next: Option<V>,
}
