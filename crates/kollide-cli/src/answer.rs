//! One input line in, one output line out: parse, pick the vector type, run the query.

use crate::cast_answer::{cast_json, ray_json, sweep_json, CAST_FIELDS, RAY_FIELDS, SWEEP_FIELDS};
use crate::contact_answer::{contact_json, manifold_json};
use crate::json::{array, scalar_name, InputError, Obj, Result};
use crate::reply::{components, tidy, Parts};
use crate::space::{body, Space};
use kollide::math::{DVec2, DVec3, Real, Vec2, Vec3};
use kollide::query::{intersection_test, GjkStatus};
use kollide::world;
use serde::Serialize;
use serde_json::Value;

/// The scalar type the queries are computed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// `f32` (`Vec2`, `Vec3`, `Pose2`, `Pose3`): `--f32`.
    F32,
    /// `f64` (`DVec2`, `DVec3`, `DPose2`, `DPose3`): the default.
    F64,
}

/// The answer to one line: the JSON text to print (no newline) and whether it is an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// One line of JSON.
    pub json: String,
    /// `true` when the line was answered, `false` for an `{"line": n, "error": ...}`.
    pub ok: bool,
}

/// What the line asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Query {
    /// `"intersects"`: [`intersection_test`].
    Intersects,
    /// `"distance"`: [`distance`].
    Distance,
    /// `"contact"`: [`contact`] within the margin.
    Contact,
    /// `"manifold"`: [`manifold`] within the margin.
    Manifold,
    /// `"ray"`: [`kollide::query::cast::ray_cast`].
    Ray,
    /// `"cast"`: [`kollide::query::cast::shape_cast`].
    Cast,
    /// `"sweep"`: the swept ball or ellipsoid (circle or ellipse) against a soup.
    Sweep,
}

/// `{"line": n, "intersects": bool}`.
#[derive(Serialize)]
struct IntersectsReply {
    line: usize,
    intersects: bool,
    #[serde(flatten)]
    parts: Parts,
}

/// `{"line": n, "distance": d, ...}`: [`kollide::query::DistanceOutput`] in the world frame,
/// fields in the order of the docs.
#[derive(Serialize)]
struct DistanceReply<R> {
    line: usize,
    distance: R,
    lower_bound: R,
    upper_bound: R,
    point_a: Vec<R>,
    point_b: Vec<R>,
    normal: Vec<R>,
    iterations: u32,
    status: &'static str,
    #[serde(flatten)]
    parts: Parts,
}

/// `{"line": n, "error": "..."}`.
#[derive(Serialize)]
struct ErrorReply<'a> {
    line: usize,
    error: &'a str,
}

/// Answers line number `line` (1-based) whose text is `text`.
///
/// Never panics: every problem with the line becomes an `{"line": n, "error": ...}` reply.
#[must_use]
pub fn respond(line: usize, text: &str, precision: Precision) -> Reply {
    respond_parsed(line, parse(text), precision)
}

/// The text of a line parsed, or why it is not JSON.
pub(crate) fn parse(text: &str) -> Result<Value> {
    crate::json::parse_strict(text).map_err(|e| json_syntax_error(&e, text))
}

/// [`respond`] to a line already [`parse`]d: its text may be gone (a long line's is
/// released before its shapes are built).
pub(crate) fn respond_parsed(line: usize, parsed: Result<Value>, precision: Precision) -> Reply {
    let answered = parsed.and_then(|mut value| {
        let _packed = crate::packed::pack(&mut value);
        evaluate(line, &value, precision)
    });
    match answered {
        Ok(json) => Reply { json, ok: true },
        Err(e) => {
            let message = e.to_string();
            let json = serde_json::to_string(&ErrorReply { line, error: &message })
                .unwrap_or_else(|_| format!("{{\"line\":{line},\"error\":\"unprintable error\"}}"));
            Reply { json, ok: false }
        }
    }
}

