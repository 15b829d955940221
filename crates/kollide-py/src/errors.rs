//! kollide's validation errors as Python exceptions: `ValueError` for a bad value, naming
//! the argument first (`radius: must be > 0, got -1`), `TypeError` for a wrong type.

use kollide::shape::ShapeError;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::PyErr;
use std::fmt::Display;

/// `ValueError("{arg}: {what}")`.
pub fn value_error(arg: &str, what: impl Display) -> PyErr {
    PyValueError::new_err(format!("{arg}: {what}"))
}

/// `TypeError("{arg}: {what}")`.
pub fn type_error(arg: &str, what: impl Display) -> PyErr {
    PyTypeError::new_err(format!("{arg}: {what}"))
}

/// A shape constructor's error as a `ValueError`. kollide names the field inside its
/// message (`radius must be > 0, got -1`); the Python message leads with the field as
/// the argument (`radius: must be > 0, got -1`), and a field inside an array keeps its index
/// (`points[3]: is not finite`). Errors about the whole input (too few points, a flat
/// hull) are named by `arg`, the argument that held it.
pub fn shape_error(arg: &str, err: &ShapeError) -> PyErr {
    match err {
        ShapeError::NonFinite { field } => value_error(field, "is not finite (NaN or infinity)"),
        ShapeError::NonPositive { field, value } => value_error(field, format!("must be > 0, got {value}")),
        ShapeError::Negative { field, value } => value_error(field, format!("must be >= 0, got {value}")),
        other => value_error(arg, other),
    }
}

/// `Ok` for a number `>= 0` (infinity included), else a `ValueError` naming `arg` (NaN too).
pub fn non_negative(arg: &str, x: f64) -> Result<(), PyErr> {
    if x >= 0.0 {
        Ok(())
    } else {
        Err(value_error(arg, format!("must be >= 0, got {x}")))
    }
}
