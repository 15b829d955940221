//! One input line in, one output line out: parse, pick the vector type, run the query.

use crate::batch::{batch_b, each, Answers};
use crate::cast_answer::{cast_json, ray_json, sweep_json, CAST_FIELDS, RAY_FIELDS, SWEEP_FIELDS};
use crate::contact_answer::{contact_json, manifold_json};
use crate::json::{array, scalar_name, InputError, Obj, Result};
use crate::reply::{components, tidy, Parts};
use crate::session::{Scope, Session};
use crate::space::{body, Space};
use kollide::math::{DVec2, DVec3, Pose, Real, Vec2, Vec3};
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

/// `{"line": n, "intersects": bool}` (without `line` in a batch's answers).
#[derive(Serialize)]
struct IntersectsReply {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    intersects: bool,
    #[serde(flatten)]
    parts: Parts,
}

/// `{"line": n, "distance": d, ...}`: [`kollide::query::DistanceOutput`] in the world frame,
/// fields in the order of the docs.
#[derive(Serialize)]
struct DistanceReply<R> {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
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

/// Answers line number `line` (1-based) whose text is `text`, as a line on its own: no
/// shape is defined, and relative paths start at the working directory (a `define` line
/// is answered, but what it defines is forgotten; [`Session`] keeps it).
///
/// Never panics: every problem with the line becomes an `{"line": n, "error": ...}` reply.
#[must_use]
pub fn respond(line: usize, text: &str, precision: Precision) -> Reply {
    Session::new(precision, "").respond(line, text)
}

/// The text of a line parsed, or why it is not JSON.
pub(crate) fn parse(text: &str) -> Result<Value> {
    crate::json::parse_strict(text).map_err(|e| json_syntax_error(&e, text))
}

/// The reply `{"line": n, "error": "..."}`.
pub(crate) fn error_reply(line: usize, e: &InputError) -> Reply {
    let message = e.to_string();
    let json = serde_json::to_string(&ErrorReply { line, error: &message })
        .unwrap_or_else(|_| format!("{{\"line\":{line},\"error\":\"unprintable error\"}}"));
    Reply { json, ok: false }
}

/// Reads the dimension from the bodies' translations and answers the query line `top` in
/// the matching vector type.
pub(crate) fn evaluate(line: usize, top: &Obj, precision: Precision, scope: &Scope) -> Result<Reply> {
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
        Query::Contact | Query::Manifold => &["query", "a", "b", "margin", "translations_b", "rotations_b"],
        Query::Intersects | Query::Distance => &["query", "a", "b", "translations_b", "rotations_b"],
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
            let b = top.get("b")?;
            // A batch's `translations_b` take the place of b's translation: each is read
            // with the dimension of a.
            if top.opt("translations_b").is_some() && b.get("translation").is_none() {
                dimension_fields(b, "b")?;
                return by_dimension(dim, precision, line, query, top, scope);
            }
            let dim_b = dimension(b, "b")?;
            if dim_b != dim {
                let msg = format!(
                    "has {dim_b} numbers but a.translation has {dim}: both bodies must be 2D or both 3D"
                );
                return Err(InputError::new("b.translation", msg));
            }
            dim
        }
    };
    by_dimension(dim, precision, line, query, top, scope)
}

