//! Concave polygons: validation, convex decomposition and compound queries, against f64
//! brute force over the polygon's own edges (winding number for inside, point-segment
//! distances for the boundary), independent of the decomposition.

use crate::common;
use kollide::query::Space;

use common::{assert_close, assert_mixed, rng, to_world_f64, FromParts, RotF64};
use glam::{DVec2, DVec3, Vec2};
use kollide::composite::{self, ConcavePolygon};
use kollide::math::{Pose, Real, Vector2};
use kollide::shape::{Ball, Cuboid, ShapeError};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

// ---------- f64 oracles, on the input points only ----------

fn d2(p: [f64; 3]) -> DVec2 {
    DVec2::new(p[0], p[1])
}

fn d3(p: DVec2) -> DVec3 {
    DVec3::new(p.x, p.y, 0.0)
}

fn shoelace(v: &[DVec2]) -> f64 {
    (0..v.len()).map(|i| v[i].perp_dot(v[(i + 1) % v.len()])).sum::<f64>() / 2.0
}

/// Winding number of the closed boundary `v` around `p` (non-zero: inside).
fn winding(p: DVec2, v: &[DVec2]) -> i32 {
    let mut w = 0;
    for i in 0..v.len() {
        let (a, b) = (v[i], v[(i + 1) % v.len()]);
        let side = (b - a).perp_dot(p - a);
        if a.y <= p.y && b.y > p.y && side > 0.0 {
            w += 1;
        } else if a.y > p.y && b.y <= p.y && side < 0.0 {
            w -= 1;
        }
    }
    w
}

fn boundary_distance(p: DVec2, v: &[DVec2]) -> f64 {
    (0..v.len())
        .map(|i| common::oracle::point_segment(d3(p), d3(v[i]), d3(v[(i + 1) % v.len()])))
        .fold(f64::MAX, f64::min)
}

/// Distance from the polygon region `v` to the convex polygon region `w`: 0 when they
/// overlap, else the least distance between their edges.
fn region_distance(v: &[DVec2], w: &[DVec2]) -> f64 {
    if w.iter().any(|&p| winding(p, v) != 0) || v.iter().any(|&p| winding(p, w) != 0) {
        return 0.0;
    }
    let mut best = f64::MAX;
    for i in 0..v.len() {
        for j in 0..w.len() {
            let (a, b) = (d3(v[i]), d3(v[(i + 1) % v.len()]));
            let (c, d) = (d3(w[j]), d3(w[(j + 1) % w.len()]));
            best = best.min(common::oracle::segment_segment(a, b, c, d));
        }
    }
    best
}

fn reflex_count(v: &[DVec2]) -> usize {
    let n = v.len();
    (0..n).filter(|&i| (v[i] - v[(i + n - 1) % n]).perp_dot(v[(i + 1) % n] - v[i]) < 0.0).count()
}

// ---------- inputs ----------

fn pts<V: Vector2 + Space>(xy: &[(f64, f64)]) -> Vec<V> {
    xy.iter().map(|&(x, y)| V::from_f64_array([x, y, 0.0])).collect()
}

fn to_f64<V: Vector2 + Space>(v: &[V]) -> Vec<DVec2> {
    v.iter().map(|p| d2(p.to_f64_array())).collect()
}

/// A star-shaped polygon: `n` increasing angles around the origin with radii in
/// [0.3, 1] (always simple), counter-clockwise or, half the time, clockwise.
fn star<V: Vector2 + Space>(r: &mut ChaCha8Rng, n: usize) -> Vec<V> {
    let mut angles: Vec<f64> = (0..n).map(|k| (k as f64 + r.random_range(0.05..0.95)) / n as f64).collect();
    angles.sort_by(f64::total_cmp);
    let mut v: Vec<V> = angles
        .iter()
        .map(|t| {
            let a = t * std::f64::consts::TAU;
            let rad = r.random_range(0.3..1.0);
            V::from_f64_array([rad * a.cos(), rad * a.sin(), 0.0])
        })
        .collect();
    if r.random_bool(0.5) {
        v.reverse();
    }
    v
}

