//! kollide's integration tests, in one test binary, grouped by layer: `shape/`, `query/`
//! (convex queries), `cast/` (rays, casts, sweeps), `bvh/`, `composite/`, `world/`, `mover/`,
//! then `boundary/` (pairs built to touch exactly) and `regressions/` (one story a test);
//! `common/` holds the f64 oracles, which never call kollide.
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

mod boundary;
mod bvh;
mod cast;
mod composite;
mod mover;
mod query;
mod regressions;
mod shape;
mod world;
