//! Continuous collision against a composite: rays (first hit and all hits) and shape casts,
//! through the candidate parts the composite's walk proposes near to far.
//!
//! Poses, rays and answers are in the **world frame**; the walks run in the composite's
//! local frame (the ray or the motion is mapped there once). `None` means nothing is hit.

use super::query::box_in;
use super::Composite;
use super::Found;
use crate::math::{at_least, Aabb, Pose, Real};
use crate::query::cast::{CastInput, CastOutput, CastStatus, Ray, RayHit, RayOutcome};
use crate::query::Space;
use crate::shape::{local_bounding_box, Support, Transformed};

/// A ray result in the composite's frame placed in the world.
fn hit_to_world<V: Space>(pose: &Pose<V>, h: RayHit<V>) -> RayHit<V> {
    RayHit { toi: h.toi, point: pose.transform_point(h.point), normal: pose.transform_vector(h.normal) }
}

fn outcome_to_world<V: Space>(pose: &Pose<V>, o: RayOutcome<V>) -> RayOutcome<V> {
    match o {
        RayOutcome::Hit(h) => RayOutcome::Hit(hit_to_world(pose, h)),
        RayOutcome::Inside { exit } => RayOutcome::Inside { exit: hit_to_world(pose, exit) },
        RayOutcome::Miss => RayOutcome::Miss,
    }
}

/// The ray's time of a part's outcome (0 inside).
fn outcome_toi<V: Space>(o: &RayOutcome<V>) -> Option<V::Real> {
    match o {
        RayOutcome::Hit(h) => Some(h.toi),
        RayOutcome::Inside { .. } => Some(V::Real::ZERO),
        RayOutcome::Miss => None,
    }
}

/// The first part the ray meets within `[0, max_toi]` (in units of the ray's direction)
/// and where: [`RayOutcome::Hit`], or [`RayOutcome::Inside`] when the origin lies in a
/// solid part (a compound's); `None` when it meets nothing. World frame.
///
/// The composite's walk offers parts near to far ([`Composite::cast_ray`]) and
/// [`ray_cast`] answers each with the time limit shrunk to the best hit so far. Meshes and
/// terrains are surfaces: a ray starting on a triangle hits it at 0.
///
/// ```
/// use kollide::composite::{self, TriMesh};
/// use kollide::query::cast::{Ray, RayOutcome};
/// use kollide::math::{DPose3, DVec3};
/// let floor = TriMesh::new(
///     vec![DVec3::new(-1.0, 0.0, -1.0), DVec3::new(1.0, 0.0, -1.0), DVec3::new(1.0, 0.0, 1.0), DVec3::new(-1.0, 0.0, 1.0)],
///     vec![[0, 2, 1], [0, 3, 2]],
/// );
/// let down = Ray::new(DVec3::new(0.5, 2.0, -0.25), DVec3::NEG_Y);
/// let hit = composite::ray_cast(&floor, &DPose3::IDENTITY, &down, 10.0).unwrap();
/// assert_eq!(hit.part_a, Some(0));
/// let RayOutcome::Hit(h) = hit.value else { panic!() };
/// assert!((h.toi - 2.0).abs() < 1e-12);
/// ```
#[must_use]
pub fn ray_cast<V: Space, C: Composite<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    ray: &Ray<V>,
    max_toi: V::Real,
) -> Option<Found<RayOutcome<V>>> {
    if !at_least(max_toi, V::Real::ZERO) {
        return None;
    }
    let local = ray.to_local(pose_c);
    c.first_ray_hit(&local, max_toi).map(|(part, o)| Found::on_part(part, outcome_to_world(pose_c, o)))
}

