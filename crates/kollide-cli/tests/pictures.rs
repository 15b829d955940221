//! `kollide picture`: each kind of picture rendered and checked by its structure (the SVG
//! parses; the shapes, points and labels are there, at the coordinates of the answer and
//! of closed-form truth), never by pixels.

use kollide_cli::picture::picture;
use roxmltree::{Document, Node};
use std::process::Command;

/// The marked points of a panel: (label, world coordinates, page pixel).
fn dots(doc: &Document, panel: &str) -> Vec<(String, Vec<f64>, (f64, f64))> {
    let group = doc.descendants().find(|n| n.attribute("id") == Some(panel)).expect("panel group");
    group
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| {
            let world = n.attribute("data-world").unwrap().split(' ').map(|x| x.parse().unwrap()).collect();
            let px = (num(n, "cx"), num(n, "cy"));
            (n.attribute("data-label").unwrap().to_string(), world, px)
        })
        .collect()
}

fn num(n: Node, attr: &str) -> f64 {
    n.attribute(attr).unwrap_or_else(|| panic!("no {attr}")).parse().unwrap()
}

fn dot<'a>(all: &'a [(String, Vec<f64>, (f64, f64))], label: &str) -> &'a (String, Vec<f64>, (f64, f64)) {
    all.iter().find(|d| d.0 == label).unwrap_or_else(|| panic!("no dot labelled {label:?} in {all:?}"))
}

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

/// The title text.
fn title(doc: &Document) -> String {
    doc.descendants().find(|n| n.attribute("class") == Some("title")).unwrap().text().unwrap().to_string()
}

/// The text of every caption line, in page order.
fn captions(doc: &Document) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("caption"))
        .filter_map(|n| n.text().map(str::to_string))
        .collect()
}

/// The paths of a class inside a panel.
fn paths<'a>(doc: &'a Document, panel: &str, class: &str) -> Vec<Node<'a, 'a>> {
    let group = doc.descendants().find(|n| n.attribute("id") == Some(panel)).expect("panel group");
    group.descendants().filter(|n| n.has_tag_name("path") && n.attribute("class") == Some(class)).collect()
}

/// The page x pixel of world x, from the main panel's x-axis tick labels (2D pictures).
fn x_axis(doc: &Document) -> impl Fn(f64) -> f64 {
    let ticks: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("ticklabel") && n.attribute("text-anchor") == Some("middle"))
        .map(|n| (n.text().unwrap().parse::<f64>().unwrap(), num(n, "x")))
        .collect();
    assert!(ticks.len() >= 3, "x ticks: {ticks:?}");
    let ((v0, x0), (v1, x1)) = (ticks[0], ticks[ticks.len() - 1]);
    move |v| x0 + (v - v0) * (x1 - x0) / (v1 - v0)
}

const CIRCLE_RECT: &str = r#"{"query": "distance", "a": {"shape": {"type": "circle", "radius": 0.5}, "translation": [3, 0]}, "b": {"shape": {"type": "rectangle", "half_extents": [1, 2]}, "translation": [0, 0]}}"#;

#[test]
fn a_2d_distance_shows_the_closest_points_where_the_closed_form_puts_them() {
    let svg = picture(CIRCLE_RECT.as_bytes(), None, false).unwrap();
    let doc = Document::parse(&svg).expect("the SVG parses");
    assert!(title(&doc).starts_with("distance: 1.5 (converged"), "{}", title(&doc));
    let all = dots(&doc, "main");
    // Circle at (3, 0) of radius 0.5, rectangle to x = 1: the gap runs from (2.5, 0) to (1, 0).
    let (pa, pb) = (dot(&all, "point_a"), dot(&all, "point_b"));
    assert!(close(&pa.1, &[2.5, 0.0], 1e-12) && close(&pb.1, &[1.0, 0.0], 1e-12), "{pa:?} {pb:?}");
    // Drawn where the axis ticks say those coordinates are.
    let x = x_axis(&doc);
    assert!((pa.2 .0 - x(2.5)).abs() < 0.6 && (pb.2 .0 - x(1.0)).abs() < 0.6);
    assert!((pa.2 .1 - pb.2 .1).abs() < 1e-6, "same height on the page");
    // Both bodies are drawn, the rectangle's outline through its corners x = ±1.
    assert_eq!(paths(&doc, "main", "body-a").len(), 1);
    let rect = paths(&doc, "main", "body-b");
    assert_eq!(rect.len(), 1);
    let xs: Vec<f64> = rect[0]
        .attribute("d")
        .unwrap()
        .split(['M', 'L', 'Z'])
        .filter_map(|p| p.split_whitespace().next().map(|v| v.parse::<f64>().unwrap()))
        .collect();
    let (lo, hi) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(*v), h.max(*v)));
    assert!((lo - x(-1.0)).abs() < 0.6 && (hi - x(1.0)).abs() < 0.6, "{lo} {hi}");
    // The normal is an arrow labelled as such.
    assert!(svg.contains(">normal</text>"));
}

