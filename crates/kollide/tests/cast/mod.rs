//! Continuous queries: rays, shape casts, time of impact, sweeps.

mod cast_ray;
mod cast_ray_exact;
mod cast_ray_flat;
mod cast_shapes;
mod cast_sweep;
mod cast_sweep_scenes;
mod cast_toi;
mod cast_tunnelling;
mod sweep_trace;