/// Reads the dimension from the bodies' translations and answers in the matching vector
/// type.
fn evaluate(line: usize, value: &Value, precision: Precision) -> Result<String> {
    let top = Obj::new(value, "")?;
    let query = match top.str("query")? {
        "intersects" => Query::Intersects,
        "distance" => Query::Distance,
        "contact" => Query::Contact,
        "manifold" => Query::Manifold,
        "ray" => Query::Ray,
        "cast" => Query::Cast,
        "sweep" => Query::Sweep,
        other => {
            let msg = format!(
                "unknown query \"{other}\" (expected \"intersects\", \"distance\", \"contact\", \"manifold\", \"ray\", \"cast\" or \"sweep\")"
            );
            return Err(InputError::new("query", msg));
        }
    };
    let fields: &[&str] = match query {
        Query::Contact | Query::Manifold => &["query", "a", "b", "margin"],
        Query::Intersects | Query::Distance => &["query", "a", "b"],
        Query::Ray => RAY_FIELDS,
        Query::Cast => CAST_FIELDS,
        Query::Sweep => SWEEP_FIELDS,
    };
    top.only(fields, "in a query")?;
    // The dimension comes from the bodies' translations (both must agree).
    let dim = match query {
        Query::Ray => dimension(top.get("b")?, "b")?,
        Query::Sweep => dimension(top.get("mover")?, "mover")?,
        _ => {
            let dim = dimension(top.get("a")?, "a")?;
            let dim_b = dimension(top.get("b")?, "b")?;
            if dim_b != dim {
                let msg = format!(
                    "has {dim_b} numbers but a.translation has {dim}: both bodies must be 2D or both 3D"
                );
                return Err(InputError::new("b.translation", msg));
            }
            dim
        }
    };
    match (dim, precision) {
        (2, Precision::F32) => answer::<Vec2>(line, query, &top),
        (2, Precision::F64) => answer::<DVec2>(line, query, &top),
        (_, Precision::F32) => answer::<Vec3>(line, query, &top),
        (_, Precision::F64) => answer::<DVec3>(line, query, &top),
    }
}

/// The `"margin"` of a contact or manifold line: optional, `>= 0`.
fn margin(top: &Obj) -> Result<f64> {
    match top.opt("margin") {
        None => Ok(0.0),
        Some(v) => {
            let m: f64 = crate::json::number(v, "margin")?;
            if m < 0.0 {
                return Err(InputError::new("margin", format!("must be >= 0, got {m}")));
            }
            Ok(m)
        }
    }
}

/// Says what is wrong with a line that is not JSON. serde_json's message ends with the
/// position (`at line 1 column 7`); within one line only the column says anything.
/// A word JavaScript writes for a non-finite number (`NaN`, `Infinity`) where serde_json
/// stopped gets the same hint as a number out of range.
fn json_syntax_error(e: &serde_json::Error, text: &str) -> InputError {
    let full = e.to_string();
    let what = full.split(" at line ").next().unwrap_or(&full);
    // serde_json's column points at or just past the start of the bad token.
    let at = text.get(e.column().saturating_sub(3)..).unwrap_or("").trim_start_matches([' ', ':', ',', '[']);
    let non_finite_word = ["NaN", "Infinity", "-Infinity", "inf", "nan"].iter().any(|w| at.starts_with(w));
    let hint = if what.contains("number out of range") || non_finite_word {
        " (every number must be finite and within f64 range; JSON has no NaN or infinity)"
    } else {
        ""
    };
    InputError::new("", format!("invalid JSON at column {}: {what}{hint}", e.column()))
}

/// The dimension of the body at `path`: the length of its translation, 2 or 3.
fn dimension(v: &Value, path: &str) -> Result<usize> {
    let obj = Obj::new(v, path)?;
    // Before the translation is needed: a misspelt `"position"` is named as such.
    obj.only(&["shape", "translation", "rotation", "angle"], "for a body")?;
    let at = obj.at("translation");
    match array(obj.get("translation")?, &at)?.len() {
        n @ (2 | 3) => Ok(n),
        n => Err(InputError::new(at, format!("expected 2 or 3 numbers, got {n}"))),
    }
}

