//! Scenes for the swept sphere / ellipsoid (circle / ellipse): the classic failures of the
//! method (sticking on the seams of a floor, passing through a shallow ridge or a turned
//! house), grazes and ellipsoids on planes with closed forms, and bad or degenerate input.
//! The random soups against the oracle are in `cast_sweep.rs`.

use crate::common;
use crate::sweep_dim;

use common::{rng, FromParts, RotF64};
use glam::{DVec2, DVec3, Vec2, Vec3};
use kollide::math::{Pose, Real};
use kollide::query::cast::{BackFaces, SweepError, SweepFeature, SweepOutcome};
use kollide::shape::Ellipsoid;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sweep_dim::{check, eps, f, frame, point, real, seen, seen_unit, v, Dim, Tally, Tol};

/// Lifts a scene drawn in the (x, y) plane to the dimension: a segment in 2D, the strip
/// of two triangles it sweeps along z in `[-zr, zr]` in 3D (front on the same side).
fn strip<V: Dim>(a: DVec3, b: DVec3, zr: f64) -> Vec<Vec<DVec3>>
where
    V::Rotation: FromParts + RotF64<V>,
{
    if V::DIM == 2 {
        return vec![vec![a, b]];
    }
    let (dz, d2) = (DVec3::Z * zr, DVec3::Z * zr);
    // Front of segment (a, b) in 2D: (b - a) turned clockwise; (b - a) x z gives the same.
    vec![vec![a - dz, b - dz, b + d2], vec![a - dz, b + d2, a + d2]]
}

fn items_of<V: Dim>(scene: &[Vec<DVec3>]) -> Vec<V::Item>
where
    V::Rotation: FromParts + RotF64<V>,
{
    scene.iter().map(|it| V::item(it)).collect()
}

/// A sphere resting on a floor of many pieces (at a height that does not round evenly,
/// tilted by a random rotation in 3D) slides along it in many directions without a hit,
/// across every seam; sliding into a wall it stops at the closed-form time, on the wall.
fn floor_and_wall<V: Dim>(seed: u64)
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut r = rng(seed);
    let (h, rad, wall_x) = (0.3, 0.5, 3.0);
    let mut scene = Vec::new();
    for i in -6..6 {
        let (x0, x1) = (0.5 * i as f64, 0.5 * (i + 1) as f64);
        // Floor pieces front up: in 2D from +x to -x (clockwise turn of -x is +y).
        scene.extend(strip::<V>(DVec3::new(x1, h, 0.0), DVec3::new(x0, h, 0.0), 0.25));
    }
    let walls = scene.len();
    scene.extend(strip::<V>(DVec3::new(wall_x, h, 0.0), DVec3::new(wall_x, h + 3.0, 0.0), 3.0));
    // 3D: the floor strips cover z in [-0.25, 0.25] only; tile them along z.
    if V::DIM == 3 {
        let base: Vec<Vec<DVec3>> = scene[..walls].to_vec();
        for k in [-4.0, -3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 4.0] {
            scene.extend(base.iter().map(|t| t.iter().map(|&p| p + DVec3::Z * 0.5 * k).collect::<Vec<_>>()));
        }
    }
    let turn = if V::DIM == 3 {
        glam::DQuat::from_rotation_y(0.3) * glam::DQuat::from_rotation_x(0.2)
    } else {
        glam::DQuat::IDENTITY
    };
    let place = |p: DVec3| turn * p + DVec3::new(0.25, -0.1, 0.125);
    let world: Vec<Vec<DVec3>> = scene.iter().map(|t| t.iter().map(|&p| place(p)).collect()).collect();
    let items = items_of::<V>(&world);
    let up = turn * DVec3::Y;
    let tol = 1e3 * eps::<V>();
    for case in 0..400 {
        // Over the floor (x in [-3, 3], z in [-2.25, 2.25]).
        let mut p = point::<V>(&mut r, 1.5);
        p.x *= 4.0 / 3.0;
        p.y = h + rad;
        let mut dir = point::<V>(&mut r, 1.0);
        dir.y = 0.0;
        let mut d = dir.normalize_or(DVec3::X) * r.random_range(0.1..2.0);
        // Stay short of the wall.
        let room = wall_x - rad - 0.01 - p.x;
        if d.x > room {
            d *= room / d.x;
        }
        let (c, dv) = (v::<V>(place(p)), v::<V>(turn * d));
        let out = V::sweep(c, real::<V>(rad), dv, &items, BackFaces::Hit);
        assert!(matches!(out, SweepOutcome::Miss), "case {case}: sliding from {p} by {d} gave {out:?}");
        // Into the wall, along x (and some z).
        let dz = if V::DIM == 3 { r.random_range(-0.3..0.3) } else { 0.0 };
        let d = DVec3::new(wall_x - p.x, 0.0, dz);
        let out = V::sweep(c, real::<V>(rad), v::<V>(turn * d), &items, BackFaces::Hit);
        let SweepOutcome::Hit(hit) = out else { panic!("case {case}: into the wall gave {out:?}") };
        let t = (wall_x - rad - p.x) / d.x;
        common::assert_close(hit.toi.to_f64(), t, tol * 10.0, "wall toi");
        assert!(
            (walls..walls + if V::DIM == 3 { 2 } else { 1 }).contains(&hit.index),
            "wall index {}",
            hit.index
        );
        assert!((f(hit.normal) - turn * DVec3::NEG_X).length() < tol, "wall normal {:?}", hit.normal);
        // A little into the floor: a hit at once.
        let down = v::<V>(turn * (DVec3::new(1.0, -0.1, 0.0)));
        let out = V::sweep(c, real::<V>(rad), down, &items, BackFaces::Hit);
        let SweepOutcome::Hit(hit) = out else { panic!("case {case}: into the floor gave {out:?}") };
        let wall = walls..walls + if V::DIM == 3 { 2 } else { 1 };
        assert!(
            hit.toi.to_f64() == 0.0 && !wall.contains(&hit.index),
            "case {case}: into the floor gave {hit:?}"
        );
        assert!((f(hit.normal) - up).length() < 1e-2, "floor normal {:?}", hit.normal);
    }
}

