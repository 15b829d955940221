//! The demo world of `kollide demo` and of the bench's mover rows: the world of the classic
//! texts, and a ball and an ellipsoid walked through it by the mover.
//!
//! The world: a terrain from the shipped heightmap PNG (128 x 128 samples over 128 x 128 m,
//! 12 m of relief, a winding valley), three houses as boxes (one turned 30 degrees), a
//! bridge over the valley as a triangle mesh (a deck with thin single-triangle railings),
//! trees as compounds of a cylinder and a cone, and a sharp-edged block. The ball starts on
//! the block, walks off its edge, crosses the bridge, meets the turned house and goes on
//! with jumps; the ellipsoid walks among the trees and between two houses. 60 steps a
//! second, gravity 9.81, walking 4 m/s.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

use kollide::composite::{Compound, HeightField, TriMesh};
use kollide::math::{DPose3, DQuat, DVec3};
use kollide::mover::{move_and_slide, Character, MoveOutput, MoverSettings};
use kollide::query::cast::SweepFeature;
use kollide::query::cast::{Ray, RayOutcome};
use kollide::shape::{Cone, Convex3, Cuboid, Cylinder};
use kollide::world::{Shape3, World};
use std::sync::Arc;
use std::time::Instant;

/// The shipped heightmap, built in so the demo runs from anywhere.
const HEIGHTMAP: &[u8] = include_bytes!("../../../examples/terrain.png");
/// The terrain's extent (m) along x and z, and its relief (m).
pub const SIDE: f64 = 128.0;
const RELIEF: f64 = 12.0;
const DT: f64 = 1.0 / 60.0;
const GRAVITY: f64 = 9.81;
const WALK: f64 = 4.0;
const JUMP: f64 = 5.0;
/// A tree's trunk: a cylinder of this radius (m), standing on the tree's base.
pub const TRUNK_RADIUS: f64 = 0.3;
const TRUNK_HALF_HEIGHT: f64 = 1.5;
/// A tree's crown: a cone of this base radius (m), apex up, its base 2.5 m above the tree's
/// base (over the trunk's top half metre).
pub const CROWN_RADIUS: f64 = 1.6;
const CROWN_HALF_HEIGHT: f64 = 2.0;
const CROWN_CENTRE: f64 = 4.5;
/// How deep a tree's base is sunk below the ground at its centre (m).
const TREE_SUNK: f64 = 0.3;
/// The height of a tree crown's base above the ground at the tree's centre (m): below it,
/// only the trunk is in the way.
pub const CROWN_CLEARANCE: f64 = CROWN_CENTRE - CROWN_HALF_HEIGHT - TREE_SUNK;

/// What a top view draws of a body: a footprint polygon (x, z) and its kind.
#[derive(Clone, Debug)]
pub struct Footprint {
    /// `house`, `block`, `bridge` or `tree` (a tree's outline is its centre; its trunk and
    /// crown are [`TRUNK_RADIUS`] and [`CROWN_RADIUS`] around it).
    pub kind: &'static str,
    /// The corners seen from above, (x, z).
    pub outline: Vec<(f64, f64)>,
}

/// The demo world and what the pictures show of it.
#[derive(Debug)]
pub struct DemoWorld {
    /// Every body.
    pub world: World<DVec3, Shape3<DVec3>>,
    /// The terrain (also body 0 of the world).
    pub terrain: Arc<HeightField<DVec3>>,
    /// The other bodies seen from above.
    pub footprints: Vec<Footprint>,
}

/// One walker's run: every step's input and output, and the time the steps took.
#[derive(Debug)]
pub struct Run {
    /// `ball`, `ellipsoid`, ...
    pub name: &'static str,
    /// Its shape.
    pub character: Character<DVec3>,
    /// Where it started.
    pub start: DVec3,
    /// Each step's start position and desired displacement.
    pub inputs: Vec<(DVec3, DVec3)>,
    /// Each step's output.
    pub steps: Vec<MoveOutput<DVec3>>,
    /// The steps (indices into `steps`) at which it jumped: the script's jump steps at
    /// which it was on the ground.
    pub jumps: Vec<usize>,
    /// Seconds spent in `move_and_slide`.
    pub seconds: f64,
}

