//! All overlapping pairs of boxes of similar size by a uniform grid (the grid of Ericson's
//! *Real-Time Collision Detection*, 7.1, one level).
//!
//! The cell side `c` is the largest extent of any box along any axis, and each box sits in
//! the one cell holding its `min` corner. Two boxes can then meet only when their cells are
//! neighbours (differ by at most one along every axis): if `a.min <= b.max` then
//! `a.min <= b.min + c`. So each box is tested against its own cell and half of the
//! neighbouring cells (13 in 3D, 4 in 2D); every pair is met once. The cells are a dense
//! array filled by a counting sort, and the boxes are copied into cell order, so the tests
//! read memory in sequence.
//!
//! It suits boxes of similar size filling their bounds (particles, crowds, debris); one
//! box much larger than the rest makes every cell large. [`GridPairs::new`] therefore
//! refuses (returns `None`) when the cells would hold too many boxes to beat a tree, and
//! [`all_pairs`](super::all_pairs) falls back to the tree or the sweep.

use crate::math::{Aabb, Vector};

/// The most cells per box the dense grid may have (more: the cells grow).
const CELLS_PER_BOX: f64 = 4.0;

/// The largest mean number of boxes in a box's neighbourhood weighted by occupancy
/// (`sum over cells of count^2 / n`) for which the grid is used. Boxes uniform in space
/// with about three neighbours give 2; a tree wins well before 16.
const MAX_CROWDING: f64 = 16.0;

/// The slack on the cell side against rounding in the cell coordinates (see `new`).
const SIDE_SLACK: f64 = 1e-6;

/// Boxes sorted into a dense uniform grid, ready for pair searches.
#[derive(Clone)]
pub struct GridPairs<V: Vector> {
    origin: [f64; 3],
    inv_side: f64,
    dims: [usize; 3],
    /// `start[c]..start[c + 1]` are the slots of cell `c` (x fastest, then y, then z).
    start: Vec<u32>,
    /// Boxes in cell order, and their indices in the input.
    boxes: Vec<Aabb<V>>,
    ids: Vec<u32>,
}

impl<V: Vector> core::fmt::Debug for GridPairs<V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GridPairs")
            .field("boxes", &self.boxes.len())
            .field("dims", &&self.dims[..V::DIM])
            .field("side", &(1.0 / self.inv_side))
            .finish_non_exhaustive()
    }
}

/// A box every coordinate of which is a number, with `min <= max`.
fn live<V: Vector>(b: &Aabb<V>) -> bool {
    b.is_valid() && b.min.is_finite_vec() && b.max.is_finite_vec()
}

impl<V: Vector> GridPairs<V> {
    /// The grid over `boxes`, or `None` when a grid does not suit them: a box with an
    /// infinite coordinate, or cells that would be crowded (boxes of very different sizes,
    /// or clustered). Boxes with a NaN coordinate or `min > max` meet nothing and are left
    /// out, as in [`all_pairs_sweep`](super::all_pairs_sweep).
    #[must_use]
    pub fn new(boxes: &[Aabb<V>]) -> Option<Self> {
        let nan = |b: &Aabb<V>| b.min.to_f64_array().iter().chain(&b.max.to_f64_array()).any(|x| x.is_nan());
        if boxes.iter().any(|b| !nan(b) && b.is_valid() && !live(b)) {
            return None; // infinite: no cell holds it
        }
        let dim = V::DIM;
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        let mut side = 0.0f64;
        let mut n = 0usize;
        for b in boxes.iter().filter(|b| live(*b)) {
            let (min, max) = (b.min.to_f64_array(), b.max.to_f64_array());
            for k in 0..dim {
                lo[k] = lo[k].min(min[k]);
                hi[k] = hi[k].max(min[k]);
                side = side.max(max[k] - min[k]);
            }
            n += 1;
        }
        if n == 0 {
            let start = vec![0, 0];
            return Some(Self {
                origin: [0.0; 3],
                inv_side: 1.0,
                dims: [1; 3],
                start,
                boxes: Vec::new(),
                ids: Vec::new(),
            });
        }
        // The side must hold every box, with slack: the cell coordinates below are computed
        // with a relative error of a few ulps of the cell count (at most about 4n), far
        // below SIDE_SLACK, so a box's `max` never lies more than one cell past its `min`.
        side *= 1.0 + SIDE_SLACK;
        // No more than CELLS_PER_BOX cells per box: grow the side until the grid fits.
        let span: Vec<f64> = (0..dim).map(|k| hi[k] - lo[k]).collect();
        let budget = (CELLS_PER_BOX * n as f64).max(64.0);
        let cells_for = |s: f64| span.iter().map(|&w| (w / s).floor() + 1.0).product::<f64>();
        if side <= 0.0 || cells_for(side) > budget {
            let volume: f64 = span.iter().map(|&w| w.max(f64::MIN_POSITIVE)).product();
            let mut s = (volume / budget).powf(1.0 / dim as f64).max(side);
            let usable = |s: f64| s > 0.0 && s.is_finite();
            while !usable(s) || cells_for(s) > budget {
                s = if usable(s) { s * 1.25 } else { span.iter().fold(1.0, |m, &w| m.max(w)) };
            }
            side = s;
        }
        let inv_side = 1.0 / side;
        let mut dims = [1usize; 3];
        for k in 0..dim {
            dims[k] = (span[k] * inv_side).floor() as usize + 1;
        }
        let cell_count = dims[0] * dims[1] * dims[2];
        let mut grid = Self {
            origin: lo,
            inv_side,
            dims,
            start: vec![0; cell_count + 1],
            boxes: Vec::new(),
            ids: Vec::new(),
        };
        // Counting sort by cell.
        let cells: Vec<u32> = boxes
            .iter()
            .map(|b| if live(b) { grid.cell_of(&b.min.to_f64_array()) as u32 } else { u32::MAX })
            .collect();
        for &c in &cells {
            if c != u32::MAX {
                grid.start[c as usize + 1] += 1;
            }
        }
        let crowding: f64 = grid.start.iter().map(|&k| f64::from(k) * f64::from(k)).sum::<f64>() / n as f64;
        if crowding > MAX_CROWDING {
            return None;
        }
        for c in 0..cell_count {
            grid.start[c + 1] += grid.start[c];
        }
        let mut next = grid.start.clone();
        grid.boxes = vec![Aabb::empty(); n];
        grid.ids = vec![0; n];
        for (i, &c) in cells.iter().enumerate() {
            if c != u32::MAX {
                let slot = next[c as usize] as usize;
                next[c as usize] += 1;
                grid.boxes[slot] = boxes[i];
                grid.ids[slot] = i as u32;
            }
        }
        Some(grid)
    }

