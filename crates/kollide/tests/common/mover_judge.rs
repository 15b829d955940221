//! The mover tests' judge: the clearance between an upright character and a triangle, in
//! f64 closed forms (nothing from kollide but the character's description).

use super::oracle::{point_triangle, segment_segment};
use glam::DVec3;
use kollide::mover::Character;

/// A triangle's corners.
pub type Tri = [DVec3; 3];

/// Segment-triangle distance: zero when the segment crosses the triangle, else the least
/// of the end points to the triangle and the triangle's edges to the segment.
pub fn segment_triangle(p: DVec3, q: DVec3, t: &Tri) -> f64 {
    let n = (t[1] - t[0]).cross(t[2] - t[0]);
    let (dp, dq) = ((p - t[0]).dot(n), (q - t[0]).dot(n));
    if dp * dq <= 0.0 && dp != dq {
        let x = p + (q - p) * (dp / (dp - dq));
        if (0..3).all(|k| (t[(k + 1) % 3] - t[k]).cross(x - t[k]).dot(n) >= 0.0) {
            return 0.0;
        }
    }
    let mut best = point_triangle(p, t[0], t[1], t[2]).min(point_triangle(q, t[0], t[1], t[2]));
    for k in 0..3 {
        best = best.min(segment_segment(p, q, t[k], t[(k + 1) % 3]));
    }
    best
}

/// The clearance of the character (upright along +y) centred at `p` to the triangle `t`:
/// negative when they overlap. Ball: point to triangle less the radius; capsule: segment to
/// triangle less the radius; ellipsoid: in the space scaled by 1 / radii it is the unit ball
/// and the triangle is still a triangle, so (distance there - 1) x the least radius, whose
/// sign is exact.
pub fn clearance(c: &Character<DVec3>, p: DVec3, t: &Tri) -> f64 {
    match *c {
        Character::Ball { radius } => point_triangle(p, t[0], t[1], t[2]) - radius,
        Character::Capsule { half_height, radius } => {
            segment_triangle(p - DVec3::Y * half_height, p + DVec3::Y * half_height, t) - radius
        }
        Character::Ellipsoid { radii } => {
            let q = |v: DVec3| (v - p) / radii;
            (point_triangle(DVec3::ZERO, q(t[0]), q(t[1]), q(t[2])) - 1.0) * radii.min_element()
        }
    }
}
