//! Exact 2D orientation and segment-crossing predicates, for validating and decomposing
//! simple polygons.
//!
//! The orientation of three points is the sign of a 2x2 determinant. It is first evaluated
//! in plain `f64` with Shewchuk's a-priori error bound (`ccwerrboundA`, J. R. Shewchuk,
//! "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates",
//! 1997); when the bound cannot certify the sign, the determinant is expanded into six
//! products of coordinates, each split exactly into two doubles (`fma`), and summed exactly
//! as a floating-point expansion (Shewchuk's Grow-Expansion), whose sign is that of its
//! largest component.
//!
//! `f32` coordinates convert to `f64` exactly, so one code path serves both. The products
//! are exact as long as they neither overflow nor underflow; when one might (coordinates
//! beyond `2^±480`, or subnormal ones beside ordinary ones), the six products are instead
//! summed as integers: every finite `f64` is an integer times `2^-1074`, so each product is
//! an integer of at most 106 significant bits times a power of two, and their sum fits a
//! fixed two's-complement accumulator of 68 words. Every finite input is decided exactly.

/// Sign of a value: -1, 0 or +1.
pub(crate) type Sign = i8;

/// A point set in `f64` (finite), on which the predicates below are exact.
#[derive(Clone, Debug)]
pub(crate) struct Exact {
    /// The points.
    pub(crate) p: Vec<[f64; 2]>,
}

impl Exact {
    /// Copies `points`, given as `[x, y]` in `f64` (finite).
    pub(crate) fn new(points: impl Iterator<Item = [f64; 2]>) -> Self {
        Self { p: points.collect() }
    }

    /// Orientation of points `a`, `b`, `c`: +1 when they turn counter-clockwise, -1
    /// clockwise, 0 when collinear (exactly).
    pub(crate) fn orient(&self, a: usize, b: usize, c: usize) -> Sign {
        orient(self.p[a], self.p[b], self.p[c])
    }

    /// Whether segments `a`-`b` and `c`-`d` share at least one point (crossing, touching,
    /// or overlapping collinear), exactly.
    pub(crate) fn segments_meet(&self, a: usize, b: usize, c: usize, d: usize) -> bool {
        let (pa, pb, pc, pd) = (self.p[a], self.p[b], self.p[c], self.p[d]);
        // Bounding boxes apart: no common point (exact comparisons).
        for k in 0..2 {
            if pa[k].max(pb[k]) < pc[k].min(pd[k]) || pc[k].max(pd[k]) < pa[k].min(pb[k]) {
                return false;
            }
        }
        let d1 = orient(pc, pd, pa);
        let d2 = orient(pc, pd, pb);
        let d3 = orient(pa, pb, pc);
        let d4 = orient(pa, pb, pd);
        if d1 * d2 < 0 && d3 * d4 < 0 {
            return true;
        }
        // A zero orientation puts an endpoint on the other segment's line; with the boxes
        // overlapping as checked, it is on the segment when inside that segment's box.
        (d1 == 0 && in_box(pc, pd, pa))
            || (d2 == 0 && in_box(pc, pd, pb))
            || (d3 == 0 && in_box(pa, pb, pc))
            || (d4 == 0 && in_box(pa, pb, pd))
    }

    /// For collinear `a`, `b`, `c` (with `b` distinct from both): whether `c` lies on the
    /// same side of `b` as `a` (the path `a -> b -> c` folds back on itself).
    pub(crate) fn folds_back(&self, a: usize, b: usize, c: usize) -> bool {
        let (pa, pb, pc) = (self.p[a], self.p[b], self.p[c]);
        (0..2).any(|k| (pa[k] < pb[k] && pc[k] < pb[k]) || (pa[k] > pb[k] && pc[k] > pb[k]))
    }
}

