//! Heightfield terrain: a grid of heights in 3D ([`HeightField`], two triangles a cell) and a
//! row of heights in 2D ([`HeightField2d`], a segment a column), walked cell by cell instead
//! of through a tree.

mod error;
mod field2d;
mod field3d;
mod parts;
#[cfg(feature = "png")]
mod png;
mod walk;

pub use error::HeightFieldError;
pub use field2d::HeightField2d;
pub use field3d::HeightField;
