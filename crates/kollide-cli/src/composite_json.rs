//! Reading the composite shapes of a body: `trimesh`, `heightfield` (from heights or a PNG),
//! `compound` (3D and 2D), `polyline` and `concave_polygon` (2D). Each error names the JSON
//! path of the value at fault, as for the convex shapes.

use crate::json::{array, number, InputError, Obj, Result};
use crate::session::Scope;
use kollide::composite::{
    CompoundError, ConcavePolygon, HeightField, HeightField2d, HeightFieldError, Polyline, PolylineError,
    TriMesh, TriMeshError, Weld,
};
use kollide::math::{Vector2, Vector3};
use kollide::query::Space;
use serde_json::Value;

/// The composite type names, per dimension.
pub const COMPOSITES_3D: &[&str] = &["trimesh", "heightfield", "compound"];
/// The 2D ones.
pub const COMPOSITES_2D: &[&str] = &["polyline", "heightfield", "compound", "concave_polygon"];

/// A vertex index: a whole number from 0 to u32::MAX - 1.
fn index(v: &Value, path: &str) -> Result<u32> {
    let x: f64 = number(v, path)?;
    if x < 0.0 || x.fract() != 0.0 || x >= f64::from(u32::MAX) {
        return Err(InputError::new(path, format!("expected a vertex index (a whole number >= 0), got {x}")));
    }
    Ok(x as u32)
}

/// A trimesh's `"weld"`: `"exact"`, `"none"` or a tolerance (a number `>= 0`); `default`
/// when absent.
fn weld(obj: &Obj, default: Weld) -> Result<Weld> {
    let at = obj.at("weld");
    match obj.opt("weld") {
        None => Ok(default),
        Some(Value::String(s)) if s == "exact" => Ok(Weld::Exact),
        Some(Value::String(s)) if s == "none" => Ok(Weld::None),
        Some(v @ Value::Number(_)) => {
            let t: f64 = number(v, &at)?;
            if t < 0.0 {
                return Err(InputError::new(at, format!("a tolerance must be >= 0, got {t}")));
            }
            Ok(Weld::Within(t))
        }
        Some(other) => Err(InputError::new(
            at,
            format!(
                "expected \"exact\", \"none\" or a tolerance (a number >= 0), got {}",
                crate::json::type_name(other)
            ),
        )),
    }
}

/// `{"type": "trimesh", "vertices": [[x,y,z], ...], "indices": [[i,j,k], ...]}` or
/// `{"type": "trimesh", "file": "mesh.obj"}` (its path relative to the scope's folder),
/// either with an optional `"weld"` (default: `"none"` for vertices given, `"exact"` for
/// a file).
pub fn trimesh<V: Vector3 + Space>(scope: &Scope, obj: &Obj) -> Result<TriMesh<V>> {
    obj.only(&["type", "vertices", "indices", "file", "weld"], "for a trimesh")?;
    if let Some(file) = obj.opt("file") {
        let at = obj.at("file");
        if obj.opt("vertices").is_some() || obj.opt("indices").is_some() {
            return Err(InputError::new(at, "give \"file\" or \"vertices\" and \"indices\", not both"));
        }
        let Value::String(file) = file else {
            return Err(InputError::new(at, "expected the path of a mesh file (a string)"));
        };
        let weld = weld(obj, Weld::Exact)?;
        let path = scope.path(file, &at)?;
        return TriMesh::from_file(&path, weld).map_err(|e| InputError::new(at, e.to_string()));
    }
    let weld = weld(obj, Weld::None)?;
    let vertices: Vec<V> = obj.points("vertices")?;
    let at = obj.at("indices");
    let indices = array(obj.get("indices")?, &at)?
        .iter()
        .enumerate()
        .map(|(t, tri)| {
            let path = format!("{at}[{t}]");
            let items = array(tri, &path)?;
            if items.len() != 3 {
                return Err(InputError::new(path, format!("expected 3 vertex indices, got {}", items.len())));
            }
            let mut out = [0u32; 3];
            for (k, (slot, v)) in out.iter_mut().zip(items).enumerate() {
                *slot = index(v, &format!("{path}[{k}]"))?;
            }
            Ok(out)
        })
        .collect::<Result<Vec<[u32; 3]>>>()?;
    TriMesh::try_new_welded(vertices, indices, weld).map_err(|e| match e {
        TriMeshError::Empty { what } => InputError::new(obj.at(what), e.to_string()),
        TriMeshError::NonFiniteVertex { index } => {
            InputError::new(format!("{}[{index}]", obj.at("vertices")), "not finite")
        }
        TriMeshError::IndexOutOfRange { triangle, corner, index, vertex_count } => InputError::new(
            format!("{at}[{triangle}][{corner}]"),
            format!("index {index} is out of range: there are {vertex_count} vertices"),
        ),
        other => InputError::new(obj.path(), other.to_string()),
    })
}

