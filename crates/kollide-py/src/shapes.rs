//! The shape classes. Every shape is a frozen subclass of `kollide.Shape`, which holds the
//! kollide run-time shape (`Shape3` or `Shape2` in `f64`) and the arguments it was built
//! from: they give `repr`, pickling (`__reduce__` calls the class with them again),
//! equality and the hash (both over the arguments' exact values, so equal shapes were
//! built from equal arguments).
//!
//! Constructors call kollide's `try_new` and turn its error into a `ValueError` naming the
//! argument (`kollide.Ball(-1.0)`: `radius: must be > 0, got -1`).

use crate::arrays::{self, Dim, D2, D3};
use crate::errors::{shape_error, type_error, value_error};
use kollide::composite::{Compound, ConcavePolygon, HeightField, Polyline, TriMesh, Weld};
use kollide::math::{DVec2, DVec3};
use kollide::shape::{
    Ball as KBall, Capsule as KCapsule, Cone as KCone, Convex2, Convex3, ConvexHull as KHull,
    ConvexPolygon as KPolygon, Cuboid as KCuboid, Cylinder as KCylinder, Ellipsoid as KEllipsoid,
    Segment as KSegment, ShapeError, Triangle as KTriangle,
};
use kollide::world::{Shape2, Shape3};
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyAny, PyList, PyTuple};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

/// A kollide run-time shape of either dimension.
#[derive(Debug, Clone)]
pub enum Geom {
    /// A 3D shape.
    D3(Shape3<DVec3>),
    /// A 2D shape.
    D2(Shape2<DVec2>),
}

/// An argument a shape was built from, kept for `repr`, pickling, equality and hashing.
#[derive(Debug)]
pub enum Arg {
    /// A number.
    Num(f64),
    /// A string (a file path).
    Str(String),
    /// An array of numbers with its shape.
    Array(Vec<f64>, Vec<usize>),
    /// An array of integers with its shape.
    Ints(Vec<i64>, Vec<usize>),
    /// Another shape.
    Shape(Py<Shape>),
    /// A list of shapes.
    Shapes(Vec<Py<Shape>>),
}

/// Any kollide shape. Not built directly: build one of its subclasses (`Ball`, `TriMesh`,
/// ...). Immutable, hashable, picklable; `repr` names the class and its arguments.
#[derive(Debug)]
#[pyclass(subclass, frozen, module = "kollide")]
pub struct Shape {
    pub geom: Geom,
    class: &'static str,
    /// The classmethod that rebuilds the shape from `args` (`from_png`), or `None` for the
    /// class itself.
    ctor: Option<&'static str>,
    args: Vec<(&'static str, Arg)>,
    hash: u64,
}

/// Equal bits, with `-0.0` and `0.0` one value (they build the same shape).
fn bits(x: f64) -> u64 {
    if x == 0.0 {
        0
    } else {
        x.to_bits()
    }
}

impl Arg {
    fn hash_into(&self, h: &mut DefaultHasher) {
        match self {
            Arg::Num(x) => bits(*x).hash(h),
            Arg::Str(s) => s.hash(h),
            Arg::Array(d, s) => {
                s.hash(h);
                d.iter().for_each(|x| bits(*x).hash(h));
            }
            Arg::Ints(d, s) => (d, s).hash(h),
            Arg::Shape(p) => p.get().hash.hash(h),
            Arg::Shapes(ps) => ps.iter().for_each(|p| p.get().hash.hash(h)),
        }
    }

    fn same(&self, other: &Arg) -> bool {
        let same_f =
            |a: &[f64], b: &[f64]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| bits(*x) == bits(*y));
        match (self, other) {
            (Arg::Num(a), Arg::Num(b)) => bits(*a) == bits(*b),
            (Arg::Str(a), Arg::Str(b)) => a == b,
            (Arg::Array(a, s), Arg::Array(b, t)) => s == t && same_f(a, b),
            (Arg::Ints(a, s), Arg::Ints(b, t)) => s == t && a == b,
            (Arg::Shape(a), Arg::Shape(b)) => a.get().same(b.get()),
            (Arg::Shapes(a), Arg::Shapes(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.get().same(y.get()))
            }
            _ => false,
        }
    }

