//! Reading a `"shape"` object: its type name (checked against the body's dimension), its
//! parameters, and the optional `"round"`.
//!
//! Names are strict per dimension, as kollide's own type names are: a 3D body takes
//! `ball`, `cuboid`, `ellipsoid`, `cylinder`, `cone`, `convex_hull`; a 2D body takes
//! `circle`, `rectangle`, `ellipse`, `convex_polygon`; `capsule`, `segment` and `triangle`
//! exist in both. A name from the other dimension is an error that suggests the
//! counterpart (`"ball" is 3D only ... use "circle"`).

use crate::json::{join, number, InputError, Obj, Result};
use kollide::math::{Vector, Vector2, Vector3};
use kollide::shape::{
    Ball, Capsule, Cone, Convex2, Convex3, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Ellipsoid, Segment,
    ShapeError, Triangle,
};
use std::sync::Arc;

/// What a shape is, whatever its name in this dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `ball` (3D), `circle` (2D).
    Ball,
    /// `cuboid` (3D), `rectangle` (2D).
    Cuboid,
    /// `capsule`.
    Capsule,
    /// `cylinder` (3D).
    Cylinder,
    /// `cone` (3D).
    Cone,
    /// `ellipsoid` (3D), `ellipse` (2D).
    Ellipsoid,
    /// `segment`.
    Segment,
    /// `triangle`.
    Triangle,
    /// `convex_hull` (3D), `convex_polygon` (2D).
    Convex,
}

impl Kind {
    /// The parameter fields of this kind, after `type` and before `round`.
    fn params(self) -> &'static [&'static str] {
        match self {
            Self::Ball => &["radius"],
            Self::Cuboid => &["half_extents"],
            Self::Capsule | Self::Cylinder | Self::Cone => &["half_height", "radius"],
            Self::Ellipsoid => &["radii"],
            Self::Segment => &["a", "b"],
            Self::Triangle => &["a", "b", "c"],
            Self::Convex => &["points"],
        }
    }
}

/// One accepted type name: its kind, the dimension it belongs to (`None`: both), and its
/// counterpart in the other dimension, if any.
struct Name {
    name: &'static str,
    kind: Kind,
    dim: Option<usize>,
    other: Option<&'static str>,
}

/// A row of [`NAMES`].
const fn name(name: &'static str, kind: Kind, dim: Option<usize>, other: Option<&'static str>) -> Name {
    Name { name, kind, dim, other }
}

/// Every shape type name, in the order the docs list them.
const NAMES: &[Name] = &[
    name("ball", Kind::Ball, Some(3), Some("circle")),
    name("circle", Kind::Ball, Some(2), Some("ball")),
    name("cuboid", Kind::Cuboid, Some(3), Some("rectangle")),
    name("rectangle", Kind::Cuboid, Some(2), Some("cuboid")),
    name("capsule", Kind::Capsule, None, None),
    name("cylinder", Kind::Cylinder, Some(3), None),
    name("cone", Kind::Cone, Some(3), None),
    name("ellipsoid", Kind::Ellipsoid, Some(3), Some("ellipse")),
    name("ellipse", Kind::Ellipsoid, Some(2), Some("ellipsoid")),
    name("segment", Kind::Segment, None, None),
    name("triangle", Kind::Triangle, None, None),
    name("convex_polygon", Kind::Convex, Some(2), Some("convex_hull")),
    name("convex_hull", Kind::Convex, Some(3), Some("convex_polygon")),
];

/// The type names accepted in `dim` dimensions, comma-separated: the convex shapes, then
/// the composites.
pub fn names_in(dim: usize) -> String {
    let mut names: Vec<&str> =
        NAMES.iter().filter(|n| n.dim.is_none_or(|d| d == dim)).map(|n| n.name).collect();
    let composites =
        if dim == 2 { crate::composite_json::COMPOSITES_2D } else { crate::composite_json::COMPOSITES_3D };
    names.extend_from_slice(composites);
    names.join(", ")
}

/// Reads `type`, checks it against `dim` and checks that only its fields are present.
fn kind(obj: &Obj, dim: usize) -> Result<&'static Name> {
    let ty = obj.str("type")?;
    let Some(n) = NAMES.iter().find(|n| n.name == ty) else {
        let msg = format!("unknown shape type \"{ty}\" ({dim}D shapes: {})", names_in(dim));
        return Err(InputError::new(obj.at("type"), msg));
    };
    if n.dim.is_some_and(|d| d != dim) {
        return Err(wrong_dimension(obj, n, dim));
    }
    let mut allowed = vec!["type"];
    allowed.extend_from_slice(n.kind.params());
    allowed.push("round");
    obj.only(&allowed, &format!("for a {}", n.name))?;
    Ok(n)
}

/// `"ball" is a 3D shape but this body is 2D ...`, with the counterpart if there is one.
fn wrong_dimension(obj: &Obj, n: &Name, dim: usize) -> InputError {
    let own = n.dim.unwrap_or(dim);
    let hint = match n.other {
        Some(other) => format!("; use \"{other}\""),
        None => format!(" ({dim}D shapes: {})", names_in(dim)),
    };
    let msg = format!(
        "\"{}\" is a {own}D shape but this body is {dim}D (its translation has {dim} numbers){hint}",
        n.name
    );
    InputError::new(obj.at("type"), msg)
}

