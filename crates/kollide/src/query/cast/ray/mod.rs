//! Rays, and the ray cast against one convex shape: the dispatch to a closed form or GJK.

use crate::query::cast::numeric::ge;
mod closed;
mod gjk;

use crate::math::{Pose, Real, Rotation};
use crate::query::dispatch::{place, place_segment};
use crate::query::Space;
use crate::shape::{Primitive, Support};
use core::fmt;

/// A ray: the points `origin + t * direction` for `t >= 0`.
///
/// The direction need not be unit length: times of impact are in units of it (with a
/// direction of length 2, `toi = 1` is 2 units from the origin). Built with
/// [`Ray::try_new`], which refuses non-finite numbers and a zero direction.
///
/// ```
/// use kollide::query::cast::Ray;
/// use kollide::math::Vec3;
/// let ray = Ray::try_new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)).unwrap();
/// assert_eq!(ray.point_at(0.5), Vec3::X);
/// assert!(Ray::try_new(Vec3::ZERO, Vec3::ZERO).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray<V> {
    origin: V,
    direction: V,
}

/// Why [`Ray::try_new`] refused its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RayError {
    /// A component of the origin is NaN or infinite.
    NonFiniteOrigin {
        /// Which component (0 = x, 1 = y, 2 = z).
        component: usize,
    },
    /// A component of the direction is NaN or infinite.
    NonFiniteDirection {
        /// Which component.
        component: usize,
    },
    /// The direction is the zero vector: the ray goes nowhere.
    ZeroDirection,
}

impl fmt::Display for RayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFiniteOrigin { component } => write!(f, "origin component {component} is not finite"),
            Self::NonFiniteDirection { component } => {
                write!(f, "direction component {component} is not finite")
            }
            Self::ZeroDirection => write!(f, "direction is zero: a ray needs a non-zero direction"),
        }
    }
}

impl std::error::Error for RayError {}

impl<V: Space> Ray<V> {
    /// A ray from `origin` along `direction`.
    ///
    /// # Errors
    /// [`RayError`] naming the non-finite component, or a zero direction.
    pub fn try_new(origin: V, direction: V) -> Result<Self, RayError> {
        let (o, d) = (origin.to_f64_array(), direction.to_f64_array());
        if let Some(component) = (0..V::DIM).find(|&i| !o[i].is_finite()) {
            return Err(RayError::NonFiniteOrigin { component });
        }
        if let Some(component) = (0..V::DIM).find(|&i| !d[i].is_finite()) {
            return Err(RayError::NonFiniteDirection { component });
        }
        if (0..V::DIM).all(|i| d[i] == 0.0) {
            return Err(RayError::ZeroDirection);
        }
        Ok(Self { origin, direction })
    }

    /// [`Ray::try_new`] for values known to be good.
    ///
    /// # Panics
    /// With the message of [`RayError`] when they are not.
    #[must_use]
    pub fn new(origin: V, direction: V) -> Self {
        Self::try_new(origin, direction).unwrap_or_else(|e| panic!("Ray::new: {e}"))
    }

    /// Where the ray starts.
    #[must_use]
    pub fn origin(&self) -> V {
        self.origin
    }

    /// Its direction (not necessarily unit).
    #[must_use]
    pub fn direction(&self) -> V {
        self.direction
    }

    /// `origin + t * direction`.
    #[must_use]
    pub fn point_at(&self, t: V::Real) -> V {
        self.origin + self.direction * t
    }

    /// The same ray seen from the local frame of `pose` (pose maps local to world).
    #[must_use]
    pub fn to_local(&self, pose: &Pose<V>) -> Self {
        Self {
            origin: pose.inverse_transform_point(self.origin),
            direction: pose.inverse_transform_vector(self.direction),
        }
    }
}

/// Where a ray meets a surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit<V: Space> {
    /// The time of impact, in units of the ray's direction: the point is
    /// `origin + toi * direction`.
    pub toi: V::Real,
    /// The point on the surface.
    pub point: V,
    /// The outward unit normal of the surface there (for a flat shape, a triangle in 3D or
    /// a segment, the side facing the ray's origin).
    pub normal: V,
}

