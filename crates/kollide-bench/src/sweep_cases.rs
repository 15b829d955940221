//! The sweep rows: a ball and an ellipsoid swept through a soup of 1,000 random triangles.
//!
//! kollide: one `sweep_sphere` / `sweep_ellipsoid` call on the plain slice of triangles.
//! parry: `query::cast_shapes` of the mover against each triangle, the nearest kept (the
//! issue's contract; parry's casts have no box reject of their own). Parry has no
//! ellipsoid: its stand-in is the convex hull of 64 points on the ellipsoid (a Fibonacci
//! lattice mapped onto it), as a `ConvexPolyhedron`, which is inside the ellipsoid and
//! contains it shrunk by the hull's in-radius `rho` (measured, in the unit sphere's
//! space). So parry's time of impact must lie between kollide's for the ellipsoid and
//! kollide's for the ellipsoid shrunk by `rho`; that is the agreement rule of that row.
//! The ball row compares times of impact within `1e-3` (absolute, in units of the
//! displacement) and the hit/miss answers outside a `1e-3` band about grazing.

use crate::report::Row;
use crate::timing;
use glam::{Quat, Vec3};
use kollide::query::cast::{sweep, BackFaces, SweepOutcome, SweptShape};
use kollide::shape::Ellipsoid;
use kollide_bench::gen::{self, BenchRng};
use parry3d::query::{cast_shapes, ShapeCastOptions};
use parry3d::shape::{Ball, ConvexPolyhedron, Shape, Triangle};
use std::hint::black_box;

/// Triangles in the soup.
const TRIANGLES: usize = 1000;
/// Motions swept through it (the "pairs" of the rows).
const MOTIONS: usize = 200;
/// Half-size of the cube the soup fills.
const HALF: f32 = 10.0;
/// The ball's radius, the ellipsoid's semi-axes.
const RADIUS: f32 = 0.5;
const RADII: Vec3 = Vec3::new(0.6, 0.3, 0.45);
/// Displacement length: about half the motions hit something.
const REACH: f32 = 3.0;
/// Points on the ellipsoid for parry's stand-in.
const HULL_POINTS: usize = 64;

/// The soup: triangles of edge length about 1 to 2, anywhere in the cube.
fn soup(rng: &mut BenchRng) -> Vec<[Vec3; 3]> {
    (0..TRIANGLES)
        .map(|_| {
            let c = Vec3::new(
                gen::uniform(rng, -HALF, HALF),
                gen::uniform(rng, -HALF, HALF),
                gen::uniform(rng, -HALF, HALF),
            );
            let mut corner = || c + gen::unit_vec3(rng) * gen::uniform(rng, 0.5, 1.0);
            [corner(), corner(), corner()]
        })
        .collect()
}

/// Starts inside the cube (not overlapping anything, so every motion is a real sweep) and
/// displacements of length `REACH` in random directions, with random rotations.
fn motions(rng: &mut BenchRng, tris: &[[Vec3; 3]]) -> Vec<(Vec3, Vec3, Quat)> {
    let mut out = Vec::with_capacity(MOTIONS);
    while out.len() < MOTIONS {
        let lim = HALF - REACH;
        let start = Vec3::new(
            gen::uniform(rng, -lim, lim),
            gen::uniform(rng, -lim, lim),
            gen::uniform(rng, -lim, lim),
        );
        let disp = gen::unit_vec3(rng) * REACH;
        let rot = gen::rotation3(rng);
        let clear = |r: f32| {
            matches!(
                sweep(SweptShape::ball(start, r), Vec3::ZERO, tris, BackFaces::Hit, None).unwrap(),
                SweepOutcome::Miss
            )
        };
        if clear(RADII.max_element().max(RADIUS) + 0.01) {
            out.push((start, disp, rot));
        }
    }
    out
}

/// `n` points spread evenly over the unit sphere (a Fibonacci lattice).
fn fibonacci(n: usize) -> Vec<Vec3> {
    let golden = core::f64::consts::PI * (3.0 - 5.0f64.sqrt());
    (0..n)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - y * y).sqrt();
            let a = golden * i as f64;
            Vec3::new((r * a.cos()) as f32, y as f32, (r * a.sin()) as f32)
        })
        .collect()
}

/// The in-radius of the hull of unit vectors `pts` about the origin: the least support
/// value over many directions (an upper bound of the true one by about `1e-4`; `1e-3` is
/// taken off to be safe).
fn in_radius(pts: &[Vec3], rng: &mut BenchRng) -> f32 {
    let mut rho = f32::MAX;
    for _ in 0..100_000 {
        let u = gen::unit_vec3(rng);
        rho = rho.min(pts.iter().map(|p| p.dot(u)).fold(f32::MIN, f32::max));
    }
    rho - 1.0e-3
}

