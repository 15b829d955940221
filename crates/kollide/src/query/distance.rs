//! The distance and intersection queries between two convex shapes.

use super::box_distance::{self, box_box_distance};
use super::closed_form::segment_segment;
use super::dispatch::{choose, Algorithm, Question};
use super::gjk::{self, GjkSettings, GjkStatus, GjkStep, Goal, SimplexCache};
use super::sat::{boxes_intersect, SatOutcome};
use crate::math::{Pose, Real};
use crate::query::Space;
use crate::shape::{Primitive, Support};

/// The answer of [`distance`]. Points and the normal are in the **world frame** (the frame
/// the two poses are given in).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceOutput<V: Space> {
    /// The distance between the shapes, `0` when they touch or overlap: the gap between
    /// `point_a` and `point_b`, and never outside `[lower_bound, upper_bound]` (where
    /// rounding of the points at the shapes' size would put that gap under the certified
    /// lower bound, the lower bound is reported).
    pub distance: V::Real,
    /// A proven lower bound on the true distance (GJK's duality gap, with rounding slack).
    pub lower_bound: V::Real,
    /// A proven upper bound on the true distance.
    pub upper_bound: V::Real,
    /// The point of A closest to B (on A's surface). When the shapes overlap: if their
    /// cores overlap (`normal` is zero) it is a point of both cores, equal to `point_b`;
    /// if only the rounded parts overlap it is A's surface point along `normal`, which then
    /// lies inside B (and `point_b` inside A).
    pub point_a: V,
    /// The point of B closest to A.
    pub point_b: V,
    /// Unit vector from A towards B along which the distance is measured. Zero when the
    /// cores overlap (no direction is defined; the `contact` query gives a penetration
    /// normal).
    pub normal: V,
    /// GJK iterations (0 for closed forms).
    pub iterations: u32,
    /// How the query ended; anything but `Converged` or `Overlapping` means the bounds are
    /// wider than the tolerance.
    pub status: GjkStatus,
}

impl<V: Space> DistanceOutput<V> {
    /// The same answer for the pair taken the other way round (B, A): points swapped,
    /// normal reversed.
    #[must_use]
    pub fn flipped(self) -> Self {
        Self { point_a: self.point_b, point_b: self.point_a, normal: -self.normal, ..self }
    }
}

/// The distance between two convex shapes, with closest points and certified bounds.
///
/// `pose_a` and `pose_b` place the shapes in the world frame; the output is in the world
/// frame. Balls, capsules and segments use closed forms; two boxes (cuboids, rectangles,
/// rounded or not) are measured by their closest features, corner against box or edge
/// against edge, with GJK taking the rare pairs that leaves uncertified; other pairs run GJK
/// on the cores (see [`Support`]) in A's frame.
///
/// Accuracy: the bounds always hold, whatever the status (they include the rounding of the
/// arithmetic). With `status: Converged` they are also close:
/// `upper_bound - lower_bound <= max(tol × upper_bound, 80 ε M)`, where `tol` is
/// [`GjkSettings::rel_tolerance`] (`1e-5` in `f32`, `1e-9` in `f64`), `ε` the machine
/// epsilon and `M` the size of the coordinates in A's frame (the shapes' sizes plus the
/// distance between their origins). The second term is the precision the numbers can
/// carry: about `1e-5` in `f32` for unit-sized shapes a unit apart, so near contact an
/// `f32` distance is known to that absolute precision, not to `1e-5` relative. On
/// polytopes GJK lands on the exact answer up to that rounding; on curved shapes it
/// converges to it.
///
/// Degenerate input: touching shapes give 0 (or a few ulps), identical poses give 0 with
/// `status: Overlapping`; a user's support function returning NaN gives
/// `status: NonFiniteSupport` with bounds `[0, ∞)`. Never panics.
///
/// ```
/// use kollide::query::distance;
/// use kollide::shape::{Ball, Cuboid};
/// use kollide::math::{DPose3, DVec3};
/// let ball = Ball::new(0.5);
/// let cube = Cuboid::new(DVec3::ONE);
/// let out = distance(&ball, &DPose3::from_translation(DVec3::new(3.0, 0.0, 0.0)),
///                    &cube, &DPose3::IDENTITY);
/// assert!((out.distance - 1.5).abs() < 1e-12);
/// assert!((out.normal - DVec3::NEG_X).length() < 1e-12);
/// ```
#[must_use]
pub fn distance<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> DistanceOutput<V> {
    distance_impl(a, pose_a, b, pose_b, None, &GjkSettings::default(), None)
}