/// The answer of [`ray_cast`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RayOutcome<V: Space> {
    /// The ray enters the shape at the hit, within `[0, max_toi]`.
    Hit(RayHit<V>),
    /// The ray does not meet the shape within `[0, max_toi]`.
    Miss,
    /// The origin is in the shape (its surface included) and the ray does not leave at
    /// once: the time of impact is 0, and `exit` is where the ray leaves the shape, with the
    /// outward normal there (reported even when it lies beyond `max_toi`). A ray that starts
    /// on the surface and heads out is a `Miss`. Flat shapes (a triangle in 3D, a segment)
    /// have no inside: a ray starting on one is a `Hit` at 0.
    Inside {
        /// Where the ray leaves the shape.
        exit: RayHit<V>,
    },
}

impl<V: Space> RayOutcome<V> {
    /// The time of impact, as parry answers it: `Some(toi)` for a hit, `Some(0)` for a ray
    /// starting inside, `None` for a miss.
    #[must_use]
    pub fn toi(&self) -> Option<V::Real> {
        match self {
            Self::Hit(h) => Some(h.toi),
            Self::Inside { .. } => Some(V::Real::ZERO),
            Self::Miss => None,
        }
    }

    /// The hit, when the ray enters the shape within the interval.
    #[must_use]
    pub fn hit(&self) -> Option<RayHit<V>> {
        match self {
            Self::Hit(h) => Some(*h),
            _ => None,
        }
    }
}

/// Casts `ray` (world frame) against `shape` placed by `pose`, over `t` in `[0, max_toi]`.
///
/// The answer is in the world frame. Closed forms answer balls, boxes, capsules, cylinders,
/// cones, ellipsoids, segments, triangles, polygons and hulls (by their face planes); any
/// other shape (a user's own [`Support`], a rounded box, hull, triangle or ellipsoid) goes
/// to the GJK ray cast (van den Bergen 2004), whose hit lies within a relative `1e-5`
/// (`f32`) or `1e-10` (`f64`) of the coordinates' size of the surface. `max_toi` may be
/// infinite (an unbounded ray); a NaN or negative `max_toi` is an empty interval: `Miss`.
///
/// Solids are closed: a ray that only grazes the surface (a tangent, an edge) hits it. The
/// point of an answer is `ray.point_at(toi)`; the normal is unit. Degenerate input: a shape
/// whose [`Support::radius`] is negative or not finite, or whose support function returns
/// a non-finite point, is never hit (`Miss`); the direction is rescaled internally by a
/// power of two (exact; the answer is still in units of the given direction; with a
/// direction so small that the time overflows, `toi` is infinite and the point is still the
/// finite point hit).
///
/// Never panics; nothing in the answer is NaN.
///
/// ```
/// use kollide::query::cast::{ray_cast, Ray, RayOutcome};
/// use kollide::shape::Ball;
/// use kollide::math::{DPose3, DVec3};
/// let ball = Ball::new(1.0);
/// let ray = Ray::new(DVec3::new(-5.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 0.0));
/// let RayOutcome::Hit(hit) = ray_cast(&ball, &DPose3::IDENTITY, &ray, f64::INFINITY) else { panic!() };
/// assert!((hit.toi - 2.0).abs() < 1e-12); // 4 units at 2 units per unit of time
/// assert!((hit.normal - DVec3::NEG_X).length() < 1e-12);
///
/// // From inside: where the ray leaves, even beyond max_toi.
/// let inside = Ray::new(DVec3::ZERO, DVec3::Y);
/// let RayOutcome::Inside { exit } = ray_cast(&ball, &DPose3::IDENTITY, &inside, 0.5) else { panic!() };
/// assert!((exit.point - DVec3::Y).length() < 1e-12 && (exit.normal - DVec3::Y).length() < 1e-12);
/// ```
#[must_use]
#[inline]
pub fn ray_cast<V: Space, S: Support<V> + ?Sized>(
    shape: &S,
    pose: &Pose<V>,
    ray: &Ray<V>,
    max_toi: V::Real,
) -> RayOutcome<V> {
    cast_world(shape, pose, ray, max_toi)
}

