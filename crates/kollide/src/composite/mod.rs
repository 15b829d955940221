//! Non-convex shapes made of convex parts: triangle meshes ([`TriMesh`], also read from
//! files by [`TriMesh::from_file`], welded by [`Weld`], diagnosed by [`TriMesh::report`]),
//! polylines ([`Polyline`]), heightfield terrain ([`HeightField`], [`HeightField2d`]),
//! compounds of convex shapes ([`Compound`]) and concave polygons ([`ConcavePolygon`], 2D).
//!
//! A composite answers every query **through its parts** (a rule of ARCHITECTURE.md): its
//! acceleration structure (a [`Bvh`](crate::bvh::Bvh), or the grid of a heightfield)
//! proposes the candidate parts, the convex query (GJK, the separating axes, the closed
//! forms, the casts) answers each, and the answers are merged. There is one GJK; a
//! composite never grows a second. Answers name the part they came from: a triangle's
//! index, a segment's, a compound's part.
//!
//! Meshes and terrains know which of their edges are real: an internal edge between two
//! triangles of a flat floor is not a surface a ball can bump into, so a contact found on
//! such an edge is taken along the face normal instead (no ghost contacts).

use crate::query::Space;
/// The walks of a composite whose parts sit in a [`Bvh`](crate::bvh::Bvh) (an expression
/// of the implementing type reached from `self`): the `Composite` methods that only forward
/// to the tree, written once.
macro_rules! walks_of_bvh {
    ($self:ident => $bvh:expr) => {
        fn local_aabb(&$self) -> crate::math::Aabb<V> {
            $bvh.root_aabb()
        }

        fn visit_overlaps(&$self, aabb: &crate::math::Aabb<V>, f: impl FnMut(u32) -> bool) -> bool {
            $bvh.visit_overlaps(aabb, f)
        }

        fn visit_overlaps_boxed(
            &$self,
            aabb: &crate::math::Aabb<V>,
            f: impl FnMut(u32, &crate::math::Aabb<V>) -> bool,
        ) -> Option<bool> {
            Some($bvh.visit_overlaps_boxed(aabb, f))
        }

        fn nearest(
            &$self,
            max: V::Real,
            lower: impl FnMut(&crate::math::Aabb<V>) -> V::Real,
            f: impl FnMut(u32, V::Real) -> Option<V::Real>,
        ) -> Option<(u32, V::Real)> {
            $bvh.nearest(max, lower, f)
        }

        fn cast_ray(
            &$self,
            origin: V,
            dir: V,
            max_toi: V::Real,
            f: impl FnMut(u32, V::Real) -> Option<V::Real>,
        ) -> Option<(u32, V::Real)> {
            $bvh.cast_ray(origin, dir, max_toi, f)
        }

        fn visit_ray(&$self, origin: V, dir: V, max_toi: V::Real, f: impl FnMut(u32) -> bool) -> bool {
            $bvh.visit_ray(origin, dir, max_toi, f)
        }

        fn cast_aabb(
            &$self,
            aabb: &crate::math::Aabb<V>,
            motion: V,
            max_toi: V::Real,
            f: impl FnMut(u32, V::Real) -> Option<V::Real>,
        ) -> Option<(u32, V::Real)> {
            $bvh.cast_aabb(aabb, motion, max_toi, f)
        }
    };
}

mod cast;
mod compound;
mod concave_polygon2d;
mod concave_queries2d;
mod found;
mod heightfield;
mod internal_edges;
mod mesh_file;
mod mesh_report;
mod pair;
mod polyline2d;
mod query;
mod sweep;
mod trimesh3d;
mod weld;

pub(crate) use cast::earlier;
pub use cast::{ray_cast, ray_hits, shape_cast};
pub use compound::{Compound, CompoundError};
pub use concave_polygon2d::ConcavePolygon;
pub use found::Found;
pub use heightfield::{HeightField, HeightField2d, HeightFieldError};
pub use mesh_file::{MeshFileError, MeshFileErrorKind, MeshFormat};
pub use mesh_report::{MeshReport, SLIVER_RATIO};
pub use pair::{pair_contact, pair_distance, pair_intersects, pair_manifold, pair_shape_cast};
pub use polyline2d::{Polyline, PolylineError};
pub use query::{contact, distance, intersects, manifold, manifold_cached, PartManifold, PartManifoldCache};
pub use sweep::{sweep, SoupParts};
pub use trimesh3d::{TriMesh, TriMeshError};
pub use weld::Weld;

use crate::math::{Aabb, Pose, Real};
use crate::query::cast::{Ray, RayOutcome};
use crate::shape::{Feature, Support};

/// A shape made of convex parts, numbered `0..part_count()`, in its **local frame**.
///
/// Implemented by every composite of this module; the queries of this module
/// ([`distance`], ...) are written once over it. The traversal methods have the
/// contracts of [`Bvh`](crate::bvh::Bvh)'s methods of the same names.
pub trait Composite<V: Space> {
    /// A part: a convex shape in the composite's local frame once placed by
    /// [`part_pose`](Composite::part_pose).
    type Part<'a>: Support<V>
    where
        Self: 'a;

