//! Independent truth in f64: brute force over feature pairs and over separating axes.
//!
//! Nothing here calls kollide. Distances between convex polytopes are the minimum over
//! vertex-face and edge-edge pairs (the faces and edges found by brute force over all
//! triples and pairs of vertices: diagonals and sub-triangles lie inside the polytope, so
//! including them cannot lower the minimum below the true one); overlap is decided by the
//! separating-axis theorem over every face normal and every edge-direction cross product.

use glam::{DVec2, DVec3};

pub fn point_segment(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let ab = b - a;
    let l2 = ab.length_squared();
    let t = if l2 > 0.0 { ((p - a).dot(ab) / l2).clamp(0.0, 1.0) } else { 0.0 };
    (p - (a + ab * t)).length()
}

/// Segment-segment distance as the minimum over the interior critical point (when the 2x2
/// normal equations have a solution inside the unit square) and the four end-point-to-segment
/// distances. A different route from kollide's clamping order.
pub fn segment_segment(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> f64 {
    let mut best = point_segment(p0, q0, q1)
        .min(point_segment(p1, q0, q1))
        .min(point_segment(q0, p0, p1))
        .min(point_segment(q1, p0, p1));
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, b, e) = (d1.dot(d1), d1.dot(d2), d2.dot(d2));
    let (c, f) = (d1.dot(r), d2.dot(r));
    let det = a * e - b * b;
    if det > 1e-14 * a * e {
        // Minimise |r + s d1 - t d2|²: a s - b t = -c, b s - e t = -f.
        let s = (b * f - c * e) / det;
        let t = (a * f - b * c) / det;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            best = best.min((p0 + d1 * s - (q0 + d2 * t)).length());
        }
    }
    best
}

pub fn point_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> f64 {
    let edges = point_segment(p, a, b).min(point_segment(p, b, c)).min(point_segment(p, c, a));
    let n = (b - a).cross(c - a);
    let nn = n.length_squared();
    if nn <= 1e-24 * (b - a).length_squared() * (c - a).length_squared() {
        return edges;
    }
    let q = p - n * ((p - a).dot(n) / nn);
    let inside = [(a, b), (b, c), (c, a)].iter().all(|&(u, v)| (v - u).cross(q - u).dot(n) >= 0.0);
    if inside {
        (p - q).length()
    } else {
        edges
    }
}

/// Every triangle of vertices whose plane has all vertices on one side: the boundary.
pub fn boundary_triangles(v: &[DVec3]) -> Vec<[usize; 3]> {
    let scale = v.iter().map(|p| p.abs().max_element()).fold(0.0, f64::max).max(1e-300);
    let mut out = vec![];
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            for k in j + 1..v.len() {
                let n = (v[j] - v[i]).cross(v[k] - v[i]);
                if n.length() <= 1e-12 * scale * scale {
                    continue;
                }
                let n = n.normalize();
                let tol = 1e-9 * scale;
                let (mut below, mut above) = (true, true);
                for p in v {
                    let s = (*p - v[i]).dot(n);
                    below &= s <= tol;
                    above &= s >= -tol;
                }
                if below || above {
                    out.push([i, j, k]);
                }
            }
        }
    }
    out
}

/// Separating-axis test over face normals and all cross products of vertex-pair directions.
pub fn polytopes_overlap_3d(va: &[DVec3], vb: &[DVec3]) -> bool {
    !sat_axes_3d(va, vb).iter().any(|n| separated_along(va, vb, *n))
}

