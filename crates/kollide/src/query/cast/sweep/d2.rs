//! The swept circle against segments (2D): the interior (the "face") and the end points.
//!
//! One segment at a time, in the frame of the mover (world for a circle, the unit circle's
//! space for an ellipse), every quantity relative to the feature it concerns (Fauerby 2003
//! and Ericson, *Real-Time Collision Detection*, 5.5, brought down to 2D).

use super::driver::{
    band, corner_toi, flat_slack, max_abs, narrow, near_plane, probe_start, start_contact, unit_scale, Item,
    Mover, Root, SoupItem,
};
use super::trace::{Probe, SweepTest, SweepVerdict};
use super::SweepFeature;
use crate::math::{Pose, Real, Vector2};
use crate::query::cast::numeric::unit_or_safe;
use crate::query::contact::contact;
use crate::query::contact::output::Contact;
use crate::query::Space;
use crate::shape::{Ellipsoid, Segment};

impl<V: Vector2 + Space> SoupItem<V> for [V; 2] {
    #[inline(always)]
    fn bounds(&self) -> (V, V) {
        let [a, b] = *self;
        (a.min_elem(b), a.max_elem(b))
    }
    #[inline(always)]
    fn is_finite(&self) -> bool {
        self[0].is_finite_vec() && self[1].is_finite_vec()
    }
    #[inline(always)]
    fn corners(&self) -> &[V] {
        self
    }
    #[inline(always)]
    fn map(&self, f: impl Fn(V) -> V) -> Self {
        [f(self[0]), f(self[1])]
    }
    #[inline]
    fn sweep<P: Probe<V>>(&self, mover: &Mover<V>, limit: V::Real, probe: &mut P) -> Item<V> {
        sweep_segment(self, mover, limit, probe)
    }
    fn contact(&self, ellipse: &Ellipsoid<V>, pose: &Pose<V>) -> Option<Contact<V>> {
        let [a, b] = *self;
        contact(ellipse, pose, &Segment { a, b }, &Pose::IDENTITY, V::Real::ZERO, None)
    }
}

