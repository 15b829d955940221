//! Seeded random inputs: points on spheres and circles, rotations, placements, the
//! broad-phase rows' boxes.

use glam::{Quat, Vec2, Vec3};
use kollide::math::Aabb;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// The random generator used everywhere: ChaCha8, seeded explicitly.
pub type BenchRng = ChaCha8Rng;

/// A generator from a fixed seed.
#[must_use]
pub fn rng(seed: u64) -> BenchRng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A uniformly distributed unit vector (rejection sampling in the cube).
pub fn unit_vec3(rng: &mut BenchRng) -> Vec3 {
    loop {
        let v =
            Vec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
        let l2 = v.length_squared();
        if l2 > 1.0e-3 && l2 <= 1.0 {
            return v / l2.sqrt();
        }
    }
}

/// `n` points drawn uniformly on the unit sphere.
pub fn sphere_points(rng: &mut BenchRng, n: usize) -> Vec<Vec3> {
    (0..n).map(|_| unit_vec3(rng)).collect()
}

/// `n` points drawn uniformly on the unit circle.
pub fn circle_points(rng: &mut BenchRng, n: usize) -> Vec<Vec2> {
    (0..n)
        .map(|_| {
            let (s, c) = rng.random_range(-core::f32::consts::PI..core::f32::consts::PI).sin_cos();
            Vec2::new(c, s)
        })
        .collect()
}

/// A uniformly distributed rotation (Shoemake's method), normalized in `f32`.
pub fn rotation3(rng: &mut BenchRng) -> Quat {
    let (u1, u2, u3): (f32, f32, f32) = (rng.random(), rng.random(), rng.random());
    let tau = core::f32::consts::TAU;
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    Quat::from_xyzw(a * (tau * u2).sin(), a * (tau * u2).cos(), b * (tau * u3).sin(), b * (tau * u3).cos())
        .normalize()
}

/// A uniformly distributed 2D rotation as `(cos, sin)`.
pub fn rotation2(rng: &mut BenchRng) -> (f32, f32) {
    let (s, c) = rng.random_range(-core::f32::consts::PI..core::f32::consts::PI).sin_cos();
    (c, s)
}

/// A value drawn uniformly in `[lo, hi)`.
pub fn uniform(rng: &mut BenchRng, lo: f32, hi: f32) -> f32 {
    rng.random_range(lo..hi)
}

/// How far apart to put two shapes, relative to the sum of their extents along the line
/// between their centres: `u ∈ [lo, hi)`; `u < 1` is needed for overlap, and for balls it is
/// exactly the condition. The default makes about half of the pairs of every case overlap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// Smallest factor.
    pub lo: f32,
    /// Largest factor (exclusive).
    pub hi: f32,
}

impl Default for Spread {
    fn default() -> Self {
        Self { lo: 0.55, hi: 1.25 }
    }
}

impl Spread {
    /// `u ∈ [c - 0.35, c + 0.35)`: centred on `c`, the factor at which a case's pairs
    /// typically touch (1 for balls, less for boxes whose extents along a random line
    /// overestimate the reach), so that about half of the pairs overlap.
    #[must_use]
    pub fn around(c: f32) -> Self {
        Self { lo: c - 0.35, hi: c + 0.35 }
    }
}

/// Places B relative to A: random rotations, A's centre in `[-5, 5]³`, B's centre along a
/// random direction `n` at `(extent_a(n) + extent_b(-n)) × u` with `u` from `spread`.
///
/// `extent_a(d)` is `max p·d` over shape A in A's **local** frame (`d` is a unit vector in
/// that frame), so the placement depends only on the shapes' parameters, not on either
/// library.
pub fn place3(
    rng: &mut BenchRng,
    extent_a: impl Fn(Vec3) -> f32,
    extent_b: impl Fn(Vec3) -> f32,
    spread: Spread,
) -> [(Vec3, Quat); 2] {
    let rot_a = rotation3(rng);
    let rot_b = rotation3(rng);
    let pos_a = Vec3::new(uniform(rng, -5.0, 5.0), uniform(rng, -5.0, 5.0), uniform(rng, -5.0, 5.0));
    let n = unit_vec3(rng);
    let reach = extent_a(rot_a.inverse() * n) + extent_b(rot_b.inverse() * -n);
    let u = uniform(rng, spread.lo, spread.hi);
    [(pos_a, rot_a), (pos_a + n * (reach * u), rot_b)]
}

