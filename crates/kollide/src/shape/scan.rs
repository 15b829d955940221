//! The support scan of a small point set (a hull or polygon of few vertices): the first
//! point of the largest dot product with a direction.

use crate::math::{Real, Vector, Vector3};

/// The index of the point with the largest dot product with `dir` (the first such; the
/// first point when none compares larger, as with a NaN direction): the reference
/// [`scan`] is tested against.
#[cfg(test)]
pub(crate) fn argmax<V: Vector>(mut points: impl Iterator<Item = (usize, V)>, dir: V) -> usize {
    let Some((mut best, p)) = points.next() else { return 0 };
    let mut best_dot = p.dot(dir);
    for (i, p) in points {
        let d = p.dot(dir);
        if d > best_dot {
            best = i;
            best_dot = d;
        }
    }
    best
}

/// [`argmax`] of a slice, with the same answer (the first point of the largest dot
/// product; point 0 when the first product is NaN), scanned in four independent lanes
/// (points `k`, `k + 4`, ...) each keeping its own best: the one-lane scan chains every
/// compare on the last one's result.
#[inline(always)]
pub(crate) fn scan<V: Vector>(points: &[V], dir: V) -> usize {
    let Some(first) = points.first() else { return 0 };
    let d0 = first.dot(dir);
    if d0.partial_cmp(&d0).is_none() {
        return 0; // a NaN first product: nothing compares larger (see `argmax`)
    }
    // Each lane keeps the first of its largest products (strict `>`); a lane that saw
    // nothing larger than -inf keeps index `usize::MAX`.
    let mut best = [-V::Real::INFINITY; 4];
    let mut index = [usize::MAX; 4];
    let mut blocks = points.chunks_exact(4);
    let mut base = 0;
    for block in &mut blocks {
        for k in 0..4 {
            let d = block[k].dot(dir);
            if d > best[k] {
                best[k] = d;
                index[k] = base + k;
            }
        }
        base += 4;
    }
    for (k, p) in blocks.remainder().iter().enumerate() {
        let d = p.dot(dir);
        if d > best[k] {
            best[k] = d;
            index[k] = base + k;
        }
    }
    // Across lanes, without branches (which lane wins is a coin toss for the branch
    // predictor): the largest product, then the lowest index among the lanes holding it
    // (`==`, so -0 ties 0 as `>` does within a lane). No lane holds a NaN.
    let larger = |x: V::Real, y: V::Real| if x > y { x } else { y };
    let top = larger(larger(best[0], best[1]), larger(best[2], best[3]));
    let holder = |k: usize| if best[k] == top { index[k] } else { usize::MAX };
    let at = holder(0).min(holder(1)).min(holder(2).min(holder(3)));
    if at == usize::MAX {
        0 // every product -inf (or NaN after a -inf first): the first point, as `argmax`
    } else {
        at
    }
}

/// Lanes of a block (see [`blocks8`]).
const LANES: usize = 8;

/// The numbers in one block: three axes of [`LANES`] lanes.
pub(crate) const BLOCK: usize = 3 * LANES;

/// Blocks a run of the block scans marks in one 64-bit mask.
const RUN: usize = 8;

/// Points stored eight to a block by axis and lane, for [`scan_blocks`]: block `k` is the
/// 24 numbers `x0 .. x7, y0 .. y7, z0 .. z7` of points `8k .. 8k + 8`. The last block is
/// padded with copies of the first point, which can never be the first point of the
/// largest product ahead of the point itself. Only for `f32` points: `None` otherwise.
pub(crate) fn blocks8<V: Vector3>(points: &[V]) -> Option<Vec<[f32; BLOCK]>> {
    if !V::Real::IS_F32 {
        return None;
    }
    // Exact: `V`'s scalar is `f32`.
    let coords = |p: &V| p.to_f64_array().map(|x| x as f32);
    let pad = points.first().map_or([0.0; 3], coords);
    let mut out = Vec::with_capacity(points.len().div_ceil(LANES));
    for chunk in points.chunks(LANES) {
        let mut block = [0.0f32; BLOCK];
        for lane in 0..LANES {
            let c = chunk.get(lane).map_or(pad, coords);
            for axis in 0..3 {
                block[LANES * axis + lane] = c[axis];
            }
        }
        out.push(block);
    }
    Some(out)
}

