//! The swept sphere and ellipsoid (circle and ellipse in 2D) against a soup of triangles
//! (segments): the types of the answer and the public entry points.

mod d2;
mod d3;
mod driver;
mod error;
mod trace;

pub use driver::SoupItem;
pub use error::SweepError;
pub use trace::{SweepStep, SweepTest, SweepVerdict};
// For the composites, which walk their own candidates through the same sweep.
pub(crate) use driver::{drive_ball, drive_scaled, Candidates};
pub(crate) use error::{check_ball, check_ellipsoid};

use crate::math::{Pose, Real};
use crate::query::Space;
use crate::shape::Ellipsoid;
use driver::{sweep_ball, sweep_scaled};

/// Which feature of a triangle (segment) the moving sphere touched first; also what a
/// mover's contact touched (`crate::mover`), where a curved surface counts as a face.
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
pub struct SweepHit<V: Space> {
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
pub enum SweepOutcome<V: Space> {
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

impl<V: Space> SweepOutcome<V> {
    /// The time of impact as a fraction of the displacement: `Some(toi)` for a hit,
    /// `Some(0)` for a start within an item, `None` for a miss.
    #[must_use]
    pub fn toi(&self) -> Option<V::Real> {
        match self {
            Self::Hit(h) => Some(h.toi),
            Self::StartedWithin { .. } => Some(V::Real::ZERO),
            Self::Miss => None,
        }
    }
}

/// The shape a sweep moves, placed in the world: a ball (a sphere in 3D, a circle in 2D) or
/// an ellipsoid (an ellipse in 2D).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SweptShape<'a, V: Space> {
    /// The ball of `radius` centred at `center`.
    Ball {
        /// The centre at the start of the displacement.
        center: V,
        /// The radius (`>= 0`; 0 sweeps a point).
        radius: V::Real,
    },
    /// The ellipsoid placed by `pose`: its centre is `pose.translation`, its semi-axes
    /// `ellipsoid.radii` along the axes turned by `pose.rotation`.
    Ellipsoid {
        /// The shape.
        ellipsoid: &'a Ellipsoid<V>,
        /// Where it starts.
        pose: &'a Pose<V>,
    },
}

impl<'a, V: Space> SweptShape<'a, V> {
    /// The ball of `radius` centred at `center`.
    #[must_use]
    pub fn ball(center: V, radius: V::Real) -> Self {
        Self::Ball { center, radius }
    }

