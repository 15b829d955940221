//! The drawing layer of `kollide picture`: primitives in the picture plane and their SVG.
//!
//! A scene is a list of [`Prim`]s in plane coordinates (a 2D query's world coordinates, or
//! a 3D query's fixed oblique projection). A [`Panel`] maps them into a rectangle of the
//! page with one scale for both axes; every marker keeps its world coordinates in a
//! `data-world` attribute, so a test can check that what is drawn is what was answered.

use kollide::math::DVec2;
use std::fmt::Write;

/// How a primitive is painted: a CSS class of the page's style sheet.
pub type Class = &'static str;

/// One thing to draw, in plane coordinates.
#[derive(Clone, Debug)]
pub enum Prim {
    /// A polygon (closed) or a polyline (open).
    Path { points: Vec<DVec2>, closed: bool, class: Class },
    /// A marked point with a label, and its world coordinates (2 or 3 numbers).
    Dot { at: DVec2, world: Vec<f64>, label: String, class: Class },
    /// An arrow from `from` to `to`, labelled at its head.
    Arrow { from: DVec2, to: DVec2, label: String, class: Class },
}

impl Prim {
    /// The plane points this primitive covers (for the panel's bounds).
    pub fn points(&self) -> Vec<DVec2> {
        match self {
            Prim::Path { points, .. } => points.clone(),
            Prim::Dot { at, .. } => vec![*at],
            Prim::Arrow { from, to, .. } => vec![*from, *to],
        }
    }
}

/// The style sheet: A blue, B orange, answers in dark red, steps in green.
pub const STYLE: &str = "\
text{font-family:sans-serif;font-size:12px;fill:#222}\
.title{font-size:16px;font-weight:bold}.caption{font-size:11px}\
.frame{fill:#fff;stroke:#999}.tick{stroke:#999}.ticklabel{font-size:10px;fill:#555}\
.body-a{fill:#4a7bd0;fill-opacity:.25;stroke:#2a5bb0;stroke-width:1.5}\
.body-b{fill:#e08a2c;fill-opacity:.25;stroke:#b0600a;stroke-width:1.5}\
.body-a-later{fill:none;stroke:#2a5bb0;stroke-dasharray:5 3}\
.body-b-later{fill:none;stroke:#b0600a;stroke-dasharray:5 3}\
.edge-a{fill:none;stroke:#2a5bb0;stroke-width:.7}.edge-b{fill:none;stroke:#b0600a;stroke-width:.7}\
.mesh{fill:#d9c7a8;stroke:#8a7453;stroke-width:.4}.mesh-hit{fill:#e85a5a;stroke:#8a2020;stroke-width:.8}\
.path{fill:none;stroke:#666;stroke-dasharray:2 3}\
.answer{fill:#b01818;stroke:#b01818;stroke-width:1.6}.answer-label{fill:#b01818}\
.ray{fill:none;stroke:#b01818;stroke-width:1.2}\
.cso{fill:#9bc49b;fill-opacity:.3;stroke:#4b8a4b}.epa-face{fill:#2f8f2f;fill-opacity:.08;stroke:#1f6f1f;stroke-width:.8}.epa-closest{fill:#e85a5a;fill-opacity:.3;stroke:#b01818;stroke-width:2}.simplex{fill:#2f8f2f;fill-opacity:.25;stroke:#1f6f1f;stroke-width:1.5}\
.origin{fill:#000}.step-v{stroke:#1f6f1f;stroke-width:1.4}.step-w{fill:#d07000}\
.sat-axis{fill:none;stroke:#777;stroke-dasharray:4 3}.sat-a{fill:none;stroke:#2a5bb0;stroke-width:4}.sat-b{fill:none;stroke:#b0600a;stroke-width:4}\
.axis-x{stroke:#c03030}.axis-y{stroke:#30a030}.axis-z{stroke:#3050c0}";

/// A rectangle of the page showing plane coordinates at one scale for both axes.
#[derive(Clone, Copy, Debug)]
pub struct Panel {
    /// Top-left corner of the drawing area on the page, in pixels.
    pub x: f64,
    pub y: f64,
    /// Size of the drawing area, in pixels.
    pub w: f64,
    pub h: f64,
    /// Plane point at the drawing area's centre, and pixels per plane unit.
    centre: DVec2,
    scale: f64,
}

