//! Metamorphic tests of the public queries `distance`, `intersects` and `contact`: relations
//! between the answers to two related questions, which hold whatever the true answer is.
//!
//! 1. Swap: (B, A) mirrors (A, B): same distance and depth, `intersects` equal, contact
//!    normal reversed and points swapped.
//! 2. Rigid motion: one rotation and translation applied to both poses moves the answer with
//!    it: same distance and depth, normal rotated, points transformed.
//! 3. Scale: scaling the whole scene (shape sizes and translations) by `s` scales distances,
//!    depths and points by `s` (f64: `s` in 1e-6, 1e-3, 1e3, 1e6; f32: 1e-3, 1e3).
//! 4. Hull equivalence: a `Cuboid` and the `ConvexHull` (3D) / `ConvexPolygon` (2D) of its
//!    corners are the same set: the same answers against any other shape, in either order.
//! 5. Rounded: `Rounded<Cuboid>` of radius `r` is at `max(0, d - r)` where its core is at
//!    `d`, and its contact is the core's with the signed distance less `r` (same normal).
//!
//! The pairs are random shapes of every convex kind (ball, cuboid, capsule, hull / polygon,
//! ellipsoid, cylinder and cone in 3D, segment, triangle, rounded cuboid) at random poses
//! from fixed seeds, 47% to 64% of them overlapping (each run asserts 20% to 80%). Each
//! property is written once and run for `Vec2`, `DVec2`, `Vec3` and `DVec3`, and prints its
//! worst deviations as a fraction of their tolerances (`-- --nocapture`).
//!
//! Two library bugs found by these properties are kept out of the runs above and kept as
//! ignored tests at the end (see [`Exempt`]): `intersects` on crossing segments, and the
//! contact points of the least-push fallback.

use crate::common;
use kollide::query::Space;

use common::{rng, rotation, to_world_f64, unit, FromParts, PointCloud, RotF64};
use glam::{DVec2, DVec3, Vec2, Vec3};
use kollide::math::{DPose2, DPose3, DQuat, Pose, Pose2, Real, Rot2, Vector2, Vector3};
use kollide::query::{contact, distance, intersects, Contact, ContactStatus};
use kollide::shape::{
    Ball, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Ellipsoid, Rounded, Segment, Support,
    Triangle,
};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// Random pairs per property and vector type (per scale for property 3). The whole file
/// runs in well under a second in the test profile.
const PAIRS: usize = 2000;

// ---------------------------------------------------------------------------------------
// Shapes: described once in f64 at unit scale, built at any scale in any vector type.

/// A shape's description (lengths at unit scale; points with `z = 0` in 2D).
#[derive(Clone, Debug)]
enum Spec {
    Ball(f64),
    Cuboid([f64; 3]),
    /// Half height, radius.
    Capsule(f64, f64),
    /// The points a `ConvexHull` (3D) or `ConvexPolygon` (2D) is built from.
    Hull(Vec<[f64; 3]>),
    Ellipsoid([f64; 3]),
    /// Half height, radius (3D).
    Cylinder(f64, f64),
    /// Half height, radius (3D).
    Cone(f64, f64),
    Segment([f64; 3], [f64; 3]),
    Triangle([f64; 3], [f64; 3], [f64; 3]),
    /// Half extents of the core, radius.
    RoundedCuboid([f64; 3], f64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ball,
    Cuboid,
    Capsule,
    Hull,
    Ellipsoid,
    Cylinder,
    Cone,
    Segment,
    Triangle,
    RoundedCuboid,
}

impl Spec {
    /// The largest distance of a point of the shape from its local origin.
    fn extent(&self) -> f64 {
        let len = |p: &[f64; 3]| DVec3::from_array(*p).length();
        match self {
            Spec::Ball(r) => *r,
            Spec::Cuboid(h) => len(h),
            Spec::Capsule(hh, r) | Spec::Cylinder(hh, r) | Spec::Cone(hh, r) => hh + r,
            Spec::Hull(p) => p.iter().map(len).fold(0.0, f64::max),
            Spec::Ellipsoid(r) => r.iter().copied().fold(0.0, f64::max),
            Spec::Segment(a, b) => len(a).max(len(b)),
            Spec::Triangle(a, b, c) => len(a).max(len(b)).max(len(c)),
            Spec::RoundedCuboid(h, r) => len(h) + r,
        }
    }

    /// The radius the core is grown by.
    fn radius(&self) -> f64 {
        match self {
            Spec::Ball(r) | Spec::Capsule(_, r) | Spec::RoundedCuboid(_, r) => *r,
            _ => 0.0,
        }
    }

    /// Whether the core is curved: GJK and EPA converge to it instead of landing on it.
    fn curved(&self) -> bool {
        matches!(self, Spec::Ellipsoid(_) | Spec::Cylinder(..) | Spec::Cone(..))
    }

