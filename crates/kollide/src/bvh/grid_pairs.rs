//! All overlapping pairs of boxes of similar size by a uniform grid (the grid of Ericson's
//! *Real-Time Collision Detection*, 7.1, one level).
//!
//! The cell side `c` is the largest extent of any box along any axis, and each box sits in
//! the one cell holding its `min` corner. Two boxes can then meet only when their cells are
//! neighbours (differ by at most one along every axis): if `a.min <= b.max` then
//! `a.min <= b.min + c`. So each box is tested against the rest of its own cell and half of
//! the neighbouring cells (13 in 3D, 4 in 2D); every pair is met once. The cells are a
//! dense array filled by a counting sort, and the boxes are copied into cell order, so the
//! tests read memory in sequence.
//!
//! Layout: cells are numbered x fastest, so a cell and its two neighbours along x are one
//! run of slots, and a box's half neighbourhood is five runs (the rest of its cell and the
//! next along x; the three-cell runs of the rows `(y + 1, z)` and `(y - 1 ..= y + 1,
//! z + 1)`), two in 2D. The grid has a border of empty cells (x and y on both sides, z above)
//! so every run exists. The boxes are kept as structure of arrays (`min.x`, `min.y`, ...
//! each an `f32` array, padded past the end), and a run is tested four slots at a time:
//! six 4-lane comparisons, a lane mask for a run shorter than four, and a branch only when
//! a lane meets. The first four slots of every run are tested unconditionally (an empty run
//! masks them all out), so the common short run costs no loop branch.
//!
//! Exactness: `f32` boxes are stored as they are. `f64` coordinates are rounded outward
//! (`min` down, `max` up), so the `f32` test never misses a meeting pair (each comparison is
//! `min <= max`, which rounding one side down and the other up preserves); each `f32` hit is
//! then confirmed on the `f64` boxes.
//!
//! Hits are not reported where they are found: each four-slot test writes a record (probe,
//! first slot, mask) and advances the record count by `mask != 0`, and the records are
//! reported in batches, so the search has no branch on the outcome of a test.
//!
//! With the `rayon` feature, from `PAR_MIN_BOXES` boxes on, the bounds and cells are
//! computed in chunks in parallel and ranges of slots are searched apart; their pairs are
//! appended in slot order, the serial order.
//!
//! It suits boxes of similar size filling their bounds (particles, crowds, debris); one
//! box much larger than the rest makes every cell large. [`GridPairs::new`] therefore
//! refuses (returns `None`) when the cells would hold too many boxes to beat a tree, and
//! [`all_pairs`](super::all_pairs) falls back to the tree or the sweep.

use crate::math::{Aabb, Real, Vector};
use glam::{BVec4A, Vec4};

/// The most cells per box the dense grid may have (more: the cells grow).
const CELLS_PER_BOX: f64 = 4.0;

/// The largest mean number of boxes in a box's neighbourhood weighted by occupancy
/// (`sum over cells of count^2 / n`) for which the grid is used. Boxes uniform in space
/// with about three neighbours give 2; a tree wins well before 16.
const MAX_CROWDING: f64 = 16.0;

/// The slack on the cell side against rounding in the cell coordinates (see `new`).
const SIDE_SLACK: f64 = 1e-6;

/// Slots past the last box in the lane arrays, so a four-slot read from any run start
/// stays inside them.
const PAD: usize = 4;

/// Boxes sorted into a dense uniform grid, ready for pair searches.
#[derive(Clone)]
pub struct GridPairs<V: Vector> {
    inv_side: f64,
    /// Cells along each axis, the empty border included.
    dims: [usize; 3],
    buf: Buffers,
    /// The boxes in cell order, kept only when the lanes round them (`f64`).
    exact: Vec<Aabb<V>>,
}

