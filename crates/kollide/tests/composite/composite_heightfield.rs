//! Heightfields: the same grid as a TriMesh (built here from the contract's numbering) gives
//! the same answers for every query, on random terrains (flat, spiky, 2x2, thin 2xN), with
//! rays from above, below, sideways, vertical and along the grid lines; terrain from PNG
//! images (8- and 16-bit round trips, colour refused); errors naming the bad value; the 2D
//! heightfield against brute force; no ghost contacts across a flat terrain.

use crate::common;

use common::{assert_mixed, rng};
use kollide::composite::{self, HeightField, HeightField2d, HeightFieldError, TriMesh};
use kollide::math::{DPose2, DPose3, DQuat, DVec2, DVec3};
use kollide::query::cast::{BackFaces, CastInput, Ray, RayOutcome, SweepOutcome, SweptShape};
use kollide::shape::{Ball, Cuboid};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A random field: flat, smooth, spiky, or the smallest shapes (2x2, 2xN).
fn random_field(rng: &mut ChaCha8Rng, case: usize) -> Vec<Vec<f64>> {
    let (rows, cols) = match case % 5 {
        0 => (2, 2),
        1 => (2, rng.random_range(2..12)),
        _ => (rng.random_range(2..14), rng.random_range(2..14)),
    };
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| match case % 4 {
                    0 => 0.0,
                    1 => ((r as f64) * 0.7).sin() + ((c as f64) * 0.4).cos(),
                    _ => rng.random_range(-1.0..1.0),
                })
                .collect()
        })
        .collect()
}

/// The grid as a mesh, by the contract's numbering.
fn as_mesh(field: &HeightField<DVec3>) -> TriMesh<DVec3> {
    let (rows, cols) = (field.rows(), field.cols());
    let mut v = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            v.push(field.point(r, c));
        }
    }
    let id = |r: usize, c: usize| (r * cols + c) as u32;
    let mut t = Vec::new();
    for r in 0..rows - 1 {
        for c in 0..cols - 1 {
            t.push([id(r, c), id(r + 1, c), id(r + 1, c + 1)]);
            t.push([id(r, c), id(r + 1, c + 1), id(r, c + 1)]);
        }
    }
    TriMesh::new(v, t)
}

fn pose(rng: &mut ChaCha8Rng) -> DPose3 {
    let q = DQuat::from_xyzw(
        rng.random_range(-0.3..0.3),
        1.0,
        rng.random_range(-0.3..0.3),
        rng.random_range(-1.0..1.0),
    )
    .normalize();
    DPose3::new(
        DVec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)),
        q,
    )
}

fn toi(o: &RayOutcome<DVec3>) -> f64 {
    match o {
        RayOutcome::Hit(h) => h.toi,
        _ => 0.0,
    }
}

