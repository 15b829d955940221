//! `kollide query` with shapes kept across lines (`define` and `ref`), meshes read from
//! files (paths relative to the query file), batches in one line, and `kollide mesh-info`.
//!
//! The truths: a shape defined once answers exactly as the same shape given in full on
//! every line; a batch's answers are exactly the one-query lines' answers without `line`;
//! `mesh-info`'s counts are those of meshes built by hand.

mod common;

#[path = "../../kollide/examples/make_rock.rs"]
#[allow(dead_code)]
mod make_rock;

use common::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// A fresh folder under the system's temporary one.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kollide-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `kollide ARGS` in `cwd` with `stdin`.
fn run_in(cwd: &Path, args: &[&str], stdin: &str) -> Run {
    let mut child = command(args).current_dir(cwd).stderr(Stdio::piped()).spawn().expect("spawn kollide");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_string();
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut pipe, input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines = if args.first() == Some(&"query") {
        stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
    } else {
        Vec::new()
    };
    Run {
        code: out.status.code().expect("exited normally"),
        lines,
        stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn lines(queries: &[Value]) -> String {
    queries.iter().map(|q| format!("{q}\n")).collect()
}

/// The answer without its `line`.
fn unlined(v: &Value) -> Value {
    let mut v = v.clone();
    v.as_object_mut().unwrap().remove("line");
    v
}

/// A small rock (n = 5: 300 triangles) as OBJ text and as the trimesh JSON of the same
/// triangles over the same (welded) vertices.
fn small_rock() -> (String, Value) {
    let (v, t) = make_rock::rock(5);
    let text = make_rock::obj_text(&v, &t);
    // The vertices as the file writes them (6 decimals), so both read the same numbers.
    let written: Vec<[f64; 3]> = text
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let x: Vec<f64> = l.split(' ').map(|w| w.parse().unwrap()).collect();
            [x[0], x[1], x[2]]
        })
        .collect();
    (text, json!({"type": "trimesh", "vertices": written, "indices": t, "weld": "exact"}))
}

fn rock_body(shape: &Value, at: [f64; 3]) -> Value {
    json!({"shape": shape, "translation": at, "rotation": [0, 0.6, 0, 0.8]})
}

/// One line of each query against the rock, with the rock's shape `rock`.
fn queries_on(rock: &Value) -> Vec<Value> {
    let ball = |r: f64, at: [f64; 3]| json!({"shape": {"type": "ball", "radius": r}, "translation": at});
    let cube =
        json!({"shape": {"type": "cuboid", "half_extents": [0.3, 0.3, 0.3]}, "translation": [1.1, 0.2, 0.0]});
    let b = rock_body(rock, [0.1, -0.2, 0.3]);
    vec![
        json!({"query": "ray", "origin": [5, 0.3, 0.2], "direction": [-1, 0, 0], "b": b}),
        json!({"query": "ray", "origin": [0, 0.1, 0], "direction": [0, 1, 0.2], "b": b}),
        json!({"query": "distance", "a": b, "b": ball(0.4, [2.5, 0.0, 0.0])}),
        json!({"query": "intersects", "a": b, "b": cube}),
        json!({"query": "contact", "a": b, "b": ball(0.5, [0.1, 0.8, 0.3]), "margin": 0.1}),
        json!({"query": "manifold", "a": b, "b": cube, "margin": 0.05}),
        json!({"query": "cast", "a": ball(0.3, [0.0, 4.0, 0.0]), "b": b, "velocity_a": [0, -2, 0], "max_toi": 3}),
        json!({"query": "sweep", "mover": ball(0.3, [0.2, 4.0, 0.1]), "displacement": [0, -4, 0], "b": b}),
    ]
}

