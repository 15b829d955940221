//! Helpers for the EPA tests (included by `contact_epa.rs` with `#[path]`, so that
//! `common/mod.rs` stays as it is): world-frame point sets in f64, the oracle's penetration for
//! either dimension, overlap along a direction, and support-sampled depth for curved shapes.
#![allow(dead_code)]

use crate::common::{oracle, to_world_f64, RotF64};
use glam::{DVec2, DVec3};
use kollide::math::{Pose, Real};
use kollide::query::Space;
use kollide::shape::Support;

/// The points of a set placed by a pose, in f64 (the pose's own numbers, no f32 rounding).
pub fn world<V: Space>(v: &[V], p: &Pose<V>) -> Vec<DVec3>
where
    V::Rotation: RotF64<V>,
{
    v.iter().map(|&x| DVec3::from_array(to_world_f64(p, x))).collect()
}

fn flat(v: &[DVec3]) -> Vec<DVec2> {
    v.iter().map(|p| p.truncate()).collect()
}

/// The oracle's penetration depth and unit normal (A towards B) of two world point sets,
/// negative depth when they are apart along some axis.
pub fn penetration(dim: usize, wa: &[DVec3], wb: &[DVec3]) -> (f64, DVec3) {
    if dim == 2 {
        let (d, n) = oracle::penetration_2d(&flat(wa), &flat(wb));
        (d, n.extend(0.0))
    } else {
        oracle::penetration_3d(wa, wb)
    }
}

/// `max_A x·n - min_B x·n`: how far B must move along `n` to clear A.
pub fn overlap_along(wa: &[DVec3], wb: &[DVec3], n: DVec3) -> f64 {
    let ha = wa.iter().map(|p| p.dot(n)).fold(f64::MIN, f64::max);
    let lb = wb.iter().map(|p| p.dot(n)).fold(f64::MAX, f64::min);
    ha - lb
}

/// Distance from a point to the hull of a world point set (0 inside).
pub fn distance_to_hull(dim: usize, p: DVec3, w: &[DVec3]) -> f64 {
    if dim == 2 {
        oracle::polygon_distance_2d(&[p.truncate()], &flat(w))
    } else {
        oracle::polytope_distance_3d(&[p], w)
    }
}

/// The largest coordinate magnitude of the sets: the scale of rounding.
pub fn size(sets: &[&[DVec3]]) -> f64 {
    sets.iter().flat_map(|s| s.iter()).map(|p| p.abs().max_element()).fold(0.0, f64::max)
}

/// Unit directions covering the circle (2D) or the sphere (3D, Fibonacci lattice).
pub fn directions(dim: usize, n: usize) -> Vec<DVec3> {
    (0..n)
        .map(|i| {
            if dim == 2 {
                let t = i as f64 / n as f64 * std::f64::consts::TAU;
                DVec3::new(t.cos(), t.sin(), 0.0)
            } else {
                let z = 1.0 - (2.0 * i as f64 + 1.0) / n as f64;
                let r = (1.0 - z * z).sqrt();
                let phi = i as f64 * std::f64::consts::PI * (3.0 - 5f64.sqrt());
                DVec3::new(r * phi.cos(), r * phi.sin(), z)
            }
        })
        .collect()
}

/// The depth along the world direction `u` of two shapes (cores plus radii) placed by
/// poses: `max_A x·u - min_B x·u`, through the shapes' supports, in f64 after the support.
pub fn depth_along<V: Space, A: Support<V>, B: Support<V>>(
    a: &A,
    pa: &Pose<V>,
    b: &B,
    pb: &Pose<V>,
    u: DVec3,
) -> f64
where
    V::Rotation: RotF64<V>,
{
    let local = |p: &Pose<V>, u: DVec3| p.inverse_transform_vector(V::from_f64_array(u.to_array()));
    let sa = DVec3::from_array(to_world_f64(pa, a.support(local(pa, u))));
    let sb = DVec3::from_array(to_world_f64(pb, b.support(local(pb, -u))));
    sa.dot(u) - sb.dot(u) + a.radius().to_f64() + b.radius().to_f64()
}

/// The least depth over `dirs` and the direction reaching it: an upper bound of the true
/// penetration depth, within the sampling error of it.
pub fn sampled_depth<V: Space, A: Support<V>, B: Support<V>>(
    a: &A,
    pa: &Pose<V>,
    b: &B,
    pb: &Pose<V>,
    dirs: &[DVec3],
) -> (f64, DVec3)
where
    V::Rotation: RotF64<V>,
{
    dirs.iter().map(|&u| (depth_along(a, pa, b, pb, u), u)).fold((f64::MAX, DVec3::X), |best, x| {
        if x.0 < best.0 {
            x
        } else {
            best
        }
    })
}
