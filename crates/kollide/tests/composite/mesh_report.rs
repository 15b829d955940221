//! Mesh diagnostics and welding against counts made by hand (a cube, an open box, a fan of
//! fins, a flipped face, a soup with repeats, degenerate triangles) and by brute force over
//! random soups.

use kollide::composite::{MeshReport, TriMesh, TriMeshError, Weld};
use kollide::math::{DVec3, Vec3};
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::common::cube::triangles as cube_triangles;

/// The unit cube's corners (see `common::cube`).
fn cube_vertices() -> Vec<DVec3> {
    crate::common::cube::corners().into_iter().map(DVec3::from_array).collect()
}

/// The outward normal of a cube triangle, by the right-hand rule.
fn normal(v: &[DVec3], t: [u32; 3]) -> DVec3 {
    let [a, b, c] = t.map(|i| v[i as usize]);
    (b - a).cross(c - a).normalize()
}

#[test]
fn the_cube_fixture_is_outward_and_closed_by_construction() {
    // Independent of the report: every normal points away from the centre.
    let v = cube_vertices();
    for t in cube_triangles() {
        let centroid = (v[t[0] as usize] + v[t[1] as usize] + v[t[2] as usize]) / 3.0;
        assert!(normal(&v, t).dot(centroid - DVec3::splat(0.5)) > 0.0, "{t:?}");
    }
}

#[test]
fn a_closed_cube_is_closed_and_oriented() {
    let r = TriMesh::new(cube_vertices(), cube_triangles()).report();
    // 12 cube edges and 6 face diagonals, each of two triangles.
    let want = MeshReportCounts {
        triangles: 12,
        vertices: 8,
        edges: 18,
        boundary: 0,
        non_manifold: 0,
        misoriented: 0,
        zero_area: 0,
        slivers: 0,
        duplicates: 0,
        welded: 0,
        unused: 0,
    };
    assert_eq!(MeshReportCounts::of(&r), want);
    assert!(r.closed && r.oriented);
    assert_eq!((r.aabb.min, r.aabb.max), (DVec3::ZERO, DVec3::ONE));
    assert!(r.memory_bytes >= 8 * 24 + 12 * 12, "{}", r.memory_bytes);
}

#[test]
fn an_open_box_has_its_rim_as_boundary() {
    let mut t = cube_triangles();
    t.truncate(10); // the top face is gone
    let r = TriMesh::new(cube_vertices(), t).report();
    // The top's diagonal is gone; its 4 edges are the rim, of one triangle each.
    assert_eq!((r.edges, r.boundary_edges, r.non_manifold_edges), (17, 4, 0));
    assert!(!r.closed && r.oriented);
}

#[test]
fn a_fan_of_fins_on_one_edge_is_non_manifold() {
    // Three triangles on the edge (0, 1), each with its own apex.
    let v = vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z, DVec3::new(0.5, -1.0, -1.0)];
    let r = TriMesh::new(v, vec![[0, 1, 2], [1, 0, 3], [0, 1, 4]]).report();
    // Edges: (0,1) of three triangles; (1,2), (2,0), (0,3), (3,1), (1,4), (4,0) of one.
    assert_eq!((r.edges, r.boundary_edges, r.non_manifold_edges, r.misoriented_edges), (7, 6, 1, 0));
    assert!(!r.closed);
}

#[test]
fn a_flipped_face_breaks_the_orientation_on_its_three_edges() {
    let mut t = cube_triangles();
    t[4] = [t[4][0], t[4][2], t[4][1]];
    let r = TriMesh::new(cube_vertices(), t).report();
    assert_eq!((r.misoriented_edges, r.boundary_edges), (3, 0));
    assert!(r.closed && !r.oriented);
    // Every face flipped is an inside-out cube: consistent all the same.
    let inside_out: Vec<[u32; 3]> = cube_triangles().into_iter().map(|[a, b, c]| [a, c, b]).collect();
    let r = TriMesh::new(cube_vertices(), inside_out).report();
    assert!(r.closed && r.oriented);
}

