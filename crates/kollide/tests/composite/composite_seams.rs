//! No ghost contacts: a ball or a box resting, rolling or sliding across a flat floor made of
//! many triangles sees only the floor's normal, never a bump at a shared edge or vertex,
//! at many positions over the seams (edges, diagonals, vertices); a real ridge still gives
//! the normals between its faces.
//!
//! Normals are compared to 1e-6 (radians, about): a ball within 1e-9 of a seam is equally
//! deep in both triangles within rounding, and the lone triangle beside it tilts its normal
//! by that offset over the radius, 3e-9 here; a ghost is a tilt of the order of the depth
//! over the radius (1e-2 for a ball resting 0.001 deep with radius 0.3).

use kollide::composite::{self, TriMesh};
use kollide::math::{DPose3, DQuat, DVec3};
use kollide::shape::{Ball, Cuboid};

/// A flat floor at y = 0 of `n x n` unit cells, two triangles each, centred on the origin.
fn floor(n: usize) -> TriMesh<DVec3> {
    let mut vertices = Vec::new();
    for r in 0..=n {
        for c in 0..=n {
            vertices.push(DVec3::new(c as f64 - n as f64 / 2.0, 0.0, r as f64 - n as f64 / 2.0));
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
    TriMesh::new(vertices, indices)
}

/// Positions over the seams of cell (0, 0): its edges, its diagonal, its corners, and
/// points just beside them.
fn seam_positions() -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for k in 0..=40 {
        let t = k as f64 / 40.0;
        out.push((t, 0.0)); // along a grid line
        out.push((0.0, t)); // along the other
        out.push((t, t)); // along the diagonal
        out.push((t, 1e-9)); // beside a grid line
        out.push((t + 1e-7, t)); // beside the diagonal
    }
    out
}

#[test]
fn a_ball_sunk_or_hovering_over_seams_sees_only_the_floor_normal() {
    let mesh = floor(6);
    let ball = Ball::new(0.5);
    for (x, z) in seam_positions() {
        for gap in [-0.2, -0.05, -0.01, -1e-6, 0.0, 1e-6, 0.02, 0.08] {
            let pose = DPose3::from_translation(DVec3::new(x, 0.5 + gap, z));
            let c = composite::contact(&mesh, &DPose3::IDENTITY, &ball, &pose, 0.1).unwrap().value;
            assert!(
                (c.normal - DVec3::Y).length() < 1e-6,
                "ball at ({x}, {z}), gap {gap}: normal {:?}",
                c.normal
            );
            assert!((c.distance - gap).abs() < 1e-9, "ball at ({x}, {z}): distance {} vs {gap}", c.distance);
        }
    }
}

#[test]
fn a_box_sliding_across_seams_is_pushed_straight_up_with_four_points() {
    let mesh = floor(6);
    let cube = Cuboid::new(DVec3::new(0.5, 0.25, 0.3));
    for (i, (x, z)) in seam_positions().into_iter().enumerate() {
        // Turned about the vertical by varied angles: its bottom stays flat.
        let q = DQuat::from_rotation_y(i as f64 * 0.37);
        for sunk in [0.001, 0.01, 0.05, 0.2] {
            let pose = DPose3::new(DVec3::new(x, 0.25 - sunk, z), q);
            let c = composite::contact(&mesh, &DPose3::IDENTITY, &cube, &pose, 0.0).unwrap().value;
            assert!(
                (c.normal - DVec3::Y).length() < 1e-9,
                "box at ({x}, {z}) turned {}, sunk {sunk}: normal {:?}",
                i as f64 * 0.37,
                c.normal
            );
            assert!((c.distance + sunk).abs() < 1e-9, "box at ({x}, {z}): depth {} vs {sunk}", -c.distance);
            let m = composite::manifold(&mesh, &DPose3::IDENTITY, &cube, &pose, 0.0);
            assert!((m.manifold.normal - DVec3::Y).length() < 1e-9, "manifold normal at ({x}, {z})");
            assert_eq!(m.manifold.len(), 4, "box at ({x}, {z}) sunk {sunk}: {:?}", m.manifold.points());
            for p in m.manifold.points() {
                assert!((p.distance + sunk).abs() < 1e-9, "box at ({x}, {z}): point depth {}", p.distance);
            }
        }
    }
}

#[test]
fn a_ball_rolling_along_and_across_the_grid_never_bumps() {
    let mesh = floor(12);
    let ball = Ball::new(0.3);
    // Rolling in small steps along several headings through many cells, resting 0.001 deep,
    // staying on the floor (its boundary edges are real edges).
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};
    for heading in [0.0f64, 0.25, FRAC_PI_4, 1.1, FRAC_PI_2, 2.3] {
        let dir = DVec3::new(heading.cos(), 0.0, heading.sin());
        for step in 0..600 {
            let p = DVec3::new(-2.5, 0.299, -2.0) + dir * (step as f64 * 0.0071);
            let c = composite::contact(&mesh, &DPose3::IDENTITY, &ball, &DPose3::from_translation(p), 0.0)
                .unwrap()
                .value;
            assert!((c.normal - DVec3::Y).length() < 1e-6, "heading {heading}, step {step}: {:?}", c.normal);
        }
    }
}

#[test]
fn the_floor_seen_from_below_pushes_down() {
    let mesh = floor(4);
    let ball = Ball::new(0.5);
    for (x, z) in seam_positions() {
        let pose = DPose3::from_translation(DVec3::new(x, -0.49, z));
        let c = composite::contact(&mesh, &DPose3::IDENTITY, &ball, &pose, 0.0).unwrap().value;
        assert!((c.normal + DVec3::Y).length() < 1e-6, "below ({x}, {z}): {:?}", c.normal);
    }
}

#[test]
fn a_real_ridge_keeps_the_normals_between_its_faces() {
    // A roof: two faces meeting at the ridge x = 0, sloping down at 45 degrees.
    let v = vec![
        DVec3::new(-1.0, -1.0, -2.0),
        DVec3::new(0.0, 0.0, -2.0),
        DVec3::new(1.0, -1.0, -2.0),
        DVec3::new(-1.0, -1.0, 2.0),
        DVec3::new(0.0, 0.0, 2.0),
        DVec3::new(1.0, -1.0, 2.0),
    ];
    let roof = TriMesh::new(v, vec![[0, 3, 4], [0, 4, 1], [1, 4, 5], [1, 5, 2]]);
    let ball = Ball::new(0.5);
    // Straight above the ridge: the normal is up, between the faces' normals.
    let c = composite::contact(
        &roof,
        &DPose3::IDENTITY,
        &ball,
        &DPose3::from_translation(DVec3::new(0.0, 0.6, 0.3)),
        0.5,
    )
    .unwrap()
    .value;
    assert!((c.normal - DVec3::Y).length() < 1e-9, "{:?}", c.normal);
    assert!((c.distance - 0.1).abs() < 1e-9);
    // Off to one side but still over the ridge's region: a tilted normal from the ridge.
    let p = DVec3::new(0.2, 0.7, 0.0);
    let c =
        composite::contact(&roof, &DPose3::IDENTITY, &ball, &DPose3::from_translation(p), 1.0).unwrap().value;
    let expected = p.normalize();
    assert!((c.normal - expected).length() < 1e-9, "{:?} vs {expected:?}", c.normal);
}
