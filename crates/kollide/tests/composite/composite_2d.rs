//! 2D composites (polylines, compounds) and 3D compounds against convex shapes, checked
//! against brute force over their parts in f64 (closed-form point-segment distances for
//! circles, the convex queries part by part otherwise); and a circle rolling along a
//! straight polyline of many segments never bumps at a joint.

use crate::common;

use common::{assert_mixed, rng};
use kollide::composite::{self, Compound, Polyline};
use kollide::math::{DPose2, DPose3, DQuat, DVec2, DVec3};
use kollide::query::cast::{sweep, BackFaces, Ray, RayOutcome, SweepOutcome, SweptShape};
use kollide::query::{distance, intersects};
use kollide::shape::{Ball, Convex2, Convex3, Cuboid};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

fn point_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let e = b - a;
    let t =
        if e.length_squared() > 0.0 { ((p - a).dot(e) / e.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    (p - (a + e * t)).length()
}

fn random_polyline(rng: &mut ChaCha8Rng) -> Polyline<DVec2> {
    let n = rng.random_range(2..30usize);
    let mut p = DVec2::new(-5.0, 0.0);
    let mut v = vec![p];
    for k in 1..n {
        p += DVec2::new(rng.random_range(0.0..1.0), rng.random_range(-0.8..0.8));
        if k % 9 == 0 {
            v.push(p); // a repeated vertex: a segment of length 0
        }
        v.push(p);
    }
    Polyline::new(v)
}

#[test]
fn circles_against_polylines_match_brute_force() {
    let mut rng = rng(1201);
    let (mut hits, mut total) = (0, 0);
    for case in 0..800 {
        let line = random_polyline(&mut rng);
        let pose = DPose2::from_angle(
            DVec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)),
            rng.random_range(-3.0..3.0),
        );
        let world: Vec<DVec2> = line.vertices().iter().map(|&p| pose.transform_point(p)).collect();
        let centre =
            pose.transform_point(DVec2::new(rng.random_range(-5.0..10.0), rng.random_range(-1.0..1.0)));
        let r = rng.random_range(0.05..1.5);
        let truth = world.windows(2).map(|w| point_segment(centre, w[0], w[1])).fold(f64::INFINITY, f64::min);
        let ball = Ball::new(r);
        let at = DPose2::from_translation(centre);
        let out = composite::distance(&line, &pose, &ball, &at);
        let expected = (truth - r).max(0.0);
        assert!(
            (out.value.distance - expected).abs() < 1e-9,
            "case {case}: {} vs {expected}",
            out.value.distance
        );
        if (truth - r).abs() > 1e-9 {
            assert_eq!(composite::intersects(&line, &pose, &ball, &at).is_some(), truth < r, "case {case}");
            hits += usize::from(truth < r);
            total += 1;
        }
        if truth > r {
            let c = composite::contact(&line, &pose, &ball, &at, 2.0);
            if truth - r <= 2.0 {
                assert!((c.unwrap().value.distance - (truth - r)).abs() < 1e-9, "case {case}: contact");
            }
        }
        // A ray and a swept circle from the same centre.
        let d = DVec2::new(rng.random_range(-4.0..4.0), rng.random_range(-4.0..4.0));
        if d.length() > 0.1 {
            let segs: Vec<[DVec2; 2]> = world.windows(2).map(|w| [w[0], w[1]]).collect();
            let soup = sweep(SweptShape::ball(centre, r), d, &segs, BackFaces::Hit, None).unwrap();
            let got = composite::sweep(&line, &pose, SweptShape::ball(centre, r), d, BackFaces::Hit).unwrap();
            match (soup, got) {
                (SweepOutcome::Hit(a), SweepOutcome::Hit(b)) => {
                    assert!((a.toi - b.toi).abs() < 1e-9, "case {case}")
                }
                (SweepOutcome::Miss, SweepOutcome::Miss) => {}
                (
                    SweepOutcome::StartedWithin { distance: x, .. },
                    SweepOutcome::StartedWithin { distance: y, .. },
                ) => {
                    assert!((x - y).abs() < 1e-9, "case {case}")
                }
                (a, b) => panic!("case {case}: soup {a:?} line {b:?}"),
            }
            let first = segs
                .iter()
                .filter_map(|s| {
                    match kollide::query::cast::ray_cast(
                        &kollide::shape::Segment::new(s[0], s[1]),
                        &DPose2::IDENTITY,
                        &Ray::new(centre, d),
                        1.0,
                    ) {
                        RayOutcome::Hit(h) => Some(h.toi),
                        _ => None,
                    }
                })
                .fold(f64::INFINITY, f64::min);
            let got = composite::ray_cast(&line, &pose, &Ray::new(centre, d), 1.0).map(|o| match o.value {
                RayOutcome::Hit(h) => h.toi,
                _ => 0.0,
            });
            assert_eq!(got.is_some(), first.is_finite(), "case {case}: ray");
            if let Some(t) = got {
                assert!((t - first).abs() < 1e-9, "case {case}: ray {t} vs {first}");
            }
        }
    }
    assert_mixed(hits, total, "circles against polylines");
}

