//! Continuous collision: ray casts, linear shape casts, time of impact with rotation, and
//! the swept sphere / ellipsoid against triangles (segments in 2D).
//!
//! Everything here answers "when do they first touch?" for shapes in motion, so that a fast
//! object cannot pass through a thin wall between two frames:
//!
//! - [`ray_cast`]: a ray against one convex shape (closed forms per primitive, GJK for the
//!   rest), with the hit, a miss, or the ray starting inside (and where it leaves).
//! - [`shape_cast`]: two convex shapes, each with its own [`Motion`] (linear and angular
//!   velocity), over `[0, max_toi]`: the first time their distance falls to
//!   `target_distance`.
//! - [`sweep`]: a moving sphere or ellipsoid (circle or ellipse in 2D) against a soup of
//!   triangles (segments), exactly, with the feature hit and the plane to slide along.
//!
//! All inputs and answers are in the **world frame** unless a doc says otherwise.

mod motion;
mod numeric;
mod ray;
mod shape_cast;
mod sweep;

pub use motion::{CastInput, CastOutput, CastStatus, CastStep, Motion};
pub(crate) use ray::TriangleRay;
pub use ray::{ray_cast, ray_toi, Ray, RayError, RayHit, RayOutcome};
pub use shape_cast::shape_cast;
pub use sweep::{
    sweep, BackFaces, SoupItem, SweepError, SweepFeature, SweepHit, SweepOutcome, SweepStep, SweepTest,
    SweepVerdict, SweptShape,
};
// For the composites, which walk their own candidates through the same sweep.
pub(crate) use sweep::{check_ball, check_ellipsoid, drive_ball, drive_scaled, Candidates};
