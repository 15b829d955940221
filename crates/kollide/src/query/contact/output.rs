//! What a contact query answers: [`Contact`] (world frame), its [`ContactStatus`], and the
//! [`CoreContact`] of two cores that the closed forms, the separating-axis tests and EPA
//! produce.

use crate::math::Pose;
use crate::query::gjk::GjkStatus;
use crate::query::Space;

/// How a [`contact`](crate::query::contact) or [`crate::query::manifold`] query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum ContactStatus {
    /// The answer is within the documented tolerance (closed forms and separating-axis
    /// tests are exact up to rounding; GJK and EPA converged).
    Converged,
    /// Rounding stopped GJK or EPA before the tolerance was met; the normal is a valid unit
    /// vector. Apart: the distance is the best one found (realized by the points, so at
    /// least the true one). Penetrating: the normal is the searched direction with the least
    /// push found, which separates: moving B by `-distance * normal` makes the shapes touch
    /// or come apart (the reported depth is at least the true one, at most a little more;
    /// EPA stalls this way on the sharp rims of curved shapes such as cones).
    Stalled,
    /// GJK or EPA hit its iteration cap: as `Stalled`.
    MaxIterations,
    /// The cores touch or overlap in a flat way that leaves no polytope for EPA (a sliver,
    /// coincident faces): the normal is a valid unit direction and the distance is measured
    /// along it.
    Degenerate,
    /// A support function returned NaN or infinity (a user's own shape), or the arithmetic
    /// on the support points overflowed (coordinates whose squares exceed the largest float:
    /// beyond about 1e19 in `f32`, 1e154 in `f64`): nothing but this status is meaningful
    /// (the normal is an arbitrary unit vector, the distance 0, the points placeholders).
    NonFiniteSupport,
}

impl ContactStatus {
    /// The name used by the command-line tool: `"converged"`, `"stalled"`, ...
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Converged => "converged",
            Self::Stalled => "stalled",
            Self::MaxIterations => "max_iterations",
            Self::Degenerate => "degenerate",
            Self::NonFiniteSupport => "non_finite_support",
        }
    }
}

/// The answer of [`contact`](crate::query::contact), in the **world frame**.
///
/// `point_b = point_a + distance * normal` (up to rounding): when the shapes penetrate,
/// `distance < 0` and `point_a` lies inside B, `point_b` inside A.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact<V: Space> {
    /// Signed distance between the surfaces: positive when apart, negative when
    /// penetrating (minus the penetration depth: the length of the shortest translation of
    /// B that separates the shapes).
    pub distance: V::Real,
    /// Unit normal from A towards B: moving B by `-distance * normal` makes the shapes
    /// touch.
    pub normal: V,
    /// A point on A's surface.
    pub point_a: V,
    /// A point on B's surface.
    pub point_b: V,
    /// How the query ended.
    pub status: ContactStatus,
}

impl<V: Space> Contact<V> {
    /// The same contact for the pair taken the other way round (B, A): points swapped,
    /// normal reversed.
    #[must_use]
    pub fn flipped(self) -> Self {
        Self { point_a: self.point_b, point_b: self.point_a, normal: -self.normal, ..self }
    }
}

/// The contact of two cores in A's frame (radii not added).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct CoreContact<V: Space> {
    /// Signed distance between the cores.
    pub distance: V::Real,
    /// Unit normal from A towards B.
    pub normal: V,
    /// On A's core.
    pub point_a: V,
    /// On B's core.
    pub point_b: V,
    /// How it was found.
    pub status: ContactStatus,
}

impl<V: Space> CoreContact<V> {
    /// Adds the radii: moves the points out along the normal.
    #[inline]
    pub(crate) fn grow(self, radius_a: V::Real, radius_b: V::Real) -> Self {
        Self {
            distance: self.distance - radius_a - radius_b,
            point_a: self.point_a + self.normal * radius_a,
            point_b: self.point_b - self.normal * radius_b,
            ..self
        }
    }

    /// Maps to the world with A's pose.
    #[inline]
    pub(crate) fn to_world(self, pose_a: &Pose<V>) -> Contact<V> {
        Contact {
            distance: self.distance,
            normal: pose_a.transform_vector(self.normal),
            point_a: pose_a.transform_point(self.point_a),
            point_b: pose_a.transform_point(self.point_b),
            status: self.status,
        }
    }
}

impl From<GjkStatus> for ContactStatus {
    fn from(s: GjkStatus) -> Self {
        match s {
            GjkStatus::Converged | GjkStatus::Overlapping => Self::Converged,
            GjkStatus::Stalled => Self::Stalled,
            GjkStatus::MaxIterations => Self::MaxIterations,
            GjkStatus::NonFiniteSupport => Self::NonFiniteSupport,
        }
    }
}

impl<V: Space> From<crate::query::epa::EpaResult<V>> for CoreContact<V> {
    /// EPA's penetration as a signed distance.
    fn from(e: crate::query::epa::EpaResult<V>) -> Self {
        Self {
            distance: -e.depth,
            normal: e.normal,
            point_a: e.point_a,
            point_b: e.point_b,
            status: e.status.into(),
        }
    }
}

impl From<crate::query::epa::EpaStatus> for ContactStatus {
    fn from(s: crate::query::epa::EpaStatus) -> Self {
        use crate::query::epa::EpaStatus as E;
        match s {
            E::Converged => Self::Converged,
            E::Stalled => Self::Stalled,
            E::MaxIterations => Self::MaxIterations,
            E::Degenerate => Self::Degenerate,
            E::NonFiniteSupport => Self::NonFiniteSupport,
        }
    }
}
