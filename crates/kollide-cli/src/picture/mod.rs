//! `kollide picture`: one query line of a query file drawn as an SVG a person can read.
//!
//! The line is answered by the same code as `kollide query` (in `f64`), and the picture
//! draws that answer: the shapes at their poses (A blue, B orange), then the answer in dark
//! red (closest points, normal, contact points with their ids, the ray and its hit, a cast's
//! bodies at the time of impact, a sweep's path and the feature it hit), under a title that
//! says the query and its status. With `--steps`, the iterations follow as a strip of small
//! panels: each axis of the separating-axis test with both projections; GJK's over the
//! Minkowski difference of the cores (the simplex, `v` and the support point `w`); EPA's
//! polytope. 2D queries are drawn in the world plane with axis ticks; 3D ones in a fixed
//! oblique projection with an axis triad and a scale bar.

pub(crate) mod draw;
mod overlay;
pub(crate) mod steps;
mod svg;
pub(crate) mod sweep_steps;

use crate::answer::Precision;
use crate::json::{array, parse_strict, Obj};
use crate::session::{Scope, Session};
use draw::Plane;
use kollide::math::{DVec2, DVec3};
use serde_json::Value;
use std::path::Path;
use svg::{Page, Panel, Prim};

/// Why no picture was drawn: the line is missing or blank, or `kollide query` answers it
/// with an error (the message names the line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PictureError(pub String);

impl core::fmt::Display for PictureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PictureError {}

/// The main panel's size and the steps' panels' size, in pixels.
const MAIN: (f64, f64) = (720.0, 520.0);
const STEP: f64 = 160.0;
const STEPS_PER_ROW: usize = 4;
/// Steps drawn at most (GJK rarely needs more than a dozen).
const MAX_STEPS: usize = 16;

/// What a query draws: its primitives, a title line for the answer, the steps' panels.
struct Drawing {
    prims: Vec<Prim>,
    summary: String,
    /// More of the legend (what dashed outlines mean).
    legend: String,
    steps: Vec<(String, Vec<Prim>)>,
    /// Why `--steps` drew nothing, when it did not.
    no_steps: Option<String>,
}

/// The SVG of line `line` of `input` (1-based; the first non-blank line when `None`), with
/// GJK's iterations when `steps`. Like `kollide query`, only the line drawn must be UTF-8.
///
/// # Errors
/// [`PictureError`] when the line does not exist, is blank or not UTF-8, or `kollide query`
/// answers it with an error.
pub fn picture(input: &[u8], line: Option<usize>, steps: bool) -> Result<String, PictureError> {
    picture_in(input, Path::new(""), line, steps)
}

/// [`picture`] of a query file in `folder`, where its relative paths start (the shapes its
/// earlier lines define are defined for the line drawn).
///
/// # Errors
/// As [`picture`].
pub fn picture_in(
    input: &[u8],
    folder: &Path,
    line: Option<usize>,
    steps: bool,
) -> Result<String, PictureError> {
    let (n, raw) = pick_line(input, line)?;
    let mut session = session_before(input, n, folder);
    let line = answer_line(&mut session, n, raw)?;
    let err = |e: crate::json::InputError| PictureError(format!("line {n}: {e}"));
    let top = line.top().map_err(err)?;
    let drawing = if line.dim == 2 {
        overlay::draw::<DVec2>(&line.scope, &line.query, &top, &line.answer, steps)
    } else {
        overlay::draw::<DVec3>(&line.scope, &line.query, &top, &line.answer, steps)
    }
    .map_err(err)?;
    Ok(layout(n, &line.query, line.dim, drawing))
}

/// A query line answered by `kollide query`'s code (in `f64`): its JSON, the query's name,
/// the answer, the dimension of its bodies.
#[derive(Debug)]
pub(crate) struct Answered {
    pub value: Value,
    pub query: String,
    pub answer: Value,
    pub dim: usize,
    /// The scope the line was answered in (its folder, the shapes defined before it).
    pub scope: Scope,
}

impl Answered {
    /// The line's top-level object.
    pub fn top(&self) -> crate::json::Result<Obj<'_, 'static>> {
        Obj::new(&self.value, "")
    }

    /// The answer in words, as the picture's title gives it.
    pub fn summary(&self) -> String {
        let Ok(top) = self.top() else { return String::new() };
        let drawing = if self.dim == 2 {
            overlay::draw::<DVec2>(&self.scope, &self.query, &top, &self.answer, false)
        } else {
            overlay::draw::<DVec3>(&self.scope, &self.query, &top, &self.answer, false)
        };
        drawing.map(|d| d.summary).unwrap_or_default()
    }
}

/// The text of line `n` (its raw bytes), without a byte-order mark and blanks around.
fn line_text(n: usize, raw: &[u8]) -> Result<&str, PictureError> {
    Ok(core::str::from_utf8(raw)
        .map_err(|e| {
            PictureError(format!("line {n} is not valid UTF-8 (bad byte at column {})", e.valid_up_to() + 1))
        })?
        .trim_start_matches('\u{feff}')
        .trim())
}

