//! The linear shape cast against independent truth: the quadratic for two balls, closed
//! forms for boxes and balls on faces, a ray against the exact Minkowski difference of two
//! polytopes (built in f64 from all vertex differences), sampling and bisection for curved
//! shapes; then tunnelling and hostile input. One generic body per test runs for 2D and 3D,
//! f32 and f64 where it applies.

use crate::common;
use crate::solid3d;
use kollide::query::Space;

use common::cast_oracle::{first_overlap, planes_2d, ray_polytope, sphere_sweep};
use common::{
    assert_close, assert_mixed, rng, to_world_f64, unit, vec_in, FromParts, PointCloud, RotF64, ViaGjk,
};
use glam::{DVec2, DVec3, Vec2, Vec3};
use kollide::math::{DPose3, Pose, Pose3, Real};
use kollide::query::cast::{shape_cast, CastInput, CastOutput, CastStatus, Motion};
use kollide::shape::{Ball, Cone, Cuboid, Cylinder, Ellipsoid, Support};
use rand::Rng;

fn f(x: f64) -> f64 {
    x
}

/// The tolerance on distances the tests allow: a few times the cast's own.
fn dist_tol<V: Space>() -> f64 {
    if V::Real::EPSILON.to_f64() > 1e-10 {
        2e-4
    } else {
        2e-8
    }
}

fn d<V: Space>(v: V) -> DVec3 {
    DVec3::from_array(v.to_f64_array())
}

/// The checks every hit must pass: unit normal, points that realize the distance, the
/// distance at the target (within `tol`), nothing NaN.
#[track_caller]
fn check_hit<V: Space>(out: &CastOutput<V>, target: f64, tol: f64, what: &str) {
    assert_eq!(out.status, CastStatus::Hit, "{what}: {out:?}");
    assert_close(d(out.normal).length(), 1.0, 1e-5, &format!("{what}: |normal|"));
    assert!(out.safe_toi <= out.toi, "{what}: {out:?}");
    assert_close(out.distance.to_f64(), target, tol, &format!("{what}: distance at toi"));
    let gap = d(out.point_b) - d(out.point_a);
    assert_close(gap.dot(d(out.normal)), out.distance.to_f64(), tol, &format!("{what}: points vs distance"));
}

fn balls_match_the_quadratic<V: Space>(seed: u64)
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut r = rng(seed);
    let (mut hits, n) = (0, 400);
    for k in 0..n {
        let (ra, rb) = (r.random_range(0.1..1.0), r.random_range(0.1..1.0));
        let target = if k % 3 == 0 { r.random_range(0.0..0.3) } else { 0.0 };
        let pa: Pose<V> = common::pose(&mut r, 1.0);
        let pb: Pose<V> = Pose::new(pa.translation + unit::<V>(&mut r) * V::Real::from_f64(4.0), pa.rotation);
        let aim = pa.translation - pb.translation + vec_in::<V>(&mut r, -2.0, 2.0);
        let (va, vb): (V, V) = (vec_in(&mut r, -0.5, 0.5), aim);
        let input = CastInput {
            target_distance: V::Real::from_f64(target),
            ..CastInput::linear(va, vb, V::Real::ONE)
        };
        let (ba, bb) = (Ball::<V>::new(V::Real::from_f64(ra)), Ball::<V>::new(V::Real::from_f64(rb)));
        let d0 = d(pb.translation) - d(pa.translation);
        let truth = sphere_sweep(d0, d(vb) - d(va), f(ra) + f(rb) + target).filter(|&t| t <= 1.0);
        for (name, out) in [
            ("closed form", shape_cast(&ba, &pa, &bb, &pb, &input, None)),
            ("gjk ray cast", shape_cast(&ViaGjk(ba), &pa, &ViaGjk(bb), &pb, &input, None)),
        ] {
            let what = format!("{} pair {k} {name}", core::any::type_name::<V>());
            match truth {
                Some(t) => {
                    let speed = (d(vb) - d(va)).length();
                    check_hit(&out, target, dist_tol::<V>(), &what);
                    // Never late; early by at most the distance tolerance over the speed.
                    let late = out.toi.to_f64() - t;
                    assert!(late <= 1e-6 * t.max(1.0), "{what}: toi {} vs {t}", out.toi.to_f64());
                    assert!(
                        -late <= 4.0 * dist_tol::<V>() / speed.clamp(1e-3, 1.0) + 1e-9,
                        "{what}: toi {} vs {t}",
                        out.toi.to_f64()
                    );
                }
                None => assert_eq!(out.status, CastStatus::Miss, "{what}: {out:?}"),
            }
        }
        hits += usize::from(truth.is_some());
    }
    assert_mixed(hits, n, "ball pairs hitting");
}

