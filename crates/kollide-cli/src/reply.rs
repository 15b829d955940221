//! The pieces every reply is written from: numbers tidied, vectors as arrays of their own
//! scalar type, and the parts of composite bodies. A leaf: it knows nothing of the queries.

use kollide::math::{Real, Vector};
use serde::Serialize;

/// Which parts of composite bodies an answer came from, as the replies write them:
/// `"part"` when one body is a composite, `"part_a"` and `"part_b"` when both are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Parts {
    #[serde(skip_serializing_if = "Option::is_none")]
    part: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    part_a: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    part_b: Option<u32>,
}

impl Parts {
    /// The fields for the parts of A and B (each `None` for a convex body).
    #[must_use]
    pub fn of(a: Option<u32>, b: Option<u32>) -> Self {
        match (a, b) {
            (Some(_), Some(_)) => Self { part: None, part_a: a, part_b: b },
            _ => Self { part: a.or(b), part_a: None, part_b: None },
        }
    }

    /// As `(name, value)` pairs, for the ordered writer of the cast answers.
    #[must_use]
    pub fn fields(self) -> Vec<(&'static str, u32)> {
        [("part", self.part), ("part_a", self.part_a), ("part_b", self.part_b)]
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k, v)))
            .collect()
    }
}

/// `-0` becomes `0` (adding `+0` does that and changes nothing else), so a normal prints
/// as `[1.0, 0.0]` rather than `[1.0, -0.0]`.
pub fn tidy<R: Real>(x: R) -> R {
    x + R::ZERO
}

/// The components of a vector, as a JSON array of its own scalar type (so `f32` results
/// print as the shortest `f32`, `0.1`, not as the `f64` `0.10000000149011612`).
pub fn components<V: Vector>(v: V) -> Vec<V::Real> {
    (0..V::DIM).map(|i| tidy(v[i])).collect()
}
