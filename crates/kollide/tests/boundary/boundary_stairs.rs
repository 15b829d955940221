//! Staircases for the mover: risers from 5% to 99% of `step_height` are climbed by each
//! character (ball, ellipsoid, capsule), walking head-on or at 30 degrees, at speeds from
//! 0.01 to 0.3 per step, with gravity; risers above `step_height` stop it. Stairs are boxes
//! (convex bodies) or meshes. Judged by independent f64 geometry (`common/mover_judge.rs`):
//! the character never penetrates (clearance at least -1e-9 of the scale after every step),
//! never has its centre inside a step, stands on the top tread at the end (or stays at the
//! foot of a riser too high), and is grounded whenever it rests on the floor, beside the
//! first riser too.

use crate::common::mover_judge::{clearance, Tri};
use crate::common::rng;
use glam::DVec3;
use kollide::composite::TriMesh;
use kollide::math::DPose3;
use kollide::mover::{move_and_slide, Character, MoverSettings};
use kollide::shape::Cuboid;
use kollide::world::{Shape3, World};
use rand::Rng;
use std::sync::Arc;

/// The 12 triangles of an axis-aligned box.
fn box_triangles(h: DVec3, c: DVec3) -> Vec<Tri> {
    let corner = |i: usize| {
        c + DVec3::new(
            if i & 1 == 0 { -h.x } else { h.x },
            if i & 2 == 0 { -h.y } else { h.y },
            if i & 4 == 0 { -h.z } else { h.z },
        )
    };
    let faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    faces
        .iter()
        .flat_map(|f| {
            [[corner(f[0]), corner(f[1]), corner(f[2])], [corner(f[0]), corner(f[2]), corner(f[3])]]
        })
        .collect()
}

/// One staircase and how the walk up it went (its fields are read in failure reports,
/// through `Debug`).
#[derive(Debug)]
#[allow(dead_code)]
pub struct Climb {
    pub character: Character<DVec3>,
    pub riser: f64,
    pub step_height: f64,
    pub heading_deg: f64,
    pub speed: f64,
    pub meshes: bool,
    /// Risers and tread depth.
    pub steps: usize,
    pub tread: f64,
    /// The problem, if any.
    pub wrong: Option<String>,
}

/// A staircase of `steps` risers of height `riser` (treads `tread` deep, 30 wide) on a floor
/// whose top is y = 0, the first riser at x = 1, walked from x = -1 by `character` heading
/// `heading_deg` from +x at `speed` per step with gravity; judged.
#[allow(clippy::too_many_arguments)]
pub fn climb(
    character: Character<DVec3>,
    riser: f64,
    step_height: f64,
    steps: usize,
    tread: f64,
    heading_deg: f64,
    speed: f64,
    meshes: bool,
) -> Climb {
    let mut world = World::new();
    let mut tris: Vec<Tri> = Vec::new();
    let mut boxes: Vec<(DVec3, DVec3)> = Vec::new();
    let width = 400.0;
    // The floor, then each step a box from its riser to the stair's far end.
    boxes.push((DVec3::new(60.0, 1.0, 60.0), DVec3::new(0.0, -1.0, 0.0)));
    let end = 1.0 + steps as f64 * tread + 100.0;
    for k in 0..steps {
        let (x0, top) = (1.0 + k as f64 * tread, riser * (k + 1) as f64);
        boxes.push((
            DVec3::new((end - x0) / 2.0, top / 2.0, width / 2.0),
            DVec3::new((end + x0) / 2.0, top / 2.0, 0.0),
        ));
    }
    for &(h, c) in &boxes {
        let t = box_triangles(h, c);
        if meshes {
            let vertices: Vec<DVec3> = t.iter().flatten().copied().collect();
            let indices = (0..t.len() as u32).map(|i| [3 * i, 3 * i + 1, 3 * i + 2]).collect();
            world
                .insert(Shape3::TriMesh(Arc::new(TriMesh::new(vertices, indices))), DPose3::IDENTITY)
                .unwrap();
        } else {
            world.insert(Shape3::from(Cuboid::new(h)), DPose3::from_translation(c)).unwrap();
        }
        tris.extend(t);
    }
    let settings = MoverSettings { step_height, ..MoverSettings::default() };
    let stand = character.half_height();
    let heading = heading_deg.to_radians();
    let walk = DVec3::new(heading.cos(), 0.0, heading.sin()) * speed + DVec3::new(0.0, -0.05, 0.0);
    let top = riser * steps as f64;
    let climbable = riser <= step_height;
    // Far enough to cross the stair and stand on the top tread a while.
    let distance = 2.0 + steps as f64 * tread + 1.5;
    let count = (distance / (speed * heading.cos())).ceil() as usize + 30;
    let mut p = DVec3::new(-1.0, stand + 0.002, 0.0);
    let mut wrong = None;
    let scale = 1.0 + end;
    for i in 0..count {
        let m = move_and_slide(&world, &character, p, walk, &settings, None).unwrap();
        p = m.position;
        let least = tris.iter().map(|t| clearance(&character, p, t)).fold(f64::INFINITY, f64::min);
        if least < -1e-9 * scale {
            wrong = Some(format!("step {i}: penetrates by {:e} at {p}", -least));
            break;
        }
        if boxes.iter().any(|(h, c)| (p - *c).abs().cmplt(*h).all()) {
            wrong = Some(format!("step {i}: centre inside a step at {p}"));
            break;
        }
        // Resting on the floor (its foot within a few skins of it), before the first riser
        // or against it: standing.
        let on_floor = (p.y - stand).abs() < 0.004 && i > 2;
        if on_floor && p.x < 1.0 && !m.grounded() {
            wrong = Some(format!("step {i}: rests on the floor at {p} but is not grounded ({:?})", m.status));
            break;
        }
    }
    if wrong.is_none() {
        let foot = p.y - stand;
        let last_riser = 1.0 + (steps - 1) as f64 * tread;
        let on_top = p.x > last_riser && (foot - top).abs() < 0.01;
        let at_foot = p.x < 1.0 && foot.abs() < 0.01;
        if climbable && !on_top {
            wrong = Some(format!("did not climb: ends at {p} (foot {foot}, top {top})"));
        }
        if !climbable && !at_foot {
            wrong = Some(format!("climbed a riser above the step height: ends at {p} (foot {foot})"));
        }
    }
    Climb { character, riser, step_height, heading_deg, speed, meshes, steps, tread, wrong }
}

