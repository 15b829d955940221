//! The dynamic tree's queries: boxes, rays, swept boxes, best-first search and all pairs.
//! Every traversal uses an explicit stack (or heap) and visits each node at most once.

use super::{DynamicTree, Kind, ProxyId, NULL};
use crate::math::{inverse_direction, Aabb, Real, Vector};
use core::cmp::Ordering;
use std::collections::BinaryHeap;

/// A LIFO stack that holds its first 64 entries inline and spills the rest to the heap.
pub(super) struct Stack<T: Copy + Default> {
    inline: [T; 64],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy + Default> Stack<T> {
    #[inline(always)]
    pub(super) fn new() -> Self {
        Self { inline: [T::default(); 64], len: 0, spill: Vec::new() }
    }
    #[inline(always)]
    pub(super) fn push(&mut self, x: T) {
        if self.len < self.inline.len() {
            self.inline[self.len] = x;
            self.len += 1;
        } else {
            self.spill.push(x);
        }
    }
    #[inline(always)]
    pub(super) fn pop(&mut self) -> Option<T> {
        if let Some(x) = self.spill.pop() {
            Some(x)
        } else if self.len > 0 {
            self.len -= 1;
            Some(self.inline[self.len])
        } else {
            None
        }
    }
}

/// A heap entry for the best-first search: the least bound first.
struct Candidate<R> {
    bound: R,
    node: u32,
}

impl<R: Real> PartialEq for Candidate<R> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl<R: Real> Eq for Candidate<R> {}
impl<R: Real> PartialOrd for Candidate<R> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<R: Real> Ord for Candidate<R> {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap. Bounds are never NaN (mapped to -inf).
        other.bound.to_f64().total_cmp(&self.bound.to_f64())
    }
}

/// Up to four boxes by axis and lane, for [`DynamicTree::overlaps4`]: unused lanes hold
/// an empty box (meets nothing), an axis past the dimension the whole line.
struct Lanes4<R> {
    lo: [[R; 4]; 3],
    hi: [[R; 4]; 3],
}

impl<R: Real> Lanes4<R> {
    fn new<V: Vector<Real = R>>(boxes: &[Aabb<V>]) -> Self {
        let mut lo = [[R::INFINITY; 4]; 3];
        let mut hi = [[-R::INFINITY; 4]; 3];
        for axis in V::DIM..3 {
            (lo[axis], hi[axis]) = ([-R::INFINITY; 4], [R::INFINITY; 4]);
        }
        for (k, b) in boxes.iter().take(4).enumerate() {
            for axis in 0..V::DIM {
                lo[axis][k] = b.min[axis];
                hi[axis][k] = b.max[axis];
            }
        }
        Self { lo, hi }
    }

    /// Bit `k` set when lane `k`'s box meets `node` (touching counts).
    #[inline(always)]
    fn test<V: Vector<Real = R>>(&self, node: &Aabb<V>) -> u8 {
        let (mut nlo, mut nhi) = ([R::ZERO; 3], [R::ZERO; 3]);
        for axis in 0..V::DIM {
            (nlo[axis], nhi[axis]) = (node.min[axis], node.max[axis]);
        }
        R::meet4(&self.lo, &self.hi, nlo, nhi)
    }
}

/// Whether `value`, offered by a callback, replaces the best so far.
#[inline(always)]
fn improves<R: Real>(value: R, best: R, have: bool) -> bool {
    value < best || (!have && value <= best)
}