/// Names the path of a heightfield error.
fn heightfield_error(obj: &Obj, source: &str, e: &HeightFieldError) -> InputError {
    let msg = e.to_string();
    match e {
        HeightFieldError::Ragged { row, len, expected } => InputError::new(
            format!("{}[{row}]", obj.at("heights")),
            format!("has {len} samples but heights[0] has {expected}: every row needs the same number"),
        ),
        HeightFieldError::NonFiniteHeight { row, col } => {
            InputError::new(format!("{}[{row}][{col}]", obj.at("heights")), "not finite")
        }
        HeightFieldError::BadScale { axis, value } => {
            InputError::new(format!("{}[{axis}]", obj.at("scale")), format!("must be > 0, got {value}"))
        }
        _ => InputError::new(obj.at(source), msg),
    }
}

/// `{"type": "heightfield", "heights": [[h, ...], ...] | "png": "path", "scale": [sx, sy, sz]}`.
pub fn heightfield3<V: Vector3 + Space>(scope: &Scope, obj: &Obj) -> Result<HeightField<V>> {
    obj.only(&["type", "heights", "png", "scale"], "for a heightfield")?;
    let scale: V = obj.vec("scale")?;
    match (obj.opt("heights"), obj.opt("png")) {
        (Some(_), Some(_)) => Err(InputError::new(obj.at("png"), "give \"heights\" or \"png\", not both")),
        (None, None) => Err(InputError::new(obj.at("heights"), "missing: give \"heights\" or \"png\"")),
        (None, Some(p)) => {
            let Value::String(path) = p else {
                return Err(InputError::new(obj.at("png"), "expected the path of a PNG file (a string)"));
            };
            let path = scope.path(path, &obj.at("png"))?;
            HeightField::from_png(path, scale).map_err(|e| heightfield_error(obj, "png", &e))
        }
        (Some(h), None) => {
            let at = obj.at("heights");
            let rows = array(h, &at)?
                .iter()
                .enumerate()
                .map(|(r, row)| {
                    let path = format!("{at}[{r}]");
                    array(row, &path)?
                        .iter()
                        .enumerate()
                        .map(|(c, x)| number::<V::Real>(x, &format!("{path}[{c}]")))
                        .collect::<Result<Vec<V::Real>>>()
                })
                .collect::<Result<Vec<Vec<V::Real>>>>()?;
            HeightField::try_new(rows, scale).map_err(|e| heightfield_error(obj, "heights", &e))
        }
    }
}

/// `{"type": "heightfield", "heights": [h, ...], "scale": [sx, sy]}` (2D).
pub fn heightfield2<V: Vector2 + Space>(obj: &Obj) -> Result<HeightField2d<V>> {
    obj.only(&["type", "heights", "scale"], "for a 2D heightfield")?;
    let scale: V = obj.vec("scale")?;
    let at = obj.at("heights");
    let heights = array(obj.get("heights")?, &at)?
        .iter()
        .enumerate()
        .map(|(i, x)| number::<V::Real>(x, &format!("{at}[{i}]")))
        .collect::<Result<Vec<V::Real>>>()?;
    HeightField2d::try_new(heights, scale).map_err(|e| match e {
        HeightFieldError::BadScale { axis, value } => {
            InputError::new(format!("{}[{axis}]", obj.at("scale")), format!("must be > 0, got {value}"))
        }
        other => InputError::new(at.clone(), other.to_string()),
    })
}

/// `{"type": "polyline", "vertices": [[x, y], ...]}` (2D).
pub fn polyline<V: Vector2 + Space>(obj: &Obj) -> Result<Polyline<V>> {
    obj.only(&["type", "vertices"], "for a polyline")?;
    Polyline::try_new(obj.points("vertices")?).map_err(|e| match e {
        PolylineError::NonFiniteVertex { index } => {
            InputError::new(format!("{}[{index}]", obj.at("vertices")), "not finite")
        }
        other => InputError::new(obj.at("vertices"), other.to_string()),
    })
}

/// `{"type": "concave_polygon", "points": [[x, y], ...]}` (2D).
pub fn concave_polygon<V: Vector2 + Space>(obj: &Obj) -> Result<ConcavePolygon<V>> {
    obj.only(&["type", "points"], "for a concave_polygon")?;
    ConcavePolygon::try_new(&obj.points::<V>("points")?)
        .map_err(|e| InputError::new(obj.at("points"), e.to_string()))
}

/// Names the path of a compound error (its parts were read and checked already).
pub fn compound_error(obj: &Obj, e: &CompoundError) -> InputError {
    match e {
        CompoundError::BadPose { part } | CompoundError::NonFiniteBounds { part } => {
            InputError::new(format!("{}[{part}]", obj.at("parts")), e.to_string())
        }
        _ => InputError::new(obj.at("parts"), e.to_string()),
    }
}