#[test]
fn balls_match_the_quadratic_all_dims() {
    balls_match_the_quadratic::<Vec2>(1);
    balls_match_the_quadratic::<DVec2>(2);
    balls_match_the_quadratic::<Vec3>(3);
    balls_match_the_quadratic::<DVec3>(4);
}

/// The Minkowski difference of two point sets in f64, as planes, with a ray cast from the
/// origin along `r`: the time the cores first touch. `skin` grows the planes (to bracket
/// grazing rays).
fn minkowski_toi(dim: usize, wa: &[[f64; 3]], wb: &[[f64; 3]], r: DVec3, skin: f64) -> Option<f64> {
    let diff: Vec<DVec3> = wa
        .iter()
        .flat_map(|a| wb.iter().map(move |b| DVec3::from_array(*a) - DVec3::from_array(*b)))
        .collect();
    if dim == 2 {
        let pts: Vec<DVec2> = diff.iter().map(|p| p.truncate()).collect();
        let planes: Vec<(DVec2, f64)> = planes_2d(&pts).into_iter().map(|(n, c)| (n, c + skin)).collect();
        ray_polytope(&planes, r.truncate(), 1.0, |a, b| a.dot(b))
    } else {
        let planes: Vec<(DVec3, f64)> =
            solid3d::planes(&diff).into_iter().map(|(n, c)| (n, c + skin)).collect();
        ray_polytope(&planes, r, 1.0, |a, b| a.dot(b))
    }
}

fn polytopes_match_the_minkowski_ray<V: Space>(seed: u64, pairs: usize)
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut r = rng(seed);
    let (mut hits, mut n) = (0, 0);
    for k in 0..pairs {
        // A cloud of 6 to 8 points (a user's shape) or a box, against the same.
        let shape = |r: &mut rand_chacha::ChaCha8Rng, i: usize| -> (Box<dyn Support<V>>, Vec<V>) {
            if i % 2 == 0 {
                let pts: Vec<V> = (0..r.random_range(6..9)).map(|_| vec_in(r, -1.0, 1.0)).collect();
                (Box::new(PointCloud(pts.clone())), pts)
            } else {
                let h: V = vec_in(r, 0.2, 1.0);
                (Box::new(Cuboid::new(h)), solid3d::corners(h))
            }
        };
        let (sa, va_pts) = shape(&mut r, k);
        let (sb, vb_pts) = shape(&mut r, k / 2);
        let pa: Pose<V> = common::pose(&mut r, 1.0);
        let pb: Pose<V> = Pose::new(
            pa.translation + unit::<V>(&mut r) * V::Real::from_f64(4.0),
            common::rotation::<V>(&mut r),
        );
        let vb: V = pa.translation - pb.translation + vec_in::<V>(&mut r, -2.0, 2.0);
        let va: V = vec_in(&mut r, -0.3, 0.3);
        let input = CastInput::linear(va, vb, V::Real::ONE);
        let out = shape_cast(&*sa, &pa, &*sb, &pb, &input, None);
        let wa: Vec<[f64; 3]> = va_pts.iter().map(|&p| to_world_f64(&pa, p)).collect();
        let wb: Vec<[f64; 3]> = vb_pts.iter().map(|&p| to_world_f64(&pb, p)).collect();
        let rel = d(vb) - d(va);
        let tol = dist_tol::<V>();
        let what = format!("{} pair {k}", core::any::type_name::<V>());
        if minkowski_toi(V::DIM, &wa, &wb, DVec3::ZERO, 0.0).is_some() {
            continue; // overlapping at time 0: not this test's subject
        }
        n += 1;
        let exact = minkowski_toi(V::DIM, &wa, &wb, rel, 0.0);
        let tight = minkowski_toi(V::DIM, &wa, &wb, rel, -tol);
        let loose = minkowski_toi(V::DIM, &wa, &wb, rel, tol);
        match out.status {
            CastStatus::Hit => {
                let loose = loose.unwrap_or_else(|| {
                    panic!("{what}: kollide hit {out:?}, the oracle misses by more than {tol}")
                });
                check_hit(&out, 0.0, tol, &what);
                // Not later than the touch of the exact difference (nor than the grown
                // one), not earlier than the grown one.
                let t = out.toi.to_f64();
                assert!(t >= loose - 1e-9, "{what}: toi {t} before the grown difference's {loose}");
                if let Some(e) = exact {
                    assert!(t <= e + 1e-9, "{what}: toi {t} after the exact {e}");
                }
                hits += 1;
            }
            CastStatus::Miss => {
                assert!(tight.is_none(), "{what}: kollide misses, the shrunk difference is hit at {tight:?}");
            }
            s => panic!("{what}: status {s:?}: {out:?}"),
        }
    }
    assert_mixed(hits, n, "polytope pairs hitting");
}

