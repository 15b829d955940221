//! The mover judged by independent f64 geometry, never by its own queries: after every
//! step the character's distance to every triangle of the world (closed forms: point to
//! triangle for a ball, segment to triangle for a capsule) is at least -1e-9 x scale, and
//! it makes the progress that no contact plane blocks. Scenes: flat terrain of many
//! triangles, a wall turned 30 degrees met at many angles, a V crevice, a thin single
//! triangle at high speed, a box edge to roll off, a corridor narrower than the character,
//! a start inside a wall, and hostile input.

use crate::common;

use common::mover_judge::{clearance, Tri};
use kollide::composite::TriMesh;
use kollide::math::{DPose3, DQuat, DVec3};
use kollide::mover::{move_and_slide, Character, MoveStatus, MoverError, MoverSettings};
use kollide::world::{Shape3, World};
use std::sync::Arc;

/// A world of triangle meshes, and the same triangles for the judge.
pub(crate) struct Scene {
    pub(crate) world: World<DVec3, Shape3<DVec3>>,
    tris: Vec<Tri>,
    /// The closed boxes (half extents, centre, turn): a centre inside one is a tunnel even
    /// when clear of every face.
    solids: Vec<(DVec3, DVec3, DQuat)>,
}

impl Scene {
    pub(crate) fn new() -> Self {
        Self { world: World::new(), tris: Vec::new(), solids: Vec::new() }
    }

