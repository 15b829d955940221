//! Casts at the boundary, judged by f64 brute force (`common/boundary.rs`): shapes that touch
//! at the start, with motions into, along and out of the contact's normal cone; and paths
//! tangent to the Minkowski difference, grazing a vertex, an edge, a face or a curved side.
//!
//! The conventions judged (see `shape_cast`): touching and separating is a miss, touching and
//! sliding tangentially a miss, touching and approaching `StartedWithin`; a hit comes no
//! earlier than the first time the distance reaches the target plus the tolerance and no
//! later than the first touch, and its normal is a separating direction at the time of
//! impact (the shapes' separation along it within the tolerance of their distance).
//!
//! Each class runs a short form here and a long one behind `--ignored`
//! (`cargo test --release -p kollide --test all boundary_casts -- --ignored`).

use crate::common::boundary::{
    contact_setup, first_time_at_most, random_rotation, random_unit, separation_along, signed_distance,
    touching, Family, FromDQuat, Placed, Solid, Tally,
};
use crate::common::rng;
use glam::{DQuat, DVec2, DVec3, Vec2, Vec3};
use kollide::math::{Real, Vector};
use kollide::query::cast::{shape_cast, CastInput, CastOutput, CastStatus, Motion};
use kollide::shape::{Convex2, Convex3, Support};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The four spaces the casts run in, with kollide's shape for a solid.
pub trait Space: kollide::query::Space
where
    Self::Rotation: FromDQuat,
{
    type Shape: Support<Self>;
    fn shape(s: &Solid) -> Self::Shape;
    fn spin(w: DVec3) -> Self::AngularVelocity;
    fn f32() -> bool {
        Self::Real::EPSILON.to_f64() > 1e-10
    }
}
macro_rules! space3 {
    ($v:ty) => {
        impl Space for $v {
            type Shape = Convex3<$v>;
            fn shape(s: &Solid) -> Self::Shape {
                s.convex3()
            }
            fn spin(w: DVec3) -> Self {
                <$v>::from_f64_array(w.to_array())
            }
        }
    };
}
macro_rules! space2 {
    ($v:ty, $r:ty) => {
        impl Space for $v {
            type Shape = Convex2<$v>;
            fn shape(s: &Solid) -> Self::Shape {
                s.convex2()
            }
            fn spin(w: DVec3) -> $r {
                w.z as $r
            }
        }
    };
}
space3!(Vec3);
space3!(glam::DVec3);
space2!(Vec2, f32);
space2!(DVec2, f64);

/// A random pair the oracle can judge: mostly sharp polytopes, and balls against anything.
fn random_pair(rng: &mut ChaCha8Rng, dim: usize) -> (Solid, Solid) {
    let family = |rng: &mut ChaCha8Rng| match rng.random_range(0..6) {
        0 => Family::Round,
        1 => Family::Curved,
        _ => Family::Sharp,
    };
    loop {
        let (fa, fb) = (family(rng), family(rng));
        let (a, b) = (Solid::random(rng, fa, dim), Solid::random(rng, fb, dim));
        let judged = a.core().is_some() && b.core().is_some()
            || matches!((&a, &b), (Solid::Ball(_), _) | (_, Solid::Ball(_)));
        if judged {
            return (a, b);
        }
    }
}

/// Bodies in motion (f64): the poses at time `t`.
struct Moving {
    a: Placed,
    b: Placed,
    va: DVec3,
    vb: DVec3,
    wa: DVec3,
    wb: DVec3,
}

impl Moving {
    fn at(&self, t: f64) -> (Placed, Placed) {
        let turn = |p: &Placed, v: DVec3, w: DVec3| Placed {
            translation: p.translation + v * t,
            rotation: (DQuat::from_scaled_axis(w * t) * p.rotation).normalize(),
            solid: p.solid.clone(),
        };
        (turn(&self.a, self.va, self.wa), turn(&self.b, self.vb, self.wb))
    }

    fn sd(&self, t: f64, dim: usize) -> f64 {
        let (a, b) = self.at(t);
        signed_distance(&a, &b, dim).unwrap()
    }