#[test]
fn sliding_on_a_floor_never_sticks_and_walls_stop() {
    floor_and_wall::<DVec3>(31);
    floor_and_wall::<Vec3>(32);
    floor_and_wall::<DVec2>(33);
    floor_and_wall::<Vec2>(34);
}

/// The oracle's answer for a scene, checked against the sweep of a sphere (`None`) or an
/// ellipsoid at `pose`; returns whether the oracle saw a hit.
fn against_oracle<V: Dim>(
    scene: &[Vec<DVec3>],
    c: DVec3,
    d: DVec3,
    shape: Option<(DVec3, V::Rotation)>,
    rad: f64,
    tally: &mut Tally,
    what: &str,
) where
    V::Rotation: FromParts + RotF64<V>,
{
    let items = items_of::<V>(scene);
    let corners: Vec<Vec<DVec3>> = items.iter().map(V::corners).collect();
    let (cv, dv) = (v::<V>(c), v::<V>(d));
    let e = eps::<V>();
    let tol = |s: f64| Tol {
        band: 2e3 * e * s,
        toi: 1e2 * e * s,
        len: 1e3 * e * s,
        margin: 1e4 * e * s,
        unit: 10.0 * e,
        coords: 40.0 * e,
    };
    match shape {
        None => {
            let rv = real::<V>(rad);
            let got = seen(V::sweep(cv, rv, dv, &items, BackFaces::Hit));
            check(&got, &corners, f(cv), f(dv), rv.to_f64(), &tol(4.0), tally, what);
        }
        Some((radii, rot)) => {
            let el = Ellipsoid::new(v::<V>(radii));
            let pose = Pose::new(cv, rot);
            let fr = frame(&pose, el.radii);
            let got = seen_unit(seen(V::sweep_ell(&el, &pose, dv, &items, BackFaces::Hit)), &fr);
            let unit: Vec<Vec<DVec3>> =
                corners.iter().map(|it| it.iter().map(|&p| fr.to_unit(p)).collect()).collect();
            check(&got, &unit, DVec3::ZERO, fr.vec_to_unit(f(dv)), 1.0, &tol(40.0), tally, what);
        }
    }
}

