//! Nothing passes through a wall of zero thickness: linear and rotating casts and the swept
//! sphere against a single triangle, at speeds up to a million wall-sizes per step, at a
//! grazing angle, and spinning. The exact times are closed forms (a plane crossing).

use kollide::math::{DPose3, DQuat, DVec3, Pose3, Quat, Vec3};
use kollide::query::cast::{
    shape_cast, sweep, BackFaces, CastInput, CastStatus, Motion, SweepOutcome, SweptShape,
};
use kollide::query::distance;
use kollide::shape::{Ball, ConvexHull, Cuboid, Support, Triangle};

/// The wall: one triangle in the plane x = 0 covering |y|, |z| <= 5 around the origin.
fn wall() -> Triangle<DVec3> {
    Triangle::new(DVec3::new(0.0, -20.0, -20.0), DVec3::new(0.0, 20.0, -20.0), DVec3::new(0.0, 0.0, 40.0))
}

/// A linear cast of `shape` from x = -10 towards the wall at `speed` (units per step) along
/// `dir`; its reach along +x is `reach` (the time the plane is touched is closed form).
fn hits_in_time<S: Support<DVec3>>(shape: &S, reach: f64, speed: f64, dir: DVec3, what: &str) {
    let start = DPose3::new(DVec3::new(-10.0, 0.3, -0.2), DQuat::IDENTITY);
    let input = CastInput::linear(dir * speed, DVec3::ZERO, 1.0);
    let out = shape_cast(shape, &start, &wall(), &DPose3::IDENTITY, &input, None);
    let exact = (10.0 - reach) / (dir.x * speed);
    assert_eq!(out.status, CastStatus::Hit, "{what} at speed {speed}: {out:?}");
    // Never after the touch; before it by at most the cast's tolerance (1e-9 of the sizes:
    // the wall's extent, about 45, dominates) over the approach speed.
    let slack = 1e-9 * (reach + 50.0) / (dir.x * speed);
    assert!(
        out.toi <= exact + 1e-15 && out.toi >= exact - slack,
        "{what} at {speed}: toi {} vs {exact}",
        out.toi
    );
    assert!((out.normal - DVec3::X).length() < 1e-6, "{what} at {speed}: normal {:?}", out.normal);
    // At the reported time the shapes are still apart (or touching within rounding).
    let at = start.with_translation(start.translation + dir * speed * out.toi);
    let d = distance(shape, &at, &wall(), &DPose3::IDENTITY);
    assert!(d.distance >= 0.0 && d.distance <= 1e-6 * (1.0 + reach), "{what} at {speed}: gap {}", d.distance);
}

#[test]
fn fast_shapes_stop_at_a_wall_of_zero_thickness() {
    let ball = Ball::new(0.1);
    let cube = Cuboid::new(DVec3::splat(0.05));
    let tetra = ConvexHull::from_points(&[
        DVec3::new(0.08, 0.0, 0.0),
        DVec3::new(-0.05, 0.07, 0.0),
        DVec3::new(-0.05, -0.04, 0.06),
        DVec3::new(-0.05, -0.04, -0.06),
    ]);
    for speed in [20.0, 1.0e3, 1.0e5, 1.0e6] {
        for dir in [DVec3::X, DVec3::new(1.0, 0.3, -0.4).normalize()] {
            hits_in_time(&ball, 0.1, speed, dir, "ball");
            hits_in_time(&cube, 0.05, speed, dir, "cube");
            hits_in_time(&tetra, 0.08, speed, dir, "tetrahedron");
        }
    }
}