#[test]
fn the_field_and_the_same_grid_as_a_mesh_agree() {
    let mut rng = rng(1301);
    let (mut hits, mut total) = (0, 0);
    for case in 0..300 {
        let heights = random_field(&mut rng, case);
        let scale =
            DVec3::new(rng.random_range(2.0..12.0), rng.random_range(0.5..3.0), rng.random_range(2.0..12.0));
        let field = HeightField::new(heights, scale);
        let mesh = as_mesh(&field);
        let p = pose(&mut rng);
        for _ in 0..10 {
            // Rays of every kind: mostly down onto the field, some up, sideways, vertical,
            // along a grid line.
            let o = p.transform_point(DVec3::new(
                rng.random_range(-7.0..7.0),
                rng.random_range(-4.0..6.0),
                rng.random_range(-7.0..7.0),
            ));
            let aim =
                p.transform_point(DVec3::new(rng.random_range(-5.0..5.0), 0.0, rng.random_range(-5.0..5.0)));
            let d = match rng.random_range(0..4) {
                0 => p.transform_vector(DVec3::NEG_Y),
                1 => p.transform_vector(DVec3::new(1.0, 0.0, 0.0)),
                _ => aim - o,
            };
            let ray = Ray::new(o, d);
            let a = composite::ray_cast(&field, &p, &ray, 3.0);
            let b = composite::ray_cast(&mesh, &p, &ray, 3.0);
            match (a, b) {
                (Some(x), Some(y)) => {
                    assert!((toi(&x.value) - toi(&y.value)).abs() < 1e-9, "case {case}: ray {x:?} vs {y:?}");
                    hits += 1;
                }
                (None, None) => {}
                (x, y) => panic!("case {case}: field {x:?} mesh {y:?}"),
            }
            total += 1;
            assert_eq!(
                composite::ray_hits(&field, &p, &ray, 3.0).len(),
                composite::ray_hits(&mesh, &p, &ray, 3.0).len(),
                "case {case}: all hits"
            );
            // A ball and a box near the surface: distance, overlap, contact, manifold.
            let centre = p.transform_point(DVec3::new(
                rng.random_range(-6.0..6.0),
                rng.random_range(-1.5..2.5),
                rng.random_range(-6.0..6.0),
            ));
            let ball = Ball::new(rng.random_range(0.1..1.0));
            let at = DPose3::from_translation(centre);
            let (x, y) =
                (composite::distance(&field, &p, &ball, &at), composite::distance(&mesh, &p, &ball, &at));
            assert!((x.value.distance - y.value.distance).abs() < 1e-9, "case {case}: distance");
            assert_eq!(
                composite::intersects(&field, &p, &ball, &at).is_some(),
                composite::intersects(&mesh, &p, &ball, &at).is_some()
            );
            let cube = Cuboid::new(DVec3::new(0.4, 0.3, 0.5));
            let cp = DPose3::new(centre, DQuat::from_rotation_y(rng.random_range(0.0..3.0)));
            let (x, y) = (
                composite::contact(&field, &p, &cube, &cp, 0.2),
                composite::contact(&mesh, &p, &cube, &cp, 0.2),
            );
            match (x, y) {
                (Some(x), Some(y)) => {
                    assert!((x.value.distance - y.value.distance).abs() < 1e-9, "case {case}: contact")
                }
                (None, None) => {}
                (x, y) => panic!("case {case}: contact field {x:?} mesh {y:?}"),
            }
            let (x, y) = (
                composite::manifold(&field, &p, &cube, &cp, 0.2),
                composite::manifold(&mesh, &p, &cube, &cp, 0.2),
            );
            assert_eq!(x.manifold.len(), y.manifold.len(), "case {case}: manifold points");
            // A swept sphere and a box cast.
            let disp = aim - centre;
            let (x, y) = (
                composite::sweep(&field, &p, SweptShape::ball(centre, 0.3), disp, BackFaces::Hit).unwrap(),
                composite::sweep(&mesh, &p, SweptShape::ball(centre, 0.3), disp, BackFaces::Hit).unwrap(),
            );
            match (x, y) {
                (SweepOutcome::Hit(x), SweepOutcome::Hit(y)) => {
                    assert!((x.toi - y.toi).abs() < 1e-9, "case {case}: sweep")
                }
                (SweepOutcome::Miss, SweepOutcome::Miss) => {}
                (SweepOutcome::StartedWithin { .. }, SweepOutcome::StartedWithin { .. }) => {}
                (x, y) => panic!("case {case}: sweep field {x:?} mesh {y:?}"),
            }
            let input = CastInput::linear(DVec3::ZERO, disp, 1.0);
            let (x, y) = (
                composite::shape_cast(&field, &p, &cube, &cp, &input),
                composite::shape_cast(&mesh, &p, &cube, &cp, &input),
            );
            assert_eq!(x.map(|o| o.value.status), y.map(|o| o.value.status), "case {case}: cast status");
            if let (Some(x), Some(y)) = (x, y) {
                assert!((x.value.toi - y.value.toi).abs() < 1e-9, "case {case}: cast toi");
            }
        }
    }
    assert_mixed(hits, total, "rays on fields");
}