impl DemoWorld {
    /// The ground height under (x, z): the first hit of a ray straight down (any body).
    #[must_use]
    pub fn ground(&self, x: f64, z: f64) -> f64 {
        let top = RELIEF + 40.0;
        match self.world.ray_cast(&Ray::new(DVec3::new(x, top, z), DVec3::NEG_Y), 200.0).map(|h| h.value) {
            Some(RayOutcome::Hit(h)) => h.point.y,
            _ => 0.0,
        }
    }

    /// The height of the first surface straight below `p` (its own height when nothing is
    /// there).
    #[must_use]
    pub fn ground_below(&self, p: DVec3) -> f64 {
        match self.world.ray_cast(&Ray::new(p, DVec3::NEG_Y), 200.0).map(|h| h.value) {
            Some(RayOutcome::Hit(h)) => h.point.y,
            _ => p.y,
        }
    }

    /// The terrain's own height at (x, z) (ignoring the other bodies).
    #[must_use]
    pub fn terrain_height(&self, x: f64, z: f64) -> f64 {
        let ray = Ray::new(DVec3::new(x, RELIEF + 40.0, z), DVec3::NEG_Y);
        match kollide::composite::ray_cast(&*self.terrain, &DPose3::IDENTITY, &ray, 200.0).map(|h| h.value) {
            Some(RayOutcome::Hit(h)) => h.point.y,
            _ => 0.0,
        }
    }
}

fn corners(c: DVec3, he: DVec3, yaw: f64) -> Vec<(f64, f64)> {
    let q = DQuat::from_rotation_y(yaw);
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .iter()
        .map(|&(sx, sz)| {
            let p = c + q * DVec3::new(sx * he.x, 0.0, sz * he.z);
            (p.x, p.z)
        })
        .collect()
}

/// Builds the world.
///
/// # Panics
/// Never for the shipped heightmap (its decoding is checked by the tests).
#[must_use]
pub fn build() -> DemoWorld {
    let terrain = Arc::new(
        HeightField::from_png_bytes(HEIGHTMAP, DVec3::new(SIDE, RELIEF, SIDE))
            .expect("the shipped heightmap"),
    );
    let mut world = World::new();
    world.insert(Shape3::HeightField(terrain.clone()), DPose3::IDENTITY).expect("terrain");
    let mut dw = DemoWorld { world, terrain, footprints: Vec::new() };
    // A box standing on the terrain: its base sunk 0.5 m below the lowest ground under it.
    let add_box = |dw: &mut DemoWorld, kind: &'static str, x: f64, z: f64, he: DVec3, yaw: f64| {
        let outline = corners(DVec3::new(x, 0.0, z), he, yaw);
        let base =
            outline.iter().map(|&(px, pz)| dw.terrain_height(px, pz)).fold(f64::INFINITY, f64::min) - 0.5;
        let pose = DPose3::new(DVec3::new(x, base + he.y, z), DQuat::from_rotation_y(yaw));
        dw.world.insert(Shape3::from(Cuboid::new(he)), pose).expect("box");
        dw.footprints.push(Footprint { kind, outline });
        base + 2.0 * he.y
    };
    add_box(&mut dw, "house", 12.0, 6.0, DVec3::new(4.0, 3.0, 5.0), 30f64.to_radians());
    add_box(&mut dw, "house", 18.0, -26.0, DVec3::new(5.0, 3.5, 3.0), 0.0);
    add_box(&mut dw, "house", 18.0, -38.5, DVec3::new(5.0, 3.0, 3.0), 0.0);
    add_box(&mut dw, "block", -56.0, 0.0, DVec3::new(3.0, 1.5, 3.0), 0.0);
    bridge(&mut dw, (-40.0, 0.0), (-6.0, 0.0));
    for &(x, z) in &[(30.0, -10.0), (36.0, -18.0), (26.0, -20.0), (40.0, -4.0), (32.0, 2.0)] {
        let trunk = Convex3::Cylinder(Cylinder::new(TRUNK_HALF_HEIGHT, TRUNK_RADIUS));
        let crown = Convex3::Cone(Cone::new(CROWN_HALF_HEIGHT, CROWN_RADIUS));
        let tree = Compound::new(vec![
            (DPose3::from_translation(DVec3::new(0.0, TRUNK_HALF_HEIGHT, 0.0)), trunk),
            (DPose3::from_translation(DVec3::new(0.0, CROWN_CENTRE, 0.0)), crown),
        ]);
        let y = dw.terrain_height(x, z) - TREE_SUNK;
        dw.world
            .insert(Shape3::Compound(Arc::new(tree)), DPose3::from_translation(DVec3::new(x, y, z)))
            .expect("tree");
        dw.footprints.push(Footprint { kind: "tree", outline: vec![(x, z)] });
    }
    dw
}