/// The grid's arrays, kept between calls of [`all_pairs_into`] on a thread.
#[derive(Clone, Default)]
struct Buffers {
    /// `start[c]..start[c + 1]` are the slots of cell `c` (x fastest, then y, then z).
    start: Vec<u32>,
    /// Per input box, its cell (`u32::MAX`: left out); used while building.
    cells: Vec<u32>,
    /// Per slot, the index in the input of its box (low 32 bits) and its cell (high).
    slots: Vec<u64>,
    /// The boxes in cell order as `f32` lanes: `min.x, min.y, min.z, max.x, max.y, max.z`
    /// (in 2D the z lanes are 0), each `PAD` longer than `slots`.
    lanes: [Vec<f32>; 6],
}

impl Buffers {
    /// Bytes held.
    fn capacity_bytes(&self) -> usize {
        4 * (self.start.capacity() + self.cells.capacity())
            + 8 * self.slots.capacity()
            + self.lanes.iter().map(|l| 4 * l.capacity()).sum::<usize>()
    }
}

/// The most bytes of grid arrays a thread keeps between calls of [`all_pairs_into`]
/// (about 1.5 million boxes' worth).
const KEEP_BYTES: usize = 64 << 20;

std::thread_local! {
    static BUFFERS: core::cell::Cell<Buffers> = core::cell::Cell::new(Buffers::default());
}

impl<V: Vector> core::fmt::Debug for GridPairs<V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GridPairs")
            .field("boxes", &self.buf.slots.len())
            .field("dims", &&self.dims[..V::DIM])
            .field("side", &(1.0 / self.inv_side))
            .finish_non_exhaustive()
    }
}

/// A box every coordinate of which is a number, with `min <= max`.
fn live<V: Vector>(b: &Aabb<V>) -> bool {
    b.is_valid() && b.min.is_finite_vec() && b.max.is_finite_vec()
}

/// What the grid's size is chosen from: the box of the live boxes' `min` corners, their
/// largest extent along any axis, their number, and whether a box rules the grid out.
struct Bounds {
    lo: [f64; 3],
    hi: [f64; 3],
    side: f64,
    n: usize,
    refuse: bool,
}

impl Bounds {
    #[cfg(feature = "rayon")]
    fn empty() -> Self {
        Self { lo: [f64::INFINITY; 3], hi: [f64::NEG_INFINITY; 3], side: 0.0, n: 0, refuse: false }
    }

    /// The bounds of `boxes`, in their own precision (min and max are exact in any; an
    /// `f32` extent is within half an ulp, far inside `SIDE_SLACK`).
    #[allow(clippy::eq_op)]
    fn of<V: Vector>(boxes: &[Aabb<V>]) -> Self {
        let (inf, zero) = (V::Real::INFINITY, V::Real::ZERO);
        let (mut lo, mut hi, mut side) = ([inf; 3], [-inf; 3], zero);
        let (mut n, mut refuse) = (0, false);
        for b in boxes {
            let mut ok = true;
            for k in 0..V::DIM {
                // `d - d` is 0 exactly when `d` is finite.
                let d = b.max[k] - b.min[k];
                ok &= (d >= zero) & (d - d == zero);
            }
            if !ok {
                // Infinite, or wider than the largest number: no cell holds it.
                let (min, max) = (b.min.to_f64_array(), b.max.to_f64_array());
                refuse |=
                    live(b) || (b.is_valid() && (0..V::DIM).all(|k| !min[k].is_nan() && !max[k].is_nan()));
                continue;
            }
            // No NaN here: plain comparisons (`minss`, `maxss`).
            for k in 0..V::DIM {
                let (min, d) = (b.min[k], b.max[k] - b.min[k]);
                lo[k] = if min < lo[k] { min } else { lo[k] };
                hi[k] = if min > hi[k] { min } else { hi[k] };
                side = if d > side { d } else { side };
            }
            n += 1;
        }
        let f = |x: [V::Real; 3]| x.map(Real::to_f64);
        Self { lo: f(lo), hi: f(hi), side: side.to_f64(), n, refuse }
    }

