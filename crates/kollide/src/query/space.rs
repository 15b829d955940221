//! [`Space`]: the vector types queries run on, with the algorithms that differ between 2D
//! and 3D (the GJK simplex solver, EPA, the polytope separating-axis test, face clipping).
//!
//! `math::Vector` is arithmetic only; what depends on the dimension beyond arithmetic lives
//! here, in the query layer, so `math` needs nothing above it.

use crate::math::{Pose, Vector};
use crate::query::box_distance::FeatureGap;
use crate::query::contact::output::CoreContact;
use crate::query::epa::{EpaResult, EpaStep};
use crate::query::gjk::simplex::{Simplex, SubSimplex};
use crate::query::manifold::Manifold;
use crate::query::sat::{SatOutcome, SatTrace};
use crate::shape::{Primitive, Support, SupportFace};
use glam::{DVec2, DVec3, Vec2, Vec3};

/// A vector type kollide's queries run on: [`Vec2`], [`DVec2`], [`Vec3`] or [`DVec3`].
///
/// Sealed through its supertrait [`Vector`], which only glam's four types implement.
/// Generic code that calls a query names this bound (`fn f<V: Space>`); code that
/// only does arithmetic or builds shapes needs just [`Vector`]. The methods are the
/// per-dimension algorithms and are hidden: call the queries instead.
pub trait Space: Vector {
    /// The simplex sub-algorithm of GJK for this dimension (signed volumes): finds the
    /// point of the simplex closest to the origin and the vertices it needs. Pure: the
    /// caller applies the answer with `Simplex::reduce_to`.
    #[doc(hidden)]
    fn solve_simplex(simplex: &Simplex<Self>) -> SubSimplex<Self>;

    /// EPA for this dimension, on the cores of `a` and `b` (B placed by `pose_ab`) starting
    /// from GJK's final simplex, which encloses the origin or touches it.
    #[doc(hidden)]
    fn penetration<A: Support<Self> + ?Sized, B: Support<Self> + ?Sized>(
        a: &A,
        b: &B,
        pose_ab: &Pose<Self>,
        simplex: &Simplex<Self>,
        trace: Option<&mut Vec<EpaStep<Self>>>,
    ) -> EpaResult<Self>;

    /// The separating-axis contact of two polytope cores (boxes, polygons, hulls) of this
    /// dimension, B placed by `pose_ab`; `threshold` is how far apart the cores are of
    /// interest.
    #[doc(hidden)]
    fn polytope_contact(
        a: Primitive<'_, Self>,
        b: Primitive<'_, Self>,
        pose_ab: &Pose<Self>,
        threshold: Self::Real,
        trace: SatTrace<'_, Self>,
    ) -> SatOutcome<Self>;

    /// Whether the polytope cores of `a` and `b` (B placed by `pose_ab`) overlap, where
    /// their edges decide it without a contact: `Some(false)` when an edge separates them by
    /// more than `threshold`, `Some(true)` when none separates them at all; `None`
    /// otherwise (then [`Space::polytope_contact`] answers). 2D only: `None` in 3D, whose
    /// hull SAT does not answer intersection questions.
    #[doc(hidden)]
    fn polytope_overlaps(
        a: Primitive<'_, Self>,
        b: Primitive<'_, Self>,
        pose_ab: &Pose<Self>,
        threshold: Self::Real,
    ) -> Option<bool>;

    /// Clips the support faces of the cores (both in A's frame) along the contact `contact`
    /// (radii added) into `out`, in A's frame.
    #[doc(hidden)]
    fn polytope_distance(
        a: Primitive<'_, Self>,
        b: Primitive<'_, Self>,
        pose_ab: &Pose<Self>,
        rel: Self::Real,
    ) -> Option<FeatureGap<Self>>;

    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    fn clip_faces(
        face_a: &SupportFace<Self>,
        face_b: &SupportFace<Self>,
        contact: &CoreContact<Self>,
        radius_a: Self::Real,
        radius_b: Self::Real,
        margin: Self::Real,
        out: &mut Manifold<Self>,
    );
}

/// Implements [`Space`] for vector type `$v` with the named per-dimension modules.
macro_rules! impl_space {
    ($v:ident, $r:ident, $simplex:ident, $epa:ident, $sat:ident, $clip:ident) => {
        impl Space for $v {
            #[inline]
            fn solve_simplex(simplex: &Simplex<Self>) -> SubSimplex<Self> {
                crate::query::gjk::$simplex::solve(simplex)
            }
            #[inline]
            fn penetration<A: Support<Self> + ?Sized, B: Support<Self> + ?Sized>(
                a: &A,
                b: &B,
                pose_ab: &Pose<Self>,
                simplex: &Simplex<Self>,
                trace: Option<&mut Vec<EpaStep<Self>>>,
            ) -> EpaResult<Self> {
                crate::query::epa::$epa::penetration(a, b, pose_ab, simplex, trace)
            }
            #[inline]
            fn polytope_contact(
                a: Primitive<'_, Self>,
                b: Primitive<'_, Self>,
                pose_ab: &Pose<Self>,
                threshold: $r,
                trace: SatTrace<'_, Self>,
            ) -> SatOutcome<Self> {
                crate::query::sat::$sat::contact(a, b, pose_ab, threshold, trace)
            }
            #[inline]
            fn polytope_overlaps(
                a: Primitive<'_, Self>,
                b: Primitive<'_, Self>,
                pose_ab: &Pose<Self>,
                threshold: $r,
            ) -> Option<bool> {
                crate::query::sat::$sat::overlaps(a, b, pose_ab, threshold)
            }
            #[inline]
            fn polytope_distance(
                a: Primitive<'_, Self>,
                b: Primitive<'_, Self>,
                pose_ab: &Pose<Self>,
                rel: $r,
            ) -> Option<FeatureGap<Self>> {
                crate::query::sat::$sat::distance(a, b, pose_ab, rel)
            }
            #[inline]
            fn clip_faces(
                face_a: &SupportFace<Self>,
                face_b: &SupportFace<Self>,
                contact: &CoreContact<Self>,
                radius_a: $r,
                radius_b: $r,
                margin: $r,
                out: &mut Manifold<Self>,
            ) {
                crate::query::manifold::$clip::clip(face_a, face_b, contact, radius_a, radius_b, margin, out);
            }
        }
    };
}

impl_space!(Vec2, f32, simplex2d, epa2d, polygon2d, clip2d);
impl_space!(DVec2, f64, simplex2d, epa2d, polygon2d, clip2d);
impl_space!(Vec3, f32, simplex3d, epa3d, polytope3d, clip3d);
impl_space!(DVec3, f64, simplex3d, epa3d, polytope3d, clip3d);
