//! The uniform grid's pair search (`GridPairs`, `all_pairs_grid`) and the chooser
//! `all_pairs` against brute force in f64, in 2D and 3D, f32 and f64: boxes the grid suits,
//! boxes it must refuse (one huge box, far clusters, infinite boxes), exact touching on a
//! lattice (the cell side equals the box size), and boxes that meet nothing (NaN, inverted).

use kollide::bvh::{all_pairs, all_pairs_grid, all_pairs_sweep, GridPairs};
use kollide::math::{Aabb, DVec2, DVec3, Real, Vec2, Vec3};
use kollide::query::Space;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

fn vec_in<V: Space>(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> V {
    V::from_f64_array([rng.random_range(lo..hi), rng.random_range(lo..hi), rng.random_range(lo..hi)])
}

/// The truth: every pair whose boxes meet, tested in f64 (exact for f32 and f64 inputs).
fn brute_force<V: Space>(boxes: &[Aabb<V>]) -> BTreeSet<(u32, u32)> {
    let f = |b: &Aabb<V>| (b.min.to_f64_array(), b.max.to_f64_array());
    let mut out = BTreeSet::new();
    for i in 0..boxes.len() {
        let (a0, a1) = f(&boxes[i]);
        for (j, b) in boxes.iter().enumerate().skip(i + 1) {
            let (b0, b1) = f(b);
            if (0..V::DIM).all(|k| a0[k] <= a1[k] && b0[k] <= b1[k] && a0[k] <= b1[k] && b0[k] <= a1[k]) {
                out.insert((i as u32, j as u32));
            }
        }
    }
    out
}

/// `pairs` as a set, checking that none is repeated and each is `(lo, hi)`.
fn as_set(pairs: &[(u32, u32)]) -> BTreeSet<(u32, u32)> {
    let set: BTreeSet<_> = pairs.iter().copied().collect();
    assert_eq!(set.len(), pairs.len(), "a pair reported twice");
    assert!(pairs.iter().all(|(i, j)| i < j), "a pair not ordered (lo, hi)");
    set
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
    grid_equals_brute_force_on_similar_boxes,
    boxes_touching_on_a_lattice_are_found,
    unsuited_boxes_are_refused_and_answered_by_the_chooser,
    boxes_that_meet_nothing_are_left_out,
    grid_equals_brute_force_on_random_layouts,
);

/// Random boxes of similar size (some of zero size, some duplicated) over several scales
/// and offsets: the grid is used and finds exactly the brute-force pairs.
fn grid_equals_brute_force_on_similar_boxes<V: Space>() {
    let mut r = ChaCha8Rng::seed_from_u64(5);
    for (n, world, offset) in
        [(0, 10.0, 0.0), (1, 10.0, 0.0), (2, 1.0, 0.0), (900, 40.0, 0.0), (900, 4e-3, 7.0), (600, 4e5, -3e6)]
    {
        let size = world / 40.0;
        let mut boxes: Vec<Aabb<V>> = (0..n)
            .map(|_| {
                let c: V = vec_in(&mut r, offset, offset + world);
                let h: V = if r.random_bool(0.05) { V::ZERO } else { vec_in(&mut r, 0.5 * size, size) };
                Aabb::new(c - h, c + h)
            })
            .collect();
        if n > 10 {
            boxes[3] = boxes[4];
        }
        let grid = GridPairs::new(&boxes).expect("similar boxes suit the grid");
        assert_eq!(grid.len(), n);
        let want = brute_force(&boxes);
        assert_eq!(as_set(&all_pairs_grid(&boxes).unwrap()), want, "grid, n = {n}, world {world}");
        assert_eq!(as_set(&all_pairs(&boxes)), want, "all_pairs, n = {n}");
        if n > 10 {
            assert!(want.len() > n / 10 && want.len() < 10 * n, "{} pairs of {n}", want.len());
        }
    }
}

/// Unit boxes on an integer lattice touch their neighbours exactly, face, edge and corner:
/// the cell side equals the box size, the case the side's slack is for.
fn boxes_touching_on_a_lattice_are_found<V: Space>() {
    let k = 6;
    let mut boxes = Vec::new();
    for x in 0..k {
        for y in 0..k {
            for z in 0..if V::DIM == 3 { k } else { 1 } {
                let lo = V::from_f64_array([x as f64, y as f64, z as f64]);
                boxes.push(Aabb::new(lo, lo + V::splat(V::Real::ONE)));
            }
        }
    }
    let want = brute_force(&boxes);
    // Every lattice neighbour (26 in 3D, 8 in 2D, fewer at the border) touches.
    let per_box: usize = if V::DIM == 3 { 26 } else { 8 };
    assert!(want.len() > boxes.len() * per_box / 3, "{} pairs", want.len());
    assert_eq!(as_set(&all_pairs_grid(&boxes).expect("lattice suits the grid")), want);
}

/// One box much larger than the rest, two clusters far apart, an infinite box, many copies
/// of one point, and a box from `-MAX` to `MAX`: the grid refuses (its cells would be crowded, or no cell holds the
/// box) and `all_pairs` still answers exactly through the tree or the sweep.
fn unsuited_boxes_are_refused_and_answered_by_the_chooser<V: Space>() {
    let mut r = ChaCha8Rng::seed_from_u64(9);
    let small = |r: &mut ChaCha8Rng, at: f64| {
        let c: V = vec_in(r, at, at + 30.0);
        let h: V = vec_in(r, 0.3, 0.6);
        Aabb::new(c - h, c + h)
    };
    let mut huge: Vec<Aabb<V>> = (0..800).map(|_| small(&mut r, 0.0)).collect();
    huge[17] = Aabb::new(V::splat(V::Real::from_f64(-5.0)), V::splat(V::Real::from_f64(25.0)));
    let mut far: Vec<Aabb<V>> = (0..400).map(|_| small(&mut r, 0.0)).collect();
    far.extend((0..400).map(|_| small(&mut r, 1e7)));
    let mut infinite: Vec<Aabb<V>> = (0..100).map(|_| small(&mut r, 0.0)).collect();
    let mut top = infinite[5].max.to_f64_array();
    top[0] = f64::INFINITY;
    infinite[5].max = V::from_f64_array(top);
    let points = vec![Aabb::from_point(V::splat(V::Real::from_f64(2.5))); 300];
    // Finite, but `max - min` overflows.
    let mut widest: Vec<Aabb<V>> = (0..100).map(|_| small(&mut r, 0.0)).collect();
    widest[7] = Aabb::new(V::splat(-V::Real::MAX), V::splat(V::Real::MAX));
    for (name, boxes) in [
        ("one huge box", &huge),
        ("far clusters", &far),
        ("infinite", &infinite),
        ("points", &points),
        ("wider than the largest number", &widest),
    ] {
        assert!(GridPairs::new(boxes).is_none(), "{name}: the grid should refuse");
        assert_eq!(as_set(&all_pairs(boxes)), brute_force(boxes), "{name}");
    }
    // The huge box meets most of the others; the far clusters give pairs in both.
    assert!(brute_force(&huge).iter().filter(|p| p.0 == 17 || p.1 == 17).count() > 300);
    assert_eq!(brute_force(&points).len(), 300 * 299 / 2);
}

/// Boxes with a NaN coordinate or `min > max` meet nothing and are left out; the rest are
/// answered.
fn boxes_that_meet_nothing_are_left_out<V: Space>() {
    let mut boxes = vec![Aabb::new(V::ZERO, V::splat(V::Real::ONE)); 4];
    boxes[1].min = V::from_f64_array([f64::NAN, 0.0, 0.0]);
    boxes[2] = Aabb::new(V::splat(V::Real::ONE), V::ZERO);
    let grid = GridPairs::new(&boxes).expect("two live boxes");
    assert_eq!(grid.len(), 2);
    assert_eq!(all_pairs_grid(&boxes), Some(vec![(0, 3)]));
    assert_eq!(all_pairs(&boxes), vec![(0, 3)]);
    let none: Vec<Aabb<V>> = vec![boxes[1], boxes[2]];
    assert_eq!(all_pairs_grid(&none), Some(vec![]));
}

/// Random layouts against brute force: crowded cells (runs of many slots), boxes of mixed
/// sizes, repeated and zero-size boxes, coordinates far from the origin (in `f64` beyond
/// what `f32` resolves, so the lanes round and hits are confirmed), and a few boxes that
/// meet nothing. Whenever the grid takes the boxes its pairs are exactly the brute-force
/// set, each once as `(lo, hi)`; `all_pairs` always is.
fn grid_equals_brute_force_on_random_layouts<V: Space>() {
    let f64_lanes = V::Real::EPSILON.to_f64() < 1e-10;
    let mut r = ChaCha8Rng::seed_from_u64(31);
    let mut used = 0;
    for round in 0..60 {
        let n = r.random_range(0..700usize);
        let world = [0.5, 3.0, 10.0, 40.0][round % 4] * 10f64.powi(r.random_range(-3..4));
        let offset = match round % 5 {
            0 => 0.0,
            1 => -world * 0.5,
            2 if f64_lanes => 1e9,
            3 if f64_lanes => -3e12,
            _ => world * 100.0,
        };
        let size = world / [4.0, 10.0, 40.0][round % 3];
        let mut boxes: Vec<Aabb<V>> = (0..n)
            .map(|_| {
                let c: V = vec_in(&mut r, offset, offset + world);
                let h: V = match r.random_range(0..10) {
                    0 => V::ZERO,
                    1 => vec_in(&mut r, 0.0, 0.1 * size),
                    _ => vec_in(&mut r, 0.3 * size, size),
                };
                Aabb::new(c - h, c + h)
            })
            .collect();
        for _ in 0..n / 10 {
            let (i, j) = (r.random_range(0..n), r.random_range(0..n));
            boxes[i] = boxes[j];
        }
        if n > 20 && round % 7 == 0 {
            boxes[5].min = V::from_f64_array([f64::NAN, 0.0, 0.0]);
            boxes[6] = Aabb::new(boxes[6].max, boxes[6].min - V::splat(V::Real::ONE));
        }
        let want = brute_force(&boxes);
        if let Some(pairs) = all_pairs_grid(&boxes) {
            used += 1;
            assert_eq!(as_set(&pairs), want, "grid, round {round}, n = {n}");
            let mut visited = Vec::new();
            GridPairs::new(&boxes).unwrap().visit_pairs(|i, j| visited.push((i, j)));
            assert_eq!(visited, pairs, "visit_pairs and all_pairs_grid, round {round}");
        }
        assert_eq!(as_set(&all_pairs(&boxes)), want, "all_pairs, round {round}, n = {n}");
    }
    assert!(used >= 20, "the grid took only {used} of 60 layouts");
}

/// Enough boxes for the `rayon` feature's parallel build and search (split by slots): the
/// pairs are the sort-and-sweep's, and in the order of the serial `visit_pairs`.
#[test]
fn many_boxes_equal_the_sweep_in_the_serial_order() {
    let mut r = ChaCha8Rng::seed_from_u64(77);
    let n = 40_000;
    let side = (n as f64 * 9.0).cbrt();
    let boxes: Vec<Aabb<Vec3>> = (0..n)
        .map(|_| {
            let c: Vec3 = vec_in(&mut r, 0.0, side);
            let h: Vec3 = vec_in(&mut r, 0.5, 1.0);
            Aabb::new(c - h, c + h)
        })
        .collect();
    let pairs = all_pairs_grid(&boxes).expect("uniform boxes suit the grid");
    let mut serial = Vec::new();
    GridPairs::new(&boxes).unwrap().visit_pairs(|i, j| serial.push((i, j)));
    assert_eq!(pairs, serial);
    assert_eq!(all_pairs(&boxes), serial);
    assert_eq!(as_set(&pairs), as_set(&all_pairs_sweep(&boxes)));
    assert!(pairs.len() > n, "{} pairs", pairs.len());
}

/// `all_pairs` keeps the grid's arrays per thread between calls, and the lanes are no
/// longer zeroed on reuse: a 3D grid, then a smaller 2D one (whose z lanes must read 0),
/// then a larger 3D one, then a smaller one again, on one thread, each equal to brute force.
#[test]
fn kept_grid_arrays_serve_calls_of_other_sizes_and_dimensions() {
    fn boxes<V: Space>(r: &mut ChaCha8Rng, n: usize) -> Vec<Aabb<V>> {
        let side = (n as f64 * 9.0).powf(1.0 / V::DIM as f64);
        (0..n)
            .map(|_| {
                let c: V = vec_in(r, 0.0, side);
                let h: V = vec_in(r, 0.5, 1.0);
                Aabb::new(c - h, c + h)
            })
            .collect()
    }
    let mut r = ChaCha8Rng::seed_from_u64(78);
    let (a, b, c, d) = (
        boxes::<Vec3>(&mut r, 3000),
        boxes::<Vec2>(&mut r, 1000),
        boxes::<DVec3>(&mut r, 5000),
        boxes::<Vec2>(&mut r, 200),
    );
    for _ in 0..2 {
        assert!(GridPairs::new(&a).is_some() && GridPairs::new(&b).is_some());
        assert_eq!(as_set(&all_pairs(&a)), brute_force(&a), "3D, 3000 boxes");
        assert_eq!(as_set(&all_pairs(&b)), brute_force(&b), "2D after 3D");
        assert_eq!(as_set(&all_pairs(&c)), brute_force(&c), "3D f64, 5000 boxes");
        assert_eq!(as_set(&all_pairs(&d)), brute_force(&d), "2D, 200 boxes");
    }
}