    fn repr(&self, py: Python<'_>) -> String {
        match self {
            Arg::Num(x) => py_float(*x),
            Arg::Str(s) => format!("{s:?}"),
            Arg::Array(d, s) if s.len() == 1 => {
                format!("[{}]", d.iter().map(|x| py_float(*x)).collect::<Vec<_>>().join(", "))
            }
            Arg::Array(_, s) | Arg::Ints(_, s) => {
                format!(
                    "<array of shape ({})>",
                    s.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
                )
            }
            Arg::Shape(p) => p.get().repr(py),
            Arg::Shapes(ps) => {
                format!("[{}]", ps.iter().map(|p| p.get().repr(py)).collect::<Vec<_>>().join(", "))
            }
        }
    }

    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            Arg::Num(x) => x.into_pyobject(py)?.into_any(),
            Arg::Str(s) => s.into_pyobject(py)?.into_any(),
            Arg::Array(d, s) => PyArray1::from_slice(py, d).reshape(s.clone())?.into_any(),
            Arg::Ints(d, s) => PyArray1::from_slice(py, d).reshape(s.clone())?.into_any(),
            Arg::Shape(p) => p.clone_ref(py).into_bound(py).into_any(),
            Arg::Shapes(ps) => PyList::new(py, ps.iter().map(|p| p.clone_ref(py)))?.into_any(),
        })
    }
}

/// A float as Python prints it (`1.0`, `0.5`, `1e-05`).
fn py_float(x: f64) -> String {
    if x.is_finite() && x == x.trunc() && x.abs() < 1e16 {
        format!("{x:.1}")
    } else {
        format!("{x}")
    }
}

impl Shape {
    fn new(geom: Geom, class: &'static str, args: Vec<(&'static str, Arg)>) -> Self {
        Self::with_ctor(geom, class, None, args)
    }

    fn with_ctor(
        geom: Geom,
        class: &'static str,
        ctor: Option<&'static str>,
        args: Vec<(&'static str, Arg)>,
    ) -> Self {
        let mut h = DefaultHasher::new();
        (class, ctor).hash(&mut h);
        for (name, a) in &args {
            name.hash(&mut h);
            a.hash_into(&mut h);
        }
        let hash = h.finish();
        Self { geom, class, ctor, args, hash }
    }

    fn same(&self, other: &Shape) -> bool {
        self.hash == other.hash
            && self.class == other.class
            && self.ctor == other.ctor
            && self.args.len() == other.args.len()
            && self.args.iter().zip(&other.args).all(|((n, a), (m, b))| n == m && a.same(b))
    }

    fn repr(&self, py: Python<'_>) -> String {
        let args: Vec<String> = self.args.iter().map(|(n, a)| format!("{n}={}", a.repr(py))).collect();
        match self.ctor {
            Some(c) => format!("{}.{c}({})", self.class, args.join(", ")),
            None => format!("{}({})", self.class, args.join(", ")),
        }
    }

    /// The 3D shape, or a `TypeError` naming `arg`.
    pub fn d3(&self, arg: &str) -> PyResult<&Shape3<DVec3>> {
        match &self.geom {
            Geom::D3(s) => Ok(s),
            Geom::D2(_) => Err(type_error(arg, format!("expected a 3D shape, got the 2D {}", self.class))),
        }
    }

    /// The class name (`"Ball"`).
    pub fn class(&self) -> &'static str {
        self.class
    }

    /// The convex 3D shape, or a `TypeError` naming `arg`.
    fn convex3(&self, arg: &str) -> PyResult<Convex3<DVec3>> {
        match &self.geom {
            Geom::D3(Shape3::Convex(c)) => Ok(c.clone()),
            _ => Err(type_error(arg, format!("expected a convex 3D shape, got {}", self.class))),
        }
    }

    fn convex2(&self, arg: &str) -> PyResult<Convex2<DVec2>> {
        match &self.geom {
            Geom::D2(Shape2::Convex(c)) => Ok(c.clone()),
            _ => Err(type_error(arg, format!("expected a convex 2D shape, got {}", self.class))),
        }
    }
}

#[pymethods]
impl Shape {
    /// 2 or 3: the dimension the shape lives in.
    #[getter]
    fn dim(&self) -> usize {
        match self.geom {
            Geom::D3(_) => 3,
            Geom::D2(_) => 2,
        }
    }

