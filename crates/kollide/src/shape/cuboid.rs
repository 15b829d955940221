//! Cuboid (3D box) / rectangle (2D), centred and axis-aligned in its local frame.

use super::error::check_positive_vec;
use super::{Feature, Primitive, ShapeError, Support, SupportFace};
use crate::math::Real;
use crate::math::Vector;

/// An axis-aligned box centred on its local origin (a rectangle in 2D).
///
/// ```
/// use kollide::shape::{Cuboid, Support};
/// use glam::Vec2;
/// let rect = Cuboid::try_new(Vec2::new(2.0, 1.0)).unwrap();
/// assert_eq!(rect.support(Vec2::new(1.0, -1.0)), Vec2::new(2.0, -1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cuboid<V> {
    /// Half the size along each local axis, every component finite and `> 0`.
    pub half_extents: V,
}

impl<V: Vector> Cuboid<V> {
    /// A box with the given half extents.
    ///
    /// # Errors
    /// [`ShapeError`] naming the component that is not finite or not `> 0`.
    pub fn try_new(half_extents: V) -> Result<Self, ShapeError> {
        check_positive_vec("half_extents", half_extents)?;
        Ok(Self { half_extents })
    }

    /// A box with the given half extents.
    ///
    /// # Panics
    /// When a component is not finite or not `> 0` (see [`Cuboid::try_new`]).
    #[must_use]
    pub fn new(half_extents: V) -> Self {
        Self::try_new(half_extents).unwrap_or_else(|e| panic!("Cuboid::new: {e}"))
    }
}

impl<V: Vector> Support<V> for Cuboid<V> {
    #[inline(always)]
    fn support(&self, dir: V) -> V {
        self.half_extents.mul_elem(dir.sign_elem())
    }
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Box(self.half_extents)
    }
    /// The face whose normal is closest to `dir`: face `2k + 1` is the one at `+h_k` on
    /// axis `k`, face `2k` the one at `-h_k`. A corner's id has bit `i` set when its
    /// coordinate `i` is positive.
    #[inline]
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        let a = dir.abs_elem();
        let mut k = 0;
        for i in 1..V::DIM {
            if a[i] > a[k] {
                k = i;
            }
        }
        let up = dir[k] >= V::Real::ZERO;
        face.reset(Feature::Face(2 * k as u32 + u32::from(up)));
        let corner = |signs: [bool; 3]| {
            let mut p = -self.half_extents;
            let mut id = 0;
            for (i, &s) in signs.iter().enumerate().take(V::DIM) {
                if s {
                    p += V::axis(i) * (self.half_extents[i] * V::Real::TWO);
                    id |= 1 << i;
                }
            }
            (p, id)
        };
        // The corners, counter-clockwise seen from outside: with (u, w, k) a right-handed
        // cycle of the axes, (-,-) (+,-) (+,+) (-,+) in (u, w) turns counter-clockwise about
        // +k. In 2D the face is an edge and its two ends are enough.
        let uw: &[(bool, bool)] = if V::DIM == 2 {
            &[(false, false), (true, false)]
        } else if up {
            &[(false, false), (true, false), (true, true), (false, true)]
        } else {
            &[(false, false), (false, true), (true, true), (true, false)]
        };
        let (u, w) = ((k + 1) % V::DIM, (k + 2) % V::DIM);
        for &(su, sw) in uw {
            let mut signs = [false; 3];
            signs[k] = up;
            signs[u] = su;
            if V::DIM == 3 {
                signs[w] = sw;
            }
            let (p, id) = corner(signs);
            face.push(p, id);
        }
    }
}