/// [`scan`] of `f32` points stored by [`blocks8`], `dir` given as `f32`: the same answer,
/// index for index (the first point of the largest product; point 0 when the first product
/// is NaN), in four lanes of glam's `Vec4` (SSE2 on x86-64), each block as two halves,
/// without branches on the data within a run of 64 points. Each run keeps every half's
/// products, takes the largest (keeping the running maximum when a product is NaN, as `>`
/// does), then marks the lanes holding it by `==` (so -0 ties 0) in one mask
/// whose lowest bit is the answer: which lane or block wins is a coin toss that a branch
/// would mispredict. A lane's product is `x dx + y dy + z dz` in that order, multiplied and
/// added apart, as the points' own `dot`, so the products, and the answer, are the scalar
/// ones bit for bit.
pub(crate) fn scan_blocks(blocks: &[[f32; BLOCK]], dir: [f32; 3]) -> usize {
    use glam::Vec4;
    let Some(first) = blocks.first() else { return 0 };
    let d0 = first[0] * dir[0] + first[LANES] * dir[1] + first[2 * LANES] * dir[2];
    if d0.is_nan() {
        return 0; // a NaN first product: nothing compares larger (see `argmax`)
    }
    let d = dir.map(Vec4::splat);
    let mut best = Best::default();
    // A run of 3 to 8 blocks (a hull of 17 to 64 vertices is one) as an array of its
    // length, so that its loops unroll.
    macro_rules! by_length {
        ($run:expr, $($n:literal)*) => {
            match $run.len() {
                $($n => match <&[[f32; BLOCK]; $n]>::try_from($run) {
                    Ok(fixed) => run_mask(fixed, d),
                    Err(_) => run_mask($run, d),
                },)*
                _ => run_mask($run, d),
            }
        };
    }
    for (r, run) in blocks.chunks(RUN).enumerate() {
        let (mask, top) = by_length!(run, 8 7 6 5 4 3);
        best.offer(LANES * RUN * r, mask, top);
    }
    best.index()
}

/// The products of a block's points with `d` (each axis splatted), its two halves of four
/// lanes: `x dx + y dy + z dz` in that order, as the points' own `dot`. Constant offsets into
/// an array, so no bounds to check.
#[inline(always)]
fn halves(b: &[f32; BLOCK], [dx, dy, dz]: [glam::Vec4; 3]) -> [glam::Vec4; 2] {
    let lanes = |at: usize| glam::Vec4::from_slice(&b[at..at + 4]);
    [
        lanes(0) * dx + lanes(LANES) * dy + lanes(2 * LANES) * dz,
        lanes(4) * dx + lanes(LANES + 4) * dy + lanes(2 * LANES + 4) * dz,
    ]
}

/// The largest product of a run of at most [`RUN`] blocks along `d` (each axis splatted),
/// and the mask of the points holding it (bit `8k + lane` for block `k`): see
/// [`scan_blocks`].
#[inline(always)]
fn run_mask(run: &[[f32; BLOCK]], d: [glam::Vec4; 3]) -> (u64, f32) {
    use glam::Vec4;
    // The larger, the running maximum `m` when `p` is NaN: `p > m ? p : m`. On x86 that is
    // glam's `max`, one `maxps` (written as a select, the compiler did not always find the
    // instruction: hull64 `distance` 10-15% slower); on other targets `max` may pass NaN on.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    let keep = |m: Vec4, p: Vec4| p.max(m);
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    let keep = |m: Vec4, p: Vec4| Vec4::select(p.cmpgt(m), p, m);
    let mut products = [[Vec4::ZERO; 2]; RUN];
    let len = run.len().min(RUN);
    let (mut m0, mut m1) = (Vec4::NEG_INFINITY, Vec4::NEG_INFINITY);
    for (slot, b) in products[..len].iter_mut().zip(run) {
        let [p0, p1] = halves(b, d);
        *slot = [p0, p1];
        m0 = keep(m0, p0);
        m1 = keep(m1, p1);
    }
    let top = largest(keep(m0, m1).to_array());
    let t = Vec4::splat(top);
    let mut mask = 0u64;
    for (k, [p0, p1]) in products[..len].iter().enumerate() {
        let bits = p0.cmpeq(t).bitmask() | p1.cmpeq(t).bitmask() << 4;
        mask |= u64::from(bits) << (LANES * k);
    }
    (mask, top)
}

