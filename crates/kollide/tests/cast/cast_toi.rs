//! Time of impact with rotation (conservative advancement) against independent truth: the
//! motion sampled in f64 and refined by bisection on an overlap test written here (point to
//! box distance, separating axes for boxes, the polygon oracle in 2D), and closed forms
//! where the spin does not matter (a spinning ball). Then tunnelling by spinning planks and
//! hostile input.

use crate::common;
use kollide::query::Space;

use common::cast_oracle::{boxes_overlap_3d, first_overlap, point_box_distance};
use common::{assert_close, assert_mixed, rng, unit, vec_in};
use glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};
use kollide::math::{DPose2, DPose3, Pose, Pose3, Real, Vector};
use kollide::query::cast::{shape_cast, CastInput, CastOutput, CastStatus, Motion};
use kollide::shape::{Ball, ConvexPolygon, Cuboid};
use rand::Rng;

/// Conversions the generic 3D body needs.
trait Dim3: Space<AngularVelocity = Self> {
    fn quat(r: Self::Rotation) -> DQuat;
    fn d(self) -> DVec3;
}
impl Dim3 for Vec3 {
    fn quat(r: Quat) -> DQuat {
        r.as_dquat().normalize()
    }
    fn d(self) -> DVec3 {
        self.as_dvec3()
    }
}
impl Dim3 for DVec3 {
    fn quat(r: DQuat) -> DQuat {
        r
    }
    fn d(self) -> DVec3 {
        self
    }
}

/// The rotational tolerance on distances the tests allow (the cast's is `1e-4` / `1e-8`
/// of the reach).
fn tol<V: Space>() -> f64 {
    if V::Real::EPSILON.to_f64() > 1e-10 {
        2e-3
    } else {
        1e-7
    }
}

/// The pose at `t` in f64, as `Motion::pose_at` defines it: translation plus `t v`, the
/// rotation turned by `t w` about the world axes.
fn pose_at(c: DVec3, q: DQuat, v: DVec3, w: DVec3, t: f64) -> (DVec3, DQuat) {
    (c + v * t, DQuat::from_scaled_axis(w * t) * q)
}

/// A box spinning and moving past a ball: the truth is the first time the ball's centre
/// comes within its radius of the box (f64 point-to-box distance in the box's frame).
fn spinning_box_against_a_ball<V: Dim3>(seed: u64)
where
    V::Rotation: common::FromParts,
{
    let mut r = rng(seed);
    let (mut hits, n) = (0, 120);
    for k in 0..n {
        let h: V = vec_in(&mut r, 0.2, 1.2);
        let rb = r.random_range(0.1..0.5);
        let pa: Pose<V> = Pose::new(V::ZERO, common::rotation::<V>(&mut r));
        let start: V = unit::<V>(&mut r) * V::Real::from_f64(3.5);
        let vel: V = -start + vec_in::<V>(&mut r, -2.0, 2.0);
        let w: V = unit::<V>(&mut r) * V::Real::from_f64(r.random_range(0.0..6.0));
        let input = CastInput {
            motion_a: Motion { velocity: V::ZERO, angular_velocity: w },
            motion_b: Motion::linear(vel),
            max_toi: V::Real::ONE,
            target_distance: V::Real::ZERO,
        };
        let out = shape_cast(
            &Cuboid::new(h),
            &pa,
            &Ball::new(V::Real::from_f64(rb)),
            &Pose::from_translation(start),
            &input,
            None,
        );
        let (q0, hd, wd) = (V::quat(pa.rotation), h.d(), w.d());
        let gap = |t: f64| {
            let (_, q) = pose_at(DVec3::ZERO, q0, DVec3::ZERO, wd, t);
            point_box_distance(q.inverse() * (start.d() + vel.d() * t), hd) - rb
        };
        let truth = first_overlap(1.0, 2000, |t| gap(t) <= 0.0);
        let what = format!("{} pair {k}", core::any::type_name::<V>());
        check_against(&out, truth, gap, tol::<V>(), &what);
        hits += usize::from(out.status == CastStatus::Hit);
    }
    assert_mixed(hits, n, "spinning boxes hitting balls");
}

