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
use crate::picture::steps::trace;
use crate::picture::Answered;
use crate::space::body;
use kollide::math::{DVec3, Rotation};
use kollide::shape::Support;
use serde_json::Value;

/// Directions sampled for the Minkowski difference's surface.
const DIFFERENCE_DIRECTIONS: usize = 400;

/// The scene of line `n`'s iterations.
///
/// # Errors
/// Why there are none (a composite body, a pair answered in closed form), or a bad body.
pub(super) fn scene<V: Solid>(n: usize, line: &Answered) -> Result<Scene, String> {
    if !matches!(line.query.as_str(), "intersects" | "distance" | "contact" | "manifold") {
        return Err(format!(
            "--steps: the {} query's iterations are not traced yet (GJK's and EPA's are: intersects, distance, contact, manifold)",
            line.query
        ));
    }
    let top = line.top().map_err(|e| e.to_string())?;
    let a = body::<V>(top.get("a").map_err(|e| e.to_string())?, "a").map_err(|e| e.to_string())?;
    let b = body::<V>(top.get("b").map_err(|e| e.to_string())?, "b").map_err(|e| e.to_string())?;
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
        caption: "The Minkowski difference of the cores A - B (green; radii are added after), in A's frame \
                  turned as the world. GJK: its simplex (dark green), v its point nearest the origin O, w the \
                  next support point along -v. EPA: the polytope, its face nearest O in red at distance d."
            .into(),
        slider: "iteration".into(),
        flat: V::DIM == 2,
        ..Scene::default()
    };
    let cso = scene.add_mesh(V::hull(&difference));
    scene.fixed.push(Item::Mesh { mesh: cso, at: DVec3::ZERO, paint: Paint::Minkowski, ghost: false });
    scene.fixed.push(Item::Point { at: DVec3::ZERO, label: "O".into(), paint: Paint::Origin });
    for (i, step) in trace.gjk.iter().enumerate() {
        let corners: Vec<DVec3> = step.simplex.vertices().iter().map(|s| world(s.w)).collect();
        let mut items = vec![simplex(&mut scene, &corners)];
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
        let mut items = Vec::new();
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