/// A sharp 30-degree ridge (two faces meeting at an edge along z) met from every side,
/// including along directions at 30 degrees to the edge, and the concave 30-degree corner
/// between a floor and a ramp met by a sphere sliding along the floor.
fn ridge<V: Dim>(seed: u64)
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut r = rng(seed);
    let half = 15f64.to_radians();
    let (up, down) =
        (DVec3::new(-half.cos(), half.sin(), 0.0) * 5.0, DVec3::new(-half.cos(), -half.sin(), 0.0) * 5.0);
    // Fronts outwards: the upper face up, the lower face down.
    let mut scene = strip::<V>(up, DVec3::ZERO, 5.0);
    scene.extend(strip::<V>(DVec3::ZERO, down, 5.0));
    let mut tally = Tally::default();
    for case in 0..1000 {
        let rad = r.random_range(0.05..0.5);
        // On a face or the edge.
        let x = if case % 4 == 0 { 0.0 } else { r.random_range(-0.3..0.0) };
        let target = DVec3::new(x, x * half.tan() * if r.random_bool(0.5) { 1.0 } else { -1.0 }, 0.0);
        let mut dir = point::<V>(&mut r, 1.0).normalize_or(DVec3::X);
        if dir.x < 0.2 {
            dir.x = 0.2 + dir.x.abs();
        }
        if V::DIM == 3 && case % 2 == 0 {
            // At 30 degrees to the edge.
            let a = r.random_range(0.0..std::f64::consts::TAU);
            dir = DVec3::new(
                0.5 * a.cos().abs(),
                0.5 * a.sin(),
                30f64.to_radians().cos() * if a > 3.0 { 1.0 } else { -1.0 },
            );
        }
        let start = target + dir.normalize() * (rad + r.random_range(0.2..2.0));
        let d = (target - start) * 1.5;
        let shape = (case % 3 == 0).then(|| (DVec3::new(0.3, 0.1, 0.2), common::rotation::<V>(&mut r)));
        let before = tally.hits + tally.within + tally.ambiguous;
        against_oracle::<V>(&scene, start, d, shape, rad, &mut tally, &format!("ridge case {case}"));
        // Aimed at the ridge: every one that starts clear hits.
        assert!(tally.hits + tally.within + tally.ambiguous == before + 1, "ridge case {case}: no hit");
    }
    assert!(tally.ambiguous * 100 < tally.cases && tally.within * 10 < tally.cases, "{tally:?}");
    // The concave corner: floor y = 0 for x < 0, ramp up at 30 degrees for x > 0.
    let ramp = 30f64.to_radians();
    let mut scene = strip::<V>(DVec3::ZERO, DVec3::new(-5.0, 0.0, 0.0), 5.0);
    scene.extend(strip::<V>(DVec3::new(5.0 * ramp.cos(), 5.0 * ramp.sin(), 0.0), DVec3::ZERO, 5.0));
    let items = items_of::<V>(&scene);
    for rad in [0.1, 0.5, 1.0] {
        let x0 = -3.0;
        let out = V::sweep(
            v::<V>(DVec3::new(x0, rad, 0.0)),
            real::<V>(rad),
            v::<V>(DVec3::X * 4.0),
            &items,
            BackFaces::Hit,
        );
        let SweepOutcome::Hit(hit) = out else { panic!("concave corner: {out:?}") };
        // The centre touches the ramp plane (normal (-sin, cos)) at x = -r (1 - cos) / sin.
        let x = -rad * (1.0 - ramp.cos()) / ramp.sin();
        common::assert_close(hit.toi.to_f64(), (x - x0) / 4.0, 1e2 * eps::<V>(), "concave corner toi");
        assert_eq!(hit.feature, SweepFeature::Face);
        assert!((f(hit.normal) - DVec3::new(-ramp.sin(), ramp.cos(), 0.0)).length() < 1e2 * eps::<V>());
    }
}

#[test]
fn shallow_ridges_are_never_passed_through() {
    ridge::<DVec3>(41);
    ridge::<Vec3>(42);
    ridge::<DVec2>(43);
    ridge::<Vec2>(44);
}