impl Panel {
    /// A panel at `(x, y)` of size `w` by `h` fitting `prims` with a margin of 8%.
    pub fn fit(x: f64, y: f64, w: f64, h: f64, prims: &[Prim]) -> Self {
        let pts: Vec<DVec2> = prims.iter().flat_map(Prim::points).filter(|p| p.is_finite()).collect();
        let (lo, hi) =
            pts.iter().fold((DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)), |(lo, hi), p| {
                (lo.min(*p), hi.max(*p))
            });
        let (centre, span) =
            if pts.is_empty() { (DVec2::ZERO, DVec2::ONE) } else { ((lo + hi) * 0.5, hi - lo) };
        // A scene of one point (or of nothing) still gets a unit square around it.
        let span = span.max(DVec2::splat(span.max_element() * 1e-3)).max(DVec2::splat(f64::MIN_POSITIVE));
        let scale = (w / span.x).min(h / span.y) / 1.16;
        Self { x, y, w, h, centre, scale: if scale.is_finite() && scale > 0.0 { scale } else { 1.0 } }
    }

    /// The page pixel of a plane point (y up in the plane, down on the page).
    pub fn px(&self, p: DVec2) -> DVec2 {
        let d = (p - self.centre) * self.scale;
        DVec2::new(self.x + self.w * 0.5 + d.x, self.y + self.h * 0.5 - d.y)
    }

    /// Plane units per pixel.
    pub fn unit(&self) -> f64 {
        1.0 / self.scale
    }

    /// The plane rectangle the panel shows: (min, max).
    pub fn shown(&self) -> (DVec2, DVec2) {
        let half = DVec2::new(self.w, self.h) * 0.5 / self.scale;
        (self.centre - half, self.centre + half)
    }
}

/// An SVG page being written.
pub struct Page {
    body: String,
    width: f64,
    height: f64,
    /// Where the labels of the current panel went, so the next one steps aside.
    labels: Vec<DVec2>,
}

impl Page {
    /// An empty page of `width` by `height` pixels.
    pub fn new(width: f64, height: f64) -> Self {
        Self { body: String::new(), width, height, labels: Vec::new() }
    }

    /// A text at a page pixel.
    pub fn text(&mut self, at: DVec2, text: &str, class: Class, anchor: &str) {
        let _ = writeln!(
            self.body,
            r#"<text class="{class}" x="{:.2}" y="{:.2}" text-anchor="{anchor}">{}</text>"#,
            at.x,
            at.y,
            escape(text)
        );
    }

    /// A line between page pixels.
    pub fn line(&mut self, a: DVec2, b: DVec2, class: Class) {
        let _ = writeln!(
            self.body,
            r#"<line class="{class}" x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}"/>"#,
            a.x, a.y, b.x, b.y
        );
    }

    /// The panel's background and border, with an optional caption under it.
    pub fn frame(&mut self, panel: &Panel, caption: Option<&str>) {
        let _ = writeln!(
            self.body,
            r#"<rect class="frame" x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}"/>"#,
            panel.x, panel.y, panel.w, panel.h
        );
        for (i, line) in caption.unwrap_or("").lines().enumerate() {
            let at = DVec2::new(panel.x + panel.w * 0.5, panel.y + panel.h + 14.0 + 13.0 * i as f64);
            self.text(at, line, "caption", "middle");
        }
    }

    /// Draws `prims` in `panel`, clipped to it, inside a group with an `id`.
    pub fn draw(&mut self, panel: &Panel, id: &str, prims: &[Prim]) {
        let _ = writeln!(
            self.body,
            r#"<clipPath id="clip-{id}"><rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}"/></clipPath><g id="{id}" clip-path="url(#clip-{id})">"#,
            panel.x, panel.y, panel.w, panel.h
        );
        self.labels.clear();
        for prim in prims {
            self.prim(panel, prim);
        }
        self.body.push_str("</g>\n");
    }

