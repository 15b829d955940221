//! `World` (bodies in kollide's broad phase) and the mover, `move_and_slide` for one
//! character and `move_and_slide_many` for a batch. 3D, `f64`.

use crate::arrays::{self, batch_len, row, Dim, D3};
use crate::errors::{type_error, value_error};
use crate::queries::{code, feature_name, ManifoldRows, RayRows, SWEEP_FEATURE};
use crate::shapes::Shape;
use kollide::math::DVec3;
use kollide::mover::{self, Character, MoveOutput, MoverSettings};
use kollide::world::{BodyId, BodyKind, BodyOptions, CollisionGroups, Shape3, World as KWorld, WorldError};
use pyo3::prelude::*;
use pyo3::types::{PyAny, PyDict, PyList};
use rayon::prelude::*;

/// The mover's status names, in code order (the Python enum `MoveStatus`).
pub const MOVE_STATUS: [&str; 4] = ["moved", "blocked", "max_iterations", "started_inside"];

fn world_error(arg: &str, e: &WorldError) -> PyErr {
    match e {
        WorldError::NoSuchBody(BodyId(id)) => value_error(arg, format!("no body {id} in the world")),
        other => value_error(arg, format!("{other:?}")),
    }
}

/// Body ids: an int or an array of ints.
fn ids(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<Vec<u32>> {
    if let Ok(i) = obj.extract::<i64>() {
        return u32::try_from(i)
            .map(|i| vec![i])
            .map_err(|_| value_error(arg, format!("no body {i} in the world")));
    }
    let a = arrays::read(obj, arg)?;
    a.data
        .iter()
        .map(|&x| {
            if x >= 0.0 && x <= f64::from(u32::MAX) && x == x.trunc() {
                Ok(x as u32)
            } else {
                Err(value_error(arg, format!("{x} is not a body id")))
            }
        })
        .collect()
}

/// Bodies, each a shape at a pose, in kollide's broad phase (a dynamic tree whose boxes
/// are enlarged by `margin`): batch inserts, removals and moves; rays, overlaps, closest
/// bodies and the contact pairs of a frame. 3D.
///
/// >>> import kollide, numpy as np
/// >>> w = kollide.World()
/// >>> floor = w.insert(kollide.Cuboid([10, 1, 10]), translation=[0, -1, 0])
/// >>> balls = w.insert_many([kollide.Ball(0.5)] * 2, translations=[[0, 0.4, 0], [5, 3, 0]])
/// >>> len(w), balls.tolist()
/// (3, [1, 2])
/// >>> w.ray_cast([0, 10, 0], [0, -1, 0]).body.tolist()
/// [1]
/// >>> a, b, m = w.contact_pairs()
/// >>> a.tolist(), b.tolist(), m.count.tolist()
/// ([0], [1], [1])
#[derive(Debug)]
#[pyclass(module = "kollide")]
pub struct World {
    inner: KWorld<DVec3, Shape3<DVec3>>,
}

#[pymethods]
impl World {
    #[new]
    #[pyo3(signature = (margin=0.1))]
    fn new(margin: f64) -> PyResult<Self> {
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(value_error("margin", format!("must be finite and >= 0, got {margin}")));
        }
        Ok(Self { inner: KWorld::with_margin(margin) })
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        format!("World(<{} bodies>)", self.inner.len())
    }

    /// Adds `shape` (3D) at `translation` / `rotation`; returns its body id.
    ///
    /// `kind` is `"dynamic"`, `"kinematic"` or `"static"` (a contact pair needs one dynamic
    /// body); `memberships` and `filter` are 32-bit group masks (two bodies meet when each
    /// one's memberships share a bit with the other's filter); `user_data` is any
    /// non-negative integer below 2**64, handed back by `user_data(id)`.
    ///
    /// >>> import kollide
    /// >>> w = kollide.World()
    /// >>> floor = w.insert(kollide.Cuboid([5, 0.5, 5]), [0, -0.5, 0], kind="static")
    /// >>> ball = w.insert(kollide.Ball(0.5), [0, 0.49, 0], user_data=7)
    /// >>> w.contacts().started.tolist(), w.user_data(ball)
    /// ([[0, 1]], 7)
    #[pyo3(signature = (shape, translation=None, rotation=None, *, kind="dynamic", memberships=u32::MAX, filter=u32::MAX, user_data=0))]
    #[allow(clippy::too_many_arguments)]
    fn insert(
        &mut self,
        shape: &Bound<'_, Shape>,
        translation: Option<&Bound<'_, PyAny>>,
        rotation: Option<&Bound<'_, PyAny>>,
        kind: &str,
        memberships: u32,
        filter: u32,
        user_data: u64,
    ) -> PyResult<u32> {
        let s = shape.get().d3("shape")?.clone();
        let p = arrays::poses::<D3>(translation, rotation, "translation", "rotation")?;
        if p.len() != 1 {
            return Err(value_error("translation", "one pose: use insert_many for a batch"));
        }
        let kind = match kind {
            "dynamic" => BodyKind::Dynamic,
            "kinematic" => BodyKind::Kinematic,
            "static" => BodyKind::Static,
            other => {
                return Err(value_error(
                    "kind",
                    format!("must be \"dynamic\", \"kinematic\" or \"static\", got {other:?}"),
                ))
            }
        };
        let options = BodyOptions { kind, groups: CollisionGroups::new(memberships, filter), user_data };
        let id = self.inner.insert_with(s, *p.get(0), options).map_err(|e| world_error("shape", &e))?;
        Ok(id.0)
    }

    /// The user data a body was inserted with.
    fn user_data(&self, id: u32) -> PyResult<u64> {
        self.inner
            .options(BodyId(id))
            .map(|o| o.user_data)
            .ok_or_else(|| value_error("id", format!("no body {id} in the world")))
    }

    /// Adds N bodies: `shapes` one shape or a list, `translations` (N, 3), `rotations`
    /// (N, 4), broadcast; returns their ids, an (N,) int64 array.
    #[pyo3(signature = (shapes, translations=None, rotations=None))]
    fn insert_many<'py>(
        &mut self,
        py: Python<'py>,
        shapes: &Bound<'py, PyAny>,
        translations: Option<&Bound<'py, PyAny>>,
        rotations: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let list: Vec<Bound<'py, Shape>> = match shapes.cast::<Shape>() {
            Ok(s) => vec![s.clone()],
            Err(_) => {
                shapes.extract().map_err(|_| type_error("shapes", "expected a shape or a list of shapes"))?
            }
        };
        let s: Vec<Shape3<DVec3>> = list
            .iter()
            .enumerate()
            .map(|(i, s)| s.get().d3(&format!("shapes[{i}]")).cloned())
            .collect::<PyResult<_>>()?;
        let p = arrays::poses::<D3>(translations, rotations, "translations", "rotations")?;
        let n = batch_len(&[("shapes", s.len()), ("translations", p.len())])?;
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let shape = if s.len() == 1 { &s[0] } else { &s[i] };
            let id = self
                .inner
                .insert(shape.clone(), *p.get(i))
                .map_err(|e| world_error(&format!("shapes[{i}]"), &e))?;
            out.push(i64::from(id.0));
        }
        Ok(arrays::out_i64(py, out))
    }

    /// Removes bodies (an id or an array of ids). `ValueError` for an id not in the
    /// world, before any is removed.
    fn remove(&mut self, ids: &Bound<'_, PyAny>) -> PyResult<()> {
        let ids = self::ids(ids, "ids")?;
        if let Some(i) = ids.iter().find(|&&i| self.inner.body(BodyId(i)).is_none()) {
            return Err(value_error("ids", format!("no body {i} in the world")));
        }
        for i in ids {
            self.inner.remove(BodyId(i));
        }
        Ok(())
    }

    /// Moves bodies: `ids` (N,), `translations` (N, 3), `rotations` (N, 4), broadcast.
    #[pyo3(signature = (ids, translations=None, rotations=None))]
    fn set_poses(
        &mut self,
        ids: &Bound<'_, PyAny>,
        translations: Option<&Bound<'_, PyAny>>,
        rotations: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let ids = self::ids(ids, "ids")?;
        let p = arrays::poses::<D3>(translations, rotations, "translations", "rotations")?;
        let n = batch_len(&[("ids", ids.len()), ("translations", p.len())])?;
        if let Some(i) = ids.iter().find(|&&i| self.inner.body(BodyId(i)).is_none()) {
            return Err(value_error("ids", format!("no body {i} in the world")));
        }
        for i in 0..n {
            let id = if ids.len() == 1 { ids[0] } else { ids[i] };
            self.inner.set_pose(BodyId(id), *p.get(i)).map_err(|e| world_error("ids", &e))?;
        }
        Ok(())
    }

    /// The first body each ray meets within `max_toi`: `RayResult` with `body` (-1 on a
    /// miss) and `part` (the body's part).
    #[pyo3(signature = (origins, directions, max_toi=f64::INFINITY))]
    fn ray_cast(
        &self,
        py: Python<'_>,
        origins: &Bound<'_, PyAny>,
        directions: &Bound<'_, PyAny>,
        max_toi: f64,
    ) -> PyResult<crate::queries::RayResult> {
        crate::errors::non_negative("max_toi", max_toi)?;
        let (o, rays) = crate::queries::rays::<D3>(origins, directions)?;
        let w = &self.inner;
        let out: Vec<_> = py.detach(|| {
            rays.par_iter()
                .with_min_len(16)
                .map(|r| w.ray_cast(r, max_toi).map(|f| (f.value, f.part_a, f.body.0)))
                .collect()
        });
        let mut rows = RayRows::default();
        for (i, r) in out.into_iter().enumerate() {
            let body = r.map_or(-1, |x| i64::from(x.2));
            rows.push::<D3>(r.map(|(v, p, _)| (v, p)), row(&o, 3, i), body);
        }
        rows.finish(py, 3, true)
    }

    /// The bodies `shape` at `translation` / `rotation` overlaps (touching counts), in id
    /// order: `(bodies, parts)`, int64 arrays (the body's part, -1 for a convex body).
    #[pyo3(signature = (shape, translation=None, rotation=None))]
    fn overlaps<'py>(
        &self,
        py: Python<'py>,
        shape: &Bound<'py, Shape>,
        translation: Option<&Bound<'py, PyAny>>,
        rotation: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let s = shape.get().d3("shape")?.clone();
        let p = arrays::poses::<D3>(translation, rotation, "translation", "rotation")?;
        let pose = *p.get(0);
        let w = &self.inner;
        let found = py.detach(|| w.overlaps(&s, &pose));
        let bodies = found.iter().map(|f| i64::from(f.body.0)).collect();
        let parts = found.iter().map(|f| f.part_a.map_or(-1, i64::from)).collect();
        Ok((arrays::out_i64(py, bodies), arrays::out_i64(py, parts)))
    }

    /// The body closest to `shape` at each pose (`translations` (N, 3), `rotations`
    /// (N, 4)), searching no farther than `max_distance`: a dict of arrays `body` (-1 when
    /// none), `distance` (inf when none), `point_body`, `point_shape`, `normal` (from the
    /// body to the shape), `part` (the body's part).
    #[pyo3(signature = (shape, translations=None, rotations=None, max_distance=f64::INFINITY))]
    fn closest<'py>(
        &self,
        py: Python<'py>,
        shape: &Bound<'py, Shape>,
        translations: Option<&Bound<'py, PyAny>>,
        rotations: Option<&Bound<'py, PyAny>>,
        max_distance: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        crate::errors::non_negative("max_distance", max_distance)?;
        let s = shape.get().d3("shape")?.clone();
        let p = arrays::poses::<D3>(translations, rotations, "translations", "rotations")?;
        let w = &self.inner;
        let out: Vec<_> = py.detach(|| {
            p.poses.par_iter().with_min_len(16).map(|pose| w.closest(&s, pose, max_distance)).collect()
        });
        let n = out.len();
        let (mut body, mut dist, mut pa, mut pb, mut nr, mut part) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        for f in out {
            match f {
                Some(f) => {
                    body.push(i64::from(f.body.0));
                    dist.push(f.value.distance);
                    D3::put(f.value.point_a, &mut pa);
                    D3::put(f.value.point_b, &mut pb);
                    D3::put(f.value.normal, &mut nr);
                    part.push(f.part_a.map_or(-1, i64::from));
                }
                None => {
                    body.push(-1);
                    dist.push(f64::INFINITY);
                    for v in [&mut pa, &mut pb, &mut nr] {
                        v.extend_from_slice(&[f64::NAN; 3]);
                    }
                    part.push(-1);
                }
            }
        }
        let d = PyDict::new(py);
        d.set_item("body", arrays::out_i64(py, body))?;
        d.set_item("distance", arrays::out_f64(py, dist, &[n])?)?;
        d.set_item("point_body", arrays::out_f64(py, pa, &[n, 3])?)?;
        d.set_item("point_shape", arrays::out_f64(py, pb, &[n, 3])?)?;
        d.set_item("normal", arrays::out_f64(py, nr, &[n, 3])?)?;
        d.set_item("part", arrays::out_i64(py, part))?;
        Ok(d)
    }

    /// The contact pairs of this frame (only moved bodies are searched again): `(a, b,
    /// manifolds)`, the body ids (a < b) and a `ManifoldResult` with a row per pair whose
    /// manifold has points within `margin`.
    #[pyo3(signature = (margin=0.0))]
    fn contact_pairs<'py>(
        &mut self,
        py: Python<'py>,
        margin: f64,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, crate::queries::ManifoldResult)> {
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(value_error("margin", format!("must be finite and >= 0, got {margin}")));
        }
        let w = &mut self.inner;
        let pairs = py.detach(|| w.contact_pairs(margin));
        let mut rows = ManifoldRows::default();
        let (mut a, mut b) = (vec![], vec![]);
        for p in &pairs {
            a.push(i64::from(p.a.0));
            b.push(i64::from(p.b.0));
            rows.push::<D3>(&p.manifold);
        }
        Ok((arrays::out_i64(py, a), arrays::out_i64(py, b), rows.finish(py, 3)?))
    }

    /// The contacts of this frame and what changed since the last: `.a`, `.b` (body ids,
    /// a < b, (K,) int64) and `.manifolds` for the pairs in contact within `margin`, and
    /// `.started` and `.stopped`, (M, 2) int64 arrays of the pairs that began and ended
    /// touching (a removed body's pairs end under its old id). Each pair keeps its manifold
    /// between frames (see kollide's `World::contacts`).
    #[pyo3(signature = (margin=0.0))]
    fn contacts<'py>(&mut self, py: Python<'py>, margin: f64) -> PyResult<Contacts> {
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(value_error("margin", format!("must be finite and >= 0, got {margin}")));
        }
        let w = &mut self.inner;
        let frame = py.detach(|| w.contacts(margin));
        let mut rows = ManifoldRows::default();
        let (mut a, mut b) = (vec![], vec![]);
        for p in &frame.pairs {
            a.push(i64::from(p.a.0));
            b.push(i64::from(p.b.0));
            rows.push::<D3>(&p.manifold);
        }
        let pairs = |list: &[(BodyId, BodyId)]| -> PyResult<Py<PyAny>> {
            let flat: Vec<i64> = list.iter().flat_map(|(p, q)| [i64::from(p.0), i64::from(q.0)]).collect();
            let arr = numpy::PyArrayMethods::reshape(&numpy::PyArray1::from_vec(py, flat), [list.len(), 2])?;
            Ok(arr.into_any().unbind())
        };
        Ok(Contacts {
            a: arrays::out_i64(py, a).unbind(),
            b: arrays::out_i64(py, b).unbind(),
            manifolds: Py::new(py, rows.finish(py, 3)?)?.into_any(),
            started: pairs(&frame.started)?,
            stopped: pairs(&frame.stopped)?,
        })
    }
}

