//! The batch queries: one call answers N queries, each a pair of shapes at a pair of poses
//! (or a ray, a cast, a sweep), on all cores with the GIL released. Every function here
//! calls kollide's one function for its question on run-time shapes (`world::distance`,
//! `world::ray_cast`, ...), which picks the closed form, separating axes or GJK as
//! kollide always does; nothing is computed here but the batch.
//!
//! Shapes: `a` and `b` are one shape or a list of N shapes. Poses: `translations_a`,
//! `rotations_a`, `translations_b`, `rotations_b` (see `arrays`). Every batch input has 1
//! or N rows and broadcasts.

use crate::arrays::{self, at, batch_len, row, Dim, Poses, D2, D3};
use crate::errors::{type_error, value_error};
use crate::shapes::{Geom, Shape};
use kollide::math::{DVec2, DVec3, Pose};
use kollide::query::cast::{
    BackFaces, CastInput, CastStatus, Motion, Ray, RayOutcome, SweepFeature, SweepOutcome, SweptShape,
};
use kollide::shape::Ellipsoid;
use kollide::world::{self, RuntimeShape, Shape2, Shape3};
use pyo3::prelude::*;
use pyo3::types::{PyAny, PyList};
use rayon::prelude::*;

/// Queries per rayon task: below this a batch's split costs more than it saves.
const MIN_CHUNK: usize = 16;
/// Rows per task of a batch that writes its answers into the output columns in place.
const ROWS: usize = 64;

/// The status names, in code order: a status array holds the index of the name here (the
/// Python enums `GjkStatus`, `ContactStatus`, `CastStatus` list the same names).
pub const GJK_STATUS: [&str; 5] =
    ["converged", "overlapping", "stalled", "max_iterations", "non_finite_support"];
/// See [`GJK_STATUS`].
pub const CONTACT_STATUS: [&str; 5] =
    ["converged", "stalled", "max_iterations", "degenerate", "non_finite_support"];
/// See [`GJK_STATUS`].
pub const CAST_STATUS: [&str; 4] = ["hit", "miss", "started_within", "failed"];
/// See [`GJK_STATUS`]; the features a sweep or mover touches.
pub const SWEEP_FEATURE: [&str; 3] = ["face", "edge", "vertex"];

/// The code of a status name in `names`; `-2` for a status this build does not know (the
/// kollide enums are non-exhaustive), never a wrong name.
pub fn code(names: &[&str], name: &str) -> i8 {
    names.iter().position(|n| *n == name).map_or(-2, |i| i as i8)
}

/// A dimension's run-time shape.
pub trait Geo: Dim {
    /// `Shape3` or `Shape2`.
    type S: RuntimeShape<Self::V>;
    /// The shape of this dimension inside `s`, or `None`.
    fn get(s: &Shape) -> Option<&Self::S>;
}

impl Geo for D3 {
    type S = Shape3<DVec3>;
    fn get(s: &Shape) -> Option<&Shape3<DVec3>> {
        match &s.geom {
            Geom::D3(g) => Some(g),
            Geom::D2(_) => None,
        }
    }
}

impl Geo for D2 {
    type S = Shape2<DVec2>;
    fn get(s: &Shape) -> Option<&Shape2<DVec2>> {
        match &s.geom {
            Geom::D2(g) => Some(g),
            Geom::D3(_) => None,
        }
    }
}

/// One shape or a list of shapes, with the dimension of the first. A `list` is walked
/// directly (each item one type check); any other sequence goes through `extract`.
fn shape_list<'py>(obj: &Bound<'py, PyAny>, arg: &str) -> PyResult<Vec<Bound<'py, Shape>>> {
    if let Ok(s) = obj.cast::<Shape>() {
        return Ok(vec![s.clone()]);
    }
    let not_shapes = || {
        type_error(
            arg,
            format!(
                "expected a kollide shape or a list of shapes, got {}",
                obj.get_type().name().map_or_else(|_| "?".into(), |n| n.to_string())
            ),
        )
    };
    let list: Vec<Bound<'py, Shape>> = match obj.cast::<PyList>() {
        Ok(l) => l
            .iter()
            .map(|item| item.cast_into::<Shape>().map_err(|_| not_shapes()))
            .collect::<PyResult<_>>()?,
        Err(_) => obj.extract().map_err(|_| not_shapes())?,
    };
    if list.is_empty() {
        return Err(value_error(arg, "is an empty list"));
    }
    Ok(list)
}

fn is_2d(s: &Bound<'_, Shape>) -> bool {
    matches!(s.get().geom, Geom::D2(_))
}

/// The shapes of one dimension, borrowed from the Python objects (frozen, so shared
/// references may cross into the batch that runs without the GIL).
fn of_dim<'a, G: Geo>(list: &'a [Bound<'_, Shape>], arg: &str) -> PyResult<Vec<&'a G::S>> {
    list.iter()
        .enumerate()
        .map(|(i, s)| {
            G::get(s.get()).ok_or_else(|| {
                let name = if list.len() == 1 { arg.to_string() } else { format!("{arg}[{i}]") };
                type_error(
                    &name,
                    format!("{} is {}D, the other shapes are {}D", s.get().class(), 5 - G::D, G::D),
                )
            })
        })
        .collect()
}

#[inline]
fn pick<T>(v: &[T], i: usize) -> &T {
    if v.len() == 1 {
        &v[0]
    } else {
        &v[i]
    }
}

/// A batch of pairs: the shapes and poses of both sides, and the batch length.
#[derive(Debug)]
struct Pairs<'a, G: Geo> {
    a: Vec<&'a G::S>,
    b: Vec<&'a G::S>,
    pa: Poses<G::V>,
    pb: Poses<G::V>,
    n: usize,
}

