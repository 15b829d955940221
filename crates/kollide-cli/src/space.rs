//! The four vector types a query can run in, and reading a body (shape and pose) in one.
//!
//! The evaluation is written once over [`Space`]; what differs per dimension (the shape
//! enum, how a rotation is written) is behind the trait, and the precision is the choice of
//! type: `Vec2`/`Vec3` with `--f32`, `DVec2`/`DVec3` by default.

use crate::composite_json::{compound_error, concave_polygon, heightfield2, heightfield3, polyline, trimesh};
use crate::json::{array, number, InputError, Obj, Result};
use crate::session::{report_counts, Scope, Shapes};
use crate::shape_json::{convex2, convex3, names_in};
use kollide::composite::{Composite, Compound, CompoundError};
use kollide::math::{DQuat, DVec2, DVec3, Pose, PoseError, Quat, Real, Rot2, Vec2, Vec3, Vector};
use kollide::query::cast::{BackFaces, SoupItem, SweepError, SweepOutcome, SweepStep};
use kollide::shape::{Convex2, Convex3};
use kollide::world::{RuntimeShape, Shape2, Shape3};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// A vector type the tool answers in, with its shapes and its way of writing rotations.
pub trait Space: kollide::query::Space<Real: Serialize> {
    /// The shapes a body can be in this dimension (the library's run-time shapes: convex
    /// or composite).
    type Shape: RuntimeShape<Self> + core::fmt::Debug + Clone + Send + Sync;
    /// The convex shapes of this dimension.
    type Convex: kollide::shape::Support<Self>;
    /// The convex shape inside a run-time shape, if it is one.
    fn as_convex(shape: &Self::Shape) -> Option<&Self::Convex>;
    /// The fields a body object may have.
    const BODY_FIELDS: &'static [&'static str];
    /// Reads a `"shape"` object that is not a `{"ref": NAME}` (see [`shape_of`]).
    ///
    /// # Errors
    /// A malformed shape, naming its path.
    fn read_shape(scope: &Scope, obj: &Obj) -> Result<Self::Shape>;
    /// The shapes defined in this vector type.
    fn defined(shapes: &Shapes) -> &HashMap<String, Self::Shape>;
    /// The same, to define one.
    fn defined_mut(shapes: &mut Shapes) -> &mut HashMap<String, Self::Shape>;
    /// What a define line reports of a shape: a mesh's diagnostics, a composite's parts.
    fn counts(shape: &Self::Shape) -> Vec<(&'static str, String)>;
    /// The field of a body that holds its rotation: `"angle"` in 2D, `"rotation"` in 3D.
    const ROTATION: &'static str;
    /// Reads a rotation value (an angle in 2D, `[x, y, z, w]` in 3D) at `path`. Not yet
    /// checked for norm: [`Pose::try_new`] does that.
    ///
    /// # Errors
    /// A malformed value.
    fn rotation_at(v: &Value, path: &str) -> Result<Self::Rotation>;
    /// No rotation.
    fn no_rotation() -> Self::Rotation;
    /// Reads the body's rotation, the identity when absent.
    ///
    /// # Errors
    /// A malformed rotation field.
    fn rotation(body: &Obj) -> Result<Self::Rotation> {
        match body.opt(Self::ROTATION) {
            None => Ok(Self::no_rotation()),
            Some(v) => Self::rotation_at(v, &body.at(Self::ROTATION)),
        }
    }
    /// Reads an angular velocity: a number in 2D, an array of 3 numbers in 3D.
    ///
    /// # Errors
    /// A value of the wrong kind or a bad number, naming `path`.
    fn angular_velocity(v: &Value, path: &str) -> Result<Self::AngularVelocity>;
    /// The field of a sweep that holds the soup: `"segments"` in 2D, `"triangles"` in 3D.
    const SOUP: &'static str;
    /// The field of a sweep's answer that names the element hit: `"segment"` or `"triangle"`.
    const SOUP_ITEM: &'static str;
    /// A soup's item in this dimension: a segment `[V; 2]` in 2D, a triangle `[V; 3]` in 3D.
    type Item: SoupItem<Self> + Send + Sync;
    /// Reads a soup (`V::SOUP`) at `path`.
    ///
    /// # Errors
    /// A missing or malformed soup, naming its path.
    fn read_soup(v: &Value, path: &str) -> Result<Vec<Self::Item>>;
}

