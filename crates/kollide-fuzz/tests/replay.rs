//! Replays every kept input through its target on stable Rust, so CI guards every finding
//! without nightly:
//!
//! - `regressions/<target>/<name>`: the inputs of past findings, each under a name that says
//!   what it broke (always replayed, never pruned);
//! - `corpus/<target>/`: the fuzz corpus, cut to a budget by coverage (see the README's
//!   fuzzing section for how it is grown and cut again).
//!
//! A failure names the file; `cargo +nightly fuzz run <target> <file>` from `fuzz/` replays
//! it under libFuzzer.

use std::path::{Path, PathBuf};

/// The files of `dir`, sorted; none when the folder does not exist (a target without
/// findings has no regressions folder).
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<_> = entries.map(|e| e.expect("readable folder").path()).collect();
    files.sort();
    files
}

fn replay(kind: &str, must_have: bool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(kind);
    let mut failures = Vec::new();
    let mut total = 0;
    for (name, target) in kollide_fuzz::TARGETS {
        let files = files(&root.join(name));
        assert!(!must_have || !files.is_empty(), "the {kind} of {name} is empty");
        for file in &files {
            let data = std::fs::read(file).expect("readable input");
            total += 1;
            if std::panic::catch_unwind(|| target(&data)).is_err() {
                failures.push(file.display().to_string());
            }
        }
        println!("{kind}/{name}: {} inputs", files.len());
    }
    println!("{total} inputs replayed");
    assert!(total > 0, "no {kind} inputs found under {}", root.display());
    assert!(failures.is_empty(), "inputs breaking a promise:\n{}", failures.join("\n"));
}

#[test]
fn every_past_finding_keeps_the_promises() {
    replay("regressions", false);
}

#[test]
fn every_corpus_input_keeps_the_promises() {
    replay("corpus", true);
}