/// Whether a raw line defines a shape (`{"define": ...}`).
pub(crate) fn is_define(raw: &[u8]) -> bool {
    let Ok(text) = core::str::from_utf8(raw) else { return false };
    // Only lines that can be define lines are parsed.
    text.contains("\"define\"")
        && parse_strict(text.trim_start_matches('\u{feff}').trim()).is_ok_and(|v| v.get("define").is_some())
}

/// A session in `f64` (as pictures are drawn) whose relative paths start at `folder`, with
/// the define lines before line `n` answered.
pub(crate) fn session_before(input: &[u8], n: usize, folder: &Path) -> Session {
    let mut session = Session::new(Precision::F64, folder);
    for (i, raw) in input.split(|&b| b == b'\n').enumerate().take(n.saturating_sub(1)) {
        if is_define(raw) {
            if let Ok(text) = line_text(i + 1, raw) {
                let _ = session.respond(i + 1, text);
            }
        }
    }
    session
}

/// Answers line `n` (its raw bytes) in `session`, as `kollide query` would.
///
/// # Errors
/// [`PictureError`] when the line is not UTF-8, `kollide query` answers it with an error,
/// or it is no single query (a define line, a batch).
pub(crate) fn answer_line(session: &mut Session, n: usize, raw: &[u8]) -> Result<Answered, PictureError> {
    let query_text = line_text(n, raw)?;
    let reply = session.respond(n, query_text);
    let answer: Value = serde_json::from_str(&reply.json).map_err(|e| PictureError(e.to_string()))?;
    if let Some(name) = answer.get("defined") {
        return Err(PictureError(format!("line {n} defines the shape {name}: there is no query to draw")));
    }
    if let Some(Value::Array(answers)) = answer.get("answers") {
        return Err(PictureError(format!(
            "line {n} is a batch of {} queries; one query is drawn at a time (write it on a line of its own)",
            answers.len()
        )));
    }
    if !reply.ok {
        let msg = answer.get("error").and_then(Value::as_str).unwrap_or("malformed");
        return Err(PictureError(format!("line {n}: {msg}")));
    }
    // The line parsed and answered, so the reads below only fail on what `respond` checked.
    let err = |e: crate::json::InputError| PictureError(format!("line {n}: {e}"));
    let value = parse_strict(query_text).map_err(|e| PictureError(e.to_string()))?;
    let top = Obj::new(&value, "").map_err(err)?;
    let query = top.str("query").map_err(err)?.to_string();
    let body_key = match query.as_str() {
        "ray" => "b",
        "sweep" => "mover",
        _ => "a",
    };
    let body = Obj::new(top.get(body_key).map_err(err)?, body_key).map_err(err)?;
    let dim = array(body.get("translation").map_err(err)?, "translation").map_err(err)?.len();
    Ok(Answered { value, query, answer, dim, scope: session.scope().clone() })
}

/// The line to draw: line `line` (1-based) or the first non-blank one, as raw bytes.
pub(crate) fn pick_line(input: &[u8], line: Option<usize>) -> Result<(usize, &[u8]), PictureError> {
    let blank = |l: &[u8]| l.iter().all(u8::is_ascii_whitespace);
    let mut lines = input.split(|&b| b == b'\n');
    // A file ending in a newline has no line after it.
    let count = input.split(|&b| b == b'\n').count() - usize::from(input.ends_with(b"\n"));
    match line {
        Some(0) => Err(PictureError("--line counts from 1".into())),
        Some(n) => match lines.nth(n - 1).filter(|_| n <= count) {
            None => Err(PictureError(format!("line {n} does not exist: the file has {count} lines"))),
            Some(l) if blank(l) => Err(PictureError(format!("line {n} is blank"))),
            Some(l) => Ok((n, l)),
        },
        None => lines
            .enumerate()
            .find(|(_, l)| !blank(l) && !is_define(l))
            .map(|(i, l)| (i + 1, l))
            .ok_or_else(|| PictureError("the file has no query line".into())),
    }
}

