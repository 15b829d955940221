//! Ray casts with answers worked out by hand, second part: flat shapes (3D triangles,
//! segments, a point), `max_toi`, scales from `1e-6` to `1e6`, far origins, directions the
//! cast rescales, and bad input (rays refused by `Ray::try_new`, shapes with a broken
//! radius or support). In 2D and 3D, f32 and f64, by the closed forms and the GJK ray cast.
//! The solids are in `cast_ray_exact.rs`.

use crate::common;
use crate::ray_cases;
use kollide::query::Space;

use common::{FromParts, RotF64};
use glam::{DVec2, DVec3, Vec2, Vec3};
use kollide::math::{Pose, Real, Vector3};
use kollide::query::cast::{ray_cast, Ray, RayError, RayOutcome};
use kollide::shape::{
    Ball, Capsule, Cone, Cuboid, Cylinder, Ellipsoid, Primitive, Segment, Support, Triangle,
};
use ray_cases::{hit, hit_n, inside, is_f32, miss, run, run_one, run_scaled, v3, Case, Normal, Want};

const X: DVec3 = DVec3::X;
const Y: DVec3 = DVec3::Y;
const Z: DVec3 = DVec3::Z;
const O: DVec3 = DVec3::ZERO;

/// GJK sees only the support function: it cannot tell a flat shape from a solid, and a ray
/// that starts on one and runs along it is `Inside` to it, with the exit at the far edge.
const ALONG_FLAT: &str = "GJK: a start on a flat shape, along it, is Inside";

fn vec<V: Space>(p: DVec3) -> V {
    V::from_f64_array(p.to_array())
}

fn real<V: Space>(x: f64) -> V::Real {
    V::Real::from_f64(x)
}

/// The 3D triangle (0, 0, 0), (2, 0, 0), (0, 2, 0): flat, normal `+z` by its winding.
fn triangle_3d<V: Vector3 + Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let cases = vec![
        hit("front", v3(0.5, 0.5, 3.0), -Z, 3.0, v3(0.5, 0.5, 0.0), Z),
        hit("back, |d| = 2", v3(0.5, 0.5, -3.0), 2.0 * Z, 1.5, v3(0.5, 0.5, 0.0), -Z),
        hit("slanted, from the front", v3(-0.5, 1.5, 2.0), v3(0.5, -0.5, -1.0), 2.0, v3(0.5, 0.5, 0.0), Z),
        hit("slanted, from the back", v3(1.5, 0.5, -1.0), v3(-0.5, 0.0, 0.5), 2.0, v3(0.5, 0.5, 0.0), -Z),
        hit_n("on the hypotenuse", v3(1.0, 1.0, 2.0), -Z, 2.0, v3(1.0, 1.0, 0.0), Normal::Between(Z, X + Y))
            .edge(),
        hit_n("on a vertex, from the back", -Z, Z, 1.0, O, Normal::Facing).edge(),
        miss("just past the hypotenuse", v3(1.001, 1.001, 2.0), -Z),
        miss("heading away", v3(0.5, 0.5, 1.0), Z),
        // In its plane: the first edge crossed, the normal square to it against the ray.
        hit("in its plane, crossing", v3(-1.0, 0.5, 0.0), X, 1.0, v3(0.0, 0.5, 0.0), -X).edge(),
        hit("in its plane, to the hypotenuse", v3(3.0, 1.0, 0.0), -X, 2.0, X + Y, v3(1.0, 1.0, 0.0)).edge(),
        miss("in its plane, passing by", v3(-1.0, 3.0, 0.0), X).edge(),
        // Flat: no inside; a ray starting on it hits it at 0, whichever way it goes.
        hit("starting on it, leaving the front", v3(0.5, 0.5, 0.0), Z, 0.0, v3(0.5, 0.5, 0.0), -Z).edge(),
        hit("starting on it, in its plane", v3(0.5, 0.5, 0.0), X, 0.0, v3(0.5, 0.5, 0.0), -X)
            .edge()
            .closed_only(ALONG_FLAT),
        hit("starting on it, max_toi 0", v3(0.5, 0.5, 0.0), -Z, 0.0, v3(0.5, 0.5, 0.0), Z).edge().max(0.0),
    ];
    let t = Triangle::new(vec::<V>(O), vec::<V>(2.0 * X), vec::<V>(2.0 * Y));
    run::<V, _>("triangle", &t, &cases, true);
    // The reversed winding changes nothing: the normal faces the ray's origin.
    let t = Triangle::new(vec::<V>(O), vec::<V>(2.0 * Y), vec::<V>(2.0 * X));
    run::<V, _>("triangle reversed", &t, &cases, true);
    // A zero-area triangle is hit through its edges.
    let cases = vec![
        hit("through its edge", v3(0.5, 0.0, -2.0), Z, 2.0, 0.5 * X, -Z),
        hit("square to it in the xy plane", v3(0.5, -1.0, 0.0), Y, 1.0, 0.5 * X, -Y),
        hit("along its line", -X, X, 1.0, O, -X),
        miss("skew, by 1e-3", v3(0.5, 1e-3, -2.0), Z),
    ];
    let flat = Triangle::new(vec::<V>(O), vec::<V>(2.0 * X), vec::<V>(X));
    run::<V, _>("zero-area triangle", &flat, &cases, true);
}

