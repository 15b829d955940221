//! The traced swept sphere, ellipsoid, circle and ellipse: the steps each test records,
//! checked against a closed form and, on random soups, against the geometry they claim
//! (every root puts the surface on the recorded point; a hit's point is on its feature, an
//! off-feature root's is not), and the answer unchanged by tracing.

use crate::common::{rng, rotation};
use glam::{DQuat, DVec2, DVec3, Vec3};
use kollide::math::{DPose2, DPose3};
use kollide::query::cast::{sweep, BackFaces, SweepOutcome, SweepStep, SweepTest, SweepVerdict, SweptShape};
use kollide::shape::Ellipsoid;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A ball rolling at a small upright triangle over its top corner: the face plane's foot
/// is above the triangle, two edge lines are met beyond the corner, and the corner is hit.
#[test]
fn a_ball_over_a_triangles_top_corner_records_each_feature() {
    let tri = [[DVec3::new(2.0, 0.0, -1.0), DVec3::new(2.0, 0.0, 1.0), DVec3::new(2.0, 0.5, 0.0)]];
    let (c, r, d) = (DVec3::new(0.0, 1.0, 0.0), 0.75, DVec3::new(4.0, 0.0, 0.0));
    let mut trace = Vec::new();
    let out = sweep(SweptShape::ball(c, r), d, &tri, BackFaces::Hit, Some(&mut trace)).unwrap();
    let tests: Vec<(SweepTest, SweepVerdict)> = trace.iter().map(|s| (s.test, s.verdict)).collect();
    use SweepTest::{Edge, Face, Vertex};
    use SweepVerdict::{Hit, NoRoot, OffFeature};
    assert_eq!(
        tests,
        [
            (Face, OffFeature),
            (Edge(0), NoRoot),
            (Edge(1), OffFeature),
            (Edge(2), OffFeature),
            (Vertex(0), NoRoot),
            (Vertex(1), NoRoot),
            (Vertex(2), Hit),
        ]
    );
    // The plane x = 2 is reached when the centre is at x = 1.25; its foot (2, 1, 0).
    assert!((trace[0].toi.unwrap() - 1.25 / 4.0).abs() < 1e-15);
    assert!((trace[0].point.unwrap() - DVec3::new(2.0, 1.0, 0.0)).length() < 1e-15);
    // Edge b→c's line is 0.5 / √1.25 from the path in the plane: entered at
    // x = 2 - √(r² - 0.2), at the line's point 1.2 of the way from b to c.
    let x = 2.0 - (r * r - 0.2f64).sqrt();
    assert!((trace[2].toi.unwrap() - x / 4.0).abs() < 1e-15);
    assert!((trace[2].point.unwrap() - DVec3::new(2.0, 0.6, -0.2)).length() < 1e-14);
    // The corner (2, 0.5, 0) is 0.5 below the path: reached at x = 2 - √(r² - 0.25).
    let t = (2.0 - (r * r - 0.25f64).sqrt()) / 4.0;
    assert!((trace[6].toi.unwrap() - t).abs() < 1e-15);
    assert_eq!(trace[6].point, Some(DVec3::new(2.0, 0.5, 0.0)));
    assert!(trace.iter().all(|s| s.index == 0));
    let SweepOutcome::Hit(hit) = out else { panic!("{out:?}") };
    assert_eq!(hit.toi, trace[6].toi.unwrap());
}