#[test]
fn a_circle_rolling_on_a_straight_line_of_many_segments_never_bumps() {
    let v: Vec<DVec2> = (0..=40).map(|i| DVec2::new(i as f64 * 0.5 - 10.0, 0.0)).collect();
    let line = Polyline::new(v);
    let ball = Ball::new(0.3);
    for step in 0..4000 {
        let x = -9.5 + step as f64 * 0.00475;
        for depth in [1e-4, 0.01, 0.1] {
            let at = DPose2::from_translation(DVec2::new(x, 0.3 - depth));
            let c = composite::contact(&line, &DPose2::IDENTITY, &ball, &at, 0.0).unwrap().value;
            assert!((c.normal - DVec2::Y).length() < 1e-6, "x {x}, depth {depth}: {:?}", c.normal);
            assert!((c.distance + depth).abs() < 1e-9, "x {x}: {}", c.distance);
        }
    }
}

#[test]
fn compounds_match_brute_force_over_parts_2d_and_3d() {
    let mut rng = rng(1202);
    let (mut hits, mut total) = (0, 0);
    for case in 0..300 {
        let parts2: Vec<(DPose2, Convex2<DVec2>)> = (0..rng.random_range(1..8))
            .map(|_| {
                let p = DPose2::from_angle(
                    DVec2::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)),
                    rng.random_range(-3.0..3.0),
                );
                let s = if rng.random_bool(0.5) {
                    Convex2::Ball(Ball::new(rng.random_range(0.2..1.0)))
                } else {
                    Convex2::Cuboid(Cuboid::new(DVec2::new(
                        rng.random_range(0.2..1.0),
                        rng.random_range(0.2..1.0),
                    )))
                };
                (p, s)
            })
            .collect();
        let compound = Compound::new(parts2.clone());
        let pose =
            DPose2::from_angle(DVec2::new(rng.random_range(-1.0..1.0), 0.0), rng.random_range(-3.0..3.0));
        let probe = Cuboid::new(DVec2::new(0.4, 0.3));
        let at =
            DPose2::from_angle(DVec2::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)), 0.7);
        let truth = parts2
            .iter()
            .map(|(p, s)| distance(s, &pose.compose(p), &probe, &at).distance)
            .fold(f64::INFINITY, f64::min);
        let overlap = parts2.iter().any(|(p, s)| intersects(s, &pose.compose(p), &probe, &at));
        let out = composite::distance(&compound, &pose, &probe, &at);
        assert!((out.value.distance - truth).abs() < 1e-9, "case {case}: {} vs {truth}", out.value.distance);
        assert_eq!(composite::intersects(&compound, &pose, &probe, &at).is_some(), overlap, "case {case}");
        hits += usize::from(overlap);
        total += 1;
        // The same in 3D.
        let parts3: Vec<(DPose3, Convex3<DVec3>)> = parts2
            .iter()
            .map(|(p, s)| {
                let q = DQuat::from_rotation_y(p.rotation.angle());
                let t = DVec3::new(p.translation.x, rng.random_range(-1.0..1.0), p.translation.y);
                let s = match s {
                    Convex2::Ball(b) => Convex3::Ball(Ball::new(b.radius)),
                    _ => Convex3::Cuboid(Cuboid::new(DVec3::new(0.5, 0.3, 0.7))),
                };
                (DPose3::new(t, q), s)
            })
            .collect();
        let c3 = Compound::new(parts3.clone());
        let pose3 = DPose3::new(DVec3::new(0.3, -0.2, 0.1), DQuat::from_rotation_x(0.4));
        let probe3 = Ball::new(0.5);
        let at3 = DPose3::from_translation(DVec3::new(
            rng.random_range(-4.0..4.0),
            rng.random_range(-2.0..2.0),
            rng.random_range(-4.0..4.0),
        ));
        let truth3 = parts3
            .iter()
            .map(|(p, s)| distance(s, &pose3.compose(p), &probe3, &at3).distance)
            .fold(f64::INFINITY, f64::min);
        let out3 = composite::distance(&c3, &pose3, &probe3, &at3);
        assert!(
            (out3.value.distance - truth3).abs() < 1e-9,
            "case {case}: 3D {} vs {truth3}",
            out3.value.distance
        );
    }
    assert_mixed(hits, total, "boxes against compounds");
}
