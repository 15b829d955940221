//! 2D shape descriptions: one set of `f32` parameters builds the kollide shape (`f32` and
//! `f64`), the parry shape and the brute-force oracle's shape.

use crate::gen::{self, BenchRng};
use crate::oracle2::{Oracle2, Polygon};
use glam::{DVec2, Vec2};
use kollide::shape::Support;

/// A 2D shape both libraries can build from the same numbers.
pub trait Spec2: core::fmt::Debug {
    /// The kollide shape in `f32`.
    type Kollide: Support<Vec2>;
    /// The kollide shape in `f64`.
    type Kollide64: Support<DVec2>;
    /// The parry shape (`f32`).
    type Parry: parry2d::shape::Shape;
    /// Builds the kollide `f32` shape.
    fn kollide(&self) -> Self::Kollide;
    /// Builds the kollide `f64` shape.
    fn kollide64(&self) -> Self::Kollide64;
    /// Builds the parry shape.
    fn parry(&self) -> Self::Parry;
    /// `max p·dir` over the shape, `dir` a unit vector of the local frame.
    fn extent(&self, dir: Vec2) -> f32;
    /// The brute-force oracle's version of the shape.
    fn oracle(&self) -> Option<Oracle2>;
}

/// A circle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CircleSpec {
    /// Radius.
    pub radius: f32,
}

impl CircleSpec {
    /// Radius in `[0.5, 1.5)`.
    pub fn random(rng: &mut BenchRng) -> Self {
        Self { radius: gen::uniform(rng, 0.5, 1.5) }
    }
}

impl Spec2 for CircleSpec {
    type Kollide = kollide::shape::Ball<Vec2>;
    type Kollide64 = kollide::shape::Ball<DVec2>;
    type Parry = parry2d::shape::Ball;
    fn kollide(&self) -> Self::Kollide {
        kollide::shape::Ball::new(self.radius)
    }
    fn kollide64(&self) -> Self::Kollide64 {
        kollide::shape::Ball::new(f64::from(self.radius))
    }
    fn parry(&self) -> Self::Parry {
        parry2d::shape::Ball::new(self.radius)
    }
    fn extent(&self, _dir: Vec2) -> f32 {
        self.radius
    }
    fn oracle(&self) -> Option<Oracle2> {
        Some(Oracle2::Rounded { a: DVec2::ZERO, b: DVec2::ZERO, radius: f64::from(self.radius) })
    }
}

/// A rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RectSpec {
    /// Half extents.
    pub half_extents: Vec2,
}

impl RectSpec {
    /// Half extents each in `[0.3, 1.2)`.
    pub fn random(rng: &mut BenchRng) -> Self {
        Self { half_extents: Vec2::new(gen::uniform(rng, 0.3, 1.2), gen::uniform(rng, 0.3, 1.2)) }
    }
}

impl Spec2 for RectSpec {
    type Kollide = kollide::shape::Cuboid<Vec2>;
    type Kollide64 = kollide::shape::Cuboid<DVec2>;
    type Parry = parry2d::shape::Cuboid;
    fn kollide(&self) -> Self::Kollide {
        kollide::shape::Cuboid::new(self.half_extents)
    }
    fn kollide64(&self) -> Self::Kollide64 {
        kollide::shape::Cuboid::new(self.half_extents.as_dvec2())
    }
    fn parry(&self) -> Self::Parry {
        parry2d::shape::Cuboid::new(self.half_extents)
    }
    fn extent(&self, dir: Vec2) -> f32 {
        dir.abs().dot(self.half_extents)
    }
    fn oracle(&self) -> Option<Oracle2> {
        let h = self.half_extents.as_dvec2();
        let pts =
            [DVec2::new(-h.x, -h.y), DVec2::new(h.x, -h.y), DVec2::new(h.x, h.y), DVec2::new(-h.x, h.y)];
        Some(Oracle2::Polygon(Polygon::from_points(&pts)))
    }
}

/// A 2D capsule along the local y axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule2Spec {
    /// Half the length of the core segment.
    pub half_height: f32,
    /// Radius.
    pub radius: f32,
}

impl Capsule2Spec {
    /// Half height in `[0.2, 1.0)`, radius in `[0.2, 0.7)`.
    pub fn random(rng: &mut BenchRng) -> Self {
        Self { half_height: gen::uniform(rng, 0.2, 1.0), radius: gen::uniform(rng, 0.2, 0.7) }
    }
}

impl Spec2 for Capsule2Spec {
    type Kollide = kollide::shape::Capsule<Vec2>;
    type Kollide64 = kollide::shape::Capsule<DVec2>;
    type Parry = parry2d::shape::Capsule;
    fn kollide(&self) -> Self::Kollide {
        kollide::shape::Capsule::new(self.half_height, self.radius)
    }
    fn kollide64(&self) -> Self::Kollide64 {
        kollide::shape::Capsule::new(f64::from(self.half_height), f64::from(self.radius))
    }
    fn parry(&self) -> Self::Parry {
        parry2d::shape::Capsule::new_y(self.half_height, self.radius)
    }
    fn extent(&self, dir: Vec2) -> f32 {
        self.half_height * dir.y.abs() + self.radius
    }
    fn oracle(&self) -> Option<Oracle2> {
        let tip = DVec2::Y * f64::from(self.half_height);
        Some(Oracle2::Rounded { a: -tip, b: tip, radius: f64::from(self.radius) })
    }
}

/// The convex hull of a 2D point set (the benchmark's points lie on the unit circle).
#[derive(Clone, Debug, PartialEq)]
pub struct PolygonSpec {
    /// The points the polygon is built from.
    pub points: Vec<Vec2>,
}

impl PolygonSpec {
    /// The hull of `n` random points on the unit circle.
    pub fn random(rng: &mut BenchRng, n: usize) -> Self {
        Self { points: gen::circle_points(rng, n) }
    }
}

impl Spec2 for PolygonSpec {
    type Kollide = kollide::shape::ConvexPolygon<Vec2>;
    type Kollide64 = kollide::shape::ConvexPolygon<DVec2>;
    type Parry = parry2d::shape::ConvexPolygon;
    fn kollide(&self) -> Self::Kollide {
        kollide::shape::ConvexPolygon::try_from_points(&self.points)
            .expect("kollide polygon of circle points")
    }
    fn kollide64(&self) -> Self::Kollide64 {
        let pts: Vec<DVec2> = self.points.iter().map(|p| p.as_dvec2()).collect();
        kollide::shape::ConvexPolygon::try_from_points(&pts).expect("kollide f64 polygon of circle points")
    }
    fn parry(&self) -> Self::Parry {
        parry2d::shape::ConvexPolygon::from_convex_hull(&self.points).expect("parry polygon of circle points")
    }
    fn extent(&self, dir: Vec2) -> f32 {
        self.points.iter().map(|p| p.dot(dir)).fold(f32::MIN, f32::max)
    }
    fn oracle(&self) -> Option<Oracle2> {
        let pts: Vec<DVec2> = self.points.iter().map(|p| p.as_dvec2()).collect();
        Some(Oracle2::Polygon(Polygon::from_points(&pts)))
    }
}
