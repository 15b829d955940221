//! Box-box contact in 3D by separating axes, with the exact penetration depth: the 3 + 3
//! face normals and the 9 edge-edge cross products (Gottschalk, Lin & Manocha, "OBBTree",
//! SIGGRAPH 1996; Ericson, *Real-Time Collision Detection*, §4.4.1), with B's rotation as a
//! matrix and each projection radius a sum of half extents times absolute matrix entries.
//!
//! Every box-box edge pair builds a face of the Minkowski difference, so no Gauss-map
//! pruning is needed; nearly parallel edges are skipped as in `polytope3d.rs`.

use super::poly3d::face_witness;
use super::{record, SatAxis, SatOutcome, SatTrace};
use crate::math::{Pose, Real, Rotation, Vector3};
use crate::query::closed_form::segment_segment;
use crate::query::contact::output::{ContactStatus, CoreContact};
use crate::query::Space;
use crate::shape::Cuboid;

/// `+1` or `-1`, the sign of `x` (`+1` for 0).
#[inline(always)]
fn sign<S: Real>(x: S) -> S {
    if x >= S::ZERO {
        S::ONE
    } else {
        -S::ONE
    }
}

/// Which axis gave the least overlap.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Axis {
    /// A's face normal `i`.
    FaceA(usize),
    /// B's face normal `j`.
    FaceB(usize),
    /// A's edge direction `i` crossed with B's edge direction `j`.
    Edges(usize, usize),
}

/// The axis of least overlap of two boxes, with what was computed on the way (A's frame).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LeastOverlap<V: Space> {
    /// The separation along the axis (negative: the overlap).
    pub sep: V::Real,
    pub axis: Axis,
    /// The axis as a unit normal from A towards B.
    pub normal: V,
    /// B's axes in A's frame.
    pub bx: [V; 3],
    /// B's centre in A's frame.
    pub t: V,
    /// The size of the coordinates (for rounding tolerances).
    pub size: V::Real,
    /// The rounding of a separation: ties within it go to face axes.
    pub bias: V::Real,
}

/// The separating-axis test of the boxes `[-ha, ha]` (A's frame) and `[-hb, hb]` placed by
/// `pose_ab`: `None` when an axis separates them by more than `threshold`, else the axis of
/// least overlap (the contact normal of both `contact` and the box-box manifold, which must
/// agree).
#[inline]
pub(crate) fn least_overlap<V: Space>(
    ha: V,
    hb: V,
    pose_ab: &Pose<V>,
    threshold: V::Real,
    mut trace: SatTrace<'_, V>,
) -> Option<LeastOverlap<V>> {
    let m = pose_ab.rotation.applied();
    let rot = |v: V| <V::Rotation as Rotation<V>>::apply(&m, v);
    // B's axes in A's frame.
    let bx = [rot(V::axis(0)), rot(V::axis(1)), rot(V::axis(2))];
    let abs = [bx[0].abs_elem(), bx[1].abs_elem(), bx[2].abs_elem()];
    let t = pose_ab.translation;
    let size = ha.length() + hb.length() + t.length();
    let bias = V::Real::EPSILON * V::Real::from_usize(16) * size;

    // Faces of A: axis i, B's radius Σ_j hb_j |bx_j[i]|.
    let mut best = (-V::Real::INFINITY, Axis::FaceA(0));
    for i in 0..3 {
        let rb = hb[0] * abs[0][i] + hb[1] * abs[1][i] + hb[2] * abs[2][i];
        let sep = t[i].abs() - ha[i] - rb;
        if sep > best.0 {
            best = (sep, Axis::FaceA(i));
        }
        record(&mut trace, SatAxis::FaceA(i), V::axis(i) * sign(t[i]), sep, best.0);
        if sep > threshold {
            return None;
        }
    }
    // Faces of B: axis bx_j, A's radius Σ_i ha_i |bx_j[i]|.
    for j in 0..3 {
        let sep = bx[j].dot(t).abs() - hb[j] - ha.dot(abs[j]);
        if sep > best.0 + bias {
            best = (sep, Axis::FaceB(j));
        }
        record(&mut trace, SatAxis::FaceB(j), bx[j] * sign(bx[j].dot(t)), sep, best.0);
        if sep > threshold {
            return None;
        }
    }
    let face_best = best.0;
    let cut = V::Real::from_usize(16) * V::Real::EPSILON;
    for i in 0..3 {
        for j in 0..3 {
            let l = V::axis(i).cross_or_zero(bx[j]);
            let l2 = l.length_squared();
            if l2 <= cut {
                continue; // nearly parallel edges: the faces decide
            }
            let ra = ha.dot(l.abs_elem());
            let (k1, k2) = ((j + 1) % 3, (j + 2) % 3);
            let rb = hb[k1] * l.dot(bx[k1]).abs() + hb[k2] * l.dot(bx[k2]).abs();
            let sep = (l.dot(t).abs() - ra - rb) / l2.sqrt();
            if sep > best.0 && sep > face_best + bias {
                best = (sep, Axis::Edges(i, j));
            }
            if trace.is_some() {
                record(&mut trace, SatAxis::Edges(i, j), l * (sign(l.dot(t)) / l2.sqrt()), sep, best.0);
            }
            if sep > threshold {
                return None;
            }
        }
    }
    let normal = match best.1 {
        Axis::FaceA(i) => V::axis(i) * sign(t[i]),
        Axis::FaceB(j) => bx[j] * sign(bx[j].dot(t)),
        Axis::Edges(i, j) => {
            let l = V::axis(i).cross_or_zero(bx[j]);
            l * (sign(l.dot(t)) / l.length())
        }
    };
    Some(LeastOverlap { sep: best.0, axis: best.1, normal, bx, t, size, bias })
}

