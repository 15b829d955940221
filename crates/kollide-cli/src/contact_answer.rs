//! The replies of the `"contact"` and `"manifold"` queries.

use crate::json::{InputError, Result};
use crate::reply::{components, tidy, Parts};
use crate::space::Space;
use kollide::math::Real;
use kollide::query::{Contact, ContactId, ContactStatus, Manifold};
use kollide::shape::Feature;
use serde::Serialize;

/// `{"line": n, "contact": true, "distance": d, ...}`, or `{"line": n, "contact": false}`
/// when the shapes are farther apart than the margin.
#[derive(Serialize)]
struct ContactReply<R> {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    contact: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<R>,
    #[serde(skip_serializing_if = "Option::is_none")]
    normal: Option<Vec<R>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    point_a: Option<Vec<R>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    point_b: Option<Vec<R>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'static str>,
    #[serde(flatten)]
    parts: Parts,
}

/// One point of a manifold reply.
#[derive(Serialize)]
struct PointReply<R> {
    point_a: Vec<R>,
    point_b: Vec<R>,
    distance: R,
    id: [String; 2],
}

/// `{"line": n, "normal": [..], "points": [...], "status": s}` (`points` empty and no
/// normal or status when the shapes are farther apart than the margin).
#[derive(Serialize)]
struct ManifoldReply<R> {
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    normal: Option<Vec<R>>,
    points: Vec<PointReply<R>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'static str>,
    #[serde(flatten)]
    parts: Parts,
}

/// The JSON of a contact answer (for `line`, or without it in a batch).
pub fn contact_json<V: Space>(line: Option<usize>, c: Option<Contact<V>>, parts: Parts) -> Result<String> {
    let reply = match c {
        None => ContactReply {
            line,
            contact: false,
            distance: None,
            normal: None,
            point_a: None,
            point_b: None,
            status: None,
            parts,
        },
        Some(c) => {
            // A `non_finite_support` contact carries no answer but its status (see
            // `ContactStatus`): printing its placeholder numbers would pass them on as real.
            let finite =
                c.distance.is_finite() && [c.normal, c.point_a, c.point_b].iter().all(|v| v.is_finite_vec());
            if !finite || c.status == ContactStatus::NonFiniteSupport {
                return Err(overflow::<V>(c.status.as_str()));
            }
            ContactReply {
                line,
                contact: true,
                distance: Some(tidy(c.distance)),
                normal: Some(components(c.normal)),
                point_a: Some(components(c.point_a)),
                point_b: Some(components(c.point_b)),
                status: Some(c.status.as_str()),
                parts,
            }
        }
    };
    serde_json::to_string(&reply).map_err(|e| InputError::new("", format!("could not write the answer: {e}")))
}

/// The JSON of a manifold answer (for `line`, or without it in a batch).
pub fn manifold_json<V: Space>(line: Option<usize>, m: &Manifold<V>, parts: Parts) -> Result<String> {
    let finite = m.normal.is_finite_vec()
        && m.points()
            .iter()
            .all(|p| p.distance.is_finite() && p.point_a.is_finite_vec() && p.point_b.is_finite_vec());
    if !finite || (!m.is_empty() && m.status == ContactStatus::NonFiniteSupport) {
        return Err(overflow::<V>(m.status.as_str()));
    }
    let points = m
        .points()
        .iter()
        .map(|p| PointReply {
            point_a: components(p.point_a),
            point_b: components(p.point_b),
            distance: tidy(p.distance),
            id: id_names(p.id),
        })
        .collect();
    let (normal, status) =
        if m.is_empty() { (None, None) } else { (Some(components(m.normal)), Some(m.status.as_str())) };
    serde_json::to_string(&ManifoldReply { line, normal, points, status, parts })
        .map_err(|e| InputError::new("", format!("could not write the answer: {e}")))
}

/// `["face 3", "vertex 5"]`: the features of A and B.
fn id_names(id: ContactId) -> [String; 2] {
    let name = |f: Feature| match f {
        Feature::Vertex(i) => format!("vertex {i}"),
        Feature::Edge(i, j) => format!("edge {i}-{j}"),
        Feature::Face(i) => format!("face {i}"),
        Feature::Unknown => "surface".to_string(),
    };
    [name(id.a), name(id.b)]
}

fn overflow<V: Space>(status: &str) -> InputError {
    let msg = format!(
        "no finite answer in {} (status {status}): coordinates or sizes too large for the arithmetic",
        crate::json::scalar_name::<V::Real>()
    );
    InputError::new("", msg)
}
