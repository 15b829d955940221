//! The vector trait that lets GJK and the shapes be written once for 2D and 3D, `f32` and `f64`.

use super::{Real, Rot2, Rotation};
use core::fmt::Debug;
use core::ops::{Add, AddAssign, Div, Index, Mul, Neg, Sub, SubAssign};
use glam::{DQuat, DVec2, DVec3, DVec4, Quat, Vec2, Vec3, Vec4};

mod sealed {
    pub trait Sealed {}
    impl Sealed for glam::Vec2 {}
    impl Sealed for glam::Vec3 {}
    impl Sealed for glam::DVec2 {}
    impl Sealed for glam::DVec3 {}
}

/// A glam vector kollide runs on: [`Vec2`], [`DVec2`] (2D) or [`Vec3`], [`DVec3`] (3D).
///
/// Sealed. Everything generic in kollide (`Ball<V>`, `distance::<V, _, _>`) is
/// monomorphized for the concrete vector type, so the abstraction costs nothing at run time.
pub trait Vector:
    sealed::Sealed
    + Copy
    + Debug
    + Default
    + PartialEq
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
    + Mul<<Self as Vector>::Real, Output = Self>
    + Div<<Self as Vector>::Real, Output = Self>
    + AddAssign
    + SubAssign
    + Index<usize, Output = <Self as Vector>::Real>
{
    /// The scalar type.
    type Real: Real;
    /// The rotation type of this dimension: [`Rot2`] in 2D, a glam quaternion in 3D.
    type Rotation: Rotation<Self>;
    /// Fills the gap a pose would otherwise have between its translation and its rotation
    /// (`f32` for `Vec3`, nothing for the others); see [`crate::math::Pose`].
    #[doc(hidden)]
    type PosePad: Copy + Debug + PartialEq + Send + Sync + 'static;
    /// The filler's value: always zero.
    #[doc(hidden)]
    const POSE_PAD: Self::PosePad;
    /// An angular velocity in this dimension: radians per unit time, a scalar in 2D
    /// (counter-clockwise positive), a vector in 3D (axis times rate, in the world frame).
    type AngularVelocity: Copy + Debug + Default + PartialEq + Send + Sync + 'static;
    /// 2 or 3.
    const DIM: usize;
    /// The zero vector.
    const ZERO: Self;

    /// Dot product.
    fn dot(self, other: Self) -> Self::Real;
    /// A vector with every component equal to `x`.
    fn splat(x: Self::Real) -> Self;
    /// The unit vector along axis `i` (0 = x, 1 = y, 2 = z).
    fn axis(i: usize) -> Self;
    /// Component-wise product.
    fn mul_elem(self, other: Self) -> Self;
    /// Component-wise minimum.
    fn min_elem(self, other: Self) -> Self;
    /// Component-wise maximum.
    fn max_elem(self, other: Self) -> Self;
    /// Component-wise absolute value.
    fn abs_elem(self) -> Self;
    /// Component-wise: `+1` where the component is `>= 0`, else `-1` (never 0).
    fn sign_elem(self) -> Self;
    /// The largest component.
    fn max_component(self) -> Self::Real;
    /// `true` when every component is finite.
    fn is_finite_vec(self) -> bool;
    /// Copies the components into a `[f64; 3]` (the third is 0 in 2D).
    fn to_f64_array(self) -> [f64; 3];
    /// Builds a vector from the first `DIM` values of an `f64` array (rounding for `f32`).
    fn from_f64_array(a: [f64; 3]) -> Self;
    /// The components as the first `DIM` of four lanes, the others 0.
    #[doc(hidden)]
    fn to_lanes(self) -> <Self::Real as Real>::X4;
    /// The first `DIM` lanes as a vector.
    #[doc(hidden)]
    fn from_lanes(lanes: <Self::Real as Real>::X4) -> Self;
    /// A unit vector orthogonal to `self` (which must be non-zero): the perpendicular in 2D,
    /// any orthogonal vector in 3D.
    fn any_orthogonal(self) -> Self;

    /// `rotation` turned further by `w · t` about the world axes: the rotation at time `t`
    /// of a body that starts at `rotation` and spins at the constant angular velocity `w`
    /// (`exp(t w) · rotation`).
    fn turned(rotation: Self::Rotation, w: Self::AngularVelocity, t: Self::Real) -> Self::Rotation;
    /// The rate `|w|` of an angular velocity, in radians per unit time.
    fn angular_speed(w: Self::AngularVelocity) -> Self::Real;

    /// The cross product in 3D; zero in 2D (where the separating-axis tests need no
    /// edge-edge axes).
    #[doc(hidden)]
    fn cross_or_zero(self, other: Self) -> Self;

    /// Squared length.
    #[inline(always)]
    fn length_squared(self) -> Self::Real {
        self.dot(self)
    }
    /// Length (`sqrt` of the dot product: overflows beyond about 1e19 in `f32`, 1e154 in
    /// `f64`; see [`Vector::length_safe`]).
    #[inline(always)]
    fn length(self) -> Self::Real {
        self.dot(self).sqrt()
    }
    /// Length, accurate and finite for every finite vector whose length is finite: when
    /// the squared length would overflow or lose digits below the normal range, the vector
    /// is first scaled by a power of two (exactly), as `hypot` does. For closed forms whose
    /// inputs are positions (balls 1e20 apart in `f32` were infinitely far apart, and unit
    /// normals of centres 1e-22 apart 1% too long).
    #[inline(always)]
    fn length_safe(self) -> Self::Real {
        let l2 = self.dot(self);
        // Normal and finite with room to spare: the plain formula is exact to rounding.
        let low = Self::Real::MIN_POSITIVE * Self::Real::from_usize(4);
        if l2 >= low && l2 < Self::Real::INFINITY {
            l2.sqrt()
        } else {
            scaled_length(self)
        }
    }
}

