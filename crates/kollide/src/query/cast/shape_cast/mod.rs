//! The shape cast: when do two moving convex shapes first come within a distance?

mod face_normal;
mod linear;
mod rotating;
mod touching;

use crate::math::{Pose, Real};
use crate::query::cast::motion::{CastInput, CastOutput, CastStatus, CastStep, Motion};
use crate::query::cast::numeric::le;
use crate::query::Space;
use crate::query::{contact, distance, ContactStatus, GjkStatus};
use crate::shape::{Primitive, Support};
use face_normal::face_normal;
use linear::{LinearOutcome, SegmentCast};

/// The first time in `[0, input.max_toi]` at which `a` and `b`, starting at `pose_a` and
/// `pose_b` (world frame) and moving as `input.motion_a` and `input.motion_b` say, come
/// within `input.target_distance` of each other.
///
/// The answer is in the **world frame**, at the poses of time `toi` (see [`CastOutput`] for
/// what each status promises).
///
/// **Pure translations** (both angular velocities zero) use the linear cast: two balls by
/// their quadratic, every other pair by GJK ray casting on the Minkowski difference of the
/// cores (van den Bergen 2004), whose time only ever advances to proven lower bounds of the
/// time of impact. `max_toi` may be infinite. At a `Hit` the distance between the shapes
/// is within `[target, target + tol]` with `tol = rel × (target + R + L) + 8 ε M`, where
/// `rel` is `1e-5` (`f32`) or `1e-9` (`f64`), `R` the two radii, `L` the size of the cores
/// and `M` the size of the coordinates in A's frame (shape sizes plus the distance between
/// them: the rounding floor); the time is within `tol / (approach speed)` of the exact
/// one, and not after it beyond rounding (it aims a quarter of the tolerance above the
/// target and stops within half of it, so that a path only grazing the band stops where
/// the distance is well within it).
///
/// **Rotating bodies** use conservative advancement (Mirtich 1996) on the warm-started
/// distance query; see the `toi` module for the bound on the approach speed. Its tolerance
/// is looser: `tol = rel' × (target + reach) + 40 ε M`, `rel'` being `1e-4` (`f32`) or
/// `1e-8` (`f64`) and `reach` the sum over the *turning* bodies of the largest distance
/// from the body's origin to its
/// surface; it stops after 256 distance queries with `Failed` (a `safe_toi` that is
/// proven). A pair whose bounding balls (each body's reach about its moving origin) stay
/// apart over the interval is a proven `Miss` at once; `max_toi` may be infinite (the cap
/// then ends a search that finds nothing and cannot prove that way).
///
/// **At time 0**: shapes within `target_distance` (penetrating included) and approaching
/// give `StartedWithin` with the signed distance of [`crate::query::contact`] (EPA depth
/// when the cores overlap). Within but not approaching (moving apart, tangentially, or not
/// at all): a linear cast returns `Miss` (the distance of convex shapes along a line is
/// convex in time: once it rises it never comes back down); a rotating cast looks for the
/// first time the shapes are farther than the target (doubling time steps) and searches
/// for an impact from there, `Failed` with `safe_toi` 0 when they stay within.
///
/// *Approaching* means closing by more than the tolerance over a motion of twice the shapes'
/// size (whatever `max_toi`): at the closest points' rate along the normal for shapes
/// penetrating, and bounded by it for shapes apart; for shapes **touching** (within the tolerance of distance 0), whose
/// normal is a whole cone at a vertex or an edge, by the motion itself (`touching.rs`):
/// translating, whether B swept along the motion overlaps A deeper than touching; turning,
/// whether the distance first moves down rather than up. So touching and separating is a
/// miss, touching and sliding tangentially a miss, touching and approaching
/// `StartedWithin`.
///
/// **The normal of a hit** is a separating direction at the time of impact and an outward
/// normal of B's contact feature: where the path grazes a vertex or an edge of the
/// Minkowski difference, the search goes on at that time until the support along the
/// normal proves the gap (the direction of the largest proven gap is reported).
///
/// Degenerate input: a NaN or negative `max_toi` is an empty interval (`Miss` at time 0);
/// a NaN or negative `target_distance` counts as 0; non-finite velocities give `Failed`
/// with `safe_toi` 0. Never panics; nothing in the answer is NaN.
///
/// **Trace.** With `trace`, each advancement is appended there (world frame): the time
/// reached and the closest points there, so a picture or a viewer can replay how the time
/// of impact was found. A translating pair records the GJK ray cast's iterations (van den
/// Bergen's conservative advancement on the Minkowski difference: each one moves the time up
/// to the plane of the latest support point, or refines the simplex at the same time); a
/// turning pair records each distance query of the conservative advancement. Two balls (a
/// closed form) and pairs that start within the target record nothing. The answer does not
/// depend on the trace.
///
/// ```
/// use kollide::query::cast::{shape_cast, CastInput, CastStatus};
/// use kollide::shape::{Ball, Cuboid};
/// use kollide::math::{DPose3, DVec3};
/// let ball = Ball::new(0.5);
/// let floor = Cuboid::new(DVec3::new(10.0, 1.0, 10.0)); // top face at y = 1
/// // The ball falls from y = 4 at 2 units per second: it touches the floor at t = 1.25.
/// let input = CastInput::linear(DVec3::new(0.0, -2.0, 0.0), DVec3::ZERO, 10.0);
/// let out = shape_cast(&ball, &DPose3::from_translation(DVec3::Y * 4.0), &floor, &DPose3::IDENTITY, &input, None);
/// assert_eq!(out.status, CastStatus::Hit);
/// assert!((out.toi - 1.25).abs() < 1e-8);
/// assert!((out.normal - DVec3::NEG_Y).length() < 1e-8); // from the ball towards the floor
/// assert_eq!(out.face_normal, Some(DVec3::Y)); // the floor's top face
///
/// // Traced: an ellipsoid falling the same way. The times reached never go back, and the
/// // last is the time of impact.
/// let egg = kollide::shape::Ellipsoid::new(DVec3::new(0.5, 0.8, 0.5));
/// let mut trace = Vec::new();
/// let out = shape_cast(&egg, &DPose3::from_translation(DVec3::Y * 4.0), &floor, &DPose3::IDENTITY, &input, Some(&mut trace));
/// assert!((out.toi - 1.1).abs() < 1e-6); // the egg's bottom (y = 3.2) falls 2.2 at 2 a second
/// assert!(trace.windows(2).all(|w| w[0].time <= w[1].time));
/// assert_eq!(trace.last().unwrap().time, out.toi);
/// ```
#[must_use]
pub fn shape_cast<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    input: &CastInput<V>,
    trace: Option<&mut Vec<CastStep<V>>>,
) -> CastOutput<V> {
    cast_impl(a, pose_a, b, pose_b, input, trace)
}