/// A box-shaped house of 12 triangles turned 30 degrees about the vertical, spheres and
/// ellipsoids thrown at its walls, edges and corners from all around: every one hits, at
/// the oracle's time.
#[test]
fn the_turned_house_is_always_hit() {
    fn house<V: Dim>(seed: u64)
    where
        V::Rotation: FromParts + RotF64<V>,
    {
        let mut r = rng(seed);
        let h = DVec3::new(2.0, 1.25, 1.5);
        let turn = glam::DQuat::from_rotation_y(30f64.to_radians());
        let at = DVec3::new(10.0, 0.0, -4.0);
        let corner = |i: usize| {
            turn * (h * DVec3::new([-1.0, 1.0][i & 1], [-1.0, 1.0][(i >> 1) & 1], [-1.0, 1.0][i >> 2])) + at
        };
        // Each side as two triangles, wound outwards.
        let sides = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
        let scene: Vec<Vec<DVec3>> = sides
            .iter()
            .flat_map(|s| {
                [
                    vec![corner(s[0]), corner(s[1]), corner(s[2])],
                    vec![corner(s[0]), corner(s[2]), corner(s[3])],
                ]
            })
            .collect();
        let mut tally = Tally::default();
        for case in 0..600 {
            // At a corner, an edge's middle or anywhere on a side.
            let target = match case % 3 {
                0 => corner(r.random_range(0..8)),
                1 => corner(r.random_range(0..8)).lerp(corner(r.random_range(0..8)), 0.5),
                _ => {
                    let t = &scene[r.random_range(0..12)];
                    let (u, w) = (r.random_range(0.0..1.0), r.random_range(0.0..1.0));
                    let (u, w) = if u + w > 1.0 { (1.0 - u, 1.0 - w) } else { (u, w) };
                    t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * w
                }
            };
            let start = at + gen_unit(&mut r) * r.random_range(4.0..8.0);
            let d = (target - start) * 1.2;
            let shape = (case % 2 == 1).then(|| (DVec3::new(0.4, 0.2, 0.3), common::rotation::<V>(&mut r)));
            let before = tally.hits + tally.ambiguous;
            against_oracle::<V>(&scene, start, d, shape, 0.3, &mut tally, &format!("house case {case}"));
            assert!(tally.hits + tally.ambiguous == before + 1, "house case {case}: not a hit ({tally:?})");
        }
        assert!(tally.ambiguous * 50 < tally.cases, "{tally:?}");
    }
    fn gen_unit(r: &mut ChaCha8Rng) -> DVec3 {
        point::<DVec3>(r, 1.0).normalize_or(DVec3::Y)
    }
    house::<DVec3>(51);
    house::<Vec3>(52);
}

/// Grazing an edge (3D) or a corner (both) at a distance `r (1 - depth)` from it, turned by
/// a random rotation: found at the closed-form time when deeper than rounding, not a hit
/// when only touching or missing.
fn grazes<V: Dim>(seed: u64, depth: f64)
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut r = rng(seed);
    for case in 0..200 {
        let rot = if V::DIM == 3 {
            glam::DQuat::from_rotation_arc(DVec3::Y, point::<V>(&mut r, 1.0).normalize())
        } else {
            glam::DQuat::from_rotation_z(r.random_range(0.0..6.0))
        };
        let at = point::<V>(&mut r, 5.0);
        let place = |p: DVec3| rot * p + at;
        let rad = r.random_range(0.1..1.0);
        // Corner: the triangle (segment) lies in x <= 0 and touches x = 0 at the origin
        // only; the path runs along y at x = D. Edge (3D): the edge is the z axis, the face
        // in y = 0, x <= 0, the path in z = 0 along (-1, 1) / sqrt 2 passing at D.
        let edge = V::DIM == 3 && case % 2 == 0;
        let item: Vec<DVec3> = match (V::DIM, edge) {
            (2, _) => vec![DVec3::ZERO, DVec3::new(-2.0, 0.3, 0.0)],
            (_, false) => vec![DVec3::ZERO, DVec3::new(-2.0, 0.0, 1.0), DVec3::new(-2.0, 0.3, -1.0)],
            _ => vec![DVec3::new(0.0, 0.0, -1.0), DVec3::new(0.0, 0.0, 1.0), DVec3::new(-2.0, 0.0, 0.0)],
        };
        let items = [V::item(&item.iter().map(|&p| place(p)).collect::<Vec<_>>())];
        let gap = rad * (1.0 - depth);
        let (closest, dir) = if edge {
            (DVec3::new(1.0, 1.0, 0.0).normalize() * gap, DVec3::new(-1.0, 1.0, 0.0).normalize())
        } else {
            (DVec3::new(gap, 0.0, 0.0), DVec3::Y)
        };
        let start = closest - dir * 3.0;
        let (c, d) = (v::<V>(place(start)), v::<V>(rot * (dir * 6.0)));
        let out = V::sweep(c, real::<V>(rad), d, &items, BackFaces::Hit);
        if depth <= 0.0 {
            assert!(matches!(out, SweepOutcome::Miss), "case {case}: a touch at depth {depth} gave {out:?}");
            continue;
        }
        let SweepOutcome::Hit(hit) = out else {
            panic!("case {case}: a graze at depth {depth} gave {out:?}")
        };
        let s = (rad * rad - gap * gap).sqrt();
        // A graze moves fast along the path for a small change of distance: the time is good
        // to the rounding of the distances over the approach cosine s / r.
        let tol = 1e2 * eps::<V>() * (6.0 + at.length()) / (s / rad) / 6.0;
        common::assert_close(hit.toi.to_f64(), (3.0 - s) / 6.0, tol, "graze toi");
        assert_eq!(hit.feature, if edge { SweepFeature::Edge } else { SweepFeature::Vertex });
        assert!(
            (f(hit.point) - place(DVec3::ZERO)).length() < 1e3 * eps::<V>() * (1.0 + at.length()) / (s / rad)
        );
    }
}

