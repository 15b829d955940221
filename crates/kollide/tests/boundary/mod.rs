//! Pairs built to touch exactly at a chosen feature (touching starts, grazing casts and rays, steps).

mod boundary_casts;
mod boundary_rays;
mod boundary_stairs;
mod boundary_sweeps;
