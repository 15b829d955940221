//! The dynamic tree's structure changes: choosing a sibling for a new leaf, linking and
//! unlinking leaves, rebalancing by rotations on the way up, and the full rebuild.
//!
//! Sibling choice: the surface-area heuristic. The cost of making node `s` the new leaf's
//! sibling is the area of the new parent (`s` ∪ leaf) plus the area every ancestor of `s`
//! grows by; a branch-and-bound search finds the cheapest `s` exactly (children are skipped
//! when the leaf's own area plus their inherited growth already reaches the best cost;
//! Bittner et al. 2013, as in Box2D v3). Balance: AVL-style rotations on the way up (a
//! child taller than its sibling by two or more is lifted), so the height stays logarithmic
//! even for sorted insertions.

use super::query::Stack;
use super::{DynamicTree, Kind, Node, NULL};
use crate::math::{Aabb, Real, Vector};

/// Which sibling search inserts use. Measured at 100k boxes (f32, 3D): the descent inserts
/// 5x faster (66 against 330 ms) but its tree answers the all-pairs queries 6x slower (1330
/// against 200 ms), and a broad-phase frame with 10% moving costs 54 against about 30 ms.
const BRANCH_AND_BOUND: bool = true;

impl<V: Vector> DynamicTree<V> {
    /// Links the detached leaf `leaf` (its fat box set) into the tree.
    pub(super) fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let leaf_box = self.nodes[leaf as usize].boxes[0];
        let sibling = if BRANCH_AND_BOUND {
            self.sibling_branch_and_bound(&leaf_box)
        } else {
            self.sibling_descent(&leaf_box)
        };
        let old_parent = self.nodes[sibling as usize].parent;
        let p = self.allocate();
        let s = self.nodes[sibling as usize];
        self.nodes[p as usize] = Node {
            boxes: [s.bounds(), leaf_box],
            parent: old_parent,
            child1: sibling,
            child2: leaf,
            height: s.height.saturating_add(1),
            kind: Kind::Internal,
            leaf_children: u8::from(s.is_leaf()) | 2,
        };
        if old_parent == NULL {
            self.root = p;
        } else {
            self.replace_child(old_parent, sibling, p);
        }
        self.nodes[sibling as usize].parent = p;
        self.nodes[leaf as usize].parent = p;
        self.fix_upwards(p);
    }

    /// Unlinks the leaf `leaf` from the tree (the node itself is kept); its parent is freed
    /// and the sibling takes the parent's place.
    pub(super) fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grand = self.nodes[parent as usize].parent;
        let p = self.nodes[parent as usize];
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        self.nodes[sibling as usize].parent = grand;
        if grand == NULL {
            self.root = sibling;
        } else {
            self.replace_child(grand, parent, sibling);
        }
        self.release_node(parent);
        self.nodes[leaf as usize].parent = NULL;
        if grand != NULL {
            self.fix_upwards(grand);
        }
    }

    /// The cheapest sibling by the surface-area heuristic (exact, branch and bound).
    fn sibling_branch_and_bound(&self, leaf_box: &Aabb<V>) -> u32 {
        let leaf_area = leaf_box.surface_area();
        let root_box = self.nodes[self.root as usize].bounds();
        let mut best = self.root;
        let mut best_cost = root_box.union(leaf_box).surface_area();
        // (node, its box, the growth its ancestors inherit)
        let mut stack = Stack::<(u32, Aabb<V>, V::Real)>::new();
        stack.push((self.root, root_box, V::Real::ZERO));
        let mut budget = self.nodes.len() + 1;
        while let Some((i, b, inherited)) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            let direct = b.union(leaf_box).surface_area();
            let cost = direct + inherited;
            if cost < best_cost {
                best_cost = cost;
                best = i;
            }
            let n = &self.nodes[i as usize];
            if n.kind == Kind::Internal {
                let inherited = inherited + direct - b.surface_area();
                if leaf_area + inherited < best_cost {
                    // The child the leaf grows less is searched first: a good best cost
                    // early prunes more.
                    let (c1, c2) = (n.boxes[0], n.boxes[1]);
                    let g1 = c1.union(leaf_box).surface_area() - c1.surface_area();
                    let g2 = c2.union(leaf_box).surface_area() - c2.surface_area();
                    if g1 <= g2 {
                        stack.push((n.child2, c2, inherited));
                        stack.push((n.child1, c1, inherited));
                    } else {
                        stack.push((n.child1, c1, inherited));
                        stack.push((n.child2, c2, inherited));
                    }
                }
            }
        }
        best
    }

    /// A sibling by greedy descent (Box2D v2.4's heuristic): go down into the child whose
    /// cost is least while that is cheaper than pairing with the current node.
    fn sibling_descent(&self, leaf_box: &Aabb<V>) -> u32 {
        let mut i = self.root;
        let mut b = self.nodes[i as usize].bounds();
        for _ in 0..=self.nodes.len() {
            let n = &self.nodes[i as usize];
            if n.kind != Kind::Internal {
                break;
            }
            let area = b.surface_area();
            let combined = b.union(leaf_box).surface_area();
            let here = combined + combined;
            let inherited = (combined - area) * V::Real::TWO;
            let cost = |slot: usize| {
                let u = n.boxes[slot].union(leaf_box).surface_area() + inherited;
                if n.child_is_leaf(slot) {
                    u
                } else {
                    u - n.boxes[slot].surface_area()
                }
            };
            let (c1, c2) = (cost(0), cost(1));
            if here < c1 && here < c2 {
                break;
            }
            let slot = usize::from(c1 > c2);
            (i, b) = (n.children()[slot], n.boxes[slot]);
        }
        i
    }

    /// In `parent`, replaces the child `old` by `new` (the slot's box and leaf flag are
    /// refreshed by the `recompute` that follows every such change).
    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        let p = &mut self.nodes[parent as usize];
        if p.child1 == old {
            p.child1 = new;
        } else {
            p.child2 = new;
        }
    }

    /// Sets an internal node's children's boxes, leaf flags and height from its children,
    /// and its own box in its parent.
    #[inline]
    fn recompute(&mut self, i: u32) {
        let n = self.nodes[i as usize];
        let (a, b) = (&self.nodes[n.child1 as usize], &self.nodes[n.child2 as usize]);
        let boxes = [a.bounds(), b.bounds()];
        let height = a.height.max(b.height).saturating_add(1);
        let leaf_children = u8::from(a.is_leaf()) | (u8::from(b.is_leaf()) << 1);
        let node = &mut self.nodes[i as usize];
        node.boxes = boxes;
        node.height = height;
        node.leaf_children = leaf_children;
        self.set_in_parent(i, boxes[0].union(&boxes[1]));
    }

    /// Writes `aabb`, node `i`'s box, into the slot its parent keeps for it.
    #[inline]
    fn set_in_parent(&mut self, i: u32, aabb: Aabb<V>) {
        let parent = self.nodes[i as usize].parent;
        if parent != NULL {
            let p = &mut self.nodes[parent as usize];
            p.boxes[usize::from(p.child2 == i)] = aabb;
        }
    }

    /// After node `i`'s box changed (a leaf's fat box, set in place): each ancestor's slot
    /// for the child below it set to that child's box, from `i`'s parent up, stopping at
    /// the first ancestor whose own box does not change (heights are unchanged: no link
    /// moved). One node read a level: the slots are in the node.
    pub(super) fn refit_upwards(&mut self, mut i: u32) {
        let mut aabb = self.nodes[i as usize].bounds();
        for _ in 0..self.nodes.len() {
            let parent = self.nodes[i as usize].parent;
            if parent == NULL {
                return;
            }
            let p = &mut self.nodes[parent as usize];
            let slot = usize::from(p.child2 == i);
            let before = p.boxes[0].union(&p.boxes[1]);
            p.boxes[slot] = aabb;
            let after = p.boxes[0].union(&p.boxes[1]);
            if after.min == before.min && after.max == before.max {
                return;
            }
            (i, aabb) = (parent, after);
        }
    }

    /// From internal node `i` up to the root: rebalance, then refresh box and height.
    fn fix_upwards(&mut self, mut i: u32) {
        let mut budget = self.nodes.len() + 1;
        while i != NULL && budget > 0 {
            budget -= 1;
            i = self.balance(i);
            i = self.nodes[i as usize].parent;
        }
    }

    /// If one child of the internal node `a` is taller than the other by two or more,
    /// lifts it into `a`'s place; returns the node now standing there (boxes and heights of
    /// the touched nodes refreshed).
    fn balance(&mut self, a: u32) -> u32 {
        let n = self.nodes[a as usize];
        let (h1, h2) = (self.nodes[n.child1 as usize].height, self.nodes[n.child2 as usize].height);
        let tall = if h2 > h1.saturating_add(1) {
            n.child2
        } else if h1 > h2.saturating_add(1) {
            n.child1
        } else {
            self.recompute(a);
            return a;
        };
        let top = self.rotate_up(a, tall);
        self.settle(a);
        self.recompute(top);
        top
    }

    /// After a rotation demoted `x`, `x` may itself be out of balance (a leaf paired high
    /// in the tree, as the surface-area heuristic likes for a big box or ties for equal
    /// ones): rotate at `x` again until it is balanced, each rotation moving it one level
    /// down, then refresh the lifted nodes bottom-up. Ends: each rotation lowers the
    /// height of `x`'s subtree.
    fn settle(&mut self, x: u32) {
        let mut lifted = Stack::<u32>::new();
        for _ in 0..=self.nodes.len() {
            let n = self.nodes[x as usize];
            let (h1, h2) = (self.nodes[n.child1 as usize].height, self.nodes[n.child2 as usize].height);
            let tall = if h2 > h1.saturating_add(1) {
                n.child2
            } else if h1 > h2.saturating_add(1) {
                n.child1
            } else {
                break;
            };
            lifted.push(self.rotate_up(x, tall));
        }
        while let Some(t) = lifted.pop() {
            self.recompute(t);
        }
    }

    /// Lifts `up`, the taller child of `a`, into `a`'s place: `up` keeps its taller child
    /// and takes `a`; `a` takes `up`'s shorter child in place of `up`.
    fn rotate_up(&mut self, a: u32, up: u32) -> u32 {
        let u = self.nodes[up as usize];
        let (f, g) = (u.child1, u.child2);
        let (tall, short) =
            if self.nodes[f as usize].height >= self.nodes[g as usize].height { (f, g) } else { (g, f) };
        let a_parent = self.nodes[a as usize].parent;
        self.nodes[up as usize].parent = a_parent;
        if a_parent == NULL {
            self.root = up;
        } else {
            self.replace_child(a_parent, a, up);
        }
        self.nodes[up as usize].child1 = a;
        self.nodes[up as usize].child2 = tall;
        self.nodes[a as usize].parent = up;
        self.replace_child(a, up, short);
        self.nodes[short as usize].parent = a;
        self.recompute(a);
        self.recompute(up);
        up
    }

    /// Rebuilds the tree over its proxies from scratch, top-down (median split along the
    /// widest spread of box centres): a better tree for queries after many moves. Ids, fat
    /// boxes and user values are kept. O(n log n).
    ///
    /// ```
    /// use kollide::bvh::DynamicTree;
    /// use kollide::math::{Aabb, DVec2};
    /// let mut tree = DynamicTree::<DVec2>::new(0.0);
    /// for i in 0..64 {
    ///     tree.insert(Aabb::from_ball(DVec2::new(i as f64, 0.0), 0.5), i).unwrap();
    /// }
    /// tree.rebuild();
    /// assert_eq!(tree.height(), 6);
    /// assert!(tree.validate().is_ok());
    /// ```
    pub fn rebuild(&mut self) {
        let mut leaves = Vec::with_capacity(self.leaf_count);
        for i in 0..self.nodes.len() {
            match self.nodes[i].kind {
                Kind::Internal => self.release_node(i as u32),
                Kind::Leaf => leaves.push(i as u32),
                Kind::Free | Kind::Detached => {}
            }
        }
        self.root = NULL;
        if leaves.is_empty() {
            return;
        }
        let centers: Vec<V> = leaves.iter().map(|&l| self.nodes[l as usize].boxes[0].center()).collect();
        let mut items: Vec<(u32, V)> = leaves.into_iter().zip(centers).collect();
        let mut order = Vec::with_capacity(items.len());
        // (range, parent, slot): slot 0 is child1, 1 is child2.
        let mut work = vec![(0usize, items.len(), NULL, 0u8)];
        while let Some((lo, hi, parent, slot)) = work.pop() {
            let node = if hi - lo == 1 {
                items[lo].0
            } else {
                let part = &mut items[lo..hi];
                let bounds = Aabb::from_points(part.iter().map(|x| x.1));
                let ext = bounds.extents();
                let axis = (1..V::DIM).fold(0, |best, k| if ext[k] > ext[best] { k } else { best });
                let mid = part.len() / 2;
                part.select_nth_unstable_by(mid, |x, y| x.1[axis].to_f64().total_cmp(&y.1[axis].to_f64()));
                let n = self.allocate();
                self.nodes[n as usize].kind = Kind::Internal;
                order.push(n);
                work.push((lo, lo + mid, n, 0));
                work.push((lo + mid, hi, n, 1));
                n
            };
            self.nodes[node as usize].parent = parent;
            if parent == NULL {
                self.root = node;
            } else if slot == 0 {
                self.nodes[parent as usize].child1 = node;
            } else {
                self.nodes[parent as usize].child2 = node;
            }
        }
        for &n in order.iter().rev() {
            self.recompute(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bvh::ProxyId;
    use crate::math::Vec3;

    fn row() -> (DynamicTree<Vec3>, Vec<ProxyId>) {
        let mut t = DynamicTree::new(0.1);
        let ids = (0..64)
            .map(|i| t.insert(Aabb::from_ball(Vec3::new(3.0 * i as f32, 0.0, 0.0), 1.0), 0).unwrap())
            .collect();
        (t, ids)
    }

    #[test]
    fn a_proxy_going_back_and_forth_stays_in_its_leaf() {
        let (mut t, ids) = row();
        let id = ids[40];
        let parent = t.nodes[id.0 as usize].parent;
        let home = Vec3::new(120.0, 0.0, 0.0);
        for k in 0..100 {
            let (c, d) =
                if k % 2 == 0 { (home + Vec3::X * 0.5, Vec3::X * 0.5) } else { (home, -Vec3::X * 0.5) };
            assert_eq!(t.move_proxy(id, Aabb::from_ball(c, 1.0), d), Ok(true));
            assert_eq!(t.nodes[id.0 as usize].parent, parent, "move {k} re-inserted the proxy");
            assert_eq!(t.validate(), Ok(()));
            // Refitted exactly: the parent keeps its children's boxes as they are (and
            // `validate` checks every ancestor the same way).
            let p = t.nodes[parent as usize];
            for (slot, c) in p.children().into_iter().enumerate() {
                let u = t.nodes[c as usize].bounds();
                assert_eq!((p.boxes[slot].min, p.boxes[slot].max), (u.min, u.max));
            }
        }
    }

    /// The areas of the proxy's ancestors summed: what a query for it walks through.
    fn path_cost(t: &DynamicTree<Vec3>, id: ProxyId) -> f64 {
        let (mut i, mut sum) = (t.nodes[id.0 as usize].parent, 0.0);
        while i != NULL {
            sum += f64::from(t.nodes[i as usize].bounds().surface_area());
            i = t.nodes[i as usize].parent;
        }
        sum
    }

    #[test]
    fn a_drifting_proxy_is_placed_again_near_its_new_neighbours() {
        // One proxy of a 16 x 16 grid walks across it in small steps: kept in place all
        // along, its ancestors would stretch from its first cell to its last.
        let mut t = DynamicTree::new(0.1);
        let ids: Vec<ProxyId> = (0..256)
            .map(|i| {
                let c = Vec3::new(3.0 * (i % 16) as f32, 0.0, 3.0 * (i / 16) as f32);
                t.insert(Aabb::from_ball(c, 1.0), 0).unwrap()
            })
            .collect();
        let id = ids[0];
        let step = Vec3::new(0.25, 0.0, 0.25);
        let mut c = Vec3::new(0.0, 3.0, 0.0);
        for _ in 0..180 {
            c += step;
            t.move_proxy(id, Aabb::from_ball(c, 1.0), step).unwrap();
            assert_eq!(t.validate(), Ok(()));
        }
        let mut fresh = DynamicTree::new(0.1);
        let mut again = ProxyId(0);
        for (p, b) in t.proxies() {
            let q = fresh.insert(b, 0).unwrap();
            if p == id {
                again = q;
            }
        }
        let (kept, placed) = (path_cost(&t, id), path_cost(&fresh, again));
        assert!(kept < 1.2 * placed, "the drifted proxy's path costs {kept}, placed afresh {placed}");
    }
}
