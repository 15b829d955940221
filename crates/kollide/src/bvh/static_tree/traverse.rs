//! The queries of the static BVH: overlap, rays and swept boxes near to far, nearest items,
//! pairs. Each walks the tree with a fixed stack (the build bounds the depth).

use super::wide::{WideStack, LANES};
use super::{Bvh, Node, MAX_DEPTH};
use crate::math::{at_least, inverse_direction, is_parallel, Aabb, Pose, Real, Vector};

/// A fixed-size stack: the tree is never deeper than [`MAX_DEPTH`], and a depth-first walk
/// keeps at most one pending sibling per level.
struct Stack<T: Copy> {
    slots: [T; MAX_DEPTH + 2],
    len: usize,
}

impl<T: Copy> Stack<T> {
    #[inline(always)]
    fn new(fill: T) -> Self {
        Self { slots: [fill; MAX_DEPTH + 2], len: 0 }
    }
    #[inline(always)]
    fn push(&mut self, x: T) {
        // The build keeps every path within MAX_DEPTH nodes; a corrupted tree could exceed
        // it, and then the walk stops early rather than overflow.
        if self.len < self.slots.len() {
            self.slots[self.len] = x;
            self.len += 1;
        }
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.slots[self.len])
    }
}

/// A leaf's test in a walk near to far: `f(item_boxes, slots, best)` returns the leaf's
/// first hit at or before `best` (its slot and time).
trait LeafTest<V: Vector>:
    FnMut(&[Aabb<V>], core::ops::Range<usize>, V::Real) -> Option<(usize, V::Real)>
{
}

impl<V: Vector, F> LeafTest<V> for F where
    F: FnMut(&[Aabb<V>], core::ops::Range<usize>, V::Real) -> Option<(usize, V::Real)>
{
}