    /// The same numbers as f32 would hold them.
    fn rounded_f32(&self) -> Self {
        let r = |v: DVec3| v.as_vec3().as_dvec3();
        Self {
            a: self.a.rounded_f32(),
            b: self.b.rounded_f32(),
            va: r(self.va),
            vb: r(self.vb),
            wa: r(self.wa),
            wb: r(self.wb),
        }
    }

    fn cast<V: Space>(&self, dim: usize, max_toi: f64, target: f64) -> CastOutput<V>
    where
        V::Rotation: FromDQuat,
    {
        let v = |p: DVec3| V::from_f64_array(p.to_array());
        let input = CastInput {
            motion_a: Motion { velocity: v(self.va), angular_velocity: V::spin(self.wa) },
            motion_b: Motion { velocity: v(self.vb), angular_velocity: V::spin(self.wb) },
            max_toi: V::Real::from_f64(max_toi),
            target_distance: V::Real::from_f64(target),
        };
        let (sa, sb) = (V::shape(&self.a.solid), V::shape(&self.b.solid));
        shape_cast(&sa, &self.a.pose::<V>(dim), &sb, &self.b.pose::<V>(dim), &input, None)
    }

    /// The length scale of the pair: the cores' reach and radii, and the coordinates'.
    fn sizes(&self) -> (f64, f64, f64) {
        let ((la, ra), (lb, rb)) = (self.a.solid.sizes(), self.b.solid.sizes());
        let m = self.a.translation.abs().max_element().max(self.b.translation.abs().max_element())
            + la
            + lb
            + ra
            + rb;
        (la.max(lb), ra + rb, m)
    }
}

fn describe(m: &Moving, kind: &str) -> String {
    format!(
        "{kind}: A {:?} at {:?} {:?}, B {:?} at {:?} {:?}, va {:?} vb {:?} wa {:?} wb {:?}",
        m.a.solid,
        m.a.translation,
        m.a.rotation,
        m.b.solid,
        m.b.translation,
        m.b.rotation,
        m.va,
        m.vb,
        m.wa,
        m.wb
    )
}

fn spin(rng: &mut ChaCha8Rng, dim: usize) -> DVec3 {
    if dim == 3 {
        random_unit(rng, 3) * rng.random_range(0.5..3.0)
    } else {
        DVec3::Z * rng.random_range(-3.0..3.0)
    }
}

