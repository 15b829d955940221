//! The run-time shapes and the world: every world query checked against brute force over all
//! bodies, after random inserts, moves and removals; the dispatcher symmetric in the order
//! of the pair.

use crate::common;

use common::{assert_mixed, rng};
use kollide::composite::{Compound, TriMesh};
use kollide::math::{DPose3, DQuat, DVec3};
use kollide::query::cast::{Motion, Ray, RayOutcome};
use kollide::shape::{Ball, Capsule, Convex3, ConvexHull, Cuboid, Cylinder};
use kollide::world::{self, BodyId, Shape3, World};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

fn random_pose(rng: &mut ChaCha8Rng, spread: f64) -> DPose3 {
    let q = DQuat::from_xyzw(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0) + 0.01,
    )
    .normalize();
    DPose3::new(
        DVec3::new(
            rng.random_range(-spread..spread),
            rng.random_range(-spread..spread),
            rng.random_range(-spread..spread),
        ),
        q,
    )
}

fn small_mesh(rng: &mut ChaCha8Rng) -> TriMesh<DVec3> {
    let n = 4;
    let mut v = Vec::new();
    for r in 0..=n {
        for c in 0..=n {
            v.push(DVec3::new(c as f64 - 2.0, rng.random_range(-0.3..0.3), r as f64 - 2.0));
        }
    }
    let id = |r: usize, c: usize| (r * (n + 1) + c) as u32;
    let mut t = Vec::new();
    for r in 0..n {
        for c in 0..n {
            t.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
            t.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
        }
    }
    TriMesh::new(v, t)
}

fn random_shape(rng: &mut ChaCha8Rng) -> Shape3<DVec3> {
    match rng.random_range(0..7) {
        0 => Shape3::from(Ball::new(rng.random_range(0.2..1.0))),
        1 => Shape3::from(Cuboid::new(DVec3::new(
            rng.random_range(0.2..1.0),
            rng.random_range(0.2..1.0),
            rng.random_range(0.2..1.0),
        ))),
        2 => Shape3::from(Capsule::new(rng.random_range(0.2..1.0), rng.random_range(0.1..0.5))),
        3 => Shape3::from(Cylinder::new(rng.random_range(0.2..1.0), rng.random_range(0.2..0.8))),
        4 => {
            let pts: Vec<DVec3> = (0..12)
                .map(|_| {
                    DVec3::new(
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                    )
                })
                .collect();
            Shape3::Convex(Convex3::ConvexHull(Arc::new(ConvexHull::try_from_points(&pts).unwrap())))
        }
        5 => Shape3::TriMesh(Arc::new(small_mesh(rng))),
        _ => Shape3::Compound(Arc::new(Compound::new(vec![
            (DPose3::IDENTITY, Convex3::Cylinder(Cylinder::new(0.8, 0.2))),
            (DPose3::from_translation(DVec3::new(0.0, 1.2, 0.0)), Convex3::Ball(Ball::new(0.6))),
        ]))),
    }
}

/// A world of random bodies, and the list of live ones.
fn random_world(rng: &mut ChaCha8Rng, n: usize) -> (World<DVec3, Shape3<DVec3>>, Vec<BodyId>) {
    let mut w = World::new();
    let mut ids = Vec::new();
    for _ in 0..n {
        let s = random_shape(rng);
        ids.push(w.insert(s, random_pose(rng, 8.0)).unwrap());
    }
    (w, ids)
}

/// Random inserts, moves and removals.
fn churn(rng: &mut ChaCha8Rng, w: &mut World<DVec3, Shape3<DVec3>>, ids: &mut Vec<BodyId>) {
    for _ in 0..20 {
        match rng.random_range(0..4) {
            0 if !ids.is_empty() => {
                let k = rng.random_range(0..ids.len());
                let id = ids.swap_remove(k);
                assert!(w.remove(id).is_some());
                assert!(w.remove(id).is_none(), "a removed body is gone");
            }
            1 => {
                let s = random_shape(rng);
                ids.push(w.insert(s, random_pose(rng, 8.0)).unwrap());
            }
            _ if !ids.is_empty() => {
                let id = ids[rng.random_range(0..ids.len())];
                let (_, pose) = w.body(id).unwrap();
                let mut p = *pose;
                p.translation += DVec3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                );
                w.set_pose(id, p).unwrap();
            }
            _ => {}
        }
    }
}

