//! Shared by both dimensions: the mover, the per-item answer, the drivers over the soup and
//! the quadratic of a corner.

use super::error::{check_ball, check_ellipsoid, SweepError};
use super::trace::{Probe, SweepTest, SweepVerdict};
use super::{BackFaces, SweepFeature, SweepHit, SweepOutcome};
use crate::math::{Pose, Real, Rotation};
use crate::query::cast::numeric::unit_or_safe;
use crate::query::contact::output::Contact;
use crate::query::Space;
use crate::shape::Ellipsoid;

/// The rounding band, in units of `ε` times the local size (see [`band`]).
const BAND: f64 = 64.0;

/// The rounding band for local size `size`: distances within it of the radius count as
/// touching.
#[inline(always)]
pub(super) fn band<R: Real>(size: R) -> R {
    R::from_f64(BAND) * R::EPSILON * size
}

/// The cosine below which a motion counts as going along a flat surface rather than into
/// it (the direction of a face normal is good to about `ε` times its condition number
/// `cond`, at least 1).
#[inline(always)]
pub(super) fn flat_slack<R: Real>(cond: R) -> R {
    R::from_f64(BAND) * R::EPSILON * cond
}

/// The moving sphere, in the frame the items are in (the world for a sphere, the unit
/// sphere's space for an ellipsoid).
#[derive(Clone, Copy, Debug)]
pub struct Mover<V: Space> {
    pub center: V,
    pub radius: V::Real,
    pub disp: V,
    /// `disp · disp`.
    pub dd: V::Real,
    /// `|disp|`.
    pub dlen: V::Real,
    pub cull: bool,
}

impl<V: Space> Mover<V> {
    fn new(center: V, radius: V::Real, disp: V, back_faces: BackFaces) -> Self {
        let dd = disp.dot(disp);
        Self { center, radius, disp, dd, dlen: dd.sqrt(), cull: back_faces == BackFaces::Cull }
    }

    /// The same motion with lengths multiplied by `k` (about the item's corner: the centre
    /// is not used by the per-item tests, which take differences from the world values).
    #[inline]
    pub fn scaled(&self, k: V::Real) -> Self {
        Self {
            center: self.center,
            radius: self.radius * k,
            disp: self.disp * k,
            dd: self.dd * k * k,
            dlen: self.dlen * k,
            cull: self.cull,
        }
    }

    /// Whether a contact with outward unit normal `n` (from the item towards the centre) on
    /// a curved feature (an edge, a corner) is being approached rather than grazed: the
    /// path would go deeper than the band `tol` into it (cosine squared above `2 tol / r`).
    #[inline]
    pub fn enters_curved(&self, n: V, tol: V::Real) -> bool {
        let dn = self.disp.dot(n);
        dn < V::Real::ZERO && dn * dn * self.radius > V::Real::TWO * tol * self.dd
    }
}

/// What one triangle (segment) says about the sweep, in the mover's frame.
#[derive(Clone, Copy, Debug)]
pub enum Item<V: Space> {
    /// No contact within the time limit given.
    Nothing,
    /// Overlapping at the start by `depth` (> the band), normal from the item to the centre.
    Within { depth: V::Real, normal: V },
    /// The earliest contact, within the limit.
    Hit { toi: V::Real, point: V, normal: V, feature: SweepFeature },
}

impl<V: Space> Item<V> {
    /// An item computed with lengths multiplied by `1 / inv_k`, back in the caller's units
    /// (points are always computed in the caller's units).
    #[inline]
    pub fn unscaled(self, inv_k: V::Real) -> Self {
        match self {
            Self::Within { depth, normal } => Self::Within { depth: depth * inv_k, normal },
            other => other,
        }
    }
}

/// A power of two close to `1 / size` (1 for a size that is not positive and finite): a
/// scale that brings the numbers of one item near 1 without rounding anything.
#[inline]
pub(super) fn unit_scale<R: Real>(size: R) -> R {
    let x = size.to_f64();
    if !(x > 0.0 && x.is_finite()) {
        return R::ONE;
    }
    // The binary exponent of x, kept where 2^-e is a normal number of f32 too.
    let e = ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    R::from_f64(2.0f64.powi((-e).clamp(-120, 120)))
}

