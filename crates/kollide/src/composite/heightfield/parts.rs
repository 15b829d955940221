//! Heightfields as composites: their triangles (segments) as parts, their grid walks as the
//! candidate search, and the grid's implicit adjacency for the internal-edge rule.

use crate::composite::internal_edges::{self, Neighbour};
use crate::composite::sweep::SoupParts;
use crate::composite::{Composite, HeightField, HeightField2d};
use crate::math::{Aabb, Pose, Real, Vector2, Vector3};
use crate::query::Space;
use crate::shape::{Feature, Segment, Triangle};

/// The triangle across edge `k` of triangle `t` of a grid of `cells_r x cells_c` cells.
///
/// Cell `(r, c)` holds `2 (r cells_c + c)`, the triangle `(p[r][c], p[r+1][c],
/// p[r+1][c+1])`, and the next one, `(p[r][c], p[r+1][c+1], p[r][c+1])`; edge `k` runs from
/// corner `k` to corner `k + 1`. All face up, so neighbours run shared edges the other way.
fn grid_neighbour(t: u32, k: usize, cells_r: u32, cells_c: u32) -> Option<u32> {
    let cell = t / 2;
    let (r, c) = (cell / cells_c, cell % cells_c);
    let tri = |r: u32, c: u32, second: bool| 2 * (r * cells_c + c) + u32::from(second);
    if t % 2 == 0 {
        match k {
            0 => (c > 0).then(|| tri(r, c - 1, true)),
            1 => (r + 1 < cells_r).then(|| tri(r + 1, c, true)),
            _ => Some(tri(r, c, true)),
        }
    } else {
        match k {
            0 => Some(tri(r, c, false)),
            1 => (c + 1 < cells_c).then(|| tri(r, c + 1, false)),
            _ => (r > 0).then(|| tri(r - 1, c, false)),
        }
    }
}

impl<V: Vector3 + Space> Composite<V> for HeightField<V> {
    type Part<'a> = Triangle<V>;

    fn part_count(&self) -> usize {
        self.triangle_count()
    }

    #[inline]
    /// The triangle with its first corner at the origin, placed there by `part_pose`:
    /// queries then work at the size of the shapes, not of the field's place in the world
    /// (as `TriMesh` does; see its `part`).
    fn part(&self, i: u32) -> Triangle<V> {
        let t = self.triangle(i);
        Triangle { a: V::ZERO, b: t.b - t.a, c: t.c - t.a }
    }

    #[inline]
    fn part_pose(&self, i: u32) -> Option<Pose<V>> {
        Some(Pose::from_translation(self.triangle(i).a))
    }

    fn local_aabb(&self) -> Aabb<V> {
        HeightField::local_aabb(self)
    }

    fn visit_overlaps(&self, aabb: &Aabb<V>, f: impl FnMut(u32) -> bool) -> bool {
        self.visit_cells_in(aabb, f)
    }

    fn nearest(
        &self,
        max: V::Real,
        lower: impl FnMut(&Aabb<V>) -> V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        HeightField::nearest(self, max, lower, f)
    }

    fn cast_ray(
        &self,
        origin: V,
        dir: V,
        max_toi: V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        HeightField::cast_ray(self, origin, dir, max_toi, f)
    }

    fn visit_ray(&self, origin: V, dir: V, max_toi: V::Real, mut f: impl FnMut(u32) -> bool) -> bool {
        // Every cell along the ray: the walk with a callback that never shortens it.
        let mut go = true;
        HeightField::cast_ray(self, origin, dir, max_toi, |i, _| {
            if go {
                go = f(i);
            }
            None
        });
        go
    }

    fn cast_aabb(
        &self,
        aabb: &Aabb<V>,
        motion: V,
        max_toi: V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        HeightField::cast_aabb(self, aabb, motion, max_toi, f)
    }

