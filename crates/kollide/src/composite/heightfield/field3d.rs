//! Heightfield terrain (3D): a grid of heights, two triangles per cell, found by walking the
//! grid instead of searching a tree.

use super::error::HeightFieldError;
use super::walk::offer_in_order;
use crate::math::{above, inverse_direction, Aabb, Real, Vector3};
use crate::query::Space;
use crate::shape::Triangle;

/// Cells per side of the blocks whose height ranges prune the nearest-part search.
const BLOCK: usize = 16;

/// A terrain in its **local frame**: `heights[r][c]` is the sample in row `r` (along z) and
/// column `c` (along x); the grid spans x in `[-sx/2, sx/2]` and z in `[-sz/2, sz/2]` evenly,
/// with `y = h * sy` (`scale = (sx, sy, sz)`). Cell `(r, c)` holds two triangles,
/// `(p[r][c], p[r+1][c], p[r+1][c+1])` (number `2 (r (cols-1) + c)`) and
/// `(p[r][c], p[r+1][c+1], p[r][c+1])` (the next number), whose normals point up.
///
/// The grid is its own acceleration structure: rays walk the cells they cross in order
/// (Amanatides and Woo's traversal, each cell pruned by its height range), boxes visit the
/// cells under them, so a terrain costs its samples and little more. Queries go through
/// the composite functions ([`crate::composite::ray_cast`], ...), the triangles answered by
/// the convex queries, with the grid's adjacency keeping contacts off internal edges.
///
/// ```
/// use kollide::composite::{self, HeightField};
/// use kollide::query::cast::{Ray, RayOutcome};
/// use kollide::math::{DPose3, DVec3};
/// // 3x3 samples over 4 x 4 units, a bump of height 1 in the middle.
/// let field = HeightField::new(vec![vec![0.0, 0.0, 0.0], vec![0.0, 1.0, 0.0], vec![0.0, 0.0, 0.0]], DVec3::new(4.0, 1.0, 4.0));
/// let hit = composite::ray_cast(&field, &DPose3::IDENTITY, &Ray::new(DVec3::new(0.0, 5.0, 0.0), DVec3::NEG_Y), 10.0).unwrap();
/// let RayOutcome::Hit(h) = hit.value else { panic!() };
/// assert!((h.toi - 4.0).abs() < 1e-12);
/// ```
#[derive(Clone, Debug)]
pub struct HeightField<V: Vector3 + Space> {
    /// Row-major samples, unscaled.
    heights: Vec<V::Real>,
    rows: usize,
    cols: usize,
    scale: V,
    /// The cell size along x and z.
    cell: (V::Real, V::Real),
    aabb: Aabb<V>,
    /// Per block of cells: the least and greatest scaled height.
    blocks: Vec<(V::Real, V::Real)>,
    block_cols: usize,
}

impl<V: Vector3 + Space> HeightField<V> {
    /// The field of `heights[r][c]` (rows along z, columns along x) scaled by `scale`.
    ///
    /// # Errors
    /// [`HeightFieldError`] naming the bad value: fewer than 2x2 samples, ragged rows, a
    /// non-finite sample, a scale component that is not finite and positive.
    pub fn try_new(heights: Vec<Vec<V::Real>>, scale: V) -> Result<Self, HeightFieldError> {
        let rows = heights.len();
        let cols = heights.first().map_or(0, Vec::len);
        for (row, h) in heights.iter().enumerate() {
            if h.len() != cols {
                return Err(HeightFieldError::Ragged { row, len: h.len(), expected: cols });
            }
        }
        Self::try_from_grid(rows, cols, heights.into_iter().flatten().collect(), scale)
    }

