//! Axis-aligned bounding boxes, the bounding volume of the BVH, the dynamic tree and the
//! composites (2D and 3D, `f32` and `f64`).

use super::{Pose, Real, Vector};

/// An axis-aligned box `[min, max]` (a rectangle in 2D), in whatever frame its owner names.
///
/// A box with `min > max` on some axis is *empty*: the box of
/// [`Aabb::empty`] is the identity of [`Aabb::union`]. Touching boxes intersect.
///
/// ```
/// use kollide::math::{Aabb, Vec3};
/// let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
/// let b = Aabb::new(Vec3::splat(1.0), Vec3::splat(2.0));
/// assert!(a.intersects(&b)); // touching at a corner
/// assert_eq!(a.union(&b), Aabb::new(Vec3::ZERO, Vec3::splat(2.0)));
/// assert_eq!(a.surface_area(), 6.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabb<V> {
    /// The corner with the least coordinates.
    pub min: V,
    /// The corner with the greatest coordinates.
    pub max: V,
}

impl<V: Vector> Default for Aabb<V> {
    fn default() -> Self {
        Self::empty()
    }
}

impl<V: Vector> Aabb<V> {
    /// The box `[min, max]`, taken as given (no check: `min > max` makes it empty).
    #[inline(always)]
    #[must_use]
    pub fn new(min: V, max: V) -> Self {
        Self { min, max }
    }

    /// The empty box (`min = +inf`, `max = -inf`): contains nothing, and `empty().union(b)
    /// == b`.
    #[inline(always)]
    #[must_use]
    pub fn empty() -> Self {
        Self { min: V::splat(V::Real::INFINITY), max: V::splat(-V::Real::INFINITY) }
    }

    /// The box of one point.
    #[inline(always)]
    #[must_use]
    pub fn from_point(p: V) -> Self {
        Self { min: p, max: p }
    }

    /// The least box holding every point (empty for no points).
    #[must_use]
    pub fn from_points(points: impl IntoIterator<Item = V>) -> Self {
        points.into_iter().fold(Self::empty(), |b, p| b.including(p))
    }

    /// The box of a ball of `radius` about `center`.
    #[inline(always)]
    #[must_use]
    pub fn from_ball(center: V, radius: V::Real) -> Self {
        let r = V::splat(radius);
        Self { min: center - r, max: center + r }
    }

    /// `true` when `min <= max` on every axis (a point counts).
    #[inline(always)]
    #[must_use]
    pub fn is_valid(&self) -> bool {
        let d = self.max - self.min;
        (0..V::DIM).all(|i| d[i] >= V::Real::ZERO)
    }

