//! The mover: move-and-slide scenes, soaks and traces.

mod mover_scenes;
mod mover_soak;
mod mover_trace;
