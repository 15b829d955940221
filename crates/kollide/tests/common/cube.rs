//! The unit cube as a triangle mesh, shared by the mesh tests.

/// The unit cube's corners as `[x, y, z]`: bit 0 of the index is x, bit 1 is y, bit 2 is z.
pub fn corners() -> Vec<[f64; 3]> {
    (0..8).map(|i| [f64::from(i & 1), f64::from((i >> 1) & 1), f64::from((i >> 2) & 1)]).collect()
}

/// The cube's 12 triangles, wound outwards (counter-clockwise seen from outside), the two
/// triangles of the top face (y = 1) last.
pub fn triangles() -> Vec<[u32; 3]> {
    vec![
        // y = 0, normal -y
        [0, 1, 5],
        [0, 5, 4],
        // x = 0, normal -x
        [0, 4, 6],
        [0, 6, 2],
        // x = 1, normal +x
        [1, 3, 7],
        [1, 7, 5],
        // z = 0, normal -z
        [0, 2, 3],
        [0, 3, 1],
        // z = 1, normal +z
        [4, 5, 7],
        [4, 7, 6],
        // y = 1, normal +y
        [2, 6, 7],
        [2, 7, 3],
    ]
}