/// The body of [`ray_cast`], inlined into it and into [`ray_toi`] so that the compiler
/// drops the point and normal (and an inside origin's exit) where only the time is read.
#[inline(always)]
fn cast_world<V: Space, S: Support<V> + ?Sized>(
    shape: &S,
    pose: &Pose<V>,
    ray: &Ray<V>,
    max_toi: V::Real,
) -> RayOutcome<V> {
    // NaN is not at least 0 either.
    if !ge(max_toi, V::Real::ZERO) {
        return RayOutcome::Miss;
    }
    let r = shape.radius();
    if !(r >= V::Real::ZERO && r.is_finite()) {
        return RayOutcome::Miss;
    }
    // Keep squares and products of the direction far from overflow and underflow: the
    // direction is brought to a largest component in [1, 2) by a power of two, which is
    // exact (every answer rounds as it would unscaled), and times are scaled back by it.
    // (Rescaling only directions beyond 1e±8 left a direction of 1e6 against a cone 1e17
    // wide in f32, whose quadratic's terms of 1e46 overflowed: an origin far outside was
    // reported inside; fuzz target `casts`. Within [1/16, 16] they stay below 1e37 for
    // positions up to 1e17.) A rotation changes the largest component by at most √3, so
    // the bound holds in either frame.
    let (origin, mut direction) = (ray.origin, ray.direction);
    // Directions already near unit size skip it (the common case; the multiplications keep
    // the compiler from dropping an unused point and normal). `Ray` refuses zero and
    // non-finite directions.
    let largest = direction.abs_elem().max_component();
    let rescaled = !(largest >= V::Real::from_f64(0.0625) && largest <= V::Real::from_f64(16.0));
    let mut limit = max_toi;
    let mut pow2 = V::Real::ONE;
    if rescaled {
        pow2 = largest.recip_pow2();
        direction = direction * pow2;
        limit = max_toi / pow2;
    }
    let unscale = |toi: V::Real| if rescaled { toi * pow2 } else { toi };
    // The point at the unscaled time `t` (`ts` rescaled). With a direction near the
    // smallest numbers `t` can overflow to ∞, and `point_at(∞)` would be NaN (0 × ∞) or ∞:
    // the point then comes from the rescaled direction, where it is finite and exact.
    let place_at =
        |t: V::Real, ts: V::Real| if t.is_finite() { ray.point_at(t) } else { origin + direction * ts };
    // Balls and capsules are answered in the world frame: their cores are placed with at
    // most one rotation, and neither the ray nor the normal needs turning.
    let world = match shape.primitive() {
        Primitive::Point(p) if r > V::Real::ZERO => {
            Some(closed::sphere(place(pose, p), r, origin, direction, limit))
        }
        Primitive::Segment(a, b) if r > V::Real::ZERO => {
            // A segment centred on its origin (a capsule's) is placed by one rotation of its
            // half axis, exactly as given; others by their placed ends.
            let (centre, e) = if b == -a {
                (pose.translation, pose.transform_vector(b))
            } else {
                let (a, b) = place_segment(pose, (a, b));
                ((a + b) * V::Real::HALF, (b - a) * V::Real::HALF)
            };
            Some(closed::capsule(centre, e, r, origin, direction, limit))
        }
        _ => None,
    };
    if let Some(cast) = world {
        let finish = |ts: V::Real, normal: V| {
            let toi = unscale(ts);
            RayHit { toi, point: place_at(toi, ts), normal }
        };
        return match cast {
            Cast::Miss => RayOutcome::Miss,
            Cast::Hit(toi, normal) => RayOutcome::Hit(finish(toi, normal)),
            Cast::Inside(toi, normal) => RayOutcome::Inside { exit: finish(toi, normal) },
        };
    }
    // The rest in the shape's frame, the rotation applied as a matrix (three rotations:
    // origin and direction in, the normal out).
    let m = pose.rotation.applied();
    let o = V::Rotation::apply_inverse(&m, origin - pose.translation);
    let d = V::Rotation::apply_inverse(&m, direction);
    let finish = |ts: V::Real, normal: V| {
        let toi = unscale(ts);
        RayHit { toi, point: place_at(toi, ts), normal: V::Rotation::apply(&m, normal) }
    };
    match cast_local(shape, r, o, d, limit) {
        Cast::Miss => RayOutcome::Miss,
        Cast::Hit(toi, normal) => RayOutcome::Hit(finish(toi, normal)),
        Cast::Inside(toi, normal) => RayOutcome::Inside { exit: finish(toi, normal) },
    }
}

/// A ray prepared once for many triangles in its own frame (a mesh's): the work
/// [`ray_cast`] of a [`Triangle`](crate::shape::Triangle) at the identity pose does per
/// call, done once per ray. Each [`hit`](Self::hit) is that call's answer bit for bit
/// (the same direction scaling, the same identity rotation applied), and
/// [`outcome`](Self::outcome) builds its [`RayOutcome`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct TriangleRay<V: Space> {
    ray: Ray<V>,
    /// The ray in the triangles' frame, its direction scaled as `cast_world` scales it.
    o: V,
    d: V,
    /// The scaled direction in the ray's own frame.
    scaled: V,
    rescaled: bool,
    pow2: V::Real,
}

