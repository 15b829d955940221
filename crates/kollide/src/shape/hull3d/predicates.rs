//! Robust geometric predicates for the 3D hull: plane evaluation with a certified rounding
//! bound, and an exact orientation test (Shewchuk, "Adaptive Precision Floating-Point
//! Arithmetic and Fast Robust Geometric Predicates", 1997) for when the bound cannot decide.

use core::array::from_fn;

pub(super) type P = [f64; 3];

/// Rounding bound of [`Plane::eval`]: `ERR1 Σ |n_i q_i| + ERR2 Σ m_i |q_i|`. The normal is
/// computed to within `ε/2 |n| + ~20 ε² m` (exact differences and products, first-order
/// terms rounded once), `q` and the dot product add about `2 ε Σ |n_i q_i|`; both constants
/// have a margin of about 2. The second-order term only matters for slivers, whose normal is
/// tiny next to its products (`m`): with the plain `(b - a) × (c - a)` their bound would be
/// `ε m |q|`, useless for a needle.
const ERR1: f64 = 4.0 * f64::EPSILON;
const ERR2: f64 = 64.0 * f64::EPSILON * f64::EPSILON;

#[inline(always)]
pub(super) fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
#[inline(always)]
pub(super) fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
#[inline(always)]
pub(super) fn cross(a: P, b: P) -> P {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// The plane of triangle `a b c`, set up for the filtered orientation test. The fields the
/// hot loop reads come first. `b` and `c` are not kept (the exact fallbacks take them from
/// the caller): a million-point hull holds hundreds of thousands of planes at once.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(super) struct Plane {
    /// `(b - a) × (c - a)`, to nearly full precision: outward when `a b c` is
    /// counter-clockwise seen from outside.
    pub(super) n: P,
    a: P,
    /// `|n|`.
    pub(super) len: f64,
    /// The rounding bound for any point of the (scaled) cloud, where `|q_i| <= 2`.
    coarse: f64,
    /// Per component, the weight of `|q_i|` in the rounding bound.
    w: P,
}

impl Plane {
    pub(super) fn new(a: P, b: P, c: P) -> Self {
        let diff = |x: P| -> [[f64; 2]; 3] { from_fn(|k| two_sum(x[k], -a[k]).into()) };
        let (e, f) = (diff(b), diff(c));
        let (mut n, mut w) = ([0.0; 3], [0.0; 3]);
        for k in 0..3 {
            let (i, j) = ((k + 1) % 3, (k + 2) % 3);
            let ((p1, r1), (p2, r2)) = (two_prod(e[i][0], f[j][0]), two_prod(e[j][0], f[i][0]));
            let (s, rs) = two_sum(p1, -p2);
            let lo = e[i][0] * f[j][1] + e[i][1] * f[j][0] - e[j][0] * f[i][1] - e[j][1] * f[i][0];
            n[k] = s + (rs + (r1 - r2) + lo);
            w[k] = ERR1 * n[k].abs() + ERR2 * (p1.abs() + p2.abs());
        }
        let coarse = 2.0 * (w[0] + w[1] + w[2]);
        Self { n, a, len: dot(n, n).sqrt(), coarse, w }
    }

    /// The orientation determinant `((b-a) × (c-a)) · (p-a)` in floating point, and a bound on
    /// its distance to the exact value.
    #[inline(always)]
    pub(super) fn eval(&self, p: P) -> (f64, f64) {
        let q = sub(p, self.a);
        let bound = self.w[0] * q[0].abs() + self.w[1] * q[1].abs() + self.w[2] * q[2].abs();
        (dot(self.n, q), bound)
    }

    /// The determinant to about 16 digits, exact in sign; `bc` are the triangle's other two
    /// corners.
    pub(super) fn exact(&self, bc: &[P; 2], p: P) -> f64 {
        orient_exact(self.a, bc[0], bc[1], p)
    }

    /// The exact sign of the determinant: `p` is strictly above the plane.
    pub(super) fn sees(&self, bc: &[P; 2], p: P) -> bool {
        let (det, bound) = self.eval(p);
        if det.abs() > bound {
            det > 0.0
        } else {
            self.exact(bc, p) > 0.0
        }
    }

    /// Where `p` is: certainly more than `tol` above the plane (with the distance), certainly
    /// not above it, or in between.
    #[inline(always)]
    pub(super) fn classify(&self, p: P, tol: f64) -> Side {
        let det = dot(self.n, sub(p, self.a));
        let lim = tol * self.len;
        // The coarse bound first: most points are far from the plane.
        if det + self.coarse <= 0.0 {
            return Side::Below;
        }
        if det - self.coarse > lim {
            return Side::Above(det / self.len);
        }
        let (det, bound) = self.eval(p);
        if det - bound > lim {
            Side::Above(det / self.len)
        } else if det + bound <= 0.0 {
            Side::Below
        } else {
            Side::Near
        }
    }

