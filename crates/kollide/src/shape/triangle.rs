//! Triangle: three points (2D and 3D). Flat in 3D, as triangles of a mesh are.

use super::error::check_finite_vec;
use super::{Feature, Primitive, ShapeError, Support, SupportFace};
use crate::math::{Real, Vector};

/// The triangle with corners `a`, `b`, `c` in the local frame. Degenerate triangles
/// (collinear or equal corners) are allowed: they are still convex sets.
///
/// ```
/// use kollide::shape::{Triangle, Support};
/// use glam::Vec3;
/// let t = Triangle::try_new(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap();
/// assert_eq!(t.support(Vec3::new(1.0, 0.5, 0.0)), Vec3::X);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Triangle<V> {
    /// First corner.
    pub a: V,
    /// Second corner.
    pub b: V,
    /// Third corner.
    pub c: V,
}

impl<V: Vector> Triangle<V> {
    /// The triangle `a b c`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] naming the bad coordinate.
    pub fn try_new(a: V, b: V, c: V) -> Result<Self, ShapeError> {
        check_finite_vec("a", a)?;
        check_finite_vec("b", b)?;
        check_finite_vec("c", c)?;
        Ok(Self { a, b, c })
    }

    /// The triangle `a b c`.
    ///
    /// # Panics
    /// When a coordinate is not finite.
    #[must_use]
    pub fn new(a: V, b: V, c: V) -> Self {
        Self::try_new(a, b, c).unwrap_or_else(|e| panic!("Triangle::new: {e}"))
    }
}

impl<V: Vector> Support<V> for Triangle<V> {
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Triangle(self.a, self.b, self.c)
    }
    #[inline(always)]
    fn support(&self, dir: V) -> V {
        let (da, db, dc) = (self.a.dot(dir), self.b.dot(dir), self.c.dot(dir));
        if da >= db && da >= dc {
            self.a
        } else if db >= dc {
            self.b
        } else {
            self.c
        }
    }
    /// In 3D the whole triangle (vertex ids 0, 1, 2; face 0 is the side `ab × ac` points
    /// to, face 1 the other), ordered counter-clockwise seen from `dir`. In 2D the edge
    /// whose outward normal is closest to `dir`.
    #[inline]
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        let p = [self.a, self.b, self.c];
        if V::DIM == 3 {
            let n = (self.b - self.a).cross_or_zero(self.c - self.a);
            let front = n.dot(dir) >= V::Real::ZERO;
            face.reset(Feature::Face(u32::from(!front)));
            let order: [u32; 3] = if front { [0, 1, 2] } else { [0, 2, 1] };
            for i in order {
                face.push(p[i as usize], i);
            }
            return;
        }
        // 2D: outward normals point away from the third corner.
        let mut best: Option<(V::Real, usize)> = None;
        for i in 0..3 {
            let (s, e, o) = (p[i], p[(i + 1) % 3], p[(i + 2) % 3]);
            let edge = e - s;
            let mut n = V::from_f64_array([-edge[1].to_f64(), edge[0].to_f64(), 0.0]);
            if n.dot(o - s) > V::Real::ZERO {
                n = -n;
            }
            let len = n.length();
            if len == V::Real::ZERO {
                continue;
            }
            let score = n.dot(dir) / len;
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, i));
            }
        }
        match best {
            Some((_, i)) => {
                let j = (i + 1) % 3;
                face.reset(Feature::edge(i as u32, j as u32));
                face.push(p[i], i as u32);
                face.push(p[j], j as u32);
            }
            // All three corners coincide: a point.
            None => face.set_point(self.a, Feature::Vertex(0)),
        }
    }
    #[inline(always)]
    fn interior_point(&self) -> V {
        (self.a + self.b + self.c) * (V::Real::ONE / (V::Real::TWO + V::Real::ONE))
    }
}