/// `cases` random staircases: risers from 5% to 99% of the step height (and one in six
/// from 101% to 150%, which must stop the character), each character, head-on or at 30
/// degrees, speeds from 0.01 to 0.3. Returns the failures.
pub fn staircases(seed: u64, cases: usize) -> (usize, Vec<Climb>) {
    let mut rng = rng(seed);
    let mut failures = Vec::new();
    for _ in 0..cases {
        let character = match rng.random_range(0..3) {
            0 => Character::Ball { radius: rng.random_range(0.2..0.6) },
            1 => Character::Ellipsoid {
                radii: DVec3::new(
                    rng.random_range(0.2..0.5),
                    rng.random_range(0.3..0.8),
                    rng.random_range(0.2..0.5),
                ),
            },
            _ => Character::Capsule {
                half_height: rng.random_range(0.1..0.6),
                radius: rng.random_range(0.15..0.4),
            },
        };
        let step_height = rng.random_range(0.15..0.45);
        let riser = step_height
            * if rng.random_bool(1.0 / 6.0) {
                rng.random_range(1.01..1.5)
            } else {
                rng.random_range(0.05..0.99)
            };
        let steps = rng.random_range(1..=4);
        // Treads deep enough to stand on.
        let across = match character {
            Character::Ball { radius } => radius,
            Character::Ellipsoid { radii } => radii.x.max(radii.z),
            Character::Capsule { radius, .. } => radius,
        };
        let tread = (2.0 * across + 0.1) * rng.random_range(1.0..2.0);
        let heading = if rng.random_bool(0.5) { 0.0 } else { 30.0 };
        let speed = 10f64.powf(rng.random_range(-2.0..(0.3f64).log10()));
        let meshes = rng.random_bool(0.3);
        let c = climb(character, riser, step_height, steps, tread, heading, speed, meshes);
        if c.wrong.is_some() {
            failures.push(c);
        }
    }
    (cases, failures)
}

#[test]
fn the_issue_staircase_is_climbed() {
    // Risers 0.27 under a step height of 0.3, treads 1 deep: the ball used to stop at the
    // first riser's edge, not grounded.
    let c = climb(Character::Ball { radius: 0.5 }, 0.27, 0.3, 4, 1.0, 0.0, 0.1, false);
    assert!(c.wrong.is_none(), "{c:?}");
}

#[test]
fn staircases_are_climbed_within_the_step_height() {
    let (cases, failures) = staircases(51, 60);
    assert!(failures.is_empty(), "{} of {cases} staircases:\n{failures:#?}", failures.len());
}

#[test]
#[ignore = "long form: cargo test --release -p kollide --test all boundary_stairs -- --ignored"]
fn staircases_long() {
    let (cases, failures) = staircases(151, 2000);
    assert!(failures.is_empty(), "{} of {cases} staircases:\n{failures:#?}", failures.len());
}
