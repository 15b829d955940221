//! The `kollide` binary, run as a user runs it: JSON lines on stdin, JSON lines on stdout.
//!
//! Answers are checked against closed-form truth (ball-ball, axis-aligned boxes, a circle
//! and a rectangle), not against the library; errors against the field they must name.

use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What one run of the binary gave.
struct Run {
    code: i32,
    lines: Vec<Value>,
    stdout: String,
    stderr: String,
}

/// Runs `kollide ARGS` with `stdin` as its input.
fn kollide(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kollide"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn kollide");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_string();
    // Written from a thread so a large input cannot deadlock against a full stdout pipe.
    let writer = std::thread::spawn(move || pipe.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("wait for kollide");
    writer.join().expect("writer thread").expect("write stdin");
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    // `query` writes only JSON lines; `demo` writes text for people.
    let lines = if args.first() == Some(&"query") {
        stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
    } else {
        Vec::new()
    };
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    // A panic exits with 101 (and a signal gives None): both are failures of "never panic".
    Run { code: out.status.code().expect("exited normally, not by a signal"), lines, stdout, stderr }
}

/// Runs queries given as JSON values, one per line, with extra args (`--f32`).
fn ask(queries: &[Value], args: &[&str]) -> Run {
    let text: String = queries.iter().map(|q| format!("{q}\n")).collect();
    let mut all = vec!["query"];
    all.extend_from_slice(args);
    kollide(&all, &text)
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} is not a number in {v}"))
}

fn vec_of(v: &Value, key: &str) -> Vec<f64> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is not an array in {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Asserts `|got - want| <= tol`, printing the difference.
#[track_caller]
fn close(what: &str, got: f64, want: f64, tol: f64) {
    let diff = (got - want).abs();
    assert!(diff <= tol, "{what}: got {got}, want {want}, differ by {diff:e} > {tol:e}");
}

#[track_caller]
fn close_vec(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        close(&format!("{what}[{i}]"), *g, *w, tol);
    }
}

fn body(shape: Value, translation: &[f64]) -> Value {
    json!({ "shape": shape, "translation": translation })
}

fn query(kind: &str, a: Value, b: Value) -> Value {
    json!({ "query": kind, "a": a, "b": b })
}

/// A fixed-seed generator (SplitMix64), so the sample is the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// The precisions, with the tolerance a distance of size ~10 is answered to.
const PRECISIONS: [(&[&str], f64); 2] = [(&[], 1e-12), (&["--f32"], 2e-5)];

#[test]
fn ball_ball_distance_is_center_distance_minus_radii() {
    for (args, tol) in PRECISIONS {
        let mut rng = Rng(7);
        let mut cases = Vec::new();
        for _ in 0..50 {
            let c1: Vec<f64> = (0..3).map(|_| rng.range(-2.0, 2.0)).collect();
            let c2: Vec<f64> = (0..3).map(|_| rng.range(-2.0, 2.0)).collect();
            let (r1, r2) = (rng.range(0.1, 2.0), rng.range(0.1, 2.0));
            cases.push((c1, c2, r1, r2));
        }
        let queries: Vec<Value> = cases
            .iter()
            .map(|(c1, c2, r1, r2)| {
                // A rotation must not move a ball's centre.
                let a = json!({ "shape": {"type": "ball", "radius": r1}, "translation": c1,
                                "rotation": [0.5, 0.5, 0.5, 0.5] });
                query("distance", a, body(json!({"type": "ball", "radius": r2}), c2))
            })
            .collect();
        let run = ask(&queries, args);
        assert_eq!(run.code, 0, "{}", run.stdout);
        let mut separated = 0;
        for (out, (c1, c2, r1, r2)) in run.lines.iter().zip(&cases) {
            let gap: Vec<f64> = (0..3).map(|i| c2[i] - c1[i]).collect();
            let len = gap.iter().map(|x| x * x).sum::<f64>().sqrt();
            let want = (len - r1 - r2).max(0.0);
            close("distance", num(out, "distance"), want, tol);
            assert!(num(out, "lower_bound") <= want + tol && want <= num(out, "upper_bound") + tol, "{out}");
            if want > 0.0 {
                separated += 1;
                assert_eq!(out["status"], "converged", "{out}");
                let n: Vec<f64> = gap.iter().map(|x| x / len).collect();
                close_vec("normal", &vec_of(out, "normal"), &n, tol);
                let pa: Vec<f64> = (0..3).map(|i| c1[i] + n[i] * r1).collect();
                let pb: Vec<f64> = (0..3).map(|i| c2[i] - n[i] * r2).collect();
                close_vec("point_a", &vec_of(out, "point_a"), &pa, tol);
                close_vec("point_b", &vec_of(out, "point_b"), &pb, tol);
            } else {
                assert_eq!(out["status"], "overlapping", "{out}");
            }
        }
        // The sample covers both outcomes.
        assert!((10..45).contains(&separated), "{separated} of 50 separated");
    }
}

