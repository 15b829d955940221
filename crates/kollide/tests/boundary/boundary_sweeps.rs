//! Swept spheres at the boundary, judged by the f64 oracle of `common/sweep_oracle.rs`:
//! paths that meet a triangle's edge at a shallow angle (30 degrees and below), paths
//! tangent to an edge's cylinder, a corner's sphere or the face's slab (or passing them by
//! a small gap, or cutting in slightly), and spheres starting touching a feature.
//!
//! The sweep's conventions (see `sweep_sphere`): a path coming no deeper than the rounding
//! band is not a hit (nor is it wrong to report it); one going deeper is, no earlier than
//! the first time the centre is within the radius plus the band, no later than within the
//! radius less it; a sphere overlapping by more than the band at the start is
//! `StartedWithin`, and one touching within the band and moving away, or along, gets
//! nothing from that triangle.

use crate::common::boundary::{random_unit, Tally};
use crate::common::rng;
use crate::sweep_oracle::{closest, first_contact, Truth};
use glam::{DVec3, Vec3};
use kollide::math::{Real, Vector3};
use kollide::query::cast::{sweep, BackFaces, SweepOutcome, SweptShape};
use kollide::query::Space;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A random triangle of size about `size` about `centre`, not a sliver.
fn triangle(rng: &mut ChaCha8Rng, centre: DVec3, size: f64) -> [DVec3; 3] {
    loop {
        let t = [0, 1, 2].map(|_| centre + random_unit(rng, 3) * size * rng.random_range(0.3..1.0));
        if (t[1] - t[0]).cross(t[2] - t[0]).length() > 0.3 * size * size {
            return t;
        }
    }
}

