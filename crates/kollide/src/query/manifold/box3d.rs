//! The contact manifold of two boxes (3D), straight from the separating axes.
//!
//! The separating-axis test is the one of `query/sat/box_box3d.rs` (same axes, same order,
//! same tie rules, so the same contact normal as [`crate::query::contact`]), stopped once the
//! axis is known: no witness points are needed here. The two support faces along that normal
//! are then read off the boxes directly, the better aligned one is the reference, and the
//! other box's face is clipped against the reference rectangle in the reference box's own
//! frame, where its four sides are planes `±x_u = h_u`, `±x_w = h_w` (the idea of Box2D's
//! and ODE's `dBoxBox`: clip in the reference frame, written here for kollide's ids).
//!
//! The result is the one of the general path (support faces, then `clip3d`): the same
//! faces, corners in the same order, the same sides in the same order, the same ids, and
//! the same reduction to four points; only the rounding of the coordinates differs.

use super::clip3d::{reduce, Candidate};
use super::{ContactId, Manifold, ManifoldPoint};
use crate::math::{Pose, Real};
use crate::query::contact::output::ContactStatus;
use crate::query::sat::box_box3d::{edge_witness, least_overlap, Axis, LeastOverlap};
use crate::query::Space;
use crate::shape::Feature;

/// What the box-box manifold found.
pub(crate) enum BoxManifold {
    /// The boxes are farther apart than the margin (an axis separates them by more).
    Separated,
    /// Written to the output (world frame).
    Done,
    /// Not handled here (apart by less than the margin, or nothing survived the clip): the
    /// general path answers.
    Fallback,
}

/// A face of a box as clipping sees it: axis `k`, on the `+` side when `up`.
#[derive(Clone, Copy)]
struct BoxFace {
    k: usize,
    up: bool,
}

impl BoxFace {
    /// The face of the box `[-h, h]` along `dir` (as `Cuboid::support_face` picks it: the
    /// largest component, the first on ties; `+` on 0).
    #[inline(always)]
    fn along<V: Space>(dir: V) -> (Self, V::Real) {
        let a = dir.abs_elem();
        let mut k = 0;
        for i in 1..3 {
            if a[i] > a[k] {
                k = i;
            }
        }
        (Self { k, up: dir[k] >= V::Real::ZERO }, a[k])
    }

    #[inline(always)]
    fn feature(self) -> Feature {
        Feature::Face(2 * self.k as u32 + u32::from(self.up))
    }

    /// The `(u, w)` signs of the corners, counter-clockwise seen from outside (the order of
    /// `Cuboid::support_face`).
    #[inline(always)]
    fn corner_signs(self) -> [(bool, bool); 4] {
        if self.up {
            [(false, false), (true, false), (true, true), (false, true)]
        } else {
            [(false, false), (false, true), (true, true), (true, false)]
        }
    }

    /// The vertex id (sign bit mask) of the corner with signs `(su, sw)`.
    #[inline(always)]
    fn corner_id(self, (su, sw): (bool, bool)) -> u8 {
        let (u, w) = ((self.k + 1) % 3, (self.k + 2) % 3);
        (u8::from(self.up) << self.k) | (u8::from(su) << u) | (u8::from(sw) << w)
    }
}

/// A point of the polygon being clipped, in the reference frame.
#[derive(Clone, Copy)]
struct Pt<V> {
    p: V,
    id: Id,
    /// The edge leaving this point: along reference side `side`, or (`NO_SIDE`) along the
    /// incident edge between corners `edge` (box corner ids fit in a byte).
    side: u8,
    edge: (u8, u8),
}

/// What a clipped point is (see `clip3d::ClipId`).
#[derive(Clone, Copy)]
enum Id {
    Incident(u8),
    Crossing(u8, u8, u8, u8),
    Reference(u8),
}

/// `Pt::side` of a point whose leaving edge is part of an incident edge.
const NO_SIDE: u8 = u8::MAX;