    /// The distance from `p` to the triangle (not its plane), in floating point.
    pub(super) fn triangle_distance(&self, bc: &[P; 2], p: P) -> f64 {
        let abc = [self.a, bc[0], bc[1]];
        let (mut inside, mut edge) = (true, f64::INFINITY);
        for k in 0..3 {
            let (u, e) = (abc[k], sub(abc[(k + 1) % 3], abc[k]));
            let q = sub(p, u);
            // `n × e` points into the triangle across edge `k`.
            inside &= dot(cross(self.n, e), q) >= 0.0;
            let t = if dot(e, e) > 0.0 { (dot(q, e) / dot(e, e)).clamp(0.0, 1.0) } else { 0.0 };
            let r = sub(q, e.map(|x| x * t));
            edge = edge.min(dot(r, r).sqrt());
        }
        if inside && self.len > 0.0 {
            (dot(self.n, sub(p, self.a)) / self.len).abs()
        } else {
            edge
        }
    }

    /// `true` when `p` is at most `tol` above the plane (exactly, up to the rounding of `len`).
    pub(super) fn at_most(&self, bc: &[P; 2], p: P, tol: f64) -> bool {
        let (det, bound) = self.eval(p);
        let lim = tol * self.len;
        if det + bound <= lim {
            true
        } else if det - bound > lim {
            false
        } else {
            self.exact(bc, p) <= lim
        }
    }

    /// `true` when `p` is within `tol` of the plane.
    pub(super) fn near(&self, bc: &[P; 2], p: P, tol: f64) -> bool {
        let (det, bound) = self.eval(p);
        let lim = tol * self.len;
        if det.abs() + bound <= lim {
            true
        } else if det.abs() - bound > lim {
            false
        } else {
            self.exact(bc, p).abs() <= lim
        }
    }
}

/// Rounding bound of the plain orientation determinant, relative to its permanent
/// (Shewchuk's `o3derrboundA` is `(7 + 56 ε) ε` with `ε` half of `f64::EPSILON`).
const ORIENT_ERR: f64 = 4.0 * f64::EPSILON;

/// Absolute slack added to the filters' bounds. The relative bounds hold only while no
/// product underflows: the points are scaled below 1, so a cloud spanning 1e15 with
/// coordinates of 1e-300 (the fuzz corpus has them) has subnormal coordinates and products
/// whose rounding is absolute (up to `2^-1075` each), not relative. The smallest normal is far
/// above the sum of those errors and far below any determinant of a real face.
const UNDERFLOW: f64 = f64::MIN_POSITIVE;

/// The plain orientation determinant `((b-a) × (c-a)) · (p-a)`, its rounding bound, and
/// `(|n|, bound on |n|'s error)` for the plain normal `n = (b-a) × (c-a)`: a filter that
/// costs a tenth of [`Plane::new`], for faces tested once.
#[inline(always)]
fn orient_filter(a: P, b: P, c: P, p: P) -> (f64, f64, P, f64) {
    let (e, f, q) = (sub(b, a), sub(c, a), sub(p, a));
    let n = cross(e, f);
    let perm: P = from_fn(|k| {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        (e[i] * f[j]).abs() + (e[j] * f[i]).abs()
    });
    let det = dot(n, q);
    let bound = ORIENT_ERR * (perm[0] * q[0].abs() + perm[1] * q[1].abs() + perm[2] * q[2].abs()) + UNDERFLOW;
    (det, bound, n, perm[0] + perm[1] + perm[2])
}

/// A float with the exact sign of the orientation determinant `((b-a) × (c-a)) · (p-a)`
/// (positive: `p` above the counter-clockwise triangle `a b c`), the same sign as
/// [`Plane::sees`] decides, without building the plane.
pub(super) fn orient(a: P, b: P, c: P, p: P) -> f64 {
    let (det, bound, ..) = orient_filter(a, b, c, p);
    if det.abs() > bound {
        det
    } else {
        orient_exact(a, b, c, p)
    }
}