/// The witnesses of an edge-edge axis `n`: the closest points of A's edge along axis `i`
/// at the corner farthest along `n` and B's edge along `bx[j]` at its corner farthest
/// along `-n` (B's centre `t`, all in A's frame).
#[inline]
pub(crate) fn edge_witness<V: Space>(ha: V, hb: V, bx: &[V; 3], t: V, n: V, i: usize, j: usize) -> (V, V) {
    let mut ca = ha.mul_elem(n.sign_elem());
    let half_a = V::axis(i) * ha[i];
    ca -= V::axis(i) * ca[i];
    let mut cb = t;
    for k in 0..3 {
        if k != j {
            cb -= bx[k] * (hb[k] * sign(n.dot(bx[k])));
        }
    }
    let half_b = bx[j] * hb[j];
    segment_segment(ca - half_a, ca + half_a, cb - half_b, cb + half_b)
}

/// The separating-axis contact of the boxes `[-ha, ha]` (A's frame) and `[-hb, hb]` placed
/// by `pose_ab`, in A's frame.
#[inline]
pub(crate) fn contact<V: Vector3 + Space>(
    ha: V,
    hb: V,
    pose_ab: &Pose<V>,
    threshold: V::Real,
    trace: SatTrace<'_, V>,
) -> SatOutcome<V> {
    let zero = V::Real::ZERO;
    let Some(LeastOverlap { sep, axis, normal: n, bx, t, size, bias }) =
        least_overlap(ha, hb, pose_ab, threshold, trace)
    else {
        return SatOutcome::Separated;
    };
    // Apart by more than rounding: GJK measures the gap. Within rounding of touching, the
    // axis is the answer (GJK would find a zero gap with no direction in it).
    if sep > bias {
        return SatOutcome::Apart;
    }
    let tol = V::Real::EPSILON * V::Real::from_usize(64) * size;
    let (normal, point_a, point_b) = match axis {
        Axis::FaceA(i) => {
            // B's deepest corner along -n, and its foot on A's face.
            let mut q = t;
            for j in 0..3 {
                q -= bx[j] * (hb[j] * sign(n.dot(bx[j])));
            }
            let p = q - n * sep;
            let (u, w) = ((i + 1) % 3, (i + 2) % 3);
            if p[u].abs() <= ha[u] + tol && p[w].abs() <= ha[w] + tol {
                (n, p, q)
            } else {
                let (pa, pb) = face_witness(
                    &Cuboid { half_extents: ha },
                    &Cuboid { half_extents: hb },
                    pose_ab,
                    2 * i + usize::from(n[i] > zero),
                    n,
                    sep,
                );
                (n, pa, pb)
            }
        }
        Axis::FaceB(j) => {
            // A's deepest corner along n, and its foot on B's face.
            let p = ha.mul_elem(n.sign_elem());
            let q = p + n * sep;
            let local = pose_ab.inverse_transform_point(q);
            let (u, w) = ((j + 1) % 3, (j + 2) % 3);
            if local[u].abs() <= hb[u] + tol && local[w].abs() <= hb[w] + tol {
                (n, p, q)
            } else {
                let flipped = Pose::new(pose_ab.inverse_transform_point(V::ZERO), pose_ab.rotation.inverse());
                let nb = -V::axis(j) * sign(bx[j].dot(t));
                let face = 2 * j + usize::from(nb[j] > zero);
                let (qb, pb) = face_witness(
                    &Cuboid { half_extents: hb },
                    &Cuboid { half_extents: ha },
                    &flipped,
                    face,
                    nb,
                    sep,
                );
                (n, pose_ab.transform_point(pb), pose_ab.transform_point(qb))
            }
        }
        Axis::Edges(i, j) => {
            let (pa, pb) = edge_witness(ha, hb, &bx, t, n, i, j);
            (n, pa, pb)
        }
    };
    let distance = sep;
    SatOutcome::Penetrating(CoreContact {
        distance,
        normal,
        point_a,
        point_b,
        status: ContactStatus::Converged,
    })
}