/// An item of a soup a [`sweep`](super::sweep) goes through: a triangle `[V; 3]` in 3D, a segment
/// `[V; 2]` in 2D, its corners in the world frame.
///
/// Sealed (implemented for those two arrays only); its methods are the per-item tests.
pub trait SoupItem<V: Space>: Copy {
    #[doc(hidden)]
    /// The corners' component-wise minimum and maximum.
    fn bounds(&self) -> (V, V);
    #[doc(hidden)]
    /// Every corner finite.
    fn is_finite(&self) -> bool;
    #[doc(hidden)]
    /// The corners.
    fn corners(&self) -> &[V];
    #[doc(hidden)]
    /// The item with `f` applied to each corner.
    fn map(&self, f: impl Fn(V) -> V) -> Self;
    #[doc(hidden)]
    /// The earliest contact of the mover with this item at a time `<= limit` (a negative
    /// limit asks only whether it overlaps at the start), each test reported to `probe`.
    fn sweep<P: Probe<V>>(&self, mover: &Mover<V>, limit: V::Real, probe: &mut P) -> Item<V>;
    #[doc(hidden)]
    /// The world contact between the ellipsoid at `pose` and this item (world frame).
    fn contact(&self, ellipsoid: &Ellipsoid<V>, pose: &Pose<V>) -> Option<Contact<V>>;
}

/// The earliest corner contact: the centre `vertex + m + t d` reaching distance `r` from
/// the corner, given `m` (centre minus corner), `|m × d|²` (computed by the caller, exactly
/// for its dimension: this is what keeps grazing roots) and the band `tol`. `None` when
/// the path moves away, starts inside, or only grazes the corner within the band.
///
/// Stable form: with `b = m · d` and the reduced discriminant `h = r² |d|² - |m × d|²`, the
/// entry root `(-b - √h) / |d|²` is computed as `(|m|² - r²) / (√h - b)`, free of
/// cancellation since `b < 0` there.
/// The entry is tagged [`Root::Graze`] when the path goes no deeper than the band: then it
/// counts only if the path then sinks deeper into the item's face.
#[inline]
pub(super) fn corner_toi<V: Space>(
    m: V,
    mover: &Mover<V>,
    cross2: V::Real,
    tol: V::Real,
) -> Option<Root<V::Real>> {
    let zero = V::Real::ZERO;
    let b = m.dot(mover.disp);
    let r = mover.radius;
    let c = m.dot(m) - r * r;
    let h = r * r * mover.dd - cross2;
    if !(b < zero && c > zero && h >= zero) {
        return None;
    }
    let t = c / (h.sqrt() - b);
    Some(if h > V::Real::TWO * r * tol * mover.dd { Root::Entry(t) } else { Root::Graze(t) })
}

/// A root of a curved feature's test: a path entering deeper than the band, or one that
/// only grazes it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Root<R> {
    Entry(R),
    Graze(R),
}

/// The times `t` in `[lo, hi]` where `a + b t >= 0`, narrowed in place: the linear
/// constraints that carve out where a path is over a face (`false` once empty).
#[inline]
pub(super) fn narrow<R: Real>(lo: &mut R, hi: &mut R, a: R, b: R) -> bool {
    if b > R::ZERO {
        *lo = lo.max(-a / b);
    } else if b < R::ZERO {
        *hi = hi.min(-a / b);
    } else if a < R::ZERO {
        return false;
    }
    *lo <= *hi
}

/// Whether the height `s0 + sd t` of a path over a face's plane is within `level` of it
/// (strictly) at some time in `[lo, hi]`, narrowing the interval to those times.
#[inline]
pub(super) fn near_plane<R: Real>(lo: &mut R, hi: &mut R, s0: R, sd: R, level: R) -> bool {
    if sd == R::ZERO {
        return s0.abs() < level && *lo <= *hi;
    }
    let (t1, t2) = ((-level - s0) / sd, (level - s0) / sd);
    *lo = lo.max(t1.min(t2));
    *hi = hi.min(t1.max(t2));
    *lo < *hi
}

/// The largest absolute component.
#[inline(always)]
pub(super) fn max_abs<V: Space>(v: V) -> V::Real {
    v.abs_elem().max_component()
}

/// The swept box of a sphere from `center` over `disp * limit`, grown by `grow`.
#[inline]
fn swept_box<V: Space>(center: V, disp: V, limit: V::Real, grow: V) -> (V, V) {
    let end = center + disp * limit;
    (center.min_elem(end) - grow, center.max_elem(end) + grow)
}