    /// The corners of a cuboid (8 in 3D, 4 in 2D), as a hull description.
    fn corners(h: [f64; 3], dim: usize) -> Spec {
        let pts = (0..1 << dim)
            .map(|i| {
                let s = |k: usize| if i >> k & 1 == 1 { h[k] } else { -h[k] };
                [s(0), s(1), if dim == 3 { s(2) } else { 0.0 }]
            })
            .collect();
        Spec::Hull(pts)
    }
}

/// What the tests need of a dimension: its shape kinds and the shapes that exist in it only.
trait Dim: Space<Rotation: FromParts + RotF64<Self>> {
    const KINDS: &'static [Kind];
    /// Builds `Hull`, `Cylinder` and `Cone` (the per-dimension kinds), scaled by `s`.
    fn build_dim(spec: &Spec, s: f64) -> Box<dyn Support<Self>>;
}

const KINDS_3D: &[Kind] = &[
    Kind::Ball,
    Kind::Cuboid,
    Kind::Capsule,
    Kind::Hull,
    Kind::Ellipsoid,
    Kind::Cylinder,
    Kind::Cone,
    Kind::Segment,
    Kind::Triangle,
    Kind::RoundedCuboid,
];
const KINDS_2D: &[Kind] = &[
    Kind::Ball,
    Kind::Cuboid,
    Kind::Capsule,
    Kind::Hull,
    Kind::Ellipsoid,
    Kind::Segment,
    Kind::Triangle,
    Kind::RoundedCuboid,
];

fn v<V: Space>(p: [f64; 3], s: f64) -> V {
    V::from_f64_array([p[0] * s, p[1] * s, p[2] * s])
}

fn re<V: Space>(x: f64) -> V::Real {
    V::Real::from_f64(x)
}

fn dv<V: Space>(x: V) -> DVec3 {
    DVec3::from_array(x.to_f64_array())
}

fn build_3d<V: Vector3 + Space>(spec: &Spec, s: f64) -> Box<dyn Support<V>> {
    match spec {
        Spec::Hull(p) => {
            let pts: Vec<V> = p.iter().map(|&q| v(q, s)).collect();
            Box::new(ConvexHull::try_from_points(&pts).expect("a hull with volume"))
        }
        Spec::Cylinder(hh, r) => Box::new(Cylinder::new(re::<V>(hh * s), re::<V>(r * s))),
        Spec::Cone(hh, r) => Box::new(Cone::new(re::<V>(hh * s), re::<V>(r * s))),
        _ => unreachable!("{spec:?} is built by `build`"),
    }
}

fn build_2d<V: Vector2 + Space>(spec: &Spec, s: f64) -> Box<dyn Support<V>> {
    match spec {
        Spec::Hull(p) => {
            let pts: Vec<V> = p.iter().map(|&q| v(q, s)).collect();
            Box::new(ConvexPolygon::try_from_points(&pts).expect("a polygon with area"))
        }
        _ => unreachable!("{spec:?} has no 2D shape"),
    }
}

macro_rules! dims {
    ($kinds:ident, $build:ident, $($v:ty),+) => {$(
        impl Dim for $v {
            const KINDS: &'static [Kind] = $kinds;
            fn build_dim(spec: &Spec, s: f64) -> Box<dyn Support<Self>> {
                $build(spec, s)
            }
        }
    )+};
}
dims!(KINDS_3D, build_3d, Vec3, DVec3);
dims!(KINDS_2D, build_2d, Vec2, DVec2);

/// The shape of a description, scaled by `s`.
fn build<V: Dim>(spec: &Spec, s: f64) -> Box<dyn Support<V>> {
    match spec {
        Spec::Ball(r) => Box::new(Ball::<V>::new(re::<V>(r * s))),
        Spec::Cuboid(h) => Box::new(Cuboid::new(v::<V>(*h, s))),
        Spec::Capsule(hh, r) => Box::new(Capsule::<V>::new(re::<V>(hh * s), re::<V>(r * s))),
        Spec::Ellipsoid(r) => Box::new(Ellipsoid::new(v::<V>(*r, s))),
        Spec::Segment(a, b) => Box::new(Segment::new(v::<V>(*a, s), v::<V>(*b, s))),
        Spec::Triangle(a, b, c) => Box::new(Triangle::new(v::<V>(*a, s), v::<V>(*b, s), v::<V>(*c, s))),
        Spec::RoundedCuboid(h, r) => {
            Box::new(Rounded::try_new(Cuboid::new(v::<V>(*h, s)), re::<V>(r * s)).expect("a valid radius"))
        }
        Spec::Hull(_) | Spec::Cylinder(..) | Spec::Cone(..) => V::build_dim(spec, s),
    }
}

/// A random point in the cube `[lo, hi]^DIM` (`z = 0` in 2D).
fn point<V: Space>(r: &mut ChaCha8Rng, lo: f64, hi: f64) -> [f64; 3] {
    let p = [r.random_range(lo..hi), r.random_range(lo..hi), r.random_range(lo..hi)];
    [p[0], p[1], if V::DIM == 2 { 0.0 } else { p[2] }]
}

/// A random shape of the given kind, about unit size, never thin (the hull has a volume
/// or area, the segment a length, the triangle an area, well above rounding).
fn random_spec<V: Dim>(r: &mut ChaCha8Rng, kind: Kind) -> Spec {
    let d = DVec3::from_array;
    match kind {
        Kind::Ball => Spec::Ball(r.random_range(0.2..0.8)),
        Kind::Cuboid => Spec::Cuboid(point::<V>(r, 0.15, 0.8)),
        Kind::Capsule => Spec::Capsule(r.random_range(0.1..0.7), r.random_range(0.1..0.5)),
        Kind::Hull => loop {
            let n = if V::DIM == 2 { r.random_range(3..=9) } else { r.random_range(5..=14) };
            let stretch = d(point::<V>(r, 0.4, 1.0));
            let pts: Vec<DVec3> =
                (0..n).map(|_| dv(unit::<V>(r)) * stretch * r.random_range(0.5..0.9)).collect();
            let (lo, hi) = pts.iter().fold((DVec3::MAX, DVec3::MIN), |(l, u), p| (l.min(*p), u.max(*p)));
            let thick = (hi - lo).truncate().min_element() > 0.3 && (V::DIM == 2 || hi.z - lo.z > 0.3);
            let ok = if V::DIM == 2 {
                let flat: Vec<DVec2> = pts.iter().map(|p| p.truncate()).collect();
                ConvexPolygon::try_from_points(&flat).is_ok_and(|p| area(p.vertices()) > 0.05)
            } else {
                ConvexHull::try_from_points(&pts).is_ok()
            };
            if thick && ok {
                break Spec::Hull(pts.iter().map(|p| p.to_array()).collect());
            }
        },
        Kind::Ellipsoid => Spec::Ellipsoid(point::<V>(r, 0.2, 0.9)),
        Kind::Cylinder => Spec::Cylinder(r.random_range(0.15..0.7), r.random_range(0.15..0.7)),
        Kind::Cone => Spec::Cone(r.random_range(0.15..0.7), r.random_range(0.15..0.7)),
        Kind::Segment => loop {
            let (a, b) = (point::<V>(r, -0.8, 0.8), point::<V>(r, -0.8, 0.8));
            if (d(a) - d(b)).length() > 0.2 {
                break Spec::Segment(a, b);
            }
        },
        Kind::Triangle => loop {
            let (a, b, c) = (point::<V>(r, -0.8, 0.8), point::<V>(r, -0.8, 0.8), point::<V>(r, -0.8, 0.8));
            if (d(b) - d(a)).cross(d(c) - d(a)).length() > 0.1 {
                break Spec::Triangle(a, b, c);
            }
        },
        Kind::RoundedCuboid => Spec::RoundedCuboid(point::<V>(r, 0.1, 0.6), r.random_range(0.05..0.3)),
    }
}

/// The signed area of a polygon.
fn area(p: &[DVec2]) -> f64 {
    (0..p.len()).map(|i| p[i].perp_dot(p[(i + 1) % p.len()])).sum::<f64>() / 2.0
}

fn pick<V: Dim>(r: &mut ChaCha8Rng) -> Kind {
    V::KINDS[r.random_range(0..V::KINDS.len())]
}

// ---------------------------------------------------------------------------------------
// Scenes: two shapes at random poses.

#[derive(Clone, Debug)]
struct Scene<V: Space> {
    a: Spec,
    pa: Pose<V>,
    b: Spec,
    pb: Pose<V>,
}

impl<V: Dim> Scene<V> {
    /// A and B at random poses: A within 1 of the origin, B's origin in a random direction
    /// from A's at up to about the sum of their extents (so that about half the pairs
    /// overlap; shapes fill less of their disk in 2D than of their ball in 3D, so 2D
    /// reaches less far).
    fn random(r: &mut ChaCha8Rng, a: Spec, b: Spec) -> Self {
        let pa: Pose<V> = common::pose(r, 1.0);
        let reach = (a.extent() + b.extent()) * if V::DIM == 2 { 1.2 } else { 1.05 };
        let dir: V = unit(r);
        let t = pa.translation + dir * re::<V>(r.random_range(0.0..reach));
        Self { a, pa, pb: Pose::new(t, rotation::<V>(r)), b }
    }

