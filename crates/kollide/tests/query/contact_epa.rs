//! Penetration depth by GJK + EPA, through the public `contact` query, against independent
//! truth: the f64 brute-force oracle (least overlap over every candidate axis) on random
//! polytopes, closed forms for balls and boxes, and support sampling for curved shapes.
//!
//! Shapes are `PointCloud`s or wrapped in `ViaGjk`, so the dispatcher cannot use a closed
//! form or a separating-axis test: every penetrating pair here goes through EPA. One test
//! body per case, run for 2D and 3D in f32 and f64.

use crate::common;
use crate::epa_cases;
use kollide::query::Space;

use common::{pose, rng, rotation, unit, FromParts, PointCloud, RotF64, ViaGjk};
use epa_cases::{depth_along, distance_to_hull, overlap_along, penetration, sampled_depth, size, world};
use glam::DVec3;
use kollide::math::{Pose, Real};
use kollide::query::{contact, Contact, ContactStatus};
use kollide::shape::{Ball, Cone, Cuboid, Cylinder, Ellipsoid, Support};
use rand::Rng;
use std::cell::Cell;

/// The documented EPA tolerance: `1e-5` (f32) or `1e-10` (f64) of the depth, plus the
/// rounding of the coordinates (100 ulps of the largest one).
fn tolerance<V: Space>(depth: f64, size: f64) -> f64 {
    let eps = V::Real::EPSILON.to_f64();
    let rel = if eps > 1e-10 { 1e-5 } else { 1e-10 };
    rel * depth.abs() + 100.0 * eps * size
}

fn dvec<V: Space>(v: V) -> DVec3 {
    DVec3::from_array(v.to_f64_array())
}

/// Checks that nothing in a contact is NaN and that the normal is a unit vector.
#[track_caller]
fn assert_sane<V: Space>(c: &Contact<V>, ctx: &str) {
    let n = dvec(c.normal);
    assert!(c.distance.is_finite(), "{ctx}: distance {:?}", c.distance);
    assert!(c.point_a.is_finite_vec() && c.point_b.is_finite_vec(), "{ctx}: points {c:?}");
    assert!((n.length() - 1.0).abs() < 1e-5, "{ctx}: normal {n} is not unit");
}

/// What one random pair measured.
#[derive(Default)]
struct Stats {
    pairs: usize,
    not_converged: usize,
    worst_rel: f64,
    shallow: usize,
    deep: usize,
    contained: usize,
}

fn cloud<V: Space>(r: &mut rand_chacha::ChaCha8Rng, scale: f64) -> Vec<V> {
    let n = r.random_range(4..=16);
    (0..n)
        .map(|_| {
            let radius = r.random_range(0.5..1.0) * scale;
            unit::<V>(r) * V::Real::from_f64(radius)
        })
        .collect()
}

