//! Ray casts against solids with answers worked out by hand: every primitive, axis-aligned
//! and under a rotated and translated pose, by its closed form and by the GJK ray cast (the
//! shape wrapped so only its support function shows), in 2D and 3D, f32 and f64.
//!
//! Each case names where the ray meets the shape (a face, a cap, an edge, a tangent, a start
//! inside or on the surface), the time, point and normal being simple numbers (3-4-5
//! triangles, points picked on the surface and approached along their normal). Cases on a
//! boundary (tangents, edges, starts on the surface) run at the identity pose only, where
//! the input is exact. Flat shapes, `max_toi`, scales and bad input are in
//! `cast_ray_flat.rs`; the random-ray suite against an oracle is `cast_ray.rs`.

use crate::common;
use crate::ray_cases;
use kollide::query::Space;

use common::{FromParts, RotF64};
use glam::{DVec2, DVec3, Vec2, Vec3};
use kollide::math::{Real, Vector2, Vector3};
use kollide::shape::{
    Ball, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Ellipsoid, Rounded, Triangle,
};
use ray_cases::{hit, hit_n, inside, inside_n, miss, run, run_one, v3, Normal};

const X: DVec3 = DVec3::X;
const Y: DVec3 = DVec3::Y;
const Z: DVec3 = DVec3::Z;
const O: DVec3 = DVec3::ZERO;

fn vec<V: Space>(p: DVec3) -> V {
    V::from_f64_array(p.to_array())
}

fn real<V: Space>(x: f64) -> V::Real {
    V::Real::from_f64(x)
}

/// Why tangents are not asked of GJK with the closed form's numbers: its hit is within its
/// tolerance of the surface, but along a tangent that lets the time be `sqrt(2 tol r)` off.
const TANGENT: &str = "tangent: GJK's time is within sqrt(2 tol r), not tol";

/// The unit ball (disk).
fn ball<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut cases = vec![
        hit("head-on, |d| = 2", v3(-3.0, 0.0, 0.0), 2.0 * X, 1.0, -X, -X),
        hit("off centre", v3(-3.0, 0.6, 0.0), X, 2.2, v3(-0.8, 0.6, 0.0), v3(-0.8, 0.6, 0.0)),
        hit(
            "along the normal",
            v3(-1.8, -2.4, 0.0),
            v3(0.3, 0.4, 0.0),
            4.0,
            v3(-0.6, -0.8, 0.0),
            v3(-0.6, -0.8, 0.0),
        ),
        hit("tangent", v3(-3.0, 1.0, 0.0), X, 3.0, Y, Y).edge().closed_only(TANGENT),
        miss("just over the top", v3(-3.0, 1.001, 0.0), X),
        inside("from the centre", O, 2.0 * Y, 0.5, Y, Y),
        inside("off centre", v3(0.6, -0.5, 0.0), Y, 1.3, v3(0.6, 0.8, 0.0), v3(0.6, 0.8, 0.0)),
        inside("on the surface heading in", -X, X, 2.0, X, X).edge(),
        miss("on the surface heading out", -X, -X).edge(),
        miss("heading away", 3.0 * X, X),
    ];
    if V::DIM == 3 {
        cases.push(hit("along z", v3(0.6, 0.0, -3.0), Z, 2.2, v3(0.6, 0.0, -0.8), v3(0.6, 0.0, -0.8)));
        cases.push(hit("tangent in z", v3(0.0, -3.0, 1.0), Y, 3.0, Z, Z).edge().closed_only(TANGENT));
    }
    run::<V, _>("ball", &Ball::<V>::new(real::<V>(1.0)), &cases, true);
}

