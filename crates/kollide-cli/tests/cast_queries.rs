//! The continuous-collision queries of `kollide query` (`ray`, `cast`, `sweep`), run as a
//! user runs them and checked against closed forms worked out by hand, in both precisions.

mod common;

use common::*;
use serde_json::{json, Value};

fn ball(r: f64, at: &[f64]) -> Value {
    body(json!({"type": "ball", "radius": r}), at)
}

/// The floor y = 0 over [-5, 5]², two triangles facing up, split along x = z.
fn floor() -> Value {
    json!([[[-5, 0, -5], [-5, 0, 5], [5, 0, 5]], [[-5, 0, -5], [5, 0, 5], [5, 0, -5]]])
}

#[test]
fn rays_against_balls_hit_at_the_closed_form_time() {
    for (args, tol) in PRECISIONS {
        let mut rng = Rng(11);
        let mut cases = Vec::new();
        for k in 0..60 {
            let c: Vec<f64> = (0..3).map(|_| rng.range(-2.0, 2.0)).collect();
            let r = rng.range(0.2, 1.5);
            // From around the ball (one in six from well inside it), aimed at a point near
            // it: about half hit.
            let spread = if k % 6 == 0 { 0.5 * r } else { 3.0 };
            let o: Vec<f64> = (0..3).map(|i| c[i] + rng.range(-spread, spread)).collect();
            let aim: Vec<f64> = (0..3).map(|i| c[i] + rng.range(-1.5, 1.5) * r).collect();
            let speed = rng.range(0.5, 2.0);
            let d: Vec<f64> = (0..3).map(|i| (aim[i] - o[i]) * speed).collect();
            cases.push((c, r, o, d));
        }
        let queries: Vec<Value> = cases
            .iter()
            .map(|(c, r, o, d)| json!({"query": "ray", "origin": o, "direction": d, "b": ball(*r, c)}))
            .collect();
        let run = ask(&queries, args);
        assert_eq!(run.code, 0, "{}", run.stdout);
        let (mut hits, mut inside) = (0, 0);
        for (out, (c, r, o, d)) in run.lines.iter().zip(&cases) {
            // |o + t d - c|² = r²: a t² + 2 b t + k = 0.
            let m: Vec<f64> = (0..3).map(|i| o[i] - c[i]).collect();
            let a: f64 = d.iter().map(|x| x * x).sum();
            let b: f64 = (0..3).map(|i| m[i] * d[i]).sum();
            let k: f64 = m.iter().map(|x| x * x).sum::<f64>() - r * r;
            let disc = b * b - a * k;
            if k < 0.0 {
                inside += 1;
                assert_eq!(out["status"], "inside", "{out}");
                close("exit_toi", num(out, "exit_toi"), (-b + disc.sqrt()) / a, tol * 10.0);
            } else if disc > 0.0 && -b - disc.sqrt() > 0.0 {
                hits += 1;
                assert_eq!(out["status"], "hit", "{out}");
                let t = (-b - disc.sqrt()) / a;
                close("toi", num(out, "toi"), t, tol * 10.0);
                let p: Vec<f64> = (0..3).map(|i| o[i] + t * d[i]).collect();
                let n: Vec<f64> = (0..3).map(|i| (p[i] - c[i]) / r).collect();
                close_vec("point", &vec_of(out, "point"), &p, tol * 10.0);
                close_vec("normal", &vec_of(out, "normal"), &n, tol * 10.0);
            } else if disc < -1e-6 || -b - disc.max(0.0).sqrt() < -1e-6 {
                assert_eq!(out["status"], "miss", "{out}");
            }
        }
        assert!(hits > 10 && inside > 3 && hits + inside < 50, "{hits} hits, {inside} inside of 60");
    }
}

