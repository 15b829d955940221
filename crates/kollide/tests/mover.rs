//! The mover judged by independent f64 geometry, never by its own queries: after every
//! step the character's distance to every triangle of the world (closed forms: point to
//! triangle for a ball, segment to triangle for a capsule) is at least -1e-9 x scale, and
//! it makes the progress that no contact plane blocks. Scenes: flat terrain of many
//! triangles, a wall turned 30 degrees met at many angles, a V crevice, a thin single
//! triangle at high speed, a box edge to roll off, a corridor narrower than the character,
//! a start inside a wall, and hostile input.

mod common;

use common::oracle::{point_triangle, segment_segment};
use kollide::composite::TriMesh;
use kollide::math::{DPose3, DQuat, DVec3};
use kollide::mover::{move_and_slide, Character, MoveStatus, MoverError, MoverSettings};
use kollide::world::{Shape3, World};
use std::sync::Arc;

type Tri = [DVec3; 3];

/// A world of triangle meshes, and the same triangles for the judge.
struct Scene {
    world: World<DVec3, Shape3<DVec3>>,
    tris: Vec<Tri>,
}

impl Scene {
    fn new() -> Self {
        Self { world: World::new(), tris: Vec::new() }
    }

    fn add(&mut self, tris: Vec<Tri>) {
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        for t in &tris {
            let k = vertices.len() as u32;
            vertices.extend_from_slice(t);
            indices.push([k, k + 1, k + 2]);
        }
        self.world
            .insert(Shape3::TriMesh(Arc::new(TriMesh::new(vertices, indices))), DPose3::IDENTITY)
            .unwrap();
        self.tris.extend(tris);
    }

    /// The least distance from the character at `p` to any triangle, less its size: the
    /// clearance (negative when penetrating).
    fn clearance(&self, c: &Character<DVec3>, p: DVec3) -> f64 {
        self.tris
            .iter()
            .map(|t| match *c {
                Character::Ball { radius } => point_triangle(p, t[0], t[1], t[2]) - radius,
                Character::Capsule { half_height, radius } => {
                    segment_triangle(p - DVec3::Y * half_height, p + DVec3::Y * half_height, t) - radius
                }
                Character::Ellipsoid { .. } => unreachable!("judged by sampling"),
            })
            .fold(f64::INFINITY, f64::min)
    }
}

/// Segment-triangle distance: zero when the segment crosses the triangle, else the least
/// of the end points to the triangle and the triangle's edges to the segment.
fn segment_triangle(p: DVec3, q: DVec3, t: &Tri) -> f64 {
    let n = (t[1] - t[0]).cross(t[2] - t[0]);
    let (dp, dq) = ((p - t[0]).dot(n), (q - t[0]).dot(n));
    if dp * dq <= 0.0 && dp != dq {
        let x = p + (q - p) * (dp / (dp - dq));
        let inside = (0..3).all(|k| (t[(k + 1) % 3] - t[k]).cross(x - t[k]).dot(n) >= 0.0);
        if inside {
            return 0.0;
        }
    }
    let mut best = point_triangle(p, t[0], t[1], t[2]).min(point_triangle(q, t[0], t[1], t[2]));
    for k in 0..3 {
        best = best.min(segment_segment(p, q, t[k], t[(k + 1) % 3]));
    }
    best
}

/// A flat square of `n x n` cells, two triangles each, at height `y`, normals up.
fn floor(n: usize, cell: f64, y: f64) -> Vec<Tri> {
    let mut out = Vec::new();
    let o = -(n as f64) * cell / 2.0;
    for i in 0..n {
        for j in 0..n {
            let p = |a: usize, b: usize| DVec3::new(o + a as f64 * cell, y, o + b as f64 * cell);
            out.push([p(i, j), p(i, j + 1), p(i + 1, j + 1)]);
            out.push([p(i, j), p(i + 1, j + 1), p(i + 1, j)]);
        }
    }
    out
}

/// The 12 triangles of a box with half extents `h`, turned by `q` about its centre `c`.
fn cuboid(h: DVec3, c: DVec3, q: DQuat) -> Vec<Tri> {
    let corner = |i: usize| {
        c + q * DVec3::new(
            if i & 1 == 0 { -h.x } else { h.x },
            if i & 2 == 0 { -h.y } else { h.y },
            if i & 4 == 0 { -h.z } else { h.z },
        )
    };
    let faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    let mut out = Vec::new();
    for f in faces {
        out.push([corner(f[0]), corner(f[1]), corner(f[2])]);
        out.push([corner(f[0]), corner(f[2]), corner(f[3])]);
    }
    out
}

const GRAVITY_STEP: f64 = -0.05;