/// Random overlapping point clouds (4 to 16 points) at random poses, in three kinds: shallow
/// (centres ~ the sum of the sizes apart), deep, and B small inside A. Checks the depth
/// against the oracle, the normal by the overlap along it, and the witnesses on the surfaces.
fn random_pairs<V: Space>(seed: u64, pairs: usize, scale: f64) -> Stats
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    let mut st = Stats::default();
    let label = format!("{}D {} scale {scale:e}", V::DIM, core::any::type_name::<V::Real>());
    let mut k = 0;
    while st.pairs < pairs {
        k += 1;
        let kind = k % 3;
        let va = cloud::<V>(&mut r, scale);
        let vb = cloud::<V>(&mut r, if kind == 2 { scale * 0.15 } else { scale });
        let pa = pose::<V>(&mut r, 2.0 * scale);
        let dir: V = unit(&mut r);
        let dist = match kind {
            0 => r.random_range(1.2..1.6),
            1 => r.random_range(0.0..0.6),
            _ => r.random_range(0.0..0.1),
        } * scale;
        let pb = Pose::new(pa.translation + dir * V::Real::from_f64(dist), rotation::<V>(&mut r));
        let (wa, wb) = (world(&va, &pa), world(&vb, &pb));
        let (truth, _) = penetration(V::DIM, &wa, &wb);
        let sz = size(&[&wa, &wb]);
        let tol = tolerance::<V>(truth, sz);
        if truth <= 2.0 * tol {
            // Apart or touching within rounding: not a penetration test.
            continue;
        }
        st.pairs += 1;
        let ctx = format!("{label}, pair {k}: {va:?} at {pa:?}, {vb:?} at {pb:?}");
        let c = contact(&PointCloud(va.clone()), &pa, &PointCloud(vb.clone()), &pb, V::Real::ZERO, None)
            .unwrap_or_else(|| panic!("{ctx}: no contact, oracle depth {truth:e}"));
        assert_sane(&c, &ctx);
        let depth = -c.distance.to_f64();
        let n = dvec(c.normal);
        let err = (depth - truth).abs();
        match c.status {
            ContactStatus::Converged => {
                assert!(err <= tol, "{ctx}: depth {depth:e} vs oracle {truth:e}, error {err:e} > {tol:e}");
                st.worst_rel = st.worst_rel.max(err / sz);
            }
            ContactStatus::Stalled | ContactStatus::MaxIterations => {
                // The least push found along a separating direction: an upper bound, close
                // to the truth.
                st.not_converged += 1;
                assert!(depth >= truth - tol, "{ctx}: {:?} depth {depth:e} below oracle {truth:e}", c.status);
                assert!(err <= 100.0 * tol, "{ctx}: {:?} depth {depth:e} vs oracle {truth:e}", c.status);
            }
            s => panic!("{ctx}: status {s:?}"),
        }
        // The normal is a direction of least overlap (ties are possible: compare overlaps).
        let along = overlap_along(&wa, &wb, n);
        assert!(
            along <= truth + 100.0 * tol,
            "{ctx}: overlap {along:e} along the normal {n}, oracle {truth:e}"
        );
        // The witnesses: on their shapes, and on their support planes along the normal.
        let (qa, qb) = (dvec(c.point_a), dvec(c.point_b));
        let wtol = 4.0 * tol;
        assert!(
            distance_to_hull(V::DIM, qa, &wa) <= wtol,
            "{ctx}: point_a {qa} not on A: {:e} {c:?}",
            distance_to_hull(V::DIM, qa, &wa)
        );
        assert!(distance_to_hull(V::DIM, qb, &wb) <= wtol, "{ctx}: point_b {qb} not on B");
        let top_a = wa.iter().map(|p| p.dot(n)).fold(f64::MIN, f64::max);
        let low_b = wb.iter().map(|p| p.dot(n)).fold(f64::MAX, f64::min);
        assert!((top_a - qa.dot(n)).abs() <= wtol, "{ctx}: point_a {qa} off A's face along {n}");
        assert!((qb.dot(n) - low_b).abs() <= wtol, "{ctx}: point_b {qb} off B's face along {n}");
        let gap = (qa - qb - n * depth).length();
        assert!(gap <= wtol, "{ctx}: point_a - point_b differs from depth * normal by {gap:e}");
        // The kind of pair, by the truth.
        if kind == 2 && wb.iter().all(|&p| distance_to_hull(V::DIM, p, &wa) == 0.0) {
            st.contained += 1;
        } else if truth < 0.2 * scale {
            st.shallow += 1;
        } else {
            st.deep += 1;
        }
    }
    eprintln!(
        "{label}: {} pairs ({} shallow, {} deep, {} contained), {} not converged, worst depth error {:.2e} x size",
        st.pairs, st.shallow, st.deep, st.contained, st.not_converged, st.worst_rel
    );
    // The sample covers every kind, and non-converged answers stay rare (0.5%).
    for (n, what) in [(st.shallow, "shallow"), (st.deep, "deep"), (st.contained, "contained")] {
        assert!(n * 10 >= st.pairs, "{label}: only {n} {what} pairs of {}", st.pairs);
    }
    assert!(
        st.not_converged * 200 <= st.pairs,
        "{label}: {} of {} not converged",
        st.not_converged,
        st.pairs
    );
    st
}

macro_rules! for_all_vectors {
    ($name:ident, $body:ident $(, $arg:expr)*) => {
        mod $name {
            use super::*;
            #[test]
            fn vec2() {
                $body::<glam::Vec2>($($arg),*);
            }
            #[test]
            fn dvec2() {
                $body::<glam::DVec2>($($arg),*);
            }
            #[test]
            fn vec3() {
                $body::<glam::Vec3>($($arg),*);
            }
            #[test]
            fn dvec3() {
                $body::<glam::DVec3>($($arg),*);
            }
        }
    };
}

