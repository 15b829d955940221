//! The contact query: signed distance, normal and a point on each surface, for separated and
//! penetrating pairs alike.

use super::closed_form::segments;
use super::dispatch::{choose, Algorithm, Question};
use super::epa::EpaStep;
use super::gjk::{self, GjkSettings, GjkStatus, GjkStep, Goal, SimplexCache};
use super::least_push::{checked_apart, checked_penetration, deepened_for_radii, non_finite};
use super::sat::{segment_box, SatOutcome, SatStep};
use crate::math::{Pose, Real};
use crate::query::Space;
use crate::shape::Primitive;
use crate::shape::Support;

pub(crate) mod output;

pub use output::{Contact, ContactStatus, CoreContact};

/// The contact between two convex shapes: signed distance, unit normal from A to B and a
/// point on each surface, or `None` when they are more than `margin` apart.
///
/// Poses and results are in the **world frame**. A `margin` of 0 reports touching and
/// penetrating pairs only; a positive margin also reports pairs up to that far apart
/// (speculative contacts). A negative or NaN `margin` counts as 0. The method is chosen per pair in one place: closed forms for
/// balls, capsules and segments, separating-axis tests for boxes, polygons and hulls, GJK
/// for separated cores and EPA for overlapping ones (shapes are a core plus a radius, see
/// [`Support`]).
///
/// Accuracy: the distance is within the tolerance of [`crate::query::distance`] when the
/// cores are apart; when they overlap, the depth is exact up to rounding for closed forms
/// and separating axes, and within `1e-5` relative (`f32`) or `1e-10` (`f64`) of the depth
/// for EPA on polytopes, plus the rounding of the coordinates (`~ 100 ε M`).
///
/// Degenerate input: touching shapes give a distance of 0 (within rounding) and a normal;
/// identical shapes at the same pose give the depth along a valid normal. The normal is
/// always a unit vector and nothing is NaN; see [`ContactStatus`] for what each status
/// promises.
///
/// **Trace.** With `trace`, the iterations are appended there (in A's local frame) so a
/// picture or a viewer can replay how the contact was found: the separating-axis test's
/// axes for boxes, polygons and hulls (each with both cores' projections and the best so
/// far), then GJK's and EPA's iterations when they run. Pairs answered in closed form
/// (balls, capsules, segments) and a box against a segment record nothing. The answer does
/// not depend on the trace.
///
/// ```
/// use kollide::query::{contact, ContactStatus};
/// use kollide::shape::{Ball, Cuboid};
/// use kollide::math::{DPose3, DVec3};
/// let ball = Ball::new(0.5);
/// let floor = Cuboid::new(DVec3::new(5.0, 1.0, 5.0));
/// // A ball sunk 0.1 into the top of the floor:
/// let c = contact(&floor, &DPose3::IDENTITY, &ball, &DPose3::from_translation(DVec3::new(0.0, 1.4, 0.0)), 0.0, None)
///     .unwrap();
/// assert_eq!(c.status, ContactStatus::Converged);
/// assert!((c.distance + 0.1).abs() < 1e-12);
/// assert!((c.normal - DVec3::Y).length() < 1e-12);
/// // Farther apart than the margin: no contact.
/// assert!(contact(&floor, &DPose3::IDENTITY, &ball, &DPose3::from_translation(DVec3::Y * 3.0), 0.5, None).is_none());
///
/// // Traced: an ellipsoid sunk 0.2 into the floor. GJK found the cores overlapping; EPA
/// // then measured the depth, its closest face's distance rising to it.
/// use kollide::query::ContactTrace;
/// let egg = kollide::shape::Ellipsoid::new(DVec3::new(0.5, 0.8, 0.5));
/// let mut trace = ContactTrace::default();
/// let pose = DPose3::from_translation(DVec3::new(0.0, 1.6, 0.0));
/// let c = contact(&floor, &DPose3::IDENTITY, &egg, &pose, 0.0, Some(&mut trace)).unwrap();
/// assert!((c.distance + 0.2).abs() < 1e-6);
/// assert!(!trace.gjk.is_empty() && !trace.epa.is_empty());
/// assert!((trace.epa.last().unwrap().lower - 0.2).abs() < 1e-6);
/// ```
#[must_use]
pub fn contact<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
    trace: Option<&mut ContactTrace<V>>,
) -> Option<Contact<V>> {
    match trace {
        None => contact_untraced(a, pose_a, b, pose_b, margin),
        Some(trace) => contact_recorded(a, pose_a, b, pose_b, margin, trace),
    }
}

