//! With the `serde` feature: point-set shapes serialize as their points and deserializing
//! rebuilds them through the checked constructor (run with
//! `cargo test -p kollide --features serde --test all serde_shapes`).
#![cfg(feature = "serde")]

use glam::{DVec2, Vec3};
use kollide::shape::{ConvexHull, ConvexPolygon};

#[test]
fn hull_and_polygon_round_trip_through_their_points() {
    let cube: Vec<Vec3> =
        (0..8).map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32)).collect();
    let hull = ConvexHull::try_from_points(&cube).unwrap();
    let text = serde_json::to_string(&hull).unwrap();
    assert!(text.starts_with("{\"points\":"), "{text}");
    let back: ConvexHull<Vec3> = serde_json::from_str(&text).unwrap();
    // The same solid; quickhull may number the vertices in another order.
    let sorted = |h: &ConvexHull<Vec3>| {
        let mut v: Vec<[f32; 3]> = h.vertices().iter().map(|p| p.to_array()).collect();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v
    };
    assert_eq!(sorted(&back), sorted(&hull));

    let square = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y];
    let poly = ConvexPolygon::try_from_points(&square).unwrap();
    let back: ConvexPolygon<DVec2> = serde_json::from_str(&serde_json::to_string(&poly).unwrap()).unwrap();
    assert_eq!(back, poly);
}

#[test]
fn bad_points_in_a_file_are_refused_with_the_shape_error() {
    let flat = r#"{"points": [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]}"#;
    let err = serde_json::from_str::<ConvexHull<Vec3>>(flat).unwrap_err().to_string();
    assert!(err.contains("flat") || err.contains("coplanar") || err.contains("volume"), "{err}");
    let line = r#"{"points": [[0,0],[1,1],[2,2]]}"#;
    let err = serde_json::from_str::<ConvexPolygon<DVec2>>(line).unwrap_err().to_string();
    assert!(!err.is_empty(), "{err}");
}
