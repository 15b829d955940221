//! The swept sphere against triangles (3D): face, edge and vertex.