/// [`contact`] without a trace.
#[inline]
fn contact_untraced<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
) -> Option<Contact<V>> {
    // Segment cores (balls, capsules, segments) are placed in the world and answered there:
    // no pose composition, nothing to map back.
    if let Algorithm::SegmentSegment { a: (p0, p1), b: (q0, q1) } =
        choose(a, pose_a, b, pose_b, Question::Contact)
    {
        let (ra, rb) = (a.radius(), b.radius());
        if p0 == p1 && q0 == q1 {
            // Two balls, answered here: returned from `segments` through memory, the 12-byte
            // vectors were stored piecewise and reloaded whole (a store-forwarding stall that
            // doubled the cost of the query).
            let gap = q0 - p0;
            let len = gap.length_safe();
            if len > V::Real::ZERO {
                if len > margin.max(V::Real::ZERO) + ra + rb {
                    return None;
                }
                let normal = gap / len;
                return Some(Contact {
                    distance: len - ra - rb,
                    normal,
                    point_a: p0 + normal * ra,
                    point_b: q0 - normal * rb,
                    status: ContactStatus::Converged,
                });
            }
        }
        let c = segments(p0, p1, q0, q1);
        if c.distance > margin.max(V::Real::ZERO) + ra + rb {
            return None;
        }
        let c = c.grow(ra, rb);
        return Some(Contact {
            distance: c.distance,
            normal: c.normal,
            point_a: c.point_a,
            point_b: c.point_b,
            status: c.status,
        });
    }
    let pose_ab = pose_a.inv_compose(pose_b);
    contact_local(a, b, &pose_ab, margin).map(|c| c.to_world(pose_a))
}

/// What [`contact`] records when traced, in A's local frame: GJK's iterations on the cores, then
/// EPA's when the cores overlap.
#[derive(Clone, Debug, Default)]
pub struct ContactTrace<V: Space> {
    /// GJK's iterations (see [`crate::query::distance_cached`]).
    pub gjk: Vec<GjkStep<V>>,
    /// EPA's iterations.
    pub epa: Vec<EpaStep<V>>,
    /// The separating-axis test's axes (boxes, polygons and hulls), in A's frame.
    pub sat: Vec<SatStep<V>>,
}

/// [`contact`] with a trace.
fn contact_recorded<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    margin: V::Real,
    trace: &mut ContactTrace<V>,
) -> Option<Contact<V>> {
    if let Algorithm::SegmentSegment { .. } = choose(a, pose_a, b, pose_b, Question::Contact) {
        return contact_untraced(a, pose_a, b, pose_b, margin);
    }
    let pose_ab = pose_a.inv_compose(pose_b);
    let first_axis = trace.sat.len();
    let answer = contact_local_warm(a, b, &pose_ab, margin, None, Some(trace)).map(|c| c.to_world(pose_a));
    // The cores' projections on each axis tried, from their support functions (A's frame).
    for step in &mut trace.sat[first_axis..] {
        let n = step.axis;
        step.a = [n.dot(a.support(-n)), n.dot(a.support(n))];
        let on_b = |d: V| n.dot(pose_ab.transform_point(b.support(pose_ab.inverse_transform_vector(d))));
        step.b = [on_b(-n), on_b(n)];
    }
    answer
}

/// [`contact`] in A's frame (`pose_ab` places B in A's frame), radii added.
pub(crate) fn contact_local<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    margin: V::Real,
) -> Option<CoreContact<V>> {
    contact_local_warm(a, b, pose_ab, margin, None, None)
}

/// [`contact_local`] whose GJK (when it runs) starts from and refills `warm`, the pair's
/// simplex cache (a manifold cache's recomputation after the pair moved).
pub(crate) fn contact_local_warm<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    margin: V::Real,
    warm: Option<&mut SimplexCache<V>>,
    mut trace: Option<&mut ContactTrace<V>>,
) -> Option<CoreContact<V>> {
    let (ra, rb) = (a.radius(), b.radius());
    // The cores are of interest up to this far apart.
    let threshold = margin.max(V::Real::ZERO) + ra + rb;
    let core = match choose(a, &Pose::IDENTITY, b, pose_ab, Question::Contact) {
        Algorithm::SegmentSegment { a: (p0, p1), b: (q0, q1) } => segments(p0, p1, q0, q1),
        Algorithm::Polytopes => match V::polytope_contact(
            a.primitive(),
            b.primitive(),
            pose_ab,
            threshold,
            trace.as_deref_mut().map(|t| &mut t.sat),
        ) {
            SatOutcome::Separated => return None,
            SatOutcome::Penetrating(c) => c,
            SatOutcome::Apart | SatOutcome::NotApplicable => gjk_epa(a, b, pose_ab, threshold, warm, trace),
        },
        Algorithm::BoxSegment { box_is_a } => {
            match box_segment(a.primitive(), b.primitive(), pose_ab, box_is_a, threshold) {
                SatOutcome::Separated => return None,
                SatOutcome::Penetrating(c) => c,
                SatOutcome::Apart | SatOutcome::NotApplicable => {
                    gjk_epa(a, b, pose_ab, threshold, warm, trace)
                }
            }
        }
        Algorithm::BoxBox(..) | Algorithm::Gjk => gjk_epa(a, b, pose_ab, threshold, warm, trace),
    };
    if core.distance > threshold {
        return None;
    }
    Some(core.grow(ra, rb))
}

