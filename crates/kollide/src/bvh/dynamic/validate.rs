//! The dynamic tree's invariant check, for tests and for users who suspect a bug.

use super::{DynamicTree, Kind, NULL};
use crate::math::Vector;
use core::fmt;

/// What [`DynamicTree::validate`] found wrong, naming the node (an index into the pool; a
/// leaf's index is its [`ProxyId`](super::ProxyId)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeInvariant {
    /// The root has a parent.
    RootHasParent {
        /// The root.
        root: u32,
    },
    /// A node's parent link does not name the node that holds it.
    WrongParent {
        /// The node.
        node: u32,
        /// The node holding it.
        expected: u32,
        /// Its parent link.
        found: u32,
    },
    /// A node in the tree is free or detached, or a child index is out of the pool.
    BadNode {
        /// The node (or child index).
        node: u32,
    },
    /// A node is reached twice (a cycle or a shared child).
    ReachedTwice {
        /// The node.
        node: u32,
    },
    /// The box an internal node keeps for a child does not hold the child's box.
    ChildOutside {
        /// The parent.
        parent: u32,
        /// The child.
        child: u32,
    },
    /// The box an internal node keeps for a child is larger than the child's box, or its
    /// flag of whether the child is a leaf is wrong.
    StaleChild {
        /// The parent.
        parent: u32,
        /// The child.
        child: u32,
    },
    /// A stored height is not 1 + the taller child's (0 for a leaf).
    WrongHeight {
        /// The node.
        node: u32,
        /// Stored.
        stored: u16,
        /// Computed from the children.
        computed: u16,
    },
    /// A box in the tree has a NaN or infinite coordinate or `min > max`.
    BadBox {
        /// The node.
        node: u32,
    },
    /// The free list holds a node that is not free, or loops.
    BadFreeList {
        /// The node.
        node: u32,
    },
    /// Counts disagree: leaves reached vs the proxy count, or reached + free + detached vs
    /// the pool size.
    WrongCount {
        /// What the tree records.
        expected: usize,
        /// What the walk found.
        found: usize,
    },
}

impl fmt::Display for TreeInvariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::RootHasParent { root } => write!(f, "root {root} has a parent"),
            Self::WrongParent { node, expected, found } => {
                write!(f, "node {node} is held by {expected} but its parent link is {found}")
            }
            Self::BadNode { node } => write!(f, "node {node} in the tree is not a live node"),
            Self::ReachedTwice { node } => write!(f, "node {node} is reached twice"),
            Self::ChildOutside { parent, child } => {
                write!(f, "box node {parent} keeps for its child {child} does not hold the child's box")
            }
            Self::StaleChild { parent, child } => {
                write!(f, "node {parent} keeps a stale box or leaf flag for its child {child}")
            }
            Self::WrongHeight { node, stored, computed } => {
                write!(f, "node {node} stores height {stored}, its children give {computed}")
            }
            Self::BadBox { node } => write!(f, "box of node {node} is not finite or is inverted"),
            Self::BadFreeList { node } => write!(f, "free list is broken at node {node}"),
            Self::WrongCount { expected, found } => {
                write!(f, "count mismatch: expected {expected}, found {found}")
            }
        }
    }
}

impl std::error::Error for TreeInvariant {}

