//! Queries between shapes: distance, closest points, intersection, contact (penetration),
//! contact manifolds, and continuous collision
//! ([`cast`]: rays, shape casts, time of impact, swept spheres and ellipsoids).

pub(crate) mod box_distance;
pub mod cast;
mod closed_form;
pub(crate) mod contact;
mod dispatch;
mod distance;
pub(crate) mod epa;
pub mod gjk;
mod least_push;
pub(crate) mod manifold;
pub(crate) mod sat;
mod space;

pub use cast::{ray_cast, shape_cast, CastInput, CastOutput, CastStatus, Motion, Ray, RayHit, RayOutcome};
pub use contact::{contact, Contact, ContactStatus, ContactTrace};
pub use distance::{
    distance, distance_cached, intersection_test, intersects, DistanceOutput, IntersectionOutput,
};
pub use epa::EpaStep;
pub use gjk::{GjkSettings, GjkStatus, GjkStep, SimplexCache};
pub use manifold::{
    manifold, manifold_cached, ContactId, Manifold, ManifoldCache, ManifoldPoint, ToleranceError,
    DEFAULT_MAX_TURN, DEFAULT_RELATIVE_DRIFT, MAX_MANIFOLD_POINTS,
};
pub use sat::{SatAxis, SatStep};
pub use space::Space;

/// The status of a distance query (the same as GJK's).
pub type DistanceStatus = GjkStatus;