fn toi_of(o: SweepOutcome<Vec3>) -> Option<f32> {
    match o {
        SweepOutcome::Hit(h) => Some(h.toi),
        SweepOutcome::StartedWithin { .. } => Some(0.0),
        SweepOutcome::Miss => None,
    }
}

/// parry's earliest time of impact of `shape` at `pose` moving by `disp` over the soup.
fn parry_sweep(shape: &dyn Shape, pose: &parry3d::math::Pose, disp: Vec3, tris: &[Triangle]) -> Option<f32> {
    let options = ShapeCastOptions::with_max_time_of_impact(1.0);
    let mut best: Option<f32> = None;
    for tri in tris {
        if let Ok(Some(hit)) =
            cast_shapes(pose, disp, shape, &parry3d::math::Pose::IDENTITY, Vec3::ZERO, tri, options)
        {
            if best.is_none_or(|b| hit.time_of_impact < b) {
                best = Some(hit.time_of_impact);
            }
        }
    }
    best
}

/// parry with the box reject kollide does in front of each cast (the swept box of the
/// mover's bounding sphere of radius `reach` against the triangle's box): for the notes.
fn parry_sweep_boxed(
    shape: &dyn Shape,
    pose: &parry3d::math::Pose,
    disp: Vec3,
    reach: f32,
    tris: &[Triangle],
) -> Option<f32> {
    let options = ShapeCastOptions::with_max_time_of_impact(1.0);
    let (start, end) = (pose.translation, pose.translation + disp);
    let (lo, hi) = (start.min(end) - Vec3::splat(reach), start.max(end) + Vec3::splat(reach));
    let mut best: Option<f32> = None;
    for tri in tris {
        let (tlo, thi) = (tri.a.min(tri.b).min(tri.c), tri.a.max(tri.b).max(tri.c));
        if tlo.cmpgt(hi).any() || thi.cmplt(lo).any() {
            continue;
        }
        if let Ok(Some(hit)) =
            cast_shapes(pose, disp, shape, &parry3d::math::Pose::IDENTITY, Vec3::ZERO, tri, options)
        {
            if best.is_none_or(|b| hit.time_of_impact < b) {
                best = Some(hit.time_of_impact);
            }
        }
    }
    best
}

