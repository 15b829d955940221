//! A randomized soak of the mover: a random terrain with random turned boxes on it, a ball,
//! a capsule and an ellipsoid walking in random directions with gravity and jumps. After
//! every step the character's clearance to every triangle, worked out in f64 here (point,
//! segment, or the ellipsoid's scaled space to each triangle), is at least -1e-9 x scale,
//! and over the run it covers most of the distance it was asked to walk (no traps).
//!
//! The default run is short (CI runs it in debug). The million-step soak:
//! `cargo test --release -p kollide --test all mover_soak -- --ignored --nocapture`.

use crate::common;

use common::mover_judge::{clearance, Tri};
use common::oracle::point_triangle;
use kollide::composite::TriMesh;
use kollide::math::{DPose3, DQuat, DVec3};
use kollide::mover::{move_and_slide, Character, MoverSettings};
use kollide::world::{Shape3, World};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The least clearance of the character at `p` to the triangles near it.
fn clearance_near(c: &Character<DVec3>, p: DVec3, tris: &[Tri]) -> f64 {
    let near =
        |t: &Tri| t.iter().any(|v| (*v - p).length() < 6.0) || point_triangle(p, t[0], t[1], t[2]) < 3.0;
    tris.iter().filter(|t| near(t)).map(|t| clearance(c, p, t)).fold(f64::INFINITY, f64::min)
}

/// The soak's world: the bodies, every triangle, the boxes (half extents, centre, turn) and
/// the terrain's heights by grid point.
struct Soak {
    world: World<DVec3, Shape3<DVec3>>,
    tris: Vec<Tri>,
    boxes: Vec<(DVec3, DVec3, DQuat)>,
    heights: Vec<f64>,
}

const CELLS: usize = 24;

impl Soak {
    /// The terrain's height under (x, z), from its triangles as split on the grid.
    fn ground(&self, x: f64, z: f64) -> f64 {
        let n = CELLS;
        let (u, v) = ((x + 20.0) / 40.0 * n as f64, (z + 20.0) / 40.0 * n as f64);
        let (c, r) = ((u.floor() as usize).min(n - 1), (v.floor() as usize).min(n - 1));
        let (fu, fv) = (u - c as f64, v - r as f64);
        let h = |r: usize, c: usize| self.heights[r * (n + 1) + c];
        // Triangles (r,c)-(r+1,c)-(r+1,c+1) where fv >= fu, and (r,c)-(r+1,c+1)-(r,c+1).
        if fv >= fu {
            h(r, c) + fv * (h(r + 1, c) - h(r, c)) + fu * (h(r + 1, c + 1) - h(r + 1, c))
        } else {
            h(r, c) + fu * (h(r, c + 1) - h(r, c)) + fv * (h(r + 1, c + 1) - h(r, c + 1))
        }
    }

    /// Whether `p` lies strictly inside one of the boxes.
    fn inside_a_box(&self, p: DVec3) -> bool {
        self.boxes.iter().any(|(he, c, q)| {
            let l = q.inverse() * (p - *c);
            l.x.abs() < he.x && l.y.abs() < he.y && l.z.abs() < he.z
        })
    }
}

fn world(rng: &mut ChaCha8Rng) -> Soak {
    let n = CELLS;
    let h: Vec<f64> = (0..(n + 1) * (n + 1)).map(|_| rng.random_range(0.0..0.6)).collect();
    let p = |r: usize, c: usize| {
        DVec3::new(-20.0 + 40.0 * c as f64 / n as f64, h[r * (n + 1) + c], -20.0 + 40.0 * r as f64 / n as f64)
    };
    let mut tris = Vec::new();
    for r in 0..n {
        for c in 0..n {
            tris.push([p(r, c), p(r + 1, c), p(r + 1, c + 1)]);
            tris.push([p(r, c), p(r + 1, c + 1), p(r, c + 1)]);
        }
    }
    // A rim of walls keeps the walkers on the terrain.
    let mut boxes: Vec<(DVec3, DVec3, DQuat)> = vec![
        (DVec3::new(1.0, 6.0, 21.0), DVec3::new(-20.5, 1.0, 0.0), DQuat::IDENTITY),
        (DVec3::new(1.0, 6.0, 21.0), DVec3::new(20.5, 1.0, 0.0), DQuat::IDENTITY),
        (DVec3::new(21.0, 6.0, 1.0), DVec3::new(0.0, 1.0, -20.5), DQuat::IDENTITY),
        (DVec3::new(21.0, 6.0, 1.0), DVec3::new(0.0, 1.0, 20.5), DQuat::IDENTITY),
    ];
    for _ in 0..12 {
        let he =
            DVec3::new(rng.random_range(0.3..2.5), rng.random_range(0.1..1.5), rng.random_range(0.3..2.5));
        let c = DVec3::new(rng.random_range(-16.0..16.0), he.y * 0.8, rng.random_range(-16.0..16.0));
        boxes.push((he, c, DQuat::from_rotation_y(rng.random_range(0.0..3.2))));
    }
    let mut w = World::new();
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for t in &tris {
        let k = vertices.len() as u32;
        vertices.extend_from_slice(t);
        indices.push([k, k + 1, k + 2]);
    }
    w.insert(Shape3::TriMesh(Arc::new(TriMesh::new(vertices, indices))), DPose3::IDENTITY).unwrap();
    for &(he, c, q) in &boxes {
        w.insert(Shape3::from(kollide::shape::Cuboid::new(he)), DPose3::new(c, q)).unwrap();
        let corner = |i: usize| {
            c + q * DVec3::new(
                if i & 1 == 0 { -he.x } else { he.x },
                if i & 2 == 0 { -he.y } else { he.y },
                if i & 4 == 0 { -he.z } else { he.z },
            )
        };
        for f in [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]] {
            tris.push([corner(f[0]), corner(f[1]), corner(f[2])]);
            tris.push([corner(f[0]), corner(f[2]), corner(f[3])]);
        }
    }
    Soak { world: w, tris, boxes, heights: h }
}