/// The box `[-1, 1] x [-0.5, 0.5] (x [-0.25, 0.25])`.
fn cuboid<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let h = v3(1.0, 0.5, 0.25);
    let mut cases = vec![
        hit("face -x", v3(-4.0, 0.2, 0.0), 2.0 * X, 1.5, v3(-1.0, 0.2, 0.0), -X),
        hit("face +y, slanted", v3(0.5, 3.0, 0.0), v3(-1.0, -5.0, 0.0), 0.5, v3(0.0, 0.5, 0.0), Y),
        hit("face -y", v3(0.9, -2.0, 0.0), Y, 1.5, v3(0.9, -0.5, 0.0), -Y),
        hit_n(
            "edge (corner in 2D)",
            v3(-2.0, 1.5, 0.0),
            v3(1.0, -1.0, 0.0),
            1.0,
            v3(-1.0, 0.5, 0.0),
            Normal::Between(-X, Y),
        ),
        hit_n("grazing the +y face", v3(-3.0, 0.5, 0.0), X, 2.0, v3(-1.0, 0.5, 0.0), Normal::Between(-X, Y))
            .edge(),
        inside("inside, to -y", v3(0.5, 0.0, 0.0), -Y, 0.5, v3(0.5, -0.5, 0.0), -Y),
        inside_n("inside, to a corner", O, v3(2.0, 1.0, 0.0), 0.5, v3(1.0, 0.5, 0.0), Normal::Between(X, Y))
            .edge(),
        inside("on the -x face heading in", -X, X, 2.0, X, X).edge(),
        miss("on the -x face heading out", -X, -X).edge(),
        miss("above", v3(-4.0, 0.6, 0.0), X),
        miss("beside, parallel", v3(1.01, -3.0, 0.0), Y),
    ];
    if V::DIM == 3 {
        cases.push(hit("face +z", v3(0.3, 0.2, 2.0), -Z, 1.75, v3(0.3, 0.2, 0.25), Z));
        cases.push(hit_n(
            "vertex",
            v3(-2.0, 1.5, 1.25),
            v3(1.0, -1.0, -1.0),
            1.0,
            v3(-1.0, 0.5, 0.25),
            Normal::Facing,
        ));
        cases.push(miss("beyond the +z face", v3(0.0, -3.0, 0.26), Y));
    }
    run::<V, _>("cuboid", &Cuboid::new(vec::<V>(h)), &cases, true);
}

/// The capsule of half height 1 and radius 0.5 along y.
fn capsule<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut cases = vec![
        hit("side", v3(-3.0, 0.5, 0.0), X, 2.5, v3(-0.5, 0.5, 0.0), -X),
        hit("top cap along the axis", 5.0 * Y, -2.0 * Y, 1.75, 1.5 * Y, Y),
        hit("top cap off the axis", v3(-3.0, 1.3, 0.0), X, 2.6, v3(-0.4, 1.3, 0.0), v3(-0.8, 0.6, 0.0)),
        hit(
            "bottom cap along its normal",
            v3(-1.5, -3.0, 0.0),
            v3(0.6, 0.8, 0.0),
            2.0,
            v3(-0.3, -1.4, 0.0),
            v3(-0.6, -0.8, 0.0),
        ),
        hit("bottom cap along the axis", v3(0.0, -4.0, 0.0), 4.0 * Y, 0.625, -1.5 * Y, -Y),
        hit("side, tangent along it", v3(-0.5, -4.0, 0.0), Y, 3.0, v3(-0.5, -1.0, 0.0), -X)
            .edge()
            .closed_only(TANGENT),
        inside("inside along the axis", O, Y, 1.5, 1.5 * Y, Y),
        inside("inside to the side", v3(0.0, 0.7, 0.0), X, 0.5, v3(0.5, 0.7, 0.0), X),
        inside("on the cap heading in", 1.5 * Y, -Y, 3.0, -1.5 * Y, -Y).edge(),
        miss("on the side heading out", -0.5 * X, -X).edge(),
        miss("over the cap", v3(-3.0, 1.6, 0.0), X),
        miss("parallel beside", v3(0.6, -4.0, 0.0), Y),
    ];
    if V::DIM == 3 {
        cases.push(hit("side along z", v3(0.0, 0.2, -3.0), Z, 2.5, v3(0.0, 0.2, -0.5), -Z));
        cases.push(hit(
            "side, slanted in xz",
            v3(-3.0, -0.9, 0.3),
            X,
            2.6,
            v3(-0.4, -0.9, 0.3),
            v3(-0.8, 0.0, 0.6),
        ));
    }
    run::<V, _>("capsule", &Capsule::<V>::new(real::<V>(1.0), real::<V>(0.5)), &cases, true);
}

