//! Box-box distance by closest features (the dispatcher's path for two boxes) against the
//! f64 polytope oracle and against GJK on the same boxes, on random pairs with a share of
//! parallel boxes (ties of faces and edges) and of boxes turned a quarter turn (edges that
//! cross), in 2D and 3D, f32 and f64.

use super::sat_boxes::corners;
use crate::common;
use kollide::query::Space;

use common::{rng, to_world_f64, vec_in, FromParts, RotF64, ViaGjk};
use glam::{DVec2, DVec3};
use kollide::math::{Pose, Real};
use kollide::query::{distance, GjkStatus};
use kollide::shape::Cuboid;
use rand::Rng;

fn truth<V: Space>(pa: &Pose<V>, ha: V, pb: &Pose<V>, hb: V) -> f64
where
    V::Rotation: RotF64<V>,
{
    let w = |p: &Pose<V>, c: Vec<V>| c.into_iter().map(|x| to_world_f64(p, x)).collect::<Vec<_>>();
    let (wa, wb) = (w(pa, corners(ha)), w(pb, corners(hb)));
    if V::DIM == 3 {
        let f = |v: &[[f64; 3]]| v.iter().map(|p| DVec3::from_array(*p)).collect::<Vec<_>>();
        common::oracle::polytope_distance_3d(&f(&wa), &f(&wb))
    } else {
        let f = |v: &[[f64; 3]]| v.iter().map(|p| DVec2::new(p[0], p[1])).collect::<Vec<_>>();
        common::oracle::polygon_distance_2d(&f(&wa), &f(&wb))
    }
}

/// Returns how many separated pairs the closed form answered (0 GJK iterations).
fn boxes<V: Space>(seed: u64, pairs: usize, tol: f64) -> (usize, usize)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    let (mut apart, mut closed) = (0, 0);
    for k in 0..pairs {
        let (ha, hb) = (vec_in::<V>(&mut r, 0.1, 1.0), vec_in::<V>(&mut r, 0.1, 1.0));
        let pa = Pose::new(vec_in::<V>(&mut r, -1.5, 1.5), common::rotation::<V>(&mut r));
        let rb = match k % 4 {
            // Turned like A up to rounding: parallel faces and edges.
            0 => pa.rotation,
            _ => common::rotation::<V>(&mut r),
        };
        let pb = Pose::new(vec_in::<V>(&mut r, -1.5, 1.5), rb);
        let (a, b) = (Cuboid::new(ha), Cuboid::new(hb));
        let out = distance(&a, &pa, &b, &pb);
        let gjk = distance(&ViaGjk(a), &pa, &ViaGjk(b), &pb);
        let t = truth(&pa, ha, &pb, hb);
        let (d, lo, up) = (out.distance.to_f64(), out.lower_bound.to_f64(), out.upper_bound.to_f64());
        assert!(
            lo <= t + tol * 1e-3 && t <= up + tol * 1e-3,
            "pair {k}: bounds [{lo}, {up}] miss the oracle's {t} ({out:?})"
        );
        assert!((d - t).abs() <= tol, "pair {k}: distance {d}, oracle {t} ({out:?})");
        assert!(
            (d - gjk.distance.to_f64()).abs() <= tol,
            "pair {k}: distance {d}, GJK's {:?} ({out:?})",
            gjk.distance
        );
        assert!(matches!(out.status, GjkStatus::Converged | GjkStatus::Overlapping), "pair {k}: {out:?}");
        assert_eq!(out.status == GjkStatus::Overlapping, d == 0.0, "pair {k}: {out:?}");
        if t > tol {
            apart += 1;
            closed += usize::from(out.iterations == 0);
            let gap = (out.point_b - out.point_a).length().to_f64();
            assert!((gap - d).abs() <= tol, "pair {k}: witnesses {gap} apart, distance {d}");
            let n = (out.point_b - out.point_a) / V::Real::from_f64(gap);
            assert!((n - out.normal).length().to_f64() <= tol.sqrt(), "pair {k}: normal {out:?}");
            // The witnesses lie on the boxes: each within rounding of its own box.
            for (p, pose, he) in [(out.point_a, &pa, ha), (out.point_b, &pb, hb)] {
                let local = pose.inverse_transform_point(p).abs_elem() - he;
                assert!(local.max_component().to_f64() <= tol, "pair {k}: witness {p:?} off its box");
            }
        }
    }
    (apart, closed)
}

