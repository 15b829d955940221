//! The scalar trait the algorithms are written over (`f32` and `f64`).

use core::fmt::{Debug, Display};
use core::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// A floating-point scalar: `f32` or `f64`.
///
/// Sealed: kollide's tolerances are tuned per type, so only these two implement it.
pub trait Real:
    sealed::Sealed
    + Copy
    + Debug
    + Display
    + Default
    + PartialOrd
    + PartialEq
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// 2.
    const TWO: Self;
    /// 0.5.
    const HALF: Self;
    /// Machine epsilon (the gap between 1 and the next number).
    const EPSILON: Self;
    /// The largest finite value.
    const MAX: Self;
    /// The smallest positive normal value.
    const MIN_POSITIVE: Self;
    /// Positive infinity.
    const INFINITY: Self;
    /// Default relative tolerance on the GJK duality gap (upper minus lower bound, over the distance).
    const GJK_REL_TOLERANCE: Self;
    /// Four values as the lanes of one register where the type allows it (`glam::Vec4` for
    /// `f32`, `glam::DVec4` for `f64`): lane by lane the scalar operations, bit for bit.
    #[doc(hidden)]
    type X4: Lanes4<Self>;
    /// Whether this is `f32` (kernels that keep `f32` lanes of their own ask this).
    #[doc(hidden)]
    const IS_F32: bool;

    /// Square root.
    fn sqrt(self) -> Self;
    /// Absolute value.
    fn abs(self) -> Self;
    /// The larger of two values (ignores NaN like `f32::max`).
    fn max(self, other: Self) -> Self;
    /// The smaller of two values.
    fn min(self, other: Self) -> Self;
    /// `true` when neither infinite nor NaN.
    fn is_finite(self) -> bool;
    /// Sine and cosine.
    fn sin_cos(self) -> (Self, Self);
    /// Arc tangent of `self / x`, in the right quadrant.
    fn atan2(self, x: Self) -> Self;
    /// Conversion from `f64` (rounding for `f32`).
    fn from_f64(x: f64) -> Self;
    /// Conversion to `f64` (exact).
    fn to_f64(self) -> f64;
    /// Conversion from a small count.
    fn from_usize(n: usize) -> Self;
    /// `self` truncated towards zero as an index, at most `last`: 0 for NaN and negative
    /// values, `last` for large ones (a build's bin of a centroid).
    #[doc(hidden)]
    fn to_bin(self, last: u8) -> u8;
    /// A power of two `p` such that `self * p` lies in `[1, 2)` for a positive normal
    /// `self`, kept within the normal range (so `self * p` may reach `[2, 4)` near the
    /// largest floats, and subnormals get the largest normal power). Multiplying by it, and
    /// dividing by it again, is exact: the rescaling that keeps squares of huge or tiny
    /// numbers finite and accurate. `self` must be positive and finite.
    fn recip_pow2(self) -> Self;
    /// Which of four boxes meet the box `[node_lo, node_hi]` (touching counts): bit `k`
    /// set when box `k`, given by axis and lane as `lo[axis][k]`, `hi[axis][k]`, meets it.
    /// The four tests run as lanes of one compare where the type allows it (`f32`). An
    /// unused axis is given `lo = -inf`, `hi = +inf`; an unused lane an empty box.
    fn meet4(lo: &[[Self; 4]; 3], hi: &[[Self; 4]; 3], node_lo: [Self; 3], node_hi: [Self; 3]) -> u8;
    /// The slab test of four boxes at once, each grown by `grow` on every side, against the
    /// ray `origin + t d` for `t` in `[0, limit]` (`inv` is `1 / d` per axis, as
    /// [`inverse_direction`](crate::math::inverse_direction) gives it): bit `k` set when box
    /// `k` (`lo[axis][k]`, `hi[axis][k]`) is met, and the times the ray enters each. Lane by
    /// lane the same operations, in the same order, as
    /// [`Aabb::ray_interval`](crate::math::Aabb::ray_interval) of the grown box, so the
    /// answers are bit for bit the same (its widened exits and its closed slabs along the
    /// axes marked `parallel`, a zero direction component; `None` when there is none). An
    /// unused axis is given `lo = -inf`, `hi = +inf`, origin 0, `inv` 1, not parallel,
    /// `grow` 0 (or `None`: no growth, as for a ray).
    fn slab4(
        lo: &[[Self; 4]; 3],
        hi: &[[Self; 4]; 3],
        origin: [Self; 3],
        inv: [Self; 3],
        parallel: Option<[bool; 3]>,
        grow: Option<[Self; 3]>,
        limit: Self,
    ) -> (u8, [Self; 4]);
}