/// The ellipsoid (ellipse) with semi-axes 2, 1 (and 0.5).
fn ellipsoid<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    // (1.2, 0.8) is on the ellipse (0.36 + 0.64 = 1); its normal is along (1.2/4, 0.8/1).
    let n = v3(-0.3, 0.8, 0.0);
    let mut cases = vec![
        hit("end of the long axis", v3(-5.0, 0.0, 0.0), X, 3.0, -2.0 * X, -X),
        hit("end of the short axis", 3.0 * Y, -Y, 2.0, Y, Y),
        hit("general point", v3(-5.0, 0.8, 0.0), 0.5 * X, 7.6, v3(-1.2, 0.8, 0.0), n),
        hit("general point, along its normal", v3(-1.2, 0.8, 0.0) + n * 2.0, -n, 2.0, v3(-1.2, 0.8, 0.0), n),
        hit("tangent", v3(-5.0, 1.0, 0.0), X, 5.0, Y, Y).edge().closed_only(TANGENT),
        miss("just over the top", v3(-5.0, 1.001, 0.0), X),
        inside("from the centre", O, X, 2.0, 2.0 * X, X),
        inside("to a general point", v3(-1.2, 0.0, 0.0), Y, 0.8, v3(-1.2, 0.8, 0.0), n),
        miss("on the surface heading out", 2.0 * X, X).edge(),
    ];
    if V::DIM == 3 {
        cases.push(hit("end of the z axis", 3.0 * Z, -Z, 2.5, 0.5 * Z, Z));
        // (0, 0.6, 0.4) is on it (0.36 + 0.16 / 0.25 = 1); normal along (0, 0.6, 1.6).
        cases.push(hit(
            "general point in yz",
            v3(0.0, 0.6, -3.0),
            Z,
            2.6,
            v3(0.0, 0.6, -0.4),
            v3(0.0, 0.6, -1.6),
        ));
    }
    let radii = if V::DIM == 2 { v3(2.0, 1.0, 1.0) } else { v3(2.0, 1.0, 0.5) };
    run::<V, _>("ellipsoid", &Ellipsoid::new(vec::<V>(radii)), &cases, true);
}

/// The box of `cuboid` rounded by 0.2 (GJK whichever way it is given).
fn rounded_cuboid<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    // A point of the rounded xy edge: the corner (1, 0.5) pushed out by 0.2 along (0.6, 0.8).
    let n = v3(0.6, 0.8, 0.0);
    let p = v3(1.0, 0.5, 0.0) + n * 0.2;
    let mut cases = vec![
        hit("face -x", v3(-4.0, 0.0, 0.0), X, 2.8, v3(-1.2, 0.0, 0.0), -X),
        hit("rounded edge along its normal", p + n * 2.0, -n, 2.0, p, n),
        // The same point reached horizontally: x on the arc at y = 0.66.
        hit("rounded edge, horizontal", v3(3.0, 0.66, 0.0), -X, 1.88, p, n),
        inside("inside", O, Y, 0.7, 0.7 * Y, Y),
        miss("over the top face", v3(-4.0, 0.71, 0.0), X),
    ];
    if V::DIM == 3 {
        let n = v3(2.0, 1.0, 2.0) / 3.0;
        let p = v3(1.0, 0.5, 0.25) + n * 0.2;
        cases.push(hit("rounded vertex along its normal", p + n * 3.0, -n, 3.0, p, n));
        cases.push(hit("face +z", v3(0.3, 0.2, 2.0), -Z, 1.55, v3(0.3, 0.2, 0.45), Z));
    }
    let shape = Rounded::try_new(Cuboid::new(vec::<V>(v3(1.0, 0.5, 0.25))), real::<V>(0.2)).unwrap();
    run_one::<V, _>("rounded cuboid", &shape, &cases, true);
}