#[allow(clippy::too_many_arguments)]
fn pairs<'a, G: Geo>(
    a: &'a [Bound<'_, Shape>],
    b: &'a [Bound<'_, Shape>],
    ta: Option<&Bound<'_, PyAny>>,
    ra: Option<&Bound<'_, PyAny>>,
    tb: Option<&Bound<'_, PyAny>>,
    rb: Option<&Bound<'_, PyAny>>,
    extra: &[(&str, usize)],
) -> PyResult<Pairs<'a, G>> {
    let a = of_dim::<G>(a, "a")?;
    let b = of_dim::<G>(b, "b")?;
    let pa = arrays::poses::<G>(ta, ra, "translations_a", "rotations_a")?;
    let pb = arrays::poses::<G>(tb, rb, "translations_b", "rotations_b")?;
    let mut lens =
        vec![("a", a.len()), ("b", b.len()), (pa.name.as_str(), pa.len()), (pb.name.as_str(), pb.len())];
    lens.extend_from_slice(extra);
    let n = batch_len(&lens)?;
    Ok(Pairs { a, b, pa, pb, n })
}

/// Runs `f` for every query of the batch on all cores, without the GIL.
fn par<T: Send>(py: Python<'_>, n: usize, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    py.detach(|| (0..n).into_par_iter().with_min_len(MIN_CHUNK).map(f).collect())
}

/// Picks the dimension from the first shape of `a` and runs `$body` with `$g` the
/// dimension's type.
macro_rules! by_dim {
    ($first:expr, $g:ident => $body:expr) => {
        if is_2d($first) {
            type $g = D2;
            $body
        } else {
            type $g = D3;
            $body
        }
    };
}

fn part(p: Option<u32>) -> i64 {
    p.map_or(-1, i64::from)
}

// ---- intersects ----

/// Whether shape `a` and shape `b` overlap (touching counts), one answer per pose pair:
/// an (N,) bool array.
///
/// `a`, `b`: a shape, or a list of N shapes. `translations_a` (3,) or (N, 3),
/// `rotations_a` (4,) or (N, 4) quaternions [x, y, z, w], and the same for `b` (2D:
/// (N, 2) and (N,) angles in radians); all broadcast against each other.
///
/// >>> import kollide, numpy as np
/// >>> kollide.intersects(kollide.Ball(1.0), kollide.Ball(1.0), translations_b=[[1.5, 0, 0], [2.5, 0, 0]])
/// array([ True, False])
#[pyfunction]
#[pyo3(signature = (a, b, *, translations_a=None, rotations_a=None, translations_b=None, rotations_b=None))]
pub fn intersects<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    translations_a: Option<&Bound<'py, PyAny>>,
    rotations_a: Option<&Bound<'py, PyAny>>,
    translations_b: Option<&Bound<'py, PyAny>>,
    rotations_b: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (la, lb) = (shape_list(a, "a")?, shape_list(b, "b")?);
    by_dim!(&la[0], G => {
        let p = pairs::<G>(&la, &lb, translations_a, rotations_a, translations_b, rotations_b, &[])?;
        let out = par(py, p.n, |i| {
            world::intersects(*pick(&p.a, i), p.pa.get(i), *pick(&p.b, i), p.pb.get(i)).is_some()
        });
        Ok(arrays::out_bool(py, out))
    })
}

// ---- distance ----

/// The answer of `distance`: arrays of N rows.
#[derive(Debug)]
#[pyclass(frozen, get_all, module = "kollide")]
pub struct DistanceResult {
    /// (N,) the distance, 0 when touching or overlapping.
    distance: Py<PyAny>,
    /// (N, d) the point of A closest to B.
    point_a: Py<PyAny>,
    /// (N, d) the point of B closest to A.
    point_b: Py<PyAny>,
    /// (N, d) unit vector from A towards B; zero where the cores overlap.
    normal: Py<PyAny>,
    /// (N,) a proven lower bound on the distance.
    lower_bound: Py<PyAny>,
    /// (N,) a proven upper bound on the distance.
    upper_bound: Py<PyAny>,
    /// (N,) int8 `GjkStatus` codes.
    status: Py<PyAny>,
    /// (N,) the part of a composite A (triangle, compound part), -1 for a convex shape.
    part_a: Py<PyAny>,
    /// (N,) the part of a composite B, -1 for a convex shape.
    part_b: Py<PyAny>,
}

#[pymethods]
impl DistanceResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("DistanceResult(distance={})", self.distance.bind(py).repr()?))
    }
}

