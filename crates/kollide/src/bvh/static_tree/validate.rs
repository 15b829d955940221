//! Checking every invariant of a static BVH against its item boxes.

use super::{Bvh, MAX_LEAF};
use crate::math::{Aabb, Vector};
use std::fmt;

/// An invariant of a [`Bvh`] that does not hold: what [`Bvh::validate`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BvhInvariant {
    /// The tree has a different number of items than boxes were given.
    ItemCount {
        /// Items in the tree.
        tree: usize,
        /// Boxes given.
        boxes: usize,
    },
    /// A node points outside the node or item arrays, or to a node before itself.
    BadLink {
        /// The node.
        node: usize,
    },
    /// An item is in no leaf or in more than one.
    ItemCoverage {
        /// The item.
        item: u32,
        /// How many leaves hold it.
        times: usize,
    },
    /// A node's box does not hold a child's box or an item's box.
    NotContained {
        /// The node.
        node: usize,
    },
    /// The box the tree keeps for an item is not the item's box (moved without a refit).
    StaleItemBox {
        /// The item.
        item: u32,
    },
    /// A leaf holds more items than the build allows.
    LeafTooBig {
        /// The node.
        node: usize,
        /// Its items.
        count: usize,
    },
    /// A node is unreachable from the root, or reached twice.
    Reachability {
        /// The node.
        node: usize,
    },
    /// A path from the root is longer than the build promises.
    TooDeep {
        /// The depth found.
        depth: usize,
    },
    /// The four-wide nodes that rays walk are not those of the binary tree.
    StaleWideNodes,
}

impl fmt::Display for BvhInvariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ItemCount { tree, boxes } => {
                write!(f, "the tree has {tree} items but {boxes} boxes were given")
            }
            Self::BadLink { node } => write!(f, "node {node} links outside the tree or backwards"),
            Self::ItemCoverage { item, times } => write!(f, "item {item} is in {times} leaves (must be 1)"),
            Self::NotContained { node } => write!(f, "node {node}'s box does not hold its contents"),
            Self::StaleItemBox { item } => write!(f, "item {item}'s box changed without a refit"),
            Self::LeafTooBig { node, count } => write!(f, "leaf {node} holds {count} items"),
            Self::Reachability { node } => write!(f, "node {node} is not reached exactly once from the root"),
            Self::TooDeep { depth } => write!(f, "a path of {depth} nodes is deeper than the build allows"),
            Self::StaleWideNodes => write!(f, "the four-wide nodes do not match the binary tree"),
        }
    }
}

impl std::error::Error for BvhInvariant {}