fn cast_impl<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    input: &CastInput<V>,
    trace: Option<&mut Vec<CastStep<V>>>,
) -> CastOutput<V> {
    let zero = V::Real::ZERO;
    // NaN fails this comparison too: an empty interval.
    if !le(zero, input.max_toi) {
        return CastOutput::miss(zero, distance(a, pose_a, b, pose_b).distance, 0);
    }
    let target = if input.target_distance > zero { input.target_distance } else { zero };
    let (ma, mb) = (&input.motion_a, &input.motion_b);
    let finite = |w: V::Real| w.is_finite();
    if !(ma.velocity.is_finite_vec() && mb.velocity.is_finite_vec()) {
        return failed(zero, distance(a, pose_a, b, pose_b).distance, 0);
    }
    // No rotation (compared with zero directly: a NaN is not zero and goes on to be
    // refused below, and the linear cast pays no square root for the rates).
    let still = V::AngularVelocity::default();
    if ma.angular_velocity == still && mb.angular_velocity == still {
        return linear_cast(a, pose_a, b, pose_b, (ma.velocity, mb.velocity), input.max_toi, target, trace);
    }
    if !(finite(V::angular_speed(ma.angular_velocity)) && finite(V::angular_speed(mb.angular_velocity))) {
        return failed(zero, distance(a, pose_a, b, pose_b).distance, 0);
    }
    rotating::rotational(a, pose_a, b, pose_b, input, target, trace)
}

