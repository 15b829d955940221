//! 3D contact manifolds against closed forms and f64 brute force: every point on both
//! surfaces, the counts of classic resting contacts (a box on a box: 4, a capsule lying on a
//! box: 2, a cylinder standing on a box: its cap), the per-point distances of a box resting on
//! a box, ids that survive a small motion; and the merged faces of hulls.

use crate::common;
use crate::solid3d;
use kollide::query::Space;

use common::{assert_close, rng, unit, vec_in, FromParts, RotF64};
use glam::{DVec3, Vec3};
use kollide::math::{Pose, Real, Vector3};
use kollide::query::{manifold, Manifold};
use kollide::shape::{Capsule, ConvexHull, Cuboid, Cylinder, Support};
use rand::Rng;
use solid3d::{corners, d3, world};

/// A rotation by a small random angle (up to `angle` radians) about a random axis.
fn tilt<V: Vector3 + Space>(r: &mut rand_chacha::ChaCha8Rng, angle: f64) -> V::Rotation
where
    V::Rotation: FromParts,
{
    let axis: DVec3 = unit(r);
    let h = 0.5 * angle * r.random_range(-1.0..1.0);
    let (s, c) = h.sin_cos();
    // FromParts adds 0.01 to w and normalises; undo the shift.
    V::Rotation::from_parts([axis.x * s, axis.y * s, axis.z * s, c - 0.01])
}

/// Every manifold point on both polytopes (given by their world vertices), within `tol`,
/// with `distance = (point_b - point_a) · normal` and at least the contact's distance.
fn check_on_surfaces<V: Space>(m: &Manifold<V>, wa: &[DVec3], wb: &[DVec3], tol: f64, ctx: &str) {
    let (fa, fb) = (solid3d::planes(wa), solid3d::planes(wb));
    let n = d3(m.normal);
    assert!(m.len() <= 4, "{ctx}: {} points", m.len());
    for p in m.points() {
        let (qa, qb) = (d3(p.point_a), d3(p.point_b));
        assert_close(solid3d::signed(&fa, qa), 0.0, tol, &format!("{ctx}: point_a on A"));
        assert_close(solid3d::signed(&fb, qb), 0.0, tol, &format!("{ctx}: point_b on B"));
        assert_close((qb - qa).dot(n), p.distance.to_f64(), tol, &format!("{ctx}: distance"));
    }
}

/// A small box resting on a large floor, tilted by up to 1e-4 and sunk by up to 0.01: four
/// points, each a bottom corner of the box over the floor's top face at the distance of
/// that corner's height above it (closed form), ids unchanged when B moves by 1e-5.
fn box_on_floor<V: Vector3 + Space>(seed: u64, tol: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    for k in 0..300 {
        let floor_he = V::new3(V::Real::from_f64(5.0), V::Real::from_f64(0.5), V::Real::from_f64(5.0));
        let floor = Cuboid::new(floor_he);
        let he: V = vec_in(&mut r, 0.1, 1.0);
        let cube = Cuboid::new(he);
        let sink = r.random_range(-0.01..0.002);
        let offset = V::new3(
            V::Real::from_f64(r.random_range(-3.0..3.0)),
            V::Real::from_f64(0.5 + he[1].to_f64() + sink),
            V::Real::from_f64(r.random_range(-3.0..3.0)),
        );
        let pb = Pose::new(offset, tilt::<V>(&mut r, 1e-4));
        let pa = Pose::IDENTITY;
        let ctx = format!("box on floor {k} {}", core::any::type_name::<V>());
        let m = manifold(&floor, &pa, &cube, &pb, V::Real::from_f64(0.01));
        assert_eq!(m.len(), 4, "{ctx}: {m:?}");
        // Apart (sink < 0 is a gap), the normal is GJK's, whose direction for two nearly
        // parallel faces a small gap apart is good to about eps * size / gap.
        assert_close(d3(m.normal).dot(DVec3::Y), 1.0, 1e-5, &format!("{ctx}: normal"));
        let (wa, wb) = (world(&pa, &corners(floor_he)), world(&pb, &corners(he)));
        check_on_surfaces(&m, &wa, &wb, tol, &ctx);
        for p in m.points() {
            // The corner of B this point is, and its height above the floor's top.
            let q = d3(p.point_b);
            let corner = wb.iter().min_by(|x, y| (**x - q).length().total_cmp(&(**y - q).length())).unwrap();
            assert_close((*corner - q).length(), 0.0, tol, &format!("{ctx}: point_b is a corner"));
            assert_close(p.distance.to_f64(), corner.y - 0.5, tol, &format!("{ctx}: corner height"));
        }
        // A tiny motion keeps the ids.
        let nudge: V = unit::<V>(&mut r) * V::Real::from_f64(1e-5);
        let moved = Pose::new(pb.translation + nudge, pb.rotation);
        let m2 = manifold(&floor, &pa, &cube, &moved, V::Real::from_f64(0.01));
        let ids = |m: &Manifold<V>| {
            let mut v: Vec<_> = m.points().iter().map(|p| p.id).collect();
            v.sort_by_key(|id| format!("{id:?}"));
            v
        };
        assert_eq!(ids(&m), ids(&m2), "{ctx}: ids changed by a 1e-5 motion");
    }
}