#[track_caller]
fn mostly_closed((apart, closed): (usize, usize)) {
    assert!(apart > 300, "only {apart} separated pairs: the sample does not test the closed form");
    assert!(closed * 50 >= apart * 49, "closed form answered {closed} of {apart} separated pairs");
}

#[test]
fn box_distance_3d_f64() {
    mostly_closed(boxes::<DVec3>(61, 3000, 1e-9));
}

#[test]
fn box_distance_3d_f32() {
    mostly_closed(boxes::<glam::Vec3>(62, 3000, 2e-5));
}

#[test]
fn box_distance_2d_f64() {
    mostly_closed(boxes::<DVec2>(63, 3000, 1e-9));
}

#[test]
fn box_distance_2d_f32() {
    mostly_closed(boxes::<glam::Vec2>(64, 3000, 2e-5));
}

/// Two bars crossing a quarter turn apart, one above the other: no corner of either is
/// near the other, the gap is between the middles of two edges.
#[test]
fn crossed_bars_are_nearest_at_their_edges() {
    let bar = Cuboid::new(DVec3::new(2.0, 0.1, 0.1));
    let turn = glam::DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2) * glam::DQuat::from_rotation_x(0.5);
    let pb = Pose::new(DVec3::new(0.3, -0.2, 0.7), turn);
    let out = distance(&bar, &Pose::IDENTITY, &bar, &pb);
    let t = truth(&Pose::IDENTITY, bar.half_extents, &pb, bar.half_extents);
    assert!((out.distance - t).abs() < 1e-12, "{out:?} against {t}");
    assert_eq!(out.iterations, 0, "answered by GJK: {out:?}");
    assert_eq!(out.status, GjkStatus::Converged);
}

/// A box resting on another, and lifted by gaps down to below `f32`'s rounding, turned
/// about the vertical: the bounds hold the gap, touching is `Overlapping` with distance 0.
#[test]
fn stacked_boxes_at_and_near_contact_keep_the_gap_in_their_bounds() {
    let (ha, hb) = (glam::Vec3::new(1.0, 0.5, 0.8), glam::Vec3::new(0.6, 0.3, 0.7));
    for gap in [0.0f32, 1e-9, 1e-7, 1e-6, 1e-4, 0.1] {
        for k in 0..16 {
            let turn = glam::Quat::from_rotation_y(k as f32 * 0.2);
            let lift = 0.8 + gap;
            // (In f64 from the f32 numbers themselves: 0.8f32 - 0.3f32 is 0.5 exactly.)
            let truth = lift as f64 - hb.y as f64 - ha.y as f64;
            let pb = Pose::new(glam::Vec3::new(0.05 * k as f32, lift, -0.1), turn);
            let out = distance(&Cuboid::new(ha), &Pose::IDENTITY, &Cuboid::new(hb), &pb);
            let (lo, up) = (out.lower_bound as f64, out.upper_bound as f64);
            assert!(lo <= truth && truth <= up, "gap {gap}, turn {k}: [{lo}, {up}] miss {truth} ({out:?})");
            if truth == 0.0 {
                assert_eq!(out.status, GjkStatus::Overlapping, "gap {gap}, turn {k}: {out:?}");
                assert_eq!(out.distance, 0.0);
            } else {
                assert!(matches!(out.status, GjkStatus::Converged | GjkStatus::Overlapping), "{out:?}");
            }
        }
    }
}