#[test]
fn axis_aligned_cuboids_separated_along_x() {
    for (args, tol) in PRECISIONS {
        let (h1, h2) = ([1.0, 0.5, 2.0], [0.25, 1.5, 0.75]);
        let cube = |h: [f64; 3]| json!({"type": "cuboid", "half_extents": h});
        let mut queries = Vec::new();
        // Separated along x only: the y and z spans overlap (the last two share B's centre
        // line with A's, a symmetric case GJK must not trip on).
        let offsets =
            [[3.0, 0.2, -0.4], [1.5, -1.0, 1.0], [10.0, 1.9, 2.7], [1.3, 0.0, 0.0], [2.0, 0.0, 0.5]];
        for c2 in offsets {
            let a = body(cube(h1), &[0.5, -1.0, 2.0]);
            let b = body(cube(h2), &[0.5 + c2[0], -1.0 + c2[1], 2.0 + c2[2]]);
            queries.push(query("distance", a.clone(), b.clone()));
            queries.push(query("intersects", a, b));
        }
        let run = ask(&queries, args);
        assert_eq!(run.code, 0, "{}", run.stdout);
        for (pair, c2) in run.lines.chunks(2).zip(offsets) {
            let want = c2[0] - h1[0] - h2[0];
            let (dist, hit) = (&pair[0], &pair[1]);
            assert_eq!(hit["intersects"], false, "{hit} for offset {c2:?}");
            assert_eq!(dist["status"], "converged", "{dist}");
            close("distance", num(dist, "distance"), want, tol);
            close_vec("normal", &vec_of(dist, "normal"), &[1.0, 0.0, 0.0], tol);
            let (pa, pb) = (vec_of(dist, "point_a"), vec_of(dist, "point_b"));
            close("point_a.x", pa[0], 0.5 + h1[0], tol);
            close("point_b.x", pb[0], 0.5 + c2[0] - h2[0], tol);
            // Across the gap the points face each other, inside both boxes' y and z spans.
            for i in 1..3 {
                close(&format!("point_b[{i}] - point_a[{i}]"), pb[i] - pa[i], 0.0, tol);
                let centre = [0.0, -1.0, 2.0][i];
                assert!((pa[i] - centre).abs() <= h1[i] + tol, "point_a {pa:?} outside A");
                assert!((pa[i] - centre - c2[i]).abs() <= h2[i] + tol, "point_a {pa:?} outside B's span");
            }
        }
    }
}

