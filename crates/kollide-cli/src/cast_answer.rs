//! The continuous-collision queries: `"ray"`, `"cast"` and `"sweep"`, read and answered.

use crate::answer::Reply;
use crate::batch::{each, not_both, same_length, vectors, Answers};
use crate::json::{number, scalar_name, vector, InputError, Obj, Result};
use crate::reply::{components, tidy, Parts};
use crate::session::Scope;
use crate::space::{body, Body, Space};
use kollide::math::Real;
use kollide::query::cast::{
    BackFaces, CastInput, CastStatus, Motion, Ray, RayError, RayOutcome, SweepOutcome,
};
use kollide::world;
use serde::Serialize;
use serde_json::Value;

/// The fields each query accepts.
pub const RAY_FIELDS: &[&str] = &["query", "origin", "direction", "origins", "directions", "max_toi", "b"];
/// The fields of a `"cast"` line.
pub const CAST_FIELDS: &[&str] = &[
    "query",
    "a",
    "b",
    "velocity_a",
    "velocity_b",
    "velocities_b",
    "angular_velocity_a",
    "angular_velocity_b",
    "max_toi",
    "target_distance",
];
/// The fields of a `"sweep"` line (`triangles` in 3D, `segments` in 2D).
pub const SWEEP_FIELDS: &[&str] =
    &["query", "mover", "displacement", "displacements", "triangles", "segments", "b", "cull_back_faces"];

