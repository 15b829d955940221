//! The promises every answer keeps, checked in f64 on the answers of the library and on
//! independent computations (support functions, brute force over a composite's parts,
//! probes with tiny balls, re-evaluation at the reported time of impact). A broken promise
//! panics with the values that broke it: that is the finding.
//!
//! Tolerances are relative to `M`, the size of the scene's coordinates (the largest
//! absolute coordinate of both shapes' boxes): `1e-7 M` in f64 and `2e-3 M` in f32, far
//! looser than the library's stated accuracy, so a report is a lie, not rounding.

use crate::build::Space;
use kollide::math::{Pose, Real, Vector};
use kollide::query::cast::{CastInput, CastStatus, Ray, RayOutcome};
use kollide::query::{
    distance as convex_distance, manifold_cached, ContactStatus, GjkStatus, Manifold, ManifoldCache,
};
use kollide::shape::Support;
use kollide::world::{self, PairCache, RuntimeShape};

/// A vector as f64 coordinates (`[x, y, 0]` in 2D).
pub fn f(v: impl Vector) -> [f64; 3] {
    v.to_f64_array()
}

/// Difference, dot, length in f64.
pub fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
/// The dot product in f64.
pub fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
/// The length in f64.
pub fn len(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

/// Whether the vector type computes in f32.
pub fn is_f32<V: kollide::query::Space>() -> bool {
    std::mem::size_of::<V::Real>() == 4
}

/// The relative tolerance of the checks (see the module docs).
pub fn rel<V: kollide::query::Space>() -> f64 {
    if is_f32::<V>() {
        2e-3
    } else {
        1e-7
    }
}

/// The smallest and largest non-zero coordinates and sizes the query targets draw.
///
/// The top is the range in which the library documents certified answers (squares of
/// offsets stay finite: offsets up to about 1e19 in f32 and 1e154 in f64, with room for
/// sums); beyond it the documented answer is the status `non_finite_support`, which the
/// `shapes` and CLI targets reach. The bottom keeps out the tiny-scale family that the first
/// runs found and this session did not fix (shapes of 1e-23 to 1e-31 in f32 and subnormal
/// ones in f64 whose normals and `intersects` lose their digits: `OPEN.md` of this crate,
/// with reproducers). Zero itself is always drawn.
pub fn certified_range<V: kollide::query::Space>() -> (f64, f64) {
    if is_f32::<V>() {
        (1e-12, 1e17)
    } else {
        (1e-100, 1e150)
    }
}

/// The size of the coordinates of shapes placed by poses: the largest absolute coordinate
/// of their world boxes, of their poses' translations and of their parts' (at least the
/// smallest positive normal number).
pub fn scene_size<V: Space>(shapes: &[(&V::Shape, &Pose<V>)]) -> f64 {
    let mut m = f64::MIN_POSITIVE;
    let mut grow = |v: V| {
        for x in f(v) {
            m = m.max(x.abs());
        }
    };
    for (s, p) in shapes {
        let bx = s.aabb(p);
        grow(bx.min);
        grow(bx.max);
        // The frames the queries work in count too: a compound placed at -1e17 whose part
        // sits at +1e17 lies near the origin, but B seen from the compound's frame is 1e17
        // away, and the documented accuracy is relative to the coordinates in that frame
        // (found by the fuzz target `casts`: a cast judged at the precision of 1, in f32).
        grow(p.translation);
        for (part, _) in V::parts(s).unwrap_or_default() {
            grow(part.translation);
        }
    }
    m
}

/// The support value `max over the shape of d · x` of a posed convex shape, in f64.
fn support_value<V: Space>(s: &V::Convex, pose: &Pose<V>, d: V) -> f64 {
    let local = pose.inverse_transform_vector(d);
    let p = pose.transform_point(s.support(local));
    dot(f(d), f(p)) + s.radius().to_f64() * len(f(d))
}

/// Whether `p` lies within `tol` of the convex shape along the direction `d` (a necessary
/// condition of lying in it).
fn within_along<V: Space>(s: &V::Convex, pose: &Pose<V>, p: V, d: V, tol: f64) -> bool {
    let dl = len(f(d));
    dl == 0.0 || dot(f(d), f(p)) <= support_value(s, pose, d) + tol * dl
}

/// The directions a witness point is tested along: the normal, both ways, and the axes.
fn probe_directions<V: kollide::query::Space>(n: V) -> Vec<V> {
    let mut dirs = vec![n, -n];
    for i in 0..V::DIM {
        dirs.push(V::axis(i));
        dirs.push(-V::axis(i));
    }
    dirs
}

/// Panics with the context when `ok` is false.
#[track_caller]
pub(crate) fn promise(ok: bool, what: &str, context: impl FnOnce() -> String) {
    assert!(ok, "broken promise: {what}\n{}", context());
}

/// A pair of placed run-time shapes and the size of their coordinates.
#[derive(Debug)]
pub struct Pair<'s, V: Space> {
    /// Shape A.
    pub a: &'s V::Shape,
    /// A's pose.
    pub pa: Pose<V>,
    /// Shape B.
    pub b: &'s V::Shape,
    /// B's pose.
    pub pb: Pose<V>,
}