#[test]
fn box_on_floor_f64() {
    box_on_floor::<DVec3>(401, 1e-10);
}
#[test]
fn box_on_floor_f32() {
    box_on_floor::<Vec3>(402, 2e-5);
}

/// A capsule lying on a box (slightly above it, within the margin): its two ends.
fn capsule_on_box<V: Vector3 + Space>(seed: u64, tol: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    for k in 0..200 {
        let floor =
            Cuboid::new(V::new3(V::Real::from_f64(3.0), V::Real::from_f64(0.5), V::Real::from_f64(3.0)));
        let (hh, rad) = (r.random_range(0.2..1.0), r.random_range(0.1..0.5));
        let cap = Capsule::new(V::Real::from_f64(hh), V::Real::from_f64(rad));
        // Capsules run along y: lie it down (a quarter turn about z), then a small tilt.
        let lie = V::Rotation::from_parts([
            0.0,
            0.0,
            core::f64::consts::FRAC_1_SQRT_2,
            core::f64::consts::FRAC_1_SQRT_2 - 0.01,
        ]);
        let gap = r.random_range(-0.005..0.005);
        let t = V::new3(
            V::Real::from_f64(r.random_range(-1.0..1.0)),
            V::Real::from_f64(0.5 + rad + gap),
            V::Real::ZERO,
        );
        let pb = Pose::new(t, kollide::math::Rotation::compose(tilt::<V>(&mut r, 1e-4), lie));
        let ctx = format!("capsule {k} {}", core::any::type_name::<V>());
        let m = manifold(&floor, &Pose::IDENTITY, &cap, &pb, V::Real::from_f64(0.01));
        assert_eq!(m.len(), 2, "{ctx}: {m:?}");
        for p in m.points() {
            // point_b on the capsule: at distance `rad` from its axis segment.
            let q = d3(p.point_b);
            let (e0, e1) = (
                d3(pb.transform_point(V::new3(V::Real::ZERO, V::Real::from_f64(-hh), V::Real::ZERO))),
                d3(pb.transform_point(V::new3(V::Real::ZERO, V::Real::from_f64(hh), V::Real::ZERO))),
            );
            assert_close(
                common::oracle::point_segment(q, e0, e1),
                rad,
                tol,
                &format!("{ctx}: point_b on capsule"),
            );
            assert_close(d3(p.point_a).y, 0.5, tol, &format!("{ctx}: point_a on top face"));
            assert_close(p.distance.to_f64(), q.y - 0.5, tol, &format!("{ctx}: distance"));
        }
        let ends: Vec<f64> = m.points().iter().map(|p| d3(p.point_b).x).collect();
        assert!((ends[0] - ends[1]).abs() > 1.9 * hh - 1e-3, "{ctx}: not the two ends: {ends:?}");
    }
}

