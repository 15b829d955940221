//! Malformed input: every error names what is wrong, the other lines are still answered,
//! and no input makes the tool crash.

mod common;

use common::*;
use serde_json::{json, Value};
use std::io::Write;

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
        ("3", r#"{"type": "ball", "radius": 1}"#, "3"),
        (
            "3",
            r#""type": "cuboid", "half_extents": [1, 1, 1]"#,
            r#""type": "convex_hull", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]"#,
        ),
        (
            "3",
            r#""type": "cuboid", "half_extents": [1, 1, 1]"#,
            r#""type": "convex_hull", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]"#,
        ),
        (
            "3",
            r#""type": "cuboid", "half_extents": [1, 1, 1]"#,
            r#""type": "convex_polygon", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]"#,
        ),
        ("2", r#""type": "circle""#, r#""type": "ball""#),
        ("2", r#""type": "convex_polygon""#, r#""type": "convex_hull""#),
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
        "query: unknown query \"closest\" (expected \"intersects\", \"distance\", \"contact\", \"manifold\", \"ray\", \"cast\" or \"sweep\")",
        "a.shape.type: unknown shape type \"sphere\" (3D shapes: ball, cuboid, capsule, cylinder, cone, ellipsoid, segment, triangle, convex_hull, trimesh, heightfield, compound)",
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
        "a.shape: expected a JSON object, got a number",
        "b.shape.points: all 4 points are coplanar: the hull would have no volume",
        "b.shape.points: 3 points given, at least 4 needed",
        "b.shape.type: \"convex_polygon\" is a 2D shape but this body is 3D (its translation has 3 numbers); use \"convex_hull\"",
        "a.shape.type: \"ball\" is a 3D shape but this body is 2D (its translation has 2 numbers); use \"circle\"",
        "b.shape.type: \"convex_hull\" is a 3D shape but this body is 2D (its translation has 2 numbers); use \"convex_polygon\"",
        "a.shape.type: \"cylinder\" is a 3D shape but this body is 2D (its translation has 2 numbers) (2D shapes: circle, rectangle, capsule, ellipse, segment, triangle, convex_polygon, polyline, heightfield, compound, concave_polygon)",
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
fn invalid_utf8_is_an_error_line_not_a_crash() {
    let mut child = command(&["query"]).spawn().unwrap();
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
            assert!(
                has("error")
                    || has("intersects")
                    || has("distance")
                    || has("contact")
                    || has("points")
                    || has("status"),
                "{out}"
            );
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

/// Probe F10: `NaN` and `Infinity` written as numbers get the same hint as a number out
/// of range (they were a bare "expected value"), and a number that underflows to 0 in f32
/// says so (it was "must be > 0, got 0").
#[test]
fn non_finite_words_and_underflow_are_explained() {
    let line = |radius: &str, t0: &str| {
        format!(
            "{{\"query\": \"distance\", \"a\": {{\"shape\": {{\"type\": \"ball\", \"radius\": {radius}}}, \"translation\": [{t0}, 0, 0]}}, \"b\": {{\"shape\": {{\"type\": \"ball\", \"radius\": 1}}, \"translation\": [3, 0, 0]}}}}\n"
        )
    };
    let input: String = [line("NaN", "0"), line("-Infinity", "0"), line("1", "Infinity")].concat();
    let run = kollide(&["query"], &input);
    assert_eq!(run.code, 1);
    for l in &run.lines {
        let e = l["error"].as_str().unwrap();
        assert!(e.contains("JSON has no NaN or infinity"), "{e}");
    }
    let run = kollide(&["query", "--f32"], &line("1e-320", "0"));
    assert_eq!(run.lines[0]["error"], "a.shape.radius: 1e-320 underflows to 0 in f32");
}

/// Probe F10: a field named twice was resolved silently to its last value (the README
/// promises that unknown or misspelt fields are refused, not ignored); now it is an error,
/// in `kollide query` and in a `kollide move` scene.
#[test]
fn a_field_named_twice_is_refused() {
    let q = "{\"query\": \"distance\", \"a\": {\"shape\": {\"type\": \"ball\", \"radius\": 1, \"radius\": -1}, \"translation\": [0, 0, 0]}, \"b\": {\"shape\": {\"type\": \"ball\", \"radius\": 1}, \"translation\": [3, 0, 0]}}\n";
    let run = kollide(&["query"], q);
    assert_eq!(run.code, 1);
    let e = run.lines[0]["error"].as_str().unwrap();
    assert!(e.contains("duplicate field \"radius\""), "{e}");
    let scene = "{\"world\": [], \"character\": {\"shape\": {\"type\": \"ball\", \"radius\": 1}, \"position\": [0, 0, 0]}, \"steps\": [], \"steps\": [[1, 0, 0]]}";
    let run = kollide(&["move", "-"], scene);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("duplicate field \"steps\""), "{}", run.stderr);
}

/// Points and soups are read without formatting a path per point (a million-point hull
/// spent a tenth of its time there); a bad point still gets its full path, in both
/// precisions, and a number that only `f32` cannot hold is still refused there.
#[test]
fn a_bad_point_deep_in_a_list_is_named_by_its_path() {
    let hull = |points: &str| {
        format!(
            "{{\"query\": \"distance\", \"a\": {{\"shape\": {{\"type\": \"convex_hull\", \"points\": {points}}}, \"translation\": [0, 0, 0]}}, \"b\": {{\"shape\": {{\"type\": \"ball\", \"radius\": 1}}, \"translation\": [3, 0, 0]}}}}\n"
        )
    };
    let sweep = |triangles: &str| {
        format!(
            "{{\"query\": \"sweep\", \"mover\": {{\"shape\": {{\"type\": \"ball\", \"radius\": 1}}, \"translation\": [0, 3, 0]}}, \"displacement\": [0, -3, 0], \"triangles\": {triangles}}}\n"
        )
    };
    let ok = "[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]";
    let cases = [
        (hull(&format!("{ok}, [1, \"2\", 3]]")), "a.shape.points[4][1]: expected a number, got a string"),
        (hull(&format!("{ok}, 7]")), "a.shape.points[4]: expected an array, got a number"),
        (hull(&format!("{ok}, [1, 2]]")), "a.shape.points[4]: expected 3 numbers, got 2"),
        (sweep("[[[0, 0, 0], [1, 0, 0], [0, 0, 1]], 5]"), "triangles[1]: expected an array, got a number"),
        (sweep("[[[0, 0, 0], [1, 0, 0]]]"), "triangles[0]: expected 3 points, got 2"),
        (sweep("[[[0, 0, 0], [1, 0, 0], [0, 0, null]]]"), "triangles[0][2][2]: expected a number, got null (JSON has no NaN or infinity, and serializers write them as null)"),
    ];
    for precision in [&["query"][..], &["query", "--f32"]] {
        for (line, want) in &cases {
            let run = kollide(precision, line);
            assert_eq!(run.lines[0]["error"], *want, "{line}");
        }
    }
    let run = kollide(&["query", "--f32"], &hull(&format!("{ok}, [1e39, 0, 0]]")));
    assert_eq!(run.lines[0]["error"], "a.shape.points[4][0]: 1e39 is out of range for f32");
    let run = kollide(&["query", "--f32"], &sweep("[[[0, 0, 0], [1e-50, 0, 0], [0, 0, 1]]]"));
    assert_eq!(run.lines[0]["error"], "triangles[0][1][0]: 1e-50 underflows to 0 in f32");
}

/// Long point lists are read from flat numbers, not JSON values (a million-point hull's
/// line held 130 MB of them): the answers and the errors are the same as for short lists.
/// 1,000 points, the corners of a box of half extents (1, 2, 3) over and over: the hull is
/// the box, √12 - 1 from a unit ball centred at (3, 4, 5). A bad point at index 700 is
/// named by its path, as is a list of 2D points given to a 3D query, in both precisions,
/// and so is a number only `f32` cannot hold.
#[test]
fn long_point_lists_answer_and_fail_as_short_ones() {
    let hull = |points: &[String]| {
        format!(
            "{{\"query\": \"distance\", \"a\": {{\"shape\": {{\"type\": \"convex_hull\", \"points\": [{}]}}, \"translation\": [0, 0, 0]}}, \"b\": {{\"shape\": {{\"type\": \"ball\", \"radius\": 1}}, \"translation\": [3, 4, 5]}}}}\n",
            points.join(", ")
        )
    };
    let corners: Vec<String> = (0..1000)
        .map(|i| format!("[{}, {}, {}]", 2 * (i & 1) - 1, 2 * (i & 2) - 2, 3 * (i & 4) / 2 - 3))
        .collect();
    for precision in [&["query"][..], &["query", "--f32"]] {
        let run = kollide(precision, &hull(&corners));
        let d = run.lines[0]["distance"].as_f64().unwrap_or_else(|| panic!("{:?}", run.lines));
        assert!((d - (12f64.sqrt() - 1.0)).abs() < 1e-6, "{d}");
        let with = |bad: &str| {
            let mut points = corners.clone();
            points[700] = bad.to_string();
            hull(&points)
        };
        let cases = [
            (with("[1, \"2\", 3]"), "a.shape.points[700][1]: expected a number, got a string"),
            (with("7"), "a.shape.points[700]: expected an array, got a number"),
            (with("[1, 2]"), "a.shape.points[700]: expected 3 numbers, got 2"),
            (hull(&vec!["[1, 2]".to_string(); 1000]), "a.shape.points[0]: expected 3 numbers, got 2"),
        ];
        for (line, want) in &cases {
            assert_eq!(kollide(precision, line).lines[0]["error"], *want);
        }
    }
    let mut points = corners.clone();
    points[700] = "[1e39, 0, 0]".to_string();
    let run = kollide(&["query", "--f32"], &hull(&points));
    assert_eq!(run.lines[0]["error"], "a.shape.points[700][0]: 1e39 is out of range for f32");
    points[700] = "[1e-50, 0, 0]".to_string();
    let run = kollide(&["query", "--f32"], &hull(&points));
    assert_eq!(run.lines[0]["error"], "a.shape.points[700][0]: 1e-50 underflows to 0 in f32");
}
