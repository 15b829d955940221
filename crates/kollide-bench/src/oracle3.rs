//! Brute-force `f64` truth for 3D pairs: polytopes (any point set, hull faces found by
//! testing every triple) and rounded segments (balls, capsules).
//!
//! Written independently of both libraries, for small shapes only (facet search is
//! `O(n⁴)`): the agreement tests judge kollide and parry against it.
//!
//! Polytope distance: the shapes overlap exactly when no separating axis exists among the
//! face normals of both and the cross products of their edges (the separating axis theorem
//! for convex polyhedra); otherwise the distance is realized by a vertex-face or an edge-edge
//! pair (Ericson, *Real-Time Collision Detection*, §5.1.5 and §5.1.9).

use glam::{DQuat, DVec3};

/// A convex polytope: its points, hull triangles (outward normals) and hull edges.
#[derive(Clone, Debug, PartialEq)]
pub struct Polytope {
    /// The points (every one kept, including those inside the hull).
    pub points: Vec<DVec3>,
    /// Hull triangles `[i, j, k]`, counter-clockwise seen from outside. Coplanar points give
    /// several overlapping triangles per face, which is harmless here.
    pub faces: Vec<[usize; 3]>,
    /// Hull edges (from the triangles), each once.
    pub edges: Vec<(usize, usize)>,
}

impl Polytope {
    /// Finds the hull triangles of `points` by brute force.
    ///
    /// # Panics
    /// When no triangle is found (fewer than 4 points, or all coplanar).
    #[must_use]
    pub fn from_points(points: &[DVec3]) -> Self {
        let scale = points.iter().map(|p| p.length()).fold(0.0, f64::max);
        let eps = 1.0e-12 * scale.max(1.0);
        let n = points.len();
        let mut faces = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    let (a, b, c) = (points[i], points[j], points[k]);
                    let normal = (b - a).cross(c - a);
                    let len = normal.length();
                    if len <= eps {
                        continue;
                    }
                    let unit = normal / len;
                    let (mut above, mut below) = (false, false);
                    for p in points {
                        let h = unit.dot(*p - a);
                        above |= h > eps;
                        below |= h < -eps;
                    }
                    match (above, below) {
                        (false, true) => faces.push([i, j, k]),
                        (true, false) => faces.push([i, k, j]),
                        _ => {}
                    }
                }
            }
        }
        assert!(!faces.is_empty(), "oracle polytope: no hull face among {n} points");
        let mut edges: Vec<(usize, usize)> = faces
            .iter()
            .flat_map(|f| [(f[0], f[1]), (f[1], f[2]), (f[2], f[0])])
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        edges.sort_unstable();
        edges.dedup();
        Self { points: points.to_vec(), faces, edges }
    }

    /// The same polytope moved by a rotation then a translation.
    #[must_use]
    pub fn placed(&self, translation: DVec3, rotation: DQuat) -> Self {
        Self {
            points: self.points.iter().map(|&p| rotation * p + translation).collect(),
            faces: self.faces.clone(),
            edges: self.edges.clone(),
        }
    }

    fn face_normal(&self, f: &[usize; 3]) -> DVec3 {
        let [a, b, c] = f.map(|i| self.points[i]);
        (b - a).cross(c - a)
    }

    fn project(&self, axis: DVec3) -> (f64, f64) {
        self.points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
            let x = p.dot(axis);
            (lo.min(x), hi.max(x))
        })
    }
}

/// A shape the oracle knows, in some frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Oracle3 {
    /// A convex polytope.
    Polytope(Polytope),
    /// The segment `a b` grown by `radius` (a ball when `a == b`).
    Rounded {
        /// First end of the core.
        a: DVec3,
        /// Second end of the core.
        b: DVec3,
        /// Radius.
        radius: f64,
    },
}

impl Oracle3 {
    /// The same shape moved by a rotation then a translation. The rotation is normalized
    /// in `f64` first (an `f32` quaternion converted to `f64` is not exactly unit).
    #[must_use]
    pub fn placed(&self, translation: DVec3, rotation: DQuat) -> Self {
        let rotation = rotation.normalize();
        match self {
            Self::Polytope(p) => Self::Polytope(p.placed(translation, rotation)),
            Self::Rounded { a, b, radius } => Self::Rounded {
                a: rotation * *a + translation,
                b: rotation * *b + translation,
                radius: *radius,
            },
        }
    }
}

/// The true distance between two placed shapes (`0` when they overlap), or `None` for a
/// pair the oracle does not handle (polytope against rounded segment).
#[must_use]
pub fn distance(x: &Oracle3, y: &Oracle3) -> Option<f64> {
    match (x, y) {
        (Oracle3::Polytope(a), Oracle3::Polytope(b)) => Some(polytope_distance(a, b)),
        (Oracle3::Rounded { a: p0, b: p1, radius: r }, Oracle3::Rounded { a: q0, b: q1, radius: s }) => {
            let (p, q) = closest_segment_segment(*p0, *p1, *q0, *q1);
            Some(((p - q).length() - r - s).max(0.0))
        }
        _ => None,
    }
}

