//! Separating-axis contacts of boxes and hulls in 3D against f64 brute force: the depth, the
//! normal (the overlap along it is the depth) and witness points on both surfaces; separated
//! pairs give no contact. Also the merged faces and edges of hulls.
//!
//! EPA is not involved: a pair the separating-axis test left to EPA would come back with a
//! status other than `Converged` and fail here.

use crate::common;
use crate::solid3d;
use kollide::query::Space;

use common::{assert_close, assert_mixed, rng, unit, vec_in, FromParts, RotF64};
use glam::{DVec3, Vec3};
use kollide::math::{Pose, Real, Vector3};
use kollide::query::{contact, ContactStatus};
use kollide::shape::{ConvexHull, Cuboid};
use rand_chacha::ChaCha8Rng;
use solid3d::{corners, d3, world};

/// A random hull of 8 to 64 points: on a stretched sphere, or a box with points on its faces
/// (flat faces to merge).
fn random_hull<V: Vector3 + Space>(r: &mut ChaCha8Rng, max_points: usize) -> ConvexHull<V> {
    use rand::Rng;
    let n = r.random_range(8..=max_points);
    let stretch: V = vec_in(r, 0.3, 1.0);
    let pts: Vec<V> = if r.random_bool(0.25) {
        let mut p = corners(stretch);
        p.extend((0..n).map(|_| {
            let mut q: V = vec_in(r, -1.0, 1.0);
            let k = r.random_range(0..3);
            let mut a = q.to_f64_array();
            a[k] = a[k].signum();
            q = V::from_f64_array(a);
            q.mul_elem(stretch)
        }));
        p
    } else {
        (0..n).map(|_| unit::<V>(r).mul_elem(stretch)).collect()
    };
    ConvexHull::try_from_points(&pts).expect("random hull")
}

enum Shape<V: Vector3 + Space> {
    Box(Cuboid<V>),
    Hull(Box<ConvexHull<V>>),
}

impl<V: Vector3 + Space> Shape<V> {
    fn vertices(&self) -> Vec<V> {
        match self {
            Shape::Box(c) => corners(c.half_extents),
            Shape::Hull(h) => h.vertices().to_vec(),
        }
    }
    fn random(r: &mut ChaCha8Rng, hull: bool, max_points: usize) -> Self {
        if hull {
            Shape::Hull(std::boxed::Box::new(random_hull(r, max_points)))
        } else {
            Shape::Box(Cuboid::new(vec_in(r, 0.1, 1.0)))
        }
    }
}

fn query<V: Vector3 + Space>(
    a: &Shape<V>,
    pa: &Pose<V>,
    b: &Shape<V>,
    pb: &Pose<V>,
    margin: f64,
) -> Option<kollide::query::Contact<V>> {
    let m = V::Real::from_f64(margin);
    match (a, b) {
        (Shape::Box(x), Shape::Box(y)) => contact(x, pa, y, pb, m, None),
        (Shape::Box(x), Shape::Hull(y)) => contact(x, pa, &**y, pb, m, None),
        (Shape::Hull(x), Shape::Box(y)) => contact(&**x, pa, y, pb, m, None),
        (Shape::Hull(x), Shape::Hull(y)) => contact(&**x, pa, &**y, pb, m, None),
    }
}

