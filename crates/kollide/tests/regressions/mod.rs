//! Each test tells the story of a finding and checks it stays fixed.

mod general;
mod regressions_cache;
mod regressions_cast;
mod regressions_huge;
mod regressions_scale;
