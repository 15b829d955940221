//! f64 brute force for solid 3D polytopes (at least 4 points not coplanar), fast enough for
//! hulls of 64 points: boundary triangles by brute force over triples, then the least
//! overlap over their normals and the cross products of their edges (a superset of the face
//! normals of the Minkowski difference, so the least overlap is the penetration depth).
#![allow(dead_code)]

use crate::common::oracle::boundary_triangles;
use crate::common::{to_world_f64, RotF64};
use glam::DVec3;
use kollide::math::Pose;
use kollide::query::Space;

/// The corners of the box `[-he, he]`, bit `i` of the index the sign of coordinate `i`.
pub fn corners<V: Space>(he: V) -> Vec<V> {
    (0..8)
        .map(|m| {
            let s: [f64; 3] = core::array::from_fn(|i| if m >> i & 1 == 1 { 1.0 } else { -1.0 });
            he.mul_elem(V::from_f64_array(s))
        })
        .collect()
}

/// Local points placed by `pose`, in f64 from the pose's own numbers.
pub fn world<V: Space>(pose: &Pose<V>, v: &[V]) -> Vec<DVec3>
where
    V::Rotation: RotF64<V>,
{
    v.iter().map(|&p| DVec3::from_array(to_world_f64(pose, p))).collect()
}

/// A vector in f64.
pub fn d3<V: Space>(p: V) -> DVec3 {
    DVec3::from_array(p.to_f64_array())
}

/// Face planes `(unit normal, offset)` of the hull of `v`, outward.
pub fn planes(v: &[DVec3]) -> Vec<(DVec3, f64)> {
    let c = v.iter().copied().sum::<DVec3>() / v.len() as f64;
    boundary_triangles(v)
        .into_iter()
        .map(|[i, j, k]| {
            let mut n = (v[j] - v[i]).cross(v[k] - v[i]).normalize();
            if n.dot(c - v[i]) > 0.0 {
                n = -n;
            }
            (n, n.dot(v[i]))
        })
        .collect()
}

/// The largest signed plane distance of `p` over `planes`: 0 on the surface, negative inside
/// (minus the distance to the boundary), positive outside.
pub fn signed(planes: &[(DVec3, f64)], p: DVec3) -> f64 {
    planes.iter().map(|(n, d)| n.dot(p) - d).fold(f64::MIN, f64::max)
}

/// Penetration depth and unit normal from A to B (negative depth = separated along it).
pub fn penetration(va: &[DVec3], vb: &[DVec3]) -> (f64, DVec3) {
    let mut axes: Vec<DVec3> = vec![];
    let edges = |v: &[DVec3]| {
        let mut ids = vec![];
        for [i, j, k] in boundary_triangles(v) {
            ids.extend([(i.min(j), i.max(j)), (j.min(k), j.max(k)), (i.min(k), i.max(k))]);
        }
        ids.sort_unstable();
        ids.dedup();
        ids.into_iter().map(|(i, j)| v[j] - v[i]).collect::<Vec<_>>()
    };
    for v in [va, vb] {
        axes.extend(planes(v).into_iter().map(|(n, _)| n));
    }
    let (ea, eb) = (edges(va), edges(vb));
    for x in &ea {
        for y in &eb {
            let c = x.cross(*y);
            if c.length() > 1e-12 * x.length() * y.length() {
                axes.push(c.normalize());
            }
        }
    }
    let mut best = (f64::MAX, DVec3::X);
    for n in axes {
        for u in [n, -n] {
            let ha = va.iter().map(|p| p.dot(u)).fold(f64::MIN, f64::max);
            let lb = vb.iter().map(|p| p.dot(u)).fold(f64::MAX, f64::min);
            if ha - lb < best.0 {
                best = (ha - lb, u);
            }
        }
    }
    best
}

/// `max_A u - min_B u`: how far A and B overlap along the unit axis `u`.
pub fn overlap_along(va: &[DVec3], vb: &[DVec3], u: DVec3) -> f64 {
    va.iter().map(|p| p.dot(u)).fold(f64::MIN, f64::max)
        - vb.iter().map(|p| p.dot(u)).fold(f64::MAX, f64::min)
}
