//! `kollide move SCENE.json`: a mover run through a scene, one JSON line per step.
//!
//! The scene (one JSON object; see the README):
//! `{"world": [BODY, ...], "character": {"shape": SHAPE, "position": [x, y, z]},
//! "settings": {...}, "steps": [[dx, dy, dz] | {"repeat": [[dx, dy, dz], n]}, ...]}`.
//! Computed in f64. Errors name the JSON path, as in `kollide query`.

use crate::json::{array, number, vector, InputError, Obj, Result};
use crate::session::Scope;
use crate::space::body;
use kollide::math::DVec3;
use kollide::mover::{move_and_slide, Character, MoveOutput, MoveStep, MoverSettings};
use kollide::shape::Convex3;
use kollide::world::{BodyId, Shape3, World};
use serde_json::{json, Value};
use std::io::{self, Write};

/// The most steps a scene may ask for (repeats included): a typo of `1e9` would otherwise
/// run for hours.
const MAX_STEPS: u64 = 100_000_000;

/// A scene read and checked: the world, the character and its start, the settings, the
/// steps (repeats kept as counts).
#[derive(Debug)]
pub struct Scene {
    world: World<DVec3, Shape3<DVec3>>,
    /// `bodies[k]` is the index in `"world"` of the body with `BodyId(k)`.
    bodies: Vec<(BodyId, usize)>,
    character: Character<DVec3>,
    position: DVec3,
    settings: MoverSettings<DVec3>,
    steps: Vec<(DVec3, u64)>,
}

/// Reads a scene from its JSON text, its relative paths (a mesh's `"file"`, a terrain's
/// `"png"`) from the working directory.
///
/// # Errors
/// Malformed JSON, an unknown or missing field, or a bad value, naming its path.
pub fn read(text: &str) -> Result<Scene> {
    read_in(text, &Scope::in_folder(""))
}

/// [`read`] in `scope`: relative paths from its folder ([`Scope::without_files`]: none).
///
/// # Errors
/// As [`read`].
pub fn read_in(text: &str, scope: &Scope) -> Result<Scene> {
    let v: Value =
        crate::json::parse_strict(text).map_err(|e| InputError::new("", format!("not valid JSON: {e}")))?;
    let top = Obj::new(&v, "")?;
    top.only(&["world", "character", "settings", "steps"], "in a scene")?;
    let mut world = World::new();
    let mut bodies = Vec::new();
    for (i, b) in array(top.get("world")?, "world")?.iter().enumerate() {
        let path = format!("world[{i}]");
        let b = body::<DVec3>(scope, b, &path)?;
        let id = world.insert(b.shape, b.pose).map_err(|e| InputError::new(&path, e.to_string()))?;
        bodies.push((id, i));
    }
    let (character, position) = character(&Obj::new(top.get("character")?, "character")?)?;
    let settings = match top.opt("settings") {
        Some(s) => settings(&Obj::new(s, "settings")?)?,
        None => MoverSettings::default(),
    };
    let steps = steps(top.get("steps")?)?;
    Ok(Scene { world, bodies, character, position, settings, steps })
}

fn character(obj: &Obj) -> Result<(Character<DVec3>, DVec3)> {
    obj.only(&["shape", "position"], "for the character")?;
    let shape_path = obj.at("shape");
    let shape = Obj::new(obj.get("shape")?, &shape_path)?;
    let c = match crate::shape_json::convex3::<DVec3>(&shape)? {
        Convex3::Ball(b) => Character::Ball { radius: b.radius },
        Convex3::Ellipsoid(e) => Character::Ellipsoid { radii: e.radii },
        Convex3::Capsule(c) => Character::Capsule { half_height: c.half_height, radius: c.radius },
        _ => {
            return Err(InputError::new(
                shape.at("type"),
                "the character must be a ball, an ellipsoid or a capsule (without round)",
            ))
        }
    };
    Ok((c, obj.vec("position")?))
}

fn settings(obj: &Obj) -> Result<MoverSettings<DVec3>> {
    const FIELDS: [&str; 7] =
        ["skin", "max_iterations", "up", "max_slope", "step_height", "snap_to_ground", "climb_walls"];
    obj.only(&FIELDS, "in settings")?;
    let mut s = MoverSettings::default();
    let num = |key: &str, default: f64| obj.opt(key).map_or(Ok(default), |v| number::<f64>(v, &obj.at(key)));
    s.skin = num("skin", s.skin)?;
    s.max_slope = num("max_slope", s.max_slope)?;
    s.step_height = num("step_height", s.step_height)?;
    s.snap_to_ground = num("snap_to_ground", s.snap_to_ground)?;
    if let Some(v) = obj.opt("max_iterations") {
        let path = obj.at("max_iterations");
        s.max_iterations = v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| InputError::new(&path, format!("expected a whole number, got {v}")))?;
    }
    if let Some(v) = obj.opt("up") {
        s.up = vector(v, &obj.at("up"))?;
    }
    if let Some(v) = obj.opt("climb_walls") {
        s.climb_walls = v.as_bool().ok_or_else(|| {
            InputError::new(obj.at("climb_walls"), format!("expected true or false, got {v}"))
        })?;
    }
    s.validate().map_err(|e| match e {
        kollide::mover::MoverError::BadSetting { name, .. } => InputError::new(obj.at(name), e.to_string()),
        other => InputError::new(obj.path(), other.to_string()),
    })?;
    Ok(s)
}

