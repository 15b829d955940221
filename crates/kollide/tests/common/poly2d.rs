//! Random rectangles and convex polygons for the 2D contact and manifold tests, with their
//! world vertices in f64 for the oracle (included with `#[path]` by those test files).
#![allow(dead_code)]

use crate::common::{to_world_f64, FromParts, RotF64};
use glam::DVec2;
use kollide::math::{Pose, Real, Vector2};
use kollide::query::Space;
use kollide::shape::{ConvexPolygon, Cuboid, Primitive, Support, SupportFace};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A rectangle or a convex polygon, forwarding every `Support` method (so the dispatcher
/// sees the primitive and takes the separating-axis path).
#[derive(Clone, Debug)]
pub enum Shape2<V: Vector2 + Space> {
    Rect(Cuboid<V>),
    Poly(ConvexPolygon<V>),
}

impl<V: Vector2 + Space> Support<V> for Shape2<V> {
    fn support(&self, dir: V) -> V {
        match self {
            Self::Rect(s) => s.support(dir),
            Self::Poly(s) => s.support(dir),
        }
    }
    fn primitive(&self) -> Primitive<'_, V> {
        match self {
            Self::Rect(s) => s.primitive(),
            Self::Poly(s) => s.primitive(),
        }
    }
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        match self {
            Self::Rect(s) => s.support_face(dir, face),
            Self::Poly(s) => s.support_face(dir, face),
        }
    }
}

impl<V: Vector2 + Space> Shape2<V> {
    /// The vertices, counter-clockwise, in the local frame.
    pub fn vertices(&self) -> Vec<V> {
        match self {
            Self::Rect(r) => {
                let h = r.half_extents;
                let s = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
                s.iter().map(|&(x, y)| V::from_f64_array([x, y, 0.0]).mul_elem(h)).collect()
            }
            Self::Poly(p) => p.vertices().to_vec(),
        }
    }
}

/// A random convex polygon of 3 to 16 points on an ellipse of size about `scale`, about the
/// local origin or (one in five) beside it; a sliver (one axis 1e-4 of the other) when
/// asked.
pub fn random_polygon<V: Vector2 + Space>(
    rng: &mut ChaCha8Rng,
    scale: f64,
    sliver: bool,
) -> ConvexPolygon<V> {
    let n = rng.random_range(3..=16);
    polygon_of::<V>(rng, n, scale, sliver)
}

/// [`random_polygon`] from `n` points.
pub fn polygon_of<V: Vector2 + Space>(
    rng: &mut ChaCha8Rng,
    n: usize,
    scale: f64,
    sliver: bool,
) -> ConvexPolygon<V> {
    let rx = scale * rng.random_range(0.3..1.5);
    let ry = if sliver { rx * 1e-4 } else { scale * rng.random_range(0.3..1.5) };
    let turn: f64 = rng.random_range(0.0..std::f64::consts::TAU);
    let (c, s) = (turn.cos(), turn.sin());
    let shift = if rng.random_range(0..5) == 0 { 2.0 * scale } else { 0.0 };
    loop {
        let pts: Vec<V> = (0..n)
            .map(|_| {
                let a: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                let (x, y) = (rx * a.cos(), ry * a.sin());
                V::from_f64_array([c * x - s * y + shift, s * x + c * y, 0.0])
            })
            .collect();
        if let Ok(p) = ConvexPolygon::try_from_points(&pts) {
            return p;
        }
    }
}

/// A random rectangle of size about `scale`.
pub fn random_rect<V: Vector2 + Space>(rng: &mut ChaCha8Rng, scale: f64) -> Cuboid<V> {
    let hx = scale * rng.random_range(0.2..1.2);
    let hy = scale * rng.random_range(0.2..1.2);
    Cuboid::new(V::from_f64_array([hx, hy, 0.0]))
}

/// Which kinds a random pair is made of.
#[derive(Clone, Copy, Debug)]
pub enum PairKind {
    PolyPoly,
    RectPoly,
    PolyRect,
    RectRect,
}

