//! The agreement rules between kollide, parry and the oracle.

/// `|x - y| <= abs + rel × max(|x|, |y|)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Absolute part.
    pub abs: f64,
    /// Relative part.
    pub rel: f64,
}

impl Tolerance {
    /// Whether `x` and `y` agree.
    #[must_use]
    pub fn allows(&self, x: f64, y: f64) -> bool {
        (x - y).abs() <= self.abs + self.rel * x.abs().max(y.abs())
    }
}

/// The benchmark's rule for distances: `1e-3` relative, with `1e-4` absolute so that
/// touching pairs (one library `0`, the other a few ulps) agree.
pub const BENCH_DISTANCE: Tolerance = Tolerance { abs: 1.0e-4, rel: 1.0e-3 };

/// Pairs whose distance is below this (as both sides report it) are "near touching":
/// `intersects` may go either way there.
pub const BENCH_TOUCH_BAND: f64 = 1.0e-4;

/// Whether two `intersects` answers agree, given the distances the two sides report:
/// equal answers always agree; different answers agree only when both distances are within
/// `band` of touching.
#[must_use]
pub fn intersects_agree(hit_x: bool, hit_y: bool, dist_x: f64, dist_y: f64, band: f64) -> bool {
    hit_x == hit_y || dist_x.max(dist_y) < band
}

/// What a batch of pairs gave, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Pairs seen.
    pub pairs: usize,
    /// Pairs kollide says overlap.
    pub overlapping: usize,
    /// Pairs where the `intersects` answers differ inside the touching band (allowed).
    pub near_touching: usize,
    /// Pairs where the `intersects` answers differ outside the band.
    pub intersects_differ: usize,
    /// Pairs where the distances differ beyond the tolerance.
    pub distance_differ: usize,
    /// Largest `|kollide - parry|` distance difference seen.
    pub max_abs_diff: f64,
    /// Distance disagreements where parry's distance is the larger one.
    pub parry_higher: usize,
    /// Largest `|kollide - parry| / max(kollide, parry)` among distance disagreements.
    pub max_rel_diff: f64,
}

impl Tally {
    /// Fraction of pairs kollide says overlap.
    #[must_use]
    pub fn overlap_fraction(&self) -> f64 {
        if self.pairs == 0 {
            0.0
        } else {
            self.overlapping as f64 / self.pairs as f64
        }
    }

    /// Disagreements of either kind.
    #[must_use]
    pub fn disagreements(&self) -> usize {
        self.intersects_differ + self.distance_differ
    }

    /// Records one pair under the benchmark's rules. Returns `false` when it is a
    /// disagreement.
    pub fn record(&mut self, k_hit: bool, p_hit: bool, k_dist: f64, p_dist: f64) -> bool {
        self.pairs += 1;
        self.overlapping += usize::from(k_hit);
        self.max_abs_diff = self.max_abs_diff.max((k_dist - p_dist).abs());
        let mut ok = true;
        if k_hit != p_hit {
            if intersects_agree(k_hit, p_hit, k_dist, p_dist, BENCH_TOUCH_BAND) {
                self.near_touching += 1;
            } else {
                self.intersects_differ += 1;
                ok = false;
            }
        }
        if !BENCH_DISTANCE.allows(k_dist, p_dist) {
            self.distance_differ += 1;
            self.parry_higher += usize::from(p_dist > k_dist);
            self.max_rel_diff = self.max_rel_diff.max((k_dist - p_dist).abs() / k_dist.max(p_dist));
            ok = false;
        }
        ok
    }
}