/// Every part the ray meets within `[0, max_toi]`, with where it enters each
/// ([`RayOutcome::Hit`]) or, for a solid part holding the origin, where it leaves
/// ([`RayOutcome::Inside`], at time 0); sorted by time, then by part. World frame.
///
/// ```
/// use kollide::composite::{self, TriMesh};
/// use kollide::query::cast::Ray;
/// use kollide::math::{DPose3, DVec3};
/// // Two parallel floors, at y = 0 and y = 1.
/// let v = |x: f64, y: f64, z: f64| DVec3::new(x, y, z);
/// let floors = TriMesh::new(
///     vec![v(-1.0, 0.0, -1.0), v(1.0, 0.0, -1.0), v(0.0, 0.0, 1.0), v(-1.0, 1.0, -1.0), v(1.0, 1.0, -1.0), v(0.0, 1.0, 1.0)],
///     vec![[0, 2, 1], [3, 5, 4]],
/// );
/// let hits = composite::ray_hits(&floors, &DPose3::IDENTITY, &kollide::query::cast::Ray::new(v(0.0, 5.0, 0.0), DVec3::NEG_Y), 100.0);
/// assert_eq!(hits.iter().map(|h| h.part_a).collect::<Vec<_>>(), [Some(1), Some(0)]);
/// ```
#[must_use]
pub fn ray_hits<V: Space, C: Composite<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    ray: &Ray<V>,
    max_toi: V::Real,
) -> Vec<Found<RayOutcome<V>>> {
    let mut out = Vec::new();
    if !at_least(max_toi, V::Real::ZERO) {
        return out;
    }
    let local = ray.to_local(pose_c);
    c.visit_ray(local.origin(), local.direction(), max_toi, |i| {
        let pose = c.part_pose(i).unwrap_or(Pose::IDENTITY);
        let o = crate::query::cast::ray_cast(&c.part(i), &pose, &local, max_toi);
        if !matches!(o, RayOutcome::Miss) {
            out.push(Found::on_part(i, outcome_to_world(pose_c, o)));
        }
        true
    });
    out.sort_by(|x, y| {
        let key = |h: &Found<RayOutcome<V>>| outcome_toi(&h.value).map_or(f64::INFINITY, |t| t.to_f64());
        key(x).total_cmp(&key(y)).then(x.part_a.cmp(&y.part_a))
    });
    out
}