fn steps(v: &Value) -> Result<Vec<(DVec3, u64)>> {
    let mut out = Vec::new();
    let mut total = 0u64;
    for (i, s) in array(v, "steps")?.iter().enumerate() {
        let path = format!("steps[{i}]");
        let (d, n) = if s.is_array() {
            (vector::<DVec3>(s, &path)?, 1)
        } else {
            let obj = Obj::new(s, &path)?;
            obj.only(&["repeat"], "in a step (a step is [dx, dy, dz] or {\"repeat\": [[dx, dy, dz], n]})")?;
            let rpath = obj.at("repeat");
            let pair = array(obj.get("repeat")?, &rpath)?;
            if pair.len() != 2 {
                return Err(InputError::new(
                    &rpath,
                    format!("expected [[dx, dy, dz], n], got {} items", pair.len()),
                ));
            }
            let d = vector::<DVec3>(&pair[0], &format!("{rpath}[0]"))?;
            let n = pair[1].as_u64().ok_or_else(|| {
                InputError::new(format!("{rpath}[1]"), format!("expected a whole number, got {}", pair[1]))
            })?;
            (d, n)
        };
        total = total.saturating_add(n);
        if total > MAX_STEPS {
            return Err(InputError::new(&path, format!("more than {MAX_STEPS} steps in all")));
        }
        out.push((d, n));
    }
    Ok(out)
}

impl Scene {
    /// The number of steps the scene asks for, repeats included.
    #[must_use]
    pub fn step_count(&self) -> u64 {
        self.steps.iter().map(|&(_, n)| n).sum()
    }

    /// Runs the steps, writing one JSON line each; returns the number of steps that failed.
    ///
    /// # Errors
    /// When writing fails.
    pub fn run<W: Write>(&self, out: &mut W) -> io::Result<usize> {
        let mut position = self.position;
        let mut failed = 0;
        let mut i = 0u64;
        for &(d, n) in &self.steps {
            for _ in 0..n {
                match move_and_slide(&self.world, &self.character, position, d, &self.settings, None) {
                    Ok(m) => {
                        position = m.position;
                        writeln!(out, "{}", self.line(i, &m))?;
                    }
                    Err(e) => {
                        failed += 1;
                        writeln!(out, "{}", json!({"step": i, "error": e.to_string()}))?;
                    }
                }
                i += 1;
            }
        }
        out.flush()?;
        Ok(failed)
    }

    /// The world the character moves through.
    pub(crate) fn world(&self) -> &World<DVec3, Shape3<DVec3>> {
        &self.world
    }

    /// The character, where it starts, and the settings' up direction.
    pub(crate) fn character(&self) -> (&Character<DVec3>, DVec3, DVec3) {
        (&self.character, self.position, self.settings.up)
    }

    /// Runs the steps (as [`Scene::run`] does) and keeps each step's output, or its error.
    pub(crate) fn outputs(&self) -> Vec<core::result::Result<MoveOutput<DVec3>, String>> {
        self.outputs_traced(None).into_iter().map(|(o, _)| o).collect()
    }

    /// [`Scene::outputs`], with the casts of step `traced` (0-based; every step for `None`
    /// when `all`) recorded beside its output (empty for the others).
    pub(crate) fn outputs_traced(&self, traced: Option<Traced>) -> Vec<(StepOutput, Vec<MoveStep<DVec3>>)> {
        let mut position = self.position;
        let mut out = Vec::new();
        for &(d, n) in &self.steps {
            for _ in 0..n {
                let i = out.len();
                let mut trace = Vec::new();
                let step = if traced.is_some_and(|t| t.covers(i)) {
                    move_and_slide(
                        &self.world,
                        &self.character,
                        position,
                        d,
                        &self.settings,
                        Some(&mut trace),
                    )
                } else {
                    move_and_slide(&self.world, &self.character, position, d, &self.settings, None)
                };
                if let Ok(m) = &step {
                    position = m.position;
                }
                out.push((step.map_err(|e| e.to_string()), trace));
            }
        }
        out
    }

    /// The index in `"world"` of a body.
    fn world_index(&self, id: BodyId) -> usize {
        self.bodies.iter().find(|(b, _)| *b == id).map_or(usize::MAX, |(_, i)| *i)
    }

    fn line(&self, step: u64, m: &MoveOutput<DVec3>) -> Value {
        let v = |p: DVec3| json!([p.x, p.y, p.z]);
        let contacts: Vec<Value> = m
            .contacts
            .iter()
            .map(|c| {
                json!({
                    "point": v(c.point),
                    "normal": v(c.normal),
                    "feature": c.feature.as_str(),
                    "part": [self.world_index(c.body), c.part],
                })
            })
            .collect();
        json!({
            "step": step,
            "position": v(m.position),
            "grounded": m.grounded(),
            "status": m.status.as_str(),
            "contacts": contacts,
        })
    }
}

/// A step's output, or its error.
pub(crate) type StepOutput = core::result::Result<MoveOutput<DVec3>, String>;

/// Which steps of a run record their casts.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Traced {
    /// Every step.
    All,
    /// Step `k` (0-based).
    One(usize),
}

impl Traced {
    fn covers(self, i: usize) -> bool {
        match self {
            Self::All => true,
            Self::One(k) => k == i,
        }
    }
}