fn random_polytopes<V: Space>()
where
    V::Rotation: RotF64<V> + FromParts,
{
    let pairs = if V::DIM == 2 { 3000 } else { 1500 };
    random_pairs::<V>(0xE9A, pairs, 1.0);
}
for_all_vectors!(random_polytopes_unit_scale, random_polytopes);

fn random_polytopes_tiny<V: Space>()
where
    V::Rotation: RotF64<V> + FromParts,
{
    random_pairs::<V>(0xE9B, 300, 1e-6);
}
for_all_vectors!(random_polytopes_1e_minus_6, random_polytopes_tiny);

fn random_polytopes_huge<V: Space>()
where
    V::Rotation: RotF64<V> + FromParts,
{
    random_pairs::<V>(0xE9C, 300, 1e6);
}
for_all_vectors!(random_polytopes_1e6, random_polytopes_huge);

/// The first `DIM` components of `[x, y, z]`.
fn v<V: Space>(c: [f64; 3]) -> V {
    V::from_f64_array(c)
}

/// A contact that must exist, with sanity checks.
#[track_caller]
fn must_contact<V: Space, A: Support<V>, B: Support<V>>(
    a: &A,
    pa: &Pose<V>,
    b: &B,
    pb: &Pose<V>,
    ctx: &str,
) -> Contact<V> {
    let c = contact(a, pa, b, pb, V::Real::ZERO, None).unwrap_or_else(|| panic!("{ctx}: no contact"));
    assert_sane(&c, ctx);
    c
}

/// B placed at `offset` in A's frame (rotated by `rot` on top of A's rotation).
fn placed<V: Space>(pa: &Pose<V>, offset: V, rot: V::Rotation) -> Pose<V> {
    pa.compose(&Pose::new(offset, rot))
}

/// Closed forms: a ball inside a box (depth = radius + distance of the centre to the nearest
/// face, normal that face's), a box inside a box with the same rotation (depth = least
/// `ha + hb - |c|` over the axes).
fn closed_forms<V: Space>()
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(7);
    let id = <V::Rotation as kollide::math::Rotation<V>>::IDENTITY;
    for k in 0..50 {
        let pa = pose::<V>(&mut r, 3.0);
        let ctx = format!("{}D {} case {k}", V::DIM, core::any::type_name::<V::Real>());
        let he = [1.0, 1.5, 2.0];
        let bx = ViaGjk(Cuboid::new(v::<V>(he)));
        // Ball inside the box, nearest face +x.
        let c = [0.4, -0.8, 0.5];
        let ball = ViaGjk(Ball::<V>::new(V::Real::from_f64(0.3)));
        let pb = placed(&pa, v::<V>(c), rotation::<V>(&mut r));
        let out = must_contact(&bx, &pa, &ball, &pb, &ctx);
        let tol = tolerance::<V>(1.0, 5.0);
        assert_eq!(out.status, ContactStatus::Converged, "{ctx}");
        common::assert_close(-out.distance.to_f64(), 0.3 + 0.6, tol, &format!("ball in box depth, {ctx}"));
        let x = dvec(pa.transform_vector(V::axis(0)));
        assert!((dvec(out.normal) - x).length() < 1e-4, "{ctx}: normal {:?} not {x}", out.normal);
        // Box inside a box, same rotation: least overlap along -y.
        let small = ViaGjk(Cuboid::new(v::<V>([0.5, 0.7, 0.3])));
        let big = ViaGjk(Cuboid::new(v::<V>([2.0, 2.0, 2.0])));
        let pb = placed(&pa, v::<V>([0.3, -1.1, 0.2]), id);
        let out = must_contact(&big, &pa, &small, &pb, &ctx);
        assert_eq!(out.status, ContactStatus::Converged, "{ctx}");
        common::assert_close(-out.distance.to_f64(), 1.6, tol, &format!("box in box depth, {ctx}"));
        let y = dvec(pa.transform_vector(V::axis(1)));
        assert!((dvec(out.normal) + y).length() < 1e-4, "{ctx}: normal {:?} not -{y}", out.normal);
        // Deep containment: a tiny box at the centre of a big one; every axis ties except z.
        let tiny = ViaGjk(Cuboid::new(v::<V>([0.01, 0.01, 0.01])));
        let big = ViaGjk(Cuboid::new(v::<V>([3.0, 3.0, 4.0])));
        let out = must_contact(&big, &pa, &tiny, &placed(&pa, V::ZERO, id), &ctx);
        assert_eq!(out.status, ContactStatus::Converged, "{ctx}");
        common::assert_close(-out.distance.to_f64(), 3.01, tol, &format!("tiny box at centre, {ctx}"));
    }
}
for_all_vectors!(closed_form_boxes_and_balls, closed_forms);

