//! The run-time shapes of a world: [`Shape2`] and [`Shape3`], every kollide shape (convex,
//! rounded, a user's, and the composites), and the one dispatch point that answers every
//! query between two of them.
//!
//! The dispatch: two convex shapes go to the convex query (which still picks the closed
//! form or the separating axes, since [`Convex2`] / [`Convex3`] delegate
//! [`Support::primitive`]); a composite and a convex shape go to the composite query
//! ([`composite::distance`](crate::composite::distance), ...), with the answer
//! flipped when the composite is B; two composites go through the parts of the first
//! ([`composite::pair_distance`](crate::composite::pair_distance), ...). The
//! order of the pair is handled here once, never by the caller.

use crate::composite::{
    self, Compound, ConcavePolygon, Found, HeightField, HeightField2d, PartManifoldCache, Polyline, TriMesh,
};
use crate::math::{Aabb, Pose, Vector2, Vector3};
use crate::query::cast::{
    ray_cast, shape_cast, BackFaces, CastInput, CastOutput, CastStatus, Ray, RayOutcome, SweepError,
    SweepOutcome, SweptShape,
};
use crate::query::Space;
use crate::query::{
    contact, distance, intersects, manifold, manifold_cached, Contact, DistanceOutput, Manifold,
    ManifoldCache,
};
use crate::shape::{bounding_box, Convex2, Convex3};
use std::sync::Arc;

/// What [`RuntimeShape::manifold_cached`] keeps about one pair of shapes between frames:
/// a [`ManifoldCache`] when both are convex, a [`PartManifoldCache`] (allocated on first
/// use) when one is a composite. Start with `PairCache::default()`; call
/// [`PairCache::clear`] when it is given to another pair.
#[derive(Clone, Debug, Default)]
pub struct PairCache<V: Space> {
    convex: ManifoldCache<V>,
    parts: Option<Box<PartManifoldCache<V>>>,
}

impl<V: Space> PairCache<V> {
    /// Forgets what was kept.
    pub fn clear(&mut self) {
        self.convex.clear();
        self.parts = None;
    }

    /// Memory held beyond the struct itself, in bytes.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.parts.as_ref().map_or(0, |p| p.memory_bytes())
    }

    fn parts(&mut self) -> &mut PartManifoldCache<V> {
        self.parts.get_or_insert_with(Box::default)
    }
}

