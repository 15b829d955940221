//! Times the parts of a broad-phase frame (a probe for tuning, not a bench row).
use glam::Vec3;
use kollide::bvh::{all_pairs_grid, BroadPhase, Bvh, DynamicTree, ProxyId};
use kollide::math::Aabb;
use rand::{Rng, SeedableRng};
use std::time::Instant;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let side = (n as f32 * 27.0 / 3.0).cbrt();
    let a: Vec<Aabb<Vec3>> = (0..n)
        .map(|_| {
            let c = Vec3::new(
                rng.random_range(0.0..side),
                rng.random_range(0.0..side),
                rng.random_range(0.0..side),
            );
            let h =
                Vec3::new(rng.random_range(0.5..1.0), rng.random_range(0.5..1.0), rng.random_range(0.5..1.0));
            Aabb::new(c - h, c + h)
        })
        .collect();
    let moved: Vec<u32> = (0..n as u32).filter(|_| rng.random_bool(0.1)).collect();
    let mut b = a.clone();
    for &i in &moved {
        let d =
            Vec3::new(rng.random_range(-0.3..0.3), rng.random_range(-0.3..0.3), rng.random_range(-0.3..0.3));
        b[i as usize] = Aabb::new(a[i as usize].min + d, a[i as usize].max + d);
    }
    if std::env::args().nth(2).as_deref() == Some("grid") {
        let g = kollide::bvh::GridPairs::new(&a).unwrap();
        let t = Instant::now();
        let mut c = 0;
        for _ in 0..50 {
            g.visit_pairs(|_, _| c += 1);
        }
        println!("grid visit {:?} per run", t.elapsed() / 50);
        return;
    }
    for _ in 0..3 {
        let t = Instant::now();
        let tree = DynamicTree::try_from_boxes(0.0, &a).unwrap();
        let t1 = t.elapsed();
        let mut c = 0;
        tree.visit_self_pairs(|_, _| {
            c += 1;
            true
        });
        let t2 = t.elapsed();
        let bvh = Bvh::new(&a);
        let t3 = t.elapsed();
        let mut c2 = 0;
        bvh.visit_self_pairs(|_, _| {
            c2 += 1;
            true
        });
        let t4 = t.elapsed();
        let g = all_pairs_grid(&a).map(|v| v.len());
        let t5 = t.elapsed();
        println!(
            "dyn build {:?} dyn pairs {:?} ({c}) bvh build {:?} bvh pairs {:?} ({c2}) grid {:?} ({g:?})",
            t1,
            t2 - t1,
            t3 - t2,
            t4 - t3,
            t5 - t4
        );
    }
    for _ in 0..3 {
        let t = Instant::now();
        let g = kollide::bvh::GridPairs::new(&a).unwrap();
        let t1 = t.elapsed();
        let mut c = 0;
        g.visit_pairs(|_, _| c += 1);
        println!("grid new {:?} visit {:?} {c} {:?}", t1, t.elapsed() - t1, g);
    }
    let mut bp = BroadPhase::new(0.1);
    let ids: Vec<ProxyId> = a.iter().map(|x| bp.insert(*x).unwrap()).collect();
    let t = Instant::now();
    bp.update();
    println!("first update {:?}, {} pairs", t.elapsed(), bp.pair_count());
    let mut at_b = true;
    for _ in 0..6 {
        let to = if at_b { &b } else { &a };
        let t = Instant::now();
        for &i in &moved {
            bp.set_aabb(ids[i as usize], to[i as usize]).unwrap();
        }
        let t1 = t.elapsed();
        let ch = bp.update();
        let t2 = t.elapsed();
        println!("set_aabb {:?} update {:?} (+{} -{})", t1, t2 - t1, ch.added.len(), ch.removed.len());
        at_b = !at_b;
    }
}