fn soak(steps: usize, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let soak_world = world(&mut rng);
    let (w, tris) = (&soak_world.world, &soak_world.tris);
    // The test's own ground formula lies on the terrain's triangles.
    for _ in 0..50 {
        let (x, z) = (rng.random_range(-19.9..19.9), rng.random_range(-19.9..19.9));
        let p = DVec3::new(x, soak_world.ground(x, z), z);
        let on = tris[..2 * CELLS * CELLS]
            .iter()
            .map(|t| point_triangle(p, t[0], t[1], t[2]))
            .fold(f64::INFINITY, f64::min);
        assert!(on < 1e-9, "the ground formula is off the terrain by {on} at {p}");
    }
    let characters = [
        Character::Ball { radius: 0.4 },
        Character::Capsule { half_height: 0.5, radius: 0.3 },
        Character::Ellipsoid { radii: DVec3::new(0.35, 0.6, 0.45) },
    ];
    let settings = MoverSettings { step_height: 0.25, snap_to_ground: 0.1, ..MoverSettings::default() };
    for (k, c) in characters.iter().enumerate() {
        let mut p = DVec3::new(rng.random_range(-5.0..5.0), 4.0, rng.random_range(-5.0..5.0));
        let mut vy = 0.0f64;
        let mut grounded = false;
        let (mut asked, mut walked) = (0.0, 0.0);
        let mut heading = DVec3::X;
        for i in 0..steps {
            if i % 40 == 0 {
                let a: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                let speed = rng.random_range(0.02..0.3);
                heading = DVec3::new(a.cos(), 0.0, a.sin()) * speed;
            }
            // Jumps only from the ground (a jump in the air would climb the sky).
            if rng.random_bool(0.01) && grounded {
                vy = 0.25;
            }
            vy = (vy - 0.02).max(-1.0);
            let d = heading + DVec3::Y * vy;
            let m = move_and_slide(w, c, p, d, &settings, None).unwrap();
            grounded = m.grounded();
            if grounded && vy < 0.0 {
                vy = -0.02;
            }
            asked += heading.length();
            walked += m.displacement.with_y(0.0).length();
            p = m.position;
            let cl = clearance_near(c, p, tris);
            // A character wholly inside a closed box would be clear of its faces: the centre
            // is checked against the solids themselves, and against the ground under it.
            assert!(!soak_world.inside_a_box(p), "{c:?} step {i}: centre inside a box at {p}");
            assert!(p.y > soak_world.ground(p.x, p.z), "{c:?} step {i}: centre below the terrain at {p}");
            assert!(cl >= -1e-9 * (1.0 + p.length()), "{c:?} step {i}: clearance {cl} at {p}");
            assert!(
                p.x.abs() < 20.0 && p.z.abs() < 20.0 && p.y > -0.1,
                "{c:?} step {i}: left the terrain at {p}"
            );
        }
        // Walls and boxes block part of the walk, but a trap would freeze it.
        assert!(walked > 0.4 * asked, "character {k}: walked {walked} of {asked}");
    }
}

#[test]
fn a_short_soak_over_random_terrain_and_boxes() {
    soak(if cfg!(debug_assertions) { 2000 } else { 5000 }, 1);
}

/// The million-step soak (about a third of a million steps per character).
#[test]
#[ignore]
fn a_million_step_soak() {
    soak(340_000, 2);
}