/// Whether `p` lies in the closed bounding box of `a` and `b`.
fn in_box(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> bool {
    (0..2).all(|k| a[k].min(b[k]) <= p[k] && p[k] <= a[k].max(b[k]))
}

/// The exact sign of `(b - a) x (c - a)`.
pub(crate) fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> Sign {
    let l = (a[0] - c[0]) * (b[1] - c[1]);
    let r = (a[1] - c[1]) * (b[0] - c[0]);
    let det = l - r;
    // Shewchuk's ccwerrboundA = (3 + 16 eps) eps, eps = 2^-53.
    const BOUND: f64 = (3.0 + 16.0 * f64::EPSILON / 2.0) * (f64::EPSILON / 2.0);
    if det.abs() > BOUND * (l.abs() + r.abs()) {
        return sign(det);
    }
    orient_exact(a, b, c)
}

fn sign(x: f64) -> Sign {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// `a * b` as an exact sum `hi + lo` (Dekker's TwoProduct via fused multiply-add).
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let hi = a * b;
    (hi, a.mul_add(b, -hi))
}

/// `a + b` as an exact sum `s + e` (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// The exact sign of `ax by - ax cy - ay bx + ay cx + bx cy - by cx`.
fn orient_exact(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> Sign {
    let factors = pairs(a, b, c);
    let products = factors.map(|(x, y)| two_product(x, y));
    // Below `low` a product's low part may fall under the subnormal grid (and be rounded);
    // above `high` the expansion's sums may overflow.
    let (low, high) = (2f64.powi(-969), 2f64.powi(1020));
    let risky = |&((x, y), (hi, _)): &((f64, f64), (f64, f64))| {
        x != 0.0 && y != 0.0 && !(hi.abs() >= low && hi.abs() <= high)
    };
    if factors.into_iter().zip(products).any(|t| risky(&t)) {
        return orient_integer(a, b, c);
    }
    // Grow-Expansion: adding each term keeps `e` a non-overlapping expansion (increasing
    // magnitude, zeros allowed) whose exact sum is the sum of the terms so far.
    let mut e = [0.0f64; 12];
    let mut len = 0;
    for (hi, lo) in products {
        for term in [lo, hi] {
            let mut q = term;
            for slot in e.iter_mut().take(len) {
                let (s, err) = two_sum(q, *slot);
                *slot = err;
                q = s;
            }
            e[len] = q;
            len += 1;
        }
    }
    // The largest non-zero component decides the sign of a non-overlapping expansion.
    e[..len].iter().rev().find(|x| **x != 0.0).map_or(0, |x| sign(*x))
}

/// The factors of the six products of [`orient_exact`], in its order.
fn pairs(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> [(f64, f64); 6] {
    [(a[0], b[1]), (-a[0], c[1]), (-a[1], b[0]), (a[1], c[0]), (b[0], c[1]), (-b[1], c[0])]
}

/// Words of the integer accumulator: products reach `2^(2·1024)` and go down to
/// `2^(-2·1074)`, a span of 4196 bits, plus 106 bits of product and 3 of carries.
const WORDS: usize = 68;

/// `x` (finite, non-zero) as `(negative, m, e)` with `x = ±m · 2^e`, `e >= -1074`.
fn split(x: f64) -> (bool, u64, i32) {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (m, e) = if biased == 0 { (fraction, -1074) } else { (fraction | (1u64 << 52), biased - 1075) };
    (x < 0.0, m, e)
}

/// The exact sign of the determinant for any finite inputs: the six products as integers
/// over a common power of two, summed in a two's-complement accumulator. (Out of line and
/// rarely taken: only when the expansion's products could over- or underflow, as for
/// subnormal points beside points near 7 in a polygon, found by the fuzz target `shapes`.)
#[cold]
#[inline(never)]
fn orient_integer(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> Sign {
    let mut terms = [(false, 0u128, 0i32); 6];
    let mut count = 0;
    for (x, y) in pairs(a, b, c) {
        if x == 0.0 || y == 0.0 {
            continue;
        }
        let ((nx, mx, ex), (ny, my, ey)) = (split(x), split(y));
        terms[count] = (nx != ny, u128::from(mx) * u128::from(my), ex + ey);
        count += 1;
    }
    let terms = &terms[..count];
    let Some(base) = terms.iter().map(|t| t.2).min() else {
        return 0;
    };
    let mut acc = [0u64; WORDS];
    for &(negative, m, e) in terms {
        // 0 <= shift <= 4190, so the shifted product ends below word 66.
        let shift = (e - base) as usize;
        let (word, bit) = (shift / 64, shift % 64);
        let (p0, p1) = (m as u64, (m >> 64) as u64);
        let limbs = if bit == 0 {
            [p0, p1, 0]
        } else {
            [p0 << bit, (p1 << bit) | (p0 >> (64 - bit)), p1 >> (64 - bit)]
        };
        accumulate(&mut acc, word, limbs, negative);
    }
    if acc.iter().all(|w| *w == 0) {
        0
    } else if acc[WORDS - 1] >> 63 == 1 {
        -1
    } else {
        1
    }
}

/// `acc ± limbs · 2^(64 word)` (minus when `negative`), modulo `2^(64 WORDS)`.
fn accumulate(acc: &mut [u64; WORDS], word: usize, limbs: [u64; 3], negative: bool) {
    let mut carry = false;
    for (i, slot) in acc.iter_mut().enumerate().skip(word) {
        let term = limbs.get(i - word).copied().unwrap_or(0);
        let (s1, c1) = if negative { slot.overflowing_sub(term) } else { slot.overflowing_add(term) };
        let (s2, c2) = if negative {
            s1.overflowing_sub(u64::from(carry))
        } else {
            s1.overflowing_add(u64::from(carry))
        };
        *slot = s2;
        carry = c1 || c2;
        if !carry && i - word >= 2 {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_where_the_plain_determinant_rounds() {
        // Points on the line y = x, shifted by one ulp: the plain formula in f64 gives 0 or
        // the wrong sign for some of these; the exact one sees the ulp.
        let base: f64 = 0.5 + 1e-10;
        let next = f64::from_bits(base.to_bits() + 1);
        assert_eq!(orient([base, base], [12.0, 12.0], [24.0, 24.0]), 0);
        assert_eq!(orient([base, next], [12.0, 12.0], [24.0, 24.0]), 1);
        assert_eq!(orient([next, base], [12.0, 12.0], [24.0, 24.0]), -1);
        // Far from the origin (large common offset, the differences cancel).
        let o = 1e15;
        assert_eq!(orient([o, o], [o + 1.0, o + 1.0], [o + 2.0, o + 2.0]), 0);
        assert_eq!(orient([o, o], [o + 1.0, o + 1.0], [o + 2.0, o + 2.125]), 1);
    }

    #[test]
    fn huge_and_tiny_coordinates() {
        let big = Exact::new([[1e300, 0.0], [0.0, 1e300], [-1e300, -1e300]].into_iter());
        assert_eq!(big.orient(0, 1, 2), 1);
        let tiny = Exact::new([[1e-300, 0.0], [0.0, 1e-300], [-1e-300, -1e-300]].into_iter());
        assert_eq!(tiny.orient(0, 2, 1), -1);
        // At the edge of the range: differences and products overflow in plain f64.
        let m = f64::MAX;
        assert_eq!(orient([-m, -m], [m, -m], [m, m]), 1);
        assert_eq!(orient([-m, -m], [m, m], [0.0, 0.0]), 0);
    }

    /// The product `0.1 · 5e-324` is below the subnormal grid (it rounds to 0), so the
    /// expansion reads this turn as collinear; the truth is `b0 c1 - b1 c0 = -0.1 · 5e-324`,
    /// clockwise. (Subnormal f64 points beside points near 7 made a polygon drop a corner:
    /// fuzz target `shapes`.)
    #[test]
    fn subnormal_products_are_not_lost() {
        let tiny = f64::from_bits(1);
        assert_eq!(orient([0.0, 0.0], [3.0, tiny], [0.1, 0.0]), -1);
        assert_eq!(orient([0.0, 0.0], [0.1, 0.0], [3.0, tiny]), 1);
        // Collinear exactly: y = x · tiny / 7 at x = 7 and x = 14.
        assert_eq!(orient([0.0, 0.0], [7.0, tiny], [14.0, 2.0 * tiny]), 0);
        assert_eq!(orient([0.0, 0.0], [7.0, tiny], [14.0, 3.0 * tiny]), 1);
        // A huge coordinate beside a subnormal one.
        assert_eq!(orient([0.0, 0.0], [1e300, tiny], [-1e300, tiny]), 1);
        assert_eq!(orient([0.0, 0.0], [1e300, -tiny], [-1e300, tiny]), 0);
    }

    /// The integer sum agrees with the expansion wherever the expansion is exact: random
    /// points, a third of them exactly on the line through the other two (dyadic
    /// coordinates, integer steps) and a third one ulp off it.
    #[test]
    fn the_integer_sum_agrees_with_the_expansion() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ((state >> 40) as i64 - (1 << 23)) as f64
        };
        let mut signs = [0usize; 3];
        for i in 0..20_000 {
            let scale = 2f64.powi(i % 61 - 30);
            let a = [next() * scale, next() * scale];
            let b = [next() * scale, next() * scale];
            let t = (next() / 2f64.powi(20)).round();
            let on_line = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
            let c = match i % 3 {
                0 => on_line,
                1 => [on_line[0], f64::from_bits(on_line[1].to_bits() + 1)],
                _ => [next() * scale, next() * scale],
            };
            let expansion = orient_exact(a, b, c);
            assert_eq!(orient_integer(a, b, c), expansion, "{a:?} {b:?} {c:?}");
            signs[(expansion + 1) as usize] += 1;
        }
        // Both signs and exact zeros occurred (the zeros from the points on the line).
        assert!(signs.iter().all(|&n| n > 100), "{signs:?}");
    }
}
