//! glTF 2.0, JSON (`.gltf`) or binary (`.glb`), through the `gltf` crate, which splits a
//! GLB file and parses the JSON. The crate's validation is not used (it indexes the
//! document's arrays without checking, and panics on a POSITION naming no accessor): every
//! index, offset and length is checked here, against the document and the buffers, so a
//! file that lies about its sizes is an error naming the object.

use super::{strip, vertices, MeshFileError, MeshFileErrorKind, ReadContext, Soup};
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine;
use gltf::json::accessor::{ComponentType, Type};
use gltf::json::mesh::{Mode, Semantic};
use gltf::json::validation::Checked;
use gltf::json::{Accessor, Root};
use std::borrow::Cow;

/// A 4x4 matrix acting on column vectors, stored by columns as glTF stores it: a point `p`
/// maps to `Σ_c m[c] p_c + m[3]`.
type Matrix = [[f64; 4]; 4];

const IDENTITY: Matrix =
    [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];

fn syntax(at: impl Into<String>, message: impl Into<String>) -> MeshFileError {
    MeshFileError::new(MeshFileErrorKind::Syntax, at, message)
}

/// The soup of a glTF file: every triangle primitive of every placed mesh, in world space.
pub(crate) fn read(bytes: &[u8], cx: &ReadContext<'_>) -> Result<Soup, MeshFileError> {
    check_glb_header(bytes)?;
    let file = gltf::Gltf::from_slice_without_validation(bytes).map_err(|e| gltf_error(&e))?;
    let root = file.document.as_json();
    let buffers: Vec<Result<Cow<'_, [u8]>, MeshFileError>> =
        (0..root.buffers.len()).map(|b| buffer_data(root, b, file.blob.as_deref(), cx)).collect();
    let mut reader = Reader { root, buffers, soup: Soup::default(), cx };

    let scene = match root.scene {
        Some(s) => Some((s.value(), "scene")),
        None if !root.scenes.is_empty() => Some((0, "scenes")),
        None => None,
    };
    let roots: Vec<usize> = match scene {
        Some((s, field)) => {
            let Some(scene) = root.scenes.get(s) else {
                return Err(syntax(
                    field,
                    format!("scene {s} does not exist: there are {} scenes", root.scenes.len()),
                ));
            };
            scene.nodes.iter().map(|n| n.value()).collect()
        }
        None if root.nodes.is_empty() => {
            // No nodes to place the meshes: each as it is.
            for m in 0..root.meshes.len() {
                reader.mesh(m, &IDENTITY, "meshes")?;
            }
            return Ok(reader.soup);
        }
        None => root_nodes(root),
    };
    check_parents(root)?;
    // Depth first, each node before its children, children in order.
    let mut stack: Vec<(usize, Matrix, usize)> = roots.iter().rev().map(|&n| (n, IDENTITY, 0)).collect();
    while let Some((n, parent, depth)) = stack.pop() {
        let at = || format!("nodes[{n}]");
        let Some(node) = root.nodes.get(n) else {
            return Err(syntax(at(), format!("no such node: there are {}", root.nodes.len())));
        };
        if depth > root.nodes.len() {
            return Err(syntax(at(), "the node hierarchy has a cycle"));
        }
        let world = multiply(&parent, &local(node, &at)?);
        if let Some(mesh) = node.mesh {
            reader.mesh(mesh.value(), &world, &at())?;
        }
        let children = node.children.as_deref().unwrap_or(&[]);
        stack.extend(children.iter().rev().map(|c| (c.value(), world, depth + 1)));
    }
    Ok(reader.soup)
}

/// A GLB file's 12-byte header: the crate subtracts 12 from the length it gives, which
/// overflowed for a length under 12 (found by the fuzz target `mesh_files`).
fn check_glb_header(bytes: &[u8]) -> Result<(), MeshFileError> {
    if !bytes.starts_with(b"glTF") {
        return Ok(());
    }
    let Some(length) = bytes.get(8..12) else {
        return Err(syntax("", "not a valid GLB file: it ends inside its 12-byte header"));
    };
    let length = u32::from_le_bytes([length[0], length[1], length[2], length[3]]);
    if length < 12 {
        return Err(syntax(
            "",
            format!(
                "not a valid GLB file: its header gives a length of {length} bytes, less than the header"
            ),
        ));
    }
    Ok(())
}

