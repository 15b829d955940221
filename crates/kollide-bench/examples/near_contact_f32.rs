//! Reproducer: kollide `f32` distance near contact on cylinders and cones, against kollide
//! `f64` (certified by `tests/agree_with_parry.rs`) and parry `f32`.
//!
//! `cargo run --release -p kollide-bench --example near_contact_f32`
//!
//! The pairs are ones `agree_with_parry` flags (tests `cones`, `cylinders`,
//! `cylinder_cone`): kollide `f32` reports `Converged` while its own bounds are far apart,
//! and its distance is off the truth by much more than the `1e-5` relative tolerance it
//! documents.

use glam::{Quat, Vec3};
use kollide_bench::scene::Pair3;
use kollide_bench::spec3::{ConeSpec, CylinderSpec, Spec3};

fn show<A: Spec3, B: Spec3>(label: &str, a: &A, b: &B, pair: &Pair3) {
    let k = pair.kollide();
    let k64 = pair.kollide64();
    let o32 = kollide::query::distance(&a.kollide(), &k[0], &b.kollide(), &k[1]);
    let o64 = kollide::query::distance(&a.kollide64(), &k64[0], &b.kollide64(), &k64[1]);
    let p = pair.parry();
    let parry = parry3d::query::distance(&p[0], &a.parry(), &p[1], &b.parry()).expect("supported").distance;
    println!("{label}");
    println!(
        "  kollide f32: {:e} in [{:e}, {:e}], {} iterations, {:?}",
        o32.distance, o32.lower_bound, o32.upper_bound, o32.iterations, o32.status
    );
    println!(
        "  kollide f64: {:e} in [{:e}, {:e}], {} iterations, {:?}",
        o64.distance, o64.lower_bound, o64.upper_bound, o64.iterations, o64.status
    );
    println!("  parry   f32: {parry:e}");
}

fn pair(a: ([f32; 3], [f32; 4]), b: ([f32; 3], [f32; 4])) -> Pair3 {
    let f = |(t, q): ([f32; 3], [f32; 4])| (Vec3::from(t), Quat::from_array(q));
    Pair3 { ia: 0, ib: 0, a: f(a), b: f(b) }
}

fn main() {
    show(
        "cylinder-cone pair 1333",
        &CylinderSpec { half_height: 0.864_287_85, radius: 0.594_917_2 },
        &ConeSpec { half_height: 0.649_477_6, radius: 0.634_854_3 },
        &pair(
            (
                [2.447_869_8, 3.768_110_3, 3.615_184_8],
                [0.876_642_6, 0.372_394_14, 0.284_993_32, 0.107_699_394],
            ),
            ([2.402_743_8, 3.835_965_2, 2.352_853_8], [-0.475_193_26, 0.466_021_45, 0.608_355_7, -0.432_341]),
        ),
    );
    show(
        "cone-cone pair 821",
        &ConeSpec { half_height: 0.658_003_03, radius: 0.542_341_8 },
        &ConeSpec { half_height: 0.674_910_66, radius: 0.913_439_33 },
        &pair(
            (
                [0.689_423_1, -0.689_845_1, 2.971_363],
                [-0.661_336_96, -0.724_116_9, -0.184_662_12, -0.064_715_35],
            ),
            (
                [1.588_494_5, -1.267_543_6, 4.028_704_6],
                [0.667_226_3, -0.083_132_6, 0.260_390_46, 0.692_888_8],
            ),
        ),
    );
    show(
        "cylinder-cylinder pair 469",
        &CylinderSpec { half_height: 0.936_326_15, radius: 0.407_638_3 },
        &CylinderSpec { half_height: 0.820_775_87, radius: 0.879_340_35 },
        &pair(
            (
                [1.904_406_5, -2.505_102_2, -0.930_192_5],
                [-0.460_654_82, -0.015_178_974, 0.552_078_3, -0.694_821_06],
            ),
            (
                [2.070_629_8, -3.680_286_4, -2.095_512_2],
                [-0.374_833_38, -0.512_418_2, -0.363_356_56, -0.681_835_5],
            ),
        ),
    );
}