/// The soup of a sweep line (`V::SOUP`: segments in 2D, triangles in 3D), each item as its
/// list of points (for drawing; `kollide query` has checked the line).
///
/// # Errors
/// A missing or malformed soup, naming its path.
pub(crate) fn soup_items<V: Space>(top: &crate::json::Obj) -> Result<Vec<Vec<V>>> {
    crate::json::array(top.get(V::SOUP)?, V::SOUP)?
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let at = format!("{}[{i}]", V::SOUP);
            crate::json::array(item, &at)?
                .iter()
                .enumerate()
                .map(|(k, p)| crate::json::vector(p, &format!("{at}[{k}]")))
                .collect()
        })
        .collect()
}

/// Reads a soup: an array of simplices, each an array of `N` points of `V::DIM` numbers.
fn soup<V: Vector, const N: usize>(v: &Value, path: &str) -> Result<Vec<[V; N]>> {
    crate::json::array(v, path)?
        .iter()
        .enumerate()
        .map(|(i, item)| {
            // Paths are formatted only for an error (a soup may hold a million items).
            let at = || format!("{path}[{i}]");
            let points = crate::json::array_at(item, at)?;
            if points.len() != N {
                return Err(InputError::new(at(), format!("expected {N} points, got {}", points.len())));
            }
            let mut out = [V::ZERO; N];
            for (k, (slot, p)) in out.iter_mut().zip(points).enumerate() {
                *slot = crate::json::vector_at(p, || format!("{}[{k}]", at()))?;
            }
            Ok(out)
        })
        .collect()
}

/// A [`SweepError`] at its JSON path. The reader has checked every number already, so this
/// is a second line of defence, never reached by a line it accepted.
fn sweep_error(e: &SweepError, mover_path: &str, soup_path: &str) -> InputError {
    match e {
        SweepError::NonFiniteCorner { index, corner } => {
            InputError::new(format!("{soup_path}[{index}][{corner}]"), "not finite")
        }
        SweepError::NonFinite { field: "displacement" } => InputError::new("displacement", e.to_string()),
        _ => InputError::new(mover_path, e.to_string()),
    }
}

/// `"trimesh" is a 3D shape but this body is 2D ...; use "polyline"`.
fn other_dimension(obj: &Obj, name: &str, own: usize, instead: &str) -> InputError {
    let dim = 5 - own;
    InputError::new(
        obj.at("type"),
        format!(
            "\"{name}\" is a {own}D shape but this body is {dim}D (its translation has {dim} numbers); use \"{instead}\" ({dim}D shapes: {})",
            names_in(dim)
        ),
    )
}

/// The error for a sweep whose mover is not a ball or an ellipsoid (circle or ellipse).
fn not_a_mover(path: &str, dim: usize) -> InputError {
    let (round, oval) = if dim == 2 { ("circle", "ellipse") } else { ("ball", "ellipsoid") };
    InputError::new(
        format!("{path}.shape.type"),
        format!("a sweep moves a \"{round}\" or an \"{oval}\" (without \"round\")"),
    )
}

/// `{"type": "compound", "parts": [BODY, ...]}`: convex parts, each placed by its own
/// translation and rotation relative to the compound. `convex` takes a part's shape out of
/// its body, or says it is not convex.
pub fn compound<V: Space, C>(
    scope: &Scope,
    obj: &Obj,
    convex: impl Fn(V::Shape) -> Option<C>,
) -> Result<Vec<(Pose<V>, C)>> {
    obj.only(&["type", "parts"], "for a compound")?;
    let at = obj.at("parts");
    let parts = array(obj.get("parts")?, &at)?;
    if parts.is_empty() {
        return Err(InputError::new(at, CompoundError::Empty.to_string()));
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let path = format!("{at}[{i}]");
            let b = body::<V>(scope, p, &path)?;
            let pose = b.pose;
            match convex(b.shape) {
                Some(c) => Ok((pose, c)),
                None => Err(InputError::new(
                    format!("{path}.shape.type"),
                    "a compound's parts must be convex shapes (not a composite)",
                )),
            }
        })
        .collect()
}

