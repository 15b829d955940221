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
}

macro_rules! impl_real {
    ($t:ident, $bits:ident, $mantissa:expr, $rel:expr, $lanes:ident) => {
        impl Real for $t {
            #[inline(always)]
            fn meet4(lo: &[[Self; 4]; 3], hi: &[[Self; 4]; 3], node_lo: [Self; 3], node_hi: [Self; 3]) -> u8 {
                let mut meet = glam::$lanes::splat(0.0).cmple(glam::$lanes::splat(0.0));
                for axis in 0..3 {
                    meet &= glam::$lanes::from_array(lo[axis]).cmple(glam::$lanes::splat(node_hi[axis]))
                        & glam::$lanes::splat(node_lo[axis]).cmple(glam::$lanes::from_array(hi[axis]));
                }
                meet.bitmask() as u8
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
impl_real!(f32, u32, 23, 1.0e-5, Vec4);
// f64: 1e-9 relative. On smooth shapes the support points cluster as GJK converges, the
// last simplex gets thin, and its normal (hence the lower bound) is only good to about
// eps·|w|/edge: measured, the gap stops shrinking between 1e-12 and 1e-10 relative, so a
// 1e-10 default ended as `Stalled` or `Converged` by rounding luck. The distance itself is
// usually far more accurate than the gap.
impl_real!(f64, u64, 52, 1.0e-9, DVec4);

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
