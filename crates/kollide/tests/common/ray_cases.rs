//! Hand-worked ray casts: a case is a ray in the shape's local frame with the answer worked
//! out by hand (closed forms), and [`run`] checks `ray_cast` against it for one scalar type
//! and dimension, at the identity and under a fixed rotated and translated pose (the answer
//! moved to the world in f64 from the pose's own numbers), by the closed form and, through
//! [`ViaGjk`], by the GJK ray cast.
#![allow(dead_code)]

use crate::common::{FromParts, RotF64, ViaGjk};
use glam::DVec3;
use kollide::math::{Pose, Real};
use kollide::query::cast::{ray_cast, Ray, RayHit, RayOutcome};
use kollide::query::Space;
use kollide::shape::Support;

/// Shorthand for a local point or vector (2D ones have `z = 0`).
pub fn v3(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

/// The normal a case expects.
#[derive(Clone, Copy, Debug)]
pub enum Normal {
    /// This unit vector.
    Is(DVec3),
    /// A unit vector of the cone spanned by these two (an edge or a vertex between faces).
    Between(DVec3, DVec3),
    /// Any unit vector against the ray (an apex, whose normal cone is wide).
    Facing,
}

/// The answer a case expects: time, point (local frame) and normal.
#[derive(Clone, Copy, Debug)]
pub enum Want {
    Hit(f64, DVec3, Normal),
    Inside(f64, DVec3, Normal),
    Miss,
}

/// One ray, local frame.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: &'static str,
    pub o: DVec3,
    pub d: DVec3,
    pub max_toi: f64,
    pub want: Want,
    /// On a boundary (a tangent, an edge, a start on the surface): only exact input decides
    /// it, so it runs at the identity pose only (the rotated ray is rounded).
    pub exact_only: bool,
    /// Why GJK is not asked (None: it is).
    pub not_gjk: Option<&'static str>,
    /// The size of the shape (1 unless scaled), for the tolerance on normals.
    pub size: f64,
}

impl Case {
    pub fn edge(mut self) -> Self {
        self.exact_only = true;
        self
    }
    pub fn max(mut self, max_toi: f64) -> Self {
        self.max_toi = max_toi;
        self
    }
    pub fn closed_only(mut self, why: &'static str) -> Self {
        self.not_gjk = Some(why);
        self
    }
}

fn case(name: &'static str, o: DVec3, d: DVec3, want: Want) -> Case {
    Case { name, o, d, max_toi: f64::INFINITY, want, exact_only: false, not_gjk: None, size: 1.0 }
}

pub fn hit(name: &'static str, o: DVec3, d: DVec3, t: f64, p: DVec3, n: DVec3) -> Case {
    case(name, o, d, Want::Hit(t, p, Normal::Is(n.normalize())))
}

pub fn hit_n(name: &'static str, o: DVec3, d: DVec3, t: f64, p: DVec3, n: Normal) -> Case {
    case(name, o, d, Want::Hit(t, p, n))
}

pub fn inside(name: &'static str, o: DVec3, d: DVec3, t: f64, p: DVec3, n: DVec3) -> Case {
    case(name, o, d, Want::Inside(t, p, Normal::Is(n.normalize())))
}

pub fn inside_n(name: &'static str, o: DVec3, d: DVec3, t: f64, p: DVec3, n: Normal) -> Case {
    case(name, o, d, Want::Inside(t, p, n))
}

pub fn miss(name: &'static str, o: DVec3, d: DVec3) -> Case {
    case(name, o, d, Want::Miss)
}

pub fn is_f32<V: Space>() -> bool {
    V::Real::EPSILON.to_f64() > 1e-10
}