/// Sweeps built at the boundary of one triangle (with a second triangle sharing the edge
/// now and then, so that seams are crossed too).
pub fn boundary_sweeps<V: Vector3 + Space>(seed: u64, cases: usize) -> Tally {
    let f32 = V::Real::EPSILON.to_f64() > 1e-10;
    let mut rng = rng(seed);
    let mut tally = Tally::default();
    for _ in 0..cases {
        let size = 10f64.powf(rng.random_range(-1.0..1.0));
        let centre = random_unit(&mut rng, 3) * size * 10f64.powf(rng.random_range(-1.0..2.0));
        let tri = triangle(&mut rng, centre, size);
        let radius = size * 10f64.powf(rng.random_range(-1.5..0.5));
        let normal = (tri[1] - tri[0]).cross(tri[2] - tri[0]).normalize();
        // The feature touched at time t_c, the outward normal there, and the point.
        let i = rng.random_range(0..3);
        let (a, b) = (tri[i], tri[(i + 1) % 3]);
        let edge = (b - a).normalize();
        let out_of_edge = edge.cross(normal); // in the plane, away from the triangle (either winding)
        let inside = (tri[(i + 2) % 3] - a).dot(out_of_edge) < 0.0;
        let out_of_edge = if inside { out_of_edge } else { -out_of_edge };
        let side = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        let (feature, n, p) = match rng.random_range(0..3) {
            0 => {
                // An edge: a normal in its wedge (between the face's and the edge's outward).
                let s = rng.random_range(0.0..std::f64::consts::PI);
                let n = (normal * side * s.sin() + out_of_edge * s.cos()).normalize();
                ("edge", n, a + (b - a) * rng.random_range(0.05..0.95))
            }
            1 => {
                // A corner: a normal pointing away from the triangle at it.
                let mut n = random_unit(&mut rng, 3);
                let towards = (tri[(i + 1) % 3] + tri[(i + 2) % 3]) * 0.5 - a;
                if n.dot(towards) > 0.0 {
                    n -= towards.normalize() * 2.0 * n.dot(towards.normalize());
                }
                ("corner", n.normalize(), a)
            }
            _ => {
                let (u, v) = loop {
                    let (u, v) = (rng.random_range(0.05..0.9), rng.random_range(0.05..0.9));
                    if u + v <= 0.95 {
                        break (u, v);
                    }
                };
                ("face", normal * side, tri[0] + (tri[1] - tri[0]) * u + (tri[2] - tri[0]) * v)
            }
        };
        let tangent = {
            let t = random_unit(&mut rng, 3);
            let t = t - n * t.dot(n);
            if t.length() > 1e-3 {
                t.normalize()
            } else {
                n.any_orthonormal_vector()
            }
        };
        let angle = rng.random_range(1.0f64..30.0).to_radians();
        let (path, dir, gap) = match rng.random_range(0..5) {
            0 => ("tangent", tangent, 0.0),
            1 => ("cutting in", (tangent - n * 10f64.powf(rng.random_range(-6.0..-2.0))).normalize(), 0.0),
            2 => ("passing by", tangent, radius * 10f64.powf(rng.random_range(-7.0..-2.0))),
            3 => (
                "along the edge at an angle",
                (edge * angle.cos() - out_of_edge * angle.sin()).normalize(),
                0.0,
            ),
            _ => (
                "starting on it",
                if rng.random_bool(0.5) { tangent - n * 0.3 } else { tangent + n * 0.3 },
                0.0,
            ),
        };
        let length = radius * rng.random_range(0.5..4.0);
        let t_c = if path == "starting on it" { 0.0 } else { rng.random_range(0.2..0.8) };
        let along_edge = path == "along the edge at an angle";
        // The centre at t_c: the radius (and the gap) out along n; the edge's own path is
        // aimed at the edge line from outside the triangle (touching the edge cylinder).
        let touch = if along_edge { p + out_of_edge * radius } else { p + n * (radius + gap) };
        let displacement = dir * length;
        let start = touch - displacement * t_c;
        // A sphere resting on a floor of two triangles (a flat seam) and sliding across the
        // seam at an angle (30 degrees and below): nothing stops it.
        if rng.random_bool(0.15) {
            let far = (a + b) * 0.5 + out_of_edge * size * 0.8;
            let floor = [tri, [b, a, far]];
            let on = a + (b - a) * rng.random_range(0.2..0.8);
            let slide = (edge * angle.cos()
                + out_of_edge * angle.sin() * if rng.random_bool(0.5) { 1.0 } else { -1.0 })
            .normalize();
            let lift = normal * side * radius;
            let start = on + lift - slide * length * 0.5;
            judge::<V>(
                &floor,
                start,
                slide * length,
                radius,
                f32,
                &mut tally,
                "sliding across a flat seam".into(),
            );
            continue;
        }
        // Now and then a neighbour across the edge, turned about it (a seam or a crease).
        if rng.random_bool(0.3) {
            let far = (a + b) * 0.5 + out_of_edge * size * 0.8 + normal * size * rng.random_range(-0.5..0.5);
            let neighbour = [b, a, far];
            let soup = [tri, neighbour];
            judge::<V>(
                &soup,
                start,
                displacement,
                radius,
                f32,
                &mut tally,
                format!("{feature}, {path}, seam"),
            );
        } else {
            judge::<V>(&[tri], start, displacement, radius, f32, &mut tally, format!("{feature}, {path}"));
        }
    }
    tally
}