/// The earliest contact of the mover with segment `seg` at a time in `[0, limit]`, in units
/// of the local size scaled by a power of two (as for triangles), each test reported to
/// `probe`.
fn sweep_segment<V: Vector2 + Space, P: Probe<V>>(
    seg: &[V; 2],
    mover: &Mover<V>,
    limit: V::Real,
    probe: &mut P,
) -> Item<V> {
    let zero = V::Real::ZERO;
    let one = V::Real::ONE;
    let [a, b] = *seg;
    let centre = mover.center;
    let (m, e) = (centre - a, b - a);
    let k = unit_scale(mover.radius + max_abs(m).max(max_abs(e)));
    let inv_k = one / k;
    let mv = mover.scaled(k);
    let r = mv.radius;
    let (m, ek) = (m * k, e * k);
    let ee = ek.dot(ek);
    let tol = band(r + max_abs(m).max(max_abs(ek)));
    // A segment of length 0 is a point: met by its corner only, never culled.
    let face = ee > zero && ee.is_finite();
    let (n, s0, sd) = if face {
        // The front: e turned a quarter turn clockwise.
        let n = -ek.perp2() / ee.sqrt();
        (n, n.dot(m), n.dot(mv.disp))
    } else {
        (V::ZERO, zero, zero)
    };
    if face && mv.cull && (s0 < zero || (mv.dd > zero && sd >= zero)) {
        probe.tried(SweepTest::Culled, SweepVerdict::Skipped, None, None);
        return Item::Nothing;
    }
    let side = if s0 >= zero { one } else { -one };
    let toward = -side * sd;
    if face && s0.abs() > r + tol {
        let reachable = toward > zero && s0.abs() - r - tol <= toward * limit;
        if !reachable {
            probe.tried(SweepTest::OutOfReach, SweepVerdict::Skipped, None, None);
            return Item::Nothing;
        }
    } else {
        let s = if face { (ek.dot(m) / ee).max(zero).min(one) } else { zero };
        let feature = if s > zero && s < one { SweepFeature::Face } else { SweepFeature::Vertex };
        let fallback = if face {
            if sd > zero {
                -n
            } else {
                n
            }
        } else if mv.dd > zero {
            unit_or_safe(-mv.disp, V::axis(1))
        } else {
            V::axis(1)
        };
        if let Some(item) = start_contact(&mv, m - ek * s, a + e * s, feature, fallback, tol, one, limit) {
            probe_start(probe, &item, a + e * s);
            return item.unscaled(inv_k);
        }
    }
    if limit < zero {
        return Item::Nothing;
    }
    if face && s0.abs() > r && toward > flat_slack(one) * mv.dlen {
        let t = (s0.abs() - r) / toward;
        let s = ek.dot(m + mv.disp * t) / ee;
        // Within the band beyond an end counts (the ends' circles refuse a path that only
        // grazes them; see the 3D face), the point then the end itself.
        let by = tol / ee.sqrt();
        let on = s >= -by && s <= one + by;
        if t <= limit && on {
            let s = s.max(zero).min(one);
            probe.tried(SweepTest::Face, SweepVerdict::Hit, Some(t), Some(a + e * s));
            return Item::Hit { toi: t, point: a + e * s, normal: n * side, feature: SweepFeature::Face };
        }
        let verdict = if on { SweepVerdict::TooLate } else { SweepVerdict::OffFeature };
        probe.tried(SweepTest::Face, verdict, Some(t), Some(a + e * s));
    } else if face {
        probe.tried(SweepTest::Face, SweepVerdict::NoRoot, None, None);
    }
    // The line missed (or the segment is a point): the end points' circles.
    let mut best: Option<(V::Real, V, V)> = None;
    let mut graze: Option<(V::Real, V, V)> = None;
    for (i, corner) in (0u8..).zip([a, b]) {
        let mc = (centre - corner) * k;
        let cross = mc.perp_dot2(mv.disp);
        let t = match corner_toi(mc, &mv, cross * cross, tol) {
            Some(Root::Entry(t)) => t,
            Some(Root::Graze(t)) => {
                if t >= zero && t <= limit && graze.is_none_or(|(gt, ..)| t < gt) {
                    graze = Some((t, corner, mc + mv.disp * t));
                }
                probe.tried(SweepTest::Vertex(i), SweepVerdict::NoRoot, Some(t), Some(corner));
                continue;
            }
            None => {
                probe.tried(SweepTest::Vertex(i), SweepVerdict::NoRoot, None, None);
                continue;
            }
        };
        let kept = t >= zero && t <= best.map_or(limit, |(bt, ..)| bt);
        if kept {
            best = Some((t, corner, mc + mv.disp * t));
        }
        let verdict = if kept { SweepVerdict::Hit } else { SweepVerdict::TooLate };
        probe.tried(SweepTest::Vertex(i), verdict, Some(t), Some(corner));
    }
    if best.is_none() {
        // A path that grazed an end within the band and then sinks into the segment's
        // interior (where the line test met its plane off the segment, by rounding) is met
        // at the graze.
        if let Some((t, ..)) = graze {
            let (mut lo, mut hi) = (t, limit);
            let over = face
                && near_plane(&mut lo, &mut hi, s0, sd, r - tol)
                && narrow(&mut lo, &mut hi, ek.dot(m), ek.dot(mv.disp))
                && narrow(&mut lo, &mut hi, ee - ek.dot(m), -ek.dot(mv.disp));
            if over {
                best = graze;
            }
        }
    }
    match best {
        Some((toi, point, gap)) => Item::Hit {
            toi,
            point,
            normal: unit_or_safe(gap, unit_or_safe(-mv.disp, V::axis(1))),
            feature: SweepFeature::Vertex,
        },
        None => Item::Nothing,
    }
}
