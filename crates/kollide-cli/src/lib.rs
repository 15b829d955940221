//! The library behind the `kollide` binary: the JSON-lines query reader
//! ([`respond`], and [`Session`] for lines that define shapes), the mover's scene reader
//! ([`move_scene`]), the query runner ([`run`]), mesh diagnostics ([`mesh_info`]) and the
//! demo world ([`demo`]). The binary is a thin layer over these; they are public so the
//! fuzz harness (`crates/kollide-fuzz`) can drive the same readers on arbitrary input.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod answer;
mod batch;
mod cast_answer;
mod composite_json;
mod contact_answer;
pub mod demo;
mod demo_svg;
mod json;
pub mod mesh_info;
pub mod move_scene;
mod packed;
pub mod picture;
mod reply;
pub mod run;
pub mod session;
mod shape_json;
mod space;
pub mod viz;

pub use answer::{respond, Precision, Reply};
pub use session::{Scope, Session};