    /// The box around the shape placed at `translation` / `rotation` (default: the
    /// origin, no rotation): `(min, max)`, two arrays of `dim` numbers.
    #[pyo3(signature = (translation=None, rotation=None))]
    fn aabb<'py>(
        &self,
        py: Python<'py>,
        translation: Option<&Bound<'py, PyAny>>,
        rotation: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        use kollide::world::RuntimeShape;
        match &self.geom {
            Geom::D3(s) => {
                let p = arrays::poses::<D3>(translation, rotation, "translation", "rotation")?;
                let b = s.aabb(p.get(0));
                let (mut lo, mut hi) = (Vec::new(), Vec::new());
                D3::put(b.min, &mut lo);
                D3::put(b.max, &mut hi);
                Ok((arrays::out_f64(py, lo, &[3])?, arrays::out_f64(py, hi, &[3])?))
            }
            Geom::D2(s) => {
                let p = arrays::poses::<D2>(translation, rotation, "translation", "rotation")?;
                let b = s.aabb(p.get(0));
                let (mut lo, mut hi) = (Vec::new(), Vec::new());
                D2::put(b.min, &mut lo);
                D2::put(b.max, &mut hi);
                Ok((arrays::out_f64(py, lo, &[2])?, arrays::out_f64(py, hi, &[2])?))
            }
        }
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        self.repr(py)
    }

    fn __hash__(&self) -> u64 {
        self.hash
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Shape>().is_ok_and(|o| self.same(o.get()))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.get();
        let ty = slf.get_type().into_any();
        let f = match me.ctor {
            Some(c) => ty.getattr(c)?,
            None => ty,
        };
        let args: Vec<Bound<'py, PyAny>> =
            me.args.iter().map(|(_, a)| a.to_py(py)).collect::<PyResult<_>>()?;
        Ok((f, PyTuple::new(py, args)?))
    }
}

/// The initializer of a shape class from its kollide shape.
fn init<T: pyo3::PyClass<BaseType = Shape>>(sub: T, base: Shape) -> PyClassInitializer<T> {
    PyClassInitializer::from(base).add_subclass(sub)
}

// ---- reading constructor arguments ----

/// One vector of `k` numbers (a `(k,)` array).
fn vector(obj: &Bound<'_, PyAny>, arg: &str, k: usize) -> PyResult<Vec<f64>> {
    let a = arrays::read(obj, arg)?;
    if a.shape != [k] {
        return Err(value_error(arg, format!("expected shape ({k},), got {:?}", a.shape)));
    }
    Ok(a.data)
}

/// Points, an `(N, k)` array.
fn points(obj: &Bound<'_, PyAny>, arg: &str, k: usize) -> PyResult<Vec<f64>> {
    let a = arrays::read(obj, arg)?;
    if a.shape.len() != 2 || a.shape[1] != k {
        return Err(value_error(arg, format!("expected shape (N, {k}), got {:?}", a.shape)));
    }
    Ok(a.data)
}

/// An array of integers (any integer dtype), as `i64`, with its shape; `TypeError` for
/// any other dtype.
fn ints(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<(Vec<i64>, Vec<usize>)> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let arr = np
        .call_method1("asarray", (obj,))
        .map_err(|e| type_error(arg, format!("expected an array of integers ({e})")))?;
    let dtype = arr.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "i" | "u") {
        let name: String = dtype.str()?.extract()?;
        return Err(type_error(arg, format!("expected an array of integers, got dtype {name}")));
    }
    let arr = np.call_method1("ascontiguousarray", (arr, "int64"))?;
    let arr = arr.cast_into::<numpy::PyArrayDyn<i64>>().map_err(|e| type_error(arg, e))?;
    let ro = arr.readonly();
    let shape = ro.shape().to_vec();
    let data = ro.as_slice().map_err(|e| value_error(arg, e))?.to_vec();
    Ok((data, shape))
}

fn vecs3(d: &[f64]) -> Vec<DVec3> {
    d.chunks_exact(3).map(D3::vec).collect()
}

fn vecs2(d: &[f64]) -> Vec<DVec2> {
    d.chunks_exact(2).map(D2::vec).collect()
}

fn arr(d: Vec<f64>, shape: &[usize]) -> Arg {
    Arg::Array(d, shape.to_vec())
}

fn built<T>(r: Result<T, ShapeError>, arg: &str) -> PyResult<T> {
    r.map_err(|e| shape_error(arg, &e))
}

/// A rounding's error: kollide names the radius `round` (its name in the JSON format),
/// the Python argument is `radius`.
fn rounded<T>(r: Result<T, ShapeError>) -> PyResult<T> {
    r.map_err(|e| match e {
        ShapeError::NonFinite { .. } => value_error("radius", "is not finite (NaN or infinity)"),
        ShapeError::Negative { value, .. } => value_error("radius", format!("must be >= 0, got {value}")),
        other => shape_error("radius", &other),
    })
}

fn convex3(c: Convex3<DVec3>, class: &'static str, args: Vec<(&'static str, Arg)>) -> Shape {
    Shape::new(Geom::D3(Shape3::Convex(c)), class, args)
}

