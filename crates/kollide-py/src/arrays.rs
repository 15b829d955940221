//! numpy arrays in and out, and poses.
//!
//! Inputs: any object numpy reads as an array of real numbers (float32, float64, integers,
//! nested lists) is copied into `f64`; anything else is a `TypeError` naming the argument.
//! A per-query input is one row, `(k,)`, or a batch of rows, `(N, k)`; a batch of
//! length 1 or N broadcasts against the others (numpy's rule for a leading axis).
//!
//! Outputs are float64 (bool and int64 where they say so) numpy arrays.

use crate::errors::{type_error, value_error};
use kollide::math::{DPose2, DPose3, DQuat, DVec2, DVec3, Pose, PoseError, Rot2};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyAny;
use rayon::prelude::*;

/// Poses per rayon task when a batch's poses are built.
const POSE_CHUNK: usize = 256;

/// An array read from Python: its values (row-major, `f64`) and its shape.
#[derive(Debug)]
pub struct Array {
    pub data: Vec<f64>,
    pub shape: Vec<usize>,
}

/// Reads `obj` as an array of real numbers. `TypeError` for anything numpy does not read
/// as numbers (strings, objects, complex), naming `arg`.
pub fn read(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<Array> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let arr = np
        .call_method1("asarray", (obj,))
        .map_err(|e| type_error(arg, format!("expected an array of numbers ({e})")))?;
    let dtype = arr.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "f" | "i" | "u") {
        let name: String = dtype.str()?.extract()?;
        return Err(type_error(arg, format!("expected an array of real numbers, got dtype {name}")));
    }
    let arr = np.call_method1("ascontiguousarray", (arr, "float64"))?;
    let arr = arr.cast_into::<PyArrayDyn<f64>>().map_err(|e| type_error(arg, e))?;
    let ro = arr.readonly();
    let shape = ro.shape().to_vec();
    let data = ro.as_slice().map_err(|e| value_error(arg, e))?.to_vec();
    Ok(Array { data, shape })
}

/// Reads rows of `k` numbers: shape `(k,)` (one row) or `(N, k)`. Non-finite values are
/// refused when `finite` is set, naming the row (`origins[3]: is not finite`).
pub fn rows(obj: &Bound<'_, PyAny>, arg: &str, k: usize, finite: bool) -> PyResult<Vec<f64>> {
    let a = read(obj, arg)?;
    // One number per row (2D angles) reads (N,) as N rows; wider rows read (k,) as one.
    let ok = match a.shape.as_slice() {
        [n] => *n == k || k == 1,
        [_, n] => *n == k,
        _ => false,
    };
    if !ok {
        let want = if k == 1 { "(N,)".to_string() } else { format!("({k},) or (N, {k})") };
        return Err(value_error(arg, format!("expected shape {want}, got {:?}", a.shape)));
    }
    if finite {
        if let Some(i) = a.data.iter().position(|x| !x.is_finite()) {
            return Err(value_error(&format!("{arg}[{}]", i / k), "is not finite"));
        }
    }
    Ok(a.data)
}

/// Rows of `k` numbers for `arg`, or `default` (one row) when it is `None`.
pub fn rows_or(obj: Option<&Bound<'_, PyAny>>, arg: &str, k: usize, default: &[f64]) -> PyResult<Vec<f64>> {
    match obj {
        Some(o) if !o.is_none() => rows(o, arg, k, true),
        _ => Ok(default.to_vec()),
    }
}

/// Numbers for `arg`, one per query: a scalar or an `(N,)` array; `default` when `None`.
pub fn per_query(obj: Option<&Bound<'_, PyAny>>, arg: &str, default: f64) -> PyResult<Vec<f64>> {
    match obj {
        Some(o) if !o.is_none() => {
            let a = read(o, arg)?;
            if a.shape.len() > 1 {
                return Err(value_error(arg, format!("expected a number or shape (N,), got {:?}", a.shape)));
            }
            if let Some(i) = a.data.iter().position(|x| x.is_nan()) {
                return Err(value_error(&format!("{arg}[{i}]"), "is NaN"));
            }
            Ok(a.data)
        }
        _ => Ok(vec![default]),
    }
}

