//! Kept manifolds on composites (`composite::manifold_cached`): equal to the fresh manifold
//! where nothing moved, close to it (within the cache's drift and turn) while a box slides,
//! and parts left behind forgotten.

use crate::common::grid_terrain;
use glam::{DQuat, DVec3};
use kollide::composite::{self, PartManifold, PartManifoldCache, TriMesh};
use kollide::math::DPose3;
use kollide::shape::Cuboid;
use rand::{Rng, SeedableRng};

/// A 24 x 24 terrain of unit cells with hills and ripples.
fn terrain() -> TriMesh<DVec3> {
    grid_terrain(25, |x, z| (x * 0.3).sin() * 0.8 + (z * 0.4).cos() * 0.6 + ((x + z) * 1.1).sin() * 0.1)
}

/// The height of the terrain under (x, z), by a ray.
fn ground(mesh: &TriMesh<DVec3>, x: f64, z: f64) -> f64 {
    let down = kollide::query::cast::Ray::new(DVec3::new(x, 50.0, z), DVec3::NEG_Y);
    match composite::ray_cast(mesh, &DPose3::IDENTITY, &down, 100.0).map(|h| h.value) {
        Some(kollide::query::cast::RayOutcome::Hit(h)) => 50.0 - h.toi,
        other => panic!("no ground under ({x}, {z}): {other:?}"),
    }
}

fn assert_same(kept: &PartManifold<DVec3>, fresh: &PartManifold<DVec3>, tol: f64, what: &str) {
    assert_eq!(kept.manifold.len(), fresh.manifold.len(), "{what}");
    assert!((kept.manifold.normal - fresh.manifold.normal).length() <= tol, "{what}");
    for ((p, i), (q, j)) in kept.points().zip(fresh.points()) {
        assert_eq!((p.id, i), (q.id, j), "{what}");
        assert!((p.point_a - q.point_a).length() <= tol, "{what}: {p:?} against {q:?}");
        assert!((p.point_b - q.point_b).length() <= tol, "{what}");
        assert!((p.distance - q.distance).abs() <= tol, "{what}");
    }
}

#[test]
fn kept_manifold_standing_still_equals_the_fresh_one() {
    let mesh = terrain();
    let cube = Cuboid::new(DVec3::new(0.8, 0.5, 0.6));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut touching = 0;
    for case in 0..60 {
        let (x, z) = (rng.random_range(-9.0..9.0), rng.random_range(-9.0..9.0));
        let q = DQuat::from_rotation_y(rng.random_range(0.0..std::f64::consts::TAU));
        let pose = DPose3::new(DVec3::new(x, ground(&mesh, x, z) + 0.48, z), q);
        let fresh = composite::manifold(&mesh, &DPose3::IDENTITY, &cube, &pose, 0.01);
        touching += usize::from(!fresh.manifold.is_empty());
        let mut cache = PartManifoldCache::default();
        for call in 0..3 {
            let kept = composite::manifold_cached(&mesh, &DPose3::IDENTITY, &cube, &pose, 0.01, &mut cache);
            assert_same(&kept, &fresh, 1e-12, &format!("case {case}, call {call}"));
            let visited = cache.reused_parts() + cache.computed_parts();
            assert!(visited > 0);
            // The first call computes every part met; standing still, the next compute none.
            assert_eq!(
                cache.computed_parts(),
                if call == 0 { visited } else { 0 },
                "case {case}, call {call}"
            );
        }
    }
    assert_eq!(touching, 60, "every box rests on the terrain");
}