/// The contact manifold of the boxes `[-ha, ha]` (A, radius `ra`, pose `pose_a`) and
/// `[-hb, hb]` (B, radius `rb`, pose `pose_b`), `pose_ab` placing B in A's frame, written to
/// `out` in the world frame.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn manifold<V: Space>(
    ha: V,
    hb: V,
    ra: V::Real,
    rb: V::Real,
    pose_a: &Pose<V>,
    pose_b: &Pose<V>,
    pose_ab: &Pose<V>,
    margin: V::Real,
    out: &mut Manifold<V>,
) -> BoxManifold {
    let zero = V::Real::ZERO;
    let threshold = margin.max(zero) + ra + rb;
    // The separating-axis test of `contact`, so both give the same normal.
    let Some(LeastOverlap { sep, axis, normal: n, bx, t, bias, .. }) =
        least_overlap(ha, hb, pose_ab, threshold, None)
    else {
        return BoxManifold::Separated;
    };
    if sep > bias {
        return BoxManifold::Fallback; // apart: GJK measures the gap
    }
    // The support faces: A's along n, B's along -n (in B's frame).
    let nb = pose_ab.inverse_transform_vector(-n);
    let (fa, sa) = BoxFace::along(n);
    let (fb, sb) = BoxFace::along(nb);
    let a_ref = sa >= sb;
    // Work in the reference box's frame: the incident box's axes and centre there, and the
    // contact normal pointing from the reference box to the incident one (`nb` is `-n` in
    // B's frame).
    let (h_ref, f_ref, h_inc, f_inc, axes, centre, n_ref) = if a_ref {
        (ha, fa, hb, fb, bx, t, n)
    } else {
        // A's axes in B's frame are the rows of B's rotation matrix.
        let col = |i: usize| {
            let mut v = V::ZERO;
            for (j, b) in bx.iter().enumerate() {
                v += V::axis(j) * b[i];
            }
            v
        };
        (hb, fb, ha, fa, [col(0), col(1), col(2)], pose_ab.inverse_transform_point(V::ZERO), nb)
    };
    let blank = Pt { p: V::ZERO, id: Id::Incident(0), side: NO_SIDE, edge: (0, 0) };
    let mut bufs = [Clipped { pts: [blank; 8], len: 0 }, Clipped { pts: [blank; 8], len: 0 }];
    let clipped = &bufs[clip(h_ref, f_ref, h_inc, f_inc, &axes, centre, &mut bufs)];
    // Each survivor against the reference plane.
    let (k, plane) = (f_ref.k, if f_ref.up { h_ref[f_ref.k] } else { -h_ref[f_ref.k] });
    let (ref_face, inc_face) = (f_ref.feature(), f_inc.feature());
    let (r_ref, r_inc) = if a_ref { (ra, rb) } else { (rb, ra) };
    let unknown = ContactId { a: Feature::Unknown, b: Feature::Unknown };
    let mut cands = [Candidate { a: V::ZERO, b: V::ZERO, distance: zero, id: unknown }; 8];
    let mut count = 0;
    for c in &clipped.pts[..clipped.len] {
        let gap = c.p[k] - plane;
        let on_ref = c.p - V::axis(k) * gap;
        let distance = gap * n_ref[k] - ra - rb;
        if distance > margin {
            continue;
        }
        let (ref_f, inc_f) = match c.id {
            Id::Incident(v) => (ref_face, Feature::Vertex(v.into())),
            Id::Crossing(i, j, k, l) => {
                (Feature::edge(i.into(), j.into()), Feature::edge(k.into(), l.into()))
            }
            Id::Reference(v) => (Feature::Vertex(v.into()), inc_face),
        };
        let (p_ref, p_inc) = (on_ref + n_ref * r_ref, c.p - n_ref * r_inc);
        cands[count] = if a_ref {
            Candidate { a: p_ref, b: p_inc, distance, id: ContactId { a: ref_f, b: inc_f } }
        } else {
            Candidate { a: p_inc, b: p_ref, distance, id: ContactId { a: inc_f, b: ref_f } }
        };
        count += 1;
    }
    if count == 0 {
        // The faces touch nowhere below the margin: edge against edge. The contact point of
        // `box_box3d::contact` (the closest points of the two edges), as the general path
        // gives; other axes (rare) go the general way.
        let Axis::Edges(i, j) = axis else {
            return BoxManifold::Fallback;
        };
        let (pa, pb) = edge_witness(ha, hb, &bx, t, n, i, j);
        let unknown = ContactId { a: Feature::Unknown, b: Feature::Unknown };
        out.push(ManifoldPoint {
            point_a: pose_a.transform_point(pa + n * ra),
            point_b: pose_a.transform_point(pb - n * rb),
            distance: sep - ra - rb,
            id: unknown,
        });
        out.normal = pose_a.transform_vector(n);
        out.status = ContactStatus::Converged;
        return BoxManifold::Done;
    }
    // The normal from A to B (the reduction's order of points depends on its sign).
    reduce(&cands[..count], if a_ref { n_ref } else { -n_ref }, out);
    let pose = if a_ref { pose_a } else { pose_b };
    for p in out.points_mut() {
        p.point_a = pose.transform_point(p.point_a);
        p.point_b = pose.transform_point(p.point_b);
    }
    out.normal = pose_a.transform_vector(n);
    out.status = ContactStatus::Converged;
    BoxManifold::Done
}