/// Culled and out-of-reach triangles are recorded as skipped; a start on a floor as such.
#[test]
fn skips_and_starts_are_recorded() {
    let floor = [DVec3::new(-5.0, 0.0, -5.0), DVec3::new(-5.0, 0.0, 5.0), DVec3::new(5.0, 0.0, 0.0)];
    let far = [DVec3::new(-5.0, 9.0, -5.0), DVec3::new(5.0, 9.0, 0.0), DVec3::new(-5.0, 9.0, 5.0)];
    let mut trace = Vec::new();
    // Resting on the floor, rolling: the floor grazes; the roof 9 up is out of reach.
    let out = sweep(
        SweptShape::ball(DVec3::new(0.0, 0.5, 0.0), 0.5),
        DVec3::new(1.0, 0.0, 0.0),
        &[floor, far],
        BackFaces::Hit,
        Some(&mut trace),
    )
    .unwrap();
    assert_eq!(out, SweepOutcome::Miss);
    let floor_steps: Vec<_> = trace.iter().filter(|s| s.index == 0).collect();
    assert_eq!(floor_steps[0].test, SweepTest::Start);
    assert_eq!(floor_steps[0].verdict, SweepVerdict::Grazing);
    assert!((floor_steps[0].point.unwrap() - DVec3::ZERO).length() < 1e-15);
    // (the roof's box is not reached by the swept box at all: no step)
    assert!(trace.iter().all(|s| s.index == 0));
    // Falling from below through a floor facing up, culled: skipped.
    trace.clear();
    let out = sweep(
        SweptShape::ball(DVec3::new(0.0, -2.0, 0.0), 0.5),
        DVec3::Y * 4.0,
        &[floor],
        BackFaces::Cull,
        Some(&mut trace),
    )
    .unwrap();
    assert_eq!(out, SweepOutcome::Miss);
    assert_eq!((trace[0].test, trace[0].verdict), (SweepTest::Culled, SweepVerdict::Skipped));
    // Sunk into the floor: overlapping.
    trace.clear();
    let out = sweep(
        SweptShape::ball(DVec3::new(0.0, 0.25, 0.0), 0.5),
        DVec3::X,
        &[floor],
        BackFaces::Hit,
        Some(&mut trace),
    )
    .unwrap();
    assert!(matches!(out, SweepOutcome::StartedWithin { .. }));
    assert_eq!((trace[0].test, trace[0].verdict), (SweepTest::Start, SweepVerdict::Overlapping));
    // A leaning triangle whose box the swept box meets but whose plane (x - y = 3) the
    // sphere reaches only at x = 3 - 0.5 √2 = 2.29, beyond the motion's 2.2.
    trace.clear();
    let wall = [DVec3::new(2.0, -1.0, -1.0), DVec3::new(2.0, -1.0, 1.0), DVec3::new(4.0, 1.0, 0.0)];
    let out =
        sweep(SweptShape::ball(DVec3::ZERO, 0.5), DVec3::X * 2.2, &[wall], BackFaces::Hit, Some(&mut trace))
            .unwrap();
    assert_eq!(out, SweepOutcome::Miss);
    assert_eq!((trace[0].test, trace[0].verdict), (SweepTest::OutOfReach, SweepVerdict::Skipped));
}

/// Whether `p` is in triangle `t` (by the signs of the sub-areas, beyond `margin`
/// relative; `None` within it).
fn in_triangle(t: &[DVec3; 3], p: DVec3, margin: f64) -> Option<bool> {
    let n = (t[1] - t[0]).cross(t[2] - t[0]);
    let size = (t[1] - t[0]).length().max((t[2] - t[0]).length());
    let mut inside = true;
    for i in 0..3 {
        let (a, b) = (t[i], t[(i + 1) % 3]);
        let side = (b - a).cross(p - a).dot(n) / (n.length() * (b - a).length());
        if side.abs() < margin * size {
            return None;
        }
        inside &= side > 0.0;
    }
    Some(inside)
}

/// The random soup of `k` triangles in [-1, 1]³, a few without area.
fn soup(r: &mut ChaCha8Rng) -> Vec<[DVec3; 3]> {
    let k = r.random_range(1..=5);
    let mut p =
        || DVec3::new(r.random_range(-1.0..1.0), r.random_range(-1.0..1.0), r.random_range(-1.0..1.0));
    (0..k)
        .map(|i| {
            let (a, b) = (p(), p());
            let c = if i == 3 { a.lerp(b, 0.3) } else { p() };
            [a, b, c]
        })
        .collect()
}

