//! Pools of shapes and random pairs of poses, with the poses in each library's types.
//!
//! Both libraries get bit-identical numbers: kollide's and parry's poses are built from the
//! same glam `Vec3`/`Quat` (2D: the same `cos`, `sin`). The `f64` poses for kollide in
//! `f64` and for the oracle are the `f32` ones converted exactly, the rotation renormalized.

use crate::gen::{self, BenchRng, Spread};
use crate::spec2::Spec2;
use crate::spec3::Spec3;
use glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};
use rand::Rng;

/// One 3D pair: which shape of each pool, and where each is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair3 {
    /// Index into the A pool.
    pub ia: usize,
    /// Index into the B pool.
    pub ib: usize,
    /// A's translation and rotation.
    pub a: (Vec3, Quat),
    /// B's translation and rotation.
    pub b: (Vec3, Quat),
}

fn dquat(q: Quat) -> DQuat {
    DQuat::from_xyzw(f64::from(q.x), f64::from(q.y), f64::from(q.z), f64::from(q.w)).normalize()
}

impl Pair3 {
    /// The poses for kollide in `f32`.
    #[must_use]
    pub fn kollide(&self) -> [kollide::math::Pose3; 2] {
        [self.a, self.b].map(|(t, q)| kollide::math::Pose3::new(t, q))
    }
    /// The poses for kollide in `f64`.
    #[must_use]
    pub fn kollide64(&self) -> [kollide::math::DPose3; 2] {
        self.f64_parts().map(|(t, q)| kollide::math::DPose3::new(t, q))
    }
    /// The poses for parry.
    #[must_use]
    pub fn parry(&self) -> [parry3d::math::Pose; 2] {
        [self.a, self.b].map(|(t, q)| parry3d::math::Pose::from_parts(t, q))
    }
    /// Translations and rotations in `f64`, rotations renormalized.
    #[must_use]
    pub fn f64_parts(&self) -> [(DVec3, DQuat); 2] {
        [self.a, self.b].map(|(t, q)| (t.as_dvec3(), dquat(q)))
    }
}

/// A pool of A shapes, a pool of B shapes, and pairs drawn from them (`P` is [`Pair3`] or
/// [`Pair2`]).
#[derive(Clone, Debug)]
pub struct Scene<A, B, P> {
    /// The A pool.
    pub shapes_a: Vec<A>,
    /// The B pool.
    pub shapes_b: Vec<B>,
    /// The pairs.
    pub pairs: Vec<P>,
}

/// 3D pools and pairs.
pub type Scene3<A, B> = Scene<A, B, Pair3>;
/// 2D pools and pairs.
pub type Scene2<A, B> = Scene<A, B, Pair2>;

impl<A, B, P> Scene<A, B, P> {
    /// `n_pairs` pairs with shapes drawn uniformly from the pools, each placed by `place`
    /// (given the two shapes and their indices).
    fn draw(
        rng: &mut BenchRng,
        n_pairs: usize,
        shapes_a: Vec<A>,
        shapes_b: Vec<B>,
        mut place: impl FnMut(&mut BenchRng, (usize, &A), (usize, &B)) -> P,
    ) -> Self {
        let pairs = (0..n_pairs)
            .map(|_| {
                let ia = rng.random_range(0..shapes_a.len());
                let ib = rng.random_range(0..shapes_b.len());
                place(rng, (ia, &shapes_a[ia]), (ib, &shapes_b[ib]))
            })
            .collect();
        Self { shapes_a, shapes_b, pairs }
    }
}

impl<A: Spec3, B: Spec3> Scene<A, B, Pair3> {
    /// `n_pairs` pairs placed by [`gen::place3`].
    pub fn new(
        rng: &mut BenchRng,
        n_pairs: usize,
        shapes_a: Vec<A>,
        shapes_b: Vec<B>,
        spread: Spread,
    ) -> Self {
        Self::draw(rng, n_pairs, shapes_a, shapes_b, |rng, (ia, sa), (ib, sb)| {
            let [a, b] = gen::place3(rng, |d| sa.extent(d), |d| sb.extent(d), spread);
            Pair3 { ia, ib, a, b }
        })
    }
}

