//! The broad-phase rows: 10,000 and 100,000 random boxes, kollide's `DynamicTree` and
//! `BroadPhase` against parry's `Bvh` on the same `f32` boxes, in one run.
//!
//! - `broadphase-build`: the structure from the boxes (kollide `DynamicTree::try_from_boxes`,
//!   parry `Bvh::from_leaves` with its default binned strategy).
//! - `broadphase-pairs`: every overlapping pair. kollide `all_pairs` from the boxes alone
//!   (it picks its uniform grid for these boxes, and the grid's build is inside the timing);
//!   parry `traverse_bvtt_single_tree` without change detection on its Bvh built beforehand
//!   (its build is in the build row, not here).
//! - `broadphase-frame`: one frame where 10% of the boxes move a little, bringing the set of
//!   overlapping pairs up to date (kollide `BroadPhase::set_aabb` then `update`; parry
//!   `insert_or_update_partially` with the same margin, `refit`, the pairs of the changed
//!   leaves by `traverse_bvtt_single_tree::<true>`, and the moved boxes' old pairs dropped
//!   when their boxes no longer meet: the work a physics engine does with it). The frame
//!   moves the boxes forth and back, so every repetition does the same work.
//!
//! Before timing, both pair sets are checked against a sort-and-sweep of the boxes, after
//! the build and after a frame; a difference is a disagreement.

use crate::report::Row;
use crate::timing;
use glam::Vec3;
use kollide::bvh::{all_pairs, all_pairs_sweep, BroadPhase, DynamicTree, ProxyId};
use kollide::math::Aabb;
use kollide_bench::gen;
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use std::collections::HashSet;
use std::hint::black_box;

/// The enlargement of moving boxes, for both libraries.
const MARGIN: f32 = 0.1;

fn to_parry(b: &Aabb<Vec3>) -> PAabb {
    PAabb::new(b.min, b.max)
}

fn ordered(a: u32, b: u32) -> (u32, u32) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The truth: every pair whose boxes meet, sorted.
fn truth(bs: &[Aabb<Vec3>]) -> Vec<(u32, u32)> {
    let mut p = all_pairs_sweep(bs);
    p.sort_unstable();
    p
}

/// Parry's maintained pair set over a frame (see the module docs).
struct ParryFrame {
    bvh: Bvh,
    ws: BvhWorkspace,
    pairs: HashSet<(u32, u32)>,
}

impl ParryFrame {
    fn new(bs: &[Aabb<Vec3>]) -> Self {
        let leaves: Vec<PAabb> = bs.iter().map(to_parry).collect();
        let mut bvh = Bvh::from_leaves(BvhBuildStrategy::default(), &leaves);
        let mut ws = BvhWorkspace::default();
        // Fatten the leaves as a frame would.
        for (i, b) in leaves.iter().enumerate() {
            bvh.insert_or_update_partially(*b, i as u32, MARGIN);
        }
        bvh.refit(&mut ws);
        let mut pairs = HashSet::new();
        bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |a, b| {
            if bs[a as usize].intersects(&bs[b as usize]) {
                pairs.insert(ordered(a, b));
            }
        });
        Self { bvh, ws, pairs }
    }

    /// Moves `moved` to their boxes in `bs` and brings the pair set up to date.
    fn frame(&mut self, bs: &[Aabb<Vec3>], moved: &[u32]) {
        for &i in moved {
            self.bvh.insert_or_update_partially(to_parry(&bs[i as usize]), i, MARGIN);
        }
        self.bvh.refit(&mut self.ws);
        // Old pairs of moved boxes whose boxes parted.
        let moved_set: HashSet<u32> = moved.iter().copied().collect();
        self.pairs.retain(|&(a, b)| {
            !(moved_set.contains(&a) || moved_set.contains(&b)) || bs[a as usize].intersects(&bs[b as usize])
        });
        let pairs = &mut self.pairs;
        self.bvh.traverse_bvtt_single_tree::<true>(&mut self.ws, &mut |a, b| {
            if bs[a as usize].intersects(&bs[b as usize]) {
                pairs.insert(ordered(a, b));
            }
        });
    }

    fn sorted(&self) -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = self.pairs.iter().copied().collect();
        v.sort_unstable();
        v
    }
}

