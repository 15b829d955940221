//! `kollide demo`: the shipped example queries, each shown with its answer.

use crate::answer::{respond, Precision};
use std::io::{self, Write};

/// The example queries (`examples/queries.jsonl` at the repository root), built in so the
/// demo runs from anywhere.
pub const EXAMPLES: &str = include_str!("../../../examples/queries.jsonl");

/// Prints every example query followed by its answer. Returns the number of lines that
/// failed (0 unless the examples file is broken).
///
/// # Errors
/// When stdout cannot be written.
pub fn demo<W: Write>(out: &mut W, precision: Precision) -> io::Result<usize> {
    let scalar = match precision {
        Precision::F32 => "f32",
        Precision::F64 => "f64",
    };
    let count = EXAMPLES.lines().filter(|l| !l.trim().is_empty()).count();
    writeln!(out, "kollide demo: the {count} queries of examples/queries.jsonl, computed in {scalar}.")?;
    writeln!(out, "Each query is shown after `>`, its answer on the next line.")?;
    writeln!(out, "(`kollide query examples/queries.jsonl` prints the answers alone, as JSON lines.)")?;
    let mut failed = 0;
    for (i, text) in EXAMPLES.lines().enumerate() {
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let reply = respond(i + 1, text, precision);
        failed += usize::from(!reply.ok);
        writeln!(out, "\n> {text}\n{}", reply.json)?;
    }
    out.flush()?;
    Ok(failed)
}