#[test]
fn gjk_steps_are_one_panel_per_iteration() {
    // A rectangle and a triangle: GJK's pair (two rectangles, or a rectangle and a convex
    // polygon, have a closed form and record no steps).
    let box_box = r#"{"query": "distance", "a": {"shape": {"type": "rectangle", "half_extents": [1, 0.5]}, "translation": [0, 0], "angle": 0.3}, "b": {"shape": {"type": "triangle", "a": [-0.5, -0.5], "b": [0.5, -0.3], "c": [0.1, 0.6]}, "translation": [3, 1.5], "angle": -0.4}}"#;
    let answer = kollide_cli::respond(1, box_box, kollide_cli::Precision::F64);
    let iterations =
        serde_json::from_str::<serde_json::Value>(&answer.json).unwrap()["iterations"].as_u64().unwrap();
    assert!(iterations >= 2);
    let svg = picture(box_box.as_bytes(), None, true).unwrap();
    let doc = Document::parse(&svg).unwrap();
    for k in 1..=iterations {
        let panel = format!("step-{k}");
        assert_eq!(paths(&doc, &panel, "cso").len(), 1, "{panel}: the Minkowski difference");
        assert_eq!(paths(&doc, &panel, "simplex").len(), 1, "{panel}: the simplex");
        let all = dots(&doc, &panel);
        assert!(close(&dot(&all, "O").1, &[0.0, 0.0], 0.0));
        dot(&all, "w");
        assert!(svg.contains(&format!(">GJK {k}: |v| = ")));
    }
    assert!(!svg.contains(&format!("id=\"step-{}\"", iterations + 1)));
    // The last step's |v| is the distance the title reports (neither shape has a radius).
    let d = serde_json::from_str::<serde_json::Value>(&answer.json).unwrap()["distance"].as_f64().unwrap();
    let last =
        captions(&doc).into_iter().find(|t| t.starts_with(&format!("GJK {iterations}: |v| = "))).unwrap();
    let v: f64 = last.split("|v| = ").nth(1).unwrap().parse().unwrap();
    assert!((v - d).abs() < 1e-6 * d.max(1.0), "{last} against {d}");
}

/// A contact whose cores overlap: GJK's panels, then EPA's, whose last closest face is as
/// deep as the contact (no radii here), with the face nearest the origin marked.
#[test]
fn epa_steps_follow_gjk_when_the_cores_overlap() {
    let line = r#"{"query": "contact", "a": {"shape": {"type": "ellipse", "radii": [1.5, 0.6]}, "translation": [0, 0], "angle": 0.5}, "b": {"shape": {"type": "convex_polygon", "points": [[0, 0], [1.2, -0.3], [1.5, 0.8], [0.4, 1.1]]}, "translation": [0.6, 0.2], "angle": -0.4}}"#;
    let answer = kollide_cli::respond(1, line, kollide_cli::Precision::F64);
    let depth =
        -serde_json::from_str::<serde_json::Value>(&answer.json).unwrap()["distance"].as_f64().unwrap();
    let svg = picture(line.as_bytes(), None, true).unwrap();
    let doc = Document::parse(&svg).unwrap();
    assert!(
        title(&doc).starts_with(&format!("contact: depth {}", &depth.to_string()[..6])),
        "{}",
        title(&doc)
    );
    let captions = captions(&doc);
    let gjk = captions.iter().filter(|c| c.starts_with("GJK ")).count();
    let epa: Vec<&String> = captions.iter().filter(|c| c.starts_with("EPA ")).collect();
    assert!(gjk >= 1 && epa.len() >= 2, "{captions:?}");
    let last: f64 = epa.last().unwrap().split(">= ").nth(1).unwrap().parse().unwrap();
    assert!((last - depth).abs() < 1e-5, "EPA's last lower bound {last} against the depth {depth}");
    for k in 1..=epa.len() {
        let panel = format!("step-{}", gjk + k);
        assert_eq!(paths(&doc, &panel, "epa-closest").len(), 1, "{panel}");
        assert!(!paths(&doc, &panel, "epa-face").is_empty(), "{panel}");
    }
}

