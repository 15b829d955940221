//! The support scan of a small point set (a hull or polygon of few vertices): the first
//! point of the largest dot product with a direction.

use crate::math::{Real, Vector};

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

#[cfg(test)]
mod tests {
    use super::{argmax, scan};
    use crate::math::Vector;
    use glam::{DVec2, DVec3, Vec2, Vec3};
    use rand::{Rng, SeedableRng};

    fn check<V: Vector>(seed: u64) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        // Few distinct values, so products tie often (and -0 meets 0).
        let coarse = [-1.0, -0.0, 0.0, 0.5, 1.0, 2.0];
        let special = [f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -0.0, 0.0, 1e30];
        for n in 1..=70 {
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
            }
        }
    }

    /// The four-lane scan answers what the one-lane scan answers, index for index: the
    /// first point of the largest product, on random points, on ties (repeated values,
    /// -0 against 0) and with infinite and NaN products.
    #[test]
    fn lane_scan_matches_the_one_lane_scan() {
        check::<Vec3>(1);
        check::<DVec3>(2);
        check::<Vec2>(3);
        check::<DVec2>(4);
    }
}