/// [`Vector::length_safe`] by way of a power-of-two rescaling (out of line: rarely taken).
#[cold]
#[inline(never)]
fn scaled_length<V: Vector>(v: V) -> V::Real {
    let m = v.abs_elem().max_component();
    if !(m > V::Real::ZERO && m.is_finite()) {
        // Zero, or a non-finite component (infinite length, or NaN passed on).
        return if m == V::Real::ZERO { m } else { m + v.dot(v) };
    }
    let p = m.recip_pow2();
    (v * p).dot(v * p).sqrt() / p
}

/// A 2D vector ([`Vec2`], [`DVec2`]).
pub trait Vector2: Vector<Rotation = Rot2<<Self as Vector>::Real>> {
    /// Builds from components.
    fn new2(x: Self::Real, y: Self::Real) -> Self;
    /// The 2D cross product `self.x * other.y - self.y * other.x`.
    fn perp_dot2(self, other: Self) -> Self::Real;
    /// `(-y, x)`: the vector turned a quarter turn counter-clockwise.
    fn perp2(self) -> Self;
}

/// A 3D vector ([`Vec3`], [`DVec3`]).
pub trait Vector3: Vector {
    /// Builds from components.
    fn new3(x: Self::Real, y: Self::Real, z: Self::Real) -> Self;
    /// The cross product.
    fn cross3(self, other: Self) -> Self;
}

macro_rules! impl_vector_common {
    ($v:ident, $r:ident) => {
        #[inline(always)]
        fn dot(self, other: Self) -> $r {
            $v::dot(self, other)
        }
        #[inline(always)]
        fn splat(x: $r) -> Self {
            $v::splat(x)
        }
        #[inline(always)]
        fn axis(i: usize) -> Self {
            let mut v = $v::ZERO;
            v[i] = 1.0;
            v
        }
        #[inline(always)]
        fn mul_elem(self, other: Self) -> Self {
            self * other
        }
        #[inline(always)]
        fn min_elem(self, other: Self) -> Self {
            $v::min(self, other)
        }
        #[inline(always)]
        fn max_elem(self, other: Self) -> Self {
            $v::max(self, other)
        }
        #[inline(always)]
        fn abs_elem(self) -> Self {
            $v::abs(self)
        }
        #[inline(always)]
        fn sign_elem(self) -> Self {
            // glam's signum maps +0 to +1 and -0 to -1; either is a valid support choice.
            $v::signum(self)
        }
        #[inline(always)]
        fn max_component(self) -> $r {
            $v::max_element(self)
        }
        #[inline(always)]
        fn is_finite_vec(self) -> bool {
            $v::is_finite(self)
        }
    };
}

