//! Fuzz findings whose inputs are easiest to keep as the fuzzer's bytes (a world, a mover
//! walk): each test replays the kept input through its target and tells the story. The
//! other findings have regression tests of their own in `crates/kollide/tests/`
//! (`regressions*.rs`, each saying "found by the fuzz target ..."); every finding's input is
//! also in `regressions/<target>/`, replayed by `replay.rs`.

use std::path::Path;

fn replay(target: fn(&[u8]), file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    target(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
}

/// A ball walked by the mover in f32 near bodies 2e4 to 3e9 from the origin met contact
/// planes whose normals were 1.41, 1.08 or 0.70 long (a ball of radius 1e-12 likewise).
/// The ball-ball and ball-point cast's closed form divided the centres' gap at the time of
/// impact by the sum of the radii instead of by its length; with offsets whose squares are
/// 8e8 (an ulp of 64 in f32) the time of impact carries an error of that size (within the
/// documented tolerance, which scales with the coordinates), and the quotient was far from
/// unit. The mover then solved its planes with non-unit normals. The normal is now the gap
/// over its own length whenever the quotient is not unit.
#[test]
fn mover_contact_normals_are_unit_far_from_the_origin_in_f32() {
    for file in [
        "regressions/mover/finding-0214892bcd44",
        "regressions/mover/finding-4a6015e91dba",
        "regressions/mover/finding-633d1c5c765b",
        "regressions/mover/finding-b1e71c7727ea",
        "regressions/mover/finding-d6574d9c591f",
    ] {
        replay(kollide_fuzz::mover, file);
    }
}

/// Two needle hulls 4e13 long, overlapping (f64). GJK ended on a tetrahedron around the
/// origin so flat for its size that its barycentric weights (positive, summing to 1) put
/// the common point `Σ λ aᵢ` 6e8 away from B, whose whole x range is [-19.5, 1]: "point_b
/// on B" broke. A full simplex whose weights do not bring A's and B's points together to
/// rounding now takes the nearest pair among its sub-simplices solved afresh (a facet's),
/// whose points are no farther apart than the simplex is thick. (Kept as bytes: the hulls' vertex order, which
/// steers GJK there, comes from the harness's construction.)
#[test]
fn an_overlap_of_needle_hulls_reports_a_point_of_both() {
    replay(kollide_fuzz::queries, "regressions/queries/overlap-of-needle-hulls-flat-simplex-f64");
}