/// The bridge from `a` to `b` (x, z), 3 m wide: a deck slab 0.3 m thick whose top meets
/// the ground at both ends, with single-triangle railings 1 m high along both sides.
fn bridge(dw: &mut DemoWorld, a: (f64, f64), b: (f64, f64)) {
    let (ya, yb) = (dw.terrain_height(a.0, a.1), dw.terrain_height(b.0, b.1));
    let along = DVec3::new(b.0 - a.0, 0.0, b.1 - a.1).normalize();
    let side = DVec3::new(-along.z, 0.0, along.x) * 1.5;
    let (pa, pb) = (DVec3::new(a.0, ya, a.1), DVec3::new(b.0, yb, b.1));
    let down = DVec3::new(0.0, -0.3, 0.0);
    // Top corners 0-3, bottom 4-7.
    let mut v = vec![pa - side, pa + side, pb + side, pb - side];
    for k in 0..4 {
        v.push(v[k] + down);
    }
    let mut idx: Vec<[u32; 3]> = vec![
        [0, 1, 2],
        [0, 2, 3], // top (normal up: counter-clockwise seen from above)
        [4, 6, 5],
        [4, 7, 6], // bottom
        [0, 4, 5],
        [0, 5, 1],
        [1, 5, 6],
        [1, 6, 2],
        [2, 6, 7],
        [2, 7, 3],
        [3, 7, 4],
        [3, 4, 0],
    ];
    // Railings: along each side, posts at the ends, one quad of two triangles, 1 m high.
    let up = DVec3::Y;
    for (s, e) in [(0usize, 3usize), (1, 2)] {
        let k = v.len() as u32;
        v.extend_from_slice(&[v[s], v[e], v[e] + up, v[s] + up]);
        idx.push([k, k + 1, k + 2]);
        idx.push([k, k + 2, k + 3]);
    }
    // The railings leave the ends open: the walker comes on and off there.
    let mesh = TriMesh::new(v.clone(), idx);
    dw.world.insert(Shape3::from(mesh), DPose3::IDENTITY).expect("bridge");
    dw.footprints.push(Footprint {
        kind: "bridge",
        outline: [0, 1, 2, 3].iter().map(|&k| (v[k].x, v[k].z)).collect(),
    });
}

/// A scripted walk: waypoints (x, z), and the step numbers at which it jumps.
#[derive(Clone, Debug)]
pub struct Script {
    /// Headed for in turn.
    pub waypoints: Vec<(f64, f64)>,
    /// Steps at which it jumps (when on the ground).
    pub jumps: Vec<usize>,
}

/// Walks `character` from `start` along the script: each step heads for the next waypoint
/// at walking pace, with gravity (and a jump at the scripted steps when grounded); a
/// waypoint is passed when within 1.5 m, or when the walker made no headway toward it for
/// two seconds (it is blocked: the script goes on).
#[must_use]
pub fn walk(
    dw: &DemoWorld,
    name: &'static str,
    character: Character<DVec3>,
    start: DVec3,
    script: &Script,
    settings: &MoverSettings<DVec3>,
) -> Run {
    let mut p = start;
    let mut vy = 0.0f64;
    let mut steps = Vec::new();
    let mut inputs = Vec::new();
    let mut seconds = 0.0;
    let mut grounded = false;
    let mut jumps = Vec::new();
    for &(wx, wz) in &script.waypoints {
        let (mut best, mut since) = (f64::INFINITY, 0usize);
        loop {
            let to = DVec3::new(wx - p.x, 0.0, wz - p.z);
            let dist = to.length();
            if dist < 1.5 || since > 120 || steps.len() > 20_000 {
                break;
            }
            if script.jumps.contains(&steps.len()) && grounded {
                vy = JUMP;
                jumps.push(steps.len());
            }
            vy -= GRAVITY * DT;
            let d = to / dist * (WALK * DT) + DVec3::Y * (vy * DT);
            inputs.push((p, d));
            let t = Instant::now();
            let m = move_and_slide(&dw.world, &character, p, d, settings, None).expect("valid scene");
            seconds += t.elapsed().as_secs_f64();
            grounded = m.grounded();
            if grounded && vy < 0.0 {
                vy = 0.0;
            }
            // A ceiling stops the rise.
            if vy > 0.0 && m.displacement.y < 0.5 * vy * DT {
                vy = 0.0;
            }
            p = m.position;
            steps.push(m);
            if dist < best - 0.01 {
                best = dist;
                since = 0;
            } else {
                since += 1;
            }
        }
    }
    Run { name, character, start, inputs, steps, jumps, seconds }
}