/// The segment (0, 0) (2, 0), and in 3D the same along x.
fn segment<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut cases = vec![
        hit("crossing from above", v3(1.0, 2.0, 0.0), -Y, 2.0, X, Y),
        hit("crossing from below, |d| = 2", v3(0.5, -1.0, 0.0), 2.0 * Y, 0.5, 0.5 * X, -Y),
        hit("slanted", Y, v3(1.0, -1.0, 0.0), 1.0, X, Y),
        hit_n("end point", v3(2.0, 1.0, 0.0), -Y, 1.0, 2.0 * X, Normal::Between(Y, X)).edge(),
        hit("collinear, from the left", -X, X, 1.0, O, -X),
        hit("collinear, from the right, |d| = 2", 3.0 * X, -2.0 * X, 0.5, 2.0 * X, X),
        hit("collinear, starting on it", X, X, 0.0, X, -X).edge().closed_only(ALONG_FLAT),
        miss("collinear, beyond it", 3.0 * X, X),
        hit("starting on it", X, Y, 0.0, X, -Y).edge(),
        miss("past the end", v3(2.01, 1.0, 0.0), -Y),
        miss("parallel above", v3(-1.0, 0.01, 0.0), X),
    ];
    if V::DIM == 3 {
        cases.push(hit("through it along z", v3(1.0, 0.0, 2.0), -Z, 2.0, X, Z));
        cases.push(hit(
            "through it, slanted",
            v3(0.0, -1.0, -1.0),
            v3(1.0, 1.0, 1.0),
            1.0,
            X,
            v3(0.0, -1.0, -1.0),
        ));
        cases.push(miss("skew, missing by 1e-3", v3(1.0, 1e-3, 2.0), -Z));
    }
    run::<V, _>("segment", &Segment::new(vec::<V>(O), vec::<V>(2.0 * X)), &cases, true);
}

/// A user's point with radius 0: support only (GJK), or named as a `Primitive::Point`.
#[derive(Clone, Copy)]
struct Dot<V>(V, bool);

impl<V: Space> Support<V> for Dot<V> {
    fn support(&self, _: V) -> V {
        self.0
    }
    fn primitive(&self) -> Primitive<'_, V> {
        if self.1 {
            Primitive::Point(self.0)
        } else {
            Primitive::General
        }
    }
}

fn point<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let p = v3(1.0, 0.5, 0.0);
    let cases = vec![
        hit_n("through it", v3(-1.0, 0.5, 0.0), X, 2.0, p, Normal::Facing),
        hit_n(
            "through it, |d| = 2, slanted",
            p - v3(0.6, 0.8, 0.0) * 2.0,
            v3(0.6, 0.8, 0.0) * 2.0,
            1.0,
            p,
            Normal::Facing,
        ),
        miss("by 1e-3", v3(-1.0, 0.501, 0.0), X),
        hit("starting on it", p, Y, 0.0, p, -Y).edge(),
        miss("past it", p + X, X),
    ];
    run::<V, _>("named point", &Dot(vec::<V>(p), true), &cases, true);
    run_one::<V, _>("support-only point", &Dot(vec::<V>(p), false), &cases, true);
}

