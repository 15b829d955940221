//! # kollide-bench
//!
//! Side-by-side comparison of kollide with parry on **identical inputs**: the same shapes
//! (built from the same `f32` numbers) and the same poses (bit-identical glam quaternions and
//! vectors), generated from fixed seeds.
//!
//! The library half of this crate holds what the benchmark binary (`src/main.rs`) and the
//! agreement tests (`tests/agree_with_parry.rs`) share:
//!
//! - [`gen`]: seeded random points, rotations and placements that make about half of the
//!   pairs overlap;
//! - [`spec3`] / [`spec2`]: shape descriptions that build the kollide shape (`f32` and `f64`)
//!   and the parry shape from the same parameters;
//! - [`scene`]: pools of shapes plus random pairs of poses;
//! - [`check`]: the agreement rules (tolerances, the band around touching);
//! - [`oracle3`] / [`oracle2`]: brute-force `f64` distances for polytopes and rounded
//!   segments, the truth the two libraries are judged against.

pub mod check;
pub mod gen;
pub mod oracle2;
pub mod oracle3;
pub mod scene;
pub mod spec2;
pub mod spec3;