/// Reads the line's bodies in the vector type `V`, runs the query and writes the reply.
fn answer<V: Space>(line: usize, query: Query, top: &Obj) -> Result<String> {
    let pair = || -> Result<_> { Ok((body::<V>(top.get("a")?, "a")?, body::<V>(top.get("b")?, "b")?)) };
    match query {
        Query::Ray => ray_json::<V>(line, top),
        Query::Cast => cast_json::<V>(line, top),
        Query::Sweep => sweep_json::<V>(line, top),
        Query::Contact => {
            let (a, b) = pair()?;
            let margin = V::Real::from_f64(margin(top)?);
            let c = world::contact(&a.shape, &a.pose, &b.shape, &b.pose, margin);
            let parts = c.map_or_else(Parts::default, |c| Parts::of(c.part_a, c.part_b));
            contact_json(line, c.map(|c| c.value), parts)
        }
        Query::Manifold => {
            let (a, b) = pair()?;
            let margin = V::Real::from_f64(margin(top)?);
            let m = world::manifold(&a.shape, &a.pose, &b.shape, &b.pose, margin);
            manifold_json(line, &m.value, Parts::of(m.part_a, m.part_b))
        }
        Query::Intersects => {
            let (a, b) = pair()?;
            if let (Some(ca), Some(cb)) = (V::as_convex(&a.shape), V::as_convex(&b.shape)) {
                let out = intersection_test(ca, &a.pose, cb, &b.pose);
                if out.status == GjkStatus::NonFiniteSupport {
                    return Err(overflow::<V>(out.status));
                }
                return written(serde_json::to_string(&IntersectsReply {
                    line,
                    intersects: out.intersects,
                    parts: Parts::default(),
                }));
            }
            let hit = world::intersects(&a.shape, &a.pose, &b.shape, &b.pose);
            let parts = hit.map_or_else(Parts::default, |h| Parts::of(h.part_a, h.part_b));
            written(serde_json::to_string(&IntersectsReply { line, intersects: hit.is_some(), parts }))
        }
        Query::Distance => {
            let (a, b) = pair()?;
            let Some(answer) = world::distance(&a.shape, &a.pose, &b.shape, &b.pose) else {
                return Err(overflow::<V>(GjkStatus::MaxIterations));
            };
            let out = answer.value;
            let numbers = [out.distance, out.lower_bound, out.upper_bound];
            let vectors = [out.point_a, out.point_b, out.normal];
            if !(numbers.iter().all(|x| x.is_finite()) && vectors.iter().all(|v| v.is_finite_vec())) {
                return Err(overflow::<V>(out.status));
            }
            written(serde_json::to_string(&DistanceReply {
                line,
                distance: tidy(out.distance),
                lower_bound: tidy(out.lower_bound),
                upper_bound: tidy(out.upper_bound),
                point_a: components(out.point_a),
                point_b: components(out.point_b),
                normal: components(out.normal),
                iterations: out.iterations,
                status: out.status.as_str(),
                parts: Parts::of(answer.part_a, answer.part_b),
            }))
        }
    }
}

/// serde_json's result as the line's result.
fn written(json: serde_json::Result<String>) -> Result<String> {
    json.map_err(|e| InputError::new("", format!("could not write the answer: {e}")))
}

/// The error for a query whose answer is not finite: valid shapes only get there when the
/// arithmetic overflows (coordinates near the largest float). Printing `null` or an
/// infinite distance would pass a made-up answer on as a real one.
fn overflow<V: Space>(status: GjkStatus) -> InputError {
    let msg = format!(
        "no finite answer in {} (status {}): coordinates or sizes too large for the arithmetic",
        scalar_name::<V::Real>(),
        status.as_str()
    );
    InputError::new("", msg)
}