/// The distance between `a` and `b` at each pose pair, with closest points, normal,
/// certified bounds and status (`DistanceResult`). Arguments as `intersects`.
///
/// >>> import kollide
/// >>> r = kollide.distance(kollide.Ball(1.0), kollide.Cuboid([1, 1, 1]), translations_b=[[4.0, 0, 0], [5.0, 0, 0]])
/// >>> r.distance
/// array([2., 3.])
/// >>> r.point_b[0]
/// array([3., 0., 0.])
/// >>> bool((r.lower_bound <= r.distance).all() and (r.distance <= r.upper_bound).all())
/// True
#[pyfunction]
#[pyo3(signature = (a, b, *, translations_a=None, rotations_a=None, translations_b=None, rotations_b=None))]
pub fn distance<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    translations_a: Option<&Bound<'py, PyAny>>,
    rotations_a: Option<&Bound<'py, PyAny>>,
    translations_b: Option<&Bound<'py, PyAny>>,
    rotations_b: Option<&Bound<'py, PyAny>>,
) -> PyResult<DistanceResult> {
    let (la, lb) = (shape_list(a, "a")?, shape_list(b, "b")?);
    by_dim!(&la[0], G => {
        let p = pairs::<G>(&la, &lb, translations_a, rotations_a, translations_b, rotations_b, &[])?;
        let (n, d) = (p.n, G::D);
        let [mut dist, mut lo, mut hi] = [(); 3].map(|_| vec![0.0; n]);
        let (mut st, mut qa, mut qb) = (vec![0i8; n], vec![0i64; n], vec![0i64; n]);
        let [mut pa, mut pb, mut nr] = [(); 3].map(|_| vec![0.0; n * d]);
        // Each task answers a block of rows and writes them into the output columns in
        // place: no per-query answers are gathered and copied afterwards.
        let columns = (
            dist.par_chunks_mut(ROWS),
            lo.par_chunks_mut(ROWS),
            hi.par_chunks_mut(ROWS),
            st.par_chunks_mut(ROWS),
            qa.par_chunks_mut(ROWS),
            qb.par_chunks_mut(ROWS),
            pa.par_chunks_mut(ROWS * d),
            pb.par_chunks_mut(ROWS * d),
            nr.par_chunks_mut(ROWS * d),
        );
        py.detach(|| {
            columns.into_par_iter().enumerate().for_each(|(k, (dist, lo, hi, st, qa, qb, pa, pb, nr))| {
                for j in 0..dist.len() {
                    let i = k * ROWS + j;
                    let at = j * d..j * d + d;
                    match world::distance(*pick(&p.a, i), p.pa.get(i), *pick(&p.b, i), p.pb.get(i)) {
                        Some(f) => {
                            let v = f.value;
                            (dist[j], lo[j], hi[j]) = (v.distance, v.lower_bound, v.upper_bound);
                            st[j] = code(&GJK_STATUS, v.status.as_str());
                            G::write(v.point_a, &mut pa[at.clone()]);
                            G::write(v.point_b, &mut pb[at.clone()]);
                            G::write(v.normal, &mut nr[at]);
                            (qa[j], qb[j]) = (part(f.part_a), part(f.part_b));
                        }
                        // A composite without parts, which no constructor makes.
                        None => {
                            (dist[j], lo[j], hi[j], st[j]) = (f64::NAN, 0.0, f64::INFINITY, -1);
                            for v in [&mut *pa, &mut *pb, &mut *nr] {
                                v[at.clone()].fill(f64::NAN);
                            }
                            (qa[j], qb[j]) = (-1, -1);
                        }
                    }
                }
            });
        });
        Ok(DistanceResult {
            distance: arrays::out_f64(py, dist, &[n])?.unbind(),
            point_a: arrays::out_f64(py, pa, &[n, d])?.unbind(),
            point_b: arrays::out_f64(py, pb, &[n, d])?.unbind(),
            normal: arrays::out_f64(py, nr, &[n, d])?.unbind(),
            lower_bound: arrays::out_f64(py, lo, &[n])?.unbind(),
            upper_bound: arrays::out_f64(py, hi, &[n])?.unbind(),
            status: arrays::out_i8(py, st).unbind(),
            part_a: arrays::out_i64(py, qa).unbind(),
            part_b: arrays::out_i64(py, qb).unbind(),
        })
    })
}

// ---- contact ----

/// The answer of `contact`: arrays of N rows; rows without a contact within the margin
/// have `hit` False, NaN numbers and status -1.
#[derive(Debug)]
#[pyclass(frozen, get_all, module = "kollide")]
pub struct ContactResult {
    /// (N,) bool: a contact within the margin.
    hit: Py<PyAny>,
    /// (N,) signed distance: negative is the penetration depth.
    distance: Py<PyAny>,
    /// (N, d) unit normal from A towards B.
    normal: Py<PyAny>,
    /// (N, d) the contact point on A.
    point_a: Py<PyAny>,
    /// (N, d) the contact point on B.
    point_b: Py<PyAny>,
    /// (N,) int8 `ContactStatus` codes, -1 without a contact.
    status: Py<PyAny>,
    /// (N,) the part of a composite A, -1 for none.
    part_a: Py<PyAny>,
    /// (N,) the part of a composite B, -1 for none.
    part_b: Py<PyAny>,
}

#[pymethods]
impl ContactResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "ContactResult(hit={}, distance={})",
            self.hit.bind(py).repr()?,
            self.distance.bind(py).repr()?
        ))
    }
}

/// The deepest contact of `a` and `b` within `margin` at each pose pair: signed distance
/// (negative when they overlap), normal from A to B, points (`ContactResult`).
///
/// >>> import kollide
/// >>> floor, cube = kollide.Cuboid([5, 0.5, 5]), kollide.Cuboid([0.5, 0.5, 0.5])
/// >>> c = kollide.contact(floor, cube, translations_b=[0, 0.99, 0])
/// >>> round(float(c.distance[0]), 9), c.normal[0].round(9).tolist()
/// (-0.01, [0.0, 1.0, 0.0])
#[pyfunction]
#[pyo3(signature = (a, b, margin=0.0, *, translations_a=None, rotations_a=None, translations_b=None, rotations_b=None))]
#[allow(clippy::too_many_arguments)]
pub fn contact<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    margin: f64,
    translations_a: Option<&Bound<'py, PyAny>>,
    rotations_a: Option<&Bound<'py, PyAny>>,
    translations_b: Option<&Bound<'py, PyAny>>,
    rotations_b: Option<&Bound<'py, PyAny>>,
) -> PyResult<ContactResult> {
    check_margin(margin)?;
    let (la, lb) = (shape_list(a, "a")?, shape_list(b, "b")?);
    by_dim!(&la[0], G => {
        let p = pairs::<G>(&la, &lb, translations_a, rotations_a, translations_b, rotations_b, &[])?;
        let out = par(py, p.n, |i| world::contact(*pick(&p.a, i), p.pa.get(i), *pick(&p.b, i), p.pb.get(i), margin));
        let (n, d) = (p.n, G::D);
        let (mut hit, mut dist, mut st) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let (mut qa, mut qb) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let [mut pa, mut pb, mut nr] = [(); 3].map(|_| Vec::with_capacity(n * d));
        for o in out {
            hit.push(o.is_some());
            match o {
                Some(f) => {
                    let c = f.value;
                    dist.push(c.distance);
                    G::put(c.normal, &mut nr);
                    G::put(c.point_a, &mut pa);
                    G::put(c.point_b, &mut pb);
                    st.push(code(&CONTACT_STATUS, c.status.as_str()));
                    qa.push(part(f.part_a));
                    qb.push(part(f.part_b));
                }
                None => {
                    dist.push(f64::NAN);
                    for v in [&mut pa, &mut pb, &mut nr] {
                        v.extend(std::iter::repeat_n(f64::NAN, d));
                    }
                    st.push(-1);
                    qa.push(-1);
                    qb.push(-1);
                }
            }
        }
        Ok(ContactResult {
            hit: arrays::out_bool(py, hit).unbind(),
            distance: arrays::out_f64(py, dist, &[n])?.unbind(),
            normal: arrays::out_f64(py, nr, &[n, d])?.unbind(),
            point_a: arrays::out_f64(py, pa, &[n, d])?.unbind(),
            point_b: arrays::out_f64(py, pb, &[n, d])?.unbind(),
            status: arrays::out_i8(py, st).unbind(),
            part_a: arrays::out_i64(py, qa).unbind(),
            part_b: arrays::out_i64(py, qb).unbind(),
        })
    })
}

