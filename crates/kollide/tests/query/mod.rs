//! Convex queries: GJK, contacts (closed forms, SAT, EPA), manifolds, and the metamorphic checks.

mod box_distance;
mod contact_all_pairs;
mod contact_box_segment;
mod contact_closed_forms;
mod contact_epa;
mod contact_sat2d;
mod contact_sat3d;
mod gjk_closed_forms;
mod gjk_hostile;
mod gjk_polytopes;
mod gjk_slivers;
mod gjk_warm_start;
mod intersects_polygons;
mod manifold2d;
mod manifold3d;
mod manifold_cache;
mod metamorphic;
mod polygon_distance;
mod sat_boxes;