fn convex2(c: Convex2<DVec2>, class: &'static str, args: Vec<(&'static str, Arg)>) -> Shape {
    Shape::new(Geom::D2(Shape2::Convex(c)), class, args)
}

// ---- 3D convex shapes ----

/// A ball of `radius` (> 0) centred on its origin.
///
/// >>> import kollide
/// >>> kollide.Ball(0.5)
/// Ball(radius=0.5)
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct Ball;

#[pymethods]
impl Ball {
    #[new]
    fn new(radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let b = built(KBall::try_new(radius), "radius")?;
        Ok(init(Ball, convex3(Convex3::Ball(b), "Ball", vec![("radius", Arg::Num(radius))])))
    }
}

/// A box of `half_extents` (3 numbers, each > 0) centred on its origin.
///
/// >>> import kollide
/// >>> kollide.Cuboid([0.5, 1.0, 2.0])
/// Cuboid(half_extents=[0.5, 1.0, 2.0])
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct Cuboid;

#[pymethods]
impl Cuboid {
    #[new]
    fn new(half_extents: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let h = vector(half_extents, "half_extents", 3)?;
        let c = built(KCuboid::try_new(D3::vec(&h)), "half_extents")?;
        Ok(init(Cuboid, convex3(Convex3::Cuboid(c), "Cuboid", vec![("half_extents", arr(h, &[3]))])))
    }
}

macro_rules! axial3 {
    ($py:ident, $k:ident, $variant:ident, $doc:literal, $call:literal, $repr:literal) => {
        #[doc = $doc]
        ///
        /// >>> import kollide
        #[doc = concat!(">>> ", $call)]
        #[doc = $repr]
        #[derive(Debug)]
        #[pyclass(extends = Shape, frozen, module = "kollide")]
        pub struct $py;

        #[pymethods]
        impl $py {
            #[new]
            fn new(half_height: f64, radius: f64) -> PyResult<PyClassInitializer<Self>> {
                let c = built($k::try_new(half_height, radius), "radius")?;
                let args = vec![("half_height", Arg::Num(half_height)), ("radius", Arg::Num(radius))];
                Ok(init($py, convex3(Convex3::$variant(c), stringify!($py), args)))
            }
        }
    };
}

axial3!(
    Capsule,
    KCapsule,
    Capsule,
    "A capsule: the segment from `-half_height` to `+half_height` along y (>= 0), grown by `radius` (> 0).",
    "kollide.Capsule(0.5, 0.25)",
    "Capsule(half_height=0.5, radius=0.25)"
);
axial3!(
    Cylinder,
    KCylinder,
    Cylinder,
    "A cylinder along y: `half_height` and `radius` (both > 0).",
    "kollide.Cylinder(1.0, 0.5)",
    "Cylinder(half_height=1.0, radius=0.5)"
);
axial3!(
    Cone,
    KCone,
    Cone,
    "A cone along y, apex up: `half_height` and base `radius` (both > 0), centred half way.",
    "kollide.Cone(1.0, 0.5)",
    "Cone(half_height=1.0, radius=0.5)"
);

/// An ellipsoid of `radii` (3 semi-axes, each > 0) centred on its origin.
///
/// >>> import kollide
/// >>> kollide.Ellipsoid([1.0, 2.0, 3.0])
/// Ellipsoid(radii=[1.0, 2.0, 3.0])
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct Ellipsoid;

#[pymethods]
impl Ellipsoid {
    #[new]
    fn new(radii: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let r = vector(radii, "radii", 3)?;
        let e = built(KEllipsoid::try_new(D3::vec(&r)), "radii")?;
        Ok(init(Ellipsoid, convex3(Convex3::Ellipsoid(e), "Ellipsoid", vec![("radii", arr(r, &[3]))])))
    }
}

/// The segment from `a` to `b` (3 numbers each).
///
/// >>> import kollide
/// >>> kollide.Segment([0, 0, 0], [1, 0, 0])
/// Segment(a=[0.0, 0.0, 0.0], b=[1.0, 0.0, 0.0])
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct Segment;

#[pymethods]
impl Segment {
    #[new]
    fn new(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let (pa, pb) = (vector(a, "a", 3)?, vector(b, "b", 3)?);
        let s = built(KSegment::try_new(D3::vec(&pa), D3::vec(&pb)), "a")?;
        Ok(init(
            Segment,
            convex3(Convex3::Segment(s), "Segment", vec![("a", arr(pa, &[3])), ("b", arr(pb, &[3]))]),
        ))
    }
}