    /// The ellipsoid placed by `pose`.
    #[must_use]
    pub fn ellipsoid(ellipsoid: &'a Ellipsoid<V>, pose: &'a Pose<V>) -> Self {
        Self::Ellipsoid { ellipsoid, pose }
    }
}

/// Sweeps `shape` by `displacement` through `soup`, all in the world frame, and returns the
/// first contact: the swept sphere or ellipsoid against triangles (`[V; 3]`, 3D), the swept
/// circle or ellipse against segments (`[V; 2]`, 2D).
///
/// **Balls.** The centre moves along `center + t * displacement` for `t` in `[0, 1]`. Each
/// triangle is met by its face (the plane at distance `radius`, then a point-in-triangle
/// test), an edge (the cylinder of `radius` about the edge line) or a corner (the sphere of
/// `radius` about it), the tests overlapping at the seams so that no contact slips between
/// two features; the earliest contact over all triangles wins, the lowest index on a tie
/// (Fauerby 2003, "Improved collision detection and response"; Ericson, *Real-Time
/// Collision Detection*, 5.5). Each root is taken from a stable quadratic written relative
/// to its feature, so the time of impact is exact to a few rounding errors of the local
/// coordinates, far from the origin too, and a sphere cannot pass through a seam however
/// shallow the angle. In 2D a segment is met by its interior ([`SweepFeature::Face`]: the
/// line at distance `radius`) or an end point ([`SweepFeature::Vertex`]).
///
/// **Ellipsoids** are answered as balls: a unit sphere swept in the space
/// `x' = diag(1 / radii) Rᵀ (x - centre)` (Nettle, "Generic collision detection for games
/// using ellipsoids"), which keeps times of impact and features; the point is mapped back
/// to the world and the normal by the inverse transpose, so it is the normal of the
/// ellipsoid's surface at the contact point (and the face normal for a face hit). Every
/// rule below is measured in that space (the rounding band is relative to the ellipsoid's
/// size). A [`SweepOutcome::StartedWithin`] reports the true signed distance and normal in
/// the world (from [`crate::query::contact`] between the ellipsoid and the deepest item).
///
/// **Touching and sliding.** Distances within a rounding band of `radius` count as touching
/// (the band is `64 ε` times the local size: the radius plus the item's extent about the
/// centre). A ball touching an item at the start is reported as a hit at `toi` 0 only when
/// it moves into it; one moving away or along the surface gets nothing from that item, so
/// a sphere resting on a floor slides over it (and over the seams between its triangles)
/// but still stops at a wall. Likewise a path that only grazes an edge or a corner, coming
/// no deeper than the band, is not a hit: the ball then never sinks more than the band into
/// anything.
///
/// **Overlap at the start.** When the ball already overlaps an item by more than the band,
/// the answer is [`SweepOutcome::StartedWithin`] for the deepest one, whatever the motion:
/// `distance` is the distance from the centre to the item minus the radius, and the normal
/// points from the item's closest point to the centre (a centre lying on a triangle gets
/// the face normal on the side the displacement comes from, the front when there is no
/// displacement).
///
/// **Back faces.** The front of triangle `(a, b, c)` is the side `(b - a) × (c - a)` points
/// to; the front of segment `(a, b)` is the side of `b - a` turned a quarter turn
/// clockwise. With [`BackFaces::Cull`] an item with an area (a length in 2D) is ignored
/// altogether (faces, edges and corners, at the start too) when the centre starts behind
/// it, or when a non-zero displacement does not go against its normal (`d · n >= 0`).
/// Items without area have no front and are never culled.
///
/// **Trace.** With `trace`, every test tried is appended there (world frame): for each item
/// whose box the swept shape meets, whether it was culled or out of reach, what the start
/// said, the face's root, and when the face does not answer each edge's and corner's root,
/// with its verdict ([`SweepStep`]). For an ellipsoid the tests run on the unit sphere in
/// its space, where the times are the same; the points are placed back in the world. The
/// answer does not depend on the trace; without one nothing is recorded (no cost).
///
/// **Degenerate input.** Triangles without area (collinear or repeated corners) still
/// collide through their edges and corners. An empty soup, or a zero displacement away from
/// everything, is a [`SweepOutcome::Miss`]. A radius of 0 sweeps a point (a ray through the
/// faces; a point hitting a triangle exactly on an edge is then at the mercy of rounding).
/// Inputs must be finite with squares that do not overflow. Never panics, never loops,
/// nothing in the answer is NaN.
///
/// # Errors
/// [`SweepError`] naming the bad value: a NaN or infinite centre, pose or displacement, a
/// radius that is negative or not finite, a semi-axis that is not finite and `> 0` (an
/// [`Ellipsoid`] built with [`Ellipsoid::try_new`] never has one), an item with a corner
/// that is not finite (by its index; nothing is swept then, nothing recorded).
///
/// Cost: one pass checking that every corner is finite, a box test per item (the swept
/// shape's box, shrunk to the best hit so far), then the exact tests for each item whose box
/// meets it. Composites (meshes, terrain) are swept through their hierarchy by
/// [`crate::composite::sweep`], with no finiteness pass.
///
/// ```
/// use kollide::query::cast::{sweep, BackFaces, SweepFeature, SweepOutcome, SweptShape};
/// use kollide::shape::Ellipsoid;
/// use kollide::math::{DPose2, DPose3, DVec2, DVec3};
/// // A floor of two triangles (front up) and a ball of radius 0.5 dropped from height 2.
/// let floor = [
///     [DVec3::new(-5.0, 0.0, -5.0), DVec3::new(-5.0, 0.0, 5.0), DVec3::new(5.0, 0.0, 5.0)],
///     [DVec3::new(-5.0, 0.0, -5.0), DVec3::new(5.0, 0.0, 5.0), DVec3::new(5.0, 0.0, -5.0)],
/// ];
/// let ball = SweptShape::ball(DVec3::new(1.0, 2.0, 0.5), 0.5);
/// let out = sweep(ball, DVec3::new(0.0, -3.0, 0.0), &floor, BackFaces::Hit, None).unwrap();
/// let SweepOutcome::Hit(hit) = out else { panic!("{out:?}") };
/// assert!((hit.toi - 0.5).abs() < 1e-12); // 1.5 of the 3 units down
/// assert_eq!(hit.feature, SweepFeature::Face);
/// assert!((hit.point - DVec3::new(1.0, 0.0, 0.5)).length() < 1e-12);
/// assert!((hit.normal - DVec3::Y).length() < 1e-12);
/// // Resting on the floor and rolling along it: nothing to report.
/// let resting = SweptShape::ball(DVec3::new(1.0, 0.5, 0.5), 0.5);
/// let rolling = sweep(resting, DVec3::new(3.0, 0.0, 1.0), &floor, BackFaces::Hit, None).unwrap();
/// assert_eq!(rolling, SweepOutcome::Miss);
///
/// // An ellipsoid of semi-axes 1 (x), 0.5 (y), 2 (z), centre 3 above the floor, falling 4:
/// // its lowest point, 0.5 below the centre, lands after 2.5.
/// let egg = Ellipsoid::new(DVec3::new(1.0, 0.5, 2.0));
/// let pose = DPose3::from_translation(DVec3::new(0.0, 3.0, 0.0));
/// let mut steps = Vec::new();
/// let out = sweep(SweptShape::ellipsoid(&egg, &pose), DVec3::new(0.0, -4.0, 0.0), &floor, BackFaces::Hit, Some(&mut steps));
/// let SweepOutcome::Hit(hit) = out.unwrap() else { panic!() };
/// assert!((hit.toi - 2.5 / 4.0).abs() < 1e-12);
/// assert!((hit.normal - DVec3::Y).length() < 1e-12);
/// assert!(!steps.is_empty()); // the tests tried, item by item
///
/// // In 2D: a wall along x = 2 (front towards -x), a circle of radius 0.5 moving right by 4;
/// // coming from the back, a culled wall lets it through.
/// let wall = [[DVec2::new(2.0, 1.0), DVec2::new(2.0, -1.0)]];
/// let out = sweep(SweptShape::ball(DVec2::ZERO, 0.5), DVec2::new(4.0, 0.0), &wall, BackFaces::Cull, None).unwrap();
/// let SweepOutcome::Hit(hit) = out else { panic!("{out:?}") };
/// assert!((hit.toi - 1.5 / 4.0).abs() < 1e-12);
/// assert!((hit.normal - DVec2::NEG_X).length() < 1e-12);
/// let back = SweptShape::ball(DVec2::new(4.0, 0.0), 0.5);
/// assert_eq!(sweep(back, DVec2::new(-4.0, 0.0), &wall, BackFaces::Cull, None).unwrap(), SweepOutcome::Miss);
/// ```
pub fn sweep<V: Space, T: SoupItem<V>>(
    shape: SweptShape<'_, V>,
    displacement: V,
    soup: &[T],
    back_faces: BackFaces,
    trace: Option<&mut Vec<SweepStep<V>>>,
) -> Result<SweepOutcome<V>, SweepError> {
    match (shape, trace) {
        (SweptShape::Ball { center, radius }, None) => {
            sweep_ball(center, radius, displacement, soup, back_faces, &mut ())
        }
        (SweptShape::Ball { center, radius }, Some(t)) => {
            sweep_ball(center, radius, displacement, soup, back_faces, t)
        }
        (SweptShape::Ellipsoid { ellipsoid, pose }, None) => {
            sweep_scaled(ellipsoid.radii, pose, displacement, soup, back_faces, &mut ())
        }
        (SweptShape::Ellipsoid { ellipsoid, pose }, Some(t)) => {
            sweep_scaled(ellipsoid.radii, pose, displacement, soup, back_faces, t)
        }
    }
}
