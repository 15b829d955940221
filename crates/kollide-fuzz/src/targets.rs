//! The entry points, one per fuzz target: each takes the fuzzer's bytes, builds its inputs
//! through the checked constructors and checks the answers' promises (a panic is a finding).

use crate::build::{self, cloud, motion, pose, real, vector, Space};
use crate::bytes::Bytes;
use crate::promises::{check_cast, check_ray, dot, f, len, rel, sub, Pair};
use crate::sweep_check::check_sweep;
use kollide::composite::{ConcavePolygon, MeshFormat, TriMesh, Weld};
use kollide::math::{DVec2, DVec3, Real, Vec2, Vec3, Vector3};
use kollide::mover::{move_and_slide, Character, MoverSettings, UpRotation};
use kollide::query::cast::{BackFaces, CastInput, Ray};
use kollide::query::ContactStatus;
use kollide::shape::{ConvexHull, ConvexPolygon, Support};
use kollide::world::{self, Shape3, World};

/// Runs `f` for the vector type chosen by the first byte.
macro_rules! by_space {
    ($b:expr, $f:ident) => {
        match $b.below(4) {
            0 => $f::<Vec2>(&mut $b),
            1 => $f::<DVec2>(&mut $b),
            2 => $f::<Vec3>(&mut $b),
            _ => $f::<DVec3>(&mut $b),
        }
    };
}

/// Shape constructors: hulls and polygons of hostile point clouds hold every input point
/// and are made of input points; a concave polygon's pieces cover its area.
pub fn shapes(data: &[u8]) {
    let mut b = Bytes::new(data);
    match b.below(5) {
        0 => hull::<Vec3>(&mut b),
        1 => hull::<DVec3>(&mut b),
        2 => polygon::<Vec2>(&mut b),
        3 => polygon::<DVec2>(&mut b),
        _ => concave::<DVec2>(&mut b),
    }
}

fn cloud_tol<V: kollide::query::Space>(points: &[V]) -> f64 {
    let m = points.iter().flat_map(|p| f(*p)).fold(f64::MIN_POSITIVE, |m, x| m.max(x.abs()));
    rel::<V>() * 1e-2 * m
}

fn hull<V: Vector3 + kollide::query::Space>(b: &mut Bytes) {
    let points = cloud::<V>(b, 40);
    let Ok(h) = ConvexHull::try_from_points(&points) else { return };
    let tol = cloud_tol(&points);
    for v in h.vertices() {
        assert!(points.contains(v), "broken promise: hull vertex {v:?} is an input point");
    }
    for face in 0..h.face_count() {
        let (n, offset) = h.face_plane(face);
        assert!((len(f(n)) - 1.0).abs() < 1e-3, "broken promise: unit face normal {n:?}");
        for p in &points {
            let out = dot(f(n), f(*p)) - offset.to_f64();
            assert!(
                out <= tol,
                "broken promise: point {p:?} outside face {face} by {out} (tol {tol})\n{points:?}"
            );
        }
    }
}

fn polygon<V: kollide::math::Vector2 + kollide::query::Space>(b: &mut Bytes) {
    let points = cloud::<V>(b, 24);
    let Ok(poly) = ConvexPolygon::try_from_points(&points) else { return };
    let tol = cloud_tol(&points);
    for v in poly.vertices() {
        assert!(points.contains(v), "broken promise: polygon vertex {v:?} is an input point");
    }
    for p in &points {
        // Every input point is within the polygon along every edge normal.
        for n in poly.normals() {
            let h = dot(f(*n), f(poly.support(*n)));
            let out = dot(f(*n), f(*p)) - h;
            assert!(
                out <= tol,
                "broken promise: point {p:?} outside the polygon by {out}\n{points:?}\n{poly:?}"
            );
        }
    }
}