/// [`distance`], warm-started from `cache` and leaving the final simplex in it.
///
/// Pass an empty `SimplexCache::default()` the first time and the same cache for the same
/// pair of shapes afterwards; see [`SimplexCache`] for when it helps. GJK runs with the
/// cache's settings ([`SimplexCache::with_settings`]: tolerance, iteration cap).
///
/// With `trace`, every GJK iteration is appended there (in A's local frame) so a viewer or
/// a picture can replay how the answer was reached. Closed-form pairs (balls, capsules,
/// segments, and two boxes when their closest features are found directly) record nothing. The answer does not depend on the trace.
///
/// ```
/// use kollide::query::{distance_cached, SimplexCache};
/// use kollide::shape::{Cuboid, Triangle};
/// use kollide::math::{Pose2, Vec2};
/// let square = Cuboid::new(Vec2::ONE);
/// let tri = Triangle::new(Vec2::new(-1.0, 0.0), Vec2::new(0.0, -0.5), Vec2::new(2.0, 0.3));
/// let mut steps = Vec::new();
/// let out = distance_cached(&square, &Pose2::IDENTITY, &tri, &Pose2::from_angle(Vec2::new(3.0, 0.5), 0.3),
///                           &mut SimplexCache::default(), Some(&mut steps));
/// assert!(out.iterations >= 2);
/// assert_eq!(steps.len() as u32, out.iterations);
/// // The upper bound |v| only shrinks (up to rounding):
/// assert!(steps.windows(2).all(|s| s[1].upper <= s[0].upper * (1.0 + 1e-6)));
/// ```
#[must_use]
pub fn distance_cached<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    cache: &mut SimplexCache<V>,
    trace: Option<&mut Vec<GjkStep<V>>>,
) -> DistanceOutput<V> {
    let settings = cache.settings;
    distance_impl(a, pose_a, b, pose_b, Some(cache), &settings, trace)
}

fn distance_impl<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    cache: Option<&mut SimplexCache<V>>,
    settings: &GjkSettings<V::Real>,
    trace: Option<&mut Vec<GjkStep<V>>>,
) -> DistanceOutput<V> {
    let radius = a.radius() + b.radius();
    let algorithm = choose(a, pose_a, b, pose_b, Question::Distance);
    match algorithm {
        Algorithm::SegmentSegment { a: (p0, p1), b: (q0, q1) } => {
            let (pa, pb) = segment_segment(p0, p1, q0, q1);
            CoreAnswer::exact(pa, pb, segment_slack(p0, p1, q0, q1)).grow(a.radius(), radius, None)
        }
        Algorithm::BoxBox(..) | Algorithm::Polytopes | Algorithm::BoxSegment { .. } | Algorithm::Gjk => {
            let pose_ab = pose_a.inv_compose(pose_b);
            // Two boxes, or two 2D polygons: their closest features, when certified.
            let features = match algorithm {
                Algorithm::BoxBox(ha, hb) => box_box_distance(ha, hb, &pose_ab, settings.rel_tolerance),
                Algorithm::Polytopes => polygon_distance(a, b, &pose_ab, settings.rel_tolerance),
                _ => None,
            };
            if let Some(g) = features {
                let (pa, pb, len, lower, upper, status) = (g.pa, g.pb, g.len, g.lower, g.upper, g.status);
                let core = CoreAnswer { pa, pb, len, lower, upper, iterations: 0, status };
                return core.grow(a.radius(), radius, Some(pose_a));
            }
            let r = gjk::run(a, b, &pose_ab, cache, settings, Goal::Distance, trace);
            let (pa, pb) = r.simplex.witnesses();
            let len = (pb - pa).length();
            let (upper, status) = gjk::bounds_with_witnesses(&r, len, settings.rel_tolerance);
            let core = CoreAnswer { pa, pb, len, lower: r.lower, upper, iterations: r.iterations, status };
            core.grow(a.radius(), radius, Some(pose_a))
        }
    }
}

