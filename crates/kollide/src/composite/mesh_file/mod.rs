//! Triangle meshes from files: OBJ, STL (ASCII and binary), PLY (ASCII and binary) and
//! glTF (`.gltf` and `.glb`), each behind a cargo feature of its own (`obj`, `stl`, `ply`,
//! `gltf`).
//!
//! Every reader produces the same thing, a soup in `f64`: positions and triangles over
//! them, in the order the file stores them, polygons fanned from their first corner. The
//! mesh is then built by [`TriMesh::try_new_welded`], so vertices at the same position
//! (every corner of a binary STL file is stored on its own) become one and the mesh has its
//! adjacency.

#[cfg(feature = "gltf")]
mod gltf;
#[cfg(feature = "obj")]
mod obj;
#[cfg(feature = "ply")]
mod ply;
#[cfg(feature = "stl")]
mod stl;

use super::{TriMesh, TriMeshError, Weld};
use crate::math::Vector3;
use crate::query::Space;
use core::fmt;
use std::path::Path;

/// A mesh file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MeshFormat {
    /// Wavefront OBJ (`.obj`): `v` and `f` statements (feature `obj`).
    Obj,
    /// STL (`.stl`), ASCII or binary (feature `stl`).
    Stl,
    /// PLY (`.ply`), ASCII or binary of either byte order (feature `ply`).
    Ply,
    /// glTF 2.0, as JSON (`.gltf`) or binary (`.glb`) (feature `gltf`).
    Gltf,
}

impl MeshFormat {
    /// The format a path's extension names (`.obj`, `.stl`, `.ply`, `.gltf`, `.glb`, in any
    /// case), if any.
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "obj" => Some(Self::Obj),
            "stl" => Some(Self::Stl),
            "ply" => Some(Self::Ply),
            "gltf" | "glb" => Some(Self::Gltf),
            _ => None,
        }
    }

    /// The format's name, as messages write it (`"OBJ"`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Obj => "OBJ",
            Self::Stl => "STL",
            Self::Ply => "PLY",
            Self::Gltf => "glTF",
        }
    }

    /// The cargo feature of kollide that reads the format.
    #[must_use]
    pub fn feature(self) -> &'static str {
        match self {
            Self::Obj => "obj",
            Self::Stl => "stl",
            Self::Ply => "ply",
            Self::Gltf => "gltf",
        }
    }

    /// Whether this build of kollide reads the format (its feature is on).
    #[must_use]
    pub fn is_enabled(self) -> bool {
        match self {
            Self::Obj => cfg!(feature = "obj"),
            Self::Stl => cfg!(feature = "stl"),
            Self::Ply => cfg!(feature = "ply"),
            Self::Gltf => cfg!(feature = "gltf"),
        }
    }
}

impl fmt::Display for MeshFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What kind of problem a [`MeshFileError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MeshFileErrorKind {
    /// The file could not be read (missing, a folder, a device, no permission).
    Io,
    /// The path's extension names no mesh format.
    UnknownFormat,
    /// The format's cargo feature is off in this build.
    FeatureOff,
    /// The content does not follow the format.
    Syntax,
    /// A triangle names a vertex that does not exist.
    IndexOutOfRange,
    /// A face with fewer than 3 vertices.
    TooFewVertices,
    /// A coordinate that is NaN or infinite (or beyond the range of `f32` for an `f32`
    /// mesh), also after a glTF node's transform.
    NonFinite,
    /// Valid in the format, but not something kollide reads (a sparse or quantized glTF
    /// accessor, an external glTF buffer read from bytes).
    Unsupported,
    /// No triangles (or no vertices) in the file.
    Empty,
    /// More vertices or triangles than `u32` indices address.
    TooLarge,
}

/// Why a mesh file could not be read: the file, where in it, and what is wrong.
///
/// Displayed as `FILE: WHERE: WHAT`, for example `bunny.obj: line 12: vertex index 9 is out
/// of range: 8 vertices are defined before this line`. `WHERE` is a line (OBJ, ASCII PLY),
/// an element counted from 0 (`facets[3]` of an STL file, `face[17]` of a PLY file), or a
/// glTF object by its JSON path (`meshes[0].primitives[1]`); it is empty when the problem
/// is the file as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshFileError {
    /// The file, as the path was given (`"bytes"` for [`TriMesh::from_bytes`]).
    pub file: String,
    /// Where in the file; empty for the whole file.
    pub at: String,
    /// What kind of problem.
    pub kind: MeshFileErrorKind,
    /// What is wrong, in words.
    pub message: String,
}

