//! Replays every input kept in `corpus/<target>/` (the minimized corpora of the fuzz runs,
//! findings included) through its target on stable Rust: CI guards every finding without
//! nightly. A failure names the file; `cargo +nightly fuzz run <target> <file>` from
//! `fuzz/` replays it under libFuzzer.

use std::path::Path;

#[test]
fn every_corpus_input_keeps_the_promises() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut failures = Vec::new();
    let mut total = 0;
    for (name, target) in kollide_fuzz::TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("corpus folder {} missing: {e}", dir.display()))
            .map(|e| e.expect("readable folder").path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "the corpus of {name} is empty");
        for file in &files {
            let data = std::fs::read(file).expect("readable corpus file");
            total += 1;
            if std::panic::catch_unwind(|| target(&data)).is_err() {
                failures.push(file.display().to_string());
            }
        }
        println!("{name}: {} inputs", files.len());
    }
    println!("{total} inputs replayed");
    assert!(failures.is_empty(), "inputs breaking a promise:\n{}", failures.join("\n"));
}