/// [`place3`] in 2D; rotations are `(cos, sin)`.
pub fn place2(
    rng: &mut BenchRng,
    extent_a: impl Fn(Vec2) -> f32,
    extent_b: impl Fn(Vec2) -> f32,
    spread: Spread,
) -> [(Vec2, (f32, f32)); 2] {
    let rot_a = rotation2(rng);
    let rot_b = rotation2(rng);
    let pos_a = Vec2::new(uniform(rng, -5.0, 5.0), uniform(rng, -5.0, 5.0));
    let (ns, nc) = rng.random_range(-core::f32::consts::PI..core::f32::consts::PI).sin_cos();
    let n = Vec2::new(nc, ns);
    let inv = |(c, s): (f32, f32), v: Vec2| Vec2::new(c * v.x + s * v.y, -s * v.x + c * v.y);
    let reach = extent_a(inv(rot_a, n)) + extent_b(inv(rot_b, -n));
    let u = uniform(rng, spread.lo, spread.hi);
    [(pos_a, rot_a), (pos_a + n * (reach * u), rot_b)]
}

/// The broad-phase rows' boxes: `n` boxes of half extents in [0.5, 1] uniform in a cube
/// sized so that a box meets about three others.
pub fn boxes(rng: &mut BenchRng, n: usize) -> Vec<Aabb<Vec3>> {
    // Expected overlaps per box ~ n (2 * 0.75 * 2)^3 / L^3 = 3.
    let side = (n as f32 * 27.0 / 3.0).cbrt();
    (0..n)
        .map(|_| {
            let c = Vec3::new(
                rng.random_range(0.0..side),
                rng.random_range(0.0..side),
                rng.random_range(0.0..side),
            );
            let h =
                Vec3::new(rng.random_range(0.5..1.0), rng.random_range(0.5..1.0), rng.random_range(0.5..1.0));
            Aabb::new(c - h, c + h)
        })
        .collect()
}

/// The broad-phase frame's other configuration of `a`: 10% of the boxes (their indices,
/// ascending) moved by up to 0.3 per axis, and all the boxes after the move.
pub fn moved_tenth(rng: &mut BenchRng, a: &[Aabb<Vec3>]) -> (Vec<u32>, Vec<Aabb<Vec3>>) {
    let moved: Vec<u32> = (0..a.len() as u32).filter(|_| rng.random_bool(0.1)).collect();
    let mut b = a.to_vec();
    for &i in &moved {
        let d =
            Vec3::new(rng.random_range(-0.3..0.3), rng.random_range(-0.3..0.3), rng.random_range(-0.3..0.3));
        b[i as usize] = Aabb::new(a[i as usize].min + d, a[i as usize].max + d);
    }
    (moved, b)
}

/// Cells per cube face side of the `build` row's mesh ([`surface`]): 12 x 76² = 69,312
/// triangles.
pub const BUNNY_CELLS: u32 = 76;

/// The radius along the unit direction `d`: three bumps on a unit sphere.
fn radius(d: Vec3) -> f32 {
    1.0 + 0.12 * (3.0 * d.x + 0.4).sin() * (2.0 * d.y - 0.3).cos()
        + 0.08 * (5.0 * d.y + 1.1).sin() * (4.0 * d.z).sin()
        + 0.05 * (7.0 * d.z - 0.7).cos() * (6.0 * d.x + 2.0).sin()
}