/// Whether the boxes overlap. Without short circuits: one predictable branch per item,
/// where a branch per axis is mispredicted about as often as it is taken.
#[inline(always)]
fn boxes_overlap<V: Space>(lo: V, hi: V, (tlo, thi): (V, V)) -> bool {
    let mut ok = true;
    for i in 0..V::DIM {
        ok &= (tlo[i] <= hi[i]) & (thi[i] >= lo[i]);
    }
    ok
}

/// An overlap at the start: the item, how deep (larger is deeper), and the answer.
#[derive(Clone, Copy)]
struct Overlap<V: Space> {
    index: usize,
    depth: V::Real,
    distance: V::Real,
    normal: V,
}

/// What the drivers collect: the earliest hit and the deepest overlap.
struct Found<V: Space> {
    limit: V::Real,
    hit: Option<SweepHit<V>>,
    within: Option<Overlap<V>>,
}

impl<V: Space> Found<V> {
    fn new() -> Self {
        Self { limit: V::Real::ONE, hit: None, within: None }
    }

    /// The limit to ask the next item for: none once an overlap is known.
    fn ask(&self) -> V::Real {
        if self.within.is_some() {
            -V::Real::ONE
        } else {
            self.limit
        }
    }

    /// Keeps `hit` when earlier than the best so far (the lower index on a tie); `true`
    /// when kept.
    fn offer(&mut self, hit: SweepHit<V>) -> bool {
        let better = match self.hit {
            None => hit.toi <= self.limit,
            Some(_) => hit.toi < self.limit,
        };
        let finite = hit.point.is_finite_vec() && hit.normal.is_finite_vec();
        if better && finite && hit.toi >= V::Real::ZERO {
            self.limit = hit.toi;
            self.hit = Some(hit);
            return true;
        }
        false
    }

    fn offer_within(&mut self, o: Overlap<V>) {
        if !(o.depth.is_finite() && o.distance.is_finite() && o.normal.is_finite_vec()) {
            return;
        }
        if self.within.is_none_or(|w| o.depth > w.depth) {
            self.within = Some(o);
        }
    }

    fn outcome(self) -> SweepOutcome<V> {
        match (self.within, self.hit) {
            (Some(o), _) => {
                SweepOutcome::StartedWithin { index: o.index, distance: o.distance, normal: o.normal }
            }
            (None, Some(hit)) => SweepOutcome::Hit(hit),
            (None, None) => SweepOutcome::Miss,
        }
    }
}

/// Where a sweep's items come from: a slice scanned with a shrinking box, or a composite's
/// hierarchy walked near to far.
pub(crate) trait Candidates<V: Space, T> {
    /// Offers items to `offer` as `(index, item)`, the item in the frame of the sweep.
    /// `offer` returns the new time limit (a fraction of the displacement) when the item
    /// was kept as the earliest hit or as an overlap at the start (then 0): items whose
    /// boxes the mover cannot reach before that time may be skipped. `reach` is how far
    /// from the centre's path, per axis, the mover extends (radius plus rounding slack).
    fn visit(self, center: V, disp: V, reach: V, offer: impl FnMut(usize, T) -> Option<V::Real>);
}

/// A slice of items: every item whose box meets the mover's swept box, which shrinks to
/// the earliest hit so far.
struct Slice<'a, T>(&'a [T]);

impl<V: Space, T: SoupItem<V>> Candidates<V, T> for Slice<'_, T> {
    fn visit(self, center: V, disp: V, reach: V, mut offer: impl FnMut(usize, T) -> Option<V::Real>) {
        let (mut lo, mut hi) = swept_box(center, disp, V::Real::ONE, reach);
        for (index, item) in self.0.iter().enumerate() {
            if !boxes_overlap(lo, hi, item.bounds()) {
                continue;
            }
            if let Some(t) = offer(index, *item) {
                (lo, hi) = swept_box(center, disp, t, reach);
            }
        }
    }
}

/// The sphere (circle) against a soup, in the world frame.
pub(super) fn sweep_ball<V: Space, T: SoupItem<V>, P: Probe<V>>(
    center: V,
    radius: V::Real,
    disp: V,
    items: &[T],
    back_faces: BackFaces,
    probe: &mut P,
) -> Result<SweepOutcome<V>, SweepError> {
    check_ball(center, radius, disp)?;
    check_soup(items)?;
    Ok(drive_ball(center, radius, disp, back_faces, Slice(items), probe))
}