#[test]
fn triangle_numbers_follow_the_contract() {
    // 3 rows (z) x 4 columns (x); a ray straight down at the middle of cell (1, 2)'s first
    // triangle (the one with corners p[1][2], p[2][2], p[2][3]) hits triangle 2 (1*3+2) = 10.
    let field = HeightField::new(vec![vec![0.0; 4]; 3], DVec3::new(3.0, 1.0, 2.0));
    // x of column c: -1.5 + c; z of row r: -1 + r. Cell (1, 2): x in [0.5, 1.5], z in [0, 1].
    // Its first triangle lies on the side of the diagonal where z - 0 > x - 0.5.
    let hit = composite::ray_cast(
        &field,
        &DPose3::IDENTITY,
        &Ray::new(DVec3::new(0.7, 3.0, 0.8), DVec3::NEG_Y),
        10.0,
    )
    .unwrap();
    assert_eq!(hit.part_a.unwrap(), 10);
    let hit = composite::ray_cast(
        &field,
        &DPose3::IDENTITY,
        &Ray::new(DVec3::new(1.3, 3.0, 0.2), DVec3::NEG_Y),
        10.0,
    )
    .unwrap();
    assert_eq!(hit.part_a.unwrap(), 11);
    // The normals point up.
    let t = field.triangle(10);
    assert!((t.b - t.a).cross(t.c - t.a).y > 0.0);
    let t = field.triangle(11);
    assert!((t.b - t.a).cross(t.c - t.a).y > 0.0);
}

#[test]
fn a_box_sliding_over_a_flat_terrain_never_bumps() {
    let field = HeightField::new(vec![vec![0.0; 9]; 9], DVec3::new(8.0, 1.0, 8.0));
    let cube = Cuboid::new(DVec3::new(0.5, 0.25, 0.4));
    for step in 0..400 {
        let x = -3.0 + step as f64 * 0.0151;
        let pose = DPose3::new(DVec3::new(x, 0.24, x * 0.7), DQuat::from_rotation_y(step as f64 * 0.05));
        let c = composite::contact(&field, &DPose3::IDENTITY, &cube, &pose, 0.0).unwrap().value;
        assert!((c.normal - DVec3::Y).length() < 1e-9, "step {step}: {:?}", c.normal);
        assert!((c.distance + 0.01).abs() < 1e-9, "step {step}: {}", c.distance);
        assert_eq!(
            composite::manifold(&field, &DPose3::IDENTITY, &cube, &pose, 0.0).manifold.len(),
            4,
            "step {step}"
        );
    }
}

#[cfg(feature = "png")]
fn encode(width: u32, height: u32, depth: png::BitDepth, color: png::ColorType, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(color);
        enc.set_depth(depth);
        let mut w = enc.write_header().unwrap();
        w.write_image_data(data).unwrap();
    }
    out
}

#[cfg(feature = "png")]
#[test]
fn terrain_from_png_images() {
    use kollide::math::Vec3;
    // 8-bit: 3 wide, 2 high.
    let bytes = encode(3, 2, png::BitDepth::Eight, png::ColorType::Grayscale, &[0, 51, 255, 255, 0, 102]);
    let f = HeightField::<DVec3>::from_png_bytes(&bytes, DVec3::new(2.0, 10.0, 1.0)).unwrap();
    assert_eq!((f.rows(), f.cols()), (2, 3));
    assert!((f.height(0, 1) - 0.2).abs() < 1e-12 && (f.height(1, 2) - 0.4).abs() < 1e-12);
    assert!((f.point(0, 2).y - 10.0).abs() < 1e-12);
    // 16-bit, big-endian samples.
    let bytes =
        encode(2, 2, png::BitDepth::Sixteen, png::ColorType::Grayscale, &[0, 0, 255, 255, 128, 0, 0, 1]);
    let f = HeightField::<Vec3>::from_png_bytes(&bytes, Vec3::ONE).unwrap();
    assert_eq!(f.height(0, 1), 1.0);
    assert!((f.height(1, 0) - 32768.0 / 65535.0).abs() < 1e-6);
    // Colour and garbage are refused with what they are.
    let rgb = encode(2, 2, png::BitDepth::Eight, png::ColorType::Rgb, &[0; 12]);
    let e = HeightField::<Vec3>::from_png_bytes(&rgb, Vec3::ONE).unwrap_err();
    assert_eq!(e, HeightFieldError::NotGrayscale { color_type: "RGB" });
    assert!(e.to_string().contains("RGB"));
    assert!(matches!(
        HeightField::<Vec3>::from_png_bytes(b"not a png", Vec3::ONE),
        Err(HeightFieldError::Decode { .. })
    ));
    let tiny = encode(1, 3, png::BitDepth::Eight, png::ColorType::Grayscale, &[1, 2, 3]);
    assert_eq!(
        HeightField::<Vec3>::from_png_bytes(&tiny, Vec3::ONE).unwrap_err(),
        HeightFieldError::TooSmall { rows: 3, cols: 1 }
    );
    let missing = HeightField::<Vec3>::from_png("no/such/file.png", Vec3::ONE).unwrap_err();
    assert!(missing.to_string().contains("no/such/file.png"), "{missing}");
    // The shipped heightmap loads.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/terrain.png");
    let terrain = HeightField::<Vec3>::from_png(path, Vec3::new(256.0, 30.0, 256.0)).unwrap();
    assert!(terrain.rows() >= 64 && terrain.cols() >= 64);
}