impl<V: Vector> DynamicTree<V> {
    /// Checks every invariant: parent links, each node reached once, boxes finite, each
    /// internal node keeping exactly its children's boxes and leaf flags, each leaf's given
    /// box inside its fat box, heights, the free list, and the counts.
    /// O(n). `Ok` on a tree only ever changed through its methods.
    ///
    /// ```
    /// use kollide::bvh::DynamicTree;
    /// use kollide::math::{Aabb, Vec2};
    /// let mut tree = DynamicTree::<Vec2>::new(0.1);
    /// for i in 0..10 {
    ///     tree.insert(Aabb::from_ball(Vec2::new(i as f32, 0.0), 0.4), i).unwrap();
    /// }
    /// assert_eq!(tree.validate(), Ok(()));
    /// ```
    ///
    /// # Errors
    /// The first broken invariant found.
    pub fn validate(&self) -> Result<(), TreeInvariant> {
        let n = self.nodes.len();
        let mut seen = vec![false; n];
        let mut leaves = 0usize;
        let mut reached = 0usize;
        if self.root != NULL {
            if self.root as usize >= n {
                return Err(TreeInvariant::BadNode { node: self.root });
            }
            if self.nodes[self.root as usize].parent != NULL {
                return Err(TreeInvariant::RootHasParent { root: self.root });
            }
            let mut stack = vec![self.root];
            while let Some(i) = stack.pop() {
                let iu = i as usize;
                if iu >= n {
                    return Err(TreeInvariant::BadNode { node: i });
                }
                if seen[iu] {
                    return Err(TreeInvariant::ReachedTwice { node: i });
                }
                seen[iu] = true;
                reached += 1;
                let node = &self.nodes[iu];
                let used = if node.kind == Kind::Internal { 2 } else { 1 };
                if node.boxes[..used].iter().any(|b| !b.is_finite() || !b.is_valid()) {
                    return Err(TreeInvariant::BadBox { node: i });
                }
                match node.kind {
                    Kind::Leaf => {
                        leaves += 1;
                        let given = node.boxes[1];
                        if !given.is_finite() || !given.is_valid() || !node.boxes[0].contains(&given) {
                            return Err(TreeInvariant::BadBox { node: i });
                        }
                        if node.height != 0 {
                            return Err(TreeInvariant::WrongHeight {
                                node: i,
                                stored: node.height,
                                computed: 0,
                            });
                        }
                    }
                    Kind::Internal => {
                        let mut h = 0u16;
                        for (slot, c) in node.children().into_iter().enumerate() {
                            if c as usize >= n {
                                return Err(TreeInvariant::BadNode { node: c });
                            }
                            let child = &self.nodes[c as usize];
                            if child.parent != i {
                                return Err(TreeInvariant::WrongParent {
                                    node: c,
                                    expected: i,
                                    found: child.parent,
                                });
                            }
                            let (kept, own) = (node.boxes[slot], child.bounds());
                            if !kept.contains(&own) {
                                return Err(TreeInvariant::ChildOutside { parent: i, child: c });
                            }
                            if kept.min != own.min
                                || kept.max != own.max
                                || node.child_is_leaf(slot) != child.is_leaf()
                            {
                                return Err(TreeInvariant::StaleChild { parent: i, child: c });
                            }
                            h = h.max(child.height.saturating_add(1));
                            stack.push(c);
                        }
                        if node.height != h {
                            return Err(TreeInvariant::WrongHeight {
                                node: i,
                                stored: node.height,
                                computed: h,
                            });
                        }
                    }
                    Kind::Free | Kind::Detached => return Err(TreeInvariant::BadNode { node: i }),
                }
            }
        }
        if leaves != self.leaf_count {
            return Err(TreeInvariant::WrongCount { expected: self.leaf_count, found: leaves });
        }
        let mut free = 0usize;
        let mut i = self.free;
        while i != NULL {
            let iu = i as usize;
            if iu >= n || seen[iu] || self.nodes[iu].kind != Kind::Free || free >= n {
                return Err(TreeInvariant::BadFreeList { node: i });
            }
            seen[iu] = true;
            free += 1;
            i = self.nodes[iu].parent;
        }
        if free != self.free_count {
            return Err(TreeInvariant::WrongCount { expected: self.free_count, found: free });
        }
        let detached = self.nodes.iter().filter(|x| x.kind == Kind::Detached).count();
        if detached != self.detached_count || reached + free + detached != n {
            return Err(TreeInvariant::WrongCount { expected: n, found: reached + free + detached });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Aabb, Vec3};

    fn tree() -> DynamicTree<Vec3> {
        let boxes: Vec<_> = (0..20).map(|i| Aabb::from_ball(Vec3::new(i as f32, 0.0, 0.0), 0.6)).collect();
        DynamicTree::try_from_boxes(0.0, &boxes).unwrap()
    }

    #[test]
    fn corrupted_trees_are_caught() {
        assert_eq!(tree().validate(), Ok(()));
        // A leaf box grown past its parent's.
        let mut t = tree();
        t.nodes[3].boxes[0].max.x += 5.0;
        assert!(matches!(t.validate(), Err(TreeInvariant::ChildOutside { child: 3, .. })));
        // A broken parent link.
        let mut t = tree();
        t.nodes[5].parent = 7;
        assert!(matches!(t.validate(), Err(TreeInvariant::WrongParent { node: 5, .. })));
        // A height off by one.
        let mut t = tree();
        let r = t.root as usize;
        t.nodes[r].height += 1;
        assert!(matches!(t.validate(), Err(TreeInvariant::WrongHeight { .. })));
        // A child shared by two parents (a cycle, for the walk).
        let mut t = tree();
        let r = t.nodes[t.root as usize];
        let c1 = t.nodes[r.child1 as usize];
        t.nodes[r.child2 as usize].child1 = c1.child1;
        assert!(t.validate().is_err());
        // A NaN box.
        let mut t = tree();
        t.nodes[0].boxes[0].min.y = f32::NAN;
        assert!(t.validate().is_err());
        let r = t.root as usize;
        t.nodes[r].boxes[0].max.z = f32::INFINITY;
        assert_eq!(t.validate(), Err(TreeInvariant::BadBox { node: r as u32 }));
        // A kept box larger than the child's (a refit that did not reach it).
        let mut t = tree();
        let r = t.nodes[t.root as usize];
        t.nodes[t.root as usize].boxes[0].min.y -= 1.0;
        assert_eq!(t.validate(), Err(TreeInvariant::StaleChild { parent: t.root, child: r.child1 }));
        // A wrong leaf flag.
        let mut t = tree();
        t.nodes[t.root as usize].leaf_children ^= 1;
        assert!(matches!(t.validate(), Err(TreeInvariant::StaleChild { .. })));
        // A given box outside the fat box.
        let mut t = tree();
        t.nodes[2].boxes[1].max.x += 5.0;
        assert_eq!(t.validate(), Err(TreeInvariant::BadBox { node: 2 }));
        // A count off.
        let mut t = tree();
        t.leaf_count += 1;
        assert!(matches!(t.validate(), Err(TreeInvariant::WrongCount { .. })));
    }
}