/// Each step checked against the geometry it claims, for a mover whose surface point at
/// time `t` touching `point` is judged by `on_surface(t, point)` (how far from touching,
/// relative).
fn check_steps(
    tris: &[[DVec3; 3]],
    trace: &[SweepStep<DVec3>],
    out: &SweepOutcome<DVec3>,
    on_surface: impl Fn(f64, DVec3) -> f64,
    what: &str,
) -> usize {
    let mut checked = 0;
    for s in trace {
        let tri = &tris[s.index];
        let (Some(t), Some(p)) = (s.toi, s.point) else { continue };
        if s.test == SweepTest::Start {
            continue;
        }
        let off = on_surface(t, p);
        assert!(off < 1e-9, "{what}: {s:?} leaves the point {off} off the surface");
        checked += 1;
        let feature_ok = match s.test {
            SweepTest::Face => in_triangle(tri, p, 1e-9),
            SweepTest::Edge(i) => {
                let (a, b) = (tri[i as usize], tri[(i as usize + 1) % 3]);
                let u = (p - a).dot(b - a) / (b - a).length_squared();
                (u.abs() > 1e-9 && (u - 1.0).abs() > 1e-9).then_some((0.0..=1.0).contains(&u))
            }
            // (Exact for a sphere; an ellipsoid's corner comes back from its unit space.)
            SweepTest::Vertex(i) => Some((p - tri[i as usize]).length() < 1e-12),
            _ => None,
        };
        match (s.verdict, feature_ok) {
            (SweepVerdict::Hit | SweepVerdict::TooLate, Some(on)) => {
                assert!(on, "{what}: {s:?} is off its feature")
            }
            (SweepVerdict::OffFeature, Some(on)) => assert!(!on, "{what}: {s:?} is on its feature"),
            _ => {}
        }
    }
    if let SweepOutcome::Hit(hit) = out {
        let best = trace.iter().filter(|s| s.verdict == SweepVerdict::Hit && s.index == hit.index);
        assert!(
            best.clone().any(|s| s.toi == Some(hit.toi) && s.point == Some(hit.point)),
            "{what}: the answer {hit:?} is not among the recorded hits"
        );
    }
    checked
}

/// Random soups: tracing changes no answer, and every step's root and point hold.
#[test]
fn random_soups_record_roots_that_hold() {
    let mut r = rng(5);
    let mut checked = 0;
    for case in 0..2000 {
        let tris = soup(&mut r);
        let c = DVec3::new(r.random_range(-2.5..2.5), r.random_range(-2.5..2.5), r.random_range(-2.5..2.5));
        let d = DVec3::new(r.random_range(-4.0..4.0), r.random_range(-4.0..4.0), r.random_range(-4.0..4.0));
        let back = if case % 4 == 0 { BackFaces::Cull } else { BackFaces::Hit };
        let what = format!("case {case}");
        if case % 2 == 0 {
            let radius = r.random_range(0.05..0.6);
            let mut trace = Vec::new();
            let out = sweep(SweptShape::ball(c, radius), d, &tris, back, Some(&mut trace)).unwrap();
            assert_eq!(out, sweep(SweptShape::ball(c, radius), d, &tris, back, None).unwrap(), "{what}");
            checked +=
                check_steps(&tris, &trace, &out, |t, p| ((c + d * t - p).length() - radius).abs(), &what);
        } else {
            let radii =
                DVec3::new(r.random_range(0.05..0.6), r.random_range(0.05..0.6), r.random_range(0.05..0.6));
            let rot: DQuat = rotation::<DVec3>(&mut r);
            let pose = DPose3::try_new(c, rot).unwrap();
            let e = Ellipsoid::new(radii);
            let mut trace = Vec::new();
            let out = sweep(SweptShape::ellipsoid(&e, &pose), d, &tris, back, Some(&mut trace)).unwrap();
            assert_eq!(out, sweep(SweptShape::ellipsoid(&e, &pose), d, &tris, back, None).unwrap(), "{what}");
            // On the ellipsoid's surface: |diag(1 / radii) Rᵀ (p - centre)| = 1.
            let on = |t: f64, p: DVec3| ((rot.inverse() * (p - (c + d * t))) / radii).length() - 1.0;
            checked += check_steps(&tris, &trace, &out, |t, p| on(t, p).abs(), &what);
        }
    }
    assert!(checked > 800, "only {checked} roots checked");
}