/// Runs `steps` equal steps and judges each: clearance at least -1e-9 x scale. Returns the
/// positions.
fn run(scene: &Scene, c: &Character<DVec3>, start: DVec3, step: DVec3, steps: usize) -> Vec<DVec3> {
    let settings = MoverSettings::default();
    let mut p = start;
    let mut out = vec![p];
    for i in 0..steps {
        let m = move_and_slide(&scene.world, c, p, step, &settings).unwrap();
        p = m.position;
        let clearance = scene.clearance(c, p);
        assert!(
            clearance >= -1e-9 * (1.0 + p.length()),
            "step {i}: clearance {clearance} at {p} ({:?})",
            m.status
        );
        out.push(p);
    }
    out
}

#[test]
fn walking_on_a_floor_of_many_triangles_keeps_above_it_and_goes_where_asked() {
    let mut scene = Scene::new();
    scene.add(floor(20, 0.7, 0.0));
    for c in [Character::Ball { radius: 0.4 }, Character::Capsule { half_height: 0.5, radius: 0.3 }] {
        for k in 0..12 {
            let a = k as f64 * 0.53;
            let step = DVec3::new(a.cos() * 0.09, GRAVITY_STEP, a.sin() * 0.09);
            let start = DVec3::new(0.13 * k as f64 - 0.7, 1.5, 0.05 * k as f64);
            let path = run(&scene, &c, start, step, 60);
            let end = *path.last().unwrap();
            // Landed, and walked the whole horizontal way (no bump at the seams).
            let h = (end - start).with_y(0.0);
            assert!((h - step.with_y(0.0) * 60.0).length() < 1e-9, "{c:?} direction {k}: {h}");
            let stand = match c {
                Character::Ball { radius } => radius,
                Character::Capsule { half_height, radius } => half_height + radius,
                Character::Ellipsoid { .. } => unreachable!(),
            };
            assert!(end.y > stand && end.y < stand + 0.0021, "{c:?}: ends at height {}", end.y);
        }
    }
}

#[test]
fn a_wall_turned_30_degrees_is_slid_along_at_every_angle() {
    let mut scene = Scene::new();
    scene.add(floor(10, 2.0, 0.0));
    let q = DQuat::from_rotation_y(30f64.to_radians());
    scene.add(cuboid(DVec3::new(0.5, 2.0, 6.0), DVec3::new(2.0, 2.0, 0.0), q));
    let wall_normal = q * DVec3::NEG_X; // the face met coming from -x
    for c in [Character::Ball { radius: 0.5 }, Character::Capsule { half_height: 0.4, radius: 0.35 }] {
        for k in 0..16 {
            // Headings from nearly head-on to grazing.
            let a = -1.45 + k as f64 * 0.19;
            let heading = q * DVec3::new(a.cos(), 0.0, a.sin());
            let step = heading * 0.2 + DVec3::Y * GRAVITY_STEP;
            let start = DVec3::new(-0.5, 1.2, 0.0);
            let path = run(&scene, &c, start, step, 40);
            let end = *path.last().unwrap();
            // Progress along the wall: the tangential part of the heading is kept.
            let tangent = heading - wall_normal * heading.dot(wall_normal);
            let made = (end - start).dot(tangent.normalize());
            assert!(made > 0.5 * 40.0 * 0.2 * tangent.length() - 1e-9, "{c:?} heading {k}: made {made}");
        }
    }
}

#[test]
fn a_ball_falls_into_a_v_crevice_and_rests_without_jitter() {
    let mut scene = Scene::new();
    // Two slopes meeting at x = 0, each 40 degrees steep, long along z.
    for s in [-1.0, 1.0] {
        let e = DVec3::new(s * 3.0, 3.0 * 40f64.to_radians().tan(), 0.0);
        let (a, b) = (DVec3::new(0.0, 0.0, -5.0), DVec3::new(0.0, 0.0, 5.0));
        scene.add(vec![[a, b, b + e], [a, b + e, a + e]]);
    }
    let c = Character::Ball { radius: 0.5 };
    let path = run(&scene, &c, DVec3::new(0.8, 3.0, 0.3), DVec3::new(0.02, -0.1, 0.0), 200);
    let last: Vec<DVec3> = path[180..].to_vec();
    for w in last.windows(2) {
        assert!((w[1] - w[0]).length() < 1e-6, "still moving at the bottom: {} -> {}", w[0], w[1]);
    }
    // At the bottom: the ball touches both slopes (centre on the middle line).
    let end = *path.last().unwrap();
    assert!(end.x.abs() < 0.05, "{end}");
}