impl MeshFileError {
    pub(crate) fn new(kind: MeshFileErrorKind, at: impl Into<String>, message: impl Into<String>) -> Self {
        Self { file: String::new(), at: at.into(), kind, message: message.into() }
    }

    fn in_file(mut self, file: &str) -> Self {
        self.file = file.to_string();
        self
    }
}

impl fmt::Display for MeshFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.file.is_empty() {
            write!(f, "{}: ", self.file)?;
        }
        if !self.at.is_empty() {
            write!(f, "{}: ", self.at)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for MeshFileError {}

/// What a reader gives: positions in `f64` and triangles over them, in file order.
#[derive(Debug, Default)]
pub(crate) struct Soup {
    pub positions: Vec<[f64; 3]>,
    pub triangles: Vec<[u32; 3]>,
}

/// What a reader needs besides the bytes.
pub(crate) struct ReadContext<'a> {
    /// The largest magnitude a coordinate may have: `f32::MAX` for an `f32` mesh.
    pub max_coordinate: f64,
    /// The folder of the file, for the external buffers of a glTF file; `None` when read
    /// from bytes.
    #[cfg_attr(not(feature = "gltf"), allow(dead_code))]
    pub folder: Option<&'a Path>,
}

impl ReadContext<'_> {
    /// Checks one coordinate: finite and within the mesh's range. `axis` is 0, 1 or 2.
    #[cfg_attr(
        not(any(feature = "obj", feature = "stl", feature = "ply", feature = "gltf")),
        allow(dead_code)
    )]
    pub fn coordinate(&self, x: f64, axis: usize, at: impl FnOnce() -> String) -> Result<f64, MeshFileError> {
        if x.is_finite() && x.abs() <= self.max_coordinate {
            return Ok(x);
        }
        let name = ["x", "y", "z"][axis.min(2)];
        let message = if x.is_finite() {
            format!("coordinate {name} = {x:e} is beyond the range of f32")
        } else {
            format!("coordinate {name} is not finite ({x})")
        };
        Err(MeshFileError::new(MeshFileErrorKind::NonFinite, at(), message))
    }
}