    /// How many parts.
    fn part_count(&self) -> usize;

    /// Part `i` (`i < part_count()`).
    fn part(&self, i: u32) -> Self::Part<'_>;

    /// Where part `i` sits in the composite's frame; `None` for the identity (mesh
    /// triangles are stored in place).
    #[inline(always)]
    fn part_pose(&self, i: u32) -> Option<Pose<V>> {
        let _ = i;
        None
    }

    /// The box holding every part, in the local frame.
    fn local_aabb(&self) -> Aabb<V>;

    /// Parts whose boxes meet `aabb` (local frame); `f` returns false to stop. Returns
    /// false when stopped.
    fn visit_overlaps(&self, aabb: &Aabb<V>, f: impl FnMut(u32) -> bool) -> bool;

    /// [`visit_overlaps`](Composite::visit_overlaps) with each part's box, the one the walk
    /// tested (local frame), when the composite keeps such boxes: parts come in an order
    /// in which those met by any box inside `aabb` come in the order `visit_overlaps` gives
    /// them for that box, so a list made for `aabb` answers for every box inside it.
    /// `None`, without a call, when the composite computes its boxes as it walks (the
    /// default; a heightfield's grid).
    fn visit_overlaps_boxed(&self, aabb: &Aabb<V>, f: impl FnMut(u32, &Aabb<V>) -> bool) -> Option<bool> {
        let _ = (aabb, f);
        None
    }

    /// Best-first search over the parts: `lower(box)` bounds from below the value of every
    /// part inside `box`; `f(part, best)` returns the part's value when below `best`.
    fn nearest(
        &self,
        max: V::Real,
        lower: impl FnMut(&Aabb<V>) -> V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)>;

    /// First hit along the ray `origin + t dir`, `t` in `[0, max_toi]` (local frame):
    /// parts near to far, `f(part, best)` returning the part's hit time when at or before
    /// `best`.
    fn cast_ray(
        &self,
        origin: V,
        dir: V,
        max_toi: V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)>;

    /// The first part the ray (in the composite's **local frame**) meets within
    /// `[0, max_toi]`, and where: [`cast_ray`](Composite::cast_ray) with
    /// [`ray_cast`] answering each part. A composite may
    /// answer faster from its own data (a mesh reads its triangles in the order of its
    /// tree's leaves), never differently.
    fn first_ray_hit(&self, ray: &Ray<V>, max_toi: V::Real) -> Option<(u32, RayOutcome<V>)> {
        let mut best: Option<(u32, RayOutcome<V>)> = None;
        self.cast_ray(ray.origin(), ray.direction(), max_toi, |i, limit| {
            let pose = self.part_pose(i).unwrap_or(Pose::IDENTITY);
            let out = crate::query::cast::ray_cast(&self.part(i), &pose, ray, limit);
            let toi = match out {
                RayOutcome::Hit(h) => h.toi,
                RayOutcome::Inside { .. } => V::Real::ZERO,
                RayOutcome::Miss => return None,
            };
            best = Some((i, out));
            Some(toi)
        });
        best
    }

    /// Every part whose box the ray meets within `[0, max_toi]`, in any order.
    fn visit_ray(&self, origin: V, dir: V, max_toi: V::Real, f: impl FnMut(u32) -> bool) -> bool;

    /// First hit of the box `aabb` swept by `t · motion`, `t` in `[0, max_toi]`, as
    /// [`cast_ray`](Composite::cast_ray).
    fn cast_aabb(
        &self,
        aabb: &Aabb<V>,
        motion: V,
        max_toi: V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)>;

    /// Part `i`'s feature (as its [`Support::support_face`] names it) renamed by the
    /// composite's own numbering, so that manifold ids are unique and stable across parts
    /// (a mesh names vertices and triangles by their mesh indices). The default keeps it.
    #[inline(always)]
    fn part_feature(&self, i: u32, feature: Feature) -> Feature {
        let _ = i;
        feature
    }

    /// Whether a penetrating contact on part `i` (normal from the part towards the other
    /// shape, at `point` on the part; local frame) leaves through a face of the part that is
    /// inside the composite (a diagonal between two pieces of a concave polygon): such a
    /// contact is used only when no part gives another, since it pushes through the
    /// inside. The default: parts have no inner faces.
    #[inline(always)]
    fn through_inside(&self, i: u32, point: V, normal: V) -> bool {
        let _ = (i, point, normal);
        false
    }

    /// The normal a contact on part `i` must be taken along, when the one found (`normal`,
    /// unit, from the part towards the other shape, at `point` on the part's surface; local
    /// frame) is not a normal the composite's surface has there: a normal through an
    /// internal edge or vertex of a mesh, which only a lone triangle would have. `None`
    /// keeps the contact as found (the default: solid parts have no internal edges).
    #[inline(always)]
    fn corrected_normal(&self, i: u32, point: V, normal: V) -> Option<V> {
        let _ = (i, point, normal);
        None
    }
}