/// The pentagon (0, -1), (2, 0), (1, 2), (-1, 2), (-2, 0).
fn polygon<V: Vector2 + Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let right = v3(2.0, 1.0, 0.0);
    let cases = vec![
        hit("top edge", v3(0.5, 5.0, 0.0), -Y, 3.0, v3(0.5, 2.0, 0.0), Y),
        hit("upper right edge", v3(5.0, 1.0, 0.0), -2.0 * X, 1.75, v3(1.5, 1.0, 0.0), right),
        hit(
            "lower left edge along its normal",
            v3(-3.0, -4.5, 0.0),
            v3(1.0, 2.0, 0.0),
            2.0,
            v3(-1.0, -0.5, 0.0),
            v3(-1.0, -2.0, 0.0),
        ),
        hit_n("vertex", 4.0 * X, -X, 2.0, 2.0 * X, Normal::Between(v3(1.0, -2.0, 0.0), right)),
        hit_n(
            "grazing the top edge",
            v3(-5.0, 2.0, 0.0),
            X,
            4.0,
            v3(-1.0, 2.0, 0.0),
            Normal::Between(v3(-2.0, 1.0, 0.0), Y),
        )
        .edge(),
        inside("inside", O, Y, 2.0, 2.0 * Y, Y),
        inside("on the bottom vertex heading in", -Y, Y, 3.0, 2.0 * Y, Y).edge(),
        miss("above", v3(-5.0, 2.5, 0.0), X),
        miss("past the right vertex", v3(2.01, -3.0, 0.0), Y),
    ];
    let pts =
        [v3(0.0, -1.0, 0.0), v3(2.0, 0.0, 0.0), v3(1.0, 2.0, 0.0), v3(-1.0, 2.0, 0.0), v3(-2.0, 0.0, 0.0)];
    let pts: Vec<V> = pts.iter().map(|&p| vec(p)).collect();
    run::<V, _>("polygon", &ConvexPolygon::from_points(&pts), &cases, true);
}

/// The filled triangle (0, 0), (3, 0), (0, 4), both orientations.
fn triangle_2d<V: Vector2 + Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let hyp = v3(4.0, 3.0, 0.0);
    let cases = vec![
        // 4x + 3y = 12 from (3, 4) along (-4, -3): 24 - 25 t = 12.
        hit("hypotenuse along its normal", v3(3.0, 4.0, 0.0), -hyp, 0.48, v3(1.08, 2.56, 0.0), hyp),
        hit("leg y = 0", v3(1.0, -2.0, 0.0), Y, 2.0, X, -Y),
        hit("leg x = 0, |d| = 2", v3(-1.0, 1.0, 0.0), 2.0 * X, 0.5, Y, -X),
        hit_n("vertex (0, 4), along the leg", 6.0 * Y, -Y, 2.0, 4.0 * Y, Normal::Between(-X, hyp)).edge(),
        hit_n("right angle", v3(-1.0, -1.0, 0.0), v3(1.0, 1.0, 0.0), 1.0, O, Normal::Between(-X, -Y)),
        inside("inside", v3(1.0, 1.0, 0.0), -X, 1.0, Y, -X),
        inside(
            "inside to the hypotenuse",
            v3(1.0, 1.0, 0.0),
            v3(0.0, 2.0, 0.0),
            5.0 / 6.0,
            v3(1.0, 8.0 / 3.0, 0.0),
            hyp,
        ),
        miss("beyond the hypotenuse", v3(3.0, 3.0, 0.0), X),
        miss("on a leg heading out", X, -Y).edge(),
    ];
    let (a, b, c) = (vec::<V>(O), vec::<V>(3.0 * X), vec::<V>(4.0 * Y));
    run::<V, _>("triangle ccw", &Triangle::new(a, b, c), &cases, true);
    run::<V, _>("triangle cw", &Triangle::new(a, c, b), &cases, true);
}

/// The cylinder of half height 1 and radius 0.5 about y.
fn cylinder<V: Vector3 + Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let cases = vec![
        hit("side", v3(-3.0, 0.2, 0.0), X, 2.5, v3(-0.5, 0.2, 0.0), -X),
        hit("side off the axis", v3(-3.0, 0.0, 0.3), 4.0 * X, 0.65, v3(-0.4, 0.0, 0.3), v3(-0.8, 0.0, 0.6)),
        hit(
            "side along its normal",
            v3(-1.8, 0.5, 2.4),
            v3(0.6, 0.0, -0.8),
            2.5,
            v3(-0.3, 0.5, 0.4),
            v3(-0.6, 0.0, 0.8),
        ),
        hit("top cap", v3(0.2, 4.0, 0.1), -2.0 * Y, 1.5, v3(0.2, 1.0, 0.1), Y),
        hit("bottom cap, slanted", v3(0.1, -3.0, 0.2), v3(0.1, 1.0, -0.1), 2.0, v3(0.3, -1.0, 0.0), -Y),
        hit("along the axis", 5.0 * Y, -Y, 4.0, Y, Y),
        hit_n("rim", v3(1.5, 2.0, 0.0), v3(-1.0, -1.0, 0.0), 1.0, v3(0.5, 1.0, 0.0), Normal::Between(X, Y)),
        hit("tangent to the side", v3(-3.0, 0.0, 0.5), X, 3.0, 0.5 * Z, Z).edge().closed_only(TANGENT),
        hit_n("grazing the top cap", v3(-3.0, 1.0, 0.0), X, 2.5, v3(-0.5, 1.0, 0.0), Normal::Between(-X, Y))
            .edge(),
        inside("inside to the side", O, Z, 0.5, 0.5 * Z, Z),
        inside("inside to the bottom cap", O, -Y, 1.0, -Y, -Y),
        inside("on the side heading in", -0.5 * X, X, 1.0, 0.5 * X, X).edge(),
        miss("on the top cap heading out", Y, Y).edge(),
        miss("above the top cap", v3(-3.0, 1.1, 0.0), X),
        miss("beside the side", v3(-3.0, 0.0, 0.6), X),
    ];
    let shape = Cylinder::<V>::new(real::<V>(1.0), real::<V>(0.5));
    run::<V, _>("cylinder", &shape, &cases, true);
}

