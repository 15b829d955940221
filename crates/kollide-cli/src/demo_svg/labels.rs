//! Placing the top view's labels: off the bodies, the markers and each other, and off the
//! paths as far as can be.

/// A box on the picture (px): left, top, right, bottom.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    pub fn new(x0: f64, y0: f64, x1: f64, y1: f64) -> Self {
        Rect { x0, y0, x1, y1 }
    }

    pub fn around(points: &[(f64, f64)]) -> Self {
        let mut r = Rect::new(f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &(x, y) in points {
            r = Rect::new(r.x0.min(x), r.y0.min(y), r.x1.max(x), r.y1.max(y));
        }
        r
    }

    pub fn grown(self, by: f64) -> Self {
        Rect::new(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)
    }

    /// The area both boxes cover.
    fn overlap(&self, o: &Rect) -> f64 {
        let w = self.x1.min(o.x1) - self.x0.max(o.x0);
        let h = self.y1.min(o.y1) - self.y0.max(o.y0);
        w.max(0.0) * h.max(0.0)
    }

    fn contains(&self, (x, y): (f64, f64)) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }

    /// The point of the box nearest to `p`.
    fn nearest(&self, (x, y): (f64, f64)) -> (f64, f64) {
        (x.clamp(self.x0, self.x1), y.clamp(self.y0, self.y1))
    }
}

/// Where the labels of a top view go: not on a body, a marker or another label, and on as
/// little of the paths as can be, inside `area`.
pub(super) struct Labels {
    /// Boxes a label must not cover: the bodies, the markers, the labels placed so far.
    pub taken: Vec<Rect>,
    /// The paths' points.
    pub paths: Vec<(f64, f64)>,
    /// The box the labels stay in.
    pub area: Rect,
}

impl Labels {
    /// The box for `text` (of font size `font`) labelling the point `at`: of the spots around
    /// it, from near to far in twelve directions, the one that covers least (a body or label
    /// most of all, then path points, then distance). Returns the box, and where a leader
    /// from `at` meets it when the box is not right next to the point.
    pub fn place(&mut self, at: (f64, f64), text: &str, font: f64) -> (Rect, Option<(f64, f64)>) {
        // A sans-serif letter is about 0.6 em wide at most; 2 px of room each side.
        let (w, h) = (0.6 * font * text.chars().count() as f64 + 4.0, font + 4.0);
        let mut best: Option<(f64, Rect)> = None;
        for gap in [8.0, 16.0, 28.0, 44.0, 64.0, 90.0] {
            for k in 0..12 {
                let angle = f64::from(k) * std::f64::consts::PI / 6.0;
                let (c, s) = (angle.cos(), angle.sin());
                // The box's centre, so that its side toward `at` is `gap` away.
                let reach = gap + 0.5 * (c.abs() * w + s.abs() * h);
                let (cx, cy) = (at.0 + c * reach, at.1 + s * reach);
                let r = Rect::new(cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0);
                if r.x0 < self.area.x0 || r.y0 < self.area.y0 || r.x1 > self.area.x1 || r.y1 > self.area.y1 {
                    continue;
                }
                let covered: f64 = self.taken.iter().map(|t| r.overlap(t)).sum::<f64>() / (w * h);
                let on_path = self.paths.iter().filter(|&&p| r.contains(p)).count() as f64;
                let cost = 1000.0 * covered + 2.0 * on_path + gap;
                if best.is_none_or(|(b, _)| cost < b) {
                    best = Some((cost, r));
                }
            }
        }
        let r = best.map_or(Rect::new(at.0, at.1 - h, at.0 + w, at.1), |(_, r)| r);
        self.taken.push(r);
        let meets = r.nearest(at);
        let far = (meets.0 - at.0).hypot(meets.1 - at.1) > 12.0;
        (r, far.then_some(meets))
    }
}