/// `max_toi` at, just short of and beyond the hit; infinite, NaN, negative; an inside start
/// reports its exit even beyond `max_toi`.
fn max_toi<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    // The unit ball from (-3, 0) at speed 2: the hit is at exactly 1.
    let head_on = |name, m: f64| hit(name, v3(-3.0, 0.0, 0.0), 2.0 * X, 1.0, -X, -X).max(m);
    let cases = vec![
        head_on("max_toi = the hit", 1.0).edge(),
        head_on("max_toi just beyond", 1.001),
        head_on("max_toi infinite", f64::INFINITY),
        miss("max_toi just short", v3(-3.0, 0.0, 0.0), 2.0 * X).max(0.999),
        miss("max_toi 0", v3(-3.0, 0.0, 0.0), 2.0 * X).max(0.0),
        miss("max_toi NaN", v3(-3.0, 0.0, 0.0), 2.0 * X).max(f64::NAN),
        miss("max_toi negative", v3(-3.0, 0.0, 0.0), 2.0 * X).max(-1.0),
        miss("max_toi -infinity", v3(-3.0, 0.0, 0.0), 2.0 * X).max(f64::NEG_INFINITY),
        inside("inside, exit beyond max_toi", O, Y, 1.0, Y, Y).max(0.25),
        inside("inside, max_toi 0", O, Y, 1.0, Y, Y).max(0.0),
        miss("inside, max_toi NaN", O, Y).max(f64::NAN),
    ];
    run::<V, _>("ball max_toi", &Ball::<V>::new(real::<V>(1.0)), &cases, true);
    // The box: the -x face at exactly 1.5.
    let face = |name, m: f64| hit(name, v3(-4.0, 0.2, 0.0), 2.0 * X, 1.5, v3(-1.0, 0.2, 0.0), -X).max(m);
    let cases = vec![
        face("max_toi = the hit", 1.5).edge(),
        face("max_toi infinite", f64::INFINITY),
        miss("max_toi just short", v3(-4.0, 0.2, 0.0), 2.0 * X).max(1.499),
        miss("max_toi NaN", v3(-4.0, 0.2, 0.0), 2.0 * X).max(f64::NAN),
    ];
    run::<V, _>("cuboid max_toi", &Cuboid::new(vec::<V>(v3(1.0, 0.5, 0.25))), &cases, true);
    // The segment: crossed at exactly 2.
    let cases = vec![
        hit("max_toi = the hit", v3(1.0, 2.0, 0.0), -Y, 2.0, X, Y).max(2.0).edge(),
        miss("max_toi just short", v3(1.0, 2.0, 0.0), -Y).max(1.999),
        miss("max_toi negative", X, Y).max(-0.5),
    ];
    run::<V, _>("segment max_toi", &Segment::new(vec::<V>(O), vec::<V>(2.0 * X)), &cases, true);
}

/// `cases` for the shape scaled by `s`: origins, points and times scale, directions do not.
fn scaled(cases: &[Case], s: f64) -> Vec<Case> {
    let scale = |w| match w {
        Want::Hit(t, p, n) => Want::Hit(t * s, p * s, n),
        Want::Inside(t, p, n) => Want::Inside(t * s, p * s, n),
        Want::Miss => Want::Miss,
    };
    cases
        .iter()
        .map(|c| Case { o: c.o * s, want: scale(c.want), max_toi: c.max_toi * s, size: s, ..c.clone() })
        .collect()
}