fn kollide_sorted(bp: &BroadPhase<Vec3>, ids: &[ProxyId]) -> Vec<(u32, u32)> {
    // Map proxy ids back to box indices.
    let mut index = std::collections::HashMap::new();
    for (i, id) in ids.iter().enumerate() {
        index.insert(*id, i as u32);
    }
    let mut v: Vec<(u32, u32)> = bp.pairs().map(|(a, b)| ordered(index[&a], index[&b])).collect();
    v.sort_unstable();
    v
}

/// The rows for `n` boxes.
pub fn run(seed: u64, n: usize, case: &str) -> Vec<Row> {
    let mut rng = gen::rng(seed);
    let a = gen::boxes(&mut rng, n);
    let (moved, b) = gen::moved_tenth(&mut rng, &a);
    let (truth_a, truth_b) = (truth(&a), truth(&b));
    let mut rows = Vec::new();
    let row = |query: &'static str, disagreements: usize, k: f64, p: f64, target: f64| Row {
        case: case.to_string(),
        query,
        overlap: truth_a.len() as f64 / n as f64,
        pairs: n,
        disagreements,
        distance_detail: None,
        kollide_ns: k,
        parry_ns: p,
        target,
    };

    // Build.
    let leaves: Vec<PAabb> = a.iter().map(to_parry).collect();
    let mut times = timing::measure(
        1,
        &mut [
            &mut || {
                black_box(DynamicTree::try_from_boxes(0.0, black_box(&a)).map(|t| t.len()).unwrap_or(0));
            },
            &mut || {
                black_box(Bvh::from_leaves(BvhBuildStrategy::default(), black_box(&leaves)).leaf_count());
            },
        ],
    );
    rows.push(row("broadphase-build", 0, times[0], times[1], 1.0));

    // All pairs from the built structures.
    let pbvh = Bvh::from_leaves(BvhBuildStrategy::default(), &leaves);
    let mut ws = BvhWorkspace::default();
    let mut kp = all_pairs(&a);
    kp.sort_unstable();
    let mut pp = Vec::new();
    pbvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |x, y| {
        if a[x as usize].intersects(&a[y as usize]) {
            pp.push(ordered(x, y));
        }
    });
    pp.sort_unstable();
    let bad = usize::from(kp != truth_a) + usize::from(pp != truth_a);
    if bad > 0 {
        eprintln!(
            "{case}/broadphase-pairs: kollide {} pairs, parry {} pairs, truth {}",
            kp.len(),
            pp.len(),
            truth_a.len()
        );
    }
    times = timing::measure(
        1,
        &mut [
            &mut || {
                black_box(all_pairs(black_box(&a)).len());
            },
            &mut || {
                let mut count = 0usize;
                pbvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |x, y| {
                    count += usize::from(a[x as usize].intersects(&a[y as usize]));
                });
                black_box(count);
            },
        ],
    );
    rows.push(row("broadphase-pairs", bad, times[0], times[1], 2.0));

    // One frame of 10% moving, forth and back.
    let mut bp = BroadPhase::new(MARGIN);
    let ids: Vec<ProxyId> = a.iter().map(|x| bp.insert(*x).expect("finite")).collect();
    bp.update();
    let mut pf = ParryFrame::new(&a);
    let mut bad = usize::from(kollide_sorted(&bp, &ids) != truth_a) + usize::from(pf.sorted() != truth_a);
    for &i in &moved {
        bp.set_aabb(ids[i as usize], b[i as usize]).expect("finite");
    }
    bp.update();
    pf.frame(&b, &moved);
    bad += usize::from(kollide_sorted(&bp, &ids) != truth_b) + usize::from(pf.sorted() != truth_b);
    if bad > 0 {
        eprintln!("{case}/broadphase-frame: {bad} pair sets differ from the sort-and-sweep truth");
    }
    let (mut k_at_b, mut p_at_b) = (true, true);
    times = timing::measure(
        1,
        &mut [
            &mut || {
                let to = if k_at_b { &a } else { &b };
                for &i in &moved {
                    let _ = bp.set_aabb(ids[i as usize], to[i as usize]);
                }
                black_box(bp.update());
                k_at_b = !k_at_b;
            },
            &mut || {
                let to = if p_at_b { &a } else { &b };
                pf.frame(to, &moved);
                black_box(pf.pairs.len());
                p_at_b = !p_at_b;
            },
        ],
    );
    rows.push(row("broadphase-frame", bad, times[0], times[1], 2.0));
    rows
}