    #[cfg(feature = "rayon")]
    fn join(a: Self, b: Self) -> Self {
        Self {
            lo: core::array::from_fn(|k| a.lo[k].min(b.lo[k])),
            hi: core::array::from_fn(|k| a.hi[k].max(b.hi[k])),
            side: a.side.max(b.side),
            n: a.n + b.n,
            refuse: a.refuse | b.refuse,
        }
    }
}

/// [`live`] on the coordinates in `f64` (a box wider than the largest finite number, the
/// one difference, was refused by `Bounds::of`): `0 <= max - min < inf` on each axis, false
/// when a coordinate is NaN or infinite.
#[inline(always)]
#[allow(clippy::eq_op)]
fn live_f64(dim: usize, min: &[f64; 3], max: &[f64; 3]) -> bool {
    let mut ok = true;
    for k in 0..dim {
        let d = max[k] - min[k];
        // `d - d` is 0 exactly when `d` is finite.
        ok &= (d >= 0.0) & (d - d == 0.0);
    }
    ok
}

/// Writes the lanes of the boxes in slot order, rounding `min` by `down` and `max` by `up`,
/// and pads them.
#[inline(always)]
fn fill_lanes<V: Vector>(
    boxes: &[Aabb<V>],
    slots: &[u64],
    lanes: &mut [Vec<f32>; 6],
    down: impl Fn(f64) -> f32,
    up: impl Fn(f64) -> f32,
) {
    let n = slots.len();
    for lane in lanes.iter_mut() {
        // Every slot below `n` is written below; only the padding is cleared.
        lane.resize(n + PAD, 0.0);
        lane[n..].fill(0.0);
    }
    let [l0, l1, l2, l3, l4, l5] = lanes;
    let (l0, l1, l2) = (&mut l0[..n], &mut l1[..n], &mut l2[..n]);
    let (l3, l4, l5) = (&mut l3[..n], &mut l4[..n], &mut l5[..n]);
    for (s, &slot) in slots.iter().enumerate() {
        let b = &boxes[slot as u32 as usize];
        let (min, max) = (b.min.to_f64_array(), b.max.to_f64_array());
        l0[s] = down(min[0]);
        l1[s] = down(min[1]);
        l3[s] = up(max[0]);
        l4[s] = up(max[1]);
        (l2[s], l5[s]) = if V::DIM == 3 { (down(min[2]), up(max[2])) } else { (0.0, 0.0) };
    }
}

/// The largest `f32` at most `v`.
fn round_down(v: f64) -> f32 {
    let f = v as f32;
    if f64::from(f) <= v {
        f
    } else if f == 0.0 {
        -f32::from_bits(1)
    } else if f > 0.0 {
        f32::from_bits(f.to_bits() - 1)
    } else {
        f32::from_bits(f.to_bits() + 1)
    }
}

/// The smallest `f32` at least `v`.
fn round_up(v: f64) -> f32 {
    -round_down(-v)
}

/// One box's lanes, splatted, to test against four slots at once.
struct Probe {
    min: [Vec4; 3],
    max: [Vec4; 3],
}

impl Probe {
    /// The mask of the slots `t..t + 4` that meet the probe, cut to those below `hi`
    /// (`t <= hi`).
    #[inline(always)]
    fn test(&self, l: &[&[f32]; 6], t: usize, hi: usize) -> u32 {
        let load = |k: usize| Vec4::from_slice(&l[k][t..t + 4]);
        let mut m: BVec4A = load(0).cmple(self.max[0]) & load(3).cmpge(self.min[0]);
        m &= load(1).cmple(self.max[1]) & load(4).cmpge(self.min[1]);
        m &= load(2).cmple(self.max[2]) & load(5).cmpge(self.min[2]);
        m.bitmask() & !(u32::MAX << (hi - t).min(4))
    }
}

/// A hit awaiting report: the probe's slot, the first of four slots, and the mask of those
/// that met it.
type Record = [u32; 3];

/// Records buffered before they are reported.
const HIT_BUFFER: usize = 512;

/// The record buffer's length: room past `HIT_BUFFER` for a box's five first tests, and a
/// power of two, so an index taken modulo it needs no bounds check (it never wraps).
const RECORDS: usize = 1024;

