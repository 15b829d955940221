//! The heap of bodies of the world rows (`world-frame`, and the world frame of
//! `kollide-bench scaling`): boxes, balls, capsules and 16-vertex hulls, one per cell of a
//! cubic lattice of unit spacing, each reaching 0.47 to 0.53 from its centre, turned at
//! random and shifted by up to 0.02, so that neighbours rest against each other or nearly.

use glam::{Quat, Vec3};
use kollide::shape::{Ball, Capsule, Convex3, ConvexHull, Cuboid};
use kollide::world::Shape3;
use kollide_bench::gen::BenchRng;
use rand::Rng;
use std::sync::Arc;

/// Contact margin (rapier's prediction distance).
pub(crate) const MARGIN: f32 = 0.01;
/// How far a moving body goes each frame.
pub(crate) const STEP: f32 = 0.03;

/// A body of the heap: which shape of the pools, and its pose.
pub(crate) struct Body {
    pub(crate) shape: usize,
    pub(crate) pose: (Vec3, Quat),
}

pub(crate) fn unit(rng: &mut BenchRng) -> Vec3 {
    loop {
        let v =
            Vec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
        if v.length_squared() > 0.01 && v.length_squared() <= 1.0 {
            return v.normalize();
        }
    }
}

/// A shape of the heap's pool, as both libraries build it.
pub(crate) enum Spec {
    Cuboid(Vec3),
    Ball(f32),
    Capsule(f32, f32),
    Hull(Vec<Vec3>),
}

/// The pool: 16 shapes of each kind, each reaching 0.47 to 0.53 from its centre.
pub(crate) fn pool(rng: &mut BenchRng) -> Vec<Spec> {
    let mut out = Vec::new();
    let reach = 0.47f32;
    for _ in 0..16 {
        let he =
            Vec3::new(rng.random_range(0.3..0.4), rng.random_range(0.3..0.4), rng.random_range(0.3..0.4));
        out.push(Spec::Cuboid(he * ((reach + rng.random_range(0.0..0.06)) / he.length())));
        out.push(Spec::Ball(reach + rng.random_range(0.0..0.06)));
        out.push(Spec::Capsule(0.22, reach - 0.22 + rng.random_range(0.0..0.06)));
        out.push(Spec::Hull((0..16).map(|_| unit(rng) * (reach + rng.random_range(0.0..0.06))).collect()));
    }
    out
}

pub(crate) fn kollide_shape(spec: &Spec) -> Shape3<Vec3> {
    match spec {
        Spec::Cuboid(he) => Shape3::from(Cuboid::new(*he)),
        Spec::Ball(r) => Shape3::from(Ball::new(*r)),
        Spec::Capsule(h, r) => Shape3::from(Capsule::new(*h, *r)),
        Spec::Hull(points) => Shape3::Convex(Convex3::ConvexHull(Arc::new(
            ConvexHull::try_from_points(points).expect("16 points on a sphere"),
        ))),
    }
}

pub(crate) fn heap(rng: &mut BenchRng, n: usize, kinds: usize) -> Vec<Body> {
    let side = (n as f64).cbrt().ceil() as usize;
    (0..n)
        .map(|i| {
            let cell = Vec3::new((i % side) as f32, ((i / side) % side) as f32, (i / (side * side)) as f32);
            let shift = unit(rng) * rng.random_range(0.0..0.02);
            let turn = Quat::from_axis_angle(unit(rng), rng.random_range(0.0..std::f32::consts::TAU));
            Body { shape: rng.random_range(0..kinds), pose: (cell + shift, turn) }
        })
        .collect()
}
