//! Worlds: the run-time shape enums ([`Shape2`], [`Shape3`]) every query accepts through one
//! dispatch point, and [`World`]: bodies in a dynamic tree answering ray, cast, overlap and
//! closest-body queries against all of them, and the contact pairs of a frame.
//!
//! The functions here take two run-time shapes in either order (convex or composite) and
//! name the parts their answers came from ([`Found`]).

use crate::query::Space;
mod bodies;
mod contacts;
mod options;
mod shape;

pub use crate::composite::Found;
pub use bodies::{BodyId, ContactPair, World, WorldError};
pub use options::{BodyKind, BodyOptions, CollisionGroups, ContactFrame};
pub use shape::{PairCache, RuntimeShape, Shape2, Shape3};

use crate::math::Pose;
use crate::query::cast::{CastInput, CastOutput, Ray, RayOutcome};
use crate::query::{Contact, DistanceOutput, Manifold};

/// Whether two run-time shapes overlap (touching counts), with the parts found overlapping;
/// `None` when apart. World frame.
#[must_use]
pub fn intersects<V: Space, S: RuntimeShape<V>>(
    a: &S,
    pose_a: &Pose<V>,
    b: &S,
    pose_b: &Pose<V>,
) -> Option<Found<()>> {
    S::intersects(a, pose_a, b, pose_b)
}

/// The distance between two run-time shapes and their closest points (as
/// [`crate::query::distance`]), with the nearest parts. World frame. `None` only for a
/// composite without parts, which no constructor makes.
#[must_use]
pub fn distance<V: Space, S: RuntimeShape<V>>(
    a: &S,
    pose_a: &Pose<V>,
    b: &S,
    pose_b: &Pose<V>,
) -> Option<Found<DistanceOutput<V>>> {
    S::distance(a, pose_a, b, pose_b)
}

/// The deepest contact of two run-time shapes within `margin` (as
/// [`crate::query::contact`], composites without ghost contacts on internal edges). World
/// frame.
#[must_use]
pub fn contact<V: Space, S: RuntimeShape<V>>(
    a: &S,
    pose_a: &Pose<V>,
    b: &S,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> Option<Found<Contact<V>>> {
    S::contact(a, pose_a, b, pose_b, margin)
}

/// The contact manifold of two run-time shapes within `margin` (as
/// [`crate::query::manifold`]; merged over parts for composites), with the parts of its
/// deepest point. World frame.
#[must_use]
pub fn manifold<V: Space, S: RuntimeShape<V>>(
    a: &S,
    pose_a: &Pose<V>,
    b: &S,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> Found<Manifold<V>> {
    S::manifold(a, pose_a, b, pose_b, margin)
}

/// The first hit of a ray on a run-time shape within `[0, max_toi]`, the part in
/// `part_a`; `None` for a miss. World frame.
#[must_use]
pub fn ray_cast<V: Space, S: RuntimeShape<V>>(
    shape: &S,
    pose: &Pose<V>,
    ray: &Ray<V>,
    max_toi: V::Real,
) -> Option<Found<RayOutcome<V>>> {
    shape.ray_cast(pose, ray, max_toi)
}

/// The earliest time of impact of two moving run-time shapes (as
/// [`crate::query::cast::shape_cast`]); `None` for a miss. World frame.
#[must_use]
pub fn shape_cast<V: Space, S: RuntimeShape<V>>(
    a: &S,
    pose_a: &Pose<V>,
    b: &S,
    pose_b: &Pose<V>,
    input: &CastInput<V>,
) -> Option<Found<CastOutput<V>>> {
    S::shape_cast(a, pose_a, b, pose_b, input)
}
