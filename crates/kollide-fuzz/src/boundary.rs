//! Inputs built at the boundary, where the fuzzer's random placements almost never land:
//! two convex shapes placed exactly touching along a direction drawn from the bytes (so the
//! direction is in the contact's cone of normals, whatever the features), with motions out
//! along it, into it, or tangent to it from a distance (a graze); rays tangent to a shape;
//! spheres tangent to a triangle's edge. Each construction has its own promise on top of the
//! target's usual ones.

use crate::build::Space;
use crate::bytes::Bytes;
use crate::promises::{dot, f, len, promise, rel, sub};
use kollide::math::{Pose, Real};
use kollide::query::cast::{CastInput, CastStatus, Motion, Ray, RayOutcome};
use kollide::shape::Support;
use kollide::world;

/// A unit direction from the bytes (`None` for a zero or non-finite draw).
fn direction<V: kollide::query::Space>(b: &mut Bytes) -> Option<V> {
    let v = V::from_f64_array([b.tame(1.0), b.tame(1.0), b.tame(1.0)]);
    let l = v.length();
    (l.to_f64() > 1e-3 && l.is_finite()).then(|| v / l)
}

/// The point of the placed convex shape farthest along the world direction `n`, its
/// radius included.
fn extreme<V: kollide::query::Space, S: Support<V>>(s: &S, pose: &Pose<V>, n: V) -> V {
    pose.transform_point(s.support(pose.inverse_transform_vector(n))) + n * s.radius()
}

/// B's pose moved so that it touches A with `n` (A towards B) in the contact's normal cone.
fn touching_pose<V: kollide::query::Space, S: Support<V>>(
    a: &S,
    pa: &Pose<V>,
    b: &S,
    pb: &Pose<V>,
    n: V,
) -> Option<Pose<V>> {
    let shift = extreme(a, pa, n) - extreme(b, pb, -n);
    Pose::try_new(pb.translation + shift, pb.rotation).ok()
}

/// The separation of the placed shapes along the unit world direction `n` (A towards B).
fn separation<V: kollide::query::Space, S: Support<V>>(
    a: &S,
    pa: &Pose<V>,
    b: &S,
    pb: &Pose<V>,
    n: V,
) -> f64 {
    dot(f(extreme(b, pb, -n)), f(n)) - dot(f(extreme(a, pa, n)), f(n))
}

/// Shape casts of two convex shapes built touching (see the module docs): moving B out
/// along the touching direction is a miss; into it, `StartedWithin` (or a hit at once);
/// grazing from afar, a hit no later than the touch, with a normal along which the shapes
/// are apart then (or `Failed` with a safe time no later than the touch).
pub fn cast<V: Space>(b: &mut Bytes, a: &V::Convex, pa: Pose<V>, sb: &V::Convex, pb: Pose<V>, mode: usize) {
    let Some(n) = direction::<V>(b) else { return };
    let Some(pb) = touching_pose(a, &pa, sb, &pb, n) else { return };
    let speed = 0.1 + b.tame(2.0).abs();
    let va = V::from_f64_array([b.tame(1.0), b.tame(1.0), b.tame(1.0)]);
    let size = [(a.clone(), pa), (sb.clone(), pb)]
        .iter()
        .map(|(s, p)| {
            let r = len(f(p.translation));
            (0..V::DIM).map(|i| len(f(extreme(s, p, V::axis(i))))).fold(r, f64::max)
        })
        .fold(0.0, f64::max);
    // Each shape well above the rounding of the scene's coordinates (a cube 1e-100 across
    // beside a hull of size 7 is a point to every computation).
    let extent = |s: &V::Convex, p: &Pose<V>| {
        (0..V::DIM)
            .map(|i| len(sub(f(extreme(s, p, V::axis(i))), f(extreme(s, p, -V::axis(i))))))
            .fold(0.0, f64::max)
    };
    let least = extent(a, &pa).min(extent(sb, &pb));
    if !(size.is_finite() && size < 1e6 && size > 1e-6 && least > 1e-4 * size) {
        return;
    }
    let tol = rel::<V>() * (size + speed) * 4.0;
    let (sa, sbw) = (V::wrap(a.clone()), V::wrap(sb.clone()));
    let run = |pb: &Pose<V>, vb: V, max: f64| {
        let input = CastInput {
            motion_a: Motion::linear(va),
            motion_b: Motion::linear(vb),
            max_toi: V::Real::from_f64(max),
            target_distance: V::Real::ZERO,
        };
        world::shape_cast(&sa, &pa, &sbw, pb, &input).map(|o| o.value)
    };
    let ctx = |what: &str, out: &dyn std::fmt::Debug| {
        format!("{what}: touching along {n:?}, va {va:?}, speed {speed}: {out:?}\nA = {a:?} at {pa:?}\nB = {sb:?} at {pb:?}")
    };
    match mode {
        1 => {
            let Some(out) = run(&pb, va + n * V::Real::from_f64(speed), 1.0) else { return };
            promise(
                out.status == CastStatus::Miss,
                "touching and moving out along a contact normal misses",
                || ctx("out", &out),
            );
        }
        2 => {
            let Some(out) = run(&pb, va - n * V::Real::from_f64(speed), 1.0) else { return };
            let at_once = out.status == CastStatus::StartedWithin
                || out.status == CastStatus::Hit && out.toi.to_f64() * speed <= tol;
            promise(at_once, "touching and moving in along a contact normal starts within", || {
                ctx("in", &out)
            });
        }
        _ => {
            // Tangent to n, touching at t_c = 1/2, from afar.
            let Some(t) = direction::<V>(b) else { return };
            let t = t - n * t.dot(n);
            let tl = t.length();
            if tl.to_f64().is_nan() || tl.to_f64() <= 1e-2 {
                return;
            }
            let v = t / tl * V::Real::from_f64(speed);
            let Ok(start) = Pose::try_new(pb.translation - v * V::Real::HALF, pb.rotation) else { return };
            let Some(out) = run(&start, va + v, 1.0) else { return };
            let late = 0.5 + tol / speed;
            match out.status {
                CastStatus::Hit => {
                    let toi = out.toi.to_f64();
                    promise(toi <= late, "a graze is hit no later than the touch", || ctx("graze", &out));
                    let at_a = Pose::try_new(pa.translation + va * out.toi, pa.rotation).ok();
                    let at_b = Pose::try_new(start.translation + (va + v) * out.toi, start.rotation).ok();
                    if let (Some(at_a), Some(at_b)) = (at_a, at_b) {
                        let sep = separation(a, &at_a, sb, &at_b, out.normal);
                        promise(sep >= -tol, "the normal of a hit is a separating direction", || {
                            format!("{}\nseparation along it {sep}", ctx("graze", &out))
                        });
                    }
                }
                CastStatus::Failed => {
                    promise(
                        out.safe_toi.to_f64() <= late,
                        "a failed graze is safe only up to the touch",
                        || ctx("graze", &out),
                    );
                }
                _ => promise(false, "a graze that touches is hit", || ctx("graze", &out)),
            }
        }
    }
}

