//! Independent truth for casts, in f64 (nothing here calls kollide's queries): a ray
//! against the exact Minkowski difference of two polytopes (built from all pairwise vertex
//! differences), and the first overlap along a motion found by sampling and bisection on
//! an independent overlap test.
#![allow(dead_code)]

use glam::{DQuat, DVec2, DVec3};

/// Outward face planes `(unit normal, offset)`, `n·x <= offset` inside, of the convex hull
/// of 2D points, by brute force over pairs: a pair is an edge when every point lies on one
/// side of its line.
pub fn planes_2d(pts: &[DVec2]) -> Vec<(DVec2, f64)> {
    let scale = pts.iter().map(|p| p.abs().max_element()).fold(1e-300, f64::max);
    let eps = 1e-12 * scale;
    let mut out: Vec<(DVec2, f64)> = vec![];
    for i in 0..pts.len() {
        for j in 0..pts.len() {
            let e = pts[j] - pts[i];
            if e.length() <= eps {
                continue;
            }
            let n = DVec2::new(e.y, -e.x).normalize();
            let c = n.dot(pts[i]);
            if pts.iter().all(|p| n.dot(*p) <= c + eps) && !out.iter().any(|(m, _)| m.dot(n) > 1.0 - 1e-12) {
                out.push((n, c));
            }
        }
    }
    out
}

/// The first `t` in `[0, max_t]` at which `t * r` lies in the convex polytope given by
/// `planes` (`n·x <= offset`), by clipping the ray against each plane; `None` when the ray
/// misses it. `Some(0)` when the origin is inside.
pub fn ray_polytope<V: Copy>(
    planes: &[(V, f64)],
    r: V,
    max_t: f64,
    dot: impl Fn(V, V) -> f64,
) -> Option<f64> {
    let (mut enter, mut exit) = (0.0f64, max_t);
    for &(n, c) in planes {
        let nr = dot(n, r);
        if nr == 0.0 {
            if c < 0.0 {
                return None;
            }
        } else if nr < 0.0 {
            enter = enter.max(c / nr);
        } else {
            exit = exit.min(c / nr);
        }
    }
    (enter <= exit).then_some(enter)
}

/// The first time in `[0, max_t]` at which `overlap(t)` holds, from `steps` uniform samples
/// and a bisection (60 halvings) between the last clear sample and the first overlapping
/// one; `None` when no sample overlaps. The answer can only be late by missing an overlap
/// shorter than a step, which the tests keep out by their step count.
pub fn first_overlap(max_t: f64, steps: usize, overlap: impl Fn(f64) -> bool) -> Option<f64> {
    if overlap(0.0) {
        return Some(0.0);
    }
    let mut prev = 0.0;
    for k in 1..=steps {
        let t = max_t * k as f64 / steps as f64;
        if overlap(t) {
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if overlap(mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return Some(hi);
        }
        prev = t;
    }
    None
}

/// Whether two boxes (half extents, centre, rotation) overlap, by the 15 separating axes.
pub fn boxes_overlap_3d(ha: DVec3, ca: DVec3, qa: DQuat, hb: DVec3, cb: DVec3, qb: DQuat, skin: f64) -> bool {
    let ua = [qa * DVec3::X, qa * DVec3::Y, qa * DVec3::Z];
    let ub = [qb * DVec3::X, qb * DVec3::Y, qb * DVec3::Z];
    let mut axes: Vec<DVec3> = ua.iter().chain(ub.iter()).copied().collect();
    for x in ua {
        for y in ub {
            let c = x.cross(y);
            if c.length() > 1e-9 {
                axes.push(c.normalize());
            }
        }
    }
    let d = cb - ca;
    axes.iter().all(|&n| {
        let ra: f64 = (0..3).map(|i| ha[i] * ua[i].dot(n).abs()).sum();
        let rb: f64 = (0..3).map(|i| hb[i] * ub[i].dot(n).abs()).sum();
        d.dot(n).abs() <= ra + rb + skin
    })
}

/// Distance from `p` to the box `[-h, h]` (0 inside).
pub fn point_box_distance(p: DVec3, h: DVec3) -> f64 {
    (p.abs() - h).max(DVec3::ZERO).length()
}

/// The smaller root `t >= 0` of `|d0 + t r| = radius`, from the textbook formula, or `None`.
pub fn sphere_sweep(d0: DVec3, r: DVec3, radius: f64) -> Option<f64> {
    let a = r.dot(r);
    let b = 2.0 * d0.dot(r);
    let c = d0.dot(d0) - radius * radius;
    if c <= 0.0 {
        return Some(0.0);
    }
    let disc = b * b - 4.0 * a * c;
    if a == 0.0 || disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / (2.0 * a);
    (t >= 0.0).then_some(t)
}