/// The earliest time of impact between the composite `c` (moving by `input.motion_a`) and
/// the convex shape `b` (moving by `input.motion_b`), with the part hit: [`shape_cast`] on
/// the candidate parts, each asked only up to the best time so far. World frame.
///
/// The candidates: for translations alone, the parts B's box meets as it sweeps (the
/// composite's [`Composite::cast_aabb`], near to far); when B turns, the parts within
/// reach of its path; when the composite turns, every part within reach of B over the
/// interval (all of them for an unbounded interval). `None` when no part is hit within
/// `max_toi` ([`CastStatus::Miss`]).
///
/// Statuses: the earliest `Hit` or `StartedWithin` wins (of several parts overlapping B at
/// the start, the deepest); when a part's cast ends `Failed`
/// before the earliest hit (a rotating graze past the iteration cap), the answer is that
/// `Failed` with the least proven `safe_toi`, since the hit may not be the first.
///
/// ```
/// use kollide::composite::{self, TriMesh};
/// use kollide::query::cast::{CastInput, CastStatus};
/// use kollide::shape::Cuboid;
/// use kollide::math::{DPose3, DVec3};
/// let floor = TriMesh::new(
///     vec![DVec3::new(-4.0, 0.0, -4.0), DVec3::new(4.0, 0.0, -4.0), DVec3::new(4.0, 0.0, 4.0), DVec3::new(-4.0, 0.0, 4.0)],
///     vec![[0, 2, 1], [0, 3, 2]],
/// );
/// // A box dropped from 3 units up at speed 2.
/// let input = CastInput::linear(DVec3::ZERO, DVec3::new(0.0, -2.0, 0.0), 10.0);
/// let out = composite::shape_cast(&floor, &DPose3::IDENTITY, &Cuboid::new(DVec3::splat(0.5)),
///     &DPose3::from_translation(DVec3::new(0.3, 3.0, 0.2)), &input).unwrap();
/// assert_eq!(out.value.status, CastStatus::Hit);
/// assert!((out.value.toi - 1.25).abs() < 1e-6);
/// ```
#[must_use]
pub fn shape_cast<V: Space, C: Composite<V> + ?Sized, B: Support<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    input: &CastInput<V>,
) -> Option<Found<CastOutput<V>>> {
    let zero = V::Real::ZERO;
    if !at_least(input.max_toi, zero) {
        return None;
    }
    let target = if input.target_distance > zero { input.target_distance } else { zero };
    let mut best: Option<Found<CastOutput<V>>> = None;
    let mut failed: Option<Found<CastOutput<V>>> = None;
    let turning_c = V::angular_speed(input.motion_a.angular_velocity) > zero;
    let mut offer = |i: u32, limit: V::Real| -> Option<V::Real> {
        let part_input = CastInput { max_toi: limit, ..*input };
        let out = match c.part_pose(i) {
            // A turning composite carries its parts on arcs about its origin: the part is
            // cast as a shape of the composite's frame, moving with the composite.
            Some(local) if turning_c => crate::query::cast::shape_cast(
                &Transformed { shape: c.part(i), pose: local },
                pose_c,
                b,
                pose_b,
                &part_input,
                None,
            ),
            // Without turning every point of the composite has its velocity.
            _ => crate::query::cast::shape_cast(
                &c.part(i),
                &super::query::part_pose(c, i, pose_c),
                b,
                pose_b,
                &part_input,
                None,
            ),
        };
        match out.status {
            CastStatus::Miss => None,
            CastStatus::Failed => {
                if failed.as_ref().is_none_or(|f| out.safe_toi < f.value.safe_toi) {
                    failed = Some(Found::on_part(i, out));
                }
                None
            }
            CastStatus::Hit | CastStatus::StartedWithin => {
                if best.as_ref().is_none_or(|b| earlier(&out, &b.value)) {
                    best = Some(Found::on_part(i, out));
                    return Some(out.toi);
                }
                None
            }
        }
    };
    let pose_cb = pose_c.inv_compose(pose_b);
    let turning_b = V::angular_speed(input.motion_b.angular_velocity) > zero;
    // B's velocity relative to the composite, in the composite's frame (exact when the
    // composite does not turn).
    let rel = pose_c.inverse_transform_vector(input.motion_b.velocity - input.motion_a.velocity);
    if !turning_c {
        let start = if turning_b {
            // Everything B can reach while turning about its origin.
            let reach = reach_of(b);
            Aabb::from_ball(pose_cb.translation, reach)
        } else {
            box_in(b, &pose_cb).unwrap_or_else(|| Aabb::from_ball(pose_cb.translation, V::Real::INFINITY))
        };
        let start = start.loosened(target);
        c.cast_aabb(&start, rel, input.max_toi, &mut offer);
    } else {
        // The composite turns: B stays within |d0| + |v_rel| t + reach of its origin.
        let t = input.max_toi;
        let radius = pose_cb.translation.length() + rel.length() * t + reach_of(b) + target;
        let everything = if radius.is_finite() {
            Aabb::from_ball(V::ZERO, radius)
        } else {
            Aabb::new(V::splat(-V::Real::INFINITY), V::splat(V::Real::INFINITY))
        };
        let mut limit = t;
        c.visit_overlaps(&everything, |i| {
            if let Some(toi) = offer(i, limit) {
                limit = toi;
            }
            true
        });
    }
    match (best, failed) {
        (Some(b), Some(f)) if f.value.safe_toi < b.value.toi => Some(f),
        (None, Some(f)) => Some(f),
        (b, _) => b,
    }
}

/// Whether `x` comes before `y` as the answer of a composite cast: an earlier time, or at
/// the same start the deeper overlap (the deepest part, whatever order the walk took).
pub(crate) fn earlier<V: Space>(x: &CastOutput<V>, y: &CastOutput<V>) -> bool {
    let started = |o: &CastOutput<V>| o.status == CastStatus::StartedWithin;
    if started(x) && started(y) {
        return x.distance < y.distance;
    }
    x.toi < y.toi || (x.toi == y.toi && started(x) && !started(y))
}

/// How far B reaches from its origin (its local box's farthest corner).
fn reach_of<V: Space, B: Support<V> + ?Sized>(b: &B) -> V::Real {
    let bx = local_bounding_box(b);
    bx.min.abs_elem().max_elem(bx.max.abs_elem()).length()
}