    /// `true` when both corners are finite.
    #[inline(always)]
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.min.is_finite_vec() && self.max.is_finite_vec()
    }

    /// The least box holding both (either may be empty).
    #[inline(always)]
    #[must_use]
    pub fn union(&self, other: &Self) -> Self {
        Self { min: self.min.min_elem(other.min), max: self.max.max_elem(other.max) }
    }

    /// The least box holding this one and `p`.
    #[inline(always)]
    #[must_use]
    pub fn including(&self, p: V) -> Self {
        Self { min: self.min.min_elem(p), max: self.max.max_elem(p) }
    }

    /// The overlap of both boxes (empty when they do not meet).
    #[inline(always)]
    #[must_use]
    pub fn intersection(&self, other: &Self) -> Self {
        Self { min: self.min.max_elem(other.min), max: self.max.min_elem(other.max) }
    }

    /// Whether the boxes share a point (touching counts; an empty box meets nothing).
    #[inline(always)]
    #[must_use]
    pub fn intersects(&self, other: &Self) -> bool {
        // Without short-circuits: in pair searches the outcome is unpredictable, and a
        // branch per comparison costs more in mispredictions than the comparisons.
        let mut meet = true;
        for i in 0..V::DIM {
            meet &= (self.min[i] <= other.max[i]) & (other.min[i] <= self.max[i]);
        }
        meet
    }

    /// Whether `other` lies wholly inside this box (boundary included).
    #[inline(always)]
    #[must_use]
    pub fn contains(&self, other: &Self) -> bool {
        (0..V::DIM).all(|i| self.min[i] <= other.min[i] && other.max[i] <= self.max[i])
    }

    /// Whether `p` lies in the box (boundary included).
    #[inline(always)]
    #[must_use]
    pub fn contains_point(&self, p: V) -> bool {
        (0..V::DIM).all(|i| self.min[i] <= p[i] && p[i] <= self.max[i])
    }

    /// The centre.
    #[inline(always)]
    #[must_use]
    pub fn center(&self) -> V {
        (self.min + self.max) * V::Real::HALF
    }

    /// Half the size along each axis.
    #[inline(always)]
    #[must_use]
    pub fn half_extents(&self) -> V {
        (self.max - self.min) * V::Real::HALF
    }

    /// The size along each axis.
    #[inline(always)]
    #[must_use]
    pub fn extents(&self) -> V {
        self.max - self.min
    }

    /// The box grown by `margin` on every side (shrunk for a negative margin).
    #[inline(always)]
    #[must_use]
    pub fn loosened(&self, margin: V::Real) -> Self {
        let m = V::splat(margin);
        Self { min: self.min - m, max: self.max + m }
    }

    /// The box swept along `motion`: the least box holding this one and this one moved by
    /// `motion`.
    #[inline(always)]
    #[must_use]
    pub fn swept(&self, motion: V) -> Self {
        self.union(&Self { min: self.min + motion, max: self.max + motion })
    }

    /// The measure the surface-area heuristic weighs nodes by: the area of the surface in
    /// 3D, the perimeter in 2D (proportional to the chance a random line meets the box).
    /// 0 for an empty box.
    #[inline]
    #[must_use]
    pub fn surface_area(&self) -> V::Real {
        let d = (self.max - self.min).max_elem(V::ZERO);
        if V::DIM == 2 {
            V::Real::TWO * (d[0] + d[1])
        } else {
            V::Real::TWO * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0])
        }
    }

    /// The squared distance from `p` to the box (0 inside).
    #[inline(always)]
    #[must_use]
    pub fn distance_squared_to_point(&self, p: V) -> V::Real {
        let d = (self.min - p).max_elem(p - self.max).max_elem(V::ZERO);
        d.length_squared()
    }

    /// The squared distance between two boxes (0 when they meet).
    #[inline(always)]
    #[must_use]
    pub fn gap_squared(&self, other: &Self) -> V::Real {
        let d = (other.min - self.max).max_elem(self.min - other.max).max_elem(V::ZERO);
        d.length_squared()
    }

    /// Where the ray `origin + t dir` is inside the box, as `(t_enter, t_exit)` clipped to
    /// `[0, max_toi]`; `None` when it misses the box there. `inv_dir` must come from
    /// [`inverse_direction`] (which keeps every component finite). Touching counts, and the
    /// test is conservative: it never refuses a box the ray meets in exact arithmetic.
    /// - Each exit time is widened by the slab test's rounding bound (`1 + 16 eps`, above
    ///   Ize's `1 + 2 gamma_3` for the rounded inverse, difference and product), so a ray
    ///   through a corner or along an edge, whose entry and exit are equal in exact
    ///   arithmetic, is not refused when they round apart.
    /// - Along a zero direction component (an inverse at the clamp of
    ///   [`inverse_direction`]) the slab is the closed interval of the origin's coordinate: a
    ///   ray lying in either face of the box is inside it (the slab test alone made a ray in
    ///   the face its zero's sign points to leave the box at `t = 0`).
    ///
    /// The entry time is the slab test's own.
    #[inline(always)]
    #[must_use]
    pub fn ray_interval(&self, origin: V, inv_dir: V, max_toi: V::Real) -> Option<(V::Real, V::Real)> {
        // The slab test (Kay and Kajiya), without branches: `min`/`max` pick the near and
        // far plane of each slab whatever the sign of the direction.
        let a = (self.min - origin).mul_elem(inv_dir);
        let b = (self.max - origin).mul_elem(inv_dir);
        let near = a.min_elem(b);
        let far = a.max_elem(b);
        let mut t0 = V::Real::ZERO;
        let mut t1 = max_toi;
        for i in 0..V::DIM {
            if is_parallel(inv_dir[i]) && self.min[i] <= origin[i] && origin[i] <= self.max[i] {
                continue;
            }
            t0 = t0.max(near[i]);
            t1 = t1.min(far[i] * exit_widening::<V::Real>());
        }
        (t0 <= t1).then_some((t0, t1))
    }

    /// The box, in the frame `pose` maps into, of this box's local corners placed by
    /// `pose`: exact for a translation, the least box around the turned box otherwise.
    #[must_use]
    pub fn transformed(&self, pose: &Pose<V>) -> Self {
        let c = pose.transform_point(self.center());
        let h = self.half_extents();
        // |R| h: each world axis gets the absolute projection of the local half extents.
        let mut w = V::ZERO;
        for i in 0..V::DIM {
            let axis = pose.transform_vector(V::axis(i) * h[i]);
            w += axis.abs_elem();
        }
        Self { min: c - w, max: c + w }
    }
}

