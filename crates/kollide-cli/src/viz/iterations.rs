//! One query's iterations, a frame each: GJK's simplex growing inside the Minkowski
//! difference of the cores towards the origin, then EPA's polytope when the cores overlap.
//!
//! The space drawn is the one GJK works in: the difference `A - B` of the cores, in A's
//! frame, turned with A so it keeps the world's orientation (as in `kollide picture
//! --steps`). The difference is drawn once (green, the hull of its support points); each
//! frame adds the simplex or polytope, `v` (GJK's point nearest the origin), `w` (the new
//! support point) and, for EPA, the face nearest the origin in red.

use super::scene::{Frame, Item, Mesh, Paint, Scene};
use super::tessellate::Solid;
use crate::picture::steps::{cast_trace, trace};
use crate::picture::sweep_steps::{sweep_trace, test_words, verdict_words};
use crate::picture::Answered;
use crate::space::{body, Body};
use kollide::math::{DVec3, Pose, Rotation};
use kollide::query::cast::SweepVerdict;
use kollide::query::{SatAxis, SatStep};
use kollide::shape::Support;
use serde_json::Value;

/// Directions sampled for the Minkowski difference's surface.
const DIFFERENCE_DIRECTIONS: usize = 400;

/// The scene of line `n`'s iterations.
///
/// # Errors
/// Why there are none (a composite body, a pair answered in closed form), or a bad body.
pub(super) fn scene<V: Solid>(n: usize, line: &Answered) -> Result<Scene, String> {
    if line.query == "cast" {
        return cast_scene::<V>(n, line);
    }
    if line.query == "sweep" {
        return sweep_scene::<V>(n, line);
    }
    if !matches!(line.query.as_str(), "intersects" | "distance" | "contact" | "manifold") {
        return Err(format!(
            "--steps: the {} query's iterations are not traced yet (SAT's, GJK's and EPA's are: intersects, distance, contact, manifold; a cast's advancements and a sweep's tests are)",
            line.query
        ));
    }
    let top = line.top().map_err(|e| e.to_string())?;
    let a =
        body::<V>(&line.scope, top.get("a").map_err(|e| e.to_string())?, "a").map_err(|e| e.to_string())?;
    let b =
        body::<V>(&line.scope, top.get("b").map_err(|e| e.to_string())?, "b").map_err(|e| e.to_string())?;
    let margin = top.opt("margin").and_then(Value::as_f64).unwrap_or(0.0);
    let (ca, cb, trace) = trace(&line.query, &a, &b, margin)?;
    let pose_ab = a.pose.inv_compose(&b.pose);
    let turn = a.pose.rotation;
    let world = |p: V| V::lift(turn.rotate(p));
    let difference: Vec<V> = V::directions(DIFFERENCE_DIRECTIONS)
        .into_iter()
        .map(|d| {
            let local = turn.inverse_rotate(d);
            let on_b = pose_ab.transform_point(cb.support(pose_ab.inverse_transform_vector(-local)));
            turn.rotate(ca.support(local) - on_b)
        })
        .collect();
    let mut scene = Scene {
        title: format!("line {n}, {}: {}; its iterations", line.query, line.summary()),
        caption: "SAT (boxes, polygons, hulls): the bodies, each axis tried through A's origin, A's (blue) and \
                  B's (orange) projections on it. GJK and EPA: the Minkowski difference of the cores A - B (green; \
                  radii are added after), in A's frame turned as the world; GJK's simplex (dark green), v its point \
                  nearest the origin O, w the next support point along -v; EPA's polytope, its face nearest O in red \
                  at distance d."
            .into(),
        slider: "iteration".into(),
        flat: V::DIM == 2,
        ..Scene::default()
    };
    sat_frames(&a, &b, &trace.sat, &mut scene);
    let cso = scene.add_mesh(V::hull(&difference));
    // GJK's and EPA's frames are in the difference's space, around its origin O.
    let space = [
        Item::Mesh { mesh: cso, at: DVec3::ZERO, paint: Paint::Minkowski, ghost: false },
        Item::Point { at: DVec3::ZERO, label: "O".into(), paint: Paint::Origin },
    ];
    for (i, step) in trace.gjk.iter().enumerate() {
        let corners: Vec<DVec3> = step.simplex.vertices().iter().map(|s| world(s.w)).collect();
        let mut items = space.to_vec();
        items.push(simplex(&mut scene, &corners));
        items.extend(corners.iter().map(|&at| Item::Point {
            at,
            label: String::new(),
            paint: Paint::Simplex,
        }));
        items.push(Item::Arrow {
            from: DVec3::ZERO,
            to: world(step.v),
            label: "v".into(),
            paint: Paint::Simplex,
        });
        items.push(Item::Point { at: world(step.w), label: "w".into(), paint: Paint::Support });
        let label = format!("GJK {}: |v| = {}, lower bound {}", i + 1, step.upper, step.lower);
        scene.frames.push(Frame { label, items });
    }
    for (i, step) in trace.epa.iter().enumerate() {
        let mut items = space.to_vec();
        for (k, face) in step.faces.iter().enumerate() {
            let corners: Vec<DVec3> = face.iter().map(|p| world(*p)).collect();
            let mut mesh = Mesh::default();
            mesh.add_loop(&corners, corners.len() > 2);
            if corners.len() == 3 {
                mesh.triangles.push([0, 1, 2]);
            }
            let paint = if k == step.closest { Paint::Hit } else { Paint::Simplex };
            items.push(Item::Mesh { mesh: scene.add_mesh(mesh), at: DVec3::ZERO, paint, ghost: false });
        }
        let foot = world(step.normal * step.lower);
        items.push(Item::Arrow { from: DVec3::ZERO, to: foot, label: "d".into(), paint: Paint::Simplex });
        items.push(Item::Point { at: world(step.w), label: "w".into(), paint: Paint::Support });
        let label = format!(
            "EPA {}: depth at least {}, next support {} out",
            i + 1,
            step.lower,
            step.normal.dot(step.w)
        );
        scene.frames.push(Frame { label, items });
    }
    Ok(scene)
}

