//! The plane solve of the mover: the motion closest to the wanted one that every contact
//! plane of the step allows.
//!
//! Each constraint is a half-space of motions `v . n >= b` (`n` a unit normal). The closest
//! allowed motion to `want` is the solution of a small quadratic program, and its optimum
//! lies on the intersection of some set of active planes: none (the wanted motion itself),
//! one (the projection on a plane), two (the crease line) or three (a corner point). With a
//! dozen planes at most, trying every such candidate and keeping the closest feasible one
//! is exact and cheap, and it treats a crease of two walls or a corner of three as one
//! problem instead of clipping plane after plane (which jitters between them).

use super::trace::SlidePlane;
use crate::math::{Real, Vector3};
use crate::query::Space;

/// The motion closest to `want` allowed by every plane, or zero when the candidates all
/// fail (the planes leave no room; zero is allowed by every plane with `offset <= 0`).
pub(crate) fn closest_allowed<V: Vector3 + Space>(want: V, planes: &[SlidePlane<V>]) -> V {
    let r = |x: f64| V::Real::from_f64(x);
    let scale = want.length() + planes.iter().fold(V::Real::ZERO, |m, p| m.max(p.offset.abs()));
    let slack = scale * r(1e-12) + r(f64::MIN_POSITIVE);
    let allowed = |v: V| planes.iter().all(|p| v.dot(p.normal) >= p.offset - slack);
    let mut best = V::ZERO;
    let mut best_gap = (want - best).length_squared();
    let mut offer = |v: V| {
        if v.is_finite_vec() && allowed(v) {
            let gap = (want - v).length_squared();
            if gap < best_gap {
                best = v;
                best_gap = gap;
            }
        }
    };
    offer(want);
    let n = planes.len();
    for i in 0..n {
        let p = planes[i];
        offer(want + p.normal * (p.offset - want.dot(p.normal)));
        for j in i + 1..n {
            let q = planes[j];
            // want + a n_p + b n_q on both planes: the 2x2 Gram system.
            let c = p.normal.dot(q.normal);
            let det = V::Real::ONE - c * c;
            if det > r(1e-12) {
                let (u, w) = (p.offset - want.dot(p.normal), q.offset - want.dot(q.normal));
                let a = (u - c * w) / det;
                let b = (w - c * u) / det;
                offer(want + p.normal * a + q.normal * b);
            }
            for s in &planes[j + 1..] {
                // The point on all three planes (Cramer's rule with the triple product).
                let (x, y, z) = (p.normal, q.normal, s.normal);
                let det = x.dot(y.cross3(z));
                if det.abs() > r(1e-9) {
                    let v = (y.cross3(z) * p.offset + z.cross3(x) * q.offset + x.cross3(y) * s.offset) / det;
                    offer(v);
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    fn plane(n: DVec3) -> SlidePlane<DVec3> {
        SlidePlane { normal: n.normalize(), offset: 0.0 }
    }

    #[test]
    fn one_plane_projects_and_an_allowed_motion_stays() {
        let floor = [plane(DVec3::Y)];
        let v = closest_allowed(DVec3::new(1.0, -1.0, 0.5), &floor);
        assert!((v - DVec3::new(1.0, 0.0, 0.5)).length() < 1e-15);
        let up = DVec3::new(1.0, 2.0, 0.0);
        assert_eq!(closest_allowed(up, &floor), up);
    }

    #[test]
    fn a_crease_of_two_walls_slides_along_its_line() {
        // Two walls meeting at a 90-degree corner along y; pushing into the corner and down.
        let walls = [plane(DVec3::new(-1.0, 0.0, 1.0)), plane(DVec3::new(-1.0, 0.0, -1.0))];
        let v = closest_allowed(DVec3::new(1.0, -0.5, 0.0), &walls);
        assert!((v - DVec3::new(0.0, -0.5, 0.0)).length() < 1e-15, "{v}");
    }

    #[test]
    fn a_corner_of_three_planes_stops() {
        let planes = [plane(DVec3::X), plane(DVec3::Y), plane(DVec3::Z)];
        assert_eq!(closest_allowed(DVec3::new(-1.0, -2.0, -3.0), &planes), DVec3::ZERO);
        // Away from one of them: slides along the edge of the other two.
        let v = closest_allowed(DVec3::new(-1.0, -2.0, 3.0), &planes);
        assert!((v - DVec3::new(0.0, 0.0, 3.0)).length() < 1e-15, "{v}");
    }

    #[test]
    fn an_offset_plane_caps_the_rise() {
        // A steep slope pushes the motion up; a cap allows no rise.
        let planes = [plane(DVec3::new(-1.0, 0.3, 0.0)), SlidePlane { normal: DVec3::NEG_Y, offset: 0.0 }];
        let v = closest_allowed(DVec3::new(1.0, 0.0, 1.0), &planes);
        assert!(v.y <= 1e-15 && v.x <= 1e-15, "{v}");
        assert!((v.z - 1.0).abs() < 1e-12, "{v}");
    }
}
