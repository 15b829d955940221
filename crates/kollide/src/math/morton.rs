//! Z-order (Morton) keys: a point of a box quantized to `2^21` cells an axis and the bits of
//! its three cell indices interleaved, so that sorting by key visits the box along a curve
//! that keeps neighbours mostly close.

/// Cells a side.
const CELLS: f64 = (1u64 << 21) as f64;

/// The Morton keys of points of the box `[lo, hi]` (`f64` coordinates; `z = 0` in 2D).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MortonGrid {
    lo: [f64; 3],
    scale: [f64; 3],
}

impl MortonGrid {
    /// The grid over `[lo, hi]`; an axis of no extent has every point in its first cell.
    pub(crate) fn new(lo: [f64; 3], hi: [f64; 3]) -> Self {
        let scale =
            core::array::from_fn(|k| if hi[k] > lo[k] { (CELLS - 1.0) / (hi[k] - lo[k]) } else { 0.0 });
        Self { lo, scale }
    }

    /// The key of `p`: its cell along each axis (clamped to the box), 21 bits each,
    /// interleaved x, y, z from the lowest bit.
    pub(crate) fn key(&self, p: [f64; 3]) -> u64 {
        let cell = |k: usize| spread(((p[k] - self.lo[k]) * self.scale[k]).clamp(0.0, CELLS - 1.0) as u64);
        cell(0) | cell(1) << 1 | cell(2) << 2
    }
}

/// The low 21 bits of `x` spread to every third bit of a `u64`.
fn spread(x: u64) -> u64 {
    let mut x = x & 0x1f_ffff;
    x = (x | x << 32) & 0x001f_0000_0000_ffff;
    x = (x | x << 16) & 0x001f_0000_ff00_00ff;
    x = (x | x << 8) & 0x100f_00f0_0f00_f00f;
    x = (x | x << 4) & 0x10c3_0c30_c30c_30c3;
    (x | x << 2) & 0x1249_2492_4924_9249
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_interleave_the_cells_bits() {
        // Bit by bit against a plain interleave.
        for x in [0u64, 1, 2, 5, 0x1f_ffff, 0x15_5555, 0x0a_aaaa, 123_456] {
            let mut want = 0u64;
            for b in 0..21 {
                want |= ((x >> b) & 1) << (3 * b);
            }
            assert_eq!(spread(x), want, "{x:#x}");
        }
        let g = MortonGrid::new([0.0; 3], [CELLS - 1.0; 3]);
        assert_eq!(g.key([1.0, 0.0, 0.0]), 1);
        assert_eq!(g.key([0.0, 1.0, 0.0]), 2);
        assert_eq!(g.key([0.0, 0.0, 1.0]), 4);
        assert_eq!(g.key([CELLS - 1.0; 3]), (1 << 63) - 1);
        // Outside the box: clamped to its cells.
        assert_eq!(g.key([-5.0, 2.0 * CELLS, 0.0]), g.key([0.0, CELLS - 1.0, 0.0]));
    }
}