/// How far the closest points of segments `p0 p1` and `q0 q1` (either may be a point) may
/// be off, as a bound on the error of their distance: a few ulps of the largest endpoint
/// coordinate, over `sin θ` for segments at an angle θ (where they cross, the distance grows
/// like the error in the parameters times `sin θ`, and that error like `ε / sin² θ`). Nearly
/// parallel pairs (`sin² θ <= ε`) take the clamped branch, exact to rounding. (The slack was
/// once taken from the closest points themselves: two unit segments crossing near the origin
/// got a "certified" gap of 5e-8 in f32.)
#[inline(always)]
fn segment_slack<V: Space>(p0: V, p1: V, q0: V, q1: V) -> V::Real {
    // Twice the largest coordinate bounds the norms (by √3 <= 2) without a square root.
    let mag =
        p0.abs_elem().max_elem(p1.abs_elem()).max_elem(q0.abs_elem()).max_elem(q1.abs_elem()).max_component()
            * V::Real::TWO;
    let slack = V::Real::EPSILON * V::Real::from_usize(16) * mag;
    let (d1, d2) = (p1 - p0, q1 - q0);
    let (a, e) = (d1.length_squared(), d2.length_squared());
    if !(a > V::Real::ZERO && e > V::Real::ZERO) {
        return slack;
    }
    let b = d1.dot(d2);
    let sin2 = (a * e - b * b) / (a * e);
    if sin2 > V::Real::EPSILON && sin2 < V::Real::ONE + V::Real::ONE {
        slack / sin2.sqrt()
    } else {
        slack
    }
}

/// Whether 2D segments `p0 p1` and `q0 q1` cross or touch, by the signs of the orientations
/// of each one's ends against the other's line (collinear pairs are left to the distance).
fn segments_cross_2d<V: Space>(p0: V, p1: V, q0: V, q1: V) -> bool {
    let orient = |a: V, b: V, c: V| {
        let (u, w) = (b - a, c - a);
        u[0] * w[1] - u[1] * w[0]
    };
    let zero = V::Real::ZERO;
    let straddles = |x: V::Real, y: V::Real| (x <= zero && y >= zero) || (x >= zero && y <= zero);
    let (o1, o2) = (orient(p0, p1, q0), orient(p0, p1, q1));
    let (o3, o4) = (orient(q0, q1, p0), orient(q0, q1, p1));
    let collinear = (o1 == zero && o2 == zero) || (o3 == zero && o4 == zero);
    !collinear && straddles(o1, o2) && straddles(o3, o4)
}

/// The closest points of the cores in A's frame, with bounds on their distance.
struct CoreAnswer<V: Space> {
    pa: V,
    pb: V,
    /// `|pb - pa|`.
    len: V::Real,
    lower: V::Real,
    upper: V::Real,
    iterations: u32,
    status: GjkStatus,
}

impl<V: Space> CoreAnswer<V> {
    /// A closed-form answer: exact up to the rounding of the closest-point arithmetic.
    fn exact(pa: V, pb: V, slack: V::Real) -> Self {
        let d = (pb - pa).length_safe();
        let status = if d == V::Real::ZERO { GjkStatus::Overlapping } else { GjkStatus::Converged };
        Self {
            pa,
            pb,
            len: d,
            // Capped at the largest float: a length that overflows is truly beyond it (it
            // was rescaled before squaring), so the answer is then [MAX, ∞], not a false ∞.
            lower: (d - slack).max(V::Real::ZERO).min(V::Real::MAX),
            upper: d + slack,
            iterations: 0,
            status,
        }
    }

