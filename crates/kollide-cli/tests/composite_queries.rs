//! Composite bodies in `kollide query` (trimesh, heightfield from heights and from a PNG,
//! compound, polyline, concave polygon), run as a user runs them and checked against truth
//! worked out here: heights over a terrain, the triangle the numbering contract predicts,
//! the same answers for a heightfield and the same grid as a trimesh, and errors naming the
//! JSON path.

mod common;

use common::*;
use serde_json::{json, Value};

/// A grid of `rows x cols` samples of `h(r, c)`, as a heightfield body and as the same grid as
/// a trimesh body (vertices and triangles by the contract's numbering), over `[-sx/2, sx/2]`
/// by `[-sz/2, sz/2]`.
fn grid(rows: usize, cols: usize, s: [f64; 3], h: impl Fn(usize, usize) -> f64) -> (Value, Value) {
    let heights: Vec<Vec<f64>> = (0..rows).map(|r| (0..cols).map(|c| h(r, c)).collect()).collect();
    let field = json!({"type": "heightfield", "heights": heights, "scale": s});
    let x = |c: usize| -s[0] / 2.0 + c as f64 * s[0] / (cols - 1) as f64;
    let z = |r: usize| -s[2] / 2.0 + r as f64 * s[2] / (rows - 1) as f64;
    let mut vertices = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            vertices.push(json!([x(c), h(r, c) * s[1], z(r)]));
        }
    }
    let id = |r: usize, c: usize| r * cols + c;
    let mut indices = Vec::new();
    for r in 0..rows - 1 {
        for c in 0..cols - 1 {
            indices.push(json!([id(r, c), id(r + 1, c), id(r + 1, c + 1)]));
            indices.push(json!([id(r, c), id(r + 1, c + 1), id(r, c + 1)]));
        }
    }
    (field, json!({"type": "trimesh", "vertices": vertices, "indices": indices}))
}

#[test]
fn rays_down_onto_a_terrain_hit_the_predicted_triangle_at_its_height() {
    let (rows, cols, s) = (5, 7, [6.0, 2.0, 4.0]);
    let h = |r: usize, c: usize| ((r * 3 + c * 5) % 7) as f64 / 7.0;
    let (field, mesh) = grid(rows, cols, s, h);
    let mut rng = Rng(31);
    let mut cases = Vec::new();
    for _ in 0..40 {
        let (x, z) = (rng.range(-2.9, 2.9), rng.range(-1.9, 1.9));
        cases.push((x, z));
    }
    for shape in [&field, &mesh] {
        let queries: Vec<Value> = cases
            .iter()
            .map(|&(x, z)| json!({"query": "ray", "origin": [x, 10.0, z], "direction": [0, -1, 0], "b": body(shape.clone(), &[0.0, 0.0, 0.0])}))
            .collect();
        let run = ask(&queries, &[]);
        assert_eq!(run.code, 0, "{}", run.stdout);
        for (out, &(x, z)) in run.lines.iter().zip(&cases) {
            // The cell and the triangle of (x, z), and the height of that triangle's plane.
            let (u, v) = ((x + 3.0) / 1.0, (z + 2.0) / 1.0); // cell sizes 1 x 1
            let (c, r) = (u.floor() as usize, v.floor() as usize);
            let (fu, fv) = (u - c as f64, v - r as f64);
            let first = fv >= fu; // the side of the diagonal p[r][c]-p[r+1][c+1] holding p[r+1][c]
            let part = 2 * (r * (cols - 1) + c) + usize::from(!first);
            let y = |rr: usize, cc: usize| h(rr, cc) * s[1];
            let height = if first {
                y(r, c) + fv * (y(r + 1, c) - y(r, c)) + fu * (y(r + 1, c + 1) - y(r + 1, c))
            } else {
                y(r, c) + fu * (y(r, c + 1) - y(r, c)) + fv * (y(r + 1, c + 1) - y(r, c + 1))
            };
            if (fu - fv).abs() < 1e-9 {
                continue; // on the diagonal: either triangle
            }
            assert_eq!(out["status"], "hit", "{out}");
            assert_eq!(out["part"], part, "at ({x}, {z}): {out}");
            close("toi", num(out, "toi"), 10.0 - height, 1e-9);
        }
    }
}