#[test]
fn circle_rectangle_2d() {
    // A 2x1 rectangle (half extents 2, 1) at (1, 1), and a circle of radius 0.5.
    let rect = |angle: f64| {
        json!({"shape": {"type": "rectangle", "half_extents": [2.0, 1.0]},
                                    "translation": [1.0, 1.0], "angle": angle})
    };
    let circle = |x: f64, y: f64| body(json!({"type": "circle", "radius": 0.5}), &[x, y]);
    let cases: Vec<(Value, f64, [f64; 2], [f64; 2])> = vec![
        // Facing the right side: distance along +x.
        (query("distance", rect(0.0), circle(5.0, 1.5)), 1.5, [1.0, 0.0], [3.0, 1.5]),
        // Facing the top side, from A = circle: the normal points from the circle down.
        (query("distance", circle(0.0, 4.0), rect(0.0)), 1.5, [0.0, -1.0], [0.0, 2.0]),
        // The corner region: the corner (3, 2) is 5 from (6, 6); the normal is (3, 4) / 5.
        (query("distance", rect(0.0), circle(6.0, 6.0)), 4.5, [0.6, 0.8], [3.0, 2.0]),
        // Turned a quarter turn, the rectangle's half extents swap: its right side is x = 2.
        (query("distance", rect(std::f64::consts::FRAC_PI_2), circle(4.0, 0.0)), 1.5, [1.0, 0.0], [2.0, 0.0]),
    ];
    for (args, tol) in PRECISIONS {
        let queries: Vec<Value> = cases.iter().map(|c| c.0.clone()).collect();
        let run = ask(&queries, args);
        assert_eq!(run.code, 0, "{}", run.stdout);
        for (out, (q, d, n, on_rect)) in run.lines.iter().zip(&cases) {
            close(&format!("distance of {q}"), num(out, "distance"), *d, tol);
            close_vec("normal", &vec_of(out, "normal"), n, tol);
            let rect_is_a = q["a"]["shape"]["type"] == "rectangle";
            let rect_point = vec_of(out, if rect_is_a { "point_a" } else { "point_b" });
            // The top side has no single closest point: only its y is determined.
            if n[1] == -1.0 {
                close("point on rectangle y", rect_point[1], on_rect[1], tol);
            } else {
                close_vec("point on rectangle", &rect_point, on_rect, tol);
            }
        }
    }
    let hits = ask(
        &[query("intersects", rect(0.3), circle(3.2, 1.0)), query("intersects", rect(0.0), circle(3.6, 1.0))],
        &[],
    );
    assert_eq!(
        hits.lines,
        vec![json!({"line": 1, "intersects": true}), json!({"line": 2, "intersects": false})]
    );
}