/// The triangle `a`, `b`, `c` (3 numbers each).
///
/// >>> import kollide
/// >>> kollide.Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0])
/// Triangle(a=[0.0, 0.0, 0.0], b=[1.0, 0.0, 0.0], c=[0.0, 1.0, 0.0])
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct Triangle;

#[pymethods]
impl Triangle {
    #[new]
    fn new(
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        c: &Bound<'_, PyAny>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let (pa, pb, pc) = (vector(a, "a", 3)?, vector(b, "b", 3)?, vector(c, "c", 3)?);
        let t = built(KTriangle::try_new(D3::vec(&pa), D3::vec(&pb), D3::vec(&pc)), "a")?;
        let args = vec![("a", arr(pa, &[3])), ("b", arr(pb, &[3])), ("c", arr(pc, &[3]))];
        Ok(init(Triangle, convex3(Convex3::Triangle(t), "Triangle", args)))
    }
}

/// The convex hull of `points`, an (N, 3) array (quickhull; points inside are dropped
/// from the hull, not from the arguments).
///
/// >>> import kollide, numpy as np
/// >>> kollide.ConvexHull(np.eye(3).tolist() + [[0, 0, 0]])
/// ConvexHull(points=<array of shape (4, 3)>)
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct ConvexHull;

#[pymethods]
impl ConvexHull {
    #[new]
    fn new(points: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let p = self::points(points, "points", 3)?;
        let n = p.len() / 3;
        let h = built(KHull::try_from_points(&vecs3(&p)), "points")?;
        Ok(init(
            ConvexHull,
            convex3(Convex3::ConvexHull(Arc::new(h)), "ConvexHull", vec![("points", arr(p, &[n, 3]))]),
        ))
    }
}

/// A convex shape (2D or 3D) grown by `radius` (>= 0): a rounded box, a rounded hull.
///
/// >>> import kollide
/// >>> kollide.Rounded(kollide.Cuboid([1, 1, 1]), 0.1)
/// Rounded(shape=Cuboid(half_extents=[1.0, 1.0, 1.0]), radius=0.1)
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct Rounded;

#[pymethods]
impl Rounded {
    #[new]
    fn new(shape: &Bound<'_, Shape>, radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let s = shape.get();
        let args = vec![("shape", Arg::Shape(shape.clone().unbind())), ("radius", Arg::Num(radius))];
        let out = match &s.geom {
            Geom::D3(_) => convex3(rounded(s.convex3("shape")?.rounded(radius))?, "Rounded", args),
            Geom::D2(_) => convex2(rounded(s.convex2("shape")?.rounded(radius))?, "Rounded", args),
        };
        Ok(init(Rounded, out))
    }
}

// ---- 3D composites ----

/// A triangle mesh: `vertices` (V, 3) numbers and `faces` (F, 3) vertex indices
/// (counter-clockwise seen from outside). `TriMesh.from_file(path)` reads OBJ, STL, PLY
/// or glTF.
///
/// >>> import kollide, numpy as np
/// >>> quad = kollide.TriMesh([[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]], [[0, 2, 1], [0, 3, 2]])
/// >>> quad.triangle_count
/// 2
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide", name = "TriMesh")]
pub struct TriMesh3 {
    triangles: usize,
}

fn trimesh(mesh: TriMesh<DVec3>) -> PyClassInitializer<TriMesh3> {
    let v: Vec<f64> = mesh.vertices().iter().flat_map(|p| [p.x, p.y, p.z]).collect();
    let f: Vec<i64> = mesh.indices().iter().flat_map(|t| t.map(i64::from)).collect();
    let (nv, nf) = (v.len() / 3, f.len() / 3);
    let args = vec![("vertices", Arg::Array(v, vec![nv, 3])), ("faces", Arg::Ints(f, vec![nf, 3]))];
    init(TriMesh3 { triangles: nf }, Shape::new(Geom::D3(Shape3::TriMesh(Arc::new(mesh))), "TriMesh", args))
}

#[pymethods]
impl TriMesh3 {
    #[new]
    fn new(vertices: &Bound<'_, PyAny>, faces: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let v = points(vertices, "vertices", 3)?;
        let (f, shape) = ints(faces, "faces")?;
        if shape.len() != 2 || shape[1] != 3 {
            return Err(value_error("faces", format!("expected shape (F, 3), got {shape:?}")));
        }
        let nv = v.len() / 3;
        let mut tris = Vec::with_capacity(f.len() / 3);
        for (i, t) in f.chunks_exact(3).enumerate() {
            let mut tri = [0u32; 3];
            for (k, &x) in t.iter().enumerate() {
                if x < 0 || x as usize >= nv {
                    return Err(value_error(
                        &format!("faces[{i}]"),
                        format!("vertex index {x} is out of range: {nv} vertices"),
                    ));
                }
                tri[k] = x as u32;
            }
            tris.push(tri);
        }
        let mesh = TriMesh::try_new(vecs3(&v), tris).map_err(|e| value_error("vertices", e))?;
        Ok(trimesh(mesh))
    }