impl<V: Vector3 + Space> TriMesh<V> {
    /// The mesh in a file, its format chosen by the extension (`.obj`, `.stl`, `.ply`,
    /// `.gltf`, `.glb`), its vertices welded as `weld` says ([`Weld::Exact`] joins the
    /// corners a soup repeats). Triangles keep the file's order; polygons are fanned from
    /// their first corner. The formats' own rules:
    ///
    /// - **OBJ**: `v x y z` (further numbers, a weight or a colour, are ignored) and
    ///   `f i j k ...` with 1-based indices, negative ones counting back from the last
    ///   vertex defined, each optionally followed by `/vt/vn`; every other statement (lines,
    ///   points, texture coordinates, groups, materials) is skipped.
    /// - **STL**: ASCII (`solid ...`) or binary (a file of exactly 84 + 50 n bytes is binary
    ///   even when its header starts with `solid`). The stored normals are not used: the
    ///   winding gives the front, as in the other formats.
    /// - **PLY**: the `vertex` element's `x`, `y`, `z`; the `face` element's `vertex_indices`
    ///   (or `vertex_index`), polygons fanned; the `tristrips` element's `vertex_indices`,
    ///   strips split at `-1`, every other triangle turned to keep the strip's winding, and
    ///   the triangles with a repeated corner (the stitches between strips) skipped. Other
    ///   elements and properties are skipped.
    /// - **glTF**: every triangle primitive (`TRIANGLES`, `TRIANGLE_STRIP`, `TRIANGLE_FAN`;
    ///   points and lines are skipped) of every mesh a node places, in the default scene
    ///   (else the first; a file without scenes: every root node; without nodes: every
    ///   mesh as it is), with the node's transform composed with its parents'. A mesh placed
    ///   by two nodes is there twice. A transform that mirrors (negative determinant) swaps
    ///   two corners of each triangle, as glTF's rule on the winding says, so the front
    ///   stays the front. Buffers are the `.glb` file's binary chunk, base64 `data:` URIs,
    ///   or files beside the `.gltf` file.
    ///
    /// ```no_run
    /// use kollide::composite::{TriMesh, Weld};
    /// use kollide::math::DVec3;
    /// let bunny = TriMesh::<DVec3>::from_file("bunny.obj", Weld::Exact).unwrap();
    /// println!("{} triangles", bunny.triangle_count());
    /// ```
    ///
    /// # Errors
    /// [`MeshFileError`] naming the file, the line or element and what is wrong: a file
    /// that cannot be read, an extension of no format or of a format whose feature is off,
    /// malformed content, a vertex index out of range, a face with fewer than 3 vertices, a
    /// non-finite coordinate (or one beyond `f32` for an `f32` mesh), no triangles.
    pub fn from_file(path: impl AsRef<Path>, weld: Weld) -> Result<Self, MeshFileError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let Some(format) = MeshFormat::from_path(path) else {
            let message = "unknown mesh format: the extension must be .obj, .stl, .ply, .gltf or .glb";
            return Err(MeshFileError::new(MeshFileErrorKind::UnknownFormat, "", message).in_file(&name));
        };
        let io =
            |e: std::io::Error| MeshFileError::new(MeshFileErrorKind::Io, "", format!("cannot read: {e}"));
        // A device or a pipe could be endless (`/dev/zero`): only plain files are read.
        let meta = std::fs::metadata(path).map_err(|e| io(e).in_file(&name))?;
        if !meta.is_file() {
            let what = if meta.is_dir() { "a folder" } else { "not a plain file" };
            return Err(
                MeshFileError::new(MeshFileErrorKind::Io, "", format!("cannot read: {what}")).in_file(&name)
            );
        }
        let bytes = std::fs::read(path).map_err(|e| io(e).in_file(&name))?;
        let folder = path.parent().unwrap_or(Path::new(""));
        Self::from_soup_bytes(&bytes, format, weld, Some(folder)).map_err(|e| e.in_file(&name))
    }

    /// [`from_file`](Self::from_file) on the bytes of a file in `format` (a glTF file's
    /// buffers must then be inside it: the `.glb` binary chunk or `data:` URIs). Errors name
    /// the file as `bytes`.
    ///
    /// ```
    /// # #[cfg(feature = "obj")] {
    /// use kollide::composite::{MeshFormat, TriMesh, Weld};
    /// use kollide::math::DVec3;
    /// let square = b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";
    /// let mesh = TriMesh::<DVec3>::from_bytes(square, MeshFormat::Obj, Weld::Exact).unwrap();
    /// assert_eq!(mesh.indices(), &[[0, 1, 2], [0, 2, 3]]); // the quad, fanned
    /// let bad = TriMesh::<DVec3>::from_bytes(b"v 0 0 0\nf 1 2 3\n", MeshFormat::Obj, Weld::Exact);
    /// assert_eq!(
    ///     bad.unwrap_err().to_string(),
    ///     "bytes: line 2: vertex index 2 is out of range: 1 vertex is defined before this line"
    /// );
    /// # }
    /// ```
    ///
    /// # Errors
    /// As [`from_file`](Self::from_file).
    pub fn from_bytes(bytes: &[u8], format: MeshFormat, weld: Weld) -> Result<Self, MeshFileError> {
        Self::from_soup_bytes(bytes, format, weld, None).map_err(|e| e.in_file("bytes"))
    }

    fn from_soup_bytes(
        bytes: &[u8],
        format: MeshFormat,
        weld: Weld,
        folder: Option<&Path>,
    ) -> Result<Self, MeshFileError> {
        let max_coordinate =
            if core::mem::size_of::<V::Real>() == 4 { f64::from(f32::MAX) } else { f64::MAX };
        let cx = ReadContext { max_coordinate, folder };
        let soup = read_soup(bytes, format, &cx)?;
        let positions: Vec<V> = soup.positions.iter().map(|&p| V::from_f64_array(p)).collect();
        TriMesh::try_new_welded(positions, soup.triangles, weld).map_err(|e| mesh_error(&e, format))
    }
}

