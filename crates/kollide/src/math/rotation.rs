//! Rotations: [`Rot2`] (a unit complex number) in 2D, glam's unit quaternions in 3D.

use super::{Real, Vector};
use core::fmt::Debug;
use glam::{DMat3, DQuat, DVec2, DVec3, Mat3, Quat, Vec2, Vec3};

/// How far the norm of a rotation given by a user may be from 1 before it is refused
/// rather than renormalized (see [`Pose::try_new`](super::Pose::try_new)).
pub const ROTATION_NORM_TOLERANCE: f64 = 1.0e-4;

/// A proper rotation of vectors of type `V`.
pub trait Rotation<V>: Copy + Debug + PartialEq + Send + Sync + 'static {
    /// No rotation.
    const IDENTITY: Self;
    /// Rotates `v`.
    fn rotate(self, v: V) -> V;
    /// Applies the inverse rotation to `v`.
    fn inverse_rotate(self, v: V) -> V;
    /// The inverse rotation.
    fn inverse(self) -> Self;
    /// `self` after `other`: `(self * other).rotate(v) == self.rotate(other.rotate(v))`.
    fn compose(self, other: Self) -> Self;
    /// The norm of the underlying complex number or quaternion (1 for a valid rotation).
    fn norm(self) -> f64;
    /// `true` when every component is finite.
    fn is_finite_rot(self) -> bool;
    /// The same rotation scaled to norm 1, or `None` when the norm is 0 or not finite.
    fn try_normalized(self) -> Option<Self>;

    /// The form fastest to apply many times: a 3x3 matrix in 3D (three independent dot
    /// products, where the quaternion formula is a chain of dependent cross products), the
    /// complex number itself in 2D. GJK converts B's rotation once per query.
    type Applied: Copy + Debug + Send + Sync + 'static;
    /// This rotation in its [`Rotation::Applied`] form.
    fn applied(self) -> Self::Applied;
    /// Rotates `v` by an applied rotation.
    fn apply(m: &Self::Applied, v: V) -> V;
    /// Rotates `v` by the inverse of an applied rotation.
    fn apply_inverse(m: &Self::Applied, v: V) -> V;
}

/// A 2D rotation stored as a unit complex number `(cos θ, sin θ)`.
///
/// ```
/// use kollide::math::{Rot2, Rotation};
/// use glam::Vec2;
/// let r = Rot2::from_angle(core::f32::consts::FRAC_PI_2);
/// assert!((r.rotate(Vec2::X) - Vec2::Y).length() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rot2<S> {
    /// cos θ.
    pub cos: S,
    /// sin θ.
    pub sin: S,
}

impl<S: Real> Rot2<S> {
    /// The rotation by `angle` radians counter-clockwise.
    #[must_use]
    pub fn from_angle(angle: S) -> Self {
        let (sin, cos) = angle.sin_cos();
        Self { cos, sin }
    }

    /// The angle in `(-π, π]`.
    #[must_use]
    pub fn angle(self) -> S {
        self.sin.atan2(self.cos)
    }
}

impl<S: Real> Default for Rot2<S> {
    fn default() -> Self {
        Self { cos: S::ONE, sin: S::ZERO }
    }
}

macro_rules! impl_rot2 {
    ($v:ident, $r:ident) => {
        impl Rotation<$v> for Rot2<$r> {
            const IDENTITY: Self = Rot2 { cos: 1.0, sin: 0.0 };
            #[inline(always)]
            fn rotate(self, v: $v) -> $v {
                $v::new(self.cos * v.x - self.sin * v.y, self.sin * v.x + self.cos * v.y)
            }
            #[inline(always)]
            fn inverse_rotate(self, v: $v) -> $v {
                $v::new(self.cos * v.x + self.sin * v.y, -self.sin * v.x + self.cos * v.y)
            }
            #[inline(always)]
            fn inverse(self) -> Self {
                Rot2 { cos: self.cos, sin: -self.sin }
            }
            #[inline(always)]
            fn compose(self, o: Self) -> Self {
                Rot2 { cos: self.cos * o.cos - self.sin * o.sin, sin: self.sin * o.cos + self.cos * o.sin }
            }
            #[inline]
            fn norm(self) -> f64 {
                (self.cos as f64).hypot(self.sin as f64)
            }
            #[inline]
            fn is_finite_rot(self) -> bool {
                self.cos.is_finite() && self.sin.is_finite()
            }
            #[inline]
            fn try_normalized(self) -> Option<Self> {
                let n = self.cos.hypot(self.sin);
                (n > 0.0 && n.is_finite()).then(|| Rot2 { cos: self.cos / n, sin: self.sin / n })
            }
            type Applied = Self;
            #[inline(always)]
            fn applied(self) -> Self {
                self
            }
            #[inline(always)]
            fn apply(m: &Self, v: $v) -> $v {
                m.rotate(v)
            }
            #[inline(always)]
            fn apply_inverse(m: &Self, v: $v) -> $v {
                m.inverse_rotate(v)
            }
        }
    };
}

