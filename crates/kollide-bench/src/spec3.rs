//! 3D shape descriptions: one set of `f32` parameters builds the kollide shape (`f32` and
//! `f64`), the parry shape and the brute-force oracle's shape.

use crate::gen::{self, BenchRng};
use crate::oracle3::{Oracle3, Polytope};
use glam::{DVec3, Vec3};
use kollide::shape::Support;

/// A 3D shape both libraries can build from the same numbers.
pub trait Spec3: core::fmt::Debug {
    /// The kollide shape in `f32`.
    type Kollide: Support<Vec3>;
    /// The kollide shape in `f64` (parameters converted exactly from `f32`).
    type Kollide64: Support<DVec3>;
    /// The parry shape (`f32`).
    type Parry: parry3d::shape::Shape;
    /// Builds the kollide `f32` shape.
    fn kollide(&self) -> Self::Kollide;
    /// Builds the kollide `f64` shape.
    fn kollide64(&self) -> Self::Kollide64;
    /// Builds the parry shape.
    fn parry(&self) -> Self::Parry;
    /// `max p·dir` over the shape, `dir` a unit vector of the local frame. Computed here from
    /// the parameters (used to place pairs, independent of both libraries).
    fn extent(&self, dir: Vec3) -> f32;
    /// The brute-force `f64` oracle's version of the shape, where there is one.
    fn oracle(&self) -> Option<Oracle3> {
        None
    }
    /// For certificates (shapes the oracle does not know): `max p·dir` over the shape in
    /// `f64`, `dir` a unit vector of the local frame.
    fn extent64(&self, _dir: DVec3) -> Option<f64> {
        None
    }
    /// For certificates: how far the local point `p` lies outside the shape (`<= 0` inside;
    /// a lower bound on the distance to the shape, exact enough for a tolerance test).
    fn outside64(&self, _p: DVec3) -> Option<f64> {
        None
    }
}

fn radial64(v: DVec3) -> f64 {
    v.x.hypot(v.z)
}

fn d(v: Vec3) -> DVec3 {
    v.as_dvec3()
}

fn radial(dir: Vec3) -> f32 {
    (dir.x * dir.x + dir.z * dir.z).sqrt()
}

/// A ball of radius `radius`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BallSpec {
    /// Radius.
    pub radius: f32,
}

impl BallSpec {
    /// Radius in `[0.5, 1.5)`.
    pub fn random(rng: &mut BenchRng) -> Self {
        Self { radius: gen::uniform(rng, 0.5, 1.5) }
    }
}

impl Spec3 for BallSpec {
    type Kollide = kollide::shape::Ball<Vec3>;
    type Kollide64 = kollide::shape::Ball<DVec3>;
    type Parry = parry3d::shape::Ball;
    fn kollide(&self) -> Self::Kollide {
        kollide::shape::Ball::new(self.radius)
    }
    fn kollide64(&self) -> Self::Kollide64 {
        kollide::shape::Ball::new(f64::from(self.radius))
    }
    fn parry(&self) -> Self::Parry {
        parry3d::shape::Ball::new(self.radius)
    }
    fn extent(&self, _dir: Vec3) -> f32 {
        self.radius
    }
    fn oracle(&self) -> Option<Oracle3> {
        Some(Oracle3::Rounded { a: DVec3::ZERO, b: DVec3::ZERO, radius: f64::from(self.radius) })
    }
}

/// A box with half extents `half_extents`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CuboidSpec {
    /// Half extents.
    pub half_extents: Vec3,
}

impl CuboidSpec {
    /// Half extents each in `[0.3, 1.2)`.
    pub fn random(rng: &mut BenchRng) -> Self {
        let mut h = || gen::uniform(rng, 0.3, 1.2);
        Self { half_extents: Vec3::new(h(), h(), h()) }
    }
}