#[test]
fn capsule_on_box_f64() {
    // A tilted segment's ends moved out along the normal are off the capsule by up to
    // r t² / 2 for a tilt t (1e-4 here): 2e-9.
    capsule_on_box::<DVec3>(403, 1e-8);
}
#[test]
fn capsule_on_box_f32() {
    capsule_on_box::<Vec3>(404, 2e-5);
}

/// A cylinder standing on a box, just above it (GJK's normal): at least 3 points of its cap.
fn cylinder_on_box<V: Vector3 + Space>(tol: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let floor = Cuboid::new(V::new3(V::Real::from_f64(3.0), V::Real::from_f64(0.5), V::Real::from_f64(3.0)));
    let cyl = Cylinder::new(V::Real::from_f64(0.7), V::Real::from_f64(0.4));
    let pb = Pose::from_translation(V::new3(
        V::Real::from_f64(0.3),
        V::Real::from_f64(0.5 + 0.7 + 0.001),
        V::Real::ZERO,
    ));
    let m = manifold(&floor, &Pose::IDENTITY, &cyl, &pb, V::Real::from_f64(0.01));
    assert!(m.len() >= 3, "{m:?}");
    for p in m.points() {
        let q = d3(pb.inverse_transform_point(p.point_b));
        assert_close(common::oracle::point_cylinder(q, 0.7, 0.4), 0.0, tol, "point_b in the cylinder");
        assert_close(q.y, -0.7, tol, "point_b on the bottom cap");
        assert_close(p.distance.to_f64(), 0.001, tol, "distance");
    }
}

#[test]
fn cylinder_on_box_f64() {
    cylinder_on_box::<DVec3>(1e-9);
}
#[test]
fn cylinder_on_box_f32() {
    cylinder_on_box::<Vec3>(2e-5);
}

/// Random overlapping boxes and hulls: every manifold point lies on both surfaces.
fn random_manifolds<V: Vector3 + Space>(seed: u64, tol: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    let mut nonempty = 0;
    for k in 0..400 {
        let he: V = vec_in(&mut r, 0.2, 1.0);
        let pts: Vec<V> = (0..r.random_range(8..20)).map(|_| unit::<V>(&mut r)).collect();
        let hull = ConvexHull::try_from_points(&pts).unwrap();
        let (pa, pb) = (common::pose::<V>(&mut r, 1.1), common::pose::<V>(&mut r, 1.1));
        let ctx = format!("random manifold {k} {}", core::any::type_name::<V>());
        let box_ = Cuboid::new(he);
        let m = if k % 2 == 0 {
            manifold(&box_, &pa, &hull, &pb, V::Real::ZERO)
        } else {
            manifold(&hull, &pa, &box_, &pb, V::Real::ZERO)
        };
        let (wbox, whull) = (
            world(if k % 2 == 0 { &pa } else { &pb }, &corners(he)),
            world(if k % 2 == 0 { &pb } else { &pa }, hull.vertices()),
        );
        let (wa, wb) = if k % 2 == 0 { (wbox, whull) } else { (whull, wbox) };
        check_on_surfaces(&m, &wa, &wb, tol, &ctx);
        nonempty += usize::from(!m.is_empty());
    }
    assert!((100..=300).contains(&nonempty), "{nonempty} of 400 manifolds non-empty");
}

#[test]
fn random_manifolds_f64() {
    random_manifolds::<DVec3>(405, 1e-9);
}
#[test]
fn random_manifolds_f32() {
    random_manifolds::<Vec3>(406, 4e-5);
}