/// The 2D sweeps: a circle rolling at a segment's end, then random segments.
#[test]
fn circles_and_ellipses_record_their_roots() {
    // The segment from (2, -1) to (2, 0.5), the circle of radius 0.75 at height 1 moving
    // right: the line's foot (2, 1) is beyond the end, which is hit.
    let seg = [[DVec2::new(2.0, -1.0), DVec2::new(2.0, 0.5)]];
    let mut trace = Vec::new();
    let out = sweep(
        SweptShape::ball(DVec2::new(0.0, 1.0), 0.75),
        DVec2::new(4.0, 0.0),
        &seg,
        BackFaces::Hit,
        Some(&mut trace),
    )
    .unwrap();
    let tests: Vec<_> = trace.iter().map(|s| (s.test, s.verdict)).collect();
    assert_eq!(
        tests,
        [
            (SweepTest::Face, SweepVerdict::OffFeature),
            (SweepTest::Vertex(0), SweepVerdict::NoRoot),
            (SweepTest::Vertex(1), SweepVerdict::Hit)
        ]
    );
    let t = (2.0 - (0.5625f64 - 0.25).sqrt()) / 4.0;
    assert!((trace[2].toi.unwrap() - t).abs() < 1e-15);
    let SweepOutcome::Hit(hit) = out else { panic!("{out:?}") };
    assert_eq!(hit.toi, trace[2].toi.unwrap());

    let mut r = rng(6);
    let mut roots = 0;
    for case in 0..1500 {
        let mut p = || DVec2::new(r.random_range(-1.0..1.0), r.random_range(-1.0..1.0));
        let segs: Vec<[DVec2; 2]> = (0..4).map(|_| [p(), p()]).collect();
        let c = DVec2::new(r.random_range(-2.5..2.5), r.random_range(-2.5..2.5));
        let d = DVec2::new(r.random_range(-4.0..4.0), r.random_range(-4.0..4.0));
        let mut trace = Vec::new();
        let on = |t: f64, q: DVec2, surface: &dyn Fn(DVec2) -> f64| surface(q - (c + d * t));
        let (out, surface): (SweepOutcome<DVec2>, Box<dyn Fn(DVec2) -> f64>) = if case % 2 == 0 {
            let radius = r.random_range(0.05..0.6);
            let out = sweep(SweptShape::ball(c, radius), d, &segs, BackFaces::Hit, Some(&mut trace)).unwrap();
            assert_eq!(out, sweep(SweptShape::ball(c, radius), d, &segs, BackFaces::Hit, None).unwrap());
            (out, Box::new(move |v: DVec2| v.length() - radius))
        } else {
            let radii = DVec2::new(r.random_range(0.05..0.6), r.random_range(0.05..0.6));
            let angle = r.random_range(0.0..6.3);
            let pose = DPose2::from_angle(c, angle);
            let e = Ellipsoid::new(radii);
            let out =
                sweep(SweptShape::ellipsoid(&e, &pose), d, &segs, BackFaces::Hit, Some(&mut trace)).unwrap();
            assert_eq!(out, sweep(SweptShape::ellipsoid(&e, &pose), d, &segs, BackFaces::Hit, None).unwrap());
            let (cos, sin) = (angle.cos(), angle.sin());
            (
                out,
                Box::new(move |v: DVec2| {
                    (DVec2::new(cos * v.x + sin * v.y, -sin * v.x + cos * v.y) / radii).length() - 1.0
                }),
            )
        };
        for s in &trace {
            let (Some(t), Some(q)) = (s.toi, s.point) else { continue };
            if s.test == SweepTest::Start {
                continue;
            }
            let off = on(t, q, &*surface).abs();
            assert!(off < 1e-9, "case {case}: {s:?} leaves the point {off} off the surface");
            roots += 1;
            if let (SweepTest::Vertex(i), SweepVerdict::Hit) = (s.test, s.verdict) {
                assert!((q - segs[s.index][i as usize]).length() < 1e-12, "case {case}: {s:?}");
            }
        }
        if let SweepOutcome::Hit(hit) = out {
            assert!(trace
                .iter()
                .any(|s| s.verdict == SweepVerdict::Hit && s.index == hit.index && s.toi == Some(hit.toi)));
        }
    }
    assert!(roots > 800, "only {roots} roots checked");
}

/// f32: the traced answer is the untraced one.
#[test]
fn tracing_changes_no_answer_in_f32() {
    let mut r = rng(7);
    for _ in 0..300 {
        let tris: Vec<[Vec3; 3]> = soup(&mut r).iter().map(|t| t.map(|p| p.as_vec3())).collect();
        let c = Vec3::new(r.random_range(-2.5..2.5), r.random_range(-2.5..2.5), r.random_range(-2.5..2.5));
        let d = Vec3::new(r.random_range(-4.0..4.0), r.random_range(-4.0..4.0), r.random_range(-4.0..4.0));
        let mut trace = Vec::new();
        let out = sweep(SweptShape::ball(c, 0.3), d, &tris, BackFaces::Hit, Some(&mut trace)).unwrap();
        assert_eq!(out, sweep(SweptShape::ball(c, 0.3), d, &tris, BackFaces::Hit, None).unwrap());
    }
}
