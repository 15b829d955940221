//! Independent f64 truth for ray casts. Nothing here calls kollide's queries.
//!
//! Each solid is a convex function `g` with `g <= 0` exactly on the solid and `|∇g| <= 1`
//! (so `g(p)` never exceeds the distance from `p` to the solid: a "distance-like" value),
//! plus its support function. Along a ray `f(t) = g(o + t d)` is convex, so the ray meets
//! the solid iff the minimum of `f` (golden-section search) is `<= 0`, and the entry and
//! exit are found by bisection on either side of it.
#![allow(dead_code)]

use crate::common::oracle::{boundary_triangles, point_ellipsoid, point_segment, point_triangle};
use crate::common::RotF64;
use glam::DVec3;
use kollide::math::Pose;
use kollide::query::Space;

/// A solid in its local frame (2D solids lie in `z = 0`; `dim` says which).
#[derive(Clone, Debug)]
pub enum Solid {
    Ball {
        centre: DVec3,
        r: f64,
    },
    Capsule {
        a: DVec3,
        b: DVec3,
        r: f64,
    },
    /// The box `[-h, h]` grown by `r`.
    Box {
        h: DVec3,
        r: f64,
        dim: usize,
    },
    /// The hull of `verts` grown by `r`; planes (unit normal, offset) and boundary pieces
    /// (triangles in 3D, edges in 2D as `[i, j, j]`) found by brute force.
    Polytope {
        verts: Vec<DVec3>,
        planes: Vec<(DVec3, f64)>,
        pieces: Vec<[usize; 3]>,
        r: f64,
        dim: usize,
    },
    /// Semi-axes `radii` (2D: `radii.z = 1`), grown by `r`.
    Ellipsoid {
        radii: DVec3,
        r: f64,
    },
    Cylinder {
        r: f64,
        h: f64,
    },
    /// Apex at `+h`, base of radius `r` at `-h`.
    Cone {
        r: f64,
        h: f64,
    },
}

impl Solid {
    /// The hull of `verts` (2D when `dim == 2`, the points in `z = 0`), grown by `r`.
    pub fn polytope(verts: Vec<DVec3>, r: f64, dim: usize) -> Self {
        let c = verts.iter().copied().sum::<DVec3>() / verts.len() as f64;
        let mut planes = vec![];
        let mut pieces = vec![];
        if dim == 2 {
            for i in 0..verts.len() {
                for j in 0..verts.len() {
                    let e = verts[j] - verts[i];
                    if i == j || e.length() == 0.0 {
                        continue;
                    }
                    let n = DVec3::new(e.y, -e.x, 0.0).normalize();
                    let off = n.dot(verts[i]);
                    if verts.iter().all(|p| n.dot(*p) <= off + 1e-12) && n.dot(c) < off {
                        planes.push((n, off));
                        pieces.push([i, j, j]);
                    }
                }
            }
        } else {
            for t in boundary_triangles(&verts) {
                let [i, j, k] = t;
                let mut n = (verts[j] - verts[i]).cross(verts[k] - verts[i]).normalize();
                if n.dot(c - verts[i]) > 0.0 {
                    n = -n;
                }
                planes.push((n, n.dot(verts[i])));
                pieces.push(t);
            }
        }
        Solid::Polytope { verts, planes, pieces, r, dim }
    }

    /// The convex, distance-like function that is `<= 0` exactly on the solid.
    pub fn g(&self, p: DVec3) -> f64 {
        match self {
            Solid::Ball { centre, r } => (p - *centre).length() - r,
            Solid::Capsule { a, b, r } => point_segment(p, *a, *b) - r,
            Solid::Box { h, r, dim } => {
                let q: Vec<f64> = (0..*dim).map(|i| p[i].abs() - h[i]).collect();
                let out = q.iter().map(|x| x.max(0.0).powi(2)).sum::<f64>().sqrt();
                let inside = q.iter().copied().fold(f64::MIN, f64::max).min(0.0);
                out + inside - r
            }
            Solid::Polytope { verts, planes, pieces, r, dim } => {
                let s = planes.iter().map(|(n, d)| n.dot(p) - d).fold(f64::MIN, f64::max);
                if *r == 0.0 || s <= 0.0 {
                    return s - r;
                }
                let dist = pieces
                    .iter()
                    .map(|&[i, j, k]| {
                        if *dim == 2 {
                            point_segment(p, verts[i], verts[j])
                        } else {
                            point_triangle(p, verts[i], verts[j], verts[k])
                        }
                    })
                    .fold(f64::MAX, f64::min);
                dist - r
            }
            Solid::Ellipsoid { radii, r } => {
                if *r > 0.0 {
                    let d = point_ellipsoid(p, *radii);
                    if d > 0.0 {
                        return d - r;
                    }
                }
                ((p / *radii).length() - 1.0) * radii.min_element() - r
            }
            Solid::Cylinder { r, h } => (p.y.abs() - h).max(p.x.hypot(p.z) - r),
            Solid::Cone { r, h } => {
                let k = r / (2.0 * h);
                let side = (p.x.hypot(p.z) - k * (h - p.y)) / (1.0 + k * k).sqrt();
                (p.y.abs() - h).max(side)
            }
        }
    }