/// A sweep line's answer: the mover (a ball or an ellipsoid; a circle or an ellipse in 2D)
/// moved by `displacement` through the soup read from `soup` at `soup_path`.
///
/// With `trace`, each test of each item is recorded there (`kollide picture --steps`).
///
/// # Errors
/// A malformed soup, or a mover of another shape (naming `mover_path`).
pub fn sweep<V: Space>(
    mover: &Body<V>,
    mover_path: &str,
    displacement: V,
    soup: &Value,
    soup_path: &str,
    back_faces: BackFaces,
    trace: Option<&mut Vec<SweepStep<V>>>,
) -> Result<SweepOutcome<V>> {
    let items = V::read_soup(soup, soup_path)?;
    let shape = mover.shape.as_swept(&mover.pose).ok_or_else(|| not_a_mover(mover_path, V::DIM))?;
    kollide::query::cast::sweep(shape, displacement, &items, back_faces, trace)
        .map_err(|e| sweep_error(&e, mover_path, soup_path))
}

/// A sweep line's answer: the mover moved by `displacement` through the soup `items` (read
/// from `soup_path`).
///
/// # Errors
/// A mover of another shape (naming `mover_path`).
pub fn sweep_items<V: Space>(
    mover: &Body<V>,
    mover_path: &str,
    displacement: V,
    items: &[V::Item],
    soup_path: &str,
    back_faces: BackFaces,
) -> Result<SweepOutcome<V>> {
    let shape = mover.shape.as_swept(&mover.pose).ok_or_else(|| not_a_mover(mover_path, V::DIM))?;
    kollide::query::cast::sweep(shape, displacement, items, back_faces, None)
        .map_err(|e| sweep_error(&e, mover_path, soup_path))
}

/// What a sweep refuses whatever its displacement: a mover that is not a ball or an
/// ellipsoid (circle or ellipse), a composite `b` that is not made of triangles (segments).
///
/// # Errors
/// Those, naming the mover's path or `b.shape.type`.
pub fn sweep_check<V: Space>(mover: &Body<V>, mover_path: &str, through: Option<&Body<V>>) -> Result<()> {
    if let Some(b) = through {
        if !b.shape.is_soup() {
            return Err(not_a_soup::<V>());
        }
    }
    mover.shape.as_swept(&mover.pose).map(|_| ()).ok_or_else(|| not_a_mover(mover_path, V::DIM))
}

/// The error for a sweep through a composite whose parts are not triangles (segments).
fn not_a_soup<V: Space>() -> InputError {
    let message = if V::DIM == 2 {
        "a sweep moves through a \"polyline\" or a \"heightfield\" (segments), or a \"segments\" soup"
    } else {
        "a sweep moves through a \"trimesh\" or a \"heightfield\" (triangles), or a \"triangles\" soup"
    };
    InputError::new("b.shape.type", message)
}

/// A sweep line's answer through a composite body `b` (a mesh or terrain in 3D, a polyline
/// or terrain line in 2D), its parts named by `index`.
///
/// # Errors
/// A `b` whose parts are not triangles (segments), or a mover of another shape.
pub fn sweep_through<V: Space>(
    mover: &Body<V>,
    mover_path: &str,
    displacement: V,
    b: &Body<V>,
    back_faces: BackFaces,
) -> Result<SweepOutcome<V>> {
    let not_a_soup = not_a_soup::<V>;
    if !b.shape.is_soup() {
        return Err(not_a_soup());
    }
    let shape = mover.shape.as_swept(&mover.pose).ok_or_else(|| not_a_mover(mover_path, V::DIM))?;
    let out = b.shape.sweep_through(&b.pose, shape, displacement, back_faces).ok_or_else(not_a_soup)?;
    out.map_err(|e| sweep_error(&e, mover_path, "b"))
}

