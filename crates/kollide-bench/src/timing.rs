//! Timing: several libraries' closures over the same batch, interleaved, fastest repetition
//! per query.

use std::time::{Duration, Instant};

/// Wall-clock budget for one comparison (all closures together), after warm-up.
pub const BUDGET: Duration = Duration::from_millis(600);
/// Fewest and most timed repetitions of a batch.
const MIN_REPS: usize = 7;
const MAX_REPS: usize = 301;

/// Times each closure of `runs`, which must each run the same batch of `queries` queries
/// once, and returns nanoseconds per query for each, in order: the fastest repetition.
///
/// Every closure runs twice untimed (warm-up: caches, branch predictors, lazy statics),
/// then the closures take turns, the order rotating each repetition so that no library
/// always runs right after another's cache footprint. The number of repetitions fits
/// [`BUDGET`] (between 7 and 301). The minimum, not the median: the machines this runs on
/// are shared (other builds and tests), and interference only ever adds time.
pub fn measure(queries: usize, runs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    for run in runs.iter_mut() {
        run();
        run();
    }
    let start = Instant::now();
    for run in runs.iter_mut() {
        run();
    }
    let one = start.elapsed().as_secs_f64().max(1.0e-9);
    let reps = ((BUDGET.as_secs_f64() / one) as usize).clamp(MIN_REPS, MAX_REPS);
    let mut times = vec![Vec::with_capacity(reps); runs.len()];
    for rep in 0..reps {
        for k in 0..runs.len() {
            let i = (k + rep) % runs.len();
            let t = Instant::now();
            (runs[i])();
            times[i].push(t.elapsed().as_secs_f64());
        }
    }
    times.into_iter().map(|t| t.into_iter().fold(f64::MAX, f64::min) * 1.0e9 / queries as f64).collect()
}