/// The answer of `World.contacts`: numpy arrays.
///
/// >>> import kollide
/// >>> w = kollide.World()
/// >>> a, b = w.insert(kollide.Ball(0.5)), w.insert(kollide.Ball(0.5), [0.9, 0, 0])
/// >>> c = w.contacts()
/// >>> c.a.tolist(), c.b.tolist(), c.started.tolist(), c.stopped.shape
/// ([0], [1], [[0, 1]], (0, 2))
#[derive(Debug)]
#[pyclass(module = "kollide", frozen, get_all)]
pub struct Contacts {
    /// Body ids of the pairs in contact (the manifold's A), (K,) int64.
    a: Py<PyAny>,
    /// The other bodies, (K,) int64.
    b: Py<PyAny>,
    /// Their manifolds, a `ManifoldResult` with K rows.
    manifolds: Py<PyAny>,
    /// Pairs that began touching, (M, 2) int64.
    started: Py<PyAny>,
    /// Pairs that stopped touching, (M, 2) int64.
    stopped: Py<PyAny>,
}

/// The character and settings of a move.
fn character(shape: &Bound<'_, Shape>) -> PyResult<Character<DVec3>> {
    use kollide::shape::Convex3 as C;
    use kollide::world::Shape3 as S;
    let s = shape.get();
    match s.d3("character")? {
        S::Convex(C::Ball(b)) => Ok(Character::Ball { radius: b.radius }),
        S::Convex(C::Ellipsoid(e)) => Ok(Character::Ellipsoid { radii: e.radii }),
        S::Convex(C::Capsule(c)) => Ok(Character::Capsule { half_height: c.half_height, radius: c.radius }),
        _ => Err(type_error(
            "character",
            format!("expected a Ball, an Ellipsoid or a Capsule (upright), got {}", s.class()),
        )),
    }
}