    /// A random scene of two random kinds.
    fn any(r: &mut ChaCha8Rng) -> Self {
        let (ka, kb) = (pick::<V>(r), pick::<V>(r));
        let (a, b) = (random_spec::<V>(r, ka), random_spec::<V>(r, kb));
        Self::random(r, a, b)
    }

    /// The largest coordinate of the scene (`M`): the scale of its rounding.
    fn size(&self) -> f64 {
        let at = |p: &Pose<V>| dv(p.translation).length();
        (at(&self.pa) + self.a.extent()).max(at(&self.pb) + self.b.extent())
    }

    fn curved(&self) -> bool {
        self.a.curved() || self.b.curved()
    }

    fn radii(&self) -> f64 {
        self.a.radius() + self.b.radius()
    }
}

// ---------------------------------------------------------------------------------------
// Tolerances, and the record of the worst deviations.

/// The relative precision of lengths: `1e-9` in f64, `2e-4` in f32.
///
/// The distance query promises `upper - lower <= max(tol d, 80 ε M)` with `tol = 1e-9`
/// (f64) or `1e-5` (f32), EPA `1e-10` / `1e-5` of the depth plus `100 ε M`; the two answers
/// compared err each in their own way. f64: `1e-9 M` covers both. f32: the documented
/// `~2e-5 M` (GJK on curved shapes converges to ~1e-5 relative, plus the rounding of the
/// coordinates), times 10 for the rounding of the f32 poses and sizes that a moved or
/// scaled scene is built from.
fn rel<V: Space>() -> f64 {
    if V::Real::EPSILON.to_f64() > 1e-10 {
        2e-4
    } else {
        1e-9
    }
}

/// The tolerances of one comparison, absolute (in the scene's units).
#[derive(Clone, Copy, Debug)]
struct Tol {
    /// Distances and depths: `rel × M`.
    len: f64,
    /// Unit normals (the length of the difference): `4 rel` on polytope cores (a face
    /// normal or a cross product of edges, up to rounding); `4 sqrt(rel)` on curved cores,
    /// where the distance is stationary in the direction, so that a direction is known
    /// only to the square root of the distance's precision. Plus `4 len / |core distance|`:
    /// near touching cores the normal is the direction between two nearby points, each
    /// known to `len`.
    normal: f64,
    /// Witness points: `4 len` on polytope cores (vertices or their projections),
    /// `4 sqrt(len M)` on curved cores (as for the normal), plus the radii times the normal's
    /// tolerance (a rounded surface point is its core point moved by the radius along the
    /// normal).
    point: f64,
}

impl Tol {
    /// `size`: the scene's `M`; `core`: the signed distance between the cores; `radii`:
    /// the sum of the shapes' radii.
    fn new<V: Space>(size: f64, curved: bool, core: f64, radii: f64) -> Self {
        let rel = rel::<V>();
        let len = rel * size;
        let near = 4.0 * len / core.abs().max(len);
        let (normal, point) =
            if curved { (4.0 * rel.sqrt(), 4.0 * (len * size).sqrt()) } else { (4.0 * rel, 4.0 * len) };
        let normal = (normal + near).min(2.0);
        Self { len, normal, point: point + radii * normal }
    }

    fn of<V: Dim>(sc: &Scene<V>, signed: f64, scale: f64) -> Self {
        let radii = sc.radii() * scale;
        Self::new::<V>(sc.size() * scale, sc.curved(), signed + radii, radii)
    }
}

/// The known library limitations the property runs step around; each has an ignored test
/// below that runs the sub-case it exempts, and the runs count what they skipped.
#[derive(Clone, Copy, Debug)]
struct Exempt {
    /// Do not compare the points of a contact that has a point proven off its shape (by
    /// more than the length tolerance): the least-push fallback builds such points
    /// (`contact_points_lie_on_the_shapes`). Its distance and normal are still compared.
    fallback_points: bool,
}

impl Exempt {
    const KNOWN_BUGS: Self = Self { fallback_points: true };
}

/// The worst deviation of each check, as a fraction of its tolerance, and the sample's mix.
struct Record {
    exempt: Exempt,
    worst: BTreeMap<&'static str, (f64, f64, f64)>,
    /// Pairs whose normals differ but are both proven optimal by the supports (ties).
    ties: usize,
    /// Comparisons where a contact's status is not `Converged`.
    unconverged: usize,
    /// Comparisons skipped for the known bug of [`Exempt::fallback_points`].
    off_shape: usize,
    pairs: usize,
    overlapping: usize,
}

impl Record {
    fn new(exempt: Exempt) -> Self {
        Self {
            exempt,
            worst: BTreeMap::new(),
            ties: 0,
            unconverged: 0,
            off_shape: 0,
            pairs: 0,
            overlapping: 0,
        }
    }

