//! The four vector types a query can run in, and reading a body (shape and pose) in one.
//!
//! The evaluation is written once over [`Space`]; what differs per dimension (the shape
//! enum, how a rotation is written) is behind the trait, and the precision is the choice of
//! type: `Vec2`/`Vec3` with `--f32`, `DVec2`/`DVec3` by default.

use crate::composite_json::{compound_error, concave_polygon, heightfield2, heightfield3, polyline, trimesh};
use crate::json::{array, number, InputError, Obj, Result};
use crate::shape_json::{convex2, convex3, names_in};
use kollide::composite::{Compound, CompoundError};
use kollide::math::{DQuat, DVec2, DVec3, Pose, PoseError, Quat, Real, Rot2, Vec2, Vec3, Vector, Vector2};
use kollide::query::cast::{BackFaces, SoupItem, SweepError, SweepOutcome, SweepStep};
use kollide::shape::{Convex2, Convex3};
use kollide::world::{RuntimeShape, Shape2, Shape3};
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;

/// A vector type the tool answers in, with its shapes and its way of writing rotations.
pub trait Space: kollide::query::Space<Real: Serialize> {
    /// The shapes a body can be in this dimension (the library's run-time shapes: convex
    /// or composite).
    type Shape: RuntimeShape<Self> + core::fmt::Debug;
    /// The convex shapes of this dimension.
    type Convex: kollide::shape::Support<Self>;
    /// The convex shape inside a run-time shape, if it is one.
    fn as_convex(shape: &Self::Shape) -> Option<&Self::Convex>;
    /// The fields a body object may have.
    const BODY_FIELDS: &'static [&'static str];
    /// Reads a `"shape"` object.
    ///
    /// # Errors
    /// See [`shape2`] / [`shape3`].
    fn shape(obj: &Obj) -> Result<Self::Shape>;
    /// Reads the body's rotation (`"angle"` in 2D, `"rotation"` in 3D), identity when
    /// absent. Not yet checked for norm: [`Pose::try_new`] does that.
    ///
    /// # Errors
    /// A malformed rotation field.
    fn rotation(body: &Obj) -> Result<Self::Rotation>;
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
    type Item: SoupItem<Self>;
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
pub fn compound<V: Space, C>(obj: &Obj, convex: impl Fn(V::Shape) -> Option<C>) -> Result<Vec<(Pose<V>, C)>> {
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
            let b = body::<V>(p, &path)?;
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
    let not_a_soup = || {
        let message = if V::DIM == 2 {
            "a sweep moves through a \"polyline\" or a \"heightfield\" (segments), or a \"segments\" soup"
        } else {
            "a sweep moves through a \"trimesh\" or a \"heightfield\" (triangles), or a \"triangles\" soup"
        };
        InputError::new("b.shape.type", message)
    };
    if !b.shape.is_soup() {
        return Err(not_a_soup());
    }
    let shape = mover.shape.as_swept(&mover.pose).ok_or_else(|| not_a_mover(mover_path, V::DIM))?;
    let out = b.shape.sweep_through(&b.pose, shape, displacement, back_faces).ok_or_else(not_a_soup)?;
    out.map_err(|e| sweep_error(&e, mover_path, "b"))
}

/// The 2D rotation: `"angle"` in radians, counter-clockwise.
fn angle<V: Vector2>(body: &Obj) -> Result<Rot2<V::Real>> {
    match body.opt("angle") {
        None => Ok(Rot2::default()),
        Some(a) => Ok(Rot2::from_angle(number::<V::Real>(a, &body.at("angle"))?)),
    }
}

/// The 3D rotation's components `[x, y, z, w]`, if given.
fn xyzw<R: Real>(body: &Obj) -> Result<Option<[R; 4]>> {
    let Some(v) = body.opt("rotation") else { return Ok(None) };
    let path = body.at("rotation");
    let len = crate::json::array(v, &path)?.len();
    if len != 4 {
        let msg = format!("expected 4 numbers [x, y, z, w] (a unit quaternion), got {len}");
        return Err(InputError::new(path, msg));
    }
    let q = crate::json::numbers::<R>(v, &path, 4)?;
    Ok(Some([q[0], q[1], q[2], q[3]]))
}

macro_rules! space2 {
    ($v:ident) => {
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
            fn shape(obj: &Obj) -> Result<Self::Shape> {
                Ok(match obj.str("type")? {
                    "polyline" => Shape2::Polyline(Arc::new(polyline(obj)?)),
                    "heightfield" => Shape2::HeightField(Arc::new(heightfield2(obj)?)),
                    "concave_polygon" => Shape2::ConcavePolygon(Arc::new(concave_polygon(obj)?)),
                    "compound" => {
                        let parts = compound::<$v, Convex2<$v>>(obj, |s| match s {
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
            fn rotation(body: &Obj) -> Result<Self::Rotation> {
                angle::<$v>(body)
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
    ($v:ident, $q:ident) => {
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
            fn shape(obj: &Obj) -> Result<Self::Shape> {
                Ok(match obj.str("type")? {
                    "trimesh" => Shape3::TriMesh(Arc::new(trimesh(obj)?)),
                    "heightfield" => Shape3::HeightField(Arc::new(heightfield3(obj)?)),
                    "compound" => {
                        let parts = compound::<$v, Convex3<$v>>(obj, |s| match s {
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
            fn rotation(body: &Obj) -> Result<Self::Rotation> {
                Ok(xyzw(body)?.map_or($q::IDENTITY, $q::from_array))
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

space2!(Vec2);
space2!(DVec2);
space3!(Vec3, Quat);
space3!(DVec3, DQuat);

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
pub fn body<V: Space>(v: &Value, path: &str) -> Result<Body<V>> {
    let obj = Obj::new(v, path)?;
    obj.only(V::BODY_FIELDS, &format!("for a {}D body", V::DIM))?;
    let translation = obj.vec::<V>("translation")?;
    let rotation = V::rotation(&obj)?;
    let pose = Pose::try_new(translation, rotation).map_err(|e| pose_error(&obj, &e, V::DIM))?;
    let shape_path = obj.at("shape");
    let shape = V::shape(&Obj::new(obj.get("shape")?, &shape_path)?)?;
    Ok(Body { shape, pose })
}

/// Names the field behind a [`PoseError`].
fn pose_error(obj: &Obj, e: &PoseError, dim: usize) -> InputError {
    let rotation = if dim == 2 { "angle" } else { "rotation" };
    match e {
        PoseError::NonFiniteTranslation { component } => {
            InputError::new(format!("{}[{component}]", obj.at("translation")), "not finite")
        }
        PoseError::NonFiniteRotation => InputError::new(obj.at(rotation), "not finite"),
        PoseError::NonUnitRotation { .. } => InputError::new(obj.at(rotation), e.to_string()),
        _ => InputError::new(obj.path().to_string(), e.to_string()),
    }
}
