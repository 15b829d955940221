//! Mover runs in a world, a frame per step: the world's bodies fixed (terrain sand-coloured,
//! the others orange), each character's path dashed, and in each frame the character where
//! that step left it, with the contacts of its last sweep (point and normal, labelled with
//! the feature hit).

use super::scene::{Frame, Item, Paint, Scene};
use super::tessellate::Solid;
use kollide::math::DVec3;
use kollide::mover::{Character, MoveOutput};
use kollide::world::{Shape3, World};

/// Frames at most: longer runs show every k-th step (the caption says which).
pub const MAX_FRAMES: usize = 2_000;

/// One character's run: its name, shape, start, and each step's output (or its error).
#[derive(Debug)]
pub struct Walk<'a> {
    pub name: &'a str,
    pub character: &'a Character<DVec3>,
    pub up: DVec3,
    pub start: DVec3,
    pub steps: Vec<Result<&'a MoveOutput<DVec3>, &'a str>>,
}

/// The scene of `walks` through `world`.
pub fn scene(world: &World<DVec3, Shape3<DVec3>>, walks: &[Walk], title: String) -> Scene {
    let mut scene = Scene { title, slider: "step".into(), ..Scene::default() };
    for (_, shape, pose) in world.bodies() {
        let paint = if matches!(shape, Shape3::HeightField(_)) { Paint::Ground } else { Paint::BodyB };
        let mesh = scene.add_mesh(DVec3::mesh(shape, pose));
        scene.fixed.push(Item::Mesh { mesh, at: DVec3::ZERO, paint, ghost: false });
    }
    let longest = walks.iter().map(|w| w.steps.len()).max().unwrap_or(0);
    let every = longest.div_ceil(MAX_FRAMES).max(1);
    let mut meshes = Vec::new();
    for walk in walks {
        // The character's shape stands along `up`, as the mover places it.
        let pose = walk.character.pose(DVec3::ZERO, walk.up.normalize());
        let mesh = walk.character.shape().map(|s| scene.add_mesh(DVec3::mesh(&s, &pose)));
        meshes.push(mesh.ok());
        let mut path = vec![walk.start];
        path.extend(walk.steps.iter().filter_map(|s| s.ok()).map(|m| m.position));
        scene.fixed.push(Item::Line { points: path, paint: Paint::Path, dashed: true });
    }
    let names: Vec<&str> = walks.iter().map(|w| w.name).collect();
    scene.caption = format!(
        "{}: the character{} blue, the path dashed, the contacts of each step's sweeps red; the world's \
         bodies orange, the terrain sand{}.",
        names.join(" and "),
        if walks.len() == 1 { "" } else { "s" },
        if every > 1 { format!("; every {} step is a frame", super::ordinal(every)) } else { String::new() }
    );
    for i in (0..longest).step_by(every) {
        let mut frame = Frame::default();
        let mut said = Vec::new();
        for (walk, mesh) in walks.iter().zip(&meshes) {
            let Some(step) = walk.steps.get(i.min(walk.steps.len().saturating_sub(1))) else { continue };
            let size = walk.character.reach();
            match step {
                Ok(m) => {
                    if let Some(mesh) = *mesh {
                        frame.items.push(Item::Mesh {
                            mesh,
                            at: m.position,
                            paint: Paint::BodyA,
                            ghost: false,
                        });
                    }
                    for c in &m.contacts {
                        let (at, label) = (c.point, c.feature.as_str().to_string());
                        frame.items.push(Item::Point { at, label, paint: Paint::Answer });
                        let to = at + c.normal * size;
                        frame.items.push(Item::Arrow {
                            from: at,
                            to,
                            label: String::new(),
                            paint: Paint::Answer,
                        });
                    }
                    said.push(format!(
                        "{} at ({:.3}, {:.3}, {:.3}), {}{}",
                        walk.name,
                        m.position.x,
                        m.position.y,
                        m.position.z,
                        m.status.as_str(),
                        if m.grounded() { ", grounded" } else { "" }
                    ));
                }
                Err(e) => said.push(format!("{}: step failed: {e}", walk.name)),
            }
        }
        frame.label = format!("after step {i}: {}", said.join("; "));
        scene.frames.push(frame);
    }
    scene
}
