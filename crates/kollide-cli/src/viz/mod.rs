//! `kollide viz`: one self-contained HTML page (no network, no external file) with a 3D view
//! the reader orbits and zooms, and a slider:
//! - a query file (`.jsonl`): a frame per query line, its bodies and its answer (the same
//!   answer as `kollide query`, in `f64`); with `--steps`, one line's GJK and EPA iterations;
//! - a scene of `kollide move` (`.json`): the world, the character's path, a frame per step
//!   with the character and its contacts;
//! - the demo world (`kollide demo --viz`): both characters' walks.
//!
//! The page is [`page.html`] with the scene's JSON and [`viewer.js`] inlined.

mod iterations;
mod marks;
mod mover_steps;
mod runs;
mod scene;
mod tessellate;

use crate::picture::{answer_line, is_define, pick_line, session_before, PictureError};
use crate::session::Session;
use kollide::math::{DVec2, DVec3};
use scene::{Frame, Scene};
use std::path::Path;

pub use runs::MAX_FRAMES;

/// Query lines drawn at most (each is a frame with its own meshes).
pub const MAX_QUERY_LINES: usize = 1_000;
/// Steps of a `kollide move` scene the viewer runs at most.
pub const MAX_RUN_STEPS: u64 = 200_000;

const PAGE: &str = include_str!("page.html");
const VIEWER: &str = include_str!("viewer.js");

/// Why no page was made; the message names the line or field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VizError(pub String);

impl core::fmt::Display for VizError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for VizError {}

impl From<PictureError> for VizError {
    fn from(e: PictureError) -> Self {
        VizError(e.0)
    }
}

/// The page of a query file: a frame per non-blank line (or only line `line`); with
/// `steps`, the iterations of line `line` (or the first) instead. A line `kollide query`
/// answers with an error becomes a frame that says so.
///
/// # Errors
/// [`VizError`] for a file without query lines, a missing line, more than
/// [`MAX_QUERY_LINES`] lines, or (with `steps`) a line whose iterations cannot be shown.
pub fn queries(input: &[u8], line: Option<usize>, steps: bool) -> Result<String, VizError> {
    queries_in(input, Path::new(""), line, steps)
}

/// [`queries`] of a query file in `folder`, where its relative paths start. A define line
/// is a frame that names what it defined (its shape is drawn where a query uses it).
///
/// # Errors
/// As [`queries`].
pub fn queries_in(input: &[u8], folder: &Path, line: Option<usize>, steps: bool) -> Result<String, VizError> {
    if steps {
        let (n, raw) = pick_line(input, line)?;
        let mut session = session_before(input, n, folder);
        let answered = answer_line(&mut session, n, raw)?;
        let scene = if answered.dim == 2 {
            iterations::scene::<DVec2>(n, &answered)
        } else {
            iterations::scene::<DVec3>(n, &answered)
        }
        .map_err(VizError)?;
        return Ok(page(&scene));
    }
    let lines: Vec<(usize, &[u8])> = match line {
        Some(_) => vec![pick_line(input, line)?],
        None => input
            .split(|&b| b == b'\n')
            .enumerate()
            .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
            .map(|(i, l)| (i + 1, l))
            .collect(),
    };
    if lines.is_empty() {
        return Err(VizError("the file has no query line".into()));
    }
    if lines.len() > MAX_QUERY_LINES {
        return Err(VizError(format!(
            "the file has {} query lines; the viewer shows at most {MAX_QUERY_LINES} (pick one with --line)",
            lines.len()
        )));
    }
    let mut scene = Scene { slider: "query".into(), refit: true, ..Scene::default() };
    let mut dims = Vec::new();
    let first = lines.first().map_or(1, |l| l.0);
    let mut session = if line.is_some() {
        session_before(input, first, folder)
    } else {
        Session::new(crate::Precision::F64, folder)
    };
    for (n, raw) in lines {
        if is_define(raw) {
            let text = String::from_utf8_lossy(raw);
            let reply = session.respond(n, text.trim_start_matches('\u{feff}').trim());
            let label = match serde_json::from_str::<serde_json::Value>(&reply.json) {
                Ok(v) if reply.ok => format!("line {n}: defined {}", v["defined"]),
                Ok(v) => format!("line {n}: {}", v["error"].as_str().unwrap_or("malformed")),
                Err(e) => format!("line {n}: {e}"),
            };
            scene.frames.push(Frame { label, items: Vec::new() });
            continue;
        }
        let frame = answer_line(&mut session, n, raw).and_then(|answered| {
            dims.push(answered.dim);
            let frame = if answered.dim == 2 {
                marks::frame::<DVec2>(n, &answered, &mut scene)
            } else {
                marks::frame::<DVec3>(n, &answered, &mut scene)
            };
            frame.map_err(|e| PictureError(format!("line {n}: {e}")))
        });
        scene.frames.push(frame.unwrap_or_else(|e| Frame { label: e.0, items: Vec::new() }));
    }
    scene.flat = !dims.is_empty() && dims.iter().all(|&d| d == 2);
    let count = scene.frames.len();
    scene.title = if count == 1 {
        scene.frames[0].label.clone()
    } else {
        format!("{count} query lines, answered as kollide query answers them (f64)")
    };
    scene.caption = "A blue, B orange (a ray's or a sweep's target orange, soups sand, the triangle hit red), the \
                     answer red: closest or contact points and the normal, manifold points with their feature \
                     ids, a ray and its hit; dashed: paths; faint: the bodies at the time of impact."
        .into();
    Ok(page(&scene))
}

