//! The swept sphere / ellipsoid (circle / ellipse) against triangle (segment) soups, checked
//! against an independent f64 oracle (`common/sweep_oracle.rs`) and closed forms, for 2D and
//! 3D, f32 and f64: times of impact, points, normals and features on random soups; the
//! classic failures of the method (passing through a shallow ridge or a turned house,
//! sticking on the seams of a floor); grazes; tiny and huge scales; degenerate input.

use crate::common;
use crate::sweep_dim;

use common::{assert_mixed, rng, FromParts, RotF64};
use glam::{DVec2, DVec3, Vec2, Vec3};
use kollide::math::{Pose, Real};
use kollide::query::cast::BackFaces;
use kollide::shape::Ellipsoid;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sweep_dim::{check, eps, f, frame, point, real, seen, seen_unit, v, Dim, Shape, Tally, Tol};

/// A random triangle (segment), corners in `[-1, 1]^DIM`; one in ten without area.
fn random_item<V: Dim>(r: &mut ChaCha8Rng) -> Vec<DVec3>
where
    V::Rotation: FromParts + RotF64<V>,
{
    let n = if V::DIM == 3 { 3 } else { 2 };
    let mut pts: Vec<DVec3> = (0..n).map(|_| point::<V>(r, 1.0)).collect();
    if r.random_range(0..10) == 0 {
        // Degenerate: collinear corners, or a repeated one.
        let last = pts.len() - 1;
        pts[last] = if r.random_bool(0.5) { pts[0] } else { pts[0].lerp(pts[1], r.random_range(-0.5..1.5)) };
    }
    pts
}

/// Random soups of 1 to 4 items against random motions of a sphere or an ellipsoid, all
/// scaled by `scale` and moved by `offset` from the origin: the oracle's answers.
fn random_soups<V: Dim>(seed: u64, cases: usize, scale: f64, offset: f64, shape: Shape)
where
    V::Rotation: FromParts + RotF64<V>,
{
    let mut r = rng(seed);
    let e = eps::<V>();
    let shift = point::<V>(&mut r, 1.0).normalize() * offset;
    let mut tally = Tally::default();
    for case in 0..cases {
        let k = r.random_range(1..=4);
        let items: Vec<Vec<DVec3>> = (0..k).map(|_| random_item::<V>(&mut r)).collect();
        let radius = r.random_range(0.05..0.4);
        let radii =
            DVec3::new(r.random_range(0.05..0.4), r.random_range(0.05..0.4), r.random_range(0.05..0.4));
        let rot = common::rotation::<V>(&mut r);
        let dir = point::<V>(&mut r, 1.0).normalize_or(DVec3::X);
        let start = dir * r.random_range(0.8..2.5);
        let target = point::<V>(&mut r, 0.8);
        let d = (target - start) * r.random_range(0.3..1.3);
        // Scale everything and round it to V; the oracle sees the rounded numbers.
        let world = |p: DVec3| p * scale + shift;
        let items_v: Vec<V::Item> =
            items.iter().map(|it| V::item(&it.iter().map(|&p| world(p)).collect::<Vec<_>>())).collect();
        let oracle_items: Vec<Vec<DVec3>> = items_v.iter().map(V::corners).collect();
        let (c, dv) = (v::<V>(world(start)), v::<V>(d * scale));
        let what = format!("{shape:?} case {case} (scale {scale:e}, offset {offset:e})");
        // Tolerances: a few hundred roundings of the local coordinates (the differences of
        // nearby coordinates far from the origin are exact).
        let amp = 1.0;
        let coords = 4.0 * e * (offset + 3.0 * scale);
        match shape {
            Shape::Sphere => {
                let rv = real::<V>(radius * scale);
                let got = seen(V::sweep(c, rv, dv, &items_v, BackFaces::Hit));
                let s = scale * amp;
                let tol = Tol {
                    band: 2e3 * e * s,
                    toi: 1e2 * e * amp,
                    len: 1e3 * e * s,
                    margin: 1e4 * e * s,
                    unit: 10.0 * e,
                    coords,
                };
                check(&got, &oracle_items, f(c), f(dv), rv.to_f64(), &tol, &mut tally, &what);
            }
            Shape::Ellipsoid => {
                let el = Ellipsoid::new(v::<V>(radii * scale));
                let pose = Pose::new(c, rot);
                let fr = frame(&pose, el.radii);
                let got = seen_unit(seen(V::sweep_ell(&el, &pose, dv, &items_v, BackFaces::Hit)), &fr);
                let unit_items: Vec<Vec<DVec3>> =
                    oracle_items.iter().map(|it| it.iter().map(|&p| fr.to_unit(p)).collect()).collect();
                // Lengths in the unit sphere's space: the world's over the smallest semi-axis.
                let s = amp / 0.05;
                let tol = Tol {
                    band: 2e3 * e * s,
                    toi: 1e2 * e * s,
                    len: 1e3 * e * s,
                    margin: 1e4 * e * s,
                    unit: 10.0 * e,
                    coords,
                };
                check(&got, &unit_items, DVec3::ZERO, fr.vec_to_unit(f(dv)), 1.0, &tol, &mut tally, &what);
            }
        }
    }
    assert_mixed(tally.hits, tally.cases, "random soups");
    assert!(tally.ambiguous * 50 < cases, "too many ambiguous cases: {tally:?}");
    assert!(tally.feature_checked * 2 > tally.hits, "features rarely checked: {tally:?}");
    eprintln!("{} {shape:?} scale {scale:e} offset {offset:e}: {tally:?}", std::any::type_name::<V>());
}

