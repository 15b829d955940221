//! The dynamic tree, the broad phase and sort-and-sweep against brute force over all
//! items, in 2D and 3D, f32 and f64 (each test body written once, run by `for_all_vectors!`).

use kollide::bvh::{all_pairs_sweep, all_pairs_tree, BroadPhase, DynamicTree, DynamicTreeError, ProxyId};
use kollide::math::{Aabb, DVec2, DVec3, Real, Vec2, Vec3};
use kollide::query::Space;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeSet, HashMap};

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn vec_in<V: Space>(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> V {
    V::from_f64_array([rng.random_range(lo..hi), rng.random_range(lo..hi), rng.random_range(lo..hi)])
}

/// A random box in `[0, world]^d` with half sizes up to `size` (some of them zero-size).
fn random_box<V: Space>(rng: &mut ChaCha8Rng, world: f64, size: f64) -> Aabb<V> {
    let c: V = vec_in(rng, 0.0, world);
    let h: V = if rng.random_bool(0.05) { V::ZERO } else { vec_in(rng, 0.0, size) };
    Aabb::new(c - h, c + h)
}

fn f64_box<V: Space>(b: &Aabb<V>) -> ([f64; 3], [f64; 3]) {
    (b.min.to_f64_array(), b.max.to_f64_array())
}

/// Where the ray `o + t d` enters the box `(lo, hi)` within `[0, max]`, in f64.
fn ray_entry(dim: usize, lo: [f64; 3], hi: [f64; 3], o: [f64; 3], d: [f64; 3], max: f64) -> Option<f64> {
    let (mut t0, mut t1) = (0.0f64, max);
    for k in 0..dim {
        if d[k] == 0.0 {
            if o[k] < lo[k] || o[k] > hi[k] {
                return None;
            }
            continue;
        }
        let (a, b) = ((lo[k] - o[k]) / d[k], (hi[k] - o[k]) / d[k]);
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
    }
    (t0 <= t1).then_some(t0)
}

fn point_box_distance(dim: usize, lo: [f64; 3], hi: [f64; 3], p: [f64; 3]) -> f64 {
    (0..dim).map(|k| (lo[k] - p[k]).max(p[k] - hi[k]).max(0.0).powi(2)).sum::<f64>().sqrt()
}

/// Relative-and-absolute closeness for times and distances (f32 rounds the boxes' fat
/// margins; the exact values come from the same f64 formula).
fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

fn tol<V: Space>() -> f64 {
    if V::Real::EPSILON.to_f64() > 1e-10 {
        1e-5
    } else {
        1e-12
    }
}

macro_rules! for_all_vectors {
    ($($name:ident),* $(,)?) => {
        mod vec2 { $( #[test] fn $name() { super::$name::<super::Vec2>(); } )* }
        mod dvec2 { $( #[test] fn $name() { super::$name::<super::DVec2>(); } )* }
        mod vec3 { $( #[test] fn $name() { super::$name::<super::Vec3>(); } )* }
        mod dvec3 { $( #[test] fn $name() { super::$name::<super::DVec3>(); } )* }
    };
}

for_all_vectors!(
    random_operations_keep_the_tree_valid,
    sorted_insertions_stay_balanced,
    overlap_queries_equal_brute_force,
    ray_first_hit_equals_brute_force,
    cast_aabb_equals_brute_force,
    nearest_equals_brute_force,
    broad_phase_pairs_equal_brute_force_every_frame,
    jittering_bodies_keep_the_pairs_exact,
    sweep_and_tree_pairs_equal_brute_force,
    large_broad_phase_equals_the_sweep,
    fat_boxes_predict_steady_motion,
    bad_input_is_refused_and_stale_ids_are_harmless,
);

/// Thousands of random inserts, removes and moves (small, large, teleports); `validate`
/// after each batch, and the tree's proxies, fat boxes and user values match a model.
fn random_operations_keep_the_tree_valid<V: Space>() {
    let mut r = rng(11);
    let mut tree = DynamicTree::<V>::new(V::Real::from_f64(0.1));
    let mut model: HashMap<ProxyId, (Aabb<V>, u64)> = HashMap::new();
    let mut reinserted = [0usize; 2];
    for step in 0..6000u64 {
        let live: Vec<ProxyId> = if step % 16 == 0 { model.keys().copied().collect() } else { Vec::new() };
        let op = r.random_range(0..10);
        if op < 4 || model.len() < 10 {
            let b = random_box::<V>(&mut r, 100.0, 3.0);
            let id = tree.insert(b, step).unwrap();
            assert!(model.insert(id, (b, step)).is_none(), "id {id:?} given out twice");
        } else {
            let ids: Vec<ProxyId> = model.keys().copied().collect();
            let id = ids[r.random_range(0..ids.len())];
            if op < 6 {
                assert_eq!(tree.remove(id), Some(model[&id].1));
                model.remove(&id);
                assert_eq!(tree.remove(id), None);
            } else {
                let old = model[&id].0;
                let d: V = match op {
                    6 | 7 => vec_in(&mut r, -0.08, 0.08),
                    8 => vec_in(&mut r, -5.0, 5.0),
                    _ => vec_in(&mut r, -100.0, 100.0),
                };
                let b = Aabb::new(old.min + d, old.max + d);
                let moved = tree.move_proxy(id, b, d).unwrap();
                reinserted[moved as usize] += 1;
                assert!(tree.fat_aabb(id).unwrap().contains(&b));
                model.get_mut(&id).unwrap().0 = b;
            }
        }
        if step % 16 == 0 {
            tree.validate().unwrap_or_else(|e| panic!("step {step}: {e}"));
            assert_eq!(tree.len(), model.len());
            for id in live.iter().filter(|id| model.contains_key(id)) {
                assert!(tree.fat_aabb(*id).unwrap().contains(&model[id].0));
                assert_eq!(tree.user(*id), Some(model[id].1));
            }
            let n = model.len().max(2) as f64;
            assert!((tree.height() as f64) <= 3.0 * n.log2(), "height {} for {n} proxies", tree.height());
        }
        if step == 3000 {
            tree.rebuild();
            tree.validate().unwrap();
        }
    }
    // Small moves mostly stay in the fat box; large ones re-insert.
    assert!(reinserted[0] > 100 && reinserted[1] > 100, "{reinserted:?}");
    // Remove everything: empty and still valid, and ids are reused afterwards.
    for id in model.keys() {
        assert!(tree.remove(*id).is_some());
    }
    assert!(tree.is_empty() && tree.height() == 0);
    tree.validate().unwrap();
    let id = tree.insert(Aabb::new(V::ZERO, V::splat(V::Real::ONE)), 5).unwrap();
    assert!((id.0 as usize) < 20_000);
    tree.validate().unwrap();
}

/// Boxes inserted in sorted order along a line (the worst case for an unbalanced tree)
/// give a height within 3 log2 n; also along a diagonal and all at one spot.
fn sorted_insertions_stay_balanced<V: Space>() {
    for layout in 0..3 {
        let mut tree = DynamicTree::<V>::new(V::Real::from_f64(0.01));
        let n = 2000;
        for i in 0..n {
            let c = match layout {
                0 => V::axis(0) * V::Real::from_usize(i),
                1 => V::splat(V::Real::from_usize(i)),
                _ => V::ZERO,
            };
            tree.insert(Aabb::from_ball(c, V::Real::from_f64(0.4)), i as u64).unwrap();
        }
        tree.validate().unwrap();
        let bound = 3.0 * (n as f64).log2();
        assert!((tree.height() as f64) <= bound, "layout {layout}: height {} > {bound}", tree.height());
    }
}

/// The side of the world the query tests fill: as dense in 2D as in 3D.
fn world<V: Space>() -> f64 {
    if V::DIM == 2 {
        200.0
    } else {
        50.0
    }
}

/// A tree built by inserts (and a few removes and moves) over random boxes.
fn random_tree<V: Space>(r: &mut ChaCha8Rng, n: usize) -> (DynamicTree<V>, HashMap<ProxyId, Aabb<V>>) {
    let mut tree = DynamicTree::<V>::new(V::Real::from_f64(0.05));
    let mut boxes = HashMap::new();
    for i in 0..n {
        let b = random_box::<V>(r, world::<V>(), 2.0);
        boxes.insert(tree.insert(b, i as u64).unwrap(), b);
    }
    let ids: Vec<ProxyId> = boxes.keys().copied().collect();
    for id in ids.iter().take(n / 10) {
        tree.remove(*id);
        boxes.remove(id);
    }
    for id in ids.iter().skip(n / 10).take(n / 10) {
        let b = random_box::<V>(r, world::<V>(), 2.0);
        tree.move_proxy(*id, b, V::ZERO).unwrap();
        boxes.insert(*id, b);
    }
    (tree, boxes)
}

fn overlap_queries_equal_brute_force<V: Space>() {
    let mut r = rng(21);
    let (tree, boxes) = random_tree::<V>(&mut r, 600);
    let mut counts = [0usize; 2];
    for q in 0..300 {
        let query = random_box::<V>(&mut r, world::<V>(), 4.0);
        let mut got = BTreeSet::new();
        tree.visit_overlaps(&query, |id| {
            // The tree answers by fat box; the exact test is the caller's.
            if boxes[&id].intersects(&query) {
                assert!(got.insert(id), "query {q}: {id:?} twice");
            }
            true
        });
        let want: BTreeSet<ProxyId> =
            boxes.iter().filter(|(_, b)| b.intersects(&query)).map(|(id, _)| *id).collect();
        assert_eq!(got, want, "query {q}");
        counts[usize::from(!want.is_empty())] += 1;
        // Every proxy whose fat box meets is visited (conservative).
        let mut fat = 0;
        tree.visit_overlaps(&query, |_| {
            fat += 1;
            true
        });
        assert_eq!(fat, boxes.keys().filter(|id| tree.fat_aabb(**id).unwrap().intersects(&query)).count());
        // Stopping early stops.
        let mut seen = 0;
        let done = tree.visit_overlaps(&query, |_| {
            seen += 1;
            false
        });
        assert_eq!((done, seen), if fat == 0 { (true, 0) } else { (false, 1) });
    }
    assert!(counts[0] > 30 && counts[1] > 30, "misses/hits {counts:?}");
}

fn ray_first_hit_equals_brute_force<V: Space>() {
    let mut r = rng(31);
    let (tree, boxes) = random_tree::<V>(&mut r, 500);
    let dim = V::DIM;
    let mut counts = [0usize; 2];
    for q in 0..400 {
        let o: V = vec_in(&mut r, -10.0, world::<V>() + 10.0);
        let mut d: V = vec_in(&mut r, -1.0, 1.0);
        if q % 10 == 0 {
            d = V::axis(q % dim) * V::Real::from_f64(2.0); // axis-aligned rays
        }
        let max = r.random_range(1.0..80.0);
        let (of, df) = (o.to_f64_array(), d.to_f64_array());
        let exact = |id: ProxyId| {
            let (lo, hi) = f64_box(&boxes[&id]);
            ray_entry(dim, lo, hi, of, df, max)
        };
        let mut calls = 0;
        let got = tree.cast_ray(o, d, V::Real::from_f64(max), |id, best| {
            calls += 1;
            exact(id).filter(|t| *t <= best.to_f64()).map(V::Real::from_f64)
        });
        let want = boxes.keys().filter_map(|id| exact(*id)).min_by(f64::total_cmp);
        match (got, want) {
            (None, None) => counts[0] += 1,
            (Some((id, t)), Some(w)) => {
                counts[1] += 1;
                assert!(close(t.to_f64(), w, tol::<V>()), "ray {q}: tree {t} vs brute {w}");
                assert!(close(exact(id).unwrap(), w, tol::<V>()), "ray {q}: {id:?} is not a first hit");
            }
            (g, w) => panic!("ray {q}: tree {g:?} vs brute {w:?}"),
        }
        assert!(calls <= boxes.len());
    }
    assert!(counts[0] > 30 && counts[1] > 30, "misses/hits {counts:?}");
}

fn cast_aabb_equals_brute_force<V: Space>() {
    let mut r = rng(41);
    let (tree, boxes) = random_tree::<V>(&mut r, 400);
    let dim = V::DIM;
    let mut counts = [0usize; 2];
    for q in 0..300 {
        let mover = random_box::<V>(&mut r, world::<V>(), 1.5);
        let motion: V = vec_in(&mut r, -20.0, 20.0);
        let max = r.random_range(0.2..1.5);
        let (c, h) = (mover.center().to_f64_array(), mover.half_extents().to_f64_array());
        let m = motion.to_f64_array();
        // The exact first touch of the moving box with an item box: the ray from the
        // mover's centre against the item box grown by the mover's half extents.
        let exact = |id: ProxyId| {
            let (mut lo, mut hi) = f64_box(&boxes[&id]);
            for k in 0..3 {
                lo[k] -= h[k];
                hi[k] += h[k];
            }
            ray_entry(dim, lo, hi, c, m, max)
        };
        let got = tree.cast_aabb(&mover, motion, V::Real::from_f64(max), |id, best| {
            exact(id).filter(|t| *t <= best.to_f64()).map(V::Real::from_f64)
        });
        let want = boxes.keys().filter_map(|id| exact(*id)).min_by(f64::total_cmp);
        match (got, want) {
            (None, None) => counts[0] += 1,
            (Some((_, t)), Some(w)) => {
                counts[1] += 1;
                assert!(close(t.to_f64(), w, tol::<V>()), "cast {q}: tree {t} vs brute {w}");
            }
            (g, w) => panic!("cast {q}: tree {g:?} vs brute {w:?}"),
        }
    }
    assert!(counts[0] > 30 && counts[1] > 30, "misses/hits {counts:?}");
}

fn nearest_equals_brute_force<V: Space>() {
    let mut r = rng(51);
    let (tree, boxes) = random_tree::<V>(&mut r, 500);
    let dim = V::DIM;
    let mut counts = [0usize; 2];
    for q in 0..300 {
        let p: V = vec_in(&mut r, -20.0, world::<V>() + 20.0);
        let pf = p.to_f64_array();
        let max = if q % 2 == 0 { f64::INFINITY } else { r.random_range(0.5..6.0) };
        let exact = |id: ProxyId| {
            let (lo, hi) = f64_box(&boxes[&id]);
            point_box_distance(dim, lo, hi, pf)
        };
        let got = tree.nearest(
            V::Real::from_f64(max),
            |b| b.distance_squared_to_point(p).sqrt(),
            |id, best| Some(exact(id)).filter(|d| *d < best.to_f64()).map(V::Real::from_f64),
        );
        let want = boxes.keys().map(|id| exact(*id)).filter(|d| *d < max).min_by(f64::total_cmp);
        match (got, want) {
            (None, None) => counts[0] += 1,
            (Some((id, d)), Some(w)) => {
                counts[1] += 1;
                assert!(close(d.to_f64(), w, tol::<V>()), "point {q}: tree {d} vs brute {w}");
                assert!(close(exact(id), w, tol::<V>()));
            }
            (g, w) => panic!("point {q}: tree {g:?} vs brute {w:?}"),
        }
    }
    assert!(counts[0] > 30 && counts[1] > 30, "misses/hits {counts:?}");
}

fn brute_pairs<V: Space>(boxes: &HashMap<ProxyId, Aabb<V>>) -> BTreeSet<(ProxyId, ProxyId)> {
    let mut ids: Vec<ProxyId> = boxes.keys().copied().collect();
    ids.sort();
    let mut out = BTreeSet::new();
    for (i, a) in ids.iter().enumerate() {
        for b in &ids[i + 1..] {
            if boxes[a].intersects(&boxes[b]) {
                out.insert((*a, *b));
            }
        }
    }
    out
}

/// A random simulation: each frame inserts, removes, moves bodies a little or a lot, and
/// teleports a few; after every update the pair set equals brute force over tight boxes,
/// and the reported changes are exactly the difference from the previous frame's set.
fn broad_phase_pairs_equal_brute_force_every_frame<V: Space>() {
    let mut r = rng(61);
    let side = if V::DIM == 2 { 40.0 } else { 16.0 };
    for margin in [0.0, 0.2] {
        let mut bp = BroadPhase::<V>::new(V::Real::from_f64(margin));
        let mut bodies: HashMap<ProxyId, Aabb<V>> = HashMap::new();
        let mut velocity: HashMap<ProxyId, V> = HashMap::new();
        let mut previous = BTreeSet::new();
        let (mut added, mut removed) = (0usize, 0usize);
        for frame in 0..120 {
            let inserts = if frame == 0 { 250 } else { r.random_range(0..7) };
            for _ in 0..inserts {
                let b = random_box::<V>(&mut r, side, 1.5);
                let id = bp.insert(b).unwrap();
                assert!(bodies.insert(id, b).is_none());
                velocity.insert(id, vec_in(&mut r, -0.3, 0.3));
            }
            let mut ids: Vec<ProxyId> = bodies.keys().copied().collect();
            ids.sort();
            for id in ids {
                let x = r.random_range(0..100);
                if x < 2 {
                    assert!(bp.remove(id));
                    bodies.remove(&id);
                    continue;
                }
                let old = bodies[&id];
                let b = match x {
                    2..=4 => random_box::<V>(&mut r, side, 1.5), // teleport
                    5..=69 => {
                        // Large moves, or steady motion turned back at the world's walls.
                        let d: V = if x < 15 { vec_in(&mut r, -3.0, 3.0) } else { velocity[&id] };
                        let c = (old.center() + d).to_f64_array();
                        if (0..V::DIM).any(|k| c[k] < 0.0 || c[k] > side) {
                            velocity.insert(id, -velocity[&id]);
                            continue;
                        }
                        Aabb::new(old.min + d, old.max + d)
                    }
                    _ => continue, // at rest
                };
                bp.set_aabb(id, b).unwrap();
                bodies.insert(id, b);
            }
            let changes = bp.update();
            let now: BTreeSet<_> = bp.pairs().collect();
            assert_eq!(now.len(), bp.pair_count());
            let want = brute_pairs(&bodies);
            assert_eq!(now, want, "frame {frame}: pairs differ from brute force");
            let got_added: BTreeSet<_> = changes.added.iter().copied().collect();
            let got_removed: BTreeSet<_> = changes.removed.iter().copied().collect();
            assert_eq!(got_added.len(), changes.added.len(), "frame {frame}: a pair added twice");
            assert_eq!(got_removed.len(), changes.removed.len(), "frame {frame}: a pair removed twice");
            assert_eq!(got_added, &now - &previous, "frame {frame}: added");
            assert_eq!(got_removed, &previous - &now, "frame {frame}: removed");
            for (a, b) in &now {
                assert!(a < b);
            }
            added += got_added.len();
            removed += got_removed.len();
            previous = now;
            if frame % 20 == 0 {
                bp.tree().validate().unwrap();
                assert_eq!(bp.len(), bodies.len());
            }
        }
        println!("margin {margin}: {added} pairs added, {removed} removed, {} at the end", previous.len());
        assert!(added > 300 && removed > 300 && !previous.is_empty(), "added {added}, removed {removed}");
    }
}

/// Bodies jittering inside their fat boxes (most frames move no fat box, and the update
/// tests again only the pairs of the bodies that moved), with now and then a body leaving
/// its fat box, one inserted, one removed: after every update the pair set equals brute
/// force and the changes are the difference from the previous frame.
fn jittering_bodies_keep_the_pairs_exact<V: Space>() {
    let mut r = rng(67);
    let side = if V::DIM == 2 { 30.0 } else { 12.0 };
    let mut bp = BroadPhase::<V>::new(V::Real::from_f64(0.5));
    let mut home: HashMap<ProxyId, Aabb<V>> = HashMap::new();
    let mut bodies: HashMap<ProxyId, Aabb<V>> = HashMap::new();
    for _ in 0..200 {
        let b = random_box::<V>(&mut r, side, 1.5);
        let id = bp.insert(b).unwrap();
        home.insert(id, b);
        bodies.insert(id, b);
    }
    let mut previous = BTreeSet::new();
    let mut flips = 0;
    for frame in 0..150 {
        let mut ids: Vec<ProxyId> = bodies.keys().copied().collect();
        ids.sort();
        for &id in &ids {
            if r.random_range(0..4) == 0 {
                // Within 0.2 of home: inside the fat box (home loosened by 0.5).
                let d: V = vec_in(&mut r, -0.2, 0.2);
                let b = Aabb::new(home[&id].min + d, home[&id].max + d);
                bp.set_aabb(id, b).unwrap();
                bodies.insert(id, b);
            }
        }
        if frame % 10 == 9 {
            // A body leaves its fat box: it is placed again, with a new home.
            let id = ids[r.random_range(0..ids.len())];
            let b = random_box::<V>(&mut r, side, 1.5);
            bp.set_aabb(id, b).unwrap();
            home.insert(id, b);
            bodies.insert(id, b);
        }
        if frame % 15 == 14 {
            let b = random_box::<V>(&mut r, side, 1.5);
            let id = bp.insert(b).unwrap();
            home.insert(id, b);
            bodies.insert(id, b);
        }
        if frame % 25 == 24 {
            let id = ids[r.random_range(0..ids.len())];
            assert!(bp.remove(id));
            home.remove(&id);
            bodies.remove(&id);
        }
        let changes = bp.update();
        let now: BTreeSet<_> = bp.pairs().collect();
        assert_eq!(now.len(), bp.pair_count());
        assert_eq!(now, brute_pairs(&bodies), "frame {frame}: pairs differ from brute force");
        let got_added: BTreeSet<_> = changes.added.iter().copied().collect();
        let got_removed: BTreeSet<_> = changes.removed.iter().copied().collect();
        assert_eq!(got_added.len(), changes.added.len(), "frame {frame}: a pair added twice");
        assert_eq!(got_added, &now - &previous, "frame {frame}: added");
        assert_eq!(got_removed, &previous - &now, "frame {frame}: removed");
        flips += got_added.len() + got_removed.len();
        previous = now;
    }
    assert!(flips > 200, "only {flips} pairs began or ended");
}

fn sweep_and_tree_pairs_equal_brute_force<V: Space>() {
    let mut r = rng(71);
    for (n, size) in [(0, 1.0), (1, 1.0), (700, 2.0), (400, 6.0)] {
        let mut boxes: Vec<Aabb<V>> = (0..n).map(|_| random_box::<V>(&mut r, 60.0, size)).collect();
        if n > 10 {
            boxes[3] = boxes[4]; // a duplicate
            boxes[5] = Aabb::from_point(boxes[6].min); // a point touching a corner
        }
        let mut want = BTreeSet::new();
        for i in 0..n {
            for j in i + 1..n {
                if boxes[i].intersects(&boxes[j]) {
                    want.insert((i as u32, j as u32));
                }
            }
        }
        let sweep = all_pairs_sweep(&boxes);
        let sweep_set: BTreeSet<_> = sweep.iter().copied().collect();
        assert_eq!(sweep_set.len(), sweep.len(), "sweep reports a pair twice");
        assert_eq!(sweep_set, want, "sweep, n = {n}");
        let tree = all_pairs_tree(&boxes).unwrap();
        let tree_set: BTreeSet<_> = tree.iter().copied().collect();
        assert_eq!(tree_set.len(), tree.len());
        assert_eq!(tree_set, want, "tree, n = {n}");
        if n > 10 {
            assert!(want.len() > 20 && want.len() < n * n / 8, "{} pairs of {n}", want.len());
        }
    }
    // Boxes that meet nothing in the sweep: NaN and inverted; the tree refuses them.
    let mut boxes = vec![Aabb::new(V::ZERO, V::splat(V::Real::ONE)); 3];
    boxes[1].min = V::from_f64_array([f64::NAN, 0.0, 0.0]);
    boxes[2] = Aabb::new(V::splat(V::Real::ONE), V::ZERO);
    assert!(all_pairs_sweep(&boxes).is_empty());
    assert!(all_pairs_tree(&boxes).is_none());
}

/// Thousands of bodies built at once and then mostly moved: big move buffers (searched in
/// parallel with the `rayon` feature, and after a tree rebuild). The truth is the sweep,
/// itself checked against brute force above.
fn large_broad_phase_equals_the_sweep<V: Space>() {
    let mut r = rng(81);
    let n = 6000;
    let side = if V::DIM == 2 { 300.0 } else { 60.0 };
    let mut boxes: Vec<Aabb<V>> = (0..n).map(|_| random_box::<V>(&mut r, side, 1.5)).collect();
    let mut bp = BroadPhase::<V>::try_from_boxes(V::Real::from_f64(0.1), &boxes).unwrap();
    let sorted = |mut v: Vec<(u32, u32)>| {
        v.sort_unstable();
        v
    };
    for frame in 0..3 {
        let changes = bp.update();
        let got: Vec<(u32, u32)> = bp.pairs().map(|(a, b)| (a.0, b.0)).collect();
        let want = sorted(all_pairs_sweep(&boxes));
        assert_eq!(got, want, "frame {frame}");
        assert!(want.len() > n / 5, "{} pairs", want.len());
        if frame == 0 {
            assert_eq!(changes.added.len(), want.len());
        }
        for (i, b) in boxes.iter_mut().enumerate() {
            if i % 6 != 0 {
                let d: V = vec_in(&mut r, -1.0, 1.0);
                *b = Aabb::new(b.min + d, b.max + d);
                bp.set_aabb(ProxyId(i as u32), *b).unwrap();
            }
        }
    }
    bp.tree().validate().unwrap();
}

/// A body moving steadily is re-inserted only every few steps (its fat box is stretched
/// ahead), also with margin 0; a fast body that stops gets its big box shrunk.
fn fat_boxes_predict_steady_motion<V: Space>() {
    for (margin, most) in [(0.0, 50), (0.1, 25)] {
        let mut tree = DynamicTree::<V>::new(V::Real::from_f64(margin));
        let _other =
            tree.insert(Aabb::new(V::splat(V::Real::from_f64(-3.0)), V::splat(V::Real::from_f64(-2.0))), 0);
        let mut b = Aabb::new(V::ZERO, V::splat(V::Real::ONE));
        let id = tree.insert(b, 1).unwrap();
        let d = V::axis(0) * V::Real::from_f64(0.05);
        let mut reinserts = 0;
        for step in 0..100 {
            b = Aabb::new(b.min + d, b.max + d);
            reinserts += usize::from(tree.move_proxy(id, b, d).unwrap());
            assert!(tree.fat_aabb(id).unwrap().contains(&b), "step {step}");
        }
        assert!(reinserts <= most, "margin {margin}: {reinserts} re-inserts in 100 steps");
        // Fast, then stopped: the stretched box is shrunk back.
        let fast = V::axis(0) * V::Real::from_f64(3.0);
        b = Aabb::new(b.min + fast, b.max + fast);
        assert!(tree.move_proxy(id, b, fast).unwrap());
        assert!(tree.fat_aabb(id).unwrap().extents()[0].to_f64() > 6.0);
        assert!(tree.move_proxy(id, b, V::ZERO).unwrap());
        assert_eq!(tree.fat_aabb(id), Some(b.loosened(V::Real::from_f64(margin))));
        tree.validate().unwrap();
    }
}

fn bad_input_is_refused_and_stale_ids_are_harmless<V: Space>() {
    let one = V::Real::ONE;
    let good = Aabb::new(V::ZERO, V::splat(one));
    let nan = Aabb::new(V::ZERO, V::from_f64_array([1.0, f64::NAN, 1.0]));
    let inf = Aabb::new(V::from_f64_array([f64::NEG_INFINITY, 0.0, 0.0]), V::splat(one));
    let inverted = Aabb::new(V::axis(V::DIM - 1), V::ZERO);

    assert!(
        matches!(DynamicTree::<V>::try_new(-one), Err(DynamicTreeError::InvalidMargin { margin }) if margin == -1.0)
    );
    assert!(DynamicTree::<V>::try_new(V::Real::from_f64(f64::NAN)).is_err());
    assert!(BroadPhase::<V>::try_new(V::Real::INFINITY).is_err());
    let mut tree = DynamicTree::<V>::new(V::Real::from_f64(0.1));
    match tree.insert(nan, 0) {
        Err(e @ DynamicTreeError::NonFiniteBox { .. }) => assert!(e.to_string().contains("NaN"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(tree.insert(inf, 0), Err(DynamicTreeError::NonFiniteBox { .. })));
    assert_eq!(
        tree.insert(inverted, 0),
        Err(DynamicTreeError::InvertedBox { axis: V::DIM - 1, min: 1.0, max: 0.0 })
    );
    assert!(tree.is_empty());
    let id = tree.insert(good, 9).unwrap();
    assert!(tree.move_proxy(id, nan, V::ZERO).is_err());
    let bad_d = V::from_f64_array([f64::INFINITY, 0.0, 0.0]);
    assert!(matches!(tree.move_proxy(id, good, bad_d), Err(DynamicTreeError::NonFiniteDisplacement { .. })));
    assert_eq!(tree.fat_aabb(id), Some(good.loosened(V::Real::from_f64(0.1))));
    // Stale and never-given ids.
    for stale in [ProxyId(7), ProxyId(u32::MAX)] {
        assert_eq!(tree.remove(stale), None);
        assert_eq!(tree.fat_aabb(stale), None);
        assert_eq!(tree.user(stale), None);
        assert_eq!(tree.move_proxy(stale, good, V::ZERO), Err(DynamicTreeError::StaleId { id: stale }));
    }
    let other = tree.insert(good, 10).unwrap();
    // With two proxies there is an internal node: its index is no proxy.
    let internal = (0..3).map(ProxyId).find(|p| *p != id && *p != other).unwrap();
    assert_eq!(tree.remove(internal), None);
    assert_eq!(tree.remove(id), Some(9));
    assert_eq!(tree.move_proxy(id, good, V::ZERO), Err(DynamicTreeError::StaleId { id }));
    tree.validate().unwrap();
    // Queries with bad input find nothing instead of failing.
    assert!(tree
        .cast_ray(V::ZERO, V::ZERO, V::Real::from_f64(f64::NAN), |_, _| Some(V::Real::ZERO))
        .is_none());
    assert!(tree.cast_ray(V::ZERO, bad_d, one, |_, _| Some(V::Real::ZERO)).is_none());
    assert!(tree.cast_aabb(&nan, V::ZERO, one, |_, _| Some(V::Real::ZERO)).is_none());

    let mut bp = BroadPhase::<V>::new(V::Real::from_f64(0.1));
    assert!(bp.insert(nan).is_err());
    let a = bp.insert(good).unwrap();
    let b = bp.insert(good).unwrap();
    assert_eq!(
        bp.set_aabb(a, inverted),
        Err(DynamicTreeError::InvertedBox { axis: V::DIM - 1, min: 1.0, max: 0.0 })
    );
    assert_eq!(bp.update().added, vec![(a, b)]);
    assert!(bp.remove(b));
    assert!(!bp.remove(b));
    assert_eq!(bp.set_aabb(b, good), Err(DynamicTreeError::StaleId { id: b }));
    assert!(!bp.remove(ProxyId(12345)));
    assert_eq!(bp.aabb(b), None);
    // The removed id is not reused before the update that reports its pairs gone.
    let c = bp.insert(good).unwrap();
    assert_ne!(c, b);
    let changes = bp.update();
    assert_eq!(changes.removed, vec![(a, b)]);
    assert_eq!(changes.added, vec![(a, c)]);
}

/// Timings (release): build, all pairs, and one frame of 10% moving, for the tree and the
/// sweep, at 10k and 100k boxes (f32, 3D, uniform in a cube, each box meeting about 3
/// others). Run with
/// `cargo test --release -p kollide --test all bvh_dynamic -- --ignored --nocapture`.
#[test]
#[ignore]
fn timings() {
    use std::time::{Duration, Instant};
    fn ms(d: Duration) -> String {
        format!("{:.1}", d.as_secs_f64() * 1e3)
    }
    fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
        let t = Instant::now();
        let x = f();
        (x, t.elapsed())
    }
    let self_pairs = |tree: &DynamicTree<Vec3>| {
        let mut k = 0usize;
        tree.visit_self_pairs(|_, _| {
            k += 1;
            true
        });
        k
    };
    println!("all times in ms");
    for n in [10_000usize, 100_000] {
        // 2D: sort-and-sweep against the tree for one all-pairs search.
        let mut r = rng(98);
        let s = 100.0 * (3.0 / n as f64).sqrt() / 2.0;
        let boxes: Vec<Aabb<Vec2>> = (0..n)
            .map(|_| {
                let c: Vec2 = vec_in(&mut r, 0.0, 100.0);
                let h: Vec2 = vec_in(&mut r, 0.25 * s, 0.75 * s);
                Aabb::new(c - h, c + h)
            })
            .collect();
        let (sweep, t_sweep) = time(|| all_pairs_sweep(&boxes));
        let (tree, t_tree) = time(|| all_pairs_tree(&boxes).unwrap());
        assert_eq!(sweep.len(), tree.len());
        let (mut bp, t_bp) = time(|| BroadPhase::<Vec2>::try_from_boxes(0.0, &boxes).unwrap());
        let (_, t_first) = time(|| bp.update());
        assert_eq!(bp.pair_count(), sweep.len());
        println!(
            "2D n={n} ({} pairs): sweep all-pairs {} | tree build + all-pairs {} | broad phase try_from_boxes {} \
             + first update {}",
            sweep.len(),
            ms(t_sweep),
            ms(t_tree),
            ms(t_bp),
            ms(t_first)
        );
    }
    for n in [10_000usize, 100_000] {
        let mut r = rng(99);
        let world = 100.0f64;
        // Boxes of side about s meet about n (2s)^3 / world^3 others: aim for about 3.
        let s = world * (3.0 / n as f64).cbrt() / 2.0;
        let boxes: Vec<Aabb<Vec3>> = (0..n)
            .map(|_| {
                let c: Vec3 = vec_in(&mut r, 0.0, world);
                let h: Vec3 = vec_in(&mut r, 0.25 * s, 0.75 * s);
                Aabb::new(c - h, c + h)
            })
            .collect();
        let (sweep, t_sweep) = time(|| all_pairs_sweep(&boxes));
        let (tree_pairs, t_tree_pairs) = time(|| all_pairs_tree(&boxes).unwrap());
        assert_eq!(sweep.len(), tree_pairs.len());
        let (built, t_build) = time(|| DynamicTree::try_from_boxes(0.0, &boxes).unwrap());
        let (_, t_built_pairs) = time(|| self_pairs(&built));
        let (inc, t_inc) = time(|| {
            let mut inc = DynamicTree::<Vec3>::new(0.0);
            for (i, b) in boxes.iter().enumerate() {
                inc.insert(*b, i as u64).unwrap();
            }
            inc
        });
        let (_, t_inc_pairs) = time(|| self_pairs(&inc));
        println!(
            "n={n} ({} pairs): sweep all-pairs {} | tree top-down build {} (height {}, {} KiB) + pairs {} \
             = {} | one-by-one insert {} (height {}) + pairs {}",
            sweep.len(),
            ms(t_sweep),
            ms(t_build),
            built.height(),
            built.memory_bytes() / 1024,
            ms(t_built_pairs),
            ms(t_tree_pairs),
            ms(t_inc),
            inc.height(),
            ms(t_inc_pairs),
        );
        let margin = 0.1 * s as f32;
        let mut bp = BroadPhase::<Vec3>::new(margin);
        let (ids, t_bp_insert) =
            time(|| boxes.iter().map(|b| bp.insert(*b).unwrap()).collect::<Vec<ProxyId>>());
        let (_, t_bp_first) = time(|| bp.update());
        let first_height = bp.tree().height();
        let (mut bulk, t_bulk) = time(|| BroadPhase::<Vec3>::try_from_boxes(margin, &boxes).unwrap());
        let (_, t_bulk_first) = time(|| bulk.update());
        assert_eq!(bulk.pair_count(), sweep.len());
        // Frames: 10% of the bodies move by up to a tenth of their size.
        let mut moved = boxes.clone();
        let (mut t_set, mut t_update, mut changed) = (Duration::ZERO, Duration::ZERO, 0);
        let frames = 5;
        for _ in 0..frames {
            let steps: Vec<(usize, Vec3)> =
                (0..n).step_by(10).map(|i| (i, vec_in(&mut r, -0.1 * s, 0.1 * s))).collect();
            let t = Instant::now();
            for &(i, d) in &steps {
                moved[i] = Aabb::new(moved[i].min + d, moved[i].max + d);
                bp.set_aabb(ids[i], moved[i]).unwrap();
            }
            t_set += t.elapsed();
            let (c, t) = time(|| bp.update());
            t_update += t;
            changed += c.added.len() + c.removed.len();
        }
        let (again, t_sweep_frame) = time(|| all_pairs_sweep(&moved));
        assert_eq!(again.len(), bp.pair_count());
        println!(
            "n={n}: broad phase (margin {margin:.3}) insert {} + first update {} (tree height {}), or \
             try_from_boxes {} + first update {} | frame of 10% moving: set_aabb {} + update {} ({} pair changes/frame) | sweep from scratch {}",
            ms(t_bp_insert),
            ms(t_bp_first),
            first_height,
            ms(t_bulk),
            ms(t_bulk_first),
            ms(t_set / frames),
            ms(t_update / frames),
            changed / frames as usize,
            ms(t_sweep_frame),
        );
    }
}

/// The update's cost against the size of its move buffer (100k boxes, f32, 3D), to place
/// the crossover of the parallel search (`--features rayon`). Run as `timings`.
#[test]
#[ignore]
fn timings_update_by_moved_count() {
    use std::time::Instant;
    let n = 100_000usize;
    let mut r = rng(7);
    let s = 100.0 * (3.0 / n as f64).cbrt() / 2.0;
    let mut boxes: Vec<Aabb<Vec3>> = (0..n)
        .map(|_| {
            let c: Vec3 = vec_in(&mut r, 0.0, 100.0);
            let h: Vec3 = vec_in(&mut r, 0.25 * s, 0.75 * s);
            Aabb::new(c - h, c + h)
        })
        .collect();
    let mut bp = BroadPhase::<Vec3>::try_from_boxes(0.1 * s as f32, &boxes).unwrap();
    bp.update();
    for k in [64usize, 256, 1024, 4096, 16384] {
        let mut best = f64::INFINITY;
        for _ in 0..15 {
            for i in (0..n).step_by(n / k).take(k) {
                // Out of the fat box: every one of them is re-inserted and searched.
                let d = Vec3::new(0.4, -0.4, 0.4) * s as f32 * if r.random_bool(0.5) { 1.0 } else { -1.0 };
                boxes[i] = Aabb::new(boxes[i].min + d, boxes[i].max + d);
                bp.set_aabb(ProxyId(i as u32), boxes[i]).unwrap();
            }
            let t = Instant::now();
            bp.update();
            best = best.min(t.elapsed().as_secs_f64() * 1e3);
        }
        println!("{k} moved of {n}: update {best:.3} ms");
    }
}