const L: [(f64, f64); 6] = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)];

fn comb() -> Vec<(f64, f64)> {
    // A flat top at y = 2 from x = 0 to 7, four teeth hanging down to y = 0.
    let mut v = vec![(7.0, 2.0), (0.0, 2.0)];
    for k in 0..4 {
        let x = 2.0 * k as f64;
        v.extend([(x, 0.0), (x + 1.0, 0.0), (x + 1.0, 1.0), (x + 2.0, 1.0)]);
    }
    v.pop(); // (8, 1): the last tooth ends at the body's corner (7, 1)
    v
}

fn spiral() -> Vec<(f64, f64)> {
    // A square spiral centre line (arms 2 apart, turning left), thickened to width 1 with
    // mitred corners: a long, thin, many-times-reflex polygon.
    let dirs = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];
    let mut line = vec![(0.0, 0.0)];
    for k in 0..10 {
        let len = 2.0 * (k / 2 + 1) as f64;
        let (dx, dy) = dirs[k % 4];
        let (x, y) = line[k];
        line.push((x + dx * len, y + dy * len));
    }
    let n = line.len();
    let off = |i: usize, s: f64| -> (f64, f64) {
        let dir_in = norm(sub(line[i.max(1)], line[i.max(1) - 1]));
        let dir_out = norm(sub(line[(i + 1).min(n - 1)], line[(i + 1).min(n - 1) - 1]));
        let (l1, l2) = ((-dir_in.1, dir_in.0), (-dir_out.1, dir_out.0));
        // At a right-angle corner the sum of the two left normals offsets by s along both.
        let m = if i == 0 || i + 1 == n {
            if i == 0 {
                l2
            } else {
                l1
            }
        } else {
            (l1.0 + l2.0, l1.1 + l2.1)
        };
        (line[i].0 + s * m.0, line[i].1 + s * m.1)
    };
    let mut poly: Vec<(f64, f64)> = (0..n).map(|i| off(i, 0.5)).collect();
    poly.extend((0..n).rev().map(|i| off(i, -0.5)));
    poly
}

fn sub(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    (a.0 - b.0, a.1 - b.1)
}
fn norm(a: (f64, f64)) -> (f64, f64) {
    let l = a.0.hypot(a.1);
    (a.0 / l, a.1 / l)
}

// ---------- validation ----------

