//! Which contact normals a triangle of a surface may have: the rule that removes ghost
//! contacts on internal edges (meshes and heightfields).
//!
//! A lone triangle touched on an edge has a normal anywhere in the half circle around that
//! edge. In a surface, the edge is shared with a neighbour, and only the normals between the
//! two faces' normals are real: for a flat seam that is the face normal alone, for a concave
//! crease nothing (the faces themselves give the contacts), for a convex ridge the arc
//! between the two. A contact found on an edge or a vertex with a normal outside what the
//! surface allows is taken along the triangle's face normal instead (the idea of Jolt's
//! active edges and of Box2D's chain shapes with ghost vertices; our formulation: the cone
//! of the edge's two face normals, as the worlds issue asks).

use crate::math::{Real, Vector3};
use crate::query::Space;

/// Normals within this cosine of each other are the same direction (about 0.08°).
const SAME_DIRECTION_COS: f64 = 1.0 - 1e-6;

/// How close to an edge, relative to the triangle's longest edge, a contact point counts as
/// on it.
const ON_EDGE_REL: f64 = 1e-3;

/// A triangle's neighbour across one of its edges, as the rule needs it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Neighbour<V> {
    /// The neighbour's unit face normal, oriented consistently with the triangle's (so that
    /// on a flat seam both are equal).
    pub normal: V,
    /// The neighbour's corner off the shared edge.
    pub apex: V,
}

/// The face normal `corners` has by the right-hand rule, unit; `None` for a degenerate
/// triangle (no face, only edges).
#[inline]
pub(crate) fn face_normal<V: Vector3 + Space>(corners: &[V; 3]) -> Option<V> {
    let n = (corners[1] - corners[0]).cross3(corners[2] - corners[0]);
    // `length_safe`: the cross product of a triangle 1e-11 across in f32 has a squared
    // length below the normal range, whose square root made normals 1.17 long (fuzz).
    let len = n.length_safe();
    (len > V::Real::ZERO && len.is_finite()).then(|| n / len)
}

/// The normal a contact on the triangle `corners` at `point` (on the triangle) with unit
/// `normal` must be taken along, or `None` when the surface has `normal` there.
/// `neighbour(k)` describes the triangle across edge `k` (from corner `k` to corner
/// `k + 1`), `None` for a boundary edge (which allows any normal). `vertex_active(k)` says
/// whether corner `k` is a real corner of the surface (on the boundary, or where some edge
/// meeting there is a convex ridge): a contact there keeps its normal, since the corner's
/// normals span all its faces, not only this triangle's. A corner amid flat or concave
/// surface has no normal but its faces'.
pub(crate) fn corrected_normal<V: Vector3 + Space>(
    corners: &[V; 3],
    point: V,
    normal: V,
    neighbour: impl Fn(usize) -> Option<Neighbour<V>>,
    vertex_active: impl Fn(usize) -> bool,
) -> Option<V> {
    let n = face_normal(corners)?;
    // Two-sided: a shape below the triangle sees the mirrored surface.
    let side = if normal.dot(n) < V::Real::ZERO { -V::Real::ONE } else { V::Real::ONE };
    let face = n * side;
    let same = V::Real::from_f64(SAME_DIRECTION_COS);
    if normal.dot(face) >= same {
        return None;
    }
    // Which edges the point lies on (distance to the edge's line, relative to the size).
    let longest = (0..3).fold(V::Real::ZERO, |m, k| m.max((corners[(k + 1) % 3] - corners[k]).length()));
    let tol = V::Real::from_f64(ON_EDGE_REL) * longest;
    let on_edge = |k: usize| {
        let (a, b) = (corners[k], corners[(k + 1) % 3]);
        let e = b - a;
        let inward = n.cross3(e); // points into the triangle for a counter-clockwise edge
        let len = inward.length();
        len > V::Real::ZERO && ((point - a).dot(inward) / len).abs() <= tol
    };
    let edges: [bool; 3] = [on_edge(0), on_edge(1), on_edge(2)];
    if !edges.iter().any(|&x| x) {
        // Inside the face: whatever normal the convex query chose is the triangle's own.
        return None;
    }
    let on: usize = edges.iter().map(|&e| usize::from(e)).sum();
    if on >= 2 {
        // At a corner: the corner shared by the two edges it lies on.
        let corner = (0..3).find(|&k| edges[k] && edges[(k + 2) % 3]).unwrap_or(0);
        return (!vertex_active(corner)).then_some(face);
    }
    let k = (0..3).find(|&k| edges[k]).unwrap_or(0);
    let allowed = match neighbour(k) {
        None => true,
        Some(nb) => edge_allows(corners[k], corners[(k + 1) % 3], face, nb.normal * side, nb.apex, normal),
    };
    (!allowed).then_some(face)
}

/// Whether an edge of a face of unit normal `n` makes its end points real corners of the
/// surface: a boundary edge, or a crease (the neighbour's normal, oriented alike, differs
/// by more than rounding). Either side counts: the surface is seen from both.
pub(crate) fn edge_is_active<V: Vector3 + Space>(n: V, neighbour: Option<V>) -> bool {
    match neighbour {
        None => true,
        Some(other) => n.dot(other) < V::Real::from_f64(SAME_DIRECTION_COS),
    }
}