    /// A mesh read from an OBJ, STL, PLY or glTF file (by its extension), vertices at the
    /// same position welded (`weld=0.0`, exact) or within `weld` (> 0); `weld=None` keeps
    /// every vertex.
    #[staticmethod]
    #[pyo3(signature = (path, weld=Some(0.0)))]
    fn from_file(py: Python<'_>, path: std::path::PathBuf, weld: Option<f64>) -> PyResult<Py<TriMesh3>> {
        let weld = match weld {
            None => Weld::None,
            Some(0.0) => Weld::Exact,
            Some(w) => Weld::Within(w),
        };
        let mesh = py.detach(|| TriMesh::from_file(&path, weld)).map_err(|e| value_error("path", e))?;
        Py::new(py, trimesh(mesh))
    }

    /// Number of triangles.
    #[getter]
    fn triangle_count(&self) -> usize {
        self.triangles
    }
}

/// A terrain: `heights` a 2D array (rows along z, columns along x) spread over `scale`
/// (3 numbers: the x extent, a height multiplier, the z extent), centred on the origin in
/// x and z. `HeightField.from_png(path, scale)` reads a grayscale PNG.
///
/// >>> import kollide, numpy as np
/// >>> kollide.HeightField(np.zeros((3, 4)), [10, 1, 10])
/// HeightField(heights=<array of shape (3, 4)>, scale=[10.0, 1.0, 10.0])
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide", name = "HeightField")]
pub struct HeightField3;

#[pymethods]
impl HeightField3 {
    #[new]
    fn new(heights: &Bound<'_, PyAny>, scale: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let h = arrays::read(heights, "heights")?;
        if h.shape.len() != 2 {
            return Err(value_error("heights", format!("expected a 2D array, got shape {:?}", h.shape)));
        }
        let s = vector(scale, "scale", 3)?;
        let rows: Vec<Vec<f64>> = h.data.chunks(h.shape[1].max(1)).map(<[f64]>::to_vec).collect();
        let rows = if h.shape[1] == 0 { Vec::new() } else { rows };
        let f = HeightField::try_new(rows, D3::vec(&s)).map_err(|e| value_error("heights", e))?;
        let args = vec![("heights", Arg::Array(h.data, h.shape)), ("scale", arr(s, &[3]))];
        Ok(init(HeightField3, Shape::new(Geom::D3(Shape3::HeightField(Arc::new(f))), "HeightField", args)))
    }

    /// A terrain from an 8- or 16-bit grayscale PNG: black is height 0, white is
    /// `scale[1]`.
    #[staticmethod]
    fn from_png(py: Python<'_>, path: String, scale: &Bound<'_, PyAny>) -> PyResult<Py<HeightField3>> {
        let s = vector(scale, "scale", 3)?;
        let f = HeightField::from_png(&path, D3::vec(&s)).map_err(|e| value_error("path", e))?;
        let args = vec![("path", Arg::Str(path)), ("scale", arr(s, &[3]))];
        let shape = Shape::with_ctor(
            Geom::D3(Shape3::HeightField(Arc::new(f))),
            "HeightField",
            Some("from_png"),
            args,
        );
        Py::new(py, init(HeightField3, shape))
    }
}

/// Convex parts, each placed by its pose: `shapes` a list of convex shapes (all 3D or all
/// 2D), `translations` (N, 3) and `rotations` (N, 4) quaternions [x, y, z, w] (2D: (N, 2)
/// and (N,) angles), broadcast like the queries' poses.
///
/// >>> import kollide
/// >>> kollide.Compound([kollide.Ball(1.0), kollide.Ball(1.0)], translations=[[-2, 0, 0], [2, 0, 0]])
/// Compound(shapes=[Ball(radius=1.0), Ball(radius=1.0)], translations=<array of shape (2, 3)>, rotations=<array of shape (1, 4)>)
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide", name = "Compound")]
pub struct Compound3;