/// A ray tangent to a convex shape at the point farthest along a drawn direction `n`: a
/// hit's normal is an outward normal there (the shape lies behind its plane).
pub fn ray<V: Space>(b: &mut Bytes, s: &V::Convex, pose: Pose<V>) {
    let (Some(n), Some(t)) = (direction::<V>(b), direction::<V>(b)) else { return };
    let t = t - n * t.dot(n);
    if t.length().to_f64().is_nan() || t.length().to_f64() <= 1e-2 {
        return;
    }
    let p = extreme(s, &pose, n);
    let along = V::Real::from_f64(0.5 + b.tame(4.0).abs());
    let Ok(ray) = Ray::try_new(p - t * along, t) else { return };
    let size = len(f(pose.translation)) + len(sub(f(p), f(pose.translation)));
    if !(size.is_finite() && size < 1e6) {
        return;
    }
    let tol = rel::<V>() * (size + along.to_f64());
    let shape = V::wrap(s.clone());
    let out = world::ray_cast(&shape, &pose, &ray, V::Real::from_f64(1e3)).map(|h| h.value);
    if let Some(RayOutcome::Hit(h)) = out {
        let far = f(extreme(s, &pose, h.normal));
        let beyond = dot(far, f(h.normal)) - dot(f(h.point), f(h.normal));
        // A unit normal is a direction to a few ulps: over a shape that reaches 1e19 from
        // the point (a segment that long), those ulps alone put it hundreds beyond.
        let turn = 64.0 * V::Real::EPSILON.to_f64() * len(sub(far, f(h.point)));
        promise(beyond <= tol * 8.0 + turn, "the normal of a grazing ray's hit is outward", || {
            format!(
                "tangent ray {ray:?} along {n:?}: {out:?}\nshape {s:?} at {pose:?}\nreaches {beyond} beyond"
            )
        });
    }
}

/// A sphere built tangent to the line of a triangle's edge (centre at the radius from a
/// point of the edge, in a drawn direction across it), moving along the edge at a drawn
/// angle: the soup's usual promises judge it.
pub fn sphere_at_edge<V: kollide::math::Vector3 + kollide::query::Space>(
    b: &mut Bytes,
    tri: [V; 3],
) -> Option<(V, V::Real, V)> {
    let (p, q) = (tri[0], tri[1]);
    let e = q - p;
    let el = e.length();
    if !(el.to_f64() > 1e-6 && el.is_finite()) {
        return None;
    }
    let e = e / el;
    let w = direction::<V>(b)?;
    let w = w - e * w.dot(e);
    let wl = w.length();
    if wl.to_f64().is_nan() || wl.to_f64() <= 1e-2 {
        return None;
    }
    let w = w / wl;
    let r = V::Real::from_f64(0.05 + b.tame(1.0).abs());
    let at = p + (q - p) * V::Real::from_f64(0.5 + b.tame(0.45));
    let angle = b.tame(1.5);
    let into = V::Real::from_f64(if b.bool() { 0.0 } else { b.tame(1e-3) });
    let dir = e * V::Real::from_f64(angle.cos()) + w.cross3(e) * V::Real::from_f64(angle.sin()) - w * into;
    let length = r * V::Real::from_f64(1.0 + b.tame(3.0).abs());
    let centre = at + w * r - dir * (length * V::Real::HALF);
    Some((centre, r, dir * length))
}
