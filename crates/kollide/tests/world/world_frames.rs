//! Frames of contacts with state kept per pair: the answer of each frame against the
//! from-scratch manifolds of every pair of bodies, the began/stopped events against the
//! difference of consecutive pair sets, body kinds, collision groups, user data and the
//! batch of poses.

use crate::common::rng;
use kollide::math::{DPose3, DQuat, DVec3};
use kollide::shape::{Ball, Capsule, Cuboid};
use kollide::world::{self, BodyId, BodyKind, BodyOptions, CollisionGroups, Shape3, World, WorldError};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

type W = World<DVec3, Shape3<DVec3>>;
type Pairs = BTreeSet<(BodyId, BodyId)>;

fn shape(rng: &mut ChaCha8Rng) -> Shape3<DVec3> {
    match rng.random_range(0..3) {
        0 => Shape3::from(Ball::new(rng.random_range(0.3..0.7))),
        1 => Shape3::from(Cuboid::new(DVec3::new(
            rng.random_range(0.3..0.7),
            rng.random_range(0.3..0.7),
            rng.random_range(0.3..0.7),
        ))),
        _ => Shape3::from(Capsule::new(rng.random_range(0.2..0.5), rng.random_range(0.2..0.4))),
    }
}

fn pose(rng: &mut ChaCha8Rng, spread: f64) -> DPose3 {
    let axis = DVec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), 1.0).normalize();
    DPose3::new(
        DVec3::new(
            rng.random_range(0.0..spread),
            rng.random_range(0.0..spread),
            rng.random_range(0.0..spread),
        ),
        DQuat::from_axis_angle(axis, rng.random_range(0.0..6.0)),
    )
}

/// Every pair of live bodies whose from-scratch manifold has points within `margin`, and
/// the pairs within `slack` of that (in contact by one answer and not by the other is
/// allowed there: a kept manifold is re-projected within its drift).
fn scratch(w: &W, margin: f64, slack: f64) -> (Pairs, Pairs) {
    let live: Vec<_> = w.bodies().map(|(i, s, p)| (i, s.clone(), *p)).collect();
    let (mut sure, mut near) = (BTreeSet::new(), BTreeSet::new());
    for x in 0..live.len() {
        for y in x + 1..live.len() {
            let (a, b) = (&live[x], &live[y]);
            let pair = (a.0.min(b.0), a.0.max(b.0));
            if !world::manifold(&a.1, &a.2, &b.1, &b.2, margin).value.is_empty() {
                sure.insert(pair);
            }
            let d = world::distance(&a.1, &a.2, &b.1, &b.2).unwrap().value.distance;
            if (d - margin).abs() <= slack {
                near.insert(pair);
            }
        }
    }
    (sure, near)
}

#[test]
fn frames_with_kept_pairs_match_from_scratch_frames_and_report_changes() {
    let mut rng = rng(3101);
    let mut w = W::new();
    let mut ids: Vec<BodyId> =
        (0..60).map(|_| w.insert(shape(&mut rng), pose(&mut rng, 6.0)).unwrap()).collect();
    let margin = 0.02;
    let mut before = Pairs::new();
    let (mut reused_frames, mut changes) = (0, 0);
    for frame in 0..120 {
        // Most bodies rest; some jitter by less than the cache's drift, some move for real;
        // now and then a body goes and another comes.
        let mut moves = Vec::new();
        for &id in &ids {
            let (_, p) = w.body(id).unwrap();
            let mut p = *p;
            match rng.random_range(0..10) {
                0 => p.translation += DVec3::splat(rng.random_range(-0.3..0.3)),
                1 => p.translation.x += rng.random_range(-1e-6..1e-6),
                _ => continue,
            }
            moves.push((id, p));
        }
        w.set_poses(&moves).unwrap();
        if frame % 10 == 5 {
            let k = rng.random_range(0..ids.len());
            w.remove(ids.swap_remove(k)).unwrap();
            ids.push(w.insert(shape(&mut rng), pose(&mut rng, 6.0)).unwrap());
        }
        let got = w.contacts(margin);
        let now: Pairs = got.pairs.iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(now.len(), got.pairs.len(), "frame {frame}: a pair twice");
        assert!(got.pairs.windows(2).all(|x| (x[0].a, x[0].b) < (x[1].a, x[1].b)), "frame {frame}: sorted");
        let (sure, near) = scratch(&w, margin, 1e-4);
        for pair in now.symmetric_difference(&sure) {
            assert!(near.contains(pair), "frame {frame}: {pair:?} differs from the from-scratch frame");
        }
        // Removed bodies' pairs are reported stopped by their old ids: compare against the
        // previous frame's pairs, not the live bodies.
        let started: BTreeSet<_> = now.difference(&before).copied().collect();
        let stopped: BTreeSet<_> = before.difference(&now).copied().collect();
        assert_eq!(got.started.iter().copied().collect::<BTreeSet<_>>(), started, "frame {frame}: started");
        assert_eq!(got.stopped.iter().copied().collect::<BTreeSet<_>>(), stopped, "frame {frame}: stopped");
        changes += started.len() + stopped.len();
        reused_frames += usize::from(!now.is_empty() && started.is_empty());
        before = now;
    }
    assert!(changes > 20, "the scene changed too little to test events: {changes}");
    assert!(reused_frames > 5, "too few quiet frames: {reused_frames}");
}