/// Touching starts: `cases` pairs, placed touching, moving into, along or out of the contact
/// (`rotating`: with angular velocities too).
pub fn touching_starts<V: Space>(seed: u64, cases: usize, rotating: bool) -> Tally
where
    V::Rotation: FromDQuat,
{
    let dim = V::DIM;
    let f32 = V::f32();
    let mut rng = rng(seed);
    let mut tally = Tally::default();
    for _ in 0..cases {
        let (sa, sb) = random_pair(&mut rng, dim);
        let a = Placed {
            solid: sa,
            rotation: random_rotation(&mut rng, dim),
            translation: random_unit(&mut rng, dim) * rng.random_range(0.0..3.0),
        };
        let (n, rot_b, label) = contact_setup(&mut rng, &a, &sb, dim);
        let b = touching(&a, &sb, rot_b, n, dim);
        let tangent = {
            let t = random_unit(&mut rng, dim);
            let t = t - n * t.dot(n);
            if t.length() > 1e-3 {
                t.normalize()
            } else {
                n.any_orthonormal_vector()
            }
        };
        let (motion, r) = match rng.random_range(0..5) {
            0 => ("into", -n + tangent * rng.random_range(-2.0..2.0)),
            1 => ("out of", n + tangent * rng.random_range(-2.0..2.0)),
            2 => ("along", tangent),
            3 => ("nearly along", tangent + n * rng.random_range(-1e-3..1e-3)),
            _ => ("any", random_unit(&mut rng, dim)),
        };
        let va = random_unit(&mut rng, dim) * rng.random_range(0.0..1.0);
        let vb = va + r.normalize() * rng.random_range(0.5..3.0);
        let (wa, wb) =
            if rotating { (spin(&mut rng, dim), spin(&mut rng, dim)) } else { (DVec3::ZERO, DVec3::ZERO) };
        let mut m = Moving { a, b, va, vb, wa, wb };
        if f32 {
            m = m.rounded_f32();
        }
        let (_, _, scale) = m.sizes();
        let out = m.cast::<V>(dim, 1.0, 0.0);
        // The truth. Translating, the distance is convex in time: the pair approaches when
        // its least distance over the cast is below the start's, by a clear margin (16
        // tolerances); it leaves when that least is the start's (to rounding).
        let speed = (m.vb - m.va).length() + (m.wa.length() + m.wb.length()) * 2.0;
        let s0 = m.sd(0.0, dim);
        let (size, radii, _) = m.sizes();
        let len = size + radii;
        let tol = if f32 { 1e-5 } else { 1e-9 } * len + 64.0 * V::Real::EPSILON.to_f64() * scale;
        let step = if f32 { 1e-2 } else { 1e-4 } / speed;
        let sh = m.sd(step, dim);
        let mut truth = "tangential";
        if !rotating {
            let (mut lo, mut hi) = (0.0, 1.0);
            for _ in 0..100 {
                let (x, y) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
                if m.sd(x, dim) < m.sd(y, dim) {
                    hi = y;
                } else {
                    lo = x;
                }
            }
            let dip = m.sd(0.5 * (lo + hi), dim) - s0;
            let rounding = if f32 { 1e-6 } else { 1e-13 } * scale;
            if dip < -16.0 * tol {
                truth = "approaching";
            } else if dip > -rounding {
                truth = "leaving";
            }
        }
        if rotating {
            // Turning bodies: the distance is not convex in time. The first-order rate decides
            // where it clearly dominates the turning's second-order part over the distance the
            // tolerance is resolved at (`4 √(tol / size)` per unit of motion); slower rates
            // may go either way.
            // (A step well above the rounding of the f32 placement, which leaves touching
            // features up to 1e-7 apart, where a smaller step measures their approach.)
            let tiny = if f32 { 1e-3 } else { 1e-6 } * len / speed;
            let rate = (m.sd(tiny, dim) - s0) / (tiny * speed);
            let clear = 4.0 * (tol / len).sqrt();
            truth = if rate > clear {
                "leaving"
            } else if rate < -clear {
                "approaching"
            } else {
                "tangential"
            };
        }
        let toi = out.toi.to_f64();
        let at_start =
            out.status == CastStatus::StartedWithin || out.status == CastStatus::Hit && toi <= step;
        let mut wrong = match (truth, out.status) {
            ("approaching", _) if !at_start => Some(format!("approaching, got {:?} at {toi}", out.status)),
            ("leaving", CastStatus::StartedWithin) => Some("leaving, got StartedWithin".into()),
            ("leaving", CastStatus::Hit) if toi <= step => Some(format!("leaving, got a hit at {toi}")),
            // Translating: the distance never comes back down.
            ("leaving", s) if !rotating && s != CastStatus::Miss => Some(format!("leaving, got {s:?}")),
            _ => None,
        };
        if wrong.is_none() && out.status == CastStatus::StartedWithin {
            // The normal reported at the start is one of the contact's (a separating
            // direction within the rounding: the shapes touch).
            let u = DVec3::from_array(out.normal.to_f64_array());
            let sep = separation_along(&m.a, &m.b, u, dim);
            let slack = if f32 { 1e-4 } else { 1e-9 } * scale;
            if sep.is_nan() || sep < s0 - slack || (u.length() - 1.0).abs() > 1e-4 {
                wrong = Some(format!(
                    "StartedWithin with normal {u:?}: separation along it {sep:e}, distance {s0:e}"
                ));
            }
        }
        let kind = format!("{label}, {motion}");
        let wrong = wrong.map(|w| {
            format!("{w} ({truth}, d(0) {s0:e}, d(h) - d(0) {:e}); {}", sh - s0, describe(&m, &kind))
        });
        tally.record(kind, wrong);
    }
    tally
}