/// A 3D rotation `[x, y, z, w]` at `path`.
fn xyzw<R: Real>(v: &Value, path: &str) -> Result<[R; 4]> {
    let len = crate::json::array(v, path)?.len();
    if len != 4 {
        let msg = format!("expected 4 numbers [x, y, z, w] (a unit quaternion), got {len}");
        return Err(InputError::new(path, msg));
    }
    let q = crate::json::numbers::<R>(v, path, 4)?;
    Ok([q[0], q[1], q[2], q[3]])
}

macro_rules! space2 {
    ($v:ident, $map:ident) => {
        impl Space for $v {
            type Shape = Shape2<$v>;
            type Convex = Convex2<$v>;
            fn as_convex(shape: &Self::Shape) -> Option<&Self::Convex> {
                match shape {
                    Shape2::Convex(c) => Some(c),
                    _ => None,
                }
            }
            const BODY_FIELDS: &'static [&'static str] = &["shape", "translation", "angle"];
            fn read_shape(scope: &Scope, obj: &Obj) -> Result<Self::Shape> {
                Ok(match obj.str("type")? {
                    "polyline" => Shape2::Polyline(Arc::new(polyline(obj)?)),
                    "heightfield" => Shape2::HeightField(Arc::new(heightfield2(obj)?)),
                    "concave_polygon" => Shape2::ConcavePolygon(Arc::new(concave_polygon(obj)?)),
                    "compound" => {
                        let parts = compound::<$v, Convex2<$v>>(scope, obj, |s| match s {
                            Shape2::Convex(c) => Some(c),
                            _ => None,
                        })?;
                        Shape2::Compound(Arc::new(
                            Compound::try_new(parts).map_err(|e| compound_error(obj, &e))?,
                        ))
                    }
                    "trimesh" => return Err(other_dimension(obj, "trimesh", 3, "polyline")),
                    _ => Shape2::Convex(convex2(obj)?),
                })
            }
            fn defined(shapes: &Shapes) -> &HashMap<String, Self::Shape> {
                &shapes.$map
            }
            fn defined_mut(shapes: &mut Shapes) -> &mut HashMap<String, Self::Shape> {
                &mut shapes.$map
            }
            fn counts(shape: &Self::Shape) -> Vec<(&'static str, String)> {
                match shape {
                    Shape2::Convex(_) => Vec::new(),
                    Shape2::Polyline(p) => vec![("segments", p.part_count().to_string())],
                    Shape2::HeightField(h) => vec![("segments", h.part_count().to_string())],
                    Shape2::ConcavePolygon(c) => vec![("pieces", c.part_count().to_string())],
                    Shape2::Compound(c) => vec![("parts", c.part_count().to_string())],
                }
            }
            const ROTATION: &'static str = "angle";
            fn no_rotation() -> Self::Rotation {
                Rot2::default()
            }
            fn rotation_at(v: &Value, path: &str) -> Result<Self::Rotation> {
                Ok(Rot2::from_angle(number(v, path)?))
            }
            fn angular_velocity(v: &Value, path: &str) -> Result<Self::AngularVelocity> {
                number(v, path)
            }
            const SOUP: &'static str = "segments";
            const SOUP_ITEM: &'static str = "segment";
            type Item = [$v; 2];
            fn read_soup(v: &Value, path: &str) -> Result<Vec<[$v; 2]>> {
                soup::<$v, 2>(v, path)
            }
        }
    };
}