impl<V: Space> Pair<'_, V> {
    fn size(&self) -> f64 {
        scene_size::<V>(&[(self.a, &self.pa), (self.b, &self.pb)])
    }

    fn describe(&self) -> String {
        format!("A = {:?} at {:?}\nB = {:?} at {:?}", self.a, self.pa, self.b, self.pb)
    }

    fn moved_b(&self, by: [f64; 3]) -> Option<Pose<V>> {
        let t = sub(f(self.pb.translation), by.map(|x| -x));
        Pose::try_new(V::from_f64_array(t), self.pb.rotation).ok()
    }

    /// Distance, intersects, contact (with `margin`) and manifold, each against its promises.
    pub fn check_all(&self, margin: V::Real) {
        let m = self.size();
        if !m.is_finite() {
            return;
        }
        if m > certified_range::<V>().1 * 4.0 {
            // The numbers drawn were in range but the shapes made coordinates beyond it (a
            // heightfield's heights times its scale: 1e300 in f64). Beyond the certified range
            // the library's squares may overflow (OPEN.md lists what is known there); only
            // "no panic, no hang" is asked.
            let _ = world::distance(self.a, &self.pa, self.b, &self.pb);
            let _ = world::contact(self.a, &self.pa, self.b, &self.pb, margin);
            let _ = world::intersects(self.a, &self.pa, self.b, &self.pb);
            let _ = world::manifold(self.a, &self.pa, self.b, &self.pb, margin);
            return;
        }
        let tol = rel::<V>() * m;
        let d = self.check_distance(tol);
        let depth = self.check_contact(margin, d, tol);
        self.check_intersects(d, depth, tol);
        self.check_manifold(margin, tol);
    }

    /// `lower <= distance <= upper`; converged answers realized by their points along a unit
    /// normal; witness points on their shapes; a composite's distance is its nearest part's.
    fn check_distance(&self, tol: f64) -> Option<(f64, f64, f64, GjkStatus)> {
        let o = world::distance(self.a, &self.pa, self.b, &self.pb)?.value;
        let ctx = || format!("{o:?}\n{}", self.describe());
        if o.status == GjkStatus::NonFiniteSupport {
            return None;
        }
        let (d, lo, up) = (o.distance.to_f64(), o.lower_bound.to_f64(), o.upper_bound.to_f64());
        promise(lo <= d && d <= up && d >= 0.0, "lower <= distance <= upper, distance >= 0", ctx);
        if !d.is_finite() {
            return None;
        }
        promise(f(o.point_a).iter().chain(&f(o.point_b)).all(|x| x.is_finite()), "finite points", ctx);
        let converged = o.status == GjkStatus::Converged;
        if converged && d > tol {
            let n = len(f(o.normal));
            promise((n - 1.0).abs() < 1e-3, "unit normal", ctx);
            let gap = sub(f(o.point_b), f(o.point_a));
            let along = sub(gap, f(o.normal).map(|x| x * d));
            promise(len(along) <= 4.0 * tol, "point_b = point_a + distance * normal", ctx);
        }
        if let (Some(ca), Some(cb)) = (V::as_convex(self.a), V::as_convex(self.b)) {
            if converged || o.status == GjkStatus::Overlapping {
                for dir in probe_directions(o.normal) {
                    promise(within_along::<V>(ca, &self.pa, o.point_a, dir, tol), "point_a on A", ctx);
                    promise(within_along::<V>(cb, &self.pb, o.point_b, dir, tol), "point_b on B", ctx);
                }
            }
        }
        if converged || o.status == GjkStatus::Overlapping {
            self.check_against_parts(d, tol);
        }
        Some((d, lo, up, o.status))
    }

    /// Brute force: a composite against a convex shape is at the distance of its nearest
    /// part (each part asked on its own through the convex query).
    fn check_against_parts(&self, d: f64, tol: f64) {
        let (composite, pc, convex, pv) = match (V::parts(self.a), V::as_convex(self.b)) {
            (Some(parts), Some(c)) => (parts, self.pa, c, self.pb),
            _ => match (V::as_convex(self.a), V::parts(self.b)) {
                (Some(c), Some(parts)) => (parts, self.pb, c, self.pa),
                _ => return,
            },
        };
        let mut best = f64::INFINITY;
        for (local, part) in &composite {
            let o = convex_distance(part, &pc.compose(local), convex, &pv);
            if !matches!(o.status, GjkStatus::Converged | GjkStatus::Overlapping) {
                return;
            }
            best = best.min(o.distance.to_f64());
        }
        promise((best - d).abs() <= 4.0 * tol, "composite distance = nearest part's", || {
            format!("composite {d}, brute force {best}\n{}", self.describe())
        });
    }

    /// `intersects` agrees with the distance and the contact where they are certain: shapes
    /// apart by more than the tolerance do not intersect, shapes penetrating by more than
    /// it (a converged contact) do.
    fn check_intersects(&self, d: Option<(f64, f64, f64, GjkStatus)>, depth: Option<f64>, tol: f64) {
        let Some((_, lo, _, _)) = d else { return };
        let hit = world::intersects(self.a, &self.pa, self.b, &self.pb).is_some();
        let ctx =
            || format!("intersects = {hit}, distance {d:?}, contact depth {depth:?}\n{}", self.describe());
        if depth.is_some_and(|x| x > tol) {
            promise(hit, "penetrating shapes intersect", ctx);
        }
        if lo > tol {
            promise(!hit, "shapes certified apart do not intersect", ctx);
        }
    }

    /// Contacts: finite, unit normal, within the margin; apart, the distance's; penetrating,
    /// moving B out by the depth separates, and (converged) by less than it does not.
    fn check_contact(&self, margin: V::Real, d: Option<(f64, f64, f64, GjkStatus)>, tol: f64) -> Option<f64> {
        let margin_f = margin.to_f64();
        let c = world::contact(self.a, &self.pa, self.b, &self.pb, margin).map(|c| c.value);
        let ctx = || format!("contact {c:?} margin {margin_f}, distance {d:?}\n{}", self.describe());
        let Some(c) = c else {
            if let Some((_, _, up, _)) = d {
                promise(up > margin_f - tol, "a pair within the margin has a contact", ctx);
            }
            return None;
        };
        if c.status == ContactStatus::NonFiniteSupport {
            return None;
        }
        let cd = c.distance.to_f64();
        let n = f(c.normal);
        promise(cd.is_finite() && n.iter().all(|x| x.is_finite()), "finite contact", ctx);
        promise((len(n) - 1.0).abs() < 1e-3, "unit contact normal", ctx);
        promise(cd <= margin_f + tol, "contact within the margin", ctx);
        if let Some((dd, lo, up, GjkStatus::Converged)) = d {
            if c.status == ContactStatus::Converged && cd > tol {
                promise((cd - dd).abs() <= 4.0 * tol, "an apart contact is at the distance", ctx);
            }
            if lo > tol {
                promise(cd >= lo - 4.0 * tol, "a contact of shapes certified apart is not below that", ctx);
            }
            let _ = up;
        }
        let convex_pair = V::as_convex(self.a).is_some() && V::as_convex(self.b).is_some();
        if !convex_pair {
            // A composite's contact is its deepest part's (documented): brute force.
            self.check_contact_parts(margin, cd, c.status, tol);
            return (c.status == ContactStatus::Converged).then_some(-cd);
        }
        if cd < -tol {
            let depth = -cd;
            let out = self.moved_b(n.map(|x| x * (depth * (1.0 + 1e-6) + 8.0 * tol)));
            if let Some(p) = out {
                if let Some(o) = world::distance(self.a, &self.pa, self.b, &p) {
                    if o.value.status != GjkStatus::NonFiniteSupport {
                        promise(
                            o.value.distance.to_f64() > 0.0,
                            "moving B out by the depth separates",
                            || format!("{}\nafter the move: {:?}", ctx(), o.value),
                        );
                    }
                }
            }
            if c.status == ContactStatus::Converged && depth > 64.0 * tol {
                let inside = self.moved_b(n.map(|x| x * (depth * (1.0 - 1e-3) - 16.0 * tol)));
                if let Some(p) = inside {
                    if let Some(o) = world::distance(self.a, &self.pa, self.b, &p) {
                        let lo = o.value.lower_bound.to_f64();
                        promise(lo <= tol, "moving B by less than the depth does not separate", || {
                            format!("{}\nafter the move: {:?}", ctx(), o.value)
                        });
                    }
                }
            }
        }
        (c.status == ContactStatus::Converged).then_some(-cd)
    }

    /// Brute force: a composite's contact with a convex shape has the signed distance of its
    /// deepest part's contact (each part asked on its own through the convex query).
    fn check_contact_parts(&self, margin: V::Real, cd: f64, status: ContactStatus, tol: f64) {
        let (composite, pc, convex, pv) = match (V::parts(self.a), V::as_convex(self.b)) {
            (Some(parts), Some(c)) => (parts, self.pa, c, self.pb),
            _ => match (V::as_convex(self.a), V::parts(self.b)) {
                (Some(c), Some(parts)) => (parts, self.pb, c, self.pa),
                _ => return,
            },
        };
        if status != ContactStatus::Converged {
            return;
        }
        // No part within the margin: the composite's contact may only be a rounding of
        // touching at the margin.
        let mut best = margin.to_f64();
        for (local, part) in &composite {
            if let Some(c) = kollide::query::contact(part, &pc.compose(local), convex, &pv, margin, None) {
                if c.status != ContactStatus::Converged {
                    return;
                }
                best = best.min(c.distance.to_f64());
            }
        }
        if !(V::deepest_part_contact(self.a) && V::deepest_part_contact(self.b)) {
            // A concave polygon may answer with a shallower piece (documented), but never
            // apart when a piece penetrates.
            promise(best >= -tol || cd < 0.0, "a penetrating piece makes a penetrating contact", || {
                format!("composite {cd}, brute force {best}\n{}", self.describe())
            });
            return;
        }
        promise((best - cd).abs() <= 4.0 * tol, "composite contact = deepest part's", || {
            format!("composite {cd}, brute force {best}\n{}", self.describe())
        });
    }

    /// Manifolds: finite points, unit normal, every point within the margin.
    fn check_manifold(&self, margin: V::Real, tol: f64) {
        let mf = world::manifold(self.a, &self.pa, self.b, &self.pb, margin).value;
        if mf.is_empty() || mf.status == ContactStatus::NonFiniteSupport {
            return;
        }
        let ctx = || format!("manifold {mf:?} margin {margin:?}\n{}", self.describe());
        promise((len(f(mf.normal)) - 1.0).abs() < 1e-3, "unit manifold normal", ctx);
        for p in mf.points() {
            let all = [f(p.point_a), f(p.point_b)];
            promise(all.iter().flatten().all(|x| x.is_finite()), "finite manifold points", ctx);
            promise(p.distance.to_f64() <= margin.to_f64() + tol, "manifold point within the margin", ctx);
        }
        self.check_manifold_cache(margin, &mf, tol);
        self.check_pair_cache(margin, &mf, tol);
    }

    /// A manifold cache's first answer is the plain manifold's; asked again at the same
    /// poses it re-projects to the same points (ids, distances).
    fn check_manifold_cache(&self, margin: V::Real, mf: &Manifold<V>, tol: f64) {
        let (Some(ca), Some(cb)) = (V::as_convex(self.a), V::as_convex(self.b)) else { return };
        let mut cache = ManifoldCache::default();
        let first = manifold_cached(ca, &self.pa, cb, &self.pb, margin, &mut cache);
        let again = manifold_cached(ca, &self.pa, cb, &self.pb, margin, &mut cache);
        let ctx = || format!("plain {mf:?}\nfirst {first:?}\nagain {again:?}\n{}", self.describe());
        promise(first == *mf, "a manifold cache's first answer is the plain manifold", ctx);
        promise(again.len() == mf.len(), "a standing pair's cached manifold keeps its points", ctx);
        for (p, q) in again.points().iter().zip(mf.points()) {
            promise(p.id == q.id, "a standing pair's cached manifold keeps its ids", ctx);
            let off = (p.distance.to_f64() - q.distance.to_f64()).abs();
            promise(off <= tol, "a standing pair's cached manifold keeps its distances", ctx);
        }
    }

    /// The same through a world's pair cache, on every pair: two convex shapes keep one
    /// manifold, a composite and a convex shape one per part (two composites compute
    /// afresh).
    fn check_pair_cache(&self, margin: V::Real, mf: &Manifold<V>, tol: f64) {
        let mut cache = PairCache::default();
        let first = V::Shape::manifold_cached(self.a, &self.pa, self.b, &self.pb, margin, &mut cache).value;
        let again = V::Shape::manifold_cached(self.a, &self.pa, self.b, &self.pb, margin, &mut cache).value;
        let ctx = || format!("plain {mf:?}\nfirst {first:?}\nagain {again:?}\n{}", self.describe());
        promise(first == *mf, "a pair cache's first answer is the plain manifold", ctx);
        promise(again.len() == mf.len(), "a standing pair's kept manifold keeps its points", ctx);
        for (p, q) in again.points().iter().zip(mf.points()) {
            promise(p.id == q.id, "a standing pair's kept manifold keeps its ids", ctx);
            let off = (p.distance.to_f64() - q.distance.to_f64()).abs();
            promise(off <= tol, "a standing pair's kept manifold keeps its distances", ctx);
        }
    }
}