#[allow(clippy::too_many_arguments)]
fn settings(
    skin: f64,
    max_iterations: u32,
    up: Option<&Bound<'_, PyAny>>,
    max_slope: f64,
    step_height: f64,
    snap_to_ground: f64,
    climb_walls: bool,
) -> PyResult<MoverSettings<DVec3>> {
    let up = arrays::rows_or(up, "up", 3, &[0.0, 1.0, 0.0])?;
    if up.len() != 3 {
        return Err(value_error("up", "one direction, shape (3,)"));
    }
    let s = MoverSettings {
        skin,
        max_iterations,
        up: D3::vec(&up),
        max_slope,
        step_height,
        snap_to_ground,
        climb_walls,
    };
    s.validate().map_err(|e| match e {
        mover::MoverError::BadSetting { name, value, why } => {
            value_error(name, format!("{why}, got {value}"))
        }
        other => value_error("settings", other),
    })?;
    Ok(s)
}

fn move_error(e: &mover::MoverError, i: Option<usize>) -> PyErr {
    let at = |name: &str| i.map_or(name.to_string(), |i| format!("{name}s[{i}]"));
    match e {
        mover::MoverError::NonFinite { what, .. } => value_error(&at(what), e),
        mover::MoverError::BadCharacter { .. } => value_error("character", e),
        _ => value_error("settings", e),
    }
}