/// A frame per advancement of a cast: both bodies at the time reached, their closest points
/// there and the segment between them; the paths of their origins stay drawn.
fn cast_scene<V: Solid>(n: usize, line: &Answered) -> Result<Scene, String> {
    let top = line.top().map_err(|e| e.to_string())?;
    let t = cast_trace::<V>(&line.scope, &top)?;
    let mut scene = Scene {
        title: format!("line {n}, cast: {}; its advancements", line.summary()),
        caption: "Each advancement of the cast: A blue and B orange where they are at the time reached (nothing \
                  touches before it), their closest points a and b there; dashed: the paths of their origins. A \
                  translating pair advances by GJK's ray cast on the Minkowski difference, a turning pair by \
                  conservative advancement."
            .into(),
        slider: "advancement".into(),
        flat: V::DIM == 2,
        ..Scene::default()
    };
    let last = t.steps.last().map_or(0.0, |s| s.time);
    for (body, motion) in [(&t.a, &t.input.motion_a), (&t.b, &t.input.motion_b)] {
        let path: Vec<DVec3> = (0..=32)
            .map(|k| V::lift(motion.pose_at(&body.pose, last * f64::from(k) / 32.0).translation))
            .collect();
        scene.fixed.push(Item::Line { points: path, paint: Paint::Path, dashed: true });
    }
    for (k, step) in t.steps.iter().enumerate() {
        let mut items = Vec::new();
        for (body, motion, paint) in
            [(&t.a, &t.input.motion_a, Paint::BodyA), (&t.b, &t.input.motion_b, Paint::BodyB)]
        {
            let mesh = scene.add_mesh(V::mesh(&body.shape, &motion.pose_at(&body.pose, step.time)));
            items.push(Item::Mesh { mesh, at: DVec3::ZERO, paint, ghost: false });
        }
        let (a, b) = (V::lift(step.point_a), V::lift(step.point_b));
        items.push(Item::Line { points: vec![a, b], paint: Paint::Answer, dashed: false });
        items.push(Item::Point { at: a, label: "a".into(), paint: Paint::Answer });
        items.push(Item::Point { at: b, label: "b".into(), paint: Paint::Answer });
        let label = format!("advance {}: time {}, distance {}", k + 1, step.time, step.distance);
        scene.frames.push(Frame { label, items });
    }
    Ok(scene)
}