/// A triangle crossing found by [`TriangleRay::hit`]: the time, the scaled time and the
/// normal in the triangles' frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TriangleCrossing<V: Space> {
    pub toi: V::Real,
    ts: V::Real,
    normal: V,
}

impl<V: Space> TriangleRay<V> {
    #[inline]
    pub(crate) fn new(ray: &Ray<V>) -> Self {
        let direction = ray.direction;
        let largest = direction.abs_elem().max_component();
        let rescaled = !(largest >= V::Real::from_f64(0.0625) && largest <= V::Real::from_f64(16.0));
        let pow2 = if rescaled { largest.recip_pow2() } else { V::Real::ONE };
        let direction = if rescaled { direction * pow2 } else { direction };
        let m = Pose::<V>::IDENTITY.rotation.applied();
        let o = V::Rotation::apply_inverse(&m, ray.origin - Pose::<V>::IDENTITY.translation);
        let d = V::Rotation::apply_inverse(&m, direction);
        Self { ray: *ray, o, d, scaled: direction, rescaled, pow2 }
    }

    /// `max_toi` in the scaled direction's time, as `cast_world` scales it; `None` for a
    /// negative or NaN one.
    #[inline(always)]
    fn scaled_limit(&self, max_toi: V::Real) -> Option<V::Real> {
        ge(max_toi, V::Real::ZERO).then(|| if self.rescaled { max_toi / self.pow2 } else { max_toi })
    }

    /// The crossing at the scaled time `ts`, its time scaled back.
    #[inline(always)]
    fn crossing(&self, ts: V::Real, normal: V) -> TriangleCrossing<V> {
        let toi = if self.rescaled { ts * self.pow2 } else { ts };
        TriangleCrossing { toi, ts, normal }
    }

    /// The crossing of triangle `a b c` within `[0, max_toi]`, as [`ray_cast`] finds it.
    #[inline]
    pub(crate) fn hit(&self, a: V, b: V, c: V, max_toi: V::Real) -> Option<TriangleCrossing<V>> {
        let limit = self.scaled_limit(max_toi)?;
        match closed::triangle(a, b, c, self.o, self.d, limit) {
            Cast::Hit(ts, normal) => Some(self.crossing(ts, normal)),
            // A flat triangle has no inside (a start on it is a hit at 0).
            Cast::Miss | Cast::Inside(..) => None,
        }
    }

    /// The first of `triangles` the ray crosses within `[0, max_toi]`: each triangle's
    /// [`hit`](Self::hit) in turn, the time found so far as the next one's limit, a later
    /// triangle at the same time replacing an earlier one. In 3D four triangles at a time
    /// run `flat_triangle`'s common path as lanes (its answers bit for bit); only the lanes
    /// off that path go through `hit` one at a time.
    #[inline]
    pub(crate) fn first_hit(
        &self,
        triangles: &[[V; 3]],
        max_toi: V::Real,
    ) -> Option<(usize, TriangleCrossing<V>)> {
        let mut best = None;
        let mut limit = max_toi;
        let offer = |k: usize, limit: &mut V::Real, best: &mut Option<(usize, TriangleCrossing<V>)>| {
            let [a, b, c] = triangles[k];
            if let Some(hit) = self.hit(a, b, c, *limit) {
                *limit = hit.toi;
                *best = Some((k, hit));
            }
        };
        if V::DIM != 3 {
            for k in 0..triangles.len() {
                offer(k, &mut limit, &mut best);
            }
            return best;
        }
        for start in (0..triangles.len()).step_by(4) {
            let group = &triangles[start..triangles.len().min(start + 4)];
            // Lanes past the group's end repeat its last triangle.
            let last = group.len() - 1;
            let [t0, t1, t2, t3] = [group[0], group[1.min(last)], group[2.min(last)], group[3.min(last)]];
            let corner = |i: usize| {
                let axis = |k: usize| [t0[i][k], t1[i][k], t2[i][k], t3[i][k]];
                [axis(0), axis(1), axis(2)]
            };
            let (o, d) = ([self.o[0], self.o[1], self.o[2]], [self.d[0], self.d[1], self.d[2]]);
            let four = closed::flat_triangle4(&corner(0), &corner(1), &corner(2), o, d);
            let mut left = (four.special | four.crossed) & ((1u8 << group.len()) - 1);
            // In slot order, as `hit` one triangle at a time would see them.
            while left != 0 {
                let k = left.trailing_zeros() as usize & 3;
                left &= left - 1;
                if four.special & (1 << k) != 0 {
                    offer(start + k, &mut limit, &mut best);
                    continue;
                }
                // `hit`'s arithmetic on the lane's answer.
                let ts = four.t[k];
                if self.scaled_limit(limit).is_some_and(|scaled| ts <= scaled) {
                    // (Through f64 and back: exact.)
                    let normal = V::from_f64_array(four.normal.map(|x| x[k].to_f64()));
                    let hit = self.crossing(ts, normal);
                    limit = hit.toi;
                    best = Some((start + k, hit));
                }
            }
        }
        best
    }