/// The cube as a soup: each triangle with three corners of its own (36 vertices at 8
/// positions), as binary STL stores it.
fn cube_soup() -> (Vec<DVec3>, Vec<[u32; 3]>) {
    let v = cube_vertices();
    let mut soup = Vec::new();
    let mut tris = Vec::new();
    for (k, t) in (0u32..).zip(cube_triangles()) {
        soup.extend(t.map(|i| v[i as usize]));
        tris.push([3 * k, 3 * k + 1, 3 * k + 2]);
    }
    (soup, tris)
}

#[test]
fn a_soup_has_duplicates_until_welded() {
    let (soup, tris) = cube_soup();
    let r = TriMesh::new(soup.clone(), tris.clone()).report();
    assert_eq!((r.vertices, r.duplicate_vertices, r.welded_vertices), (36, 28, 0));
    // Edges are counted by position, as the adjacency sees them.
    assert!(r.closed && r.oriented && r.edges == 18);
    let welded = TriMesh::try_new_welded(soup.clone(), tris.clone(), Weld::Exact).unwrap();
    let r = welded.report();
    assert_eq!((r.vertices, r.duplicate_vertices, r.welded_vertices), (8, 0, 28));
    assert!(r.closed && r.oriented && r.edges == 18);
    // Same triangles, same corners, same order.
    for i in 0..12u32 {
        let want = [0, 1, 2].map(|k| soup[(3 * i + k) as usize]);
        assert_eq!(welded.corners(i), want);
        assert!((0..3).all(|k| welded.neighbour(i, k).is_some()), "triangle {i} has three neighbours");
    }
    // `Weld::None` keeps the soup as it is.
    let kept = TriMesh::try_new_welded(soup, tris, Weld::None).unwrap();
    assert_eq!((kept.vertices().len(), kept.welded_vertices()), (36, 0));
}

#[test]
fn zero_area_slivers_and_unused_vertices_are_counted() {
    let v = vec![
        DVec3::ZERO,
        DVec3::X,
        DVec3::Y,
        DVec3::new(2.0, 0.0, 0.0),  // on the line of 0 and 1
        DVec3::new(0.5, 1e-4, 0.0), // height 1e-4 over the edge 0-1: a sliver
        DVec3::new(0.5, 2e-3, 0.0), // height 2e-3: not a sliver
        DVec3::new(9.0, 9.0, 9.0),  // used by no triangle
    ];
    let t = vec![
        [0, 1, 2], // fine
        [0, 1, 1], // repeated corner
        [0, 1, 3], // collinear
        [0, 1, 4], // sliver
        [0, 1, 5], // thin, not a sliver
    ];
    let r = TriMesh::new(v, t).report();
    assert_eq!((r.zero_area_triangles, r.sliver_triangles, r.unused_vertices), (2, 1, 1));
    // The box holds the vertices the triangles use, not the unused one.
    assert_eq!((r.aabb.min, r.aabb.max), (DVec3::ZERO, DVec3::new(2.0, 1.0, 0.0)));
    // A zero-area triangle in f32: corners that round together.
    let f = vec![Vec3::ZERO, Vec3::X, Vec3::new(2.0, 0.0, 0.0), Vec3::Y];
    let r = TriMesh::new(f, vec![[0, 1, 2], [0, 1, 3]]).report();
    assert_eq!(r.zero_area_triangles, 1);
}

/// The counts of a report, for one comparison.
#[derive(Debug, PartialEq)]
struct MeshReportCounts {
    triangles: usize,
    vertices: usize,
    edges: usize,
    boundary: usize,
    non_manifold: usize,
    misoriented: usize,
    zero_area: usize,
    slivers: usize,
    duplicates: usize,
    welded: usize,
    unused: usize,
}

impl MeshReportCounts {
    fn of(r: &MeshReport<DVec3>) -> Self {
        Self {
            triangles: r.triangles,
            vertices: r.vertices,
            edges: r.edges,
            boundary: r.boundary_edges,
            non_manifold: r.non_manifold_edges,
            misoriented: r.misoriented_edges,
            zero_area: r.zero_area_triangles,
            slivers: r.sliver_triangles,
            duplicates: r.duplicate_vertices,
            welded: r.welded_vertices,
            unused: r.unused_vertices,
        }
    }
}

