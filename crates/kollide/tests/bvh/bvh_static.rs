//! The static BVH against brute force over all items, in 2D and 3D, f32 and f64: overlaps,
//! rays (every box met, and the first hit), swept boxes, nearest items, pairs between two
//! trees and within one; `validate` after builds and refits; degenerate inputs (equal boxes,
//! points, a line of boxes, huge and tiny scales); errors naming the bad box.

use crate::common;
use kollide::query::Space;

use common::{assert_mixed, rng};
use kollide::bvh::{Bvh, BvhError};
use kollide::math::{inverse_direction, Aabb, DVec2, DVec3, Pose, Real, Vec2, Vec3};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

fn v<V: Space>(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> V {
    V::from_f64_array([rng.random_range(lo..hi), rng.random_range(lo..hi), rng.random_range(lo..hi)])
}

/// Random boxes of one of several kinds, at `scale`.
fn boxes<V: Space>(rng: &mut ChaCha8Rng, n: usize, kind: usize, scale: f64) -> Vec<Aabb<V>> {
    (0..n)
        .map(|i| {
            let (c, h): (V, V) = match kind {
                0 => (v(rng, -10.0, 10.0), v(rng, 0.0, 1.0)), // uniform
                1 => (v(rng, -1.0, 1.0), v(rng, 0.0, 0.3)),   // clustered
                2 => (V::splat(V::Real::from_f64(0.5)), V::splat(V::Real::ONE)), // all equal
                3 => (v(rng, -10.0, 10.0), V::ZERO),          // points
                _ => (V::axis(0) * V::Real::from_usize(i), V::splat(V::Real::from_f64(0.6))), // a line
            };
            let s = V::Real::from_f64(scale);
            Aabb::new((c - h) * s, (c + h) * s)
        })
        .collect()
}

fn brute_ray<V: Space>(bs: &[Aabb<V>], o: V, d: V, max: V::Real) -> Vec<u32> {
    let inv = inverse_direction(d);
    (0..bs.len() as u32).filter(|&i| bs[i as usize].ray_interval(o, inv, max).is_some()).collect()
}

fn check_all<V: Space>(seed: u64) {
    let mut rng = rng(seed);
    let (mut hits, mut total) = (0, 0);
    for case in 0..60 {
        let kind = case % 5;
        let n = [0usize, 1, 2, 7, 50, 300][case % 6];
        let scale = [1.0, 1e-4, 1e4][case % 3];
        let bs: Vec<Aabb<V>> = boxes(&mut rng, n, kind, scale);
        let bvh = Bvh::new(&bs);
        assert_eq!(bvh.validate(&bs), Ok(()), "case {case}");
        assert_eq!(bvh.len(), n);
        let s = V::Real::from_f64(scale);
        for _ in 0..20 {
            // Overlaps.
            // Half the query boxes near an item, half anywhere.
            let q = if n > 0 && rng.random_bool(0.5) {
                let b = bs[rng.random_range(0..n)];
                let h: V = v::<V>(&mut rng, 0.0, 0.5) * s;
                Aabb::new(b.center() - h, b.center() + h)
            } else {
                let c: V = v(&mut rng, -11.0, 11.0);
                let h: V = v(&mut rng, 0.0, 3.0);
                Aabb::new((c - h) * s, (c + h) * s)
            };
            let mut got = Vec::new();
            bvh.visit_overlaps(&q, |i| {
                got.push(i);
                true
            });
            got.sort();
            let want: Vec<u32> = (0..n as u32).filter(|&i| bs[i as usize].intersects(&q)).collect();
            assert_eq!(got, want, "case {case}: overlaps");
            if n > 0 {
                hits += usize::from(!want.is_empty());
                total += 1;
            }
            // Rays: every box met, and the first entry.
            let o: V = v::<V>(&mut rng, -15.0, 15.0) * s;
            let mut d: V = v::<V>(&mut rng, -1.0, 1.0) * s;
            // A quarter of the rays along a coordinate plane (a zero component): the slab
            // test's huge-but-finite inverse.
            if rng.random_bool(0.25) {
                let mut a = d.to_f64_array();
                a[rng.random_range(0..V::DIM)] = 0.0;
                d = V::from_f64_array(a);
            }
            let max = V::Real::from_f64(rng.random_range(0.5..40.0));
            let mut met = Vec::new();
            bvh.visit_ray(o, d, max, |i| {
                met.push(i);
                true
            });
            met.sort();
            let want = brute_ray(&bs, o, d, max);
            assert_eq!(met, want, "case {case}: ray boxes");
            let inv = inverse_direction(d);
            let entry = |i: u32| bs[i as usize].ray_interval(o, inv, max).map(|t| t.0);
            let first = want.iter().filter_map(|&i| entry(i)).fold(V::Real::INFINITY, |a, b| a.min(b));
            let got = bvh.cast_ray(o, d, max, |i, best| entry(i).filter(|&t| t <= best));
            assert_eq!(got.map(|g| g.1), first.is_finite().then_some(first), "case {case}: first hit");
            // A swept box: boxes met by the moving box, brute force as Minkowski-grown rays.
            let moving = Aabb::from_ball(o, V::Real::from_f64(0.7) * s);
            let he = moving.half_extents();
            let grown = |i: u32| Aabb::new(bs[i as usize].min - he, bs[i as usize].max + he);
            let sweep_entry = |i: u32| grown(i).ray_interval(moving.center(), inv, max).map(|t| t.0);
            let first = (0..n as u32).filter_map(sweep_entry).fold(V::Real::INFINITY, |a, b| a.min(b));
            let got = bvh.cast_aabb(&moving, d, max, |i, best| sweep_entry(i).filter(|&t| t <= best));
            assert_eq!(got.map(|g| g.1), first.is_finite().then_some(first), "case {case}: swept box");
            // Nearest to a point (distance to the box).
            let p: V = v::<V>(&mut rng, -15.0, 15.0) * s;
            let dist = |i: u32| bs[i as usize].distance_squared_to_point(p).sqrt();
            let best = (0..n as u32).map(dist).fold(V::Real::INFINITY, |a, b| a.min(b));
            let got =
                bvh.closest_to_point(p, V::Real::INFINITY, |i, limit| Some(dist(i)).filter(|&x| x < limit));
            assert_eq!(got.map(|g| g.1), best.is_finite().then_some(best), "case {case}: nearest");
        }
        // Pairs within the tree and with a second tree placed by a translation.
        let mut got = Vec::new();
        bvh.visit_self_pairs(|i, j| {
            got.push((i, j));
            true
        });
        got.sort();
        let mut want = Vec::new();
        for i in 0..n as u32 {
            for j in i + 1..n as u32 {
                if bs[i as usize].intersects(&bs[j as usize]) {
                    want.push((i, j));
                }
            }
        }
        assert_eq!(got, want, "case {case}: self pairs");
        let other: Vec<Aabb<V>> = boxes(&mut rng, 40, (kind + 1) % 5, scale);
        let tree2 = Bvh::new(&other);
        let shift: V = v::<V>(&mut rng, -3.0, 3.0) * s;
        let pose = Pose::from_translation(shift);
        let mut got = Vec::new();
        bvh.visit_pairs(&tree2, &pose, |i, j| {
            got.push((i, j));
            true
        });
        got.sort();
        let mut want = Vec::new();
        for i in 0..n as u32 {
            for j in 0..other.len() as u32 {
                let placed = Aabb::new(other[j as usize].min + shift, other[j as usize].max + shift);
                if bs[i as usize].intersects(&placed) {
                    want.push((i, j));
                }
            }
        }
        assert_eq!(got, want, "case {case}: pairs between trees");
        // Refit after the boxes move: still valid, and queries see the new boxes.
        let moved: Vec<Aabb<V>> = bs
            .iter()
            .map(|b| {
                let t: V = v::<V>(&mut rng, -2.0, 2.0) * s;
                Aabb::new(b.min + t, b.max + t)
            })
            .collect();
        let mut refitted = bvh.clone();
        refitted.refit(&moved).unwrap();
        assert_eq!(refitted.validate(&moved), Ok(()), "case {case}: refit");
        // The refitted tree's rays see the moved boxes (the four-wide nodes are refitted too).
        for _ in 0..10 {
            let o: V = v::<V>(&mut rng, -15.0, 15.0) * s;
            let d: V = v::<V>(&mut rng, -1.0, 1.0) * s;
            let inv = inverse_direction(d);
            let max = V::Real::from_f64(40.0);
            let entry = |i: u32| moved[i as usize].ray_interval(o, inv, max).map(|t| t.0);
            let first = (0..n as u32).filter_map(entry).fold(V::Real::INFINITY, |a, b| a.min(b));
            let got = refitted.cast_ray(o, d, max, |i, best| entry(i).filter(|&t| t <= best));
            assert_eq!(got.map(|g| g.1), first.is_finite().then_some(first), "case {case}: refitted ray");
            let by_slot = refitted
                .cast_ray_slots(o, d, max, |k, best| entry(refitted.item_order()[k]).filter(|&t| t <= best));
            assert_eq!(by_slot.map(|g| g.1), got.map(|g| g.1), "case {case}: slots");
        }
        if n > 0 {
            let q = moved[0];
            let mut seen = false;
            refitted.visit_overlaps(&q, |i| {
                seen |= i == 0;
                true
            });
            assert!(seen, "case {case}: a refitted box is found where it moved");
        }
    }
    assert_mixed(hits, total, "box overlaps");
}

#[test]
fn queries_match_brute_force_vec2() {
    check_all::<Vec2>(1101);
}

#[test]
fn queries_match_brute_force_dvec2() {
    check_all::<DVec2>(1102);
}

#[test]
fn queries_match_brute_force_vec3() {
    check_all::<Vec3>(1103);
}

#[test]
fn queries_match_brute_force_dvec3() {
    check_all::<DVec3>(1104);
}

#[test]
fn bad_boxes_are_refused_by_index() {
    let mut bs = vec![Aabb::new(Vec3::ZERO, Vec3::ONE); 5];
    bs[3].max.y = f32::NAN;
    assert_eq!(Bvh::try_new(&bs).unwrap_err(), BvhError::NonFiniteBox { index: 3 });
    bs[3] = Aabb::new(Vec3::ONE, Vec3::ZERO);
    assert_eq!(Bvh::try_new(&bs).unwrap_err(), BvhError::InvalidBox { index: 3 });
    assert!(BvhError::InvalidBox { index: 3 }.to_string().contains("boxes[3]"));
    let good = Bvh::new(&[Aabb::new(Vec3::ZERO, Vec3::ONE)]);
    let mut t = good.clone();
    assert_eq!(t.refit(&[]).unwrap_err(), BvhError::LengthMismatch { expected: 1, got: 0 });
    let empty: Bvh<Vec3> = Bvh::new(&[]);
    assert!(empty.is_empty() && empty.validate(&[]).is_ok());
    assert!(empty.cast_ray(Vec3::ZERO, Vec3::X, 1.0, |_, _| Some(0.0)).is_none());
}

#[test]
fn a_million_equal_boxes_build_shallow() {
    // Every centroid equal: the split by count keeps the depth logarithmic.
    let bs = vec![Aabb::new(Vec3::ZERO, Vec3::ONE); 100_000];
    let bvh = Bvh::new(&bs);
    assert!(bvh.depth() <= 20, "depth {}", bvh.depth());
    assert_eq!(bvh.validate(&bs), Ok(()));
}

#[test]
fn centroids_a_few_subnormals_apart_build_a_valid_exact_tree() {
    // A spread of a few subnormals makes the bins' scale `12 / extent` infinite, so the
    // centroid at the low end lands at 0 * inf = NaN: it must still go to a bin (the first).
    let tiny = f32::from_bits(3);
    for spread in [tiny, f32::MIN_POSITIVE, 1e-30] {
        let bs: Vec<Aabb<Vec3>> = (0..64)
            .map(|i| {
                let c = Vec3::new((i % 4) as f32 * spread, (i / 16) as f32, 0.0);
                Aabb::new(c, c + Vec3::splat(if i % 3 == 0 { 0.0 } else { spread }))
            })
            .collect();
        let bvh = Bvh::new(&bs);
        assert_eq!(bvh.validate(&bs), Ok(()), "spread {spread:e}");
        let query = Aabb::new(Vec3::new(0.0, 0.5, -1.0), Vec3::new(2.0 * spread, 2.5, 1.0));
        let mut found = Vec::new();
        bvh.visit_overlaps(&query, |i| {
            found.push(i);
            true
        });
        found.sort_unstable();
        let want: Vec<u32> = (0..64).filter(|&i| bs[i as usize].intersects(&query)).collect();
        assert_eq!(found, want, "spread {spread:e}");
    }
}

/// Build time and memory for a million small random boxes (run with
/// `cargo test --release -p kollide --features rayon --test all bvh_static -- --ignored --nocapture`).
#[test]
#[ignore]
fn million_boxes_build_time_and_memory() {
    let mut rng = rng(1105);
    let bs: Vec<Aabb<Vec3>> = (0..1_000_000)
        .map(|_| {
            let c: Vec3 = v(&mut rng, -500.0, 500.0);
            Aabb::from_ball(c, 0.7)
        })
        .collect();
    let t = std::time::Instant::now();
    let bvh = Bvh::new(&bs);
    let single = t.elapsed();
    println!(
        "1M boxes: build {:.3} s single-threaded, {} nodes, {:.1} MB ({:.1} bytes per item), depth {}",
        single.as_secs_f64(),
        bvh.node_count(),
        bvh.memory_bytes() as f64 / 1e6,
        bvh.memory_bytes() as f64 / 1e6,
        bvh.depth()
    );
    #[cfg(feature = "rayon")]
    {
        let t = std::time::Instant::now();
        let par = Bvh::try_new_par(&bs).unwrap();
        println!("1M boxes: build {:.3} s with rayon", t.elapsed().as_secs_f64());
        assert_eq!(par.validate(&bs), Ok(()));
    }
    assert_eq!(bvh.validate(&bs), Ok(()));
}

#[test]
fn a_large_tree_built_on_all_cores_is_valid_and_exact() {
    // Big enough for the parallel build (with the rayon feature) to split its top levels.
    let mut rng = rng(1106);
    let bs: Vec<Aabb<Vec3>> =
        (0..60_000).map(|_| Aabb::from_ball(v::<Vec3>(&mut rng, -100.0, 100.0), 0.8)).collect();
    let bvh = Bvh::try_new_best(&bs).unwrap();
    assert_eq!(bvh.validate(&bs), Ok(()));
    for _ in 0..50 {
        let q = Aabb::from_ball(v::<Vec3>(&mut rng, -100.0, 100.0), 3.0);
        let mut got = Vec::new();
        bvh.visit_overlaps(&q, |i| {
            got.push(i);
            true
        });
        got.sort();
        let want: Vec<u32> = (0..bs.len() as u32).filter(|&i| bs[i as usize].intersects(&q)).collect();
        assert_eq!(got, want);
    }
}