/// The fewest boxes for which the `rayon` feature builds and searches the grid in parallel.
#[cfg(feature = "rayon")]
const PAR_MIN_BOXES: usize = 20_000;

/// Boxes (or slots) per parallel task.
#[cfg(feature = "rayon")]
const PAR_CHUNK: usize = 4096;

impl<V: Vector> GridPairs<V> {
    /// The grid over `boxes`, or `None` when a grid does not suit them: a box with an
    /// infinite coordinate or wider than the largest finite number (`max - min`
    /// overflows), or cells that would be crowded (boxes of very different sizes,
    /// or clustered). Boxes with a NaN coordinate or `min > max` meet nothing and are left
    /// out, as in [`all_pairs_sweep`](super::all_pairs_sweep).
    #[must_use]
    pub fn new(boxes: &[Aabb<V>]) -> Option<Self> {
        Self::build(boxes, Buffers::default()).ok()
    }

    /// [`GridPairs::new`] in the given arrays; handed back when the grid does not suit.
    #[allow(clippy::result_large_err)] // moved once a call: three words a Vec
    fn build(boxes: &[Aabb<V>], mut buf: Buffers) -> Result<Self, Buffers> {
        let dim = V::DIM;
        #[cfg(feature = "rayon")]
        let bounds = if boxes.len() >= PAR_MIN_BOXES {
            use rayon::prelude::*;
            boxes.par_chunks(PAR_CHUNK).map(Bounds::of).reduce(Bounds::empty, Bounds::join)
        } else {
            Bounds::of(boxes)
        };
        #[cfg(not(feature = "rayon"))]
        let bounds = Bounds::of(boxes);
        let Bounds { lo, hi, mut side, n, refuse } = bounds;
        if refuse {
            return Err(buf);
        }
        assert!(u32::try_from(boxes.len()).is_ok(), "GridPairs: more than u32::MAX boxes");
        if n == 0 {
            buf.start.clear();
            buf.start.extend([0, 0]);
            buf.slots.clear();
            for lane in &mut buf.lanes {
                lane.clear();
                lane.resize(PAD, 0.0);
            }
            return Ok(Self { inv_side: 1.0, dims: [1; 3], buf, exact: Vec::new() });
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
        // Inner cells: 1..=m along x and y (a border cell each side), 0..m along z (a border
        // layer above) in 3D.
        let mut last = [0u32; 3];
        for k in 0..dim {
            last[k] = (span[k] * inv_side).floor() as u32;
        }
        let dims =
            [last[0] as usize + 3, last[1] as usize + 3, if dim == 3 { last[2] as usize + 2 } else { 1 }];
        let cell_count = dims[0] * dims[1] * dims[2];
        // Counting sort by cell: counts, then each cell's end by an inclusive prefix sum,
        // then slots handed out downwards (boxes taken last to first, so each cell keeps
        // input order), leaving each cell's start.
        let Buffers { start, cells, slots, lanes } = &mut buf;
        start.clear();
        start.resize(cell_count + 1, 0);
        cells.clear();
        let (stride_y, stride_z) = (dims[0], dims[0] * dims[1]);
        // The cell of a live box's `min` (min >= lo: truncation is the floor).
        let cell_of = |b: &Aabb<V>| {
            let (min, max) = (b.min.to_f64_array(), b.max.to_f64_array());
            if !live_f64(V::DIM, &min, &max) {
                return u32::MAX;
            }
            let mut c = [0usize; 3];
            for k in 0..V::DIM {
                c[k] = (((min[k] - lo[k]) * inv_side) as u32).min(last[k]) as usize;
            }
            ((c[0] + 1) + stride_y * (c[1] + 1) + stride_z * c[2]) as u32
        };
        #[cfg(feature = "rayon")]
        if boxes.len() >= PAR_MIN_BOXES {
            use rayon::prelude::*;
            boxes.par_iter().map(cell_of).collect_into_vec(cells);
            for &c in cells.iter() {
                if c != u32::MAX {
                    start[c as usize] += 1;
                }
            }
        }
        if cells.len() != boxes.len() {
            // The counts through a slice held in registers (through the Vec, its pointer and
            // length were reloaded after every store, which might have changed them).
            let counts = &mut start[..];
            cells.extend(boxes.iter().map(|b| {
                let c = cell_of(b);
                if c != u32::MAX {
                    counts[c as usize] += 1;
                }
                c
            }));
        }
        // The sum of count^2 is below n^2 < 2^64.
        let mut crowding = 0u64;
        let mut sum = 0u32;
        for k in &mut start[..cell_count] {
            crowding += u64::from(*k) * u64::from(*k);
            sum += *k;
            *k = sum;
        }
        start[cell_count] = sum;
        if crowding as f64 > MAX_CROWDING * n as f64 {
            return Err(buf);
        }
        slots.resize(n, 0); // every slot is written below
        let (ends, to) = (&mut start[..], &mut slots[..]);
        for (i, &c) in cells.iter().enumerate().rev() {
            if c != u32::MAX {
                let end = &mut ends[c as usize];
                *end -= 1;
                to[*end as usize] = u64::from(c) << 32 | i as u64;
            }
        }
        // The lanes in slot order.
        let rounds = V::Real::EPSILON.to_f64() != f64::from(f32::EPSILON);
        if rounds {
            fill_lanes(boxes, slots, lanes, round_down, round_up);
        } else {
            fill_lanes(boxes, slots, lanes, |x| x as f32, |x| x as f32);
        }
        let exact =
            if rounds { slots.iter().map(|&slot| boxes[slot as u32 as usize]).collect() } else { Vec::new() };
        Ok(Self { inv_side, dims, buf, exact })
    }

    /// Number of boxes in the grid (the live ones).
    #[must_use]
    pub fn len(&self) -> usize {
        self.buf.slots.len()
    }

    /// `true` when the grid holds no box.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.buf.slots.is_empty()
    }