/// A pair the broad phase dropped keeps its state a few frames and takes it back when its
/// boxes meet again; a removed body's kept pairs go with it, so a body that takes its ids
/// inherits none. A compound against a ball shows why: the compound's part keeps its
/// support point along the separating axis, which a body with a bigger part would get
/// wrong (a missed contact).
#[test]
fn dropped_pairs_come_back_warm_and_go_with_their_bodies() {
    let part = |h: f64| {
        let cube = kollide::shape::Convex3::Cuboid(Cuboid::new(DVec3::splat(h)));
        Shape3::Compound(std::sync::Arc::new(kollide::composite::Compound::new(vec![(
            DPose3::IDENTITY,
            cube,
        )])))
    };
    let at = |x: f64, y: f64| DPose3::from_translation(DVec3::new(x, y, 0.0));
    let check = |w: &mut W, what: &str| {
        let now: Pairs = w.contacts(0.0).pairs.iter().map(|p| (p.a, p.b)).collect();
        let (sure, near) = scratch(w, 0.0, 1e-9);
        for pair in now.symmetric_difference(&sure) {
            assert!(near.contains(pair), "{what}: {pair:?} differs from the from-scratch frame");
        }
        now
    };
    let mut w = W::new();
    let ball = w.insert(Shape3::from(Ball::new(0.5)), DPose3::IDENTITY).unwrap();
    // Near the ball's box corner: the boxes meet, the shapes are 0.136 apart.
    let a = w.insert(part(0.4), at(0.85, 0.85)).unwrap();
    for frame in 0..6 {
        // In and out of the broad phase: the pair is dropped and found again.
        w.set_pose(a, at(if frame % 2 == 0 { 0.85 } else { 1.6 }, 0.85)).unwrap();
        assert!(check(&mut w, &format!("frame {frame}")).is_empty());
    }
    w.set_pose(a, at(1.6, 0.85)).unwrap();
    assert!(check(&mut w, "dropped").is_empty());
    w.remove(a).unwrap();
    assert!(check(&mut w, "removed").is_empty());
    // A bigger part where the old one was: its corner is 0.35 from the ball's centre.
    let c = w.insert(part(0.6), at(0.85, 0.85)).unwrap();
    assert_eq!(c, a, "the new body takes the removed one's id");
    assert_eq!(check(&mut w, "the new body"), Pairs::from([(ball, c)]));
}

#[test]
fn static_and_kinematic_bodies_pair_only_with_dynamic_ones() {
    let mut w = W::new();
    let at = |x: f64| DPose3::from_translation(DVec3::new(x, 0.0, 0.0));
    let cube = || Shape3::from(Cuboid::new(DVec3::splat(0.5)));
    let mut put = |x: f64, kind: BodyKind| w.insert_with(cube(), at(x), BodyOptions::of_kind(kind)).unwrap();
    // A row of touching cubes: static, static, kinematic, kinematic, dynamic, static.
    let s1 = put(0.0, BodyKind::Static);
    let _s2 = put(0.9, BodyKind::Static);
    let _k1 = put(1.8, BodyKind::Kinematic);
    let k2 = put(2.7, BodyKind::Kinematic);
    let d = put(3.6, BodyKind::Dynamic);
    let s3 = put(4.5, BodyKind::Static);
    let pairs: Vec<_> = w.contacts(0.0).pairs.iter().map(|p| (p.a, p.b)).collect();
    assert_eq!(pairs, vec![(k2, d), (d, s3)]);
    assert_eq!(w.options(s1).unwrap().kind, BodyKind::Static);
    // A dynamic body dropped on the first static one pairs with it.
    let d2 = w.insert(cube(), DPose3::from_translation(DVec3::new(-0.3, 0.95, 0.0))).unwrap();
    let frame = w.contacts(0.0);
    assert_eq!(frame.started, vec![(s1, d2)]);
    assert!(frame.stopped.is_empty());
}