#[test]
fn a_ball_cast_at_a_box_face_stops_at_the_skin() {
    for (args, tol) in PRECISIONS {
        let queries: Vec<Value> = [0.0, 0.1, 0.5]
            .iter()
            .map(|skin| {
                json!({"query": "cast", "a": ball(1.0, &[0.0, 0.0, 0.0]),
                       "b": body(json!({"type": "cuboid", "half_extents": [0.5, 0.5, 0.5]}), &[5.0, 0.0, 0.0]),
                       "velocity_a": [10, 0, 0], "velocity_b": [-2, 0, 0], "target_distance": skin})
            })
            .collect();
        let run = ask(&queries, args);
        assert_eq!(run.code, 0, "{}", run.stdout);
        for (out, skin) in run.lines.iter().zip([0.0, 0.1, 0.5]) {
            // The gap of 3.5 closes at 12 per unit of time. The cast stops within its stated
            // tolerance (1e-9 of the sizes in f64) short of the skin, never past it.
            let t = (3.5 - skin) / 12.0;
            assert_eq!(out["status"], "hit", "{out}");
            close("toi", num(out, "toi"), t, tol * 10.0 + 1e-9);
            assert!(num(out, "toi") <= t + tol, "{out}: past the touch at {t}");
            close_vec("normal", &vec_of(out, "normal"), &[1.0, 0.0, 0.0], tol * 10.0);
            close_vec("point_a", &vec_of(out, "point_a"), &[1.0 + 10.0 * t, 0.0, 0.0], tol * 100.0 + 1e-8);
            close_vec("point_b", &vec_of(out, "point_b"), &[4.5 - 2.0 * t, 0.0, 0.0], tol * 100.0 + 1e-8);
            close_vec("face_normal", &vec_of(out, "face_normal"), &[-1.0, 0.0, 0.0], tol * 10.0);
        }
    }
}

#[test]
fn casts_that_miss_start_within_or_spin_into_contact() {
    let plank = body(json!({"type": "rectangle", "half_extents": [2, 0.1]}), &[0.0, 0.0]);
    let queries = [
        // Too slow to close the gap of 3.5 in one unit of time.
        json!({"query": "cast", "a": ball(1.0, &[0.0, 0.0, 0.0]),
               "b": body(json!({"type": "cuboid", "half_extents": [0.5, 0.5, 0.5]}), &[5.0, 0.0, 0.0]),
               "velocity_a": [3, 0, 0]}),
        // Overlapping by 0.5 and closing: started within.
        json!({"query": "cast", "a": ball(1.0, &[0.0, 0.0, 0.0]), "b": ball(1.0, &[1.5, 0.0, 0.0]),
               "velocity_b": [-1, 0, 0]}),
        // Overlapping but moving apart: free to go.
        json!({"query": "cast", "a": ball(1.0, &[0.0, 0.0, 0.0]), "b": ball(1.0, &[1.5, 0.0, 0.0]),
               "velocity_b": [1, 0, 0]}),
        // A plank spinning at 1 rad per unit of time meets the circle when 1.5 cos θ - 0.1 = 0.5.
        json!({"query": "cast", "a": plank, "b": body(json!({"type": "circle", "radius": 0.5}), &[0.0, 1.5]),
               "angular_velocity_a": 1, "max_toi": 2}),
    ];
    for (args, tol) in PRECISIONS {
        let run = ask(&queries, args);
        assert_eq!(run.code, 0, "{}", run.stdout);
        assert_eq!(run.lines[0]["status"], "miss", "{}", run.lines[0]);
        let within = &run.lines[1];
        assert_eq!(within["status"], "started_within", "{within}");
        close("distance", num(within, "distance"), -0.5, tol * 10.0);
        close_vec("normal", &vec_of(within, "normal"), &[1.0, 0.0, 0.0], tol * 10.0);
        assert_eq!(run.lines[2]["status"], "miss", "{}", run.lines[2]);
        let spin = &run.lines[3];
        assert_eq!(spin["status"], "hit", "{spin}");
        let theta = 0.4f64.acos();
        // Conservative advancement stops at or just before the touch.
        let toi = num(spin, "toi");
        assert!(toi <= theta + tol && toi > theta - 1e-3, "toi {toi}, touch at {theta}");
        close_vec("normal", &vec_of(spin, "normal"), &[-theta.sin(), theta.cos()], 1e-3);
    }
}