pub const KINDS: [PairKind; 4] =
    [PairKind::PolyPoly, PairKind::RectPoly, PairKind::PolyRect, PairKind::RectRect];

/// A random pair of the given kind; every tenth polygon is a sliver.
pub fn random_pair<V: Vector2 + Space>(
    rng: &mut ChaCha8Rng,
    kind: PairKind,
    scale: f64,
) -> (Shape2<V>, Shape2<V>) {
    let poly = |rng: &mut ChaCha8Rng| {
        let sliver = rng.random_range(0..10) == 0;
        Shape2::Poly(random_polygon(rng, scale, sliver))
    };
    let rect = |rng: &mut ChaCha8Rng| Shape2::Rect(random_rect(rng, scale));
    match kind {
        PairKind::PolyPoly => (poly(rng), poly(rng)),
        PairKind::RectPoly => (rect(rng), poly(rng)),
        PairKind::PolyRect => (poly(rng), rect(rng)),
        PairKind::RectRect => (rect(rng), rect(rng)),
    }
}

/// A random pose whose translation is within `spread` of `centre` (every coordinate).
pub fn pose_near<V: Vector2 + Space>(rng: &mut ChaCha8Rng, centre: V, spread: f64) -> Pose<V>
where
    V::Rotation: FromParts,
{
    let off: V = crate::common::vec_in(rng, -spread, spread);
    Pose::new(centre + off, crate::common::rotation::<V>(rng))
}

/// The shape's vertices in the world, computed in f64 from the pose's own numbers.
pub fn world<V: Vector2 + Space>(s: &Shape2<V>, pose: &Pose<V>) -> Vec<DVec2>
where
    V::Rotation: RotF64<V>,
{
    s.vertices().iter().map(|&p| to_world_f64(pose, p)).map(|p| DVec2::new(p[0], p[1])).collect()
}

/// Distance from `p` to the boundary of the convex polygon `poly` (counter-clockwise).
pub fn boundary_distance(p: DVec2, poly: &[DVec2]) -> f64 {
    let n = poly.len();
    (0..n)
        .map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % n]);
            let ab = b - a;
            let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
            (p - (a + ab * t)).length()
        })
        .fold(f64::MAX, f64::min)
}

/// Distance from `p` to the solid convex polygon `poly` (0 inside).
pub fn solid_distance(p: DVec2, poly: &[DVec2]) -> f64 {
    let n = poly.len();
    let inside = (0..n).all(|i| (poly[(i + 1) % n] - poly[i]).perp_dot(p - poly[i]) >= 0.0);
    if inside {
        0.0
    } else {
        boundary_distance(p, poly)
    }
}

/// The overlap of the two point sets along the unit direction `n` (A's highest minus B's
/// lowest): the depth a contact with that normal claims.
pub fn overlap_along(wa: &[DVec2], wb: &[DVec2], n: DVec2) -> f64 {
    let ha = wa.iter().map(|p| p.dot(n)).fold(f64::MIN, f64::max);
    let lb = wb.iter().map(|p| p.dot(n)).fold(f64::MAX, f64::min);
    ha - lb
}

/// The largest coordinate magnitude of the points: the size tolerances scale with.
pub fn size_of(wa: &[DVec2], wb: &[DVec2]) -> f64 {
    wa.iter().chain(wb).map(|p| p.abs().max_element()).fold(0.0, f64::max)
}

/// `v` as a `DVec2`.
pub fn d2<V: Vector2 + Space>(v: V) -> DVec2 {
    DVec2::new(v[0].to_f64(), v[1].to_f64())
}

/// Relative tolerance of depths and points (the targets): 1e-5 in f32, 1e-10 in f64.
pub fn rel_tol<V: Vector2 + Space>() -> f64 {
    if V::Real::EPSILON.to_f64() > 1e-10 {
        1e-5
    } else {
        1e-10
    }
}