#[test]
fn a_thin_triangle_stops_a_fast_ball() {
    let mut scene = Scene::new();
    // One triangle, no thickness, across the path.
    scene.add(vec![[
        DVec3::new(5.0, -10.0, -10.0),
        DVec3::new(5.0, 10.0, 0.0),
        DVec3::new(5.0, -10.0, 10.0),
    ]]);
    for speed in [1.0, 30.0, 1e4] {
        for c in [Character::Ball { radius: 0.1 }, Character::Capsule { half_height: 0.3, radius: 0.05 }] {
            let path = run(&scene, &c, DVec3::ZERO, DVec3::new(speed, 0.0, 0.0), 5);
            assert!(path.iter().all(|p| p.x < 5.0), "{c:?} at speed {speed} passed through: {path:?}");
        }
    }
}

#[test]
fn a_ball_walking_off_a_box_edge_falls() {
    let mut scene = Scene::new();
    scene.add(floor(10, 2.0, 0.0));
    scene.add(cuboid(DVec3::new(1.0, 0.5, 1.0), DVec3::new(0.0, 0.5, 0.0), DQuat::IDENTITY));
    let c = Character::Ball { radius: 0.3 };
    let path = run(&scene, &c, DVec3::new(0.0, 1.31, 0.0), DVec3::new(0.05, GRAVITY_STEP, 0.0), 60);
    let end = *path.last().unwrap();
    assert!(end.x > 1.5, "{end}");
    assert!(end.y < 0.31, "stayed on the edge: {end}");
}

#[test]
fn a_corridor_narrower_than_the_character_blocks_it() {
    let mut scene = Scene::new();
    scene.add(floor(10, 2.0, 0.0));
    for z in [-1.3, 1.3] {
        scene.add(cuboid(DVec3::new(3.0, 2.0, 0.5), DVec3::new(5.0, 2.0, z), DQuat::IDENTITY));
    }
    // The gap is 1.6 wide; a ball of radius 1 does not fit.
    let c = Character::Ball { radius: 1.0 };
    let path = run(&scene, &c, DVec3::new(0.0, 1.0, 0.0), DVec3::new(0.3, GRAVITY_STEP, 0.0), 40);
    let end = *path.last().unwrap();
    assert!(end.x < 2.0 + 1e-6, "{end}");
}

#[test]
fn a_start_inside_a_wall_is_pushed_out() {
    let mut scene = Scene::new();
    scene.add(cuboid(DVec3::new(1.0, 1.0, 1.0), DVec3::ZERO, DQuat::IDENTITY));
    let c = Character::Ball { radius: 0.5 };
    let out =
        move_and_slide(&scene.world, &c, DVec3::new(1.2, 0.0, 0.0), DVec3::ZERO, &MoverSettings::default())
            .unwrap();
    assert_eq!(out.status, MoveStatus::StartedInside);
    assert!(scene.clearance(&c, out.position) >= 0.0, "{}", out.position);
}

#[test]
fn hostile_input_gets_clear_errors_or_plain_answers() {
    let mut scene = Scene::new();
    let c = Character::Ball { radius: 0.5 };
    let s = MoverSettings::default();
    // No geometry: moves freely; a zero move stays.
    let out = move_and_slide(&scene.world, &c, DVec3::ZERO, DVec3::new(1e9, 0.0, 0.0), &s).unwrap();
    assert_eq!((out.position, out.status), (DVec3::new(1e9, 0.0, 0.0), MoveStatus::Moved));
    scene.add(floor(2, 1.0, 0.0));
    let out = move_and_slide(&scene.world, &c, DVec3::Y, DVec3::ZERO, &s).unwrap();
    assert_eq!(out.position, DVec3::Y);
    // NaN in the step, a bad setting, a bad character: errors naming the value.
    let e = move_and_slide(&scene.world, &c, DVec3::Y, DVec3::new(f64::NAN, 0.0, 0.0), &s).unwrap_err();
    assert!(matches!(e, MoverError::NonFinite { what: "displacement", .. }), "{e}");
    let bad = MoverSettings { skin: -1.0, ..s };
    let e = move_and_slide(&scene.world, &c, DVec3::Y, DVec3::X, &bad).unwrap_err();
    assert!(e.to_string().contains("skin"), "{e}");
    let e =
        move_and_slide(&scene.world, &Character::Ball { radius: 0.0 }, DVec3::Y, DVec3::X, &s).unwrap_err();
    assert!(e.to_string().contains("radius"), "{e}");
    // A huge step down onto the floor stops on it.
    let out = move_and_slide(&scene.world, &c, DVec3::Y, DVec3::new(0.0, -1e12, 0.0), &s).unwrap();
    assert!(out.position.y >= 0.5 && out.position.y < 0.51, "{}", out.position);
}