/// Up to 8 clipped points.
struct Clipped<V> {
    pts: [Pt<V>; 8],
    len: usize,
}

impl<V: Space> Clipped<V> {
    #[inline(always)]
    fn push(&mut self, p: Pt<V>) {
        if self.len < 8 {
            self.pts[self.len] = p;
            self.len += 1;
        }
    }
}

/// The face `f_inc` of the box `[-h_inc, h_inc]` (axes `axes` and centre `centre` in the
/// reference frame) clipped against the sides of the face `f_ref` of `[-h_ref, h_ref]`
/// (Sutherland–Hodgman, sides and corners in the order of `clip3d::clip_to_sides`).
#[inline(always)]
fn clip<V: Space>(
    h_ref: V,
    f_ref: BoxFace,
    h_inc: V,
    f_inc: BoxFace,
    axes: &[V; 3],
    centre: V,
    bufs: &mut [Clipped<V>; 2],
) -> usize {
    // The incident corners.
    let (ki, ui, wi) = (f_inc.k, (f_inc.k + 1) % 3, (f_inc.k + 2) % 3);
    let c = centre + axes[ki] * if f_inc.up { h_inc[ki] } else { -h_inc[ki] };
    let (du, dw) = (axes[ui] * h_inc[ui], axes[wi] * h_inc[wi]);
    let signs = f_inc.corner_signs();
    let ids = signs.map(|s| f_inc.corner_id(s));
    let mut c_ix = 0;
    bufs[0].len = 4;
    for (q, &(su, sw)) in signs.iter().enumerate() {
        let p = c + if su { du } else { -du } + if sw { dw } else { -dw };
        bufs[0].pts[q] = Pt { p, id: Id::Incident(ids[q]), side: NO_SIDE, edge: (ids[q], ids[(q + 1) % 4]) };
    }
    // The reference sides: side q runs from corner q to corner q + 1; inside is
    // `sign * x[axis] <= h[axis]`.
    let (ur, wr) = ((f_ref.k + 1) % 3, (f_ref.k + 2) % 3);
    let rsigns = f_ref.corner_signs();
    let rid = rsigns.map(|s| f_ref.corner_id(s));
    let sides: [(usize, bool); 4] = if f_ref.up {
        [(wr, false), (ur, true), (wr, true), (ur, false)]
    } else {
        [(ur, false), (wr, true), (ur, true), (wr, false)]
    };
    for (q, &(axis, positive)) in sides.iter().enumerate() {
        let (lo, hi) = bufs.split_at_mut(1);
        let (cur, tmp) = if c_ix == 0 { (&lo[0], &mut hi[0]) } else { (&hi[0], &mut lo[0]) };
        let m = cur.len;
        if m == 0 {
            break;
        }
        tmp.len = 0;
        let h = h_ref[axis];
        let dist = |p: V| if positive { p[axis] - h } else { -p[axis] - h };
        let (r0, r1) = (rid[q], rid[(q + 1) % 4]);
        let mut dp = dist(cur.pts[0].p);
        for i in 0..m {
            let p = cur.pts[i];
            let qq = cur.pts[if i + 1 == m { 0 } else { i + 1 }];
            let dq = dist(qq.p);
            let (p_in, q_in) = (dp <= V::Real::ZERO, dq <= V::Real::ZERO);
            if p_in != q_in {
                let s = dp / (dp - dq);
                let id = match p.side {
                    NO_SIDE => Id::Crossing(r0, r1, p.edge.0, p.edge.1),
                    j => Id::Reference(if usize::from(j) == (q + 1) % 4 { r1 } else { r0 }),
                };
                let x = Pt {
                    p: p.p + (qq.p - p.p) * s,
                    id,
                    side: if p_in { q as u8 } else { p.side },
                    edge: p.edge,
                };
                tmp.push(x);
            }
            if q_in {
                tmp.push(qq);
            }
            dp = dq;
        }
        c_ix = 1 - c_ix;
    }
    c_ix
}