    /// The field of `rows x cols` samples given row after row (`samples[r * cols + c]`).
    ///
    /// # Errors
    /// As [`try_new`](Self::try_new); a sample count other than `rows * cols` is reported
    /// as a ragged last row.
    pub fn try_from_grid(
        rows: usize,
        cols: usize,
        samples: Vec<V::Real>,
        scale: V,
    ) -> Result<Self, HeightFieldError> {
        if rows < 2 || cols < 2 {
            return Err(HeightFieldError::TooSmall { rows, cols });
        }
        if samples.len() != rows * cols {
            let row = samples.len() / cols;
            return Err(HeightFieldError::Ragged { row, len: samples.len() % cols, expected: cols });
        }
        if 2 * (rows - 1) * (cols - 1) >= u32::MAX as usize {
            return Err(HeightFieldError::TooLarge { rows, cols });
        }
        if let Some(k) = samples.iter().position(|h| !h.is_finite()) {
            return Err(HeightFieldError::NonFiniteHeight { row: k / cols, col: k % cols });
        }
        for axis in 0..3 {
            let s = scale[axis];
            if !(s.is_finite() && above(s, V::Real::ZERO)) {
                return Err(HeightFieldError::BadScale { axis, value: s.to_f64() });
            }
        }
        let cell = (scale[0] / V::Real::from_usize(cols - 1), scale[2] / V::Real::from_usize(rows - 1));
        let mut field = Self {
            heights: samples,
            rows,
            cols,
            scale,
            cell,
            aabb: Aabb::empty(),
            blocks: Vec::new(),
            block_cols: 0,
        };
        field.summarise();
        Ok(field)
    }

    /// The field of `heights`.
    ///
    /// # Panics
    /// With the message of [`try_new`](Self::try_new)'s error.
    #[must_use]
    pub fn new(heights: Vec<Vec<V::Real>>, scale: V) -> Self {
        Self::try_new(heights, scale).unwrap_or_else(|e| panic!("HeightField::new: {e}"))
    }

    /// The box and the blocks' height ranges.
    fn summarise(&mut self) {
        let (cr, cc) = (self.rows - 1, self.cols - 1);
        let (br, bc) = (cr.div_ceil(BLOCK), cc.div_ceil(BLOCK));
        let mut blocks = vec![(V::Real::INFINITY, -V::Real::INFINITY); br * bc];
        for r in 0..self.rows {
            for c in 0..self.cols {
                let y = self.heights[r * self.cols + c] * self.scale[1];
                // A sample borders up to four cells, possibly in different blocks.
                for (rr, ccell) in [
                    (r, c),
                    (r.wrapping_sub(1), c),
                    (r, c.wrapping_sub(1)),
                    (r.wrapping_sub(1), c.wrapping_sub(1)),
                ] {
                    if rr < cr && ccell < cc {
                        let b = &mut blocks[(rr / BLOCK) * bc + ccell / BLOCK];
                        b.0 = b.0.min(y);
                        b.1 = b.1.max(y);
                    }
                }
            }
        }
        let lo = blocks.iter().fold(V::Real::INFINITY, |m, b| m.min(b.0));
        let hi = blocks.iter().fold(-V::Real::INFINITY, |m, b| m.max(b.1));
        let half = self.scale * V::Real::HALF;
        self.aabb = Aabb::new(V::new3(-half[0], lo, -half[2]), V::new3(half[0], hi, half[2]));
        self.blocks = blocks;
        self.block_cols = bc;
    }

    /// Samples per column (along z).
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Samples per row (along x).
    #[must_use]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The scale `(sx, sy, sz)`.
    #[must_use]
    pub fn scale(&self) -> V {
        self.scale
    }

    /// The unscaled sample in row `r`, column `c`.
    #[must_use]
    pub fn height(&self, r: usize, c: usize) -> V::Real {
        self.heights[r * self.cols + c]
    }

    /// The grid point of row `r`, column `c`, in the local frame.
    #[inline]
    #[must_use]
    pub fn point(&self, r: usize, c: usize) -> V {
        let half = self.scale * V::Real::HALF;
        V::new3(
            V::Real::from_usize(c) * self.cell.0 - half[0],
            self.heights[r * self.cols + c] * self.scale[1],
            V::Real::from_usize(r) * self.cell.1 - half[2],
        )
    }