/// A hit no later than the sampled first overlap, with the oracle's distance at `toi`
/// within the tolerance of 0; a miss only where the sampling found none.
#[track_caller]
fn check_against<V: Space>(
    out: &CastOutput<V>,
    truth: Option<f64>,
    gap: impl Fn(f64) -> f64,
    tol: f64,
    what: &str,
) {
    match (out.status, truth) {
        (CastStatus::Hit, _) => {
            let t = out.toi.to_f64();
            if let Some(first) = truth {
                assert!(t <= first + 1e-9, "{what}: toi {t} after the first overlap {first}");
            }
            let g = gap(t);
            assert!(
                g >= -1e-5 * tol && g <= tol,
                "{what}: oracle distance {g:e} at toi {t} not in [0, {tol:e}]"
            );
            assert_close(out.distance.to_f64(), g, tol, &format!("{what}: reported distance"));
        }
        (CastStatus::Miss, None) => {}
        (s, _) => panic!("{what}: status {s:?} with truth {truth:?}: {out:?}"),
    }
}

#[test]
fn spinning_box_against_a_ball_f32_f64() {
    spinning_box_against_a_ball::<Vec3>(31);
    spinning_box_against_a_ball::<DVec3>(32);
}

/// Two spinning polygons in 2D: the truth from sampling the f64 separating-axis oracle.
fn spinning_polygons<V: Space<AngularVelocity = <V as Vector>::Real> + kollide::math::Vector2>(seed: u64)
where
    V::Rotation: common::FromParts,
{
    let mut r = rng(seed);
    let (mut hits, n) = (0, 80);
    for k in 0..n {
        let pts = |r: &mut rand_chacha::ChaCha8Rng| -> Vec<DVec2> {
            (0..6)
                .map(|_| {
                    let a: f64 = r.random_range(0.0..6.3);
                    DVec2::new(a.cos(), a.sin() * 0.6) * r.random_range(0.5..1.0)
                })
                .collect()
        };
        let (la, lb) = (pts(&mut r), pts(&mut r));
        let poly = |p: &[DVec2]| {
            ConvexPolygon::<V>::try_from_points(
                &p.iter()
                    .map(|q| V::new2(V::Real::from_f64(q.x), V::Real::from_f64(q.y)))
                    .collect::<Vec<_>>(),
            )
            .unwrap()
        };
        let (sa, sb) = (poly(&la), poly(&lb));
        // The oracle uses the polygon's own vertices (rounded to V), in f64.
        let va: Vec<DVec2> = sa.vertices().iter().map(|p| DVec2::new(p[0].to_f64(), p[1].to_f64())).collect();
        let vb: Vec<DVec2> = sb.vertices().iter().map(|p| DVec2::new(p[0].to_f64(), p[1].to_f64())).collect();
        let dir: DVec2 = unit::<DVec2>(&mut r);
        let cb = dir * 3.5;
        let vel = -cb + vec_in::<DVec2>(&mut r, -2.5, 2.5);
        let (wa, wb) = (r.random_range(-8.0..8.0), r.random_range(-8.0..8.0));
        let input = CastInput {
            motion_a: Motion { velocity: V::ZERO, angular_velocity: V::Real::from_f64(wa) },
            motion_b: Motion {
                velocity: V::new2(V::Real::from_f64(vel.x), V::Real::from_f64(vel.y)),
                angular_velocity: V::Real::from_f64(wb),
            },
            max_toi: V::Real::ONE,
            target_distance: V::Real::ZERO,
        };
        let pb = Pose::from_translation(V::new2(V::Real::from_f64(cb.x), V::Real::from_f64(cb.y)));
        let out = shape_cast(&sa, &Pose::from_translation(V::ZERO), &sb, &pb, &input, None);
        let world = |v: &[DVec2], c: DVec2, angle: f64| -> Vec<DVec2> {
            v.iter().map(|p| c + DVec2::from_angle(angle).rotate(*p)).collect()
        };
        let gap = |t: f64| {
            common::oracle::polygon_distance_2d(
                &world(&va, DVec2::ZERO, wa * t),
                &world(&vb, cb + vel * t, wb * t),
            )
        };
        let truth = first_overlap(1.0, 2000, |t| {
            common::oracle::polygons_overlap_2d(
                &world(&va, DVec2::ZERO, wa * t),
                &world(&vb, cb + vel * t, wb * t),
            )
        });
        let what = format!("{} pair {k}", core::any::type_name::<V>());
        check_against(&out, truth, gap, tol::<V>(), &what);
        hits += usize::from(out.status == CastStatus::Hit);
    }
    assert_mixed(hits, n, "spinning polygons hitting");
}

#[test]
fn spinning_polygons_f32_f64() {
    spinning_polygons::<Vec2>(41);
    spinning_polygons::<glam::DVec2>(42);
}

