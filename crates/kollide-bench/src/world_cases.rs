//! The world frame row (query `world-frame`, cases `mixed10k`, `mixed100k`): a frame of a
//! world of many bodies, kollide's `World` (`set_poses`, then `contacts`: broad phase,
//! narrow phase with each pair's manifold kept, the contact pairs) against rapier3d's
//! `CollisionPipeline::step` with its `BroadPhaseBvh` and `NarrowPhase` (rapier in the
//! parry column), on the same `f32` bodies and motions.
//!
//! The bodies are a heap: boxes, balls, capsules and 16-vertex hulls, one per cell of a
//! cubic lattice of unit spacing, each reaching 0.47 to 0.53 from its centre, turned at
//! random and shifted by up to 0.02, so that neighbours rest against each other or nearly.
//! Each frame a tenth of them (the same tenth) moves by 0.03 along its own direction, forth
//! on one frame and back on the next, so every timed frame does the same work. Every body
//! is dynamic for kollide; rapier's colliders have no rigid body and are given every active
//! collision type, so that it computes the same pairs. Before timing, the pairs in contact
//! (a manifold point within the margin, 0.01) after the first frame and after a moved frame
//! are compared, and a pair in one set and not the other is judged by parry's distance
//! query: a disagreement when kollide is wrong, printed apart when rapier is.

use crate::report::Row;
use crate::timing;
use crate::world_heap::{heap, kollide_shape, pool, unit, Body, Spec, MARGIN, STEP};
use glam::{Quat, Vec3};
use kollide::math::Pose3;
use kollide::world::{Shape3, World};
use kollide_bench::gen;
use rapier3d::prelude::*;
use std::collections::BTreeSet;
use std::hint::black_box;

type PPose = rapier3d::math::Pose;

fn rapier_shape(spec: &Spec) -> SharedShape {
    match spec {
        Spec::Cuboid(he) => SharedShape::cuboid(he.x, he.y, he.z),
        Spec::Ball(r) => SharedShape::ball(*r),
        Spec::Capsule(h, r) => SharedShape::capsule_y(*h, *r),
        Spec::Hull(points) => SharedShape::convex_hull(points).expect("16 points on a sphere"),
    }
}

type Pairs = BTreeSet<(u32, u32)>;

struct Rapier {
    pipeline: CollisionPipeline,
    islands: IslandManager,
    broad: BroadPhaseBvh,
    narrow: NarrowPhase,
    bodies: RigidBodySet,
    colliders: ColliderSet,
    handles: Vec<ColliderHandle>,
}

impl Rapier {
    fn new(heap: &[Body], shapes: &[SharedShape]) -> Self {
        let mut colliders = ColliderSet::new();
        let handles = heap
            .iter()
            .map(|b| {
                let c = ColliderBuilder::new(shapes[b.shape].clone())
                    .position(PPose::from_parts(b.pose.0, b.pose.1))
                    .active_collision_types(ActiveCollisionTypes::all())
                    .build();
                colliders.insert(c)
            })
            .collect();
        Self {
            pipeline: CollisionPipeline::new(),
            islands: IslandManager::new(),
            broad: BroadPhaseBvh::new(),
            narrow: NarrowPhase::new(),
            bodies: RigidBodySet::new(),
            colliders,
            handles,
        }
    }

    fn frame(&mut self, moves: &[(usize, Vec3, Quat)]) {
        for &(i, p, q) in moves {
            if let Some(c) = self.colliders.get_mut(self.handles[i]) {
                c.set_position(PPose::from_parts(p, q));
            }
        }
        self.pipeline.step(
            MARGIN,
            &mut self.islands,
            &mut self.broad,
            &mut self.narrow,
            &mut self.bodies,
            &mut self.colliders,
            &(),
            &(),
        );
    }

    fn pairs(&self) -> Pairs {
        let index: std::collections::HashMap<ColliderHandle, u32> =
            self.handles.iter().enumerate().map(|(i, &h)| (h, i as u32)).collect();
        self.narrow
            .contact_pairs()
            .filter(|p| p.manifolds().iter().any(|m| m.points.iter().any(|c| c.dist <= MARGIN)))
            .map(|p| {
                let (a, b) = (index[&p.collider1], index[&p.collider2]);
                (a.min(b), a.max(b))
            })
            .collect()
    }
}

