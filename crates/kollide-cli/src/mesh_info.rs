//! `kollide mesh-info FILE`: a mesh file's diagnostics as one JSON object.

use crate::answer::Precision;
use crate::reply::components;
use crate::session::report_counts;
use kollide::composite::{MeshFileError, MeshFormat, TriMesh, Weld};
use kollide::math::{DVec3, Vec3, Vector3};
use kollide::query::Space;
use serde_json::Value;
use std::path::Path;

/// The diagnostics of the mesh in `path` (read as `TriMesh::from_file` reads it, welded as
/// `weld` says, in `precision`): `{"file", "format", "triangles", "vertices",
/// "welded_vertices", "duplicate_vertices", "unused_vertices", "zero_area_triangles",
/// "sliver_triangles", "edges", "boundary_edges", "non_manifold_edges",
/// "misoriented_edges", "closed", "oriented", "aabb": {"min", "max"}, "memory_bytes"}`.
///
/// # Errors
/// The file's [`MeshFileError`].
pub fn mesh_info(path: &Path, weld: Weld, precision: Precision) -> Result<String, MeshFileError> {
    match precision {
        Precision::F32 => info::<Vec3>(path, weld),
        Precision::F64 => info::<DVec3>(path, weld),
    }
}

fn info<V: Vector3 + Space<Real: serde::Serialize>>(
    path: &Path,
    weld: Weld,
) -> Result<String, MeshFileError> {
    let mesh = TriMesh::<V>::from_file(path, weld)?;
    let r = mesh.report();
    let format = MeshFormat::from_path(path).map_or("", MeshFormat::name);
    let mut json =
        format!("{{\"file\":{},\"format\":{}", Value::from(path.display().to_string()), Value::from(format));
    for (key, value) in report_counts(&r) {
        json.push_str(&format!(",\"{key}\":{value}"));
    }
    let vector = |v: V| serde_json::to_string(&components(v)).unwrap_or_default();
    json.push_str(&format!(
        ",\"aabb\":{{\"min\":{},\"max\":{}}},\"memory_bytes\":{}}}",
        vector(r.aabb.min),
        vector(r.aabb.max),
        r.memory_bytes
    ));
    Ok(json)
}
