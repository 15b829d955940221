//! Triangle meshes against convex shapes: every query checked against brute force over all
//! triangles in f64, with closed-form oracles (point-triangle distance, polytope distance and
//! overlap by separating axes), on random terrains and random soups (degenerate triangles
//! included), both outcomes covered.

use crate::common;

use common::oracle::{point_triangle, polytope_distance_3d, polytopes_overlap_3d};
use common::{assert_mixed, rng};
use kollide::composite::{self, TriMesh};
use kollide::math::{DPose3, DQuat, DVec3};
use kollide::query::cast::{sweep, BackFaces, CastInput, CastStatus, Ray, RayOutcome, SweptShape};
use kollide::shape::{Ball, Cuboid};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A terrain of `n x n` cells with random heights, or a soup of random triangles (some
/// degenerate: collinear corners, repeated corners).
fn random_mesh(rng: &mut ChaCha8Rng, terrain: bool) -> TriMesh<DVec3> {
    if terrain {
        let n = rng.random_range(2..12usize);
        let mut vertices = Vec::new();
        for r in 0..=n {
            for c in 0..=n {
                let h = rng.random_range(-0.5..0.5);
                vertices.push(DVec3::new(c as f64 - n as f64 / 2.0, h, r as f64 - n as f64 / 2.0));
            }
        }
        let id = |r: usize, c: usize| (r * (n + 1) + c) as u32;
        let mut indices = Vec::new();
        for r in 0..n {
            for c in 0..n {
                indices.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
                indices.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
            }
        }
        return TriMesh::new(vertices, indices);
    }
    let count = rng.random_range(1..40usize);
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for t in 0..count {
        let a =
            DVec3::new(rng.random_range(-4.0..4.0), rng.random_range(-4.0..4.0), rng.random_range(-4.0..4.0));
        let b = a + DVec3::new(
            rng.random_range(-2.0..2.0),
            rng.random_range(-2.0..2.0),
            rng.random_range(-2.0..2.0),
        );
        let c = match t % 7 {
            0 => a + (b - a) * 0.3, // collinear
            1 => b,                 // repeated corner
            _ => {
                a + DVec3::new(
                    rng.random_range(-2.0..2.0),
                    rng.random_range(-2.0..2.0),
                    rng.random_range(-2.0..2.0),
                )
            }
        };
        let base = vertices.len() as u32;
        vertices.extend([a, b, c]);
        indices.push([base, base + 1, base + 2]);
    }
    TriMesh::new(vertices, indices)
}

fn random_pose(rng: &mut ChaCha8Rng, spread: f64) -> DPose3 {
    let q = DQuat::from_xyzw(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0) + 0.01,
    )
    .normalize();
    let t = DVec3::new(
        rng.random_range(-spread..spread),
        rng.random_range(-spread..spread),
        rng.random_range(-spread..spread),
    );
    DPose3::new(t, q)
}

/// The mesh's triangles in the world.
fn world_triangles(mesh: &TriMesh<DVec3>, pose: &DPose3) -> Vec<[DVec3; 3]> {
    (0..mesh.triangle_count() as u32).map(|i| mesh.corners(i).map(|p| pose.transform_point(p))).collect()
}

fn box_corners(h: DVec3, pose: &DPose3) -> Vec<DVec3> {
    let mut out = Vec::new();
    for i in 0..8 {
        let s = DVec3::new(
            if i & 1 == 0 { -1.0 } else { 1.0 },
            if i & 2 == 0 { -1.0 } else { 1.0 },
            if i & 4 == 0 { -1.0 } else { 1.0 },
        );
        out.push(pose.transform_point(s * h));
    }
    out
}