    /// Counts a pair by its signed distance.
    fn count(&mut self, signed: f64) {
        self.pairs += 1;
        self.overlapping += usize::from(signed < 0.0);
    }

    /// Asserts `dev <= tol`, printing both, and keeps the worst ratio.
    #[track_caller]
    fn check(&mut self, what: &'static str, dev: f64, tol: f64, ctx: &dyn Fn() -> String) {
        assert!(dev <= tol, "{what}: deviation {dev:e} > tolerance {tol:e}\n{}", ctx());
        let e = self.worst.entry(what).or_insert((0.0, 0.0, tol));
        if dev / tol > e.0 {
            *e = (dev / tol, dev, tol);
        }
    }

    /// Prints the worst deviations and asserts that both outcomes were sampled.
    fn report(&self, property: &str, label: &str) {
        eprintln!(
            "{property}, {label}: {} pairs, {} overlapping, {} normal ties, {} not converged, {} points off \
             the shapes (known bug)",
            self.pairs, self.overlapping, self.ties, self.unconverged, self.off_shape
        );
        for (what, (ratio, dev, tol)) in &self.worst {
            eprintln!(
                "    {what:<17} worst {dev:9.2e} at tolerance {tol:9.2e}: {:5.1}% of it",
                100.0 * ratio
            );
        }
        let f = self.overlapping as f64 / self.pairs as f64;
        assert!(
            (0.2..=0.8).contains(&f),
            "{property}, {label}: overlap fraction {f:.2} outside [0.2, 0.8]: the sample does not test both outcomes"
        );
        assert!(
            self.ties * 50 <= self.pairs,
            "{property}, {label}: {} ties in {} pairs",
            self.ties,
            self.pairs
        );
    }
}

fn label<V: Space>() -> String {
    format!("{}D {}", V::DIM, core::any::type_name::<V::Real>())
}

// ---------------------------------------------------------------------------------------
// Queries and comparisons.

/// `contact` with a margin far beyond any gap of the scenes (`s` is the scene's scale), so
/// that it always answers.
fn contact_all<V: Space>(
    a: &dyn Support<V>,
    pa: &Pose<V>,
    b: &dyn Support<V>,
    pb: &Pose<V>,
    s: f64,
) -> Contact<V> {
    contact(a, pa, b, pb, re::<V>(100.0 * s), None).expect("within the margin")
}

/// `distance` (times `k`) and `intersects` of a pair.
fn dist_int<V: Space>(
    a: &dyn Support<V>,
    pa: &Pose<V>,
    b: &dyn Support<V>,
    pb: &Pose<V>,
    k: f64,
) -> (f64, bool) {
    (k * distance(a, pa, b, pb).distance.to_f64(), intersects(a, pa, b, pb))
}

/// A pair of shapes placed in the world: the scene a compared answer belongs to.
struct Pair<'a, V: Space> {
    a: &'a dyn Support<V>,
    pa: &'a Pose<V>,
    b: &'a dyn Support<V>,
    pb: &'a Pose<V>,
}

fn pair<'a, V: Space>(
    a: &'a dyn Support<V>,
    pa: &'a Pose<V>,
    b: &'a dyn Support<V>,
    pb: &'a Pose<V>,
) -> Pair<'a, V> {
    Pair { a, pa, b, pb }
}

impl<V: Dim> Pair<'_, V> {
    /// The signed gap between the shapes along the unit direction `n` (A towards B), from
    /// the support functions alone: `min_B x·n - max_A x·n - radii`. It is at most the
    /// signed distance, and equal to it along an optimal normal: a normal is proven optimal
    /// when its gap reaches the reported distance.
    fn gap(&self, n: DVec3) -> f64 {
        let local = |p: &Pose<V>, u: DVec3| p.inverse_transform_vector(V::from_f64_array(u.to_array()));
        let sa = DVec3::from_array(to_world_f64(self.pa, self.a.support(local(self.pa, n))));
        let sb = DVec3::from_array(to_world_f64(self.pb, self.b.support(local(self.pb, -n))));
        sb.dot(n) - sa.dot(n) - self.a.radius().to_f64() - self.b.radius().to_f64()
    }

    /// How far a contact's points are proven to be from their shapes (0 on or in them):
    /// the larger certified lower bound of the `distance` from a one-point shape to A
    /// (`point_a`) and to B (`point_b`). (The distance itself converges slowly to 0 for a
    /// point on a curved surface; its lower bound does not overstate.)
    fn off(&self, c: &Contact<V>) -> f64 {
        let from = |p: V, s: &dyn Support<V>, at: &Pose<V>| {
            distance(&PointCloud(vec![p]), &Pose::IDENTITY, s, at).lower_bound.to_f64()
        };
        from(c.point_a, self.a, self.pa).max(from(c.point_b, self.b, self.pb))
    }
}

/// Compares `distance` and `intersects` answers that must be equal (`want` carried over by
/// the relation). `intersects` may go either way on pairs within `len` of touching.
fn compare_distance(
    rec: &mut Record,
    want: (f64, bool),
    got: (f64, bool),
    signed: f64,
    tol: &Tol,
    ctx: &dyn Fn() -> String,
) {
    let full = || format!("{}\n  distances: want {}, got {}", ctx(), want.0, got.0);
    rec.check("distance", (want.0 - got.0).abs(), tol.len, &full);
    if signed.abs() > tol.len {
        assert_eq!(want.1, got.1, "intersects differ, signed distance {signed:e}: {}", ctx());
    }
}