#[test]
fn f32_flag_computes_in_f32_and_prints_f32_numbers() {
    let q = query(
        "distance",
        body(json!({"type": "ball", "radius": 0.1}), &[0.0, 0.0, 0.0]),
        body(json!({"type": "ball", "radius": 0.2}), &[0.3, 0.4, 0.0]),
    );
    let (f64_run, f32_run) = (ask(std::slice::from_ref(&q), &[]), ask(&[q], &["--f32"]));
    assert_eq!((f64_run.code, f32_run.code), (0, 0));
    let (a, b) = (&f64_run.lines[0], &f32_run.lines[0]);
    close("f32 vs f64 distance", num(b, "distance"), num(a, "distance"), 1e-6);
    // f32 bounds are wider (rounding of f32 arithmetic) but still hold.
    let width = |v: &Value| num(v, "upper_bound") - num(v, "lower_bound");
    assert!(width(b) > width(a), "f32 {b} should have wider bounds than f64 {a}");
    // f32 results print as the shortest text that reads back as the same f32
    // (0.060000002), not as that f32 widened to f64 (0.06000000223517418).
    let point: Vec<&str> =
        f32_run.stdout.split("\"point_a\":[").nth(1).unwrap().split(']').next().unwrap().split(',').collect();
    assert_eq!(point.len(), 3);
    for text in point {
        assert!(text.len() <= 12, "{text} is not a short f32: {}", f32_run.stdout);
        let x: f32 = text.parse().unwrap();
        assert_eq!(serde_json::to_string(&x).unwrap(), text);
    }
    // What fits f64 may overflow f32: named there, answered here.
    let huge = query(
        "distance",
        body(json!({"type": "ball", "radius": 1e39}), &[0.0, 0.0, 0.0]),
        body(json!({"type": "ball", "radius": 1.0}), &[0.0, 0.0, 0.0]),
    );
    assert_eq!(ask(std::slice::from_ref(&huge), &[]).code, 0);
    let r = ask(&[huge], &["--f32"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.lines[0]["error"], "a.shape.radius: 1e39 is out of range for f32");
}

/// A valid 3D query line, as text, to break one field of.
const GOOD3: &str = r#"{"query": "distance", "a": {"shape": {"type": "ball", "radius": 1}, "translation": [0, 0, 0]}, "b": {"shape": {"type": "cuboid", "half_extents": [1, 1, 1]}, "translation": [3, 0, 0]}}"#;
/// A valid 2D query line.
const GOOD2: &str = r#"{"query": "intersects", "a": {"shape": {"type": "circle", "radius": 1}, "translation": [0, 0]}, "b": {"shape": {"type": "convex_polygon", "points": [[0, 0], [1, 0], [0, 1]]}, "translation": [3, 0], "angle": 0.5}}"#;

#[test]
fn malformed_lines_name_what_is_wrong_and_the_rest_are_answered() {
    let cases: &[(&str, &str, &str)] = &[
        // (line, replace this, with this) applied to GOOD3 or GOOD2 -> the whole error.
        ("3", r#""radius": 1"#, r#""radius": -1"#),
        ("3", "[3, 0, 0]", "[3, 0, 0, 1]"),
        ("3", r#""translation": [0, 0, 0]"#, r#""translation": [0, 0, 0], "rotation": [0, 0, 0, 2]"#),
        ("3", r#""query": "distance""#, r#""query": "closest""#),
        ("3", r#""type": "ball""#, r#""type": "sphere""#),
        ("3", r#""half_extents": [1, 1, 1]"#, r#""half_extent": [1, 1, 1]"#),
        ("3", r#""half_extents": [1, 1, 1]"#, r#""half_extents": [1, 0, 1]"#),
        ("3", r#""radius": 1"#, r#""radius": 1e999"#),
        ("3", r#""radius": 1"#, r#""radius": null"#),
        ("3", r#""radius": 1"#, r#""radius": "1""#),
        ("3", "[3, 0, 0]", "[3, 0]"),
        ("3", r#""type": "ball""#, r#""type": "circle""#),
        ("3", r#""radius": 1}"#, r#""radius": 1, "round": -0.5}"#),
        ("3", r#""radius": 1}"#, r#""radius": 1, "rounded": 0.5}"#),
        ("3", r#""translation": [0, 0, 0]"#, r#""translation": [0, 0, 0], "rotation": [0, 0, 1]"#),
        ("3", r#""translation": [0, 0, 0]"#, r#""position": [0, 0, 0]"#),
        ("3", r#""query": "distance", "#, ""),
        ("2", r#""type": "circle""#, r#""type": "ball""#),
        ("2", r#""type": "circle", "radius": 1"#, r#""type": "cylinder", "half_height": 1, "radius": 1"#),
        ("2", r#""angle": 0.5"#, r#""rotation": [0, 0, 0, 1]"#),
        ("2", "[[0, 0], [1, 0], [0, 1]]", "[[0, 0], [1, 0, 0], [0, 1]]"),
        ("2", "[[0, 0], [1, 0], [0, 1]]", "[[0, 0], [1, 1], [2, 2]]"),
        ("2", "[[0, 0], [1, 0], [0, 1]]", "[[0, 0], [1, 0]]"),
        ("2", r#""angle": 0.5"#, r#""angle": [0.5]"#),
        ("2", r#""query": "intersects""#, r#""query": 3"#),
    ];
    let want = [
        "a.shape.radius: must be > 0, got -1",
        "b.translation: expected 2 or 3 numbers, got 4",
        "a.rotation: rotation norm is 2, not 1 (within 0.0001): not a unit quaternion / complex",
        "query: unknown query \"closest\" (expected \"intersects\" or \"distance\")",
        "a.shape.type: unknown shape type \"sphere\" (3D shapes: ball, cuboid, capsule, cylinder, cone, ellipsoid, segment, triangle, convex_hull)",
        "b.shape.half_extent: unknown field for a cuboid (expected type, half_extents, round)",
        "b.shape.half_extents[1]: must be > 0, got 0",
        "invalid JSON at column 69: number out of range (every number must be finite and within f64 range; JSON has no NaN or infinity)",
        "a.shape.radius: expected a number, got null (JSON has no NaN or infinity, and serializers write them as null)",
        "a.shape.radius: expected a number, got a string",
        "b.translation: has 2 numbers but a.translation has 3: both bodies must be 2D or both 3D",
        "a.shape.type: \"circle\" is a 2D shape but this body is 3D (its translation has 3 numbers); use \"ball\"",
        "a.shape.round: must be >= 0, got -0.5",
        "a.shape.rounded: unknown field for a ball (expected type, radius, round)",
        "a.rotation: expected 4 numbers [x, y, z, w] (a unit quaternion), got 3",
        "a.position: unknown field for a body (expected shape, translation, rotation, angle)",
        "query: missing field",
        "a.shape.type: \"ball\" is a 3D shape but this body is 2D (its translation has 2 numbers); use \"circle\"",
        "a.shape.type: \"cylinder\" is a 3D shape but this body is 2D (its translation has 2 numbers) (2D shapes: circle, rectangle, capsule, ellipse, segment, triangle, convex_polygon)",
        "b.rotation: unknown field for a 2D body (expected shape, translation, angle)",
        "b.shape.points[1]: expected 2 numbers, got 3",
        "b.shape.points: all 3 points are collinear: the polygon would have no area",
        "b.shape.points: 2 points given, at least 3 needed",
        "b.angle: expected a number, got an array",
        "query: expected a string, got a number",
    ];
    assert_eq!(cases.len(), want.len());
    // Each bad line between two good ones: the good ones are still answered.
    let mut text = String::new();
    for (dim, from, to) in cases {
        let good = if *dim == "3" { GOOD3 } else { GOOD2 };
        assert!(good.contains(from), "{from} not in the {dim}D line");
        text += &format!("{good}\n{}\n", good.replacen(from, to, 1));
    }
    text += GOOD2;
    let run = kollide(&["query"], &text);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(run.lines.len(), 2 * cases.len() + 1);
    for (i, out) in run.lines.iter().enumerate() {
        assert_eq!(out["line"], i + 1);
        if i % 2 == 0 {
            assert!(out.get("error").is_none(), "line {} should be answered: {out}", i + 1);
        } else {
            assert_eq!(out["error"], want[i / 2], "line {}", i + 1);
        }
    }
}

#[test]
fn exit_codes_and_unreadable_input() {
    assert_eq!(kollide(&["query"], &format!("{GOOD3}\n{GOOD2}\n")).code, 0);
    assert_eq!(kollide(&["query", "-"], &format!("{GOOD3}\n")).code, 0);
    assert_eq!(kollide(&["query"], "").code, 0);
    let bad = kollide(&["query"], "hello\n");
    assert_eq!(bad.code, 1);
    assert_eq!(bad.lines[0]["error"], "invalid JSON at column 1: expected value", "{}", bad.stdout);
    let array = kollide(&["query"], &format!("[{GOOD2}]\n"));
    assert_eq!(array.lines[0]["error"], "expected the line to be a JSON object, got an array");
    for path in ["/nonexistent/queries.jsonl", env!("CARGO_MANIFEST_DIR")] {
        let r = kollide(&["query", path], "");
        assert_eq!(r.code, 2, "{path}");
        assert!(r.stderr.contains(path) && r.stdout.is_empty(), "{path}: {}", r.stderr);
    }
    // Usage errors come from clap, also with 2.
    assert_eq!(kollide(&["query", "--f16"], "").code, 2);
}

#[test]
fn lines_are_numbered_from_one_counting_blank_lines() {
    let text = format!("\n   \n{GOOD3}\n\n{GOOD2}\r\n\t\n{{oops\n\u{feff}\n{GOOD3}");
    let run = kollide(&["query"], &text);
    assert_eq!(run.code, 1);
    let numbers: Vec<u64> = run.lines.iter().map(|l| l["line"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [3, 5, 7, 8, 9]);
    assert!(run.lines[2]["error"].as_str().unwrap().starts_with("invalid JSON"));
    // A byte-order mark is only skipped at the start of the input.
    assert!(run.lines[3]["error"].as_str().unwrap().starts_with("invalid JSON"));
    let bom = kollide(&["query"], &format!("\u{feff}{GOOD2}\n"));
    assert_eq!((bom.code, bom.lines[0]["intersects"].as_bool()), (0, Some(false)));
}

#[test]
fn invalid_utf8_is_an_error_line_not_a_crash() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kollide"))
        .arg("query")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = format!("{GOOD2}\n").into_bytes();
    input.extend_from_slice(b"{\"query\": \"\xff\"}\n");
    input.extend_from_slice(GOOD2.as_bytes());
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1], json!({"line": 2, "error": "line is not valid UTF-8 (bad byte at column 12)"}));
}

fn examples_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/queries.jsonl")
}

#[test]
fn the_examples_file_runs_clean_and_shows_every_shape() {
    let path = examples_path();
    let text = std::fs::read_to_string(&path).expect("examples/queries.jsonl");
    let queries: Vec<Value> =
        text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect();
    for args in [&[][..], &["--f32"][..]] {
        let mut all = vec!["query", path.to_str().unwrap()];
        all.extend_from_slice(args);
        let run = kollide(&all, "");
        assert_eq!(run.code, 0, "{args:?}: {}", run.stdout);
        assert_eq!(run.lines.len(), queries.len(), "every line answered");
        for out in &run.lines {
            assert!(out.get("error").is_none(), "{out}");
            assert!(out.get("intersects").is_some() || out["status"] == "converged", "{out}");
        }
    }
    // A variety: every shape type, both dimensions, both queries, a rounded shape.
    let types: Vec<&str> =
        queries.iter().flat_map(|q| ["a", "b"].map(|k| q[k]["shape"]["type"].as_str().unwrap())).collect();
    let every = [
        "ball",
        "circle",
        "cuboid",
        "rectangle",
        "capsule",
        "cylinder",
        "cone",
        "ellipsoid",
        "ellipse",
        "segment",
        "triangle",
        "convex_polygon",
    ];
    for t in every {
        assert!(types.contains(&t), "examples lack a {t}");
    }
    let dims: Vec<usize> = queries.iter().map(|q| q["a"]["translation"].as_array().unwrap().len()).collect();
    assert!(dims.contains(&2) && dims.contains(&3));
    assert!(
        queries.iter().any(|q| q["query"] == "intersects")
            && queries.iter().any(|q| q["query"] == "distance")
    );
    assert!(queries
        .iter()
        .any(|q| q["a"]["shape"].get("round").is_some() || q["b"]["shape"].get("round").is_some()));
}

#[test]
fn demo_shows_every_example_with_its_answer() {
    let run = kollide(&["demo"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(examples_path()).unwrap();
    let count = text.lines().filter(|l| !l.trim().is_empty()).count();
    assert_eq!(run.stdout.matches("\n> {").count(), count);
    assert_eq!(run.stdout.matches("\n{\"line\":").count(), count);
    assert!(!run.stdout.contains("\"error\""));
}

/// Never panic on any input: every example line cut at every byte, and every number in it
/// replaced by awkward values, gets exactly one answer line with its own number.
#[test]
fn mangled_lines_never_crash() {
    let text = std::fs::read_to_string(examples_path()).unwrap();
    let awkward =
        ["-1", "0", "1e-320", "1e39", "1e308", "-1e308", "null", "\"x\"", "[]", "{}", "[1, 2, 3, 4]"];
    let mut lines = Vec::new();
    for line in text.lines().chain([GOOD2, GOOD3]) {
        lines
            .extend(line.char_indices().map(|(i, _)| line[..i].to_string()).filter(|l| !l.trim().is_empty()));
        let numbers: Vec<(usize, usize)> = number_spans(line);
        for &(s, e) in &numbers {
            lines.extend(awkward.iter().map(|w| format!("{}{w}{}", &line[..s], &line[e..])));
        }
    }
    for args in [&[][..], &["--f32"][..]] {
        let mut all = vec!["query"];
        all.extend_from_slice(args);
        let run = kollide(&all, &(lines.join("\n") + "\n"));
        assert!(run.code == 0 || run.code == 1, "exit {}: {}", run.code, run.stderr);
        assert_eq!(run.lines.len(), lines.len());
        for (i, out) in run.lines.iter().enumerate() {
            assert_eq!(out["line"], i + 1, "{out}");
            let has = |k: &str| out.get(k).is_some();
            assert!(has("error") || has("intersects") || has("distance"), "{out}");
            // Never a made-up answer: no null (non-finite) number in an answer.
            assert!(
                has("error") || !out.to_string().contains("null"),
                "non-finite answer for {}: {out}",
                lines[i]
            );
        }
    }
}

/// Byte spans of the JSON numbers in `line` (outside strings).
fn number_spans(line: &str) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let (mut spans, mut i, mut in_string) = (Vec::new(), 0, false);
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            in_string = !in_string;
        } else if !in_string && (c == b'-' || c.is_ascii_digit()) {
            let start = i;
            while i < b.len() && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                i += 1;
            }
            spans.push((start, i));
            continue;
        }
        i += 1;
    }
    spans
}

/// Regression, found while writing this tool and fixed on main by 9cbc39a ("GJK near
/// contact"): in 3D, overlapping axis-aligned boxes whose centres line up on an axis
/// (offset `(x, 0, 0)`, 0 < x < overlap) were reported as not intersecting, and `distance`
/// answered ~1e-16 with status `converged` and an arbitrary normal instead of 0 and
/// `overlapping`: GJK stopped with the origin on a face of its simplex and |v| at rounding
/// level, which `intersection_test` compared with a radius of exactly 0.
#[test]
fn overlapping_aligned_cuboids_intersect() {
    let cube = |h: [f64; 3], t: [f64; 3]| body(json!({"type": "cuboid", "half_extents": h}), &t);
    let mut queries = Vec::new();
    for x in [0.0, 0.5, 1.0, 1.2] {
        let (a, b) = (cube([1.0, 0.5, 2.0], [0.5, -1.0, 2.0]), cube([0.25, 1.5, 0.75], [0.5 + x, -1.0, 2.0]));
        queries.push(query("intersects", a.clone(), b.clone()));
        queries.push(query("distance", a, b));
    }
    for args in [&[][..], &["--f32"][..]] {
        let run = ask(&queries, args);
        for pair in run.lines.chunks(2) {
            assert_eq!(pair[0]["intersects"], true, "{}", pair[0]);
            assert_eq!(pair[1]["status"], "overlapping", "{}", pair[1]);
            // Overlap is distance 0, up to rounding ("a few ulps" in the library's docs).
            close("distance", num(&pair[1], "distance"), 0.0, 1e-6);
        }
    }
}

/// A program driving the tool line by line gets each answer before it sends the next query
/// (the output is flushed whenever the input has nothing more buffered).
#[test]
fn answers_stream_line_by_line() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_kollide"))
        .arg("query")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    for n in 1..=3 {
        writeln!(stdin, "{GOOD2}").unwrap();
        stdin.flush().unwrap();
        let answer =
            rx.recv_timeout(std::time::Duration::from_secs(20)).expect("answer before the next query");
        assert!(answer.starts_with(&format!("{{\"line\":{n},")), "{answer}");
    }
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(0));
    reader.join().unwrap();
}