/// Random soups over a small lattice of positions (so corners repeat and edges are shared
/// by one, two or more triangles), counted by brute force: every directed edge by its
/// positions, compared pairwise.
#[test]
fn edge_counts_match_brute_force_on_random_soups() {
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    let (mut saw_closed_pairs, mut saw_non_manifold, mut saw_flipped) = (false, false, false);
    for case in 0..60 {
        let n = rng.random_range(1..30usize);
        let lattice = |rng: &mut ChaCha8Rng| {
            DVec3::new(
                f64::from(rng.random_range(0..3)),
                f64::from(rng.random_range(0..2)),
                f64::from(rng.random_range(0..2)),
            )
        };
        let vertices: Vec<DVec3> = (0..3 * n).map(|_| lattice(&mut rng)).collect();
        let tris: Vec<[u32; 3]> = (0..n as u32).map(|k| [3 * k, 3 * k + 1, 3 * k + 2]).collect();
        let r = TriMesh::new(vertices.clone(), tris.clone()).report();

        // Brute force: each triangle's directed edges by position, skipping collapsed ones.
        let mut directed: Vec<(DVec3, DVec3)> = Vec::new();
        for t in &tris {
            for k in 0..3 {
                let (a, b) = (vertices[t[k] as usize], vertices[t[(k + 1) % 3] as usize]);
                if a != b {
                    directed.push((a, b));
                }
            }
        }
        let same =
            |x: &(DVec3, DVec3), y: &(DVec3, DVec3)| (x.0 == y.0 && x.1 == y.1) || (x.0 == y.1 && x.1 == y.0);
        let mut distinct: Vec<(DVec3, DVec3)> = Vec::new();
        for e in &directed {
            if !distinct.iter().any(|d| same(d, e)) {
                distinct.push(*e);
            }
        }
        let (mut boundary, mut non_manifold, mut misoriented) = (0, 0, 0);
        for d in &distinct {
            let uses: Vec<&(DVec3, DVec3)> = directed.iter().filter(|e| same(d, e)).collect();
            match uses.len() {
                1 => boundary += 1,
                2 => misoriented += usize::from(uses[0].0 == uses[1].0),
                _ => non_manifold += 1,
            }
        }
        let mut positions: Vec<DVec3> = Vec::new();
        for v in &vertices {
            if !positions.contains(v) {
                positions.push(*v);
            }
        }
        assert_eq!(r.edges, distinct.len(), "case {case}");
        assert_eq!(
            (r.boundary_edges, r.non_manifold_edges, r.misoriented_edges),
            (boundary, non_manifold, misoriented),
            "case {case}"
        );
        assert_eq!(r.duplicate_vertices, vertices.len() - positions.len(), "case {case}");
        assert_eq!(r.closed, !distinct.is_empty() && boundary == 0 && non_manifold == 0, "case {case}");
        // Welding changes none of it, only the stored vertices.
        let w = TriMesh::try_new_welded(vertices.clone(), tris.clone(), Weld::Exact).unwrap().report();
        assert_eq!(
            (w.vertices, w.welded_vertices, w.duplicate_vertices),
            (positions.len(), vertices.len() - positions.len(), 0)
        );
        assert_eq!(
            (w.edges, w.boundary_edges, w.non_manifold_edges, w.misoriented_edges),
            (r.edges, r.boundary_edges, r.non_manifold_edges, r.misoriented_edges)
        );
        saw_closed_pairs |= distinct.len() > boundary + non_manifold;
        saw_non_manifold |= non_manifold > 0;
        saw_flipped |= misoriented > 0;
    }
    assert!(saw_closed_pairs && saw_non_manifold && saw_flipped, "the sample covers every kind of edge");
}

