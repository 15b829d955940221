//! `kollide move`: the shipped scene run as a user runs it, every step's line checked
//! against the issue's format and the ball's clearance to every triangle and box worked out
//! here in f64 (the heightfield's triangles rebuilt by the numbering contract); repeats;
//! and errors naming the JSON path.

mod common;

use common::*;
use serde_json::{json, Value};

type V3 = [f64; 3];

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V3, b: V3) -> V3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
fn len(a: V3) -> f64 {
    dot(a, a).sqrt()
}

/// Point-triangle distance: the plane when the projection falls inside, else the edges.
fn point_triangle(p: V3, t: [V3; 3]) -> f64 {
    let seg = |a: V3, b: V3| {
        let ab = sub(b, a);
        let s = (dot(sub(p, a), ab) / dot(ab, ab)).clamp(0.0, 1.0);
        len(sub(p, [a[0] + ab[0] * s, a[1] + ab[1] * s, a[2] + ab[2] * s]))
    };
    let n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
    let inside = (0..3).all(|k| dot(cross(sub(t[(k + 1) % 3], t[k]), sub(p, t[k])), n) >= 0.0);
    let edges = seg(t[0], t[1]).min(seg(t[1], t[2])).min(seg(t[2], t[0]));
    if inside {
        (dot(sub(p, t[0]), n) / len(n)).abs()
    } else {
        edges
    }
}

/// The scene's world as triangles and one turned box (centre, half extents, yaw).
fn scene_geometry(scene: &Value) -> (Vec<[V3; 3]>, (V3, V3, f64)) {
    let hf = &scene["world"][0]["shape"];
    let h: Vec<Vec<f64>> = serde_json::from_value(hf["heights"].clone()).unwrap();
    let s: V3 = serde_json::from_value(hf["scale"].clone()).unwrap();
    let (rows, cols) = (h.len(), h[0].len());
    let p = |r: usize, c: usize| -> V3 {
        [
            -s[0] / 2.0 + c as f64 * s[0] / (cols - 1) as f64,
            h[r][c] * s[1],
            -s[2] / 2.0 + r as f64 * s[2] / (rows - 1) as f64,
        ]
    };
    let mut tris = Vec::new();
    for r in 0..rows - 1 {
        for c in 0..cols - 1 {
            tris.push([p(r, c), p(r + 1, c), p(r + 1, c + 1)]);
            tris.push([p(r, c), p(r + 1, c + 1), p(r, c + 1)]);
        }
    }
    let m = &scene["world"][2]["shape"];
    let v: Vec<V3> = serde_json::from_value(m["vertices"].clone()).unwrap();
    tris.push([v[0], v[1], v[2]]);
    let b = &scene["world"][1];
    let he: V3 = serde_json::from_value(b["shape"]["half_extents"].clone()).unwrap();
    let c: V3 = serde_json::from_value(b["translation"].clone()).unwrap();
    let q: [f64; 4] = serde_json::from_value(b["rotation"].clone()).unwrap();
    assert!(q[0] == 0.0 && q[2] == 0.0, "the check below handles a turn about y only");
    (tris, (c, he, 2.0 * q[1].atan2(q[3])))
}

/// Distance from `p` to a box turned by `yaw` about y.
fn point_box(p: V3, (c, he, yaw): (V3, V3, f64)) -> f64 {
    let d = sub(p, c);
    // Into the box's frame: rotate by -yaw about y.
    let (sn, cs) = yaw.sin_cos();
    let l = [cs * d[0] - sn * d[2], d[1], sn * d[0] + cs * d[2]];
    let out: V3 =
        [(l[0].abs() - he[0]).max(0.0), (l[1].abs() - he[1]).max(0.0), (l[2].abs() - he[2]).max(0.0)];
    len(out)
}

