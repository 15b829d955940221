//! Shapes: construction, hulls, serialization.

mod convex_hull;
mod serde_shapes;
