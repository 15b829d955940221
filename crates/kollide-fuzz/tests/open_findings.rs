//! The fuzz findings not fixed yet (`open/<target>/`, described in `OPEN.md`): each input
//! still breaks a promise. Ignored so CI stays green; run them with
//! `cargo test --release -p kollide-fuzz --test open_findings -- --ignored`. A finding that
//! now keeps its promises moves to `regressions/` (and gets its regression test).

use std::path::Path;

#[test]
#[ignore = "open fuzz findings: see crates/kollide-fuzz/OPEN.md"]
fn open_findings_keep_their_promises() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("open");
    let mut broken = Vec::new();
    for (name, target) in kollide_fuzz::TARGETS {
        let Ok(dir) = std::fs::read_dir(root.join(name)) else { continue };
        for entry in dir {
            let path = entry.expect("readable folder").path();
            let data = std::fs::read(&path).expect("readable file");
            if std::panic::catch_unwind(|| target(&data)).is_err() {
                broken.push(path.display().to_string());
            }
        }
    }
    assert!(broken.is_empty(), "open findings still breaking a promise:\n{}", broken.join("\n"));
}