/// Checks one pair against the oracle; returns whether the shapes overlap.
#[allow(clippy::too_many_arguments)]
fn check_pair<V: Vector3 + Space>(
    a: &Shape<V>,
    pa: &Pose<V>,
    b: &Shape<V>,
    pb: &Pose<V>,
    tol: f64,
    ctx: &str,
) -> bool
where
    V::Rotation: RotF64<V>,
{
    let (wa, wb) = (world(pa, &a.vertices()), world(pb, &b.vertices()));
    let (depth, _) = solid3d::penetration(&wa, &wb);
    let c = query(a, pa, b, pb, 0.0);
    if depth < -tol {
        assert!(c.is_none(), "{ctx}: separated by {:e}, contact {c:?}", -depth);
        return false;
    }
    if depth <= tol {
        return depth > 0.0; // touching within rounding: either answer
    }
    let c = c.unwrap_or_else(|| panic!("{ctx}: overlap {depth:e} but no contact"));
    assert_eq!(c.status, ContactStatus::Converged, "{ctx}: {c:?}");
    assert_close(-c.distance.to_f64(), depth, tol, &format!("{ctx}: depth"));
    let n = d3(c.normal);
    assert_close(n.length(), 1.0, 1e-5, &format!("{ctx}: |normal|"));
    // The overlap along the normal is the depth: the normal is a best axis.
    assert_close(
        solid3d::overlap_along(&wa, &wb, n.normalize()),
        depth,
        2.0 * tol,
        &format!("{ctx}: overlap along normal"),
    );
    // Witnesses on both surfaces, point_b = point_a + distance * normal.
    let (qa, qb) = (d3(c.point_a), d3(c.point_b));
    let (fa, fb) = (solid3d::planes(&wa), solid3d::planes(&wb));
    assert_close(solid3d::signed(&fa, qa), 0.0, tol, &format!("{ctx}: point_a on A"));
    assert_close(solid3d::signed(&fb, qb), 0.0, tol, &format!("{ctx}: point_b on B"));
    assert_close((qb - qa).dot(n), c.distance.to_f64(), tol, &format!("{ctx}: gap along normal"));
    true
}

fn pairs<V: Vector3 + Space>(seed: u64, count: usize, kind: usize, max_points: usize, tol: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    let mut hits = 0;
    for k in 0..count {
        let (ha, hb) = (kind & 1 == 1, kind & 2 == 2);
        let a = Shape::<V>::random(&mut r, ha, max_points);
        let b = Shape::<V>::random(&mut r, hb, max_points);
        let pa = common::pose::<V>(&mut r, 0.8);
        let pb = common::pose::<V>(&mut r, 0.8);
        let ctx = format!("pair {k} kind {kind} {}", core::any::type_name::<V>());
        hits += check_pair(&a, &pa, &b, &pb, tol, &ctx) as usize;
    }
    assert_mixed(hits, count, "sat pairs");
}

#[test]
fn box_box_f64() {
    pairs::<DVec3>(301, 3000, 0, 0, 1e-10);
}
#[test]
fn box_box_f32() {
    pairs::<Vec3>(302, 3000, 0, 0, 2e-5);
}
#[test]
fn box_hull_f64() {
    pairs::<DVec3>(303, 600, 2, 64, 1e-10);
}
#[test]
fn box_hull_f32() {
    pairs::<Vec3>(304, 600, 2, 64, 2e-5);
}
#[test]
fn hull_box_f64() {
    pairs::<DVec3>(305, 600, 1, 64, 1e-10);
}
#[test]
fn hull_box_f32() {
    pairs::<Vec3>(306, 600, 1, 64, 2e-5);
}
#[test]
fn hull_hull_f64() {
    pairs::<DVec3>(307, 600, 3, 20, 1e-10);
}
#[test]
fn hull_hull_f32() {
    pairs::<Vec3>(308, 600, 3, 20, 2e-5);
}
#[test]
fn small_hulls_f64() {
    pairs::<DVec3>(309, 1500, 3, 12, 1e-10);
}
#[test]
fn small_hulls_f32() {
    pairs::<Vec3>(310, 1500, 3, 12, 2e-5);
}