/// Every candidate separating axis of two point sets' hulls (unnormalised): face normals,
/// cross products of all vertex-pair directions, and for flat or degenerate sets their
/// in-plane normals. A superset of the face normals of the Minkowski difference.
pub fn sat_axes_3d(va: &[DVec3], vb: &[DVec3]) -> Vec<DVec3> {
    let mut axes = vec![];
    for v in [va, vb] {
        for t in boundary_triangles(v) {
            axes.push((v[t[1]] - v[t[0]]).cross(v[t[2]] - v[t[0]]));
        }
    }
    let dirs = |v: &[DVec3]| {
        let mut d = vec![];
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                d.push(v[j] - v[i]);
            }
        }
        d
    };
    let (da, db) = (dirs(va), dirs(vb));
    for x in &da {
        for y in &db {
            axes.push(x.cross(*y));
        }
    }
    // Flat or degenerate sets (segments, triangles) also need their in-plane normals.
    // These and the difference-based axes below are triple products (length ~ size³).
    let triple_start = axes.len();
    for x in da.iter().chain(&db) {
        for y in da.iter().chain(&db) {
            axes.push(x.cross(*y).cross(*x));
        }
    }
    // With a point or a segment on one side the Minkowski difference can be a segment or a
    // point itself; its separating axes then come from the differences between the sets.
    if va.len() < 3 || vb.len() < 3 {
        for p in va {
            for q in vb {
                let y = *q - *p;
                axes.push(y * y.length());
                for x in da.iter().chain(&db) {
                    axes.push(x.cross(y).cross(*x));
                }
            }
        }
    }
    // Keep the axes that are not rounding noise relative to the size of the sets (a test
    // at 1e-6 scale must not lose its axes to an absolute cut-off).
    let size = va.iter().chain(vb).map(|p| p.length()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let (size2, size3) = (size.powi(2), size.powi(3));
    axes.iter()
        .enumerate()
        .filter(|(i, n)| n.length() > 1e-13 * if *i < triple_start { size2 } else { size3 })
        .map(|(_, n)| *n)
        .collect()
}

/// Penetration depth of two overlapping polytopes (hulls of point sets) and the unit
/// normal from A to B: the least overlap `max_A u - min_B u` over unit candidate axes `u`
/// (both signs). The depth is the least over all directions and is reached at a face
/// normal of the Minkowski difference (a face of A, a face of B, or the cross product of
/// an edge of each), all of which are candidates; extra candidates cannot go below it.
pub fn penetration_3d(va: &[DVec3], vb: &[DVec3]) -> (f64, DVec3) {
    least_overlap(va, vb, sat_axes_3d(va, vb).iter().map(|n| n.normalize()), |p: &DVec3, u| p.dot(u))
}

/// [`penetration_3d`] in 2D: the candidates are the perpendiculars of every vertex-pair
/// direction (a superset of the edge normals of both polygons).
pub fn penetration_2d(va: &[DVec2], vb: &[DVec2]) -> (f64, DVec2) {
    let size = va.iter().chain(vb).map(|p| p.length()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let mut axes = vec![];
    for v in [va, vb] {
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                axes.push((v[j] - v[i]).perp());
            }
        }
    }
    // Degenerate sets (points, segments): the differences between the sets.
    for p in va {
        for q in vb {
            axes.push(*q - *p);
        }
    }
    let axes: Vec<DVec2> =
        axes.into_iter().filter(|n| n.length() > 1e-13 * size).map(|n| n.normalize()).collect();
    least_overlap(va, vb, axes.into_iter(), |p: &DVec2, u| p.dot(u))
}

fn least_overlap<P, U: Copy + core::ops::Neg<Output = U>>(
    va: &[P],
    vb: &[P],
    axes: impl Iterator<Item = U>,
    dot: impl Fn(&P, U) -> f64,
) -> (f64, U) {
    let mut best: Option<(f64, U)> = None;
    // One pass over the points serves both signs: a dot product with `-n` is exactly the
    // negated one with `n` (negation commutes with rounding), so A's largest along `-n`
    // is minus its smallest along `n`, and so on.
    for n in axes {
        let ((la, ha), (lb, hb)) = (range(va, n, &dot), range(vb, n, &dot));
        for (overlap, u) in [(ha - lb, n), (-la + hb, -n)] {
            if best.is_none_or(|(d, _)| overlap < d) {
                best = Some((overlap, u));
            }
        }
    }
    best.expect("no candidate axis: both sets are single equal points")
}

fn separated_along(va: &[DVec3], vb: &[DVec3], n: DVec3) -> bool {
    let (a0, a1) = project(va, n);
    let (b0, b1) = project(vb, n);
    a1 < b0 || b1 < a0
}

fn project(v: &[DVec3], n: DVec3) -> (f64, f64) {
    range(v, n, &|p: &DVec3, u| p.dot(u))
}

/// The smallest and largest of `dot(p, n)` over the points `v`.
fn range<P, U: Copy>(v: &[P], n: U, dot: &impl Fn(&P, U) -> f64) -> (f64, f64) {
    v.iter().map(|p| dot(p, n)).fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)))
}