#[test]
fn ball_distance_and_overlap_match_brute_force() {
    let mut rng = rng(901);
    let (mut hits, mut total) = (0, 0);
    for case in 0..600 {
        let mesh = random_mesh(&mut rng, case % 2 == 0);
        let pose_m = random_pose(&mut rng, 2.0);
        let tris = world_triangles(&mesh, &pose_m);
        let radius = rng.random_range(0.05..1.5);
        let center = pose_m.transform_point(DVec3::new(
            rng.random_range(-4.0..4.0),
            rng.random_range(-1.5..1.5),
            rng.random_range(-4.0..4.0),
        ));
        let pose_b = DPose3::from_translation(center);
        let truth =
            tris.iter().map(|t| point_triangle(center, t[0], t[1], t[2])).fold(f64::INFINITY, f64::min);
        let ball = Ball::new(radius);
        let out = composite::distance(&mesh, &pose_m, &ball, &pose_b);
        let expected = (truth - radius).max(0.0);
        let tol = 1e-9 * (1.0 + center.length());
        assert!(
            (out.value.distance - expected).abs() <= tol,
            "case {case}: distance {} vs brute force {expected}",
            out.value.distance
        );
        assert!(out.value.lower_bound <= expected + tol && expected <= out.value.upper_bound + tol);
        if expected > 0.0 {
            // The part named is one of the nearest triangles.
            let t = tris[out.part_a.unwrap() as usize];
            assert!((point_triangle(center, t[0], t[1], t[2]) - truth).abs() <= tol, "case {case}: part");
        }
        let overlaps = truth <= radius;
        if (truth - radius).abs() > 1e-9 {
            assert_eq!(
                composite::intersects(&mesh, &pose_m, &ball, &pose_b).is_some(),
                overlaps,
                "case {case}"
            );
            hits += usize::from(overlaps);
            total += 1;
        }
    }
    assert_mixed(hits, total, "ball against mesh overlap");
}

#[test]
fn box_distance_overlap_and_contact_match_brute_force() {
    let mut rng = rng(902);
    let (mut hits, mut total) = (0, 0);
    for case in 0..300 {
        let mesh = random_mesh(&mut rng, case % 2 == 1);
        let pose_m = random_pose(&mut rng, 1.0);
        let tris = world_triangles(&mesh, &pose_m);
        let h =
            DVec3::new(rng.random_range(0.2..1.2), rng.random_range(0.2..1.2), rng.random_range(0.2..1.2));
        let mut pose_b = random_pose(&mut rng, 5.0);
        pose_b.translation = pose_m.transform_point(DVec3::new(
            rng.random_range(-4.0..4.0),
            rng.random_range(-1.2..1.2),
            rng.random_range(-4.0..4.0),
        ));
        let corners = box_corners(h, &pose_b);
        let truth = tris.iter().map(|t| polytope_distance_3d(&corners, t)).fold(f64::INFINITY, f64::min);
        let overlap = tris.iter().any(|t| polytopes_overlap_3d(&corners, t));
        let cube = Cuboid::new(h);
        let out = composite::distance(&mesh, &pose_m, &cube, &pose_b);
        let tol = 1e-9 * 10.0;
        if !overlap {
            assert!(
                (out.value.distance - truth).abs() <= tol,
                "case {case}: distance {} vs brute force {truth}",
                out.value.distance
            );
            // Separated: the contact within a margin is the nearest part's.
            let c = composite::contact(&mesh, &pose_m, &cube, &pose_b, truth + 0.1).unwrap();
            assert!(
                (c.value.distance - truth).abs() <= 1e-7,
                "case {case}: contact {} vs {truth}",
                c.value.distance
            );
            let gap = c.value.point_b - c.value.point_a - c.value.normal * c.value.distance;
            assert!(gap.length() <= 1e-7, "case {case}: point_b = point_a + distance * normal");
        } else {
            assert_eq!(out.value.distance, 0.0, "case {case}");
            let c = composite::contact(&mesh, &pose_m, &cube, &pose_b, 0.0).unwrap();
            assert!(c.value.distance <= 1e-9, "case {case}: an overlap has a contact of depth >= 0");
            // The depth is the deepest part's: brute force over the triangles.
            let deepest = (0..mesh.triangle_count() as u32)
                .filter_map(|i| {
                    kollide::query::contact(&mesh.triangle(i), &pose_m, &cube, &pose_b, 0.0, None)
                })
                .map(|c| c.distance)
                .fold(f64::INFINITY, f64::min);
            assert!(
                (c.value.distance - deepest).abs() <= 1e-9,
                "case {case}: depth {} vs {deepest}",
                c.value.distance
            );
            let m = composite::manifold(&mesh, &pose_m, &cube, &pose_b, 0.0);
            assert!(!m.manifold.is_empty(), "case {case}: an overlap has a manifold");
        }
        let decisive = overlap || truth > 1e-9;
        if decisive {
            assert_eq!(
                composite::intersects(&mesh, &pose_m, &cube, &pose_b).is_some(),
                overlap,
                "case {case}"
            );
            hits += usize::from(overlap);
            total += 1;
        }
    }
    assert_mixed(hits, total, "box against mesh overlap");
}