/// The inverse of a zero direction component (and of one below `1e-30`): `1e30`.
const PARALLEL_INVERSE: f64 = 1e30;

/// `1 / d` per component: the `inv_dir` of [`Aabb::ray_interval`]. A zero component (or one
/// below `1e-30`) has the inverse `±1e30`, huge but finite (an infinity times the zero gap
/// of an origin lying on the slab's face would be NaN); [`Aabb::ray_interval`] recognises
/// it and takes the slab as the closed interval of the origin there.
#[inline]
#[must_use]
pub fn inverse_direction<V: Vector>(d: V) -> V {
    let a = d.to_f64_array();
    let inv = |x: f64| {
        if x == 0.0 {
            return PARALLEL_INVERSE.copysign(x);
        }
        // Subnormal components too: an `f32` inverse must stay finite.
        (1.0 / x).clamp(-PARALLEL_INVERSE, PARALLEL_INVERSE)
    };
    V::from_f64_array([inv(a[0]), inv(a[1]), inv(a[2])])
}

/// Whether an inverse from [`inverse_direction`] stands for a direction component of
/// (nearly) zero: the ray runs along that slab.
#[inline(always)]
pub(crate) fn is_parallel<R: Real>(inv: R) -> bool {
    inv.abs() >= R::from_f64(PARALLEL_INVERSE)
}