    /// `max over the solid of n · x`.
    pub fn support(&self, n: DVec3) -> f64 {
        let radial = n.x.hypot(n.z);
        match self {
            Solid::Ball { centre, r } => n.dot(*centre) + r * n.length(),
            Solid::Capsule { a, b, r } => n.dot(*a).max(n.dot(*b)) + r * n.length(),
            Solid::Box { h, r, dim } => (0..*dim).map(|i| n[i].abs() * h[i]).sum::<f64>() + r * n.length(),
            Solid::Polytope { verts, r, .. } => {
                verts.iter().map(|v| n.dot(*v)).fold(f64::MIN, f64::max) + r * n.length()
            }
            Solid::Ellipsoid { radii, r } => (*radii * n).length() + r * n.length(),
            Solid::Cylinder { r, h } => h * n.y.abs() + r * radial,
            Solid::Cone { r, h } => (h * n.y).max(-h * n.y + r * radial),
        }
    }

    /// A radius about the local origin that encloses the solid.
    pub fn reach(&self) -> f64 {
        match self {
            Solid::Ball { centre, r } => centre.length() + r,
            Solid::Capsule { a, b, r } => a.length().max(b.length()) + r,
            Solid::Box { h, r, .. } => h.length() + r,
            Solid::Polytope { verts, r, .. } => verts.iter().map(|v| v.length()).fold(0.0, f64::max) + r,
            Solid::Ellipsoid { radii, r } => radii.max_element() + r,
            Solid::Cylinder { r, h } | Solid::Cone { r, h } => r.hypot(*h),
        }
    }
}

/// What the oracle says about a ray (times in units of its direction, local frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Truth {
    Miss,
    /// Enters at this time `> 0` (before any `max_toi`).
    Hit(f64),
    /// Starts inside; leaves at this time.
    Inside(f64),
    /// Within `band` of tangent, or starting within `band` of the surface: either answer
    /// is defensible, not checked.
    Borderline,
}

/// The oracle's answer for the ray `o + t d` (local frame, `t >= 0`), with `band` the
/// distance-like margin under which grazing rays and starts on the surface are not judged.
pub fn cast(solid: &Solid, o: DVec3, d: DVec3, band: f64) -> Truth {
    let f = |t: f64| solid.g(o + d * t);
    // Beyond the enclosing ball (grown a little) the line is outside.
    let (dd, b) = (d.dot(d), o.dot(d));
    let big = solid.reach() * 1.01 + band;
    let disc = b * b - dd * (o.dot(o) - big * big);
    if disc < 0.0 {
        return Truth::Miss;
    }
    let (t_in, t_out) = ((-b - disc.sqrt()) / dd, (-b + disc.sqrt()) / dd);
    if t_out <= 0.0 {
        return Truth::Miss;
    }
    let f0 = f(0.0);
    if f0.abs() <= band {
        return Truth::Borderline;
    }
    if f0 < 0.0 {
        return Truth::Inside(bisect(&f, 0.0, t_out));
    }
    let (lo, hi) = (t_in.max(0.0), t_out);
    let (tm, fm) = golden_min(&f, lo, hi);
    if fm > band {
        return Truth::Miss;
    }
    if fm > -band {
        return Truth::Borderline;
    }
    Truth::Hit(bisect(&f, lo.min(tm), tm))
}

/// The time in `[a, b]` where `f` changes sign (`f(a)` and `f(b)` of opposite signs).
fn bisect(f: &impl Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    let sa = f(a) <= 0.0;
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if m == a || m == b {
            break;
        }
        if (f(m) <= 0.0) == sa {
            a = m;
        } else {
            b = m;
        }
    }
    0.5 * (a + b)
}

/// The minimum of the convex `f` over `[a, b]`.
fn golden_min(f: &impl Fn(f64) -> f64, mut a: f64, mut b: f64) -> (f64, f64) {
    let r = 0.5 * (5f64.sqrt() - 1.0);
    let (mut x1, mut x2) = (b - r * (b - a), a + r * (b - a));
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..120 {
        if f1 <= f2 {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - r * (b - a);
            f1 = f(x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + r * (b - a);
            f2 = f(x2);
        }
    }
    if f1 <= f2 {
        (x1, f1)
    } else {
        (x2, f2)
    }
}

/// A pose in f64 from its own numbers: `to_local(p) = Rᵀ (p - t)`.
pub struct Frame {
    cols: [DVec3; 3],
    t: DVec3,
    dim: usize,
}

impl Frame {
    pub fn of<V: Space>(pose: &Pose<V>) -> Self
    where
        V::Rotation: RotF64<V>,
    {
        let col = |i: usize| {
            let mut e = [0.0; 3];
            e[i] = 1.0;
            DVec3::from_array(pose.rotation.rotate_f64(e, [0.0; 3]))
        };
        Frame {
            cols: [col(0), col(1), col(2)],
            t: DVec3::from_array(pose.translation.to_f64_array()),
            dim: V::DIM,
        }
    }

    pub fn vector_to_local(&self, v: DVec3) -> DVec3 {
        let mut out = DVec3::ZERO;
        for i in 0..self.dim {
            out[i] = self.cols[i].dot(v);
        }
        out
    }

    pub fn point_to_local(&self, p: DVec3) -> DVec3 {
        self.vector_to_local(p - self.t)
    }

    pub fn point_to_world(&self, p: DVec3) -> DVec3 {
        (0..self.dim).fold(self.t, |acc, i| acc + self.cols[i] * p[i])
    }
}