/// What one move did.
#[derive(Debug)]
#[pyclass(frozen, get_all, module = "kollide")]
pub struct MoveResult {
    /// (3,) where the character ended.
    position: Py<PyAny>,
    /// (3,) the displacement made.
    displacement: Py<PyAny>,
    /// Whether it stands on walkable ground.
    grounded: bool,
    /// (3,) the ground's normal, or None.
    ground_normal: Py<PyAny>,
    /// The body of the ground, -1 for none.
    ground_body: i64,
    /// The `MoveStatus` code.
    status: i8,
    /// Iterations used.
    iterations: u32,
    /// The contacts of the step: a list of dicts with `point`, `normal`, `body`, `part`
    /// and `feature` (a `SweepFeature` code).
    contacts: Py<PyAny>,
}

#[pymethods]
impl MoveResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "MoveResult(position={}, grounded={}, status={})",
            self.position.bind(py).repr()?,
            if self.grounded { "True" } else { "False" },
            self.status
        ))
    }
}

fn move_result(py: Python<'_>, o: &MoveOutput<DVec3>) -> PyResult<MoveResult> {
    let v = |x: DVec3| -> PyResult<Py<PyAny>> {
        let mut d = Vec::new();
        D3::put(x, &mut d);
        Ok(arrays::out_f64(py, d, &[3])?.unbind())
    };
    let contacts = PyList::empty(py);
    for c in &o.contacts {
        let d = PyDict::new(py);
        d.set_item("point", v(c.point)?)?;
        d.set_item("normal", v(c.normal)?)?;
        d.set_item("body", c.body.0)?;
        d.set_item("part", c.part.map_or(-1, i64::from))?;
        d.set_item("feature", code(&SWEEP_FEATURE, feature_name(c.feature)))?;
        contacts.append(d)?;
    }
    Ok(MoveResult {
        position: v(o.position)?,
        displacement: v(o.displacement)?,
        grounded: o.grounded(),
        ground_normal: match o.ground {
            Some(g) => v(g.normal)?,
            None => py.None(),
        },
        ground_body: o.ground.map_or(-1, |g| i64::from(g.body.0)),
        status: code(&MOVE_STATUS, o.status.as_str()),
        iterations: o.iterations,
        contacts: contacts.into_any().unbind(),
    })
}