/// The soup in `bytes`, by the reader of `format`.
fn read_soup(bytes: &[u8], format: MeshFormat, cx: &ReadContext<'_>) -> Result<Soup, MeshFileError> {
    let _ = (bytes, cx);
    match format {
        #[cfg(feature = "obj")]
        MeshFormat::Obj => obj::read(bytes, cx),
        #[cfg(feature = "stl")]
        MeshFormat::Stl => stl::read(bytes, cx),
        #[cfg(feature = "ply")]
        MeshFormat::Ply => ply::read(bytes, cx),
        #[cfg(feature = "gltf")]
        MeshFormat::Gltf => gltf::read(bytes, cx),
        #[allow(unreachable_patterns)]
        other => Err(MeshFileError::new(
            MeshFileErrorKind::FeatureOff,
            "",
            format!(
                "reading {} files needs kollide's `{}` feature, which is off in this build",
                other,
                other.feature()
            ),
        )),
    }
}

/// The error of building the mesh from a soup whose readers checked every index and
/// coordinate: what is left is an empty file or one too large for `u32` indices.
fn mesh_error(e: &TriMeshError, format: MeshFormat) -> MeshFileError {
    match e {
        TriMeshError::Empty { what } => {
            let what = if *what == "vertices" { "no vertices" } else { "no triangles" };
            MeshFileError::new(MeshFileErrorKind::Empty, "", format!("the {format} file has {what}"))
        }
        TriMeshError::TooLarge { .. } => MeshFileError::new(MeshFileErrorKind::TooLarge, "", e.to_string()),
        TriMeshError::BadWeldTolerance { .. } => {
            MeshFileError::new(MeshFileErrorKind::Syntax, "", e.to_string())
        }
        _ => MeshFileError::new(MeshFileErrorKind::Syntax, "", e.to_string()),
    }
}

/// Fans a polygon's corners from the first: `(c0, c1, c2), (c0, c2, c3), ...`; exact for
/// convex polygons.
#[cfg_attr(not(any(feature = "obj", feature = "ply")), allow(dead_code))]
pub(crate) fn fan(corners: &[u32], out: &mut Vec<[u32; 3]>) {
    for k in 1..corners.len().saturating_sub(1) {
        out.push([corners[0], corners[k], corners[k + 1]]);
    }
}

/// The triangles of a strip (`v0 v1 v2 v3 ...`): triangle `k` is `(v_k, v_k+1, v_k+2)`
/// turned every other time, `(v_k, v_k+2, v_k+1)` for odd `k`, so all share the first's
/// winding. Triangles with a repeated corner, which join one strip to the next, are skipped.
#[cfg_attr(not(any(feature = "ply", feature = "gltf")), allow(dead_code))]
pub(crate) fn strip(corners: &[u32], out: &mut Vec<[u32; 3]>) {
    for k in 0..corners.len().saturating_sub(2) {
        let (a, b, c) = (corners[k], corners[k + 1], corners[k + 2]);
        if a == b || b == c || a == c {
            continue;
        }
        out.push(if k % 2 == 0 { [a, b, c] } else { [a, c, b] });
    }
}

/// `"1 vertex"`, `"8 vertices"`.
#[cfg_attr(not(any(feature = "obj", feature = "ply", feature = "gltf")), allow(dead_code))]
pub(crate) fn vertices(n: usize) -> String {
    if n == 1 {
        "1 vertex".to_string()
    } else {
        format!("{n} vertices")
    }
}