#[test]
fn collision_groups_filter_pairs_both_ways() {
    let mut w = W::new();
    let ball = || Shape3::from(Ball::new(0.5));
    let at = |x: f64| DPose3::from_translation(DVec3::new(x, 0.0, 0.0));
    let with = |m: u32, f: u32| BodyOptions { groups: CollisionGroups::new(m, f), ..BodyOptions::default() };
    let a = w.insert_with(ball(), at(0.0), with(0b01, 0b10)).unwrap();
    let b = w.insert_with(ball(), at(0.9), with(0b10, 0b01)).unwrap();
    // Meets b both ways (a's groups).
    let c = w.insert_with(ball(), at(1.8), with(0b01, 0b10)).unwrap();
    // Its filter takes a's memberships, but a's filter does not take its own: no pair.
    let _d = w.insert_with(ball(), at(-0.9), with(0b100, 0b01)).unwrap();
    let pairs: Vec<_> = w.contacts(0.0).pairs.iter().map(|p| (p.a, p.b)).collect();
    assert_eq!(pairs, vec![(a, b), (b, c)]);
    w.set_groups(b, CollisionGroups::NONE).unwrap();
    let frame = w.contacts(0.0);
    assert!(frame.pairs.is_empty());
    assert_eq!(frame.stopped, vec![(a, b), (b, c)]);
    assert!(matches!(
        w.set_groups(BodyId(99), CollisionGroups::ALL),
        Err(WorldError::NoSuchBody(BodyId(99)))
    ));
}

#[test]
fn removing_a_body_stops_its_contacts_under_its_old_id() {
    let mut w = W::new();
    let ball = || Shape3::from(Ball::new(0.5));
    let a = w.insert(ball(), DPose3::IDENTITY).unwrap();
    let b = w.insert(ball(), DPose3::from_translation(DVec3::X * 0.9)).unwrap();
    assert_eq!(w.contacts(0.0).started, vec![(a, b)]);
    w.remove(b).unwrap();
    // The id is reused at once by a body far away: the stopped pair names the old body.
    let far = w.insert(ball(), DPose3::from_translation(DVec3::X * 10.0)).unwrap();
    assert_eq!(far, b);
    let frame = w.contacts(0.0);
    assert_eq!(frame.stopped, vec![(a, b)]);
    assert!(frame.pairs.is_empty() && frame.started.is_empty());
}

#[test]
fn user_data_and_a_batch_of_poses() {
    let mut w = W::new();
    let ball = || Shape3::from(Ball::new(0.5));
    let a = w
        .insert_with(ball(), DPose3::IDENTITY, BodyOptions { user_data: 7, ..BodyOptions::default() })
        .unwrap();
    let b = w.insert(ball(), DPose3::from_translation(DVec3::X * 5.0)).unwrap();
    assert_eq!(w.options(a).unwrap().user_data, 7);
    w.set_user_data(b, u64::MAX).unwrap();
    assert_eq!(w.options(b).unwrap().user_data, u64::MAX);
    // A bad item anywhere refuses the whole batch, naming the item; nothing moves.
    let bad = DPose3::from_translation(DVec3::new(f64::NAN, 0.0, 0.0));
    let moved = DPose3::from_translation(DVec3::X * 0.9);
    let e = w.set_poses(&[(b, moved), (a, bad)]).unwrap_err();
    assert!(
        matches!(&e, WorldError::InBatch { index: 1, error } if matches!(**error, WorldError::BadPose(_)))
    );
    assert!(e.to_string().starts_with("batch item 1: bad pose"), "{e}");
    let e = w.set_poses(&[(BodyId(9), moved)]).unwrap_err();
    assert!(
        matches!(&e, WorldError::InBatch { index: 0, error } if **error == WorldError::NoSuchBody(BodyId(9)))
    );
    assert_eq!(w.body(b).unwrap().1.translation, DVec3::X * 5.0);
    w.set_poses(&[(b, moved)]).unwrap();
    assert_eq!(w.body(b).unwrap().1.translation, DVec3::X * 0.9);
    assert_eq!(w.contacts(0.0).started, vec![(a, b)]);
}