/// The bumpy sphere over a cube's face grids of `cells` a side (`12 cells²` triangles), vertices shared along the cube's edges (by
/// their integer grid coordinates), then both lists shuffled.
pub fn surface(rng: &mut BenchRng, cells: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let n = cells as i32;
    let mut ids: HashMap<[i32; 3], u32> = HashMap::new();
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    // Each face: the axis it is normal to, its side, and two axes with u x v outwards.
    let faces: [(usize, i32, usize, usize); 6] =
        [(0, 1, 1, 2), (0, -1, 2, 1), (1, 1, 2, 0), (1, -1, 0, 2), (2, 1, 0, 1), (2, -1, 1, 0)];
    for (axis, side, u, v) in faces {
        let mut at = |i: i32, j: i32| {
            let mut g = [0i32; 3];
            g[axis] = side * n;
            g[u] = 2 * i - n;
            g[v] = 2 * j - n;
            *ids.entry(g).or_insert_with(|| {
                let d = Vec3::new(g[0] as f32, g[1] as f32, g[2] as f32).normalize();
                vertices.push(d * radius(d));
                (vertices.len() - 1) as u32
            })
        };
        for j in 0..n {
            for i in 0..n {
                let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
                triangles.push([a, b, c]);
                triangles.push([a, c, d]);
            }
        }
    }
    let mut order: Vec<u32> = (0..vertices.len() as u32).collect();
    order.shuffle(rng);
    let mut shuffled = vec![Vec3::ZERO; vertices.len()];
    for (old, &new) in order.iter().enumerate() {
        shuffled[new as usize] = vertices[old];
    }
    for t in &mut triangles {
        *t = t.map(|i| order[i as usize]);
        t.rotate_left(rng.random_range(0..3));
    }
    triangles.shuffle(rng);
    (shuffled, triangles)
}

/// Samples a side of the terrain rows' grid.
pub const TERRAIN_SAMPLES: usize = 256;

/// The terrain rows' height samples (row-major, hills and ripples) and the grid's scale
/// (one unit between samples).
#[must_use]
pub fn terrain_samples() -> (Vec<f32>, Vec3) {
    let n = TERRAIN_SAMPLES;
    let height = |r: usize, c: usize| {
        let (x, z) = (c as f32 - 128.0, r as f32 - 128.0);
        (x * 0.05).sin() * 4.0 + (z * 0.07).cos() * 3.0 + ((x + z) * 0.3).sin() * 0.5
    };
    let samples = (0..n * n).map(|k| height(k / n, k % n)).collect();
    (samples, Vec3::new((n - 1) as f32, 1.0, (n - 1) as f32))
}

/// The terrain rows' mesh: the heightfield's points, two triangles a cell.
#[must_use]
pub fn terrain_mesh() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let n = TERRAIN_SAMPLES;
    let (samples, scale) = terrain_samples();
    let field = kollide::composite::HeightField::try_from_grid(n, n, samples, scale).expect("valid field");
    let vertices = (0..n * n).map(|k| field.point(k / n, k % n)).collect();
    let id = |r: usize, c: usize| (r * n + c) as u32;
    let mut indices = Vec::new();
    for r in 0..n - 1 {
        for c in 0..n - 1 {
            indices.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
            indices.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
        }
    }
    (vertices, indices)
}

/// The terrain rows' rays `(origin, direction)`: from 20 to 40 units above, half falling
/// nearly straight down, half aimed at a random ground point (unit directions).
pub fn terrain_rays(rng: &mut BenchRng, n: usize) -> Vec<(Vec3, Vec3)> {
    (0..n)
        .map(|i| {
            let o = Vec3::new(
                rng.random_range(-125.0..125.0),
                rng.random_range(20.0..40.0),
                rng.random_range(-125.0..125.0),
            );
            let d = if i % 2 == 0 {
                Vec3::new(rng.random_range(-0.5..0.5), -1.0, rng.random_range(-0.5..0.5))
            } else {
                let target = Vec3::new(rng.random_range(-125.0..125.0), 0.0, rng.random_range(-125.0..125.0));
                (target - o).normalize()
            };
            (o, d)
        })
        .collect()
}