#[pymethods]
impl Compound3 {
    #[new]
    #[pyo3(signature = (shapes, translations=None, rotations=None))]
    fn new(
        shapes: Vec<Bound<'_, Shape>>,
        translations: Option<&Bound<'_, PyAny>>,
        rotations: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let Some(first) = shapes.first() else {
            return Err(value_error("shapes", "a compound needs at least one part, got none"));
        };
        let two_d = matches!(first.get().geom, Geom::D2(_));
        let (tk, rk) = if two_d { (2, 1) } else { (3, 4) };
        let zero = vec![0.0; tk];
        let ident: &[f64] = if two_d { D2::IDENTITY } else { D3::IDENTITY };
        let ts = arrays::rows_or(translations, "translations", tk, &zero)?;
        let rs = match rotations {
            Some(r) if two_d && !r.is_none() => arrays::per_query(Some(r), "rotations", 0.0)?,
            _ => arrays::rows_or(rotations, "rotations", rk, ident)?,
        };
        arrays::batch_len(&[
            ("shapes", shapes.len()),
            ("translations", ts.len() / tk),
            ("rotations", rs.len() / rk),
        ])?;
        let n = shapes.len();
        let geom = if two_d {
            let mut parts = Vec::with_capacity(n);
            for (i, s) in shapes.iter().enumerate() {
                let pose = D2::pose(arrays::row(&ts, 2, i), arrays::row(&rs, 1, i))
                    .map_err(|e| value_error(&format!("rotations[{i}]"), e))?;
                parts.push((pose, s.get().convex2(&format!("shapes[{i}]"))?));
            }
            Geom::D2(Shape2::Compound(Arc::new(
                Compound::try_new(parts).map_err(|e| value_error("shapes", e))?,
            )))
        } else {
            let mut parts = Vec::with_capacity(n);
            for (i, s) in shapes.iter().enumerate() {
                let pose = D3::pose(arrays::row(&ts, 3, i), arrays::row(&rs, 4, i))
                    .map_err(|e| value_error(&format!("rotations[{i}]"), e))?;
                parts.push((pose, s.get().convex3(&format!("shapes[{i}]"))?));
            }
            Geom::D3(Shape3::Compound(Arc::new(
                Compound::try_new(parts).map_err(|e| value_error("shapes", e))?,
            )))
        };
        let (nt, nr) = (ts.len() / tk, rs.len() / rk);
        let rshape = if two_d { vec![nr] } else { vec![nr, 4] };
        let args = vec![
            ("shapes", Arg::Shapes(shapes.into_iter().map(Bound::unbind).collect())),
            ("translations", Arg::Array(ts, vec![nt, tk])),
            ("rotations", Arg::Array(rs, rshape)),
        ];
        Ok(init(Compound3, Shape::new(geom, "Compound", args)))
    }
}

// ---- 2D shapes ----

/// A circle of `radius` (> 0), 2D.
///
/// >>> import kollide
/// >>> kollide.Circle(1.0).dim
/// 2
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct Circle;

#[pymethods]
impl Circle {
    #[new]
    fn new(radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let b = built(KBall::try_new(radius), "radius")?;
        Ok(init(Circle, convex2(Convex2::Ball(b), "Circle", vec![("radius", Arg::Num(radius))])))
    }
}

/// A rectangle of `half_extents` (2 numbers, each > 0), 2D.
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct Rectangle;

#[pymethods]
impl Rectangle {
    #[new]
    fn new(half_extents: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let h = vector(half_extents, "half_extents", 2)?;
        let c = built(KCuboid::try_new(D2::vec(&h)), "half_extents")?;
        Ok(init(Rectangle, convex2(Convex2::Cuboid(c), "Rectangle", vec![("half_extents", arr(h, &[2]))])))
    }
}

/// A 2D capsule: the segment from `-half_height` to `+half_height` along y, grown by
/// `radius`.
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct Capsule2D;

#[pymethods]
impl Capsule2D {
    #[new]
    fn new(half_height: f64, radius: f64) -> PyResult<PyClassInitializer<Self>> {
        let c = built(KCapsule::try_new(half_height, radius), "radius")?;
        let args = vec![("half_height", Arg::Num(half_height)), ("radius", Arg::Num(radius))];
        Ok(init(Capsule2D, convex2(Convex2::Capsule(c), "Capsule2D", args)))
    }
}

/// An ellipse of `radii` (2 semi-axes, each > 0), 2D.
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct Ellipse;

#[pymethods]
impl Ellipse {
    #[new]
    fn new(radii: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let r = vector(radii, "radii", 2)?;
        let e = built(KEllipsoid::try_new(D2::vec(&r)), "radii")?;
        Ok(init(Ellipse, convex2(Convex2::Ellipsoid(e), "Ellipse", vec![("radii", arr(r, &[2]))])))
    }
}