/// Vertices jittered around lattice points by less than a tenth of the tolerance weld to
/// the lattice; every merged vertex moves by at most the tolerance, and the kept ones are
/// pairwise farther apart than it (checked over all pairs).
#[test]
fn welding_within_a_tolerance() {
    let tol = 1e-6;
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let lattice: Vec<DVec3> = (0..27)
        .map(|i| DVec3::new(f64::from(i % 3), f64::from((i / 3) % 3), f64::from(i / 9)) * 10.0)
        .collect();
    let mut vertices = Vec::new();
    for _ in 0..4 {
        for &p in &lattice {
            let j = DVec3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            vertices.push(p + j * (0.05 * tol));
        }
    }
    let n = vertices.len() as u32;
    let tris: Vec<[u32; 3]> = (0..n).map(|i| [i, (i + 1) % n, (i + 2) % n]).collect();
    let mesh = TriMesh::try_new_welded(vertices.clone(), tris.clone(), Weld::Within(tol)).unwrap();
    assert_eq!((mesh.vertices().len(), mesh.welded_vertices()), (27, vertices.len() - 27));
    for (t, (i, tri)) in tris.iter().zip(mesh.indices().iter().enumerate()) {
        for k in 0..3 {
            let moved = (mesh.vertices()[tri[k] as usize] - vertices[t[k] as usize]).length();
            assert!(moved <= tol, "triangle {i} corner {k} moved {moved}");
        }
    }
    let kept = mesh.vertices();
    for a in 0..kept.len() {
        for b in a + 1..kept.len() {
            assert!((kept[a] - kept[b]).length() > tol);
        }
    }
    // Exact welding merges none of the jittered copies.
    let exact = TriMesh::try_new_welded(vertices, tris, Weld::Exact).unwrap();
    assert_eq!(exact.welded_vertices(), 0);
}

#[test]
fn welding_does_not_chain_along_a_row() {
    // Five points 0.6 tolerances apart: a chain of merges would make one vertex of them.
    let tol = 1e-3;
    let v: Vec<DVec3> = (0..5).map(|i| DVec3::X * (0.6 * tol * f64::from(i))).collect();
    let mesh = TriMesh::try_new_welded(v, vec![[0, 1, 2], [2, 3, 4]], Weld::Within(tol)).unwrap();
    // Kept: 0, 1.2 tol (the first more than tol from 0), 2.4 tol; 0.6 tol joins 0, 1.8 tol
    // joins 1.2 tol.
    let xs: Vec<f64> = mesh.vertices().iter().map(|p| p.x / tol).collect();
    assert_eq!(xs.len(), 3);
    assert!((xs[0] - 0.0).abs() < 1e-9 && (xs[1] - 1.2).abs() < 1e-9 && (xs[2] - 2.4).abs() < 1e-9, "{xs:?}");
    assert_eq!(mesh.indices(), &[[0, 0, 1], [1, 1, 2]]);
    // The merged corners leave two zero-area triangles, kept and reported.
    assert_eq!(mesh.report().zero_area_triangles, 2);
}

#[test]
fn welding_names_bad_input_as_given() {
    let e =
        TriMesh::<DVec3>::try_new_welded(vec![DVec3::ZERO], vec![[0, 0, 0]], Weld::Within(-1.0)).unwrap_err();
    assert_eq!(e, TriMeshError::BadWeldTolerance { value: -1.0 });
    let e = TriMesh::<DVec3>::try_new_welded(vec![DVec3::ZERO], vec![[0, 0, 0]], Weld::Within(f64::NAN))
        .unwrap_err();
    assert!(matches!(e, TriMeshError::BadWeldTolerance { .. }));
    // Indices out of range are named in the caller's numbering, before any merge.
    let v = vec![DVec3::ZERO, DVec3::ZERO, DVec3::X];
    let e = TriMesh::try_new_welded(v, vec![[0, 1, 2], [0, 2, 3]], Weld::Exact).unwrap_err();
    assert_eq!(e, TriMeshError::IndexOutOfRange { triangle: 1, corner: 2, index: 3, vertex_count: 3 });
    // +0 and -0 are one position.
    let v = vec![DVec3::ZERO, DVec3::new(-0.0, 0.0, -0.0), DVec3::X, DVec3::Y];
    let m = TriMesh::try_new_welded(v, vec![[0, 2, 3], [1, 3, 2]], Weld::Exact).unwrap();
    assert_eq!(m.welded_vertices(), 1);
}