/// `true` when some axis separates the polytopes (strictly).
#[must_use]
pub fn separated(a: &Polytope, b: &Polytope) -> bool {
    let disjoint = |axis: DVec3| {
        let (alo, ahi) = a.project(axis);
        let (blo, bhi) = b.project(axis);
        ahi < blo || bhi < alo
    };
    if a.faces.iter().any(|f| disjoint(a.face_normal(f)))
        || b.faces.iter().any(|f| disjoint(b.face_normal(f)))
    {
        return true;
    }
    for &(i, j) in &a.edges {
        let ea = a.points[j] - a.points[i];
        for &(k, l) in &b.edges {
            let eb = b.points[l] - b.points[k];
            let axis = ea.cross(eb);
            if axis.length_squared() > 1.0e-24 * ea.length_squared() * eb.length_squared() && disjoint(axis) {
                return true;
            }
        }
    }
    false
}

/// Distance between two convex polytopes in one frame (`0` when they overlap).
#[must_use]
pub fn polytope_distance(a: &Polytope, b: &Polytope) -> f64 {
    if !separated(a, b) {
        return 0.0;
    }
    let mut best = f64::MAX;
    for (x, y) in [(a, b), (b, a)] {
        for f in &y.faces {
            let [t0, t1, t2] = f.map(|i| y.points[i]);
            for &p in &x.points {
                best = best.min((p - closest_point_triangle(p, t0, t1, t2)).length());
            }
        }
    }
    for &(i, j) in &a.edges {
        for &(k, l) in &b.edges {
            let (p, q) = closest_segment_segment(a.points[i], a.points[j], b.points[k], b.points[l]);
            best = best.min((p - q).length());
        }
    }
    best
}

/// The point of triangle `a b c` closest to `p` (Ericson §5.1.5, Voronoi regions).
#[must_use]
pub fn closest_point_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// The closest points of segments `p0 p1` and `q0 q1` (Ericson §5.1.9).
#[must_use]
pub fn closest_segment_segment(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> (DVec3, DVec3) {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    let tiny = 1.0e-300;
    let (s, t) = if a <= tiny && e <= tiny {
        (0.0, 0.0)
    } else if a <= tiny {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e <= tiny {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s = if denom > 0.0 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
            let mut t = (b * s + f) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    (p0 + d1 * s, q0 + d2 * t)
}

/// The penetration depth of two overlapping polytopes: the least overlap `max_A u - min_B u`
/// over the unit face normals of both and the cross products of every edge pair (the face
/// normals of the Minkowski difference are among them, and no direction overlaps less than
/// the depth). Negative when an axis separates them.
#[must_use]
pub fn penetration(a: &Polytope, b: &Polytope) -> f64 {
    let mut axes: Vec<DVec3> = Vec::new();
    for p in [a, b] {
        for f in &p.faces {
            axes.push((p.points[f[1]] - p.points[f[0]]).cross(p.points[f[2]] - p.points[f[0]]));
        }
    }
    for &(i, j) in &a.edges {
        for &(k, l) in &b.edges {
            axes.push((a.points[j] - a.points[i]).cross(b.points[l] - b.points[k]));
        }
    }
    let scale = a.points.iter().chain(&b.points).map(|p| p.length()).fold(1.0, f64::max);
    let mut best = f64::MAX;
    for n in axes.into_iter().filter(|n| n.length() > 1.0e-12 * scale * scale) {
        let n = n.normalize();
        for u in [n, -n] {
            let ha = a.points.iter().map(|p| p.dot(u)).fold(f64::MIN, f64::max);
            let lb = b.points.iter().map(|p| p.dot(u)).fold(f64::MAX, f64::min);
            best = best.min(ha - lb);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(h: f64) -> Polytope {
        let pts: Vec<DVec3> = (0..8)
            .map(|i| {
                let s = |bit: i32| if i & bit == 0 { -h } else { h };
                DVec3::new(s(1), s(2), s(4))
            })
            .collect();
        Polytope::from_points(&pts)
    }

    #[test]
    fn cubes_face_edge_and_vertex() {
        let c = cube(0.5);
        // Face to face: 2 apart.
        let far = c.placed(DVec3::new(3.0, 0.2, -0.1), DQuat::IDENTITY);
        assert!((polytope_distance(&c, &far) - 2.0).abs() < 1e-12);
        // Overlapping.
        let near = c.placed(DVec3::new(0.9, 0.9, 0.0), DQuat::IDENTITY);
        assert_eq!(polytope_distance(&c, &near), 0.0);
        // Edge to edge, crossed: a cube turned 45° about z then about x, above the first.
        let q = DQuat::from_rotation_x(core::f64::consts::FRAC_PI_4);
        let edge = c.placed(DVec3::new(0.0, 0.0, 2.0), q);
        let expect = 2.0 - 0.5 - 0.5 * 2f64.sqrt();
        assert!((polytope_distance(&c, &edge) - expect).abs() < 1e-12, "{}", polytope_distance(&c, &edge));
    }
}
