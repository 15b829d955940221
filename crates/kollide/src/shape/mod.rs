//! Convex shapes, the [`Support`] trait they share, and its adapters.
//!
//! Every shape is checked once when built (`try_new` returns a [`ShapeError`] naming the bad
//! value; `new` panics with the same message), so queries on shapes never fail on input.

mod ball;
mod bounds;
mod capsule;
mod cone3d;
mod convex_polygon2d;
mod cuboid;
mod cylinder3d;
pub(crate) mod decompose2d;
mod ellipsoid;
pub(crate) mod error;
mod hull3d;
pub(crate) mod predicates2d;
mod runtime;
mod scan;
mod segment;
#[cfg(feature = "serde")]
mod serde_points;
mod support;
mod support_face;
mod triangle;

pub use ball::Ball;
pub use bounds::{bounding_box, local_bounding_box};
pub use capsule::Capsule;
pub use cone3d::Cone;
pub use convex_polygon2d::ConvexPolygon;
pub use cuboid::Cuboid;
pub use cylinder3d::Cylinder;
pub use ellipsoid::Ellipsoid;
pub use error::ShapeError;
pub use hull3d::ConvexHull;
pub use runtime::{Convex2, Convex3, UserShape};
pub use segment::Segment;
pub use support::{MinkowskiDifference, Primitive, Rounded, Support, Transformed, NO_HINT};
pub use support_face::{Feature, SupportFace, MAX_FACE_POINTS};
pub use triangle::Triangle;