/// The crate's error, as one line.
fn gltf_error(e: &gltf::Error) -> MeshFileError {
    let message = match e {
        gltf::Error::Binary(e) => format!("not a valid GLB file: {e}"),
        other => format!("not a glTF document kollide can read: {other}"),
    };
    syntax("", message)
}

/// The nodes no node names as a child, in order: the roots of a file without scenes.
fn root_nodes(root: &Root) -> Vec<usize> {
    let mut child = vec![false; root.nodes.len()];
    for node in &root.nodes {
        for c in node.children.iter().flatten() {
            if let Some(slot) = child.get_mut(c.value()) {
                *slot = true;
            }
        }
    }
    (0..child.len()).filter(|&n| !child[n]).collect()
}

/// glTF's rule that a node has at most one parent, which keeps the walk a walk over a
/// forest (a node named twice would be visited once per path to it, doubling each time).
fn check_parents(root: &Root) -> Result<(), MeshFileError> {
    let mut parent = vec![None; root.nodes.len()];
    for (n, node) in root.nodes.iter().enumerate() {
        for c in node.children.iter().flatten() {
            let at = || format!("nodes[{n}].children");
            let Some(slot) = parent.get_mut(c.value()) else {
                return Err(syntax(at(), format!("no node {}: there are {}", c.value(), root.nodes.len())));
            };
            if let Some(p) = *slot {
                return Err(syntax(at(), format!("nodes[{}] is also a child of nodes[{p}]", c.value())));
            }
            *slot = Some(n);
        }
    }
    Ok(())
}

/// A node's own transform as a matrix in `f64`: its `matrix`, or translation · rotation ·
/// scale. The rotation must be a unit quaternion (to the rounding of its `f32`s).
fn local(node: &gltf::json::Node, at: &impl Fn() -> String) -> Result<Matrix, MeshFileError> {
    if let Some(m) = node.matrix {
        let m = m.map(f64::from);
        return Ok([
            [m[0], m[1], m[2], m[3]],
            [m[4], m[5], m[6], m[7]],
            [m[8], m[9], m[10], m[11]],
            [m[12], m[13], m[14], m[15]],
        ]);
    }
    let [x, y, z, w] = node.rotation.map_or([0.0, 0.0, 0.0, 1.0], |q| q.0.map(f64::from));
    let norm = (x * x + y * y + z * z + w * w).sqrt();
    // NaN is no unit either.
    let unit = (norm - 1.0).abs() <= 1e-3;
    if !unit {
        let msg = format!("the rotation [{x}, {y}, {z}, {w}] is not a unit quaternion (its norm is {norm})");
        return Err(syntax(at(), msg));
    }
    let (x, y, z, w) = (x / norm, y / norm, z / norm, w / norm);
    let r = [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + z * w), 2.0 * (x * z - y * w)],
        [2.0 * (x * y - z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + x * w)],
        [2.0 * (x * z + y * w), 2.0 * (y * z - x * w), 1.0 - 2.0 * (x * x + y * y)],
    ];
    let s = node.scale.unwrap_or([1.0; 3]).map(f64::from);
    let t = node.translation.unwrap_or([0.0; 3]).map(f64::from);
    let column = |c: usize| [r[c][0] * s[c], r[c][1] * s[c], r[c][2] * s[c], 0.0];
    Ok([column(0), column(1), column(2), [t[0], t[1], t[2], 1.0]])
}

/// `a · b`.
fn multiply(a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = [[0.0; 4]; 4];
    for (c, col) in out.iter_mut().enumerate() {
        for (r, x) in col.iter_mut().enumerate() {
            *x = (0..4).map(|k| a[k][r] * b[c][k]).sum();
        }
    }
    out
}

/// The determinant of the matrix's linear part: negative for a mirror.
fn determinant(m: &Matrix) -> f64 {
    m[0][0] * (m[1][1] * m[2][2] - m[2][1] * m[1][2]) - m[1][0] * (m[0][1] * m[2][2] - m[2][1] * m[0][2])
        + m[2][0] * (m[0][1] * m[1][2] - m[1][1] * m[0][2])
}