    /// The cell index of a point inside the grid's bounds (clamped against rounding).
    fn cell_of(&self, p: &[f64; 3]) -> usize {
        let mut index = 0;
        for k in (0..V::DIM).rev() {
            let u = ((p[k] - self.origin[k]) * self.inv_side).floor();
            let c = if u > 0.0 { (u as usize).min(self.dims[k] - 1) } else { 0 };
            index = index * self.dims[k] + c;
        }
        index
    }

    /// Number of boxes in the grid (the live ones).
    #[must_use]
    pub fn len(&self) -> usize {
        self.boxes.len()
    }

    /// `true` when the grid holds no box.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty()
    }

    /// Calls `f(i, j)` with `i < j` (indices into the boxes given to [`GridPairs::new`]) for
    /// every pair of boxes that meet, touching included; each pair once, in cell order.
    pub fn visit_pairs(&self, mut f: impl FnMut(u32, u32)) {
        let [nx, ny, nz] = self.dims;
        let start = |c: usize| self.start[c] as usize;
        let mut hits: Vec<u32> = Vec::new();
        for z in 0..nz {
            for y in 0..ny {
                // Cells are numbered x fastest, so a cell and its two neighbours along x are
                // one run of slots. The forward half of the neighbourhood is: the rest of
                // this cell and the next along x, then the three-cell runs of the rows
                // (y + 1, z) and, in 3D, (y - 1 ..= y + 1, z + 1).
                let row = (z * ny + y) * nx;
                let mut rows = [0usize; 4];
                let mut row_count = 0;
                let mut offer = |y2: usize, z2: usize| {
                    if y2 < ny && z2 < nz {
                        rows[row_count] = (z2 * ny + y2) * nx;
                        row_count += 1;
                    }
                };
                offer(y + 1, z);
                if V::DIM == 3 {
                    offer(y.wrapping_sub(1), z + 1);
                    offer(y, z + 1);
                    offer(y + 1, z + 1);
                }
                for x in 0..nx {
                    let c = row + x;
                    let (lo, hi) = (start(c), start(c + 1));
                    if lo == hi {
                        continue;
                    }
                    let own_end = start(row + (x + 1).min(nx - 1) + 1);
                    let (x_lo, x_hi) = (x.saturating_sub(1), (x + 1).min(nx - 1));
                    for s in lo..hi {
                        let a = &self.boxes[s];
                        hits.clear();
                        self.collect_hits(a, s + 1..own_end, &mut hits);
                        for &r in &rows[..row_count] {
                            self.collect_hits(a, start(r + x_lo)..start(r + x_hi + 1), &mut hits);
                        }
                        let i = self.ids[s];
                        for &t in &hits {
                            let j = self.ids[t as usize];
                            f(i.min(j), i.max(j));
                        }
                    }
                }
            }
        }
    }

    /// Appends to `hits` the slots in `range` whose boxes meet `a`, without a branch on the
    /// outcome (each slot is written, and kept by advancing past it only on a hit).
    #[inline(always)]
    fn collect_hits(&self, a: &Aabb<V>, range: core::ops::Range<usize>, hits: &mut Vec<u32>) {
        let mut k = hits.len();
        hits.resize(k + range.len(), 0);
        for t in range {
            hits[k] = t as u32;
            k += usize::from(a.intersects(&self.boxes[t]));
        }
        hits.truncate(k);
    }
}

/// Every pair `(i, j)`, `i < j`, of `boxes` that meet (touching counts), by the uniform
/// grid of [`GridPairs`]; `None` when the grid does not suit the boxes (see
/// [`GridPairs::new`]). Pairs come in cell order.
///
/// ```
/// use kollide::bvh::all_pairs_grid;
/// use kollide::math::{Aabb, Vec3};
/// let boxes: Vec<_> = (0..5).map(|i| Aabb::from_ball(Vec3::new(i as f32, 0.0, 0.0), 0.5)).collect();
/// let mut pairs = all_pairs_grid(&boxes).unwrap();
/// pairs.sort();
/// assert_eq!(pairs, vec![(0, 1), (1, 2), (2, 3), (3, 4)]);
/// ```
#[must_use]
pub fn all_pairs_grid<V: Vector>(boxes: &[Aabb<V>]) -> Option<Vec<(u32, u32)>> {
    let grid = GridPairs::new(boxes)?;
    let mut out = Vec::with_capacity(boxes.len() * 2);
    grid.visit_pairs(|i, j| out.push((i, j)));
    Some(out)
}
