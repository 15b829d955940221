//! The swept sphere and ellipsoid (circle and ellipse in 2D) against a soup of triangles
//! (segments): the types of the answer and the public entry points.

use crate::math::{Pose, Vector, Vector2, Vector3};
use crate::shape::Ellipsoid;

/// Which feature of a triangle (segment) the moving sphere touched first.
///
/// In 2D a segment's interior is its `Face` and its end points are its vertices (a segment
/// has no separate edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SweepFeature {
    /// The inside of the triangle's face (the segment's interior in 2D).
    Face,
    /// The inside of one of the triangle's edges (3D only).
    Edge,
    /// A corner.
    Vertex,
}

impl SweepFeature {
    /// The name used by the command-line tool: `"face"`, `"edge"`, `"vertex"`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Face => "face",
            Self::Edge => "edge",
            Self::Vertex => "vertex",
        }
    }
}

/// Whether the back of a triangle (segment) stops the mover.
///
/// The front of triangle `(a, b, c)` is the side its normal `(b - a) × (c - a)` points to
/// (counter-clockwise seen from the front); the front of segment `(a, b)` in 2D is the side
/// of `(b - a)` turned a quarter turn clockwise (the outside of a counter-clockwise
/// polygon).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BackFaces {
    /// Both sides collide (the default).
    #[default]
    Hit,
    /// A mover approaching from behind passes through.
    Cull,
}

/// Where the moving sphere first touches the soup.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepHit<V: Vector> {
    /// The fraction of the displacement at the hit, in `[0, 1]`: the centre is then at
    /// `start + toi * displacement`.
    pub toi: V::Real,
    /// The contact point, on the triangle (segment).
    pub point: V,
    /// The slide-plane normal: unit, from the contact point towards the mover's centre at
    /// the hit (for an ellipsoid, the normal of its surface at the contact point).
    pub normal: V,
    /// Which feature was touched.
    pub feature: SweepFeature,
    /// The index of the triangle (segment) in the slice, 0-based.
    pub index: usize,
}

/// The answer of a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SweepOutcome<V: Vector> {
    /// The mover touches a triangle (segment) during the displacement: the earliest.
    Hit(SweepHit<V>),
    /// The mover completes its displacement without touching anything.
    Miss,
    /// At the start the mover already overlaps a triangle (segment): the deepest one, its
    /// signed distance (negative) and the unit normal that pushes the mover out.
    StartedWithin {
        /// The index of the deepest overlapped triangle (segment).
        index: usize,
        /// The signed distance between the mover's surface and the triangle (negative).
        distance: V::Real,
        /// Unit normal from the triangle towards the mover's centre.
        normal: V,
    },
}

/// Sweeps the sphere of `radius` centred at `center` by `displacement` through
/// `triangles` (all in the world frame) and returns the first contact.
#[must_use]
pub fn sweep_sphere<V: Vector3>(
    center: V,
    radius: V::Real,
    displacement: V,
    triangles: &[[V; 3]],
    back_faces: BackFaces,
) -> SweepOutcome<V> {
    let _ = (center, radius, displacement, triangles, back_faces);
    todo!("sweep_sphere")
}

/// Sweeps the ellipsoid placed by `pose` by `displacement` through `triangles`.
#[must_use]
pub fn sweep_ellipsoid<V: Vector3>(
    ellipsoid: &Ellipsoid<V>,
    pose: &Pose<V>,
    displacement: V,
    triangles: &[[V; 3]],
    back_faces: BackFaces,
) -> SweepOutcome<V> {
    let _ = (ellipsoid, pose, displacement, triangles, back_faces);
    todo!("sweep_ellipsoid")
}

/// Sweeps the circle of `radius` centred at `center` by `displacement` through `segments`.
#[must_use]
pub fn sweep_circle<V: Vector2>(
    center: V,
    radius: V::Real,
    displacement: V,
    segments: &[[V; 2]],
    back_faces: BackFaces,
) -> SweepOutcome<V> {
    let _ = (center, radius, displacement, segments, back_faces);
    todo!("sweep_circle")
}

/// Sweeps the ellipse placed by `pose` by `displacement` through `segments`.
#[must_use]
pub fn sweep_ellipse<V: Vector2>(
    ellipse: &Ellipsoid<V>,
    pose: &Pose<V>,
    displacement: V,
    segments: &[[V; 2]],
    back_faces: BackFaces,
) -> SweepOutcome<V> {
    let _ = (ellipse, pose, displacement, segments, back_faces);
    todo!("sweep_ellipse")
}