/// Moves `character` (an upright Ball, Ellipsoid or Capsule centred on `position`) by
/// the wanted `displacement` through `world`, sliding along what it meets, climbing
/// steps up to `step_height` and keeping slopes up to `max_slope` (radians) walkable.
/// The caller adds gravity to the displacement. Returns a `MoveResult`.
///
/// >>> import kollide
/// >>> w = kollide.World()
/// >>> _ = w.insert(kollide.Cuboid([10, 1, 10]), translation=[0, -1, 0])
/// >>> r = kollide.move_and_slide(w, kollide.Ball(0.5), [0, 0.6, 0], [1.0, -0.5, 0])
/// >>> r.position.round(3).tolist(), r.grounded, kollide.MoveStatus(r.status).name
/// ([1.0, 0.501, 0.0], True, 'MOVED')
#[pyfunction]
#[pyo3(signature = (world, character, position, displacement, *, skin=0.001, max_iterations=8, up=None, max_slope=0.8, step_height=0.0, snap_to_ground=0.0, climb_walls=false))]
#[allow(clippy::too_many_arguments)]
pub fn move_and_slide(
    py: Python<'_>,
    world: PyRef<'_, World>,
    character: &Bound<'_, Shape>,
    position: &Bound<'_, PyAny>,
    displacement: &Bound<'_, PyAny>,
    skin: f64,
    max_iterations: u32,
    up: Option<&Bound<'_, PyAny>>,
    max_slope: f64,
    step_height: f64,
    snap_to_ground: f64,
    climb_walls: bool,
) -> PyResult<MoveResult> {
    let ch = self::character(character)?;
    let s = settings(skin, max_iterations, up, max_slope, step_height, snap_to_ground, climb_walls)?;
    let p = arrays::rows(position, "position", 3, false)?;
    let d = arrays::rows(displacement, "displacement", 3, false)?;
    if p.len() != 3 || d.len() != 3 {
        return Err(value_error("position", "one character: use move_and_slide_many for a batch"));
    }
    let w = &world.inner;
    let out = py
        .detach(|| mover::move_and_slide(w, &ch, D3::vec(&p), D3::vec(&d), &s, None))
        .map_err(|e| move_error(&e, None))?;
    move_result(py, &out)
}