/// The factor on exit times that makes the slab test conservative: `1 + 16 eps`.
#[inline(always)]
pub(crate) fn exit_widening<R: Real>() -> R {
    R::ONE + R::from_usize(16) * R::EPSILON
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec3};

    #[test]
    fn ray_interval_along_a_face_and_through() {
        let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
        let wide = exit_widening::<f32>();
        // Along the x axis, lying in the face y = 0: inside the y slab, enters at x = 0
        // (the exit widened by the rounding bound).
        let d = Vec3::X;
        let got = b.ray_interval(Vec3::new(-1.0, 0.0, 0.5), inverse_direction(d), 10.0);
        assert_eq!(got, Some((1.0, 2.0 * wide)));
        // Lying in the opposite face y = 1, with either sign of the zero components: the
        // slab is closed on both sides.
        for d in [Vec3::X, Vec3::new(1.0, -0.0, -0.0)] {
            let got = b.ray_interval(Vec3::new(-1.0, 1.0, 1.0), inverse_direction(d), 10.0);
            assert_eq!(got, Some((1.0, 2.0 * wide)), "{d:?}");
            let got = b.ray_interval(Vec3::new(-1.0, 0.0, 0.0), inverse_direction(d), 10.0);
            assert_eq!(got, Some((1.0, 2.0 * wide)), "{d:?}");
        }
        // Just below that face: misses.
        assert_eq!(b.ray_interval(Vec3::new(-1.0, -1e-7, 0.5), inverse_direction(d), 10.0), None);
        // Clipped by max_toi.
        assert_eq!(b.ray_interval(Vec3::new(-1.0, 0.5, 0.5), inverse_direction(d), 0.5), None);
        // Starting inside: enters at 0.
        let got = b.ray_interval(Vec3::splat(0.5), inverse_direction(Vec3::new(-1.0, 0.0, 0.0)), 9.0);
        assert_eq!(got, Some((0.0, 0.5 * wide)));
    }

    /// A ray through a corner of the box enters and leaves at one time in exact arithmetic;
    /// rounded, the entry came out after the exit and the box was refused (rays at a
    /// mesh's shared corners from 1e4 away in f32 skipped the triangle they hit).
    #[test]
    fn a_ray_through_a_corner_meets_the_box() {
        // Corners on a lattice, rays from lattice points through them, directions turned
        // by every scale: each exact crossing of a corner must be kept.
        let mut kept = 0;
        for far in [0.0f32, 1e4, 3e6] {
            let b = Aabb::new(Vec3::new(far, -0.5, far + 2.0), Vec3::new(far + 1.0, 0.5, far + 3.0));
            for (k, corner) in [b.min, b.max, Vec3::new(b.min.x, b.max.y, b.min.z)].into_iter().enumerate() {
                for i in 1..40 {
                    let step = Vec3::new((i % 7) as f32 - 3.0, (i % 5) as f32 - 2.5, (i % 3) as f32 - 1.0);
                    let scale = [1.0, 1e-7, 1e7, 0.3][(i + k) % 4];
                    let origin = corner - step * 4.0;
                    let d = step * scale;
                    if d == Vec3::ZERO {
                        continue;
                    }
                    // The corner is at t = 4 / scale exactly; the lattice keeps it exact.
                    let at = 4.0 / scale;
                    let got = b.ray_interval(origin, inverse_direction(d), 2.0 * at);
                    assert!(got.is_some(), "far {far}, corner {k}, step {step:?}, scale {scale}");
                    kept += 1;
                }
            }
        }
        assert!(kept > 300);
    }

    #[test]
    fn transformed_box_holds_the_turned_corners() {
        let b = Aabb::new(DVec2::new(-1.0, -0.5), DVec2::new(1.0, 0.5));
        let pose = crate::math::DPose2::from_angle(DVec2::new(3.0, 0.0), 0.3);
        let t = b.transformed(&pose);
        for c in [DVec2::new(-1.0, -0.5), DVec2::new(1.0, -0.5), DVec2::new(-1.0, 0.5), DVec2::new(1.0, 0.5)]
        {
            assert!(t.loosened(1e-12).contains_point(pose.transform_point(c)));
        }
        // Tight: some corner reaches each face.
        let w = (0.3f64.cos() + 0.5 * 0.3f64.sin(), 0.3f64.sin() + 0.5 * 0.3f64.cos());
        assert!((t.max.x - 3.0 - w.0).abs() < 1e-12 && (t.max.y - w.1).abs() < 1e-12);
    }

    #[test]
    fn empty_is_the_identity_of_union_and_meets_nothing() {
        let e = Aabb::<Vec3>::empty();
        let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
        assert_eq!(e.union(&b), b);
        assert!(!e.intersects(&b) && !e.is_valid());
        assert_eq!(e.surface_area(), 0.0);
        assert_eq!(Aabb::from_points([Vec3::X, Vec3::Y]), Aabb::new(Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0)));
    }
}