#[test]
fn a_3d_manifold_labels_each_point_with_its_feature_ids() {
    let line = r#"{"query": "manifold", "a": {"shape": {"type": "cuboid", "half_extents": [5, 0.5, 5]}, "translation": [0, 0, 0]}, "b": {"shape": {"type": "cuboid", "half_extents": [0.5, 0.5, 0.5]}, "translation": [0, 0.99, 0]}}"#;
    let svg = picture(line.as_bytes(), None, false).unwrap();
    let doc = Document::parse(&svg).unwrap();
    assert!(title(&doc).starts_with("manifold: 4 contact points (converged)"), "{}", title(&doc));
    let all = dots(&doc, "main");
    let labelled: Vec<_> = all.iter().filter(|d| d.0.contains("face 3 / vertex")).collect();
    assert_eq!(labelled.len(), 4, "{all:?}");
    for d in labelled {
        // On the floor's top, at the cube's corners.
        assert!(
            (d.1[1] - 0.5).abs() < 1e-12
                && (d.1[0].abs() - 0.5).abs() < 1e-12
                && (d.1[2].abs() - 0.5).abs() < 1e-12
        );
        assert!(d.0.contains("(-0.01)"), "{}", d.0);
    }
    // Each cuboid is an outline plus its twelve edges; 3D pictures carry an axis triad.
    assert_eq!(paths(&doc, "main", "edge-a").len(), 12);
    assert_eq!(paths(&doc, "main", "edge-b").len(), 12);
    for class in ["axis-x", "axis-y", "axis-z"] {
        assert!(svg.contains(&format!("class=\"{class}\"")));
    }
}

#[test]
fn a_ray_shows_its_origin_hit_and_normal() {
    let line = r#"{"query": "ray", "origin": [-5, 0, 0], "direction": [2, 0, 0], "b": {"shape": {"type": "ball", "radius": 1}, "translation": [0, 0, 0]}}"#;
    let svg = picture(line.as_bytes(), None, false).unwrap();
    let doc = Document::parse(&svg).unwrap();
    assert_eq!(title(&doc), "ray: hit at toi 2");
    let all = dots(&doc, "main");
    assert!(close(&dot(&all, "origin").1, &[-5.0, 0.0, 0.0], 0.0));
    assert!(close(&dot(&all, "hit").1, &[-1.0, 0.0, 0.0], 1e-12));
    assert_eq!(paths(&doc, "main", "ray").len(), 1);
    let miss = r#"{"query": "ray", "origin": [-5, 0, 0], "direction": [1, 0, 0], "max_toi": 3, "b": {"shape": {"type": "cuboid", "half_extents": [1, 1, 1]}, "translation": [0, 0, 0]}}"#;
    let doc_svg = picture(miss.as_bytes(), None, false).unwrap();
    assert_eq!(title(&Document::parse(&doc_svg).unwrap()), "ray: miss (up to toi 3)");
}

#[test]
fn a_cast_draws_the_bodies_at_the_time_of_impact() {
    let line = r#"{"query": "cast", "a": {"shape": {"type": "rectangle", "half_extents": [2, 0.1]}, "translation": [0, 0]}, "b": {"shape": {"type": "circle", "radius": 0.5}, "translation": [0, 1.5]}, "angular_velocity_a": 1, "max_toi": 2}"#;
    let svg = picture(line.as_bytes(), None, false).unwrap();
    let doc = Document::parse(&svg).unwrap();
    assert!(title(&doc).starts_with("cast: hit at toi 1.159"), "{}", title(&doc));
    // The plank at time 0 and, dashed, turned by the toi; the circle does not move.
    assert_eq!(paths(&doc, "main", "body-a").len(), 1);
    assert_eq!(paths(&doc, "main", "body-a-later").len(), 1);
    assert_eq!(paths(&doc, "main", "body-b-later").len(), 0);
    // It touches when cos θ = 0.4 (the plank's top edge reaches the circle).
    let all = dots(&doc, "main");
    let pb = &dot(&all, "point_b").1;
    assert!(
        ((pb[0] * pb[0] + (pb[1] - 1.5) * (pb[1] - 1.5)).sqrt() - 0.5).abs() < 1e-6,
        "on the circle: {pb:?}"
    );
}

