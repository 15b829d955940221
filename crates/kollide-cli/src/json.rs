//! Reading a parsed JSON value field by field, with errors that name the JSON path.
//!
//! serde's derive would parse the input in one line, but its messages for tagged shapes
//! and nested arrays do not say *where* in the line the problem is; the query format is
//! small, so it is read by hand and every error carries its path (`a.shape.points[2]`).

use core::fmt;
use kollide::math::{Real, Vector};
use serde_json::{Map, Value};

/// Why an input line could not be answered: the JSON path of the offending value and what
/// is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// Where in the line, like `a.shape.radius` (empty for the line as a whole).
    pub path: String,
    /// What is wrong, like `must be > 0, got -1`.
    pub message: String,
}

impl InputError {
    /// An error at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self { path: path.into(), message: message.into() }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// The result of reading input.
pub type Result<T> = core::result::Result<T, InputError>;

/// `parent.key`, or `key` at the top level.
#[must_use]
pub fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

/// The JSON type of a value, for messages.
#[must_use]
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads a number at `path` as the scalar `R`, refusing values that are not finite in `R`.
///
/// serde_json never produces NaN or infinity (it refuses `1e999` while parsing), but a
/// finite `f64` such as `1e39` overflows `f32`: that is reported here, naming the value.
///
/// # Errors
/// When `v` is not a number, or does not fit `R`.
pub fn number<R: Real>(v: &Value, path: &str) -> Result<R> {
    let x = match v {
        Value::Number(n) => n.as_f64(),
        Value::Null => return Err(InputError::new(
            path,
            "expected a number, got null (JSON has no NaN or infinity, and serializers write them as null)",
        )),
        other => return Err(InputError::new(path, format!("expected a number, got {}", type_name(other)))),
    };
    let Some(x) = x.filter(|x| x.is_finite()) else {
        return Err(InputError::new(path, "not a finite number"));
    };
    let r = R::from_f64(x);
    if x != 0.0 && r == R::ZERO {
        // Tiny but not zero in f64: say so, rather than "must be > 0, got 0" later.
        return Err(InputError::new(path, format!("{x:e} underflows to 0 in {}", scalar_name::<R>())));
    }
    if r.is_finite() {
        Ok(r)
    } else {
        Err(InputError::new(path, format!("{x:e} is out of range for {}", scalar_name::<R>())))
    }
}

/// `"f32"` or `"f64"`.
#[must_use]
pub fn scalar_name<R: Real>() -> &'static str {
    if core::mem::size_of::<R>() == 4 {
        "f32"
    } else {
        "f64"
    }
}

/// Reads an array of exactly `V::DIM` numbers at `path` as a vector.
///
/// # Errors
/// When `v` is not an array, has the wrong length, or holds a bad number (named by index).
pub fn vector<V: Vector>(v: &Value, path: &str) -> Result<V> {
    if let Some(p) = plain_vector(v) {
        return Ok(p);
    }
    let a = numbers::<V::Real>(v, path, V::DIM)?;
    let mut xyz = [0.0; 3];
    for (slot, x) in xyz.iter_mut().zip(a) {
        *slot = x.to_f64();
    }
    Ok(V::from_f64_array(xyz))
}

/// [`vector`] with its path built only for an error: a million-point hull formatted a
/// path per point and per number, a tenth of `kollide query`'s time on it.
///
/// # Errors
/// As [`vector`].
pub fn vector_at<V: Vector>(v: &Value, path: impl FnOnce() -> String) -> Result<V> {
    plain_vector(v).map_or_else(|| vector(v, &path()), Ok)
}

/// The vector `v` holds when it is an array of `V::DIM` numbers that [`number`] accepts;
/// `None` otherwise (then [`vector`]'s checks name what is wrong).
fn plain_vector<V: Vector>(v: &Value) -> Option<V> {
    let Value::Array(items) = v else { return None };
    if items.len() != V::DIM {
        return None;
    }
    let mut xyz = [0.0; 3];
    for (slot, item) in xyz.iter_mut().zip(items) {
        let x = item.as_f64().filter(|x| x.is_finite())?;
        let r = V::Real::from_f64(x);
        if !r.is_finite() || (x != 0.0 && r == V::Real::ZERO) {
            return None;
        }
        *slot = r.to_f64();
    }
    Some(V::from_f64_array(xyz))
}

/// Reads an array of exactly `n` numbers at `path`.
///
/// # Errors
/// When `v` is not an array, has the wrong length, or holds a bad number (named by index).
pub fn numbers<R: Real>(v: &Value, path: &str, n: usize) -> Result<Vec<R>> {
    let items = array(v, path)?;
    if items.len() != n {
        return Err(InputError::new(path, format!("expected {n} numbers, got {}", items.len())));
    }
    items.iter().enumerate().map(|(i, x)| number(x, &format!("{path}[{i}]"))).collect()
}

/// The items of an array at `path`.
///
/// # Errors
/// When `v` is not an array.
pub fn array<'v>(v: &'v Value, path: &str) -> Result<&'v [Value]> {
    match v {
        Value::Array(items) => Ok(items),
        other => Err(InputError::new(path, format!("expected an array, got {}", type_name(other)))),
    }
}

/// [`array`] with its path built only for an error.
///
/// # Errors
/// When `v` is not an array.
pub fn array_at(v: &Value, path: impl FnOnce() -> String) -> Result<&[Value]> {
    match v {
        Value::Array(items) => Ok(items),
        other => array(other, &path()),
    }
}

/// A JSON object being read, with its path for messages.
#[derive(Clone, Copy, Debug)]
pub struct Obj<'v, 'p> {
    map: &'v Map<String, Value>,
    path: &'p str,
}

