//! Bounding volume hierarchies over axis-aligned boxes ([`crate::math::Aabb`]): the static
//! [`Bvh`] under meshes and compounds, the [`DynamicTree`] and [`BroadPhase`] for moving
//! bodies, and sort-and-sweep for one-off pair searches.

mod broad_phase;
mod dynamic;
mod grid_pairs;
mod static_tree;
mod sweep_prune;

pub use broad_phase::{BroadPhase, PairChanges};
pub use dynamic::{DynamicTree, DynamicTreeError, ProxyId, TreeInvariant};
pub use grid_pairs::{all_pairs_grid, GridPairs};
pub use static_tree::{Bvh, BvhError, BvhInvariant};
pub use sweep_prune::{all_pairs, all_pairs_sweep, all_pairs_tree};