#[test]
fn a_sweep_highlights_the_triangle_and_feature_it_hit() {
    let line = r#"{"query": "sweep", "mover": {"shape": {"type": "ball", "radius": 0.5}, "translation": [-2, 0.5, 2]}, "displacement": [4, 0, 0], "triangles": [[[0, 0, 0], [0, 2, 0], [0, 0, 2]], [[5, 0, 0], [5, 2, 0], [5, 0, 2]]]}"#;
    let svg = picture(line.as_bytes(), None, false).unwrap();
    let doc = Document::parse(&svg).unwrap();
    assert!(title(&doc).starts_with("sweep: hit the edge of triangle 0 at toi 0.4116"), "{}", title(&doc));
    assert_eq!(paths(&doc, "main", "mesh-hit").len(), 1);
    assert_eq!(paths(&doc, "main", "mesh").len(), 1);
    // The edge from (0, 2, 0) to (0, 0, 2) is met at (0, 0.25, 1.75), and the mover is
    // drawn there (dashed).
    let all = dots(&doc, "main");
    assert!(close(&dot(&all, "edge hit").1, &[0.0, 0.25, 1.75], 1e-12));
    assert_eq!(paths(&doc, "main", "body-a-later").len(), 1);
}

#[test]
fn composites_draw_their_parts() {
    let mesh = r#"{"query": "distance", "a": {"shape": {"type": "trimesh", "vertices": [[-2, 0, -2], [2, 0, -2], [2, 0, 2], [-2, 0, 2]], "indices": [[0, 2, 1], [0, 3, 2]]}, "translation": [0, 0, 0]}, "b": {"shape": {"type": "ball", "radius": 0.5}, "translation": [1, 2, -1]}}"#;
    let svg = picture(mesh.as_bytes(), None, true).unwrap();
    let doc = Document::parse(&svg).unwrap();
    assert_eq!(paths(&doc, "main", "mesh").len(), 2);
    assert!(
        svg.contains("GJK&apos;s steps are drawn for two convex bodies")
            || svg.contains("drawn for two convex bodies")
    );
    let concave = r#"{"query": "intersects", "a": {"shape": {"type": "concave_polygon", "points": [[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]]}, "translation": [0, 0]}, "b": {"shape": {"type": "circle", "radius": 0.25}, "translation": [1.5, 1.5]}}"#;
    let doc_svg = picture(concave.as_bytes(), None, false).unwrap();
    let doc = Document::parse(&doc_svg).unwrap();
    assert_eq!(title(&doc), "intersects: the shapes are apart");
    assert_eq!(paths(&doc, "main", "body-a").len(), 1, "the polygon's outline");
    assert!(!paths(&doc, "main", "edge-a").is_empty(), "and its pieces' diagonals");
}

#[test]
fn bad_lines_are_named() {
    let two = format!("{CIRCLE_RECT}\n\n{{\"query\": \"distance\"}}\n");
    assert!(picture(two.as_bytes(), Some(2), false).unwrap_err().to_string().contains("line 2 is blank"));
    assert!(picture(two.as_bytes(), Some(7), false)
        .unwrap_err()
        .to_string()
        .contains("line 7 does not exist"));
    let e = picture(two.as_bytes(), Some(3), false).unwrap_err().to_string();
    assert!(e.starts_with("line 3: ") && e.contains("a"), "{e}");
    assert!(picture(two.as_bytes(), Some(1), false).is_ok());
}