/// Four lanes of a [`Real`]: each operation is the scalar one on every lane (IEEE, no fused
/// multiply-add), so a kernel written over lanes answers as four scalar runs would.
#[doc(hidden)]
pub trait Lanes4<R>:
    Copy
    + Debug
    + Send
    + Sync
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + 'static
{
    /// A lane mask.
    type Mask: Copy
        + core::ops::BitAnd<Output = Self::Mask>
        + core::ops::BitOr<Output = Self::Mask>
        + core::ops::Not<Output = Self::Mask>;
    /// Every lane `x`.
    fn splat(x: R) -> Self;
    /// The lanes of `a`.
    fn from_array(a: [R; 4]) -> Self;
    /// `self <= other` by lane (false with NaN).
    fn le(self, other: Self) -> Self::Mask;
    /// `self < other` by lane (false with NaN).
    fn lt(self, other: Self) -> Self::Mask;
    /// `self == other` by lane (false with NaN).
    fn eq(self, other: Self) -> Self::Mask;
    /// `if_true` where `mask` is set, else `if_false`.
    fn select(mask: Self::Mask, if_true: Self, if_false: Self) -> Self;
    /// Bit `k` for lane `k` of the mask.
    fn bits(mask: Self::Mask) -> u8;
    /// The lanes as an array.
    fn to_array(self) -> [R; 4];
    /// Square root by lane.
    fn sqrt(self) -> Self;
    /// Absolute value by lane.
    fn abs(self) -> Self;
    /// The larger by lane (of numbers; with a NaN either may come back).
    fn max(self, other: Self) -> Self;
    /// The smaller by lane (of numbers; with a NaN either may come back).
    fn min(self, other: Self) -> Self;
}

macro_rules! impl_lanes {
    ($t:ident, $lanes:ident, $mask:ident) => {
        impl Lanes4<$t> for glam::$lanes {
            type Mask = glam::$mask;
            #[inline(always)]
            fn splat(x: $t) -> Self {
                glam::$lanes::splat(x)
            }
            #[inline(always)]
            fn from_array(a: [$t; 4]) -> Self {
                glam::$lanes::from_array(a)
            }
            #[inline(always)]
            fn le(self, other: Self) -> Self::Mask {
                self.cmple(other)
            }
            #[inline(always)]
            fn lt(self, other: Self) -> Self::Mask {
                self.cmplt(other)
            }
            #[inline(always)]
            fn eq(self, other: Self) -> Self::Mask {
                self.cmpeq(other)
            }
            #[inline(always)]
            fn select(mask: Self::Mask, if_true: Self, if_false: Self) -> Self {
                glam::$lanes::select(mask, if_true, if_false)
            }
            #[inline(always)]
            fn bits(mask: Self::Mask) -> u8 {
                mask.bitmask() as u8
            }
            #[inline(always)]
            fn to_array(self) -> [$t; 4] {
                glam::$lanes::to_array(&self)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                glam::$lanes::sqrt(self)
            }
            #[inline(always)]
            fn abs(self) -> Self {
                glam::$lanes::abs(self)
            }
            #[inline(always)]
            fn max(self, other: Self) -> Self {
                glam::$lanes::max(self, other)
            }
            #[inline(always)]
            fn min(self, other: Self) -> Self {
                glam::$lanes::min(self, other)
            }
        }
    };
}

