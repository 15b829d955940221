//! The mover's character shapes, settings and errors, checked at construction.

use crate::math::{Pose, Real, Vector3};
use crate::query::Space;
use crate::shape::{Ball, Capsule, Convex3, Ellipsoid};
use crate::world::Shape3;
use core::fmt;

/// The rotation taking the y axis to a unit `up` (the mover's characters are upright: a
/// capsule's axis, an ellipsoid's second radius along `up`).
pub trait UpRotation: Vector3 {
    /// The shortest rotation taking `+y` to `up` (unit).
    fn rotation_from_y(up: Self) -> Self::Rotation;
}

impl UpRotation for glam::Vec3 {
    fn rotation_from_y(up: Self) -> glam::Quat {
        glam::Quat::from_rotation_arc(glam::Vec3::Y, up)
    }
}

impl UpRotation for glam::DVec3 {
    fn rotation_from_y(up: Self) -> glam::DQuat {
        glam::DQuat::from_rotation_arc(glam::DVec3::Y, up)
    }
}

/// The moving body, upright along the settings' `up`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Character<V: Vector3 + Space> {
    /// A ball of this radius, centred on the position.
    Ball {
        /// Radius (positive).
        radius: V::Real,
    },
    /// An ellipsoid centred on the position; `radii.y` is along `up`, `x` and `z` across it.
    Ellipsoid {
        /// Semi-axes (each positive).
        radii: V,
    },
    /// A capsule centred on the position, its segment along `up` from `-half_height` to
    /// `+half_height`.
    Capsule {
        /// Half the length of the segment (zero or more).
        half_height: V::Real,
        /// Radius (positive).
        radius: V::Real,
    },
}

impl<V: Vector3 + Space + UpRotation> Character<V> {
    /// The shape, checked (the error names the bad value).
    ///
    /// # Errors
    /// [`MoverError::BadCharacter`] for a non-positive or non-finite size.
    pub fn shape(&self) -> Result<Shape3<V>, MoverError> {
        let bad = |why: String| MoverError::BadCharacter { why };
        let convex = match *self {
            Self::Ball { radius } => {
                Convex3::Ball(Ball::try_new(radius).map_err(|e| bad(format!("ball radius: {e}")))?)
            }
            Self::Ellipsoid { radii } => Convex3::Ellipsoid(
                Ellipsoid::try_new(radii).map_err(|e| bad(format!("ellipsoid radii: {e}")))?,
            ),
            Self::Capsule { half_height, radius } => Convex3::Capsule(
                Capsule::try_new(half_height, radius).map_err(|e| bad(format!("capsule: {e}")))?,
            ),
        };
        Ok(Shape3::Convex(convex))
    }

    /// The character's pose at `position`, upright along `up` (unit).
    #[must_use]
    pub fn pose(&self, position: V, up: V) -> Pose<V> {
        Pose::new(position, V::rotation_from_y(up))
    }

    /// How far the character reaches below its position along `up`: the height of the
    /// position above its lowest point (its foot).
    #[must_use]
    pub fn half_height(&self) -> V::Real {
        match *self {
            Self::Ball { radius } => radius,
            Self::Ellipsoid { radii } => radii[1],
            Self::Capsule { half_height, radius } => half_height + radius,
        }
    }

    /// The largest distance from the position to the surface (its size for tolerances).
    #[must_use]
    pub fn reach(&self) -> V::Real {
        match *self {
            Self::Ball { radius } => radius,
            Self::Ellipsoid { radii } => radii.max_component(),
            Self::Capsule { half_height, radius } => half_height + radius,
        }
    }
}

/// How the mover behaves; [`MoverSettings::default`] gives the scene format's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoverSettings<V: Vector3 + Space> {
    /// The gap kept between the character and the world (world units, positive): each move
    /// stops where the character comes within it.
    pub skin: V::Real,
    /// The most casts per step (each contact plane met costs one).
    pub max_iterations: u32,
    /// The unit up direction.
    pub up: V,
    /// The steepest walkable slope, radians from horizontal, in `[0, pi/2]`: a contact whose
    /// normal is within this angle of `up` is ground.
    pub max_slope: V::Real,
    /// Stairs up to this height are climbed (0: off). A rounded character meets a step's
    /// edge with a normal tilted up, steeper than `max_slope`: an edge or a corner no higher
    /// than this above the character's lowest point is a step to climb and ground to stand
    /// on, not a wall.
    pub step_height: V::Real,
    /// A character on the ground stays on it going down slopes and steps up to this far
    /// (0: off).
    pub snap_to_ground: V::Real,
    /// Whether sliding may carry the character up slopes steeper than `max_slope`.
    pub climb_walls: bool,
}

impl<V: Vector3 + Space> Default for MoverSettings<V> {
    fn default() -> Self {
        let r = |x: f64| V::Real::from_f64(x);
        Self {
            skin: r(0.001),
            max_iterations: 8,
            up: V::new3(V::Real::ZERO, V::Real::ONE, V::Real::ZERO),
            max_slope: r(0.8),
            step_height: V::Real::ZERO,
            snap_to_ground: V::Real::ZERO,
            climb_walls: false,
        }
    }
}

impl<V: Vector3 + Space> MoverSettings<V> {
    /// Checks every setting; the error names the first bad one and its value.
    ///
    /// # Errors
    /// [`MoverError::BadSetting`].
    pub fn validate(&self) -> Result<(), MoverError> {
        let bad = |name: &'static str, value: f64, why: &'static str| {
            Err(MoverError::BadSetting { name, value, why })
        };
        let f = |x: V::Real| x.to_f64();
        if !(self.skin.is_finite() && self.skin > V::Real::ZERO) {
            return bad("skin", f(self.skin), "must be positive and finite");
        }
        if self.max_iterations == 0 || self.max_iterations > 64 {
            return bad("max_iterations", f64::from(self.max_iterations), "must be 1 to 64");
        }
        let len = self.up.length().to_f64();
        if !self.up.is_finite_vec() || (len - 1.0).abs() > 1e-6 {
            return bad("up", len, "must be a unit vector (this is its length)");
        }
        let slope = f(self.max_slope);
        if !(0.0..=std::f64::consts::FRAC_PI_2).contains(&slope) {
            return bad("max_slope", slope, "must be in [0, pi/2] radians");
        }
        for (name, x) in [("step_height", self.step_height), ("snap_to_ground", self.snap_to_ground)] {
            if !(x.is_finite() && x >= V::Real::ZERO) {
                return bad(name, f(x), "must be zero or more and finite");
            }
        }
        Ok(())
    }
}

/// Why a move was refused (nothing moved).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum MoverError {
    /// A setting is out of range.
    BadSetting {
        /// The setting's name, as in the scene format.
        name: &'static str,
        /// Its value.
        value: f64,
        /// What is wrong.
        why: &'static str,
    },
    /// The character's shape is invalid.
    BadCharacter {
        /// What is wrong, naming the value.
        why: String,
    },
    /// The displacement or the position has a NaN or infinite component.
    NonFinite {
        /// `"displacement"` or `"position"`.
        what: &'static str,
        /// The value.
        value: [f64; 3],
    },
}

impl fmt::Display for MoverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadSetting { name, value, why } => write!(f, "setting {name} = {value}: {why}"),
            Self::BadCharacter { why } => write!(f, "bad character: {why}"),
            Self::NonFinite { what, value } => write!(f, "{what} {value:?} is not finite"),
        }
    }
}

impl std::error::Error for MoverError {}