fn toi(o: &RayOutcome<DVec3>) -> f64 {
    match o {
        RayOutcome::Hit(h) => h.toi,
        RayOutcome::Inside { .. } => 0.0,
        RayOutcome::Miss => f64::INFINITY,
    }
}

#[test]
fn world_queries_match_brute_force_over_bodies() {
    let mut rng = rng(1001);
    let (mut w, mut ids) = random_world(&mut rng, 30);
    let (mut ray_hits, mut rays) = (0, 0);
    let (mut overlap_hits, mut overlap_total) = (0, 0);
    for round in 0..25 {
        churn(&mut rng, &mut w, &mut ids);
        assert_eq!(w.len(), ids.len());
        for _ in 0..20 {
            // Rays.
            let o = DVec3::new(
                rng.random_range(-12.0..12.0),
                rng.random_range(-12.0..12.0),
                rng.random_range(-12.0..12.0),
            );
            // Aimed at a body's origin, give or take.
            let live: Vec<DVec3> = w.bodies().map(|(_, _, p)| p.translation).collect();
            let aim = live[rng.random_range(0..live.len())]
                + DVec3::new(
                    rng.random_range(-1.5..1.5),
                    rng.random_range(-1.5..1.5),
                    rng.random_range(-1.5..1.5),
                );
            let d = (aim - o) / 10.0;
            if d.length() < 0.1 {
                continue;
            }
            let ray = Ray::new(o, d);
            let truth = w
                .bodies()
                .filter_map(|(_, s, p)| world::ray_cast(s, p, &ray, 30.0))
                .map(|a| toi(&a.value))
                .fold(f64::INFINITY, f64::min);
            let got = w.ray_cast(&ray, 30.0).map_or(f64::INFINITY, |h| toi(&h.value));
            assert!(
                got == truth || (got - truth).abs() <= 1e-9 * (1.0 + truth),
                "round {round}: ray {got} vs brute force {truth}"
            );
            ray_hits += usize::from(truth.is_finite());
            rays += 1;
            // Overlaps and the closest body, for a probe shape.
            let probe = random_shape(&mut rng);
            let mut pose = random_pose(&mut rng, 1.5);
            pose.translation += aim;
            let mut expected: Vec<BodyId> = w
                .bodies()
                .filter(|(_, s, p)| world::intersects(*s, p, &probe, &pose).is_some())
                .map(|(id, ..)| id)
                .collect();
            expected.sort();
            let got: Vec<BodyId> = w.overlaps(&probe, &pose).into_iter().map(|h| h.body).collect();
            assert_eq!(got, expected, "round {round}: overlaps");
            overlap_hits += usize::from(!expected.is_empty());
            overlap_total += 1;
            let nearest = w
                .bodies()
                .filter_map(|(_, s, p)| world::distance(s, p, &probe, &pose))
                .map(|a| a.value.distance)
                .fold(f64::INFINITY, f64::min);
            let got = w.closest(&probe, &pose, f64::INFINITY).map_or(f64::INFINITY, |h| h.value.distance);
            assert!(
                (got - nearest).abs() <= 1e-9 * (1.0 + nearest),
                "round {round}: closest {got} vs {nearest}"
            );
            // A linear cast of the probe.
            let v = DVec3::new(
                rng.random_range(-5.0..5.0),
                rng.random_range(-5.0..5.0),
                rng.random_range(-5.0..5.0),
            );
            let input = kollide::query::cast::CastInput::linear(DVec3::ZERO, v, 1.0);
            let first = w
                .bodies()
                .filter_map(|(_, s, p)| world::shape_cast(s, p, &probe, &pose, &input))
                .filter(|a| a.value.status != kollide::query::cast::CastStatus::Failed)
                .map(|a| a.value.toi)
                .fold(f64::INFINITY, f64::min);
            let got =
                w.shape_cast(&probe, &pose, Motion::linear(v), 1.0).map_or(f64::INFINITY, |h| h.value.toi);
            assert!(got == first || (got - first).abs() <= 1e-6, "round {round}: cast {got} vs {first}");
        }
        // Contact pairs against all pairs of bodies.
        let pairs = w.contact_pairs(0.0);
        let live: Vec<(BodyId, Shape3<DVec3>, DPose3)> =
            w.bodies().map(|(i, s, p)| (i, s.clone(), *p)).collect();
        let mut expected = Vec::new();
        for x in 0..live.len() {
            for y in x + 1..live.len() {
                let (a, b) = (&live[x], &live[y]);
                if !world::manifold(&a.1, &a.2, &b.1, &b.2, 0.0).value.is_empty() {
                    expected.push((a.0.min(b.0), a.0.max(b.0)));
                }
            }
        }
        expected.sort();
        let got: Vec<(BodyId, BodyId)> = pairs.iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(got, expected, "round {round}: contact pairs");
    }
    assert_mixed(ray_hits, rays, "world rays");
    assert_mixed(overlap_hits, overlap_total, "world overlaps");
}