/// Random box pairs at the scale `s` (sizes and positions times `s`, tolerance too).
fn scaled_boxes<V: Vector3 + Space>(seed: u64, s: f64, tol: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    let mut hits = 0;
    let sv = V::Real::from_f64(s);
    for k in 0..1000 {
        let a = Shape::Box(Cuboid::new(vec_in::<V>(&mut r, 0.1, 1.0) * sv));
        let b = Shape::Box(Cuboid::new(vec_in::<V>(&mut r, 0.1, 1.0) * sv));
        let (pa, pb) = (common::pose::<V>(&mut r, 0.9), common::pose::<V>(&mut r, 0.9));
        let (pa, pb) =
            (Pose::new(pa.translation * sv, pa.rotation), Pose::new(pb.translation * sv, pb.rotation));
        let ctx = format!("scaled {s:e} pair {k} {}", core::any::type_name::<V>());
        hits += check_pair(&a, &pa, &b, &pb, tol * s, &ctx) as usize;
    }
    assert_mixed(hits, 1000, "scaled box pairs");
}

#[test]
fn tiny_and_huge_boxes() {
    scaled_boxes::<DVec3>(311, 1e-6, 1e-10);
    scaled_boxes::<DVec3>(312, 1e6, 1e-10);
    scaled_boxes::<Vec3>(313, 1e-6, 2e-5);
    scaled_boxes::<Vec3>(314, 1e6, 2e-5);
}

/// Identical shapes at the same pose, exactly touching boxes, a box deep inside another.
fn degenerate<V: Vector3 + Space>(tol: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let f = V::Real::from_f64;
    let he = V::new3(f(0.5), f(0.25), f(0.75));
    let cube = Cuboid::new(he);
    let mut r = rng(315);
    for _ in 0..50 {
        let p = common::pose::<V>(&mut r, 2.0);
        // Identical, same pose: the depth is the thinnest width, 0.5.
        let c = contact(&cube, &p, &cube, &p, V::Real::ZERO, None).expect("identical boxes");
        assert_close(c.distance.to_f64(), -0.5, tol, "identical boxes: depth");
        assert_close(c.normal.length().to_f64(), 1.0, tol, "identical boxes: unit normal");
        let hull = random_hull::<V>(&mut r, 20);
        let c = contact(&hull, &p, &hull, &p, V::Real::ZERO, None).expect("identical hulls");
        let w = world(&p, hull.vertices());
        assert_close(-c.distance.to_f64(), solid3d::penetration(&w, &w).0, tol, "identical hulls: depth");
        assert_eq!(c.status, ContactStatus::Converged);
        assert!(c.normal.is_finite_vec() && (c.normal.length().to_f64() - 1.0).abs() < 1e-5);
    }
    // Exactly touching along x (every number exact in binary): distance 0, normal +x.
    let touch = Pose::from_translation(V::new3(f(1.0), f(0.125), f(-0.5)));
    let c = contact(&cube, &Pose::IDENTITY, &cube, &touch, V::Real::ZERO, None).expect("touching boxes");
    assert_eq!(c.distance.to_f64(), 0.0);
    assert_eq!(d3(c.normal), DVec3::X);
    // A small box deep inside a large one, 0.2 from the +x face: pushing it out through
    // that face takes 0.2 + 0.1 (through +y: 0.25 + 0.1).
    let small = Cuboid::new(V::splat(f(0.1)));
    let inside = Pose::from_translation(V::new3(f(0.3), f(0.0), f(0.0)));
    let c = contact(&cube, &Pose::IDENTITY, &small, &inside, V::Real::ZERO, None).unwrap();
    assert_close(-c.distance.to_f64(), 0.3, tol, "deep: depth");
    assert_eq!(d3(c.normal), DVec3::X);
}

#[test]
fn degenerate_f64() {
    degenerate::<DVec3>(1e-10);
}
#[test]
fn degenerate_f32() {
    degenerate::<Vec3>(2e-5);
}