/// The bytes of buffer `b`: the GLB binary chunk, a base64 `data:` URI, or a file beside
/// the glTF file. A failure is kept, and reported only if an accessor needs the buffer.
fn buffer_data<'a>(
    root: &Root,
    b: usize,
    blob: Option<&'a [u8]>,
    cx: &ReadContext<'_>,
) -> Result<Cow<'a, [u8]>, MeshFileError> {
    let at = format!("buffers[{b}]");
    let buffer = &root.buffers[b];
    let data: Cow<'a, [u8]> = match buffer.uri.as_deref() {
        None => match blob {
            Some(bytes) => Cow::Borrowed(bytes),
            None => return Err(syntax(at, "the buffer has no uri, and the file no GLB binary chunk")),
        },
        Some(uri) if uri.starts_with("data:") => {
            let Some((_, payload)) = uri.split_once(";base64,") else {
                let msg = "a data: URI must be base64 (\";base64,\")";
                return Err(MeshFileError::new(MeshFileErrorKind::Unsupported, at, msg));
            };
            let engine = GeneralPurpose::new(
                &base64::alphabet::STANDARD,
                GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
            );
            let bytes = engine
                .decode(payload)
                .map_err(|e| syntax(at.clone(), format!("bad base64 in the data: URI: {e}")))?;
            Cow::Owned(bytes)
        }
        Some(uri) => {
            let Some(folder) = cx.folder else {
                let msg =
                    format!("the buffer is the file \"{uri}\"; read the glTF file from its path to load it");
                return Err(MeshFileError::new(MeshFileErrorKind::Unsupported, at, msg));
            };
            let path = folder.join(percent_decoded(uri));
            let cannot = |what: String| {
                MeshFileError::new(
                    MeshFileErrorKind::Io,
                    at.clone(),
                    format!("cannot read {}: {what}", path.display()),
                )
            };
            match std::fs::metadata(&path) {
                Ok(m) if m.is_file() => {}
                Ok(_) => return Err(cannot("not a plain file".into())),
                Err(e) => return Err(cannot(e.to_string())),
            }
            Cow::Owned(std::fs::read(&path).map_err(|e| cannot(e.to_string()))?)
        }
    };
    let declared = buffer.byte_length.0;
    if (data.len() as u64) < declared {
        return Err(syntax(at, format!("the buffer declares {declared} bytes but holds {}", data.len())));
    }
    Ok(data)
}

/// A relative URI's path with its `%XX` escapes decoded (a malformed escape is kept as
/// written).
fn percent_decoded(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Where an accessor's items lie: item `k` is `bytes[start + k stride ..][..size]`.
struct Items<'b> {
    bytes: &'b [u8],
    start: usize,
    stride: usize,
    count: usize,
}

impl Items<'_> {
    fn item(&self, k: usize) -> &[u8] {
        &self.bytes[self.start + k * self.stride..]
    }
}

struct Reader<'a, 'c> {
    root: &'a Root,
    buffers: Vec<Result<Cow<'a, [u8]>, MeshFileError>>,
    soup: Soup,
    cx: &'c ReadContext<'c>,
}