#[test]
fn pairs_apart_by_less_than_the_margin_are_found_though_their_boxes_do_not_meet() {
    // Two balls 0.006 apart: their boxes do not meet. With a margin of 0.01 the pair is in
    // contact (the broad phase's boxes are loosened by the margin); rapier's collision
    // pipeline found 360 such pairs in the bench's heap of 10,000 bodies that `World` had
    // missed before.
    let mut w = W::new();
    let ball = || Shape3::from(Ball::new(0.5));
    let a = w.insert(ball(), DPose3::IDENTITY).unwrap();
    let b = w.insert(ball(), DPose3::from_translation(DVec3::new(1.006, 0.0, 0.0))).unwrap();
    assert!(w.contacts(0.0).pairs.is_empty());
    let frame = w.contacts(0.01);
    assert_eq!(frame.started, vec![(a, b)]);
    let m = &frame.pairs[0].manifold.value;
    assert!((m.points()[0].distance - 0.006).abs() < 1e-12);
    // Back to margin 0: not in contact, though the boxes stay loosened.
    assert_eq!(w.contacts(0.0).stopped, vec![(a, b)]);
}

/// A static terrain mesh with boxes and balls resting on it and creeping: the pairs with the
/// terrain keep a manifold per triangle. The first frame equals the from-scratch manifolds;
/// creeping frames stay within the kept manifolds' drift of them; a jump recomputes.
#[test]
fn terrain_pairs_keep_a_manifold_per_triangle() {
    let h = |x: f64, z: f64| (x * 0.5).sin() * 0.4 + (z * 0.6).cos() * 0.3;
    let mesh = crate::common::grid_terrain(13, h);
    let mut w = W::new();
    let terrain = w.insert_with(Shape3::from(mesh), DPose3::IDENTITY, BodyOptions::of_kind(BodyKind::Static));
    let terrain = terrain.unwrap();
    let mut rng = rng(41);
    let mut bodies = Vec::new();
    for k in 0..12 {
        let (x, z) = (-4.0 + (k % 4) as f64 * 2.6, -4.0 + (k / 4) as f64 * 3.5);
        let (s, lift) = if k % 2 == 0 {
            (Shape3::from(Cuboid::new(DVec3::new(0.4, 0.3, 0.35))), 0.3)
        } else {
            (Shape3::from(Ball::new(0.35)), 0.35)
        };
        // Resting 0.02 into the ground under the centre (more on a slope).
        let p = DPose3::new(
            DVec3::new(x, h(x, z) + lift - 0.02, z),
            DQuat::from_rotation_y(rng.random_range(0.0..6.0)),
        );
        bodies.push((w.insert(s, p).unwrap(), p));
    }
    let memory = w.memory_bytes();
    let margin = 0.01;
    let check = |w: &mut W, tol: f64, frame: usize| {
        let live: Vec<_> = w.bodies().map(|(i, s, p)| (i, s.clone(), *p)).collect();
        let frame_pairs = w.contacts(margin).pairs;
        assert_eq!(frame_pairs.len(), 12, "frame {frame}: every body rests on the terrain");
        for pair in &frame_pairs {
            assert_eq!(pair.a, terrain);
            let (a, b) = (&live[pair.a.0 as usize], &live[pair.b.0 as usize]);
            let fresh = world::manifold(&a.1, &a.2, &b.1, &b.2, margin).value;
            let kept = &pair.manifold.value;
            let deepest = |m: &kollide::query::Manifold<DVec3>| m.deepest().unwrap().distance;
            assert!(
                (deepest(kept) - deepest(&fresh)).abs() <= tol,
                "frame {frame}: {kept:?} against {fresh:?}"
            );
            assert!(kept.normal.dot(fresh.normal) >= 1.0 - 1e-3, "frame {frame}");
        }
    };
    check(&mut w, 1e-12, 0);
    assert!(w.memory_bytes() > memory, "the pairs with the terrain hold their parts' caches");
    // Creeping 1e-5 a frame along x for 60 frames: kept manifolds re-projected within drift.
    for frame in 1..=60 {
        for (id, p) in &bodies {
            let moved = DPose3::new(p.translation + DVec3::new(1e-5 * frame as f64, 0.0, 0.0), p.rotation);
            w.set_pose(*id, moved).unwrap();
        }
        check(&mut w, 2e-3, frame);
    }
    // A jump far beyond the drift: computed afresh, equal to the from-scratch answer.
    for (id, p) in &bodies {
        w.set_pose(*id, DPose3::new(p.translation + DVec3::new(0.3, 0.0, 0.0), p.rotation)).unwrap();
    }
    // The bodies are lifted to the ground at their new place first.
    for (id, p) in &bodies {
        let t = p.translation + DVec3::new(0.3, 0.0, 0.0);
        let lift = p.translation.y - h(p.translation.x, p.translation.z);
        w.set_pose(*id, DPose3::new(DVec3::new(t.x, h(t.x, t.z) + lift, t.z), p.rotation)).unwrap();
    }
    check(&mut w, 1e-12, 61);
}
