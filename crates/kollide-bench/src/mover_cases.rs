//! The mover rows: microseconds per step on the demo world (`kollide_demo`) against
//! rapier3d's `KinematicCharacterController` on the same world, steps and settings.
//!
//! The steps are those of the demo's scripted walks (gravity, jumps, waypoints), recorded
//! as (start position, desired displacement) pairs by kollide's own run; both controllers
//! then answer every pair from the same start (a replay: identical inputs step by step,
//! so neither drifts onto a different path). Rows: query `move`, cases `demo-ball` and
//! `demo-capsule` (rapier in the parry column) and `demo-ellipsoid` (no peer: 0).
//!
//! kollide computes in f64 (the demo world's precision), rapier3d in f32; rapier gets the
//! terrain as a triangle mesh of the heightfield's own triangles, the houses and the block
//! as cuboids, the bridge as its mesh, the trees as compounds of a cylinder and a cone.
//! Settings alike: skin/offset 0.001, max slope 0.8 rad (climb and slide), step height
//! 0.35, snap to ground 0.3, up +y.
//!
//! Both controllers' results are judged by one check, the same for both: the distance from
//! the character, placed where the controller left it, to the world (kollide's `closest`
//! in f64): a step ending more than 1e-4 inside is a penetration; a step that asked to move
//! across by more than 1 mm and moved less than 1% of that is counted as stopped (walls
//! stop both legitimately; the counts are printed side by side).

use crate::report::Row;
use crate::timing;
use glam::{DVec3, Quat, Vec3};
use kollide::mover::{move_and_slide, Character};
use kollide::shape::Convex3;
use kollide::world::Shape3;
use kollide_demo::{DemoWorld, Run};
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::prelude::*;
use std::hint::black_box;

type PPose = rapier3d::math::Pose;

fn v32(v: DVec3) -> Vec3 {
    v.as_vec3()
}

/// The demo world as rapier colliders, with the broad phase ready for queries.
struct RapierWorld {
    bodies: RigidBodySet,
    colliders: ColliderSet,
    broad: BroadPhaseBvh,
    narrow: NarrowPhase,
}

impl RapierWorld {
    fn new(dw: &DemoWorld) -> Self {
        let mut colliders = ColliderSet::new();
        for (_, shape, pose) in dw.world.bodies() {
            let q = pose.rotation;
            let p = PPose::from_parts(
                v32(pose.translation),
                Quat::from_xyzw(q.x as f32, q.y as f32, q.z as f32, q.w as f32),
            );
            let builder = match shape {
                Shape3::HeightField(h) => {
                    let (mut v, mut idx) = (Vec::new(), Vec::new());
                    for i in 0..h.triangle_count() as u32 {
                        let t = h.triangle(i);
                        let k = v.len() as u32;
                        v.extend([v32(t.a), v32(t.b), v32(t.c)]);
                        idx.push([k, k + 1, k + 2]);
                    }
                    ColliderBuilder::trimesh_with_flags(
                        v,
                        idx,
                        TriMeshFlags::MERGE_DUPLICATE_VERTICES | TriMeshFlags::FIX_INTERNAL_EDGES,
                    )
                    .expect("terrain mesh")
                }
                Shape3::TriMesh(m) => {
                    let v = m.vertices().iter().map(|&x| v32(x)).collect();
                    ColliderBuilder::trimesh(v, m.indices().to_vec()).expect("bridge mesh")
                }
                Shape3::Convex(Convex3::Cuboid(c)) => {
                    let he = v32(c.half_extents);
                    ColliderBuilder::cuboid(he.x, he.y, he.z)
                }
                Shape3::Compound(c) => {
                    let parts = c
                        .parts()
                        .iter()
                        .map(|(pp, s)| {
                            let shared = match s {
                                Convex3::Cylinder(y) => {
                                    SharedShape::cylinder(y.half_height as f32, y.radius as f32)
                                }
                                Convex3::Cone(y) => SharedShape::cone(y.half_height as f32, y.radius as f32),
                                other => panic!("the demo's trees are cylinders and cones, not {other:?}"),
                            };
                            (PPose::from_translation(v32(pp.translation)), shared)
                        })
                        .collect();
                    ColliderBuilder::compound(parts)
                }
                other => panic!("the demo world has no {other:?}"),
            };
            colliders.insert(builder.position(p).build());
        }
        let mut w = Self {
            bodies: RigidBodySet::new(),
            colliders,
            broad: BroadPhaseBvh::new(),
            narrow: NarrowPhase::new(),
        };
        // One physics step fills the broad phase (every collider is static).
        let mut pipeline = PhysicsPipeline::new();
        let mut islands = IslandManager::new();
        pipeline.step(
            Vector::ZERO,
            &IntegrationParameters::default(),
            &mut islands,
            &mut w.broad,
            &mut w.narrow,
            &mut w.bodies,
            &mut w.colliders,
            &mut ImpulseJointSet::new(),
            &mut MultibodyJointSet::new(),
            &mut SoftBodySet::new(),
            &mut CCDSolver::new(),
            &(),
            &(),
        );
        w
    }
}