#[test]
fn grazing_edges_and_corners() {
    grazes::<DVec3>(61, 1.0e-6);
    grazes::<Vec3>(62, 1.0e-3);
    grazes::<DVec2>(63, 1.0e-6);
    grazes::<Vec2>(64, 1.0e-3);
    for depth in [0.0, -1.0e-3] {
        grazes::<DVec3>(65, depth);
        grazes::<Vec3>(66, depth);
        grazes::<DVec2>(67, depth);
        grazes::<Vec2>(68, depth);
    }
}

/// Ellipsoids (ellipses) against a plane, closed forms: falling axis-aligned, the time is
/// (height - semi-axis) / speed; turned, the plane is met at its support distance
/// `sqrt(Σ (rᵢ (Rᵀ n)ᵢ)²)`, at the point `c - R diag(r²) Rᵀ n / h`; started within, the
/// world distance is the height minus that support distance, the normal the plane's.
fn ellipsoid_on_plane<V: Dim>(seed: u64)
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut r = rng(seed);
    let e = eps::<V>();
    for case in 0..200 {
        let radii = DVec3::new(
            r.random_range(0.2..1.0),
            r.random_range(0.2..1.0),
            if V::DIM == 3 { r.random_range(0.2..1.0) } else { 1.0 },
        );
        let pose_rot = if case == 0 {
            <V::Rotation as kollide::math::Rotation<V>>::IDENTITY
        } else {
            common::rotation::<V>(&mut r)
        };
        let n = point::<V>(&mut r, 1.0).normalize_or(DVec3::Y);
        let p0 = point::<V>(&mut r, 1.0);
        // A big flat item through p0 with front n.
        let u = if V::DIM == 3 { n.any_orthonormal_vector() } else { DVec3::new(-n.y, n.x, 0.0) };
        let scene: Vec<Vec<DVec3>> = if V::DIM == 3 {
            let w = n.cross(u);
            vec![vec![p0 - u * 50.0 - w * 50.0, p0 + u * 50.0 - w * 50.0, p0 + w * 50.0]]
        } else {
            vec![vec![p0 - u * 50.0, p0 + u * 50.0]]
        };
        // Orientation: 3D (b - a) x (c - a) must be along n; 2D (b - a) turned clockwise.
        let items = items_of::<V>(&scene);
        let el = Ellipsoid::new(v::<V>(radii));
        let height = r.random_range(-0.1..3.0);
        let c = p0 + n * height + u * r.random_range(-1.0..1.0);
        let pose = Pose::new(v::<V>(c), pose_rot);
        let fr = frame(&pose, el.radii);
        let local_n = DVec3::new(fr.cols[0].dot(n), fr.cols[1].dot(n), fr.cols[2].dot(n));
        let support = (local_n * fr.radii).length();
        let c = fr.centre;
        let h = n.dot(c - p0);
        let speed = r.random_range(0.5..4.0);
        let d = -n * speed + u * r.random_range(-1.0..1.0);
        let out = V::sweep_ell(&el, &pose, v::<V>(d), &items, BackFaces::Hit);
        let what = format!("case {case}: height {h}, support {support}");
        if h.abs() < support - 1e-3 {
            // The item is flat: the shortest way out is to the nearer side.
            let SweepOutcome::StartedWithin { distance, normal, .. } = out else { panic!("{what}: {out:?}") };
            common::assert_close(distance.to_f64(), h.abs() - support, 1e-3, &what);
            assert!((f(normal) - n * h.signum()).length() < 1e-2, "{what}: normal {normal:?}");
            continue;
        }
        if h < support + 1e-3 {
            continue;
        }
        let t = (h - support) / speed;
        if t > 1.0 - 1e-3 {
            assert!(t < 1.0 + 1e-3 || matches!(out, SweepOutcome::Miss), "{what}: {out:?}");
            continue;
        }
        let SweepOutcome::Hit(hit) = out else { panic!("{what}: {out:?}") };
        common::assert_close(hit.toi.to_f64(), t, 1e2 * e * (1.0 + c.length()), &what);
        assert_eq!(hit.feature, SweepFeature::Face, "{what}");
        let mut grad = DVec3::ZERO;
        for i in 0..3 {
            grad += fr.cols[i] * (local_n[i] * fr.radii[i] * fr.radii[i]);
        }
        let point = c + f(v::<V>(d)) * hit.toi.to_f64() - grad / support;
        assert!(
            (f(hit.point) - point).length() < 1e3 * e * (1.0 + c.length()),
            "{what}: point {:?} vs {point}",
            hit.point
        );
        assert!((f(hit.normal) - n).length() < 1e2 * e, "{what}: normal {:?} vs {n}", hit.normal);
    }
}