    /// Calls `f(i, j)` with `i < j` (indices into the boxes given to [`GridPairs::new`]) for
    /// every pair of boxes that meet, touching included; each pair once, in cell order.
    pub fn visit_pairs(&self, mut f: impl FnMut(u32, u32)) {
        self.visit_slots(0..self.len(), &mut f);
    }

    /// [`visit_pairs`](Self::visit_pairs) for the pairs whose first box (in slot order) lies
    /// in `slots`. Never inlined: inside a larger caller the record count lost its register.
    #[inline(never)]
    fn visit_slots(&self, slots: core::ops::Range<usize>, f: &mut impl FnMut(u32, u32)) {
        let dy = self.dims[0];
        let dz = self.dims[0] * self.dims[1];
        let start = |c: usize| self.buf.start[c] as usize;
        let stride = self.len() + PAD;
        let l: [&[f32]; 6] = core::array::from_fn(|k| &self.buf.lanes[k][..stride]);
        // The record count stays a local (a register): a count behind a reference went
        // through memory on every test, a chain of store-to-load forwards.
        let mut records: [Record; RECORDS] = [[0; 3]; RECORDS];
        let mut len = 0usize;
        // The slots of the box's runs past their first four, searched after the five runs
        // (in this loop, not a call: a call would keep the probe in memory).
        let mut tails = [(0usize, 0usize); 5];
        for s in slots {
            if len >= HIT_BUFFER {
                self.report(&records[..len], f);
                len = 0;
            }
            let p = Probe {
                min: [Vec4::splat(l[0][s]), Vec4::splat(l[1][s]), Vec4::splat(l[2][s])],
                max: [Vec4::splat(l[3][s]), Vec4::splat(l[4][s]), Vec4::splat(l[5][s])],
            };
            let c = (self.buf.slots[s] >> 32) as usize;
            let r = c + dy;
            let mut long = 0usize;
            let mut run = |lo: usize, hi: usize| {
                let m = p.test(&l, lo, hi);
                records[len % RECORDS] = [s as u32, lo as u32, m];
                len += usize::from(m != 0);
                tails[long % 5] = (lo + 4, hi);
                long += usize::from(hi > lo + 4);
            };
            run(s + 1, start(c + 2));
            run(start(r - 1), start(r + 2));
            if V::DIM == 3 {
                for r in [c + dz - dy, c + dz, c + dz + dy] {
                    run(start(r - 1), start(r + 2));
                }
            }
            for &(lo, hi) in &tails[..long.min(5)] {
                for t in (lo..hi).step_by(4) {
                    if len >= HIT_BUFFER {
                        self.report(&records[..len], f);
                        len = 0;
                    }
                    let m = p.test(&l, t, hi);
                    records[len % RECORDS] = [s as u32, t as u32, m];
                    len += usize::from(m != 0);
                }
            }
        }
        self.report(&records[..len], f);
    }