/// `true` only when `p` is certainly farther than `tol` from the plane of `a b c` as
/// [`Plane::near`] measures it (a cheap filter; `false` means "ask `Plane::near`").
pub(super) fn certainly_off_plane(a: P, b: P, c: P, p: P, tol: f64) -> bool {
    let (det, bound, n, perm) = orient_filter(a, b, c, p);
    // `Plane::len` is `|n|` for the nearly exact normal: within the plain normal's rounding
    // (a few ulps of each product) of `|n|` here; the factor covers the remaining roundings.
    let len_hi = dot(n, n).sqrt() + 8.0 * f64::EPSILON * perm + UNDERFLOW;
    det.abs() - bound > tol * len_hi * (1.0 + 1e-12)
}

/// Where a point is relative to a face, see [`Plane::classify`].
pub(super) enum Side {
    Above(f64),
    Below,
    Near,
}

/// `a + b` as the rounded sum and its exact error (Knuth's two-sum).
#[inline(always)]
pub(super) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `a * b` as the rounded product and its exact error (Dekker's split; the points are scaled
/// so nothing here overflows).
#[inline(always)]
pub(super) fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let split = |x: f64| {
        let c = 134_217_729.0 * x; // 2^27 + 1
        let hi = c - (c - x);
        (hi, x - hi)
    };
    let p = a * b;
    let ((ah, al), (bh, bl)) = (split(a), split(b));
    (p, al * bl - (((p - ah * bh) - al * bh) - ah * bl))
}

/// The exact orientation determinant's sign, as a float of that sign (0 when exactly
/// coplanar), about as large as the determinant: every difference and product is kept exactly
/// as a sum of floats and the terms are added into a non-overlapping expansion (Shewchuk's
/// grow-expansion), whose largest component carries the sign.
pub(super) fn orient_exact(a: P, b: P, c: P, p: P) -> f64 {
    let diff = |x: P| -> [[f64; 2]; 3] { from_fn(|k| two_sum(x[k], -a[k]).into()) };
    let (e, f, q) = (diff(b), diff(c), diff(p));
    // 6 permutations x 8 (hi/lo) choices x 4 terms per exact triple product = 192 terms.
    let (mut sum, mut len) = ([0.0f64; 200], 0);
    let mut grow = |mut g: f64| {
        let mut out = 0;
        for h in 0..len {
            let (s, err) = two_sum(g, sum[h]);
            (g, sum[out]) = (s, err);
            out += (err != 0.0) as usize;
        }
        sum[out] = g;
        len = out + (g != 0.0) as usize;
    };
    const PERMS: [(usize, usize, usize, f64); 6] =
        [(0, 1, 2, 1.0), (1, 2, 0, 1.0), (2, 0, 1, 1.0), (0, 2, 1, -1.0), (1, 0, 2, -1.0), (2, 1, 0, -1.0)];
    for (i, j, k, sign) in PERMS {
        for (x, y, z) in
            e[i].into_iter().flat_map(|x| f[j].into_iter().flat_map(move |y| q[k].map(|z| (x, y, z))))
        {
            let (p1, p0) = two_prod(sign * x, y);
            for t in [p1, p0] {
                let (r1, r0) = two_prod(t, z);
                grow(r0);
                grow(r1);
            }
        }
    }
    if len == 0 {
        0.0
    } else {
        sum[len - 1]
    }
}