/// A JSON object built field by field and written in that order (serde_json's own map
/// sorts its keys; the answers keep the order of the documented format).
/// Values are kept as JSON text: an `f32` written through `serde_json::Value` would become
/// an `f64` and print as `0.10000000149011612` instead of `0.1`.
struct Answer(Vec<(&'static str, String)>);

impl Answer {
    /// An answer opening with its `line` (none in a batch's answers) and `status`.
    fn new(line: Option<usize>, status: &str) -> Self {
        let mut fields = Vec::with_capacity(8);
        if let Some(line) = line {
            fields.push(("line", line.to_string()));
        }
        fields.push(("status", Value::from(status).to_string()));
        Self(fields)
    }

    fn num<R: Real + Serialize>(mut self, key: &'static str, x: R) -> Result<Self> {
        if !x.is_finite() {
            return Err(overflow::<R>());
        }
        self.0.push((key, json(tidy(x))?));
        Ok(self)
    }

    fn vec<V: Space>(mut self, key: &'static str, v: V) -> Result<Self> {
        if !v.is_finite_vec() {
            return Err(overflow::<V::Real>());
        }
        self.0.push((key, json(components(v))?));
        Ok(self)
    }

    fn int(mut self, key: &'static str, n: usize) -> Self {
        self.0.push((key, n.to_string()));
        self
    }

    /// The parts of composite bodies the answer came from (nothing for convex bodies).
    fn parts(mut self, parts: Parts) -> Self {
        for (k, v) in parts.fields() {
            self.0.push((k, v.to_string()));
        }
        self
    }

    fn text(mut self, key: &'static str, s: &str) -> Self {
        self.0.push((key, Value::from(s).to_string()));
        self
    }

    fn finish(self) -> Result<String> {
        let fields: Vec<String> = self.0.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
        Ok(format!("{{{}}}", fields.join(",")))
    }
}

fn json<T: Serialize>(x: T) -> Result<String> {
    serde_json::to_string(&x).map_err(|e| InputError::new("", format!("could not write the answer: {e}")))
}

/// An answer that is not finite: only coordinates near the largest float get there.
fn overflow<R: Real>() -> InputError {
    let msg = format!(
        "no finite answer in {}: coordinates, sizes or speeds too large for the arithmetic",
        scalar_name::<R>()
    );
    InputError::new("", msg)
}

/// An optional number field that must be `>= 0` (`max_toi`, `target_distance`).
pub(crate) fn non_negative<R: Real>(top: &Obj, key: &str, default: R) -> Result<R> {
    match top.opt(key) {
        None => Ok(default),
        Some(v) => {
            let x: R = number(v, &top.at(key))?;
            if x < R::ZERO {
                return Err(InputError::new(top.at(key), format!("must be >= 0, got {x}")));
            }
            Ok(x)
        }
    }
}

/// `{"query": "ray", "origin": [..], "direction": [..], "max_toi": t, "b": BODY}`, or a
/// batch with `"origins"` and `"directions"`.
pub fn ray_json<V: Space>(line: usize, top: &Obj, scope: &Scope) -> Result<Reply> {
    let checked = |origin: V, direction: V, at: String| {
        Ray::try_new(origin, direction).map_err(|e| match e {
            RayError::ZeroDirection => InputError::new(at, "must not be zero"),
            // The reader has checked both for finite numbers already.
            other => InputError::new("", other.to_string()),
        })
    };
    if top.opt("origins").is_none() && top.opt("directions").is_none() {
        let origin: V = top.vec("origin")?;
        let direction: V = top.vec("direction")?;
        let ray = checked(origin, direction, top.at("direction"))?;
        let max_toi = non_negative(top, "max_toi", V::Real::INFINITY)?;
        let b = body::<V>(scope, top.get("b")?, "b")?;
        return ray_answer(Some(line), &b, &ray, max_toi).map(Reply::answered);
    }
    not_both(top, "origin", "origins")?;
    not_both(top, "direction", "directions")?;
    let origins: Vec<V> = vectors(top, "origins")?;
    let directions: Vec<V> = vectors(top, "directions")?;
    same_length(top, "origins", origins.len(), "directions", directions.len())?;
    let rays = origins
        .iter()
        .zip(&directions)
        .enumerate()
        .map(|(i, (&o, &d))| checked(o, d, format!("directions[{i}]")))
        .collect::<Result<Vec<Ray<V>>>>()?;
    let max_toi = non_negative(top, "max_toi", V::Real::INFINITY)?;
    let b = body::<V>(scope, top.get("b")?, "b")?;
    Ok(Answers(each(&rays, |ray| ray_answer(None, &b, ray, max_toi))).reply(line))
}

/// The answer of one ray against `b`.
fn ray_answer<V: Space>(line: Option<usize>, b: &Body<V>, ray: &Ray<V>, max_toi: V::Real) -> Result<String> {
    let Some(answer) = world::ray_cast(&b.shape, &b.pose, ray, max_toi) else {
        return Answer::new(line, "miss").finish();
    };
    let parts = Parts::of(answer.part_a, None);
    match answer.value {
        RayOutcome::Hit(hit) => Answer::new(line, "hit")
            .num("toi", hit.toi)?
            .vec("point", hit.point)?
            .vec("normal", hit.normal)?
            .parts(parts)
            .finish(),
        RayOutcome::Miss => Answer::new(line, "miss").finish(),
        RayOutcome::Inside { exit } => Answer::new(line, "inside")
            .num("toi", V::Real::ZERO)?
            .num("exit_toi", exit.toi)?
            .vec("exit_point", exit.point)?
            .vec("exit_normal", exit.normal)?
            .parts(parts)
            .finish(),
    }
}

/// A motion of the `"cast"` line: `velocity_X` and `angular_velocity_X`, zero when absent.
pub(crate) fn motion<V: Space>(top: &Obj, which: &str) -> Result<Motion<V>> {
    let (lin, ang) = (format!("velocity_{which}"), format!("angular_velocity_{which}"));
    let velocity = match top.opt(&lin) {
        None => V::ZERO,
        Some(v) => vector(v, &top.at(&lin))?,
    };
    let angular_velocity = match top.opt(&ang) {
        None => V::AngularVelocity::default(),
        Some(v) => V::angular_velocity(v, &top.at(&ang))?,
    };
    Ok(Motion { velocity, angular_velocity })
}

/// `{"query": "cast", "a": BODY, "b": BODY, "velocity_a": .., ...}`, or a batch with
/// `"velocities_b"` in place of `"velocity_b"`.
pub fn cast_json<V: Space>(line: usize, top: &Obj, scope: &Scope) -> Result<Reply> {
    let a = body::<V>(scope, top.get("a")?, "a")?;
    let b = body::<V>(scope, top.get("b")?, "b")?;
    if top.opt("velocities_b").is_none() {
        let input = cast_input::<V>(top)?;
        return cast_answer(Some(line), &a, &b, &input).map(Reply::answered);
    }
    not_both(top, "velocity_b", "velocities_b")?;
    let input = cast_input::<V>(top)?;
    let inputs: Vec<CastInput<V>> = vectors::<V>(top, "velocities_b")?
        .into_iter()
        .map(|velocity| CastInput { motion_b: Motion { velocity, ..input.motion_b }, ..input })
        .collect();
    Ok(Answers(each(&inputs, |input| cast_answer(None, &a, &b, input))).reply(line))
}

/// The answer of one cast of `a` and `b`.
fn cast_answer<V: Space>(
    line: Option<usize>,
    a: &Body<V>,
    b: &Body<V>,
    input: &CastInput<V>,
) -> Result<String> {
    let Some(found) = world::shape_cast(&a.shape, &a.pose, &b.shape, &b.pose, input) else {
        return Answer::new(line, CastStatus::Miss.as_str()).finish();
    };
    let out = found.value;
    let parts = Parts::of(found.part_a, found.part_b);
    let answer = Answer::new(line, out.status.as_str());
    match out.status {
        CastStatus::Hit => {
            let answer = answer
                .num("toi", out.toi)?
                .vec("point_a", out.point_a)?
                .vec("point_b", out.point_b)?
                .vec("normal", out.normal)?
                .int("iterations", out.iterations as usize);
            match out.face_normal {
                Some(n) => answer.vec("face_normal", n)?.parts(parts).finish(),
                None => answer.parts(parts).finish(),
            }
        }
        CastStatus::Miss => answer.finish(),
        CastStatus::StartedWithin => answer
            .num("toi", V::Real::ZERO)?
            .num("distance", out.distance)?
            .vec("normal", out.normal)?
            .vec("point_a", out.point_a)?
            .vec("point_b", out.point_b)?
            .parts(parts)
            .finish(),
        // Failed, and any status a later kollide adds: what is safe is still safe.
        _ => answer
            .num("safe_toi", out.safe_toi)?
            .int("iterations", out.iterations as usize)
            .parts(parts)
            .finish(),
    }
}

/// The motions, interval and target of a `cast` line.
pub(crate) fn cast_input<V: Space>(top: &Obj) -> Result<CastInput<V>> {
    Ok(CastInput {
        motion_a: motion::<V>(top, "a")?,
        motion_b: motion::<V>(top, "b")?,
        max_toi: non_negative(top, "max_toi", V::Real::ONE)?,
        target_distance: non_negative(top, "target_distance", V::Real::ZERO)?,
    })
}

/// A sweep line's `"cull_back_faces"` (false when absent).
///
/// # Errors
/// A value that is not `true` or `false`.
pub(crate) fn back_faces(top: &Obj) -> Result<BackFaces> {
    match top.opt("cull_back_faces") {
        None | Some(Value::Bool(false)) => Ok(BackFaces::Hit),
        Some(Value::Bool(true)) => Ok(BackFaces::Cull),
        Some(v) => {
            let msg = format!("expected true or false, got {}", crate::json::type_name(v));
            Err(InputError::new("cull_back_faces", msg))
        }
    }
}

/// `{"query": "sweep", "mover": BODY, "displacement": [..], "triangles": [..], ...}`, or a
/// batch with `"displacements"`.
pub fn sweep_json<V: Space>(line: usize, top: &Obj, scope: &Scope) -> Result<Reply> {
    let other = if V::SOUP == "triangles" { "segments" } else { "triangles" };
    if top.opt(other).is_some() {
        let msg = format!("is for {} sweeps; a {}D sweep takes \"{}\"", 5 - V::DIM, V::DIM, V::SOUP);
        return Err(InputError::new(other, msg));
    }
    let mover = body::<V>(scope, top.get("mover")?, "mover")?;
    let batch = top.opt("displacements").is_some();
    let displacements: Vec<V> = if batch {
        not_both(top, "displacement", "displacements")?;
        vectors(top, "displacements")?
    } else {
        vec![top.vec("displacement")?]
    };
    let back_faces = back_faces(top)?;
    let through = top.opt("b").map(|v| body::<V>(scope, v, "b")).transpose()?;
    let target = match &through {
        Some(b) => {
            if top.opt(V::SOUP).is_some() {
                let msg = format!("give \"{}\" or a composite \"b\", not both", V::SOUP);
                return Err(InputError::new(V::SOUP, msg));
            }
            Target::Through(b)
        }
        None => Target::Soup(V::read_soup(top.get(V::SOUP)?, V::SOUP)?),
    };
    // What every sweep of a batch would refuse is the line's error.
    crate::space::sweep_check(&mover, "mover", through.as_ref())?;
    let answer = |line: Option<usize>, displacement: &V| -> Result<String> {
        let outcome = match &target {
            Target::Through(b) => crate::space::sweep_through(&mover, "mover", *displacement, b, back_faces)?,
            Target::Soup(items) => {
                crate::space::sweep_items(&mover, "mover", *displacement, items, V::SOUP, back_faces)?
            }
        };
        sweep_answer::<V>(line, outcome, through.is_some())
    };
    if !batch {
        return answer(Some(line), &displacements[0]).map(Reply::answered);
    }
    Ok(Answers(each(&displacements, |d| answer(None, d))).reply(line))
}

/// What a sweep moves through: a composite body, or a soup of the line's own.
enum Target<'b, V: Space> {
    Through(&'b Body<V>),
    Soup(Vec<V::Item>),
}

/// The answer of one sweep; `through` when it went through a composite `b`, whose part is
/// then named.
fn sweep_answer<V: Space>(line: Option<usize>, outcome: SweepOutcome<V>, through: bool) -> Result<String> {
    let part = |index: usize| if through { Parts::of(None, Some(index as u32)) } else { Parts::default() };
    match outcome {
        SweepOutcome::Hit(hit) => Answer::new(line, "hit")
            .num("toi", hit.toi)?
            .vec("point", hit.point)?
            .vec("normal", hit.normal)?
            .text("feature", hit.feature.as_str())
            .int(V::SOUP_ITEM, hit.index)
            .parts(part(hit.index))
            .finish(),
        SweepOutcome::Miss => Answer::new(line, "miss").finish(),
        SweepOutcome::StartedWithin { index, distance, normal } => Answer::new(line, "started_within")
            .int(V::SOUP_ITEM, index)
            .num("distance", distance)?
            .vec("normal", normal)?
            .parts(part(index))
            .finish(),
    }
}
