//! Batches: one line that asks the same query many times, each time with another ray, motion
//! or pose of `b` (`"origins"` and `"directions"`, `"velocities_b"`, `"displacements"`,
//! `"translations_b"` and `"rotations_b"`), answered by one line
//! `{"line": n, "answers": [...]}` holding, in order, the object each one-query line would
//! get, without its `line`. The bodies are read once; with the `rayon` feature the queries
//! run on all cores.

use crate::answer::Reply;
use crate::json::{array, array_at, vector_at, InputError, Obj, Result};
use crate::session::Scope;
use crate::space::{pose_error, shape_of, Space};
use kollide::math::{Pose, Vector};

/// The answers of a batch, in order: each the JSON of an answer, or why it has none (an
/// answer that would not be finite).
pub(crate) struct Answers(pub Vec<Result<String>>);

impl Answers {
    /// `{"line": n, "answers": [...]}`; an item without an answer is `{"error": "..."}`, as
    /// its one-query line would be. The line counts as failed when any item did.
    pub(crate) fn reply(self, line: usize) -> Reply {
        let mut ok = true;
        let mut json = format!("{{\"line\":{line},\"answers\":[");
        for (i, answer) in self.0.into_iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            match answer {
                Ok(text) => json.push_str(&text),
                Err(e) => {
                    ok = false;
                    json.push_str(&format!("{{\"error\":{}}}", serde_json::Value::from(e.to_string())));
                }
            }
        }
        json.push_str("]}");
        Reply { json, ok }
    }
}

/// `f` on each item, in order; on all cores with the `rayon` feature.
pub(crate) fn each<T: Sync>(
    items: &[T],
    f: impl Fn(&T) -> Result<String> + Sync + Send,
) -> Vec<Result<String>> {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        items.par_iter().map(f).collect()
    }
    #[cfg(not(feature = "rayon"))]
    {
        items.iter().map(f).collect()
    }
}

/// The vectors of the array at `key` (each `V::DIM` numbers), named `key[i]` in errors.
pub(crate) fn vectors<V: Vector>(top: &Obj, key: &str) -> Result<Vec<V>> {
    let at = top.at(key);
    array(top.get(key)?, &at)?
        .iter()
        .enumerate()
        .map(|(i, v)| vector_at(v, || format!("{at}[{i}]")))
        .collect()
}

/// Refuses a one-query field next to its batch form: `"origin"` with `"origins"`.
pub(crate) fn not_both(top: &Obj, one: &str, many: &str) -> Result<()> {
    if top.opt(one).is_some() {
        let msg = format!("give \"{one}\" (one query) or \"{many}\" (a batch), not both");
        return Err(InputError::new(top.at(one), msg));
    }
    Ok(())
}

/// Checks that the batch arrays `b` and `a` (of `n` items) are as long.
pub(crate) fn same_length(top: &Obj, a: &str, n: usize, b: &str, m: usize) -> Result<()> {
    if n != m {
        return Err(InputError::new(
            top.at(b),
            format!("has {m} items but \"{a}\" has {n}: one each per query"),
        ));
    }
    Ok(())
}

/// The shape of `b` and its poses for a batch of two-body queries: `"translations_b"` in
/// place of `b.translation`, `"rotations_b"` in place of `b.rotation` (in 2D: angles, in
/// place of `b.angle`), either or both (then as many of each).
///
/// # Errors
/// A field given both in `b` and as a batch, arrays of different lengths, a bad item
/// (named `translations_b[i]`), a pose [`Pose::try_new`] refuses, or an error of the shape.
pub(crate) fn batch_b<V: Space>(scope: &Scope, top: &Obj) -> Result<(V::Shape, Vec<Pose<V>>)> {
    let obj = Obj::new(top.get("b")?, "b")?;
    obj.only(V::BODY_FIELDS, &format!("for a {}D body", V::DIM))?;
    let field = |key: &str, batch: &str| -> Result<()> {
        if obj.opt(key).is_some() {
            let msg = format!("give \"b.{key}\" or \"{batch}\" (one each per query), not both");
            return Err(InputError::new(obj.at(key), msg));
        }
        Ok(())
    };
    let translations: Option<Vec<V>> = match top.opt("translations_b") {
        None => None,
        Some(_) => {
            field("translation", "translations_b")?;
            Some(vectors(top, "translations_b")?)
        }
    };
    let rotations: Option<Vec<V::Rotation>> = match top.opt("rotations_b") {
        None => None,
        Some(v) => {
            field(V::ROTATION, "rotations_b")?;
            let at = top.at("rotations_b");
            let items = array_at(v, || at.clone())?;
            Some(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, r)| V::rotation_at(r, &format!("{at}[{i}]")))
                    .collect::<Result<_>>()?,
            )
        }
    };
    let n = match (&translations, &rotations) {
        (Some(t), Some(r)) => {
            same_length(top, "translations_b", t.len(), "rotations_b", r.len())?;
            t.len()
        }
        (Some(t), None) => t.len(),
        (None, Some(r)) => r.len(),
        (None, None) => 0,
    };
    let translation = if translations.is_none() { Some(obj.vec::<V>("translation")?) } else { None };
    let rotation = if rotations.is_none() { Some(V::rotation(&obj)?) } else { None };
    let poses = (0..n)
        .map(|i| {
            let t = translations.as_ref().map_or_else(|| translation.unwrap_or(V::ZERO), |t| t[i]);
            let r = rotations.as_ref().map_or_else(|| rotation.unwrap_or_else(V::no_rotation), |r| r[i]);
            let t_at =
                if translations.is_some() { format!("translations_b[{i}]") } else { obj.at("translation") };
            let r_at = if rotations.is_some() { format!("rotations_b[{i}]") } else { obj.at(V::ROTATION) };
            Pose::try_new(t, r).map_err(|e| pose_error(&e, &t_at, &r_at, "b"))
        })
        .collect::<Result<Vec<_>>>()?;
    let shape = shape_of::<V>(scope, &Obj::new(obj.get("shape")?, &obj.at("shape"))?)?;
    Ok((shape, poses))
}