/// The world-frame row of one case.
pub fn run(seed: u64, n: usize, case: &str) -> Vec<Row> {
    let mut rng = gen::rng(seed);
    let specs = pool(&mut rng);
    let kshapes: Vec<Shape3<Vec3>> = specs.iter().map(kollide_shape).collect();
    let rshapes: Vec<SharedShape> = specs.iter().map(rapier_shape).collect();
    let heap = heap(&mut rng, n, kshapes.len());
    let movers: Vec<(usize, Vec3)> = (0..n).filter(|i| i % 10 == 3).map(|i| (i, unit(&mut rng))).collect();
    let at = |forth: bool| -> Vec<(usize, Vec3, Quat)> {
        movers
            .iter()
            .map(|&(i, d)| {
                let (p, q) = heap[i].pose;
                (i, if forth { p + d * STEP } else { p }, q)
            })
            .collect()
    };
    let (forth, back) = (at(true), at(false));

    let mut world: World<Vec3, Shape3<Vec3>> = World::new();
    let ids: Vec<_> = heap
        .iter()
        .map(|b| world.insert(kshapes[b.shape].clone(), Pose3::new(b.pose.0, b.pose.1)).expect("finite"))
        .collect();
    let kmoves = |m: &[(usize, Vec3, Quat)]| -> Vec<_> {
        m.iter().map(|&(i, p, q)| (ids[i], Pose3::new(p, q))).collect()
    };
    let (kforth, kback) = (kmoves(&forth), kmoves(&back));
    let kpairs = |world: &mut World<Vec3, Shape3<Vec3>>| -> Pairs {
        world.contacts(MARGIN).pairs.iter().map(|p| (p.a.0, p.b.0)).collect()
    };
    let mut rapier = Rapier::new(&heap, &rshapes);

    // The first frame (every body new), then a moved one: the pair sets compared.
    rapier.frame(&[]);
    let (k0, r0) = (kpairs(&mut world), rapier.pairs());
    world.set_poses(&kforth).expect("finite");
    rapier.frame(&forth);
    let (k1, r1) = (kpairs(&mut world), rapier.pairs());
    // A pair in one set and not the other is judged by parry's distance query on the
    // poses of that frame (the margin's boundary, within 1e-5, counts either way): a pair
    // kollide got wrong is a disagreement; one rapier's pipeline got wrong is counted apart.
    let (mut bad, mut peer_misses) = (0, 0);
    for (ks, rs, poses) in [(&k0, &r0, None), (&k1, &r1, Some(&forth))] {
        let pose_of = |i: u32| -> PPose {
            let moved = poses.and_then(|m: &Vec<(usize, Vec3, Quat)>| m.iter().find(|x| x.0 == i as usize));
            let (p, q) = moved.map_or(heap[i as usize].pose, |&(_, p, q)| (p, q));
            PPose::from_parts(p, q)
        };
        for &(a, b) in ks.symmetric_difference(rs) {
            let (sa, sb) =
                (rshapes[heap[a as usize].shape].as_ref(), rshapes[heap[b as usize].shape].as_ref());
            let d =
                parry3d::query::distance(&pose_of(a), sa, &pose_of(b), sb).map_or(f32::NAN, |d| d.distance);
            let in_contact = d <= MARGIN;
            if (d - MARGIN).abs() <= 1e-5 || in_contact == ks.contains(&(a, b)) {
                peer_misses += 1;
            } else {
                bad += 1;
            }
        }
    }
    if bad + peer_misses > 0 {
        eprintln!(
            "{case}/world-frame: kollide {} and {} pairs, rapier {} and {}; {bad} kollide got wrong, \
             {peer_misses} rapier got wrong (by parry's distance query)",
            k0.len(),
            k1.len(),
            r0.len(),
            r1.len()
        );
    }
    let (mut k_forth, mut r_forth) = (false, false);
    let times = timing::measure(
        1,
        &mut [
            &mut || {
                world.set_poses(if k_forth { &kforth } else { &kback }).expect("finite");
                black_box(world.contacts(MARGIN).pairs.len());
                k_forth = !k_forth;
            },
            &mut || {
                rapier.frame(if r_forth { &forth } else { &back });
                black_box(rapier.narrow.contact_pairs().count());
                r_forth = !r_forth;
            },
        ],
    );
    vec![Row {
        case: case.to_string(),
        query: "world-frame",
        overlap: k1.len() as f64 / n as f64,
        pairs: n,
        disagreements: bad,
        distance_detail: None,
        kollide_ns: times[0],
        parry_ns: times[1],
        target: 2.0,
    }]
}
