//! The truth for the sweep tests, in f64 and sharing no code with kollide: the closest
//! point of a triangle (or segment) to a point by brute force over its features, and the
//! first time a moving sphere comes within its radius, found by minimising the (convex)
//! distance along the path and bisecting before the minimum.
#![allow(dead_code)]

use glam::DVec3;

/// Which feature of the item holds the closest point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Face,
    Edge,
    Vertex,
}

/// The closest point of an item to a point.
#[derive(Clone, Copy, Debug)]
pub struct Closest {
    pub dist: f64,
    pub point: DVec3,
    pub region: Region,
    /// How far the answer is from switching to another region (a length): a small margin
    /// means the region is a matter of rounding.
    pub margin: f64,
}

fn on_segment(p: DVec3, a: DVec3, b: DVec3) -> (f64, DVec3) {
    let e = b - a;
    let ee = e.length_squared();
    let s = if ee > 0.0 { ((p - a).dot(e) / ee).clamp(0.0, 1.0) } else { 0.0 };
    (s, a + e * s)
}

/// `item`: 2 points (a segment, whose interior is its `Face`) or 3 (a triangle).
pub fn closest(item: &[DVec3], p: DVec3) -> Closest {
    let n = item.len();
    let mut cands: Vec<Closest> = Vec::new();
    // The face of a triangle with area: the foot of the perpendicular, if inside.
    let normal = if n == 3 {
        let c = (item[1] - item[0]).cross(item[2] - item[0]);
        let scale = (item[1] - item[0]).length() * (item[2] - item[0]).length();
        (c.length() > 1.0e-12 * scale).then(|| c.normalize())
    } else {
        None
    };
    // In-plane signed distances of a point to the three edge lines (positive inside).
    let inward = |q: DVec3, nrm: DVec3| -> [f64; 3] {
        let mut out = [0.0; 3];
        for i in 0..3 {
            let (a, b) = (item[i], item[(i + 1) % 3]);
            let e = b - a;
            out[i] = nrm.cross(e).normalize().dot(q - a);
        }
        out
    };
    if let Some(nrm) = normal {
        let foot = p - nrm * nrm.dot(p - item[0]);
        let d = inward(foot, nrm);
        if d.iter().all(|&x| x >= 0.0) {
            cands.push(Closest {
                dist: (p - foot).length(),
                point: foot,
                region: Region::Face,
                margin: d.iter().cloned().fold(f64::MAX, f64::min),
            });
        }
    }
    let edges: Vec<(DVec3, DVec3)> = if n == 2 {
        vec![(item[0], item[1])]
    } else {
        (0..3).map(|i| (item[i], item[(i + 1) % 3])).collect()
    };
    for (i, &(a, b)) in edges.iter().enumerate() {
        let (s, q) = on_segment(p, a, b);
        let len = (b - a).length();
        let interior = s > 0.0 && s < 1.0;
        let region = if !interior {
            Region::Vertex
        } else if n == 2 {
            Region::Face
        } else {
            Region::Edge
        };
        let mut margin = if interior { (s * len).min((1.0 - s) * len) } else { f64::MAX };
        if interior && n == 3 {
            if let Some(nrm) = normal {
                let foot = p - nrm * nrm.dot(p - item[0]);
                margin = margin.min(-inward(foot, nrm)[i]);
            }
        }
        if !interior {
            // A corner: how far the point's projection lies beyond it, along each edge at it.
            let v = q;
            for &(ea, eb) in &edges {
                for (from, to) in [(ea, eb), (eb, ea)] {
                    if (from - v).length() == 0.0 && (to - from).length() > 0.0 {
                        margin = margin.min(-(to - from).normalize().dot(p - from));
                    }
                }
            }
        }
        cands.push(Closest { dist: (p - q).length(), point: q, region, margin });
    }
    let mut best = cands[0];
    for c in &cands[1..] {
        if c.dist < best.dist {
            best = *c;
        }
    }
    // Two regions at (nearly) the same distance: ambiguous.
    for c in &cands {
        if c.region != best.region && (c.point - best.point).length() > 0.0 {
            best.margin = best.margin.min((c.dist - best.dist).abs() * 1.0e6);
        }
    }
    best
}

/// What the oracle says about one item.
#[derive(Clone, Copy, Debug)]
pub enum Truth {
    /// At time 0 the centre is within the radius: `dist` from the item.
    Start { dist: f64, closest: Closest },
    /// First contact at `t`; `depth` is how deep the path goes at its closest (radius
    /// minus the least distance over [0, 1]); `cos` the approach cosine at the contact.
    Hit { t: f64, depth: f64, cos: f64, closest: Closest },
    /// Never within the radius; `clearance` is the least distance minus the radius.
    Miss { clearance: f64 },
}

/// The first contact of a sphere of radius `r` moving from `c` by `d` (t in [0, 1]).
pub fn first_contact(item: &[DVec3], c: DVec3, d: DVec3, r: f64) -> Truth {
    let f = |t: f64| closest(item, c + d * t).dist;
    let f0 = f(0.0);
    if f0 <= r {
        return Truth::Start { dist: f0, closest: closest(item, c) };
    }
    // Golden-section search for the minimum of the convex distance.
    let g = (5.0f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let (mut x1, mut x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..120 {
        if f1 <= f2 {
            hi = x2;
            (x2, f2) = (x1, f1);
            x1 = hi - g * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            (x1, f1) = (x2, f2);
            x2 = lo + g * (hi - lo);
            f2 = f(x2);
        }
    }
    let (mut tmin, mut fmin) = if f1 <= f2 { (x1, f1) } else { (x2, f2) };
    let f_end = f(1.0);
    if f_end < fmin {
        (tmin, fmin) = (1.0, f_end);
    }
    if fmin > r {
        return Truth::Miss { clearance: fmin - r };
    }
    // f(lo) > r >= f(hi) on [0, tmin]: bisect.
    let (mut lo, mut hi) = (0.0, tmin);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > r {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = hi;
    let cl = closest(item, c + d * t);
    let n = (c + d * t - cl.point).normalize_or_zero();
    Truth::Hit { t, depth: r - fmin, cos: -d.normalize_or_zero().dot(n), closest: cl }
}

/// A rotation as the three f64 images of the axes (its columns).
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub cols: [DVec3; 3],
    pub centre: DVec3,
    pub radii: DVec3,
}

impl Frame {
    /// World to the unit sphere's space: diag(1 / radii) Rᵀ (x - centre).
    pub fn to_unit(self, x: DVec3) -> DVec3 {
        let v = x - self.centre;
        DVec3::new(self.cols[0].dot(v), self.cols[1].dot(v), self.cols[2].dot(v)) / self.radii
    }
    pub fn vec_to_unit(self, v: DVec3) -> DVec3 {
        DVec3::new(self.cols[0].dot(v), self.cols[1].dot(v), self.cols[2].dot(v)) / self.radii
    }
    pub fn to_world(self, x: DVec3) -> DVec3 {
        let s = x * self.radii;
        self.cols[0] * s.x + self.cols[1] * s.y + self.cols[2] * s.z + self.centre
    }
    /// A unit-sphere normal to the world: R diag(1 / radii) n', normalised.
    pub fn normal_to_world(self, n: DVec3) -> DVec3 {
        let s = n / self.radii;
        (self.cols[0] * s.x + self.cols[1] * s.y + self.cols[2] * s.z).normalize()
    }
}
