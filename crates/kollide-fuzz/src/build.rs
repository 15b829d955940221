//! Shapes, poses and scenes built from the fuzzer's bytes, always through the checked
//! constructors (`try_new`, `try_from_points`, `Pose::try_new`): a refused value is simply
//! no shape, and the input moves on.

use crate::bytes::Bytes;
use kollide::composite::{Compound, ConcavePolygon, HeightField, HeightField2d, Polyline, TriMesh};
use kollide::math::{Pose, Real, Rotation, Vector, Vector2, Vector3};
use kollide::query::cast::Motion;
use kollide::shape::{
    Ball, Capsule, Cone, Convex2, Convex3, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Ellipsoid, Segment,
    Support, Triangle,
};
use kollide::world::{RuntimeShape, Shape2, Shape3};
use std::fmt::Debug;
use std::sync::Arc;

/// A number of the vector type's precision (f64 values beyond f32 become infinite there,
/// which the constructors must refuse).
pub fn real<V: Vector>(b: &mut Bytes) -> V::Real {
    V::Real::from_f64(b.f64())
}

/// A vector of any numbers.
pub fn vector<V: Vector>(b: &mut Bytes) -> V {
    V::from_f64_array([b.f64(), b.f64(), b.f64()])
}

/// A point cloud with the hard cases: exact duplicates, near duplicates (1e-12 off), and
/// points on the line or plane of earlier ones.
pub fn cloud<V: Vector>(b: &mut Bytes, max: usize) -> Vec<V> {
    let n = b.below(max + 1);
    let mut points: Vec<[f64; 3]> = Vec::with_capacity(n);
    for _ in 0..n {
        let pick = |b: &mut Bytes, points: &Vec<[f64; 3]>| points[b.below(points.len())];
        let p = match b.below(8) {
            5 if !points.is_empty() => pick(b, &points),
            6 if !points.is_empty() => {
                let q = pick(b, &points);
                let e = b.f64() * 1e-12;
                [q[0] + e, q[1] - e, q[2] + e * 0.5]
            }
            7 if points.len() >= 2 => {
                let (p, q) = (pick(b, &points), pick(b, &points));
                let t = b.f64();
                [0, 1, 2].map(|i| p[i] + t * (q[i] - p[i]))
            }
            _ => [b.f64(), b.f64(), b.f64()],
        };
        points.push(p);
    }
    points.into_iter().map(V::from_f64_array).collect()
}

/// What the harness needs of a dimension and precision: its run-time shapes and how to
/// draw them from bytes. Implemented for `Vec2`, `DVec2`, `Vec3` and `DVec3`.
pub trait Space: kollide::query::Space {
    /// The run-time shape enum ([`Shape2`] or [`Shape3`]).
    type Shape: RuntimeShape<Self> + Debug;
    /// The convex run-time shape ([`Convex2`] or [`Convex3`]).
    type Convex: Support<Self> + Clone + Debug;
    /// A convex shape of any kind (rounded ones included), or `None` when refused.
    fn convex(b: &mut Bytes) -> Option<Self::Convex>;
    /// A composite (mesh, terrain, compound, polyline, concave polygon), or `None`.
    fn composite(b: &mut Bytes) -> Option<Self::Shape>;
    /// The convex shape as a run-time shape.
    fn wrap(c: Self::Convex) -> Self::Shape;
    /// A ball of this radius, as a run-time shape (for point probes).
    fn ball(radius: Self::Real) -> Option<Self::Shape>;
    /// The convex shape inside, if the shape is convex.
    fn as_convex(s: &Self::Shape) -> Option<&Self::Convex>;
    /// The convex parts of a composite with their poses in its frame (for brute force);
    /// `None` for a convex shape.
    fn parts(s: &Self::Shape) -> Option<Vec<(Pose<Self>, Self::Convex)>>;
    /// Whether the shape's contact is its deepest part's (every composite but the concave
    /// polygon, whose contact prefers pieces that do not push out through a diagonal).
    fn deepest_part_contact(s: &Self::Shape) -> bool;
    /// A rotation (turns by an arbitrary angle).
    fn rotation(b: &mut Bytes) -> Self::Rotation;
    /// An angular velocity of ordinary size (zero half the time).
    fn spin(b: &mut Bytes) -> Self::AngularVelocity;
}

/// A pose, or `None` when refused (non-finite parts).
pub fn pose<V: Space>(b: &mut Bytes) -> Option<Pose<V>> {
    let t = vector::<V>(b);
    let r = if b.bool() { <V::Rotation as Rotation<V>>::IDENTITY } else { V::rotation(b) };
    Pose::try_new(t, r).ok()
}

/// A motion: a velocity and, sometimes, a spin.
pub fn motion<V: Space>(b: &mut Bytes) -> Motion<V> {
    Motion { velocity: vector(b), angular_velocity: V::spin(b) }
}