fn concave<V: kollide::math::Vector2 + kollide::query::Space>(b: &mut Bytes) {
    let points = cloud::<V>(b, 12);
    let Ok(poly) = ConcavePolygon::try_new(&points) else { return };
    let m = points.iter().flat_map(|p| f(*p)).fold(f64::MIN_POSITIVE, |m, x| m.max(x.abs()));
    // The judge's shoelace runs on the points divided by their largest coordinate (a power
    // of two near it: exact), so that its products neither overflow (coordinates of 1e154
    // made its sums infinite) nor underflow.
    let scale = 2f64.powi(-(m.log2().ceil() as i32));
    let shoelace = |ps: &[V]| {
        let n = ps.len();
        (0..n)
            .map(|i| {
                let (p, q) = (f(ps[i]).map(|x| x * scale), f(ps[(i + 1) % n]).map(|x| x * scale));
                p[0] * q[1] - p[1] * q[0]
            })
            .sum::<f64>()
            * 0.5
    };
    let area = shoelace(&points).abs();
    let pieces: f64 = poly.pieces().iter().map(|q| shoelace(q.vertices()).abs()).sum();
    if !scale.is_finite() || scale == 0.0 {
        return;
    }
    assert!(
        (area - pieces).abs() <= 1e-9 * points.len() as f64,
        "broken promise: the pieces cover the polygon (area {area}, pieces {pieces}, both over {m}²)\n{points:?}"
    );
}

/// The pair queries (intersects, distance, contact, manifold) on any two shapes, convex or
/// composite, 2D or 3D, f32 or f64.
pub fn queries(data: &[u8]) {
    let mut b = Bytes::new(data);
    by_space!(b, pair_queries);
}

fn pair_queries<V: Space>(b: &mut Bytes) {
    b.limit(crate::promises::certified_range::<V>());
    let (Some(a), Some(pa)) = (build::shape::<V>(b), pose::<V>(b)) else { return };
    let (Some(sb), Some(pb)) = (build::shape::<V>(b), pose::<V>(b)) else { return };
    let margin = V::Real::from_f64(b.tame(1.0).abs());
    Pair { a: &a, pa, b: &sb, pb }.check_all(margin);
}

/// Rays and shape casts (linear and rotating) on any shapes; the swept sphere against
/// triangle soups.
pub fn casts(data: &[u8]) {
    let mut b = Bytes::new(data);
    match b.below(3) {
        0 => by_space!(b, ray),
        1 => by_space!(b, cast),
        _ => {
            if b.bool() {
                sweep::<Vec3>(&mut b);
            } else {
                sweep::<DVec3>(&mut b);
            }
        }
    }
}

fn ray<V: Space>(b: &mut Bytes) {
    b.limit(crate::promises::certified_range::<V>());
    let (Some(s), Some(p)) = (build::shape::<V>(b), pose::<V>(b)) else { return };
    let Ok(r) = Ray::try_new(vector::<V>(b), vector::<V>(b)) else { return };
    let max = real::<V>(b).abs();
    check_ray::<V>(&s, &p, &r, max);
    // Then, from the bytes left (none in older inputs), a ray tangent to the shape.
    if b.bool() {
        if let Some(c) = V::as_convex(&s) {
            crate::boundary::ray::<V>(b, c, p);
        }
    }
}

fn cast<V: Space>(b: &mut Bytes) {
    b.limit(crate::promises::certified_range::<V>());
    let (Some(a), Some(pa)) = (build::shape::<V>(b), pose::<V>(b)) else { return };
    let (Some(sb), Some(pb)) = (build::shape::<V>(b), pose::<V>(b)) else { return };
    let mut input = CastInput::linear(V::ZERO, V::ZERO, V::Real::from_f64(b.tame(2.0).abs()));
    input.motion_a = motion::<V>(b);
    input.motion_b = motion::<V>(b);
    input.target_distance = V::Real::from_f64(if b.bool() { 0.0 } else { b.tame(0.5).abs() });
    check_cast(&Pair { a: &a, pa, b: &sb, pb }, &input);
    // Then, from the bytes left (none in older inputs), the same shapes built touching.
    let mode = b.below(4);
    if let (true, Some(ca), Some(cb)) = (mode > 0, V::as_convex(&a), V::as_convex(&sb)) {
        crate::boundary::cast::<V>(b, ca, pa, cb, pb, mode);
    }
}

fn sweep<V: Vector3 + kollide::query::Space>(b: &mut Bytes) {
    b.limit(crate::promises::certified_range::<V>());
    let n = 1 + b.below(6);
    let tris: Vec<[V; 3]> = (0..n).map(|_| [vector(b), vector(b), vector(b)]).collect();
    let back = if b.bool() { BackFaces::Hit } else { BackFaces::Cull };
    check_sweep(vector::<V>(b), real::<V>(b), vector::<V>(b), &tris, back);
    // Then, from the bytes left (none in older inputs), a sphere at the first edge.
    if b.bool() {
        if let Some((centre, radius, displacement)) = crate::boundary::sphere_at_edge(b, tris[0]) {
            check_sweep(centre, radius, displacement, &tris, back);
        }
    }
}