/// The ray's first hit on a triangle, exactly in f64 (Möller–Trumbore without culling).
fn ray_triangle(o: DVec3, d: DVec3, t: &[DVec3; 3]) -> Option<f64> {
    let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det.abs() <= 1e-12 * e1.length() * e2.length() * d.length() {
        return None; // edge-on or degenerate: rays grazing these are skipped by the caller
    }
    let s = o - t[0];
    let u = s.dot(p) / det;
    let q = s.cross(e1);
    let v = d.dot(q) / det;
    let toi = e2.dot(q) / det;
    (u >= 0.0 && v >= 0.0 && u + v <= 1.0 && toi >= 0.0).then_some(toi)
}

#[test]
fn rays_first_and_all_hits_match_brute_force() {
    let mut rng = rng(903);
    let (mut hits, mut total) = (0, 0);
    for case in 0..800 {
        let mesh = random_mesh(&mut rng, case % 2 == 0);
        let pose_m = random_pose(&mut rng, 2.0);
        let tris = world_triangles(&mesh, &pose_m);
        let o =
            DVec3::new(rng.random_range(-8.0..8.0), rng.random_range(-8.0..8.0), rng.random_range(-8.0..8.0));
        // Half the rays aim at a point of a random triangle, half anywhere near the mesh.
        let target = if rng.random_bool(0.5) {
            let t = tris[rng.random_range(0..tris.len())];
            let (u, v) = (rng.random_range(0.0..0.5), rng.random_range(0.0..0.5));
            t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v
        } else {
            pose_m.transform_point(DVec3::new(
                rng.random_range(-5.0..5.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-5.0..5.0),
            ))
        };
        let d = (target - o) * rng.random_range(0.2..2.0);
        let max_toi = rng.random_range(0.5..8.0);
        let times: Vec<f64> =
            tris.iter().filter_map(|t| ray_triangle(o, d, t)).filter(|&t| t <= max_toi).collect();
        let first = times.iter().copied().fold(f64::INFINITY, f64::min);
        // Skip rays within rounding of a triangle's edge (either answer is right there).
        // (Degenerate triangles are all edge: a ray aimed at one grazes it.)
        let near_edge = tris.iter().any(|t| edge_graze(o, d, t));
        if near_edge {
            continue;
        }
        let got = composite::ray_cast(&mesh, &pose_m, &Ray::new(o, d), max_toi);
        match got {
            Some(on) => {
                let RayOutcome::Hit(h) = on.value else { panic!("case {case}: a mesh has no inside") };
                assert!(
                    (h.toi - first).abs() <= 1e-9 * (1.0 + first),
                    "case {case}: toi {} vs {first}",
                    h.toi
                );
                let t = tris[on.part_a.unwrap() as usize];
                assert!(ray_triangle(o, d, &t).is_some_and(|x| (x - first).abs() <= 1e-9 * (1.0 + first)));
                hits += 1;
            }
            None => assert!(first.is_infinite(), "case {case}: missed a hit at {first}"),
        }
        let all = composite::ray_hits(&mesh, &pose_m, &Ray::new(o, d), max_toi);
        assert_eq!(all.len(), times.len(), "case {case}: all hits");
        total += 1;
    }
    assert_mixed(hits, total, "rays against meshes");
}

/// Whether the ray passes within rounding of one of the triangle's edges.
fn edge_graze(o: DVec3, d: DVec3, t: &[DVec3; 3]) -> bool {
    (0..3).any(|k| {
        let (a, b) = (t[k], t[(k + 1) % 3]);
        let e = b - a;
        let n = d.cross(e);
        if n.length() < 1e-12 {
            return true;
        }
        ((a - o).dot(n) / n.length()).abs() < 1e-7
    })
}

