//! Shapes placed exactly at the boundary by construction, and the f64 truth that judges
//! what kollide says of them: pairs touching at a chosen feature (a vertex, an edge or a face
//! of each, or a curved side), and paths tangent to the Minkowski difference.
//!
//! Construction: for a direction `n`, A's support point along `n` and B's along `-n` are
//! made to coincide (after the radii), so the shapes touch with `n` in their normal cone:
//! a random `n` meets vertices (a whole cone of normals), a face normal a face. The truth is
//! brute force in f64 on the f64 (or f32-rounded) numbers of the shapes: the signed
//! distance of polytope cores by separating axes and feature pairs, less the radii; of a
//! ball and a curved solid by the point's distance.
#![allow(dead_code)]

use crate::common::oracle::{
    boundary_triangles, penetration_2d, penetration_3d, point_cone, point_cylinder, point_ellipsoid,
    polygon_distance_2d, polytope_distance_3d,
};
use glam::{DQuat, DVec2, DVec3};
use kollide::math::{Pose, Real, Vector2, Vector3};
use kollide::query::Space;
use kollide::shape::{
    Ball, Capsule, Cone, Convex2, Convex3, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Ellipsoid, Segment,
    Support, Triangle,
};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A convex solid in f64 (2D ones have z = 0): a core and a radius.
#[derive(Clone, Debug)]
pub enum Solid {
    /// A box of these half extents.
    Box(DVec3),
    /// The hull of these points (3D) or a convex polygon (2D).
    Hull(Vec<DVec3>),
    /// A triangle (flat in 3D, filled in 2D).
    Triangle([DVec3; 3]),
    /// A segment grown by a radius (0: a segment; a capsule otherwise).
    Segment(DVec3, DVec3, f64),
    /// A ball.
    Ball(f64),
    /// A cylinder about y.
    Cylinder { half_height: f64, radius: f64 },
    /// A cone about y, apex up.
    Cone { half_height: f64, radius: f64 },
    /// An ellipsoid.
    Ellipsoid(DVec3),
}

/// Which solids a generator draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Boxes, hulls, triangles, segments: sharp polytopes.
    Sharp,
    /// Balls and capsules.
    Round,
    /// Cylinders, cones, ellipsoids.
    Curved,
}

fn v3(rng: &mut ChaCha8Rng, dim: usize) -> DVec3 {
    let z = if dim == 3 { rng.random_range(-1.0..1.0) } else { 0.0 };
    DVec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), z)
}

impl Solid {
    /// A random solid of the family, of size about 1.
    pub fn random(rng: &mut ChaCha8Rng, family: Family, dim: usize) -> Self {
        let len = |rng: &mut ChaCha8Rng| rng.random_range(0.2..1.0);
        match family {
            Family::Sharp => match rng.random_range(0..4) {
                0 => Self::Box(DVec3::new(len(rng), len(rng), if dim == 3 { len(rng) } else { 0.0 })),
                1 => loop {
                    let n = rng.random_range(dim + 1..dim * 3 + 2);
                    let pts: Vec<DVec3> = (0..n).map(|_| v3(rng, dim)).collect();
                    let s = Self::Hull(pts);
                    if s.solid_enough(dim) {
                        return s;
                    }
                },
                2 => loop {
                    let s = Self::Triangle([v3(rng, dim), v3(rng, dim), v3(rng, dim)]);
                    if s.solid_enough(dim) {
                        return s;
                    }
                },
                _ => Self::Segment(v3(rng, dim), v3(rng, dim), 0.0),
            },
            Family::Round => {
                if rng.random_bool(0.5) {
                    Self::Ball(len(rng))
                } else {
                    let h = len(rng);
                    Self::Segment(DVec3::new(0.0, -h, 0.0), DVec3::new(0.0, h, 0.0), len(rng) * 0.5)
                }
            }
            Family::Curved => match (dim, rng.random_range(0..3)) {
                (2, _) => Self::Ellipsoid(DVec3::new(len(rng), len(rng), 0.0)),
                (_, 0) => Self::Cylinder { half_height: len(rng), radius: len(rng) },
                (_, 1) => Self::Cone { half_height: len(rng), radius: len(rng) },
                _ => Self::Ellipsoid(DVec3::new(len(rng), len(rng), len(rng))),
            },
        }
    }

