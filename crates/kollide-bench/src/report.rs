//! The results: one row per (case, query), printed as a markdown table and written as CSV.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One measured row.
#[derive(Clone, Debug)]
pub struct Row {
    /// Case name (`hull64`, ...).
    pub case: String,
    /// Query name (`intersects`, `distance`, `distance-cold`).
    pub query: &'static str,
    /// Fraction of the pairs that overlap (kollide's answer).
    pub overlap: f64,
    /// Pairs checked.
    pub pairs: usize,
    /// Disagreements with parry on this query (outside the tolerances).
    pub disagreements: usize,
    /// Of the distance disagreements, how many have parry's distance the larger, and the
    /// largest relative difference (`None` for rows without distance disagreements).
    pub distance_detail: Option<(usize, f64)>,
    /// ns per query (fastest repetition), kollide.
    pub kollide_ns: f64,
    /// ns per query (fastest repetition), parry.
    pub parry_ns: f64,
    /// The speedup the issue asks for (`parry / kollide`), or 0 when it names none.
    pub target: f64,
}

impl Row {
    /// `parry_ns / kollide_ns`.
    #[must_use]
    pub fn speedup(&self) -> f64 {
        self.parry_ns / self.kollide_ns
    }

    /// Whether the target is met.
    #[must_use]
    pub fn meets_target(&self) -> bool {
        self.speedup() >= self.target
    }
}

/// The markdown table.
#[must_use]
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::new();
    s.push_str(
        "| case | query | overlap | pairs | disagree | kollide ns | parry ns | speedup | target | |\n",
    );
    s.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {:.0}% | {} | {} | {:.1} | {:.1} | {:.2}x | {} | {} |",
            r.case,
            r.query,
            100.0 * r.overlap,
            r.pairs,
            r.disagreements,
            r.kollide_ns,
            r.parry_ns,
            r.speedup(),
            if r.target > 0.0 { format!(">= {}x", r.target) } else { "-".to_string() },
            if r.target == 0.0 {
                ""
            } else if r.meets_target() {
                "ok"
            } else {
                "**miss**"
            }
        );
    }
    s
}

/// One line per row with distance disagreements: which side is larger, and by how much.
#[must_use]
pub fn disagreement_lines(rows: &[Row]) -> String {
    let mut s = String::new();
    for r in rows {
        if let (Some((parry_higher, rel)), true) = (r.distance_detail, r.disagreements > 0) {
            let _ = writeln!(
                s,
                "- {} {}: {} pairs differ; parry's distance is the larger in {parry_higher}; largest relative difference {:.2}%",
                r.case,
                r.query,
                r.disagreements,
                100.0 * rel
            );
        }
    }
    s
}

/// The CSV, columns `case,query,kollide_ns,parry_ns,speedup`.
#[must_use]
pub fn csv(rows: &[Row]) -> String {
    let mut s = String::from("case,query,kollide_ns,parry_ns,speedup\n");
    for r in rows {
        let _ =
            writeln!(s, "{},{},{:.2},{:.2},{:.3}", r.case, r.query, r.kollide_ns, r.parry_ns, r.speedup());
    }
    s
}

/// `<workspace>/target/kollide-bench.csv` (the workspace root is two levels above this
/// crate's manifest).
#[must_use]
pub fn csv_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/kollide-bench.csv")
}
