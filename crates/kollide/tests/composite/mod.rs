//! Composites: meshes, heightfields, polylines, compounds, concave polygons.

mod composite_2d;
mod composite_heightfield;
mod composite_kept;
mod composite_mesh;
mod composite_seams;
mod concave_polygon;
mod mesh_files;
mod mesh_report;