/// Shapes and rays of size `1e-6` and `1e6` (the pose's translation too).
fn scales<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    for s in [1e-6, 1e6] {
        let ball = [
            hit("off centre", v3(-3.0, 0.6, 0.0), X, 2.2, v3(-0.8, 0.6, 0.0), v3(-0.8, 0.6, 0.0)),
            miss("just over the top", v3(-3.0, 1.001, 0.0), X),
            inside("from the centre", O, Y, 1.0, Y, Y),
        ];
        let f = real::<V>;
        run_scaled::<V, _>(&format!("ball x{s:e}"), &Ball::<V>::new(f(s)), &scaled(&ball, s), false, s);
        run_scaled::<V, _>(
            &format!("ball x{s:e}"),
            &common::ViaGjk(Ball::<V>::new(f(s))),
            &scaled(&ball, s),
            true,
            s,
        );
        let cuboid = [
            hit("face -x", v3(-4.0, 0.2, 0.0), 2.0 * X, 1.5, v3(-1.0, 0.2, 0.0), -X),
            inside("inside, to -y", v3(0.5, 0.0, 0.0), -Y, 0.5, v3(0.5, -0.5, 0.0), -Y),
            miss("above", v3(-4.0, 0.501, 0.0), X),
        ];
        let shape = Cuboid::new(vec::<V>(v3(1.0, 0.5, 0.25) * s));
        run_scaled::<V, _>(&format!("cuboid x{s:e}"), &shape, &scaled(&cuboid, s), false, s);
        run_scaled::<V, _>(&format!("cuboid x{s:e}"), &common::ViaGjk(shape), &scaled(&cuboid, s), true, s);
        let capsule = [
            hit("cap off the axis", v3(-3.0, 1.3, 0.0), X, 2.6, v3(-0.4, 1.3, 0.0), v3(-0.8, 0.6, 0.0)),
            hit("side", v3(-3.0, 0.5, 0.0), X, 2.5, v3(-0.5, 0.5, 0.0), -X),
        ];
        let shape = Capsule::<V>::new(f(s), f(0.5 * s));
        run_scaled::<V, _>(&format!("capsule x{s:e}"), &shape, &scaled(&capsule, s), false, s);
        let ellipse =
            [hit("general point", v3(-5.0, 0.8, 0.0), X, 3.8, v3(-1.2, 0.8, 0.0), v3(-0.3, 0.8, 0.0))];
        let shape = Ellipsoid::new(vec::<V>(v3(2.0, 1.0, 1.0) * s));
        run_scaled::<V, _>(&format!("ellipsoid x{s:e}"), &shape, &scaled(&ellipse, s), false, s);
        let seg =
            [hit("crossing", v3(1.0, 2.0, 0.0), -Y, 2.0, X, Y), miss("past the end", v3(2.01, 1.0, 0.0), -Y)];
        let shape = Segment::new(vec::<V>(O), vec::<V>(2.0 * s * X));
        run_scaled::<V, _>(&format!("segment x{s:e}"), &shape, &scaled(&seg, s), false, s);
    }
}

/// The cylinder, cone and triangle at `1e-6` and `1e6`.
fn scales_3d<V: Vector3 + Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let f = real::<V>;
    for s in [1e-6, 1e6] {
        let cyl = [
            hit("side off the axis", v3(-3.0, 0.0, 0.3), X, 2.6, v3(-0.4, 0.0, 0.3), v3(-0.8, 0.0, 0.6)),
            hit("top cap", v3(0.2, 4.0, 0.1), -Y, 3.0, v3(0.2, 1.0, 0.1), Y),
        ];
        let shape = Cylinder::<V>::new(f(s), f(0.5 * s));
        run_scaled::<V, _>(&format!("cylinder x{s:e}"), &shape, &scaled(&cyl, s), false, s);
        let cone = [hit("side", v3(-3.0, 0.0, 0.0), X, 2.75, v3(-0.25, 0.0, 0.0), v3(-4.0, 1.0, 0.0))];
        let shape = Cone::<V>::new(f(s), f(0.5 * s));
        run_scaled::<V, _>(&format!("cone x{s:e}"), &shape, &scaled(&cone, s), false, s);
        let tri = [hit("slanted", v3(-0.5, 1.5, 2.0), v3(0.5, -0.5, -1.0), 2.0, v3(0.5, 0.5, 0.0), Z)];
        let shape = Triangle::new(vec::<V>(O), vec::<V>(2.0 * s * X), vec::<V>(2.0 * s * Y));
        run_scaled::<V, _>(&format!("triangle x{s:e}"), &shape, &scaled(&tri, s), false, s);
    }
}

