//! The four-wide view of the static BVH: each binary node's subtree collapsed into nodes of
//! up to four children whose boxes sit side by side by axis and lane (structure of arrays),
//! so that one node visit tests four boxes as the lanes of one slab test (tinybvh's BVH4
//! layout, without its compression). A ray then walks about half the levels of the binary
//! tree, reading two cache lines a level.
//!
//! The wide nodes are derived from the binary nodes alone (built again by every build and
//! refit, and checked by `validate`): a lane is either a binary leaf (its items) or the wide
//! node of a binary internal node. A wide node takes its binary node's two children and
//! opens the internal lane of largest surface area until it holds four lanes or only leaves.

use super::Node;
use crate::math::{Real, Vector};

/// The lane count of a wide node.
pub(super) const LANES: usize = 4;

/// A node of the four-wide view: lane `k`'s box is `lo[axis][k]..hi[axis][k]` (the unused
/// third axis of 2D is `-inf..+inf`); `count[k] == 0` makes lane `k` the wide node
/// `child[k]`, `count[k] > 0` a leaf of the items in slots `child[k]..child[k] + count[k]`.
/// Lanes with their bit clear in `valid` are empty. Aligned to the cache line: an `f32`
/// node is two lines.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub(super) struct Node4<R> {
    pub lo: [[R; LANES]; 3],
    pub hi: [[R; LANES]; 3],
    pub child: [u32; LANES],
    pub count: [u8; LANES],
    pub valid: u8,
}

/// A subtree of at most this many items becomes one leaf lane: its items are side by side
/// in the slots (the build partitions them in place), and testing them costs less than
/// visiting the nodes that would split them.
pub(super) const WIDE_LEAF: usize = 4;

/// The wide nodes of the binary `nodes` (empty for an empty tree); node 0 is the root,
/// and every child comes after its parent.
pub(super) fn collapse<V: Vector>(nodes: &[Node<V>]) -> Vec<Node4<V::Real>> {
    let mut out = Vec::with_capacity(nodes.len() / 4 + 1);
    if nodes.is_empty() {
        return out;
    }
    // Each binary node's first slot and item count (children come after their parents).
    let mut span = vec![(0u32, 0u32); nodes.len()];
    for i in (0..nodes.len()).rev() {
        let n = &nodes[i];
        span[i] = if n.count > 0 {
            (n.first, n.count)
        } else {
            let (l, r) = (span[n.first as usize], span[n.first as usize + 1]);
            (l.0, l.1 + r.1)
        };
    }
    let is_leaf = |b: usize| nodes[b].count > 0 || span[b].1 as usize <= WIDE_LEAF;
    // A root small enough becomes a wide root of one leaf lane.
    let lanes = if is_leaf(0) { vec![0] } else { open(nodes, 0, &is_leaf) };
    out.push(empty_node());
    // (wide node to fill, its lanes as binary nodes)
    let mut todo = vec![(0usize, lanes)];
    while let Some((me, lanes)) = todo.pop() {
        let mut node = empty_node();
        for (k, &b) in lanes.iter().enumerate() {
            let n = &nodes[b];
            for axis in 0..V::DIM {
                node.lo[axis][k] = n.aabb.min[axis];
                node.hi[axis][k] = n.aabb.max[axis];
            }
            node.valid |= 1 << k;
            if is_leaf(b) {
                node.child[k] = span[b].0;
                node.count[k] = span[b].1 as u8;
            } else {
                node.child[k] = out.len() as u32;
                out.push(empty_node());
                todo.push((node.child[k] as usize, open(nodes, b, &is_leaf)));
            }
        }
        out[me] = node;
    }
    out.shrink_to_fit();
    out
}

/// The lanes of the wide node of binary internal node `i`: its children, then the lane
/// of largest surface area that is not a leaf lane opened into its two children, until
/// four lanes or leaf lanes only.
fn open<V: Vector>(nodes: &[Node<V>], i: usize, is_leaf: &impl Fn(usize) -> bool) -> Vec<usize> {
    let first = nodes[i].first as usize;
    let mut lanes = vec![first, first + 1];
    while lanes.len() < LANES {
        let widest = lanes
            .iter()
            .enumerate()
            .filter(|&(_, &b)| !is_leaf(b))
            .max_by(|&(_, &x), &(_, &y)| {
                let (ax, ay) = (nodes[x].aabb.surface_area(), nodes[y].aabb.surface_area());
                ax.partial_cmp(&ay).unwrap_or(core::cmp::Ordering::Equal)
            })
            .map(|(k, _)| k);
        let Some(k) = widest else { break };
        let c = nodes[lanes[k]].first as usize;
        lanes[k] = c;
        lanes.insert(k + 1, c + 1);
    }
    lanes
}