/// The sphere (circle) against the items `candidates` gives, all in one frame; the mover
/// is valid (see `check_ball`) and so are the items. Each item's tests go to `probe`.
pub(crate) fn drive_ball<V: Space, T: SoupItem<V>, P: Probe<V>>(
    center: V,
    radius: V::Real,
    disp: V,
    back_faces: BackFaces,
    candidates: impl Candidates<V, T>,
    probe: &mut P,
) -> SweepOutcome<V> {
    let mover = Mover::new(center, radius, disp, back_faces);
    // The box must keep everything within the radius of the path: grown by a few
    // roundings of the numbers it is made of.
    let slack = V::Real::from_f64(4.0) * V::Real::EPSILON * (max_abs(center) + max_abs(disp) + radius);
    let grow = V::splat(radius + slack);
    let mut found = Found::new();
    candidates.visit(center, disp, grow, |index, item| {
        let answer = item.sweep(&mover, found.ask(), probe);
        probe.item_done(index, |p| p);
        match answer {
            Item::Nothing => None,
            Item::Within { depth, normal } => {
                found.offer_within(Overlap { index, depth, distance: -depth, normal });
                Some(V::Real::ZERO)
            }
            Item::Hit { toi, point, normal, feature } => {
                found.offer(SweepHit { toi, point, normal, feature, index }).then_some(toi)
            }
        }
    });
    found.outcome()
}

/// The ellipsoid (ellipse) of semi-axes `radii` at `pose` against a soup: a unit sphere
/// swept in the space `x' = diag(1 / radii) Rᵀ (x - centre)`.
pub(super) fn sweep_scaled<V: Space, T: SoupItem<V>, P: Probe<V>>(
    radii: V,
    pose: &Pose<V>,
    disp: V,
    items: &[T],
    back_faces: BackFaces,
    probe: &mut P,
) -> Result<SweepOutcome<V>, SweepError> {
    check_ellipsoid(radii, pose, disp)?;
    check_soup(items)?;
    drive_scaled(radii, pose, disp, back_faces, Slice(items), probe)
}

/// The ellipsoid (ellipse) against the items `candidates` gives, all in one frame; the
/// mover is valid (see `check_ellipsoid`) and so are the items. Each item's tests go to
/// `probe`, their points placed back in the world.
pub(crate) fn drive_scaled<V: Space, T: SoupItem<V>, P: Probe<V>>(
    radii: V,
    pose: &Pose<V>,
    disp: V,
    back_faces: BackFaces,
    candidates: impl Candidates<V, T>,
    probe: &mut P,
) -> Result<SweepOutcome<V>, SweepError> {
    let centre = pose.translation;
    let rot = pose.rotation.applied();
    let inv = (0..V::DIM).fold(V::ZERO, |acc, i| acc + V::axis(i) * (V::Real::ONE / radii[i]));
    if !inv.is_finite_vec() {
        // A semi-axis so small that its reciprocal overflows (below ~1e-38 in f32).
        let axis = (0..V::DIM).find(|&i| !inv[i].is_finite()).unwrap_or(0);
        return Err(SweepError::BadSemiAxis { axis, value: radii[axis].to_f64() });
    }
    let to_local = |x: V| <V::Rotation as Rotation<V>>::apply_inverse(&rot, x - centre).mul_elem(inv);
    // The world normal of the surface for a unit-sphere normal `n'`: R diag(1 / radii) n'.
    let normal_to_world = |n: V| <V::Rotation as Rotation<V>>::apply(&rot, n.mul_elem(inv));
    let to_world = |x: V| <V::Rotation as Rotation<V>>::apply(&rot, x.mul_elem(radii)) + centre;
    let mover = Mover::new(
        V::ZERO,
        V::Real::ONE,
        <V::Rotation as Rotation<V>>::apply_inverse(&rot, disp).mul_elem(inv),
        back_faces,
    );
    // The half-extents of the ellipsoid's world box: per world axis, the length of the
    // row of R diag(radii).
    let mut ext2 = V::ZERO;
    for j in 0..V::DIM {
        let col = <V::Rotation as Rotation<V>>::apply(&rot, V::axis(j)) * radii[j];
        ext2 += col.mul_elem(col);
    }
    let ext = V::from_f64_array({
        let e = ext2.to_f64_array();
        [e[0].sqrt(), e[1].sqrt(), e[2].sqrt()]
    });
    let slack =
        V::Real::from_f64(4.0) * V::Real::EPSILON * (max_abs(centre) + max_abs(disp) + max_abs(radii));
    let grow = ext + V::splat(slack);
    let ellipsoid = Ellipsoid { radii };
    let mut found = Found::new();
    candidates.visit(centre, disp, grow, |index, item: T| {
        let local = item.map(to_local);
        let answer = local.sweep(&mover, found.ask(), probe);
        probe.item_done(index, to_world);
        match answer {
            Item::Nothing => None,
            Item::Within { depth, normal } => {
                // The true world distance and normal; the depth in the unit sphere's space
                // only picked the item. Contact's normal goes from the ellipsoid to the item.
                let fallback = unit_or_safe(normal_to_world(normal), normal);
                let (distance, normal) = match item.contact(&ellipsoid, pose) {
                    Some(c) if c.distance < V::Real::ZERO => (c.distance, -c.normal),
                    _ => (-depth * -(-radii).max_component(), fallback),
                };
                found.offer_within(Overlap { index, depth: -distance, distance, normal });
                Some(V::Real::ZERO)
            }
            Item::Hit { toi, point, normal, feature } => {
                let n = unit_or_safe(normal_to_world(normal), normal);
                found
                    .offer(SweepHit { toi, point: to_world(point), normal: n, feature, index })
                    .then_some(toi)
            }
        }
    });
    Ok(found.outcome())
}

