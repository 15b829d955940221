//! The four vector types a query can run in, and reading a body (shape and pose) in one.
//!
//! The evaluation is written once over [`Space`]; what differs per dimension (the shape
//! enum, how a rotation is written) is behind the trait, and the precision is the choice of
//! type: `Vec2`/`Vec3` with `--f32`, `DVec2`/`DVec3` by default.

use crate::json::{number, InputError, Obj, Result};
use crate::shape_json::{shape2, shape3};
use crate::shapes::{Shape2, Shape3};
use kollide::math::{DQuat, DVec2, DVec3, Pose, PoseError, Quat, Real, Rot2, Vec2, Vec3, Vector, Vector2};
use kollide::shape::Support;
use serde::Serialize;
use serde_json::Value;

/// A vector type the tool answers in, with its shapes and its way of writing rotations.
pub trait Space: Vector<Real: Serialize> {
    /// The shapes a body can be in this dimension.
    type Shape: Support<Self>;
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
            const BODY_FIELDS: &'static [&'static str] = &["shape", "translation", "angle"];
            fn shape(obj: &Obj) -> Result<Self::Shape> {
                shape2(obj)
            }
            fn rotation(body: &Obj) -> Result<Self::Rotation> {
                angle::<$v>(body)
            }
        }
    };
}

macro_rules! space3 {
    ($v:ident, $q:ident) => {
        impl Space for $v {
            type Shape = Shape3<$v>;
            const BODY_FIELDS: &'static [&'static str] = &["shape", "translation", "rotation"];
            fn shape(obj: &Obj) -> Result<Self::Shape> {
                shape3(obj)
            }
            fn rotation(body: &Obj) -> Result<Self::Rotation> {
                Ok(xyzw(body)?.map_or($q::IDENTITY, $q::from_array))
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
    }
}