#[test]
fn polytopes_match_the_minkowski_ray_all_dims() {
    polytopes_match_the_minkowski_ray::<Vec2>(11, 300);
    polytopes_match_the_minkowski_ray::<DVec2>(12, 300);
    polytopes_match_the_minkowski_ray::<Vec3>(13, 120);
    polytopes_match_the_minkowski_ray::<DVec3>(14, 120);
}

/// A ball falls on a box's top face, with and without a target distance: `toi` in closed
/// form, the face normal `+y`; a ball meeting the box's edge has no face normal.
#[test]
fn ball_on_a_box_face_and_edge() {
    let floor = Cuboid::new(DVec3::new(3.0, 0.5, 2.0));
    for (target, speed) in [(0.0, 2.0), (0.05, 7.0), (0.0, 1e4)] {
        let ball = Ball::new(0.25);
        let start = DPose3::from_translation(DVec3::new(0.7, 5.0, -0.3));
        let input = CastInput {
            target_distance: target,
            ..CastInput::linear(DVec3::NEG_Y * speed, DVec3::ZERO, 10.0)
        };
        let out = shape_cast(&ball, &start, &floor, &DPose3::IDENTITY, &input, None);
        check_hit(&out, target, 1e-8, "ball on face");
        assert_close(out.toi, (5.0 - 0.5 - 0.25 - target) / speed, 1e-8 / speed, "ball on face: toi");
        assert_eq!(out.face_normal, Some(DVec3::Y));
        assert_close((out.normal - DVec3::NEG_Y).length(), 0.0, 1e-8, "normal");
    }
    // Towards the edge x = 3, y = 0.5 along the diagonal: the edge is B's feature.
    let ball = Ball::new(0.25);
    let start = DPose3::from_translation(DVec3::new(5.0, 2.5, 0.0));
    let input = CastInput::linear(DVec3::new(-1.0, -1.0, 0.0), DVec3::ZERO, 10.0);
    let out = shape_cast(&ball, &start, &floor, &DPose3::IDENTITY, &input, None);
    check_hit(&out, 0.0, 1e-8, "ball on edge");
    assert_close(out.toi, 2.0 - 0.25 / 2f64.sqrt(), 1e-8, "ball on edge: toi");
    assert_eq!(out.face_normal, None, "an edge has no face normal");
}