/// A certified lower bound of the distance from a point to a placed shape, by a probe ball
/// of radius `r` (`None` when the probe cannot be built or answered). The lower bound, not
/// the distance: every use asks whether the point is certainly away from the shape, and a
/// `Stalled` distance is only an upper bound (a point 6% of the way into a cylinder 1e17
/// wide in f32 got GJK's `Stalled` distance of 6e15 with a lower bound of 0, and the ray
/// from there was wrongly judged not to start inside).
fn point_distance<V: Space>(s: &V::Shape, pose: &Pose<V>, p: V, r: f64) -> Option<f64> {
    let ball = V::ball(V::Real::from_f64(r))?;
    let at = Pose::try_new(p, <V::Rotation as kollide::math::Rotation<V>>::IDENTITY).ok()?;
    let o = world::distance(s, pose, &ball, &at)?.value;
    (o.status != GjkStatus::NonFiniteSupport).then(|| o.lower_bound.to_f64() + r)
}

/// A ray against a shape: a hit lies on the ray, on the shape, with a unit normal, no
/// nearer than the origin's distance; a miss passes no sample point deep inside.
pub fn check_ray<V: Space>(s: &V::Shape, pose: &Pose<V>, ray: &Ray<V>, max_toi: V::Real) {
    let m = scene_size::<V>(&[(s, pose)]).max(len(f(ray.origin())));
    let dir = len(f(ray.direction()));
    let reach = max_toi.to_f64() * dir;
    if !(m.is_finite() && reach.is_finite()) || reach > 1e3 * m {
        return;
    }
    let tol = rel::<V>() * (m + reach);
    let out = world::ray_cast(s, pose, ray, max_toi).map(|h| h.value).unwrap_or(RayOutcome::Miss);
    let ctx = || format!("ray {ray:?} max_toi {max_toi:?}: {out:?}\non {s:?} at {pose:?}");
    match out {
        RayOutcome::Hit(h) => {
            let t = h.toi.to_f64();
            promise(t >= 0.0 && t <= max_toi.to_f64() * (1.0 + 1e-6), "toi in [0, max_toi]", ctx);
            promise((len(f(h.normal)) - 1.0).abs() < 1e-3, "unit ray normal", ctx);
            let expect = f(ray.point_at(h.toi));
            promise(len(sub(f(h.point), expect)) <= tol, "the hit point is on the ray", ctx);
            if let Some(dp) = point_distance::<V>(s, pose, h.point, tol) {
                promise(dp <= 4.0 * tol, "the hit point is on the shape", || format!("{}\nat {dp}", ctx()));
            }
            if let Some(d0) = point_distance::<V>(s, pose, ray.origin(), tol) {
                promise(t * dir >= d0 - 4.0 * tol, "no hit nearer than the shape", || {
                    format!("{}\norigin at {d0}", ctx())
                });
            }
        }
        RayOutcome::Miss => {
            for k in 0..=8 {
                let t = max_toi * V::Real::from_f64(f64::from(k) / 8.0);
                let p = ray.point_at(t);
                let Some(ball) = V::ball(V::Real::from_f64(tol)) else { return };
                let Ok(at) = Pose::try_new(p, <V::Rotation as kollide::math::Rotation<V>>::IDENTITY) else {
                    return;
                };
                if let Some(c) = world::contact(s, pose, &ball, &at, V::Real::ZERO) {
                    let c = c.value;
                    if c.status == ContactStatus::Converged {
                        promise(c.distance.to_f64() > -16.0 * tol, "a ray through the shape hits it", || {
                            format!("{}\nsample {k} is inside by {:?}", ctx(), -c.distance)
                        });
                    }
                }
            }
        }
        RayOutcome::Inside { exit } => {
            promise((len(f(exit.normal)) - 1.0).abs() < 1e-3, "unit exit normal", ctx);
            if let Some(d0) = point_distance::<V>(s, pose, ray.origin(), tol) {
                promise(d0 <= 4.0 * tol, "an inside ray starts in the shape", || {
                    format!("{}\norigin at {d0}", ctx())
                });
            }
        }
    }
}