impl<V: Vector> Bvh<V> {
    /// Checks every invariant against the item boxes the tree was built (or refitted) from:
    /// each item in exactly one leaf, leaves of at most 4 items (more only where the build
    /// found no way to split), each node's box holding its children's or items' boxes,
    /// links forward and inside the arrays, every node reached once, the depth within the
    /// build's bound, and the four-wide nodes those of the binary tree.
    ///
    /// # Errors
    /// The first [`BvhInvariant`] that fails.
    pub fn validate(&self, boxes: &[Aabb<V>]) -> Result<(), BvhInvariant> {
        if self.items.len() != boxes.len() {
            return Err(BvhInvariant::ItemCount { tree: self.items.len(), boxes: boxes.len() });
        }
        if self.nodes.is_empty() {
            if !self.wide.is_empty() {
                return Err(BvhInvariant::StaleWideNodes);
            }
            return if boxes.is_empty() { Ok(()) } else { Err(BvhInvariant::Reachability { node: 0 }) };
        }
        let mut seen = vec![0usize; boxes.len()];
        let mut reached = vec![0u8; self.nodes.len()];
        let mut stack: Vec<(usize, usize)> = vec![(0, 1)];
        while let Some((i, depth)) = stack.pop() {
            if depth > super::MAX_DEPTH_NODES {
                return Err(BvhInvariant::TooDeep { depth });
            }
            reached[i] = reached[i].saturating_add(1);
            if reached[i] > 1 {
                return Err(BvhInvariant::Reachability { node: i });
            }
            let n = self.nodes[i];
            let holds = |b: &Aabb<V>| n.aabb.contains(b);
            if n.count > 0 {
                let end = n.first as usize + n.count as usize;
                if end > self.items.len() {
                    return Err(BvhInvariant::BadLink { node: i });
                }
                // Leaves are small unless every centroid coincided (split by count then).
                if n.count as usize > MAX_LEAF {
                    return Err(BvhInvariant::LeafTooBig { node: i, count: n.count as usize });
                }
                for k in n.first as usize..end {
                    let item = self.items[k];
                    let Some(b) = boxes.get(item as usize) else {
                        return Err(BvhInvariant::BadLink { node: i });
                    };
                    if !holds(b) {
                        return Err(BvhInvariant::NotContained { node: i });
                    }
                    if self.item_boxes.get(k) != Some(b) {
                        return Err(BvhInvariant::StaleItemBox { item });
                    }
                    seen[item as usize] += 1;
                }
            } else {
                let (l, r) = (n.first as usize, n.first as usize + 1);
                if l <= i || r >= self.nodes.len() {
                    return Err(BvhInvariant::BadLink { node: i });
                }
                if !holds(&self.nodes[l].aabb) || !holds(&self.nodes[r].aabb) {
                    return Err(BvhInvariant::NotContained { node: i });
                }
                stack.push((l, depth + 1));
                stack.push((r, depth + 1));
            }
        }
        if let Some(node) = reached.iter().position(|&k| k != 1) {
            return Err(BvhInvariant::Reachability { node });
        }
        if let Some(item) = seen.iter().position(|&k| k != 1) {
            return Err(BvhInvariant::ItemCoverage { item: item as u32, times: seen[item] });
        }
        // (Collapsed only now that the binary tree is known to be sound.)
        if self.wide != super::wide::collapse(&self.nodes) {
            return Err(BvhInvariant::StaleWideNodes);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn boxes() -> Vec<Aabb<Vec3>> {
        (0..50)
            .map(|i| Aabb::from_ball(Vec3::new((i * 7 % 13) as f32, (i % 5) as f32, i as f32), 0.5))
            .collect()
    }

    #[test]
    fn a_corrupted_tree_is_caught() {
        let b = boxes();
        let good = Bvh::new(&b);
        assert_eq!(good.validate(&b), Ok(()));
        // A shrunken root box.
        let mut t = good.clone();
        t.nodes[0].aabb.max.x -= 1.0;
        assert_eq!(t.validate(&b), Err(BvhInvariant::NotContained { node: 0 }));
        // An item listed twice (and another missing).
        let mut t = good.clone();
        let last = t.items.len() - 1;
        t.items[last] = t.items[0];
        assert!(matches!(
            t.validate(&b),
            Err(BvhInvariant::ItemCoverage { .. } | BvhInvariant::NotContained { .. })
        ));
        // A backward link.
        let mut t = good.clone();
        let internal = t.nodes.iter().position(|n| n.count == 0).unwrap();
        t.nodes[internal].first = 0;
        assert_eq!(t.validate(&b), Err(BvhInvariant::BadLink { node: internal }));
        // Boxes that moved without a refit.
        let mut moved = b.clone();
        moved[3] = Aabb::from_ball(Vec3::splat(100.0), 1.0);
        assert!(good.validate(&moved).is_err());
        let mut refitted = good.clone();
        refitted.refit(&moved).unwrap();
        assert_eq!(refitted.validate(&moved), Ok(()));
        // A wide node whose lane box was not refitted: rays would walk the old box.
        let mut t = good.clone();
        t.wide[0].hi[0][0] -= 1.0;
        assert_eq!(t.validate(&b), Err(BvhInvariant::StaleWideNodes));
        let mut t = good.clone();
        t.wide.clear();
        assert_eq!(t.validate(&b), Err(BvhInvariant::StaleWideNodes));
    }
}
