//! The polytope cores the 3D separating-axis tests run on (boxes and hulls, through one
//! trait), and the witness points of a face contact, shared by the box-box test and the
//! general polytope test.

use crate::math::{Pose, Real, Vector3};
use crate::query::manifold::clip3d::clip_to_sides;
use crate::query::Space;
use crate::shape::{ConvexHull, Cuboid, Support, SupportFace};

/// A polytope core seen by the separating-axis test, in its local frame.
pub(crate) trait Poly<V: Vector3 + Space> {
    fn face_count(&self) -> usize;
    /// Outward unit normal and offset of face `f`.
    fn face(&self, f: usize) -> (V, V::Real);
    fn edge_count(&self) -> usize;
    /// Edge `e`: its ends `p0, p1` and the normals `n0, n1` of its faces, with `n0 × n1`
    /// along `p1 - p0`.
    fn edge(&self, e: usize) -> (V, V, V, V);
    fn support_point(&self, dir: V, hint: &mut u32) -> V;
    /// The polygon of face `f` (counter-clockwise from outside).
    fn face_polygon(&self, f: usize, out: &mut SupportFace<V>);
    fn face_along(&self, dir: V, out: &mut SupportFace<V>);
    fn centre(&self) -> V;
    /// The largest distance of a vertex from the local origin.
    fn extent(&self) -> V::Real;
    /// The half extents when the polytope is a box (its edges are then found in O(1)).
    #[inline(always)]
    fn box_half_extents(&self) -> Option<V> {
        None
    }
}

impl<V: Vector3 + Space> Poly<V> for Cuboid<V> {
    #[inline(always)]
    fn face_count(&self) -> usize {
        6
    }
    #[inline(always)]
    fn face(&self, f: usize) -> (V, V::Real) {
        let k = f / 2;
        let n = if f % 2 == 1 { V::axis(k) } else { -V::axis(k) };
        (n, self.half_extents[k])
    }
    #[inline(always)]
    fn edge_count(&self) -> usize {
        12
    }
    #[inline(always)]
    fn edge(&self, e: usize) -> (V, V, V, V) {
        let (k, s) = (e / 4, e % 4);
        let (u, w) = ((k + 1) % 3, (k + 2) % 3);
        let h = self.half_extents;
        let (su, sw) = (
            if s & 1 == 1 { V::Real::ONE } else { -V::Real::ONE },
            if s & 2 == 2 { V::Real::ONE } else { -V::Real::ONE },
        );
        let (n0, n1) = (V::axis(u) * su, V::axis(w) * sw);
        let mid = V::axis(u) * (su * h[u]) + V::axis(w) * (sw * h[w]);
        // n0 × n1 = su sw e_k.
        let along = V::axis(k) * (h[k] * su * sw);
        (mid - along, mid + along, n0, n1)
    }
    #[inline(always)]
    fn support_point(&self, dir: V, _hint: &mut u32) -> V {
        self.support(dir)
    }
    fn face_polygon(&self, f: usize, out: &mut SupportFace<V>) {
        self.support_face(self.face(f).0, out);
    }
    fn face_along(&self, dir: V, out: &mut SupportFace<V>) {
        self.support_face(dir, out);
    }
    #[inline(always)]
    fn centre(&self) -> V {
        V::ZERO
    }
    #[inline(always)]
    fn extent(&self) -> V::Real {
        self.half_extents.length()
    }
    #[inline(always)]
    fn box_half_extents(&self) -> Option<V> {
        Some(self.half_extents)
    }
}

impl<V: Vector3 + Space> Poly<V> for ConvexHull<V> {
    #[inline(always)]
    fn face_count(&self) -> usize {
        ConvexHull::face_count(self)
    }
    #[inline(always)]
    fn face(&self, f: usize) -> (V, V::Real) {
        self.face_plane(f)
    }
    #[inline(always)]
    fn edge_count(&self) -> usize {
        self.edges().len()
    }
    #[inline(always)]
    fn edge(&self, e: usize) -> (V, V, V, V) {
        let ([i, j], [f, g]) = self.edges()[e];
        let v = self.vertices();
        (v[i as usize], v[j as usize], self.face_plane(f as usize).0, self.face_plane(g as usize).0)
    }
    #[inline(always)]
    fn support_point(&self, dir: V, hint: &mut u32) -> V {
        self.support_hinted(dir, hint)
    }
    fn face_polygon(&self, f: usize, out: &mut SupportFace<V>) {
        out.reset(crate::shape::Feature::Face(f as u32));
        for &i in self.face_vertices(f) {
            out.push(self.vertices()[i as usize], i);
        }
    }
    fn face_along(&self, dir: V, out: &mut SupportFace<V>) {
        self.support_face(dir, out);
    }
    #[inline(always)]
    fn centre(&self) -> V {
        self.interior_point()
    }
    #[inline(always)]
    fn extent(&self) -> V::Real {
        self.extent_bound()
    }
}

/// Witness points for face `f` of `r` (the reference, normal `n` pointing to `inc`, overlap
/// `sep <= 0`), in r's frame, `pose` placing `inc`: a point of `inc`'s deepest feature that
/// lies over the face, and its projection on the face. Returns `(on r, on inc)`.
#[inline]
pub(crate) fn face_witness<V: Vector3 + Space, R: Poly<V>, I: Poly<V>>(
    r: &R,
    inc: &I,
    pose: &Pose<V>,
    f: usize,
    n: V,
    sep: V::Real,
) -> (V, V) {
    let mut hint = crate::shape::NO_HINT;
    let q = pose.transform_point(inc.support_point(pose.inverse_transform_vector(-n), &mut hint));
    let p = q - n * sep;
    let mut face = SupportFace::default();
    r.face_polygon(f, &mut face);
    let pts = face.points();
    let size = r.extent() + q.length();
    let tol = V::Real::EPSILON * V::Real::from_usize(64) * size;
    let inside = (0..pts.len()).all(|k| {
        let (s, e) = (pts[k], pts[(k + 1) % pts.len()]);
        let side = (e - s).cross3(n);
        side.dot(p - s) <= tol * side.length()
    });
    if inside {
        return (p, q);
    }
    // Several deepest points (a face or an edge of `inc` parallel to the face), and the one
    // the support function gave is not over the face: clip the incident face to it.
    let mut incident = SupportFace::default();
    inc.face_along(pose.inverse_transform_vector(-n), &mut incident);
    incident.map_points(|x| pose.transform_point(x));
    let clipped = clip_to_sides::<V, 64>(&face, n, &incident);
    let origin = pts[0];
    let mut best: Option<(V::Real, V)> = None;
    for c in clipped.as_slice() {
        let h = n.dot(c.point - origin);
        if best.is_none_or(|(d, _)| h < d) {
            best = Some((h, c.point));
        }
    }
    match best {
        Some((_, q)) => (q - n * n.dot(q - origin), q),
        None => (p, q),
    }
}