    /// Adds the radii (moves the points out along the normal, shifts the bounds) and maps
    /// the points and normal to the world with `frame` (A's pose) when they are in A's
    /// frame. The output is built once, at the end: built first and then mutated, its
    /// 12-byte vectors were stored piecewise and reloaded whole, a store-forwarding stall
    /// that cost a third of a box-box distance query.
    fn grow(self, radius_a: V::Real, radius: V::Real, frame: Option<&Pose<V>>) -> DistanceOutput<V> {
        let zero = V::Real::ZERO;
        let gap = self.pb - self.pa;
        let len = self.len;
        let normal = if self.status != GjkStatus::Overlapping && len > zero { gap / len } else { V::ZERO };
        let radius_b = radius - radius_a;
        let (point_a, point_b) = if normal == V::ZERO {
            (self.pa, self.pa)
        } else {
            (self.pa + normal * radius_a, self.pb - normal * radius_b)
        };
        let lower = (self.lower - radius).max(zero);
        let upper = (self.upper - radius).max(zero);
        // A simplex that realizes a core distance within the radii proves the overlap,
        // whatever stopped GJK.
        let status = match self.status {
            GjkStatus::NonFiniteSupport => GjkStatus::NonFiniteSupport,
            _ if self.upper <= radius => GjkStatus::Overlapping,
            s => s,
        };
        let upper = if status == GjkStatus::NonFiniteSupport { V::Real::INFINITY } else { upper };
        let lower = if status == GjkStatus::NonFiniteSupport { zero } else { lower };
        let distance = match status {
            GjkStatus::NonFiniteSupport => upper,
            GjkStatus::Overlapping => zero,
            // Never below the certified lower bound: on shapes whose size dwarfs the gap (a
            // disk 3e13 wide 4 units from a speck) the points carry rounding of that size,
            // and their gap fell under the bound (found by the fuzz target `queries`).
            _ => (len - radius).max(lower),
        };
        let (point_a, point_b, normal) = match frame {
            Some(pose) => {
                (pose.transform_point(point_a), pose.transform_point(point_b), pose.transform_vector(normal))
            }
            None => (point_a, point_b, normal),
        };
        DistanceOutput {
            distance,
            lower_bound: lower,
            upper_bound: upper.max(distance),
            point_a,
            point_b,
            normal,
            iterations: self.iterations,
            status,
        }
    }
}

/// The answer of [`intersection_test`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntersectionOutput {
    /// `true` when the shapes overlap or touch.
    pub intersects: bool,
    /// GJK iterations (0 for closed forms).
    pub iterations: u32,
    /// `Converged` or `Overlapping` when the answer is proven; `MaxIterations`, `Stalled`
    /// or `NonFiniteSupport` when GJK could not finish, in which case `intersects` is `true`
    /// unless a separating direction was proven (it errs on the side of contact).
    pub status: GjkStatus,
}