    /// Not a sliver: area (volume) well away from zero, so the shapes kollide builds from
    /// the points are the ones the oracle sees.
    fn solid_enough(&self, dim: usize) -> bool {
        let Some((v, _)) = self.core() else { return true };
        if dim == 2 {
            let area = |a: DVec3, b: DVec3, c: DVec3| (b - a).cross(c - a).z.abs();
            let mut best = 0.0f64;
            for i in 0..v.len() {
                for j in i + 1..v.len() {
                    for k in j + 1..v.len() {
                        best = best.max(area(v[i], v[j], v[k]));
                    }
                }
            }
            best > 0.1
        } else if let Self::Triangle([a, b, c]) = self {
            (*b - *a).cross(*c - *a).length() > 0.1
        } else {
            let tris = boundary_triangles(&v);
            let c = v.iter().copied().sum::<DVec3>() / v.len() as f64;
            let vol: f64 =
                tris.iter().map(|t| ((v[t[0]] - c).dot((v[t[1]] - c).cross(v[t[2]] - c))).abs()).sum();
            vol > 0.05
        }
    }

    /// The same solid with every number rounded to f32 (what an f32 query sees).
    pub fn rounded_f32(&self) -> Self {
        let r = |x: f64| x as f32 as f64;
        let rv = |p: DVec3| p.as_vec3().as_dvec3();
        match self {
            Self::Box(h) => Self::Box(rv(*h)),
            Self::Hull(p) => Self::Hull(p.iter().map(|&q| rv(q)).collect()),
            Self::Triangle(t) => Self::Triangle(t.map(rv)),
            Self::Segment(a, b, rad) => Self::Segment(rv(*a), rv(*b), r(*rad)),
            Self::Ball(x) => Self::Ball(r(*x)),
            Self::Cylinder { half_height, radius } => {
                Self::Cylinder { half_height: r(*half_height), radius: r(*radius) }
            }
            Self::Cone { half_height, radius } => {
                Self::Cone { half_height: r(*half_height), radius: r(*radius) }
            }
            Self::Ellipsoid(x) => Self::Ellipsoid(rv(*x)),
        }
    }

    /// The core's points (local frame) and the radius, for solids whose core is a polytope
    /// (a point, a segment, a triangle, a box, a hull); `None` for curved ones.
    pub fn core(&self) -> Option<(Vec<DVec3>, f64)> {
        match self {
            Self::Box(h) => {
                let n = if h.z == 0.0 { 4 } else { 8 };
                Some((
                    (0..n)
                        .map(|m| {
                            DVec3::new(
                                if m & 1 == 1 { h.x } else { -h.x },
                                if m & 2 == 2 { h.y } else { -h.y },
                                if m & 4 == 4 { h.z } else { -h.z },
                            )
                        })
                        .collect(),
                    0.0,
                ))
            }
            Self::Hull(p) => Some((p.clone(), 0.0)),
            Self::Triangle(t) => Some((t.to_vec(), 0.0)),
            Self::Segment(a, b, r) => Some((vec![*a, *b], *r)),
            Self::Ball(r) => Some((vec![DVec3::ZERO], *r)),
            _ => None,
        }
    }

    /// The largest distance of the core from the local origin (the `L` of the casts'
    /// tolerance) and the radius (`R`).
    pub fn sizes(&self) -> (f64, f64) {
        match self {
            Self::Cylinder { half_height, radius } | Self::Cone { half_height, radius } => {
                ((half_height * half_height + radius * radius).sqrt(), 0.0)
            }
            Self::Ellipsoid(r) => (r.max_element(), 0.0),
            _ => {
                let (v, r) = self.core().unwrap();
                (v.iter().map(|p| p.length()).fold(0.0, f64::max), r)
            }
        }
    }

    /// The distance from a local point to the solid (0 inside), for the curved solids and
    /// balls; `None` for the others.
    pub fn point_distance(&self, p: DVec3, dim: usize) -> Option<f64> {
        match self {
            Self::Cylinder { half_height, radius } => Some(point_cylinder(p, *half_height, *radius)),
            Self::Cone { half_height, radius } => Some(point_cone(p, *half_height, *radius)),
            Self::Ellipsoid(r) => {
                if dim == 2 {
                    let q = DVec3::new(p.x, p.y, 0.0);
                    Some(point_ellipsoid(q, DVec3::new(r.x, r.y, 1.0)))
                } else {
                    Some(point_ellipsoid(p, *r))
                }
            }
            Self::Ball(r) => Some((p.length() - r).max(0.0)),
            _ => None,
        }
    }