macro_rules! impl_quat {
    ($v:ident, $q:ident, $m:ident) => {
        impl Rotation<$v> for $q {
            const IDENTITY: Self = $q::IDENTITY;
            #[inline(always)]
            fn rotate(self, v: $v) -> $v {
                let [x, y, z] = quat_rotate([self.x, self.y, self.z, self.w], [v.x, v.y, v.z]);
                $v::new(x, y, z)
            }
            #[inline(always)]
            fn inverse_rotate(self, v: $v) -> $v {
                let [x, y, z] = quat_rotate([-self.x, -self.y, -self.z, self.w], [v.x, v.y, v.z]);
                $v::new(x, y, z)
            }
            #[inline(always)]
            fn inverse(self) -> Self {
                self.conjugate()
            }
            #[inline(always)]
            fn compose(self, o: Self) -> Self {
                self * o
            }
            #[inline]
            fn norm(self) -> f64 {
                (self.length() as f64)
            }
            #[inline]
            fn is_finite_rot(self) -> bool {
                self.is_finite()
            }
            #[inline]
            fn try_normalized(self) -> Option<Self> {
                let n = self.length();
                (n > 0.0 && n.is_finite()).then(|| self / n)
            }
            type Applied = $m;
            #[inline(always)]
            fn applied(self) -> $m {
                $m::from_quat(self)
            }
            #[inline(always)]
            fn apply(m: &$m, v: $v) -> $v {
                *m * v
            }
            #[inline(always)]
            fn apply_inverse(m: &$m, v: $v) -> $v {
                // The inverse of a rotation matrix is its transpose: dot with the columns.
                $v::new(m.x_axis.dot(v), m.y_axis.dot(v), m.z_axis.dot(v))
            }
        }
    };
}

/// `v` turned by the unit quaternion `(x, y, z, w)`, by components:
/// `v (w² - b·b) + b (2 v·b) + (b × v) 2w` with `b = (x, y, z)`, in the order of operations
/// of glam's packed form, so the same numbers. Not glam's `Quat * Vec3` itself: that widens
/// `v` to four SSE lanes, and the compiler may fill the fourth, which nothing reads, from
/// the four bytes after `v` in memory (a status, an index, padding). A subnormal there
/// sends each packed multiply through a microcode assist of about a hundred cycles: a ball
/// pair's kept manifold took 350 ns instead of 140 in some address layouts, a fifth of
/// the world frame.
#[inline(always)]
fn quat_rotate<R: Real>([x, y, z, w]: [R; 4], [vx, vy, vz]: [R; 3]) -> [R; 3] {
    let two = R::ONE + R::ONE;
    let b2 = (x * x + y * y) + z * z;
    let s = w * w - b2;
    let d = ((vx * x + vy * y) + vz * z) * two;
    let w2 = w * two;
    let (cx, cy, cz) = (y * vz - z * vy, z * vx - x * vz, x * vy - y * vx);
    [(vx * s + x * d) + cx * w2, (vy * s + y * d) + cy * w2, (vz * s + z * d) + cz * w2]
}

impl_rot2!(Vec2, f32);
impl_rot2!(DVec2, f64);
impl_quat!(Vec3, Quat, Mat3);
impl_quat!(DVec3, DQuat, DMat3);

/// Shorthand used by generic code: the rotation type of `V`.
pub type RotationOf<V> = <V as Vector>::Rotation;

#[cfg(test)]
mod tests {
    use super::*;

    /// The turn by components gives glam's numbers bit for bit, forwards and back, in
    /// `f32` and `f64`.
    #[test]
    fn quaternion_turns_by_components_equal_glams() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for i in 0..20_000 {
            let scale = [1e-3, 1.0, 1e3, 1e6][i % 4];
            let axis = DVec3::new(next(), next(), next()).normalize_or(DVec3::X);
            let q = DQuat::from_axis_angle(axis, 4.0 * next());
            let v = DVec3::new(next(), next(), next()) * scale;
            assert_eq!(q.rotate(v), q * v, "{q:?} {v:?}");
            assert_eq!(q.inverse_rotate(v), q.conjugate() * v, "{q:?} {v:?}");
            let (q, v) = (q.as_quat(), v.as_vec3());
            assert_eq!(q.rotate(v), q * v, "{q:?} {v:?}");
            assert_eq!(q.inverse_rotate(v), q.conjugate() * v, "{q:?} {v:?}");
        }
    }
}