/// The length of a batch that broadcasts `lens` (rows of each argument, with its name):
/// every length is 1 or the largest. `ValueError` naming the two that disagree.
pub fn batch_len(lens: &[(&str, usize)]) -> PyResult<usize> {
    let (big_name, n) = lens.iter().copied().max_by_key(|&(_, l)| l).unwrap_or(("", 1));
    for &(name, l) in lens {
        if l != 1 && l != n {
            return Err(value_error(
                name,
                format!("{l} rows, but {big_name} has {n}: batches broadcast only when their lengths match or one is 1"),
            ));
        }
        if l == 0 {
            return Err(value_error(name, "is empty"));
        }
    }
    Ok(n)
}

/// Row `i` of a broadcast batch of `k` columns (row 0 when the batch has one row).
#[inline]
pub fn row(data: &[f64], k: usize, i: usize) -> &[f64] {
    let r = if data.len() == k { 0 } else { i };
    &data[r * k..r * k + k]
}

/// Element `i` of a broadcast batch of scalars.
#[inline]
pub fn at(data: &[f64], i: usize) -> f64 {
    if data.len() == 1 {
        data[0]
    } else {
        data[i]
    }
}

/// What a dimension needs to read and write its vectors and poses. 3D: translations
/// `(3,)`, rotations as quaternions `[x, y, z, w]` `(4,)`, angular velocities `(3,)`. 2D:
/// translations `(2,)`, rotations as angles in radians `(1,)` (a scalar per row), angular
/// velocities as scalars.
pub trait Dim {
    /// kollide's vector type.
    type V: kollide::query::Space<Real = f64>;
    /// Components of a vector.
    const D: usize;
    /// Numbers per rotation.
    const R: usize;
    /// Numbers per angular velocity.
    const W: usize;
    /// The identity rotation.
    const IDENTITY: &'static [f64];
    /// The name of the rotation arguments' unit ("quaternion [x, y, z, w]", "angle").
    const ROTATION: &'static str;
    /// A vector from its components.
    fn vec(s: &[f64]) -> Self::V;
    /// Appends a vector's components.
    fn put(v: Self::V, out: &mut Vec<f64>);
    /// Writes a vector's components into `out` (`D` numbers).
    fn write(v: Self::V, out: &mut [f64]);
    /// A pose; the rotation is renormalized within kollide's tolerance, or refused.
    fn pose(t: &[f64], r: &[f64]) -> Result<Pose<Self::V>, PoseError>;
    /// An angular velocity from its components.
    fn angular(w: &[f64]) -> <Self::V as kollide::math::Vector>::AngularVelocity;
}

/// 3D, in `f64`.
#[derive(Debug)]
pub struct D3;
/// 2D, in `f64`.
#[derive(Debug)]
pub struct D2;

impl Dim for D3 {
    type V = DVec3;
    const D: usize = 3;
    const R: usize = 4;
    const W: usize = 3;
    const IDENTITY: &'static [f64] = &[0.0, 0.0, 0.0, 1.0];
    const ROTATION: &'static str = "quaternion [x, y, z, w]";
    fn vec(s: &[f64]) -> DVec3 {
        DVec3::new(s[0], s[1], s[2])
    }
    fn put(v: DVec3, out: &mut Vec<f64>) {
        out.extend_from_slice(&[v.x, v.y, v.z]);
    }
    fn write(v: DVec3, out: &mut [f64]) {
        out.copy_from_slice(&[v.x, v.y, v.z]);
    }
    fn pose(t: &[f64], r: &[f64]) -> Result<DPose3, PoseError> {
        DPose3::try_new(Self::vec(t), DQuat::from_xyzw(r[0], r[1], r[2], r[3]))
    }
    fn angular(w: &[f64]) -> DVec3 {
        Self::vec(w)
    }
}