#[test]
fn random_soups_against_the_oracle() {
    random_soups::<DVec3>(1, 3000, 1.0, 0.0, Shape::Sphere);
    random_soups::<Vec3>(2, 3000, 1.0, 0.0, Shape::Sphere);
    random_soups::<DVec2>(3, 3000, 1.0, 0.0, Shape::Sphere);
    random_soups::<Vec2>(4, 3000, 1.0, 0.0, Shape::Sphere);
}

#[test]
fn random_ellipsoids_against_the_oracle() {
    random_soups::<DVec3>(11, 2000, 1.0, 0.0, Shape::Ellipsoid);
    random_soups::<Vec3>(12, 2000, 1.0, 0.0, Shape::Ellipsoid);
    random_soups::<DVec2>(13, 2000, 1.0, 0.0, Shape::Ellipsoid);
    random_soups::<Vec2>(14, 2000, 1.0, 0.0, Shape::Ellipsoid);
}

/// Tiny and huge soups, and soups far from the origin (where the coordinates' own rounding
/// sets the precision: a thousand units away in f32, a million in f64).
#[test]
fn tiny_huge_and_far() {
    for scale in [1.0e-6, 1.0e6] {
        random_soups::<DVec3>(5, 1000, scale, 0.0, Shape::Sphere);
        random_soups::<Vec3>(6, 1000, scale, 0.0, Shape::Sphere);
        random_soups::<DVec2>(7, 1000, scale, 0.0, Shape::Sphere);
        random_soups::<Vec2>(8, 1000, scale, 0.0, Shape::Sphere);
        random_soups::<Vec3>(9, 500, scale, 0.0, Shape::Ellipsoid);
    }
    random_soups::<DVec3>(21, 1000, 1.0, 1.0e6, Shape::Sphere);
    random_soups::<Vec3>(22, 1000, 1.0, 1.0e3, Shape::Sphere);
    random_soups::<DVec2>(23, 1000, 1.0, 1.0e6, Shape::Sphere);
    random_soups::<Vec2>(24, 1000, 1.0, 1.0e3, Shape::Sphere);
    random_soups::<DVec3>(25, 500, 1.0, 1.0e6, Shape::Ellipsoid);
    random_soups::<Vec3>(26, 500, 1.0, 1.0e3, Shape::Ellipsoid);
}