/// A ball's spin does not change where it is: falling while spinning onto a box face, it
/// touches at the linear time, `(5 - 0.5 - 0.25) / 2`.
#[test]
fn spinning_ball_falls_like_a_linear_one() {
    let input = CastInput {
        motion_a: Motion { velocity: DVec3::NEG_Y * 2.0, angular_velocity: DVec3::new(3.0, -20.0, 1.0) },
        motion_b: Motion::default(),
        max_toi: 5.0,
        target_distance: 0.0,
    };
    let floor = Cuboid::new(DVec3::new(3.0, 0.5, 2.0));
    let out = shape_cast(
        &Ball::new(0.25),
        &DPose3::from_translation(DVec3::Y * 5.0),
        &floor,
        &DPose3::IDENTITY,
        &input,
        None,
    );
    assert_eq!(out.status, CastStatus::Hit, "{out:?}");
    // Never late; early by the rotational tolerance (4e-8 of distance here) over the speed.
    assert!(out.toi <= 4.25 / 2.0 && out.toi >= 4.25 / 2.0 - 5e-8, "toi {}", out.toi);
    assert_eq!(out.face_normal, Some(DVec3::Y));
}

/// A plank 4 long and 0.1 thick spinning at 40 rad per unit of time next to a wall 1e-4
/// thick: its tip sweeps through the wall within a single frame; the cast must stop it.
#[test]
fn spinning_plank_does_not_tunnel() {
    let plank = DVec3::new(2.0, 0.05, 0.05);
    let wall = DVec3::new(5e-5, 3.0, 3.0);
    let wall_at = DVec3::new(1.5, 0.0, 0.0);
    for (k, (w, v)) in [(40.0, 0.0), (-40.0, 0.0), (5.0, 1.0), (400.0, 0.2)].into_iter().enumerate() {
        let q0 = DQuat::from_rotation_z(1.5);
        let input = CastInput {
            motion_a: Motion { velocity: DVec3::X * v, angular_velocity: DVec3::Z * w },
            motion_b: Motion::default(),
            max_toi: 1.0,
            target_distance: 0.0,
        };
        let out = shape_cast(
            &Cuboid::new(plank),
            &DPose3::new(DVec3::ZERO, q0),
            &Cuboid::new(wall),
            &DPose3::from_translation(wall_at),
            &input,
            None,
        );
        let overlap = |t: f64| {
            let (c, q) = pose_at(DVec3::ZERO, q0, DVec3::X * v, DVec3::Z * w, t);
            boxes_overlap_3d(plank, c, q, wall, wall_at, DQuat::IDENTITY, 0.0)
        };
        let truth = first_overlap(1.0, 200_000, overlap).expect("the plank reaches the wall");
        assert_eq!(out.status, CastStatus::Hit, "plank {k}: {out:?}");
        assert!(out.toi <= truth + 1e-12, "plank {k}: toi {} after the first overlap {truth}", out.toi);
        // Touching within the tolerance at toi: overlapping once grown by it.
        let (c, q) = pose_at(DVec3::ZERO, q0, DVec3::X * v, DVec3::Z * w, out.toi);
        assert!(
            boxes_overlap_3d(plank, c, q, wall, wall_at, DQuat::IDENTITY, 1e-6),
            "plank {k}: apart at toi {out:?}"
        );
        assert!(!overlap(out.toi), "plank {k}: overlapping at toi");
        eprintln!("plank {k}: toi {} (first overlap {truth}), {} distance queries", out.toi, out.iterations);
    }
}