/// Grazing paths: pairs placed touching at time `t_c`, moved back along a path tangent to
/// the contact (or passing it by a small gap, or cutting into it slightly).
pub fn grazing<V: Space>(seed: u64, cases: usize) -> Tally
where
    V::Rotation: FromDQuat,
{
    let dim = V::DIM;
    let f32 = V::f32();
    let mut rng = rng(seed);
    let mut tally = Tally::default();
    let rel = if f32 { 1e-5 } else { 1e-9 };
    for _ in 0..cases {
        let (sa, sb) = random_pair(&mut rng, dim);
        let a = Placed {
            solid: sa,
            rotation: random_rotation(&mut rng, dim),
            translation: random_unit(&mut rng, dim) * rng.random_range(0.0..3.0),
        };
        let (n, rot_b, label) = contact_setup(&mut rng, &a, &sb, dim);
        let b = touching(&a, &sb, rot_b, n, dim);
        let tangent = {
            let t = random_unit(&mut rng, dim);
            let t = t - n * t.dot(n);
            if t.length() > 1e-3 {
                t.normalize()
            } else {
                n.any_orthonormal_vector()
            }
        };
        let target = if rng.random_bool(0.25) { rng.random_range(0.0..0.1) } else { 0.0 };
        let (path, r, offset) = match rng.random_range(0..4) {
            0 => ("tangent", tangent, 0.0),
            1 => ("cutting in", tangent - n * 1e-3, 0.0),
            2 => ("passing by", tangent, rng.random_range(1.0..100.0) * rel),
            _ => ("passing by far", tangent, rng.random_range(1e-4..1e-2)),
        };
        let t_c = rng.random_range(0.2..0.8);
        let va = random_unit(&mut rng, dim) * rng.random_range(0.0..1.0);
        let vb = va + r * rng.random_range(0.5..3.0);
        // At t_c: A where it was placed, B touching it (moved out by the gap, the target and
        // the offset along n).
        let b = b.moved(n * (target + offset));
        let mut m =
            Moving { a: a.moved(-va * t_c), b: b.moved(-vb * t_c), va, vb, wa: DVec3::ZERO, wb: DVec3::ZERO };
        if f32 {
            m = m.rounded_f32();
        }
        let (size, radii, scale) = m.sizes();
        let tol = rel * (target + radii + size) + 8.0 * V::Real::EPSILON.to_f64() * scale;
        // Rounding of the construction and of the oracle's arithmetic.
        let slack = if f32 { 4e-7 } else { 1e-13 } * scale;
        let out = m.cast::<V>(dim, 1.0, target);
        let sd = |t: f64| m.sd(t, dim);
        // The path's closest approach (the distance is convex in time).
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..100 {
            let (x, y) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if sd(x) < sd(y) {
                hi = y;
            } else {
                lo = x;
            }
        }
        let t_min = 0.5 * (lo + hi);
        let d_min = sd(t_min);
        let toi = out.toi.to_f64();
        let mut wrong = None;
        // GJK cannot prove a gap thinner than about √ε of the size along a straight stretch
        // (see `intersection_test`): a path that stays that close may end `Failed`, with a
        // time that is still safe (before any touch).
        let unprovable = 8.0 * V::Real::EPSILON.to_f64().sqrt() * (size + radii);
        if out.status == CastStatus::Failed && d_min <= target + tol + unprovable {
            let first_touch = if d_min <= target { first_time_at_most(sd, target, t_min) } else { 1.0 };
            if toi > first_touch + 1e-12 {
                wrong = Some(format!("Failed with safe_toi {toi} after the first touch {first_touch}"));
            }
            tally.failed += 1;
        } else if d_min > target + tol + slack {
            if out.status != CastStatus::Miss {
                wrong = Some(format!(
                    "passes {:e} beyond the band, got {:?} at {toi}",
                    d_min - target,
                    out.status
                ));
            }
        } else if out.status == CastStatus::Hit {
            // Early: before the distance reaches the band. The band read strictly, with the
            // larger of the two shapes' sizes (not their sum) as the length scale.
            let ((la, ra), (lb, rb)) = (m.a.solid.sizes(), m.b.solid.sizes());
            let strict = rel * (target + (la + ra).max(lb + rb)) + 8.0 * V::Real::EPSILON.to_f64() * scale;
            let early = first_time_at_most(sd, target + strict + slack, t_min.max(1e-300));
            let late =
                if d_min <= target - slack { first_time_at_most(sd, target - slack, t_min) } else { 1.0 };
            // Times are within the rounding of the motion.
            let t_slack = if f32 { 1e-6 } else { 1e-13 } * (1.0 + scale / (m.vb - m.va).length());
            if toi < early - t_slack || toi > late + t_slack {
                wrong =
                    Some(format!("hit at {toi}, outside [{early}, {late}] (d_min {d_min:e}, tol {tol:e})"));
            } else {
                let (pa, pb) = m.at(toi);
                let u = DVec3::from_array(out.normal.to_f64_array());
                let sep = separation_along(&pa, &pb, u, dim);
                let d = sd(toi);
                if sep.is_nan() || sep < d - 2.0 * tol - slack || (u.length() - 1.0).abs() > 1e-4 {
                    wrong = Some(format!(
                        "hit at {toi} with normal {u:?}: separation along it {sep:e}, distance {d:e}"
                    ));
                }
            }
        } else if out.status != CastStatus::Miss || d_min < target - slack {
            // Touching within the band: a hit or (only where the band's edge is) a miss.
            wrong = Some(format!("d_min {:e}: got {:?} at {toi}", d_min - target, out.status));
        }
        let kind = format!("{label}, {path}");
        let wrong = wrong.map(|w| format!("{w}; {}; target {target}; kollide {out:?}", describe(&m, &kind)));
        tally.record(kind, wrong);
    }
    tally
}

