//! The mover: move-and-slide of an upright character (a ball, an ellipsoid or a capsule)
//! through a [`World`](crate::world::World), the response designed together with the
//! detection so that it neither passes through anything nor gets stuck on an edge.
//!
//! [`move_and_slide`] is one step; the caller adds gravity and keeps the position. Every
//! cast is the exact shape cast of the character's own shape (no sphere stand-in for the
//! ellipsoid or the capsule), stopped a `skin` short of the world; the contact planes of a
//! step are solved together (`planes.rs`).

mod feature;
mod output;
mod planes;
mod settings;
mod slide;
mod trace;

pub use output::{Ground, MoveContact, MoveOutput, MoveStatus};
pub use settings::{Character, MoverError, MoverSettings, UpRotation};
pub use slide::move_and_slide;
pub use trace::{MovePhase, MoveStep, SlidePlane};