impl<V: Vector> DynamicTree<V> {
    /// Calls `f` for every proxy whose fat box meets `aabb` (touching counts; world frame),
    /// in no particular order. `f` returns `false` to stop; returns `false` when stopped.
    ///
    /// ```
    /// use kollide::bvh::DynamicTree;
    /// use kollide::math::{Aabb, Vec3};
    /// let mut tree = DynamicTree::<Vec3>::new(0.0);
    /// let id = tree.insert(Aabb::new(Vec3::ZERO, Vec3::ONE), 0).unwrap();
    /// let mut n = 0;
    /// assert!(tree.visit_overlaps(&Aabb::new(Vec3::ONE, Vec3::splat(2.0)), |p| { n += 1; p == id }));
    /// assert_eq!(n, 1);
    /// ```
    pub fn visit_overlaps(&self, aabb: &Aabb<V>, mut f: impl FnMut(ProxyId) -> bool) -> bool {
        if self.root == NULL {
            return true;
        }
        if !self.nodes[self.root as usize].bounds().intersects(aabb) {
            return true;
        }
        // Nodes on the stack meet `aabb`: children are tested (by the boxes their parent
        // keeps) before they are pushed.
        let mut stack = Stack::<u32>::new();
        stack.push(self.root);
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if n.kind == Kind::Leaf {
                if !f(ProxyId(i)) {
                    return false;
                }
                continue;
            }
            for slot in [1, 0] {
                if n.boxes[slot].intersects(aabb) {
                    stack.push(n.children()[slot]);
                }
            }
        }
        true
    }

    /// Up to four box searches in one walk: `f(leaf, mask)` for every proxy whose fat box
    /// meets at least one of `boxes`, bit `k` of `mask` set when it meets `boxes[k]`. A node
    /// is tested against the four boxes at once (lanes of one compare) and entered with the
    /// boxes that reached it, so searches for nearby boxes share the walk of the tree's top.
    /// `stack` is kept between calls.
    pub(in crate::bvh) fn overlaps4(
        &self,
        boxes: &[Aabb<V>],
        stack: &mut Vec<(u32, u8)>,
        mut f: impl FnMut(u32, u8),
    ) {
        if self.root == NULL || boxes.is_empty() {
            return;
        }
        let lanes = Lanes4::new(boxes);
        let root = &self.nodes[self.root as usize];
        let m = lanes.test(&root.bounds());
        if m == 0 {
            return;
        }
        if root.is_leaf() {
            f(self.root, m);
            return;
        }
        let need = usize::from(root.height) + 3;
        if stack.len() < need {
            stack.resize(need, (NULL, 0));
        }
        stack[0] = (self.root, m);
        // Only internal nodes are pushed: a child leaf is reported at once (its flag is in
        // its parent), not pushed and popped again.
        let mut len = 1usize;
        while len > 0 {
            len -= 1;
            let (i, mask) = stack[len];
            let node = &self.nodes[i as usize];
            if len + 2 > stack.len() {
                stack.resize(len + 2, (NULL, 0));
            }
            // Both children are tested by the boxes this node keeps; an inner child is
            // pushed without a branch.
            for slot in [1, 0] {
                let c = node.children()[slot];
                let m = mask & lanes.test(&node.boxes[slot]);
                if node.child_is_leaf(slot) {
                    if m != 0 {
                        f(c, m);
                    }
                } else {
                    stack[len] = (c, m);
                    len += usize::from(m != 0);
                }
            }
        }
    }

    /// First hit along the ray `origin + t dir`, `t` in `[0, max_toi]` (world frame; `dir`
    /// need not be unit, `t` is in units of `dir`). Proxies are offered near to far by
    /// their fat box's entry time as `f(id, best)`, `best` the least time found so far
    /// (`max_toi` at first); `f` returns the proxy's exact hit time when it is hit at or
    /// before `best`, else `None`. Subtrees entered after `best` are skipped. Returns the
    /// best `(id, time)`; `None` when nothing is hit, and for a non-finite origin or
    /// direction or a `max_toi` that is NaN or negative.
    ///
    /// ```
    /// use kollide::bvh::DynamicTree;
    /// use kollide::math::{inverse_direction, Aabb, Vec2};
    /// let boxes = [Aabb::new(Vec2::new(5.0, -1.0), Vec2::new(6.0, 1.0)),
    ///              Aabb::new(Vec2::new(2.0, -1.0), Vec2::new(3.0, 1.0))];
    /// let tree = DynamicTree::try_from_boxes(0.0, &boxes).unwrap();
    /// let (o, d) = (Vec2::ZERO, Vec2::X);
    /// let hit = tree.cast_ray(o, d, 100.0, |id, best| {
    ///     boxes[id.0 as usize].ray_interval(o, inverse_direction(d), best).map(|t| t.0)
    /// });
    /// assert_eq!(hit.map(|(id, t)| (id.0, t)), Some((1, 2.0)));
    /// ```
    pub fn cast_ray(
        &self,
        origin: V,
        dir: V,
        max_toi: V::Real,
        f: impl FnMut(ProxyId, V::Real) -> Option<V::Real>,
    ) -> Option<(ProxyId, V::Real)> {
        self.cast_grown(origin, dir, V::ZERO, max_toi, f)
    }

    /// First hit of the box `aabb` moving along `motion` (at time `t` it is `aabb` moved by
    /// `t * motion`, `t` in `[0, max_toi]`; world frame): the ray from its centre against
    /// fat boxes grown by its half extents, with the callback semantics of
    /// [`DynamicTree::cast_ray`]. Conservative: no proxy whose fat box the moving box meets
    /// is skipped. `None` for non-finite input (as for rays) or an inverted `aabb`.
    ///
    /// ```
    /// use kollide::bvh::DynamicTree;
    /// use kollide::math::{Aabb, Vec3};
    /// let wall = Aabb::new(Vec3::new(4.0, -5.0, -5.0), Vec3::new(5.0, 5.0, 5.0));
    /// let tree = DynamicTree::try_from_boxes(0.0, &[wall]).unwrap();
    /// let mover = Aabb::from_ball(Vec3::ZERO, 1.0);
    /// // Offer the box's entry time as the exact value.
    /// let hit = tree.cast_aabb(&mover, Vec3::X, 10.0, |_, _| Some(3.0));
    /// assert_eq!(hit.map(|h| h.1), Some(3.0));
    /// ```
    pub fn cast_aabb(
        &self,
        aabb: &Aabb<V>,
        motion: V,
        max_toi: V::Real,
        f: impl FnMut(ProxyId, V::Real) -> Option<V::Real>,
    ) -> Option<(ProxyId, V::Real)> {
        if !aabb.is_finite() || !aabb.is_valid() {
            return None;
        }
        self.cast_grown(aabb.center(), motion, aabb.half_extents(), max_toi, f)
    }

    /// The ray cast against node boxes grown by `grow` on every side.
    fn cast_grown(
        &self,
        origin: V,
        dir: V,
        grow: V,
        max_toi: V::Real,
        mut f: impl FnMut(ProxyId, V::Real) -> Option<V::Real>,
    ) -> Option<(ProxyId, V::Real)> {
        if self.root == NULL
            || !origin.is_finite_vec()
            || !dir.is_finite_vec()
            || max_toi.to_f64().is_nan()
            || max_toi < V::Real::ZERO
        {
            return None;
        }
        let inv = inverse_direction(dir);
        let enter = |b: &Aabb<V>, best: V::Real| {
            Aabb::new(b.min - grow, b.max + grow).ray_interval(origin, inv, best).map(|t| t.0)
        };
        let mut best = max_toi;
        let mut hit: Option<(ProxyId, V::Real)> = None;
        let mut stack = Stack::<(u32, V::Real)>::new();
        if let Some(t) = enter(&self.nodes[self.root as usize].bounds(), best) {
            stack.push((self.root, t));
        }
        while let Some((i, t)) = stack.pop() {
            if t > best {
                continue;
            }
            let n = &self.nodes[i as usize];
            if n.kind == Kind::Leaf {
                if let Some(v) = f(ProxyId(i), best) {
                    if improves(v, best, hit.is_some()) {
                        best = v;
                        hit = Some((ProxyId(i), v));
                    }
                }
                continue;
            }
            let (c1, c2) = (n.child1, n.child2);
            match (enter(&n.boxes[0], best), enter(&n.boxes[1], best)) {
                (Some(t1), Some(t2)) => {
                    // Far child first on the stack, so the near one is popped first.
                    if t1 <= t2 {
                        stack.push((c2, t2));
                        stack.push((c1, t1));
                    } else {
                        stack.push((c1, t1));
                        stack.push((c2, t2));
                    }
                }
                (Some(t1), None) => stack.push((c1, t1)),
                (None, Some(t2)) => stack.push((c2, t2)),
                (None, None) => {}
            }
        }
        hit
    }

    /// Best-first search. `lower(fat_box)` must bound from below the value of every proxy
    /// inside that box (e.g. the distance from a query point to the box); proxies are
    /// offered in increasing order of their fat box's bound as `f(id, best)`, and `f`
    /// returns the proxy's exact value when below `best`. Subtrees whose bound is `>= best`
    /// are pruned; `max` is the initial best (`INFINITY` for no limit). Returns the best
    /// `(id, value)`. A NaN bound is taken as `-inf` (never pruned).
    ///
    /// ```
    /// use kollide::bvh::DynamicTree;
    /// use kollide::math::{Aabb, DVec3};
    /// let pts = [DVec3::new(3.0, 0.0, 0.0), DVec3::new(0.0, 1.0, 0.0), DVec3::new(0.0, 0.0, -2.0)];
    /// let boxes: Vec<_> = pts.iter().map(|&p| Aabb::from_point(p)).collect();
    /// let tree = DynamicTree::try_from_boxes(0.0, &boxes).unwrap();
    /// let q = DVec3::ZERO;
    /// let best = tree.nearest(f64::INFINITY, |b| b.distance_squared_to_point(q).sqrt(),
    ///                         |id, _| Some(pts[id.0 as usize].distance(q)));
    /// assert_eq!(best.map(|(id, d)| (id.0, d)), Some((1, 1.0)));
    /// ```
    pub fn nearest(
        &self,
        max: V::Real,
        mut lower: impl FnMut(&Aabb<V>) -> V::Real,
        mut f: impl FnMut(ProxyId, V::Real) -> Option<V::Real>,
    ) -> Option<(ProxyId, V::Real)> {
        if self.root == NULL || max.to_f64().is_nan() {
            return None;
        }
        let mut bound = |b: &Aabb<V>| {
            let x = lower(b);
            if x.to_f64().is_nan() {
                -V::Real::INFINITY
            } else {
                x
            }
        };
        let mut best = max;
        let mut hit: Option<(ProxyId, V::Real)> = None;
        let mut heap = BinaryHeap::new();
        heap.push(Candidate { bound: bound(&self.nodes[self.root as usize].bounds()), node: self.root });
        while let Some(Candidate { bound: b, node: i }) = heap.pop() {
            if b >= best {
                break;
            }
            let n = &self.nodes[i as usize];
            if n.kind == Kind::Leaf {
                if let Some(v) = f(ProxyId(i), best) {
                    if v < best {
                        best = v;
                        hit = Some((ProxyId(i), v));
                    }
                }
                continue;
            }
            for (c, b) in n.children().into_iter().zip(&n.boxes) {
                let b = bound(b);
                if b < best {
                    heap.push(Candidate { bound: b, node: c });
                }
            }
        }
        hit
    }

    /// Calls `f(a, b)` once for every pair of distinct proxies whose fat boxes meet, with
    /// `a < b`. `f` returns `false` to stop; returns `false` when stopped.
    ///
    /// ```
    /// use kollide::bvh::{DynamicTree, ProxyId};
    /// use kollide::math::{Aabb, Vec2};
    /// let boxes: Vec<_> = (0..4).map(|i| Aabb::from_ball(Vec2::new(i as f32, 0.0), 0.5)).collect();
    /// let tree = DynamicTree::try_from_boxes(0.0, &boxes).unwrap();
    /// let mut pairs = Vec::new();
    /// tree.visit_self_pairs(|a, b| { pairs.push((a.0, b.0)); true });
    /// pairs.sort();
    /// assert_eq!(pairs, vec![(0, 1), (1, 2), (2, 3)]);
    /// ```
    pub fn visit_self_pairs(&self, mut f: impl FnMut(ProxyId, ProxyId) -> bool) -> bool {
        // A simultaneous walk of the tree against itself: (n, n) stands for the pairs within
        // subtree n, (m, n) for the pairs across two disjoint subtrees, pruned when their
        // boxes part. Each pair is reached once.
        if self.root == NULL {
            return true;
        }
        let node = |i: u32| &self.nodes[i as usize];
        let ordered =
            |x: u32, y: u32| if x < y { (ProxyId(x), ProxyId(y)) } else { (ProxyId(y), ProxyId(x)) };
        // Pairs are pushed only once their boxes are known to meet; a node's children are
        // tested by the boxes it keeps for them (a leaf's own box is its `boxes[0]`).
        let mut stack: Vec<(u32, u32)> = Vec::with_capacity(64);
        stack.push((self.root, self.root));
        while let Some((i, j)) = stack.pop() {
            let (a, b) = (node(i), node(j));
            if i == j {
                if !a.is_leaf() {
                    let (l, r) = (a.child1, a.child2);
                    stack.push((l, l));
                    stack.push((r, r));
                    if a.boxes[0].intersects(&a.boxes[1]) {
                        stack.push((l, r));
                    }
                }
                continue;
            }
            match (a.is_leaf(), b.is_leaf()) {
                (true, true) => {
                    let (p, q) = ordered(i, j);
                    if !f(p, q) {
                        return false;
                    }
                }
                (false, true) => {
                    for (c, cb) in a.children().into_iter().zip(&a.boxes) {
                        if cb.intersects(&b.boxes[0]) {
                            stack.push((c, j));
                        }
                    }
                }
                (true, false) => {
                    for (c, cb) in b.children().into_iter().zip(&b.boxes) {
                        if a.boxes[0].intersects(cb) {
                            stack.push((i, c));
                        }
                    }
                }
                (false, false) => {
                    // Both sides at once: the four pairs of children.
                    for (x, xb) in a.children().into_iter().zip(&a.boxes) {
                        for (y, yb) in b.children().into_iter().zip(&b.boxes) {
                            if xb.intersects(yb) {
                                stack.push((x, y));
                            }
                        }
                    }
                }
            }
        }
        true
    }
}