/// The page: title, main panel with ticks (2D) or a triad and scale bar (3D), then the
/// steps' strip.
fn layout(n: usize, query: &str, dim: usize, d: Drawing) -> String {
    let (left, top) = (70.0, 62.0);
    let rows = d.steps.len().div_ceil(STEPS_PER_ROW);
    let width = left + MAIN.0 + 30.0;
    let steps_top = top + MAIN.1 + 80.0;
    let height = steps_top + rows as f64 * (STEP + 44.0);
    let mut page = Page::new(width, height);
    page.text(DVec2::new(left, 24.0), &format!("{query}: {}", d.summary), "title", "start");
    let colours = match query {
        "ray" => "the body orange, the ray and the answer in red",
        "sweep" => "the mover blue, what it sweeps through tan or orange, the answer in red",
        _ => "A blue, B orange, the answer in red",
    };
    let legend = format!("line {n}, {dim}D, computed in f64. {colours}{}", d.legend);
    page.text(DVec2::new(left, 44.0), &legend, "caption", "start");
    let main = Panel::fit(left, top, MAIN.0, MAIN.1, &d.prims);
    page.frame(&main, None);
    page.draw(&main, "main", &d.prims);
    if dim == 2 {
        page.ticks(&main);
    } else {
        steps::triad(&mut page, &main);
    }
    if let Some(why) = &d.no_steps {
        page.text(DVec2::new(left, steps_top - 20.0), why, "caption", "start");
    } else if !d.steps.is_empty() {
        let cast = [
            "Each advancement of the cast: the bodies where they are at the time reached (nothing touches before it), their closest points a and b",
            "there and the distance between them. A translating pair advances by GJK's ray cast on the Minkowski difference; a turning pair by",
            "conservative advancement: the gap over a bound on how fast it can close.",
        ];
        let pair = [
            "SAT: each axis tried, with the cores' projections on it (A blue, B orange) and the separation. GJK and EPA: on the cores (radii are added",
            "after), in A's frame, over the Minkowski difference A - B (green). GJK: the simplex it starts from, v its point nearest the origin O, w the",
            "next support point (along -v). EPA: the polytope, its face nearest O (red) at d, w",
        ];
        let sweep = [
            "Each test of each triangle (segment) whose box meets the swept box (shrunk to the earliest hit so far): the start, the face plane (line)",
            "at the radius, then each edge's cylinder and each corner's sphere (circle). The item tested in red; the mover (dashed) where the test's",
            "root t puts it, and the point touched there. The earliest root on its feature is the hit.",
        ];
        let what = match query {
            "cast" => cast,
            "sweep" => sweep,
            _ => pair,
        };
        for (k, line) in what.iter().enumerate() {
            page.text(DVec2::new(left, steps_top - 43.0 + 13.0 * k as f64), line, "caption", "start");
        }
    }
    for (i, (caption, prims)) in d.steps.iter().enumerate() {
        let (row, col) = (i / STEPS_PER_ROW, i % STEPS_PER_ROW);
        let x = left + col as f64 * (STEP + 20.0);
        let y = steps_top + row as f64 * (STEP + 44.0);
        let panel = Panel::fit(x, y, STEP, STEP, prims);
        page.frame(&panel, Some(caption));
        page.draw(&panel, &format!("step-{}", i + 1), prims);
    }
    page.finish()
}

/// A number for a title: six significant digits, or an exponent for very large or small.
fn short(x: f64) -> String {
    if x != 0.0 && (x.abs() >= 1e5 || x.abs() < 1e-3) {
        return format!("{x:.4e}");
    }
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// The larger side of the box around the points of `prims` in the plane (1 when empty).
fn extent(prims: &[Prim]) -> f64 {
    let pts: Vec<DVec2> = prims.iter().flat_map(Prim::points).filter(|p| p.is_finite()).collect();
    let lo = pts.iter().fold(DVec2::splat(f64::INFINITY), |m, p| m.min(*p));
    let hi = pts.iter().fold(DVec2::splat(f64::NEG_INFINITY), |m, p| m.max(*p));
    let e = (hi - lo).max_element();
    if e.is_finite() && e > 0.0 {
        e
    } else {
        1.0
    }
}

/// A 3D unit vector or 2D one for a JSON point (used by the overlays and steps).
fn point<V: Plane>(v: &Value) -> Option<V> {
    let c: Vec<f64> = v.as_array()?.iter().map(Value::as_f64).collect::<Option<_>>()?;
    V::from_coords(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_picked_by_number_or_first_non_blank() {
        let text = b"\n{\"a\": 1}\n\n{\"b\": 2}\n";
        assert_eq!(pick_line(text, None).unwrap(), (2, &b"{\"a\": 1}"[..]));
        assert_eq!(pick_line(text, Some(4)).unwrap(), (4, &b"{\"b\": 2}"[..]));
        assert!(pick_line(text, Some(5)).unwrap_err().0.contains("has 4 lines"));
        assert!(pick_line(text, Some(3)).unwrap_err().0.contains("blank"));
        assert!(pick_line(text, Some(9)).unwrap_err().0.contains("does not exist"));
        assert!(pick_line(text, Some(0)).is_err());
        assert!(pick_line(b"  \n", None).is_err());
        let e = picture(b"\xff{}\n", None, false).unwrap_err();
        assert!(e.0.contains("line 1 is not valid UTF-8"), "{e}");
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short(0.35), "0.35");
        assert_eq!(short(2.0), "2");
        assert_eq!(short(-0.0), "0");
        assert_eq!(short(1.5e-7), "1.5000e-7");
    }
}