#[test]
fn swept_sphere_matches_the_soup_sweep() {
    let mut rng = rng(904);
    let (mut hits, mut total) = (0, 0);
    for case in 0..600 {
        let mesh = random_mesh(&mut rng, case % 3 == 0);
        let pose_m = random_pose(&mut rng, 2.0);
        let tris = world_triangles(&mesh, &pose_m);
        let c =
            DVec3::new(rng.random_range(-6.0..6.0), rng.random_range(-6.0..6.0), rng.random_range(-6.0..6.0));
        // Towards a point near the mesh, overshooting or not.
        let aim =
            pose_m.transform_point(DVec3::new(rng.random_range(-3.0..3.0), 0.0, rng.random_range(-3.0..3.0)));
        let d = (aim - c) * rng.random_range(0.3..1.6);
        let r = rng.random_range(0.05..1.0);
        let soup = sweep(SweptShape::ball(c, r), d, &tris, BackFaces::Hit, None).unwrap();
        let got = composite::sweep(&mesh, &pose_m, SweptShape::ball(c, r), d, BackFaces::Hit).unwrap();
        use kollide::query::cast::SweepOutcome::*;
        match (soup, got) {
            (Hit(a), Hit(b)) => {
                assert!((a.toi - b.toi).abs() <= 1e-9, "case {case}: {a:?} vs {b:?}");
                assert!((a.point - b.point).length() <= 1e-7, "case {case}: point");
                hits += 1;
            }
            (Miss, Miss) => {}
            (StartedWithin { distance: x, .. }, StartedWithin { distance: y, .. }) => {
                assert!((x - y).abs() <= 1e-7, "case {case}: depth {x} vs {y}");
            }
            (a, b) => panic!("case {case}: soup {a:?}, mesh {b:?}"),
        }
        total += 1;
    }
    assert_mixed(hits, total, "swept spheres against meshes");
}

#[test]
fn linear_box_cast_matches_the_least_time_over_triangles() {
    let mut rng = rng(905);
    let (mut hits, mut total) = (0, 0);
    for case in 0..200 {
        let mesh = random_mesh(&mut rng, case % 2 == 0);
        let pose_m = random_pose(&mut rng, 1.0);
        let h =
            DVec3::new(rng.random_range(0.1..0.6), rng.random_range(0.1..0.6), rng.random_range(0.1..0.6));
        let mut pose_b = random_pose(&mut rng, 1.0);
        pose_b.translation =
            DVec3::new(rng.random_range(-7.0..7.0), rng.random_range(-7.0..7.0), rng.random_range(-7.0..7.0));
        let aim =
            pose_m.transform_point(DVec3::new(rng.random_range(-3.0..3.0), 0.0, rng.random_range(-3.0..3.0)));
        let v = (aim - pose_b.translation) * rng.random_range(0.3..1.6);
        let input = CastInput::linear(DVec3::ZERO, v, 1.0);
        let cube = Cuboid::new(h);
        // Brute force: the convex cast against each triangle alone.
        let mut first = f64::INFINITY;
        let mut within = false;
        for i in 0..mesh.triangle_count() as u32 {
            let out =
                kollide::query::cast::shape_cast(&mesh.triangle(i), &pose_m, &cube, &pose_b, &input, None);
            match out.status {
                CastStatus::Hit => first = first.min(out.toi),
                CastStatus::StartedWithin => within = true,
                _ => {}
            }
        }
        let got = composite::shape_cast(&mesh, &pose_m, &cube, &pose_b, &input);
        if within {
            assert_eq!(got.map(|o| o.value.status), Some(CastStatus::StartedWithin), "case {case}");
            continue;
        }
        match got {
            Some(on) => {
                assert_eq!(on.value.status, CastStatus::Hit, "case {case}");
                assert!((on.value.toi - first).abs() <= 1e-6, "case {case}: {} vs {first}", on.value.toi);
                hits += 1;
            }
            None => assert!(first.is_infinite(), "case {case}: missed {first}"),
        }
        total += 1;
    }
    assert_mixed(hits, total, "box casts against meshes");
}