/// A box slides face-on into another (f32, 2D and 3D): `toi` = gap / speed; the face of B
/// met is its -x side.
fn boxes_face_on<V: Space>() {
    let h = V::splat(V::Real::from_f64(0.5));
    let a = Cuboid::new(h);
    let b = Cuboid::new(h * V::Real::TWO);
    let pa = Pose::from_translation(V::ZERO);
    let pb =
        Pose::from_translation(V::axis(0) * V::Real::from_f64(4.0) + V::axis(1) * V::Real::from_f64(0.3));
    let input = CastInput::linear(
        V::axis(0) * V::Real::from_f64(3.0),
        V::axis(0) * -V::Real::ONE,
        V::Real::from_f64(5.0),
    );
    let out = shape_cast(&a, &pa, &b, &pb, &input, None);
    check_hit(&out, 0.0, dist_tol::<V>(), "boxes face on");
    assert_close(out.toi.to_f64(), 2.5 / 4.0, dist_tol::<V>(), "boxes face on: toi");
    let fnorm = out.face_normal.expect("face");
    assert_close((d(fnorm) + DVec3::X).length(), 0.0, 1e-6, "face normal -x");
}

#[test]
fn boxes_face_on_all_dims() {
    boxes_face_on::<Vec2>();
    boxes_face_on::<DVec2>();
    boxes_face_on::<Vec3>();
    boxes_face_on::<DVec3>();
}

/// Curved shapes (ellipsoid, cylinder, cone) against a moving ball, sampled: the truth is
/// the first time the ball's centre comes within its radius of the shape, by an f64
/// point-to-shape distance written independently (`common::oracle`).
#[test]
fn ball_against_curved_shapes_sampled() {
    use common::oracle::{point_cone, point_cylinder, point_ellipsoid};
    let mut r = rng(21);
    let (mut hits, n) = (0, 90);
    for k in 0..n {
        let rb = r.random_range(0.1..0.6);
        let pose_s: DPose3 = common::pose(&mut r, 0.5);
        let start = pose_s.translation + unit::<DVec3>(&mut r) * 3.5;
        let vel = pose_s.translation - start + vec_in::<DVec3>(&mut r, -1.5, 1.5);
        let ball = Ball::new(rb);
        let input = CastInput::linear(vel, DVec3::ZERO, 1.0);
        let ps = DPose3::from_translation(start);
        let (out, dist): (CastOutput<DVec3>, Box<dyn Fn(DVec3) -> f64>) = match k % 3 {
            0 => {
                let radii = vec_in::<DVec3>(&mut r, 0.3, 1.2);
                (
                    shape_cast(&ball, &ps, &Ellipsoid::new(radii), &pose_s, &input, None),
                    Box::new(move |p| point_ellipsoid(p, radii)),
                )
            }
            1 => {
                let (hh, rr) = (r.random_range(0.3..1.0), r.random_range(0.3..1.0));
                (
                    shape_cast(&ball, &ps, &Cylinder::new(hh, rr), &pose_s, &input, None),
                    Box::new(move |p| point_cylinder(p, hh, rr)),
                )
            }
            _ => {
                let (hh, rr) = (r.random_range(0.3..1.0), r.random_range(0.3..1.0));
                (
                    shape_cast(&ball, &ps, &Cone::new(hh, rr), &pose_s, &input, None),
                    Box::new(move |p| point_cone(p, hh, rr)),
                )
            }
        };
        let truth = first_overlap(1.0, 400, |t| dist(pose_s.inverse_transform_point(start + vel * t)) <= rb);
        let what = format!("curved pair {k} ({})", ["ellipsoid", "cylinder", "cone"][k % 3]);
        match (truth, out.status) {
            (Some(t), CastStatus::Hit) => {
                check_hit(&out, 0.0, 1e-7, &what);
                let speed = vel.length();
                assert!(out.toi <= t + 1e-9, "{what}: toi {} after the sampled touch {t}", out.toi);
                // The distance at toi is within tolerance of 0, so the time is close
                // unless the approach is grazing.
                let centre = pose_s.inverse_transform_point(start + vel * out.toi);
                assert_close(dist(centre) - rb, 0.0, 1e-7, &format!("{what}: oracle distance at toi"));
                let _ = speed;
                hits += 1;
            }
            (None, CastStatus::Miss) => {}
            (truth, _) => panic!("{what}: truth {truth:?}, kollide {out:?}"),
        }
    }
    assert_mixed(hits, n, "curved pairs hitting");
}

