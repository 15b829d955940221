//! Contact manifolds: the several points where two shapes touch, with ids a physics solver
//! can match from frame to frame.
//!
//! The contact normal comes from [`super::contact`]; each shape then gives its support face
//! along it ([`Support::support_face`]), the face better aligned with the normal is the
//! *reference*, and the other (the *incident* face) is clipped against its sides
//! (Sutherland–Hodgman). Points farther apart than the margin are dropped, and in 3D at most
//! four are kept: the deepest and those spanning the largest area.

use crate::query::Space;
mod box3d;
mod cache;
pub(crate) mod clip2d;
pub(crate) mod clip3d;

use super::contact::contact_local_warm;
use super::gjk::SimplexCache;
use crate::math::{Pose, Real};
use crate::query::contact::output::{ContactStatus, CoreContact};
use crate::shape::{Feature, Primitive, Support, SupportFace};

pub use cache::{manifold_cached, ManifoldCache, ToleranceError, DEFAULT_MAX_TURN, DEFAULT_RELATIVE_DRIFT};

/// How many points a manifold holds (4; 2D manifolds use at most 2).
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// Names a contact point by the features of each shape that produced it, so the same
/// point keeps the same id while the shapes move a little (a solver matches ids to reuse
/// last frame's impulses).
///
/// A corner of the incident face that lies inside the reference face is named by that
/// corner (`Vertex`) and the reference face (`Face`); a point where an incident edge crosses
/// a side of the reference face by the two edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactId {
    /// The feature of A.
    pub a: Feature,
    /// The feature of B.
    pub b: Feature,
}

/// One point of a [`Manifold`], in the frame of the query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManifoldPoint<V: Space> {
    /// The point on A's surface.
    pub point_a: V,
    /// The point on B's surface.
    pub point_b: V,
    /// Signed distance at this point along the manifold normal: `(point_b - point_a) ·
    /// normal`, negative when penetrating.
    pub distance: V::Real,
    /// Which features touch here.
    pub id: ContactId,
}

/// The contact points of two shapes (up to 2 in 2D, 4 in 3D) sharing one normal, in the
/// **world frame**. Empty when the shapes are farther apart than the margin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold<V: Space> {
    /// Unit normal from A towards B (zero when the manifold is empty).
    pub normal: V,
    /// How the contact normal was found.
    pub status: ContactStatus,
    points: [ManifoldPoint<V>; MAX_MANIFOLD_POINTS],
    len: usize,
}

impl<V: Space> Manifold<V> {
    /// A manifold with no points.
    #[must_use]
    pub fn empty() -> Self {
        let unknown = ContactId { a: Feature::Unknown, b: Feature::Unknown };
        let point =
            ManifoldPoint { point_a: V::ZERO, point_b: V::ZERO, distance: V::Real::ZERO, id: unknown };
        Self {
            normal: V::ZERO,
            status: ContactStatus::Converged,
            points: [point; MAX_MANIFOLD_POINTS],
            len: 0,
        }
    }

    /// The contact points.
    #[must_use]
    #[inline]
    pub fn points(&self) -> &[ManifoldPoint<V>] {
        &self.points[..self.len]
    }

    /// How many points.
    #[must_use]
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when the shapes are farther apart than the margin.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The same manifold for the pair taken the other way round (B, A): points and feature
    /// ids swapped, normal reversed.
    #[must_use]
    pub fn flipped(mut self) -> Self {
        self.normal = -self.normal;
        for p in self.points_mut() {
            core::mem::swap(&mut p.point_a, &mut p.point_b);
            p.id = ContactId { a: p.id.b, b: p.id.a };
        }
        self
    }

    /// The deepest point (least signed distance), if any.
    #[must_use]
    pub fn deepest(&self) -> Option<&ManifoldPoint<V>> {
        self.points().iter().min_by(|p, q| p.distance.to_f64().total_cmp(&q.distance.to_f64()))
    }

    /// Empties the manifold in place: no points, a zero normal, status `Converged`. The
    /// slots beyond the length keep their old points (unread, but seen by `==`): for
    /// scratch manifolds only.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.normal = V::ZERO;
        self.status = ContactStatus::Converged;
        self.len = 0;
    }

    /// Appends a point (ignored once full); returns whether it was kept.
    #[inline]
    pub(crate) fn push(&mut self, point: ManifoldPoint<V>) -> bool {
        if self.len == MAX_MANIFOLD_POINTS {
            return false;
        }
        self.points[self.len] = point;
        self.len += 1;
        true
    }

    /// The points, for rewriting in place.
    #[inline]
    pub(crate) fn points_mut(&mut self) -> &mut [ManifoldPoint<V>] {
        &mut self.points[..self.len]
    }
}