/// A shape: convex (three times in four) or composite.
pub fn shape<V: Space>(b: &mut Bytes) -> Option<V::Shape> {
    if b.below(4) == 0 {
        V::composite(b)
    } else {
        V::convex(b).map(V::wrap)
    }
}

fn convex3<V: Vector3>(b: &mut Bytes, allow_rounded: bool) -> Option<Convex3<V>> {
    let r = |b: &mut Bytes| real::<V>(b);
    Some(match b.below(10) {
        0 => Convex3::Ball(Ball::try_new(r(b)).ok()?),
        1 => Convex3::Cuboid(Cuboid::try_new(vector(b)).ok()?),
        2 => Convex3::Capsule(Capsule::try_new(r(b), r(b)).ok()?),
        3 => Convex3::Cylinder(Cylinder::try_new(r(b), r(b)).ok()?),
        4 => Convex3::Cone(Cone::try_new(r(b), r(b)).ok()?),
        5 => Convex3::Ellipsoid(Ellipsoid::try_new(vector(b)).ok()?),
        6 => Convex3::Segment(Segment::try_new(vector(b), vector(b)).ok()?),
        7 => Convex3::Triangle(Triangle::try_new(vector(b), vector(b), vector(b)).ok()?),
        8 => Convex3::ConvexHull(Arc::new(ConvexHull::try_from_points(&cloud::<V>(b, 16)).ok()?)),
        _ if allow_rounded => convex3::<V>(b, false)?.rounded(r(b)).ok()?,
        _ => return None,
    })
}

fn convex2<V: Vector2>(b: &mut Bytes, allow_rounded: bool) -> Option<Convex2<V>> {
    let r = |b: &mut Bytes| real::<V>(b);
    Some(match b.below(8) {
        0 => Convex2::Ball(Ball::try_new(r(b)).ok()?),
        1 => Convex2::Cuboid(Cuboid::try_new(vector(b)).ok()?),
        2 => Convex2::Capsule(Capsule::try_new(r(b), r(b)).ok()?),
        3 => Convex2::Ellipsoid(Ellipsoid::try_new(vector(b)).ok()?),
        4 => Convex2::Segment(Segment::try_new(vector(b), vector(b)).ok()?),
        5 => Convex2::Triangle(Triangle::try_new(vector(b), vector(b), vector(b)).ok()?),
        6 => Convex2::ConvexPolygon(Arc::new(ConvexPolygon::try_from_points(&cloud::<V>(b, 12)).ok()?)),
        _ if allow_rounded => convex2::<V>(b, false)?.rounded(r(b)).ok()?,
        _ => return None,
    })
}

/// Compound parts: one to four convex shapes at their own poses.
fn compound_parts<V: Space>(b: &mut Bytes) -> Vec<(Pose<V>, V::Convex)> {
    let n = 1 + b.below(4);
    (0..n).filter_map(|_| Some((pose::<V>(b)?, V::convex(b)?))).collect()
}

/// Triangle indices, some of them out of range or repeated on purpose.
fn indices(b: &mut Bytes, vertices: usize) -> Vec<[u32; 3]> {
    let n = b.below(12);
    (0..n).map(|_| [0; 3].map(|_| b.below(vertices + 1) as u32)).collect()
}

fn composite3<V: Space<Shape = Shape3<V>, Convex = Convex3<V>> + Vector3>(
    b: &mut Bytes,
) -> Option<Shape3<V>> {
    Some(match b.below(3) {
        0 => {
            let vertices = cloud::<V>(b, 10);
            let idx = indices(b, vertices.len());
            Shape3::TriMesh(Arc::new(TriMesh::try_new(vertices, idx).ok()?))
        }
        1 => {
            let (rows, cols) = (b.below(6), b.below(6));
            let heights = (0..rows).map(|_| (0..cols).map(|_| real::<V>(b)).collect()).collect();
            Shape3::HeightField(Arc::new(HeightField::try_new(heights, vector(b)).ok()?))
        }
        _ => Shape3::Compound(Arc::new(Compound::try_new(compound_parts::<V>(b)).ok()?)),
    })
}

fn composite2<V: Space<Shape = Shape2<V>, Convex = Convex2<V>> + Vector2>(
    b: &mut Bytes,
) -> Option<Shape2<V>> {
    Some(match b.below(4) {
        0 => Shape2::Polyline(Arc::new(Polyline::try_new(cloud::<V>(b, 8)).ok()?)),
        1 => {
            let n = b.below(9);
            let heights = (0..n).map(|_| real::<V>(b)).collect();
            Shape2::HeightField(Arc::new(HeightField2d::try_new(heights, vector(b)).ok()?))
        }
        2 => Shape2::ConcavePolygon(Arc::new(ConcavePolygon::try_new(&cloud::<V>(b, 10)).ok()?)),
        _ => Shape2::Compound(Arc::new(Compound::try_new(compound_parts::<V>(b)).ok()?)),
    })
}