/// Within at time 0 but turning away: the cast looks past the start for the next impact.
/// A plank whose tip sits in a wall's face turns away and comes back half a turn later
/// with its other tip; the truth is sampled with the box-box oracle after the start.
#[test]
fn started_touching_and_turning_away_finds_the_next_impact() {
    let (plank, wall) = (DVec3::new(2.0, 0.05, 0.05), DVec3::new(0.5, 3.0, 3.0));
    let wall_at = DVec3::X * 2.0; // face at x = 1.5
    let theta0 = (1.5f64 / 2.0).acos();
    let q0 = DQuat::from_rotation_z(theta0);
    let input = CastInput {
        motion_a: Motion { velocity: DVec3::ZERO, angular_velocity: DVec3::Z },
        motion_b: Motion::default(),
        max_toi: 10.0,
        target_distance: 0.0,
    };
    let pa = DPose3::new(DVec3::ZERO, q0);
    let out = shape_cast(
        &Cuboid::new(plank),
        &pa,
        &Cuboid::new(wall),
        &DPose3::from_translation(wall_at),
        &input,
        None,
    );
    let overlap = |t: f64| {
        let (c, q) = pose_at(DVec3::ZERO, q0, DVec3::ZERO, DVec3::Z, t);
        boxes_overlap_3d(plank, c, q, wall, wall_at, DQuat::IDENTITY, 0.0)
    };
    assert!(overlap(0.0), "the tip starts in the wall");
    // After the tip has left (by t = 0.5), the next overlap:
    let next = 0.5 + first_overlap(5.0, 50_000, |t| overlap(0.5 + t)).expect("the other tip comes back");
    assert_eq!(out.status, CastStatus::Hit, "{out:?}");
    assert!(out.toi <= next + 1e-12 && out.toi >= next - 1e-6, "toi {} vs {next}", out.toi);
    // Still and within: not approaching, and a linear cast (no spin) says so with a miss.
    let still = CastInput { motion_a: Motion::default(), ..input };
    let o = shape_cast(
        &Cuboid::new(plank),
        &pa,
        &Cuboid::new(wall),
        &DPose3::from_translation(wall_at),
        &still,
        None,
    );
    assert_eq!(o.status, CastStatus::Miss);
}

/// Hostile input for the rotational path: NaN angular velocity, infinite `max_toi`, a
/// spin that never brings the shapes together, huge angular speed.
#[test]
fn hostile_rotation() {
    let cube = Cuboid::new(Vec3::ONE);
    let id = Pose3::IDENTITY;
    let apart = Pose3::from_translation(Vec3::X * 5.0);
    let spin = |w: Vec3, v: Vec3, max_toi: f32| CastInput {
        motion_a: Motion { velocity: Vec3::ZERO, angular_velocity: w },
        motion_b: Motion::linear(v),
        max_toi,
        target_distance: 0.0,
    };
    let no_nan = |o: &CastOutput<Vec3>| {
        // A miss reports `max_toi` as its time, infinite for an unbounded search: proven
        // safe for ever. Everything else is finite.
        let times_ok = if o.status == CastStatus::Miss {
            !o.toi.is_nan() && o.safe_toi == o.toi
        } else {
            o.toi.is_finite() && o.safe_toi.is_finite()
        };
        assert!(times_ok && o.distance.is_finite(), "{o:?}");
        assert!(o.normal.is_finite() && o.point_a.is_finite() && o.point_b.is_finite(), "{o:?}");
    };
    let o =
        shape_cast(&cube, &id, &cube, &apart, &spin(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::ZERO, 1.0), None);
    no_nan(&o);
    assert_eq!((o.status, o.safe_toi), (CastStatus::Failed, 0.0));
    // Spinning in place, 5 apart: the cubes' bounding balls (radius √3 each) never meet, so
    // the miss is proven over a finite interval and over an infinite one alike.
    let o = shape_cast(&cube, &id, &cube, &apart, &spin(Vec3::Z * 3.0, Vec3::ZERO, 10.0), None);
    no_nan(&o);
    assert_eq!(o.status, CastStatus::Miss, "{o:?}");
    let o = shape_cast(&cube, &id, &cube, &apart, &spin(Vec3::Z * 3.0, Vec3::ZERO, f32::INFINITY), None);
    no_nan(&o);
    assert_eq!(o.status, CastStatus::Miss, "{o:?}");
    // Closer (3.2 apart, within the balls' reach but not the cubes'), spinning in place
    // over an infinite interval: the corners sweep to within 3.2 - 2·√2 ≈ 0.37 of each
    // other only if they point at each other; the search cannot prove a miss by the balls,
    // so it either hits (corners meet: they do not here) or stops at its cap with a long
    // proven time. Never a silent miss.
    let near = Pose3::from_translation(Vec3::X * 3.2);
    let o = shape_cast(&cube, &id, &cube, &near, &spin(Vec3::Z * 3.0, Vec3::ZERO, f32::INFINITY), None);
    no_nan(&o);
    assert!(o.status == CastStatus::Failed && o.safe_toi > 1.0, "{o:?}");
    // Infinite interval with an approach: a hit at about 5 - 2 = 3 units / speed 1 ... minus the corner reach.
    let o = shape_cast(&cube, &id, &cube, &apart, &spin(Vec3::Z * 0.5, Vec3::NEG_X, f32::INFINITY), None);
    no_nan(&o);
    assert_eq!(o.status, CastStatus::Hit, "{o:?}");
    assert!(o.toi > 5.0 - 2.0 * 3f32.sqrt() - 1e-3 && o.toi < 3.0, "{o:?}");
    // A huge spin: the cap or a hit, never a pass-through or NaN.
    let o = shape_cast(
        &cube,
        &id,
        &cube,
        &Pose3::from_translation(Vec3::X * 3.2),
        &spin(Vec3::Z * 1e6, Vec3::ZERO, 1.0),
        None,
    );
    no_nan(&o);
    assert!(matches!(o.status, CastStatus::Hit | CastStatus::Failed), "{o:?}");
    // Coincident f64 2D squares, one spinning in place: A's contact corner (1, -1) moves
    // at (1, 1), into B along the normal +x: approaching, started within at depth 2.
    let sq = Cuboid::new(DVec2::ONE);
    let o = shape_cast(
        &sq,
        &DPose2::IDENTITY,
        &sq,
        &DPose2::IDENTITY,
        &CastInput {
            motion_a: Motion { velocity: DVec2::ZERO, angular_velocity: 1.0 },
            ..CastInput::linear(DVec2::ZERO, DVec2::ZERO, 1.0)
        },
        None,
    );
    assert_eq!(o.status, CastStatus::StartedWithin, "{o:?}");
    assert_close(o.distance, -2.0, 1e-9, "depth");
}