/// The contact manifold of two convex shapes: up to 2 points in 2D and 4 in 3D, each on
/// both surfaces with its own signed distance and a [`ContactId`], sharing the normal of
/// [`super::contact`]. Empty when the shapes are more than `margin` apart (a negative or NaN
/// `margin` counts as 0).
///
/// Poses and results are in the **world frame**. Faces come from
/// [`Support::support_face`]: polytopes (boxes, polygons, hulls, triangles) give faces,
/// capsules and segments lying square to the normal give both ends, cylinders their caps;
/// curved shapes and a user's shape without `support_face` give the single contact point.
///
/// ```
/// use kollide::query::manifold;
/// use kollide::shape::Cuboid;
/// use kollide::math::{DPose3, DVec3};
/// let cube = Cuboid::new(DVec3::splat(0.5));
/// let floor = Cuboid::new(DVec3::new(5.0, 0.5, 5.0));
/// // A cube resting on the floor, sunk 0.01 into it:
/// let m = manifold(&floor, &DPose3::IDENTITY, &cube, &DPose3::from_translation(DVec3::new(0.0, 0.99, 0.0)), 0.0);
/// assert_eq!(m.len(), 4);
/// assert!(m.points().iter().all(|p| (p.distance + 0.01).abs() < 1e-12));
/// ```
#[must_use]
pub fn manifold<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> Manifold<V> {
    manifold_warm(a, pose_a, b, pose_b, margin, None)
}

/// [`manifold`] whose GJK (when it runs) starts from and refills `warm`.
pub(crate) fn manifold_warm<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
    warm: Option<&mut SimplexCache<V>>,
) -> Manifold<V> {
    // As in `contact`: a negative or NaN margin counts as 0 (the clip filters by it too).
    let margin = margin.max(V::Real::ZERO);
    let pose_ab = pose_a.inv_compose(pose_b);
    if V::DIM == 3 {
        if let (Primitive::Box(ha), Primitive::Box(hb)) = (a.primitive(), b.primitive()) {
            let mut out = Manifold::empty();
            let (ra, rb) = (a.radius(), b.radius());
            match box3d::manifold(ha, hb, ra, rb, pose_a, pose_b, &pose_ab, margin, &mut out) {
                box3d::BoxManifold::Separated | box3d::BoxManifold::Done => return out,
                box3d::BoxManifold::Fallback => {}
            }
        }
    }
    general(a, pose_a, b, &pose_ab, margin, warm)
}

/// [`manifold`] by support faces and [`Space::clip_faces`], for any pair of shapes.
#[inline]
pub(crate) fn general<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_ab: &Pose<V>,
    margin: V::Real,
    warm: Option<&mut SimplexCache<V>>,
) -> Manifold<V> {
    let Some(c) = contact_local_warm(a, b, pose_ab, margin, warm, None) else {
        return Manifold::empty();
    };
    let mut out = clip_contact(a, b, pose_ab, &c, margin);
    out.normal = pose_a.transform_vector(out.normal);
    for p in out.points_mut() {
        p.point_a = pose_a.transform_point(p.point_a);
        p.point_b = pose_a.transform_point(p.point_b);
    }
    out
}

/// The manifold of the contact `c` (radii added, A's frame) by clipping the shapes' support
/// faces along its normal; in **A's frame**.
pub(crate) fn clip_contact<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    c: &CoreContact<V>,
    margin: V::Real,
) -> Manifold<V> {
    let mut out = Manifold::empty();
    out.normal = c.normal;
    out.status = c.status;
    if c.status != ContactStatus::NonFiniteSupport {
        let mut face_a = SupportFace::default();
        let mut face_b = SupportFace::default();
        a.support_face(c.normal, &mut face_a);
        b.support_face(pose_ab.inverse_transform_vector(-c.normal), &mut face_b);
        face_b.map_points(|p| pose_ab.transform_point(p));
        V::clip_faces(&face_a, &face_b, c, a.radius(), b.radius(), margin, &mut out);
    }
    if out.is_empty() {
        // Clipping found nothing (a curved shape, or faces that only touch at the contact
        // point within rounding): the contact point itself.
        push_contact_point(&mut out, c);
    }
    out
}

/// The contact of `a` and `b` (B placed by `pose_ab`) taken along the given unit normal `n`
/// (from A to B, A's frame) instead of the one a contact query would find: the signed
/// distance between the shapes' extreme planes across `n` (radii added), B's extreme point
/// and its projection onto A's plane. For a surface whose true contact normal is known,
/// a mesh face across an internal edge that must not be seen.
pub(crate) fn contact_along<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    n: V,
) -> CoreContact<V> {
    let sa = a.support(n);
    let sb = pose_ab.transform_point(b.support(pose_ab.inverse_transform_vector(-n)));
    let (ra, rb) = (a.radius(), b.radius());
    let core = (sb - sa).dot(n);
    let point_b = sb - n * rb;
    let distance = core - ra - rb;
    let status = if sa.is_finite_vec() && sb.is_finite_vec() {
        ContactStatus::Converged
    } else {
        ContactStatus::NonFiniteSupport
    };
    CoreContact { distance, normal: n, point_a: point_b - n * distance, point_b, status }
}

/// The single point of a contact (radii added, A's frame).
fn push_contact_point<V: Space>(out: &mut Manifold<V>, c: &CoreContact<V>) {
    let id = ContactId { a: Feature::Unknown, b: Feature::Unknown };
    out.push(ManifoldPoint { point_a: c.point_a, point_b: c.point_b, distance: c.distance, id });
}
