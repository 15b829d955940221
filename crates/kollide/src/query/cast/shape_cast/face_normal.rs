//! The face of B met at a cast's hit: its outward normal, when B's feature there is a face.

use crate::math::{Pose, Real};
use crate::query::cast::numeric::gt;
use crate::query::Space;
use crate::shape::{Support, SupportFace};

/// How far (as `1 - cos` of the angle) the contact normal may lean from a face's normal for
/// the hit to count as on that face: about 1.4e-3 rad, far above the rounding of a normal
/// computed against a face (1e-6 in `f32`) and far below the angle between two faces of any
/// reasonable polytope.
const FACE_ALIGNMENT: f64 = 1.0e-6;

/// The outward unit normal (world frame) of B's face at a contact whose normal (from A
/// towards B, world frame) is `normal`, B placed by `pose_b`; `None` when B's feature
/// there is an edge, a vertex or a curved surface.
///
/// B's support face against the normal is asked for; a face of at least `DIM` corners (a
/// polygon in 3D, an edge in 2D, which is a 2D shape's face) whose plane normal lies within
/// a small angle of `-normal` is the feature. Its normal is taken from the corners
/// (Newell's method in 3D, the perpendicular of the edge in 2D), oriented out of B.
pub(crate) fn face_normal<V: Space, B: Support<V> + ?Sized>(b: &B, pose_b: &Pose<V>, normal: V) -> Option<V> {
    let dir = pose_b.inverse_transform_vector(-normal);
    let len = dir.length();
    if !gt(len, V::Real::ZERO) {
        return None;
    }
    let dir = dir / len;
    let mut face = SupportFace::default();
    b.support_face(dir, &mut face);
    let pts = face.points();
    if pts.len() < V::DIM {
        return None;
    }
    let n = if V::DIM == 2 {
        (pts[1] - pts[0]).any_orthogonal()
    } else {
        // Newell: the sum of the cross products of consecutive corners (about the first,
        // to keep the numbers small) is twice the area vector of the polygon.
        let mut sum = V::ZERO;
        for i in 1..pts.len() - 1 {
            sum += (pts[i] - pts[0]).cross_or_zero(pts[i + 1] - pts[0]);
        }
        let l = sum.length();
        if !gt(l, V::Real::ZERO) {
            return None;
        }
        sum / l
    };
    let n = if n.dot(dir) < V::Real::ZERO { -n } else { n };
    if n.dot(dir) < V::Real::ONE - V::Real::from_f64(FACE_ALIGNMENT) || !n.is_finite_vec() {
        return None;
    }
    Some(pose_b.transform_vector(n))
}