/// Ball inside a ball through GJK (cores are points: apart, or coincident at the centre,
/// where EPA must still give a unit normal): depth = ra + rb - |c|.
fn balls<V: Space>()
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(8);
    for k in 0..100 {
        let pa = pose::<V>(&mut r, 3.0);
        let off = if k % 4 == 0 { 0.0 } else { r.random_range(0.0..0.5) };
        let d: V = unit(&mut r);
        let pb = Pose::new(pa.translation + d * V::Real::from_f64(off), rotation::<V>(&mut r));
        let c = (dvec(pb.translation) - dvec(pa.translation)).length();
        let (a, b) =
            (ViaGjk(Ball::<V>::new(V::Real::from_f64(1.0))), ViaGjk(Ball::<V>::new(V::Real::from_f64(0.4))));
        let ctx = format!("ball in ball {k}, offset {off}");
        let out = must_contact(&a, &pa, &b, &pb, &ctx);
        assert_eq!(out.status, ContactStatus::Converged, "{ctx}");
        common::assert_close(-out.distance.to_f64(), 1.4 - c, tolerance::<V>(1.4, 4.0), &ctx);
    }
}
for_all_vectors!(closed_form_ball_in_ball, balls);

/// Touching boxes (face on face, edge on face, vertex on face): depth ~0 and a normal along
/// which the overlap is ~0.
fn touching<V: Space>()
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(9);
    let corners = |h: [f64; 3]| -> Vec<V> {
        let n = 1 << V::DIM;
        (0..n).map(|i| v::<V>([0, 1, 2].map(|k| if i >> k & 1 == 1 { h[k] } else { -h[k] }))).collect()
    };
    let (ca, cb) = (corners([1.0, 1.0, 1.0]), corners([0.5, 0.5, 0.5]));
    for k in 0..60 {
        let pa = pose::<V>(&mut r, 3.0);
        // B's rotation relative to A: none (face), random (edge or vertex first).
        let rot = if k % 2 == 0 {
            <V::Rotation as kollide::math::Rotation<V>>::IDENTITY
        } else {
            rotation::<V>(&mut r)
        };
        let probe = Pose::new(V::ZERO, rot);
        // Shift B along A's x axis so that its lowest point in x sits on A's face x = 1.
        let low = cb.iter().map(|&p| probe.transform_point(p)[0].to_f64()).fold(f64::MAX, f64::min);
        let off = v::<V>([1.0 - low, r.random_range(-0.3..0.3), r.random_range(-0.3..0.3)]);
        let pb = placed(&pa, off, rot);
        let (wa, wb) = (world(&ca, &pa), world(&cb, &pb));
        let sz = size(&[&wa, &wb]);
        let (truth, _) = penetration(V::DIM, &wa, &wb);
        let ctx = format!("{}D {} touching case {k}", V::DIM, core::any::type_name::<V::Real>());
        let tol = tolerance::<V>(1.0, sz);
        // Rounding may leave them a hair apart: ask with a margin of the tolerance.
        let Some(out) =
            contact(&PointCloud(ca.clone()), &pa, &PointCloud(cb.clone()), &pb, V::Real::from_f64(tol), None)
        else {
            panic!("{ctx}: no contact");
        };
        assert_sane(&out, &ctx);
        assert!(
            matches!(out.status, ContactStatus::Converged | ContactStatus::Degenerate),
            "{ctx}: {:?}",
            out.status
        );
        assert!(truth.abs() <= tol, "{ctx}: not touching, oracle {truth:e}");
        assert!(out.distance.to_f64().abs() <= tol, "{ctx}: distance {:e}", out.distance.to_f64());
        let along = overlap_along(&wa, &wb, dvec(out.normal));
        assert!(along.abs() <= tol, "{ctx}: overlap {along:e} along the normal {:?}", out.normal);
    }
}
for_all_vectors!(touching_features, touching);