/// A world of a floor and random bodies, and the mover walking a character through it: every
/// step ends finite and, when the character started clear, clear of every body.
pub fn mover(data: &[u8]) {
    let mut b = Bytes::new(data);
    if b.bool() {
        walk::<Vec3>(&mut b);
    } else {
        walk::<DVec3>(&mut b);
    }
}

fn walk<V: Space<Shape = Shape3<V>> + UpRotation>(b: &mut Bytes) {
    b.limit(crate::promises::certified_range::<V>());
    let mut w: World<V, Shape3<V>> = World::new();
    for _ in 0..1 + b.below(5) {
        if let (Some(s), Some(p)) = (build::shape::<V>(b), pose::<V>(b)) {
            let _ = w.insert(s, p);
        }
    }
    let character = match b.below(3) {
        0 => Character::Ball { radius: real::<V>(b) },
        1 => Character::Ellipsoid { radii: vector(b) },
        _ => Character::Capsule { half_height: real::<V>(b), radius: real::<V>(b) },
    };
    let mut settings = MoverSettings::<V>::default();
    if b.bool() {
        settings.skin = real::<V>(b);
        settings.max_iterations = u32::from(b.u8());
        settings.max_slope = real::<V>(b);
        settings.step_height = real::<V>(b);
        settings.snap_to_ground = real::<V>(b);
        settings.climb_walls = b.bool();
    }
    let Ok(shape) = character.shape() else { return };
    let mut at = vector::<V>(b);
    let bodies: Vec<_> = w.bodies().map(|(_, s, p)| (s.clone(), *p)).collect();
    let size = crate::promises::scene_size::<V>(&bodies.iter().map(|(s, p)| (s, p)).collect::<Vec<_>>());
    let clearance = |at: V| -> Option<f64> {
        let pose = character.pose(at, settings.up);
        let mut least = f64::INFINITY;
        for (s, p) in &bodies {
            let c = world::contact(&shape, &pose, s, p, V::Real::ZERO)?.value;
            if c.status != ContactStatus::Converged {
                return None;
            }
            least = least.min(c.distance.to_f64());
        }
        Some(least)
    };
    for _ in 0..1 + b.below(6) {
        let disp = vector::<V>(b);
        let before = clearance(at);
        let Ok(out) = move_and_slide(&w, &character, at, disp, &settings, None) else { return };
        let p = f(out.position);
        assert!(p.iter().all(|x| x.is_finite()), "broken promise: finite position {out:?}");
        for c in &out.contacts {
            assert!(
                (len(f(c.normal)) - 1.0).abs() < 1e-3,
                "broken promise: unit contact normal {c:?}\n{character:?} {settings:?} at {:?}\nbodies {bodies:?}",
                f(at)
            );
        }
        let m = size.max(p.iter().fold(0.0, |m: f64, x| m.max(x.abs()))).max(character.reach().to_f64());
        let tol = rel::<V>() * m * 10.0;
        if let (Some(c0), Some(c1)) = (before, clearance(out.position)) {
            if c0 > tol && m.is_finite() {
                assert!(
                    c1 >= -tol,
                    "broken promise: a character that started clear stays clear (clearance {c1}, tol {tol})\n\
                     from {:?} by {:?}: {out:?}\n{character:?} {settings:?}\nbodies {bodies:?}",
                    f(at),
                    f(disp)
                );
            }
        }
        // (Component by component: a finite step of 1e300, a lift onto a terrain that high,
        // has a length whose square overflows the judge's arithmetic.)
        let moved = sub(p, f(at));
        assert!(moved.iter().all(|x| x.is_finite()), "broken promise: finite displacement");
        at = out.position;
    }
}

/// The mesh file readers on arbitrary bytes: the first byte picks the format (bits 0-1),
/// the precision (bit 2: f32) and the welding (bit 3: none); the rest is the file. A mesh
/// read has finite vertices, indices in range, and a report whose counts agree with each
/// other; a refusal names the file and says what is wrong.
pub fn mesh_files(data: &[u8]) {
    let Some((&pick, bytes)) = data.split_first() else { return };
    let format = [MeshFormat::Obj, MeshFormat::Stl, MeshFormat::Ply, MeshFormat::Gltf][usize::from(pick & 3)];
    let weld = if pick & 8 == 0 { Weld::Exact } else { Weld::None };
    if pick & 4 == 0 {
        mesh_file::<DVec3>(bytes, format, weld);
    } else {
        mesh_file::<Vec3>(bytes, format, weld);
    }
}