macro_rules! space3 {
    ($v:ident, $q:ident, $map:ident) => {
        impl Space for $v {
            type Shape = Shape3<$v>;
            type Convex = Convex3<$v>;
            fn as_convex(shape: &Self::Shape) -> Option<&Self::Convex> {
                match shape {
                    Shape3::Convex(c) => Some(c),
                    _ => None,
                }
            }
            const BODY_FIELDS: &'static [&'static str] = &["shape", "translation", "rotation"];
            fn read_shape(scope: &Scope, obj: &Obj) -> Result<Self::Shape> {
                Ok(match obj.str("type")? {
                    "trimesh" => Shape3::TriMesh(Arc::new(trimesh(scope, obj)?)),
                    "heightfield" => Shape3::HeightField(Arc::new(heightfield3(scope, obj)?)),
                    "compound" => {
                        let parts = compound::<$v, Convex3<$v>>(scope, obj, |s| match s {
                            Shape3::Convex(c) => Some(c),
                            _ => None,
                        })?;
                        Shape3::Compound(Arc::new(
                            Compound::try_new(parts).map_err(|e| compound_error(obj, &e))?,
                        ))
                    }
                    "polyline" => return Err(other_dimension(obj, "polyline", 2, "trimesh")),
                    "concave_polygon" => return Err(other_dimension(obj, "concave_polygon", 2, "trimesh")),
                    _ => Shape3::Convex(convex3(obj)?),
                })
            }
            fn defined(shapes: &Shapes) -> &HashMap<String, Self::Shape> {
                &shapes.$map
            }
            fn defined_mut(shapes: &mut Shapes) -> &mut HashMap<String, Self::Shape> {
                &mut shapes.$map
            }
            fn counts(shape: &Self::Shape) -> Vec<(&'static str, String)> {
                match shape {
                    Shape3::Convex(_) => Vec::new(),
                    Shape3::TriMesh(m) => report_counts(&m.report()),
                    Shape3::HeightField(h) => vec![("triangles", h.part_count().to_string())],
                    Shape3::Compound(c) => vec![("parts", c.part_count().to_string())],
                }
            }
            const ROTATION: &'static str = "rotation";
            fn no_rotation() -> Self::Rotation {
                $q::IDENTITY
            }
            fn rotation_at(v: &Value, path: &str) -> Result<Self::Rotation> {
                Ok($q::from_array(xyzw(v, path)?))
            }
            fn angular_velocity(v: &Value, path: &str) -> Result<Self::AngularVelocity> {
                crate::json::vector(v, path)
            }
            const SOUP: &'static str = "triangles";
            const SOUP_ITEM: &'static str = "triangle";
            type Item = [$v; 3];
            fn read_soup(v: &Value, path: &str) -> Result<Vec<[$v; 3]>> {
                soup::<$v, 3>(v, path)
            }
        }
    };
}

space2!(Vec2, f32_2);
space2!(DVec2, f64_2);
space3!(Vec3, Quat, f32_3);
space3!(DVec3, DQuat, f64_3);

/// A body read from a query line: its shape and its pose in the world frame.
#[derive(Debug)]
pub struct Body<V: Space> {
    /// The shape, in its local frame.
    pub shape: V::Shape,
    /// Where the shape's local frame sits in the world.
    pub pose: Pose<V>,
}

/// Reads the body at `path` (`"a"` or `"b"`), whose dimension the caller has read from its
/// translation.
///
/// # Errors
/// An unknown field, a malformed or non-finite translation, a rotation [`Pose::try_new`]
/// refuses, or any error of the shape, each naming its path.
pub fn body<V: Space>(scope: &Scope, v: &Value, path: &str) -> Result<Body<V>> {
    let obj = Obj::new(v, path)?;
    obj.only(V::BODY_FIELDS, &format!("for a {}D body", V::DIM))?;
    let translation = obj.vec::<V>("translation")?;
    let rotation = V::rotation(&obj)?;
    let pose = Pose::try_new(translation, rotation)
        .map_err(|e| pose_error(&e, &obj.at("translation"), &obj.at(V::ROTATION), obj.path()))?;
    let shape_path = obj.at("shape");
    let shape = shape_of::<V>(scope, &Obj::new(obj.get("shape")?, &shape_path)?)?;
    Ok(Body { shape, pose })
}