#[test]
fn a_grazing_approach_is_caught() {
    // Nearly parallel to the wall: 0.01 rad into it, starting 0.05 from touching. The ball's
    // surface meets the plane at t = 0.05 / (speed sin θ), 5 units along the wall.
    let theta: f64 = 1.0e-2;
    let dir = DVec3::new(theta.sin(), theta.cos(), 0.0);
    let ball = Ball::new(0.1);
    let start = DPose3::from_translation(DVec3::new(-0.15, -15.0, 0.0));
    let speed = 2.0e4;
    let input = CastInput::linear(dir * speed, DVec3::ZERO, 1.0);
    let out = shape_cast(&ball, &start, &wall(), &DPose3::IDENTITY, &input, None);
    let exact = 0.05 / (speed * theta.sin());
    assert_eq!(out.status, CastStatus::Hit, "{out:?}");
    assert!(out.toi <= exact && out.toi > exact * (1.0 - 1e-5), "toi {} vs {exact}", out.toi);
}

#[test]
fn a_spinning_plank_does_not_pass_through_a_triangle() {
    // A plank 4 long and 2e-4 thick, its centre 1.5 from the wall, spinning about z at up to
    // 300 rad per step: its tip (2 from the centre) reaches the wall when it has turned by
    // acos(1.5 / 2) minus the thickness' share. The cast must stop with the plank apart.
    let plank = Cuboid::new(Vec3::new(2.0, 1.0e-4, 0.5));
    let wall =
        Triangle::new(Vec3::new(0.0, -20.0, -20.0), Vec3::new(0.0, 20.0, -20.0), Vec3::new(0.0, 0.0, 40.0));
    let start = Pose3::new(Vec3::new(-1.5, 0.0, 0.0), Quat::from_rotation_z(1.5));
    for w in [1.0f32, 30.0, 300.0] {
        let input = CastInput {
            motion_a: Motion { velocity: Vec3::ZERO, angular_velocity: Vec3::new(0.0, 0.0, -w) },
            motion_b: Motion::default(),
            max_toi: 1.0,
            target_distance: 0.0,
        };
        let out = shape_cast(&plank, &start, &wall, &Pose3::IDENTITY, &input, None);
        // Turning from 1.5 rad towards 0: the plank's end meets x = 0 at angle φ with
        // 2 cos φ + 1e-4 sin φ = 1.5, i.e. after turning by 1.5 - φ.
        let phi = {
            let mut lo = 0.0f64;
            let mut hi = 1.5f64;
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if 2.0 * mid.cos() + 1.0e-4 * mid.sin() > 1.5 {
                    lo = mid
                } else {
                    hi = mid
                }
            }
            lo
        };
        let exact = (1.5 - phi) / f64::from(w);
        match out.status {
            CastStatus::Hit => {
                let toi = f64::from(out.toi);
                assert!(
                    toi <= exact * (1.0 + 1e-5) && toi >= exact * (1.0 - 2e-3),
                    "w {w}: toi {toi} vs {exact}"
                );
            }
            // Conservative advancement may stop short at its cap: then it must say how far
            // it proved the plank safe, never past the touch.
            CastStatus::Failed => assert!(f64::from(out.safe_toi) <= exact, "w {w}: {out:?}"),
            other => panic!("w {w}: {other:?} ({out:?})"),
        }
    }
}

#[test]
fn a_fast_swept_sphere_stops_at_a_triangle() {
    let tri = [[DVec3::new(0.0, -20.0, -20.0), DVec3::new(0.0, 20.0, -20.0), DVec3::new(0.0, 0.0, 40.0)]];
    for length in [20.0, 1.0e3, 1.0e6] {
        let out = sweep(
            SweptShape::ball(DVec3::new(-10.0, 0.3, 0.2), 0.1),
            DVec3::X * length,
            &tri,
            BackFaces::Hit,
            None,
        )
        .unwrap();
        let SweepOutcome::Hit(hit) = out else { panic!("{length}: {out:?}") };
        let exact = 9.9 / length;
        assert!((hit.toi - exact).abs() <= 1e-12 * exact.max(1.0), "{length}: {} vs {exact}", hit.toi);
        assert!((hit.normal - DVec3::NEG_X).length() < 1e-12);
    }
}
