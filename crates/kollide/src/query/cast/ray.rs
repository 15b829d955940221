//! Rays, and the ray cast against one convex shape: the dispatch to a closed form or GJK.

use crate::math::{Pose, Real, Vector};
use crate::shape::Support;
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

impl<V: Vector> Ray<V> {
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
pub struct RayHit<V: Vector> {
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
pub enum RayOutcome<V: Vector> {
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

/// Casts `ray` (world frame) against `shape` placed by `pose`, over `t` in `[0, max_toi]`.
///
/// The answer is in the world frame. Closed forms answer balls, boxes, capsules, cylinders,
/// cones, ellipsoids, segments, triangles, polygons and hulls (by their face planes), with
/// or without rounding where the closed form allows; any other shape (a user's own
/// [`Support`], a rounded hull) goes to the GJK ray cast (van den Bergen 2004), which is
/// exact to the GJK tolerance. `max_toi` may be infinite (an unbounded ray); a NaN or
/// negative `max_toi` is an empty interval: `Miss`.
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
/// ```
#[must_use]
pub fn ray_cast<V: Vector, S: Support<V> + ?Sized>(
    shape: &S,
    pose: &Pose<V>,
    ray: &Ray<V>,
    max_toi: V::Real,
) -> RayOutcome<V> {
    // NaN fails this comparison too.
    if !(max_toi >= V::Real::ZERO) {
        return RayOutcome::Miss;
    }
    let _ = (shape, pose, ray);
    todo!("ray_cast: dispatch to ray_closed / ray_gjk")
}
