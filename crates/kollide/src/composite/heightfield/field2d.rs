//! Heightfield terrain in 2D: a line of heights, one segment per cell, walked along x.

use super::error::HeightFieldError;
use super::walk::offer_in_order;
use crate::math::{above, at_least, inverse_direction, Aabb, Real, Vector2};
use crate::query::Space;
use crate::shape::Segment;

/// Cells per block whose height ranges prune the nearest-part search.
const BLOCK: usize = 32;

/// A 2D terrain in its **local frame**: samples `heights[i]` spread evenly over x in
/// `[-sx/2, sx/2]` with `y = h * sy` (`scale = (sx, sy)`); segment `i` joins sample `i` to
/// sample `i + 1`. Rays walk the cells they cross in order of x.
///
/// ```
/// use kollide::composite::{self, HeightField2d};
/// use kollide::shape::Ball;
/// use kollide::math::{DPose2, DVec2};
/// let ground = HeightField2d::new(vec![0.0, 1.0, 0.0], DVec2::new(4.0, 1.0));
/// let d = composite::distance(&ground, &DPose2::IDENTITY, &Ball::new(0.5), &DPose2::from_translation(DVec2::new(0.0, 3.0)));
/// assert!((d.value.distance - 1.5).abs() < 1e-12);
/// ```
#[derive(Clone, Debug)]
pub struct HeightField2d<V: Vector2 + Space> {
    heights: Vec<V::Real>,
    scale: V,
    cell: V::Real,
    aabb: Aabb<V>,
    blocks: Vec<(V::Real, V::Real)>,
}

impl<V: Vector2 + Space> HeightField2d<V> {
    /// The line of `heights` scaled by `scale`.
    ///
    /// # Errors
    /// [`HeightFieldError`] naming the bad value: fewer than 2 samples, a non-finite sample,
    /// a scale component that is not finite and positive.
    pub fn try_new(heights: Vec<V::Real>, scale: V) -> Result<Self, HeightFieldError> {
        let n = heights.len();
        if n < 2 {
            return Err(HeightFieldError::TooSmall { rows: 1, cols: n });
        }
        if n >= u32::MAX as usize {
            return Err(HeightFieldError::TooLarge { rows: 1, cols: n });
        }
        if let Some(col) = heights.iter().position(|h| !h.is_finite()) {
            return Err(HeightFieldError::NonFiniteHeight { row: 0, col });
        }
        for axis in 0..2 {
            let s = scale[axis];
            if !(s.is_finite() && above(s, V::Real::ZERO)) {
                return Err(HeightFieldError::BadScale { axis, value: s.to_f64() });
            }
        }
        let cell = scale[0] / V::Real::from_usize(n - 1);
        let cells = n - 1;
        let blocks: Vec<(V::Real, V::Real)> = (0..cells.div_ceil(BLOCK))
            .map(|b| {
                let (i0, i1) = (b * BLOCK, ((b + 1) * BLOCK).min(cells));
                heights[i0..=i1].iter().fold((V::Real::INFINITY, -V::Real::INFINITY), |(lo, hi), &h| {
                    (lo.min(h * scale[1]), hi.max(h * scale[1]))
                })
            })
            .collect();
        let lo = blocks.iter().fold(V::Real::INFINITY, |m, b| m.min(b.0));
        let hi = blocks.iter().fold(-V::Real::INFINITY, |m, b| m.max(b.1));
        let half = scale[0] * V::Real::HALF;
        let aabb = Aabb::new(V::new2(-half, lo), V::new2(half, hi));
        Ok(Self { heights, scale, cell, aabb, blocks })
    }

    /// The line of `heights`.
    ///
    /// # Panics
    /// With the message of [`try_new`](Self::try_new)'s error.
    #[must_use]
    pub fn new(heights: Vec<V::Real>, scale: V) -> Self {
        Self::try_new(heights, scale).unwrap_or_else(|e| panic!("HeightField2d::new: {e}"))
    }

    /// The unscaled samples.
    #[must_use]
    pub fn heights(&self) -> &[V::Real] {
        &self.heights
    }

    /// The scale `(sx, sy)`.
    #[must_use]
    pub fn scale(&self) -> V {
        self.scale
    }

    /// Sample `i` as a point of the local frame.
    #[inline]
    #[must_use]
    pub fn point(&self, i: usize) -> V {
        V::new2(
            V::Real::from_usize(i) * self.cell - self.scale[0] * V::Real::HALF,
            self.heights[i] * self.scale[1],
        )
    }

    /// How many segments: `samples - 1`.
    #[must_use]
    pub fn segment_count(&self) -> usize {
        self.heights.len() - 1
    }

    /// Segment `i`, from sample `i` to sample `i + 1`.
    #[inline]
    #[must_use]
    pub fn segment(&self, i: u32) -> Segment<V> {
        Segment { a: self.point(i as usize), b: self.point(i as usize + 1) }
    }