impl<V: Vector> Bvh<V> {
    /// A leaf's items with their boxes.
    #[inline(always)]
    fn leaf(&self, n: &Node<V>) -> impl Iterator<Item = (u32, &Aabb<V>)> + '_ {
        let range = n.first as usize..(n.first + n.count) as usize;
        self.items[range.clone()].iter().copied().zip(&self.item_boxes[range])
    }

    /// Items whose boxes meet `aabb` (touching counts). `f` returns false to stop early;
    /// the result is false when stopped.
    #[inline]
    pub fn visit_overlaps(&self, aabb: &Aabb<V>, mut f: impl FnMut(u32) -> bool) -> bool {
        self.visit_overlaps_boxed(aabb, |item, _| f(item))
    }

    /// [`Bvh::visit_overlaps`] with each item's box, as the tree stores it (the box the
    /// test met): `f(item, box)`. Items come in the order of a depth-first walk that
    /// prunes every subtree whose box misses `aabb`, so the items met by a box inside
    /// `aabb` come in the order they come for `aabb`.
    pub fn visit_overlaps_boxed(&self, aabb: &Aabb<V>, mut f: impl FnMut(u32, &Aabb<V>) -> bool) -> bool {
        if self.nodes.is_empty() {
            return true;
        }
        let mut stack = Stack::new(0u32);
        stack.push(0);
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if !n.aabb.intersects(aabb) {
                continue;
            }
            if n.count > 0 {
                for (item, b) in self.leaf(n) {
                    if b.intersects(aabb) && !f(item, b) {
                        return false;
                    }
                }
            } else {
                stack.push(n.first + 1);
                stack.push(n.first);
            }
        }
        true
    }

    /// Items whose boxes the ray `origin + t dir`, `t` in `[0, max_toi]`, meets, in no
    /// particular order; `f` returns false to stop.
    pub fn visit_ray(&self, origin: V, dir: V, max_toi: V::Real, mut f: impl FnMut(u32) -> bool) -> bool {
        if self.nodes.is_empty() || !at_least(max_toi, V::Real::ZERO) {
            return true;
        }
        let inv = inverse_direction(dir);
        let mut stack = Stack::new(0u32);
        stack.push(0);
        while let Some(i) = stack.pop() {
            let n = &self.nodes[i as usize];
            if n.aabb.ray_interval(origin, inv, max_toi).is_none() {
                continue;
            }
            if n.count > 0 {
                for (item, b) in self.leaf(n) {
                    if b.ray_interval(origin, inv, max_toi).is_some() && !f(item) {
                        return false;
                    }
                }
            } else {
                stack.push(n.first + 1);
                stack.push(n.first);
            }
        }
        true
    }

    /// The first hit along the ray `origin + t dir`, `t` in `[0, max_toi]`: items are
    /// offered near to far (by when the ray enters their leaf) as `f(item, best)`, `best`
    /// the least time found so far (`max_toi` at first); `f` returns the item's exact hit
    /// time when it is hit at or before `best`. Subtrees the ray enters after `best` are
    /// skipped. Every item of an entered leaf is offered (its own box is not tested: `f` is
    /// the exact test). Returns the best item and time.
    pub fn cast_ray(
        &self,
        origin: V,
        dir: V,
        max_toi: V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        let items = &self.items;
        let mut f = f;
        self.cast_grown(
            origin,
            dir,
            V::ZERO,
            max_toi,
            Self::each_slot(origin, dir, V::ZERO, |slot, best| f(items[slot], best)),
        )
        .map(|(slot, t)| (items[slot], t))
    }

    /// [`cast_ray`](Self::cast_ray) offering each item's **slot** instead: its position in
    /// [`item_order`](Self::item_order), the order of the leaves. A composite that keeps its
    /// items' data in that order reads them without a jump per item.
    pub fn cast_ray_slots(
        &self,
        origin: V,
        dir: V,
        max_toi: V::Real,
        f: impl FnMut(usize, V::Real) -> Option<V::Real>,
    ) -> Option<(usize, V::Real)> {
        self.cast_grown(origin, dir, V::ZERO, max_toi, Self::each_slot(origin, dir, V::ZERO, f))
    }

    /// [`cast_ray_slots`](Self::cast_ray_slots) offering a whole leaf at once:
    /// `f(slots, best)` returns the leaf's first hit at or before `best` (its slot and
    /// time), so that a composite can test a leaf's items together.
    pub(crate) fn cast_ray_leaves(
        &self,
        origin: V,
        dir: V,
        max_toi: V::Real,
        mut f: impl FnMut(core::ops::Range<usize>, V::Real) -> Option<(usize, V::Real)>,
    ) -> Option<(usize, V::Real)> {
        self.cast_grown(origin, dir, V::ZERO, max_toi, |_: &[Aabb<V>], slots, best| f(slots, best))
    }

    /// The items in the order of the leaves: slot `k` holds item `item_order()[k]`.
    #[must_use]
    pub fn item_order(&self) -> &[u32] {
        &self.items
    }

    /// The first hit of the box `aabb` moved by `t · motion`, `t` in `[0, max_toi]`, as
    /// [`cast_ray`](Self::cast_ray): node boxes are grown by `aabb`'s half extents and
    /// crossed by the ray of its centre, so no item whose box the moving box meets is
    /// skipped.
    pub fn cast_aabb(
        &self,
        aabb: &Aabb<V>,
        motion: V,
        max_toi: V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        let items = &self.items;
        let mut f = f;
        let (centre, grow) = (aabb.center(), aabb.half_extents());
        let each = Self::each_slot(centre, motion, grow, |slot, best| f(items[slot], best));
        self.cast_grown(centre, motion, grow, max_toi, each).map(|(slot, t)| (items[slot], t))
    }

    fn cast_grown(
        &self,
        origin: V,
        dir: V,
        grow: V,
        max_toi: V::Real,
        leaf: impl LeafTest<V>,
    ) -> Option<(usize, V::Real)> {
        if self.wide.is_empty() || !at_least(max_toi, V::Real::ZERO) {
            return None;
        }
        let inv = inverse_direction(dir);
        // The slab test's operands per axis; 2D's third axis meets everything.
        let lanes = |v: V, unused: V::Real| {
            let mut a = [unused; 3];
            for (axis, x) in a.iter_mut().enumerate().take(V::DIM) {
                *x = v[axis];
            }
            a
        };
        let (o3, inv3) = (lanes(origin, V::Real::ZERO), lanes(inv, V::Real::ONE));
        let parallel: [bool; 3] = core::array::from_fn(|axis| axis < V::DIM && is_parallel(inv3[axis]));
        // A ray's boxes are not grown: the slab test then skips the growth (`b - 0` is not
        // `b` for `b = -0`, so the compiler cannot drop it).
        let grow3 = (grow != V::ZERO).then(|| lanes(grow, V::Real::ZERO));
        // Two walks: the one for rays along a coordinate plane tests the closed slabs there.
        if parallel.contains(&true) {
            self.walk::<true>(o3, inv3, parallel, grow3, max_toi, leaf)
        } else {
            self.walk::<false>(o3, inv3, parallel, grow3, max_toi, leaf)
        }
    }

    /// The walk of [`cast_grown`](Self::cast_grown) on its slab test's operands.
    #[inline(always)]
    fn walk<const PARALLEL: bool>(
        &self,
        o3: [V::Real; 3],
        inv3: [V::Real; 3],
        parallel: [bool; 3],
        grow3: Option<[V::Real; 3]>,
        max_toi: V::Real,
        mut leaf: impl LeafTest<V>,
    ) -> Option<(usize, V::Real)> {
        let parallel = PARALLEL.then_some(parallel);
        let mut best: Option<(usize, V::Real)> = None;
        let mut limit = max_toi;
        // (wide node, 0, t) or (first slot, count, t) of a leaf, with the time the ray
        // enters it; a lane entered after the best hit so far is skipped when popped.
        let mut stack = WideStack::new((0u32, 0u32, V::Real::ZERO));
        // The entry walked next: the nearest lane of the last node, kept off the stack.
        let mut next = Some((0u32, 0u32, V::Real::ZERO));
        let mut met = [(V::Real::ZERO, 0usize); LANES];
        while let Some((first, count, t)) = next.take().or_else(|| stack.pop()) {
            if t > limit {
                continue;
            }
            if count > 0 {
                if let Some((slot, hit)) =
                    leaf(&self.item_boxes, first as usize..(first + count) as usize, limit)
                {
                    if hit <= limit {
                        limit = hit;
                        best = Some((slot, hit));
                    }
                }
                continue;
            }
            let n = &self.wide[first as usize];
            let (mask, enter) = V::Real::slab4(&n.lo, &n.hi, o3, inv3, parallel, grow3, limit);
            let mut mask = mask & n.valid & 0b1111;
            let entry = |lane: usize, t: V::Real| (n.child[lane], u32::from(n.count[lane]), t);
            if mask & mask.wrapping_sub(1) == 0 {
                // None or one lane met.
                if mask != 0 {
                    let lane = mask.trailing_zeros() as usize & 3;
                    next = Some(entry(lane, enter[lane]));
                }
                continue;
            }
            // The lanes met, the nearest walked next and the others pushed far to near: an
            // insertion by entry time into `met`, farthest first, and of equal times the
            // lower lane walked first (the binary tree's left side, as its own walk took
            // them).
            let mut k = 0;
            while mask != 0 {
                let lane = mask.trailing_zeros() as usize & 3;
                mask &= mask - 1;
                let mut j = k;
                while j > 0 && met[(j - 1) & 3].0 <= enter[lane] {
                    met[j & 3] = met[(j - 1) & 3];
                    j -= 1;
                }
                met[j & 3] = (enter[lane], lane);
                k += 1;
            }
            let k = k.min(LANES);
            for &(t, lane) in &met[..k - 1] {
                stack.push(entry(lane, t));
            }
            let (t, lane) = met[k - 1];
            next = Some(entry(lane, t));
        }
        best
    }

    /// A leaf test for [`cast_grown`](Self::cast_grown) from an item test: each slot of the
    /// leaf offered in turn as `f(slot, best)`, the best so far its limit. A swept box
    /// (`grow` not zero) first tests the item's own box, grown, against the ray of its
    /// centre: its item test is a shape cast, worth sparing. A ray's item test is as cheap
    /// as the box's, and the box one more memory stream (measured: 1.2x faster rays on a
    /// terrain without it).
    #[inline(always)]
    fn each_slot(
        origin: V,
        dir: V,
        grow: V,
        mut f: impl FnMut(usize, V::Real) -> Option<V::Real>,
    ) -> impl LeafTest<V> {
        // (Only a swept box tests the items' boxes: a ray does not pay for the inverse.)
        let cull = (grow != V::ZERO).then(|| inverse_direction(dir));
        move |boxes, slots, mut limit| {
            let mut best = None;
            for slot in slots {
                if let Some(inv) = cull {
                    let b = Aabb::new(boxes[slot].min - grow, boxes[slot].max + grow);
                    if b.ray_interval(origin, inv, limit).is_none() {
                        continue;
                    }
                }
                if let Some(hit) = f(slot, limit) {
                    if hit <= limit {
                        limit = hit;
                        best = Some((slot, hit));
                    }
                }
            }
            best
        }
    }

    /// A search for the item of least value: `lower(node_box)` bounds from below the value
    /// of every item in that box (a distance from a point or a shape's box, say); subtrees
    /// are visited nearer first and skipped once their bound reaches the best value found;
    /// `f(item, best)` returns the item's value when it is below `best` (`max` at first).
    /// Returns the best item and value.
    pub fn nearest(
        &self,
        max: V::Real,
        mut lower: impl FnMut(&Aabb<V>) -> V::Real,
        mut f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        if self.nodes.is_empty() {
            return None;
        }
        let mut best: Option<(u32, V::Real)> = None;
        let mut limit = max;
        let mut stack = Stack::new((0u32, V::Real::ZERO));
        let root = lower(&self.nodes[0].aabb);
        if !at_least(root, limit) {
            stack.push((0, root));
        }
        while let Some((i, bound)) = stack.pop() {
            if bound >= limit {
                continue;
            }
            let n = &self.nodes[i as usize];
            if n.count > 0 {
                for (item, b) in self.leaf(n) {
                    if lower(b) >= limit {
                        continue;
                    }
                    if let Some(v) = f(item, limit) {
                        if v < limit || best.is_none() && v <= limit {
                            limit = v;
                            best = Some((item, v));
                        }
                    }
                }
                continue;
            }
            let (l, r) = (n.first, n.first + 1);
            let (bl, br) = (lower(&self.nodes[l as usize].aabb), lower(&self.nodes[r as usize].aabb));
            // NaN bounds prune nothing (`!at_least(x, limit)`).
            let (first, second) = if bl <= br { ((l, bl), (r, br)) } else { ((r, br), (l, bl)) };
            if !at_least(second.1, limit) {
                stack.push(second);
            }
            if !at_least(first.1, limit) {
                stack.push(first);
            }
        }
        best
    }

    /// The item nearest to the point `p`: [`nearest`](Self::nearest) with the distance from
    /// `p` to each box as the bound; `f(item, best)` gives the item's exact distance.
    pub fn closest_to_point(
        &self,
        p: V,
        max: V::Real,
        f: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<(u32, V::Real)> {
        self.nearest(max, |b| b.distance_squared_to_point(p).sqrt(), f)
    }

    /// Pairs `(i of self, j of other)` whose boxes meet, `other`'s boxes placed in this
    /// tree's frame by `pose_ab` (turned boxes are the boxes around them). `f` returns false
    /// to stop; the result is false when stopped.
    pub fn visit_pairs(
        &self,
        other: &Bvh<V>,
        pose_ab: &Pose<V>,
        mut f: impl FnMut(u32, u32) -> bool,
    ) -> bool {
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return true;
        }
        let placed = |j: u32| other.nodes[j as usize].aabb.transformed(pose_ab);
        let mut stack: Vec<(u32, u32)> = vec![(0, 0)];
        while let Some((i, j)) = stack.pop() {
            let (a, b) = (&self.nodes[i as usize], &other.nodes[j as usize]);
            if !a.aabb.intersects(&placed(j)) {
                continue;
            }
            match (a.count > 0, b.count > 0) {
                (true, true) => {
                    for (x, bx) in self.leaf(a) {
                        for (y, by) in other.leaf(b) {
                            if bx.intersects(&by.transformed(pose_ab)) && !f(x, y) {
                                return false;
                            }
                        }
                    }
                }
                // Descend the larger box first (the other stays whole).
                (false, true) => stack.extend([(a.first, j), (a.first + 1, j)]),
                (true, false) => stack.extend([(i, b.first), (i, b.first + 1)]),
                (false, false) => {
                    if a.aabb.surface_area() >= b.aabb.surface_area() {
                        stack.extend([(a.first, j), (a.first + 1, j)]);
                    } else {
                        stack.extend([(i, b.first), (i, b.first + 1)]);
                    }
                }
            }
        }
        true
    }

    /// Pairs `(i, j)`, `i < j`, of this tree's items whose boxes meet. `f` returns false to
    /// stop; the result is false when stopped.
    pub fn visit_self_pairs(&self, mut f: impl FnMut(u32, u32) -> bool) -> bool {
        if self.nodes.is_empty() {
            return true;
        }
        let ordered = |x: u32, y: u32| if x < y { (x, y) } else { (y, x) };
        let meet = |x: u32, y: u32| self.nodes[x as usize].aabb.intersects(&self.nodes[y as usize].aabb);
        // (i, i): pairs within subtree i; (i, j): pairs across two disjoint subtrees whose
        // boxes are known to meet (pairs are pushed only then).
        let mut stack: Vec<(u32, u32)> = Vec::with_capacity(64);
        stack.push((0, 0));
        while let Some((i, j)) = stack.pop() {
            let (a, b) = (&self.nodes[i as usize], &self.nodes[j as usize]);
            if i == j {
                if a.count > 0 {
                    let range = a.first as usize..(a.first + a.count) as usize;
                    for k in range.clone() {
                        for m in k + 1..range.end {
                            let (p, q) = ordered(self.items[k], self.items[m]);
                            if self.item_boxes[k].intersects(&self.item_boxes[m]) && !f(p, q) {
                                return false;
                            }
                        }
                    }
                } else {
                    let (l, r) = (a.first, a.first + 1);
                    stack.push((l, l));
                    stack.push((r, r));
                    if meet(l, r) {
                        stack.push((l, r));
                    }
                }
                continue;
            }
            match (a.count > 0, b.count > 0) {
                (true, true) => {
                    for (x, bx) in self.leaf(a) {
                        for (y, by) in self.leaf(b) {
                            let (p, q) = ordered(x, y);
                            if bx.intersects(by) && !f(p, q) {
                                return false;
                            }
                        }
                    }
                }
                (false, true) => {
                    for c in [a.first, a.first + 1] {
                        if meet(c, j) {
                            stack.push((c, j));
                        }
                    }
                }
                (true, false) => {
                    for c in [b.first, b.first + 1] {
                        if meet(i, c) {
                            stack.push((i, c));
                        }
                    }
                }
                (false, false) => {
                    for x in [a.first, a.first + 1] {
                        for y in [b.first, b.first + 1] {
                            if meet(x, y) {
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