#[test]
fn bad_composites_are_refused_naming_the_value() {
    use kollide::composite::{Compound, CompoundError, Polyline, PolylineError, TriMeshError};
    use kollide::math::DVec2;
    use kollide::shape::Convex3;
    let v = vec![DVec3::ZERO, DVec3::X, DVec3::Y];
    assert_eq!(
        TriMesh::<DVec3>::try_new(vec![], vec![[0, 1, 2]]).unwrap_err(),
        TriMeshError::Empty { what: "vertices" }
    );
    assert_eq!(TriMesh::try_new(v.clone(), vec![]).unwrap_err(), TriMeshError::Empty { what: "indices" });
    let e = TriMesh::try_new(v.clone(), vec![[0, 1, 2], [0, 3, 1]]).unwrap_err();
    assert_eq!(e, TriMeshError::IndexOutOfRange { triangle: 1, corner: 1, index: 3, vertex_count: 3 });
    assert_eq!(e.to_string(), "indices[1][1] = 3 is out of range: there are 3 vertices");
    let mut bad = v.clone();
    bad[2].z = f64::INFINITY;
    assert_eq!(
        TriMesh::try_new(bad, vec![[0, 1, 2]]).unwrap_err(),
        TriMeshError::NonFiniteVertex { index: 2 }
    );
    // Degenerate triangles are kept (and answered through their edges).
    let flat = TriMesh::new(vec![DVec3::ZERO, DVec3::X, DVec3::X * 2.0], vec![[0, 1, 2], [0, 0, 1]]);
    assert_eq!(flat.triangle_count(), 2);
    let d = composite::distance(
        &flat,
        &DPose3::IDENTITY,
        &Ball::new(0.5),
        &DPose3::from_translation(DVec3::new(1.0, 2.0, 0.0)),
    );
    assert!((d.value.distance - 1.5).abs() < 1e-12);
    let mut mesh = TriMesh::new(v.clone(), vec![[0, 1, 2]]);
    assert_eq!(
        mesh.set_vertices(vec![DVec3::ZERO]).unwrap_err(),
        TriMeshError::VertexCountChanged { expected: 3, got: 1 }
    );
    mesh.set_vertices(v.iter().map(|&p| p + DVec3::Y).collect()).unwrap();
    assert_eq!(mesh.bvh().validate(&[kollide::math::Aabb::from_points(mesh.corners(0))]), Ok(()));
    assert_eq!(Compound::<DVec3, Convex3<DVec3>>::try_new(vec![]).unwrap_err(), CompoundError::Empty);
    let mut pose = DPose3::IDENTITY;
    pose.translation.x = f64::NAN;
    let e = Compound::try_new(vec![(DPose3::IDENTITY, Ball::new(1.0)), (pose, Ball::new(1.0))]).unwrap_err();
    assert_eq!(e, CompoundError::BadPose { part: 1 });
    assert!(e.to_string().contains("parts[1]"));
    assert_eq!(Polyline::try_new(vec![DVec2::ZERO]).unwrap_err(), PolylineError::TooFewPoints { count: 1 });
    assert_eq!(
        Polyline::try_new(vec![DVec2::ZERO, DVec2::new(f64::NAN, 0.0)]).unwrap_err(),
        PolylineError::NonFiniteVertex { index: 1 }
    );
}