    /// kollide's 3D shape.
    pub fn convex3<V: Vector3 + Space>(&self) -> Convex3<V> {
        let v = |p: DVec3| V::from_f64_array(p.to_array());
        let r = V::Real::from_f64;
        match self {
            Self::Box(h) => Convex3::Cuboid(Cuboid::new(v(*h))),
            Self::Hull(p) => Convex3::ConvexHull(Arc::new(
                ConvexHull::try_from_points(&p.iter().map(|&q| v(q)).collect::<Vec<_>>()).unwrap(),
            )),
            Self::Triangle(t) => Convex3::Triangle(Triangle::new(v(t[0]), v(t[1]), v(t[2]))),
            Self::Segment(a, b, rad) => {
                if *rad > 0.0 && a.x == 0.0 && b.x == 0.0 && a.z == 0.0 && b.z == 0.0 && a.y == -b.y {
                    Convex3::Capsule(Capsule::new(r(b.y), r(*rad)))
                } else {
                    Convex3::Segment(Segment::new(v(*a), v(*b)))
                }
            }
            Self::Ball(x) => Convex3::Ball(Ball::new(r(*x))),
            Self::Cylinder { half_height, radius } => {
                Convex3::Cylinder(Cylinder::new(r(*half_height), r(*radius)))
            }
            Self::Cone { half_height, radius } => Convex3::Cone(Cone::new(r(*half_height), r(*radius))),
            Self::Ellipsoid(x) => Convex3::Ellipsoid(Ellipsoid::new(v(*x))),
        }
    }

    /// kollide's 2D shape.
    pub fn convex2<V: Vector2 + Space>(&self) -> Convex2<V> {
        let v = |p: DVec3| V::from_f64_array(p.to_array());
        let r = V::Real::from_f64;
        match self {
            Self::Box(h) => Convex2::Cuboid(Cuboid::new(v(*h))),
            Self::Hull(p) => Convex2::ConvexPolygon(Arc::new(
                ConvexPolygon::try_from_points(&p.iter().map(|&q| v(q)).collect::<Vec<_>>()).unwrap(),
            )),
            Self::Triangle(t) => Convex2::Triangle(Triangle::new(v(t[0]), v(t[1]), v(t[2]))),
            Self::Segment(a, b, rad) => {
                if *rad > 0.0 && a.x == 0.0 && b.x == 0.0 && a.y == -b.y {
                    Convex2::Capsule(Capsule::new(r(b.y), r(*rad)))
                } else {
                    Convex2::Segment(Segment::new(v(*a), v(*b)))
                }
            }
            Self::Ball(x) => Convex2::Ball(Ball::new(r(*x))),
            Self::Ellipsoid(x) => Convex2::Ellipsoid(Ellipsoid::new(v(*x))),
            Self::Cylinder { .. } | Self::Cone { .. } => unreachable!("3D only"),
        }
    }

    /// The support point of the core along a local direction, in f64 (the construction's:
    /// kollide's own support, on the f64 shape).
    pub fn support(&self, n: DVec3, dim: usize) -> DVec3 {
        if dim == 3 {
            self.convex3::<DVec3>().support(n)
        } else {
            self.convex2::<DVec2>().support(n.truncate()).extend(0.0)
        }
    }

    /// The outward unit normals of the core's faces (local frame), for polytope cores of
    /// full dimension.
    pub fn face_normals(&self, dim: usize) -> Vec<DVec3> {
        let Some((v, _)) = self.core() else { return vec![] };
        if v.len() <= dim {
            return vec![];
        }
        let c = v.iter().copied().sum::<DVec3>() / v.len() as f64;
        if dim == 2 {
            let mut out = vec![];
            for i in 0..v.len() {
                for j in i + 1..v.len() {
                    let e = v[j] - v[i];
                    let mut n = DVec3::new(e.y, -e.x, 0.0).normalize();
                    if n.dot(c - v[i]) > 0.0 {
                        n = -n;
                    }
                    let top = v.iter().map(|p| (*p - v[i]).dot(n)).fold(f64::MIN, f64::max);
                    if top <= 1e-12 {
                        out.push(n);
                    }
                }
            }
            out
        } else if let Self::Triangle([a, b, c]) = self {
            let n = (*b - *a).cross(*c - *a).normalize();
            vec![n, -n]
        } else {
            boundary_triangles(&v)
                .into_iter()
                .map(|[i, j, k]| {
                    let n = (v[j] - v[i]).cross(v[k] - v[i]).normalize();
                    if n.dot(c - v[i]) > 0.0 {
                        -n
                    } else {
                        n
                    }
                })
                .collect()
        }
    }
}