/// `move_and_slide` for N characters of the same shape at once (on all cores), each
/// against the world as it stands (the characters do not see each other): `positions`
/// and `displacements` (N, 3). Returns a dict of arrays: `position`, `displacement`
/// (N, 3), `grounded` (N,), `ground_normal` (N, 3) (NaN when not grounded),
/// `ground_body` (N,) (-1), `status` (N,) `MoveStatus` codes, `contacts` (N,) counts.
///
/// >>> import kollide, numpy as np
/// >>> w = kollide.World()
/// >>> _ = w.insert(kollide.Cuboid([10, 1, 10]), translation=[0, -1, 0])
/// >>> r = kollide.move_and_slide_many(w, kollide.Ball(0.5), [[0, 0.6, 0], [2, 3, 0]], [0, -0.5, 0])
/// >>> r["grounded"].tolist()
/// [True, False]
#[pyfunction]
#[pyo3(signature = (world, character, positions, displacements, *, skin=0.001, max_iterations=8, up=None, max_slope=0.8, step_height=0.0, snap_to_ground=0.0, climb_walls=false))]
#[allow(clippy::too_many_arguments)]
pub fn move_and_slide_many<'py>(
    py: Python<'py>,
    world: PyRef<'py, World>,
    character: &Bound<'py, Shape>,
    positions: &Bound<'py, PyAny>,
    displacements: &Bound<'py, PyAny>,
    skin: f64,
    max_iterations: u32,
    up: Option<&Bound<'py, PyAny>>,
    max_slope: f64,
    step_height: f64,
    snap_to_ground: f64,
    climb_walls: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let ch = self::character(character)?;
    let s = settings(skin, max_iterations, up, max_slope, step_height, snap_to_ground, climb_walls)?;
    let p = arrays::rows(positions, "positions", 3, true)?;
    let d = arrays::rows(displacements, "displacements", 3, true)?;
    let n = batch_len(&[("positions", p.len() / 3), ("displacements", d.len() / 3)])?;
    let w = &world.inner;
    let out: Vec<_> = py.detach(|| {
        (0..n)
            .into_par_iter()
            .with_min_len(4)
            .map(|i| mover::move_and_slide(w, &ch, D3::vec(row(&p, 3, i)), D3::vec(row(&d, 3, i)), &s, None))
            .collect()
    });
    let (mut pos, mut disp, mut gr, mut gn, mut gb, mut st, mut nc) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    for (i, o) in out.into_iter().enumerate() {
        let o = o.map_err(|e| move_error(&e, Some(i)))?;
        D3::put(o.position, &mut pos);
        D3::put(o.displacement, &mut disp);
        gr.push(o.grounded());
        match o.ground {
            Some(g) => {
                D3::put(g.normal, &mut gn);
                gb.push(i64::from(g.body.0));
            }
            None => {
                gn.extend_from_slice(&[f64::NAN; 3]);
                gb.push(-1);
            }
        }
        st.push(code(&MOVE_STATUS, o.status.as_str()));
        nc.push(o.contacts.len() as i64);
    }
    let r = PyDict::new(py);
    r.set_item("position", arrays::out_f64(py, pos, &[n, 3])?)?;
    r.set_item("displacement", arrays::out_f64(py, disp, &[n, 3])?)?;
    r.set_item("grounded", arrays::out_bool(py, gr))?;
    r.set_item("ground_normal", arrays::out_f64(py, gn, &[n, 3])?)?;
    r.set_item("ground_body", arrays::out_i64(py, gb))?;
    r.set_item("status", arrays::out_i8(py, st))?;
    r.set_item("contacts", arrays::out_i64(py, nc))?;
    Ok(r)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<World>()?;
    m.add_class::<MoveResult>()?;
    m.add_class::<Contacts>()?;
    m.add_function(wrap_pyfunction!(move_and_slide, m)?)?;
    m.add_function(wrap_pyfunction!(move_and_slide_many, m)?)?;
    m.add("MOVE_STATUS", MOVE_STATUS.to_vec())?;
    Ok(())
}
