//! `kollide viz`: the page's data checked by structure against closed-form truth and against
//! `kollide query` / `kollide move`, and the page itself in a real browser (headless
//! Chromium, driven by `tests/viz/check.mjs`).

use kollide_cli::viz;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The scene data inlined in a page (and a check that the page needs nothing from outside).
fn data(page: &str) -> Value {
    for outside in ["http:", "https:", " src=", "<link", "@import", "url("] {
        assert!(!page.contains(outside), "the page refers to something outside it: {outside}");
    }
    let start = page.find(r#"<script id="scene-data" type="application/json">"#).expect("data element");
    let rest = &page[start..];
    let json = &rest[rest.find('>').unwrap() + 1..rest.find("</script>").unwrap()];
    serde_json::from_str(json).expect("the data parses")
}

/// The labelled points of a frame: (label, [x, y, z]).
fn points(frame: &Value) -> Vec<(String, Vec<f64>)> {
    frame["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| {
            let p = i.get("point")?.as_array()?.iter().map(|x| x.as_f64().unwrap()).collect();
            Some((i["label"].as_str().unwrap().to_string(), p))
        })
        .collect()
}

fn point(frame: &Value, label: &str) -> Vec<f64> {
    let all = points(frame);
    all.iter().find(|p| p.0 == label).unwrap_or_else(|| panic!("no point {label:?} in {all:?}")).1.clone()
}

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

const CIRCLE_RECT: &str = r#"{"query": "distance", "a": {"shape": {"type": "circle", "radius": 0.5}, "translation": [3, 0]}, "b": {"shape": {"type": "rectangle", "half_extents": [1, 2]}, "translation": [0, 0]}}"#;
const BOX_BALL_RAY: &str = r#"{"query": "ray", "b": {"shape": {"type": "ball", "radius": 1}, "translation": [0, 0, 0]}, "origin": [-5, 0, 0], "direction": [1, 0, 0]}"#;
const HULLS_CONTACT: &str = r#"{"query": "contact", "a": {"shape": {"type": "convex_hull", "points": [[0,0,0],[2,0,0],[0,2,0],[0,0,2],[1.5,1.5,1.2]]}, "translation": [0, 0, 0]}, "b": {"shape": {"type": "cylinder", "half_height": 0.8, "radius": 0.7}, "translation": [1.1, 1.0, 0.6], "rotation": [0.2, 0.1, 0.0, 0.9747]}}"#;

