//! What a sweep refuses: the checks of its input, and the error that names the bad value.

use crate::math::{Pose, Real, Rotation};
use crate::query::Space;
use core::fmt;

/// Why a sweep ([`super::sweep`], [`crate::composite::sweep`]) refused its input. Each variant
/// names the value; nothing is swept when any is bad (a soup with a broken triangle is not
/// half-answered).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum SweepError {
    /// A component of the mover's centre (`"center"`, the pose's `"translation"`), of the
    /// `"displacement"`, or of the pose's `"rotation"` is NaN or infinite.
    NonFinite {
        /// Which input.
        field: &'static str,
    },
    /// The sphere's (circle's) radius is negative, NaN or infinite.
    BadRadius {
        /// The value given.
        radius: f64,
    },
    /// A semi-axis of the ellipsoid (ellipse) is not finite and `> 0`.
    BadSemiAxis {
        /// Which axis (0 = x, 1 = y, 2 = z).
        axis: usize,
        /// The value given.
        value: f64,
    },
    /// Corner `corner` of triangle (segment) `index` of the soup has a NaN or infinite
    /// component.
    NonFiniteCorner {
        /// The triangle's (segment's) index in the slice.
        index: usize,
        /// The corner (0, 1 or 2).
        corner: usize,
    },
}

impl fmt::Display for SweepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFinite { field } => write!(f, "{field} is not finite"),
            Self::BadRadius { radius } => write!(f, "radius must be finite and >= 0, got {radius}"),
            Self::BadSemiAxis { axis, value } => {
                write!(f, "semi-axis {axis} must be finite and > 0, got {value}")
            }
            Self::NonFiniteCorner { index, corner } => {
                write!(f, "corner {corner} of element {index} of the soup is not finite")
            }
        }
    }
}

impl std::error::Error for SweepError {}

/// The checks of a sphere's (circle's) centre, radius and displacement.
pub(crate) fn check_ball<V: Space>(center: V, radius: V::Real, disp: V) -> Result<(), SweepError> {
    if !center.is_finite_vec() {
        return Err(SweepError::NonFinite { field: "center" });
    }
    if !(radius.is_finite() && radius >= V::Real::ZERO) {
        return Err(SweepError::BadRadius { radius: radius.to_f64() });
    }
    check_disp(disp)
}

/// The checks of an ellipsoid's (ellipse's) semi-axes, pose and displacement.
pub(crate) fn check_ellipsoid<V: Space>(radii: V, pose: &Pose<V>, disp: V) -> Result<(), SweepError> {
    if let Some(axis) = (0..V::DIM).find(|&i| !(radii[i].is_finite() && radii[i] > V::Real::ZERO)) {
        return Err(SweepError::BadSemiAxis { axis, value: radii[axis].to_f64() });
    }
    if !pose.translation.is_finite_vec() {
        return Err(SweepError::NonFinite { field: "translation" });
    }
    if !pose.rotation.is_finite_rot() {
        return Err(SweepError::NonFinite { field: "rotation" });
    }
    check_disp(disp)
}

fn check_disp<V: Space>(disp: V) -> Result<(), SweepError> {
    if disp.is_finite_vec() {
        Ok(())
    } else {
        Err(SweepError::NonFinite { field: "displacement" })
    }
}