/// Names the field behind a [`PoseError`]: the translation at `translation`, the rotation
/// at `rotation`, anything else at `body`.
pub(crate) fn pose_error(e: &PoseError, translation: &str, rotation: &str, body: &str) -> InputError {
    match e {
        PoseError::NonFiniteTranslation { component } => {
            InputError::new(format!("{translation}[{component}]"), "not finite")
        }
        PoseError::NonFiniteRotation => InputError::new(rotation, "not finite"),
        PoseError::NonUnitRotation { .. } => InputError::new(rotation, e.to_string()),
        _ => InputError::new(body, e.to_string()),
    }
}

/// Reads a `"shape"` object: `{"ref": NAME}` for a shape defined on an earlier line, or a
/// shape given in full.
///
/// # Errors
/// An unknown name, a name defined only in the other dimension, or an error of the shape,
/// each naming its path.
pub fn shape_of<V: Space>(scope: &Scope, obj: &Obj) -> Result<V::Shape> {
    let Some(name) = obj.opt("ref") else { return V::read_shape(scope, obj) };
    obj.only(&["ref"], "with \"ref\" (a defined shape is used as it is)")?;
    let at = obj.at("ref");
    let Value::String(name) = name else {
        let msg =
            format!("expected the name of a defined shape (a string), got {}", crate::json::type_name(name));
        return Err(InputError::new(at, msg));
    };
    if let Some(shape) = V::defined(scope.shapes()).get(name) {
        return Ok(shape.clone());
    }
    if let Some(line) = scope.shapes().lines.get(name) {
        let (own, dim) = (5 - V::DIM, V::DIM);
        let msg = format!(
            "\"{name}\" (defined on line {line}) is a {own}D shape but this body is {dim}D (its translation has {dim} numbers)"
        );
        return Err(InputError::new(at, msg));
    }
    let mut known: Vec<&str> = scope.shapes().lines.keys().map(String::as_str).collect();
    known.sort_unstable();
    let hint = if known.is_empty() {
        "no shape is defined yet; define one first: {\"define\": NAME, \"shape\": SHAPE}".to_string()
    } else {
        format!("defined: {}", known.iter().map(|k| format!("\"{k}\"")).collect::<Vec<_>>().join(", "))
    };
    Err(InputError::new(at, format!("no shape is defined as \"{name}\" ({hint})")))
}

/// The dimensions a define line's shape is built in, `[2D, 3D]`: its type's (a 2D or 3D
/// name; the points' of a segment or triangle; a compound's first part's; a heightfield's
/// rows); both for a capsule; a referenced shape's own.
///
/// # Errors
/// A `"ref"` to no shape.
pub fn shape_dimensions(obj: &Obj, scope: &Scope) -> Result<[bool; 2]> {
    if let Some(Value::String(name)) = obj.opt("ref") {
        let shapes = scope.shapes();
        let two = shapes.f32_2.contains_key(name) || shapes.f64_2.contains_key(name);
        let three = shapes.f32_3.contains_key(name) || shapes.f64_3.contains_key(name);
        // An unknown name: read in 3D, which names it as unknown.
        return Ok(if two || three { [two, three] } else { [false, true] });
    }
    let length = |v: Option<&Value>| match v {
        Some(Value::Array(a)) => Some(a.len()),
        _ => None,
    };
    let Some(Value::String(ty)) = obj.opt("type") else { return Ok([false, true]) };
    let of = |n: Option<usize>| match n {
        Some(2) => [true, false],
        _ => [false, true],
    };
    Ok(match ty.as_str() {
        "capsule" => [true, true],
        "segment" | "triangle" => of(length(obj.opt("a"))),
        "polyline" | "concave_polygon" | "circle" | "rectangle" | "ellipse" | "convex_polygon" => {
            [true, false]
        }
        "heightfield" => match obj.opt("heights").and_then(|h| h.as_array()).and_then(|rows| rows.first()) {
            Some(Value::Number(_)) => [true, false],
            _ => [false, true],
        },
        "compound" => {
            let first = obj.opt("parts").and_then(|p| p.as_array()).and_then(|p| p.first());
            of(length(first.and_then(|b| b.get("translation"))))
        }
        _ => [false, true],
    })
}