#[test]
fn kept_manifold_follows_a_sliding_turning_box() {
    let mesh = terrain();
    let cube = Cuboid::new(DVec3::new(0.8, 0.5, 0.6));
    let mut cache = PartManifoldCache::default();
    let (mut reused, mut computed, mut lagging, mut ties) = (0, 0, 0, 0);
    let (mut last_fresh, mut last_jump) = (0.0, 0);
    // 1.2 units along x and a sixth of a turn over 3,000 frames, 0.03 deep under the centre
    // (more on the slopes).
    for frame in 0..3000 {
        let t = frame as f64 / 3000.0;
        let (x, z) = (-3.0 + 1.2 * t, 2.0 + 0.3 * t);
        let pose = DPose3::new(DVec3::new(x, ground(&mesh, x, z) + 0.47, z), DQuat::from_rotation_y(t));
        let fresh = composite::manifold(&mesh, &DPose3::IDENTITY, &cube, &pose, 0.01);
        let kept = composite::manifold_cached(&mesh, &DPose3::IDENTITY, &cube, &pose, 0.01, &mut cache);
        reused += cache.reused_parts();
        computed += cache.computed_parts();
        assert!(!fresh.manifold.is_empty() && !kept.manifold.is_empty(), "frame {frame}");
        // A re-projected part manifold is its computation of a few frames ago with B's
        // points exact: the normal within the turn allowed (1 degree), the depths within
        // the drift allowed (1e-3 of the smaller shape) times the slopes met.
        // The fresh manifold itself jumps where the deepest triangle changes or a normal
        // is turned at an internal edge (here by up to 0.035 in depth from one frame to
        // the next); a kept manifold follows such a jump once its parts drift beyond the
        // tolerance, a few frames later. Elsewhere the two agree.
        let deepest = |m: &PartManifold<DVec3>| m.manifold.deepest().map(|p| p.distance).unwrap();
        let (dk, df) = (deepest(&kept), deepest(&fresh));
        if (df - last_fresh).abs() > 5e-3 {
            last_jump = frame;
        }
        last_fresh = df;
        if (dk - df).abs() > 5e-3 {
            assert!(frame - last_jump <= 10, "frame {frame}: deepest {dk} against {df}");
            lagging += 1;
        } else if kept.manifold.normal.dot(fresh.manifold.normal) < (1.5f64).to_radians().cos() {
            // Two triangles about equally deep (within the drift): the merge's reference,
            // and so the normal, may be either one's.
            ties += 1;
        }
        for p in kept.manifold.points() {
            // B's points are B's: on the box's surface.
            let local = pose.inverse_transform_point(p.point_b).abs();
            let out = (local - DVec3::new(0.8, 0.5, 0.6)).max_element();
            assert!(out.abs() <= 1e-9, "frame {frame}: a point {out} off the box");
        }
    }
    // Most parts are re-projected, not computed.
    // (A step of 4e-4 a frame against a drift of 1e-3: about two frames in three reuse.)
    assert!(reused > 2 * computed, "reused {reused}, computed {computed}");
    assert!(lagging + ties < 150, "{lagging} of 3000 frames lag a jump of the fresh manifold, {ties} tie");
}

#[test]
fn kept_manifold_forgets_parts_left_behind() {
    let mesh = terrain();
    let cube = Cuboid::new(DVec3::splat(0.4));
    let at = |x: f64, z: f64| DPose3::from_translation(DVec3::new(x, ground(&mesh, x, z) + 0.38, z));
    let mut cache = PartManifoldCache::default();
    let call = |cache: &mut PartManifoldCache<DVec3>, pose: &DPose3| {
        let m = composite::manifold_cached(&mesh, &DPose3::IDENTITY, &cube, pose, 0.0, cache);
        assert!(!m.manifold.is_empty());
        (cache.reused_parts(), cache.computed_parts())
    };
    let (_, first) = call(&mut cache, &at(-5.0, -5.0));
    assert_eq!(call(&mut cache, &at(-5.0, -5.0)), (first, 0));
    let (reused, _) = call(&mut cache, &at(5.0, 5.0));
    assert_eq!(reused, 0, "no part near (5, 5) was met before");
    // Back where it started: those parts were forgotten, so computed again.
    assert_eq!(call(&mut cache, &at(-5.0, -5.0)), (0, first));
    cache.clear();
    assert_eq!(call(&mut cache, &at(-5.0, -5.0)), (0, first));
}

#[test]
fn kept_manifold_tolerances_are_checked() {
    let e = PartManifoldCache::<DVec3>::with_tolerance(-1.0, 0.1).unwrap_err();
    assert_eq!(e.name, "drift");
    let e = PartManifoldCache::<DVec3>::with_tolerance(0.1, f64::INFINITY).unwrap_err();
    assert_eq!(e.name, "max_turn");
    assert!(PartManifoldCache::<DVec3>::with_tolerance(0.0, 0.0).is_ok());
}