/// Boxes and polygons whose squares pass the largest `f32` (sizes or offsets beyond about
/// 1.8e19), or posed with NaN: the closest-feature searches step aside and the answer is
/// GJK's own, status and bounds included. (A polygon that size holding a small one is the
/// exception: the polygon search squares nothing, and proves the overlap GJK cannot.)
#[test]
fn boxes_and_polygons_beyond_f32_squares_get_gjks_answer() {
    use glam::Vec2;
    use kollide::math::{Pose2, Pose3};
    use kollide::shape::ConvexPolygon;
    let small = glam::Vec3::splat(1.0);
    let cases3 = [
        (glam::Vec3::splat(3e19), small, glam::Vec3::new(1.0, 2.0, 0.5)),
        (small, small, glam::Vec3::new(4e19, 0.0, 0.0)),
        (glam::Vec3::new(3e19, 1.0, 1.0), glam::Vec3::new(1.0, 3e19, 1.0), glam::Vec3::ZERO),
        (small, small, glam::Vec3::new(f32::NAN, 0.0, 0.0)),
    ];
    for (ha, hb, t) in cases3 {
        let pb = Pose3::new(t, glam::Quat::from_rotation_z(0.3));
        let (a, b) = (Cuboid::new(ha), Cuboid::new(hb));
        let out = distance(&a, &Pose3::IDENTITY, &b, &pb);
        let gjk = distance(&ViaGjk(a), &Pose3::IDENTITY, &ViaGjk(b), &pb);
        assert_eq!(format!("{out:?}"), format!("{gjk:?}"), "boxes {ha} {hb} at {t}");
    }
    let square = |h: f32| {
        ConvexPolygon::from_points(&[Vec2::new(-h, -h), Vec2::new(h, -h), Vec2::new(h, h), Vec2::new(-h, h)])
    };
    let pb = Pose2::new(Vec2::new(1.0, 2.0), kollide::math::Rot2::from_angle(0.3));
    let out = distance(&square(3e19), &Pose2::IDENTITY, &square(1.0), &pb);
    assert_eq!((out.status, out.distance, out.lower_bound), (GjkStatus::Overlapping, 0.0, 0.0), "{out:?}");
    assert!((out.point_a - Vec2::new(1.0, 2.0)).length() <= 1.5 && out.upper_bound < 1e15, "{out:?}");
    for (ha, hb, t) in [(1.0, 1.0, Vec2::new(4e19, 0.0)), (1.0, 3e19, Vec2::new(4e19, 0.0))] {
        let pb = Pose2::new(t, kollide::math::Rot2::from_angle(0.3));
        let (a, b) = (square(ha), square(hb));
        let out = distance(&a, &Pose2::IDENTITY, &b, &pb);
        let gjk = distance(&ViaGjk(a), &Pose2::IDENTITY, &ViaGjk(b), &pb);
        assert_eq!(format!("{out:?}"), format!("{gjk:?}"), "polygons {ha} {hb} at {t}");
    }
}

/// Boxes of every aspect (plates 1e-4 thick, needles) and scale (1e-3 to 1e4), near each
/// other and far apart, in f32 and f64: the bounds always hold the oracle's distance.
#[test]
fn boxes_of_every_aspect_and_scale_keep_the_truth_in_their_bounds() {
    fn run<V: Space>(seed: u64, rel: f64)
    where
        V::Rotation: RotF64<V> + FromParts,
    {
        let mut r = rng(seed);
        for k in 0..2000 {
            let scale = 10f64.powf(r.random_range(-3.0..4.0));
            let shape = |r: &mut rand_chacha::ChaCha8Rng| {
                let mut h: [f64; 3] = core::array::from_fn(|_| scale * r.random_range(0.1..1.0));
                let thin = r.random_range(0..3usize);
                if k % 3 == 0 {
                    h[thin] *= 1e-4;
                }
                V::from_f64_array(h)
            };
            let (ha, hb) = (shape(&mut r), shape(&mut r));
            let spread = scale * if k % 2 == 0 { 1.5 } else { 30.0 };
            let pa = Pose::new(vec_in::<V>(&mut r, -spread, spread), common::rotation::<V>(&mut r));
            let rb = if k % 5 == 0 { pa.rotation } else { common::rotation::<V>(&mut r) };
            let pb = Pose::new(vec_in::<V>(&mut r, -spread, spread), rb);
            let out = distance(&Cuboid::new(ha), &pa, &Cuboid::new(hb), &pb);
            let t = truth(&pa, ha, &pb, hb);
            // The oracle's own rounding, relative to the coordinates.
            let fuzz = 1e-12 * spread;
            let (lo, up) = (out.lower_bound.to_f64(), out.upper_bound.to_f64());
            assert!(lo <= t + fuzz && t <= up + fuzz, "pair {k}: [{lo}, {up}] miss {t} ({out:?})");
            if out.status == GjkStatus::Converged {
                let size = spread * 4.0;
                assert!(up - lo <= (rel * up).max(100.0 * rel * size), "pair {k}: [{lo}, {up}] too wide");
            }
        }
    }
    run::<DVec3>(81, 1e-14);
    run::<glam::Vec3>(82, 1e-6);
    run::<DVec2>(83, 1e-14);
    run::<glam::Vec2>(84, 1e-6);
}