fn mesh_file<V: Vector3 + kollide::query::Space>(bytes: &[u8], format: MeshFormat, weld: Weld) {
    let mesh = match TriMesh::<V>::from_bytes(bytes, format, weld) {
        Ok(mesh) => mesh,
        Err(e) => {
            let text = e.to_string();
            assert!(
                text.starts_with("bytes: ") && !e.message.is_empty(),
                "broken promise: the error says why: {text}"
            );
            return;
        }
    };
    let n = mesh.vertices().len();
    assert!(mesh.vertices().iter().all(|v| v.is_finite_vec()), "broken promise: finite vertices");
    assert!(mesh.indices().iter().flatten().all(|&i| (i as usize) < n), "broken promise: indices in range");
    let r = mesh.report();
    assert_eq!(
        (r.triangles, r.vertices),
        (mesh.triangle_count(), n),
        "broken promise: the report counts the mesh"
    );
    assert!(
        r.boundary_edges + r.non_manifold_edges + r.misoriented_edges <= r.edges,
        "broken promise: {r:?}"
    );
    assert!(r.unused_vertices <= n && r.duplicate_vertices < n, "broken promise: {r:?}");
    assert!(!r.closed || r.boundary_edges == 0, "broken promise: closed without boundary: {r:?}");
    if weld == Weld::None {
        assert_eq!(r.welded_vertices, 0, "broken promise: nothing welded unless asked");
    } else {
        assert_eq!(
            r.duplicate_vertices, 0,
            "broken promise: welded exactly, no two vertices at one position"
        );
    }
}

/// `kollide query`'s line reader on arbitrary text: every line gets one JSON reply naming
/// it; an answer has no `null` (nothing non-finite) and ordered bounds.
pub fn cli_query(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // Two sessions, one per precision, each answering every other line: names defined on
    // one line are used on later ones. No file is read (a name could be a device).
    let mut sessions = [
        kollide_cli::Session::without_files(kollide_cli::Precision::F64),
        kollide_cli::Session::without_files(kollide_cli::Precision::F32),
    ];
    for (i, line) in text.lines().take(32).enumerate() {
        let reply = sessions[i % 2].respond(i + 1, line);
        let v: serde_json::Value = serde_json::from_str(&reply.json)
            .unwrap_or_else(|e| panic!("broken promise: the reply is JSON ({e}): {}", reply.json));
        assert_eq!(
            v["line"],
            serde_json::json!(i + 1),
            "broken promise: the reply names its line: {}",
            reply.json
        );
        if reply.ok {
            assert!(!reply.json.contains("null"), "broken promise: no null in an answer: {}", reply.json);
            // One answer, or a batch's answers (each without its line).
            let answers = match v["answers"].as_array() {
                Some(items) => items.iter().collect(),
                None => vec![&v],
            };
            for a in answers {
                assert!(
                    v.get("answers").is_none() || a.get("line").is_none(),
                    "broken promise: a batch's answers have no line: {}",
                    reply.json
                );
                if let (Some(lo), Some(d), Some(up)) =
                    (a["lower_bound"].as_f64(), a["distance"].as_f64(), a["upper_bound"].as_f64())
                {
                    assert!(lo <= d && d <= up, "broken promise: ordered bounds: {}", reply.json);
                }
            }
        } else {
            assert!(
                v["error"].as_str().is_some_and(|e| !e.is_empty()),
                "broken promise: an error says why: {}",
                reply.json
            );
        }
    }
}

/// `kollide move`'s scene reader on arbitrary text: a scene is refused with a message or
/// run (up to 200 steps), every step a JSON line with a finite position or an error.
pub fn cli_move(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(scene) = kollide_cli::move_scene::read_in(&text, &kollide_cli::Scope::without_files()) else {
        return;
    };
    if scene.step_count() > 200 {
        return;
    }
    let mut out = Vec::new();
    scene.run(&mut out).expect("writing to memory cannot fail");
    for line in String::from_utf8(out).expect("the output is UTF-8").lines() {
        let v: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("broken promise: a step is JSON ({e}): {line}"));
        if v.get("error").is_none() {
            let pos =
                v["position"].as_array().unwrap_or_else(|| panic!("broken promise: a position: {line}"));
            assert!(
                pos.iter().all(|x| x.as_f64().is_some_and(f64::is_finite)),
                "broken promise: finite position: {line}"
            );
        }
    }
}