/// The linear cast: both bodies translate.
#[allow(clippy::too_many_arguments)]
fn linear_cast<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    (va, vb): (V, V),
    max_toi: V::Real,
    target: V::Real,
    trace: Option<&mut Vec<CastStep<V>>>,
) -> CastOutput<V> {
    let (core_a, core_b) = (a.primitive(), b.primitive());
    if let (Primitive::Point(p), Primitive::Point(q)) = (&core_a, &core_b) {
        // A ball's core is its origin: no rotation needed.
        let place =
            |pose: &Pose<V>, p: V| if p == V::ZERO { pose.translation } else { pose.transform_point(p) };
        let (p, q) = (place(pose_a, *p), place(pose_b, *q));
        if let Some(out) = linear::ball_ball(p, a.radius(), va, q, b.radius(), vb, max_toi, target) {
            return out;
        }
        return at_start(a, pose_a, b, pose_b, va, vb, max_toi, target);
    }
    // Points and segments (balls, capsules): their closest points in closed form.
    let segment = |core: &Primitive<V>| match *core {
        Primitive::Point(p) => Some((p, p)),
        Primitive::Segment(p, q) => Some((p, q)),
        _ => None,
    };
    if let (Some((p0, p1)), Some((q0, q1))) = (segment(&core_a), segment(&core_b)) {
        let size =
            p0.length_squared().max(p1.length_squared()).max(q0.length_squared()).max(q1.length_squared());
        let (p0, p1) = (pose_a.transform_point(p0), pose_a.transform_point(p1));
        let (q0, q1) = (pose_b.transform_point(q0), pose_b.transform_point(q1));
        let (a_core, b_core) = ((p0, p1, a.radius()), (q0, q1, b.radius()));
        match linear::segments(a_core, b_core, (va, vb), size.sqrt(), max_toi, target) {
            SegmentCast::Done(out) => {
                if out.status != CastStatus::Hit {
                    return out;
                }
                let pose_b_toi = pose_b.with_translation(pose_b.translation + vb * out.toi);
                return CastOutput { face_normal: face_normal(b, &pose_b_toi, out.normal), ..out };
            }
            SegmentCast::Within => return at_start(a, pose_a, b, pose_b, va, vb, max_toi, target),
            SegmentCast::Undecided => {}
        }
    }
    let pose_ab = pose_a.inv_compose(pose_b);
    // B's velocity relative to A, in A's frame (A's frame translates, it does not turn).
    let r = pose_a.inverse_transform_vector(vb - va);
    let mut local = trace.as_ref().map(|_| Vec::new());
    let outcome = linear::cast(a, b, &pose_ab, r, max_toi, target, local.as_mut());
    if let (Some(trace), Some(local)) = (trace, local) {
        // From A's frame at each step's time to the world.
        trace.extend(local.into_iter().map(|s| {
            let frame = pose_a.with_translation(pose_a.translation + va * s.time);
            let (point_a, point_b) = (frame.transform_point(s.point_a), frame.transform_point(s.point_b));
            CastStep { point_a, point_b, normal: frame.transform_vector(s.normal), ..s }
        }));
    }
    match outcome {
        LinearOutcome::Within => at_start(a, pose_a, b, pose_b, va, vb, max_toi, target),
        LinearOutcome::Hit { toi, point_a, point_b, normal, distance, iterations } => {
            let frame = pose_a.with_translation(pose_a.translation + va * toi);
            let normal = frame.transform_vector(normal);
            let pose_b_toi = pose_b.with_translation(pose_b.translation + vb * toi);
            CastOutput {
                status: CastStatus::Hit,
                toi,
                safe_toi: toi,
                distance,
                point_a: frame.transform_point(point_a),
                point_b: frame.transform_point(point_b),
                normal,
                face_normal: face_normal(b, &pose_b_toi, normal),
                iterations,
            }
        }
        LinearOutcome::Miss { iterations, distance } => CastOutput::miss(max_toi, distance, iterations),
        LinearOutcome::Failed { safe_toi, iterations, distance } => failed(safe_toi, distance, iterations),
    }
}

/// `Failed` with the search proven safe up to `safe_toi`.
pub(super) fn failed<V: Space>(safe_toi: V::Real, distance: V::Real, iterations: u32) -> CastOutput<V> {
    CastOutput {
        status: CastStatus::Failed,
        toi: safe_toi,
        safe_toi,
        distance: if distance.is_finite() { distance } else { V::Real::ZERO },
        point_a: V::ZERO,
        point_b: V::ZERO,
        normal: V::ZERO,
        face_normal: None,
        iterations,
    }
}

/// What the search knows at time 0 when the shapes are within the target there (or within
/// its tolerance band): the contact, and whether they approach.
#[derive(Clone, Copy, Debug)]
pub(super) enum Start<V: Space> {
    /// Within the target and approaching: the answer.
    Within(CastOutput<V>),
    /// Within the target but not approaching (apart, tangential or still).
    Leaving(CastOutput<V>),
    /// The contact's numbers left the float range (squares of coordinates past it): what
    /// is proven is time 0 only, a `Failed` answer.
    OutOfRange(CastOutput<V>),
}