/// Tunnelling: a 1e-4 thick wall, a ball at 1e4 units per unit of time, a box grazing a
/// wall's edge; none passes through.
fn no_tunnelling<V: Space>() {
    let wall = Cuboid::new(V::splat(V::Real::from_f64(5.0)) - V::axis(0) * V::Real::from_f64(5.0 - 5e-5));
    let pw = Pose::from_translation(V::ZERO);
    let ball = Ball::new(V::Real::from_f64(0.01));
    // From 5000 to the left, at 1e4: crosses the wall within one step of the search.
    let start =
        Pose::from_translation(V::axis(0) * V::Real::from_f64(-5000.0) + V::axis(1) * V::Real::from_f64(0.2));
    let out = shape_cast(
        &ball,
        &start,
        &wall,
        &pw,
        &CastInput::linear(V::axis(0) * V::Real::from_f64(1e4), V::ZERO, V::Real::ONE),
        None,
    );
    assert_eq!(out.status, CastStatus::Hit, "{out:?}");
    // The rounding of coordinates near 5000 (40 ε M) over the speed.
    let floor = 40.0 * V::Real::EPSILON.to_f64() * 5000.0 / 1e4;
    assert_close(out.toi.to_f64(), (5000.0 - 5e-5 - 0.01) / 1e4, floor + 1e-9, "fast ball toi");
    let bx = Cuboid::new(V::splat(V::Real::from_f64(0.2)));
    let start =
        Pose::from_translation(V::axis(0) * V::Real::from_f64(-3.0) + V::axis(1) * V::Real::from_f64(5.19));
    let out = shape_cast(
        &bx,
        &start,
        &wall,
        &pw,
        &CastInput::linear(V::axis(0) * V::Real::from_f64(1e4), V::ZERO, V::Real::ONE),
        None,
    );
    assert_eq!(out.status, CastStatus::Hit, "box grazing the wall's top edge by 0.01: {out:?}");
    let start =
        Pose::from_translation(V::axis(0) * V::Real::from_f64(-3.0) + V::axis(1) * V::Real::from_f64(5.21));
    let out = shape_cast(
        &bx,
        &start,
        &wall,
        &pw,
        &CastInput::linear(V::axis(0) * V::Real::from_f64(1e4), V::ZERO, V::Real::ONE),
        None,
    );
    assert_eq!(out.status, CastStatus::Miss, "box passing 0.01 above the wall: {out:?}");
}

#[test]
fn no_tunnelling_all_dims() {
    no_tunnelling::<Vec2>();
    no_tunnelling::<DVec2>();
    no_tunnelling::<Vec3>();
    no_tunnelling::<DVec3>();
}

