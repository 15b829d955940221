//! The traced mover: each cast's record checked against a closed form (a wall met at 45
//! degrees) and, over walks through stairs, walls and a crevice, against what it claims:
//! the casts chain (each starts where the last stopped, and casts the motion the last
//! chose), each solved motion is allowed by every plane and is the projection of the
//! wanted one (no allowed motion is closer along it), and the answer is unchanged.

use crate::mover::mover_scenes::{floor, Scene};
use kollide::math::{DQuat, DVec3};
use kollide::mover::{move_and_slide, Character, MovePhase, MoverSettings};

/// A ball walks into a wall at 45 degrees: one cast to the wall, the plane solve slides it
/// along, a second cast finishes the motion.
#[test]
fn a_wall_met_at_45_degrees_is_one_contact_and_one_slide() {
    let mut scene = Scene::new();
    scene.add_box(DVec3::new(1.0, 5.0, 10.0), DVec3::new(3.0, 0.0, 0.0), DQuat::IDENTITY);
    let ball = Character::Ball { radius: 0.5 };
    let settings = MoverSettings::default();
    let d = DVec3::new(3.0, 0.0, 3.0);
    let mut trace = Vec::new();
    let out = move_and_slide(&scene.world, &ball, DVec3::ZERO, d, &settings, Some(&mut trace)).unwrap();
    let slides: Vec<_> = trace.iter().filter(|s| s.phase == MovePhase::Slide).collect();
    assert_eq!(slides.len(), 2, "{trace:#?}");
    // Touching the wall x = 2 a skin short: the centre at x = 1.5 - 0.001.
    let t = (1.5 - settings.skin) / 3.0;
    let first = slides[0];
    assert_eq!((first.from, first.motion), (DVec3::ZERO, d));
    assert!((first.toi.unwrap() - t).abs() < 1e-9, "{first:?}");
    let contact = first.contact.unwrap();
    assert!((contact.normal - DVec3::NEG_X).length() < 1e-9);
    assert!((contact.point.x - 2.0).abs() < 1e-9);
    // The wall's plane, and the cap a steep contact adds: no rising (the motion asks none).
    assert_eq!(first.planes.len(), 2, "{first:#?}");
    assert!((first.planes[0].normal - DVec3::NEG_X).length() < 1e-9 && first.planes[0].offset == 0.0);
    assert!(first.planes[1].normal == DVec3::NEG_Y && first.planes[1].offset == 0.0);
    let wanted = d * (1.0 - first.toi.unwrap());
    assert!((first.wanted.unwrap() - wanted).length() < 1e-12);
    // The wall's plane takes the x out of what is left.
    let solved = first.solved.unwrap();
    assert!((solved - DVec3::new(0.0, 0.0, wanted.z)).length() < 1e-9, "{solved}");
    // The second cast starts at the contact and casts the motion chosen; nothing stops it.
    let second = slides[1];
    assert!((second.from - d * first.toi.unwrap()).length() < 1e-12);
    assert_eq!(second.motion, first.next.unwrap());
    assert_eq!(second.toi, None);
    assert!((out.position - (second.from + second.motion)).length() < 1e-12);
}

/// Walks through stairs, a wall turned 30 degrees and a V crevice, each step traced:
/// the casts chain, the plane solves hold, the answer is the untraced one.
#[test]
fn traced_walks_chain_their_casts_and_solve_their_planes() {
    let mut scene = Scene::new();
    scene.add(floor(12, 2.0, 0.0));
    for k in 0..3 {
        let top = 0.2 * (k + 1) as f64;
        scene.add_box(
            DVec3::new(0.5, top / 2.0, 2.0),
            DVec3::new(2.0 + k as f64, top / 2.0, 0.0),
            DQuat::IDENTITY,
        );
    }
    scene.add_box(
        DVec3::new(0.2, 2.0, 3.0),
        DVec3::new(-3.0, 2.0, 2.0),
        DQuat::from_rotation_y(30f64.to_radians()),
    );
    // A crevice of two walls leaning in.
    scene.add_box(DVec3::new(0.2, 2.0, 2.0), DVec3::new(0.0, 1.0, -6.0), DQuat::from_rotation_z(0.5));
    scene.add_box(DVec3::new(0.2, 2.0, 2.0), DVec3::new(1.5, 1.0, -6.0), DQuat::from_rotation_z(-0.5));
    let settings = MoverSettings { step_height: 0.3, snap_to_ground: 0.35, ..MoverSettings::default() };
    let walks = [
        (Character::Ball { radius: 0.3 }, DVec3::new(0.0, 0.31, 0.0), DVec3::new(0.1, -0.05, 0.0)),
        (
            Character::Capsule { half_height: 0.4, radius: 0.25 },
            DVec3::new(0.0, 0.66, 0.5),
            DVec3::new(0.12, -0.05, 0.02),
        ),
        (Character::Ball { radius: 0.3 }, DVec3::new(-1.0, 0.31, 1.0), DVec3::new(-0.15, -0.05, 0.1)),
        (
            Character::Ellipsoid { radii: DVec3::new(0.3, 0.5, 0.3) },
            DVec3::new(0.7, 3.0, -6.0),
            DVec3::new(0.03, -0.1, 0.0),
        ),
    ];
    let (mut solves, mut stairs_kept) = (0, 0);
    for (w, (c, start, step)) in walks.iter().enumerate() {
        let mut p = *start;
        for i in 0..60 {
            let what = format!("walk {w} step {i} at {p}");
            let mut trace = Vec::new();
            let out = move_and_slide(&scene.world, c, p, *step, &settings, Some(&mut trace)).unwrap();
            assert_eq!(out, move_and_slide(&scene.world, c, p, *step, &settings, None).unwrap(), "{what}");
            // The slide's casts chain. (A slide's first cast starts where the pushes left.)
            let slides: Vec<_> = trace.iter().filter(|s| s.phase == MovePhase::Slide).collect();
            for pair in slides.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                let end = a.from + a.motion * a.toi.expect("a slide cast followed by another met something");
                assert!((b.from - end).length() < 1e-12, "{what}: {a:?} then {b:?}");
                assert_eq!(Some(b.motion), a.next, "{what}");
            }
            for s in trace.iter().filter(|s| s.solved.is_some()) {
                let (wanted, solved) = (s.wanted.unwrap(), s.solved.unwrap());
                let tol = 1e-9 * (1.0 + wanted.length());
                for plane in &s.planes {
                    assert!((plane.normal.length() - 1.0).abs() < 1e-9, "{what}");
                    assert!(solved.dot(plane.normal) >= plane.offset - tol, "{what}: {s:?} breaks {plane:?}");
                }
                // The projection onto a convex set holding 0 (every offset <= 0 here): the
                // set's points q satisfy (wanted - solved) · (q - solved) <= 0; q = 0 and
                // q = 2 solved (when allowed) give both signs, so solved ⟂ (wanted - solved).
                if s.planes.iter().all(|p| p.offset <= 0.0) {
                    let r = (wanted - solved).dot(solved);
                    assert!(
                        r.abs() <= tol * (1.0 + wanted.length()),
                        "{what}: {s:?}: not a projection ({r})"
                    );
                }
                solves += 1;
            }
            stairs_kept +=
                trace.iter().filter(|s| s.phase == MovePhase::Stairs { kept: true }).count().min(1);
            p = out.position;
            assert!(scene.clearance(c, p) >= -1e-9, "{what}");
        }
    }
    assert!(solves > 50, "only {solves} plane solves");
    assert!(stairs_kept > 0, "the stairs' path was never taken");
}