/// A deterministic stream of uniform numbers in `[-1, 1)` (xorshift64), for the hull
/// tests' random points.
#[cfg(test)]
pub(crate) fn unit_sampler(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact sign for integer points, by `i128` arithmetic.
    pub(super) fn orient_i128(p: [[i64; 3]; 4]) -> i128 {
        let d = |x: [i64; 3]| -> [i128; 3] { from_fn(|k| (x[k] - p[0][k]) as i128) };
        let (e, f, q) = (d(p[1]), d(p[2]), d(p[3]));
        (e[1] * f[2] - e[2] * f[1]) * q[0]
            + (e[2] * f[0] - e[0] * f[2]) * q[1]
            + (e[0] * f[1] - e[1] * f[0]) * q[2]
    }

    #[test]
    pub(super) fn exact_orientation_matches_integer_arithmetic() {
        // Nearly coplanar points with 40-bit integer coordinates: the products need ~120
        // bits, so plain f64 often gets the sign wrong; the exact predicate never may.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as i64
        };
        let (mut naive_wrong, mut zeros) = (0, 0);
        for _ in 0..20_000 {
            // b - a and c - a nearly parallel (so the normal is short next to the rounding of
            // the products), d in their plane up to a nudge of at most 1 per axis.
            let a: [i64; 3] = from_fn(|_| next());
            let u: [i64; 3] = from_fn(|_| (next() >> 2) - (1 << 37));
            let v: [i64; 3] = from_fn(|k| 2 * u[k] + (next() >> 30) - 512);
            let (s, t) = (next() % 5 - 2, next() % 3 - 1);
            let d: [i64; 3] = from_fn(|k| a[k] + s * u[k] + t * v[k] + next() % 3 - 1);
            let pts = [a, from_fn(|k| a[k] + u[k]), from_fn(|k| a[k] + v[k]), d];
            let truth = orient_i128(pts).signum() as f64;
            let f = pts.map(|p| p.map(|x| x as f64));
            let exact = orient_exact(f[0], f[1], f[2], f[3]);
            assert_eq!(exact.signum() * (exact != 0.0) as i32 as f64, truth, "{pts:?}");
            let (naive, bound) = Plane::new(f[0], f[1], f[2]).eval(f[3]);
            if naive.abs() > bound {
                assert_eq!(naive.signum(), truth, "the filter's bound is too small: {pts:?}");
            }
            let cheap = orient(f[0], f[1], f[2], f[3]);
            assert_eq!(cheap.signum() * (cheap != 0.0) as i32 as f64, truth, "orient: {pts:?}");
            naive_wrong += (naive.signum() * (naive != 0.0) as i32 as f64 != truth) as u32;
            zeros += (truth == 0.0) as u32;
        }
        // The sample must exercise the hard cases: exact zeros and rounding-fooled signs.
        assert!(zeros > 500 && naive_wrong > 100, "zeros {zeros}, naive wrong {naive_wrong}");
    }

    #[test]
    pub(super) fn filter_bound_holds_for_slivers() {
        // Thin triangles and nearly coplanar points with coordinates of mixed magnitudes (so
        // the differences round): the filtered value is within its bound of the exact one.
        let mut unit = unit_sampler(0x9e37_79b9_7f4a_7c15_u64);
        let mut uncertain = 0;
        for i in 0..20_000 {
            let thin = 10f64.powi(-(i % 14));
            let a: P = from_fn(|_| unit());
            let dir: P = from_fn(|_| unit());
            let b: P = from_fn(|k| a[k] + dir[k] + thin * unit());
            let c: P = from_fn(|k| a[k] + 0.5 * dir[k] + thin * unit());
            let (s, t) = (unit(), unit());
            let p: P = from_fn(|k| a[k] + s * (b[k] - a[k]) + t * (c[k] - a[k]) + thin * 1e-16 * unit());
            let plane = Plane::new(a, b, c);
            let ((det, bound), exact) = (plane.eval(p), orient_exact(a, b, c, p));
            assert!(
                (det - exact).abs() <= bound + 4.0 * f64::EPSILON * exact.abs(),
                "{a:?} {b:?} {c:?} {p:?}"
            );
            uncertain += (det.abs() <= bound) as u32;
        }
        assert!(uncertain > 100, "the exact fallback was needed {uncertain} times");
    }

    #[test]
    pub(super) fn cheap_off_plane_filter_agrees_with_near() {
        // Slivers and fat triangles, points at distances around the tolerance: the filter may
        // say "certainly off" only where `Plane::near` says "not near", and must say it for
        // points well away (or it filters nothing).
        let mut unit = unit_sampler(0x2545_f491_4f6c_dd1d_u64);
        let (mut off, mut far) = (0, 0);
        for i in 0..20_000 {
            let thin = 10f64.powi(-(i % 12));
            let a: P = from_fn(|_| 0.5 * unit());
            let dir: P = from_fn(|_| 0.3 * unit());
            let b: P = from_fn(|k| a[k] + dir[k] + thin * 0.1 * unit());
            let c: P = from_fn(|k| a[k] + 0.5 * dir[k] + thin * 0.1 * unit());
            let plane = Plane::new(a, b, c);
            let tol = 10f64.powi(-(i % 17)) * 1e-3;
            let unit_n = plane.n.map(|x| x / plane.len);
            // A point at a chosen distance from the plane, near the triangle.
            let dist = tol * (1.0 + 0.5 * unit()) * if i % 3 == 0 { 10.0 } else { 1.0 };
            let p: P = from_fn(|k| a[k] + 0.3 * (b[k] - a[k]) + 0.3 * (c[k] - a[k]) + dist * unit_n[k]);
            let near = plane.near(&[b, c], p, tol);
            let cheap = certainly_off_plane(a, b, c, p, tol);
            assert!(!(cheap && near), "{a:?} {b:?} {c:?} {p:?} {tol}");
            // Well off the plane, relative to the rounding (which grows as the triangle thins).
            if i % 3 == 0 && tol * thin >= 1e-12 {
                off += cheap as u32;
                far += 1;
            }
        }
        assert!(off == far && far > 1000, "the filter decided {off} of {far} points off the plane");
    }
}