/// Relative tolerance on positions, times the size of the coordinates. Closed forms: a few
/// ulps of the rounded ray and pose (seen: `1.7e-7` f32, `5e-16` f64). GJK: twice the
/// tolerance `ray.rs` documents (`1e-5` f32, `1e-10` f64), a margin for slanted rays (the
/// documented bound is the distance to the surface, not along the ray).
pub fn rel_tol<V: Space>(gjk: bool) -> f64 {
    match (is_f32::<V>(), gjk) {
        (true, false) => 1e-6,
        (false, false) => 2e-15,
        (true, true) => 2e-5,
        (false, true) => 2e-10,
    }
}

/// Tolerance on unit normals: a curved sharp core through GJK reports the normal of the
/// last support plane, within about `sqrt(2 tol / radius)` of the true one.
pub fn normal_tol<V: Space>(gjk: bool) -> f64 {
    match (is_f32::<V>(), gjk) {
        (true, false) => 2e-5,
        (false, false) => 1e-13,
        (true, true) => 1e-2,
        (false, true) => 1e-4,
    }
}

/// The fixed non-trivial pose: a rotation about a skew axis (an angle in 2D) and a
/// translation.
pub fn posed<V: Space>() -> Pose<V>
where
    V::Rotation: FromParts,
{
    Pose::new(V::from_f64_array([1.5, -2.0, 0.75]), V::Rotation::from_parts([0.3, -0.5, 0.7, 0.4]))
}

fn world<V: Space>(pose: &Pose<V>, p: DVec3, t: bool) -> DVec3
where
    V::Rotation: RotF64<V>,
{
    let t = if t { pose.translation.to_f64_array() } else { [0.0; 3] };
    DVec3::from_array(pose.rotation.rotate_f64(p.to_array(), t))
}

fn d3<V: Space>(v: V) -> DVec3 {
    DVec3::from_array(v.to_f64_array())
}

/// Worst error seen, relative to the tolerance (1 = at the tolerance).
#[derive(Clone, Copy, Debug, Default)]
pub struct Seen {
    pub checks: usize,
    pub worst_pos: f64,
    pub worst_normal: f64,
}

/// Runs every case on `shape` by its closed form, and (`gjk`) through [`ViaGjk`].
pub fn run<V: Space, S: Support<V> + Clone>(label: &str, shape: &S, cases: &[Case], gjk: bool)
where
    V::Rotation: FromParts + RotF64<V>,
{
    run_one::<V, _>(label, shape, cases, false);
    if gjk {
        run_one::<V, _>(label, &ViaGjk(shape.clone()), cases, true);
    }
}

/// Runs every case on `shape` with the tolerances of `gjk` (true when it goes to GJK).
pub fn run_one<V: Space, S: Support<V>>(label: &str, shape: &S, cases: &[Case], gjk: bool)
where
    V::Rotation: FromParts + RotF64<V>,
{
    run_scaled::<V, _>(label, shape, cases, gjk, 1.0);
}

/// [`run_one`] with the fixed pose's translation times `scale` (for shapes and rays of
/// that size), printing the worst errors relative to the tolerances.
pub fn run_scaled<V: Space, S: Support<V>>(label: &str, shape: &S, cases: &[Case], gjk: bool, scale: f64)
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut seen = Seen::default();
    let prec = if is_f32::<V>() { "f32" } else { "f64" };
    let path = if gjk { "gjk" } else { "closed" };
    let label = format!("{label} {}D {prec} {path}", V::DIM);
    let moved = posed::<V>();
    let moved = Pose::new(moved.translation * V::Real::from_f64(scale), moved.rotation);
    for c in cases {
        if gjk && c.not_gjk.is_some() {
            continue;
        }
        for (k, pose) in [Pose::<V>::IDENTITY, moved].iter().enumerate() {
            if k == 1 && c.exact_only {
                continue;
            }
            check(shape, pose, c, gjk, &format!("{label}, {} (pose {k})", c.name), &mut seen);
            seen.checks += 1;
        }
    }
    eprintln!(
        "{label}: {} checks, worst error / tolerance: position {:.3}, normal {:.3}",
        seen.checks, seen.worst_pos, seen.worst_normal
    );
    assert!(seen.checks > 0, "{label}: no case ran");
}