/// Compares a contact `got` with the one it must equal, `want` (the first answer carried
/// over by the relation into `got`'s scene, `scene`): signed distance, normal, points.
/// Normals that differ are accepted only when the supports prove both optimal (a tie: two
/// faces at the same depth), and then the points are not compared.
fn compare_contacts<V: Dim>(
    rec: &mut Record,
    want: &Contact<V>,
    got: &Contact<V>,
    tol: &Tol,
    scene: &Pair<'_, V>,
    ctx: &dyn Fn() -> String,
) {
    let full = || format!("{}\n  want {want:?}\n  got  {got:?}", ctx());
    let converged = want.status == ContactStatus::Converged && got.status == ContactStatus::Converged;
    rec.unconverged += usize::from(!converged);
    let (d1, d2) = (want.distance.to_f64(), got.distance.to_f64());
    rec.check("contact distance", (d1 - d2).abs(), tol.len, &full);
    let (n1, n2) = (dv(want.normal), dv(got.normal));
    let dn = (n1 - n2).length();
    if dn > tol.normal {
        let (g1, g2) = (scene.gap(n1), scene.gap(n2));
        assert!(
            g1 >= d1 - tol.len && g2 >= d1 - tol.len,
            "contact normals differ by {dn:e} and are not both optimal: gaps {g1:e} and {g2:e} along them, \
             distance {d1:e}\n{}",
            full()
        );
        rec.ties += 1;
        return;
    }
    rec.check("contact normal", dn, tol.normal, &full);
    // A right point is on its shape: its certified distance from it is 0 up to rounding
    // (at most 1e-12 M in f64 and 1e-5 M in f32 over these runs; tolerance 4 len); the
    // known bug's are 1e-5 M to 0.3 M away (`Exempt::fallback_points`).
    let off = scene.off(want).max(scene.off(got));
    if off > 4.0 * tol.len && rec.exempt.fallback_points {
        rec.off_shape += 1;
        return;
    }
    rec.check("point off its shape", off, 4.0 * tol.len, &full);
    let dp = (dv(want.point_a) - dv(got.point_a)).length().max((dv(want.point_b) - dv(got.point_b)).length());
    rec.check("contact points", dp, tol.point, &full);
}

// ---------------------------------------------------------------------------------------
// The properties.

/// Property 1: (B, A) mirrors (A, B).
fn swap<V: Dim>(seed: u64, exempt: Exempt) {
    let mut r = rng(seed);
    let mut rec = Record::new(exempt);
    for k in 0..PAIRS {
        let sc = Scene::<V>::any(&mut r);
        let (a, b) = (build::<V>(&sc.a, 1.0), build::<V>(&sc.b, 1.0));
        let (a, b, pa, pb) = (a.as_ref(), b.as_ref(), &sc.pa, &sc.pb);
        let ctx = || format!("swap, {}, pair {k}: {sc:?}", label::<V>());
        let want = contact_all(a, pa, b, pb, 1.0);
        let got = contact_all(b, pb, a, pa, 1.0).flipped();
        let signed = want.distance.to_f64();
        let tol = Tol::of(&sc, signed, 1.0);
        rec.count(signed);
        compare_distance(
            &mut rec,
            dist_int(a, pa, b, pb, 1.0),
            dist_int(b, pb, a, pa, 1.0),
            signed,
            &tol,
            &ctx,
        );
        compare_contacts(&mut rec, &want, &got, &tol, &pair(a, pa, b, pb), &ctx);
    }
    rec.report("swap", &label::<V>());
}

/// Property 2: one rigid motion of the whole scene moves the answer with it.
fn rigid_motion<V: Dim>(seed: u64, exempt: Exempt) {
    let mut r = rng(seed);
    let mut rec = Record::new(exempt);
    for k in 0..PAIRS {
        let sc = Scene::<V>::any(&mut r);
        // A rotation about the origin and a translation up to 10 (the scene is ~4 across).
        let m: Pose<V> = common::pose(&mut r, 10.0);
        let moved = Scene { pa: m.compose(&sc.pa), pb: m.compose(&sc.pb), ..sc.clone() };
        let (a, b) = (build::<V>(&sc.a, 1.0), build::<V>(&sc.b, 1.0));
        let (a, b, pa, pb, qa, qb) = (a.as_ref(), b.as_ref(), &sc.pa, &sc.pb, &moved.pa, &moved.pb);
        let ctx = || format!("rigid motion, {}, pair {k}: {sc:?}\n  moved by {m:?}", label::<V>());
        let c = contact_all(a, pa, b, pb, 1.0);
        // The first answer moved, in f64.
        let point = |p: V| V::from_f64_array(to_world_f64(&m, p));
        let normal = V::from_f64_array(m.rotation.rotate_f64(c.normal.to_f64_array(), [0.0; 3]));
        let want = Contact { point_a: point(c.point_a), point_b: point(c.point_b), normal, ..c };
        let got = contact_all(a, qa, b, qb, 1.0);
        let signed = c.distance.to_f64();
        // The moved scene's coordinates are the larger: they set the rounding.
        let tol = Tol::of(&moved, signed, 1.0);
        rec.count(signed);
        compare_distance(
            &mut rec,
            dist_int(a, pa, b, pb, 1.0),
            dist_int(a, qa, b, qb, 1.0),
            signed,
            &tol,
            &ctx,
        );
        compare_contacts(&mut rec, &want, &got, &tol, &pair(a, qa, b, qb), &ctx);
    }
    rec.report("rigid motion", &label::<V>());
}

/// Property 3: scaling the scene by `s` (sizes and translations) scales the answer.
fn scale<V: Dim>(seed: u64, exempt: Exempt) {
    // f32 carries 7 digits: at 1e±6 the scene would be built from sizes and poses no
    // longer ~1e-7 relative apart from the unit scene's in every product.
    let scales: &[f64] = if rel::<V>() > 1e-6 { &[1e-3, 1e3] } else { &[1e-6, 1e-3, 1e3, 1e6] };
    scaled_scenes::<V>(seed, scales, PAIRS, exempt);
}

/// Property 3 on `pairs` random scenes per scale in `scales`.
fn scaled_scenes<V: Dim>(seed: u64, scales: &[f64], pairs: usize, exempt: Exempt) {
    let mut r = rng(seed);
    for &s in scales {
        let mut rec = Record::new(exempt);
        for k in 0..pairs {
            let sc = Scene::<V>::any(&mut r);
            let (a, b) = (build::<V>(&sc.a, 1.0), build::<V>(&sc.b, 1.0));
            let (sa, sb) = (build::<V>(&sc.a, s), build::<V>(&sc.b, s));
            let at = |p: &Pose<V>| Pose::new(p.translation * re::<V>(s), p.rotation);
            let (qa, qb) = (at(&sc.pa), at(&sc.pb));
            let (a, b, sa, sb, pa, pb) = (a.as_ref(), b.as_ref(), sa.as_ref(), sb.as_ref(), &sc.pa, &sc.pb);
            let ctx = || format!("scale {s:e}, {}, pair {k}: {sc:?}", label::<V>());
            let c = contact_all(a, pa, b, pb, 1.0);
            let times = |p: V| V::from_f64_array((dv(p) * s).to_array());
            let signed = c.distance.to_f64() * s;
            let want = Contact {
                distance: re::<V>(signed),
                point_a: times(c.point_a),
                point_b: times(c.point_b),
                ..c
            };
            let got = contact_all(sa, &qa, sb, &qb, s);
            let tol = Tol::of(&sc, signed, s);
            rec.count(signed);
            compare_distance(
                &mut rec,
                dist_int(a, pa, b, pb, s),
                dist_int(sa, &qa, sb, &qb, 1.0),
                signed,
                &tol,
                &ctx,
            );
            compare_contacts(&mut rec, &want, &got, &tol, &pair(sa, &qa, sb, &qb), &ctx);
        }
        rec.report(&format!("scale {s:e}"), &label::<V>());
    }
}