/// Origins 1e6 away from unit shapes (f64: in f32 the origin's rounding is larger than
/// the shapes), along an axis and along a surface normal.
#[test]
fn far_origins_f64() {
    type V = DVec3;
    let far = 1e6;
    let along = |p: DVec3, n: DVec3| {
        let n = n.normalize();
        hit("along the normal from 1e6", p + n * far, -n, far, p, n)
    };
    let ball = [
        hit("off centre", v3(-far, 0.6, 0.0), X, far - 0.8, v3(-0.8, 0.6, 0.0), v3(-0.8, 0.6, 0.0)),
        along(v3(0.0, 0.6, -0.8), v3(0.0, 0.6, -0.8)),
    ];
    run::<V, _>("ball from 1e6", &Ball::new(1.0), &ball, true);
    run::<DVec2, _>("disk from 1e6", &Ball::new(1.0), &ball[..1], true);
    let cuboid = [
        hit("face -x", v3(-far, 0.2, 0.0), X, far - 1.0, v3(-1.0, 0.2, 0.0), -X),
        along(v3(0.3, 0.5, 0.1), Y),
    ];
    run::<V, _>("cuboid from 1e6", &Cuboid::new(v3(1.0, 0.5, 0.25)), &cuboid, true);
    let capsule = [
        hit("cap", v3(-far, 1.3, 0.0), X, far - 0.4, v3(-0.4, 1.3, 0.0), v3(-0.8, 0.6, 0.0)),
        along(v3(-0.3, -1.4, 0.0), v3(-0.6, -0.8, 0.0)),
    ];
    run::<V, _>("capsule from 1e6", &Capsule::new(1.0, 0.5), &capsule, true);
    let ellipsoid = [
        hit("general point", v3(-far, 0.8, 0.0), X, far - 1.2, v3(-1.2, 0.8, 0.0), v3(-0.3, 0.8, 0.0)),
        along(v3(0.0, 0.6, -0.4), v3(0.0, 0.6, -1.6)),
    ];
    run::<V, _>("ellipsoid from 1e6", &Ellipsoid::new(v3(2.0, 1.0, 0.5)), &ellipsoid, true);
    let cylinder = [
        hit("side", v3(-far, 0.0, 0.3), X, far - 0.4, v3(-0.4, 0.0, 0.3), v3(-0.8, 0.0, 0.6)),
        along(v3(0.2, -1.0, 0.1), -Y),
    ];
    run::<V, _>("cylinder from 1e6", &Cylinder::new(1.0, 0.5), &cylinder, true);
    let cone = [
        hit("side", v3(-far, 0.0, 0.0), X, far - 0.25, v3(-0.25, 0.0, 0.0), v3(-4.0, 1.0, 0.0)),
        along(v3(0.0, -0.2, -0.3), v3(0.0, 1.0, -4.0)),
    ];
    run::<V, _>("cone from 1e6", &Cone::new(1.0, 0.5), &cone, true);
    let n = v3(0.0, 0.6, -0.8);
    let tri = [
        along(v3(0.5, 0.5, 0.0), Z),
        hit("slanted from 1e6", v3(0.5, 0.5, 0.0) + n * far, -n, far, v3(0.5, 0.5, 0.0), -Z),
    ];
    run::<V, _>("triangle from 1e6", &Triangle::new(O, 2.0 * X, 2.0 * Y), &tri, true);
}

/// Directions with components above `1e8` or below `1e-8` (rescaled inside the cast):
/// times in units of the given direction, `max_toi` compared in them too.
fn directions<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let extremes = if is_f32::<V>() { [1e9, 1e-9, 1e30, 1e-30] } else { [1e9, 1e-9, 1e300, 1e-300] };
    for k in extremes {
        let u = v3(0.6, 0.8, 0.0);
        let cases = [
            hit("off centre", v3(-3.0, 0.6, 0.0), X * k, 2.2 / k, v3(-0.8, 0.6, 0.0), v3(-0.8, 0.6, 0.0)),
            hit("along the normal", u * 3.0, -u * k, 2.0 / k, u, u),
            hit("within max_toi", v3(-3.0, 0.6, 0.0), X * k, 2.2 / k, v3(-0.8, 0.6, 0.0), v3(-0.8, 0.6, 0.0))
                .max(2.3 / k),
            miss("beyond max_toi", v3(-3.0, 0.6, 0.0), X * k).max(2.1 / k),
            inside("inside", O, Y * k, 1.0 / k, Y, Y),
        ];
        let label = format!("ball, |d| = {k:e}");
        run::<V, _>(&label, &Ball::<V>::new(real::<V>(1.0)), &cases, true);
        // The box, with one component of the direction at the extreme and one of order 1.
        let cases = [
            hit("face -x", v3(-4.0, 0.2, 0.0), X * k, 3.0 / k, v3(-1.0, 0.2, 0.0), -X),
            hit("face +y, d = (k, -1)", v3(0.3, 1.5, 0.0), v3(k, -1.0, 0.0), 1.0, v3(0.3 + k, 0.5, 0.0), Y),
        ];
        let cases = if k > 1.0 { &cases[..1] } else { &cases[..] };
        run::<V, _>(&format!("cuboid, |d| = {k:e}"), &Cuboid::new(vec::<V>(v3(1.0, 0.5, 0.25))), cases, true);
    }
}