/// Merged faces: a cube hull has 6 quads and 12 edges; random hulls satisfy Euler's formula,
/// every face is a counter-clockwise loop on its plane, and every vertex is below every plane.
fn hull_faces<V: Vector3 + Space>(seed: u64) {
    let cube = ConvexHull::try_from_points(&corners(V::splat(V::Real::ONE))).unwrap();
    assert_eq!(cube.face_count(), 6);
    assert_eq!(cube.edges().len(), 12);
    for f in 0..6 {
        assert_eq!(cube.face_vertices(f).len(), 4);
        let (n, d) = cube.face_plane(f);
        assert_close(d3(n).abs().max_element(), 1.0, 1e-6, "cube normal is an axis");
        assert_close(d.to_f64(), 1.0, 1e-6, "cube offset");
    }
    let mut r = rng(seed);
    for k in 0..200 {
        let n = r.random_range(4..64);
        let mut pts: Vec<V> = (0..n).map(|_| unit::<V>(&mut r)).collect();
        if k % 3 == 0 {
            // Flat faces to merge: a box with points on its faces.
            pts = corners(V::splat(V::Real::ONE));
            pts.extend((0..n).map(|_| {
                let mut a = vec_in::<V>(&mut r, -1.0, 1.0).to_f64_array();
                let i = r.random_range(0..3);
                a[i] = a[i].signum();
                V::from_f64_array(a)
            }));
        }
        let Ok(h) = ConvexHull::try_from_points(&pts) else { continue };
        let (v, e, f) = (h.vertices().len() as i64, h.edges().len() as i64, h.face_count() as i64);
        assert_eq!(v - e + f, 2, "hull {k}: V {v} E {e} F {f}");
        if k % 3 == 0 {
            assert_eq!((v, e, f), (8, 12, 6), "busy cube {k}");
        }
        let size = 3.0 * V::Real::EPSILON.to_f64() * 3.0;
        for face in 0..h.face_count() {
            let (n, d) = h.face_plane(face);
            let (n, d) = (d3(n), d.to_f64());
            let lp: Vec<DVec3> =
                h.face_vertices(face).iter().map(|&i| d3(h.vertices()[i as usize])).collect();
            let mut newell = DVec3::ZERO;
            for i in 1..lp.len() - 1 {
                newell += (lp[i] - lp[0]).cross(lp[i + 1] - lp[0]);
            }
            assert!(newell.dot(n) > 0.0, "hull {k} face {face}: loop not counter-clockwise");
            for p in &lp {
                assert_close(
                    n.dot(*p),
                    d,
                    8.0 * size + 1e-6 * f64::from(u8::from(size > 1e-10)),
                    "corner on its plane",
                );
            }
            for p in h.vertices() {
                assert!(n.dot(d3(*p)) <= d + 8.0 * size + 1e-6, "hull {k} face {face}: vertex above plane");
            }
        }
        for &([i, j], [f, g]) in h.edges() {
            for face in [f, g] {
                let lp = h.face_vertices(face as usize);
                assert!(lp.contains(&i) && lp.contains(&j), "hull {k}: edge {i}-{j} not on face {face}");
            }
            // n_f × n_g runs along the edge from i to j (the Gauss-map convention).
            let (nf, ng) = (d3(h.face_plane(f as usize).0), d3(h.face_plane(g as usize).0));
            let e = d3(h.vertices()[j as usize]) - d3(h.vertices()[i as usize]);
            assert!(nf.cross(ng).dot(e) > 0.0, "hull {k}: edge {i}-{j} orientation");
        }
    }
    // support_face of the hull: the face most aligned with the direction.
    let mut face = kollide::shape::SupportFace::default();
    cube.support_face(
        V::new3(V::Real::from_f64(0.1), V::Real::from_f64(-1.0), V::Real::from_f64(0.2)),
        &mut face,
    );
    assert_eq!(face.len(), 4);
    assert!(face.points().iter().all(|p| p[1].to_f64() == -1.0));
}

#[test]
fn hull_faces_f64() {
    hull_faces::<DVec3>(407);
}
#[test]
fn hull_faces_f32() {
    hull_faces::<Vec3>(408);
}