/// Property 3 at the top of the certified range (f32 `1e12` and `1e17`, f64 `1e100` and
/// `1e150`), on a quarter of the pairs: distances, `intersects` and contacts scale.
///
/// Found when this property was added, both from quantities that grow as the fourth power
/// of the coordinates, long before the squares the promises are stated for overflow:
/// - GJK's triangle solver overflowed in f32 from about 4e9 (and in f64 from about 1e77):
///   every triangle looked flat, and GJK stalled on an edge (a point inside an f32 cylinder
///   1e10 wide was reported 1.3e9 away, `Stalled`, with a lower bound of 0). Triangles and
///   tetrahedra in that range are now solved scaled by a power of two.
/// - A hull's face normals were made unit through a squared length that overflowed
///   between 1e77 and the bound of 1e100 where the faces were scaled: zero normals, and a
///   rounded box 1e77 from a hull at 1e78 reported penetrating with a zero normal. The
///   faces are now scaled from 1e60, and SAT hands a normal that is not unit to GJK and EPA.
fn huge<V: Dim>(seed: u64, exempt: Exempt) {
    let scales: &[f64] = if rel::<V>() > 1e-6 { &[1e12, 1e17] } else { &[1e100, 1e150] };
    scaled_scenes::<V>(seed, scales, PAIRS / 4, exempt);
}

/// Property 4: a cuboid and the hull (polygon in 2D) of its corners answer alike against
/// a random shape, in either order.
fn hull_equivalence<V: Dim>(seed: u64, exempt: Exempt) {
    let mut r = rng(seed);
    let mut rec = Record::new(exempt);
    for k in 0..PAIRS {
        let Spec::Cuboid(h) = random_spec::<V>(&mut r, Kind::Cuboid) else { unreachable!() };
        let kb = pick::<V>(&mut r);
        let sb = random_spec::<V>(&mut r, kb);
        let sc = Scene::<V>::random(&mut r, Spec::Cuboid(h), sb);
        let (a, b) = (build::<V>(&sc.a, 1.0), build::<V>(&sc.b, 1.0));
        let hull = build::<V>(&Spec::corners(h, V::DIM), 1.0);
        let (a, hull, b, pa, pb) = (a.as_ref(), hull.as_ref(), b.as_ref(), &sc.pa, &sc.pb);
        let ctx = || format!("hull equivalence, {}, pair {k}: {sc:?}", label::<V>());
        let want = contact_all(a, pa, b, pb, 1.0);
        let got = contact_all(hull, pa, b, pb, 1.0);
        let signed = want.distance.to_f64();
        let tol = Tol::of(&sc, signed, 1.0);
        rec.count(signed);
        compare_distance(
            &mut rec,
            dist_int(a, pa, b, pb, 1.0),
            dist_int(hull, pa, b, pb, 1.0),
            signed,
            &tol,
            &ctx,
        );
        compare_contacts(&mut rec, &want, &got, &tol, &pair(hull, pa, b, pb), &ctx);
        let want = contact_all(b, pb, a, pa, 1.0);
        let got = contact_all(b, pb, hull, pa, 1.0);
        compare_distance(
            &mut rec,
            dist_int(b, pb, a, pa, 1.0),
            dist_int(b, pb, hull, pa, 1.0),
            signed,
            &tol,
            &ctx,
        );
        compare_contacts(&mut rec, &want, &got, &tol, &pair(b, pb, hull, pa), &ctx);
    }
    rec.report("hull equivalence", &label::<V>());
}

/// Property 5: a rounded cuboid is its core grown by the radius, in either order.
fn rounded<V: Dim>(seed: u64, exempt: Exempt) {
    let mut r = rng(seed);
    let mut rec = Record::new(exempt);
    for k in 0..PAIRS {
        let Spec::RoundedCuboid(h, radius) = random_spec::<V>(&mut r, Kind::RoundedCuboid) else {
            unreachable!()
        };
        let kb = pick::<V>(&mut r);
        let sb = random_spec::<V>(&mut r, kb);
        let sc = Scene::<V>::random(&mut r, Spec::RoundedCuboid(h, radius), sb);
        let (a, b, core) =
            (build::<V>(&sc.a, 1.0), build::<V>(&sc.b, 1.0), build::<V>(&Spec::Cuboid(h), 1.0));
        let (a, core, b, pa, pb) = (a.as_ref(), core.as_ref(), b.as_ref(), &sc.pa, &sc.pb);
        let ctx = || format!("rounded, {}, pair {k}: {sc:?}", label::<V>());
        let rr = re::<V>(radius);
        // The core's distance less the radius (0 once they overlap).
        let grown = |(d, i): (f64, bool)| ((d - radius).max(0.0), i || d <= radius);
        // The core's contact, A's point moved out by the radius along the normal.
        let c = contact_all(core, pa, b, pb, 1.0);
        let want = Contact { distance: c.distance - rr, point_a: c.point_a + c.normal * rr, ..c };
        let got = contact_all(a, pa, b, pb, 1.0);
        let signed = got.distance.to_f64();
        let tol = Tol::of(&sc, signed, 1.0);
        rec.count(signed);
        compare_distance(
            &mut rec,
            grown(dist_int(core, pa, b, pb, 1.0)),
            dist_int(a, pa, b, pb, 1.0),
            signed,
            &tol,
            &ctx,
        );
        compare_contacts(&mut rec, &want, &got, &tol, &pair(a, pa, b, pb), &ctx);
        // The other order: the rounded cuboid is B, its point moves against the normal.
        let c = contact_all(b, pb, core, pa, 1.0);
        let want = Contact { distance: c.distance - rr, point_b: c.point_b - c.normal * rr, ..c };
        let got = contact_all(b, pb, a, pa, 1.0);
        compare_distance(
            &mut rec,
            grown(dist_int(b, pb, core, pa, 1.0)),
            dist_int(b, pb, a, pa, 1.0),
            signed,
            &tol,
            &ctx,
        );
        compare_contacts(&mut rec, &want, &got, &tol, &pair(b, pb, a, pa), &ctx);
    }
    rec.report("rounded", &label::<V>());
}