/// Found by the bench (case `box-terrain`): in `f32`, a turned box falling onto a terrain
/// about 85 units from the origin was reported hitting at `t = 0.99999` though it ends the
/// motion 4.5e-4 above the surface (f64: a miss; 40 f32 ulps of the coordinates). The
/// queries worked in the mesh's frame, with coordinates of size 85; each triangle is now a
/// part placed at its first corner, so they work at the size of the shapes.
#[test]
fn f32_cast_far_from_the_origin_keeps_its_tolerance() {
    use kollide::math::{Pose3, Quat, Vec3};
    let height = |r: usize, c: usize| -> f32 {
        let (x, z) = (c as f32 - 128.0, r as f32 - 128.0);
        (x * 0.05).sin() * 4.0 + (z * 0.07).cos() * 3.0 + ((x + z) * 0.3).sin() * 0.5
    };
    // Cells (61..66, 183..188) of the bench's 256 x 256 terrain, split as the heightfield.
    let (rows, cols) = (61..67usize, 183..189usize);
    let mut vertices = Vec::new();
    for r in rows.clone() {
        for c in cols.clone() {
            vertices.push(Vec3::new(c as f32 - 127.5, height(r, c), r as f32 - 127.5));
        }
    }
    let w = cols.len() as u32;
    let id = |r: u32, c: u32| r * w + c;
    let mut indices = Vec::new();
    for r in 0..rows.len() as u32 - 1 {
        for c in 0..w - 1 {
            indices.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
            indices.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
        }
    }
    let mesh32 = TriMesh::new(vertices.clone(), indices.clone());
    let mesh64 = TriMesh::new(vertices.iter().map(|v| v.as_dvec3()).collect(), indices);
    let at = Vec3::new(57.77687, 4.7094917, -60.914124);
    let q = Quat::from_xyzw(0.0, 0.6816347, 0.0, 0.7316926);
    let v = Vec3::new(0.500365, -4.2257886, -1.792943);
    let he = Vec3::new(0.8, 0.5, 0.6);
    let out32 = composite::shape_cast(
        &mesh32,
        &Pose3::IDENTITY,
        &Cuboid::new(he),
        &Pose3::new(at, q),
        &CastInput::linear(Vec3::ZERO, v, 1.0),
    );
    let q64 = DQuat::from_xyzw(q.x.into(), q.y.into(), q.z.into(), q.w.into());
    let pose64 = |t: f64| DPose3::new(at.as_dvec3() + v.as_dvec3() * t, q64);
    let box64 = Cuboid::new(he.as_dvec3());
    // The truth: the box ends the motion 4.5e-4 above the terrain.
    let end = composite::distance(&mesh64, &DPose3::IDENTITY, &box64, &pose64(1.0)).value.distance;
    assert!(end > 4e-4 && end < 5e-4, "{end}");
    let out64 = composite::shape_cast(
        &mesh64,
        &DPose3::IDENTITY,
        &box64,
        &pose64(0.0),
        &CastInput::linear(DVec3::ZERO, v.as_dvec3(), 1.0),
    );
    assert!(out64.is_none_or(|o| o.value.status == CastStatus::Miss), "{out64:?}");
    assert!(out32.is_none_or(|o| o.value.status == CastStatus::Miss), "{out32:?}");
}

/// The neighbour across each side by brute force over all sides: the sides with the same
/// two end positions (either way round); exactly two such sides pair, otherwise none.
fn neighbours_by_brute_force(vertices: &[DVec3], indices: &[[u32; 3]]) -> Vec<[Option<u32>; 3]> {
    let at = |t: usize, k: usize| vertices[indices[t][k % 3] as usize];
    let same = |p: DVec3, q: DVec3| p.to_array().map(|x| x + 0.0) == q.to_array().map(|x| x + 0.0);
    (0..indices.len())
        .map(|t| {
            core::array::from_fn(|k| {
                let (a, b) = (at(t, k), at(t, k + 1));
                if same(a, b) {
                    return None;
                }
                let mut uses = Vec::new();
                for u in 0..indices.len() {
                    for m in 0..3 {
                        let (p, q) = (at(u, m), at(u, m + 1));
                        if (same(p, a) && same(q, b)) || (same(p, b) && same(q, a)) {
                            uses.push((u, m));
                        }
                    }
                }
                if uses.len() != 2 {
                    return None;
                }
                let other = if uses[0] == (t, k) { uses[1] } else { uses[0] };
                Some(other.0 as u32)
            })
        })
        .collect()
}