#[test]
fn ellipsoids_on_planes() {
    ellipsoid_on_plane::<DVec3>(71);
    ellipsoid_on_plane::<Vec3>(72);
    ellipsoid_on_plane::<DVec2>(73);
    ellipsoid_on_plane::<Vec2>(74);
}

/// Bad and degenerate input: defined answers, no panic. Overlap at the start: the deepest
/// item, with the closed-form distance and normal. Back faces culled or not.
fn edge_cases<V: Dim>()
where
    V::Rotation: FromParts + RotF64<V>,
{
    let r = real::<V>(0.5);
    let z = |x: f64, y: f64| DVec3::new(x, y, 0.0);
    // A floor at y = 0 facing up (in 3D a big triangle; in 2D a segment from +x to -x).
    let floor_at = |y: f64| -> Vec<DVec3> {
        if V::DIM == 3 {
            vec![DVec3::new(-10.0, y, 10.0), DVec3::new(10.0, y, 10.0), DVec3::new(0.0, y, -10.0)]
        } else {
            vec![z(10.0, y), z(-10.0, y)]
        }
    };
    let floor = items_of::<V>(&[floor_at(0.0)]);
    let down = v::<V>(z(0.0, -2.0));
    let above = v::<V>(z(0.0, 1.0));
    let hit = |o: SweepOutcome<V>| matches!(o, SweepOutcome::Hit(_));
    // Empty soup, zero displacement away from everything: Miss.
    assert_eq!(V::sweep(above, r, down, &[], BackFaces::Hit), SweepOutcome::Miss);
    assert_eq!(V::sweep(above, r, V::ZERO, &floor, BackFaces::Hit), SweepOutcome::Miss);
    // Bad numbers: an error naming the value, nothing swept.
    let nan = real::<V>(f64::NAN);
    let bad_radius = |e| matches!(e, Err(SweepError::BadRadius { .. }));
    assert!(bad_radius(V::try_sweep(above, nan, down, &floor, BackFaces::Hit)));
    assert!(bad_radius(V::try_sweep(above, real::<V>(-1.0), down, &floor, BackFaces::Hit)));
    assert_eq!(
        V::try_sweep(v::<V>(z(f64::NAN, 1.0)), r, down, &floor, BackFaces::Hit),
        Err(SweepError::NonFinite { field: "center" })
    );
    assert_eq!(
        V::try_sweep(above, r, v::<V>(z(0.0, f64::NEG_INFINITY)), &floor, BackFaces::Hit),
        Err(SweepError::NonFinite { field: "displacement" })
    );
    let bad_pose =
        Pose::new(v::<V>(z(f64::INFINITY, 1.0)), <V::Rotation as kollide::math::Rotation<V>>::IDENTITY);
    assert_eq!(
        V::try_sweep_ell(&Ellipsoid::new(v::<V>(DVec3::ONE)), &bad_pose, down, &floor, BackFaces::Hit),
        Err(SweepError::NonFinite { field: "translation" })
    );
    let flat = Ellipsoid { radii: v::<V>(z(1.0, 0.0)) };
    assert_eq!(
        V::try_sweep_ell(&flat, &Pose::new(above, bad_pose.rotation), down, &floor, BackFaces::Hit),
        Err(SweepError::BadSemiAxis { axis: 1, value: 0.0 })
    );
    // A corner that is not finite, even in an item far from the path: the whole soup is
    // refused, naming the item and the corner (not skipped: a broken mesh must not be
    // half-answered).
    let mut broken = floor_at(-0.2);
    broken[1].x = f64::NAN;
    let two = items_of::<V>(&[floor_at(0.0), broken]);
    assert_eq!(
        V::try_sweep(above, r, down, &two, BackFaces::Hit),
        Err(SweepError::NonFiniteCorner { index: 1, corner: 1 })
    );
    // Back faces: from the front both hit; from behind only `Hit` does.
    assert!(hit(V::sweep(above, r, down, &floor, BackFaces::Cull)));
    let below = v::<V>(z(0.0, -1.0));
    assert!(hit(V::sweep(below, r, v::<V>(z(0.0, 2.0)), &floor, BackFaces::Hit)));
    assert_eq!(V::sweep(below, r, v::<V>(z(0.0, 2.0)), &floor, BackFaces::Cull), SweepOutcome::Miss);
    // Items without area collide through their edges and corners.
    let line = if V::DIM == 3 {
        vec![z(-1.0, 0.0), z(1.0, 0.0), z(0.0, 0.0)]
    } else {
        vec![z(0.0, 0.0), z(0.0, 0.0)]
    };
    let SweepOutcome::Hit(h) = V::sweep(above, r, down, &items_of::<V>(&[line]), BackFaces::Cull) else {
        panic!("no area")
    };
    common::assert_close(h.toi.to_f64(), 0.25, 1e2 * eps::<V>(), "degenerate item toi");
    assert!((f(h.normal) - DVec3::Y).length() < 1e2 * eps::<V>());
    // Overlap at the start: the deepest of two floors, distance and normal in closed form.
    let two = items_of::<V>(&[floor_at(0.1), floor_at(0.3)]);
    let start = v::<V>(z(0.0, 0.5));
    for d in [down, V::ZERO, above] {
        let out = V::sweep(start, r, d, &two, BackFaces::Hit);
        let SweepOutcome::StartedWithin { index, distance, normal } = out else { panic!("{out:?}") };
        assert_eq!(index, 1);
        common::assert_close(distance.to_f64(), -0.3, 1e2 * eps::<V>(), "started-within distance");
        assert!((f(normal) - DVec3::Y).length() < 1e2 * eps::<V>());
    }
    // The centre on the item: the face normal against the displacement (the front without one).
    let on = v::<V>(z(0.0, 0.0));
    for (d, n) in [(down, DVec3::Y), (above, DVec3::NEG_Y), (V::ZERO, DVec3::Y)] {
        let SweepOutcome::StartedWithin { normal, distance, .. } = V::sweep(on, r, d, &floor, BackFaces::Hit)
        else {
            panic!()
        };
        assert_eq!((f(normal), distance.to_f64()), (n, -0.5));
    }
    // Touching at the start: into it a hit at 0; away from it or along it nothing.
    let touching = v::<V>(z(0.0, 0.5));
    let SweepOutcome::Hit(h) = V::sweep(touching, r, down, &floor, BackFaces::Hit) else { panic!() };
    assert_eq!(h.toi.to_f64(), 0.0);
    assert_eq!(V::sweep(touching, r, above, &floor, BackFaces::Hit), SweepOutcome::Miss);
    assert_eq!(V::sweep(touching, r, v::<V>(z(3.0, 0.0)), &floor, BackFaces::Hit), SweepOutcome::Miss);
}

#[test]
fn bad_degenerate_and_overlapping_input() {
    edge_cases::<DVec3>();
    edge_cases::<Vec3>();
    edge_cases::<DVec2>();
    edge_cases::<Vec2>();
}
