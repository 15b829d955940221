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
//! are exact as long as they neither overflow nor underflow: [`Exact::new`] scales the
//! point set by a power of two (which is exact) when its largest coordinate is beyond
//! `2^±500`, so the predicates are exact for any set whose non-zero coordinates are within
//! a factor of about `2^450` of the largest one (smaller ones may round in the scaling).

/// Sign of a value: -1, 0 or +1.
pub(crate) type Sign = i8;

/// A point set in `f64`, scaled by a power of two so that exact products cannot overflow.
#[derive(Clone, Debug)]
pub(crate) struct Exact {
    /// The points, times `scale`.
    pub(crate) p: Vec<[f64; 2]>,
    /// The power of two the input was multiplied by (usually 1).
    pub(crate) scale: f64,
}

impl Exact {
    /// Copies (and if needed rescales by a power of two) `points`, given as `[x, y]`
    /// in `f64` (finite).
    pub(crate) fn new(points: impl Iterator<Item = [f64; 2]>) -> Self {
        let mut p: Vec<[f64; 2]> = points.collect();
        let max = p.iter().fold(0.0f64, |m, q| m.max(q[0].abs()).max(q[1].abs()));
        let scale = if max > 2f64.powi(500) {
            2f64.powi(-500)
        } else if max > 0.0 && max < 2f64.powi(-500) {
            2f64.powi(500)
        } else {
            1.0
        };
        if scale != 1.0 {
            for q in &mut p {
                *q = [q[0] * scale, q[1] * scale];
            }
        }
        Self { p, scale }
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
    let products = [
        two_product(a[0], b[1]),
        two_product(-a[0], c[1]),
        two_product(-a[1], b[0]),
        two_product(a[1], c[0]),
        two_product(b[0], c[1]),
        two_product(-b[1], c[0]),
    ];
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
    fn huge_and_tiny_coordinates_are_rescaled() {
        let big = Exact::new([[1e300, 0.0], [0.0, 1e300], [-1e300, -1e300]].into_iter());
        assert_eq!(big.orient(0, 1, 2), 1);
        let tiny = Exact::new([[1e-300, 0.0], [0.0, 1e-300], [-1e-300, -1e-300]].into_iter());
        assert_eq!(tiny.orient(0, 2, 1), -1);
    }
}
