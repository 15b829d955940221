//! Queries between shapes: distance, closest points, intersection.

mod closed_form;
mod dispatch;
mod distance;
pub mod gjk;
mod sat;

pub use distance::{
    distance, distance_cached, distance_traced, distance_with, intersection_test, intersects, DistanceOutput,
    IntersectionOutput,
};
pub use gjk::{GjkSettings, GjkStatus, GjkStep, SimplexCache};

/// The status of a distance query (the same as GJK's).
pub type DistanceStatus = GjkStatus;