/// The page of a `kollide move` scene's run: a frame per step; with `steps`, a frame per
/// cast of step `line` (1-based), or of every step when no line is given.
///
/// # Errors
/// [`VizError`] for a malformed scene (naming the field), more than [`MAX_RUN_STEPS`] steps,
/// a `line` beyond the last step, or (with `steps`) more than [`runs::MAX_FRAMES`] casts.
pub fn move_run(text: &str, line: Option<usize>, steps: bool) -> Result<String, VizError> {
    move_run_in(text, Path::new(""), line, steps)
}

/// [`move_run`] of a scene file in `folder`, where its relative paths start.
///
/// # Errors
/// As [`move_run`].
pub fn move_run_in(text: &str, folder: &Path, line: Option<usize>, steps: bool) -> Result<String, VizError> {
    let scope = crate::session::Scope::in_folder(folder);
    let s = crate::move_scene::read_in(text, &scope).map_err(|e| VizError(e.to_string()))?;
    if s.step_count() > MAX_RUN_STEPS {
        return Err(VizError(format!(
            "the scene has {} steps; the viewer runs at most {MAX_RUN_STEPS}",
            s.step_count()
        )));
    }
    if steps || line.is_some() {
        return move_casts(&s, line);
    }
    let outputs = s.outputs();
    let (character, start, up) = s.character();
    let walk = runs::Walk {
        name: "the character",
        character,
        up,
        start,
        steps: outputs.iter().map(|o| o.as_ref().map_err(String::as_str)).collect(),
    };
    let failed = outputs.iter().filter(|o| o.is_err()).count();
    let title = format!(
        "kollide move: {} steps{}",
        outputs.len(),
        if failed > 0 { format!(", {failed} failed") } else { String::new() }
    );
    Ok(page(&runs::scene(s.world(), &[walk], title)))
}

/// The page of a run's casts (all steps', or step `line`'s).
fn move_casts(s: &crate::move_scene::Scene, line: Option<usize>) -> Result<String, VizError> {
    use crate::move_scene::Traced;
    let count = s.step_count();
    let traced = match line {
        Some(n) if n == 0 || n as u64 > count => {
            return Err(VizError(format!("--line {n}: the scene has steps 1 to {count}")));
        }
        Some(n) => Traced::One(n - 1),
        None => Traced::All,
    };
    let outputs = s.outputs_traced(Some(traced));
    let casts: usize = outputs.iter().map(|(_, t)| t.len()).sum();
    if casts > runs::MAX_FRAMES {
        return Err(VizError(format!(
            "the run makes {casts} casts; the viewer shows at most {} (pick one step with --line N)",
            runs::MAX_FRAMES
        )));
    }
    let (character, start, up) = s.character();
    let which = line.map_or_else(|| format!("its {count} steps"), |n| format!("step {n} of {count}"));
    let title = format!("kollide move: the casts of {which}");
    Ok(page(&mover_steps::scene(s.world(), character, up, start, &outputs, title)))
}

/// The page of the demo world: the ball's and the ellipsoid's walks.
#[must_use]
pub fn demo(dw: &kollide_demo::DemoWorld, walked: &[kollide_demo::Run]) -> String {
    let walks: Vec<runs::Walk> = walked
        .iter()
        .map(|r| runs::Walk {
            name: r.name,
            character: &r.character,
            up: kollide_demo::settings().up,
            start: r.start,
            steps: r.steps.iter().map(Ok).collect(),
        })
        .collect();
    let title = format!(
        "kollide demo: the ball and the ellipsoid walked by the mover over the shipped heightmap ({} bodies)",
        dw.world.len()
    );
    page(&runs::scene(&dw.world, &walks, title))
}

/// `n` as an English ordinal: 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st, 22nd,
/// ..., 101st, 111th.
#[must_use]
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The HTML page of a scene: the template with the data and the viewer inlined.
fn page(scene: &Scene) -> String {
    // "<" never occurs in JSON outside strings; escaped inside them, the data cannot close
    // its <script> element.
    let data = scene.to_json().replace('<', "\\u003c");
    // The viewer goes in first: the data may hold any text, the viewer no marker.
    PAGE.replacen("/*VIEWER*/", VIEWER, 1).replacen("/*SCENE*/", &data, 1)
}
