//! [`Found`]: a query's answer and where it came from.

use crate::query::cast::{CastOutput, RayOutcome, SweepOutcome};
use crate::query::Space;

/// A query's answer and where it came from: the part of each side that gave it (a
/// triangle's index in a mesh or heightfield, a segment's in a polyline or 2D terrain, a
/// part's in a compound, a piece's in a concave polygon; `None` for a convex shape) and,
/// for the queries of a [`World`](crate::world::World), the body (`B = BodyId`; `()`
/// elsewhere).
///
/// The value has the conventions of the convex query that produced it, in the world frame:
/// A is the first shape of the call (the composite of a `composite::` query, the body of a
/// world query) and B the second.
///
/// ```
/// use kollide::composite::{self, TriMesh};
/// use kollide::query::cast::Ray;
/// use kollide::math::{DPose3, DVec3};
/// let floor = TriMesh::new(
///     vec![DVec3::new(-1.0, 0.0, -1.0), DVec3::new(1.0, 0.0, -1.0), DVec3::new(1.0, 0.0, 1.0), DVec3::new(-1.0, 0.0, 1.0)],
///     vec![[0, 2, 1], [0, 3, 2]],
/// );
/// let ray = Ray::new(DVec3::new(0.5, 3.0, -0.5), DVec3::NEG_Y);
/// let hit = composite::ray_cast(&floor, &DPose3::IDENTITY, &ray, 10.0).unwrap();
/// assert_eq!(hit.toi(), Some(3.0));
/// assert_eq!(hit.part_a, Some(0)); // the first triangle
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Found<T, B = ()> {
    /// The answer.
    pub value: T,
    /// The part of A, when A is a composite.
    pub part_a: Option<u32>,
    /// The part of B, when B is a composite.
    pub part_b: Option<u32>,
    /// The body, for a world's queries.
    pub body: B,
}

impl<T> Found<T> {
    /// An answer between convex shapes: no parts.
    #[must_use]
    pub fn new(value: T) -> Self {
        Self { value, part_a: None, part_b: None, body: () }
    }

    /// An answer from part `part` of A.
    #[must_use]
    pub fn on_part(part: u32, value: T) -> Self {
        Self { value, part_a: Some(part), part_b: None, body: () }
    }

    /// The same answer from a world's body.
    #[must_use]
    pub fn with_body<B>(self, body: B) -> Found<T, B> {
        Found { value: self.value, part_a: self.part_a, part_b: self.part_b, body }
    }
}

impl<T, B> Found<T, B> {
    /// The same answer for the pair taken the other way round: the parts swapped and the
    /// value turned by `flip` (a query's `flipped`).
    #[must_use]
    pub fn swapped(self, flip: impl FnOnce(T) -> T) -> Self {
        Found { value: flip(self.value), part_a: self.part_b, part_b: self.part_a, body: self.body }
    }

    /// The answer changed by `f`, from the same parts and body.
    #[must_use]
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Found<U, B> {
        Found { value: f(self.value), part_a: self.part_a, part_b: self.part_b, body: self.body }
    }
}

impl<V: Space, B> Found<RayOutcome<V>, B> {
    /// The time of impact: [`RayOutcome::toi`].
    #[must_use]
    pub fn toi(&self) -> Option<V::Real> {
        self.value.toi()
    }
}

impl<V: Space, B> Found<CastOutput<V>, B> {
    /// The time of impact: [`CastOutput::hit_toi`].
    #[must_use]
    pub fn toi(&self) -> Option<V::Real> {
        self.value.hit_toi()
    }
}

impl<V: Space, B> Found<SweepOutcome<V>, B> {
    /// The time of impact: [`SweepOutcome::toi`].
    #[must_use]
    pub fn toi(&self) -> Option<V::Real> {
        self.value.toi()
    }
}