#[test]
fn the_shipped_scene_runs_step_by_step_in_the_issue_format_and_never_penetrates() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/move_scene.json");
    let scene: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let run = kollide(&["move", path], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.lines.len(), 60 + 1 + 30);
    let (tris, cuboid) = scene_geometry(&scene);
    let radius = 0.5;
    let (mut grounded, mut contacts) = (0, 0);
    for (i, line) in run.lines.iter().enumerate() {
        let keys: Vec<&String> = line.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["contacts", "grounded", "position", "status", "step"], "{line}");
        assert_eq!(line["step"], json!(i));
        assert!(["moved", "blocked", "max_iterations", "started_inside"]
            .contains(&line["status"].as_str().unwrap()));
        grounded += usize::from(line["grounded"].as_bool().unwrap());
        let p: V3 = serde_json::from_value(line["position"].clone()).unwrap();
        let clearance =
            tris.iter().map(|t| point_triangle(p, *t)).fold(point_box(p, cuboid), f64::min) - radius;
        assert!(clearance >= -1e-9, "step {i}: clearance {clearance} at {p:?}");
        for c in line["contacts"].as_array().unwrap() {
            contacts += 1;
            let keys: Vec<&String> = c.as_object().unwrap().keys().collect();
            assert_eq!(keys, ["feature", "normal", "part", "point"], "{c}");
            assert!(["face", "edge", "vertex"].contains(&c["feature"].as_str().unwrap()));
            let n: V3 = serde_json::from_value(c["normal"].clone()).unwrap();
            assert!((len(n) - 1.0).abs() < 1e-9);
            let part = c["part"].as_array().unwrap();
            let body = part[0].as_u64().unwrap();
            assert!(body < 3);
            // A triangle index for the heightfield (32 triangles) and the mesh (1); none
            // for the box.
            match body {
                0 => assert!(part[1].as_u64().unwrap() < 32),
                1 => assert!(part[1].is_null()),
                _ => assert_eq!(part[1], json!(0)),
            }
        }
    }
    // It lands and walks: grounded most of the way, and meets the world.
    assert!(grounded > 60 && contacts > 60, "grounded {grounded}, contacts {contacts}");
}

fn run_scene(scene: &Value) -> Run {
    kollide(&["move", "-"], &scene.to_string())
}

#[test]
fn repeats_expand_and_an_empty_world_lets_the_character_go() {
    let scene = json!({
        "world": [],
        "character": {"shape": {"type": "capsule", "half_height": 0.5, "radius": 0.25}, "position": [0, 0, 0]},
        "steps": [[1, 0, 0], {"repeat": [[0, 1, 0], 3]}, {"repeat": [[0, 0, 2], 0]}],
    });
    let run = run_scene(&scene);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let ys: Vec<f64> = run.lines.iter().map(|l| l["position"][1].as_f64().unwrap()).collect();
    assert_eq!(ys, [0.0, 1.0, 2.0, 3.0]);
    assert!(run.lines.iter().all(|l| l["status"] == "moved" && !l["grounded"].as_bool().unwrap()));
}

#[test]
fn bad_scenes_are_refused_naming_the_json_path() {
    let ok = json!({
        "world": [{"shape": {"type": "cuboid", "half_extents": [5, 1, 5]}, "translation": [0, -1, 0]}],
        "character": {"shape": {"type": "ball", "radius": 0.5}, "position": [0, 1, 0]},
        "steps": [[0.1, -0.1, 0]],
    });
    assert_eq!(run_scene(&ok).code, 0);
    let cases: Vec<(&str, Value, &str)> = vec![
        ("/settings/skin", json!(-1), "settings.skin"),
        ("/settings/up", json!([0, 2, 0]), "settings.up"),
        ("/settings/max_slope", json!(2), "settings.max_slope"),
        ("/settings/max_iterations", json!(0), "settings.max_iterations"),
        ("/settings/skni", json!(1), "settings.skni"),
        ("/character/shape", json!({"type": "cuboid", "half_extents": [1, 1, 1]}), "character.shape.type"),
        ("/character/shape", json!({"type": "ball", "radius": -1}), "character.shape.radius"),
        ("/character/position", json!([0, 1]), "character.position"),
        ("/steps/0", json!("far"), "steps[0]"),
        ("/steps/0", json!({"repeat": [[1, 0, 0]]}), "steps[0].repeat"),
        ("/steps/0", json!({"repeat": [[1, 0, 0], -2]}), "steps[0].repeat[1]"),
        ("/steps/0", json!({"repeat": [[1, 0, 0], 1e12]}), "steps[0].repeat[1]"),
        ("/world/0/shape/radius", json!(1), "world[0].shape.radius"),
    ];
    for (pointer, value, want) in cases {
        let mut scene = ok.clone();
        let mut parts = pointer.trim_start_matches('/').split('/').collect::<Vec<_>>();
        let last = parts.pop().unwrap();
        let mut at = &mut scene;
        for p in parts {
            at = if let Ok(i) = p.parse::<usize>() { &mut at[i] } else { &mut at[p] };
        }
        if let Ok(i) = last.parse::<usize>() {
            at[i] = value;
        } else {
            at[last] = value;
        }
        let run = run_scene(&scene);
        assert_eq!(run.code, 1, "{pointer}: {}", run.stdout);
        assert!(run.stderr.contains(want), "{pointer}: {}", run.stderr);
        assert!(run.stdout.is_empty());
    }
    let run = kollide(&["move", "-"], "{not json");
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("not valid JSON"), "{}", run.stderr);
}

