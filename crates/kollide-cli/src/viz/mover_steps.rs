//! A mover run's casts, a frame each (`kollide viz SCENE.json --steps [--line N]`): where
//! the cast started (the character solid), the motion cast (dashed), where it stopped (the
//! character faint) and what it met (the point and the contact normal); for a slide, the
//! step's planes (their normals from the stop), the motion wanted of the plane solve, the
//! motion it allows, and the one cast next when the tilt off the planes or the corner guard
//! changed it. The view fits each frame: the casts are small beside the world.

use super::scene::{Frame, Item, Paint, Scene};
use super::tessellate::Solid;
use crate::move_scene::StepOutput;
use kollide::math::DVec3;
use kollide::mover::{Character, MovePhase, MoveStep};
use kollide::world::{Shape3, World};

/// The words for a phase.
fn phase_words(phase: MovePhase) -> &'static str {
    match phase {
        MovePhase::Recover => "push out of a start inside",
        MovePhase::Slide => "slide",
        MovePhase::Stairs { kept: true } => "stairs (kept)",
        MovePhase::Stairs { kept: false } => "stairs (not kept)",
        MovePhase::Snap => "snap to the ground",
        MovePhase::Ground => "look for the ground",
    }
}

fn v3(p: DVec3) -> String {
    format!("({:.4}, {:.4}, {:.4})", p.x, p.y, p.z)
}

/// The scene of the traced steps of a run: `steps[i]` is step `i`'s output and casts (the
/// untraced steps have none and give no frame).
pub fn scene(
    world: &World<DVec3, Shape3<DVec3>>,
    character: &Character<DVec3>,
    up: DVec3,
    start: DVec3,
    steps: &[(StepOutput, Vec<MoveStep<DVec3>>)],
    title: String,
) -> Scene {
    let mut scene = Scene { title, slider: "cast".into(), refit: true, focus: true, ..Scene::default() };
    for (_, shape, pose) in world.bodies() {
        let paint = if matches!(shape, Shape3::HeightField(_)) { Paint::Ground } else { Paint::BodyB };
        let mesh = scene.add_mesh(DVec3::mesh(shape, pose));
        scene.fixed.push(Item::Mesh { mesh, at: DVec3::ZERO, paint, ghost: false });
    }
    let mut path = vec![start];
    path.extend(steps.iter().filter_map(|(o, _)| o.as_ref().ok()).map(|m| m.position));
    scene.fixed.push(Item::Line { points: path, paint: Paint::Path, dashed: true });
    scene.caption = "Each cast of the mover: the character (blue) where the cast starts, the motion cast (dashed), \
                     the character (faint) where it stops a skin short of what it meets, the contact point and \
                     normal (red). A slide then solves the step's planes (their normals, labelled, from the \
                     stop): the motion wanted (orange), the closest motion every plane allows (green), and the \
                     motion cast next when it differs (drawn longer when short, by the factor in their labels). The view fits each cast; the world and the run's path \
                     stay drawn."
        .into();
    let shape = character.shape().ok();
    let pose = character.pose(DVec3::ZERO, up.normalize());
    let mesh = shape.map(|s| scene.add_mesh(DVec3::mesh(&s, &pose)));
    let size = character.reach();
    for (i, (output, casts)) in steps.iter().enumerate() {
        for (k, cast) in casts.iter().enumerate() {
            let stop = cast.from + cast.motion * cast.toi.unwrap_or(1.0);
            let mut items = Vec::new();
            if let Some(mesh) = mesh {
                items.push(Item::Mesh { mesh, at: cast.from, paint: Paint::BodyA, ghost: false });
                items.push(Item::Mesh { mesh, at: stop, paint: Paint::BodyA, ghost: true });
            }
            items.push(Item::Line {
                points: vec![cast.from, cast.from + cast.motion],
                paint: Paint::Path,
                dashed: true,
            });
            let mut said = vec![format!("from {} cast {}", v3(cast.from), v3(cast.motion))];
            match (&cast.contact, cast.toi) {
                (Some(c), Some(t)) => {
                    items.push(Item::Point {
                        at: c.point,
                        label: c.feature.as_str().into(),
                        paint: Paint::Answer,
                    });
                    let to = c.point + c.normal * size;
                    items.push(Item::Arrow {
                        from: c.point,
                        to,
                        label: "normal".into(),
                        paint: Paint::Answer,
                    });
                    let part = c.part.map_or_else(String::new, |p| format!(" part {p}"));
                    said.push(format!(
                        "met the {} of body {}{part} at {t:.4} of it, normal {}",
                        c.feature.as_str(),
                        c.body.0,
                        v3(c.normal)
                    ));
                }
                _ if cast.phase == MovePhase::Recover => {}
                _ => said.push("met nothing: the whole motion".into()),
            }
            for (j, plane) in cast.planes.iter().enumerate() {
                let label = if plane.offset == 0.0 { format!("plane {}", j + 1) } else { "cap".into() };
                let to = stop + plane.normal * (0.6 * size);
                items.push(Item::Arrow { from: stop, to, label, paint: Paint::Simplex });
            }
            // The motions are often short beside the character: drawn longer by one factor
            // (named in their labels) so that their directions can be seen and compared.
            let wanted_len = cast.wanted.map_or(0.0, DVec3::length);
            let grow = if wanted_len > 0.0 && wanted_len < 0.8 * size {
                (0.8 * size / wanted_len).round()
            } else {
                1.0
            };
            let mut motion = |v: Option<DVec3>, label: &str, paint: Paint| {
                if let Some(v) = v {
                    let label = if grow > 1.0 { format!("{label} x{grow}") } else { label.into() };
                    items.push(Item::Arrow { from: stop, to: stop + v * grow, label, paint });
                }
            };
            motion(cast.wanted, "wanted", Paint::Support);
            motion(cast.solved, "solved", Paint::Minkowski);
            if let (Some(next), Some(solved)) = (cast.next, cast.solved) {
                if (next - solved).length() > 1e-6 * solved.length().max(1e-300) {
                    motion(Some(next), "next", Paint::Answer);
                }
            }
            if let (Some(w), Some(s)) = (cast.wanted, cast.solved) {
                said.push(format!("{} planes: wanted {}, solved {}", cast.planes.len(), v3(w), v3(s)));
            }
            let status = output.as_ref().map_or("failed", |m| m.status.as_str());
            let label = format!(
                "step {}, cast {} of {} ({}; the step {status}): {}",
                i + 1,
                k + 1,
                casts.len(),
                phase_words(cast.phase),
                said.join("; ")
            );
            scene.frames.push(Frame { label, items });
        }
    }
    scene
}