/// Part `i` of a composite run-time shape, as a shape of its own with its world pose.
fn part_of(s: &Shape3<DVec3>, pose: &DPose3, i: u32) -> (Shape3<DVec3>, DPose3) {
    match s {
        Shape3::TriMesh(m) => (Shape3::from(m.triangle(i)), *pose),
        Shape3::Compound(c) => {
            let (p, part) = &c.parts()[i as usize];
            (Shape3::Convex(part.clone()), pose.compose(p))
        }
        Shape3::HeightField(h) => (Shape3::from(h.triangle(i)), *pose),
        Shape3::Convex(_) => unreachable!("a convex shape has no parts"),
    }
}

#[test]
fn the_dispatcher_is_symmetric_in_the_order_of_the_pair() {
    let mut rng = rng(1002);
    for case in 0..300 {
        let (a, b) = (random_shape(&mut rng), random_shape(&mut rng));
        let (pa, pb) = (random_pose(&mut rng, 2.0), random_pose(&mut rng, 2.0));
        let ab = world::distance(&a, &pa, &b, &pb).unwrap();
        let ba = world::distance(&b, &pb, &a, &pa).unwrap();
        let tol = 1e-9;
        assert!((ab.value.distance - ba.value.distance).abs() <= tol, "case {case}: distance");
        // Parts on shared edges tie, so the part named may differ with the order; each named
        // part must be as near as the answer says.
        for (x, px, y, py, ans) in [(&a, &pa, &b, &pb, &ab), (&b, &pb, &a, &pa, &ba)] {
            if let Some((part, pose)) = ans.part_a.map(|i| part_of(x, px, i)) {
                let d = world::distance(&part, &pose, y, py).unwrap().value.distance;
                assert!(
                    (d - ans.value.distance).abs() <= 1e-7,
                    "case {case}: part {:?} at {d}, answer {}",
                    ans.part_a,
                    ans.value.distance
                );
            }
        }
        assert_eq!(
            ab.part_a.is_some(),
            ba.part_b.is_some(),
            "case {case}: parts named on the composite sides"
        );
        let convex = matches!((&a, &b), (Shape3::Convex(_), Shape3::Convex(_)));
        if ab.value.distance > 1e-6 {
            if convex {
                // Curved shapes (a cylinder's rim) pin the normal to about the square root of
                // the distance tolerance.
                assert!(
                    (ab.value.normal + ba.value.normal).length() <= 1e-3,
                    "case {case}: normals opposite"
                );
            }
            // Several nearest places may tie between composites; each answer is consistent.
            for o in [&ab.value, &ba.value] {
                let gap = o.point_b - o.point_a - o.normal * o.distance;
                assert!(gap.length() <= 1e-7, "case {case}: point_b = point_a + distance * normal");
            }
        }
        assert_eq!(
            world::intersects(&a, &pa, &b, &pb).is_some(),
            world::intersects(&b, &pb, &a, &pa).is_some(),
            "case {case}: overlap"
        );
        let cab = world::contact(&a, &pa, &b, &pb, 0.5).map(|c| c.value.distance);
        let cba = world::contact(&b, &pb, &a, &pa, 0.5).map(|c| c.value.distance);
        match (cab, cba) {
            (Some(x), Some(y)) if x >= 0.0 => {
                assert!((x - y).abs() <= 1e-6, "case {case}: contact {x} vs {y}")
            }
            (Some(_), Some(_)) => {} // penetrating composites: the depth depends on which side's parts are walked
            (None, None) => {}
            other => panic!("case {case}: one order found a contact, the other not: {other:?}"),
        }
    }
}