fn check_margin(margin: f64) -> PyResult<()> {
    if margin.is_finite() && margin >= 0.0 {
        Ok(())
    } else {
        Err(value_error("margin", format!("must be finite and >= 0, got {margin}")))
    }
}

// ---- manifold ----

/// The most points a manifold holds.
pub const MAX_POINTS: usize = 4;

/// The answer of `manifold` (and of `World.contact_pairs`): up to 4 points per row, the
/// unused slots NaN.
#[derive(Debug)]
#[pyclass(frozen, get_all, module = "kollide")]
pub struct ManifoldResult {
    /// (N,) int64 points in each manifold (0 to 4).
    count: Py<PyAny>,
    /// (N, d) the manifold's normal, from A towards B (NaN without points).
    normal: Py<PyAny>,
    /// (N, 4, d) points on A.
    point_a: Py<PyAny>,
    /// (N, 4, d) points on B.
    point_b: Py<PyAny>,
    /// (N, 4) signed distances of the points (negative when penetrating).
    distance: Py<PyAny>,
    /// (N,) int8 `ContactStatus` codes, -1 without points.
    status: Py<PyAny>,
    /// (N,) the part of a composite A at the deepest point, -1 for none.
    part_a: Py<PyAny>,
    /// (N,) the part of a composite B at the deepest point, -1 for none.
    part_b: Py<PyAny>,
}

#[pymethods]
impl ManifoldResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("ManifoldResult(count={})", self.count.bind(py).repr()?))
    }
}

/// Manifolds flattened into arrays.
#[derive(Debug, Default)]
pub struct ManifoldRows {
    count: Vec<i64>,
    normal: Vec<f64>,
    point_a: Vec<f64>,
    point_b: Vec<f64>,
    distance: Vec<f64>,
    status: Vec<i8>,
    part_a: Vec<i64>,
    part_b: Vec<i64>,
}

impl ManifoldRows {
    /// Appends one manifold.
    pub fn push<G: Dim>(&mut self, f: &world::Found<kollide::query::Manifold<G::V>>) {
        let m = &f.value;
        let pts = m.points();
        self.count.push(pts.len() as i64);
        let empty = pts.is_empty();
        if empty {
            self.normal.extend(std::iter::repeat_n(f64::NAN, G::D));
        } else {
            G::put(m.normal, &mut self.normal);
        }
        for k in 0..MAX_POINTS {
            match pts.get(k) {
                Some(p) => {
                    G::put(p.point_a, &mut self.point_a);
                    G::put(p.point_b, &mut self.point_b);
                    self.distance.push(p.distance);
                }
                None => {
                    self.point_a.extend(std::iter::repeat_n(f64::NAN, G::D));
                    self.point_b.extend(std::iter::repeat_n(f64::NAN, G::D));
                    self.distance.push(f64::NAN);
                }
            }
        }
        self.status.push(if empty { -1 } else { code(&CONTACT_STATUS, m.status.as_str()) });
        self.part_a.push(part(f.part_a));
        self.part_b.push(part(f.part_b));
    }

    /// The arrays.
    pub fn finish(self, py: Python<'_>, d: usize) -> PyResult<ManifoldResult> {
        let n = self.count.len();
        Ok(ManifoldResult {
            count: arrays::out_i64(py, self.count).unbind(),
            normal: arrays::out_f64(py, self.normal, &[n, d])?.unbind(),
            point_a: arrays::out_f64(py, self.point_a, &[n, MAX_POINTS, d])?.unbind(),
            point_b: arrays::out_f64(py, self.point_b, &[n, MAX_POINTS, d])?.unbind(),
            distance: arrays::out_f64(py, self.distance, &[n, MAX_POINTS])?.unbind(),
            status: arrays::out_i8(py, self.status).unbind(),
            part_a: arrays::out_i64(py, self.part_a).unbind(),
            part_b: arrays::out_i64(py, self.part_b).unbind(),
        })
    }
}

/// The contact manifold of `a` and `b` within `margin` at each pose pair: up to 4 points
/// with a shared normal (`ManifoldResult`).
///
/// >>> import kollide
/// >>> floor, cube = kollide.Cuboid([5, 0.5, 5]), kollide.Cuboid([0.5, 0.5, 0.5])
/// >>> m = kollide.manifold(floor, cube, translations_b=[[0, 0.99, 0], [0, 3, 0]])
/// >>> m.count
/// array([4, 0])
#[pyfunction]
#[pyo3(signature = (a, b, margin=0.0, *, translations_a=None, rotations_a=None, translations_b=None, rotations_b=None))]
#[allow(clippy::too_many_arguments)]
pub fn manifold<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    margin: f64,
    translations_a: Option<&Bound<'py, PyAny>>,
    rotations_a: Option<&Bound<'py, PyAny>>,
    translations_b: Option<&Bound<'py, PyAny>>,
    rotations_b: Option<&Bound<'py, PyAny>>,
) -> PyResult<ManifoldResult> {
    check_margin(margin)?;
    let (la, lb) = (shape_list(a, "a")?, shape_list(b, "b")?);
    by_dim!(&la[0], G => {
        let p = pairs::<G>(&la, &lb, translations_a, rotations_a, translations_b, rotations_b, &[])?;
        let out = par(py, p.n, |i| world::manifold(*pick(&p.a, i), p.pa.get(i), *pick(&p.b, i), p.pb.get(i), margin));
        let mut rows = ManifoldRows::default();
        for f in &out {
            rows.push::<G>(f);
        }
        rows.finish(py, G::D)
    })
}