/// Identical shapes at the same pose: the depth is the least width (2 x the least half
/// extent for a box, the oracle's for a cloud), along a valid normal.
fn identical<V: Space>()
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(10);
    for k in 0..100 {
        let pa = pose::<V>(&mut r, 3.0);
        let ctx = format!("{}D {} identical {k}", V::DIM, core::any::type_name::<V::Real>());
        let bx = ViaGjk(Cuboid::new(v::<V>([1.0, 2.0, 3.0])));
        let out = must_contact(&bx, &pa, &bx, &pa, &ctx);
        assert_eq!(out.status, ContactStatus::Converged, "{ctx}");
        common::assert_close(-out.distance.to_f64(), 2.0, tolerance::<V>(2.0, 8.0), &ctx);
        let x = dvec(pa.transform_vector(V::axis(0)));
        assert!((dvec(out.normal).dot(x).abs() - 1.0).abs() < 1e-4, "{ctx}: normal {:?}", out.normal);
        let va = cloud::<V>(&mut r, 1.0);
        let wa = world(&va, &pa);
        let (truth, _) = penetration(V::DIM, &wa, &wa);
        let out = must_contact(&PointCloud(va.clone()), &pa, &PointCloud(va.clone()), &pa, &ctx);
        assert_eq!(out.status, ContactStatus::Converged, "{ctx}");
        common::assert_close(-out.distance.to_f64(), truth, tolerance::<V>(truth, size(&[&wa])), &ctx);
    }
}
for_all_vectors!(identical_shapes_same_pose, identical);

/// Slivers: boxes 1e-6 thick, stacked with a 1e-6 overlap, and crossed.
fn slivers<V: Space>()
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(11);
    let corners = |h: [f64; 3]| -> Vec<V> {
        let n = 1 << V::DIM;
        (0..n).map(|i| v::<V>([0, 1, 2].map(|k| if i >> k & 1 == 1 { h[k] } else { -h[k] }))).collect()
    };
    let thin_y = corners([1.0, 1e-6, 1.0]);
    let thin_x = corners([1e-6, 1.0, 1.0]);
    for k in 0..60 {
        let pa = pose::<V>(&mut r, 1.0);
        let (vb, off) = if k % 2 == 0 {
            (&thin_y, v::<V>([0.1, 1e-6, -0.2]))
        } else {
            (&thin_x, v::<V>([0.1, 0.2, 0.0]))
        };
        let pb = placed(&pa, off, rotation::<V>(&mut r));
        let pb = if k % 2 == 0 {
            placed(&pa, off, <V::Rotation as kollide::math::Rotation<V>>::IDENTITY)
        } else {
            pb
        };
        let (wa, wb) = (world(&thin_y, &pa), world(vb, &pb));
        let (truth, _) = penetration(V::DIM, &wa, &wb);
        let tol = tolerance::<V>(truth, size(&[&wa, &wb]));
        let ctx = format!("{}D {} sliver {k}, oracle {truth:e}", V::DIM, core::any::type_name::<V::Real>());
        let Some(out) = contact(
            &PointCloud(thin_y.clone()),
            &pa,
            &PointCloud(vb.clone()),
            &pb,
            V::Real::from_f64(tol),
            None,
        ) else {
            assert!(truth <= tol, "{ctx}: no contact");
            continue;
        };
        assert_sane(&out, &ctx);
        let depth = -out.distance.to_f64();
        assert!(out.status != ContactStatus::NonFiniteSupport, "{ctx}");
        // Whatever the status, the depth is measured along the normal: never above the
        // overlap there, never below the least one.
        let along = overlap_along(&wa, &wb, dvec(out.normal));
        assert!(
            depth <= along + tol && along >= truth - tol,
            "{ctx}: depth {depth:e}, along normal {along:e}"
        );
        if out.status == ContactStatus::Converged {
            common::assert_close(depth, truth, tol, &ctx);
        }
    }
}
for_all_vectors!(thin_slivers, slivers);