fn judge<V: Vector3 + Space>(
    soup: &[[DVec3; 3]],
    start: DVec3,
    displacement: DVec3,
    radius: f64,
    f32: bool,
    tally: &mut Tally,
    kind: String,
) {
    let v = |p: DVec3| V::from_f64_array(p.to_array());
    let round = |p: DVec3| if f32 { p.as_vec3().as_dvec3() } else { p };
    let soup: Vec<[DVec3; 3]> = soup.iter().map(|t| t.map(round)).collect();
    let (c, d) = (round(start), round(displacement));
    let r = if f32 { radius as f32 as f64 } else { radius };
    let tris: Vec<[V; 3]> = soup.iter().map(|t| t.map(v)).collect();
    let out = sweep(SweptShape::ball(v(c), V::Real::from_f64(r)), v(d), &tris, BackFaces::Hit, None).unwrap();
    // The oracle about the start (exact differences of nearby numbers).
    let local: Vec<Vec<DVec3>> = soup.iter().map(|t| t.iter().map(|&p| p - c).collect()).collect();
    let extent = local.iter().flatten().map(|p| p.length()).fold(0.0, f64::max) + r;
    let eps = V::Real::EPSILON.to_f64();
    // The sweep's band (64 ε of the local size), with room for the rounding of the inputs.
    let band = 256.0 * eps * (extent + d.length() + c.abs().max_element());
    let truths: Vec<Truth> = local.iter().map(|t| first_contact(t, DVec3::ZERO, d, r)).collect();
    let dist_at = |t: f64| local.iter().map(|tri| closest(tri, d * t).dist).fold(f64::MAX, f64::min);
    let deepest_start = truths
        .iter()
        .filter_map(|t| if let Truth::Start { dist, .. } = t { Some(*dist) } else { None })
        .fold(f64::MAX, f64::min);
    let wrong = match out {
        _ if deepest_start < r - band => match out {
            SweepOutcome::StartedWithin { .. } => None,
            o => Some(format!("starts {:e} deep, got {o:?}", r - deepest_start)),
        },
        SweepOutcome::StartedWithin { distance, .. } => {
            // Within the band at the start: allowed (touching) only if it is that close.
            (deepest_start > r + band)
                .then(|| format!("starts {:e} clear, got StartedWithin {distance:?}", deepest_start - r))
        }
        SweepOutcome::Miss => {
            // A miss is wrong when some triangle is entered deeper than the band, after a
            // start clear of the band (a touching start moving in is a hit at 0 too).
            let deep = truths.iter().any(|t| matches!(t, Truth::Hit { depth, .. } if *depth > band));
            let touching_in = deepest_start <= r + band && dist_at(1e-3) < deepest_start - band;
            (deep || touching_in).then(|| {
                format!(
                    "goes {:e} deep, got a miss",
                    truths
                        .iter()
                        .filter_map(|t| if let Truth::Hit { depth, .. } = t { Some(*depth) } else { None })
                        .fold(0.0, f64::max)
                )
            })
        }
        SweepOutcome::Hit(h) => {
            let toi = h.toi.to_f64();
            let at = dist_at(toi);
            let point = DVec3::from_array(h.point.to_f64_array()) - c;
            let normal = DVec3::from_array(h.normal.to_f64_array());
            let on = local.iter().map(|t| closest(t, point).dist).fold(f64::MAX, f64::min);
            let centre = d * toi;
            if at > r + band {
                Some(format!("hit at {toi}, where the centre is {:e} clear", at - r))
            } else if at < r - band && toi > 0.0 && dist_at(0.0) > r - band {
                // Late: already deeper than the band (the first touch came before).
                Some(format!("hit at {toi}, where the centre is {:e} deep", r - at))
            } else if on > band {
                Some(format!("hit point {:e} off the triangles", on))
            } else if ((centre - point).normalize() - normal).length() > 1e-3
                && (centre - point).length() > r * 0.5
            {
                Some(format!(
                    "normal {normal:?} is not from the point towards the centre {:?}",
                    (centre - point).normalize()
                ))
            } else {
                None
            }
        }
    };
    let wrong = wrong.map(|w| format!("{w}: centre {c:?} radius {r} by {d:?}, soup {soup:?}"));
    tally.record(kind, wrong);
}

#[test]
fn sweeps_at_the_boundary() {
    boundary_sweeps::<glam::DVec3>(41, 4000).assert_clean("boundary sweeps, f64", 4000);
    boundary_sweeps::<Vec3>(42, 4000).assert_clean("boundary sweeps, f32", 4000);
}

#[test]
#[ignore = "long form: cargo test --release -p kollide --test all boundary_sweeps -- --ignored"]
fn boundary_sweeps_long() {
    boundary_sweeps::<glam::DVec3>(141, 100_000).assert_clean("boundary sweeps, f64", 100_000);
    boundary_sweeps::<Vec3>(142, 100_000).assert_clean("boundary sweeps, f32", 100_000);
}
