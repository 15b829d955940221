//! Helpers shared by the integration tests: run the built `kollide` binary, build query
//! lines, compare numbers with a tolerance.

// Each test binary uses a different subset of the helpers.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What one run of the binary gave.
pub struct Run {
    pub code: i32,
    pub lines: Vec<Value>,
    pub stdout: String,
    pub stderr: String,
}

/// The built `kollide` binary with `args`, its standard input and output piped.
pub fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kollide"));
    command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped());
    command
}

/// Runs `kollide ARGS` with `stdin` as its input.
pub fn kollide(args: &[&str], stdin: &str) -> Run {
    let mut child = command(args).stderr(Stdio::piped()).spawn().expect("spawn kollide");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_string();
    // Written from a thread so a large input cannot deadlock against a full stdout pipe.
    let writer = std::thread::spawn(move || pipe.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("wait for kollide");
    writer.join().expect("writer thread").expect("write stdin");
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    // `query` and `move` write only JSON lines; `demo` writes text for people.
    let lines = if matches!(args.first(), Some(&"query" | &"move")) {
        stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
    } else {
        Vec::new()
    };
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    // A panic exits with 101 (and a signal gives None): both are failures of "never panic".
    Run { code: out.status.code().expect("exited normally, not by a signal"), lines, stdout, stderr }
}

/// Runs queries given as JSON values, one per line, with extra args (`--f32`).
pub fn ask(queries: &[Value], args: &[&str]) -> Run {
    let text: String = queries.iter().map(|q| format!("{q}\n")).collect();
    let mut all = vec!["query"];
    all.extend_from_slice(args);
    kollide(&all, &text)
}

/// The number `v[key]`.
pub fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} is not a number in {v}"))
}

/// The array of numbers `v[key]`.
pub fn vec_of(v: &Value, key: &str) -> Vec<f64> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is not an array in {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Asserts `|got - want| <= tol`, printing the difference.
#[track_caller]
pub fn close(what: &str, got: f64, want: f64, tol: f64) {
    let diff = (got - want).abs();
    assert!(diff <= tol, "{what}: got {got}, want {want}, differ by {diff:e} > {tol:e}");
}

/// [`close`] for each component.
#[track_caller]
pub fn close_vec(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        close(&format!("{what}[{i}]"), *g, *w, tol);
    }
}

/// A body without rotation.
pub fn body(shape: Value, translation: &[f64]) -> Value {
    json!({ "shape": shape, "translation": translation })
}

/// A query line as JSON.
pub fn query(kind: &str, a: Value, b: Value) -> Value {
    json!({ "query": kind, "a": a, "b": b })
}

/// A fixed-seed generator (SplitMix64), so the sample is the same on every run.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// The precisions, with the tolerance a distance of size ~10 is answered to.
pub const PRECISIONS: [(&[&str], f64); 2] = [(&[], 1e-12), (&["--f32"], 2e-5)];

/// A valid 3D query line, as text, to break one field of.
pub const GOOD3: &str = r#"{"query": "distance", "a": {"shape": {"type": "ball", "radius": 1}, "translation": [0, 0, 0]}, "b": {"shape": {"type": "cuboid", "half_extents": [1, 1, 1]}, "translation": [3, 0, 0]}}"#;
/// A valid 2D query line.
pub const GOOD2: &str = r#"{"query": "intersects", "a": {"shape": {"type": "circle", "radius": 1}, "translation": [0, 0]}, "b": {"shape": {"type": "convex_polygon", "points": [[0, 0], [1, 0], [0, 1]]}, "translation": [3, 0], "angle": 0.5}}"#;

/// `examples/queries.jsonl` at the repository root.
pub fn examples_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/queries.jsonl")
}