impl_lanes!(f32, Vec4, BVec4A);
impl_lanes!(f64, DVec4, BVec4);

macro_rules! impl_real {
    ($t:ident, $bits:ident, $mantissa:expr, $rel:expr, $lanes:ident, $is_f32:expr) => {
        impl Real for $t {
            const IS_F32: bool = $is_f32;
            #[inline(always)]
            fn meet4(lo: &[[Self; 4]; 3], hi: &[[Self; 4]; 3], node_lo: [Self; 3], node_hi: [Self; 3]) -> u8 {
                let mut meet = glam::$lanes::splat(0.0).cmple(glam::$lanes::splat(0.0));
                for axis in 0..3 {
                    meet &= glam::$lanes::from_array(lo[axis]).cmple(glam::$lanes::splat(node_hi[axis]))
                        & glam::$lanes::splat(node_lo[axis]).cmple(glam::$lanes::from_array(hi[axis]));
                }
                meet.bitmask() as u8
            }

            #[inline(always)]
            fn slab4(
                lo: &[[Self; 4]; 3],
                hi: &[[Self; 4]; 3],
                origin: [Self; 3],
                inv: [Self; 3],
                parallel: Option<[bool; 3]>,
                grow: Option<[Self; 3]>,
                limit: Self,
            ) -> (u8, [Self; 4]) {
                use glam::$lanes as L;
                let widen = L::splat(crate::math::exit_widening::<Self>());
                let mut t0 = L::ZERO;
                let mut t1 = L::splat(limit);
                for axis in 0..3 {
                    let (o, i) = (L::splat(origin[axis]), L::splat(inv[axis]));
                    let (lo, hi) = (L::from_array(lo[axis]), L::from_array(hi[axis]));
                    let (lo, hi) = match grow {
                        Some(g) => (lo - L::splat(g[axis]), hi + L::splat(g[axis])),
                        None => (lo, hi),
                    };
                    let a = (lo - o) * i;
                    let b = (hi - o) * i;
                    let (near, far) = (a.min(b), a.max(b) * widen);
                    if parallel.is_some_and(|p| p[axis]) {
                        // Along the slab: no bound where the origin lies in it (closed).
                        let inside = lo.cmple(o) & o.cmple(hi);
                        t0 = L::select(inside, t0, t0.max(near));
                        t1 = L::select(inside, t1, t1.min(far));
                    } else {
                        t0 = t0.max(near);
                        t1 = t1.min(far);
                    }
                }
                (t0.cmple(t1).bitmask() as u8, t0.to_array())
            }

            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const TWO: Self = 2.0;
            const HALF: Self = 0.5;
            const EPSILON: Self = $t::EPSILON;
            const MAX: Self = $t::MAX;
            const MIN_POSITIVE: Self = $t::MIN_POSITIVE;
            const INFINITY: Self = $t::INFINITY;
            const GJK_REL_TOLERANCE: Self = $rel;
            type X4 = glam::$lanes;

            #[inline(always)]
            fn sqrt(self) -> Self {
                $t::sqrt(self)
            }
            #[inline(always)]
            fn abs(self) -> Self {
                $t::abs(self)
            }
            #[inline(always)]
            fn max(self, other: Self) -> Self {
                $t::max(self, other)
            }
            #[inline(always)]
            fn min(self, other: Self) -> Self {
                $t::min(self, other)
            }
            #[inline(always)]
            fn is_finite(self) -> bool {
                $t::is_finite(self)
            }
            #[inline(always)]
            fn sin_cos(self) -> (Self, Self) {
                $t::sin_cos(self)
            }
            #[inline(always)]
            fn atan2(self, x: Self) -> Self {
                $t::atan2(self, x)
            }
            #[inline(always)]
            fn from_f64(x: f64) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn from_usize(n: usize) -> Self {
                n as $t
            }
            #[inline(always)]
            fn to_bin(self, last: u8) -> u8 {
                // `as u8` saturates: NaN and negatives to 0, large values to 255.
                (self as u8).min(last)
            }
            #[inline]
            fn recip_pow2(self) -> Self {
                // The biased exponent e stands for 2^(e - bias); its reciprocal power has
                // the biased exponent 2 bias - e, kept in [1, 2 bias] (normal numbers).
                let bias: $bits = ($t::MAX_EXP - 1) as $bits;
                let e = (self.to_bits() >> $mantissa) & (2 * bias + 1);
                let k = if e == 0 { 2 * bias - 1 } else { (2 * bias).saturating_sub(e).max(1) };
                $t::from_bits(k << $mantissa)
            }
        }
    };
}