impl Spec3 for CuboidSpec {
    type Kollide = kollide::shape::Cuboid<Vec3>;
    type Kollide64 = kollide::shape::Cuboid<DVec3>;
    type Parry = parry3d::shape::Cuboid;
    fn kollide(&self) -> Self::Kollide {
        kollide::shape::Cuboid::new(self.half_extents)
    }
    fn kollide64(&self) -> Self::Kollide64 {
        kollide::shape::Cuboid::new(d(self.half_extents))
    }
    fn parry(&self) -> Self::Parry {
        parry3d::shape::Cuboid::new(self.half_extents)
    }
    fn extent(&self, dir: Vec3) -> f32 {
        dir.abs().dot(self.half_extents)
    }
    fn oracle(&self) -> Option<Oracle3> {
        let h = d(self.half_extents);
        let corners = (0..8)
            .map(|i| {
                let s = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
                DVec3::new(s(1), s(2), s(4)) * h
            })
            .collect::<Vec<_>>();
        Some(Oracle3::Polytope(Polytope::from_points(&corners)))
    }
}

/// A capsule along the local y axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CapsuleSpec {
    /// Half the length of the core segment.
    pub half_height: f32,
    /// Radius.
    pub radius: f32,
}

impl CapsuleSpec {
    /// Half height in `[0.2, 1.0)`, radius in `[0.2, 0.7)`.
    pub fn random(rng: &mut BenchRng) -> Self {
        Self { half_height: gen::uniform(rng, 0.2, 1.0), radius: gen::uniform(rng, 0.2, 0.7) }
    }
}

impl Spec3 for CapsuleSpec {
    type Kollide = kollide::shape::Capsule<Vec3>;
    type Kollide64 = kollide::shape::Capsule<DVec3>;
    type Parry = parry3d::shape::Capsule;
    fn kollide(&self) -> Self::Kollide {
        kollide::shape::Capsule::new(self.half_height, self.radius)
    }
    fn kollide64(&self) -> Self::Kollide64 {
        kollide::shape::Capsule::new(f64::from(self.half_height), f64::from(self.radius))
    }
    fn parry(&self) -> Self::Parry {
        parry3d::shape::Capsule::new_y(self.half_height, self.radius)
    }
    fn extent(&self, dir: Vec3) -> f32 {
        self.half_height * dir.y.abs() + self.radius
    }
    fn oracle(&self) -> Option<Oracle3> {
        let tip = DVec3::Y * f64::from(self.half_height);
        Some(Oracle3::Rounded { a: -tip, b: tip, radius: f64::from(self.radius) })
    }
}

/// A cylinder along the local y axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CylinderSpec {
    /// Half height.
    pub half_height: f32,
    /// Radius.
    pub radius: f32,
}

impl CylinderSpec {
    /// Half height and radius each in `[0.3, 1.0)`.
    pub fn random(rng: &mut BenchRng) -> Self {
        Self { half_height: gen::uniform(rng, 0.3, 1.0), radius: gen::uniform(rng, 0.3, 1.0) }
    }
}

impl Spec3 for CylinderSpec {
    type Kollide = kollide::shape::Cylinder<Vec3>;
    type Kollide64 = kollide::shape::Cylinder<DVec3>;
    type Parry = parry3d::shape::Cylinder;
    fn kollide(&self) -> Self::Kollide {
        kollide::shape::Cylinder::new(self.half_height, self.radius)
    }
    fn kollide64(&self) -> Self::Kollide64 {
        kollide::shape::Cylinder::new(f64::from(self.half_height), f64::from(self.radius))
    }
    fn parry(&self) -> Self::Parry {
        parry3d::shape::Cylinder::new(self.half_height, self.radius)
    }
    fn extent(&self, dir: Vec3) -> f32 {
        self.half_height * dir.y.abs() + self.radius * radial(dir)
    }
    fn extent64(&self, dir: DVec3) -> Option<f64> {
        Some(f64::from(self.half_height) * dir.y.abs() + f64::from(self.radius) * radial64(dir))
    }
    fn outside64(&self, p: DVec3) -> Option<f64> {
        Some((p.y.abs() - f64::from(self.half_height)).max(radial64(p) - f64::from(self.radius)))
    }
}

