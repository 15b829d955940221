//! The static BVH, the dynamic tree, the broad phase and all-pairs searches.

mod bvh_dynamic;
mod bvh_grid;
mod bvh_static;