fn controller() -> KinematicCharacterController {
    KinematicCharacterController {
        up: Vector::Y,
        offset: CharacterLength::Absolute(0.001),
        slide: true,
        autostep: Some(CharacterAutostep {
            max_height: CharacterLength::Absolute(0.35),
            min_width: CharacterLength::Absolute(0.1),
            include_dynamic_bodies: false,
        }),
        max_slope_climb_angle: 0.8,
        min_slope_slide_angle: 0.8,
        snap_to_ground: Some(CharacterLength::Absolute(0.3)),
        ..KinematicCharacterController::default()
    }
}

/// Penetrations and stops of a controller's results, by the one check described above.
fn judge(dw: &DemoWorld, c: &Character<DVec3>, inputs: &[(DVec3, DVec3)], ends: &[DVec3]) -> (usize, usize) {
    let shape = c.shape().expect("valid character");
    let (mut penetrated, mut stopped) = (0, 0);
    for (&(p, d), &q) in inputs.iter().zip(ends) {
        let pose = c.pose(q, DVec3::Y);
        if dw.world.closest(&shape, &pose, 1.0).is_some_and(|h| h.value.distance < -1e-4) {
            penetrated += 1;
        }
        let asked = d.with_y(0.0).length();
        if asked > 1e-3 && (q - p).with_y(0.0).length() < 0.01 * asked {
            stopped += 1;
        }
    }
    (penetrated, stopped)
}

fn row(case: &str, n: usize, grounded: f64, k: f64, p: f64, target: f64) -> Row {
    Row {
        case: case.to_string(),
        query: "move",
        overlap: grounded,
        pairs: n,
        disagreements: 0,
        distance_detail: None,
        kollide_ns: k,
        parry_ns: p,
        target,
    }
}

/// The three mover rows.
pub fn run() -> Vec<Row> {
    let dw = kollide_demo::build();
    let settings = kollide_demo::settings();
    let (ball_start, ball_script) = kollide_demo::ball_walk(&dw);
    let ball = Character::Ball { radius: 0.5 };
    let capsule = Character::Capsule { half_height: 0.4, radius: 0.35 };
    let ellipsoid = Character::Ellipsoid { radii: DVec3::new(0.4, 0.8, 0.6) };
    let (e_start, e_script) = kollide_demo::ellipsoid_walk(&dw, 0.8);
    let runs: Vec<Run> = vec![
        kollide_demo::walk(&dw, "ball", ball, ball_start, &ball_script, &settings),
        kollide_demo::walk(&dw, "capsule", capsule, ball_start + DVec3::Y * 0.25, &ball_script, &settings),
        kollide_demo::walk(&dw, "ellipsoid", ellipsoid, e_start, &e_script, &settings),
    ];
    let rapier = RapierWorld::new(&dw);
    let qp = rapier.broad.as_query_pipeline(
        rapier.narrow.query_dispatcher(),
        &rapier.bodies,
        &rapier.colliders,
        QueryFilter::default(),
    );
    let ctl = controller();
    let mut rows = Vec::new();
    for run in &runs {
        let n = run.inputs.len();
        let grounded = run.steps.iter().filter(|s| s.grounded()).count() as f64 / n as f64;
        let kollide_step =
            |&(p, d): &(DVec3, DVec3)| move_and_slide(&dw.world, &run.character, p, d, &settings, None);
        let rapier_shape: Option<SharedShape> = match run.character {
            Character::Ball { radius } => Some(SharedShape::ball(radius as f32)),
            Character::Capsule { half_height, radius } => {
                Some(SharedShape::capsule_y(half_height as f32, radius as f32))
            }
            Character::Ellipsoid { .. } => None,
        };
        let rapier_step = |shape: &SharedShape, &(p, d): &(DVec3, DVec3)| {
            let pos = PPose::from_translation(v32(p));
            let m = ctl.move_shape(1.0 / 60.0, &qp, shape.as_ref(), &pos, v32(d), |_| {});
            p + m.translation.as_dvec3()
        };
        let k_ends: Vec<DVec3> =
            run.inputs.iter().map(|i| kollide_step(i).expect("valid step").position).collect();
        let (kp, ks) = judge(&dw, &run.character, &run.inputs, &k_ends);
        let Some(shape) = rapier_shape else {
            let t = timing::measure(
                n,
                &mut [&mut || {
                    for i in &run.inputs {
                        black_box(kollide_step(black_box(i)).ok());
                    }
                }],
            );
            eprintln!(
                "{:>16}: kollide {kp} penetrating, {ks} stopped of {n} steps (no peer)",
                format!("demo-{}", run.name)
            );
            rows.push(row(&format!("demo-{}", run.name), n, grounded, t[0], 0.0, 0.0));
            continue;
        };
        let r_ends: Vec<DVec3> = run.inputs.iter().map(|i| rapier_step(&shape, i)).collect();
        let (rp, rs) = judge(&dw, &run.character, &run.inputs, &r_ends);
        let t = timing::measure(
            n,
            &mut [
                &mut || {
                    for i in &run.inputs {
                        black_box(kollide_step(black_box(i)).ok());
                    }
                },
                &mut || {
                    for i in &run.inputs {
                        black_box(rapier_step(&shape, black_box(i)));
                    }
                },
            ],
        );
        eprintln!(
            "{:>16}: {n} steps; penetrating (deeper than 1e-4): kollide {kp}, rapier {rp}; stopped: kollide {ks}, rapier {rs}",
            format!("demo-{}", run.name)
        );
        rows.push(row(&format!("demo-{}", run.name), n, grounded, t[0], t[1], 2.0));
    }
    rows
}