#[test]
fn mesh_adjacency_matches_brute_force_on_soups_with_shared_and_degenerate_sides() {
    let mut rng = rng(3201);
    for case in 0..200 {
        // Few positions, many triangles: shared sides, sides of three or more triangles,
        // triangles with a repeated corner, duplicated positions under other indices, and
        // -0.0 beside 0.0.
        let positions = rng.random_range(3..9);
        let mut vertices: Vec<DVec3> = (0..positions)
            .map(|_| DVec3::new(rng.random_range(0..3) as f64, rng.random_range(0..2) as f64, 0.0))
            .collect();
        vertices.push(DVec3::new(-0.0, 0.0, 0.0));
        for _ in 0..rng.random_range(0..4) {
            let copy = vertices[rng.random_range(0..vertices.len())];
            vertices.push(copy);
        }
        let n = vertices.len() as u32;
        let indices: Vec<[u32; 3]> = (0..rng.random_range(1..14))
            .map(|_| [rng.random_range(0..n), rng.random_range(0..n), rng.random_range(0..n)])
            .collect();
        let mesh = TriMesh::new(vertices.clone(), indices.clone());
        let want = neighbours_by_brute_force(&vertices, &indices);
        for (t, sides) in want.iter().enumerate() {
            for (k, &side) in sides.iter().enumerate() {
                assert_eq!(
                    mesh.neighbour(t as u32, k),
                    side,
                    "case {case}: triangle {t} side {k}: {indices:?}"
                );
            }
        }
    }
}