/// The fast brute force used above (boundary triangles and their edges) agrees with the
/// shared oracle (all vertex pairs) on small overlapping sets.
#[test]
fn solid_oracle_matches_shared_oracle() {
    let mut r = rng(316);
    let mut checked = 0;
    for _ in 0..200 {
        let va: Vec<DVec3> = (0..8).map(|_| unit::<DVec3>(&mut r)).collect();
        let off: DVec3 = vec_in(&mut r, -1.2, 1.2);
        let vb: Vec<DVec3> = (0..8).map(|_| unit::<DVec3>(&mut r) + off).collect();
        if !common::oracle::polytopes_overlap_3d(&va, &vb) {
            continue;
        }
        checked += 1;
        let (d1, _) = solid3d::penetration(&va, &vb);
        let (d2, _) = common::oracle::penetration_3d(&va, &vb);
        assert_close(d1, d2, 1e-12, "solid oracle vs shared oracle");
    }
    assert!(checked > 50, "only {checked} overlapping pairs");
}

/// The trace of the separating-axis test: each axis tried with both cores' projections, and
/// the best so far, ending at the contact's depth. Two unit boxes, B moved by (1.5, 0.2, 0):
/// they overlap by 0.5 along x (A's face 0), and the projections on x are [-1, 1] and
/// [0.5, 2.5]. Then random boxes and hulls: on every axis the separation is the gap between
/// the projections, and the last best is the contact's (negative) distance.
#[test]
fn the_sat_trace_records_each_axis_with_both_projections() {
    use kollide::query::{contact, ContactTrace, SatAxis};
    let unit_box = Cuboid::new(DVec3::ONE);
    let pose_b = Pose::from_translation(DVec3::new(1.5, 0.2, 0.0));
    let mut trace = ContactTrace::default();
    let c = contact(&unit_box, &Pose::IDENTITY, &unit_box, &pose_b, 0.0, Some(&mut trace)).unwrap();
    assert!((c.distance + 0.5).abs() < 1e-12 && trace.gjk.is_empty() && trace.epa.is_empty());
    let x = trace.sat.iter().find(|s| s.kind == SatAxis::FaceA(0)).expect("A's x face tried");
    assert!((x.axis - DVec3::X).length() < 1e-15);
    assert!((x.separation + 0.5).abs() < 1e-12, "{x:?}");
    assert!((x.a[0] + 1.0).abs() < 1e-12 && (x.a[1] - 1.0).abs() < 1e-12, "{x:?}");
    assert!((x.b[0] - 0.5).abs() < 1e-12 && (x.b[1] - 2.5).abs() < 1e-12, "{x:?}");
    // 3 + 3 face axes and the 6 edge pairs that are not parallel (x with x, ... are skipped).
    assert_eq!(trace.sat.len(), 12);
    assert!((trace.sat.last().unwrap().best + 0.5).abs() < 1e-12);

    let mut r = rng(1127);
    let mut traced = 0;
    for k in 0..300 {
        let a: ConvexHull<DVec3> = random_hull(&mut r, 24);
        let b: Cuboid<DVec3> = Cuboid::new(vec_in(&mut r, 0.2, 1.0));
        let pose_a: Pose<DVec3> = common::pose(&mut r, 0.3);
        let pose_b: Pose<DVec3> = common::pose(&mut r, 0.8);
        let (first, second): (&dyn kollide::shape::Support<DVec3>, &dyn kollide::shape::Support<DVec3>) =
            if k % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let mut trace = ContactTrace::default();
        let Some(c) = contact(first, &pose_a, second, &pose_b, 0.0, Some(&mut trace)) else { continue };
        if trace.sat.is_empty() || c.status != ContactStatus::Converged || !trace.epa.is_empty() {
            continue;
        }
        traced += 1;
        for s in &trace.sat {
            let gap = s.b[0] - s.a[1];
            assert!((s.separation - gap).abs() < 1e-9, "{k}: {s:?}, projections' gap {gap}");
            assert!((s.axis.length() - 1.0).abs() < 1e-12);
        }
        assert!((trace.sat.last().unwrap().best - c.distance).abs() < 1e-9, "{k}: {c:?}");
    }
    assert!(traced > 100, "only {traced} pairs overlapped");
}