/// Names the JSON path of a constructor's complaint: the library names the parameter
/// (`radius`, `half_extents.y`, `points[3].x`); this prefixes the shape's path and writes
/// components as indices, like the rest of the messages (`a.shape.half_extents[1]`).
fn shape_error(path: &str, e: &ShapeError) -> InputError {
    let at = |field: &str| join(path, &field.replace(".x", "[0]").replace(".y", "[1]").replace(".z", "[2]"));
    match e {
        ShapeError::NonFinite { field } => InputError::new(at(field), "not finite (NaN or infinity)"),
        ShapeError::NonPositive { field, value } => {
            InputError::new(at(field), format!("must be > 0, got {value}"))
        }
        ShapeError::Negative { field, value } => {
            InputError::new(at(field), format!("must be >= 0, got {value}"))
        }
        ShapeError::TooFewPoints { .. }
        | ShapeError::TooManyPoints { .. }
        | ShapeError::Collinear { .. }
        | ShapeError::Coplanar { .. }
        | ShapeError::RepeatedPoint { .. }
        | ShapeError::SelfIntersecting { .. } => InputError::new(at("points"), e.to_string()),
        _ => InputError::new(path.to_string(), e.to_string()),
    }
}

/// Checks a constructor's result, naming the path on failure.
fn built<S>(obj: &Obj, r: core::result::Result<S, ShapeError>) -> Result<S> {
    r.map_err(|e| shape_error(obj.path(), &e))
}

/// `core` grown by the object's `"round"`, if it has one.
fn rounded<V: Vector, S>(
    obj: &Obj,
    core: S,
    round: impl FnOnce(S, V::Real) -> core::result::Result<S, ShapeError>,
) -> Result<S> {
    match obj.opt("round") {
        None => Ok(core),
        Some(r) => {
            let r = number::<V::Real>(r, &obj.at("round"))?;
            built(obj, round(core, r))
        }
    }
}

/// Reads a 2D shape.
///
/// # Errors
/// An unknown or 3D-only type, a missing, unknown or malformed field, or a value the
/// shape's constructor refuses, each naming its path.
pub fn convex2<V: Vector2>(obj: &Obj) -> Result<Convex2<V>> {
    let n = kind(obj, 2)?;
    let core = match n.kind {
        Kind::Ball => Convex2::Ball(built(obj, Ball::try_new(obj.num("radius")?))?),
        Kind::Cuboid => Convex2::Cuboid(built(obj, Cuboid::try_new(obj.vec("half_extents")?))?),
        Kind::Capsule => {
            Convex2::Capsule(built(obj, Capsule::try_new(obj.num("half_height")?, obj.num("radius")?))?)
        }
        Kind::Ellipsoid => Convex2::Ellipsoid(built(obj, Ellipsoid::try_new(obj.vec("radii")?))?),
        Kind::Segment => Convex2::Segment(built(obj, Segment::try_new(obj.vec("a")?, obj.vec("b")?))?),
        Kind::Triangle => {
            Convex2::Triangle(built(obj, Triangle::try_new(obj.vec("a")?, obj.vec("b")?, obj.vec("c")?))?)
        }
        Kind::Convex => Convex2::ConvexPolygon(Arc::new(built(
            obj,
            ConvexPolygon::try_from_points(&obj.points("points")?),
        )?)),
        // `kind` has refused these already; kept as errors, never as a panic.
        Kind::Cylinder | Kind::Cone => return Err(wrong_dimension(obj, n, 2)),
    };
    rounded::<V, _>(obj, core, |c, r| c.rounded(r))
}

/// Reads a 3D shape.
///
/// # Errors
/// An unknown or 2D-only type, a missing, unknown or malformed field, or a value the
/// shape's constructor refuses, each naming its path.
pub fn convex3<V: Vector3>(obj: &Obj) -> Result<Convex3<V>> {
    let n = kind(obj, 3)?;
    let core = match n.kind {
        Kind::Ball => Convex3::Ball(built(obj, Ball::try_new(obj.num("radius")?))?),
        Kind::Cuboid => Convex3::Cuboid(built(obj, Cuboid::try_new(obj.vec("half_extents")?))?),
        Kind::Capsule => {
            Convex3::Capsule(built(obj, Capsule::try_new(obj.num("half_height")?, obj.num("radius")?))?)
        }
        Kind::Cylinder => {
            Convex3::Cylinder(built(obj, Cylinder::try_new(obj.num("half_height")?, obj.num("radius")?))?)
        }
        Kind::Cone => Convex3::Cone(built(obj, Cone::try_new(obj.num("half_height")?, obj.num("radius")?))?),
        Kind::Ellipsoid => Convex3::Ellipsoid(built(obj, Ellipsoid::try_new(obj.vec("radii")?))?),
        Kind::Segment => Convex3::Segment(built(obj, Segment::try_new(obj.vec("a")?, obj.vec("b")?))?),
        Kind::Triangle => {
            Convex3::Triangle(built(obj, Triangle::try_new(obj.vec("a")?, obj.vec("b")?, obj.vec("c")?))?)
        }
        Kind::Convex => {
            Convex3::ConvexHull(Arc::new(built(obj, ConvexHull::try_from_points(&obj.points("points")?))?))
        }
    };
    rounded::<V, _>(obj, core, |c, r| c.rounded(r))
}