macro_rules! space3 {
    ($v:ty, $q:ty) => {
        impl Space for $v {
            type Shape = Shape3<$v>;
            type Convex = Convex3<$v>;
            fn convex(b: &mut Bytes) -> Option<Self::Convex> {
                convex3(b, true)
            }
            fn composite(b: &mut Bytes) -> Option<Self::Shape> {
                composite3(b)
            }
            fn wrap(c: Self::Convex) -> Self::Shape {
                Shape3::Convex(c)
            }
            fn ball(radius: Self::Real) -> Option<Self::Shape> {
                Some(Shape3::Convex(Convex3::Ball(Ball::try_new(radius).ok()?)))
            }
            fn as_convex(s: &Self::Shape) -> Option<&Self::Convex> {
                match s {
                    Shape3::Convex(c) => Some(c),
                    _ => None,
                }
            }
            fn parts(s: &Self::Shape) -> Option<Vec<(Pose<Self>, Self::Convex)>> {
                let id = Pose::from_translation(<$v>::ZERO);
                Some(match s {
                    Shape3::Convex(_) => return None,
                    Shape3::TriMesh(m) => (0..m.triangle_count() as u32)
                        .map(|i| (id, Convex3::Triangle(m.triangle(i))))
                        .collect(),
                    Shape3::HeightField(h) => (0..h.triangle_count() as u32)
                        .map(|i| (id, Convex3::Triangle(h.triangle(i))))
                        .collect(),
                    Shape3::Compound(c) => c.parts().to_vec(),
                })
            }
            fn deepest_part_contact(_: &Self::Shape) -> bool {
                true
            }
            fn rotation(b: &mut Bytes) -> Self::Rotation {
                let axis = <$v>::new(b.tame(1.0) as _, b.tame(1.0) as _, b.tame(1.0) as _);
                <$q>::from_axis_angle(axis.try_normalize().unwrap_or(<$v>::X), b.tame(4.0) as _)
            }
            fn spin(b: &mut Bytes) -> Self::AngularVelocity {
                if b.bool() {
                    <$v>::ZERO
                } else {
                    <$v>::new(b.tame(3.0) as _, b.tame(3.0) as _, b.tame(3.0) as _)
                }
            }
        }
    };
}

macro_rules! space2 {
    ($v:ty, $r:ty) => {
        impl Space for $v {
            type Shape = Shape2<$v>;
            type Convex = Convex2<$v>;
            fn convex(b: &mut Bytes) -> Option<Self::Convex> {
                convex2(b, true)
            }
            fn composite(b: &mut Bytes) -> Option<Self::Shape> {
                composite2(b)
            }
            fn wrap(c: Self::Convex) -> Self::Shape {
                Shape2::Convex(c)
            }
            fn ball(radius: Self::Real) -> Option<Self::Shape> {
                Some(Shape2::Convex(Convex2::Ball(Ball::try_new(radius).ok()?)))
            }
            fn as_convex(s: &Self::Shape) -> Option<&Self::Convex> {
                match s {
                    Shape2::Convex(c) => Some(c),
                    _ => None,
                }
            }
            fn parts(s: &Self::Shape) -> Option<Vec<(Pose<Self>, Self::Convex)>> {
                let id = Pose::from_translation(<$v>::ZERO);
                Some(match s {
                    Shape2::Convex(_) => return None,
                    Shape2::Polyline(p) => {
                        (0..p.segment_count() as u32).map(|i| (id, Convex2::Segment(p.segment(i)))).collect()
                    }
                    Shape2::HeightField(h) => {
                        (0..h.segment_count() as u32).map(|i| (id, Convex2::Segment(h.segment(i)))).collect()
                    }
                    Shape2::Compound(c) => c.parts().to_vec(),
                    Shape2::ConcavePolygon(p) => {
                        p.pieces().iter().map(|q| (id, Convex2::ConvexPolygon(Arc::new(q.clone())))).collect()
                    }
                })
            }
            fn deepest_part_contact(s: &Self::Shape) -> bool {
                !matches!(s, Shape2::ConcavePolygon(_))
            }
            fn rotation(b: &mut Bytes) -> Self::Rotation {
                kollide::math::Rot2::from_angle(b.tame(4.0) as $r)
            }
            fn spin(b: &mut Bytes) -> Self::AngularVelocity {
                if b.bool() {
                    0.0
                } else {
                    b.tame(3.0) as $r
                }
            }
        }
    };
}

space3!(kollide::math::Vec3, kollide::math::Quat);
space3!(kollide::math::DVec3, kollide::math::DQuat);
space2!(kollide::math::Vec2, f32);
space2!(kollide::math::DVec2, f64);