/// `kollide demo`: the world demo prints a summary for both walkers and writes the three
/// pictures, checked by structure: the SVGs close, and hold the paths, the contact groups,
/// the bodies, the legend, the titles and the profile lines.
#[test]
fn the_demo_world_runs_and_writes_its_pictures() {
    let dir = std::env::temp_dir().join(format!("kollide-demo-test-{}", std::process::id()));
    let run = kollide(&["demo", "--out", dir.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    for name in ["ball", "ellipsoid"] {
        let line =
            run.stdout.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{}", run.stdout));
        assert!(line.contains("worst penetration 0.00e0 m"), "{line}");
        let steps: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(steps > 500, "{line}");
    }
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    let top = read("demo-top.svg");
    assert!(top.starts_with("<svg") && top.trim_end().ends_with("</svg>"));
    for needle in [
        "id=\"path-ball\"",
        "id=\"path-ellipsoid\"",
        "id=\"contacts-ball\"",
        "class=\"house\"",
        "class=\"bridge\"",
        "class=\"block\"",
        "class=\"tree\"",
        "face contact",
        "edge contact",
        "top view",
    ] {
        assert!(top.contains(needle), "demo-top.svg lacks {needle}");
    }
    assert_eq!(top.matches("class=\"house\"").count(), 3);
    assert_eq!(top.matches("class=\"tree\"").count(), 5);
    for name in ["ball", "ellipsoid"] {
        let p = read(&format!("demo-profile-{name}.svg"));
        assert!(p.trim_end().ends_with("</svg>"));
        for needle in ["id=\"ground\"", "id=\"centre\"", "id=\"bottom\"", "distance walked (m)", "height (m)"]
        {
            assert!(p.contains(needle), "profile {name} lacks {needle}");
        }
        assert!(p.contains(&format!("profile of the {name} path")));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The demo's top view reads truthfully, checked on the SVG's structure: the paths lie over
/// the face contacts, each path's start and end are marked where it starts and ends and
/// labelled off every body and each other, and a tree shows its trunk solid and its crown
/// faint.
#[test]
fn the_demo_top_view_marks_the_ends_and_the_trunks() {
    use roxmltree::{Document, Node};
    let dir = std::env::temp_dir().join(format!("kollide-demo-marks-{}", std::process::id()));
    let run = kollide(&["demo", "--out", dir.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    let num =
        |n: Node, a: &str| -> f64 { n.attribute(a).unwrap_or_else(|| panic!("no {a}")).parse().unwrap() };
    let top_text = read("demo-top.svg");
    let top = Document::parse(&top_text).unwrap();
    let by_id = |id: &str| {
        top.descendants().find(|n| n.attribute("id") == Some(id)).unwrap_or_else(|| panic!("no #{id}"))
    };
    let class = |c: &'static str| top.descendants().filter(move |n| n.attribute("class") == Some(c));
    // Boxes (left, top, right, bottom) a label must not cover: the bodies and tree crowns.
    let mut bodies: Vec<[f64; 4]> = Vec::new();
    for kind in ["house", "bridge", "block"] {
        for p in class(kind) {
            let pts: Vec<f64> =
                p.attribute("points").unwrap().split([' ', ',']).map(|v| v.parse().unwrap()).collect();
            let (xs, ys): (Vec<f64>, Vec<f64>) = pts.chunks(2).map(|c| (c[0], c[1])).unzip();
            let (lo, hi) = (
                |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min),
                |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            );
            bodies.push([lo(&xs), lo(&ys), hi(&xs), hi(&ys)]);
        }
    }
    let trees: Vec<Node> = class("tree").collect();
    assert_eq!(trees.len(), 5);
    for tree in &trees {
        let circle = |c: &str| tree.children().find(|n| n.attribute("class") == Some(c)).unwrap();
        let (trunk, crown) = (circle("trunk"), circle("crown"));
        assert_eq!((num(trunk, "cx"), num(trunk, "cy")), (num(crown, "cx"), num(crown, "cy")));
        let ratio = num(trunk, "r") / num(crown, "r");
        assert!((ratio - kollide_demo::TRUNK_RADIUS / kollide_demo::CROWN_RADIUS).abs() < 0.01, "{ratio}");
        assert!(trunk.attribute("fill-opacity").is_none(), "the trunk is solid");
        assert!(num(crown, "fill-opacity") < 0.3, "the crown is faint");
        let (cx, cy, r) = (num(crown, "cx"), num(crown, "cy"), num(crown, "r"));
        bodies.push([cx - r, cy - r, cx + r, cy + r]);
    }
    let mut labels: Vec<[f64; 4]> = Vec::new();
    for name in ["ball", "ellipsoid"] {
        let path = by_id(&format!("path-{name}"));
        assert!(
            by_id(&format!("contacts-{name}")).range().start < path.range().start,
            "{name}: the path is under the dots"
        );
        let pts: Vec<f64> =
            path.attribute("points").unwrap().split([' ', ',']).map(|v| v.parse().unwrap()).collect();
        let (first, last) = ((pts[0], pts[1]), (pts[pts.len() - 2], pts[pts.len() - 1]));
        let start = by_id(&format!("start-{name}"));
        assert_eq!((num(start, "cx"), num(start, "cy")), first, "{name} start");
        let end = by_id(&format!("end-{name}"));
        let centre = (num(end, "x") + num(end, "width") / 2.0, num(end, "y") + num(end, "height") / 2.0);
        assert!(
            (centre.0 - last.0).abs() < 0.1 && (centre.1 - last.1).abs() < 0.1,
            "{name} end: {centre:?} vs {last:?}"
        );
        for which in ["start", "end"] {
            let text = format!("{name} {which}");
            let label = class("label")
                .find(|n| n.text() == Some(text.as_str()))
                .unwrap_or_else(|| panic!("no label {text:?}"));
            // The text's box, generously: 0.6 em a letter, the font size above the baseline.
            let (x, y, size) = (num(label, "x"), num(label, "y"), 14.0);
            labels.push([x, y - size, x + 0.6 * size * text.len() as f64, y + 3.0]);
        }
    }
    let overlap = |a: &[f64; 4], b: &[f64; 4]| a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
    for (i, l) in labels.iter().enumerate() {
        assert!(!bodies.iter().any(|b| overlap(l, b)), "label {i} {l:?} covers a body");
        assert!(!labels[..i].iter().any(|m| overlap(l, m)), "label {i} {l:?} covers another label");
    }
    assert!(top_text.contains("tree trunk") && top_text.contains("tree crown"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each demo profile labels the script's jumps, at the steps where the walker jumped (all of
/// the script's: each comes when the walker is on the ground).
#[test]
fn the_demo_profiles_label_the_scripted_jumps() {
    use roxmltree::{Document, Node};
    let dir = std::env::temp_dir().join(format!("kollide-demo-jumps-{}", std::process::id()));
    let run = kollide(&["demo", "--out", dir.to_str().unwrap()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    let dw = kollide_demo::build();
    let script_jumps = [kollide_demo::ball_walk(&dw).1.jumps, kollide_demo::ellipsoid_walk(&dw, 0.8).1.jumps];
    for (r, script) in kollide_demo::run(&dw).iter().zip(script_jumps) {
        assert_eq!(r.jumps, script, "{}", r.name);
        let text = read(&format!("demo-profile-{}.svg", r.name));
        let doc = Document::parse(&text).unwrap();
        let marks: Vec<Node> = doc.descendants().filter(|n| n.attribute("class") == Some("jump")).collect();
        let steps: Vec<usize> =
            marks.iter().map(|n| n.attribute("data-step").unwrap().parse().unwrap()).collect();
        assert_eq!(steps, r.jumps.iter().map(|j| j + 1).collect::<Vec<_>>(), "{}", r.name);
        for m in &marks {
            assert!(
                m.descendants().any(|n| n.has_tag_name("text") && n.text() == Some("jump")),
                "{}",
                r.name
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