/// Whether the edge `a b` between a face of normal `face` and a neighbour of normal `other`
/// (both oriented to the side being touched) whose off-edge corner is `apex` has the
/// contact normal `normal`: its part across the edge lies in the arc from `face` to `other`
/// when the edge is convex; only `face` itself when it is flat or concave.
fn edge_allows<V: Vector3 + Space>(a: V, b: V, face: V, other: V, apex: V, normal: V) -> bool {
    let e = b - a;
    let len2 = e.length_squared();
    if len2 <= V::Real::ZERO {
        return true;
    }
    let m = normal - e * (normal.dot(e) / len2);
    let m_len = m.length();
    if m_len <= V::Real::ZERO {
        // Along the edge: no direction across it to judge.
        return true;
    }
    let m = m / m_len;
    let same = V::Real::from_f64(SAME_DIRECTION_COS);
    if m.dot(face) >= same || m.dot(other) >= same {
        return true;
    }
    // Convex when the neighbour's apex lies below the face's plane (on the side away from
    // the normals).
    let convex = (apex - a).dot(face) < V::Real::ZERO && face.dot(other) < same;
    if !convex {
        return false;
    }
    // Between `face` and `other`: on the same side of each as the other one is.
    let axis = face.cross3(other);
    face.cross3(m).dot(axis) >= V::Real::ZERO && m.cross3(other).dot(axis) >= V::Real::ZERO
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    fn tri() -> [DVec3; 3] {
        // Counter-clockwise seen from +y: normal +y.
        [DVec3::ZERO, DVec3::new(0.0, 0.0, 1.0), DVec3::new(1.0, 0.0, 0.0)]
    }

    /// A heightfield 3e-11 across in f32 gave manifold normals 1.03 to 1.17 long (fuzz
    /// target `queries`; its inputs are in `crates/kollide-fuzz/regressions/queries/`): the
    /// face normal divided a cross product (1e-22) by the root of its subnormal square.
    #[test]
    fn tiny_triangles_have_unit_face_normals_in_f32() {
        use glam::Vec3;
        for size in [1e-11f32, 1e-15, 1e-19] {
            let t = [Vec3::ZERO, Vec3::new(0.3, 0.1, 1.0) * size, Vec3::new(1.0, -0.2, 0.1) * size];
            let n = face_normal(&t).unwrap();
            assert!((n.length() - 1.0).abs() < 1e-6, "size {size}: {n:?}");
            let want = (t[1] - t[0]).as_dvec3().cross((t[2] - t[0]).as_dvec3()).normalize();
            assert!((n.as_dvec3() - want).length() < 1e-6, "size {size}: {n:?} vs {want:?}");
        }
    }

    #[test]
    fn a_flat_seam_allows_only_the_face_normal() {
        let t = tri();
        assert!((face_normal(&t).unwrap() - DVec3::Y).length() < 1e-15);
        // Edge 1 joins (0,0,1) and (1,0,0); the neighbour lies flat beyond it.
        let nb =
            |k: usize| (k == 1).then_some(Neighbour { normal: DVec3::Y, apex: DVec3::new(1.0, 0.0, 1.0) });
        let on_edge = DVec3::new(0.5, 0.0, 0.5);
        let tilted = DVec3::new(1.0, 1.0, 1.0).normalize();
        assert_eq!(corrected_normal(&t, on_edge, tilted, nb, |_| false), Some(DVec3::Y));
        // From below, the mirrored face normal.
        assert_eq!(corrected_normal(&t, on_edge, -tilted, nb, |_| false), Some(-DVec3::Y));
        // The face normal itself is kept, and so is a tilt at a boundary edge.
        assert_eq!(corrected_normal(&t, on_edge, DVec3::Y, nb, |_| false), None);
        let boundary_point = DVec3::new(0.5, 0.0, 0.0); // on edge 2, a boundary
        assert_eq!(
            corrected_normal(&t, boundary_point, DVec3::new(0.0, 1.0, -1.0).normalize(), nb, |_| false),
            None
        );
        // At a corner: kept when the corner is a real one, the face normal otherwise.
        let corner = DVec3::new(0.0, 0.0, 1.0);
        assert_eq!(corrected_normal(&t, corner, tilted, nb, |_| true), None);
        assert_eq!(corrected_normal(&t, corner, tilted, nb, |_| false), Some(DVec3::Y));
        // Inside the face, kept.
        assert_eq!(corrected_normal(&t, DVec3::new(0.2, 0.0, 0.2), tilted, nb, |_| false), None);
    }

    #[test]
    fn a_convex_ridge_allows_the_arc_between_its_faces() {
        let t = tri();
        // The neighbour beyond edge 1 slopes down at 45 degrees.
        let down = DVec3::new(1.0, -1.0, 1.0); // apex below the plane
        let n2 = DVec3::new(1.0, 1.0, 1.0).normalize(); // tilted towards the ridge's outside
        let nb = |k: usize| (k == 1).then_some(Neighbour { normal: n2, apex: down });
        let on_edge = DVec3::new(0.5, 0.0, 0.5);
        let between = (DVec3::Y + n2).normalize();
        assert_eq!(corrected_normal(&t, on_edge, between, nb, |_| false), None);
        // Beyond the neighbour's normal: not a normal of the surface.
        let beyond = DVec3::new(1.0, 0.2, 1.0).normalize();
        assert_eq!(corrected_normal(&t, on_edge, beyond, nb, |_| false), Some(DVec3::Y));
    }

    #[test]
    fn a_concave_crease_allows_only_the_face() {
        let t = tri();
        let up = DVec3::new(1.0, 1.0, 1.0); // apex above the plane
        let n2 = DVec3::new(-1.0, 1.0, -1.0).normalize();
        let nb = |k: usize| (k == 1).then_some(Neighbour { normal: n2, apex: up });
        let tilted = (DVec3::Y + n2).normalize();
        assert_eq!(corrected_normal(&t, DVec3::new(0.5, 0.0, 0.5), tilted, nb, |_| false), Some(DVec3::Y));
    }
}