/// One 2D pair; rotations are `(cos, sin)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair2 {
    /// Index into the A pool.
    pub ia: usize,
    /// Index into the B pool.
    pub ib: usize,
    /// A's translation and rotation.
    pub a: (Vec2, (f32, f32)),
    /// B's translation and rotation.
    pub b: (Vec2, (f32, f32)),
}

impl Pair2 {
    /// The poses for kollide in `f32`.
    #[must_use]
    pub fn kollide(&self) -> [kollide::math::Pose2; 2] {
        [self.a, self.b].map(|(t, (cos, sin))| kollide::math::Pose2::new(t, kollide::math::Rot2 { cos, sin }))
    }
    /// The poses for kollide in `f64`.
    #[must_use]
    pub fn kollide64(&self) -> [kollide::math::DPose2; 2] {
        self.f64_parts()
            .map(|(t, (cos, sin))| kollide::math::DPose2::new(t, kollide::math::Rot2 { cos, sin }))
    }
    /// The poses for parry.
    #[must_use]
    pub fn parry(&self) -> [parry2d::math::Pose; 2] {
        [self.a, self.b].map(|(t, (c, s))| {
            parry2d::math::Pose::from_parts(t, parry2d::math::Rotation::from_cos_sin_unchecked(c, s))
        })
    }
    /// Translations and rotations in `f64`, rotations renormalized.
    #[must_use]
    pub fn f64_parts(&self) -> [(DVec2, (f64, f64)); 2] {
        [self.a, self.b].map(|(t, (c, s))| {
            let (c, s) = (f64::from(c), f64::from(s));
            let n = c.hypot(s);
            (t.as_dvec2(), (c / n, s / n))
        })
    }
}

impl<A: Spec2, B: Spec2> Scene<A, B, Pair2> {
    /// `n_pairs` pairs placed by [`gen::place2`].
    pub fn new(
        rng: &mut BenchRng,
        n_pairs: usize,
        shapes_a: Vec<A>,
        shapes_b: Vec<B>,
        spread: Spread,
    ) -> Self {
        Self::draw(rng, n_pairs, shapes_a, shapes_b, |rng, (ia, sa), (ib, sb)| {
            let [a, b] = gen::place2(rng, |d| sa.extent(d), |d| sb.extent(d), spread);
            Pair2 { ia, ib, a, b }
        })
    }
}

/// How far B moves per step of a [`Drifting::drifted`] trajectory, in length units (the
/// shapes are about 1 to 2 across): a body creeping at 3 cm/s at 60 frames per second.
pub const DRIFT_STEP: f32 = 5.0e-4;
/// How far B turns per step, in radians.
pub const TURN_STEP: f32 = 5.0e-4;

/// Pairs whose B creeps along a straight line while turning about a fixed axis: the
/// `manifold-moving` rows, where both libraries keep their per-pair caches frame to frame.
pub trait Drifting: Sized {
    /// The pair after `k` steps, the line and axis drawn from `seed`.
    fn drifted(&self, k: usize, seed: u64) -> Self;
}

impl Drifting for Pair3 {
    fn drifted(&self, k: usize, seed: u64) -> Self {
        let mut rng = gen::rng(seed);
        let (dir, axis) = (gen::unit_vec3(&mut rng), gen::unit_vec3(&mut rng));
        let s = k as f32;
        let b = (
            self.b.0 + dir * (DRIFT_STEP * s),
            (Quat::from_axis_angle(axis, TURN_STEP * s) * self.b.1).normalize(),
        );
        Self { b, ..*self }
    }
}

impl Drifting for Pair2 {
    fn drifted(&self, k: usize, seed: u64) -> Self {
        let mut rng = gen::rng(seed);
        let angle: f32 = rng.random_range(0.0..core::f32::consts::TAU);
        let turn: f32 = if rng.random_bool(0.5) { TURN_STEP } else { -TURN_STEP };
        let s = k as f32;
        let (c0, s0) = self.b.1;
        let (st, ct) = (turn * s).sin_cos();
        let b = (
            self.b.0 + Vec2::new(angle.cos(), angle.sin()) * (DRIFT_STEP * s),
            (c0 * ct - s0 * st, s0 * ct + c0 * st),
        );
        Self { b, ..*self }
    }
}
