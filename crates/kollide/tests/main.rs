//! kollide's integration tests, in one test binary: each file of this folder is a module.
//!
//! One binary instead of one per file: the library is generic over the dimension and the
//! scalar, so every test binary compiled (at `opt-level = 3`) and linked its own copies of the
//! queries; one binary builds them once, which is most of the test build's time in CI.
//! Run one file's tests with a filter: `cargo test -p kollide --test all mover_soak`.

mod common;
#[path = "common/epa_cases.rs"]
mod epa_cases;
#[path = "common/poly2d.rs"]
mod poly2d;
#[path = "common/ray_cases.rs"]
mod ray_cases;
#[path = "common/ray_oracle.rs"]
mod ray_oracle;
#[path = "common/solid3d.rs"]
mod solid3d;
#[path = "common/sweep_dim.rs"]
mod sweep_dim;
#[path = "common/sweep_oracle.rs"]
mod sweep_oracle;

mod boundary_casts;
mod boundary_rays;
mod boundary_stairs;
mod boundary_sweeps;
mod bvh_dynamic;
mod bvh_grid;
mod bvh_static;
mod cast_ray;
mod cast_ray_exact;
mod cast_ray_flat;
mod cast_shapes;
mod cast_sweep;
mod cast_sweep_scenes;
mod cast_toi;
mod cast_tunnelling;
mod composite_2d;
mod composite_heightfield;
mod composite_mesh;
mod composite_seams;
mod concave_polygon;
mod contact_all_pairs;
mod contact_box_segment;
mod contact_closed_forms;
mod contact_epa;
mod contact_sat2d;
mod contact_sat3d;
mod convex_hull;
mod gjk_closed_forms;
mod gjk_hostile;
mod gjk_polytopes;
mod gjk_slivers;
mod gjk_warm_start;
mod intersects_polygons;
mod manifold2d;
mod manifold3d;
mod manifold_cache;
mod metamorphic;
mod mover;
mod mover_soak;
mod mover_trace;
mod regressions;
mod regressions_cache;
mod regressions_cast;
mod regressions_huge;
mod regressions_scale;
mod sat_boxes;
mod serde_shapes;
mod sweep_trace;
mod world;