    pub(crate) fn add(&mut self, tris: Vec<Tri>) {
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

    /// A closed box, added as its 12 triangles.
    pub(crate) fn add_box(&mut self, h: DVec3, c: DVec3, q: DQuat) {
        self.solids.push((h, c, q));
        self.add(cuboid(h, c, q));
    }

    fn inside_a_solid(&self, p: DVec3) -> bool {
        self.solids.iter().any(|(h, c, q)| {
            let l = q.inverse() * (p - *c);
            l.x.abs() < h.x && l.y.abs() < h.y && l.z.abs() < h.z
        })
    }

    /// The least clearance of the character at `p` to any triangle (negative when
    /// penetrating).
    pub(crate) fn clearance(&self, c: &Character<DVec3>, p: DVec3) -> f64 {
        self.tris.iter().map(|t| clearance(c, p, t)).fold(f64::INFINITY, f64::min)
    }
}

/// A flat square of `n x n` cells, two triangles each, at height `y`, normals up.
pub(crate) fn floor(n: usize, cell: f64, y: f64) -> Vec<Tri> {
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
    run_with(scene, c, start, step, steps, &MoverSettings::default())
}

/// [`run`] with settings.
fn run_with(
    scene: &Scene,
    c: &Character<DVec3>,
    start: DVec3,
    step: DVec3,
    steps: usize,
    settings: &MoverSettings<DVec3>,
) -> Vec<DVec3> {
    let mut p = start;
    let mut out = vec![p];
    for i in 0..steps {
        let m = move_and_slide(&scene.world, c, p, step, settings, None).unwrap();
        p = m.position;
        let clearance = scene.clearance(c, p);
        assert!(
            clearance >= -1e-9 * (1.0 + p.length()),
            "step {i}: clearance {clearance} at {p} ({:?})",
            m.status
        );
        assert!(!scene.inside_a_solid(p), "step {i}: centre inside a box at {p}");
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
    scene.add_box(DVec3::new(0.5, 2.0, 6.0), DVec3::new(2.0, 2.0, 0.0), q);
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
    // Two slopes meeting at x = 0, each 55 degrees steep (too steep to stand on: the ball
    // slides down them), long along z.
    for s in [-1.0, 1.0] {
        let e = DVec3::new(s * 3.0, 3.0 * 55f64.to_radians().tan(), 0.0);
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
    // A closed box behind the open side: fast movers stop at its face, never inside.
    let mut scene = Scene::new();
    scene.add_box(DVec3::new(5.0, 5.0, 5.0), DVec3::new(-10.0, 0.0, 0.0), DQuat::from_rotation_z(0.3));
    for speed in [1.0, 30.0, 1e4] {
        let c = Character::Ellipsoid { radii: DVec3::new(0.1, 0.3, 0.2) };
        let path = run(&scene, &c, DVec3::ZERO, DVec3::new(-speed, 0.1, 0.0), 5);
        assert!(path.iter().all(|p| p.x > -5.0), "{c:?} at speed {speed} went in: {path:?}");
    }
}

#[test]
fn a_ball_walking_off_a_box_edge_falls() {
    let mut scene = Scene::new();
    scene.add(floor(10, 2.0, 0.0));
    scene.add_box(DVec3::new(1.0, 0.5, 1.0), DVec3::new(0.0, 0.5, 0.0), DQuat::IDENTITY);
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
        scene.add_box(DVec3::new(3.0, 2.0, 0.5), DVec3::new(5.0, 2.0, z), DQuat::IDENTITY);
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
    scene.add_box(DVec3::new(1.0, 1.0, 1.0), DVec3::ZERO, DQuat::IDENTITY);
    let c = Character::Ball { radius: 0.5 };
    let out = move_and_slide(
        &scene.world,
        &c,
        DVec3::new(1.2, 0.0, 0.0),
        DVec3::ZERO,
        &MoverSettings::default(),
        None,
    )
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
    let out = move_and_slide(&scene.world, &c, DVec3::ZERO, DVec3::new(1e9, 0.0, 0.0), &s, None).unwrap();
    assert_eq!((out.position, out.status), (DVec3::new(1e9, 0.0, 0.0), MoveStatus::Moved));
    scene.add(floor(2, 1.0, 0.0));
    let out = move_and_slide(&scene.world, &c, DVec3::Y, DVec3::ZERO, &s, None).unwrap();
    assert_eq!(out.position, DVec3::Y);
    // NaN in the step, a bad setting, a bad character: errors naming the value.
    let e = move_and_slide(&scene.world, &c, DVec3::Y, DVec3::new(f64::NAN, 0.0, 0.0), &s, None).unwrap_err();
    assert!(matches!(e, MoverError::NonFinite { what: "displacement", .. }), "{e}");
    let bad = MoverSettings { skin: -1.0, ..s };
    let e = move_and_slide(&scene.world, &c, DVec3::Y, DVec3::X, &bad, None).unwrap_err();
    assert!(e.to_string().contains("skin"), "{e}");
    let e = move_and_slide(&scene.world, &Character::Ball { radius: 0.0 }, DVec3::Y, DVec3::X, &s, None)
        .unwrap_err();
    assert!(e.to_string().contains("radius"), "{e}");
    // A huge step down onto the floor stops on it.
    let out = move_and_slide(&scene.world, &c, DVec3::Y, DVec3::new(0.0, -1e12, 0.0), &s, None).unwrap();
    assert!(out.position.y >= 0.5 && out.position.y < 0.51, "{}", out.position);
}

/// The ellipsoid mover is exact (its own shape is cast, no sphere stand-in): judged in the
/// space where it is the unit ball, it never overlaps the floor, the turned wall or a thin
/// triangle, and it rests on the floor at its own half height.
#[test]
fn an_ellipsoid_walks_slides_and_is_stopped_exactly() {
    let mut scene = Scene::new();
    scene.add(floor(10, 2.0, 0.0));
    let q = DQuat::from_rotation_y(30f64.to_radians());
    scene.add_box(DVec3::new(0.5, 2.0, 6.0), DVec3::new(2.0, 2.0, 0.0), q);
    scene.add(vec![[DVec3::new(-4.0, 0.0, -3.0), DVec3::new(-4.0, 3.0, 0.0), DVec3::new(-4.0, 0.0, 3.0)]]);
    let c = Character::Ellipsoid { radii: DVec3::new(0.3, 0.8, 0.5) };
    for k in 0..12 {
        let a = k as f64 * 0.52;
        let step = DVec3::new(a.cos() * 0.15, GRAVITY_STEP, a.sin() * 0.15);
        let path = run(&scene, &c, DVec3::new(-1.0, 1.5, 0.2 * k as f64 - 1.0), step, 50);
        let end = *path.last().unwrap();
        assert!(end.y >= 0.8 && end.y < 0.8 + 0.0021, "direction {k}: height {}", end.y);
    }
    // Fast, at the thin triangle.
    let path = run(&scene, &c, DVec3::new(-1.0, 1.0, 0.0), DVec3::new(-50.0, 0.0, 0.0), 3);
    assert!(path.iter().all(|p| p.x > -4.0 + 0.3 - 1e-9), "{path:?}");
}

/// A staircase of boxes: rises below the step height are climbed, a rise above it stops
/// the character at the first riser; slopes below the max slope are walked up, steeper
/// ones are not.
#[test]
fn stairs_and_slopes_are_climbed_only_within_the_limits() {
    for (rise, climbs) in [(0.2, true), (0.45, false)] {
        let mut scene = Scene::new();
        scene.add(floor(12, 2.0, 0.0));
        for k in 0..4 {
            let top = rise * (k + 1) as f64;
            // Treads 1 deep; the last one a landing 6 deep.
            let (half, centre) = if k == 3 { (3.0, 7.5) } else { (0.5, 2.0 + k as f64) };
            scene.add_box(
                DVec3::new(half, top / 2.0, 2.0),
                DVec3::new(centre, top / 2.0, 0.0),
                DQuat::IDENTITY,
            );
        }
        for c in [Character::Ball { radius: 0.3 }, Character::Capsule { half_height: 0.4, radius: 0.25 }] {
            let settings =
                MoverSettings { step_height: 0.3, snap_to_ground: 0.35, ..MoverSettings::default() };
            let stand = c_half_height(&c);
            let path = run_with(
                &scene,
                &c,
                DVec3::new(0.0, stand + 0.01, 0.0),
                DVec3::new(0.1, GRAVITY_STEP, 0.0),
                80,
                &settings,
            );
            let end = *path.last().unwrap();
            if climbs {
                assert!(
                    end.x > 5.5 && (end.y - (4.0 * rise + stand)).abs() < 0.01,
                    "{c:?} rise {rise}: {end}"
                );
            } else {
                assert!(end.x < 1.5 + 1e-6 && end.y < stand + 0.01, "{c:?} rise {rise}: {end}");
            }
        }
    }
    for (deg, climbs) in [(25.0f64, true), (60.0, false)] {
        let mut scene = Scene::new();
        scene.add(floor(12, 2.0, 0.0));
        let t = deg.to_radians().tan();
        let (a, b) = (DVec3::new(1.0, 0.0, -3.0), DVec3::new(1.0, 0.0, 3.0));
        let up = DVec3::new(4.0, 4.0 * t, 0.0);
        scene.add(vec![[a, b, b + up], [a, b + up, a + up]]);
        let c = Character::Ball { radius: 0.3 };
        let path = run(&scene, &c, DVec3::new(0.0, 0.31, 0.0), DVec3::new(0.1, GRAVITY_STEP, 0.0), 40);
        let end = *path.last().unwrap();
        if climbs {
            assert!(end.x > 3.0 && end.y > 1.0, "{deg} degrees: {end}");
        } else {
            assert!(end.x < 1.3 && end.y < 0.5, "{deg} degrees: {end}");
        }
    }
}

/// Walking down a slope with snapping on, the character stays on the ground at every step.
#[test]
fn snapping_keeps_a_character_on_a_slope_going_down() {
    let mut scene = Scene::new();
    let t = 20f64.to_radians().tan();
    let (a, b) = (DVec3::new(0.0, 0.0, -3.0), DVec3::new(0.0, 0.0, 3.0));
    let down = DVec3::new(8.0, -8.0 * t, 0.0);
    scene.add(vec![[a, b + down, b], [a, a + down, b + down]]);
    let c = Character::Ball { radius: 0.3 };
    let settings = MoverSettings { snap_to_ground: 0.2, ..MoverSettings::default() };
    let mut p = DVec3::new(0.5, 0.5 * -t + 0.3 / 20f64.to_radians().cos() + 0.0005, 0.0);
    for i in 0..50 {
        let m = move_and_slide(&scene.world, &c, p, DVec3::new(0.12, -0.01, 0.0), &settings, None).unwrap();
        assert!(m.grounded(), "step {i}: left the ground at {}", m.position);
        p = m.position;
        assert!(scene.clearance(&c, p) >= -1e-9);
    }
    assert!(p.x > 5.0, "{p}");
}

fn c_half_height(c: &Character<DVec3>) -> f64 {
    match *c {
        Character::Ball { radius } => radius,
        Character::Capsule { half_height, radius } => half_height + radius,
        Character::Ellipsoid { radii } => radii.y,
    }
}

/// Gravity alone does not slide a character down a slope it can stand on, and slides it
/// down one it cannot.
#[test]
fn gravity_slides_only_down_slopes_too_steep_to_stand_on() {
    for (deg, slides) in [(30.0f64, false), (55.0, true)] {
        let mut scene = Scene::new();
        let t = deg.to_radians().tan();
        let (a, b) = (DVec3::new(-5.0, -5.0 * t, -3.0), DVec3::new(-5.0, -5.0 * t, 3.0));
        let up = DVec3::new(10.0, 10.0 * t, 0.0);
        scene.add(vec![[a, b, b + up], [a, b + up, a + up]]);
        let c = Character::Ball { radius: 0.5 };
        let start = DVec3::new(0.0, 0.5 / deg.to_radians().cos() + 0.0005, 0.0);
        let path = run(&scene, &c, start, DVec3::new(0.0, GRAVITY_STEP, 0.0), 30);
        let moved = (*path.last().unwrap() - start).length();
        if slides {
            assert!(moved > 0.5, "{deg} degrees: moved {moved}");
        } else {
            assert!(moved < 1e-3, "{deg} degrees: moved {moved}");
        }
    }
}

/// Acute corners: two walls meeting at 30 degrees, and a corner of three planes (two walls
/// and the floor); walking into them the character stops there without jitter, at every
/// approach heading.
#[test]
fn acute_corners_of_two_and_three_walls_stop_the_character_without_jitter() {
    let mut scene = Scene::new();
    scene.add(floor(10, 2.0, 0.0));
    // A wedge opening toward -x, apex at the origin, half angle 15 degrees, walls 3 high.
    for s in [-1.0, 1.0] {
        let dir = DVec3::new(-(15f64.to_radians().cos()), 0.0, s * 15f64.to_radians().sin()) * 8.0;
        let (a, b) = (DVec3::ZERO, dir);
        let up = DVec3::Y * 3.0;
        scene.add(vec![[a, b, b + up], [a, b + up, a + up]]);
    }
    for c in [
        Character::Ball { radius: 0.4 },
        Character::Capsule { half_height: 0.5, radius: 0.3 },
        Character::Ellipsoid { radii: DVec3::new(0.3, 0.7, 0.4) },
    ] {
        for k in 0..5 {
            let z = -0.6 + 0.3 * k as f64;
            let start = DVec3::new(-6.0, c_half_height(&c) + 0.01, z);
            let path = run(&scene, &c, start, DVec3::new(0.2, GRAVITY_STEP, -z * 0.02), 120);
            for w in path[100..].windows(2) {
                assert!((w[1] - w[0]).length() < 1e-6, "{c:?} from z {z}: jitter {} -> {}", w[0], w[1]);
            }
            // Deep in the wedge: the apex is at x = 0.
            let end = *path.last().unwrap();
            assert!(end.x > -3.0 && end.z.abs() < 0.05, "{c:?} from z {z}: stopped at {end}");
        }
    }
}

/// A corridor just wider than the character (by 1 cm) is walked through, and a box set
/// into the terrain is walked along: the seam between them neither stops nor lifts it.
#[test]
fn a_corridor_just_wider_and_the_seam_of_a_building_and_the_ground() {
    let mut scene = Scene::new();
    scene.add(floor(10, 2.0, 0.0));
    let r = 0.4;
    for s in [-1.0, 1.0] {
        let z = s * (r + 0.005 + 0.5);
        scene.add_box(DVec3::new(3.0, 2.0, 0.5), DVec3::new(5.0, 2.0, z), DQuat::IDENTITY);
    }
    let c = Character::Ball { radius: r };
    let path = run(&scene, &c, DVec3::new(0.0, r + 0.01, 0.0), DVec3::new(0.1, GRAVITY_STEP, 0.0), 110);
    assert!(path.last().unwrap().x > 10.0, "stuck in the corridor at {}", path.last().unwrap());
    // A house sunk 0.3 into a bumpy terrain; walking along its wall, pressed against it.
    // (Its long wall runs from (-0.77, -3.62) to (0.83, 4.22).)
    let mut scene = Scene::new();
    let mut bumpy = floor(12, 1.0, 0.0);
    for t in &mut bumpy {
        for v in t.iter_mut() {
            v.y = 0.1 * (v.x * 1.3).sin() * (v.z * 0.7).cos();
        }
    }
    scene.add(bumpy);
    scene.add_box(DVec3::new(1.5, 1.5, 4.0), DVec3::new(1.5, 1.2, 0.0), DQuat::from_rotation_y(0.2));
    for c in [Character::Ball { radius: 0.3 }, Character::Capsule { half_height: 0.3, radius: 0.25 }] {
        // Heading into the house's long wall (it runs along z, turned 0.2 rad) past its corner.
        let start = DVec3::new(-2.5, c_half_height(&c) + 0.2, -5.0);
        let path = run(&scene, &c, start, DVec3::new(0.06, GRAVITY_STEP, 0.1), 90);
        let end = *path.last().unwrap();
        assert!(end.z > 3.0, "{c:?} stopped along the seam at {end}");
        // Pressed against the wall all the way (it is the character's radius off the wall).
        let radius = match c {
            Character::Ball { radius } | Character::Capsule { radius, .. } => radius,
            Character::Ellipsoid { .. } => unreachable!(),
        };
        for p in path.iter().filter(|p| (0.0..3.5).contains(&p.z)) {
            let hug = -0.046 + 0.2 * p.z - radius / 0.2f64.cos();
            assert!((p.x - hug).abs() < 0.03, "{c:?} left the wall: at {p}, the wall's line at x = {hug}");
        }
        assert!(end.y < c_half_height(&c) + 0.15, "{c:?} climbed the wall: {end}");
    }
}

/// A box's vertical edge met at 30 degrees and at grazing angles, at many offsets across
/// it: the character slides around the corner and goes on (no trap), never inside.
#[test]
fn a_box_corner_met_at_30_degrees_and_grazing_is_slid_around() {
    let mut scene = Scene::new();
    scene.add(floor(10, 2.0, 0.0));
    scene.add_box(DVec3::new(1.0, 1.5, 1.0), DVec3::new(0.0, 1.5, 0.0), DQuat::IDENTITY);
    for c in [
        Character::Ball { radius: 0.4 },
        Character::Capsule { half_height: 0.4, radius: 0.3 },
        Character::Ellipsoid { radii: DVec3::new(0.3, 0.6, 0.45) },
    ] {
        for deg in [30.0f64, 5.0, 1.0, 0.2] {
            let a = deg.to_radians();
            let heading = DVec3::new(a.cos(), 0.0, a.sin());
            for k in 0..7 {
                // Aimed so that the path, without the box, passes the corner (x = -1, z = 1)
                // at offsets across it from inside to just outside.
                let offset = -0.6 + 0.2 * k as f64;
                let start = DVec3::new(-1.0, c_half_height(&c) + 0.01, 1.0 + offset) - heading * 4.0;
                let path = run(&scene, &c, start, heading * 0.1 + DVec3::Y * GRAVITY_STEP, 150);
                // Every step makes at least half of the least unblocked part of the heading:
                // against the face it is the part along the face (sin a), around the corner
                // more. A trap would make ~0.
                for (i, w) in path.windows(2).enumerate().skip(5) {
                    let made = (w[1] - w[0]).with_y(0.0).length();
                    assert!(
                        made >= 0.5 * 0.1 * a.sin(),
                        "{c:?} at {deg} degrees, offset {offset}: step {i} made {made} at {}",
                        w[0]
                    );
                }
            }
        }
    }
}