/// A box against a point or segment core, in the box's frame, answered in A's frame.
fn box_segment<V: Space>(
    pa: Primitive<'_, V>,
    pb: Primitive<'_, V>,
    pose_ab: &Pose<V>,
    box_is_a: bool,
    threshold: V::Real,
) -> SatOutcome<V> {
    let (h, seg) = if box_is_a { (pa, pb) } else { (pb, pa) };
    let (Primitive::Box(h), Primitive::Point(p) | Primitive::Segment(p, _)) = (h, seg) else {
        return SatOutcome::NotApplicable;
    };
    let q = if let Primitive::Segment(_, q) = seg { q } else { p };
    if box_is_a {
        return segment_box(h, pose_ab.transform_point(p), pose_ab.transform_point(q), threshold);
    }
    // B is the box: work in B's frame, then swap the roles back and map to A's frame.
    let (p, q) = (pose_ab.inverse_transform_point(p), pose_ab.inverse_transform_point(q));
    match segment_box(h, p, q, threshold) {
        SatOutcome::Penetrating(c) => SatOutcome::Penetrating(CoreContact {
            distance: c.distance,
            normal: -pose_ab.transform_vector(c.normal),
            point_a: pose_ab.transform_point(c.point_b),
            point_b: pose_ab.transform_point(c.point_a),
            status: c.status,
        }),
        other => other,
    }
}

/// GJK on the cores; EPA when they overlap.
fn gjk_epa<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    b: &B,
    pose_ab: &Pose<V>,
    threshold: V::Real,
    warm: Option<&mut SimplexCache<V>>,
    trace: Option<&mut ContactTrace<V>>,
) -> CoreContact<V> {
    let settings = GjkSettings::default();
    let (gjk_trace, epa_trace) = match trace {
        Some(t) => (Some(&mut t.gjk), Some(&mut t.epa)),
        None => (None, None),
    };
    let r = gjk::run(a, b, pose_ab, warm, &settings, Goal::DistanceWithin { threshold }, gjk_trace);
    match r.status {
        GjkStatus::NonFiniteSupport => non_finite(pose_ab),
        GjkStatus::Overlapping => {
            let scale = r.simplex.max_norm_squared().sqrt();
            checked_penetration(
                a,
                b,
                pose_ab,
                V::penetration(a, b, pose_ab, &r.simplex, epa_trace).into(),
                scale,
            )
        }
        status => {
            let (pa, pb) = r.simplex.witnesses();
            let gap = pb - pa;
            let len = gap.length();
            if r.lower > threshold {
                // Proven farther than asked: the caller drops it.
                return CoreContact {
                    distance: r.lower,
                    normal: V::axis(0),
                    point_a: pa,
                    point_b: pb,
                    status: ContactStatus::Converged,
                };
            }
            // A gap within the rounding of the support points has a direction that is
            // noise: the cores touch as far as the arithmetic can tell, and EPA finds a
            // normal that the push along it confirms. (A ball of 1e17 touching the edge of
            // a plate 8 x 0.25 x 1e17 rounded by 1e17, in f32, got the direction of a gap of
            // 1e10 and a depth along it that did not separate: fuzz target `queries`.)
            let noise = V::Real::EPSILON * V::Real::from_usize(64) * r.simplex.max_norm_squared().sqrt();
            if len > noise {
                let c = CoreContact {
                    distance: len,
                    normal: gap / len,
                    point_a: pa,
                    point_b: pb,
                    status: status.into(),
                };
                if status == GjkStatus::Converged {
                    c
                } else {
                    let c = checked_apart(a, b, pose_ab, c, r.lower);
                    deepened_for_radii(a, b, pose_ab, c, a.radius() + b.radius())
                }
            } else {
                // Exactly touching cores with no direction left in v: EPA finds one.
                {
                    let scale = r.simplex.max_norm_squared().sqrt();
                    checked_penetration(
                        a,
                        b,
                        pose_ab,
                        V::penetration(a, b, pose_ab, &r.simplex, epa_trace).into(),
                        scale,
                    )
                }
            }
        }
    }
}