#[test]
fn touching_starts_linear_3d() {
    touching_starts::<glam::DVec3>(1, 1500, false).assert_clean("touching starts, 3D f64", 1500);
    touching_starts::<Vec3>(2, 1500, false).assert_clean("touching starts, 3D f32", 1500);
}

#[test]
fn touching_starts_linear_2d() {
    touching_starts::<DVec2>(3, 1500, false).assert_clean("touching starts, 2D f64", 1500);
    touching_starts::<Vec2>(4, 1500, false).assert_clean("touching starts, 2D f32", 1500);
}

#[test]
fn touching_starts_rotating() {
    touching_starts::<glam::DVec3>(5, 600, true).assert_clean("touching starts turning, 3D f64", 600);
    touching_starts::<Vec3>(6, 600, true).assert_clean("touching starts turning, 3D f32", 600);
    touching_starts::<DVec2>(7, 600, true).assert_clean("touching starts turning, 2D f64", 600);
    touching_starts::<Vec2>(8, 600, true).assert_clean("touching starts turning, 2D f32", 600);
}

#[test]
fn grazing_paths_3d() {
    grazing::<glam::DVec3>(11, 1500).assert_clean("grazing, 3D f64", 1500);
    grazing::<Vec3>(12, 1500).assert_clean("grazing, 3D f32", 1500);
}

#[test]
fn grazing_paths_2d() {
    grazing::<DVec2>(13, 1500).assert_clean("grazing, 2D f64", 1500);
    grazing::<Vec2>(14, 1500).assert_clean("grazing, 2D f32", 1500);
}

#[test]
#[ignore = "long form: cargo test --release -p kollide --test all boundary_casts -- --ignored"]
fn boundary_casts_long() {
    for (i, seed) in (100..104).enumerate() {
        let s = seed * 10;
        touching_starts::<glam::DVec3>(s, 20_000, false).assert_clean("touching 3D f64", 20_000);
        touching_starts::<Vec3>(s + 1, 20_000, false).assert_clean("touching 3D f32", 20_000);
        touching_starts::<DVec2>(s + 2, 20_000, false).assert_clean("touching 2D f64", 20_000);
        touching_starts::<Vec2>(s + 3, 20_000, false).assert_clean("touching 2D f32", 20_000);
        touching_starts::<glam::DVec3>(s + 4, 5_000, true).assert_clean("touching turning 3D f64", 5_000);
        touching_starts::<Vec2>(s + 5, 5_000, true).assert_clean("touching turning 2D f32", 5_000);
        grazing::<glam::DVec3>(s + 6, 20_000).assert_clean("grazing 3D f64", 20_000);
        grazing::<Vec3>(s + 7, 20_000).assert_clean("grazing 3D f32", 20_000);
        grazing::<DVec2>(s + 8, 20_000).assert_clean("grazing 2D f64", 20_000);
        grazing::<Vec2>(s + 9, 20_000).assert_clean("grazing 2D f32", 20_000);
        let _ = i;
    }
}