    /// Reports the recorded hits (confirmed on the exact boxes when the lanes round them).
    #[cold]
    #[inline(never)]
    fn report(&self, records: &[Record], f: &mut impl FnMut(u32, u32)) {
        for &[s, t, mut m] in records {
            let (s, t) = (s as usize, t as usize);
            let i = self.buf.slots[s] as u32;
            while m != 0 {
                let u = t + m.trailing_zeros() as usize;
                m &= m - 1;
                if self.exact.is_empty() || self.exact[s].intersects(&self.exact[u]) {
                    let j = self.buf.slots[u] as u32;
                    f(i.min(j), i.max(j));
                }
            }
        }
    }
}

/// Appends to `out` the pairs of [`all_pairs_grid`] and returns `true`, or returns `false`
/// when the grid does not suit the boxes. The grid's arrays are kept per thread between
/// calls (up to `KEEP_BYTES`), so repeated calls neither allocate them nor touch fresh
/// memory.
pub(crate) fn all_pairs_into<V: Vector>(boxes: &[Aabb<V>], out: &mut Vec<(u32, u32)>) -> bool {
    let buf = BUFFERS.with(core::cell::Cell::take);
    let (buf, found) = match GridPairs::build(boxes, buf) {
        Ok(grid) => {
            out.reserve(2 * grid.len());
            #[cfg(feature = "rayon")]
            if grid.len() >= PAR_MIN_BOXES {
                use rayon::prelude::*;
                // Slot ranges searched apart, their pairs appended in slot order: the
                // serial search's output, in its order.
                let parts: Vec<Vec<(u32, u32)>> = (0..grid.len().div_ceil(PAR_CHUNK))
                    .into_par_iter()
                    .map(|k| {
                        let mut part = Vec::new();
                        let slots = k * PAR_CHUNK..((k + 1) * PAR_CHUNK).min(grid.len());
                        grid.visit_slots(slots, &mut |i, j| part.push((i, j)));
                        part
                    })
                    .collect();
                for part in parts {
                    out.extend_from_slice(&part);
                }
                return keep(grid.buf, true);
            }
            grid.visit_pairs(|i, j| out.push((i, j)));
            (grid.buf, true)
        }
        Err(buf) => (buf, false),
    };
    keep(buf, found)
}

/// Keeps `buf` for the thread's next call unless it is too large; returns `found`.
fn keep(buf: Buffers, found: bool) -> bool {
    if buf.capacity_bytes() <= KEEP_BYTES {
        BUFFERS.with(|b| b.set(buf));
    }
    found
}

/// Every pair `(i, j)`, `i < j`, of `boxes` that meet (touching counts), by the uniform
/// grid of [`GridPairs`]; `None` when the grid does not suit the boxes (see
/// [`GridPairs::new`]). Pairs come in cell order. Like [`all_pairs`](super::all_pairs), it
/// keeps the grid's arrays per thread between calls (up to 64 MiB); [`GridPairs::new`] owns
/// its own.
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
    let mut out = Vec::new();
    all_pairs_into(boxes, &mut out).then_some(out)
}