#[test]
fn bad_fields_are_refused_naming_the_value() {
    let s = DVec3::ONE;
    assert_eq!(
        HeightField::try_new(vec![vec![0.0, 1.0]], s).unwrap_err(),
        HeightFieldError::TooSmall { rows: 1, cols: 2 }
    );
    assert_eq!(
        HeightField::try_new(vec![vec![0.0, 1.0], vec![0.0]], s).unwrap_err(),
        HeightFieldError::Ragged { row: 1, len: 1, expected: 2 }
    );
    assert_eq!(
        HeightField::try_new(vec![vec![0.0, 1.0], vec![0.0, f64::NAN]], s).unwrap_err(),
        HeightFieldError::NonFiniteHeight { row: 1, col: 1 }
    );
    assert_eq!(
        HeightField::try_new(vec![vec![0.0; 2]; 2], DVec3::new(1.0, -2.0, 1.0)).unwrap_err(),
        HeightFieldError::BadScale { axis: 1, value: -2.0 }
    );
    assert!(HeightField::try_new(vec![vec![0.0, 1.0], vec![0.0]], s)
        .unwrap_err()
        .to_string()
        .contains("heights[1]"));
    assert_eq!(
        HeightField2d::try_new(vec![1.0], DVec2::ONE).unwrap_err(),
        HeightFieldError::TooSmall { rows: 1, cols: 1 }
    );
}

#[test]
fn the_2d_field_matches_brute_force_over_its_segments() {
    let mut rng = rng(1302);
    let (mut hits, mut total) = (0, 0);
    for case in 0..400 {
        let n = rng.random_range(2..40);
        let heights: Vec<f64> = (0..n).map(|_| rng.random_range(-1.0..1.0)).collect();
        let field =
            HeightField2d::new(heights, DVec2::new(rng.random_range(2.0..20.0), rng.random_range(0.5..2.0)));
        let p = DPose2::from_angle(DVec2::new(0.3, -0.2), rng.random_range(-0.5..0.5));
        let segs: Vec<(DVec2, DVec2)> = (0..field.segment_count() as u32)
            .map(|i| {
                let s = field.segment(i);
                (p.transform_point(s.a), p.transform_point(s.b))
            })
            .collect();
        let centre =
            p.transform_point(DVec2::new(rng.random_range(-12.0..12.0), rng.random_range(-2.0..2.5)));
        let r = rng.random_range(0.1..1.0);
        let truth = segs
            .iter()
            .map(|&(a, b)| {
                let e = b - a;
                let t = ((centre - a).dot(e) / e.length_squared()).clamp(0.0, 1.0);
                (centre - (a + e * t)).length()
            })
            .fold(f64::INFINITY, f64::min);
        let got = composite::distance(&field, &p, &Ball::new(r), &DPose2::from_translation(centre));
        assert!((got.value.distance - (truth - r).max(0.0)).abs() < 1e-9, "case {case}");
        // A ray straight down in the field's frame hits the segment under it.
        let x = rng.random_range(-9.0..9.0);
        let o = p.transform_point(DVec2::new(x, 5.0));
        let ray = Ray::new(o, p.transform_vector(DVec2::NEG_Y));
        let hit = composite::ray_cast(&field, &p, &ray, 20.0);
        let inside = x.abs() < field.scale().x / 2.0 - 1e-9;
        assert_eq!(hit.is_some(), inside, "case {case}: ray at x {x}");
        hits += usize::from(inside);
        total += 1;
    }
    assert_mixed(hits, total, "rays on 2D fields");
}
