//! The demo's pictures: a top view of the world with both paths and their contacts, and
//! each path's side profile over the ground beneath it. Plain SVG, written by hand (a
//! handful of elements; no crate needed).

use kollide::math::DVec3;
use kollide::mover::Character;
use kollide::query::cast::SweepFeature;
use kollide_demo::{DemoWorld, Run, CROWN_CLEARANCE, CROWN_RADIUS, SIDE, TRUNK_RADIUS};
use labels::{Labels, Rect};
use std::fmt::Write;

mod labels;

/// Colours by contact feature, and by walker.
const FACE: &str = "#2a9d8f";
const EDGE: &str = "#e9a23b";
const VERTEX: &str = "#d62828";
const PATHS: [&str; 2] = ["#1d4ed8", "#9333ea"];
/// Colours of the bodies.
const HOUSE: &str = "#b5651d";
const BRIDGE: &str = "#8d8d8d";
const BLOCK: &str = "#5c5c70";
const TREE: &str = "#1b5e20";
const TRUNK: &str = "#4e342e";
/// The profile's jump marks.
const JUMP: &str = "#b91c1c";

fn feature_colour(f: SweepFeature) -> &'static str {
    match f {
        SweepFeature::Face => FACE,
        SweepFeature::Edge => EDGE,
        SweepFeature::Vertex => VERTEX,
    }
}