    /// The box of the whole line, in the local frame.
    #[must_use]
    pub fn local_aabb(&self) -> Aabb<V> {
        self.aabb
    }

    fn segment_box(&self, i: u32) -> Aabb<V> {
        let s = self.segment(i);
        Aabb::from_points([s.a, s.b])
    }

    /// Segments whose boxes meet `aabb`; `f` returns false to stop.
    pub fn visit_cells_in(&self, aabb: &Aabb<V>, mut f: impl FnMut(u32) -> bool) -> bool {
        if !aabb.intersects(&self.aabb) {
            return true;
        }
        let half = self.scale[0] * V::Real::HALF;
        let last = (self.segment_count() - 1) as f64;
        let a = (((aabb.min[0] + half) / self.cell).to_f64().floor() - 1.0).max(0.0);
        let b = (((aabb.max[0] + half) / self.cell).to_f64().floor() + 1.0).min(last);
        if !at_least(b, a) {
            return true;
        }
        for i in a as u32..=b as u32 {
            if self.segment_box(i).intersects(aabb) && !f(i) {
                return false;
            }
        }
        true
    }

    /// The first hit along the ray (local frame), the cells it crosses in order of x, with
    /// the contract of [`HeightField::cast_ray`](crate::composite::HeightField::cast_ray).
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
        let half = self.scale[0] * V::Real::HALF;
        let cells = self.segment_count();
        let x0 = origin[0] + dir[0] * t0;
        let mut i = ((((x0 + half) / self.cell).to_f64().floor()).max(0.0) as usize).min(cells - 1);
        let (mut t_next, step_t, step) = if dir[0] > zero {
            ((V::Real::from_usize(i + 1) * self.cell - half - origin[0]) / dir[0], self.cell / dir[0], 1isize)
        } else if dir[0] < zero {
            ((V::Real::from_usize(i) * self.cell - half - origin[0]) / dir[0], -self.cell / dir[0], -1)
        } else {
            (V::Real::INFINITY, V::Real::INFINITY, 0)
        };
        let mut limit = max_toi;
        let mut best = None;
        for _ in 0..=cells {
            let t_out = t_next.min(t1);
            if let Some(hit) = f(i as u32, limit) {
                if hit <= limit {
                    limit = hit;
                    best = Some((i as u32, hit));
                }
            }
            if limit <= t_out || t_out >= t1 || step == 0 {
                break;
            }
            if (step < 0 && i == 0) || (step > 0 && i + 1 == cells) {
                break;
            }
            i = (i as isize + step) as usize;
            t_next += step_t;
        }
        best
    }

    /// The first hit of a moving box (local frame), the segments in order of when the box
    /// meets their boxes, with the contract of
    /// [`HeightField::cast_aabb`](crate::composite::HeightField::cast_aabb).
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
        let (_, t_end) = grown(&self.aabb).ray_interval(centre, inv, max_toi)?;
        let swept = aabb.swept(motion * t_end);
        let mut found: Vec<(V::Real, u32)> = Vec::new();
        self.visit_cells_in(&swept, |i| {
            if let Some((t, _)) = grown(&self.segment_box(i)).ray_interval(centre, inv, t_end) {
                found.push((t, i));
            }
            true
        });
        offer_in_order(found, max_toi, f)
    }

    /// A search for the segment of least value, with the contract of
    /// [`Bvh::nearest`](crate::bvh::Bvh::nearest): blocks nearest first, then segments.
    pub fn nearest(
        &self,
        max: V::Real,
        mut lower: impl FnMut(&Aabb<V>) -> V::Real,
        mut f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        let half = self.scale[0] * V::Real::HALF;
        let cells = self.segment_count();
        let x = |i: usize| V::Real::from_usize(i) * self.cell - half;
        let mut order: Vec<(V::Real, usize)> = (0..self.blocks.len())
            .map(|b| {
                let (i0, i1) = (b * BLOCK, ((b + 1) * BLOCK).min(cells));
                let (lo, hi) = self.blocks[b];
                (lower(&Aabb::new(V::new2(x(i0), lo), V::new2(x(i1), hi))), b)
            })
            .collect();
        order.sort_by(|a, b| a.0.to_f64().total_cmp(&b.0.to_f64()));
        let mut limit = max;
        let mut best: Option<(u32, V::Real)> = None;
        for (bound, b) in order {
            if bound >= limit {
                break;
            }
            for i in b * BLOCK..((b + 1) * BLOCK).min(cells) {
                if lower(&self.segment_box(i as u32)) >= limit {
                    continue;
                }
                if let Some(v) = f(i as u32, limit) {
                    if v < limit || best.is_none() && v <= limit {
                        limit = v;
                        best = Some((i as u32, v));
                    }
                }
            }
        }
        best
    }
}
