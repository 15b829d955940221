//! Long point lists of a line, kept as flat numbers instead of JSON values.
//!
//! A JSON value per number and an array per point cost about 140 bytes a point: the
//! 1,000,000-point hull of a query line held 130 MB of them, besides its 64 MB of text,
//! while the hull was built (peak 484 MB). [`pack`] moves each long list of plain points
//! (the fields `points` and `vertices`, the only ones holding point lists) out of the parsed
//! line into flat `f64`s, 24 bytes a point in 3D, and [`crate::json::Obj::points`] reads
//! them from there. A list with anything else in it stays in the tree, so every error names
//! its value exactly as before; a packed list that does not suit the query (its points of
//! the other dimension, or numbers beyond `f32`) is rebuilt as JSON for the same messages.

use kollide::math::{Real, Vector};
use serde_json::Value;
use std::cell::RefCell;

/// Lists shorter than this stay in the tree: what packing saves there is not worth a walk.
const MIN_POINTS: usize = 256;

/// One packed list: where it was in the tree (the address of its now empty array, fixed
/// while the tree lives; compared, never followed), its points' dimension and numbers.
struct List {
    at: *const Value,
    dim: usize,
    coords: Vec<f64>,
}

thread_local! {
    /// The lists of the line being answered on this thread (lines are answered one at a
    /// time per thread, from parsing to reply).
    static LISTS: RefCell<Vec<List>> = const { RefCell::new(Vec::new()) };
}

/// The packed lists of one line: dropping it releases them.
#[must_use = "the lists are released when this is dropped"]
pub struct Packed(());

impl Drop for Packed {
    fn drop(&mut self) {
        LISTS.with(|lists| lists.borrow_mut().clear());
    }
}

/// Moves the long plain point lists of `value` out of it, until the returned guard drops.
/// `value` must not be changed while the guard lives.
pub fn pack(value: &mut Value) -> Packed {
    let mut found = Vec::new();
    walk(value, &mut found);
    LISTS.with(|lists| *lists.borrow_mut() = found);
    Packed(())
}

fn walk(v: &mut Value, found: &mut Vec<List>) {
    match v {
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                if key == "points" || key == "vertices" {
                    if let Some((dim, coords)) = flatten(item) {
                        *item = Value::Array(Vec::new());
                        found.push(List { at: item, dim, coords });
                        continue;
                    }
                }
                walk(item, found);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| walk(item, found)),
        _ => {}
    }
}

/// The numbers of `v` when it is a long list of points of 2 or 3 finite numbers each, all
/// of one dimension.
fn flatten(v: &Value) -> Option<(usize, Vec<f64>)> {
    let Value::Array(points) = v else { return None };
    let dim = match points.first()? {
        Value::Array(first) if points.len() >= MIN_POINTS && (2..=3).contains(&first.len()) => first.len(),
        _ => return None,
    };
    let mut coords = Vec::with_capacity(points.len() * dim);
    for p in points {
        let Value::Array(xs) = p else { return None };
        if xs.len() != dim {
            return None;
        }
        for x in xs {
            coords.push(x.as_f64().filter(|x| x.is_finite())?);
        }
    }
    Some((dim, coords))
}

/// The points packed from where `v` stands in the tree: `None` when nothing was packed
/// there, `Some(Ok)` when every point reads as a `V`, and otherwise `Some(Err)` with the
/// list rebuilt as JSON, for the ordinary reader to name what is wrong.
pub fn points<V: Vector>(v: &Value) -> Option<Result<Vec<V>, Value>> {
    LISTS.with(|lists| {
        let lists = lists.borrow();
        let list = lists.iter().find(|l| core::ptr::eq(l.at, v))?;
        Some(typed(list).ok_or_else(|| rebuilt(list)))
    })
}

/// The list's points as `V`, if each has `V::DIM` numbers that `V::Real` holds (finite, and
/// not a non-zero flushed to zero: the checks of `json::number`).
fn typed<V: Vector>(list: &List) -> Option<Vec<V>> {
    if list.dim != V::DIM {
        return None;
    }
    let mut out = Vec::with_capacity(list.coords.len() / list.dim);
    for p in list.coords.chunks_exact(list.dim) {
        let mut xyz = [0.0; 3];
        for (slot, &x) in xyz.iter_mut().zip(p) {
            let r = V::Real::from_f64(x);
            if !r.is_finite() || (x != 0.0 && r == V::Real::ZERO) {
                return None;
            }
            *slot = r.to_f64();
        }
        out.push(V::from_f64_array(xyz));
    }
    Some(out)
}

/// The list as the JSON array it was parsed from.
fn rebuilt(list: &List) -> Value {
    let point = |p: &[f64]| Value::Array(p.iter().map(|&x| Value::from(x)).collect());
    Value::Array(list.coords.chunks_exact(list.dim).map(point).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide::math::{DVec3, Vec2, Vec3};

    fn line(n: usize, point: &str) -> Value {
        let points = vec![point; n].join(",");
        serde_json::from_str(&format!(r#"{{"a": {{"shape": {{"points": [{points}]}}}}, "b": [{points}]}}"#))
            .unwrap()
    }

    /// A long list under `points` is packed and read back as typed points; the same list
    /// under another field, and a short one, stay in the tree.
    #[test]
    fn long_point_lists_are_packed_and_read_back() {
        let mut v = line(MIN_POINTS, "[1, 2.5, -3]");
        let guard = pack(&mut v);
        let at = &v["a"]["shape"]["points"];
        assert_eq!(at, &Value::Array(Vec::new()));
        let got: Vec<DVec3> = points(at).unwrap().unwrap();
        assert_eq!(got, vec![DVec3::new(1.0, 2.5, -3.0); MIN_POINTS]);
        assert_eq!(v["b"].as_array().unwrap().len(), MIN_POINTS);
        assert!(points::<DVec3>(&v["b"]).is_none());
        drop(guard);
        assert!(points::<DVec3>(at).is_none(), "released with the guard");

        let mut short = line(MIN_POINTS - 1, "[1, 2, 3]");
        let _guard = pack(&mut short);
        assert_eq!(short["a"]["shape"]["points"].as_array().unwrap().len(), MIN_POINTS - 1);
    }

    /// A list that is not plain points stays in the tree; one that does not suit the
    /// query's vector type comes back as the JSON it was.
    #[test]
    fn other_lists_stay_or_come_back_as_json() {
        let mut mixed = line(MIN_POINTS, "[1, 2, 3]");
        mixed["a"]["shape"]["points"][7] = serde_json::json!([1, 2]);
        let _guard = pack(&mut mixed);
        assert_eq!(mixed["a"]["shape"]["points"].as_array().unwrap().len(), MIN_POINTS);
        drop(_guard);

        let mut v = line(MIN_POINTS, "[1e39, 2, 3]");
        let _guard = pack(&mut v);
        let at = &v["a"]["shape"]["points"];
        assert!(points::<DVec3>(at).unwrap().is_ok());
        let back = points::<Vec3>(at).unwrap().unwrap_err();
        assert_eq!(back, line(MIN_POINTS, "[1e39, 2.0, 3.0]")["b"]);
        assert!(points::<Vec2>(at).unwrap().is_err(), "3 numbers a point, 2D asked");
    }
}