/// What a world needs of its shapes: a box, and every query between two of them. Written
/// once per dimension, for [`Shape2`] and [`Shape3`]; the free functions of
/// [`crate::world`] call it.
pub trait RuntimeShape<V: Space>: Clone + Send + Sync + 'static {
    /// The world box of the shape placed by `pose`.
    fn aabb(&self, pose: &Pose<V>) -> Aabb<V>;
    /// Whether the shapes overlap, and the parts found overlapping.
    fn intersects(a: &Self, pose_a: &Pose<V>, b: &Self, pose_b: &Pose<V>) -> Option<Found<()>>;
    /// The distance and closest points. `None` only for a composite without parts.
    fn distance(a: &Self, pose_a: &Pose<V>, b: &Self, pose_b: &Pose<V>) -> Option<Found<DistanceOutput<V>>>;
    /// The deepest contact within `margin`.
    fn contact(
        a: &Self,
        pose_a: &Pose<V>,
        b: &Self,
        pose_b: &Pose<V>,
        margin: V::Real,
    ) -> Option<Found<Contact<V>>>;
    /// The contact manifold within `margin`, with the parts of its deepest point.
    fn manifold(
        a: &Self,
        pose_a: &Pose<V>,
        b: &Self,
        pose_b: &Pose<V>,
        margin: V::Real,
    ) -> Found<Manifold<V>>;
    /// [`RuntimeShape::manifold`] kept between frames in `cache`: two convex shapes
    /// re-project the kept manifold while they have barely moved relative to each other
    /// (see [`manifold_cached`](crate::query::manifold_cached)); a composite and a convex
    /// shape keep one per part (see
    /// [`composite::manifold_cached`](crate::composite::manifold_cached)). The default, and
    /// a pair of two composites, computes afresh (the cache is left as it was).
    fn manifold_cached(
        a: &Self,
        pose_a: &Pose<V>,
        b: &Self,
        pose_b: &Pose<V>,
        margin: V::Real,
        cache: &mut PairCache<V>,
    ) -> Found<Manifold<V>> {
        let _ = cache;
        Self::manifold(a, pose_a, b, pose_b, margin)
    }
    /// The first hit of a ray (the part in `part_a`).
    fn ray_cast(&self, pose: &Pose<V>, ray: &Ray<V>, max_toi: V::Real) -> Option<Found<RayOutcome<V>>>;
    /// The earliest time of impact; `None` for a miss.
    fn shape_cast(
        a: &Self,
        pose_a: &Pose<V>,
        b: &Self,
        pose_b: &Pose<V>,
        input: &CastInput<V>,
    ) -> Option<Found<CastOutput<V>>>;
    /// The shape as the mover of a sweep, placed by `pose`: a ball or an ellipsoid (a circle
    /// or an ellipse in 2D); `None` for any other shape.
    fn as_swept<'a>(&'a self, pose: &'a Pose<V>) -> Option<SweptShape<'a, V>>;
    /// Whether a sweep can go through the shape: a mesh or terrain (triangles) in 3D, a
    /// polyline or terrain line (segments) in 2D.
    fn is_soup(&self) -> bool;
    /// [`composite::sweep`] of `mover` by `displacement` through the shape placed by `pose`
    /// (world frame); `None` when the shape is not a soup (see [`RuntimeShape::is_soup`]).
    fn sweep_through(
        &self,
        pose: &Pose<V>,
        mover: SweptShape<'_, V>,
        displacement: V,
        back_faces: BackFaces,
    ) -> Option<Result<SweepOutcome<V>, SweepError>>;
}

/// A 3D shape chosen at run time: any convex shape, a mesh, a terrain or a compound.
/// Composites are shared (`Arc`): cloning a shape never copies a mesh.
///
/// ```
/// use kollide::world::{self, Shape3};
/// use kollide::composite::TriMesh;
/// use kollide::shape::Ball;
/// use kollide::math::{DPose3, DVec3};
/// use std::sync::Arc;
/// let floor = Shape3::TriMesh(Arc::new(TriMesh::new(
///     vec![DVec3::new(-1.0, 0.0, -1.0), DVec3::new(1.0, 0.0, -1.0), DVec3::new(1.0, 0.0, 1.0), DVec3::new(-1.0, 0.0, 1.0)],
///     vec![[0, 2, 1], [0, 3, 2]],
/// )));
/// let ball = Shape3::from(Ball::new(0.5));
/// // The ball first, the mesh second: the dispatcher flips the answer.
/// let d = world::distance(&ball, &DPose3::from_translation(DVec3::new(0.5, 1.0, -0.5)), &floor, &DPose3::IDENTITY).unwrap();
/// assert!((d.value.distance - 0.5).abs() < 1e-12);
/// assert_eq!((d.part_a, d.part_b), (None, Some(0)));
/// assert!((d.value.normal - DVec3::NEG_Y).length() < 1e-12);
/// ```
#[derive(Clone, Debug)]
pub enum Shape3<V: Vector3 + Space> {
    /// A convex shape.
    Convex(Convex3<V>),
    /// A triangle mesh.
    TriMesh(Arc<TriMesh<V>>),
    /// A heightfield terrain.
    HeightField(Arc<HeightField<V>>),
    /// Convex parts with their own poses.
    Compound(Arc<Compound<V, Convex3<V>>>),
}

/// A 2D shape chosen at run time: any convex shape, a polyline, a terrain line, a compound
/// or a concave polygon.
#[derive(Clone, Debug)]
pub enum Shape2<V: Vector2 + Space> {
    /// A convex shape.
    Convex(Convex2<V>),
    /// A polyline.
    Polyline(Arc<Polyline<V>>),
    /// A heightfield line (terrain in 2D).
    HeightField(Arc<HeightField2d<V>>),
    /// Convex parts with their own poses.
    Compound(Arc<Compound<V, Convex2<V>>>),
    /// A simple polygon, concave or not, as its convex pieces.
    ConcavePolygon(Arc<ConcavePolygon<V>>),
}