// ---- shape casts ----

/// The answer of `shape_cast`.
#[derive(Debug)]
#[pyclass(frozen, get_all, module = "kollide")]
pub struct CastResult {
    /// (N,) bool: status is hit or started_within.
    hit: Py<PyAny>,
    /// (N,) the time of impact (`max_toi` and beyond: inf on a miss).
    toi: Py<PyAny>,
    /// (N,) the last time up to which the shapes are proven apart.
    safe_toi: Py<PyAny>,
    /// (N,) the distance at `toi`.
    distance: Py<PyAny>,
    /// (N, d) the point of A at `toi`.
    point_a: Py<PyAny>,
    /// (N, d) the point of B at `toi`.
    point_b: Py<PyAny>,
    /// (N, d) the normal at `toi` (outward from B's feature).
    normal: Py<PyAny>,
    /// (N,) int8 `CastStatus` codes.
    status: Py<PyAny>,
}

/// When `a` and `b`, moving at `velocities_*` (units per unit time) and
/// `angular_velocities_*` (radians per unit time, 3D: (3,) axis times rate; 2D: scalars)
/// from their poses, first come within `target_distance`, within `[0, max_toi]`
/// (`CastResult`). Linear pairs go by GJK ray casting, turning ones by conservative
/// advancement.
///
/// >>> import kollide
/// >>> ball, floor = kollide.Ball(0.5), kollide.Cuboid([5, 0.5, 5])
/// >>> r = kollide.shape_cast(ball, floor, translations_a=[0, 3, 0], velocities_a=[0, -4, 0])
/// >>> round(float(r.toi[0]), 4), kollide.CastStatus(r.status[0]).name
/// (0.5, 'HIT')
#[pyfunction]
#[pyo3(signature = (a, b, *, velocities_a=None, velocities_b=None, angular_velocities_a=None, angular_velocities_b=None, max_toi=1.0, target_distance=0.0, translations_a=None, rotations_a=None, translations_b=None, rotations_b=None))]
#[allow(clippy::too_many_arguments)]
pub fn shape_cast<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    velocities_a: Option<&Bound<'py, PyAny>>,
    velocities_b: Option<&Bound<'py, PyAny>>,
    angular_velocities_a: Option<&Bound<'py, PyAny>>,
    angular_velocities_b: Option<&Bound<'py, PyAny>>,
    max_toi: f64,
    target_distance: f64,
    translations_a: Option<&Bound<'py, PyAny>>,
    rotations_a: Option<&Bound<'py, PyAny>>,
    translations_b: Option<&Bound<'py, PyAny>>,
    rotations_b: Option<&Bound<'py, PyAny>>,
) -> PyResult<CastResult> {
    crate::errors::non_negative("max_toi", max_toi)?;
    if !(target_distance.is_finite() && target_distance >= 0.0) {
        return Err(value_error(
            "target_distance",
            format!("must be finite and >= 0, got {target_distance}"),
        ));
    }
    let (la, lb) = (shape_list(a, "a")?, shape_list(b, "b")?);
    by_dim!(&la[0], G => {
        let zero = vec![0.0; G::D];
        let wzero = vec![0.0; G::W];
        let va = arrays::rows_or(velocities_a, "velocities_a", G::D, &zero)?;
        let vb = arrays::rows_or(velocities_b, "velocities_b", G::D, &zero)?;
        let (wa, wb) = if G::W == 1 {
            (arrays::per_query(angular_velocities_a, "angular_velocities_a", 0.0)?, arrays::per_query(angular_velocities_b, "angular_velocities_b", 0.0)?)
        } else {
            (arrays::rows_or(angular_velocities_a, "angular_velocities_a", G::W, &wzero)?, arrays::rows_or(angular_velocities_b, "angular_velocities_b", G::W, &wzero)?)
        };
        let extra = [
            ("velocities_a", va.len() / G::D),
            ("velocities_b", vb.len() / G::D),
            ("angular_velocities_a", wa.len() / G::W),
            ("angular_velocities_b", wb.len() / G::W),
        ];
        let p = pairs::<G>(&la, &lb, translations_a, rotations_a, translations_b, rotations_b, &extra)?;
        let out = par(py, p.n, |i| {
            let input = CastInput {
                motion_a: Motion { velocity: G::vec(row(&va, G::D, i)), angular_velocity: G::angular(row(&wa, G::W, i)) },
                motion_b: Motion { velocity: G::vec(row(&vb, G::D, i)), angular_velocity: G::angular(row(&wb, G::W, i)) },
                max_toi,
                target_distance,
            };
            world::shape_cast(*pick(&p.a, i), p.pa.get(i), *pick(&p.b, i), p.pb.get(i), &input)
        });
        let (n, d) = (p.n, G::D);
        let (mut hit, mut toi, mut safe) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        let (mut dist, mut st) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let [mut pa, mut pb, mut nr] = [(); 3].map(|_| Vec::with_capacity(n * d));
        for o in out {
            match o {
                Some(f) => {
                    let c = f.value;
                    let h = matches!(c.status, CastStatus::Hit | CastStatus::StartedWithin);
                    hit.push(h);
                    toi.push(if h { c.toi } else { f64::INFINITY });
                    safe.push(c.safe_toi);
                    dist.push(c.distance);
                    G::put(c.point_a, &mut pa);
                    G::put(c.point_b, &mut pb);
                    G::put(c.normal, &mut nr);
                    st.push(code(&CAST_STATUS, c.status.as_str()));
                }
                None => {
                    hit.push(false);
                    toi.push(f64::INFINITY);
                    safe.push(max_toi);
                    dist.push(f64::NAN);
                    for v in [&mut pa, &mut pb, &mut nr] {
                        v.extend(std::iter::repeat_n(f64::NAN, d));
                    }
                    st.push(code(&CAST_STATUS, "miss"));
                }
            }
        }
        Ok(CastResult {
            hit: arrays::out_bool(py, hit).unbind(),
            toi: arrays::out_f64(py, toi, &[n])?.unbind(),
            safe_toi: arrays::out_f64(py, safe, &[n])?.unbind(),
            distance: arrays::out_f64(py, dist, &[n])?.unbind(),
            point_a: arrays::out_f64(py, pa, &[n, d])?.unbind(),
            point_b: arrays::out_f64(py, pb, &[n, d])?.unbind(),
            normal: arrays::out_f64(py, nr, &[n, d])?.unbind(),
            status: arrays::out_i8(py, st).unbind(),
        })
    })
}