fn empty_node<R: Real>() -> Node4<R> {
    Node4 {
        lo: [[-R::INFINITY; LANES]; 3],
        hi: [[R::INFINITY; LANES]; 3],
        child: [0; LANES],
        count: [0; LANES],
        valid: 0,
    }
}

/// Slots of the walk's fixed stack.
const STACK: usize = 32;

/// The walk's stack: the newest entries in a fixed array, the oldest moved to the heap in
/// halves when the array fills (a wide walk keeps up to three pending lanes a level, and the
/// build allows [`MAX_DEPTH`](super::MAX_DEPTH) levels: a fixed array that big would be cleared on every
/// call, and the walks of real trees stay far below it). A push and a pop test one count.
pub(super) struct WideStack<T: Copy> {
    slots: [T; STACK],
    len: usize,
    /// Older entries, oldest first.
    spill: Vec<T>,
}

impl<T: Copy> WideStack<T> {
    #[inline(always)]
    pub fn new(fill: T) -> Self {
        const { assert!(STACK % 2 == 0) };
        Self { slots: [fill; STACK], len: 0, spill: Vec::new() }
    }
    #[inline(always)]
    pub fn push(&mut self, x: T) {
        if self.len == STACK {
            self.spill_half();
        }
        self.slots[self.len] = x;
        self.len += 1;
    }
    #[cold]
    #[inline(never)]
    fn spill_half(&mut self) {
        self.spill.extend_from_slice(&self.slots[..STACK / 2]);
        self.slots.copy_within(STACK / 2.., 0);
        self.len = STACK / 2;
    }
    #[inline(always)]
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 && !self.refill() {
            return None;
        }
        self.len -= 1;
        Some(self.slots[self.len])
    }
    /// Brings back up to half an array of the newest spilled entries; false when none.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> bool {
        let k = self.spill.len().min(STACK / 2);
        let from = self.spill.len() - k;
        self.slots[..k].copy_from_slice(&self.spill[from..]);
        self.spill.truncate(from);
        self.len = k;
        k > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bvh::Bvh;
    use crate::math::{Aabb, Vec3};

    /// The stack pops what a `Vec` would, through many spills and refills.
    #[test]
    fn the_stack_spills_and_refills_in_order() {
        let mut stack = WideStack::new(0u32);
        let mut want = Vec::new();
        let mut x = 0u32;
        // Runs of pushes longer than the array, and pops back through it, in turns.
        for round in 0..40usize {
            let (push, pop) = ((round * 37) % 150 + 1, (round * 53) % 140);
            for _ in 0..push {
                x += 1;
                stack.push(x);
                want.push(x);
            }
            for _ in 0..pop {
                assert_eq!(stack.pop(), want.pop(), "round {round}");
            }
        }
        while let Some(w) = want.pop() {
            assert_eq!(stack.pop(), Some(w));
        }
        assert_eq!(stack.pop(), None);
    }

    /// Every item sits in exactly one leaf lane, lanes hold their subtrees' boxes, and every
    /// wide node is reached once from the root.
    #[test]
    fn the_wide_nodes_cover_every_item_once() {
        for n in [1usize, 2, 4, 5, 9, 64, 1000] {
            let boxes: Vec<Aabb<Vec3>> = (0..n)
                .map(|i| {
                    let c = Vec3::new((i * 7 % 31) as f32, (i * 3 % 17) as f32, (i % 5) as f32);
                    Aabb::from_ball(c, 0.4 + (i % 3) as f32)
                })
                .collect();
            let bvh = Bvh::new(&boxes);
            let wide = collapse(&bvh.nodes);
            let mut seen = vec![0usize; n];
            let mut reached = vec![0usize; wide.len()];
            let mut todo = vec![0usize];
            while let Some(w) = todo.pop() {
                reached[w] += 1;
                let node = &wide[w];
                for k in (0..LANES).filter(|&k| node.valid & (1 << k) != 0) {
                    let lane = Aabb::new(
                        Vec3::new(node.lo[0][k], node.lo[1][k], node.lo[2][k]),
                        Vec3::new(node.hi[0][k], node.hi[1][k], node.hi[2][k]),
                    );
                    if node.count[k] > 0 {
                        assert!(usize::from(node.count[k]) <= WIDE_LEAF.max(super::super::MAX_LEAF));
                        for slot in
                            node.child[k] as usize..(node.child[k] + u32::from(node.count[k])) as usize
                        {
                            seen[bvh.items[slot] as usize] += 1;
                            assert!(lane.contains(&bvh.item_boxes[slot]), "n {n}: a lane holds its items");
                        }
                    } else {
                        assert!(node.child[k] as usize > w, "n {n}: children after parents");
                        todo.push(node.child[k] as usize);
                    }
                }
            }
            assert!(seen.iter().all(|&k| k == 1), "n {n}: every item once");
            assert!(reached.iter().all(|&k| k == 1), "n {n}: every wide node once");
        }
    }
}
