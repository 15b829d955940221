//! Small numeric helpers shared by the casts: comparisons that say `false` for NaN (so a
//! negated one, `!ge(x, 0)`, also refuses NaN without tripping clippy's
//! `neg_cmp_op_on_partial_ord`), and a normalization with a fallback.

use crate::math::Real;
use crate::query::Space;

/// `x > y`, false when either is NaN.
#[inline(always)]
pub(crate) fn gt<R: Real>(x: R, y: R) -> bool {
    x > y
}

/// `x >= y`, false when either is NaN.
#[inline(always)]
pub(crate) fn ge<R: Real>(x: R, y: R) -> bool {
    x >= y
}

/// `x <= y`, false when either is NaN.
#[inline(always)]
pub(crate) fn le<R: Real>(x: R, y: R) -> bool {
    x <= y
}

/// `v / |v|`, or `fallback` when `v` is zero or its length not finite.
// Kept this lean, and always inlined: the ray casts compute their normal through it, and a
// further test (that the quotient is finite, or a rescaled length) keeps the compiler from
// dropping the normal's arithmetic when the caller does not use it.
#[inline(always)]
pub(crate) fn unit_or<V: Space>(v: V, fallback: V) -> V {
    let len = v.length();
    if len > V::Real::ZERO && len.is_finite() {
        v / len
    } else {
        fallback
    }
}

/// [`unit_or`] through [`Vector::length_safe`], for the sweeps: their gaps can be so small
/// that the square is subnormal (a ball 3e-7 across in f32 got a contact normal 0.89 long:
/// fuzz target `mover`), which the rays' hot path need not pay for.
#[inline]
pub(crate) fn unit_or_safe<V: Space>(v: V, fallback: V) -> V {
    let len = v.length_safe();
    if len > V::Real::ZERO && len.is_finite() {
        v / len
    } else {
        fallback
    }
}