/// The cast's trace, linear and turning: a box (sliding, or spinning too) against a ball.
/// Every step's time is reached in order and never past the time of impact, its distance
/// bounds the true distance at that time from above (f64 point-to-box distance in the box's
/// frame, from the motions' own formula), its points lie that far apart along its normal,
/// and the last step is at the time of impact, touching.
#[test]
fn the_cast_trace_advances_in_time_over_true_upper_bounds() {
    use kollide::query::cast::shape_cast;
    let mut r = rng(1129);
    let mut traced = [0, 0];
    for k in 0..200 {
        let h: DVec3 = vec_in(&mut r, 0.2, 1.2);
        let radius = r.random_range(0.1..0.6);
        let q: DQuat = common::rotation::<DVec3>(&mut r);
        let c = DVec3::new(r.random_range(-0.5..0.5), r.random_range(-0.5..0.5), 0.0);
        let ball_at = DVec3::new(4.0, r.random_range(-1.0..1.0), r.random_range(-1.0..1.0));
        let v = DVec3::new(3.0, r.random_range(-0.4..0.4), 0.0);
        let w = if k % 2 == 0 { DVec3::ZERO } else { vec_in(&mut r, -2.0, 2.0) };
        let input = CastInput {
            motion_a: Motion { velocity: v, angular_velocity: w },
            motion_b: Motion { velocity: DVec3::ZERO, angular_velocity: DVec3::ZERO },
            max_toi: 2.0,
            target_distance: 0.0,
        };
        let (bx, ball) = (Cuboid::new(h), Ball::new(radius));
        let mut trace = Vec::new();
        let out = shape_cast(
            &bx,
            &Pose::new(c, q),
            &ball,
            &DPose3::from_translation(ball_at),
            &input,
            Some(&mut trace),
        );
        assert_eq!(
            out,
            shape_cast(&bx, &Pose::new(c, q), &ball, &DPose3::from_translation(ball_at), &input, None)
        );
        if out.status != CastStatus::Hit {
            continue;
        }
        traced[k % 2] += 1;
        let truth = |t: f64| {
            let (ct, qt) = pose_at(c, q, v, w, t);
            point_box_distance(qt.inverse() * (ball_at - ct), h) - radius
        };
        assert!(!trace.is_empty(), "{k}");
        let mut last = 0.0;
        for s in &trace {
            assert!(s.time >= last && s.time <= out.toi, "{k}: {s:?} after {last}, toi {}", out.toi);
            last = s.time;
            assert!(s.distance >= truth(s.time) - 1e-9, "{k}: {s:?} below the truth {}", truth(s.time));
            if s.normal != DVec3::ZERO {
                let along = (s.point_b - s.point_a).dot(s.normal);
                assert!((along - s.distance).abs() < 1e-9, "{k}: {s:?}");
            }
        }
        let end = trace.last().unwrap();
        assert_eq!(end.time, out.toi, "{k}");
        assert!(end.distance.abs() < 1e-6 && truth(end.time).abs() < 1e-6, "{k}: {end:?}");
    }
    assert!(traced[0] > 30 && traced[1] > 30, "hits traced: {traced:?}");
}
