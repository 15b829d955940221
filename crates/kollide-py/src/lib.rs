//! kollide for Python: the extension module `kollide._kollide` behind the `kollide` package
//! (`python/kollide/__init__.py`), built by maturin with the `python` feature.
//!
//! Without that feature this crate is empty, so `cargo test --workspace` and `cargo clippy
//! --workspace` build it without pyo3 and need no Python on the machine.
//!
//! Layout: `errors` (kollide's errors as Python exceptions), `arrays` (numpy arrays in and
//! out, poses and their broadcasting), `shapes` (the shape classes), `queries` (the batch
//! queries), `world` (the `World` class and the mover).

#[cfg(feature = "python")]
mod arrays;
#[cfg(feature = "python")]
mod errors;
#[cfg(feature = "python")]
mod queries;
#[cfg(feature = "python")]
mod shapes;
#[cfg(feature = "python")]
mod world;

#[cfg(feature = "python")]
use pyo3::prelude::*;

/// The compiled half of the `kollide` package; import `kollide`, not this.
#[cfg(feature = "python")]
#[pymodule]
fn _kollide(m: &Bound<'_, PyModule>) -> PyResult<()> {
    shapes::register(m)?;
    queries::register(m)?;
    world::register(m)?;
    Ok(())
}