#[test]
fn sweeps_hit_faces_edges_and_vertices_where_the_geometry_says() {
    let s = 0.125f64.sqrt();
    let queries = [
        json!({"query": "sweep", "mover": ball(0.5, &[2.0, 2.0, -1.0]), "displacement": [0, -3, 0], "triangles": floor()}),
        json!({"query": "sweep", "mover": ball(0.5, &[-2.0, 0.5, 2.0]), "displacement": [4, 0, 0],
               "triangles": [[[0, 0, 0], [0, 2, 0], [0, 0, 2]]]}),
        // Past the corner (0, 2, 0), in its Voronoi region (beyond both edges): touches it when
        // x² + 0.3² + 0.2² = 0.5².
        json!({"query": "sweep", "mover": ball(0.5, &[-3.0, 2.3, -0.2]), "displacement": [4, 0, 0],
               "triangles": [[[0, 0, 0], [0, 2, 0], [0, 0, 2]]]}),
        json!({"query": "sweep", "mover": body(json!({"type": "ellipsoid", "radii": [1, 0.5, 1]}), &[2.0, 3.0, -1.0]),
               "displacement": [0, -4, 0], "triangles": floor()}),
        json!({"query": "sweep", "mover": body(json!({"type": "circle", "radius": 0.5}), &[0.0, 2.0]),
               "displacement": [0, -4], "segments": [[[-3, 0], [3, 0]]]}),
        json!({"query": "sweep", "mover": ball(1.0, &[2.0, 0.5, -1.0]), "displacement": [1, 0, 0], "triangles": floor()}),
        // Coming from below with back faces culled: passes through.
        json!({"query": "sweep", "mover": ball(0.5, &[2.0, -2.0, -1.0]), "displacement": [0, 4, 0], "triangles": floor(),
               "cull_back_faces": true}),
        json!({"query": "sweep", "mover": ball(0.5, &[2.0, -2.0, -1.0]), "displacement": [0, 4, 0], "triangles": floor()}),
        json!({"query": "sweep", "mover": ball(0.5, &[2.0, 2.0, -1.0]), "displacement": [0, -3, 0], "triangles": []}),
    ];
    for (args, tol) in PRECISIONS {
        let run = ask(&queries, args);
        assert_eq!(run.code, 0, "{}", run.stdout);
        let l = &run.lines;
        let hit =
            |i: usize, toi: f64, point: &[f64], normal: &[f64], feature: &str, index: u64, key: &str| {
                assert_eq!(l[i]["status"], "hit", "{}", l[i]);
                close("toi", num(&l[i], "toi"), toi, tol * 10.0);
                close_vec("point", &vec_of(&l[i], "point"), point, tol * 10.0);
                close_vec("normal", &vec_of(&l[i], "normal"), normal, tol * 10.0);
                assert_eq!(l[i]["feature"], feature, "{}", l[i]);
                assert_eq!(l[i][key], index, "{}", l[i]);
            };
        hit(0, 0.5, &[2.0, 0.0, -1.0], &[0.0, 1.0, 0.0], "face", 1, "triangle");
        hit(1, (2.0 - s) / 4.0, &[0.0, 0.25, 1.75], &[-s / 0.5, 0.5, 0.5], "edge", 0, "triangle");
        let x = 0.12f64.sqrt();
        hit(2, (3.0 - x) / 4.0, &[0.0, 2.0, 0.0], &[-x / 0.5, 0.6, -0.4], "vertex", 0, "triangle");
        hit(3, 2.5 / 4.0, &[2.0, 0.0, -1.0], &[0.0, 1.0, 0.0], "face", 1, "triangle");
        hit(4, 1.5 / 4.0, &[0.0, 0.0], &[0.0, 1.0], "face", 0, "segment");
        assert_eq!(l[5]["status"], "started_within", "{}", l[5]);
        close("distance", num(&l[5], "distance"), -0.5, tol * 10.0);
        close_vec("normal", &vec_of(&l[5], "normal"), &[0.0, 1.0, 0.0], tol * 10.0);
        assert_eq!(l[5]["triangle"], 1, "{}", l[5]);
        assert_eq!(l[6]["status"], "miss", "{}", l[6]);
        hit(7, 1.5 / 4.0, &[2.0, 0.0, -1.0], &[0.0, -1.0, 0.0], "face", 1, "triangle");
        assert_eq!(l[8]["status"], "miss", "{}", l[8]);
    }
}

#[test]
fn rays_report_the_way_out_from_inside() {
    let q = json!({"query": "ray", "origin": [0, 0, 0], "direction": [0, 0.5, 0],
                   "b": body(json!({"type": "cuboid", "half_extents": [1, 2, 1]}), &[0.0, 0.0, 0.0])});
    let short = json!({"query": "ray", "origin": [-5, 0, 0], "direction": [1, 0, 0], "max_toi": 3,
                       "b": body(json!({"type": "cuboid", "half_extents": [1, 1, 1]}), &[0.0, 0.0, 0.0])});
    for (args, tol) in PRECISIONS {
        let run = ask(&[q.clone(), short.clone()], args);
        let out = &run.lines[0];
        assert_eq!(out["status"], "inside", "{out}");
        assert_eq!(num(out, "toi"), 0.0);
        close("exit_toi", num(out, "exit_toi"), 4.0, tol);
        close_vec("exit_point", &vec_of(out, "exit_point"), &[0.0, 2.0, 0.0], tol);
        close_vec("exit_normal", &vec_of(out, "exit_normal"), &[0.0, 1.0, 0.0], tol);
        assert_eq!(run.lines[1]["status"], "miss", "{}", run.lines[1]);
    }
}