/// One test per vector type for a property: `$body::<V>(seed, Exempt::KNOWN_BUGS)`.
macro_rules! for_all_vectors {
    ($name:ident, $body:ident, $seed:expr) => {
        mod $name {
            use super::*;
            #[test]
            fn vec2() {
                $body::<Vec2>($seed, Exempt::KNOWN_BUGS);
            }
            #[test]
            fn dvec2() {
                $body::<DVec2>($seed + 1, Exempt::KNOWN_BUGS);
            }
            #[test]
            fn vec3() {
                $body::<Vec3>($seed + 2, Exempt::KNOWN_BUGS);
            }
            #[test]
            fn dvec3() {
                $body::<DVec3>($seed + 3, Exempt::KNOWN_BUGS);
            }
        }
    };
}

for_all_vectors!(swap_mirrors_the_answer, swap, 0x5A00);
for_all_vectors!(rigid_motion_moves_the_answer, rigid_motion, 0x5B00);
for_all_vectors!(scale_scales_the_answer, scale, 0x5C00);
for_all_vectors!(huge_scale_scales_the_answer, huge, 0x6000);
for_all_vectors!(cuboid_answers_as_the_hull_of_its_corners, hull_equivalence, 0x5D00);
for_all_vectors!(rounded_cuboid_is_its_core_plus_the_radius, rounded, 0x5E00);

// ---------------------------------------------------------------------------------------
// Found by the properties: one fixed (a regression test), one known limitation (ignored).

/// Regression (found by the swap property of this file): `intersects` of two segments that
/// cross returned `false` most of the time. Two zero-radius segment cores go to the closed
/// form, which answered `|point_b - point_a|² <= 0`: the closest points of crossing segments
/// carry rounding and are rarely bit-equal, so only the luckiest crossings intersected, and
/// the answer depended on the order. Alongside it, `distance` certified a gap of 5e-8 for
/// unit segments in f32 crossing near the origin: its rounding slack was taken from the
/// closest points (near 0) instead of the endpoints, and without the `1 / sin θ` of
/// segments at an angle. Now `intersects` is `false` only where the distance's lower bound
/// clears the radii, and in 2D the orientations of the ends decide a crossing exactly.
///
/// Reproducer (2D f64, world poses):
/// A = `Segment((-0.4536258505046476, 0.3881890969662194), (0.6713402276339966, 0.32626938836081076))`
/// at translation (0.02835326988762521, -0.9001644857355973), rotation cos 0.8529963772640423,
/// sin 0.5219168328138302; B = `Segment((0.2556003689224493, 0.6551739252253561),
/// (0.04688994711763961, 0.5082068284980306))` at (-1.1047665588567772, -0.5204862428895911),
/// cos 0.0373184015829919, sin -0.9993034258438678. They cross (the orientation tests of
/// each segment's ends against the other's line have opposite signs, by 0.0106 and 0.2735,
/// 0.0329 and 0.2512). Before: `intersects(A, B)` = false, `intersects(B, A)` = true.
///
/// On random segments crossing by a clear margin (the truth below), `intersects` said false
/// for 92% to 97% of the pairs in each of Vec2, DVec2, and coplanar Vec3 and DVec3.
#[test]
fn crossing_segments_intersect() {
    let a = Segment::new(
        DVec2::new(-0.4536258505046476, 0.3881890969662194),
        DVec2::new(0.6713402276339966, 0.32626938836081076),
    );
    let pa = DPose2::new(
        DVec2::new(0.02835326988762521, -0.9001644857355973),
        Rot2 { cos: 0.8529963772640423, sin: 0.5219168328138302 },
    );
    let b = Segment::new(
        DVec2::new(0.2556003689224493, 0.6551739252253561),
        DVec2::new(0.04688994711763961, 0.5082068284980306),
    );
    let pb = DPose2::new(
        DVec2::new(-1.1047665588567772, -0.5204862428895911),
        Rot2 { cos: 0.0373184015829919, sin: -0.9993034258438678 },
    );
    let (ab, ba) = (intersects(&a, &pa, &b, &pb), intersects(&b, &pb, &a, &pa));
    assert!(ab && ba, "crossing segments: intersects(A, B) = {ab}, intersects(B, A) = {ba}");
    // Truth: segments whose ends lie on opposite sides of the other's line, by a margin.
    crossing_truth::<Vec2>();
    crossing_truth::<DVec2>();
    crossing_truth::<Vec3>();
    crossing_truth::<DVec3>();
    // (The property runs above compare `intersects` on 2D segment pairs too, as they once
    // could not.)
}

/// Random segment pairs in the plane `z = 0` (in 3D too) that cross by a margin (each
/// segment's ends on opposite sides of the other's line, by at least 0.01), which must
/// intersect in both orders.
fn crossing_truth<V: Dim>() {
    let mut r = rng(0x5F00);
    let (mut pairs, mut wrong) = (0, 0);
    while pairs < 1000 {
        let p: Vec<[f64; 3]> = (0..4).map(|_| point::<Vec2>(&mut r, -1.0, 1.0)).collect();
        let q: Vec<DVec2> = p.iter().map(|x| DVec3::from_array(*x).truncate()).collect();
        let side = |a: DVec2, b: DVec2, c: DVec2| (b - a).perp_dot(c - a);
        let s =
            [side(q[0], q[1], q[2]), side(q[0], q[1], q[3]), side(q[2], q[3], q[0]), side(q[2], q[3], q[1])];
        if s.iter().any(|x| x.abs() < 0.01) || s[0] * s[1] > 0.0 || s[2] * s[3] > 0.0 {
            continue;
        }
        pairs += 1;
        let a = Segment::new(v::<V>(p[0], 1.0), v::<V>(p[1], 1.0));
        let b = Segment::new(v::<V>(p[2], 1.0), v::<V>(p[3], 1.0));
        let id = Pose::IDENTITY;
        wrong += usize::from(!intersects(&a, &id, &b, &id) || !intersects(&b, &id, &a, &id));
    }
    assert_eq!(wrong, 0, "{}: {wrong} of {pairs} crossing segment pairs do not intersect", label::<V>());
}