/// The top view: x to the right, z downward, 6 px per metre.
#[must_use]
pub fn top_view(dw: &DemoWorld, runs: &[Run]) -> String {
    let px = 6.0;
    let margin = 60.0;
    let size = SIDE * px;
    let (w, h) = (size + 2.0 * margin + 200.0, size + 2.0 * margin);
    let x = |v: f64| margin + (v + SIDE / 2.0) * px;
    let z = |v: f64| margin + (v + SIDE / 2.0) * px;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{margin}" y="30" font-size="20">kollide demo: top view (terrain shaded by height, paths and contacts)</text>"#
    );
    // Terrain: 64 x 64 cells shaded from dark (low) to light (high) green.
    let n = 64;
    let cell = SIDE / n as f64;
    let mut heights = Vec::with_capacity(n * n);
    for r in 0..n {
        for c in 0..n {
            let (cx, cz) = (-SIDE / 2.0 + (c as f64 + 0.5) * cell, -SIDE / 2.0 + (r as f64 + 0.5) * cell);
            heights.push((cx, cz, dw.terrain_height(cx, cz)));
        }
    }
    let (lo, hi) =
        heights.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), t| (a.min(t.2), b.max(t.2)));
    let _ = writeln!(s, r#"<g id="terrain">"#);
    for &(cx, cz, hgt) in &heights {
        let t = if hi > lo { (hgt - lo) / (hi - lo) } else { 0.5 };
        let (r, g, b) = (60.0 + 150.0 * t, 100.0 + 130.0 * t, 50.0 + 120.0 * t);
        let _ = writeln!(
            s,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="rgb({:.0},{:.0},{:.0})"/>"#,
            x(cx - cell / 2.0),
            z(cz - cell / 2.0),
            cell * px + 0.3,
            cell * px + 0.3,
            r,
            g,
            b
        );
    }
    let _ = writeln!(s, "</g>");
    // Axis ticks every 16 m.
    let _ = writeln!(s, r#"<g id="axes" font-size="12" fill="black">"#);
    let mut t = -SIDE / 2.0;
    while t <= SIDE / 2.0 + 1e-9 {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{t:.0}</text>"#,
            x(t),
            margin - 8.0
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{t:.0}</text>"#,
            margin - 6.0,
            z(t) + 4.0
        );
        t += 16.0;
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">x (m)</text>"#,
        margin + size / 2.0,
        h - 20.0
    );
    let _ = writeln!(
        s,
        r#"<text x="18" y="{:.1}" transform="rotate(-90 18 {:.1})" text-anchor="middle">z (m)</text>"#,
        margin + size / 2.0,
        margin + size / 2.0
    );
    let _ = writeln!(s, "</g>");
    // Bodies. A tree is drawn as what stands in a walker's way: its trunk, solid; its crown,
    // CROWN_CLEARANCE above the ground, only as a faint outline.
    let mut labels = Labels {
        taken: Vec::new(),
        paths: Vec::new(),
        area: Rect::new(margin, margin, margin + size, margin + size),
    };
    let _ = writeln!(s, r#"<g id="bodies">"#);
    for f in &dw.footprints {
        if f.kind == "tree" {
            let (cx, cz) = (x(f.outline[0].0), z(f.outline[0].1));
            let _ = writeln!(
                s,
                r##"<g class="tree"><circle class="crown" cx="{cx:.1}" cy="{cz:.1}" r="{:.1}" fill="{TREE}" fill-opacity="0.12" stroke="{TREE}" stroke-width="1" stroke-dasharray="3 2"/><circle class="trunk" cx="{cx:.1}" cy="{cz:.1}" r="{:.1}" fill="{TRUNK}" stroke="black" stroke-width="0.6"/></g>"##,
                CROWN_RADIUS * px,
                TRUNK_RADIUS * px
            );
            let r = CROWN_RADIUS * px;
            labels.taken.push(Rect::new(cx - r, cz - r, cx + r, cz + r));
            continue;
        }
        let fill = match f.kind {
            "house" => HOUSE,
            "bridge" => BRIDGE,
            _ => BLOCK,
        };
        let corners: Vec<(f64, f64)> = f.outline.iter().map(|&(a, b)| (x(a), z(b))).collect();
        let pts: Vec<String> = corners.iter().map(|(a, b)| format!("{a:.1},{b:.1}")).collect();
        let _ = writeln!(
            s,
            r#"<polygon class="{}" points="{}" fill="{fill}" stroke="black" stroke-width="1.5"/>"#,
            f.kind,
            pts.join(" ")
        );
        labels.taken.push(Rect::around(&corners).grown(2.0));
    }
    let _ = writeln!(s, "</g>");
    // The face contacts under the paths (small: most lie on the ground below the walker, under
    // its path's own line), the rarer edge and vertex contacts over them; then each path's
    // start and end, marked and labelled.
    let contacts = |s: &mut String, run: &Run, faces: bool| {
        let id =
            if faces { format!("contacts-{}", run.name) } else { format!("contacts-{}-edges", run.name) };
        let _ = writeln!(s, r#"<g class="contacts" id="{id}">"#);
        for c in run.steps.iter().flat_map(|m| &m.contacts) {
            if (c.feature == SweepFeature::Face) == faces {
                let _ = writeln!(
                    s,
                    r#"<circle class="{}" cx="{:.1}" cy="{:.1}" r="{}" fill="{}"/>"#,
                    c.feature.as_str(),
                    x(c.point.x),
                    z(c.point.z),
                    if faces { 1.2 } else { 1.6 },
                    feature_colour(c.feature)
                );
            }
        }
        let _ = writeln!(s, "</g>");
    };
    for run in runs {
        contacts(&mut s, run, true);
    }
    for (k, run) in runs.iter().enumerate() {
        let pts: Vec<(f64, f64)> = std::iter::once(run.start)
            .chain(run.steps.iter().map(|m| m.position))
            .map(|p| (x(p.x), z(p.z)))
            .collect();
        let text: Vec<String> = pts.iter().map(|(a, b)| format!("{a:.1},{b:.1}")).collect();
        let _ = writeln!(
            s,
            r#"<polyline class="path" id="path-{}" points="{}" fill="none" stroke="{}" stroke-width="2" stroke-linejoin="round"/>"#,
            run.name,
            text.join(" "),
            PATHS[k % 2]
        );
        labels.paths.extend(pts);
    }
    for run in runs {
        contacts(&mut s, run, false);
    }
    let ends: Vec<(&str, &str, &str, (f64, f64))> = runs
        .iter()
        .enumerate()
        .flat_map(|(k, run)| {
            let end = run.steps.last().map_or(run.start, |m| m.position);
            [
                (run.name, "start", PATHS[k % 2], (x(run.start.x), z(run.start.z))),
                (run.name, "end", PATHS[k % 2], (x(end.x), z(end.z))),
            ]
        })
        .collect();
    // The labels are placed first (the markers taken), then drawn: leaders, markers, text.
    for &(_, _, _, (ex, ez)) in &ends {
        labels.taken.push(Rect::new(ex - 6.0, ez - 6.0, ex + 6.0, ez + 6.0));
    }
    let placed: Vec<(Rect, Option<(f64, f64)>)> =
        ends.iter().map(|&(name, which, _, at)| labels.place(at, &format!("{name} {which}"), 14.0)).collect();
    let _ = writeln!(s, r#"<g id="ends" font-size="14">"#);
    for (&(_, _, colour, (ex, ez)), &(_, leader)) in ends.iter().zip(&placed) {
        if let Some((lx, lz)) = leader {
            let _ = writeln!(
                s,
                r#"<line class="leader" x1="{ex:.1}" y1="{ez:.1}" x2="{lx:.1}" y2="{lz:.1}" stroke="{colour}" stroke-width="1.2"/>"#
            );
        }
    }
    for &(name, which, colour, (ex, ez)) in &ends {
        let _ = writeln!(s, "{}", marker(which, ex, ez, colour, &format!(r#" id="{which}-{name}""#)));
    }
    for (&(name, which, colour, _), &(rect, _)) in ends.iter().zip(&placed) {
        let _ = writeln!(
            s,
            r#"<text class="label" x="{:.1}" y="{:.1}" fill="{colour}" stroke="white" stroke-width="3" stroke-linejoin="round" paint-order="stroke">{name} {which}</text>"#,
            rect.x0 + 2.0,
            rect.y1 - 4.0
        );
    }
    let _ = writeln!(s, "</g>");
    // Legend: a symbol and a name a row, each row drawn at y = 0 and moved down.
    let lx = size + 2.0 * margin;
    let mut rows: Vec<(String, String)> = Vec::new();
    for (k, run) in runs.iter().enumerate() {
        let line = format!(
            r#"<line x1="{lx}" y1="0" x2="{}" y2="0" stroke="{}" stroke-width="3"/>"#,
            lx + 30.0,
            PATHS[k % 2]
        );
        rows.push((line, format!("{} path", run.name)));
    }
    rows.push((marker("start", lx + 15.0, 0.0, "#333333", ""), "start".into()));
    rows.push((marker("end", lx + 15.0, 0.0, "#333333", ""), "end".into()));
    for (name, colour) in [("face contact", FACE), ("edge contact", EDGE), ("vertex contact", VERTEX)] {
        rows.push((format!(r#"<circle cx="{}" cy="0" r="5" fill="{colour}"/>"#, lx + 15.0), name.into()));
    }
    for (name, colour) in [("house", HOUSE), ("bridge", BRIDGE), ("block", BLOCK)] {
        let rect = format!(
            r#"<rect x="{}" y="-7" width="20" height="14" fill="{colour}" stroke="black"/>"#,
            lx + 5.0
        );
        rows.push((rect, name.into()));
    }
    let trunk = format!(
        r#"<circle cx="{}" cy="0" r="{:.1}" fill="{TRUNK}" stroke="black" stroke-width="0.6"/>"#,
        lx + 15.0,
        TRUNK_RADIUS * px
    );
    rows.push((trunk, "tree trunk".into()));
    let crown = format!(
        r#"<circle cx="{}" cy="0" r="{:.1}" fill="{TREE}" fill-opacity="0.12" stroke="{TREE}" stroke-dasharray="3 2"/>"#,
        lx + 15.0,
        CROWN_RADIUS * px
    );
    rows.push((crown, format!("tree crown ({CROWN_CLEARANCE:.1} m up)")));
    let _ = writeln!(s, r#"<g id="legend" font-size="14">"#);
    for (i, (symbol, name)) in rows.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<g transform="translate(0 {})">{symbol}<text x="{}" y="5">{name}</text></g>"#,
            margin + 24.0 * i as f64,
            lx + 38.0
        );
    }
    let _ = writeln!(s, "</g>\n</svg>");
    s
}

/// A path's start (a ring) or end (a square) marker at (x, y), in `colour`.
fn marker(which: &str, x: f64, y: f64, colour: &str, id: &str) -> String {
    if which == "start" {
        format!(
            r#"<circle class="start"{id} cx="{x:.1}" cy="{y:.1}" r="4.5" fill="white" stroke="{colour}" stroke-width="2.5"/>"#
        )
    } else {
        format!(
            r#"<rect class="end"{id} x="{:.1}" y="{:.1}" width="9" height="9" fill="{colour}" stroke="white" stroke-width="1.5"/>"#,
            x - 4.5,
            y - 4.5
        )
    }
}

/// The side profile of one run: height against distance walked, the character's centre,
/// its lowest point, and the ground beneath it.
#[must_use]
pub fn profile(dw: &DemoWorld, run: &Run) -> String {
    let below = match run.character {
        Character::Ball { radius } => radius,
        Character::Ellipsoid { radii } => radii.y,
        Character::Capsule { half_height, radius } => half_height + radius,
    };
    // Distance along the horizontal path, and heights.
    let mut along = 0.0;
    let mut prev = run.start;
    // (distance walked, centre height, ground height below)
    let mut rows: Vec<[f64; 3]> = Vec::new();
    for m in &run.steps {
        along += DVec3::new(m.position.x - prev.x, 0.0, m.position.z - prev.z).length();
        prev = m.position;
        rows.push([along, m.position.y, dw.ground_below(m.position)]);
    }
    let (w, h, margin) = (1100.0, 420.0, 60.0);
    let total = along.max(1.0);
    let lo = rows.iter().map(|r| r[2].min(r[1] - below)).fold(f64::INFINITY, f64::min).floor() - 1.0;
    let hi = rows.iter().map(|r| r[1] + below).fold(f64::NEG_INFINITY, f64::max).ceil() + 1.0;
    let (lo, hi) = if lo.is_finite() && hi > lo { (lo, hi) } else { (0.0, 1.0) };
    let sx = |d: f64| margin + d / total * (w - 2.0 * margin - 160.0);
    let sy = |y: f64| h - margin - (y - lo) / (hi - lo) * (h - 2.0 * margin);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{margin}" y="28" font-size="18">kollide demo: profile of the {} path ({} steps)</text>"#,
        run.name,
        run.steps.len()
    );
    // Axes with ticks.
    let _ = writeln!(s, r#"<g id="axes" font-size="12">"#);
    let _ = writeln!(
        s,
        r#"<line x1="{margin}" y1="{}" x2="{}" y2="{}" stroke="black"/>"#,
        h - margin,
        sx(total),
        h - margin
    );
    let _ = writeln!(
        s,
        r#"<line x1="{margin}" y1="{margin}" x2="{margin}" y2="{}" stroke="black"/>"#,
        h - margin
    );
    let step = (total / 10.0).max(1.0).round();
    let mut d = 0.0;
    while d <= total + 1e-9 {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{d:.0}</text>"#,
            sx(d),
            h - margin + 16.0
        );
        d += step;
    }
    let ystep = ((hi - lo) / 6.0).max(0.5).round().max(1.0);
    let mut y = lo;
    while y <= hi + 1e-9 {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{:.1}" text-anchor="end">{y:.0}</text>"#,
            margin - 6.0,
            sy(y) + 4.0
        );
        y += ystep;
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{}" text-anchor="middle">distance walked (m)</text>"#,
        sx(total / 2.0),
        h - 16.0
    );
    let _ = writeln!(
        s,
        r#"<text x="16" y="{:.1}" transform="rotate(-90 16 {:.1})" text-anchor="middle">height (m)</text>"#,
        h / 2.0,
        h / 2.0
    );
    let _ = writeln!(s, "</g>");
    let line = |pick: &dyn Fn(&[f64; 3]) -> f64| -> String {
        rows.iter().map(|r| format!("{:.1},{:.1}", sx(r[0]), sy(pick(r)))).collect::<Vec<_>>().join(" ")
    };
    let _ = writeln!(
        s,
        r##"<polyline id="ground" points="{}" fill="none" stroke="#5d4037" stroke-width="2"/>"##,
        line(&|r| r[2])
    );
    let _ = writeln!(
        s,
        r##"<polyline id="centre" points="{}" fill="none" stroke="#1d4ed8" stroke-width="2"/>"##,
        line(&|r| r[1])
    );
    let _ = writeln!(
        s,
        r##"<polyline id="bottom" points="{}" fill="none" stroke="#1d4ed8" stroke-width="1" stroke-dasharray="4 3"/>"##,
        line(&|r| r[1] - below)
    );
    // The script's jumps, so that their humps do not read as glitches: a mark where the
    // walker took off, and "jump" over the hump's top (the highest centre in the 1.5 s after).
    let _ = writeln!(s, r#"<g id="jumps" font-size="13" fill="{JUMP}" text-anchor="middle">"#);
    for &j in &run.jumps {
        let Some(row) = rows.get(j) else { continue };
        let (from_d, from_y) = if j == 0 { (0.0, run.start.y) } else { (rows[j - 1][0], rows[j - 1][1]) };
        let top = rows[j..rows.len().min(j + 90)].iter().fold(*row, |a, r| if r[1] > a[1] { *r } else { a });
        let (fx, fy, tx, ty) = (sx(from_d), sy(from_y), sx(top[0]), sy(top[1]));
        let _ = writeln!(
            s,
            r#"<g class="jump" data-step="{}"><path d="M {:.1} {:.1} L {fx:.1} {:.1} L {:.1} {:.1} Z"/><line x1="{tx:.1}" y1="{:.1}" x2="{tx:.1}" y2="{:.1}" stroke="{JUMP}" stroke-dasharray="2 2"/><text x="{tx:.1}" y="{:.1}">jump</text></g>"#,
            j + 1,
            fx - 4.0,
            fy + 3.0,
            fy - 5.0,
            fx + 4.0,
            fy + 3.0,
            ty - 4.0,
            ty - 14.0,
            ty - 18.0
        );
    }
    let _ = writeln!(s, "</g>");
    // Legend.
    let lx = w - 150.0;
    for (k, (name, colour, dash)) in
        [("ground below", "#5d4037", ""), ("centre", "#1d4ed8", ""), ("lowest point", "#1d4ed8", "4 3")]
            .iter()
            .enumerate()
    {
        let ly = margin + 22.0 * k as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{colour}" stroke-width="2" stroke-dasharray="{dash}"/>"#,
            lx + 28.0
        );
        let _ = writeln!(s, r#"<text x="{}" y="{}" font-size="13">{name}</text>"#, lx + 34.0, ly + 4.0);
    }
    let ly = margin + 66.0;
    let _ = writeln!(
        s,
        r#"<path d="M {} {} L {} {} L {} {} Z" fill="{JUMP}"/><text x="{}" y="{}" font-size="13">jump (take-off)</text>"#,
        lx + 10.0,
        ly + 3.0,
        lx + 14.0,
        ly - 5.0,
        lx + 18.0,
        ly + 3.0,
        lx + 34.0,
        ly + 4.0
    );
    let _ = writeln!(s, "</svg>");
    s
}