#[test]
fn the_binary_writes_the_picture() {
    let dir = std::env::temp_dir().join(format!("kollide-picture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input, out) = (dir.join("q.jsonl"), dir.join("p.svg"));
    std::fs::write(&input, format!("{CIRCLE_RECT}\n")).unwrap();
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_kollide")).args(args).output().unwrap();
    let ok = run(&["picture", input.to_str().unwrap(), "--out", out.to_str().unwrap(), "--steps"]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    Document::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let bad = run(&["picture", input.to_str().unwrap(), "--out", out.to_str().unwrap(), "--line", "5"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("line 5 does not exist"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The picture in the README is what the tool draws today (regenerate it with the command
/// the README gives when the drawing changes on purpose).
#[test]
fn the_readme_picture_is_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/pictures");
    let query = std::fs::read_to_string(root.join("gjk-distance.jsonl")).unwrap();
    let shipped = std::fs::read_to_string(root.join("gjk-distance.svg")).unwrap();
    assert!(
        shipped == picture(query.as_bytes(), None, true).unwrap(),
        "examples/pictures/gjk-distance.svg is stale: regenerate it"
    );
}

/// Polygons that overlap are answered by separating axes: a panel per axis tried, with both
/// projections as bars, and the best separation of the last one equal to minus the depth.
/// The count is the library's trace; the depth is checked against a closed form: B's corner
/// reaches deepest past A's edge from (2, 0) to (2.5, 1.5).
#[test]
fn sat_steps_show_each_axis_with_both_projections() {
    let line = r#"{"query": "contact", "a": {"shape": {"type": "convex_polygon", "points": [[0,0],[2,0],[2.5,1.5],[0.5,2]]}, "translation": [0, 0]}, "b": {"shape": {"type": "rectangle", "half_extents": [1, 0.5]}, "translation": [2.6, 1.0], "angle": 0.4}}"#;
    // Along the outward normal of A's edge from (2, 0) to (2.5, 1.5), A reaches that edge and
    // B (its corners turned by 0.4 about (2.6, 1)) comes down to its lowest corner.
    let (s, c) = 0.4f64.sin_cos();
    let n = (1.5 / 1.5f64.hypot(0.5), -0.5 / 1.5f64.hypot(0.5));
    let lowest = [(-1.0, -0.5), (1.0, -0.5), (1.0, 0.5), (-1.0, 0.5)]
        .map(|(x, y)| (2.6 + c * x - s * y, 1.0 + s * x + c * y))
        .map(|(x, y)| (x - 2.0) * n.0 + y * n.1)
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    let depth = -lowest;
    let svg = picture(line.as_bytes(), None, true).unwrap();
    let doc = Document::parse(&svg).unwrap();
    assert!(
        title(&doc).starts_with(&format!("contact: depth {}", &depth.to_string()[..6])),
        "{} vs {depth}",
        title(&doc)
    );
    let texts = captions(&doc);
    let sat = texts.iter().filter(|t| t.starts_with("SAT ")).count();
    let mut trace = kollide::query::ContactTrace::default();
    let pa = kollide::shape::ConvexPolygon::from_points(&[
        kollide::math::DVec2::new(0.0, 0.0),
        kollide::math::DVec2::new(2.0, 0.0),
        kollide::math::DVec2::new(2.5, 1.5),
        kollide::math::DVec2::new(0.5, 2.0),
    ]);
    let pb = kollide::shape::Cuboid::new(kollide::math::DVec2::new(1.0, 0.5));
    let pose_b = kollide::math::DPose2::from_angle(kollide::math::DVec2::new(2.6, 1.0), 0.4);
    let _ =
        kollide::query::contact(&pa, &kollide::math::DPose2::IDENTITY, &pb, &pose_b, 0.0, Some(&mut trace));
    assert!(sat >= 2 && sat == trace.sat.len(), "{sat} panels, {} axes: {texts:?}", trace.sat.len());
    for k in 1..=sat {
        let panel = format!("step-{k}");
        assert_eq!(paths(&doc, &panel, "sat-a").len(), 1, "{panel}");
        assert_eq!(paths(&doc, &panel, "sat-b").len(), 1, "{panel}");
    }
    let last = texts.iter().rfind(|t| t.starts_with("s = ")).unwrap();
    let best: f64 = last.split("best ").nth(1).unwrap().parse().unwrap();
    assert!((best + depth).abs() < 1e-4, "{last} vs depth {depth}");
}

/// A cast's advancements: a rectangle falling and drifting onto a triangle. Its bottom right
/// corner (0.5 + t/2, 2.8 - 2t) meets the side y = (x + 2) / 3 at t = 5.9 / 6.5. The panels'
/// times never go back, and the last is that time.
#[test]
fn cast_steps_advance_to_the_time_of_impact() {
    let line = r#"{"query": "cast", "a": {"shape": {"type": "rectangle", "half_extents": [0.5, 0.2]}, "translation": [0, 3]}, "velocity_a": [0.5, -2], "b": {"shape": {"type": "convex_polygon", "points": [[-2,0],[2,0],[1,1]]}, "translation": [0, 0]}, "max_toi": 5}"#;
    let toi = 5.9 / 6.5;
    let svg = picture(line.as_bytes(), None, true).unwrap();
    let doc = Document::parse(&svg).unwrap();
    let times: Vec<f64> = captions(&doc)
        .iter()
        .filter(|t| t.starts_with("advance "))
        .map(|t| t.split("t = ").nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(!times.is_empty() && times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    assert!((times.last().unwrap() - toi).abs() < 1e-5, "{times:?} against {toi}");
    for k in 1..=times.len() {
        let marks = dots(&doc, &format!("step-{k}"));
        assert_eq!(marks.len(), 2, "the closest points a and b");
    }
}

/// A ball rolling over a small upright triangle's top corner, with `--steps`: a panel per
/// test, in the library's order, the face plane's foot and the edge lines' points off
/// their features, and the corner hit at the closed-form time.
#[test]
fn sweep_steps_show_each_feature_test_with_its_root() {
    let line = r#"{"query": "sweep", "mover": {"shape": {"type": "ball", "radius": 0.75}, "translation": [0, 1, 0]}, "displacement": [4, 0, 0], "triangles": [[[2, 0, -1], [2, 0, 1], [2, 0.5, 0]]]}"#;
    let svg = picture(line.as_bytes(), None, true).unwrap();
    let doc = Document::parse(&svg).unwrap();
    let captions: Vec<String> = captions(&doc)
        .into_iter()
        .filter(|t| t.contains(". triangle 0, ") || t.starts_with("t = ") || t == "no root")
        .collect();
    let tests = [
        "1. triangle 0, face plane",
        "2. triangle 0, edge 0 (a-b)",
        "3. triangle 0, edge 1 (b-c)",
        "4. triangle 0, edge 2 (c-a)",
        "5. triangle 0, corner a",
        "6. triangle 0, corner b",
        "7. triangle 0, corner c",
    ];
    for t in tests {
        assert!(captions.iter().any(|c| c == t), "no caption {t:?} in {captions:?}");
    }
    // The plane x = 2 is reached at t = 1.25 / 4, its foot (2, 1, 0) above the triangle.
    assert!(captions.iter().any(|c| c == "t = 0.3125, off the triangle"), "{captions:?}");
    let foot = dots(&doc, "step-1");
    assert!(close(&foot[0].1, &[2.0, 1.0, 0.0], 1e-12), "{foot:?}");
    // The corner (2, 0.5, 0), 0.5 below the path, at t = (2 - √(0.75² - 0.25)) / 4.
    let t = (2.0 - (0.5625f64 - 0.25).sqrt()) / 4.0;
    assert!(captions.iter().any(|c| c == &format!("t = {t:.6}: hit")), "{captions:?}");
    assert!(close(&dot(&dots(&doc, "step-7"), "hit").1, &[2.0, 0.5, 0.0], 0.0));
    // The mover drawn where each root puts it: panels 1, 3, 4 and 7 have a root.
    for (k, root) in [(1, true), (2, false), (3, true), (4, true), (5, false), (6, false), (7, true)] {
        assert_eq!(paths(&doc, &format!("step-{k}"), "body-a-later").is_empty(), !root, "panel {k}");
    }
    // Through a composite: explained, not traced.
    let through = r#"{"query": "sweep", "mover": {"shape": {"type": "ball", "radius": 0.5}, "translation": [0, 2, 0]}, "displacement": [0, -3, 0], "b": {"shape": {"type": "trimesh", "vertices": [[-1, 0, -1], [1, 0, -1], [0, 0, 1]], "indices": [[0, 2, 1]]}, "translation": [0, 0, 0]}}"#;
    let svg = picture(through.as_bytes(), None, true).unwrap();
    assert!(svg.contains("is not traced"), "{svg}");
}