/// Hostile input: zero motion, identical poses, touching starts approaching and leaving,
/// NaN and infinite `max_toi`, NaN target and velocities, huge and tiny scales.
#[test]
fn hostile_input() {
    let cube = Cuboid::new(Vec3::ONE);
    let id = Pose3::IDENTITY;
    let apart = Pose3::from_translation(Vec3::X * 3.0);
    let touching = Pose3::from_translation(Vec3::X * 2.0);
    let no_nan = |o: &CastOutput<Vec3>| {
        assert!(o.toi.is_finite() && o.safe_toi.is_finite() && o.distance.is_finite(), "{o:?}");
        assert!(o.normal.is_finite() && o.point_a.is_finite() && o.point_b.is_finite(), "{o:?}");
    };
    let cast = |pb: &Pose3, input: CastInput<Vec3>| {
        let o = shape_cast(&cube, &id, &cube, pb, &input, None);
        no_nan(&o);
        o
    };
    // Zero motion, apart: a miss; identical poses, still: within but not approaching.
    assert_eq!(cast(&apart, CastInput::linear(Vec3::ZERO, Vec3::ZERO, 1.0)).status, CastStatus::Miss);
    assert_eq!(cast(&id, CastInput::linear(Vec3::ZERO, Vec3::ZERO, 1.0)).status, CastStatus::Miss);
    // Identical poses, approaching along x: started within, depth 2.
    let o = cast(&id, CastInput::linear(Vec3::X, Vec3::ZERO, 1.0));
    assert_eq!(o.status, CastStatus::StartedWithin);
    assert_close(o.distance as f64, -2.0, 1e-5, "depth of coincident cubes");
    // Touching, approaching vs leaving.
    let o = cast(&touching, CastInput::linear(Vec3::ZERO, Vec3::NEG_X, 1.0));
    assert_eq!(o.status, CastStatus::StartedWithin, "{o:?}");
    assert_close((o.normal - Vec3::X).length() as f64, 0.0, 1e-5, "touching normal");
    assert_eq!(cast(&touching, CastInput::linear(Vec3::ZERO, Vec3::X, 1.0)).status, CastStatus::Miss);
    assert_eq!(
        cast(&touching, CastInput::linear(Vec3::ZERO, Vec3::Y, 1.0)).status,
        CastStatus::Miss,
        "tangential"
    );
    // max_toi NaN, negative, infinite.
    let v = CastInput::linear(Vec3::ZERO, Vec3::NEG_X, f32::NAN);
    let o = cast(&apart, v);
    assert_eq!((o.status, o.toi), (CastStatus::Miss, 0.0));
    assert_eq!(cast(&apart, CastInput { max_toi: -1.0, ..v }).status, CastStatus::Miss);
    let o = cast(&apart, CastInput { max_toi: f32::INFINITY, ..v });
    assert_eq!(o.status, CastStatus::Hit);
    assert_close(o.toi as f64, 1.0, 1e-4, "infinite max_toi");
    // NaN target counts as 0; NaN velocity is a failure at 0.
    let o = cast(&apart, CastInput { target_distance: f32::NAN, max_toi: 2.0, ..v });
    assert_close(o.toi as f64, 1.0, 1e-4, "NaN target");
    let o = cast(&apart, CastInput::linear(Vec3::NAN, Vec3::ZERO, 1.0));
    assert_eq!((o.status, o.safe_toi), (CastStatus::Failed, 0.0));
    let o = cast(
        &apart,
        CastInput { target_distance: f32::INFINITY, ..CastInput::linear(Vec3::ZERO, Vec3::NEG_X, 1.0) },
    );
    assert_ne!(o.status, CastStatus::Hit);
    // Huge and tiny scales (f64 and f32): the time is scale-free.
    for s in [1e-6f64, 1e6] {
        let big = Cuboid::new(DVec3::ONE * s);
        let out = shape_cast(
            &big,
            &DPose3::IDENTITY,
            &big,
            &DPose3::from_translation(DVec3::X * 3.0 * s),
            &CastInput::linear(DVec3::ZERO, DVec3::NEG_X * s, 2.0),
            None,
        );
        assert_close(out.toi, 1.0, 1e-8, &format!("scale {s}"));
        let big = Cuboid::new(Vec3::ONE * s as f32);
        let out = shape_cast(
            &big,
            &Pose3::IDENTITY,
            &big,
            &Pose3::from_translation(Vec3::X * 3.0 * s as f32),
            &CastInput::linear(Vec3::ZERO, Vec3::NEG_X * s as f32, 2.0),
            None,
        );
        assert_close(out.toi as f64, 1.0, 1e-4, &format!("f32 scale {s}"));
    }
    // A ball cast: far from the origin (1e6) in f32 still hits.
    let ball = Ball::new(0.5f32);
    let far = Vec3::splat(1e6);
    let out = shape_cast(
        &ball,
        &Pose3::from_translation(far),
        &ball,
        &Pose3::from_translation(far + Vec3::X * 3.0),
        &CastInput::linear(Vec3::X, Vec3::ZERO, 5.0),
        None,
    );
    assert_eq!(out.status, CastStatus::Hit);
    // Never late; early by at most the stated rounding floor, 8 ε M (0.95 at 1e6 in f32).
    let floor = 8.0 * f32::EPSILON as f64 * 1e6;
    assert!(out.toi <= 2.0 && out.toi as f64 >= 2.0 - floor, "far ball: toi {}", out.toi);
    let _ = Motion::<Vec2>::default();
}