/// Whether two convex shapes overlap (touching counts), with how GJK got there.
///
/// Stops as soon as a separating direction is found (lower bound above the radii) or the
/// cores come within the radii: usually cheaper than [`distance`]. Poses are in the world
/// frame. Shapes that touch (within rounding of the coordinates) intersect: `false` means a
/// separating direction was proven with the rounding slack of [`DistanceOutput::lower_bound`].
///
/// A gap can be too thin to prove. Along a straight stretch of surface (a cone's or a
/// cylinder's side, a long edge) a separating direction must be aligned to within
/// `gap / length`, while GJK's direction is good to the rounding of the support points over
/// the gap; gaps below about `√ε × size` (2e-8 of the size in `f64`, 5e-4 in `f32`) may
/// end `Stalled` with `intersects: true`, the distance itself still within its bounds
/// (`tests/gjk_slivers.rs` measures this over 40,000 specks by cones and cylinders).
///
/// ```
/// use kollide::query::intersection_test;
/// use kollide::shape::Cuboid;
/// use kollide::math::{Pose2, Vec2};
/// let square = Cuboid::new(Vec2::ONE);
/// let out = intersection_test(&square, &Pose2::IDENTITY,
///                             &square, &Pose2::from_angle(Vec2::new(2.3, 0.0), 0.785));
/// assert!(out.intersects);
/// ```
#[must_use]
pub fn intersection_test<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> IntersectionOutput {
    let radius = a.radius() + b.radius();
    let algorithm = choose(a, pose_a, b, pose_b, Question::Intersection);
    match algorithm {
        Algorithm::SegmentSegment { a: (p0, p1), b: (q0, q1) } => {
            let (pa, pb) = segment_segment(p0, p1, q0, q1);
            // Touching within the rounding of the closest points counts, as for every other
            // pair: `false` only where `distance` proves a gap (its lower bound above the
            // radii). Crossing segments, radius 0, have closest points a few ulps apart, and
            // `gap <= 0` made them miss each other in most orders.
            let reach = radius + segment_slack(p0, p1, q0, q1);
            let (gap2, reach2) = ((pb - pa).length_squared(), reach * reach);
            // Squares beyond the float range compare as infinities: take the lengths then.
            let intersects = if gap2 < V::Real::INFINITY && reach2 < V::Real::INFINITY {
                gap2 <= reach2
            } else {
                (pb - pa).length_safe() <= reach
            };
            // In 2D, segments that cross intersect whatever the rounding: the signs of the
            // four orientations decide.
            let intersects = intersects || (V::DIM == 2 && segments_cross_2d(p0, p1, q0, q1));
            IntersectionOutput { intersects, iterations: 0, status: GjkStatus::Converged }
        }
        Algorithm::BoxBox(ha, hb) => {
            let intersects = boxes_intersect(ha, hb, &pose_a.inv_compose(pose_b));
            IntersectionOutput { intersects, iterations: 0, status: GjkStatus::Converged }
        }
        Algorithm::Polytopes | Algorithm::BoxSegment { .. } | Algorithm::Gjk => {
            let pose_ab = pose_a.inv_compose(pose_b);
            if let Algorithm::Polytopes = algorithm {
                // Separated only beyond the rounding of the separations (a few ulps of the
                // sizes and the offset; generously 64).
                let size = |p: Primitive<'_, V>| match p {
                    Primitive::Box(h) => h.length(),
                    Primitive::Polygon(p) => p.outer_radius(),
                    _ => V::Real::ZERO,
                };
                let scale: V::Real = size(a.primitive()) + size(b.primitive()) + pose_ab.translation.length();
                let slack = V::Real::EPSILON * V::Real::from_usize(64) * scale;
                // Most pairs are decided by the edges alone (no contact points needed).
                if let Some(intersects) =
                    V::polytope_overlaps(a.primitive(), b.primitive(), &pose_ab, radius + slack)
                {
                    return IntersectionOutput { intersects, iterations: 0, status: GjkStatus::Converged };
                }
                match V::polytope_contact(a.primitive(), b.primitive(), &pose_ab, radius + slack, None) {
                    SatOutcome::Separated => {
                        return IntersectionOutput {
                            intersects: false,
                            iterations: 0,
                            status: GjkStatus::Converged,
                        }
                    }
                    SatOutcome::Penetrating(c) if c.distance <= radius => {
                        return IntersectionOutput {
                            intersects: true,
                            iterations: 0,
                            status: GjkStatus::Converged,
                        }
                    }
                    _ => {}
                }
            }
            let settings = GjkSettings::default();
            let goal = Goal::Separation { threshold: radius };
            let r = gjk::run(a, b, &pose_ab, None, &settings, goal, None);
            // Separated only when proven: the certified lower bound (rounding slack taken
            // off) clears the radii. Touching within rounding counts as intersecting, and so
            // does an undecided run (capped or stalled), which errs on the side of contact.
            let intersects = r.status == GjkStatus::Overlapping || r.lower <= radius;
            IntersectionOutput { intersects, iterations: r.iterations, status: r.status }
        }
    }
}

/// Whether two convex shapes overlap (touching counts). Poses are in the world frame.
///
/// The boolean form of [`intersection_test`]; see there for the status when GJK could not
/// decide (never seen on valid shapes, but the loop is capped).
///
/// ```
/// use kollide::query::intersects;
/// use kollide::shape::Ball;
/// use kollide::math::{Pose3, Vec3};
/// let ball = Ball::new(1.0);
/// assert!(!intersects(&ball, &Pose3::IDENTITY, &ball, &Pose3::from_translation(Vec3::X * 2.5)));
/// ```
#[must_use]
pub fn intersects<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> bool {
    intersection_test(a, pose_a, b, pose_b).intersects
}

/// [`Space::polytope_distance`] out of line (2D polygons; `None` in 3D).
#[inline(never)]
fn polygon_distance<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    rel: V::Real,
) -> Option<box_distance::FeatureGap<V>> {
    V::polytope_distance(a.primitive(), b.primitive(), pose_ab, rel)
}