impl Dim for D2 {
    type V = DVec2;
    const D: usize = 2;
    const R: usize = 1;
    const W: usize = 1;
    const IDENTITY: &'static [f64] = &[0.0];
    const ROTATION: &'static str = "angle";
    fn vec(s: &[f64]) -> DVec2 {
        DVec2::new(s[0], s[1])
    }
    fn put(v: DVec2, out: &mut Vec<f64>) {
        out.extend_from_slice(&[v.x, v.y]);
    }
    fn write(v: DVec2, out: &mut [f64]) {
        out.copy_from_slice(&[v.x, v.y]);
    }
    fn pose(t: &[f64], r: &[f64]) -> Result<DPose2, PoseError> {
        DPose2::try_new(Self::vec(t), Rot2::from_angle(r[0]))
    }
    fn angular(w: &[f64]) -> f64 {
        w[0]
    }
}

/// Translations and rotations of one side of a batch, read and checked: each has 1 or N
/// rows.
#[derive(Debug)]
pub struct Poses<V: kollide::query::Space> {
    /// One pose, or one per query.
    pub poses: Vec<Pose<V>>,
    /// The argument that set the number of rows (for errors about the batch's length).
    pub name: String,
}

impl<V: kollide::query::Space> Poses<V> {
    /// The pose of query `i`.
    #[inline]
    pub fn get(&self, i: usize) -> &Pose<V> {
        if self.poses.len() == 1 {
            &self.poses[0]
        } else {
            &self.poses[i]
        }
    }
    /// How many rows.
    pub fn len(&self) -> usize {
        self.poses.len()
    }
}

/// Reads the poses `translations{suffix}` and `rotations{suffix}` (either may be `None`:
/// the origin, no rotation), broadcast against each other. `ValueError` naming the row of a
/// non-finite value or a rotation that is not a unit quaternion.
pub fn poses<D: Dim>(
    t: Option<&Bound<'_, PyAny>>,
    r: Option<&Bound<'_, PyAny>>,
    t_name: &str,
    r_name: &str,
) -> PyResult<Poses<D::V>> {
    let zero = vec![0.0; D::D];
    let ts = rows_or(t, t_name, D::D, &zero)?;
    let rs = rows_or(r, r_name, D::R, D::IDENTITY)?;
    let n = batch_len(&[(t_name, ts.len() / D::D), (r_name, rs.len() / D::R)])?;
    let name = if ts.len() / D::D == n { t_name } else { r_name }.to_string();
    let make = |i: usize| D::pose(row(&ts, D::D, i), row(&rs, D::R, i));
    // Built on all cores (a batch's rotations are checked and renormalized one by one);
    // on a refusal the rows are read again in order, so the error names the first bad row.
    let built: Result<Vec<_>, PoseError> =
        (0..n).into_par_iter().with_min_len(POSE_CHUNK).map(make).collect();
    let poses = match built {
        Ok(poses) => poses,
        Err(any) => {
            let (i, e) = (0..n).find_map(|i| make(i).err().map(|e| (i, e))).unwrap_or((0, any));
            return Err(match e {
                PoseError::NonFiniteTranslation { .. } => value_error(&format!("{t_name}[{i}]"), e),
                _ => value_error(&format!("{r_name}[{i}]"), format!("{e} ({})", D::ROTATION)),
            });
        }
    };
    Ok(Poses { poses, name })
}

/// A float64 array of shape `shape` from row-major values.
pub fn out_f64<'py>(py: Python<'py>, data: Vec<f64>, shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    let a = PyArray1::from_vec(py, data);
    Ok(a.reshape(shape.to_vec())?.into_any())
}

/// An int64 array of shape `(N,)`.
pub fn out_i64(py: Python<'_>, data: Vec<i64>) -> Bound<'_, PyAny> {
    PyArray1::from_vec(py, data).into_any()
}

/// An int8 array of status codes, shape `(N,)`.
pub fn out_i8(py: Python<'_>, data: Vec<i8>) -> Bound<'_, PyAny> {
    PyArray1::from_vec(py, data).into_any()
}

/// A bool array of shape `(N,)`.
pub fn out_bool(py: Python<'_>, data: Vec<bool>) -> Bound<'_, PyAny> {
    PyArray1::from_vec(py, data).into_any()
}