/// A 2D segment from `a` to `b`.
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct Segment2D;

#[pymethods]
impl Segment2D {
    #[new]
    fn new(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let (pa, pb) = (vector(a, "a", 2)?, vector(b, "b", 2)?);
        let s = built(KSegment::try_new(D2::vec(&pa), D2::vec(&pb)), "a")?;
        Ok(init(
            Segment2D,
            convex2(Convex2::Segment(s), "Segment2D", vec![("a", arr(pa, &[2])), ("b", arr(pb, &[2]))]),
        ))
    }
}

/// A 2D triangle `a`, `b`, `c`.
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct Triangle2D;

#[pymethods]
impl Triangle2D {
    #[new]
    fn new(
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        c: &Bound<'_, PyAny>,
    ) -> PyResult<PyClassInitializer<Self>> {
        let (pa, pb, pc) = (vector(a, "a", 2)?, vector(b, "b", 2)?, vector(c, "c", 2)?);
        let t = built(KTriangle::try_new(D2::vec(&pa), D2::vec(&pb), D2::vec(&pc)), "a")?;
        let args = vec![("a", arr(pa, &[2])), ("b", arr(pb, &[2])), ("c", arr(pc, &[2]))];
        Ok(init(Triangle2D, convex2(Convex2::Triangle(t), "Triangle2D", args)))
    }
}

/// The convex hull of `points`, an (N, 2) array, 2D.
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide")]
pub struct ConvexPolygon;

#[pymethods]
impl ConvexPolygon {
    #[new]
    fn new(points: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let p = self::points(points, "points", 2)?;
        let n = p.len() / 2;
        let h = built(KPolygon::try_from_points(&vecs2(&p)), "points")?;
        let args = vec![("points", arr(p, &[n, 2]))];
        Ok(init(ConvexPolygon, convex2(Convex2::ConvexPolygon(Arc::new(h)), "ConvexPolygon", args)))
    }
}

/// A simple polygon (concave or not) through `points`, an (N, 2) array, split into
/// convex pieces, 2D.
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide", name = "ConcavePolygon")]
pub struct ConcavePolygon2D;

#[pymethods]
impl ConcavePolygon2D {
    #[new]
    fn new(points: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let p = self::points(points, "points", 2)?;
        let n = p.len() / 2;
        let c = built(ConcavePolygon::try_new(&vecs2(&p)), "points")?;
        let args = vec![("points", arr(p, &[n, 2]))];
        Ok(init(
            ConcavePolygon2D,
            Shape::new(Geom::D2(Shape2::ConcavePolygon(Arc::new(c))), "ConcavePolygon", args),
        ))
    }
}

/// An open polyline through `vertices`, an (N, 2) array, 2D.
#[derive(Debug)]
#[pyclass(extends = Shape, frozen, module = "kollide", name = "Polyline")]
pub struct Polyline2D;

#[pymethods]
impl Polyline2D {
    #[new]
    fn new(vertices: &Bound<'_, PyAny>) -> PyResult<PyClassInitializer<Self>> {
        let p = points(vertices, "vertices", 2)?;
        let n = p.len() / 2;
        let l = Polyline::try_new(vecs2(&p)).map_err(|e| value_error("vertices", e))?;
        let args = vec![("vertices", arr(p, &[n, 2]))];
        Ok(init(Polyline2D, Shape::new(Geom::D2(Shape2::Polyline(Arc::new(l))), "Polyline", args)))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Shape>()?;
    m.add_class::<Ball>()?;
    m.add_class::<Cuboid>()?;
    m.add_class::<Capsule>()?;
    m.add_class::<Cylinder>()?;
    m.add_class::<Cone>()?;
    m.add_class::<Ellipsoid>()?;
    m.add_class::<Segment>()?;
    m.add_class::<Triangle>()?;
    m.add_class::<ConvexHull>()?;
    m.add_class::<Rounded>()?;
    m.add_class::<TriMesh3>()?;
    m.add_class::<HeightField3>()?;
    m.add_class::<Compound3>()?;
    m.add_class::<Circle>()?;
    m.add_class::<Rectangle>()?;
    m.add_class::<Capsule2D>()?;
    m.add_class::<Ellipse>()?;
    m.add_class::<Segment2D>()?;
    m.add_class::<Triangle2D>()?;
    m.add_class::<ConvexPolygon>()?;
    m.add_class::<ConcavePolygon2D>()?;
    m.add_class::<Polyline2D>()?;
    Ok(())
}