/// Answers in the vector type of `dim` and `precision`.
fn by_dimension(
    dim: usize,
    precision: Precision,
    line: usize,
    query: Query,
    top: &Obj,
    scope: &Scope,
) -> Result<Reply> {
    match (dim, precision) {
        (2, Precision::F32) => answer::<Vec2>(line, query, top, scope),
        (2, Precision::F64) => answer::<DVec2>(line, query, top, scope),
        (_, Precision::F32) => answer::<Vec3>(line, query, top, scope),
        (_, Precision::F64) => answer::<DVec3>(line, query, top, scope),
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

/// Checks the body at `path` for fields no body has (before its translation is needed: a
/// misspelt `"position"` is named as such).
fn dimension_fields<'v>(v: &'v Value, path: &'v str) -> Result<Obj<'v, 'v>> {
    let obj = Obj::new(v, path)?;
    obj.only(&["shape", "translation", "rotation", "angle"], "for a body")?;
    Ok(obj)
}

/// The dimension of the body at `path`: the length of its translation, 2 or 3.
fn dimension(v: &Value, path: &str) -> Result<usize> {
    let obj = dimension_fields(v, path)?;
    let at = obj.at("translation");
    match array(obj.get("translation")?, &at)?.len() {
        n @ (2 | 3) => Ok(n),
        n => Err(InputError::new(at, format!("expected 2 or 3 numbers, got {n}"))),
    }
}

/// Reads the line's bodies in the vector type `V`, runs the query (or each query of a
/// batch) and writes the reply.
fn answer<V: Space>(line: usize, query: Query, top: &Obj, scope: &Scope) -> Result<Reply> {
    match query {
        Query::Ray => return ray_json::<V>(line, top, scope),
        Query::Cast => return cast_json::<V>(line, top, scope),
        Query::Sweep => return sweep_json::<V>(line, top, scope),
        _ => {}
    }
    let a = body::<V>(scope, top.get("a")?, "a")?;
    let margin = match query {
        Query::Contact | Query::Manifold => V::Real::from_f64(margin(top)?),
        _ => V::Real::ZERO,
    };
    if top.opt("translations_b").is_none() && top.opt("rotations_b").is_none() {
        let b = body::<V>(scope, top.get("b")?, "b")?;
        return pair::<V>(Some(line), query, (&a.shape, &a.pose), (&b.shape, &b.pose), margin)
            .map(Reply::answered);
    }
    let (shape_b, poses) = batch_b::<V>(scope, top)?;
    let answers = each(&poses, |pose| pair::<V>(None, query, (&a.shape, &a.pose), (&shape_b, pose), margin));
    Ok(Answers(answers).reply(line))
}

/// The answer of a two-body query, for line `line` (`None` in a batch's answers).
fn pair<V: Space>(
    line: Option<usize>,
    query: Query,
    (shape_a, pose_a): (&V::Shape, &Pose<V>),
    (shape_b, pose_b): (&V::Shape, &Pose<V>),
    margin: V::Real,
) -> Result<String> {
    match query {
        Query::Contact => {
            let c = world::contact(shape_a, pose_a, shape_b, pose_b, margin);
            let parts = c.map_or_else(Parts::default, |c| Parts::of(c.part_a, c.part_b));
            contact_json(line, c.map(|c| c.value), parts)
        }
        Query::Manifold => {
            let m = world::manifold(shape_a, pose_a, shape_b, pose_b, margin);
            manifold_json(line, &m.value, Parts::of(m.part_a, m.part_b))
        }
        Query::Intersects => {
            if let (Some(ca), Some(cb)) = (V::as_convex(shape_a), V::as_convex(shape_b)) {
                let out = intersection_test(ca, pose_a, cb, pose_b);
                if out.status == GjkStatus::NonFiniteSupport {
                    return Err(overflow::<V>(out.status));
                }
                return written(serde_json::to_string(&IntersectsReply {
                    line,
                    intersects: out.intersects,
                    parts: Parts::default(),
                }));
            }
            let hit = world::intersects(shape_a, pose_a, shape_b, pose_b);
            let parts = hit.map_or_else(Parts::default, |h| Parts::of(h.part_a, h.part_b));
            written(serde_json::to_string(&IntersectsReply { line, intersects: hit.is_some(), parts }))
        }
        Query::Distance => {
            let Some(answer) = world::distance(shape_a, pose_a, shape_b, pose_b) else {
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
        Query::Ray | Query::Cast | Query::Sweep => Err(InputError::new("query", "not a query of two bodies")),
    }
}

impl Reply {
    /// The reply of a line answered.
    pub(crate) fn answered(json: String) -> Self {
        Self { json, ok: true }
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