/// A mesh's first ray hit is its triangles' own `ray_cast`s, bit for bit: the least time
/// over all of them, and the reported triangle's own outcome (time, point, normal). The
/// mesh tests its leaves four triangles at a time and only confirms what the lanes leave;
/// this holds it to the one-triangle answer on the inputs where the two could part: rays
/// along the triangles' planes and through their shared edges and corners, degenerate
/// triangles, far origins in `f32`, and directions scaled far from unit length.
fn mesh_rays_are_the_triangles_own_casts<V: kollide::query::Space + kollide::math::Vector3>(seed: u64) {
    use kollide::math::{Pose, Real};
    use kollide::query::cast::ray_cast;
    use kollide::shape::Triangle;
    let mut rng = rng(seed);
    let r = |x: f64| V::Real::from_f64(x);
    let (mut hits, mut total) = (0, 0);
    for case in 0..300 {
        // A grid of cells at a coarse lattice (so rays through edges and corners are
        // common), some corners pulled onto their neighbours (degenerate triangles), the
        // whole far from the origin in every third case.
        let far = if case % 3 == 0 { 1e4 } else { 0.0 };
        let side = 2 + case % 5;
        let mut vertices = Vec::new();
        for i in 0..=side {
            for j in 0..=side {
                let h = f64::from(rng.random_range(-2i32..=2)) * 0.5;
                vertices.push(V::new3(r(far + i as f64), r(h), r(far + j as f64)));
            }
        }
        let id = |i: usize, j: usize| (i * (side + 1) + j) as u32;
        let mut indices = Vec::new();
        for i in 0..side {
            for j in 0..side {
                indices.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
                indices.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
        for _ in 0..side / 2 {
            let t = rng.random_range(0..indices.len());
            indices[t][2] = indices[t][rng.random_range(0..2)];
        }
        let mesh = TriMesh::new(vertices.clone(), indices.clone());
        for ray_case in 0..40 {
            let lattice = |rng: &mut ChaCha8Rng, lo: i32, hi: i32| f64::from(rng.random_range(lo..=hi)) * 0.5;
            let o = V::new3(
                r(far + lattice(&mut rng, -2, 2 * side as i32 + 2)),
                r(lattice(&mut rng, -6, 6)),
                r(far + lattice(&mut rng, -2, 2 * side as i32 + 2)),
            );
            // Half the rays aim at a lattice point of the surface's span, half anywhere.
            let mut d = if ray_case % 2 == 0 {
                let target = V::new3(
                    r(far + lattice(&mut rng, 0, 2 * side as i32)),
                    r(lattice(&mut rng, -2, 2)),
                    r(far + lattice(&mut rng, 0, 2 * side as i32)),
                );
                target - o
            } else {
                V::new3(r(lattice(&mut rng, -4, 4)), r(lattice(&mut rng, -4, 4)), r(lattice(&mut rng, -4, 4)))
            };
            if d == V::ZERO {
                d = V::new3(r(0.0), r(-1.0), r(0.0));
            }
            // Directions far from unit length take `ray_cast`'s exact rescaling.
            let scale = [1.0, 1e-7, 1e7, 0.3][ray_case % 4];
            let d = d * r(scale);
            let max_toi = r([1e3, 3.0 / scale, 0.5][ray_case % 3]);
            let ray = Ray::new(o, d);
            let own = |t: u32| {
                let [a, b, c] = indices[t as usize].map(|k| vertices[k as usize]);
                ray_cast(&Triangle { a, b, c }, &Pose::IDENTITY, &ray, max_toi)
            };
            let least = (0..indices.len() as u32)
                .filter_map(|t| match own(t) {
                    RayOutcome::Hit(h) => Some(h.toi),
                    _ => None,
                })
                .fold(None, |m: Option<V::Real>, t| Some(m.map_or(t, |m| if t < m { t } else { m })));
            let got = composite::ray_cast(&mesh, &Pose::IDENTITY, &ray, max_toi);
            match (got, least) {
                (None, None) => {}
                (Some(found), Some(least)) => {
                    let RayOutcome::Hit(h) = found.value else { panic!("case {case}: a mesh has no inside") };
                    // The least time, up to the rounding at a corner shared by triangles that
                    // round it differently: a lane the ray enters (by its box's rounding)
                    // after the best time so far is skipped, though a triangle in it may
                    // round its own crossing a few ulps earlier.
                    let size = |v: V| v[0].abs().max(v[1].abs()).max(v[2].abs());
                    let tol = r(64.0) * V::Real::EPSILON * (size(o) / size(d) + least);
                    assert!(
                        h.toi >= least && h.toi - least <= tol,
                        "case {case}/{ray_case}: first hit {} against {least}",
                        h.toi
                    );
                    let part = found.part_a.expect("a triangle");
                    assert_eq!(found.value, own(part), "case {case}/{ray_case}: the triangle's own answer");
                    hits += 1;
                }
                (got, least) => panic!("case {case}/{ray_case}: mesh {got:?}, triangles {least:?}"),
            }
            total += 1;
        }
    }
    assert_mixed(hits, total, "mesh rays against their triangles");
}

#[test]
fn mesh_rays_are_the_triangles_own_casts_f32() {
    mesh_rays_are_the_triangles_own_casts::<kollide::math::Vec3>(904);
}

#[test]
fn mesh_rays_are_the_triangles_own_casts_f64() {
    mesh_rays_are_the_triangles_own_casts::<DVec3>(905);
}

/// Found while checking the four-wide mesh walk (the binary walk before it did the same):
/// the slab test took a zero direction component as `+-1e-30`, so a ray lying in the face
/// of a tree box on the side its zero's sign points to left that box at t = 0 and the walk
/// skipped it, although the triangle there is hit (`ray_cast` of the triangle alone hits it
/// at its corner). `Aabb::ray_interval` now takes such a slab as closed on both sides.
#[test]
fn a_ray_lying_in_a_tree_box_face_hits_the_triangle_there() {
    let vertices = vec![DVec3::new(0.0, 0.0, 3.0), DVec3::new(1.0, -1.0, 3.0), DVec3::new(1.0, 1.0, 4.0)];
    let mesh = TriMesh::new(vertices.clone(), vec![[0, 1, 2]]);
    // In the plane z = 4 of the triangle's top corner, the top face of its box.
    let ray = Ray::new(DVec3::new(1.5, 2.0, 4.0), DVec3::new(-1.0, -2.0, 0.0));
    let own = kollide::query::cast::ray_cast(
        &kollide::shape::Triangle { a: vertices[0], b: vertices[1], c: vertices[2] },
        &DPose3::IDENTITY,
        &ray,
        10.0,
    );
    assert!(matches!(own, RayOutcome::Hit(h) if (h.toi - 0.5).abs() < 1e-12));
    let got = composite::ray_cast(&mesh, &DPose3::IDENTITY, &ray, 10.0);
    assert_eq!(got.map(|f| f.value), Some(own));
}
