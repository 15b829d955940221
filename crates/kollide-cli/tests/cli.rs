//! The `kollide` binary, run as a user runs it: JSON lines on stdin, JSON lines on stdout.
//!
//! Answers are checked against closed-form truth (ball-ball, axis-aligned boxes, a circle
//! and a rectangle), not against the library. Malformed input is in `errors.rs`.

mod common;

use common::*;
use serde_json::{json, Value};
use std::io::Write;

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
fn convex_hull_of_box_corners_is_that_box() {
    // The 8 corners of a box (half extents h) plus points inside and on its faces: the hull
    // is the box, so the distance to a ball is |p - clamp(p)| - r. The box is turned a
    // quarter turn about z, which swaps its x and y extents.
    let h = [0.5, 1.0, 1.5];
    let mut points: Vec<[f64; 3]> = Vec::new();
    for i in 0..8 {
        points.push([0, 1, 2].map(|k| if i >> k & 1 == 1 { h[k] } else { -h[k] }));
    }
    points.extend([[0.0, 0.0, 0.0], [0.1, -0.2, 0.3], [0.5, 0.0, 0.0], [0.0, 1.0, 1.5]]);
    let quarter = std::f64::consts::FRAC_1_SQRT_2;
    let hull = json!({"shape": {"type": "convex_hull", "points": points}, "translation": [1.0, 2.0, 3.0],
                      "rotation": [0.0, 0.0, quarter, quarter]});
    let world_half = [h[1], h[0], h[2]];
    for (args, tol) in PRECISIONS {
        let mut rng = Rng(11);
        let centres: Vec<[f64; 3]> =
            (0..40).map(|_| [rng.range(-1.0, 3.0), rng.range(0.0, 4.0), rng.range(0.0, 6.0)]).collect();
        let queries: Vec<Value> = centres
            .iter()
            .map(|c| query("distance", hull.clone(), body(json!({"type": "ball", "radius": 0.25}), c)))
            .collect();
        let run = ask(&queries, args);
        assert_eq!(run.code, 0, "{}", run.stdout);
        let mut separated = 0;
        for (out, c) in run.lines.iter().zip(&centres) {
            let local = [c[0] - 1.0, c[1] - 2.0, c[2] - 3.0];
            let outside =
                (0..3).map(|k| (local[k].abs() - world_half[k]).max(0.0)).map(|d| d * d).sum::<f64>();
            let want = (outside.sqrt() - 0.25).max(0.0);
            close(&format!("distance to {c:?}"), num(out, "distance"), want, tol);
            separated += usize::from(want > 0.0);
        }
        assert!((8..36).contains(&separated), "{separated} of 40 separated");
    }
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
        for (q, out) in queries.iter().zip(&run.lines) {
            assert!(out.get("error").is_none(), "{out}");
            // The continuous queries of the examples all hit something.
            let ok = match q["query"].as_str().unwrap() {
                "ray" | "cast" | "sweep" => out["status"] == "hit",
                _ => out.get("intersects").is_some() || out["status"] == "converged",
            };
            assert!(ok, "{q}\n{out}");
        }
    }
    // A variety: every shape type, both dimensions, every query, a rounded shape.
    let types: Vec<&str> = queries
        .iter()
        .flat_map(|q| ["a", "b", "mover"].map(|k| q.get(k).map(|b| b["shape"]["type"].as_str().unwrap())))
        .flatten()
        .collect();
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
        "convex_hull",
    ];
    for t in every {
        assert!(types.contains(&t), "examples lack a {t}");
    }
    for query in ["intersects", "distance", "contact", "manifold", "ray", "cast", "sweep"] {
        let dims: Vec<usize> = queries
            .iter()
            .filter(|q| q["query"] == query)
            .filter_map(|q| ["a", "b", "mover"].iter().find_map(|k| q.get(*k)))
            .map(|body| body["translation"].as_array().unwrap().len())
            .collect();
        assert!(!dims.is_empty(), "examples lack a {query} query");
        if ["intersects", "distance", "ray", "cast", "sweep"].contains(&query) {
            assert!(dims.contains(&2) && dims.contains(&3), "{query}: 2D and 3D examples");
        }
    }
    assert!(queries
        .iter()
        .any(|q| ["a", "b"].iter().any(|k| q.get(*k).is_some_and(|b| b["shape"].get("round").is_some()))));
}

#[test]
fn demo_shows_every_example_with_its_answer() {
    let run = kollide(&["demo", "--queries"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(examples_path()).unwrap();
    let count = text.lines().filter(|l| !l.trim().is_empty()).count();
    assert_eq!(run.stdout.matches("\n> {").count(), count);
    assert_eq!(run.stdout.matches("\n{\"line\":").count(), count);
    assert!(!run.stdout.contains("\"error\""));
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
    let mut child = command(&["query"]).spawn().unwrap();
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
