//! The demo's pictures: a top view of the world with both paths and their contacts, and
//! each path's side profile over the ground beneath it. Plain SVG, written by hand (a
//! handful of elements; no crate needed).

use kollide::math::DVec3;
use kollide::mover::Character;
use kollide::query::cast::SweepFeature;
use kollide_demo::{DemoWorld, Run, SIDE};
use std::fmt::Write;

/// Colours by contact feature, and by walker.
const FACE: &str = "#2a9d8f";
const EDGE: &str = "#e9a23b";
const VERTEX: &str = "#d62828";
const PATHS: [&str; 2] = ["#1d4ed8", "#9333ea"];

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
    // Bodies.
    let _ = writeln!(s, r#"<g id="bodies">"#);
    for f in &dw.footprints {
        if f.kind == "tree" {
            let (cx, cz) = f.outline[0];
            let _ = writeln!(
                s,
                r##"<circle class="tree" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#1b5e20" stroke="black" stroke-width="1"/>"##,
                x(cx),
                z(cz),
                1.6 * px
            );
            continue;
        }
        let fill = match f.kind {
            "house" => "#b5651d",
            "bridge" => "#8d8d8d",
            _ => "#5c5c70",
        };
        let pts: Vec<String> = f.outline.iter().map(|&(a, b)| format!("{:.1},{:.1}", x(a), z(b))).collect();
        let _ = writeln!(
            s,
            r#"<polygon class="{}" points="{}" fill="{fill}" stroke="black" stroke-width="1.5"/>"#,
            f.kind,
            pts.join(" ")
        );
    }
    let _ = writeln!(s, "</g>");
    // Paths and contacts.
    for (k, run) in runs.iter().enumerate() {
        let pts: Vec<String> = std::iter::once(run.start)
            .chain(run.steps.iter().map(|m| m.position))
            .map(|p| format!("{:.1},{:.1}", x(p.x), z(p.z)))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline class="path" id="path-{}" points="{}" fill="none" stroke="{}" stroke-width="2.5"/>"#,
            run.name,
            pts.join(" "),
            PATHS[k % 2]
        );
        let _ = writeln!(s, r#"<g class="contacts" id="contacts-{}">"#, run.name);
        for m in &run.steps {
            for c in &m.contacts {
                let _ = writeln!(
                    s,
                    r#"<circle class="{}" cx="{:.1}" cy="{:.1}" r="1.8" fill="{}" fill-opacity="0.7"/>"#,
                    c.feature.as_str(),
                    x(c.point.x),
                    z(c.point.z),
                    feature_colour(c.feature)
                );
            }
        }
        let _ = writeln!(s, "</g>");
        let start = run.start;
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="14" fill="{}">{} start</text>"#,
            x(start.x) + 6.0,
            z(start.z) - 6.0,
            PATHS[k % 2],
            run.name
        );
    }
    // Legend.
    let lx = size + 2.0 * margin;
    let mut ly = margin;
    let _ = writeln!(s, r#"<g id="legend" font-size="14">"#);
    for (k, run) in runs.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{}" stroke-width="3"/>"#,
            lx + 30.0,
            PATHS[k % 2]
        );
        let _ = writeln!(s, r#"<text x="{}" y="{}">{} path</text>"#, lx + 38.0, ly + 5.0, run.name);
        ly += 24.0;
    }
    for (name, colour) in [("face contact", FACE), ("edge contact", EDGE), ("vertex contact", VERTEX)] {
        let _ = writeln!(s, r#"<circle cx="{}" cy="{ly}" r="5" fill="{colour}"/>"#, lx + 15.0);
        let _ = writeln!(s, r#"<text x="{}" y="{}">{name}</text>"#, lx + 38.0, ly + 5.0);
        ly += 24.0;
    }
    for (name, colour) in
        [("house", "#b5651d"), ("bridge", "#8d8d8d"), ("block", "#5c5c70"), ("tree", "#1b5e20")]
    {
        let _ = writeln!(
            s,
            r#"<rect x="{}" y="{}" width="20" height="14" fill="{colour}" stroke="black"/>"#,
            lx + 5.0,
            ly - 7.0
        );
        let _ = writeln!(s, r#"<text x="{}" y="{}">{name}</text>"#, lx + 38.0, ly + 5.0);
        ly += 24.0;
    }
    let _ = writeln!(s, "</g>\n</svg>");
    s
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
    let _ = writeln!(s, "</svg>");
    s
}
