//! The error every shape constructor returns.

use crate::math::Real;
use core::fmt;

/// Why a shape could not be built. Each variant names the offending parameter.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ShapeError {
    /// A parameter is NaN or infinite. `field` names it (`"radius"`, `"points[3]"`, ...).
    NonFinite {
        /// The parameter.
        field: String,
    },
    /// A size that must be strictly positive is zero or negative.
    NonPositive {
        /// The parameter.
        field: String,
        /// Its value.
        value: f64,
    },
    /// A size that must be `>= 0` is negative.
    Negative {
        /// The parameter.
        field: String,
        /// Its value.
        value: f64,
    },
    /// Fewer points than the shape needs.
    TooFewPoints {
        /// Points given (after nothing was removed).
        count: usize,
        /// Points needed.
        needed: usize,
    },
    /// More points than vertex indices (`u32`) can address.
    TooManyPoints {
        /// Points given.
        count: usize,
        /// The most accepted.
        max: usize,
    },
    /// All points of a 2D polygon lie on one line (or coincide): the polygon has no area.
    Collinear {
        /// Points given.
        count: usize,
    },
    /// All points of a 3D hull lie in one plane (or on a line, or coincide): it has no volume.
    Coplanar {
        /// Points given.
        count: usize,
    },
    /// Two consecutive points of a polygon boundary are equal: `points[index]` and
    /// `points[next]` (`next = index + 1`, or 0 for the last point), a zero-length edge.
    RepeatedPoint {
        /// The first of the two points.
        index: usize,
        /// The point after it.
        next: usize,
    },
    /// A polygon boundary is not simple: edge `first` (from `points[first]` to the next
    /// point) and edge `second` cross or touch, or (when they are adjacent) fold back onto
    /// each other. `first < second`.
    SelfIntersecting {
        /// The lower-numbered edge.
        first: usize,
        /// The higher-numbered edge.
        second: usize,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFinite { field } => write!(f, "{field} is not finite (NaN or infinity)"),
            Self::NonPositive { field, value } => write!(f, "{field} must be > 0, got {value}"),
            Self::Negative { field, value } => write!(f, "{field} must be >= 0, got {value}"),
            Self::TooFewPoints { count, needed } => {
                write!(f, "{count} points given, at least {needed} needed")
            }
            Self::TooManyPoints { count, max } => write!(f, "{count} points given, at most {max} accepted"),
            Self::Collinear { count } => {
                write!(f, "all {count} points are collinear: the polygon would have no area")
            }
            Self::Coplanar { count } => {
                write!(f, "all {count} points are coplanar: the hull would have no volume")
            }
            Self::RepeatedPoint { index, next } => {
                write!(f, "points[{index}] and points[{next}] are equal: the edge between them has no length")
            }
            Self::SelfIntersecting { first, second } => write!(
                f,
                "edge {first} (points[{first}] to the next point) and edge {second} cross, touch or fold \
                 back: the polygon is not simple"
            ),
        }
    }
}

impl std::error::Error for ShapeError {}

pub(crate) fn check_finite<R: Real>(field: &str, x: R) -> Result<(), ShapeError> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(ShapeError::NonFinite { field: field.to_string() })
    }
}

pub(crate) fn check_positive<R: Real>(field: &str, x: R) -> Result<(), ShapeError> {
    check_finite(field, x)?;
    if x > R::ZERO {
        Ok(())
    } else {
        Err(ShapeError::NonPositive { field: field.to_string(), value: x.to_f64() })
    }
}

pub(crate) fn check_non_negative<R: Real>(field: &str, x: R) -> Result<(), ShapeError> {
    check_finite(field, x)?;
    if x >= R::ZERO {
        Ok(())
    } else {
        Err(ShapeError::Negative { field: field.to_string(), value: x.to_f64() })
    }
}

pub(crate) fn check_finite_vec<V: crate::math::Vector>(field: &str, v: V) -> Result<(), ShapeError> {
    let a = v.to_f64_array();
    match (0..V::DIM).find(|&i| !a[i].is_finite()) {
        None => Ok(()),
        Some(i) => Err(ShapeError::NonFinite { field: format!("{field}.{}", ["x", "y", "z"][i]) }),
    }
}

pub(crate) fn check_positive_vec<V: crate::math::Vector>(field: &str, v: V) -> Result<(), ShapeError> {
    check_finite_vec(field, v)?;
    for i in 0..V::DIM {
        if v[i] <= V::Real::ZERO {
            return Err(ShapeError::NonPositive {
                field: format!("{field}.{}", ["x", "y", "z"][i]),
                value: v[i].to_f64(),
            });
        }
    }
    Ok(())
}

/// Checks a point set: every coordinate finite (the error names `points[i].x`), at least
/// `needed` points. The field name is formatted only for the bad point.
pub(crate) fn check_points<V: crate::math::Vector>(points: &[V], needed: usize) -> Result<(), ShapeError> {
    if let Some(i) = points.iter().position(|p| !p.is_finite_vec()) {
        check_finite_vec(&format!("points[{i}]"), points[i])?;
    }
    if points.len() < needed {
        return Err(ShapeError::TooFewPoints { count: points.len(), needed });
    }
    Ok(())
}