fn check<V: Space, S: Support<V>>(shape: &S, pose: &Pose<V>, c: &Case, gjk: bool, ctx: &str, seen: &mut Seen)
where
    V::Rotation: RotF64<V>,
{
    let o = V::from_f64_array(world(pose, c.o, true).to_array());
    let d = V::from_f64_array(world(pose, c.d, false).to_array());
    let ray = Ray::try_new(o, d).unwrap_or_else(|e| panic!("{ctx}: bad test ray: {e}"));
    let out = ray_cast(shape, pose, &ray, V::Real::from_f64(c.max_toi));
    let (ow, dw) = (d3(o), d3(d));
    // |d| without overflow (directions up to 1e300 are tested).
    let dlen = dw.abs().max_element() * (dw / dw.abs().max_element()).length();
    let moved = d3(pose.translation).length();
    let (hit, t, p, n) = match (c.want, out) {
        (Want::Miss, RayOutcome::Miss) => return,
        (Want::Hit(t, p, n), RayOutcome::Hit(hit)) => (hit, t, p, n),
        (Want::Inside(t, p, n), RayOutcome::Inside { exit }) => (exit, t, p, n),
        (want, out) => panic!("{ctx}: expected {want:?}, got {out:?}"),
    };
    let scale = c.o.length().max(p.length()).max(moved);
    let tol = rel_tol::<V>(gjk) * scale;
    // A normal taken from a point `tol` off errs by about `tol` over the curvature radius
    // (no less than a tenth of the shape's size); GJK's plane normal on a curved sharp core
    // by about `sqrt(2 tol / radius)`.
    let tol_n = normal_tol::<V>(gjk) + if gjk { (4.0 * tol / c.size).sqrt() } else { 10.0 * tol / c.size };
    let report = |what: &str, err: f64, tol: f64, h: &RayHit<V>| {
        assert!(
            err <= tol,
            "{ctx}: {what} off by {err:e} > {tol:e}; expected t {t} p {p} n {n:?}, got {h:?}"
        );
        err / tol
    };
    let pos = report("time", (hit.toi.to_f64() - t).abs() * dlen, tol, &hit)
        .max(report("point", (d3(hit.point) - world(pose, p, true)).length(), tol, &hit))
        .max(report("point off the ray", (d3(hit.point) - (ow + dw * hit.toi.to_f64())).length(), tol, &hit));
    let nw = d3(hit.normal);
    let mut nerr = report("normal length", (nw.length() - 1.0).abs(), tol_n, &hit);
    nerr = nerr.max(match n {
        Normal::Is(n) => report("normal", (nw - world(pose, n, false)).length(), tol_n, &hit),
        Normal::Between(a, b) => {
            let (a, b) = (world(pose, a, false), world(pose, b, false));
            report("normal out of its cone", cone_gap(nw, a, b), tol_n, &hit)
        }
        Normal::Facing => report("normal not against the ray", nw.dot(dw / dlen).max(0.0), tol_n, &hit),
    });
    seen.worst_pos = seen.worst_pos.max(pos);
    seen.worst_normal = seen.worst_normal.max(nerr);
}

/// How far the unit vector `n` is from the cone `{α a + β b : α, β >= 0}`: the residual of
/// its least-squares fit by `a` and `b`, plus any negative coefficient.
fn cone_gap(n: DVec3, a: DVec3, b: DVec3) -> f64 {
    let (aa, ab, bb) = (a.dot(a), a.dot(b), b.dot(b));
    let (na, nb) = (n.dot(a), n.dot(b));
    let det = aa * bb - ab * ab;
    let alpha = (na * bb - nb * ab) / det;
    let beta = (nb * aa - na * ab) / det;
    (n - a * alpha - b * beta).length() + (-alpha).max(0.0) + (-beta).max(0.0)
}