macro_rules! impl_vector2 {
    ($v:ident, $r:ident, $lanes:ident) => {
        impl Vector for $v {
            type Real = $r;
            type Rotation = Rot2<$r>;
            type PosePad = ();
            const POSE_PAD: () = ();
            type AngularVelocity = $r;
            const DIM: usize = 2;
            const ZERO: Self = $v::ZERO;
            impl_vector_common!($v, $r);
            #[inline]
            fn turned(rotation: Rot2<$r>, w: $r, t: $r) -> Rot2<$r> {
                Rot2::from_angle(w * t).compose(rotation)
            }
            #[inline]
            fn angular_speed(w: $r) -> $r {
                w.abs()
            }
            #[inline]
            fn to_f64_array(self) -> [f64; 3] {
                [self.x as f64, self.y as f64, 0.0]
            }
            #[inline]
            fn from_f64_array(a: [f64; 3]) -> Self {
                $v::new(a[0] as $r, a[1] as $r)
            }
            #[inline(always)]
            fn to_lanes(self) -> $lanes {
                $lanes::new(self.x, self.y, 0.0, 0.0)
            }
            #[inline(always)]
            fn from_lanes(lanes: $lanes) -> Self {
                lanes.truncate().truncate()
            }
            #[inline]
            fn any_orthogonal(self) -> Self {
                self.perp().normalize_or(Self::X)
            }
            #[inline(always)]
            fn cross_or_zero(self, _other: Self) -> Self {
                Self::ZERO
            }
        }
        impl Vector2 for $v {
            #[inline(always)]
            fn new2(x: $r, y: $r) -> Self {
                $v::new(x, y)
            }
            #[inline(always)]
            fn perp_dot2(self, other: Self) -> $r {
                self.perp_dot(other)
            }
            #[inline(always)]
            fn perp2(self) -> Self {
                self.perp()
            }
        }
    };
}

macro_rules! impl_vector3 {
    ($v:ident, $r:ident, $lanes:ident, $q:ident, $pad:ty, $pad_value:expr) => {
        impl Vector for $v {
            type Real = $r;
            type Rotation = $q;
            type PosePad = $pad;
            const POSE_PAD: $pad = $pad_value;
            type AngularVelocity = $v;
            const DIM: usize = 3;
            const ZERO: Self = $v::ZERO;
            impl_vector_common!($v, $r);
            #[inline]
            fn turned(rotation: $q, w: $v, t: $r) -> $q {
                // from_scaled_axis is exact for the zero vector (the identity).
                ($q::from_scaled_axis(w * t) * rotation).normalize()
            }
            #[inline]
            fn angular_speed(w: $v) -> $r {
                w.length()
            }
            #[inline]
            fn to_f64_array(self) -> [f64; 3] {
                [self.x as f64, self.y as f64, self.z as f64]
            }
            #[inline]
            fn from_f64_array(a: [f64; 3]) -> Self {
                $v::new(a[0] as $r, a[1] as $r, a[2] as $r)
            }
            #[inline(always)]
            fn to_lanes(self) -> $lanes {
                self.extend(0.0)
            }
            #[inline(always)]
            fn from_lanes(lanes: $lanes) -> Self {
                lanes.truncate()
            }
            #[inline]
            fn any_orthogonal(self) -> Self {
                self.normalize_or($v::X).any_orthonormal_vector()
            }
            #[inline(always)]
            fn cross_or_zero(self, other: Self) -> Self {
                self.cross(other)
            }
        }
        impl Vector3 for $v {
            #[inline(always)]
            fn new3(x: $r, y: $r, z: $r) -> Self {
                $v::new(x, y, z)
            }
            #[inline(always)]
            fn cross3(self, other: Self) -> Self {
                self.cross(other)
            }
        }
    };
}

impl_vector2!(Vec2, f32, Vec4);
impl_vector2!(DVec2, f64, DVec4);
// `Vec3` (12 bytes) next to a 16-byte aligned `Quat` leaves 4 bytes of padding, which
// LLVM may load along with the vector into an SSE register (glam widens `Vec3` to `Vec3A`
// for the rotation and the fourth lane is unused, so it is allowed to). Garbage there, a
// denormal say, costs a microcode assist on every instruction: a ball-ball test ran 10x
// slower depending only on those bytes. The filler keeps them a defined 0.0.
impl_vector3!(Vec3, f32, Vec4, Quat, f32, 0.0);
impl_vector3!(DVec3, f64, DVec4, DQuat, (), ());