/// A shape cast: at a hit the shapes are at the target distance; before it (and for a miss
/// over the whole interval) they never were closer, when they started apart.
pub fn check_cast<V: Space>(pair: &Pair<V>, input: &CastInput<V>) {
    let max = input.max_toi.to_f64();
    let m = pair.size();
    let speed = len(f(input.motion_a.velocity)) + len(f(input.motion_b.velocity));
    if !(m.is_finite() && speed.is_finite()) || speed * max > 1e3 * m {
        return;
    }
    let tol = rel::<V>() * (m + speed * max) * 4.0;
    let Some(out) = world::shape_cast(pair.a, &pair.pa, pair.b, &pair.pb, input).map(|o| o.value) else {
        return;
    };
    let ctx = || format!("cast {input:?}: {out:?}\n{}", pair.describe());
    let target = input.target_distance.to_f64();
    let gap_at = |t: f64| -> Option<f64> {
        let t = V::Real::from_f64(t);
        let pa = input.motion_a.pose_at(&pair.pa, t);
        let pb = input.motion_b.pose_at(&pair.pb, t);
        let o = world::distance(pair.a, &pa, pair.b, &pb)?.value;
        matches!(o.status, GjkStatus::Converged | GjkStatus::Overlapping).then(|| o.distance.to_f64())
    };
    let Some(start) = gap_at(0.0) else { return };
    let clear_until = |end: f64| {
        if start <= target + tol {
            return;
        }
        for k in 0..16 {
            let t = end * f64::from(k) / 16.0;
            if let Some(g) = gap_at(t) {
                promise(g >= target - tol, "no touch before the time of impact", || {
                    format!("{}\nat t = {t}: gap {g}", ctx())
                });
            }
        }
    };
    match out.status {
        CastStatus::Hit => {
            let t = out.toi.to_f64();
            promise(t >= 0.0 && t <= max * (1.0 + 1e-6), "toi in [0, max_toi]", ctx);
            promise((len(f(out.normal)) - 1.0).abs() < 1e-3, "unit cast normal", ctx);
            // (A pair that starts within the target and moves apart is free to go, so only a
            // pair that started clear is judged at the toi.)
            if let Some(g) = gap_at(t).filter(|_| start > target + tol) {
                promise(
                    g <= target + tol && g >= target - tol,
                    "at the toi the shapes are at the target",
                    || format!("{}\ngap at toi {g}", ctx()),
                );
            }
            clear_until(t);
        }
        CastStatus::Miss => clear_until(max),
        CastStatus::StartedWithin => {
            promise(start <= target + tol, "started within means within the target", || {
                format!("{}\nstart gap {start}", ctx())
            });
        }
        CastStatus::Failed => {
            let safe = out.safe_toi.to_f64();
            promise(safe >= 0.0 && safe <= max, "safe_toi in [0, max_toi]", ctx);
            clear_until(safe);
        }
        other => promise(false, "a known cast status", || format!("{}\nstatus {other:?}", ctx())),
    }
}
