//! The examples in this crate's README are what the tool answers.
//!
//! Each `<!-- query ARGS -->` block of input lines is run through `kollide query ARGS` and
//! compared with the `<!-- answers -->` block after it: same fields and values, numbers to
//! within 1e-6 (so a change in the last digits of GJK does not fail the docs, but a wrong
//! answer, field or message does).

mod common;

use serde_json::Value;
use std::io::Write;

/// The fenced block right after the first line at or after `from` that starts with
/// `marker`: (the marker line, the block's text, where the block ends).
fn block_after(text: &str, marker: &str, from: usize) -> Option<(String, String, usize)> {
    let start = from + text[from..].find(marker)?;
    let line_end = start + text[start..].find('\n')?;
    let open = line_end + text[line_end..].find("```")?;
    let body_start = open + text[open..].find('\n')? + 1;
    let close = body_start + text[body_start..].find("```")?;
    Some((text[start..line_end].to_string(), text[body_start..close].to_string(), close + 3))
}

/// Runs `kollide ARGS` from the repository's root (where the examples' paths start).
fn run(args: &[&str], input: &str) -> (i32, String) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut child = common::command(args).current_dir(root).spawn().expect("spawn kollide");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code().expect("exited normally"), String::from_utf8(out.stdout).unwrap())
}

/// Same JSON, numbers within `1e-6`; `"..."` in the README stands for any value.
fn same(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (_, Value::String(w)) if w == "..." => true,
        (Value::Number(g), Value::Number(w)) => (g.as_f64().unwrap() - w.as_f64().unwrap()).abs() <= 1e-6,
        (Value::Array(g), Value::Array(w)) => g.len() == w.len() && g.iter().zip(w).all(|(g, w)| same(g, w)),
        (Value::Object(g), Value::Object(w)) => {
            g.len() == w.len() && g.iter().all(|(k, v)| w.get(k).is_some_and(|w| same(v, w)))
        }
        _ => got == want,
    }
}

#[test]
fn readme_examples_are_the_tools_answers() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut at = 0;
    let mut checked = 0;
    while let Some((marker, input, end)) = block_after(&readme, "<!-- query", at) {
        let (_, answers, end) = block_after(&readme, "<!-- answers -->", end).expect("answers block");
        at = end;
        let mut args = vec!["query"];
        args.extend(marker.trim_start_matches("<!-- query").trim_end_matches("-->").split_whitespace());
        let (code, out) = run(&args, &input);
        let want: Vec<Value> = answers.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let got: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(got.len(), want.len(), "{marker}: {out}");
        for (g, w) in got.iter().zip(&want) {
            assert!(same(g, w), "{marker}\n got: {g}\nwant: {w}");
        }
        let failed = want.iter().any(|w| w.get("error").is_some());
        assert_eq!(code, i32::from(failed), "{marker}");
        checked += 1;
    }
    assert_eq!(checked, 9, "README example blocks found");
}

/// Each `<!-- kollide ARGS -->` block is the JSON object `kollide ARGS` prints (`mesh-info`).
#[test]
fn readme_commands_print_what_is_shown() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut at = 0;
    let mut checked = 0;
    while let Some((marker, want, end)) = block_after(&readme, "<!-- kollide ", at) {
        at = end;
        let args: Vec<&str> =
            marker.trim_start_matches("<!-- kollide ").trim_end_matches("-->").split_whitespace().collect();
        let (code, out) = run(&args, "");
        assert_eq!(code, 0, "{marker}: {out}");
        let got: Value = serde_json::from_str(out.trim()).unwrap();
        let want: Value = serde_json::from_str(&want).unwrap();
        assert!(same(&got, &want), "{marker}\n got: {got}\nwant: {want}");
        checked += 1;
    }
    assert_eq!(checked, 1, "README command blocks found");
}