    /// The [`RayOutcome`] of a crossing, as [`ray_cast`] reports it.
    #[inline]
    pub(crate) fn outcome(&self, x: TriangleCrossing<V>) -> RayOutcome<V> {
        let point =
            if x.toi.is_finite() { self.ray.point_at(x.toi) } else { self.ray.origin + self.scaled * x.ts };
        let m = Pose::<V>::IDENTITY.rotation.applied();
        RayOutcome::Hit(RayHit { toi: x.toi, point, normal: V::Rotation::apply(&m, x.normal) })
    }
}

/// The time of impact alone: [`ray_cast`] for callers that need only *whether* and *when*
/// (line of sight, picking, a bullet's range).
///
/// `Some(toi)` for a hit within `[0, max_toi]`, `Some(0)` when the origin is inside the shape
/// (the [`RayOutcome::Inside`] case), `None` for a miss. Same method and accuracy as
/// [`ray_cast`]; it is faster because nothing is spent on the point and the normal (the
/// compiler drops their arithmetic once the call is inlined).
///
/// ```
/// use kollide::query::cast::{ray_toi, Ray};
/// use kollide::shape::Cuboid;
/// use kollide::math::{Pose2, Vec2};
/// let wall = Cuboid::new(Vec2::new(0.5, 3.0));
/// let ray = Ray::new(Vec2::new(-4.0, 1.0), Vec2::X);
/// assert_eq!(ray_toi(&wall, &Pose2::IDENTITY, &ray, 10.0), Some(3.5));
/// assert_eq!(ray_toi(&wall, &Pose2::IDENTITY, &ray, 3.0), None); // out of range
/// ```
#[must_use]
#[inline]
pub fn ray_toi<V: Space, S: Support<V> + ?Sized>(
    shape: &S,
    pose: &Pose<V>,
    ray: &Ray<V>,
    max_toi: V::Real,
) -> Option<V::Real> {
    match cast_world(shape, pose, ray, max_toi) {
        RayOutcome::Hit(hit) => Some(hit.toi),
        RayOutcome::Inside { .. } => Some(V::Real::ZERO),
        RayOutcome::Miss => None,
    }
}

/// Hulls with up to this many faces are cast by clipping their face planes; bigger ones by
/// the GJK ray cast, which climbs the hull instead (the crossover measured on the bench's
/// `hull64` rays; BENCHMARKS.md).
const MAX_CLIPPED_FACES: usize = 96;

/// A ray cast's answer in the shape's local frame, before the points are placed: the time
/// and the outward unit normal of the entry (`Hit`) or of the exit (`Inside`).
#[derive(Clone, Copy, Debug)]
pub(super) enum Cast<V: Space> {
    Miss,
    Hit(V::Real, V),
    Inside(V::Real, V),
}