/// A cone along the local y axis, apex up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConeSpec {
    /// Half height.
    pub half_height: f32,
    /// Radius of the base.
    pub radius: f32,
}

impl ConeSpec {
    /// Half height and radius each in `[0.3, 1.0)`.
    pub fn random(rng: &mut BenchRng) -> Self {
        Self { half_height: gen::uniform(rng, 0.3, 1.0), radius: gen::uniform(rng, 0.3, 1.0) }
    }
}

impl Spec3 for ConeSpec {
    type Kollide = kollide::shape::Cone<Vec3>;
    type Kollide64 = kollide::shape::Cone<DVec3>;
    type Parry = parry3d::shape::Cone;
    fn kollide(&self) -> Self::Kollide {
        kollide::shape::Cone::new(self.half_height, self.radius)
    }
    fn kollide64(&self) -> Self::Kollide64 {
        kollide::shape::Cone::new(f64::from(self.half_height), f64::from(self.radius))
    }
    fn parry(&self) -> Self::Parry {
        parry3d::shape::Cone::new(self.half_height, self.radius)
    }
    fn extent(&self, dir: Vec3) -> f32 {
        let apex = self.half_height * dir.y;
        let rim = -self.half_height * dir.y + self.radius * radial(dir);
        apex.max(rim)
    }
    fn extent64(&self, dir: DVec3) -> Option<f64> {
        let (h, r) = (f64::from(self.half_height), f64::from(self.radius));
        Some((h * dir.y).max(-h * dir.y + r * radial64(dir)))
    }
    fn outside64(&self, p: DVec3) -> Option<f64> {
        // Inside: -h <= y <= h and radial <= r (h - y) / 2h. The side test is scaled to a
        // distance by the slant: (radial - r (h - y) / 2h) × cos(half angle).
        let (h, r) = (f64::from(self.half_height), f64::from(self.radius));
        let slant = (2.0 * h) / (2.0 * h).hypot(r);
        let side = (radial64(p) - r * (h - p.y) / (2.0 * h)) * slant;
        Some((p.y.abs() - h).max(side))
    }
}

/// The convex hull of a point set (the benchmark's points lie on the unit sphere).
#[derive(Clone, Debug, PartialEq)]
pub struct HullSpec {
    /// The points the hull is built from.
    pub points: Vec<Vec3>,
}

impl HullSpec {
    /// The hull of `n` random points on the unit sphere.
    pub fn random(rng: &mut BenchRng, n: usize) -> Self {
        Self { points: gen::sphere_points(rng, n) }
    }
}

impl Spec3 for HullSpec {
    type Kollide = kollide::shape::ConvexHull<Vec3>;
    type Kollide64 = kollide::shape::ConvexHull<DVec3>;
    type Parry = parry3d::shape::ConvexPolyhedron;
    fn kollide(&self) -> Self::Kollide {
        kollide::shape::ConvexHull::try_from_points(&self.points).expect("kollide hull of sphere points")
    }
    fn kollide64(&self) -> Self::Kollide64 {
        let pts: Vec<DVec3> = self.points.iter().map(|&p| d(p)).collect();
        kollide::shape::ConvexHull::try_from_points(&pts).expect("kollide f64 hull of sphere points")
    }
    fn parry(&self) -> Self::Parry {
        parry3d::shape::ConvexPolyhedron::from_convex_hull(&self.points).expect("parry hull of sphere points")
    }
    fn extent(&self, dir: Vec3) -> f32 {
        self.points.iter().map(|p| p.dot(dir)).fold(f32::MIN, f32::max)
    }
    fn oracle(&self) -> Option<Oracle3> {
        let pts: Vec<DVec3> = self.points.iter().map(|&p| d(p)).collect();
        Some(Oracle3::Polytope(Polytope::from_points(&pts)))
    }
}