#[cfg(test)]
mod tests {
    use super::super::{general, manifold, Manifold};
    use crate::math::{Pose, Real};
    use crate::query::Space;
    use crate::shape::Cuboid;
    use glam::{DQuat, DVec3, Quat, Vec3};
    use rand::{Rng, SeedableRng};

    /// The dedicated path against the general one (support faces and `clip3d`): same
    /// normal, same points up to rounding, same ids, in the same order.
    fn agree<V: Space>(m: &Manifold<V>, g: &Manifold<V>, tol: f64, ctx: &str) {
        assert_eq!(m.len(), g.len(), "{ctx}: {m:?}\n{g:?}");
        let close = |p: V, q: V| (p - q).length().to_f64() <= tol;
        assert!(close(m.normal, g.normal), "{ctx}: normal {:?} {:?}", m.normal, g.normal);
        for (p, q) in m.points().iter().zip(g.points()) {
            assert_eq!(p.id, q.id, "{ctx}: ids\n{m:?}\n{g:?}");
            assert!(
                close(p.point_a, q.point_a) && close(p.point_b, q.point_b),
                "{ctx}: points\n{m:?}\n{g:?}"
            );
            assert!((p.distance - q.distance).abs().to_f64() <= tol, "{ctx}: distance");
        }
    }

    fn random_pairs<V: Space>(
        seed: u64,
        tol: f64,
        rot: impl Fn([f64; 4]) -> V::Rotation,
        vec: impl Fn([f64; 3]) -> V,
    ) {
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut done = 0;
        for k in 0..4000 {
            let mut q = || {
                let v: [f64; 4] = core::array::from_fn(|_| r.random_range(-1.0..1.0));
                v
            };
            let (qa, qb) = (q(), q());
            let mut v3 = |lo: f64, hi: f64| vec(core::array::from_fn(|_| r.random_range(lo..hi)));
            let (ha, hb) = (v3(0.1, 1.5), v3(0.1, 1.5));
            let (ta, tb) = (v3(-1.0, 1.0), v3(-1.0, 1.0));
            // Some pairs axis-aligned (exact ties between faces), most turned at random.
            let (ra, rb) = if k % 8 == 0 {
                (rot([0.0, 0.0, 0.0, 1.0]), rot([0.0, 0.0, 0.0, 1.0]))
            } else {
                (rot(qa), rot(qb))
            };
            let (pa, pb) = (Pose::new(ta, ra), Pose::new(tb, rb));
            let (a, b) = (Cuboid::new(ha), Cuboid::new(hb));
            let margin = V::Real::from_f64(if k % 3 == 0 { 0.05 } else { 0.0 });
            let m = manifold(&a, &pa, &b, &pb, margin);
            let g = general(&a, &pa, &b, &pa.inv_compose(&pb), margin, None);
            agree(&m, &g, tol, &format!("pair {k}"));
            done += usize::from(!m.is_empty());
        }
        assert!(done > 1000, "{done} contacts");
    }

    #[test]
    fn box_box_matches_general_path_f64() {
        random_pairs::<DVec3>(
            7,
            1e-9,
            |q| DQuat::from_xyzw(q[0], q[1], q[2], q[3] + 0.01).normalize(),
            DVec3::from_array,
        );
    }

    #[test]
    fn box_box_matches_general_path_f32() {
        random_pairs::<Vec3>(
            8,
            2e-4,
            |q| Quat::from_xyzw(q[0] as f32, q[1] as f32, q[2] as f32, q[3] as f32 + 0.01).normalize(),
            |v| Vec3::new(v[0] as f32, v[1] as f32, v[2] as f32),
        );
    }
}