/// Known limitation (open in issue 11): the points of an unfinished penetration (`Stalled`,
/// `MaxIterations`: EPA's own answer when it stops early, and the least-push fallback of
/// `least_push.rs`) are A's support point along the normal and `point_a - normal * depth`,
/// which lies on B's support plane but off B when A's support there is not a single point
/// (a box face, a cylinder's side or cap). The depth and the normal are right. When this
/// test was written the fallback could also report `Converged` with such points (reproducers
/// below); it now reports `Stalled` unless EPA's own answer stands, and reproducer 1 comes
/// back from EPA as `MaxIterations` with the same points. Found by swap and hull
/// equivalence: the two orders agree on depth and normal but not on the points.
///
/// Reproducer 1 (3D f64, `Converged`): A = `Cylinder::new(0.6617661591132339,
/// 0.31385487832388315)` at translation (0.25546586973392404, 0.9667982675909919,
/// -0.4686395843382303), rotation `DQuat::from_xyzw(-0.5903175098412734, 0.4464665383967029,
/// -0.6550483568756807, -0.15200170335010796)`; B = `Ball::new(0.45294836850604564)` at
/// (0.2566140463730324, 0.965551332095767, -0.47051186440753145) (its rotation is
/// irrelevant). The ball's centre is 0.00245 from the cylinder's axis, so the depth is
/// 0.45294836850604564 + 0.31385487832388315 - 0.00244894 = 0.76435430371730 (closed form),
/// and both orders agree on it and on the normal. `contact(A, B, 0)`: `point_b` =
/// (0.44236636042214195, 1.500488688756629, 0.09804103343851722), 0.8024 from the ball's
/// centre (its radius is 0.4529), `point_a` a rim point of the cylinder, status `Converged`.
/// `contact(B, A, 0)` puts the ball's point 0.45294836850604586 from its centre: right.
///
/// Reproducer 2 (2D f32, `Converged`): A = `Cuboid((0.33195257, 0.33119115))` at translation
/// (-0.82826436, -0.16941142), rotation cos -0.028224936, sin -0.9996016; B =
/// `Ellipsoid((0.62133664, 0.7627424))` at (0.024178345, -0.19663934), cos -0.6856678, sin
/// -0.7279146. `contact(A, B, 0)` = distance -0.1820724, normal (0.9996016, -0.028224936),
/// point_a (-0.5065745, -0.5105796) (a corner of A), point_b (-0.6885744, -0.5054406), status
/// `Converged`; in B's frame `|point_b / radii|` = 1.217 (1 on the ellipse). `contact(B, A, 0)`
/// puts the ellipse's point at 0.9999985: right.
///
/// Over 20,000 random cuboid-ellipsoid placements (f32), 4 of 10,761 `Converged` and 18 of
/// 165 `Stalled` penetrating contacts had a point off the shapes in 2D, 3 of 7,415 and 140 of
/// 227 in 3D. In the property runs above: up to 6 comparisons in 2,000 pairs in f32, 1 in
/// f64 (printed as "points off the shapes").
#[test]
#[ignore = "known limitation: points of Stalled / MaxIterations penetrations lie on B's support plane (see the comment)"]
fn contact_points_lie_on_the_shapes() {
    let cylinder = Cylinder::new(0.6617661591132339, 0.31385487832388315);
    let pa = DPose3::new(
        DVec3::new(0.25546586973392404, 0.9667982675909919, -0.4686395843382303),
        DQuat::from_xyzw(-0.5903175098412734, 0.4464665383967029, -0.6550483568756807, -0.15200170335010796),
    );
    let (radius, centre) =
        (0.45294836850604564, DVec3::new(0.2566140463730324, 0.965551332095767, -0.47051186440753145));
    let ball = Ball::new(radius);
    let pb = DPose3::from_translation(centre);
    let c = contact(&cylinder, &pa, &ball, &pb, 0.0, None).expect("they overlap");
    // Closed form: the ball's centre is inside the cylinder, nearest its side.
    let local = pa.inverse_transform_point(centre);
    let depth = radius + 0.31385487832388315 - local.x.hypot(local.z);
    assert!((c.distance + depth).abs() < 1e-12, "{c:?}: depth {depth}");
    let on_ball = (c.point_b - centre).length();
    assert!(
        (on_ball - radius).abs() < 1e-9,
        "{c:?}: point_b is {on_ball} from the ball's centre, radius {radius}"
    );

    let h = Vec2::new(0.33195257, 0.33119115);
    let radii = Vec2::new(0.62133664, 0.7627424);
    let pa = Pose2::new(Vec2::new(-0.82826436, -0.16941142), Rot2 { cos: -0.028224936, sin: -0.9996016 });
    let pb = Pose2::new(Vec2::new(0.024178345, -0.19663934), Rot2 { cos: -0.6856678, sin: -0.7279146 });
    let c = contact(&Cuboid::new(h), &pa, &Ellipsoid::new(radii), &pb, 0.0, None).expect("they overlap");
    // Closed forms: on the box, `max |x| / h = 1`; on the ellipse, `|x / radii| = 1`.
    let on_box = (pa.inverse_transform_point(c.point_a) / h).abs().max_element();
    let on_ellipse = (pb.inverse_transform_point(c.point_b) / radii).length();
    assert!(
        (on_box - 1.0).abs() < 1e-4 && (on_ellipse - 1.0).abs() < 1e-4,
        "{c:?}: point_a at {on_box} of the box, point_b at {on_ellipse} of the ellipse"
    );

    // The sub-case the properties exempt: points proven off their shapes.
    let all_points = Exempt { fallback_points: false };
    swap::<DVec3>(0x5A03, all_points);
    swap::<Vec3>(0x5A02, all_points);
    hull_equivalence::<Vec2>(0x5D00, all_points);
    hull_equivalence::<Vec3>(0x5D02, all_points);
    rounded::<Vec3>(0x5E02, all_points);
}