impl<'v, 'p> Obj<'v, 'p> {
    /// Views `v` (found at `path`) as an object.
    ///
    /// # Errors
    /// When `v` is not an object.
    pub fn new(v: &'v Value, path: &'p str) -> Result<Self> {
        match v {
            Value::Object(map) => Ok(Self { map, path }),
            other => {
                let what = if path.is_empty() { "the line to be " } else { "" };
                Err(InputError::new(path, format!("expected {what}a JSON object, got {}", type_name(other))))
            }
        }
    }

    /// This object's path.
    #[must_use]
    pub fn path(&self) -> &'p str {
        self.path
    }

    /// The path of one of this object's fields.
    #[must_use]
    pub fn at(&self, key: &str) -> String {
        join(self.path, key)
    }

    /// A field that may be absent.
    #[must_use]
    pub fn opt(&self, key: &str) -> Option<&'v Value> {
        self.map.get(key)
    }

    /// A field that must be present.
    ///
    /// # Errors
    /// `missing field` at the field's path.
    pub fn get(&self, key: &str) -> Result<&'v Value> {
        self.map.get(key).ok_or_else(|| InputError::new(self.at(key), "missing field"))
    }

    /// A string field that must be present.
    ///
    /// # Errors
    /// When absent or not a string.
    pub fn str(&self, key: &str) -> Result<&'v str> {
        match self.get(key)? {
            Value::String(s) => Ok(s),
            other => {
                Err(InputError::new(self.at(key), format!("expected a string, got {}", type_name(other))))
            }
        }
    }

    /// A number field that must be present, as the scalar `R`.
    ///
    /// # Errors
    /// When absent, not a number, or out of range for `R`.
    pub fn num<R: Real>(&self, key: &str) -> Result<R> {
        number(self.get(key)?, &self.at(key))
    }

    /// A vector field (an array of `V::DIM` numbers) that must be present.
    ///
    /// # Errors
    /// When absent or not an array of `V::DIM` numbers.
    pub fn vec<V: Vector>(&self, key: &str) -> Result<V> {
        vector(self.get(key)?, &self.at(key))
    }

    /// A field holding an array of points (each an array of `V::DIM` numbers).
    ///
    /// # Errors
    /// When absent, not an array, or a point is malformed (named by index).
    pub fn points<V: Vector>(&self, key: &str) -> Result<Vec<V>> {
        let path = self.at(key);
        let v = self.get(key)?;
        // A long list was moved out of the tree when the line was parsed (`packed`).
        let unpacked = match crate::packed::points::<V>(v) {
            Some(Ok(points)) => return Ok(points),
            Some(Err(json)) => Some(json),
            None => None,
        };
        array(unpacked.as_ref().unwrap_or(v), &path)?
            .iter()
            .enumerate()
            .map(|(i, p)| vector_at(p, || format!("{path}[{i}]")))
            .collect()
    }

    /// Refuses fields other than `allowed`, so a misspelt optional field (`"rounded"`)
    /// is an error rather than silently ignored. `context` ends the message (`for a
    /// cuboid`).
    ///
    /// # Errors
    /// The first unknown field (alphabetically), with the allowed ones.
    pub fn only(&self, allowed: &[&str], context: &str) -> Result<()> {
        match self.map.keys().find(|k| !allowed.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) => Err(InputError::new(
                self.at(k),
                format!("unknown field {context} (expected {})", allowed.join(", ")),
            )),
        }
    }
}

/// A JSON text parsed like `serde_json::from_str::<Value>`, but refusing an object that
/// names a field twice (serde_json keeps the last one silently, so `{"radius": 1,
/// "radius": -1}` would answer for -1 with no word).
///
/// # Errors
/// serde_json's syntax errors, and `duplicate field "name"` (serde_json adds the position).
pub fn parse_strict(text: &str) -> serde_json::Result<Value> {
    let strict: Strict = serde_json::from_str(text)?;
    Ok(strict.0)
}

/// A [`Value`] whose objects were checked for repeated fields while parsing.
struct Strict(Value);

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> core::result::Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> core::result::Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> core::result::Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> core::result::Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> core::result::Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> core::result::Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> core::result::Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> core::result::Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> core::result::Result<Value, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> core::result::Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> core::result::Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(serde::de::Error::custom(format_args!("duplicate field \"{key}\"")));
            }
            let Strict(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every number of a line is read as the `f64` nearest its decimal text, as Rust's own
    /// parser (correctly rounded) reads it. serde_json's default parser is faster but not
    /// always nearest: it read `1e-50` as the `f64` below, 9.999999999999999e-51 (found
    /// by an error message that echoed it); the workspace turns on its `float_roundtrip`.
    #[test]
    fn numbers_are_read_as_the_nearest_f64() {
        let mut texts: Vec<String> = [
            "1e-50",
            "0.1",
            "0.30000000000000004",
            "2.2250738585072014e-308",
            "2.2250738585072011e-308",
            "5e-324",
            "1.7976931348623157e308",
            "9007199254740993.0",
            "123456789012345678901234567890e-20",
        ]
        .map(String::from)
        .to_vec();
        // A spread of bit patterns (a fixed xorshift sequence), each written with 17
        // significant digits and with its shortest round-trip form.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = f64::from_bits(state);
            if !x.is_finite() {
                continue;
            }
            texts.push(format!("{x:.16e}"));
            texts.push(format!("{x:e}"));
        }
        for text in &texts {
            let Ok(want) = text.parse::<f64>() else { continue };
            if !want.is_finite() {
                continue;
            }
            let got = parse_strict(&format!("[{text}]")).unwrap()[0].as_f64().unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{text}: read {got:e}, nearest is {want:e}");
        }
    }
}