/// Distance between the convex hulls of two point sets (0 when they overlap).
pub fn polytope_distance_3d(va: &[DVec3], vb: &[DVec3]) -> f64 {
    if polytopes_overlap_3d(va, vb) {
        return 0.0;
    }
    let mut best = f64::MAX;
    for (x, y) in [(va, vb), (vb, va)] {
        let tris = boundary_triangles(y);
        for p in x {
            for t in &tris {
                best = best.min(point_triangle(*p, y[t[0]], y[t[1]], y[t[2]]));
            }
            for q in y {
                best = best.min((*p - *q).length());
            }
        }
    }
    // Zero-length segments (j == i) stand for single points of degenerate sets.
    for i in 0..va.len() {
        for j in i..va.len() {
            for k in 0..vb.len() {
                for l in k..vb.len() {
                    best = best.min(segment_segment(va[i], va[j], vb[k], vb[l]));
                }
            }
        }
    }
    best
}

/// Distance between the convex hulls of two 2D point sets (0 when they overlap).
pub fn polygon_distance_2d(va: &[DVec2], vb: &[DVec2]) -> f64 {
    let lift = |v: &[DVec2]| v.iter().map(|p| p.extend(0.0)).collect::<Vec<_>>();
    let (a3, b3) = (lift(va), lift(vb));
    if polygons_overlap_2d(va, vb) {
        return 0.0;
    }
    let mut best = f64::MAX;
    for (x, y) in [(&a3, &b3), (&b3, &a3)] {
        for p in x.iter() {
            for i in 0..y.len() {
                for j in i..y.len() {
                    best = best.min(point_segment(*p, y[i], y[j]));
                }
            }
        }
    }
    best
}

/// Separating-axis test over the perpendiculars of every vertex-pair direction.
pub fn polygons_overlap_2d(va: &[DVec2], vb: &[DVec2]) -> bool {
    let mut axes = vec![];
    for v in [va, vb] {
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                axes.push((v[j] - v[i]).perp());
            }
        }
    }
    let proj = |v: &[DVec2], n: DVec2| {
        v.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p.dot(n)), hi.max(p.dot(n))))
    };
    let size = va.iter().chain(vb).map(|p| p.length()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    !axes.iter().filter(|n| n.length() > 1e-13 * size).any(|&n| {
        let (a0, a1) = proj(va, n);
        let (b0, b1) = proj(vb, n);
        a1 < b0 || b1 < a0
    })
}

/// Distance from `p` to the box `[-he, he]` (0 inside).
pub fn point_box(p: DVec3, he: DVec3) -> f64 {
    (p.abs() - he).max(DVec3::ZERO).length()
}

/// Distance from `p` to the solid ellipsoid with semi-axes `r` (0 inside), by bisection on
/// the Lagrange multiplier of the projection (the root of Σ (rᵢ pᵢ / (rᵢ² + t))² = 1, t > 0).
pub fn point_ellipsoid(p: DVec3, r: DVec3) -> f64 {
    if (p / r).length_squared() <= 1.0 {
        return 0.0;
    }
    let f = |t: f64| ((r * p) / (r * r + DVec3::splat(t))).length_squared() - 1.0;
    let (mut lo, mut hi) = (0.0, 1.0);
    while f(hi) > 0.0 {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    let x = (r * r * p) / (r * r + DVec3::splat(t));
    (p - x).length()
}

/// Distance from `p` to the solid cylinder of axis y (0 inside).
pub fn point_cylinder(p: DVec3, half_height: f64, radius: f64) -> f64 {
    let radial = (p.x * p.x + p.z * p.z).sqrt();
    let dr = (radial - radius).max(0.0);
    let dy = (p.y.abs() - half_height).max(0.0);
    (dr * dr + dy * dy).sqrt()
}

/// Distance from `p` to the solid cone of axis y, apex at +half_height (0 inside): the
/// distance in the half-plane (radial, y) to the triangle (0, h), (r, -h), (0, -h).
pub fn point_cone(p: DVec3, half_height: f64, radius: f64) -> f64 {
    let q = DVec3::new((p.x * p.x + p.z * p.z).sqrt(), p.y, 0.0);
    let (apex, rim, foot) = (
        DVec3::new(0.0, half_height, 0.0),
        DVec3::new(radius, -half_height, 0.0),
        DVec3::new(0.0, -half_height, 0.0),
    );
    // Inside the triangle: on the inner side of the slanted edge and above the base.
    let slant = (rim - apex).cross(q - apex).z; // < 0: on the axis side
    if q.y >= -half_height && slant <= 0.0 {
        return 0.0;
    }
    point_segment(q, apex, rim).min(point_segment(q, rim, foot))
}