/// Runs `$body` with `$c` bound to the composite inside `$shape`, or `$convex` with `$v`
/// bound to the convex shape.
macro_rules! on_shape {
    ($ty:ident, $shape:expr, convex $v:ident => $convex:expr, composite $c:ident => $body:expr, [$($var:ident),+]) => {
        match $shape {
            $ty::Convex($v) => $convex,
            $($ty::$var(inner) => {
                let $c = &**inner;
                $body
            })+
        }
    };
}

/// The dispatch of [`RuntimeShape`] for one dimension's enum.
macro_rules! impl_runtime_shape {
    ($ty:ident, $bound:ident, $convex:ident, [$($var:ident),+], soup [$($soup:ident),+]) => {
        impl<V: $bound + Space> RuntimeShape<V> for $ty<V> {
            fn aabb(&self, pose: &Pose<V>) -> Aabb<V> {
                on_shape!($ty, self,
                    convex s => bounding_box(s, pose),
                    composite c => crate::composite::Composite::local_aabb(c).transformed(pose),
                    [$($var),+])
            }

            fn intersects(a: &Self, pose_a: &Pose<V>, b: &Self, pose_b: &Pose<V>) -> Option<Found<()>> {
                on_shape!($ty, a,
                    convex sa => on_shape!($ty, b,
                        convex sb => intersects(sa, pose_a, sb, pose_b).then(|| Found::new(())),
                        composite cb => composite::intersects(cb, pose_b, sa, pose_a)
                            .map(|j| Found { value: (), part_a: None, part_b: Some(j), body: () }),
                        [$($var),+]),
                    composite ca => on_shape!($ty, b,
                        convex sb => composite::intersects(ca, pose_a, sb, pose_b)
                            .map(|i| Found { value: (), part_a: Some(i), part_b: None, body: () }),
                        composite cb => composite::pair_intersects(ca, pose_a, cb, pose_b)
                            .map(|(i, j)| Found { value: (), part_a: Some(i), part_b: Some(j), body: () }),
                        [$($var),+]),
                    [$($var),+])
            }

            fn distance(a: &Self, pose_a: &Pose<V>, b: &Self, pose_b: &Pose<V>)
                -> Option<Found<DistanceOutput<V>>> {
                on_shape!($ty, a,
                    convex sa => on_shape!($ty, b,
                        convex sb => Some(Found::new(distance(sa, pose_a, sb, pose_b))),
                        composite cb => {
                            let on = composite::distance(cb, pose_b, sa, pose_a);
                            Some(on.swapped(|v| v.flipped()))
                        },
                        [$($var),+]),
                    composite ca => on_shape!($ty, b,
                        convex sb => {
                            let on = composite::distance(ca, pose_a, sb, pose_b);
                            Some(on)
                        },
                        composite cb => composite::pair_distance(ca, pose_a, cb, pose_b),
                        [$($var),+]),
                    [$($var),+])
            }

            fn contact(a: &Self, pose_a: &Pose<V>, b: &Self, pose_b: &Pose<V>, margin: V::Real)
                -> Option<Found<Contact<V>>> {
                on_shape!($ty, a,
                    convex sa => on_shape!($ty, b,
                        convex sb => contact(sa, pose_a, sb, pose_b, margin, None).map(Found::new),
                        composite cb => composite::contact(cb, pose_b, sa, pose_a, margin)
                            .map(|on| on.swapped(|v| v.flipped())),
                        [$($var),+]),
                    composite ca => on_shape!($ty, b,
                        convex sb => composite::contact(ca, pose_a, sb, pose_b, margin),
                        composite cb => composite::pair_contact(ca, pose_a, cb, pose_b, margin),
                        [$($var),+]),
                    [$($var),+])
            }

            fn manifold(a: &Self, pose_a: &Pose<V>, b: &Self, pose_b: &Pose<V>, margin: V::Real)
                -> Found<Manifold<V>> {
                // The part of the deepest point of a merged manifold.
                fn deepest_part<V: Space>(pm: &crate::composite::PartManifold<V>) -> Option<u32> {
                    pm.points()
                        .min_by(|x, y| crate::math::Real::to_f64(x.0.distance).total_cmp(&crate::math::Real::to_f64(y.0.distance)))
                        .map(|(_, part)| part)
                }
                on_shape!($ty, a,
                    convex sa => on_shape!($ty, b,
                        convex sb => Found::new(manifold(sa, pose_a, sb, pose_b, margin)),
                        composite cb => {
                            let pm = composite::manifold(cb, pose_b, sa, pose_a, margin);
                            Found { value: pm.manifold.flipped(), part_a: None, part_b: deepest_part(&pm), body: () }
                        },
                        [$($var),+]),
                    composite ca => on_shape!($ty, b,
                        convex sb => {
                            let pm = composite::manifold(ca, pose_a, sb, pose_b, margin);
                            Found { value: pm.manifold, part_a: deepest_part(&pm), part_b: None, body: () }
                        },
                        composite cb => {
                            let on = composite::pair_manifold(ca, pose_a, cb, pose_b, margin);
                            let found = !on.value.is_empty();
                            Found {
                                value: on.value,
                                part_a: on.part_a.filter(|_| found),
                                part_b: on.part_b.filter(|_| found),
                                body: (),
                            }
                        },
                        [$($var),+]),
                    [$($var),+])
            }

            fn manifold_cached(a: &Self, pose_a: &Pose<V>, b: &Self, pose_b: &Pose<V>, margin: V::Real,
                cache: &mut PairCache<V>) -> Found<Manifold<V>> {
                fn deepest_part<V: Space>(pm: &composite::PartManifold<V>) -> Option<u32> {
                    pm.points()
                        .min_by(|x, y| crate::math::Real::to_f64(x.0.distance).total_cmp(&crate::math::Real::to_f64(y.0.distance)))
                        .map(|(_, part)| part)
                }
                on_shape!($ty, a,
                    convex sa => on_shape!($ty, b,
                        convex sb => Found::new(manifold_cached(sa, pose_a, sb, pose_b, margin, &mut cache.convex)),
                        composite cb => {
                            let pm = composite::manifold_cached(cb, pose_b, sa, pose_a, margin, cache.parts());
                            Found { value: pm.manifold.flipped(), part_a: None, part_b: deepest_part(&pm), body: () }
                        },
                        [$($var),+]),
                    composite ca => on_shape!($ty, b,
                        convex sb => {
                            let pm = composite::manifold_cached(ca, pose_a, sb, pose_b, margin, cache.parts());
                            Found { value: pm.manifold, part_a: deepest_part(&pm), part_b: None, body: () }
                        },
                        composite _cb => Self::manifold(a, pose_a, b, pose_b, margin),
                        [$($var),+]),
                    [$($var),+])
            }

            fn ray_cast(&self, pose: &Pose<V>, ray: &Ray<V>, max_toi: V::Real) -> Option<Found<RayOutcome<V>>> {
                on_shape!($ty, self,
                    convex s => match ray_cast(s, pose, ray, max_toi) {
                        RayOutcome::Miss => None,
                        o => Some(Found::new(o)),
                    },
                    composite c => composite::ray_cast(c, pose, ray, max_toi),
                    [$($var),+])
            }

            fn shape_cast(a: &Self, pose_a: &Pose<V>, b: &Self, pose_b: &Pose<V>, input: &CastInput<V>)
                -> Option<Found<CastOutput<V>>> {
                let swapped = CastInput { motion_a: input.motion_b, motion_b: input.motion_a, ..*input };
                on_shape!($ty, a,
                    convex sa => on_shape!($ty, b,
                        convex sb => {
                            let out = shape_cast(sa, pose_a, sb, pose_b, input, None);
                            (out.status != CastStatus::Miss).then(|| Found::new(out))
                        },
                        composite cb => composite::shape_cast(cb, pose_b, sa, pose_a, &swapped)
                            .map(|on| on.swapped(|v| v.flipped())),
                        [$($var),+]),
                    composite ca => on_shape!($ty, b,
                        convex sb => composite::shape_cast(ca, pose_a, sb, pose_b, input),
                        composite cb => composite::pair_shape_cast(ca, pose_a, cb, pose_b, input),
                        [$($var),+]),
                    [$($var),+])
            }

            fn as_swept<'a>(&'a self, pose: &'a Pose<V>) -> Option<SweptShape<'a, V>> {
                match self {
                    $ty::Convex($convex::Ball(b)) => Some(SweptShape::ball(pose.translation, b.radius)),
                    $ty::Convex($convex::Ellipsoid(e)) => Some(SweptShape::ellipsoid(e, pose)),
                    _ => None,
                }
            }

            fn is_soup(&self) -> bool {
                matches!(self, $($ty::$soup(_))|+)
            }

            fn sweep_through(
                &self,
                pose: &Pose<V>,
                mover: SweptShape<'_, V>,
                displacement: V,
                back_faces: BackFaces,
            ) -> Option<Result<SweepOutcome<V>, SweepError>> {
                match self {
                    $($ty::$soup(c) => Some(composite::sweep(&**c, pose, mover, displacement, back_faces)),)+
                    _ => None,
                }
            }
        }
    };
}