#[test]
fn a_defined_mesh_answers_as_the_mesh_given_on_every_line() {
    let dir = folder("define");
    let (text, inline) = small_rock();
    std::fs::write(dir.join("rock.obj"), &text).unwrap();
    let define = json!({"define": "rock", "shape": {"type": "trimesh", "file": "rock.obj"}});
    let mut with_ref = vec![define];
    with_ref.extend(queries_on(&json!({"ref": "rock"})));
    let by_ref = run_in(&dir, &["query"], &lines(&with_ref));
    let in_full = run_in(&dir, &["query"], &lines(&queries_on(&inline)));
    assert_eq!((by_ref.code, in_full.code), (0, 0), "{}\n{}", by_ref.stdout, in_full.stdout);
    // The define line: its name and the mesh's diagnostics (closed rock, 6 n² + 2 vertices).
    let d = &by_ref.lines[0];
    assert_eq!(d["defined"], "rock");
    assert_eq!(
        (d["triangles"].as_u64(), d["vertices"].as_u64(), d["welded_vertices"].as_u64()),
        (Some(300), Some(152), Some(64))
    );
    assert_eq!(
        (d["closed"].as_bool(), d["oriented"].as_bool(), d["boundary_edges"].as_u64()),
        (Some(true), Some(true), Some(0))
    );
    for (got, want) in by_ref.lines[1..].iter().zip(&in_full.lines) {
        assert_eq!(unlined(got), unlined(want), "by ref vs in full");
    }
    // The queries reach the rock (both outcomes of the ray, a contact, a hit).
    assert_eq!(in_full.lines[0]["status"], "hit");
    assert_eq!(in_full.lines[1]["status"], "hit"); // from inside the rock's hull, out through its surface
    assert_eq!(in_full.lines[4]["contact"], true);
    assert_eq!(in_full.lines[6]["status"], "hit");
    assert_eq!(in_full.lines[7]["status"], "hit");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn relative_paths_start_at_the_query_files_folder() {
    let dir = folder("paths");
    std::fs::create_dir_all(dir.join("meshes")).unwrap();
    let (text, _) = small_rock();
    std::fs::write(dir.join("meshes/rock.obj"), &text).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/terrain.png"),
        dir.join("meshes/terrain.png"),
    )
    .unwrap();
    let queries = lines(&[
        json!({"define": "rock", "shape": {"type": "trimesh", "file": "rock.obj"}}),
        json!({"define": "land", "shape": {"type": "heightfield", "png": "terrain.png", "scale": [10, 1, 10]}}),
    ]);
    std::fs::write(dir.join("meshes/q.jsonl"), &queries).unwrap();
    // A file: its own folder, wherever the tool runs.
    let q = dir.join("meshes/q.jsonl");
    let r = run_in(Path::new("/"), &["query", q.to_str().unwrap()], "");
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert_eq!(r.lines[0]["triangles"], 300);
    assert!(r.lines[1]["triangles"].as_u64().unwrap() > 1000, "{}", r.lines[1]);
    // Standard input: the working directory.
    let r = run_in(&dir.join("meshes"), &["query"], &queries);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let r = run_in(&dir, &["query"], &queries);
    assert_eq!(r.code, 1);
    let e = r.lines[0]["error"].as_str().unwrap();
    assert!(e.starts_with("shape.file: rock.obj: cannot read: "), "{e}");
    let e = r.lines[1]["error"].as_str().unwrap();
    assert!(e.starts_with("shape.png: cannot read terrain.png: "), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn define_and_ref_errors_are_named_by_their_path() {
    let dir = folder("errors");
    std::fs::write(dir.join("bad.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n").unwrap();
    let ball = json!({"type": "ball", "radius": 1});
    let at = |r: Value, t: Value| json!({"query": "distance", "a": {"shape": r, "translation": t}, "b": {"shape": ball, "translation": t}});
    let cases: Vec<(Value, &str)> = vec![
        (json!({"define": "b", "shape": ball}), ""),
        (json!({"define": "b", "shape": {"type": "cuboid", "half_extents": [1, 1, 1]}}), "define: \"b\" is already defined (line 1); each name is defined once"),
        (at(json!({"ref": "c"}), json!([0, 0, 0])), "a.shape.ref: no shape is defined as \"c\" (defined: \"b\")"),
        (at(json!({"ref": "b"}), json!([0, 0])), "a.shape.ref: \"b\" (defined on line 1) is a 3D shape but this body is 2D (its translation has 2 numbers)"),
        (at(json!({"ref": "b", "round": 1}), json!([0, 0, 0])), "a.shape.round: unknown field with \"ref\" (a defined shape is used as it is) (expected ref)"),
        (at(json!({"ref": 3}), json!([0, 0, 0])), "a.shape.ref: expected the name of a defined shape (a string), got a number"),
        (json!({"define": "m", "shape": {"type": "trimesh", "file": "missing.obj"}}), "shape.file: missing.obj: cannot read: "),
        (json!({"define": "m", "shape": {"type": "trimesh", "file": "bad.obj"}}), "shape.file: bad.obj: line 4: vertex index 4 is out of range: 3 vertices are defined before this line"),
        (json!({"define": "m", "shape": {"type": "trimesh", "file": "bad.txt"}}), "shape.file: bad.txt: unknown mesh format: the extension must be .obj, .stl, .ply, .gltf or .glb"),
        (json!({"define": "m", "shape": {"type": "trimesh", "file": "bad.obj", "vertices": []}}), "shape.file: give \"file\" or \"vertices\" and \"indices\", not both"),
        (json!({"define": "m", "shape": {"type": "trimesh", "file": "bad.obj", "weld": -1}}), "shape.weld: a tolerance must be >= 0, got -1"),
        (json!({"define": "", "shape": ball}), "define: the name must not be empty"),
        (json!({"define": 7, "shape": ball}), "define: expected the shape's name (a string), got a number"),
        (json!({"define": "x", "shape": ball, "translation": [0, 0, 0]}), "translation: unknown field in a define line (expected define, shape)"),
        (json!({"define": "x"}), "shape: missing field"),
        // A failed define defines nothing: the name is still free.
        (json!({"define": "m", "shape": {"type": "capsule", "half_height": 1, "radius": 0.5}}), ""),
        // A capsule exists in both dimensions, and is defined in both.
        (
            json!({"query": "distance", "a": {"shape": {"ref": "m"}, "translation": [0, 0]}, "b": {"shape": {"type": "circle", "radius": 1}, "translation": [3, 0]}}),
            "",
        ),
    ];
    let queries: Vec<Value> = cases.iter().map(|(q, _)| q.clone()).collect();
    let r = run_in(&dir, &["query"], &lines(&queries));
    assert_eq!(r.code, 1);
    for (out, (q, want)) in r.lines.iter().zip(&cases) {
        if want.is_empty() {
            assert!(out.get("error").is_none(), "{q}: {out}");
        } else {
            let e = out["error"].as_str().unwrap_or_else(|| panic!("{q}: expected an error, got {out}"));
            assert!(e.starts_with(want), "{q}:\n got {e}\nwant {want}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Each query's batch form against its one-query lines, in f64 and f32: the same answers,
/// in order, without `line` (an answer that is an error included).
#[test]
fn a_batch_answers_as_its_one_query_lines() {
    let (_, rock) = small_rock();
    let b = rock_body(&rock, [0.1, -0.2, 0.3]);
    let ball = |r: f64, at: [f64; 3]| json!({"shape": {"type": "ball", "radius": r}, "translation": at});
    let mut rng = Rng(32);
    let mut v3 = |s: f64| [rng.range(-s, s), rng.range(-s, s), rng.range(-s, s)];
    let points: Vec<[f64; 3]> = (0..24).map(|_| v3(3.0)).collect();
    let dirs: Vec<[f64; 3]> = (0..24).map(|_| v3(1.0)).collect();
    let turns: Vec<[f64; 4]> = (0..24)
        .map(|k| {
            let a = 0.3 * k as f64;
            [0.0, (a / 2.0).sin(), 0.0, (a / 2.0).cos()]
        })
        .collect();
    let cube = json!({"type": "cuboid", "half_extents": [0.3, 0.2, 0.4]});
    // (the batch line, its one-query lines)
    let mut cases: Vec<(Value, Vec<Value>)> = Vec::new();
    cases.push((
        json!({"query": "ray", "origins": points, "directions": dirs, "max_toi": 4, "b": b}),
        points
            .iter()
            .zip(&dirs)
            .map(|(o, d)| json!({"query": "ray", "origin": o, "direction": d, "max_toi": 4, "b": b}))
            .collect(),
    ));
    for query in ["distance", "intersects", "contact", "manifold"] {
        let mut batch = json!({"query": query, "a": b, "b": {"shape": cube}, "translations_b": points, "rotations_b": turns});
        let mut one: Vec<Value> = points
            .iter()
            .zip(&turns)
            .map(|(t, r)| json!({"query": query, "a": b, "b": {"shape": cube, "translation": t, "rotation": r}}))
            .collect();
        if query == "contact" || query == "manifold" {
            batch["margin"] = json!(0.2);
            one.iter_mut().for_each(|q| q["margin"] = json!(0.2));
        }
        cases.push((batch, one));
    }
    // Rotations only: b keeps its translation.
    cases.push((
        json!({"query": "distance", "a": b, "b": {"shape": cube, "translation": [2, 0, 0]}, "rotations_b": turns}),
        turns.iter().map(|r| json!({"query": "distance", "a": b, "b": {"shape": cube, "translation": [2, 0, 0], "rotation": r}})).collect(),
    ));
    cases.push((
        json!({"query": "cast", "a": ball(0.3, [0.0, 4.0, 0.0]), "b": b, "velocity_a": [0, -2, 0], "velocities_b": dirs, "max_toi": 3}),
        dirs.iter().map(|v| json!({"query": "cast", "a": ball(0.3, [0.0, 4.0, 0.0]), "b": b, "velocity_a": [0, -2, 0], "velocity_b": v, "max_toi": 3})).collect(),
    ));
    let moves: Vec<[f64; 3]> = points.iter().map(|p| [-p[0], -3.0 - p[1].abs(), -p[2]]).collect();
    cases.push((
        json!({"query": "sweep", "mover": ball(0.3, [0.2, 3.0, 0.1]), "displacements": moves, "b": b}),
        moves
            .iter()
            .map(
                |d| json!({"query": "sweep", "mover": ball(0.3, [0.2, 3.0, 0.1]), "displacement": d, "b": b}),
            )
            .collect(),
    ));
    let tris = json!([[[-5, 0, -5], [-5, 0, 5], [5, 0, 5]], [[-5, 0, -5], [5, 0, 5], [5, 0, -5]]]);
    cases.push((
        json!({"query": "sweep", "mover": ball(0.3, [0.2, 3.0, 0.1]), "displacements": moves, "triangles": tris}),
        moves.iter().map(|d| json!({"query": "sweep", "mover": ball(0.3, [0.2, 3.0, 0.1]), "displacement": d, "triangles": tris})).collect(),
    ));
    // 2D: circles against a polyline, angles as rotations; and an f32 overflow as an item.
    let poly = json!({"shape": {"type": "polyline", "vertices": [[-3, 0], [0, 0], [3, 1.5]]}, "translation": [0, 0]});
    let spots: Vec<[f64; 2]> = points.iter().map(|p| [p[0], p[1]]).collect();
    let angles: Vec<f64> = (0..24).map(|k| 0.2 * k as f64).collect();
    let rect = json!({"type": "rectangle", "half_extents": [0.5, 0.2]});
    cases.push((
        json!({"query": "contact", "a": poly, "b": {"shape": rect}, "translations_b": spots, "rotations_b": angles, "margin": 1}),
        spots.iter().zip(&angles).map(|(t, a)| json!({"query": "contact", "a": poly, "b": {"shape": rect, "translation": t, "angle": a}, "margin": 1})).collect(),
    ));
    let boxes = |t: Value| json!({"query": "distance", "a": {"shape": {"type": "cuboid", "half_extents": [1, 1, 1]}, "translation": [0, 0, 0]}, "b": {"shape": {"type": "cuboid", "half_extents": [1, 1, 1]}, "translation": t}});
    let far = [[0.0, 0.0, 3.0], [0.0, 0.0, 1e20], [0.0, 4.0, 0.0]];
    let mut far_batch = boxes(json!(null));
    far_batch["b"].as_object_mut().unwrap().remove("translation");
    far_batch["translations_b"] = json!(far);
    cases.push((far_batch, far.iter().map(|t| boxes(json!(t))).collect()));

    for (args, name) in [(&[][..], "f64"), (&["--f32"][..], "f32")] {
        let mut all = Vec::new();
        for (batch, one) in &cases {
            all.push(batch.clone());
            all.extend(one.iter().cloned());
        }
        let r = ask(&all, args);
        let mut at = 0;
        let mut hits = 0;
        for (batch, one) in &cases {
            let got = &r.lines[at];
            let answers = got["answers"].as_array().unwrap_or_else(|| panic!("{name}: {batch}: {got}"));
            assert_eq!(answers.len(), one.len(), "{name}: {batch}");
            for (k, answer) in answers.iter().enumerate() {
                let single = &r.lines[at + 1 + k];
                assert_eq!(answer, &unlined(single), "{name}: item {k} of {}", batch["query"]);
                assert!(answer.get("line").is_none());
                hits += usize::from(
                    answer["status"] == "hit" || answer["contact"] == true || answer["intersects"] == true,
                );
            }
            at += 1 + one.len();
        }
        assert!(hits > 30, "{name}: the sample reaches the shapes ({hits})");
    }
}

#[test]
fn batch_errors_name_the_item() {
    let ball = json!({"shape": {"type": "ball", "radius": 1}, "translation": [0, 0, 0]});
    let cases = [
        (
            json!({"query": "ray", "origins": [[0, 0, 0]], "directions": [[1, 0, 0], [0, 1, 0]], "b": ball}),
            "directions: has 2 items but \"origins\" has 1: one each per query",
        ),
        (
            json!({"query": "ray", "origins": [[0, 0, 0], [1, 0, 0]], "directions": [[1, 0, 0], [0, 0, 0]], "b": ball}),
            "directions[1]: must not be zero",
        ),
        (
            json!({"query": "ray", "origins": [[0, 0, 0], [1, 0]], "directions": [[1, 0, 0], [1, 0, 0]], "b": ball}),
            "origins[1]: expected 3 numbers, got 2",
        ),
        (
            json!({"query": "ray", "origin": [0, 0, 0], "origins": [[0, 0, 0]], "directions": [[1, 0, 0]], "b": ball}),
            "origin: give \"origin\" (one query) or \"origins\" (a batch), not both",
        ),
        (
            json!({"query": "distance", "a": ball, "b": ball, "translations_b": [[3, 0, 0]]}),
            "b.translation: give \"b.translation\" or \"translations_b\" (one each per query), not both",
        ),
        (
            json!({"query": "distance", "a": ball, "b": {"shape": {"type": "ball", "radius": 1}}, "translations_b": [[3, 0, 0], [4, 0, 0]], "rotations_b": [[0, 0, 0, 1]]}),
            "rotations_b: has 1 items but \"translations_b\" has 2: one each per query",
        ),
        (
            json!({"query": "distance", "a": ball, "b": {"shape": {"type": "ball", "radius": 1}}, "translations_b": [[3, 0, 0], [4, 0, 0]], "rotations_b": [[0, 0, 0, 1], [0, 0, 0, 2]]}),
            "rotations_b[1]: rotation norm is 2",
        ),
        (
            json!({"query": "distance", "a": ball, "b": {"shape": {"type": "ball", "radius": 1}}, "translations_b": [[3, 0, 0], [4, 0]]}),
            "translations_b[1]: expected 3 numbers, got 2",
        ),
        (
            json!({"query": "cast", "a": ball, "b": ball, "velocity_b": [1, 0, 0], "velocities_b": [[1, 0, 0]]}),
            "velocity_b: give \"velocity_b\" (one query) or \"velocities_b\" (a batch), not both",
        ),
        (
            json!({"query": "sweep", "mover": {"shape": {"type": "cuboid", "half_extents": [1, 1, 1]}, "translation": [0, 0, 0]}, "displacements": [[1, 0, 0]], "triangles": []}),
            "mover.shape.type: a sweep moves a \"ball\" or an \"ellipsoid\"",
        ),
        (
            json!({"query": "sweep", "mover": ball, "displacements": [[1, 0, 0], [1, 0, "x"]], "triangles": []}),
            "displacements[1][2]: expected a number, got a string",
        ),
    ];
    let queries: Vec<Value> = cases.iter().map(|(q, _)| q.clone()).collect();
    let r = ask(&queries, &[]);
    assert_eq!(r.code, 1);
    for (out, (q, want)) in r.lines.iter().zip(&cases) {
        let e = out["error"].as_str().unwrap_or_else(|| panic!("{q}: expected an error, got {out}"));
        assert!(e.starts_with(want), "{q}:\n got {e}\nwant {want}");
    }
    // An empty batch is answered, with no answers.
    let r = ask(&[json!({"query": "ray", "origins": [], "directions": [], "b": ball})], &[]);
    assert_eq!((r.code, &r.lines[0]), (0, &json!({"line": 1, "answers": []})));
}

/// `mesh-info` on meshes built by hand: a box without its top (in OBJ), the closed cube as
/// a binary STL soup (36 corners at 8 positions), one triangle flipped, a bad file.
#[test]
fn mesh_info_counts_what_was_built() {
    let dir = folder("info");
    let corners: Vec<[f64; 3]> =
        (0..8).map(|i| [f64::from(i & 1), f64::from((i >> 1) & 1), f64::from((i >> 2) & 1)]).collect();
    let cube: [[u32; 3]; 12] = [
        [0, 1, 5],
        [0, 5, 4],
        [0, 4, 6],
        [0, 6, 2],
        [1, 3, 7],
        [1, 7, 5],
        [0, 2, 3],
        [0, 3, 1],
        [4, 5, 7],
        [4, 7, 6],
        [2, 6, 7],
        [2, 7, 3],
    ];
    let obj = |tris: &[[u32; 3]]| {
        let mut s = String::new();
        for p in &corners {
            s += &format!("v {} {} {}\n", p[0], p[1], p[2]);
        }
        for t in tris {
            s += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
        }
        s
    };
    std::fs::write(dir.join("open.obj"), obj(&cube[..10])).unwrap();
    let mut flipped = cube;
    flipped[4].swap(1, 2);
    std::fs::write(dir.join("flipped.obj"), obj(&flipped)).unwrap();
    let mut stl = vec![0u8; 80];
    stl.extend_from_slice(&12u32.to_le_bytes());
    for t in &cube {
        stl.extend_from_slice(&[0; 12]);
        for &i in t {
            for x in corners[i as usize] {
                stl.extend_from_slice(&(x as f32).to_le_bytes());
            }
        }
        stl.extend_from_slice(&[0, 0]);
    }
    std::fs::write(dir.join("cube.stl"), &stl).unwrap();
    std::fs::write(dir.join("bad.ply"), "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 5\n").unwrap();

    let info = |file: &str, extra: &[&str]| {
        let mut args = vec!["mesh-info", file];
        args.extend_from_slice(extra);
        let r = run_in(&dir, &args, "");
        let v: Value = serde_json::from_str(r.stdout.trim()).unwrap_or(Value::Null);
        (r.code, v, r.stderr)
    };
    let (code, v, _) = info("open.obj", &[]);
    assert_eq!(code, 0);
    assert_eq!(v["file"], "open.obj");
    assert_eq!(v["format"], "OBJ");
    for (key, want) in [
        ("triangles", 10),
        ("vertices", 8),
        ("edges", 17),
        ("boundary_edges", 4),
        ("non_manifold_edges", 0),
        ("welded_vertices", 0),
    ] {
        assert_eq!(v[key], want, "open box: {key} in {v}");
    }
    assert_eq!((v["closed"].as_bool(), v["oriented"].as_bool()), (Some(false), Some(true)));
    assert_eq!(v["aabb"], json!({"min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 1.0]}));
    assert!(v["memory_bytes"].as_u64().unwrap() > 0);

    let (_, v, _) = info("flipped.obj", &[]);
    assert_eq!(
        (v["misoriented_edges"].as_u64(), v["closed"].as_bool(), v["oriented"].as_bool()),
        (Some(3), Some(true), Some(false))
    );

    let (_, v, _) = info("cube.stl", &[]);
    assert_eq!(
        (v["vertices"].as_u64(), v["welded_vertices"].as_u64(), v["closed"].as_bool()),
        (Some(8), Some(28), Some(true))
    );
    let (_, v, _) = info("cube.stl", &["--weld", "none"]);
    assert_eq!(
        (v["vertices"].as_u64(), v["duplicate_vertices"].as_u64(), v["closed"].as_bool()),
        (Some(36), Some(28), Some(true))
    );
    let (_, v, _) = info("cube.stl", &["--weld", "0.01", "--f32"]);
    assert_eq!(v["vertices"].as_u64(), Some(8));

    let (code, _, err) = info("bad.ply", &[]);
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        "kollide: bad.ply: face[0] (line 13): vertex index 5 is out of range: there are 3 vertices"
    );
    let (code, _, err) = info("missing.stl", &[]);
    assert_eq!(code, 2);
    assert!(err.starts_with("kollide: missing.stl: cannot read: "), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `kollide picture` and `viz` answer a file's define lines before the line they draw; a
/// define line or a batch is not drawn, and says so.
#[test]
fn pictures_and_pages_see_the_shapes_defined_before() {
    let dir = folder("pictures");
    let (text, _) = small_rock();
    std::fs::write(dir.join("rock.obj"), &text).unwrap();
    let b = json!({"shape": {"ref": "rock"}, "translation": [0, 0, 0]});
    let file = lines(&[
        json!({"define": "rock", "shape": {"type": "trimesh", "file": "rock.obj"}}),
        json!({"query": "ray", "origin": [5, 0.2, 0.1], "direction": [-1, 0, 0], "b": b}),
        json!({"query": "ray", "origins": [[5, 0.2, 0.1]], "directions": [[-1, 0, 0]], "b": b}),
    ]);
    // The first query line is drawn by default: the ray, which hits the rock.
    let svg = kollide_cli::picture::picture_in(file.as_bytes(), &dir, None, false).unwrap();
    assert!(svg.contains("ray") && svg.contains("hit"), "{}", &svg[..svg.len().min(400)]);
    let e = kollide_cli::picture::picture_in(file.as_bytes(), &dir, Some(1), false).unwrap_err();
    assert_eq!(e.0, "line 1 defines the shape \"rock\": there is no query to draw");
    let e = kollide_cli::picture::picture_in(file.as_bytes(), &dir, Some(3), false).unwrap_err();
    assert!(e.0.starts_with("line 3 is a batch of 1 queries"), "{}", e.0);
    // Without the file's folder the mesh is not found: the line's error says so.
    let e = kollide_cli::picture::picture_in(file.as_bytes(), Path::new("/"), Some(2), false).unwrap_err();
    assert!(e.0.starts_with("line 2: b.shape.ref: no shape is defined as \"rock\""), "{}", e.0);
    let page = kollide_cli::viz::queries_in(file.as_bytes(), &dir, None, false).unwrap();
    assert!(
        page.contains("line 1: defined \\\"rock\\\"") || page.contains("line 1: defined"),
        "a frame names the define"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