/// The cone of half height 1 and base radius 0.5 about y, apex at `+y`: the radius at
/// height y is `(1 - y) / 4`, the outward normal of the side along `(x, (1 - y) / 16, z)`.
fn cone<V: Vector3 + Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    // (0, -0.2, -0.3) is on the side (radius 1.2 / 4); its normal is along (0, 1, -4).
    let (p, n) = (v3(0.0, -0.2, -0.3), v3(0.0, 1.0, -4.0) / 17f64.sqrt());
    let cases = vec![
        hit("side", v3(-3.0, 0.0, 0.0), X, 2.75, v3(-0.25, 0.0, 0.0), v3(-4.0, 1.0, 0.0)),
        hit("side along its normal", p + n * 2.0, -n, 2.0, p, n),
        hit("base", v3(0.1, -3.0, 0.2), Y, 2.0, v3(0.1, -1.0, 0.2), -Y),
        hit("base, slanted", v3(-0.4, -2.0, 0.0), v3(0.2, 0.5, 0.1), 2.0, v3(0.0, -1.0, 0.2), -Y),
        hit_n("apex along the axis", 4.0 * Y, -Y, 3.0, Y, Normal::Facing),
        hit_n("apex, slanted", v3(0.0, 2.0, -1.0), v3(0.0, -1.0, 1.0), 1.0, Y, Normal::Facing).edge(),
        hit_n(
            "base rim",
            v3(1.5, -2.0, 0.0),
            v3(-1.0, 1.0, 0.0),
            1.0,
            v3(0.5, -1.0, 0.0),
            Normal::Between(-Y, v3(4.0, 1.0, 0.0)),
        ),
        inside("inside to the base", v3(0.0, -0.5, 0.0), -Y, 0.5, -Y, -Y),
        inside("inside to the side", O, X, 0.25, 0.25 * X, v3(4.0, 1.0, 0.0)),
        inside("inside to the apex", O, 2.0 * Y, 0.5, Y, Y).edge(),
        miss("on the base heading out", -Y, -Y).edge(),
        miss("beside the tip", v3(-3.0, 0.5, 0.2), X),
        miss("below the base", v3(-3.0, -1.01, 0.0), X),
    ];
    let shape = Cone::<V>::new(real::<V>(1.0), real::<V>(0.5));
    run::<V, _>("cone", &shape, &cases, true);
}