/// [`scan_blocks`] of a single block (at most eight points), in straight-line code: both
/// halves' products, their largest, and the lowest lane holding it.
#[inline(always)]
pub(crate) fn scan_block(block: &[f32; BLOCK], dir: [f32; 3]) -> usize {
    use glam::Vec4;
    let [p0, p1] = halves(block, dir.map(Vec4::splat));
    if p0.x.is_nan() {
        return 0; // a NaN first product: nothing compares larger (see `argmax`)
    }
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    let m = p1.max(p0);
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    let m = Vec4::select(p1.cmpgt(p0), p1, p0);
    let t = Vec4::splat(largest(m.to_array()));
    let mask = p0.cmpeq(t).bitmask() | p1.cmpeq(t).bitmask() << 4;
    if mask == 0 {
        0 // every product -inf (or NaN after a -inf first): the first point, as `argmax`
    } else {
        mask.trailing_zeros() as usize
    }
}

/// The larger of four numbers, none NaN.
#[inline(always)]
fn largest(m: [f32; 4]) -> f32 {
    let larger = |x: f32, y: f32| if x > y { x } else { y };
    larger(larger(m[0], m[1]), larger(m[2], m[3]))
}

/// The best run so far of a block scan.
#[derive(Default)]
struct Best {
    /// The answer and its product, once a run marked a point.
    found: Option<(usize, f32)>,
}

impl Best {
    /// A run starting at point `base` whose largest product is `top`, at the points its
    /// `mask` marks: a later run wins only with a strictly larger product. Every product
    /// -inf marks point 0 (the first product is then -inf) in the first run.
    #[inline(always)]
    fn offer(&mut self, base: usize, mask: u64, top: f32) {
        if mask != 0 && self.found.is_none_or(|(_, t)| top > t) {
            self.found = Some((base + mask.trailing_zeros() as usize, top));
        }
    }

    #[inline(always)]
    fn index(&self) -> usize {
        self.found.map_or(0, |(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::{argmax, blocks8, scan, scan_block, scan_blocks};
    use crate::math::{Vector, Vector3};
    use glam::{DVec2, DVec3, Vec2, Vec3};
    use rand::{Rng, SeedableRng};

    fn check<V: Vector>(seed: u64, blocks: impl Fn(&[V], V, usize)) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        // Few distinct values, so products tie often (and -0 meets 0).
        let coarse = [-1.0, -0.0, 0.0, 0.5, 1.0, 2.0];
        let special = [f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -0.0, 0.0, 1e30];
        for n in 1..=140 {
            for trial in 0..60 {
                let mut pick = |tied: bool| {
                    if tied {
                        coarse[rng.random_range(0..coarse.len())]
                    } else {
                        rng.random_range(-2.0..2.0)
                    }
                };
                let tied = trial % 2 == 0;
                let points: Vec<V> =
                    (0..n).map(|_| V::from_f64_array([pick(tied), pick(tied), pick(tied)])).collect();
                let mut d = [pick(tied), pick(tied), pick(tied)];
                if trial % 5 == 4 {
                    d[trial % 3] = special[(trial / 5) % special.len()];
                }
                let dir = V::from_f64_array(d);
                let want = argmax(points.iter().copied().enumerate(), dir);
                assert_eq!(scan(&points, dir), want, "{n} points {points:?}, direction {dir:?}");
                blocks(&points, dir, want);
            }
        }
    }

    /// The four-lane scan answers what the one-lane scan answers, index for index: the
    /// first point of the largest product, on random points, on ties (repeated values,
    /// -0 against 0) and with infinite and NaN products; so do the scans of the points
    /// stored in blocks (3D), and of a single block (up to eight points).
    #[test]
    fn lane_scan_matches_the_one_lane_scan() {
        fn blocks<V: Vector3>(points: &[V], dir: V, want: usize) {
            let Some(blocks) = blocks8(points) else { return };
            let d = dir.to_f64_array().map(|x| x as f32);
            let got = scan_blocks(&blocks, d);
            assert_eq!(got, want, "blocks: {} points {points:?}, direction {dir:?}", points.len());
            if let [block] = blocks.as_slice() {
                let got = scan_block(block, d);
                assert_eq!(got, want, "one block: {} points {points:?}, direction {dir:?}", points.len());
            }
        }
        check::<Vec3>(1, blocks);
        check::<DVec3>(2, blocks);
        check::<Vec2>(3, |_, _, _| ());
        check::<DVec2>(4, |_, _, _| ());
    }
}