#[test]
fn a_heightfield_and_the_same_grid_as_a_trimesh_answer_alike() {
    let (field, mesh) =
        grid(6, 6, [5.0, 1.5, 5.0], |r, c| ((r as f64) * 0.9).sin() * ((c as f64) * 0.7).cos());
    let mut rng = Rng(32);
    let mut queries = Vec::new();
    for k in 0..30 {
        let p = [rng.range(-2.4, 2.4), rng.range(-1.0, 2.0), rng.range(-2.4, 2.4)];
        let probe = if k % 2 == 0 {
            json!({"type": "ball", "radius": 0.4})
        } else {
            json!({"type": "cuboid", "half_extents": [0.3, 0.2, 0.4]})
        };
        for shape in [&field, &mesh] {
            let a = body(shape.clone(), &[0.0, 0.0, 0.0]);
            let b = body(probe.clone(), &p);
            queries.push(query("distance", a.clone(), b.clone()));
            queries.push(json!({"query": "contact", "a": a.clone(), "b": b.clone(), "margin": 0.5}));
            queries.push(query("intersects", a.clone(), b.clone()));
            queries.push(
                json!({"query": "cast", "a": a, "b": b, "velocity_b": [0.3, -3.0, 0.1], "max_toi": 2.0}),
            );
        }
    }
    let run = ask(&queries, &[]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    for pair in run.lines.chunks(8) {
        let (f, m) = (&pair[..4], &pair[4..]);
        for (x, y) in f.iter().zip(m) {
            for key in ["distance", "toi"] {
                if x.get(key).is_some() {
                    close(key, num(x, key), num(y, key), 1e-9);
                }
            }
            assert_eq!(x.get("intersects"), y.get("intersects"), "{x} vs {y}");
            assert_eq!(x.get("status"), y.get("status"), "{x} vs {y}");
            assert_eq!(x.get("contact"), y.get("contact"), "{x} vs {y}");
        }
    }
}

#[test]
fn compounds_polylines_and_concave_polygons() {
    let tree = json!({"type": "compound", "parts": [
        {"shape": {"type": "cylinder", "half_height": 1.0, "radius": 0.2}, "translation": [0, 1, 0]},
        {"shape": {"type": "cone", "half_height": 1.0, "radius": 1.0}, "translation": [0, 3, 0]}
    ]});
    let ground = json!({"type": "polyline", "vertices": [[-3, 0], [0, 0], [3, 1.5]]});
    let l = json!({"type": "concave_polygon", "points": [[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]]});
    let queries = vec![
        // A ball beside the trunk, 0.5 from it: part 0.
        query(
            "distance",
            body(tree.clone(), &[0.0, 0.0, 0.0]),
            body(json!({"type": "ball", "radius": 0.3}), &[1.0, 0.5, 0.0]),
        ),
        // A ball above the crown's apex: part 1, 1 above it.
        query(
            "distance",
            body(json!({"type": "ball", "radius": 0.5}), &[0.0, 5.5, 0.0]),
            body(tree, &[0.0, 0.0, 0.0]),
        ),
        // A circle resting on the first segment of the line, and one over the second.
        query(
            "distance",
            body(ground.clone(), &[0.0, 0.0]),
            body(json!({"type": "circle", "radius": 0.5}), &[-1.0, 1.0]),
        ),
        json!({"query": "ray", "origin": [2.0, 5.0], "direction": [0, -1], "b": body(ground, &[0.0, 0.0])}),
        // In the notch of the L, 0.25 from both inner edges.
        query(
            "distance",
            body(l.clone(), &[0.0, 0.0]),
            body(json!({"type": "circle", "radius": 0.25}), &[1.5, 1.5]),
        ),
        query(
            "intersects",
            body(l, &[0.0, 0.0]),
            body(json!({"type": "circle", "radius": 0.25}), &[1.5, 1.2]),
        ),
    ];
    let run = ask(&queries, &[]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let o = &run.lines;
    close("trunk", num(&o[0], "distance"), 0.5, 1e-9);
    assert_eq!(o[0]["part"], 0);
    close("crown", num(&o[1], "distance"), 1.0, 1e-9);
    assert_eq!(o[1]["part"], 1);
    close("line", num(&o[2], "distance"), 0.5, 1e-9);
    assert_eq!(o[2]["part"], 0);
    close("ray", num(&o[3], "toi"), 4.0, 1e-9);
    assert_eq!(o[3]["part"], 1);
    close("notch", num(&o[4], "distance"), 0.25, 1e-9);
    assert_eq!(o[5]["intersects"], true);
}

#[test]
fn sweeps_through_composites_name_the_triangle() {
    let (field, mesh) = grid(3, 3, [4.0, 1.0, 4.0], |_, _| 0.0);
    let mut queries = Vec::new();
    for shape in [&field, &mesh] {
        queries.push(
            json!({"query": "sweep", "mover": body(json!({"type": "ball", "radius": 0.5}), &[0.5, 3.0, 1.2]),
            "displacement": [0, -5, 0], "b": body(shape.clone(), &[0.0, 0.0, 0.0])}),
        );
    }
    let run = ask(&queries, &[]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    for out in &run.lines {
        assert_eq!(out["status"], "hit", "{out}");
        close("toi", num(out, "toi"), 2.5 / 5.0, 1e-12);
        // (0.5, 1.2): cell (1, 1) (x from 0 to 2, z from 0 to 2), u = 0.25, v = 0.6 > u: its first triangle, 6.
        assert_eq!(out["triangle"], 6, "{out}");
        assert_eq!(out["part"], 6, "{out}");
    }
}

#[test]
fn bad_composites_are_named_by_their_json_path() {
    let cases = [
        (
            json!({"type": "trimesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "indices": [[0, 1, 5]]}),
            "a.shape.indices[0][2]",
        ),
        (
            json!({"type": "trimesh", "vertices": [[0, 0, 0]], "indices": [[0, 0.5, 0]]}),
            "a.shape.indices[0][1]",
        ),
        (json!({"type": "trimesh", "vertices": [], "indices": []}), "a.shape.vertices"),
        (json!({"type": "heightfield", "heights": [[0, 0], [0]], "scale": [1, 1, 1]}), "a.shape.heights[1]"),
        (json!({"type": "heightfield", "heights": [[0, 0]], "scale": [1, 1, 1]}), "a.shape.heights"),
        (json!({"type": "heightfield", "heights": [[0, 0], [0, 0]], "scale": [1, 0, 1]}), "a.shape.scale[1]"),
        (json!({"type": "heightfield", "png": "no/such.png", "scale": [1, 1, 1]}), "a.shape.png"),
        (json!({"type": "compound", "parts": []}), "a.shape.parts"),
        (
            json!({"type": "compound", "parts": [{"shape": {"type": "trimesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "indices": [[0, 1, 2]]}, "translation": [0, 0, 0]}]}),
            "a.shape.parts[0].shape.type",
        ),
        (json!({"type": "polyline", "vertices": [[0, 0], [1, 0]]}), "a.shape.type"),
    ];
    let queries: Vec<Value> = cases
        .iter()
        .map(|(shape, _)| {
            query(
                "distance",
                body(shape.clone(), &[0.0, 0.0, 0.0]),
                body(json!({"type": "ball", "radius": 1}), &[0.0, 0.0, 0.0]),
            )
        })
        .collect();
    let run = ask(&queries, &[]);
    for (out, (_, path)) in run.lines.iter().zip(&cases) {
        let msg = out["error"].as_str().unwrap_or_else(|| panic!("expected an error: {out}"));
        assert!(msg.starts_with(&format!("{path}:")), "{msg} (expected the path {path})");
    }
}