/// Regression: a direction near the smallest numbers (subnormal) makes the time of impact
/// overflow. `ray_cast` reported `toi = ∞` with the point `origin + d × ∞`: `∞` along the
/// direction and NaN (`0 × ∞`) across it, against its "nothing is NaN". Now the time is
/// still `∞` (the true one is past the largest number) and the point is the finite point hit,
/// taken from the rescaled direction; a finite `max_toi` still gives `Miss`.
fn overflowing_time<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let tiny = if is_f32::<V>() { 1e-45 } else { 5e-324 };
    let ball = Ball::<V>::new(real::<V>(1.0));
    let cuboid = Cuboid::new(vec::<V>(v3(1.0, 0.5, 0.25)));
    let cases: [(&dyn Support<V>, DVec3, RayOutcome<DVec3>); 4] = [
        (&ball, v3(-3.0, 0.6, 0.0), hit_at(v3(-0.8, 0.6, 0.0), v3(-0.8, 0.6, 0.0), false)),
        (&ball, v3(0.0, 0.6, 0.0), hit_at(v3(0.8, 0.6, 0.0), v3(0.8, 0.6, 0.0), true)),
        (&cuboid, v3(-3.0, 0.2, 0.0), hit_at(v3(-1.0, 0.2, 0.0), -X, false)),
        (&common::ViaGjk(ball), v3(-3.0, 0.6, 0.0), hit_at(v3(-0.8, 0.6, 0.0), v3(-0.8, 0.6, 0.0), false)),
    ];
    let tol = if is_f32::<V>() { 1e-6 } else { 1e-15 } * 4.0;
    for (k, (shape, o, want)) in cases.into_iter().enumerate() {
        let ray = Ray::new(vec::<V>(o), V::axis(0) * real::<V>(tiny));
        let out = ray_cast(shape, &Pose::IDENTITY, &ray, real::<V>(f64::INFINITY));
        let (got, want) = match (out, want) {
            (RayOutcome::Hit(g), RayOutcome::Hit(w))
            | (RayOutcome::Inside { exit: g }, RayOutcome::Inside { exit: w }) => (g, w),
            _ => panic!("case {k}: expected {want:?}, got {out:?}"),
        };
        let (p, n) =
            (DVec3::from_array(got.point.to_f64_array()), DVec3::from_array(got.normal.to_f64_array()));
        assert!(got.toi.to_f64() == f64::INFINITY, "case {k}: toi {:?}", got.toi);
        assert!((p - want.point).length() <= tol, "case {k}: point {p} vs {}", want.point);
        assert!((n - want.normal).length() <= tol * 1e3, "case {k}: normal {n} vs {}", want.normal);
        let out = ray_cast(shape, &Pose::IDENTITY, &ray, real::<V>(f64::MAX.min(V::Real::MAX.to_f64())));
        match out {
            RayOutcome::Miss if k != 1 => {}
            RayOutcome::Inside { exit } if k == 1 && exit.point.is_finite_vec() => {}
            _ => panic!("case {k}: with max_toi = MAX, {out:?}"),
        }
    }
}

/// The answer `overflowing_time` expects, in f64.
fn hit_at(point: DVec3, normal: DVec3, inside: bool) -> RayOutcome<DVec3> {
    let hit = kollide::query::cast::RayHit { toi: f64::INFINITY, point, normal };
    if inside {
        RayOutcome::Inside { exit: hit }
    } else {
        RayOutcome::Hit(hit)
    }
}

/// Regression: a ray along a segment's line, turned by a pose, is parallel to it only up to
/// rounding. When the rounding left the lines a few ulps from parallel (beyond the exact
/// parallel test), the closed form solved for their crossing, which is then anywhere along
/// them, and reported a miss for a ray running along the segment within an ulp (one pose in
/// six in 3D f64). Every pose must hit, where the ray first reaches the segment.
fn collinear_under_rotations<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut rng = common::rng(17);
    let seg = Segment::new(vec::<V>(O), vec::<V>(2.0 * X));
    let tol = if is_f32::<V>() { 1e-5 } else { 1e-13 };
    for k in 0..200 {
        let pose: Pose<V> = common::pose(&mut rng, 3.0);
        let w = |p: DVec3, t: bool| {
            let t = if t { pose.translation.to_f64_array() } else { [0.0; 3] };
            V::from_f64_array(pose.rotation.rotate_f64(p.to_array(), t))
        };
        // From beyond b, along -x at speed 2: b is reached at 0.5; from behind a at 1.
        for (o, d, t) in [(3.0 * X, -2.0 * X, 0.5), (-X, X, 1.0), (X, X, 0.0)] {
            let ray = Ray::new(w(o, true), w(d, false));
            match ray_cast(&seg, &pose, &ray, real::<V>(f64::INFINITY)) {
                RayOutcome::Hit(h) => {
                    let err = (h.toi.to_f64() - t).abs();
                    assert!(
                        err <= tol,
                        "pose {k} {pose:?}, ray from {o}: toi {:?} vs {t}, {err:e} off",
                        h.toi
                    );
                }
                out => {
                    panic!("pose {k} {pose:?}, ray from {o} {}D: expected a hit at {t}, got {out:?}", V::DIM)
                }
            }
        }
    }
}