impl_runtime_shape!(Shape3, Vector3, Convex3, [TriMesh, HeightField, Compound], soup [TriMesh, HeightField]);
impl_runtime_shape!(Shape2, Vector2, Convex2, [Polyline, HeightField, Compound, ConcavePolygon], soup [Polyline, HeightField]);

/// `From` a concrete convex shape into the run-time enums.
macro_rules! from_convex {
    ($ty:ident, $convex:ident, $bound:ident, [$($shape:ident => $var:ident),+]) => {
        $(impl<V: $bound + Space> From<crate::shape::$shape<V>> for $ty<V> {
            fn from(s: crate::shape::$shape<V>) -> Self {
                Self::Convex($convex::$var(s))
            }
        })+
        impl<V: $bound + Space> From<$convex<V>> for $ty<V> {
            fn from(s: $convex<V>) -> Self {
                Self::Convex(s)
            }
        }
    };
}

from_convex!(Shape3, Convex3, Vector3, [Ball => Ball, Cuboid => Cuboid, Capsule => Capsule, Cylinder => Cylinder,
    Cone => Cone, Ellipsoid => Ellipsoid, Segment => Segment, Triangle => Triangle]);
from_convex!(Shape2, Convex2, Vector2, [Ball => Ball, Cuboid => Cuboid, Capsule => Capsule, Ellipsoid => Ellipsoid,
    Segment => Segment, Triangle => Triangle]);

impl<V: Vector3 + Space> From<TriMesh<V>> for Shape3<V> {
    fn from(m: TriMesh<V>) -> Self {
        Self::TriMesh(Arc::new(m))
    }
}

impl<V: Vector2 + Space> From<Polyline<V>> for Shape2<V> {
    fn from(p: Polyline<V>) -> Self {
        Self::Polyline(Arc::new(p))
    }
}

impl<V: Vector3 + Space> From<HeightField<V>> for Shape3<V> {
    fn from(h: HeightField<V>) -> Self {
        Self::HeightField(Arc::new(h))
    }
}

impl<V: Vector2 + Space> From<HeightField2d<V>> for Shape2<V> {
    fn from(h: HeightField2d<V>) -> Self {
        Self::HeightField(Arc::new(h))
    }
}

impl<V: Vector2 + Space> From<ConcavePolygon<V>> for Shape2<V> {
    fn from(p: ConcavePolygon<V>) -> Self {
        Self::ConcavePolygon(Arc::new(p))
    }
}
