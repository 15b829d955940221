//! Shared helpers for the integration tests: random inputs, a test-only polytope shape,
//! approximate comparisons that print the difference. The truth lives in `oracle`.
#![allow(dead_code)]

use kollide::query::Space;
pub mod boundary;
pub mod cast_oracle;
pub mod cube;
pub mod mover_judge;
pub mod oracle;

use kollide::math::{Pose, Real, Rot2};
use kollide::shape::Support;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A convex polytope given only by its points, with a brute-force support function: a
/// stand-in for a user's own shape, independent of kollide's hull code.
#[derive(Clone, Debug)]
pub struct PointCloud<V>(pub Vec<V>);

impl<V: Space> Support<V> for PointCloud<V> {
    fn support(&self, dir: V) -> V {
        let mut best = self.0[0];
        for &p in &self.0[1..] {
            if p.dot(dir) > best.dot(dir) {
                best = p;
            }
        }
        best
    }
}

/// Hides a shape's closed-form primitive so the dispatcher must use GJK.
pub struct ViaGjk<S>(pub S);

impl<V: Space, S: Support<V>> Support<V> for ViaGjk<S> {
    fn support(&self, dir: V) -> V {
        self.0.support(dir)
    }
    fn radius(&self) -> V::Real {
        self.0.radius()
    }
}

pub fn vec_in<V: Space>(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> V {
    V::from_f64_array([rng.random_range(lo..hi), rng.random_range(lo..hi), rng.random_range(lo..hi)])
}

/// A uniformly random unit vector of dimension `V::DIM`.
pub fn unit<V: Space>(rng: &mut ChaCha8Rng) -> V {
    loop {
        let v: V = vec_in(rng, -1.0, 1.0);
        let l = v.length().to_f64();
        if l > 0.1 && l <= 1.0 {
            return v / V::Real::from_f64(l);
        }
    }
}

/// A random rotation for dimension `V::DIM` (from an angle in 2D, a unit quaternion in 3D).
pub fn rotation<V: Space>(rng: &mut ChaCha8Rng) -> V::Rotation
where
    V::Rotation: FromParts,
{
    let q = [
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0f64),
    ];
    V::Rotation::from_parts(q)
}

/// Builds a rotation from four random numbers in [-1, 1].
pub trait FromParts {
    fn from_parts(q: [f64; 4]) -> Self;
}
impl FromParts for Rot2<f32> {
    fn from_parts(q: [f64; 4]) -> Self {
        Rot2::from_angle((q[0] * std::f64::consts::PI) as f32)
    }
}
impl FromParts for Rot2<f64> {
    fn from_parts(q: [f64; 4]) -> Self {
        Rot2::from_angle(q[0] * std::f64::consts::PI)
    }
}
impl FromParts for glam::Quat {
    fn from_parts(q: [f64; 4]) -> Self {
        glam::DQuat::from_xyzw(q[0], q[1], q[2], q[3] + 0.01).normalize().as_quat()
    }
}
impl FromParts for glam::DQuat {
    fn from_parts(q: [f64; 4]) -> Self {
        glam::DQuat::from_xyzw(q[0], q[1], q[2], q[3] + 0.01).normalize()
    }
}

pub fn pose<V: Space>(rng: &mut ChaCha8Rng, spread: f64) -> Pose<V>
where
    V::Rotation: FromParts,
{
    Pose::new(vec_in(rng, -spread, spread), rotation::<V>(rng))
}

/// A point transformed by a pose, computed in f64 from the pose's own numbers.
pub fn to_world_f64<V: Space>(pose: &Pose<V>, p: V) -> [f64; 3]
where
    V::Rotation: RotF64<V>,
{
    pose.rotation.rotate_f64(p.to_f64_array(), pose.translation.to_f64_array())
}

/// Applies a pose in f64 (the oracle must not inherit f32 rounding from kollide's transform).
pub trait RotF64<V> {
    fn rotate_f64(&self, p: [f64; 3], t: [f64; 3]) -> [f64; 3];
}
macro_rules! rot2_f64 {
    ($r:ty, $v:ty) => {
        impl RotF64<$v> for Rot2<$r> {
            fn rotate_f64(&self, p: [f64; 3], t: [f64; 3]) -> [f64; 3] {
                let (c, s) = (self.cos as f64, self.sin as f64);
                [c * p[0] - s * p[1] + t[0], s * p[0] + c * p[1] + t[1], 0.0]
            }
        }
    };
}
rot2_f64!(f32, glam::Vec2);
rot2_f64!(f64, glam::DVec2);
impl RotF64<glam::Vec3> for glam::Quat {
    fn rotate_f64(&self, p: [f64; 3], t: [f64; 3]) -> [f64; 3] {
        let r = self.as_dquat() * glam::DVec3::from_array(p) + glam::DVec3::from_array(t);
        r.to_array()
    }
}
impl RotF64<glam::DVec3> for glam::DQuat {
    fn rotate_f64(&self, p: [f64; 3], t: [f64; 3]) -> [f64; 3] {
        (*self * glam::DVec3::from_array(p) + glam::DVec3::from_array(t)).to_array()
    }
}

/// Asserts `|a - b| <= tol`, printing both and the difference.
#[track_caller]
pub fn assert_close(a: f64, b: f64, tol: f64, what: &str) {
    assert!((a - b).abs() <= tol, "{what}: {a} vs {b}, difference {:e} > tolerance {tol:e}", (a - b).abs());
}

/// Asserts that a random sample covered both outcomes in healthy proportion.
#[track_caller]
pub fn assert_mixed(hits: usize, total: usize, what: &str) {
    let f = hits as f64 / total as f64;
    assert!(
        (0.25..=0.75).contains(&f),
        "{what}: overlap fraction {f:.2} outside [0.25, 0.75] — the sample does not test both outcomes"
    );
}

/// A terrain mesh of `n` x `n` grid points, one unit apart and centred on the origin (x and
/// z), at heights `h(x, z)`; each cell split into two triangles, counter-clockwise from above.
pub fn grid_terrain(n: usize, h: impl Fn(f64, f64) -> f64) -> kollide::composite::TriMesh<glam::DVec3> {
    let half = (n - 1) as f64 / 2.0;
    let mut v = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let (x, z) = (c as f64 - half, r as f64 - half);
            v.push(glam::DVec3::new(x, h(x, z), z));
        }
    }
    let id = |r: usize, c: usize| (r * n + c) as u32;
    let mut t = Vec::new();
    for r in 0..n - 1 {
        for c in 0..n - 1 {
            t.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
            t.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
        }
    }
    kollide::composite::TriMesh::new(v, t)
}