/// The contact at time 0 of shapes found within (about) the target, and whether the
/// closest points approach: the relative velocity of the points along the normal (A to B)
/// is negative.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(super) fn start_state<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    ma: &Motion<V>,
    mb: &Motion<V>,
    target: V::Real,
) -> Start<V> {
    let zero = V::Real::ZERO;
    // The margin reaches past the target by the cast's tolerance, so that a pair the cast
    // found within the band gets its contact (and always one: `distance` backs it up).
    let margin = if target.is_finite() { target * V::Real::TWO + V::Real::ONE } else { V::Real::MAX };
    let (dist, normal, pa, pb, in_range) = match contact(a, pose_a, b, pose_b, margin, None) {
        Some(c) => (c.distance, c.normal, c.point_a, c.point_b, c.status != ContactStatus::NonFiniteSupport),
        None => {
            let d = distance(a, pose_a, b, pose_b);
            (d.distance, d.normal, d.point_a, d.point_b, d.status != GjkStatus::NonFiniteSupport)
        }
    };
    // A contact past the float range carries a placeholder distance (0 between a mesh
    // near the origin and a heightfield 1e156 away: a start "within" them, fuzz target
    // `casts`); it proves nothing.
    if !in_range || !dist.is_finite() {
        return Start::OutOfRange(failed(zero, zero, 0));
    }
    // Touching (within rounding of zero distance), the contact normal is a whole cone and
    // the one above is any of it: whether the shapes go deeper is asked of the motion itself
    // (`touching.rs`). Otherwise the normal is the only one, and the closest points' relative
    // velocity along it is the rate at which the distance changes.
    let (ta, tb) = (pose_a.translation, pose_b.translation);
    let scale =
        pa.abs_elem().max_elem(pb.abs_elem()).max_elem(ta.abs_elem()).max_elem(tb.abs_elem()).max_component();
    let size = (pa - ta).length() + (pb - tb).length() + a.radius() + b.radius();
    let tol =
        V::Real::GJK_REL_TOLERANCE * (target + size) + V::Real::EPSILON * V::Real::from_usize(64) * scale;
    // Approaching means getting closer by more than the tolerance over a motion of twice the
    // shapes' size (whatever `max_toi`: a composite asks its parts with the limit shrunk to
    // the earliest time found, 0 once one starts within); less is sliding along. At the
    // closest points' closing rate along the normal the distance falls at most that rate
    // times the time (the distance is convex in time for translations), which settles most
    // pairs at once; translating pairs that might approach, and touching ones, are decided
    // by the motion itself (`touching.rs`): the sweep's least distance, or its depth.
    let size = size.max(scale * V::Real::EPSILON.sqrt()).max(V::Real::MIN_POSITIVE);
    let cap = size * V::Real::TWO;
    let linear = ma.is_linear() && mb.is_linear();
    let approaching = if dist.abs() <= tol {
        touching::approaches(a, pose_a, b, pose_b, ma, mb, dist.min(zero), size, cap, tol)
    } else {
        let closing = -(mb.point_velocity(pose_b, pb) - ma.point_velocity(pose_a, pa)).dot(normal);
        let speed = (mb.velocity - ma.velocity).length()
            + (V::angular_speed(ma.angular_velocity) + V::angular_speed(mb.angular_velocity)) * size;
        let time = cap / speed;
        let may = closing > zero && closing * time > tol;
        // Apart (within the target): a slow first-order rate can overstate a decrease that
        // stops at once (a box sliding along a wall onto the seam of two of its triangles
        // closes on the next triangle's edge for 1e-5 of its path, then not at all). A rate
        // above `√(tol / size)` of the speed takes the shapes deeper than the tolerance
        // within a motion too short for that.
        let clear = closing > speed * (tol / size).sqrt();
        if may && !clear && linear && dist > zero {
            touching::approaches(a, pose_a, b, pose_b, ma, mb, dist, size, cap, tol)
        } else {
            may
        }
    };
    let out = CastOutput {
        status: CastStatus::StartedWithin,
        toi: zero,
        safe_toi: zero,
        distance: dist,
        point_a: pa,
        point_b: pb,
        normal,
        face_normal: if normal == V::ZERO { None } else { face_normal(b, pose_b, normal) },
        iterations: 0,
    };
    if approaching {
        if dist > target {
            // In the tolerance band above the target: a hit at time 0.
            return Start::Within(CastOutput { status: CastStatus::Hit, ..out });
        }
        Start::Within(out)
    } else {
        Start::Leaving(out)
    }
}

/// [`start_state`] answered for a linear cast, which ends there: approaching pairs are
/// the answer, the others a miss (proven: the distance is convex in time, so once it does
/// not decrease it never comes back down).
#[allow(clippy::too_many_arguments)]
fn at_start<V: Space, A: Support<V> + ?Sized, B: Support<V> + ?Sized>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    va: V,
    vb: V,
    max_toi: V::Real,
    target: V::Real,
) -> CastOutput<V> {
    match start_state(a, pose_a, b, pose_b, &Motion::linear(va), &Motion::linear(vb), target) {
        Start::Within(out) | Start::OutOfRange(out) => out,
        Start::Leaving(out) => CastOutput::miss(max_toi, out.distance, 0),
    }
}