/// The start of the sweep against one item whose closest point to the centre is `point`,
/// `gap` = centre minus that point (computed relative to the feature), on `feature`:
/// `Some` when that decides the item (an overlap, a touch, or a touch moving along or
/// away), `None` when the item is farther than the band and the roots must say. `fallback`
/// is the normal to use when the centre lies on the item; `cond` the condition number of
/// the face normal (for the flat rule).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(super) fn start_contact<V: Space>(
    mover: &Mover<V>,
    gap: V,
    point: V,
    feature: SweepFeature,
    fallback: V,
    tol: V::Real,
    cond: V::Real,
    limit: V::Real,
) -> Option<Item<V>> {
    let dist = gap.length();
    let r = mover.radius;
    if dist < r - tol {
        return Some(Item::Within { depth: r - dist, normal: unit_or_safe(gap, fallback) });
    }
    let near = dist <= r + tol;
    if !near {
        return None;
    }
    // Touching: a hit at 0 only when moving into it beyond the band.
    let normal = unit_or_safe(gap, fallback);
    let enters = match feature {
        SweepFeature::Face => mover.disp.dot(normal) < -flat_slack(cond) * mover.dlen,
        SweepFeature::Edge | SweepFeature::Vertex => mover.enters_curved(normal, tol),
    };
    if enters && limit >= V::Real::ZERO {
        Some(Item::Hit { toi: V::Real::ZERO, point, normal, feature })
    } else {
        Some(Item::Nothing)
    }
}

/// Reports what [`start_contact`] decided to `probe` (`point`: the item's closest point).
#[inline(always)]
pub(super) fn probe_start<V: Space, P: Probe<V>>(probe: &mut P, item: &Item<V>, point: V) {
    let (verdict, toi) = match *item {
        Item::Within { .. } => (SweepVerdict::Overlapping, None),
        Item::Hit { toi, .. } => (SweepVerdict::Hit, Some(toi)),
        Item::Nothing => (SweepVerdict::Grazing, None),
    };
    probe.tried(SweepTest::Start, verdict, toi, Some(point));
}

/// The first corner of the soup that is not finite, as an error. One pass over the soup
/// before any sweeping (a NaN corner would otherwise fail the box test and be skipped
/// silently).
fn check_soup<V: Space, T: SoupItem<V>>(items: &[T]) -> Result<(), SweepError> {
    // Branch-free first: `x * 0` is 0 for a finite x and NaN for NaN or ±∞, so the sum is
    // finite exactly when every corner is. (A per-corner test with early exits, or a single
    // accumulator, cost as much as the sweep itself on the bench's soup.)
    // One accumulator per corner: independent chains of additions, not one long one.
    let mut acc = [V::ZERO; 3];
    for item in items {
        for (slot, &p) in acc.iter_mut().zip(item.corners()) {
            *slot += p * V::Real::ZERO;
        }
    }
    if (acc[0] + acc[1] + acc[2]).is_finite_vec() {
        return Ok(());
    }
    match items.iter().position(|item| !item.is_finite()) {
        None => Ok(()),
        Some(index) => {
            let corner = items[index].corners().iter().position(|p| !p.is_finite_vec()).unwrap_or(0);
            Err(SweepError::NonFiniteCorner { index, corner })
        }
    }
}
