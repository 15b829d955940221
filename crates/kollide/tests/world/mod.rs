//! The world: bodies, run-time shapes, world queries.

mod world_frames;
mod world_queries;
