//! Which feature of the world a contact touched: a face, an edge or a vertex, for the
//! contacts the shape cast finds (the swept sphere and ellipsoid name their feature
//! themselves).
//!
//! A mesh's or terrain's triangle: a face when the contact normal is the triangle's own,
//! else by where the point lies (on an edge line, at a corner). Any other convex part: from
//! its support mapping, the points extreme in sixteen directions tilted slightly away from
//! the contact normal. On a face they spread over the face (two dimensions), on an edge
//! along it (one), at a vertex not at all. A curved surface, or any rounded shape, counts as
//! a face (the contact plane is its tangent plane).

use crate::composite::Composite;
use crate::math::{Pose, Real, Vector3};
use crate::query::cast::SweepFeature;
use crate::query::Space;
use crate::shape::Support;
use crate::world::Shape3;

/// The feature of `body` (at `pose`; `part` for a composite) touched with the outward unit
/// normal `n` (world frame).
pub(crate) fn touched_feature<V: Vector3 + Space>(
    body: &Shape3<V>,
    pose: &Pose<V>,
    part: Option<u32>,
    point: V,
    n: V,
) -> SweepFeature {
    match (body, part) {
        (Shape3::Convex(c), _) => classify(c, pose, n),
        (Shape3::TriMesh(m), Some(i)) => on_triangle(m.corners(i), pose, point, n),
        (Shape3::HeightField(h), Some(i)) => {
            let t = h.triangle(i);
            on_triangle([t.a, t.b, t.c], pose, point, n)
        }
        (Shape3::Compound(c), Some(i)) => {
            classify(c.part(i), &pose.compose(&c.part_pose(i).unwrap_or(Pose::IDENTITY)), n)
        }
        _ => SweepFeature::Face,
    }
}

/// A triangle's feature at `point` (world frame), touched with the normal `n`: a face
/// when `n` is the triangle's normal (either side), else by the point's barycentric
/// coordinates (one zero: an edge; two: a vertex).
fn on_triangle<V: Vector3 + Space>(corners: [V; 3], pose: &Pose<V>, point: V, n: V) -> SweepFeature {
    let r = |x: f64| V::Real::from_f64(x);
    let [a, b, c] = corners;
    let (p, n) = (pose.inverse_transform_point(point), pose.inverse_transform_vector(n));
    let normal = (b - a).cross3(c - a);
    let area2 = normal.length();
    if area2 > V::Real::ZERO && n.dot(normal).abs() >= area2 * (V::Real::ONE - r(1e-9)) {
        return SweepFeature::Face;
    }
    let size = (b - a).length().max((c - a).length()).max((c - b).length());
    let tol = size * r(1e-7);
    // Distances to the edge lines, in the triangle's plane.
    let near = |u: V, w: V| {
        let e = w - u;
        let l2 = e.length_squared();
        let t = if l2 > V::Real::ZERO { (p - u).dot(e) / l2 } else { V::Real::ZERO };
        let t = t.max(V::Real::ZERO).min(V::Real::ONE);
        (p - (u + e * t)).length() <= tol
    };
    let corner = [a, b, c].iter().any(|&v| (p - v).length() <= tol);
    if corner {
        SweepFeature::Vertex
    } else if near(a, b) || near(b, c) || near(c, a) {
        SweepFeature::Edge
    } else {
        SweepFeature::Face
    }
}

fn classify<V: Vector3 + Space, S: Support<V> + ?Sized>(shape: &S, pose: &Pose<V>, n: V) -> SweepFeature {
    if shape.radius() > V::Real::ZERO {
        return SweepFeature::Face;
    }
    let local = pose.inverse_transform_vector(n);
    let t1 = local.any_orthogonal();
    let t2 = local.cross3(t1);
    // Tilts well above the normal's rounding, well below any real feature's angle.
    let tilt = V::Real::EPSILON.sqrt() * V::Real::from_f64(16.0);
    let p0 = shape.support(local);
    // Sixteen tilts around the normal: every vertex of a face whose outer angle exceeds
    // 22.5 degrees is reached.
    let d: Vec<V> = (0..16)
        .map(|k| {
            let a = k as f64 * core::f64::consts::PI / 8.0;
            let t = t1 * V::Real::from_f64(a.cos()) + t2 * V::Real::from_f64(a.sin());
            shape.support(local + t * tilt) - p0
        })
        .collect();
    let size = d.iter().fold(V::Real::ZERO, |m, x| m.max(x.length())) + p0.length();
    let tol = size * V::Real::EPSILON * V::Real::from_f64(64.0);
    let Some(longest) = d.iter().copied().max_by(|a, b| {
        a.length_squared().partial_cmp(&b.length_squared()).unwrap_or(core::cmp::Ordering::Equal)
    }) else {
        return SweepFeature::Vertex;
    };
    if longest.length() <= tol {
        return SweepFeature::Vertex;
    }
    let e = longest / longest.length();
    let off_line = d.iter().fold(V::Real::ZERO, |m, x| m.max((*x - e * x.dot(e)).length()));
    if off_line <= tol {
        SweepFeature::Edge
    } else {
        SweepFeature::Face
    }
}