/// A user's shape whose support turns NaN after some number of calls.
struct NanAfter<S> {
    shape: S,
    calls: Cell<u32>,
    after: u32,
}

impl<V: Space, S: Support<V>> Support<V> for NanAfter<S> {
    fn support(&self, dir: V) -> V {
        let k = self.calls.get();
        self.calls.set(k + 1);
        if k >= self.after {
            V::splat(V::Real::from_f64(f64::NAN))
        } else {
            self.shape.support(dir)
        }
    }
}

/// A support that goes NaN in the middle of EPA: `NonFiniteSupport`, nothing NaN.
fn nan_support<V: Space>()
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(12);
    let pa = pose::<V>(&mut r, 1.0);
    let pb = placed(&pa, v::<V>([0.3, 0.2, 0.1]), rotation::<V>(&mut r));
    let va = cloud::<V>(&mut r, 1.0);
    let clean = NanAfter { shape: PointCloud(va.clone()), calls: Cell::new(0), after: u32::MAX };
    let b = ViaGjk(Cuboid::new(v::<V>([0.5, 0.6, 0.7])));
    let ok = must_contact(&clean, &pa, &b, &pb, "clean run");
    assert_eq!(ok.status, ContactStatus::Converged);
    let total = clean.calls.get();
    assert!(total > 4, "the clean run made only {total} calls");
    for after in 0..total {
        let a = NanAfter { shape: PointCloud(va.clone()), calls: Cell::new(0), after };
        let ctx = format!("NaN after {after} of {total} calls");
        let out = must_contact(&a, &pa, &b, &pb, &ctx);
        assert_eq!(out.status, ContactStatus::NonFiniteSupport, "{ctx}: {out:?}");
    }
}
for_all_vectors!(nan_support_mid_epa, nan_support);

/// Curved shapes against a box and a ball: the depth along our normal is the depth we
/// report, and no sampled direction does better (beyond the tolerance); the sampled least
/// depth is within its sampling error of ours.
fn curved<V: Space, A: Support<V>>(a: &A, what: &str)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(13);
    let dirs = epa_cases::directions(V::DIM, if V::DIM == 2 { 20_000 } else { 40_000 });
    let bx = ViaGjk(Cuboid::new(v::<V>([0.6, 0.4, 0.5])));
    let ball = ViaGjk(Ball::<V>::new(V::Real::from_f64(0.5)));
    let mut converged = 0;
    for k in 0..40 {
        let pa = pose::<V>(&mut r, 2.0);
        let off: V = unit::<V>(&mut r) * V::Real::from_f64(r.random_range(0.2..1.2));
        let pb = placed(&pa, off, rotation::<V>(&mut r));
        let ctx = format!("{}D {} {what} case {k}", V::DIM, core::any::type_name::<V::Real>());
        let check = |b: &dyn Support<V>, name: &str| -> bool {
            let (sampled, _) = sampled_depth(a, &pa, &b, &pb, &dirs);
            let Some(out) = contact(a, &pa, &b, &pb, V::Real::ZERO, None) else {
                assert!(sampled <= 1e-3, "{ctx} vs {name}: no contact, sampled depth {sampled:e}");
                return false;
            };
            assert_sane(&out, &ctx);
            let st = out.status;
            assert!(
                matches!(
                    st,
                    ContactStatus::Converged | ContactStatus::Stalled | ContactStatus::MaxIterations
                ),
                "{ctx} vs {name}: {st:?}"
            );
            let depth = -out.distance.to_f64();
            let converged = st == ContactStatus::Converged;
            // Converged: within the tolerance; otherwise the best face of a curved surface.
            // (Cores apart, a ball's point core outside the ellipsoid, go through GJK, whose
            // relative tolerance is 1e-9 in f64.)
            let tight = tolerance::<V>(depth, 5.0) * 10.0 + V::Real::GJK_REL_TOLERANCE.to_f64() * 5.0;
            let tol = if converged { tight } else { 1e-3 };
            let along = depth_along(a, &pa, &b, &pb, dvec(out.normal));
            assert!(
                along <= sampled + tol,
                "{ctx} vs {name}: {st:?} along our normal {along:e} > sampled {sampled:e}"
            );
            assert!(
                along >= depth - tight,
                "{ctx} vs {name}: {st:?} depth {depth:e} above {along:e} along its normal"
            );
            assert!(
                depth >= along - tol,
                "{ctx} vs {name}: {st:?} depth {depth:e} below {along:e} along its normal"
            );
            // The sampling misses the least depth by up to ~ size x spacing (the support
            // function of a box has kinks): 2e-2 for 40,000 directions.
            assert!(
                depth >= sampled - 2e-2,
                "{ctx} vs {name}: {st:?} depth {depth:e} far below sampled {sampled:e}"
            );
            converged
        };
        converged += usize::from(check(&bx, "box")) + usize::from(check(&ball, "ball"));
    }
    eprintln!("{what} {}D {}: {converged} of 80 converged", V::DIM, core::any::type_name::<V::Real>());
}