    fn prim(&mut self, panel: &Panel, prim: &Prim) {
        match prim {
            Prim::Path { points, closed, class } => {
                let mut d = String::new();
                for (i, p) in points.iter().map(|p| panel.px(*p)).enumerate() {
                    let _ = write!(d, "{}{:.2} {:.2}", if i == 0 { "M" } else { " L" }, p.x, p.y);
                }
                if *closed {
                    d.push_str(" Z");
                }
                let _ = writeln!(self.body, r#"<path class="{class}" d="{d}"/>"#);
            }
            Prim::Dot { at, world, label, class } => {
                let p = panel.px(*at);
                let world: Vec<String> = world.iter().map(|x| format!("{x}")).collect();
                let _ = writeln!(
                    self.body,
                    r#"<circle class="{class}" cx="{:.2}" cy="{:.2}" r="3.5" data-label="{}" data-world="{}"/>"#,
                    p.x,
                    p.y,
                    escape(label),
                    world.join(" ")
                );
                if !label.is_empty() {
                    let at = self.label_spot(p + DVec2::new(6.0, -6.0));
                    self.text(at, label, "answer-label", "start");
                }
            }
            Prim::Arrow { from, to, label, class } => {
                let (a, b) = (panel.px(*from), panel.px(*to));
                self.line(a, b, class);
                let along = (b - a).normalize_or_zero();
                let side = along.perp();
                for s in [-1.0, 1.0] {
                    self.line(b, b - along * 9.0 + side * 4.0 * s, class);
                }
                if !label.is_empty() {
                    let at = self.label_spot(b + along * 8.0 + DVec2::new(2.0, 4.0));
                    self.text(at, label, "answer-label", "start");
                }
            }
        }
    }

    /// `at`, or below it when a label of the panel is already there (two points at the
    /// same place, such as a cast's touching `point_a` and `point_b`, keep both labels).
    fn label_spot(&mut self, at: DVec2) -> DVec2 {
        let mut spot = at;
        while self.labels.iter().any(|l| (l.y - spot.y).abs() < 12.0 && (l.x - spot.x).abs() < 60.0) {
            spot.y += 13.0;
        }
        self.labels.push(spot);
        spot
    }

    /// Ticks along the panel's bottom and left edges at "nice" plane coordinates.
    pub fn ticks(&mut self, panel: &Panel) {
        let (lo, hi) = panel.shown();
        let step = nice_step((hi - lo).max_element() / 6.0);
        for axis in 0..2 {
            let first = (lo[axis] / step).ceil() as i64;
            let last = (hi[axis] / step).floor() as i64;
            for k in first..=last.min(first + 40) {
                let v = k as f64 * step;
                let label = format_tick(v, step);
                if axis == 0 {
                    let x = panel.px(DVec2::new(v, 0.0)).x;
                    let y = panel.y + panel.h;
                    self.line(DVec2::new(x, y), DVec2::new(x, y + 5.0), "tick");
                    self.text(DVec2::new(x, y + 16.0), &label, "ticklabel", "middle");
                } else {
                    let y = panel.px(DVec2::new(0.0, v)).y;
                    self.line(DVec2::new(panel.x - 5.0, y), DVec2::new(panel.x, y), "tick");
                    self.text(DVec2::new(panel.x - 7.0, y + 3.5), &label, "ticklabel", "end");
                }
            }
        }
    }

    /// The finished SVG document.
    pub fn finish(self) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n<style>{STYLE}</style>\n<rect width=\"{w}\" height=\"{h}\" fill=\"#f6f6f2\"/>\n{}</svg>\n",
            self.body,
            w = self.width,
            h = self.height
        )
    }
}

/// 1, 2 or 5 times a power of ten, near `raw`.
pub fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    p * if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    }
}

/// A tick value with as many decimals as its step needs.
fn format_tick(v: f64, step: f64) -> String {
    if !(1e-4..1e5).contains(&step) {
        return format!("{v:.1e}");
    }
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let v = if v.abs() < step * 1e-9 { 0.0 } else { v };
    format!("{v:.decimals$}")
}

/// `&`, `<`, `>` and `"` as XML entities.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(0.7), 0.5);
        assert_eq!(nice_step(1.2), 1.0);
        assert_eq!(nice_step(2.9), 2.0);
        assert_eq!(nice_step(40.0), 50.0);
        assert_eq!(format_tick(0.5, 0.5), "0.5");
        assert_eq!(format_tick(-2.0, 1.0), "-2");
    }

    #[test]
    fn a_panel_keeps_the_aspect_and_flips_y() {
        let prims =
            [Prim::Path { points: vec![DVec2::ZERO, DVec2::new(4.0, 2.0)], closed: false, class: "ray" }];
        let panel = Panel::fit(0.0, 0.0, 400.0, 400.0, &prims);
        let (a, b) = (panel.px(DVec2::ZERO), panel.px(DVec2::new(4.0, 2.0)));
        assert!((b.x - a.x - 2.0 * (a.y - b.y)).abs() < 1e-9, "one scale for both axes");
        assert!(b.y < a.y, "plane y up is page y down");
    }
}