fn validation<V: Vector2 + Space>() {
    let e = |xy: &[(f64, f64)]| ConcavePolygon::try_new(&pts::<V>(xy)).err();
    // Bow-tie: edge 0 (0,0)->(1,1) crosses edge 2 (1,0)->(0,1).
    assert_eq!(
        e(&[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)]),
        Some(ShapeError::SelfIntersecting { first: 0, second: 2 })
    );
    let mut nan = pts::<V>(&L);
    nan[2] = V::new2(V::Real::from_f64(1.0), V::Real::from_f64(f64::NAN));
    let err = ConcavePolygon::try_new(&nan).unwrap_err();
    assert_eq!(err, ShapeError::NonFinite { field: "points[2].y".into() });
    assert!(err.to_string().contains("points[2].y"), "{err}");
    assert_eq!(e(&[(0.0, 0.0), (1.0, 0.0)]), Some(ShapeError::TooFewPoints { count: 2, needed: 3 }));
    assert_eq!(
        e(&[(0.0, 0.0), (1.0, 0.0), (1.0, 0.0), (0.0, 1.0)]),
        Some(ShapeError::RepeatedPoint { index: 1, next: 2 })
    );
    assert_eq!(
        e(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (0.0, 0.0)]),
        Some(ShapeError::RepeatedPoint { index: 3, next: 0 })
    );
    assert_eq!(
        e(&[(0.0, 0.0), (1.0, 1.0), (3.0, 3.0), (2.0, 2.0)]),
        Some(ShapeError::Collinear { count: 4 })
    );
    // Edge 1 (2,0)->(1,0) folds back onto edge 0 (0,0)->(2,0).
    assert_eq!(
        e(&[(0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (1.0, 1.0)]),
        Some(ShapeError::SelfIntersecting { first: 0, second: 1 })
    );
    // A vertex on a non-adjacent edge: (2,0) lies on edge 0, so edge 2 (4,4)->(2,0) touches it.
    assert_eq!(
        e(&[(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (2.0, 0.0), (0.0, 4.0)]),
        Some(ShapeError::SelfIntersecting { first: 0, second: 2 })
    );
    // The last edge (2,0)->(0,0) folds back onto edge 0 through the wrap-around: reported
    // before the touch of edge 3 (2,4)->(2,0) on edge 0.
    assert_eq!(
        e(&[(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (2.0, 4.0), (2.0, 0.0)]),
        Some(ShapeError::SelfIntersecting { first: 0, second: 4 })
    );
    // A pinch: (1,1) twice, so edges 1 and 4 meet there.
    assert_eq!(
        e(&[(0.0, 0.0), (2.0, 0.0), (1.0, 1.0), (2.0, 2.0), (0.0, 2.0), (1.0, 1.0)]),
        Some(ShapeError::SelfIntersecting { first: 1, second: 4 })
    );
    let msg = e(&[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)]).unwrap().to_string();
    assert!(msg.contains("edge 0") && msg.contains("edge 2"), "{msg}");
}

/// A vertex one ulp inside from an edge is accepted; exactly on it, refused: the crossing
/// test is exact in both precisions. The line y = x / 3 passes through (1.5, 0.5) exactly.
fn exact_touch<V: Vector2 + Space>(ulp_above_half: f64) {
    let poly = |y: f64| [(0.0, 0.0), (3.0, 1.0), (3.0, 3.0), (1.5, y), (0.0, 3.0)];
    assert_eq!(
        ConcavePolygon::try_new(&pts::<V>(&poly(0.5))).err(),
        Some(ShapeError::SelfIntersecting { first: 0, second: 2 })
    );
    let p = ConcavePolygon::try_new(&pts::<V>(&poly(ulp_above_half))).unwrap();
    assert_eq!(p.vertices().len(), 5);
}

#[test]
fn validation_names_what_is_wrong() {
    validation::<Vec2>();
    validation::<DVec2>();
    exact_touch::<Vec2>(f32::from_bits(0.5f32.to_bits() + 1) as f64);
    exact_touch::<DVec2>(f64::from_bits(0.5f64.to_bits() + 1));
}

// ---------- decomposition ----------

/// Checks the pieces partition the polygon: vertices are input points, each piece is
/// convex, areas add up, the piece count is within the Hertel–Mehlhorn bounds, and random
/// points away from every boundary lie in exactly one piece when inside the polygon (by
/// winding number) and in none outside. Returns (inside samples, samples).
fn check_partition<V: Vector2 + Space>(input: &[V], r: &mut ChaCha8Rng, tol: f64) -> (usize, usize) {
    let poly = ConcavePolygon::new(input);
    let v = to_f64(input);
    let area = shoelace(&v).abs();
    assert_close(poly.area().to_f64(), area, tol * area, "area");
    // Counter-clockwise output, the input as given or reversed.
    let out = to_f64(poly.vertices());
    assert!(shoelace(&out) > 0.0);
    let cw = shoelace(&v) < 0.0;
    assert_eq!(poly.input_was_clockwise(), cw);
    let n = input.len();
    for i in 0..n {
        assert_eq!(poly.vertices()[i], if cw { input[n - 1 - i] } else { input[i] });
    }
    let pieces: Vec<Vec<DVec2>> = poly.pieces().iter().map(|p| to_f64(p.vertices())).collect();
    let mut sum = 0.0;
    let mut internal = 0;
    let mut boundary_len = 0.0;
    for (i, p) in pieces.iter().enumerate() {
        let m = p.len();
        assert!(m >= 3);
        for k in 0..m {
            let turn = (p[(k + 1) % m] - p[k]).perp_dot(p[(k + 2) % m] - p[(k + 1) % m]);
            assert!(turn >= 0.0, "piece {i} not convex at its vertex {}", (k + 1) % m);
            assert_eq!(
                poly.vertices()[poly.piece_vertex_indices(i)[k] as usize],
                poly.pieces()[i].vertices()[k]
            );
            boundary_len += (p[(k + 1) % m] - p[k]).length();
        }
        for &[u, w] in poly.piece_diagonals(i) {
            // A diagonal joins two vertices that are not neighbours on the boundary.
            let (u, w) = (u as usize, w as usize);
            assert!(w != (u + 1) % n && u != (w + 1) % n, "diagonal {u}-{w} is a boundary edge");
            internal += 1;
            boundary_len -= (to_f64(&[poly.vertices()[w]])[0] - to_f64(&[poly.vertices()[u]])[0]).length();
        }
        sum += shoelace(p);
    }
    assert_close(sum, area, tol * area, "sum of piece areas");
    // k pieces are cut apart by k - 1 diagonals, each on the boundary of two pieces; the
    // rest of the piece perimeters make up the polygon's boundary.
    assert_eq!(internal, 2 * (pieces.len() - 1), "diagonals");
    let perimeter: f64 = (0..n).map(|i| (v[(i + 1) % n] - v[i]).length()).sum();
    assert_close(boundary_len, perimeter, tol * perimeter, "boundary length");
    let rx = reflex_count(&if cw { v.iter().rev().copied().collect() } else { v.clone() });
    assert!(pieces.len() <= 2 * rx + 1, "{} pieces for {rx} reflex vertices", pieces.len());
    assert!(pieces.len() > rx.div_ceil(2), "{} pieces for {rx} reflex vertices", pieces.len());
    // Sampling: inside the polygon <=> in exactly one piece.
    let (lo, hi) = (v.iter().fold(v[0], |a, &b| a.min(b)), v.iter().fold(v[0], |a, &b| a.max(b)));
    let (mut inside, mut total) = (0, 0);
    for _ in 0..400 {
        let p = DVec2::new(r.random_range(lo.x..hi.x), r.random_range(lo.y..hi.y));
        let near = pieces.iter().any(|q| boundary_distance(p, q) < 1e-6 * (hi - lo).length());
        if near {
            continue;
        }
        let count = pieces.iter().filter(|q| winding(p, q) != 0).count();
        let is_in = winding(p, &v) != 0;
        assert_eq!(count, usize::from(is_in), "point {p} in {count} pieces, inside polygon: {is_in}");
        inside += usize::from(is_in);
        total += 1;
    }
    (inside, total)
}

fn decomposition<V: Vector2 + Space>(tol: f64) {
    let mut r = rng(7);
    let (mut inside, mut total) = (0, 0);
    for k in 0..60 {
        let n = 3 + k % 40;
        let (i, t) = check_partition(&star::<V>(&mut r, n), &mut r, tol);
        inside += i;
        total += t;
    }
    assert_mixed(inside, total, "star polygons: samples inside");
    for shape in [L.to_vec(), comb(), spiral()] {
        check_partition(&pts::<V>(&shape), &mut r, tol);
        let rev: Vec<_> = shape.iter().rev().copied().collect();
        check_partition(&pts::<V>(&rev), &mut r, tol);
    }
    // The L needs 2 pieces (one reflex corner).
    assert_eq!(ConcavePolygon::new(&pts::<V>(&L)).pieces().len(), 2);
    // Collinear points on a square's edges stay vertices; the square is one piece.
    let square =
        [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (2.0, 2.0), (1.0, 2.0), (0.0, 2.0), (0.0, 1.0)];
    let sq = ConcavePolygon::new(&pts::<V>(&square));
    assert_eq!(sq.vertices().len(), 8);
    assert_eq!(sq.pieces().len(), 1);
    assert_eq!(sq.pieces()[0].vertices().len(), 4);
    check_partition(&pts::<V>(&square), &mut r, tol);
}

#[test]
fn pieces_partition_the_polygon() {
    decomposition::<Vec2>(1e-5);
    decomposition::<DVec2>(1e-12);
}

// ---------- queries against brute force ----------

fn queries<V: Vector2 + Space>(seed: u64, tol: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    let (mut hits, mut total, mut contacts, mut beyond) = (0, 0, 0, 0);
    for _ in 0..40 {
        let n = r.random_range(5..30);
        let shape = star::<V>(&mut r, n);
        let poly = ConcavePolygon::new(&shape);
        let pose_a: Pose<V> = common::pose(&mut r, 1.0);
        let world: Vec<DVec2> = shape.iter().map(|&p| d2(to_world_f64(&pose_a, p))).collect();
        for _ in 0..25 {
            let radius = r.random_range(0.02..0.3);
            let ball = Ball::<V>::new(V::Real::from_f64(radius));
            let pose_b: Pose<V> = common::pose(&mut r, 1.0);
            let pose_b = Pose::new(pose_a.translation + pose_b.translation, pose_b.rotation);
            let c = d2(to_world_f64(&pose_b, V::ZERO));
            let truth =
                if winding(c, &world) != 0 { 0.0 } else { (boundary_distance(c, &world) - radius).max(0.0) };
            let out = composite::distance(&poly, &pose_a, &ball, &pose_b).value;
            assert_close(out.distance.to_f64(), truth, tol, "ball distance");
            assert!(out.lower_bound <= out.distance);
            let hit = composite::intersects(&poly, &pose_a, &ball, &pose_b).is_some();
            if (truth - 0.0).abs() > tol || truth == 0.0 {
                assert_eq!(hit, truth == 0.0, "intersects, true distance {truth}");
            }
            hits += usize::from(truth == 0.0);
            total += 1;
            // Contact within a margin, for separated pairs (penetration goes through EPA,
            // checked elsewhere).
            let margin = 0.2;
            if truth > tol {
                let con = composite::contact(&poly, &pose_a, &ball, &pose_b, V::Real::from_f64(margin))
                    .map(|c| c.value);
                if truth > margin + tol {
                    assert!(con.is_none(), "contact beyond the margin: true distance {truth}");
                } else if truth < margin - tol {
                    let con = con.expect("contact within the margin");
                    assert_close(con.distance.to_f64(), truth, tol, "contact distance");
                    let nrm = d2(con.normal.to_f64_array());
                    assert_close(nrm.length(), 1.0, tol, "unit normal");
                    let (pa, pb) = (d2(con.point_a.to_f64_array()), d2(con.point_b.to_f64_array()));
                    assert!(boundary_distance(pa, &world) < tol, "point_a on the boundary");
                    assert_close((pb - c).length(), radius, tol, "point_b on the ball");
                    assert!((pa + nrm * truth - pb).length() < tol, "point_b = point_a + d n");
                    let m = composite::manifold(&poly, &pose_a, &ball, &pose_b, V::Real::from_f64(margin))
                        .manifold;
                    assert!(!m.is_empty() && m.len() <= 2);
                    assert_close(m.deepest().unwrap().distance.to_f64(), truth, tol, "manifold depth");
                    contacts += 1;
                }
                beyond += usize::from(truth > margin + tol);
            }
        }
    }
    assert_mixed(hits, total, "balls overlapping concave polygons");
    assert!(contacts > 50 && beyond > 50, "contacts tested {contacts}, beyond the margin {beyond}");
}

#[test]
fn ball_queries_match_brute_force() {
    queries::<Vec2>(11, 2e-4);
    queries::<DVec2>(12, 1e-9);
}

/// Rotated rectangles against the comb and random stars: distance against the least
/// edge-edge distance (or 0 on overlap) over the polygon's own edges.
fn boxes<V: Vector2 + Space>(seed: u64, tol: f64)
where
    V::Rotation: RotF64<V> + FromParts,
{
    let mut r = rng(seed);
    let (mut hits, mut total) = (0, 0);
    for k in 0..30 {
        let shape: Vec<V> = if k % 3 == 0 {
            pts(&comb()).into_iter().map(|p: V| p * V::Real::from_f64(0.3)).collect()
        } else {
            star(&mut r, 12 + k)
        };
        let poly = ConcavePolygon::new(&shape);
        let pose_a: Pose<V> = common::pose(&mut r, 0.5);
        let world: Vec<DVec2> = shape.iter().map(|&p| d2(to_world_f64(&pose_a, p))).collect();
        let centre = world.iter().fold(DVec2::ZERO, |a, &b| a + b) / world.len() as f64;
        for _ in 0..20 {
            let he = V::new2(
                V::Real::from_f64(r.random_range(0.05..0.4)),
                V::Real::from_f64(r.random_range(0.02..0.2)),
            );
            let cub = Cuboid::new(he);
            let pb: Pose<V> = common::pose(&mut r, 1.2);
            let pose_b =
                Pose::new(pb.translation + V::from_f64_array([centre.x, centre.y, 0.0]), pb.rotation);
            let (hx, hy) = (he[0].to_f64(), he[1].to_f64());
            let corners: Vec<DVec2> = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
                .iter()
                .map(|&(x, y)| d2(to_world_f64(&pose_b, V::from_f64_array([x, y, 0.0]))))
                .collect();
            let truth = region_distance(&world, &corners);
            let out = composite::distance(&poly, &pose_a, &cub, &pose_b).value;
            assert_close(out.distance.to_f64(), truth, tol, "box distance");
            if truth > tol || truth == 0.0 {
                assert_eq!(composite::intersects(&poly, &pose_a, &cub, &pose_b).is_some(), truth == 0.0);
            }
            hits += usize::from(truth == 0.0);
            total += 1;
        }
    }
    assert_mixed(hits, total, "boxes overlapping concave polygons");
}

#[test]
fn box_queries_match_brute_force() {
    boxes::<Vec2>(21, 2e-4);
    boxes::<DVec2>(22, 1e-9);
}

/// A plank resting just above the flat top of the comb, across several pieces: one
/// manifold with the top's normal, every point on the top edge under the plank, at the
/// plank's height. Then sunk in: only the structure (the penetration goes through EPA).
fn plank<V: Vector2 + Space>(tol: f64) {
    let comb = ConcavePolygon::new(&pts::<V>(&comb()));
    assert!(comb.pieces().len() >= 3);
    let plank = Cuboid::new(V::new2(V::Real::from_f64(2.5), V::Real::from_f64(0.25)));
    let at = |y: f64| Pose::<V>::from_translation(V::new2(V::Real::from_f64(3.5), V::Real::from_f64(y)));
    let m = composite::manifold(&comb, &Pose::IDENTITY, &plank, &at(2.26), V::Real::from_f64(0.1)).manifold;
    assert!(!m.is_empty() && m.len() <= 2);
    assert!((d2(m.normal.to_f64_array()) - DVec2::Y).length() < tol, "normal {:?}", m.normal);
    for p in m.points() {
        let a = d2(p.point_a.to_f64_array());
        assert_close(a.y, 2.0, tol, "point on the top edge");
        assert!((1.0 - tol..=6.0 + tol).contains(&a.x), "point under the plank: {a}");
        assert_close(p.distance.to_f64(), 0.01, tol, "gap");
    }
    let c = composite::contact(&comb, &Pose::IDENTITY, &plank, &at(2.26), V::Real::from_f64(0.1))
        .map(|c| c.value)
        .unwrap();
    assert_close(c.distance.to_f64(), 0.01, tol, "contact gap");
    // Sunk 0.05: whatever the penetration solver says, the answer is finite and unit.
    let m = composite::manifold(&comb, &Pose::IDENTITY, &plank, &at(2.2), V::Real::from_f64(0.1)).manifold;
    assert!(!m.is_empty());
    assert_close(d2(m.normal.to_f64_array()).length(), 1.0, tol, "unit normal");
    assert!(m.points().iter().all(|p| p.distance.to_f64() <= tol && p.point_a.is_finite_vec()));
    let c = composite::contact(&comb, &Pose::IDENTITY, &plank, &at(2.2), V::Real::from_f64(0.0))
        .map(|c| c.value)
        .unwrap();
    assert!(c.distance.to_f64() <= tol && c.normal.is_finite_vec());
}

#[test]
fn plank_across_pieces() {
    plank::<Vec2>(1e-4);
    plank::<DVec2>(1e-9);
}