// ---- rays ----

/// The answer of `ray_cast` and `World.ray_cast`.
#[derive(Debug)]
#[pyclass(frozen, get_all, module = "kollide")]
pub struct RayResult {
    /// (N,) bool: the ray hits (or starts inside).
    pub hit: Py<PyAny>,
    /// (N,) time of impact in units of the direction's length; inf on a miss, 0 inside.
    pub toi: Py<PyAny>,
    /// (N, d) the hit point (the origin when inside; NaN on a miss).
    pub point: Py<PyAny>,
    /// (N, d) outward unit normal at the hit (NaN on a miss or inside).
    pub normal: Py<PyAny>,
    /// (N,) the part hit (triangle of a mesh, part of a compound), -1 on a miss or for a
    /// convex shape.
    pub part: Py<PyAny>,
    /// (N,) bool: the origin is inside the shape (toi 0).
    pub inside: Py<PyAny>,
    /// (N,) the body hit (`World.ray_cast` only, -1 on a miss), else None.
    pub body: Py<PyAny>,
}

#[pymethods]
impl RayResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("RayResult(hit={}, toi={})", self.hit.bind(py).repr()?, self.toi.bind(py).repr()?))
    }
}

/// Ray answers flattened into arrays.
#[derive(Debug, Default)]
pub struct RayRows {
    hit: Vec<bool>,
    toi: Vec<f64>,
    point: Vec<f64>,
    normal: Vec<f64>,
    part: Vec<i64>,
    inside: Vec<bool>,
    body: Vec<i64>,
}

impl RayRows {
    /// Appends one answer for the ray from `origin`.
    pub fn push<G: Dim>(&mut self, o: Option<(RayOutcome<G::V>, Option<u32>)>, origin: &[f64], body: i64) {
        let nan = || std::iter::repeat_n(f64::NAN, G::D);
        match o {
            Some((RayOutcome::Hit(h), p)) => {
                self.hit.push(true);
                self.toi.push(h.toi);
                G::put(h.point, &mut self.point);
                G::put(h.normal, &mut self.normal);
                self.part.push(part(p));
                self.inside.push(false);
                self.body.push(body);
            }
            Some((RayOutcome::Inside { .. }, p)) => {
                self.hit.push(true);
                self.toi.push(0.0);
                self.point.extend_from_slice(origin);
                self.normal.extend(nan());
                self.part.push(part(p));
                self.inside.push(true);
                self.body.push(body);
            }
            _ => {
                self.hit.push(false);
                self.toi.push(f64::INFINITY);
                self.point.extend(nan());
                self.normal.extend(nan());
                self.part.push(-1);
                self.inside.push(false);
                self.body.push(-1);
            }
        }
    }

    /// The arrays; `with_body` for a world's answer.
    pub fn finish(self, py: Python<'_>, d: usize, with_body: bool) -> PyResult<RayResult> {
        let n = self.hit.len();
        Ok(RayResult {
            hit: arrays::out_bool(py, self.hit).unbind(),
            toi: arrays::out_f64(py, self.toi, &[n])?.unbind(),
            point: arrays::out_f64(py, self.point, &[n, d])?.unbind(),
            normal: arrays::out_f64(py, self.normal, &[n, d])?.unbind(),
            part: arrays::out_i64(py, self.part).unbind(),
            inside: arrays::out_bool(py, self.inside).unbind(),
            body: if with_body { arrays::out_i64(py, self.body).unbind() } else { py.None() },
        })
    }
}

/// The origins as read (row-major, 1 or N rows) and the rays.
pub type Rays<V> = (Vec<f64>, Vec<Ray<V>>);

/// Reads origins and directions (each 1 or N rows, directions non-zero) as rays.
pub fn rays<G: Dim>(origins: &Bound<'_, PyAny>, directions: &Bound<'_, PyAny>) -> PyResult<Rays<G::V>> {
    let o = arrays::rows(origins, "origins", G::D, true)?;
    let d = arrays::rows(directions, "directions", G::D, true)?;
    let n = batch_len(&[("origins", o.len() / G::D), ("directions", d.len() / G::D)])?;
    let mut rays = Vec::with_capacity(n);
    for i in 0..n {
        let r = Ray::try_new(G::vec(row(&o, G::D, i)), G::vec(row(&d, G::D, i)))
            .map_err(|e| value_error(&format!("directions[{i}]"), e))?;
        rays.push(r);
    }
    Ok((o, rays))
}