/// A solid placed in the world by a rotation and a translation (f64).
#[derive(Clone, Debug)]
pub struct Placed {
    pub solid: Solid,
    pub rotation: DQuat,
    pub translation: DVec3,
}

impl Placed {
    /// A local point in the world.
    pub fn world(&self, p: DVec3) -> DVec3 {
        self.rotation * p + self.translation
    }

    /// A world direction in the local frame.
    pub fn local_dir(&self, d: DVec3) -> DVec3 {
        self.rotation.inverse() * d
    }

    /// The same, moved by `d`.
    pub fn moved(&self, d: DVec3) -> Self {
        Self { translation: self.translation + d, ..self.clone() }
    }

    /// Every number rounded to f32 (rotation included, renormalised as kollide does).
    pub fn rounded_f32(&self) -> Self {
        Self {
            solid: self.solid.rounded_f32(),
            rotation: self.rotation.as_quat().normalize().as_dquat(),
            translation: self.translation.as_vec3().as_dvec3(),
        }
    }

    /// kollide's pose.
    pub fn pose<V: Space>(&self, dim: usize) -> Pose<V>
    where
        V::Rotation: FromDQuat,
    {
        Pose::new(V::from_f64_array(self.translation.to_array()), V::Rotation::from_dquat(self.rotation, dim))
    }

    /// The core's points in the world and the radius.
    pub fn world_core(&self) -> Option<(Vec<DVec3>, f64)> {
        self.solid.core().map(|(v, r)| (v.iter().map(|&p| self.world(p)).collect(), r))
    }
}

/// kollide's rotations from an f64 quaternion (2D: the rotation about z).
pub trait FromDQuat {
    fn from_dquat(q: DQuat, dim: usize) -> Self;
}
impl FromDQuat for glam::DQuat {
    fn from_dquat(q: DQuat, _: usize) -> Self {
        q
    }
}
impl FromDQuat for glam::Quat {
    fn from_dquat(q: DQuat, _: usize) -> Self {
        q.as_quat()
    }
}
impl FromDQuat for kollide::math::Rot2<f64> {
    fn from_dquat(q: DQuat, _: usize) -> Self {
        let x = q * DVec3::X;
        kollide::math::Rot2::from_angle(x.y.atan2(x.x))
    }
}
impl FromDQuat for kollide::math::Rot2<f32> {
    fn from_dquat(q: DQuat, _: usize) -> Self {
        let x = q * DVec3::X;
        kollide::math::Rot2::from_angle(x.y.atan2(x.x) as f32)
    }
}

