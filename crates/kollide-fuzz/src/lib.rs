//! The fuzz harness of kollide: one function per entry point ([`TARGETS`]), each turning
//! arbitrary bytes into inputs built through the checked constructors and checking the
//! promises of the answers (not just "no panic": bounds that hold, unit normals, points on
//! the shapes, contacts that separate when moved by their depth, casts that never tunnel,
//! composites that agree with brute force over their parts, a mover that stays clear).
//!
//! Two drivers: `fuzz/` at the repository's root runs each function under libFuzzer
//! (`cargo +nightly fuzz run NAME`), and this crate's test `replay` runs every input kept in
//! `regressions/NAME/` (past findings, by name) and `corpus/NAME/` (the corpus, cut to a
//! budget by coverage) on stable Rust, so CI guards every finding without nightly.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod boundary;
pub mod build;
pub mod bytes;
pub mod promises;
mod sweep_check;
mod targets;

pub use targets::{casts, cli_move, cli_query, mesh_files, mover, queries, shapes};

/// A target's entry point: the fuzzer's bytes in, a panic out when a promise breaks.
pub type Target = fn(&[u8]);

/// Every target: its name (the libFuzzer target and the corpus folder) and its function.
pub const TARGETS: &[(&str, Target)] = &[
    ("shapes", shapes),
    ("queries", queries),
    ("casts", casts),
    ("mover", mover),
    ("cli_query", cli_query),
    ("cli_move", cli_move),
    ("mesh_files", mesh_files),
];