/// `Ray::try_new` names the bad component; a zero direction is refused.
fn ray_errors<V: Space>() {
    let ok = V::from_f64_array([1.0, 2.0, 3.0]);
    for i in 0..V::DIM {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut a = [1.0, 2.0, 3.0];
            a[i] = bad;
            let v = V::from_f64_array(a);
            assert_eq!(Ray::try_new(v, ok), Err(RayError::NonFiniteOrigin { component: i }), "origin {a:?}");
            assert_eq!(
                Ray::try_new(ok, v),
                Err(RayError::NonFiniteDirection { component: i }),
                "direction {a:?}"
            );
            // The origin is checked first.
            assert_eq!(Ray::try_new(v, V::ZERO), Err(RayError::NonFiniteOrigin { component: i }));
            let msg = RayError::NonFiniteDirection { component: i }.to_string();
            assert!(msg.contains(&i.to_string()), "{msg:?} does not name component {i}");
        }
    }
    assert_eq!(Ray::try_new(ok, V::ZERO), Err(RayError::ZeroDirection));
    assert_eq!(Ray::try_new(ok, V::from_f64_array([-0.0; 3])), Err(RayError::ZeroDirection));
    // The smallest positive number is a direction.
    let tiny = V::axis(0) * V::Real::from_f64(if is_f32::<V>() { 1e-45 } else { 5e-324 });
    assert!(Ray::try_new(ok, tiny).is_ok());
}

/// A shape whose radius or support is broken: never hit, never NaN.
struct Broken<V> {
    radius: f64,
    point: f64,
    _v: std::marker::PhantomData<V>,
}

impl<V: Space> Support<V> for Broken<V> {
    fn support(&self, _: V) -> V {
        V::splat(V::Real::from_f64(self.point))
    }
    fn radius(&self) -> V::Real {
        V::Real::from_f64(self.radius)
    }
}

fn broken_shapes<V: Space>() {
    let ray = Ray::new(V::axis(0) * real::<V>(-3.0), V::axis(0));
    let pose = Pose::<V>::IDENTITY;
    for (radius, point) in [
        (f64::NAN, 0.0),
        (-1.0, 0.0),
        (f64::INFINITY, 0.0),
        (0.5, f64::NAN),
        (0.5, f64::INFINITY),
        (0.0, f64::NAN),
    ] {
        let shape = Broken::<V> { radius, point, _v: std::marker::PhantomData };
        for max in [f64::INFINITY, 10.0] {
            let out = ray_cast(&shape, &pose, &ray, real::<V>(max));
            assert_eq!(out, RayOutcome::Miss, "radius {radius}, support point {point}: {out:?}");
        }
    }
}

macro_rules! every_type {
    ($($test:ident => $f:ident;)*) => {$(
        #[test]
        fn $test() {
            $f::<Vec2>();
            $f::<DVec2>();
            $f::<Vec3>();
            $f::<DVec3>();
        }
    )*};
}

every_type! {
    segments => segment;
    points => point;
    max_toi_bounds => max_toi;
    tiny_and_huge_scales => scales;
    extreme_directions => directions;
    hostile_rays => ray_errors;
    hostile_shapes => broken_shapes;
    regression_overflowing_time => overflowing_time;
    regression_collinear_segment => collinear_under_rotations;
}

#[test]
fn triangles_3d() {
    triangle_3d::<Vec3>();
    triangle_3d::<DVec3>();
}

#[test]
fn tiny_and_huge_scales_3d() {
    scales_3d::<Vec3>();
    scales_3d::<DVec3>();
}