/// The one dispatch of the ray cast, in the shape's local frame: a closed form where the
/// core has one, GJK otherwise.
#[inline(always)]
fn cast_local<V: Space, S: Support<V> + ?Sized>(
    shape: &S,
    r: V::Real,
    o: V,
    d: V,
    max_toi: V::Real,
) -> Cast<V> {
    let sharp = r == V::Real::ZERO;
    match shape.primitive() {
        // (Rounded points and segments, balls and capsules, were answered in the world.)
        Primitive::Point(p) if sharp => closed::segment(p, p, o, d, max_toi),
        Primitive::Segment(a, b) if sharp => closed::segment(a, b, o, d, max_toi),
        Primitive::Box(h) if sharp => closed::cuboid(h, o, d, max_toi),
        Primitive::Polygon(p) if sharp => {
            let cast = or_gjk(closed::planes(p.edge_planes(), o, d, max_toi), shape, o, d, max_toi);
            within_reach(cast, p.outer_radius(), shape, o, d, max_toi)
        }
        // Clipping is linear in the faces; GJK's ray cast climbs the hull instead, so it
        // takes the hulls with more faces than the crossover.
        Primitive::Hull(h) if sharp && h.plane_count() <= MAX_CLIPPED_FACES => {
            or_gjk(closed::planes(h.face_planes_iter(), o, d, max_toi), shape, o, d, max_toi)
        }
        Primitive::Triangle(a, b, c) if sharp => closed::triangle(a, b, c, o, d, max_toi),
        Primitive::Ellipsoid(radii) if sharp => closed::ellipsoid(radii, o, d, max_toi),
        // (Only 3D shapes name these; a 2D user shape that did would go to GJK.)
        Primitive::Cylinder(e) if sharp && V::DIM == 3 => closed::cylinder(e, o, d, max_toi),
        Primitive::Cone(e) if sharp && V::DIM == 3 => closed::cone(e, o, d, max_toi),
        _ => gjk::cast(shape, o, d, max_toi),
    }
}

/// A clipping answer GJK's ray cast, which needs only the support function, answers instead:
/// - one whose time is not finite: rounding lost the planes that bound the ray (a ray along a
///   polygon's diagonal to a corner 1e17 out, in f32, whose two edges there rounded to
///   exactly parallel to it: "inside, leaving at infinity", found by the fuzz target `casts`);
/// - one at a plane the ray grazes (`|n · d| < ∛ε |d|`): the crossing time is the plane's
///   offset over `n · d`, so its error is the rounding of the coordinates over the sine of
///   the angle. A ray along a sliver face of a hull, entering at a corner, at 5e-12 rad to
///   the face, was reported hitting it 1.4e-4 before the corner, off the hull (`f64`, fuzz
///   target `casts`); the other face planes nearly held the ray's line too, so only the
///   vertices (the support function) place the entry. At the threshold the error would be
///   about `ε^(2/3)` of the coordinates (`4e-11` in `f64`, `2.4e-5` in `f32`). Of uniformly
///   random directions, a fraction `∛ε` grazes a given plane: 0.5% in `f32`, 6e-6 in `f64`.
#[inline(always)]
fn or_gjk<V: Space, S: Support<V> + ?Sized>(
    cast: Cast<V>,
    shape: &S,
    o: V,
    d: V,
    max_toi: V::Real,
) -> Cast<V> {
    let grazes = |n: V| {
        // ∛ε as a constant (a cube root per ray would cost more than a polygon's clipping).
        let graze = if V::Real::EPSILON > V::Real::from_f64(1e-10) {
            V::Real::from_f64(4.92e-3)
        } else {
            V::Real::from_f64(6.06e-6)
        };
        let nd = n.dot(d);
        nd * nd < graze * graze * n.length_squared() * d.length_squared()
    };
    match cast {
        Cast::Hit(t, n) | Cast::Inside(t, n) if !t.is_finite() || grazes(n) => {
            gjk::cast(shape, o, d, max_toi)
        }
        other => other,
    }
}

/// A polygon's clipping answer checked against the polygon's reach (`outer`, the largest
/// vertex norm): on a sliver (a polygon 1e-12 wide and 0.77 long, in f32) the edge lines are
/// parallel within rounding, and a ray crossing them far from the polygon was reported
/// hitting it 6.4 away (fuzz target `casts`). A point beyond the reach, plus rounding, goes
/// to GJK's ray cast. (Sliver triangles are answered by their edges for the same reason.)
#[inline(always)]
fn within_reach<V: Space, S: Support<V> + ?Sized>(
    cast: Cast<V>,
    outer: V::Real,
    shape: &S,
    o: V,
    d: V,
    max_toi: V::Real,
) -> Cast<V> {
    if let Cast::Hit(t, _) | Cast::Inside(t, _) = cast {
        let p = o + d * t;
        let slack = V::Real::EPSILON * V::Real::from_usize(64) * (outer + o.abs_elem().max_component());
        let reach = outer + slack;
        if p.length_squared() > reach * reach {
            return gjk::cast(shape, o, d, max_toi);
        }
    }
    cast
}