    fn part_feature(&self, i: u32, feature: Feature) -> Feature {
        // Corners by their sample number r * cols + c, faces by the triangle.
        let cols = self.cols() as u32;
        let cell = i / 2;
        let cells_c = cols - 1;
        let (r, c) = (cell / cells_c, cell % cells_c);
        let corner = |k: u32| -> u32 {
            let (dr, dc) = match (i % 2, k) {
                (0, 0) | (1, 0) => (0, 0),
                (0, 1) => (1, 0),
                (0, _) | (1, 1) => (1, 1),
                _ => (0, 1),
            };
            (r + dr) * cols + c + dc
        };
        match feature {
            Feature::Vertex(k) if k < 3 => Feature::Vertex(corner(k)),
            Feature::Edge(j, k) if j < 3 && k < 3 => Feature::edge(corner(j), corner(k)),
            Feature::Face(_) => Feature::Face(i),
            other => other,
        }
    }

    fn corrected_normal(&self, i: u32, point: V, normal: V) -> Option<V> {
        let t = self.triangle(i);
        let corners = [t.a, t.b, t.c];
        let (cells_r, cells_c) = (self.rows() as u32 - 1, self.cols() as u32 - 1);
        internal_edges::corrected_normal(
            &corners,
            point,
            normal,
            |k| {
                let j = grid_neighbour(i, k, cells_r, cells_c)?;
                let o = self.triangle(j);
                let other = [o.a, o.b, o.c];
                let n = internal_edges::face_normal(&other)?;
                let (a, b) = (corners[k], corners[(k + 1) % 3]);
                let apex = other.into_iter().find(|&p| p != a && p != b)?;
                Some(Neighbour { normal: n, apex })
            },
            |k| self.is_surface_corner(i, k),
        )
    }
}

impl<V: Vector3 + Space> HeightField<V> {
    /// Whether corner `k` of triangle `i` is a real corner of the surface: on the grid's
    /// boundary, or where one of the six edges meeting there is a crease.
    fn is_surface_corner(&self, i: u32, k: usize) -> bool {
        let t = self.triangle(i);
        let p = [t.a, t.b, t.c][k];
        let (cells_r, cells_c) = (self.rows() as u32 - 1, self.cols() as u32 - 1);
        let (r, c) = self.cell_of_triangle(i);
        // The sample at corner k, by the corner order of the numbering.
        let (dr, dc) = match (i % 2, k) {
            (_, 0) => (0, 0),
            (0, 1) => (1, 0),
            (0, _) | (1, 1) => (1, 1),
            _ => (0, 1),
        };
        let (sr, sc) = (r + dr, c + dc);
        if sr == 0 || sc == 0 || sr + 1 == self.rows() || sc + 1 == self.cols() {
            return true;
        }
        // The triangles of the (up to) four cells around the sample, and their edges at it.
        for (cr, cc) in [(sr - 1, sc - 1), (sr - 1, sc), (sr, sc - 1), (sr, sc)] {
            for tri in
                [2 * (cr * (cells_c as usize) + cc) as u32, 2 * (cr * (cells_c as usize) + cc) as u32 + 1]
            {
                let t = self.triangle(tri);
                let corners = [t.a, t.b, t.c];
                let Some(n) = internal_edges::face_normal(&corners) else {
                    return true;
                };
                for e in 0..3 {
                    if corners[e] != p && corners[(e + 1) % 3] != p {
                        continue;
                    }
                    let other = grid_neighbour(tri, e, cells_r, cells_c).and_then(|j| {
                        let o = self.triangle(j);
                        internal_edges::face_normal(&[o.a, o.b, o.c])
                    });
                    if internal_edges::edge_is_active(n, other) {
                        return true;
                    }
                }
            }
        }
        false
    }
}

impl<V: Vector3 + Space> SoupParts<V> for HeightField<V> {
    type Item = [V; 3];
    #[inline]
    fn soup_item(&self, i: u32) -> [V; 3] {
        let t = self.triangle(i);
        [t.a, t.b, t.c]
    }
}

impl<V: Vector2 + Space> Composite<V> for HeightField2d<V> {
    type Part<'a> = Segment<V>;

    fn part_count(&self) -> usize {
        self.segment_count()
    }

    #[inline]
    /// The segment with its first end at the origin, placed there by `part_pose` (see
    /// the 3D field's `part`).
    fn part(&self, i: u32) -> Segment<V> {
        let s = self.segment(i);
        Segment { a: V::ZERO, b: s.b - s.a }
    }

    #[inline]
    fn part_pose(&self, i: u32) -> Option<Pose<V>> {
        Some(Pose::from_translation(self.segment(i).a))
    }