/// Runs the two rows (those `wanted` by name). Returns them and the notes to print under
/// the table.
pub fn run(seed: u64, wanted: &dyn Fn(&str) -> bool) -> (Vec<Row>, String) {
    let mut rng = gen::rng(seed);
    let tris = soup(&mut rng);
    let moves = motions(&mut rng, &tris);
    let ptris: Vec<Triangle> = tris.iter().map(|t| Triangle::new(t[0], t[1], t[2])).collect();
    let mut rows = Vec::new();
    let mut notes = String::new();

    if wanted("ball-soup1000") {
        let ball = Ball::new(RADIUS);
        let (mut hits, mut differ) = (0, 0);
        for (i, &(start, disp, _)) in moves.iter().enumerate() {
            let k =
                toi_of(sweep(SweptShape::ball(start, RADIUS), disp, &tris, BackFaces::Hit, None).unwrap());
            let p = parry_sweep(&ball, &parry3d::math::Pose::from_translation(start), disp, &ptris);
            hits += usize::from(k.is_some());
            let agree = match (k, p) {
                (Some(a), Some(b)) => (a - b).abs() <= 1.0e-3,
                (None, None) => true,
                // One side grazes: the other must be a graze too (a ball a little larger or
                // smaller decides it).
                _ => {
                    let graze = |r: f32| {
                        toi_of(sweep(SweptShape::ball(start, r), disp, &tris, BackFaces::Hit, None).unwrap())
                            .is_some()
                    };
                    graze(RADIUS + 1.0e-3) && !graze(RADIUS - 1.0e-3)
                }
            };
            if !agree {
                differ += 1;
                eprintln!("  DISAGREE ball-soup1000 motion {i}: kollide {k:?}, parry {p:?}");
            }
        }
        let mut kollide = || {
            for &(start, disp, _) in black_box(&moves) {
                black_box(
                    sweep(SweptShape::ball(start, RADIUS), disp, black_box(&tris), BackFaces::Hit, None)
                        .unwrap(),
                );
            }
        };
        let mut parry = || {
            for &(start, disp, _) in black_box(&moves) {
                black_box(parry_sweep(&ball, &parry3d::math::Pose::from_translation(start), disp, &ptris));
            }
        };
        let mut boxed = || {
            for &(start, disp, _) in black_box(&moves) {
                let pose = parry3d::math::Pose::from_translation(start);
                black_box(parry_sweep_boxed(&ball, &pose, disp, RADIUS, &ptris));
            }
        };
        // Every triangle through the whole per-triangle test: a ball whose swept box holds
        // the entire soup (its path crosses the cube), alone, per triangle.
        let across = [(Vec3::splat(-HALF - 2.0), Vec3::splat(2.0 * HALF + 4.0))];
        let mut full = || {
            for &(start, disp) in black_box(&across) {
                black_box(
                    sweep(SweptShape::ball(start, RADIUS), disp, black_box(&tris), BackFaces::Hit, None)
                        .unwrap(),
                );
            }
        };
        let t = timing::measure(MOTIONS, &mut [&mut kollide, &mut parry, &mut boxed]);
        let t_full = timing::measure(TRIANGLES, &mut [&mut full]);
        rows.push(row("ball-soup1000", hits, differ, t[0], t[1]));
        notes.push_str(&format!(
            "ball-soup1000: kollide {:.1} ns per triangle on average ({:.1} ns per triangle when every triangle \
             passes the box test); parry with the same box reject in front of its casts: {:.0} ns per sweep \
             (kollide {:.1}x faster).\n",
            t[0] / TRIANGLES as f64,
            t_full[0],
            t[2],
            t[2] / t[0]
        ));
    }

    if wanted("ellipsoid-soup1000") {
        let unit = fibonacci(HULL_POINTS);
        let rho = in_radius(&unit, &mut rng);
        let hull_pts: Vec<Vec3> = unit.iter().map(|&u| u * RADII).collect();
        let hull =
            ConvexPolyhedron::from_convex_hull(&hull_pts).expect("64 points on an ellipsoid span a solid");
        let (full, shrunk) = (Ellipsoid::new(RADII), Ellipsoid::new(RADII * rho));
        let (mut hits, mut differ) = (0, 0);
        for (i, &(start, disp, rot)) in moves.iter().enumerate() {
            let pose = kollide::math::Pose3::new(start, rot);
            let k = toi_of(
                sweep(SweptShape::ellipsoid(&full, &pose), disp, &tris, BackFaces::Hit, None).unwrap(),
            );
            let inner = toi_of(
                sweep(SweptShape::ellipsoid(&shrunk, &pose), disp, &tris, BackFaces::Hit, None).unwrap(),
            );
            let p = parry_sweep(&hull, &parry3d::math::Pose::from_parts(start, rot), disp, &ptris);
            hits += usize::from(k.is_some());
            // The hull is between the shrunk and the full ellipsoid: so is its time of impact.
            let agree = match (k, p, inner) {
                (None, None, _) => true,
                (None, Some(_), _) => false,
                (Some(_), None, inner) => inner.is_none(),
                (Some(a), Some(b), inner) => b >= a - 1.0e-3 && inner.is_none_or(|c| b <= c + 1.0e-3),
            };
            if !agree {
                differ += 1;
                eprintln!("  DISAGREE ellipsoid-soup1000 motion {i}: kollide {k:?} (shrunk {inner:?}), parry hull {p:?}");
            }
        }
        let mut kollide = || {
            for &(start, disp, rot) in black_box(&moves) {
                let pose = kollide::math::Pose3::new(start, rot);
                black_box(
                    sweep(SweptShape::ellipsoid(&full, &pose), disp, black_box(&tris), BackFaces::Hit, None)
                        .unwrap(),
                );
            }
        };
        let mut parry = || {
            for &(start, disp, rot) in black_box(&moves) {
                black_box(parry_sweep(&hull, &parry3d::math::Pose::from_parts(start, rot), disp, &ptris));
            }
        };
        let t = timing::measure(MOTIONS, &mut [&mut kollide, &mut parry]);
        rows.push(row("ellipsoid-soup1000", hits, differ, t[0], t[1]));
        notes.push_str(&format!(
            "ellipsoid-soup1000: parry has no ellipsoid; its column is the convex hull of {HULL_POINTS} points on the \
             ellipsoid (ConvexPolyhedron, in-radius {rho:.3} of the unit sphere's space), so parry's time of impact \
             is checked to lie between kollide's for the ellipsoid and for the ellipsoid shrunk by that factor.\n"
        ));
    }
    (rows, notes)
}

fn row(case: &str, hits: usize, disagreements: usize, kollide_ns: f64, parry_ns: f64) -> Row {
    Row {
        case: case.to_string(),
        query: "sweep",
        overlap: hits as f64 / MOTIONS as f64,
        pairs: MOTIONS,
        disagreements,
        distance_detail: None,
        kollide_ns,
        parry_ns,
        target: 3.0,
    }
}