#[test]
fn each_query_line_is_a_frame_with_its_bodies_and_the_answer_at_closed_form_coordinates() {
    let file = format!("{CIRCLE_RECT}\n\n{BOX_BALL_RAY}\n{{\"query\": \"nope\"}}\n");
    let d = data(&viz::queries(file.as_bytes(), None, false).unwrap());
    let frames = d["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 3, "a frame per non-blank line");
    // The circle of radius 0.5 at (3, 0) and the rectangle 1 x 2 around the origin: the gap
    // runs from (2.5, 0) to (1, 0), in the z = 0 plane.
    assert!(close(&point(&frames[0], "point_a"), &[2.5, 0.0, 0.0], 1e-12));
    assert!(close(&point(&frames[0], "point_b"), &[1.0, 0.0, 0.0], 1e-12));
    assert!(
        frames[0]["label"].as_str().unwrap().starts_with("line 1, distance: 1.5"),
        "{}",
        frames[0]["label"]
    );
    let meshes: Vec<&Value> =
        frames[0]["items"].as_array().unwrap().iter().filter(|i| i.get("mesh").is_some()).collect();
    assert_eq!(meshes.len(), 2, "two bodies");
    // The rectangle's mesh: its four corners, filled.
    let rect = &d["meshes"][meshes[1]["mesh"].as_u64().unwrap() as usize];
    let v: Vec<f64> = rect["v"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert!(v
        .chunks(3)
        .all(|p| (p[0].abs() - 1.0).abs() < 1e-6 && (p[1].abs() - 2.0).abs() < 1e-6 && p[2] == 0.0));
    assert_eq!(rect["t"].as_array().unwrap().len(), 6, "two triangles");
    // The unit ball hit from (-5, 0, 0) along +x: at (-1, 0, 0).
    assert!(close(&point(&frames[1], "hit"), &[-1.0, 0.0, 0.0], 1e-12));
    assert!(frames[1]["label"].as_str().unwrap().contains("hit at toi 4"), "{}", frames[1]["label"]);
    // A bad line is a frame that says what is wrong, not a failed page.
    assert!(frames[2]["label"].as_str().unwrap().starts_with("line 4:"), "{}", frames[2]["label"]);
    assert_eq!(d["flat"], false, "a file mixing 2D and 3D is shown in 3D");
    assert_eq!(d["refit"], true);
}

#[test]
fn steps_are_a_frame_per_gjk_and_epa_iteration_ending_at_the_depth() {
    let d = data(&viz::queries(HULLS_CONTACT.as_bytes(), None, true).unwrap());
    let labels: Vec<&str> =
        d["frames"].as_array().unwrap().iter().map(|f| f["label"].as_str().unwrap()).collect();
    let gjk = labels.iter().filter(|l| l.starts_with("GJK ")).count();
    let epa: Vec<&&str> = labels.iter().filter(|l| l.starts_with("EPA ")).collect();
    assert!(gjk >= 1 && !epa.is_empty(), "{labels:?}");
    // EPA's last lower bound is the contact's depth, as kollide query answers it.
    let reply: Value =
        serde_json::from_str(&kollide_cli::respond(1, HULLS_CONTACT, kollide_cli::Precision::F64).json)
            .unwrap();
    let depth = -reply["distance"].as_f64().unwrap();
    let last = epa.last().unwrap();
    let lower: f64 =
        last.split("depth at least ").nth(1).unwrap().split(',').next().unwrap().parse().unwrap();
    assert!((lower - depth).abs() <= 1e-9 * depth, "{lower} vs {depth}");
    // Each frame draws the Minkowski difference (one mesh for all) and the origin.
    let first = &d["frames"][0]["items"][0]["mesh"];
    for f in d["frames"].as_array().unwrap() {
        let items = f["items"].as_array().unwrap();
        assert_eq!(&items[0]["mesh"], first, "{}", f["label"]);
        assert!(items.iter().any(|i| i["label"] == "O"), "{}", f["label"]);
    }
    assert!(viz::queries(BOX_BALL_RAY.as_bytes(), None, true).unwrap_err().0.contains("not traced yet"));
}

/// The example move scene's text, and the lines `kollide move` prints for it.
fn example_scene_run() -> (String, Vec<Value>) {
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/move_scene.json");
    let text = std::fs::read_to_string(&scene).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kollide")).arg("move").arg(&scene).output().unwrap();
    let steps =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (text, steps)
}

#[test]
fn a_move_scene_is_a_frame_per_step_where_kollide_move_put_the_character() {
    let (text, steps) = example_scene_run();
    let d = data(&viz::move_run(&text, None, false).unwrap());
    let frames = d["frames"].as_array().unwrap();
    assert_eq!(frames.len(), steps.len());
    for (frame, step) in frames.iter().zip(&steps) {
        let character = frame["items"].as_array().unwrap().iter().find(|i| i.get("mesh").is_some()).unwrap();
        assert_eq!(character["at"], step["position"], "{}", frame["label"]);
        let contacts = frame["items"].as_array().unwrap().iter().filter(|i| i.get("point").is_some()).count();
        assert_eq!(contacts, step["contacts"].as_array().unwrap().len());
    }
    assert!(viz::move_run("{\"world\": 3}", None, false).unwrap_err().0.contains("world"));
}

#[test]
fn ordinals_read_as_english() {
    let cases = [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (10, "10th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (14, "14th"),
        (21, "21st"),
        (22, "22nd"),
        (23, "23rd"),
        (100, "100th"),
        (101, "101st"),
        (111, "111th"),
        (112, "112th"),
        (1013, "1013th"),
        (1021, "1021st"),
    ];
    for (n, want) in cases {
        assert_eq!(viz::ordinal(n), want);
    }
}

/// The demo's walks are longer than [`viz::MAX_FRAMES`] steps: every 2nd step is a frame,
/// and the caption says so in English.
#[test]
fn the_demo_page_says_which_steps_are_frames() {
    let dw = kollide_demo::build();
    let runs = kollide_demo::run(&dw);
    let longest = runs.iter().map(|r| r.steps.len()).max().unwrap();
    assert!((viz::MAX_FRAMES + 1..=2 * viz::MAX_FRAMES).contains(&longest), "{longest} steps");
    let d = data(&viz::demo(&dw, &runs));
    let caption = d["caption"].as_str().unwrap();
    assert!(caption.contains("; every 2nd step is a frame."), "{caption}");
    assert_eq!(d["frames"].as_array().unwrap().len(), longest.div_ceil(2));
}

/// The pages in headless Chromium (driven by `tests/viz/check.mjs` through playwright-core).
/// Nothing is installed here: the test finds the tools (see [`browser_tools`]) and, without
/// them, prints why it skipped; with `KOLLIDE_BROWSER_TESTS=1` (as `.ci/run` sets after
/// installing them) it fails instead, naming what is missing. The page's data is checked by
/// the tests above either way.
#[test]
fn the_pages_draw_in_a_real_browser_and_follow_the_slider() {
    let required = match std::env::var("KOLLIDE_BROWSER_TESTS").as_deref() {
        Ok("1") => true,
        Ok("0" | "") | Err(_) => false,
        Ok(other) => {
            panic!("KOLLIDE_BROWSER_TESTS is {other:?}: set it to 1 (the browser test must run) or 0")
        }
    };
    let tools = match browser_tools() {
        Ok(tools) => tools,
        Err(missing) if required => panic!(
            "KOLLIDE_BROWSER_TESTS=1 but the viz browser test cannot run: {missing} \
             (.ci/browser-tools DIR installs them; KOLLIDE_PLAYWRIGHT_DIR=DIR finds playwright-core)"
        ),
        Err(missing) => {
            // Past the test harness's capture, so that `cargo test` shows it.
            let _ = writeln!(
                std::io::stderr(),
                "\nviz browser test SKIPPED: {missing} (.ci/run installs the tools; \
                 KOLLIDE_BROWSER_TESTS=1 makes this a failure)"
            );
            return;
        }
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("viz");
    std::fs::create_dir_all(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let kollide = env!("CARGO_BIN_EXE_kollide");
    let contact = dir.join("contact.jsonl");
    std::fs::write(&contact, HULLS_CONTACT).unwrap();
    let (queries, scene) = (root.join("examples/queries.jsonl"), root.join("examples/move_scene.json"));
    // The sweep line of the example queries (line 24), and step 39 of the move scene (where
    // the ball meets the turned box's edge and slides along it).
    let runs: [(&str, Vec<&str>); 6] = [
        ("queries", vec!["viz", queries.to_str().unwrap()]),
        ("steps", vec!["viz", contact.to_str().unwrap(), "--steps"]),
        ("sweep-steps", vec!["viz", queries.to_str().unwrap(), "--steps", "--line", "24"]),
        ("move", vec!["viz", scene.to_str().unwrap()]),
        ("move-steps", vec!["viz", scene.to_str().unwrap(), "--steps", "--line", "39"]),
        ("demo", vec!["demo", "--out", dir.to_str().unwrap(), "--viz"]),
    ];
    let mut pages = Vec::new();
    for (name, args) in runs {
        let page = dir.join(format!("{name}.html"));
        let mut cmd = Command::new(kollide);
        cmd.args(&args);
        if name != "demo" {
            cmd.arg("--out");
        }
        let st = cmd.arg(&page).output().unwrap();
        assert!(st.status.success(), "{name}: {}", String::from_utf8_lossy(&st.stderr));
        pages.push(page);
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/viz/check.mjs");
    let out = Command::new("node")
        .env("KOLLIDE_CHROMIUM", &tools.chromium)
        .env("KOLLIDE_PLAYWRIGHT_DIR", &tools.playwright)
        .arg(&script)
        .arg(dir.join("shots"))
        .args(&pages)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    println!("{report}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the browser check failed:\n{report}");
    assert_eq!(report.lines().filter(|l| l.starts_with("ok ")).count(), 6, "{report}");
}

/// Where the browser test finds its tools.
struct BrowserTools {
    /// Chromium's executable.
    chromium: PathBuf,
    /// A folder holding `node_modules/playwright-core`.
    playwright: PathBuf,
}

/// The browser test's tools, or what is missing: Chromium at `$KOLLIDE_CHROMIUM` (default
/// `/usr/bin/chromium`), `node` on the PATH, and playwright-core in
/// `$KOLLIDE_PLAYWRIGHT_DIR/node_modules` (default `$HOME/.cache/kollide-ci`, where
/// `.ci/run` installs it).
fn browser_tools() -> Result<BrowserTools, String> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let chromium = var("KOLLIDE_CHROMIUM").unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    let playwright =
        var("KOLLIDE_PLAYWRIGHT_DIR").or_else(|| var("HOME").map(|home| home.join(".cache/kollide-ci")));
    let mut missing = Vec::new();
    if !chromium.is_file() {
        missing.push(format!("no Chromium at {} (KOLLIDE_CHROMIUM)", chromium.display()));
    }
    if !Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success()) {
        missing.push("no node on the PATH".to_string());
    }
    match &playwright {
        Some(dir) if dir.join("node_modules/playwright-core/package.json").is_file() => {}
        Some(dir) => missing
            .push(format!("no playwright-core in {}/node_modules (KOLLIDE_PLAYWRIGHT_DIR)", dir.display())),
        None => {
            missing.push("no playwright-core: neither KOLLIDE_PLAYWRIGHT_DIR nor HOME is set".to_string())
        }
    }
    match playwright {
        Some(playwright) if missing.is_empty() => Ok(BrowserTools { chromium, playwright }),
        _ => Err(missing.join(", ")),
    }
}

/// Boxes that overlap are answered by separating axes: a frame per axis, with both bodies,
/// the axis and the two projections as bars; the last frame's best is minus the depth,
/// 0.5 for unit boxes overlapping by half a unit along x.
#[test]
fn sat_steps_are_a_frame_per_axis_with_both_projections() {
    let line = r#"{"query": "contact", "a": {"shape": {"type": "cuboid", "half_extents": [1, 1, 1]}, "translation": [0, 0, 0]}, "b": {"shape": {"type": "cuboid", "half_extents": [1, 1, 1]}, "translation": [1.5, 0.2, 0]}}"#;
    let d = data(&viz::queries(line.as_bytes(), None, true).unwrap());
    let frames = d["frames"].as_array().unwrap();
    // 3 + 3 face axes and the 6 edge pairs that are not parallel; no GJK or EPA.
    assert_eq!(frames.len(), 12, "{:?}", frames.iter().map(|f| &f["label"]).collect::<Vec<_>>());
    for f in frames {
        let items = f["items"].as_array().unwrap();
        assert!(f["label"].as_str().unwrap().starts_with("SAT "));
        assert_eq!(items.iter().filter(|i| i.get("mesh").is_some()).count(), 2, "both bodies");
        assert_eq!(items.iter().filter(|i| i.get("width").is_some()).count(), 2, "both projections");
    }
    let face = frames.iter().find(|f| f["label"].as_str().unwrap().contains("A's face 0,")).unwrap();
    // A's projection on x is [-1, 1], drawn along the x axis through A's origin (shifted
    // sideways, square to x).
    let bar = face["items"].as_array().unwrap().iter().find(|i| i.get("width").is_some()).unwrap();
    let xs: Vec<f64> = bar["line"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert!((xs[0] + 1.0).abs() < 1e-12 && (xs[3] - 1.0).abs() < 1e-12, "{xs:?}");
    let last = frames.last().unwrap()["label"].as_str().unwrap();
    let best: f64 = last.split("best so far ").nth(1).unwrap().parse().unwrap();
    assert!((best + 0.5).abs() < 1e-12, "{last}");
}

/// A cast's advancements as frames: both bodies at the time reached and their closest
/// points, the times in order up to the time of impact of the closed form (the rectangle's
/// corner meets the triangle's side at t = 5.9 / 6.5), the points as far apart as the frame
/// says.
#[test]
fn cast_steps_are_a_frame_per_advancement() {
    let line = r#"{"query": "cast", "a": {"shape": {"type": "rectangle", "half_extents": [0.5, 0.2]}, "translation": [0, 3]}, "velocity_a": [0.5, -2], "b": {"shape": {"type": "convex_polygon", "points": [[-2,0],[2,0],[1,1]]}, "translation": [0, 0]}, "max_toi": 5}"#;
    let d = data(&viz::queries(line.as_bytes(), None, true).unwrap());
    let mut last = 0.0;
    for f in d["frames"].as_array().unwrap() {
        let label = f["label"].as_str().unwrap();
        let time: f64 = label.split("time ").nth(1).unwrap().split(',').next().unwrap().parse().unwrap();
        let dist: f64 = label.split("distance ").nth(1).unwrap().parse().unwrap();
        assert!(time >= last, "{label}");
        last = time;
        let (a, b) = (point(f, "a"), point(f, "b"));
        let gap = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
        assert!((gap - dist.abs()).abs() < 1e-9, "{label}: the points are {gap} apart");
        assert_eq!(f["items"].as_array().unwrap().iter().filter(|i| i.get("mesh").is_some()).count(), 2);
    }
    assert!((last - 5.9 / 6.5).abs() < 1e-6, "the last time {last}");
}

/// The command's exit codes: 2 for a file it cannot read, 1 for bad input (naming what is
/// wrong), 0 with the page written.
#[test]
fn the_command_exits_with_what_went_wrong() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("viz-exit");
    std::fs::create_dir_all(&dir).unwrap();
    let kollide = env!("CARGO_BIN_EXE_kollide");
    let run = |args: &[&str]| Command::new(kollide).args(args).output().unwrap();
    let page = dir.join("page.html");
    let page = page.to_str().unwrap();
    let missing = run(&["viz", "/nonexistent/q.jsonl", "--out", page]);
    assert_eq!(missing.status.code(), Some(2));
    let scene = dir.join("bad.json");
    std::fs::write(&scene, r#"{"world": [], "character": {"shape": {"type": "cuboid", "half_extents": [1, 1, 1]}, "position": [0, 0, 0]}, "steps": []}"#).unwrap();
    let bad = run(&["viz", scene.to_str().unwrap(), "--out", page]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("character.shape.type"), "{bad:?}");
    let lines = dir.join("q.jsonl");
    std::fs::write(&lines, format!("{CIRCLE_RECT}\n")).unwrap();
    let no_line = run(&["viz", lines.to_str().unwrap(), "--line", "3", "--out", page]);
    assert_eq!(no_line.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&no_line.stderr).contains("line 3 does not exist"), "{no_line:?}");
    let good = run(&["viz", lines.to_str().unwrap(), "--out", page]);
    assert_eq!(good.status.code(), Some(0));
    assert!(std::fs::read_to_string(page).unwrap().contains("point_a"));
}

/// A sweep's tests, a frame each: the tested triangle painted as hit, the roots' points
/// where the closed form puts them.
#[test]
fn a_sweeps_steps_are_a_frame_per_test() {
    let line = r#"{"query": "sweep", "mover": {"shape": {"type": "ball", "radius": 0.75}, "translation": [0, 1, 0]}, "displacement": [4, 0, 0], "triangles": [[[2, 0, -1], [2, 0, 1], [2, 0.5, 0]]]}"#;
    let d = data(&viz::queries(line.as_bytes(), None, true).unwrap());
    let frames = d["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 7, "the face plane, 3 edges and 3 corners");
    let labels: Vec<&str> = frames.iter().map(|f| f["label"].as_str().unwrap()).collect();
    assert!(
        labels[0].starts_with("test 1: triangle 0, face plane: t = 0.3125, off the triangle"),
        "{labels:?}"
    );
    assert!(labels[6].starts_with("test 7: triangle 0, corner c: t = 0.360"), "{labels:?}");
    assert!(close(&point(&frames[6], "hit"), &[2.0, 0.5, 0.0], 0.0));
    // The plane's foot, unlabelled, at (2, 1, 0).
    assert!(close(&point(&frames[0], ""), &[2.0, 1.0, 0.0], 1e-12));
}

/// A move scene's casts: with --line N, the casts of step N, starting where `kollide move`
/// left the character after step N - 1; without, every step's; a step out of range is named.
#[test]
fn a_move_scenes_steps_are_a_frame_per_cast() {
    let (text, steps) = example_scene_run();
    let mut slides = 0;
    for n in [1, 30, 39, 61, 79] {
        let d = data(&viz::move_run(&text, Some(n), true).unwrap());
        assert_eq!(d["focus"], true);
        let frames = d["frames"].as_array().unwrap();
        assert!(!frames.is_empty(), "step {n}");
        let first = frames[0]["items"].as_array().unwrap().iter().find(|i| i.get("mesh").is_some()).unwrap();
        let from: Vec<f64> = first["at"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        let want: Vec<f64> = if n == 1 {
            vec![-6.0, 2.0, 0.0]
        } else {
            steps[n - 2]["position"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
        };
        // (A start inside is pushed first, without a cast: the example never starts inside.)
        assert!(
            close(&from, &want, 1e-12),
            "step {n}: the casts start at {from:?}, kollide move left {want:?}"
        );
        for f in frames {
            let label = f["label"].as_str().unwrap();
            assert!(label.starts_with(&format!("step {n}, cast ")), "{label}");
            if label.contains("(slide;") && label.contains("met the ") {
                slides += 1;
                assert!(label.contains("planes: wanted"), "{label}");
                let arrows: Vec<&str> = f["items"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|i| i.get("arrow").is_some())
                    .map(|i| i["label"].as_str().unwrap().split(" x").next().unwrap())
                    .collect();
                for want in ["normal", "plane 1", "wanted", "solved"] {
                    assert!(arrows.contains(&want), "{label}: no {want} arrow in {arrows:?}");
                }
            }
        }
    }
    assert!(slides > 0, "no slide met anything");
    let all = data(&viz::move_run(&text, None, true).unwrap());
    assert!(all["frames"].as_array().unwrap().len() > steps.len());
    for bad in [0, steps.len() + 1] {
        let e = viz::move_run(&text, Some(bad), true).unwrap_err().0;
        assert!(e.contains(&format!("--line {bad}")), "{e}");
    }
}