/// A frame per test of a sweep: the soup with the item tested red, the mover at its start
/// and its path, the mover (faint) where the test's root puts it, and the point touched.
fn sweep_scene<V: Solid>(n: usize, line: &Answered) -> Result<Scene, String> {
    let top = line.top().map_err(|e| e.to_string())?;
    let t = sweep_trace::<V>(&line.scope, &top)?;
    let mut scene = Scene {
        title: format!("line {n}, sweep: {}; its tests", line.summary()),
        caption: "Each test of each triangle (segment) whose box meets the swept box (shrunk to the earliest hit so                   far): the start, the face plane (line) at the radius, then each edge's cylinder and each                   corner's sphere (circle). The item tested red, the others sand; the mover blue at its start,                   faint where the test's root puts it, and the point touched there. The earliest root on its                   feature is the hit."
            .into(),
        slider: "test".into(),
        flat: V::DIM == 2,
        ..Scene::default()
    };
    let start = t.mover.pose.translation;
    let mover = scene.add_mesh(V::mesh(&t.mover.shape, &t.mover.pose));
    scene.fixed.push(Item::Mesh { mesh: mover, at: DVec3::ZERO, paint: Paint::BodyA, ghost: false });
    let path = vec![V::lift(start), V::lift(start + t.displacement)];
    scene.fixed.push(Item::Line { points: path, paint: Paint::Path, dashed: true });
    // One mesh for the untested rest and one per item, so a frame paints its item red.
    let single: Vec<usize> =
        t.items.iter().map(|item| scene.add_mesh(V::soup_mesh(std::slice::from_ref(item)))).collect();
    for (k, step) in t.steps.iter().enumerate() {
        let mut items: Vec<Item> = single
            .iter()
            .enumerate()
            .map(|(i, &mesh)| {
                let paint = if i == step.index { Paint::Hit } else { Paint::Ground };
                Item::Mesh { mesh, at: DVec3::ZERO, paint, ghost: false }
            })
            .collect();
        if let Some(toi) = step.toi {
            let at = Pose::new(start + t.displacement * toi, t.mover.pose.rotation);
            let mesh = scene.add_mesh(V::mesh(&t.mover.shape, &at));
            items.push(Item::Mesh { mesh, at: DVec3::ZERO, paint: Paint::BodyA, ghost: true });
        }
        if let Some(p) = step.point {
            let label = if step.verdict == SweepVerdict::Hit { "hit" } else { "" };
            items.push(Item::Point { at: V::lift(p), label: label.into(), paint: Paint::Answer });
        }
        let label = format!("test {}: {}: {}", k + 1, test_words(step), verdict_words(step));
        scene.frames.push(Frame { label, items });
    }
    Ok(scene)
}

/// A frame per axis of the separating-axis test: the bodies, the axis through A's origin and
/// both cores' projections on it, side by side.
fn sat_frames<V: Solid>(a: &Body<V>, b: &Body<V>, steps: &[SatStep<V>], scene: &mut Scene) {
    if steps.is_empty() {
        return;
    }
    let (ma, mb) = (V::mesh(&a.shape, &a.pose), V::mesh(&b.shape, &b.pose));
    let size = ma.positions.iter().chain(&mb.positions).fold(0.0_f64, |m, p| m.max(p.length()));
    let (ma, mb) = (scene.add_mesh(ma), scene.add_mesh(mb));
    for (k, step) in steps.iter().enumerate() {
        let on_axis = |s: f64| V::lift(a.pose.transform_point(step.axis * s));
        let mut items = vec![
            Item::Mesh { mesh: ma, at: DVec3::ZERO, paint: Paint::BodyA, ghost: true },
            Item::Mesh { mesh: mb, at: DVec3::ZERO, paint: Paint::BodyB, ghost: true },
        ];
        let (lo, hi) = (step.a[0].min(step.b[0]), step.a[1].max(step.b[1]));
        let reach = 0.1 * (hi - lo);
        items.push(Item::Line {
            points: vec![on_axis(lo - reach), on_axis(hi + reach)],
            paint: Paint::Path,
            dashed: true,
        });
        // B's bar beside A's: moved off the axis along a direction square to it.
        let axis = on_axis(1.0) - on_axis(0.0);
        // In a 2D scene the bars stay in its plane.
        let square =
            if axis.z == 0.0 { DVec3::new(-axis.y, axis.x, 0.0) } else { axis.any_orthogonal_vector() };
        let side = square.normalize_or_zero() * (0.03 * size.max(1e-300));
        for (range, shift, paint) in [(step.a, side, Paint::BodyA), (step.b, side * 2.0, Paint::BodyB)] {
            let points = vec![on_axis(range[0]) + shift, on_axis(range[1]) + shift];
            items.push(Item::Bar { points, paint });
        }
        let what = match step.kind {
            SatAxis::FaceA(i) => format!("A's face {i}"),
            SatAxis::FaceB(j) => format!("B's face {j}"),
            SatAxis::Edges(i, j) => format!("A's edge {i} x B's edge {j}"),
        };
        let label =
            format!("SAT {}: {what}, separation {}, best so far {}", k + 1, step.separation, step.best);
        scene.frames.push(Frame { label, items });
    }
}

/// A simplex of 1 to 4 points: its edges, and its faces filled.
fn simplex(scene: &mut Scene, corners: &[DVec3]) -> Item {
    let mut mesh = Mesh { positions: corners.to_vec(), ..Mesh::default() };
    let n = corners.len() as u32;
    for i in 0..n {
        for j in i + 1..n {
            mesh.edges.push([i, j]);
        }
    }
    match n {
        3 => mesh.triangles.push([0, 1, 2]),
        4 => mesh.triangles.extend([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]),
        _ => {}
    }
    Item::Mesh { mesh: scene.add_mesh(mesh), at: DVec3::ZERO, paint: Paint::Simplex, ghost: false }
}