/// A random rotation (about z in 2D, where the angle is also what kollide's `Rot2` keeps).
pub fn random_rotation(rng: &mut ChaCha8Rng, dim: usize) -> DQuat {
    if dim == 2 {
        // Through f32's angle so the f32 and f64 rotations agree to rounding.
        let a = rng.random_range(-3.0..3.0f64);
        DQuat::from_rotation_z(a)
    } else {
        loop {
            let q = DQuat::from_xyzw(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            if q.length() > 0.2 {
                return q.normalize();
            }
        }
    }
}

/// A random unit vector of the dimension.
pub fn random_unit(rng: &mut ChaCha8Rng, dim: usize) -> DVec3 {
    loop {
        let v = v3(rng, dim);
        if v.length() > 0.2 && v.length() <= 1.0 {
            return v.normalize();
        }
    }
}

/// Signed distance between two placed solids in f64 (negative: minus the penetration
/// depth), or `None` for a pair the oracle cannot judge (two curved solids, or a curved one
/// against anything but a ball). A ball whose centre is inside a curved solid gets minus its
/// radius (it is at least that deep).
pub fn signed_distance(a: &Placed, b: &Placed, dim: usize) -> Option<f64> {
    if let (Some((va, ra)), Some((vb, rb))) = (a.world_core(), b.world_core()) {
        let cores = if dim == 3 {
            let d = polytope_distance_3d(&va, &vb);
            if d > 0.0 {
                d
            } else {
                -penetration_3d(&va, &vb).0
            }
        } else {
            let (a2, b2): (Vec<DVec2>, Vec<DVec2>) =
                (va.iter().map(|p| p.truncate()).collect(), vb.iter().map(|p| p.truncate()).collect());
            let d = polygon_distance_2d(&a2, &b2);
            if d > 0.0 {
                d
            } else {
                -penetration_2d(&a2, &b2).0
            }
        };
        return Some(cores - ra - rb);
    }
    // A ball against a curved solid: the centre's distance (only while it is outside).
    let (ball, other, r) = match (&a.solid, &b.solid) {
        (Solid::Ball(r), _) => (a, b, *r),
        (_, Solid::Ball(r)) => (b, a, *r),
        _ => return None,
    };
    let centre = other.local_dir(ball.translation - other.translation);
    let d = other.solid.point_distance(centre, dim)?;
    // A centre inside is at least the radius deep (the depth beyond is not needed here).
    Some(if d > 0.0 { d - r } else { -r })
}

/// How far apart the solids are along the unit world direction `u` (A towards B): B's
/// least extent less A's greatest, less the radii. `None` where the oracle has no support.
pub fn separation_along(a: &Placed, b: &Placed, u: DVec3, dim: usize) -> f64 {
    let top_a = a.world(a.solid.support(a.local_dir(u), dim)).dot(u) + radius(&a.solid);
    let low_b = b.world(b.solid.support(b.local_dir(-u), dim)).dot(u) - radius(&b.solid);
    low_b - top_a
}

fn radius(s: &Solid) -> f64 {
    s.core().map_or(0.0, |(_, r)| r)
}

/// Places B (with its rotation) touching A with `n` (A towards B, world) in the contact's
/// normal cone: B's support point against `n` on A's along `n`, the radii between. `face`
/// moves the touching points to the middle of the supporting features (a face of A against
/// a vertex of B touches inside the face, not at its corner).
pub fn touching(a: &Placed, b_solid: &Solid, b_rotation: DQuat, n: DVec3, dim: usize) -> Placed {
    let feature_middle = |p: &Placed, dir: DVec3| -> DVec3 {
        let local = p.local_dir(dir);
        let s = p.solid.support(local, dim);
        match p.solid.core() {
            Some((v, _)) if v.len() > 1 => {
                let top = s.dot(local);
                let on: Vec<DVec3> =
                    v.iter().copied().filter(|q| (q.dot(local) - top).abs() <= 1e-12).collect();
                if on.is_empty() {
                    p.world(s)
                } else {
                    p.world(on.iter().copied().sum::<DVec3>() / on.len() as f64)
                }
            }
            _ => p.world(s),
        }
    };
    let b0 = Placed { solid: b_solid.clone(), rotation: b_rotation, translation: DVec3::ZERO };
    let pa = feature_middle(a, n);
    let pb = feature_middle(&b0, -n);
    let gap = radius(&a.solid) + radius(b_solid);
    // When both touching features are faces (face on face), their middles may not overlap:
    // slide B's within A's face by nothing more than keeps the contact (the middles meet).
    Placed { translation: pa + n * gap - pb, ..b0 }
}

/// How two solids are made to touch: the normal `n` (A towards B, world), B's rotation,
/// and which features meet. Kinds: `"any"` (a random `n`: vertices or curved sides, a whole
/// cone of normals), `"face of A"` and `"face of B"` (a face against a vertex),
/// `"face on face"` (B turned to lay a face flat on one of A's), `"edge on edge"` (3D: an
/// edge of each, crossing, `n` inside both edges' wedges of normals).
pub fn contact_setup(
    rng: &mut ChaCha8Rng,
    a: &Placed,
    b: &Solid,
    dim: usize,
) -> (DVec3, DQuat, &'static str) {
    let twist = |rng: &mut ChaCha8Rng, n: DVec3| {
        if dim == 3 {
            DQuat::from_axis_angle(n, rng.random_range(-3.0..3.0))
        } else {
            DQuat::IDENTITY
        }
    };
    // The rotation taking the local vector `m` to the world `target`, then a random turn
    // about `target`.
    let align = |rng: &mut ChaCha8Rng, m: DVec3, target: DVec3| {
        twist(rng, target) * DQuat::from_rotation_arc(m, target)
    };
    let (fa, fb) = (a.solid.face_normals(dim), b.face_normals(dim));
    match rng.random_range(0..5) {
        1 if !fa.is_empty() => {
            return (a.rotation * fa[rng.random_range(0..fa.len())], random_rotation(rng, dim), "face of A");
        }
        2 if !fb.is_empty() => {
            let rot = random_rotation(rng, dim);
            return (-(rot * fb[rng.random_range(0..fb.len())]), rot, "face of B");
        }
        3 if !fa.is_empty() && !fb.is_empty() => {
            let n = a.rotation * fa[rng.random_range(0..fa.len())];
            let m = fb[rng.random_range(0..fb.len())];
            return (n, align(rng, m, -n), "face on face");
        }
        4 if dim == 3 => {
            let (wa, wb) = (a.solid.edge_wedges(), b.edge_wedges());
            if !wa.is_empty() && !wb.is_empty() {
                let mix = |rng: &mut ChaCha8Rng, (p, q): (DVec3, DVec3)| {
                    let s = rng.random_range(0.2..0.8);
                    (p * s + q * (1.0 - s)).normalize()
                };
                let ea = wa[rng.random_range(0..wa.len())];
                let n = a.rotation * mix(rng, ea);
                let eb = wb[rng.random_range(0..wb.len())];
                let m = mix(rng, eb);
                return (n, align(rng, m, -n), "edge on edge");
            }
        }
        _ => {}
    }
    (random_unit(rng, dim), random_rotation(rng, dim), "any")
}

impl Solid {
    /// The wedges of normals of the core's edges (3D polytopes of full dimension): the
    /// outward normals of the two faces that meet there.
    pub fn edge_wedges(&self) -> Vec<(DVec3, DVec3)> {
        let Some((v, _)) = self.core() else { return vec![] };
        if v.len() < 4 || matches!(self, Self::Triangle(_)) {
            return vec![];
        }
        let c = v.iter().copied().sum::<DVec3>() / v.len() as f64;
        let tris = boundary_triangles(&v);
        let normal = |t: &[usize; 3]| {
            let n = (v[t[1]] - v[t[0]]).cross(v[t[2]] - v[t[0]]).normalize();
            if n.dot(c - v[t[0]]) > 0.0 {
                -n
            } else {
                n
            }
        };
        let mut out = vec![];
        for (i, s) in tris.iter().enumerate() {
            for t in &tris[i + 1..] {
                let shared = s.iter().filter(|x| t.contains(x)).count();
                let (ns, nt) = (normal(s), normal(t));
                if shared == 2 && ns.dot(nt) < 1.0 - 1e-6 {
                    out.push((ns, nt));
                }
            }
        }
        out
    }
}

/// The first time in `[0, t_end]` at which `sd(t) <= level`, for `sd` convex in time with
/// `sd(t_end) <= level` (bisection to the rounding of the times).
pub fn first_time_at_most(sd: impl Fn(f64) -> f64, level: f64, t_end: f64) -> f64 {
    if sd(0.0) <= level {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0, t_end);
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if sd(mid) <= level {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// Wrong answers by kind of case, with the first few described (the generators' report).
#[derive(Default)]
pub struct Tally {
    pub by_kind: BTreeMap<String, (usize, usize)>,
    pub examples: Vec<String>,
    /// Casts that ended `Failed` (allowed where GJK cannot prove the gap; casts only).
    pub failed: usize,
}

impl Tally {
    pub fn record(&mut self, kind: String, wrong: Option<String>) {
        let e = self.by_kind.entry(kind).or_default();
        e.0 += 1;
        if let Some(w) = wrong {
            e.1 += 1;
            if self.examples.len() < 8 {
                self.examples.push(w);
            }
        }
    }

    #[track_caller]
    pub fn assert_clean(&self, what: &str, at_least: usize) {
        let total: usize = self.by_kind.values().map(|e| e.0).sum();
        let wrong: usize = self.by_kind.values().map(|e| e.1).sum();
        let kinds: Vec<String> =
            self.by_kind.iter().filter(|e| e.1 .1 > 0).map(|(k, (n, w))| format!("{k}: {w}/{n}")).collect();
        assert!(
            wrong == 0,
            "{what}: {wrong} wrong of {total}\n{}\n{}",
            kinds.join("\n"),
            self.examples.join("\n")
        );
        assert!(total >= at_least, "{what}: only {total} cases judged (expected {at_least})");
    }
}