// f32: a gap of 1e-5 relative is about 80 ulps, reachable without stalling on rounding noise.
impl_real!(f32, u32, 23, 1.0e-5, Vec4, true);
// f64: 1e-9 relative. On smooth shapes the support points cluster as GJK converges, the
// last simplex gets thin, and its normal (hence the lower bound) is only good to about
// eps·|w|/edge: measured, the gap stops shrinking between 1e-12 and 1e-10 relative, so a
// 1e-10 default ended as `Stalled` or `Converged` by rounding luck. The distance itself is
// usually far more accurate than the gap.
impl_real!(f64, u64, 52, 1.0e-9, DVec4, false);

/// `x >= y`, false when either is NaN: written as a call so that `!at_least(t, 0)` (NaN or
/// negative) reads as the NaN-aware test it is.
#[inline(always)]
pub(crate) fn at_least<R: Real>(x: R, y: R) -> bool {
    x >= y
}

/// `x > y`, false when either is NaN.
#[inline(always)]
pub(crate) fn above<R: Real>(x: R, y: R) -> bool {
    x > y
}

#[cfg(test)]
mod tests {
    use super::Real;

    /// `meet4` answers as four scalar box tests would, touching and empty lanes included.
    #[test]
    fn meet4_is_four_box_tests() {
        fn check<R: Real>() {
            let v = |x: f64| R::from_f64(x);
            // Coordinates on a coarse lattice, so that touching boxes are common.
            let mut seed = 0x2545_f491_4f6c_dd1du64;
            let mut next = move || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed % 7) as f64
            };
            for _ in 0..2000 {
                let (mut lo, mut hi) = ([[R::INFINITY; 4]; 3], [[-R::INFINITY; 4]; 3]);
                let lanes = 1 + (next() as usize) % 4;
                for k in 0..lanes {
                    for axis in 0..3 {
                        let (a, b) = (next(), next());
                        (lo[axis][k], hi[axis][k]) = (v(a.min(b)), v(a.max(b)));
                    }
                }
                let (mut nlo, mut nhi) = ([R::ZERO; 3], [R::ZERO; 3]);
                for axis in 0..3 {
                    let (a, b) = (next(), next());
                    (nlo[axis], nhi[axis]) = (v(a.min(b)), v(a.max(b)));
                }
                let mut want = 0u8;
                for k in 0..4 {
                    let meets = (0..3).all(|axis| lo[axis][k] <= nhi[axis] && nlo[axis] <= hi[axis][k]);
                    want |= u8::from(meets) << k;
                }
                assert_eq!(R::meet4(&lo, &hi, nlo, nhi), want);
            }
        }
        check::<f32>();
        check::<f64>();
    }

    /// `slab4` answers as four `Aabb::ray_interval` calls of the grown boxes, bit for bit:
    /// which boxes are met and when the ray enters them, on a lattice where rays along
    /// faces, through edges and from inside are common, zero direction components included.
    #[test]
    fn slab4_is_four_ray_intervals() {
        use crate::math::{inverse_direction, Aabb, Vector};
        fn check<V: Vector>() {
            let v = |x: f64| V::Real::from_f64(x);
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            let mut next = move || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed % 9) as f64 - 4.0
            };
            for case in 0..3000 {
                let (mut lo, mut hi) = ([[-V::Real::INFINITY; 4]; 3], [[V::Real::INFINITY; 4]; 3]);
                let mut boxes = [Aabb::<V>::empty(); 4];
                for (k, slot) in boxes.iter_mut().enumerate() {
                    let (mut a, mut b) = ([0.0; 3], [0.0; 3]);
                    for axis in 0..V::DIM {
                        let (x, y) = (next(), next());
                        (a[axis], b[axis]) = (x.min(y), x.max(y));
                        (lo[axis][k], hi[axis][k]) = (v(a[axis]), v(b[axis]));
                    }
                    *slot = Aabb::new(V::from_f64_array(a), V::from_f64_array(b));
                }
                let origin = V::from_f64_array([next(), next(), next()]);
                let dir = V::from_f64_array([next() * 0.5, next() * 0.5, next() * 0.5]);
                let grow = (case % 2 == 1).then(|| V::from_f64_array([0.25 * next().abs(), 0.5, 0.75]));
                let inv = inverse_direction(dir);
                let limit = v(1.0 + next().abs());
                let lanes = |x: V, unused: f64| {
                    core::array::from_fn(|axis| if axis < V::DIM { x[axis] } else { v(unused) })
                };
                let g3 = grow.map(|g| lanes(g, 0.0));
                let parallel: [bool; 3] =
                    core::array::from_fn(|axis| axis < V::DIM && crate::math::is_parallel(inv[axis]));
                // (Both forms: the walk passes `None` when no axis is parallel.)
                let parallel = Some(parallel).filter(|p| p.contains(&true) || case % 3 == 0);
                let (mask, enter) =
                    V::Real::slab4(&lo, &hi, lanes(origin, 0.0), lanes(inv, 1.0), parallel, g3, limit);
                for (k, b) in boxes.iter().enumerate() {
                    let g = grow.unwrap_or(V::ZERO);
                    let want = Aabb::new(b.min - g, b.max + g).ray_interval(origin, inv, limit);
                    assert_eq!(mask & (1 << k) != 0, want.is_some(), "case {case}, lane {k}");
                    if let Some((t0, _)) = want {
                        assert!(enter[k] == t0, "case {case}, lane {k}: {:?} against {t0:?}", enter[k]);
                    }
                }
            }
        }
        check::<glam::Vec3>();
        check::<glam::DVec3>();
        check::<glam::Vec2>();
        check::<glam::DVec2>();
    }

    /// `x * recip_pow2(x)` lands in [1, 2) (or [2, 4) at the top of the range), exactly,
    /// across the whole range including subnormals.
    #[test]
    fn recip_pow2_brings_numbers_near_one() {
        fn check<R: Real>(xs: &[R]) {
            for &x in xs {
                let p = x.recip_pow2();
                let y = x * p;
                assert!(p.is_finite() && p > R::ZERO, "{x}: {p}");
                assert!(y >= R::ONE && y < R::from_usize(4), "{x} * {p} = {y}");
                assert_eq!(y / p, x, "{x}: the scaling is not exact");
            }
        }
        check::<f32>(&[1.0, 1.5, 3.0, 0.1, 1e-20, 1e20, f32::MAX, f32::MIN_POSITIVE]);
        check::<f64>(&[1.0, 1.5, 3.0, 0.1, 1e-200, 1e200, f64::MAX, f64::MIN_POSITIVE]);
        // Subnormals get the largest normal power: small, but squarable.
        for x in [1e-40f32, 1e-45] {
            assert!(x * x.recip_pow2() > 1e-10, "{x}");
        }
        for x in [1e-310f64, 5e-324] {
            assert!(x * x.recip_pow2() > 1e-20, "{x}");
        }
    }
}