    /// How many triangles: `2 (rows - 1) (cols - 1)`.
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        2 * (self.rows - 1) * (self.cols - 1)
    }

    /// The cell `(r, c)` of triangle `i`.
    #[inline]
    #[must_use]
    pub fn cell_of_triangle(&self, i: u32) -> (usize, usize) {
        let cell = i as usize / 2;
        (cell / (self.cols - 1), cell % (self.cols - 1))
    }

    /// Triangle `i` (see the type's docs for the numbering and corner order).
    #[inline]
    #[must_use]
    pub fn triangle(&self, i: u32) -> Triangle<V> {
        let (r, c) = self.cell_of_triangle(i);
        let a = self.point(r, c);
        let c2 = self.point(r + 1, c + 1);
        if i % 2 == 0 {
            Triangle { a, b: self.point(r + 1, c), c: c2 }
        } else {
            Triangle { a, b: c2, c: self.point(r, c + 1) }
        }
    }

    /// The height of the surface over the point `(x, z)` of the local frame (the `y` of the
    /// triangle above or below it), or `None` outside the grid's footprint.
    ///
    /// ```
    /// use kollide::composite::HeightField;
    /// use kollide::math::DVec3;
    /// // A ramp rising along x from 0 to 2 over the 4 units across.
    /// let ramp = HeightField::new(vec![vec![0.0, 1.0, 2.0], vec![0.0, 1.0, 2.0]], DVec3::new(4.0, 1.0, 2.0));
    /// assert!((ramp.surface_height(1.0, 0.3).unwrap() - 1.5).abs() < 1e-12);
    /// assert_eq!(ramp.surface_height(2.5, 0.0), None);
    /// ```
    #[must_use]
    pub fn surface_height(&self, x: V::Real, z: V::Real) -> Option<V::Real> {
        let half = self.scale * V::Real::HALF;
        let (u, w) = ((x + half[0]) / self.cell.0, (z + half[2]) / self.cell.1);
        let (cols, rows) = (V::Real::from_usize(self.cols - 1), V::Real::from_usize(self.rows - 1));
        if !(u >= V::Real::ZERO && u <= cols && w >= V::Real::ZERO && w <= rows) {
            return None;
        }
        let cell = |x: V::Real, n: V::Real| x.to_f64().floor().min(n.to_f64() - 1.0) as usize;
        let (c, r) = (cell(u, cols), cell(w, rows));
        // Within the cell: `fu` along x, `fw` along z, both in [0, 1]. The cell's diagonal
        // runs from (r, c) to (r + 1, c + 1): below it (fw >= fu) the triangle with
        // (r + 1, c), above it the one with (r, c + 1).
        let (fu, fw) = (u - V::Real::from_usize(c), w - V::Real::from_usize(r));
        let y = |r: usize, c: usize| self.heights[r * self.cols + c] * self.scale[1];
        let (h00, h11) = (y(r, c), y(r + 1, c + 1));
        Some(if fw >= fu {
            h00 + (y(r + 1, c) - h00) * fw + (h11 - y(r + 1, c)) * fu
        } else {
            h00 + (y(r, c + 1) - h00) * fu + (h11 - y(r, c + 1)) * fw
        })
    }

    /// The box of the whole field, in the local frame.
    #[must_use]
    pub fn local_aabb(&self) -> Aabb<V> {
        self.aabb
    }

    /// The least and greatest scaled height of cell `(r, c)`'s corners.
    #[inline]
    fn cell_range(&self, r: usize, c: usize) -> (V::Real, V::Real) {
        let s = self.scale[1];
        let k = r * self.cols + c;
        let h = [
            self.heights[k],
            self.heights[k + 1],
            self.heights[k + self.cols],
            self.heights[k + self.cols + 1],
        ];
        let lo = h.iter().fold(V::Real::INFINITY, |m, &x| m.min(x));
        let hi = h.iter().fold(-V::Real::INFINITY, |m, &x| m.max(x));
        // A negative scale is refused: the order of the range is kept.
        (lo * s, hi * s)
    }

    /// The box of triangle `i`.
    #[inline]
    fn triangle_box(&self, i: u32) -> Aabb<V> {
        let t = self.triangle(i);
        Aabb::from_points([t.a, t.b, t.c])
    }

    /// The range of cell indices along one axis whose cells may meet `[lo, hi]`: one cell
    /// wider on each side than the arithmetic says, for rounding (callers test the
    /// triangles' boxes). `None` when the range misses the grid.
    fn index_range(
        lo: V::Real,
        hi: V::Real,
        half: V::Real,
        size: V::Real,
        cells: usize,
    ) -> Option<(usize, usize)> {
        let a = ((lo + half) / size).to_f64().floor() - 1.0;
        let b = ((hi + half) / size).to_f64().floor() + 1.0;
        let last = (cells - 1) as f64;
        if !(b >= 0.0 && a <= last) {
            return None;
        }
        Some((a.max(0.0) as usize, b.min(last) as usize))
    }

    /// Triangles whose boxes meet `aabb` (local frame): those of the cells under it.
    /// `f` returns false to stop; the result is false when stopped.
    pub fn visit_cells_in(&self, aabb: &Aabb<V>, mut f: impl FnMut(u32) -> bool) -> bool {
        if !aabb.intersects(&self.aabb) {
            return true;
        }
        let half = self.scale * V::Real::HALF;
        let (Some((c0, c1)), Some((r0, r1))) = (
            Self::index_range(aabb.min[0], aabb.max[0], half[0], self.cell.0, self.cols - 1),
            Self::index_range(aabb.min[2], aabb.max[2], half[2], self.cell.1, self.rows - 1),
        ) else {
            return true;
        };
        for r in r0..=r1 {
            for c in c0..=c1 {
                let (lo, hi) = self.cell_range(r, c);
                if hi < aabb.min[1] || lo > aabb.max[1] {
                    continue;
                }
                let t = (2 * (r * (self.cols - 1) + c)) as u32;
                for i in [t, t + 1] {
                    if self.triangle_box(i).intersects(aabb) && !f(i) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The first hit along the ray `origin + t dir`, `t` in `[0, max_toi]` (local frame):
    /// the cells the ray crosses, in order (a 2D walk over x and z), each skipped when the
    /// ray's height over it misses its height range, its two triangles offered to
    /// `f(triangle, best)`, which returns the hit time when at or before `best`. The walk
    /// stops at the first cell left after a hit. Returns the best triangle and time.
    pub fn cast_ray(
        &self,
        origin: V,
        dir: V,
        max_toi: V::Real,
        mut f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        let zero = V::Real::ZERO;
        let inv = inverse_direction(dir);
        let (t0, t1) = self.aabb.ray_interval(origin, inv, max_toi)?;
        let half = self.scale * V::Real::HALF;
        let (cells_c, cells_r) = (self.cols - 1, self.rows - 1);
        let p = origin + dir * t0;
        let index = |x: V::Real, h: V::Real, size: V::Real, cells: usize| {
            (((x + h) / size).to_f64().floor().max(0.0) as usize).min(cells - 1)
        };
        let (mut c, mut r) =
            (index(p[0], half[0], self.cell.0, cells_c), index(p[2], half[2], self.cell.1, cells_r));
        // The time the ray crosses the next grid line along an axis, and the time between two.
        let setup = |k: usize, i: usize, h: V::Real, size: V::Real| -> (V::Real, V::Real, isize) {
            let d = dir[k];
            if d > zero {
                let next = V::Real::from_usize(i + 1) * size - h;
                ((next - origin[k]) / d, size / d, 1)
            } else if d < zero {
                let next = V::Real::from_usize(i) * size - h;
                ((next - origin[k]) / d, -size / d, -1)
            } else {
                (V::Real::INFINITY, V::Real::INFINITY, 0)
            }
        };
        let (mut tc, dc, sc) = setup(0, c, half[0], self.cell.0);
        let (mut tr, dr, sr) = setup(2, r, half[2], self.cell.1);
        let mut t_in = t0;
        let mut limit = max_toi;
        let mut best = None;
        let y_slack = V::Real::EPSILON
            * V::Real::from_usize(64)
            * (self.aabb.max[1].abs() + self.aabb.min[1].abs() + origin[1].abs() + V::Real::ONE);
        // Each step leaves a row or a column: the walk ends within rows + cols steps.
        for _ in 0..=(cells_c + cells_r + 2) {
            let t_out = tc.min(tr).min(t1);
            let (ya, yb) = (origin[1] + dir[1] * t_in, origin[1] + dir[1] * t_out);
            let (lo, hi) = self.cell_range(r, c);
            if ya.max(yb) >= lo - y_slack && ya.min(yb) <= hi + y_slack {
                let t = (2 * (r * cells_c + c)) as u32;
                for i in [t, t + 1] {
                    if let Some(hit) = f(i, limit) {
                        if hit <= limit {
                            limit = hit;
                            best = Some((i, hit));
                        }
                    }
                }
            }
            // A later cell is entered at t_out or later: nothing there beats a hit by then.
            if limit <= t_out || t_out >= t1 {
                break;
            }
            if tc < tr {
                if (sc < 0 && c == 0) || (sc > 0 && c + 1 == cells_c) {
                    break;
                }
                c = (c as isize + sc) as usize;
                t_in = tc;
                tc += dc;
            } else {
                if (sr < 0 && r == 0) || (sr > 0 && r + 1 == cells_r) || sr == 0 {
                    break;
                }
                r = (r as isize + sr) as usize;
                t_in = tr;
                tr += dr;
            }
        }
        best
    }

    /// The first hit of the box `aabb` moved by `t · motion`, `t` in `[0, max_toi]` (local
    /// frame), as [`cast_ray`](Self::cast_ray): the triangles whose boxes the moving box
    /// meets, offered in order of when it meets them.
    pub fn cast_aabb(
        &self,
        aabb: &Aabb<V>,
        motion: V,
        max_toi: V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        let inv = inverse_direction(motion);
        let he = aabb.half_extents();
        let centre = aabb.center();
        let grown = |b: &Aabb<V>| Aabb::new(b.min - he, b.max + he);
        // Clip the motion to when the box can meet the field at all.
        let (_, t_end) = grown(&self.aabb).ray_interval(centre, inv, max_toi)?;
        let swept = aabb.swept(motion * t_end);
        let mut found: Vec<(V::Real, u32)> = Vec::new();
        self.visit_cells_in(&swept, |i| {
            if let Some((t, _)) = grown(&self.triangle_box(i)).ray_interval(centre, inv, t_end) {
                found.push((t, i));
            }
            true
        });
        offer_in_order(found, max_toi, f)
    }

    /// A search for the triangle of least value, with the contract of
    /// [`Bvh::nearest`](crate::bvh::Bvh::nearest): blocks of 16 x 16 cells nearest first by
    /// `lower(block box)`, then their cells, skipped once their bound reaches the best value.
    pub fn nearest(
        &self,
        max: V::Real,
        mut lower: impl FnMut(&Aabb<V>) -> V::Real,
        mut f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        let half = self.scale * V::Real::HALF;
        let (cells_c, cells_r) = (self.cols - 1, self.rows - 1);
        let footprint = |r0: usize, r1: usize, c0: usize, c1: usize, lo: V::Real, hi: V::Real| {
            Aabb::new(
                V::new3(
                    V::Real::from_usize(c0) * self.cell.0 - half[0],
                    lo,
                    V::Real::from_usize(r0) * self.cell.1 - half[2],
                ),
                V::new3(
                    V::Real::from_usize(c1) * self.cell.0 - half[0],
                    hi,
                    V::Real::from_usize(r1) * self.cell.1 - half[2],
                ),
            )
        };
        let mut order: Vec<(V::Real, usize)> = (0..self.blocks.len())
            .map(|b| {
                let (br, bc) = (b / self.block_cols, b % self.block_cols);
                let (r0, c0) = (br * BLOCK, bc * BLOCK);
                let (r1, c1) = ((r0 + BLOCK).min(cells_r), (c0 + BLOCK).min(cells_c));
                let (lo, hi) = self.blocks[b];
                (lower(&footprint(r0, r1, c0, c1, lo, hi)), b)
            })
            .collect();
        order.sort_by(|a, b| a.0.to_f64().total_cmp(&b.0.to_f64()));
        let mut limit = max;
        let mut best: Option<(u32, V::Real)> = None;
        for (bound, b) in order {
            if bound >= limit {
                break;
            }
            let (br, bc) = (b / self.block_cols, b % self.block_cols);
            for r in br * BLOCK..((br + 1) * BLOCK).min(cells_r) {
                for c in bc * BLOCK..((bc + 1) * BLOCK).min(cells_c) {
                    let (lo, hi) = self.cell_range(r, c);
                    if lower(&footprint(r, r + 1, c, c + 1, lo, hi)) >= limit {
                        continue;
                    }
                    let t = (2 * (r * cells_c + c)) as u32;
                    for i in [t, t + 1] {
                        if let Some(v) = f(i, limit) {
                            if v < limit || best.is_none() && v <= limit {
                                limit = v;
                                best = Some((i, v));
                            }
                        }
                    }
                }
            }
        }
        best
    }

    /// Heap bytes held.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.heights.capacity() * core::mem::size_of::<V::Real>()
            + self.blocks.capacity() * 2 * core::mem::size_of::<V::Real>()
    }
}
