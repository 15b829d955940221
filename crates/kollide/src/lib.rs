//! # kollide
//!
//! Collision detection for 2D and 3D, in `f32` and `f64`, built on one idea: a convex shape
//! is its **support function** (plus a rounding radius), and GJK answers every question about
//! two such shapes — do they overlap, how far apart are they, which points are closest —
//! with certified bounds and an explicit status instead of a guess. When they overlap,
//! [`query::contact`] gives the penetration depth, normal and points (closed forms,
//! separating axes, EPA) and [`query::manifold`] the contact points a physics solver needs.
//! For things in motion, [`query::cast`] answers *when* they first touch: rays, linear and
//! rotating shape casts, and the swept sphere or ellipsoid against a triangle soup.
//!
//! Worlds: [`bvh`] holds the bounding volume hierarchies (a static one under meshes, a
//! dynamic tree and broad phase for moving bodies), [`composite`] the non-convex shapes
//! made of convex parts (triangle meshes, also read from OBJ, STL, PLY and glTF files with
//! the features of those names; heightfield terrain, compounds, polylines) that answer
//! every query through their parts, and [`world`] the run-time shape enums and a
//! [`world::World`] of bodies.
//!
//! ```
//! use kollide::prelude::*;
//!
//! let hull = Cuboid::new(Vec3::new(0.5, 0.5, 0.5));
//! let capsule = Capsule::new(0.5, 0.25);
//! let out = distance(&hull, &Pose3::IDENTITY,
//!                    &capsule, &Pose3::from_translation(Vec3::new(-1.5, 0.0, 0.0)));
//! assert_eq!(out.status, GjkStatus::Converged);
//! assert!((out.distance - 0.75).abs() < 1e-5);
//! assert!(out.lower_bound <= out.distance && out.distance <= out.upper_bound);
//! ```
//!
//! Frames: shapes are defined in their local frame, placed by a [`math::Pose`]; queries take
//! world poses and answer in the world frame.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

/// The glam crate kollide is built on (its vector and quaternion types are kollide's).
pub use glam;

pub mod bvh;
pub mod composite;
pub mod math;
pub mod mover;
pub mod query;
pub mod shape;
pub mod world;

/// The common imports: shapes, poses, the convex queries, and the `composite` and `world`
/// modules whose functions answer the same questions for composites and run-time shapes
/// (`composite::distance`, `world::distance`).
pub mod prelude {
    pub use crate::composite::{self, Compound, HeightField, Polyline, TriMesh};
    pub use crate::math::{
        DPose2, DPose3, DQuat, DVec2, DVec3, Pose, Pose2, Pose3, Quat, Rot2, Vec2, Vec3, Vector,
    };
    pub use crate::mover::{move_and_slide, Character, MoveOutput, MoveStatus, MoverSettings};
    pub use crate::query::cast::{
        ray_cast, shape_cast, sweep, BackFaces, CastInput, CastOutput, CastStatus, Motion, Ray, RayHit,
        RayOutcome, SweepFeature, SweepHit, SweepOutcome, SweptShape,
    };
    pub use crate::query::{
        contact, distance, distance_cached, intersection_test, intersects, manifold, Contact, ContactStatus,
        DistanceOutput, GjkStatus, Manifold, SimplexCache, Space,
    };
    pub use crate::shape::{
        Ball, Capsule, Cone, Convex2, Convex3, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Ellipsoid,
        Rounded, Segment, Support, Triangle,
    };
    pub use crate::world::{self, Shape2, Shape3, World};
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

#[cfg(all(test, feature = "mint"))]
mod mint_interop {
    use crate::math::{DPose3, DQuat, DVec3};

    /// A pose built from mint values (what another glam version, nalgebra or Bevy hands over)
    /// and back, exactly.
    #[test]
    fn poses_go_through_mint_and_back() {
        let t = mint::Vector3 { x: 1.0, y: -2.0, z: 0.5 };
        let q = mint::Quaternion { v: mint::Vector3 { x: 0.0, y: 0.6, z: 0.0 }, s: 0.8 };
        let pose = DPose3::try_new(DVec3::from(t), DQuat::from(q)).unwrap();
        let back: mint::Vector3<f64> = pose.translation.into();
        let rot: mint::Quaternion<f64> = pose.rotation.into();
        assert_eq!((back.x, back.y, back.z), (1.0, -2.0, 0.5));
        assert_eq!((rot.v.y, rot.s), (0.6, 0.8));
    }
}