/// The first hit of each ray on `shape` (a shape, mesh or terrain placed at `translation`
/// / `rotation`) within `[0, max_toi]` (in units of the direction's length): `RayResult`.
/// `origins` and `directions` are (3,) or (N, 3) ((N, 2) in 2D).
///
/// >>> import kollide, numpy as np
/// >>> h = kollide.ray_cast(kollide.Ball(1.0), [[-5.0, 0, 0], [-5.0, 3, 0]], [1.0, 0, 0])
/// >>> h.hit, h.toi, h.point[0]
/// (array([ True, False]), array([ 4., inf]), array([-1.,  0.,  0.]))
#[pyfunction]
#[pyo3(signature = (shape, origins, directions, max_toi=f64::INFINITY, *, translation=None, rotation=None))]
pub fn ray_cast<'py>(
    py: Python<'py>,
    shape: &Bound<'py, Shape>,
    origins: &Bound<'py, PyAny>,
    directions: &Bound<'py, PyAny>,
    max_toi: f64,
    translation: Option<&Bound<'py, PyAny>>,
    rotation: Option<&Bound<'py, PyAny>>,
) -> PyResult<RayResult> {
    crate::errors::non_negative("max_toi", max_toi)?;
    by_dim!(shape, G => {
        let s = of_dim::<G>(std::slice::from_ref(shape), "shape")?.remove(0);
        let pose = arrays::poses::<G>(translation, rotation, "translation", "rotation")?;
        if pose.len() != 1 {
            return Err(value_error("translation", "one pose for the shape: (d,) and one rotation"));
        }
        let pose = *pose.get(0);
        let (o, rays) = rays::<G>(origins, directions)?;
        let out = par(py, rays.len(), |i| world::ray_cast(s, &pose, &rays[i], max_toi).map(|f| (f.value, f.part_a)));
        let mut rows = RayRows::default();
        for (i, r) in out.into_iter().enumerate() {
            rows.push::<G>(r, row(&o, G::D, i), -1);
        }
        rows.finish(py, G::D, false)
    })
}

// ---- sweeps ----

/// The answer of `sweep_sphere` and `sweep_ellipsoid`.
#[derive(Debug)]
#[pyclass(frozen, get_all, module = "kollide")]
pub struct SweepResult {
    /// (N,) bool: the mover touches a triangle (or starts overlapping one).
    hit: Py<PyAny>,
    /// (N,) the fraction of the displacement at the first touch (0 when started within,
    /// inf on a miss).
    toi: Py<PyAny>,
    /// (N, 3) the touching point (NaN on a miss or when started within).
    point: Py<PyAny>,
    /// (N, 3) unit normal pushing the mover away from the triangle.
    normal: Py<PyAny>,
    /// (N,) the triangle touched, -1 on a miss.
    part: Py<PyAny>,
    /// (N,) int8 `SweepFeature` codes (face, edge, vertex), -1 on a miss or when started
    /// within.
    feature: Py<PyAny>,
    /// (N,) bool: the mover overlapped a triangle at the start.
    started_within: Py<PyAny>,
}

/// What sweeps go through: a mesh or terrain's own tree, or a soup of triangles.
#[derive(Debug)]
enum Soup {
    Shape(Shape3<DVec3>, Pose<DVec3>),
    Triangles(Vec<[DVec3; 3]>),
}

fn soup(
    mesh: &Bound<'_, PyAny>,
    translation: Option<&Bound<'_, PyAny>>,
    rotation: Option<&Bound<'_, PyAny>>,
) -> PyResult<Soup> {
    if let Ok(s) = mesh.cast::<Shape>() {
        let g = s.get().d3("mesh")?.clone();
        if !g.is_soup() {
            return Err(type_error("mesh", format!("a sweep goes through a TriMesh, a HeightField or an (T, 3, 3) array of triangles, got {}", s.get().class())));
        }
        let pose = arrays::poses::<D3>(translation, rotation, "translation", "rotation")?;
        return Ok(Soup::Shape(g, *pose.get(0)));
    }
    let a = arrays::read(mesh, "mesh")?;
    if a.shape.len() != 3 || a.shape[1] != 3 || a.shape[2] != 3 {
        return Err(value_error(
            "mesh",
            format!(
                "expected a TriMesh, a HeightField or triangles of shape (T, 3, 3), got shape {:?}",
                a.shape
            ),
        ));
    }
    if translation.is_some_and(|t| !t.is_none()) || rotation.is_some_and(|r| !r.is_none()) {
        return Err(value_error(
            "translation",
            "triangles are given in the world frame: no translation or rotation",
        ));
    }
    Ok(Soup::Triangles(
        a.data.chunks_exact(9).map(|t| [D3::vec(&t[0..3]), D3::vec(&t[3..6]), D3::vec(&t[6..9])]).collect(),
    ))
}

fn sweep_rows(py: Python<'_>, out: Vec<Result<SweepOutcome<DVec3>, String>>) -> PyResult<SweepResult> {
    let n = out.len();
    let (mut hit, mut toi, mut pt, mut nr, mut part, mut feat, mut within) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    let nan = [f64::NAN; 3];
    for (i, o) in out.into_iter().enumerate() {
        match o.map_err(|e| value_error(&format!("centers[{i}]"), e))? {
            SweepOutcome::Hit(h) => {
                hit.push(true);
                toi.push(h.toi);
                D3::put(h.point, &mut pt);
                D3::put(h.normal, &mut nr);
                part.push(h.index as i64);
                feat.push(code(&SWEEP_FEATURE, feature_name(h.feature)));
                within.push(false);
            }
            SweepOutcome::StartedWithin { index, normal, .. } => {
                hit.push(true);
                toi.push(0.0);
                pt.extend_from_slice(&nan);
                D3::put(normal, &mut nr);
                part.push(index as i64);
                feat.push(-1);
                within.push(true);
            }
            _ => {
                hit.push(false);
                toi.push(f64::INFINITY);
                pt.extend_from_slice(&nan);
                nr.extend_from_slice(&nan);
                part.push(-1);
                feat.push(-1);
                within.push(false);
            }
        }
    }
    Ok(SweepResult {
        hit: arrays::out_bool(py, hit).unbind(),
        toi: arrays::out_f64(py, toi, &[n])?.unbind(),
        point: arrays::out_f64(py, pt, &[n, 3])?.unbind(),
        normal: arrays::out_f64(py, nr, &[n, 3])?.unbind(),
        part: arrays::out_i64(py, part).unbind(),
        feature: arrays::out_i8(py, feat).unbind(),
        started_within: arrays::out_bool(py, within).unbind(),
    })
}

/// The name of a sweep feature.
pub fn feature_name(f: SweepFeature) -> &'static str {
    f.as_str()
}

fn back(b: bool) -> BackFaces {
    if b {
        BackFaces::Hit
    } else {
        BackFaces::Cull
    }
}