fn curved_all<V: Space>()
where
    V::Rotation: RotF64<V> + FromParts,
{
    curved::<V, _>(&ViaGjk(Ellipsoid::new(v::<V>([1.0, 0.6, 0.8]))), "ellipsoid");
}
for_all_vectors!(curved_ellipsoid, curved_all);

fn curved_3d<V: kollide::math::Vector3 + Space>()
where
    V::Rotation: RotF64<V> + FromParts,
{
    let half = V::Real::from_f64(0.7);
    let radius = V::Real::from_f64(0.5);
    curved::<V, _>(&ViaGjk(Cylinder::<V>::new(half, radius)), "cylinder");
    curved::<V, _>(&ViaGjk(Cone::<V>::new(half, radius)), "cone");
}

#[test]
fn curved_cylinder_cone_f32() {
    curved_3d::<glam::Vec3>();
}

#[test]
fn curved_cylinder_cone_f64() {
    curved_3d::<glam::DVec3>();
}

/// An ellipsoid with equal radii is a ball: the closed form of ball in ball, through EPA
/// (the ellipsoid's core is the whole ellipsoid, so its cores overlap).
fn round_ellipsoid<V: Space>()
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(14);
    let mut statuses = std::collections::BTreeMap::<String, usize>::new();
    for k in 0..100 {
        let pa = pose::<V>(&mut r, 2.0);
        let off = r.random_range(0.0..1.2);
        let pb =
            Pose::new(pa.translation + unit::<V>(&mut r) * V::Real::from_f64(off), rotation::<V>(&mut r));
        let a = ViaGjk(Ellipsoid::new(V::splat(V::Real::from_f64(1.0))));
        let b = ViaGjk(Ellipsoid::new(V::splat(V::Real::from_f64(0.5))));
        let ctx =
            format!("{}D {} round ellipsoids {k}, offset {off}", V::DIM, core::any::type_name::<V::Real>());
        let out = must_contact(&a, &pa, &b, &pb, &ctx);
        let c = (dvec(pb.translation) - dvec(pa.translation)).length();
        let (truth, depth) = (1.5 - c, -out.distance.to_f64());
        *statuses.entry(format!("{:?}", out.status)).or_insert(0) += 1;
        match out.status {
            ContactStatus::Converged => common::assert_close(depth, truth, tolerance::<V>(truth, 4.0), &ctx),
            // A curved surface is approached geometrically; nearly concentric spheres are
            // close to tied in every direction and need more vertices than the cap allows.
            // The answer is the least push found along a separating direction: an upper
            // bound, close.
            ContactStatus::Stalled | ContactStatus::MaxIterations => {
                assert!(depth >= truth - tolerance::<V>(truth, 4.0), "{ctx}: {depth} below {truth}");
                // Measured: 1.9e-2 at worst (offset 0.0055, depth 1.49) after the 256-iteration
                // cap: a known limit of EPA on nearly concentric curved shapes (every
                // direction nearly ties, so the polytope must refine the whole sphere).
                common::assert_close(depth, truth, 3e-2, &ctx);
            }
            s => panic!("{ctx}: {s:?}"),
        }
    }
    eprintln!("round ellipsoids {}D {}: {statuses:?}", V::DIM, core::any::type_name::<V::Real>());
}
for_all_vectors!(curved_round_ellipsoid_is_a_ball, round_ellipsoid);