impl Reader<'_, '_> {
    /// Appends the triangle primitives of mesh `m`, placed by `world`; `node` names the
    /// node in messages.
    fn mesh(&mut self, m: usize, world: &Matrix, node: &str) -> Result<(), MeshFileError> {
        let root = self.root;
        let Some(mesh) = root.meshes.get(m) else {
            let msg = format!("{node} places mesh {m}, but there are {} meshes", root.meshes.len());
            return Err(syntax(node, msg));
        };
        let mirror = determinant(world) < 0.0;
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let at = format!("meshes[{m}].primitives[{p}]");
            let mode = match primitive.mode {
                Checked::Valid(mode) => mode,
                Checked::Invalid => return Err(syntax(at, "an unknown mode")),
            };
            if !matches!(mode, Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan) {
                continue; // points and lines are no surface
            }
            let Some(positions) = primitive.attributes.get(&Checked::Valid(Semantic::Positions)) else {
                return Err(syntax(at, "a triangle primitive without POSITION"));
            };
            let first = self.soup.positions.len();
            let count = self.positions(positions.value(), world, &at, node)?;
            let corners: Vec<u32> = match primitive.indices {
                Some(i) => self.indices(i.value(), count, &at)?,
                None => (0..count as u32).collect(),
            };
            let mut triangles = Vec::new();
            match mode {
                Mode::Triangles => {
                    if corners.len() % 3 != 0 {
                        let msg = format!("TRIANGLES takes a multiple of 3 vertices, got {}", corners.len());
                        return Err(syntax(at, msg));
                    }
                    triangles.extend(corners.chunks_exact(3).map(|t| [t[0], t[1], t[2]]));
                }
                Mode::TriangleStrip => strip(&corners, &mut triangles),
                _ => {
                    // A fan: (v0, v_k, v_k+1).
                    for k in 1..corners.len().saturating_sub(1) {
                        triangles.push([corners[0], corners[k], corners[k + 1]]);
                    }
                }
            }
            let offset = first as u32;
            for [a, b, c] in triangles {
                let t = [a + offset, b + offset, c + offset];
                self.soup.triangles.push(if mirror { [t[0], t[2], t[1]] } else { t });
            }
        }
        Ok(())
    }

    /// Accessor `a`, which `what` of the primitive at `at` names.
    fn accessor<'r>(root: &'r Root, a: usize, at: &str, what: &str) -> Result<&'r Accessor, MeshFileError> {
        root.accessors.get(a).ok_or_else(|| {
            syntax(at, format!("{what} names accessor {a}, but there are {}", root.accessors.len()))
        })
    }

    /// Where the accessor's items lie in their buffer, each `size` bytes; `None` for an
    /// accessor without a buffer view (all zeros).
    fn items(
        &self,
        accessor: &Accessor,
        a: usize,
        size: usize,
        at: &str,
    ) -> Result<Option<Items<'_>>, MeshFileError> {
        let at = format!("{at}: accessors[{a}]");
        if accessor.sparse.is_some() {
            let msg = "the accessor is sparse; kollide reads dense accessors only";
            return Err(MeshFileError::new(MeshFileErrorKind::Unsupported, at, msg));
        }
        let Some(v) = accessor.buffer_view.map(|v| v.value()) else { return Ok(None) };
        let Some(view) = self.root.buffer_views.get(v) else {
            let msg = format!("no bufferViews[{v}]: there are {}", self.root.buffer_views.len());
            return Err(syntax(at, msg));
        };
        let b = view.buffer.value();
        let bytes: &[u8] = match self.buffers.get(b) {
            Some(Ok(bytes)) => bytes,
            Some(Err(e)) => return Err(e.clone()),
            None => return Err(syntax(at, format!("bufferViews[{v}] names no buffer {b}"))),
        };
        let offset = view.byte_offset.map_or(0, |o| o.0);
        let length = view.byte_length.0;
        let view_end =
            offset.checked_add(length).filter(|&end| end <= bytes.len() as u64).ok_or_else(|| {
                syntax(
                    at.clone(),
                    format!(
                    "bufferViews[{v}] (bytes {offset} to {}) runs past the end of buffers[{b}] ({} bytes)",
                    offset.saturating_add(length),
                    bytes.len()
                ),
                )
            })?;
        let stride = view.byte_stride.map_or(size as u64, |s| s.0 as u64);
        if stride < size as u64 {
            return Err(syntax(
                at,
                format!("a stride of {stride} bytes is shorter than an item ({size} bytes)"),
            ));
        }
        let count = accessor.count.0;
        let start = offset.checked_add(accessor.byte_offset.map_or(0, |o| o.0));
        let end = match count {
            0 => start,
            n => start.and_then(|s| stride.checked_mul(n - 1)?.checked_add(s)?.checked_add(size as u64)),
        };
        match (start, end) {
            // Within the view, hence within the buffer: every index below fits `usize`.
            (Some(start), Some(end)) if end <= view_end => Ok(Some(Items {
                bytes,
                start: start as usize,
                stride: stride as usize,
                count: count as usize,
            })),
            _ => Err(syntax(
                at,
                format!("{count} items of {size} bytes every {stride} run past the end of bufferViews[{v}]"),
            )),
        }
    }

    /// Appends the accessor's positions, placed by `world` (each checked finite before and
    /// after); returns how many.
    fn positions(&mut self, a: usize, world: &Matrix, at: &str, node: &str) -> Result<usize, MeshFileError> {
        let accessor = Self::accessor(self.root, a, at, "POSITION")?;
        let float_vec3 = matches!(accessor.component_type, Checked::Valid(t) if t.0 == ComponentType::F32)
            && accessor.type_ == Checked::Valid(Type::Vec3)
            && !accessor.normalized;
        if !float_vec3 {
            let msg = format!(
                "accessors[{a}]: POSITION must be float VEC3, got {} (quantized positions are not read)",
                describe(accessor)
            );
            return Err(MeshFileError::new(MeshFileErrorKind::Unsupported, at.to_string(), msg));
        }
        let count = accessor.count.0;
        if (self.soup.positions.len() as u64).saturating_add(count) >= u64::from(u32::MAX) {
            let msg = "more vertices than u32 indices address";
            return Err(MeshFileError::new(MeshFileErrorKind::TooLarge, at.to_string(), msg));
        }
        let local: Vec<[f64; 3]> = match self.items(accessor, a, 12, at)? {
            None => vec![[0.0; 3]; count as usize],
            Some(items) => (0..items.count)
                .map(|k| {
                    let b = items.item(k);
                    let f = |o: usize| f64::from(f32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]));
                    [f(0), f(4), f(8)]
                })
                .collect(),
        };
        for (k, p) in local.iter().enumerate() {
            let mut out = [0.0; 3];
            for (axis, slot) in out.iter_mut().enumerate() {
                // Finite in the file, then after the transform.
                self.cx.coordinate(p[axis], axis, || format!("{at}: vertex {k}"))?;
                let x = (0..3).map(|c| world[c][axis] * p[c]).sum::<f64>() + world[3][axis];
                *slot = self.cx.coordinate(x, axis, || format!("{at}: vertex {k}, placed by {node}"))?;
            }
            self.soup.positions.push(out);
        }
        Ok(local.len())
    }

    /// The indices of accessor `a`, each checked below `count` (the primitive's vertices).
    fn indices(&self, a: usize, count: usize, at: &str) -> Result<Vec<u32>, MeshFileError> {
        let accessor = Self::accessor(self.root, a, at, "indices")?;
        let size = match (&accessor.component_type, &accessor.type_) {
            (Checked::Valid(t), Checked::Valid(Type::Scalar)) => match t.0 {
                ComponentType::U8 => 1,
                ComponentType::U16 => 2,
                ComponentType::U32 => 4,
                _ => 0,
            },
            _ => 0,
        };
        if size == 0 {
            let msg = format!(
                "accessors[{a}]: indices must be unsigned SCALAR integers, got {}",
                describe(accessor)
            );
            return Err(syntax(at, msg));
        }
        let Some(items) = self.items(accessor, a, size, at)? else {
            return Ok(vec![0; accessor.count.0.min(u64::from(u32::MAX)) as usize]);
        };
        (0..items.count)
            .map(|k| {
                let b = items.item(k);
                let i = match size {
                    1 => u32::from(b[0]),
                    2 => u32::from(u16::from_le_bytes([b[0], b[1]])),
                    _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                };
                if i as usize >= count {
                    let msg = format!(
                        "index {i} (item {k} of accessors[{a}]) is out of range: the positions have {}",
                        vertices(count)
                    );
                    return Err(MeshFileError::new(MeshFileErrorKind::IndexOutOfRange, at.to_string(), msg));
                }
                Ok(i)
            })
            .collect()
    }
}

/// An accessor's kind, for messages: `"F32 Vec3"`, `"normalized U8 Vec3"`.
fn describe(accessor: &Accessor) -> String {
    let component = match &accessor.component_type {
        Checked::Valid(t) => format!("{:?}", t.0),
        Checked::Invalid => "an unknown component type".to_string(),
    };
    let ty = match &accessor.type_ {
        Checked::Valid(t) => format!("{t:?}"),
        Checked::Invalid => "an unknown type".to_string(),
    };
    let norm = if accessor.normalized { "normalized " } else { "" };
    format!("{norm}{component} {ty}")
}