fn sweep_one(
    soup: &Soup,
    mover: SweptShape<'_, DVec3>,
    disp: DVec3,
    bf: BackFaces,
) -> Result<SweepOutcome<DVec3>, String> {
    match soup {
        Soup::Shape(s, pose) => match s.sweep_through(pose, mover, disp, bf) {
            Some(r) => r.map_err(|e| e.to_string()),
            None => Err("not a soup".into()),
        },
        Soup::Triangles(t) => {
            kollide::query::cast::sweep(mover, disp, t, bf, None).map_err(|e| e.to_string())
        }
    }
}

/// Balls of `radius` at `centers` (N, 3) moved by `displacements` (N, 3) through `mesh`
/// (a TriMesh or HeightField placed at `translation` / `rotation`, or a (T, 3, 3) array
/// of world triangles): the first triangle each touches (`SweepResult`, `toi` a fraction
/// of the displacement). `back_faces=False` lets a ball pass through a triangle from
/// behind.
///
/// >>> import kollide, numpy as np
/// >>> ground = np.array([[[-9, 0.5, -9], [-9, 0.5, 9], [9, 0.5, 9]]])
/// >>> r = kollide.sweep_sphere(ground, [1.0, 3.0, 3.0], 0.5, [0, -4.0, 0])
/// >>> round(float(r.toi[0]), 6), kollide.SweepFeature(r.feature[0]).name
/// (0.5, 'FACE')
#[pyfunction]
#[pyo3(signature = (mesh, centers, radius, displacements, *, translation=None, rotation=None, back_faces=true))]
#[allow(clippy::too_many_arguments)]
pub fn sweep_sphere<'py>(
    py: Python<'py>,
    mesh: &Bound<'py, PyAny>,
    centers: &Bound<'py, PyAny>,
    radius: &Bound<'py, PyAny>,
    displacements: &Bound<'py, PyAny>,
    translation: Option<&Bound<'py, PyAny>>,
    rotation: Option<&Bound<'py, PyAny>>,
    back_faces: bool,
) -> PyResult<SweepResult> {
    let s = soup(mesh, translation, rotation)?;
    let c = arrays::rows(centers, "centers", 3, true)?;
    let d = arrays::rows(displacements, "displacements", 3, true)?;
    let r = arrays::per_query(Some(radius), "radius", 1.0)?;
    if let Some(i) = r.iter().position(|x| !(*x > 0.0 && x.is_finite())) {
        return Err(value_error("radius", format!("must be > 0, got {}", r[i])));
    }
    let n = batch_len(&[("centers", c.len() / 3), ("displacements", d.len() / 3), ("radius", r.len())])?;
    let bf = back(back_faces);
    let out = par(py, n, |i| {
        sweep_one(&s, SweptShape::ball(D3::vec(row(&c, 3, i)), at(&r, i)), D3::vec(row(&d, 3, i)), bf)
    });
    sweep_rows(py, out)
}

/// Ellipsoids of `radii` (3 semi-axes), centred at `centers` and turned by `rotations`
/// (quaternions [x, y, z, w], default none), moved by `displacements` through `mesh`:
/// as `sweep_sphere`.
///
/// >>> import kollide, numpy as np
/// >>> ground = np.array([[[-9, 0.0, -9], [-9, 0.0, 9], [9, 0.0, 9]]])
/// >>> r = kollide.sweep_ellipsoid(ground, [1.0, 3.0, 3.0], [0.5, 1.0, 0.5], [0, -4.0, 0])
/// >>> round(float(r.toi[0]), 6)
/// 0.5
#[pyfunction]
#[pyo3(signature = (mesh, centers, radii, displacements, *, rotations=None, translation=None, rotation=None, back_faces=true))]
#[allow(clippy::too_many_arguments)]
pub fn sweep_ellipsoid<'py>(
    py: Python<'py>,
    mesh: &Bound<'py, PyAny>,
    centers: &Bound<'py, PyAny>,
    radii: &Bound<'py, PyAny>,
    displacements: &Bound<'py, PyAny>,
    rotations: Option<&Bound<'py, PyAny>>,
    translation: Option<&Bound<'py, PyAny>>,
    rotation: Option<&Bound<'py, PyAny>>,
    back_faces: bool,
) -> PyResult<SweepResult> {
    let s = soup(mesh, translation, rotation)?;
    let r = arrays::rows(radii, "radii", 3, true)?;
    if r.len() != 3 {
        return Err(value_error("radii", "one ellipsoid: shape (3,)"));
    }
    let e = Ellipsoid::try_new(D3::vec(&r)).map_err(|e| crate::errors::shape_error("radii", &e))?;
    let poses = arrays::poses::<D3>(Some(centers), rotations, "centers", "rotations")?;
    let d = arrays::rows(displacements, "displacements", 3, true)?;
    let n = batch_len(&[("centers", poses.len()), ("displacements", d.len() / 3)])?;
    let bf = back(back_faces);
    let out =
        par(py, n, |i| sweep_one(&s, SweptShape::ellipsoid(&e, poses.get(i)), D3::vec(row(&d, 3, i)), bf));
    sweep_rows(py, out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(intersects, m)?)?;
    m.add_function(wrap_pyfunction!(distance, m)?)?;
    m.add_function(wrap_pyfunction!(contact, m)?)?;
    m.add_function(wrap_pyfunction!(manifold, m)?)?;
    m.add_function(wrap_pyfunction!(shape_cast, m)?)?;
    m.add_function(wrap_pyfunction!(ray_cast, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_sphere, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_ellipsoid, m)?)?;
    m.add_class::<DistanceResult>()?;
    m.add_class::<ContactResult>()?;
    m.add_class::<ManifoldResult>()?;
    m.add_class::<CastResult>()?;
    m.add_class::<RayResult>()?;
    m.add_class::<SweepResult>()?;
    m.add("GJK_STATUS", GJK_STATUS.to_vec())?;
    m.add("CONTACT_STATUS", CONTACT_STATUS.to_vec())?;
    m.add("CAST_STATUS", CAST_STATUS.to_vec())?;
    m.add("SWEEP_FEATURE", SWEEP_FEATURE.to_vec())?;
    Ok(())
}
