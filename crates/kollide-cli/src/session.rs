//! What `kollide query` keeps from one line to the next: the shapes defined by name
//! (`{"define": NAME, "shape": SHAPE}`, used as `{"ref": NAME}`), and the folder that
//! relative file paths start from.

use crate::answer::{evaluate, parse, Precision, Reply};
use crate::json::{InputError, Obj, Result};
use crate::space::{shape_dimensions, shape_of, Space};
use kollide::composite::MeshReport;
use kollide::math::{DVec2, DVec3, Vec2, Vec3, Vector3};
use kollide::world::{Shape2, Shape3};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The shapes defined so far, by name, in each vector type they were built in (a shape
/// whose type exists in both dimensions, a capsule, is built in both).
#[derive(Clone, Debug, Default)]
pub struct Shapes {
    pub(crate) f32_2: HashMap<String, Shape2<Vec2>>,
    pub(crate) f64_2: HashMap<String, Shape2<DVec2>>,
    pub(crate) f32_3: HashMap<String, Shape3<Vec3>>,
    pub(crate) f64_3: HashMap<String, Shape3<DVec3>>,
    /// The line each name was defined on.
    pub(crate) lines: HashMap<String, usize>,
}

/// What reading a line may use beyond the line: the folder its relative paths start from
/// (`None`: files are not read at all) and the shapes defined on earlier lines.
#[derive(Clone, Debug)]
pub struct Scope {
    folder: Option<PathBuf>,
    shapes: Arc<Shapes>,
}

impl Scope {
    /// Files relative to `folder` (`""`: the working directory), no names defined.
    #[must_use]
    pub fn in_folder(folder: impl Into<PathBuf>) -> Self {
        Self { folder: Some(folder.into()), shapes: Arc::default() }
    }

    /// No file is read: a `"file"` or `"png"` is an error (the fuzz harness's lines).
    #[must_use]
    pub fn without_files() -> Self {
        Self { folder: None, shapes: Arc::default() }
    }

    /// The shapes defined so far.
    #[must_use]
    pub fn shapes(&self) -> &Shapes {
        &self.shapes
    }

    /// The path a line's `"file"` (or `"png"`) names, read from `at`: relative paths start
    /// at the scope's folder.
    ///
    /// # Errors
    /// When this scope reads no files.
    pub fn path(&self, file: &str, at: &str) -> Result<PathBuf> {
        match &self.folder {
            Some(folder) => Ok(folder.join(file)),
            None => Err(InputError::new(at, "files are not read here")),
        }
    }
}

/// `kollide query`'s state across lines: the precision, the folder of the query file, and
/// the shapes defined so far.
#[derive(Debug)]
pub struct Session {
    precision: Precision,
    scope: Scope,
}

impl Session {
    /// A session whose relative paths start at `folder`: the query file's folder, or `""`
    /// (the working directory) for standard input.
    #[must_use]
    pub fn new(precision: Precision, folder: impl Into<PathBuf>) -> Self {
        Self { precision, scope: Scope::in_folder(folder) }
    }

    /// A session that reads no files (for the fuzz harness: any name could be a device).
    #[must_use]
    pub fn without_files(precision: Precision) -> Self {
        Self { precision, scope: Scope::without_files() }
    }

    /// The scope the next line is read in.
    #[must_use]
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// Answers line number `line` (1-based) whose text is `text`; a `define` line adds its
    /// shape to the session.
    ///
    /// Never panics: every problem with the line becomes an `{"line": n, "error": ...}` reply.
    pub fn respond(&mut self, line: usize, text: &str) -> Reply {
        self.respond_parsed(line, parse(text))
    }

    /// [`respond`](Self::respond) to a line already parsed: its text may be gone (a long
    /// line's is released before its shapes are built).
    pub(crate) fn respond_parsed(&mut self, line: usize, parsed: Result<Value>) -> Reply {
        let answered = parsed.and_then(|mut value| {
            let _packed = crate::packed::pack(&mut value);
            let top = Obj::new(&value, "")?;
            if top.opt("define").is_some() {
                return self.define(line, &top).map(|json| Reply { json, ok: true });
            }
            evaluate(line, &top, self.precision, &self.scope)
        });
        answered.unwrap_or_else(|e| crate::answer::error_reply(line, &e))
    }

    /// `{"define": NAME, "shape": SHAPE}`: builds the shape once, in the session's
    /// precision and in each dimension its type exists in, and keeps it under `NAME`.
    fn define(&mut self, line: usize, top: &Obj) -> Result<String> {
        top.only(&["define", "shape"], "in a define line")?;
        let name = match top.get("define")? {
            Value::String(s) if !s.is_empty() => s.clone(),
            Value::String(_) => return Err(InputError::new("define", "the name must not be empty")),
            other => {
                let msg =
                    format!("expected the shape's name (a string), got {}", crate::json::type_name(other));
                return Err(InputError::new("define", msg));
            }
        };
        if let Some(first) = self.scope.shapes.lines.get(&name) {
            let msg = format!("\"{name}\" is already defined (line {first}); each name is defined once");
            return Err(InputError::new("define", msg));
        }
        let shape = Obj::new(top.get("shape")?, "shape")?;
        let dims = shape_dimensions(&shape, &self.scope)?;
        let fields = match self.precision {
            Precision::F32 => define_in::<Vec2, Vec3>(&mut self.scope, &shape, dims, &name)?,
            Precision::F64 => define_in::<DVec2, DVec3>(&mut self.scope, &shape, dims, &name)?,
        };
        Arc::make_mut(&mut self.scope.shapes).lines.insert(name.clone(), line);
        let mut json = format!("{{\"line\":{line},\"defined\":{}", Value::from(name));
        for (key, value) in fields {
            json.push_str(&format!(",\"{key}\":{value}"));
        }
        json.push('}');
        Ok(json)
    }
}

/// Builds the shape of a define line in the 2D type `V2` and the 3D type `V3`, as `dims`
/// (2D, 3D) says, keeps it in `scope` under `name`, and gives the reply's fields. Both are
/// built before either is kept, so a failure keeps nothing.
fn define_in<V2: Space, V3: Space>(
    scope: &mut Scope,
    shape: &Obj,
    dims: [bool; 2],
    name: &str,
) -> Result<Vec<(&'static str, String)>> {
    let two = if dims[0] { Some(shape_of::<V2>(scope, shape)?) } else { None };
    let three = if dims[1] { Some(shape_of::<V3>(scope, shape)?) } else { None };
    let fields = match (&two, &three) {
        (_, Some(s)) => V3::counts(s),
        (Some(s), None) => V2::counts(s),
        (None, None) => Vec::new(),
    };
    let shapes = Arc::make_mut(&mut scope.shapes);
    if let Some(s) = two {
        V2::defined_mut(shapes).insert(name.to_string(), s);
    }
    if let Some(s) = three {
        V3::defined_mut(shapes).insert(name.to_string(), s);
    }
    Ok(fields)
}

/// A mesh's diagnostics as the fields of a reply, in this order: the counts, then
/// `closed` and `oriented`.
pub(crate) fn report_counts<V: Vector3>(r: &MeshReport<V>) -> Vec<(&'static str, String)> {
    let n = |x: usize| x.to_string();
    vec![
        ("triangles", n(r.triangles)),
        ("vertices", n(r.vertices)),
        ("welded_vertices", n(r.welded_vertices)),
        ("duplicate_vertices", n(r.duplicate_vertices)),
        ("unused_vertices", n(r.unused_vertices)),
        ("zero_area_triangles", n(r.zero_area_triangles)),
        ("sliver_triangles", n(r.sliver_triangles)),
        ("edges", n(r.edges)),
        ("boundary_edges", n(r.boundary_edges)),
        ("non_manifold_edges", n(r.non_manifold_edges)),
        ("misoriented_edges", n(r.misoriented_edges)),
        ("closed", r.closed.to_string()),
        ("oriented", r.oriented.to_string()),
    ]
}

/// The folder a file's relative paths start from: the folder it is in (`""`, the working
/// directory, for a bare file name).
#[must_use]
pub fn folder_of(file: &Path) -> PathBuf {
    file.parent().map(Path::to_path_buf).unwrap_or_default()
}