/// The mover settings of the demo.
#[must_use]
pub fn settings() -> MoverSettings<DVec3> {
    MoverSettings { step_height: 0.35, snap_to_ground: 0.3, ..MoverSettings::default() }
}

/// The ball's walk: from the top of the block (it walks off the edge), over the bridge,
/// past the turned house, with three jumps.
#[must_use]
pub fn ball_walk(dw: &DemoWorld) -> (DVec3, Script) {
    let block_top = dw.ground(-56.0, 0.0);
    let script = Script {
        waypoints: vec![
            (-44.0, 0.0),
            (-38.0, 0.0),
            (-4.0, 0.0),
            (14.0, -2.0),
            (24.0, 14.0),
            (40.0, 30.0),
            (10.0, 40.0),
        ],
        jumps: vec![900, 1300, 1500],
    };
    (DVec3::new(-57.0, block_top + 0.51, 0.0), script)
}

/// The ellipsoid's walk: among the trees, between two houses, with three jumps. `stand`
/// is the character's half height (the start is that far above the ground, plus 1 cm).
#[must_use]
pub fn ellipsoid_walk(dw: &DemoWorld, stand: f64) -> (DVec3, Script) {
    let script = Script {
        waypoints: vec![
            (34.0, -14.0),
            (28.0, -8.0),
            (30.0, -32.0),
            (10.0, -32.0),
            (-10.0, -30.0),
            (-20.0, -50.0),
        ],
        jumps: vec![200, 700, 1100],
    };
    let (x, z) = (44.0, -12.0);
    (DVec3::new(x, dw.ground(x, z) + stand + 0.01, z), script)
}

/// Runs both walkers.
#[must_use]
pub fn run(dw: &DemoWorld) -> Vec<Run> {
    let settings = settings();
    let ball = Character::Ball { radius: 0.5 };
    let (ball_start, ball_script) = ball_walk(dw);
    let ellipsoid = Character::Ellipsoid { radii: DVec3::new(0.4, 0.8, 0.6) };
    let (e_start, e_script) = ellipsoid_walk(dw, 0.8);
    vec![
        walk(dw, "ball", ball, ball_start, &ball_script, &settings),
        walk(dw, "ellipsoid", ellipsoid, e_start, &e_script, &settings),
    ]
}

/// The summary of a run: steps, contacts by feature, least clearance, worst penetration,
/// microseconds per step. Clearance is the distance from the character to the closest body
/// after each step (the world's own `closest` query).
#[must_use]
pub fn summary(dw: &DemoWorld, run: &Run, settings_up: DVec3) -> String {
    let mut by = [0usize; 3];
    for s in &run.steps {
        for c in &s.contacts {
            by[match c.feature {
                SweepFeature::Face => 0,
                SweepFeature::Edge => 1,
                SweepFeature::Vertex => 2,
            }] += 1;
        }
    }
    let shape = run.character.shape().expect("valid character");
    let mut least = f64::INFINITY;
    for s in &run.steps {
        let pose = run.character.pose(s.position, settings_up);
        if let Some(h) = dw.world.closest(&shape, &pose, 10.0) {
            least = least.min(h.value.distance);
        }
    }
    let grounded = run.steps.iter().filter(|s| s.grounded()).count();
    format!(
        "{:<9} {:>5} steps ({grounded} grounded), contacts: {} face, {} edge, {} vertex; least clearance {:.6} m, \
         worst penetration {:.2e} m; {:.1} µs per step",
        run.name,
        run.steps.len(),
        by[0],
        by[1],
        by[2],
        least,
        (-least).max(0.0),
        run.seconds * 1e6 / run.steps.len().max(1) as f64
    )
}