    fn local_aabb(&self) -> Aabb<V> {
        HeightField2d::local_aabb(self)
    }

    fn visit_overlaps(&self, aabb: &Aabb<V>, f: impl FnMut(u32) -> bool) -> bool {
        self.visit_cells_in(aabb, f)
    }

    fn nearest(
        &self,
        max: V::Real,
        lower: impl FnMut(&Aabb<V>) -> V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        HeightField2d::nearest(self, max, lower, f)
    }

    fn cast_ray(
        &self,
        origin: V,
        dir: V,
        max_toi: V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        HeightField2d::cast_ray(self, origin, dir, max_toi, f)
    }

    fn visit_ray(&self, origin: V, dir: V, max_toi: V::Real, mut f: impl FnMut(u32) -> bool) -> bool {
        let mut go = true;
        HeightField2d::cast_ray(self, origin, dir, max_toi, |i, _| {
            if go {
                go = f(i);
            }
            None
        });
        go
    }

    fn cast_aabb(
        &self,
        aabb: &Aabb<V>,
        motion: V,
        max_toi: V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        HeightField2d::cast_aabb(self, aabb, motion, max_toi, f)
    }

    fn part_feature(&self, i: u32, feature: Feature) -> Feature {
        match feature {
            Feature::Vertex(k) => Feature::Vertex(i + k),
            Feature::Edge(..) | Feature::Face(_) => Feature::Face(i),
            Feature::Unknown => feature,
        }
    }

    fn corrected_normal(&self, i: u32, point: V, normal: V) -> Option<V> {
        // The segments of a height line run left to right with their fronts up: the
        // polyline rule, with the neighbours i - 1 and i + 1.
        let s = self.segment(i);
        let up = |a: V, b: V| {
            let e = b - a;
            let n = V::new2(-e[1], e[0]);
            let l = n.length();
            (l > V::Real::ZERO).then(|| n / l)
        };
        let n = up(s.a, s.b)?;
        let side = if normal.dot(n) < V::Real::ZERO { -V::Real::ONE } else { V::Real::ONE };
        let face = n * side;
        let same = V::Real::from_f64(1.0 - 1e-6);
        if normal.dot(face) >= same {
            return None;
        }
        let tol = V::Real::from_f64(1e-3) * (s.b - s.a).length();
        let (j, joint, far) = if (point - s.a).length() <= tol && i > 0 {
            let o = self.segment(i - 1);
            (i - 1, s.a, o.a)
        } else if (point - s.b).length() <= tol && (i as usize) + 1 < self.segment_count() {
            let o = self.segment(i + 1);
            (i + 1, s.b, o.b)
        } else {
            return None;
        };
        let o = self.segment(j);
        let other = up(o.a, o.b)? * side;
        if normal.dot(other) >= same {
            return None;
        }
        let convex = (far - joint).dot(face) < V::Real::ZERO && face.dot(other) < same;
        let turn = face.perp_dot2(other);
        let between = convex
            && face.perp_dot2(normal) * turn >= V::Real::ZERO
            && normal.perp_dot2(other) * turn >= V::Real::ZERO;
        (!between).then_some(face)
    }
}

impl<V: Vector2 + Space> SoupParts<V> for HeightField2d<V> {
    type Item = [V; 2];
    #[inline]
    fn soup_item(&self, i: u32) -> [V; 2] {
        let s = self.segment(i);
        [s.a, s.b]
    }
}

#[cfg(test)]
mod tests {
    use super::grid_neighbour;

    #[test]
    fn grid_neighbours_are_mutual() {
        let (rows, cols) = (4u32, 5u32);
        for t in 0..2 * rows * cols {
            for k in 0..3 {
                if let Some(j) = grid_neighbour(t, k, rows, cols) {
                    let back = (0..3).filter(|&m| grid_neighbour(j, m, rows, cols) == Some(t)).count();
                    assert_eq!(back, 1, "triangle {t} edge {k} -> {j}");
                }
            }
        }
        // Interior triangles have three neighbours, and the boundary is where expected.
        assert_eq!(grid_neighbour(0, 0, rows, cols), None);
        assert_eq!(grid_neighbour(1, 2, rows, cols), None);
        assert_eq!(grid_neighbour(0, 2, rows, cols), Some(1));
    }
}
