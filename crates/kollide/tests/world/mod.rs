//! The world: bodies, run-time shapes, world queries.

mod world_queries;