/// The square pyramid: base (±1, 0, ±1), apex (0, 2, 0); its side faces `±2x + y = 2` and
/// `±2z + y = 2`.
fn hull<V: Vector3 + Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let (px, pz) = (v3(2.0, 1.0, 0.0), v3(0.0, 1.0, 2.0));
    let cases = vec![
        hit("base", v3(0.2, -3.0, 0.3), Y, 3.0, v3(0.2, 0.0, 0.3), -Y),
        hit("+x face", v3(4.0, 1.0, 0.0), -X, 3.5, v3(0.5, 1.0, 0.0), px),
        hit(
            "-z face along its normal",
            v3(0.3, 3.0, -4.5),
            v3(0.0, -1.0, 2.0),
            2.0,
            v3(0.3, 1.0, -0.5),
            v3(0.0, 1.0, -2.0),
        ),
        hit_n("apex", 5.0 * Y, -Y, 3.0, 2.0 * Y, Normal::Facing),
        hit_n(
            "edge of +x and +z",
            v3(3.5, 1.0, 3.5),
            v3(-1.0, 0.0, -1.0),
            3.0,
            v3(0.5, 1.0, 0.5),
            Normal::Between(px, pz),
        ),
        hit_n(
            "grazing the base",
            v3(-3.0, 0.0, 0.5),
            X,
            2.0,
            v3(-1.0, 0.0, 0.5),
            Normal::Between(-Y, v3(-2.0, 1.0, 0.0)),
        )
        .edge(),
        inside("inside", v3(0.0, 0.5, 0.0), -Y, 0.5, O, -Y),
        inside("inside to the +x face", v3(0.0, 1.0, 0.0), X, 0.5, v3(0.5, 1.0, 0.0), px),
        miss("on the base heading out", O, -Y).edge(),
        miss("past the narrow top", v3(4.0, 1.9, 0.5), -X),
    ];
    let pts = [v3(1.0, 0.0, 1.0), v3(1.0, 0.0, -1.0), v3(-1.0, 0.0, 1.0), v3(-1.0, 0.0, -1.0), 2.0 * Y];
    let pts: Vec<V> = pts.iter().map(|&p| vec(p)).collect();
    run::<V, _>("hull", &ConvexHull::from_points(&pts), &cases, true);
}

/// The tangents the case lists keep from GJK: GJK hits them, within its tolerance `tol` of
/// the surface, so up to `sqrt(2 tol R)` early along the ray (never late), `R` the radius of
/// curvature there (the ellipse's `a² / b = 4` at (0, 1)).
fn gjk_tangents<V: Space>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let ball = common::ViaGjk(Ball::<V>::new(real::<V>(1.0)));
    let ellipse = common::ViaGjk(Ellipsoid::new(vec::<V>(v3(2.0, 1.0, 1.0))));
    let capsule = common::ViaGjk(Capsule::<V>::new(real::<V>(1.0), real::<V>(0.5)));
    let cases: [(&dyn kollide::shape::Support<V>, DVec3, DVec3, f64, f64); 3] = [
        (&ball, v3(-3.0, 1.0, 0.0), X, 3.0, 1.0),
        (&ellipse, v3(-5.0, 1.0, 0.0), X, 5.0, 4.0),
        (&capsule, v3(-0.5, -4.0, 0.0), Y, 3.0, 0.5),
    ];
    for (k, (shape, o, d, t, curvature)) in cases.into_iter().enumerate() {
        let tol = ray_cases::rel_tol::<V>(true) * o.length();
        let slack = (2.0 * tol * curvature).sqrt();
        let ray = kollide::query::cast::Ray::new(vec::<V>(o), vec::<V>(d));
        let pose = kollide::math::Pose::IDENTITY;
        match kollide::query::cast::ray_cast(shape, &pose, &ray, real::<V>(f64::INFINITY)) {
            kollide::query::cast::RayOutcome::Hit(h) => {
                let early = t - h.toi.to_f64();
                eprintln!("gjk tangent {k} {}D: {early:e} early (bound {slack:e})", V::DIM);
                assert!(
                    (-tol..=slack).contains(&early),
                    "tangent {k}: toi {:?} vs {t}, {early:e} early",
                    h.toi
                );
            }
            out => panic!("tangent {k} {}D: expected a hit at {t}, got {out:?}", V::DIM),
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

macro_rules! types_of_dim {
    ($v32:ty, $v64:ty: $($test:ident => $f:ident;)*) => {$(
        #[test]
        fn $test() {
            $f::<$v32>();
            $f::<$v64>();
        }
    )*};
}

every_type! {
    ball_exact => ball;
    cuboid_exact => cuboid;
    capsule_exact => capsule;
    ellipsoid_exact => ellipsoid;
    rounded_cuboid_exact => rounded_cuboid;
    gjk_tangent_rays => gjk_tangents;
}

types_of_dim! { Vec2, DVec2: polygon_exact => polygon; triangle_2d_exact => triangle_2d; }

types_of_dim! { Vec3, DVec3: cylinder_exact => cylinder; cone_exact => cone; hull_exact => hull; }
