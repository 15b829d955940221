//! Regressions of the continuous queries, each telling its story.

use kollide::math::{DPose3, DVec3, Pose3, Quat, Vec3};
use kollide::query::cast::{ray_cast, Ray, RayOutcome};
use kollide::query::Space;
use kollide::shape::{Cone, ConvexHull, Ellipsoid, Rounded, Segment, Support, Triangle};

/// A ray from far away hit a cone at the right time but reported the wrong normal.
///
/// The cone's quadratic is solved from the point of the ray's line nearest the cone (so a
/// far origin's size does not swamp the cone's), at time `tc` along the ray; the normal was
/// then evaluated at `m + t d` with the full time `t` instead of `t - tc`, i.e. at a point
/// about `tc` units off. Found by the random-ray oracle after a change of inlining moved
/// which rays took the shifted path; it holds for any origin farther than twice the cone's
/// reach.
#[test]
fn cone_normal_of_a_ray_from_far_away() {
    // Apex at y = 1, base of radius 1 at y = -1: at y = 0 the side is at x = 0.5, and the
    // outward normal is the gradient of x² + z² - (1 - y)²/4 there: (0.5, 0.25, 0) unit.
    let want = DVec3::new(0.5, 0.25, 0.0).normalize();
    let cone = Cone::<DVec3>::new(1.0, 1.0);
    for far in [3.0, 10.0, 1.0e4] {
        let ray = Ray::new(DVec3::new(far, 0.0, 0.0), DVec3::NEG_X);
        let RayOutcome::Hit(hit) = ray_cast(&cone, &DPose3::IDENTITY, &ray, f64::INFINITY) else {
            panic!("the ray from {far} must hit the cone");
        };
        assert!((hit.toi - (far - 0.5)).abs() < 1e-9 * far, "toi {} from {far}", hit.toi);
        assert!((hit.normal - want).length() < 1e-9, "normal {:?} from {far}, want {want:?}", hit.normal);
    }
    let cone = Cone::<Vec3>::new(1.0, 1.0);
    let ray = Ray::new(Vec3::new(10.0, 0.0, 0.0), Vec3::NEG_X);
    let RayOutcome::Hit(hit) = ray_cast(&cone, &Pose3::IDENTITY, &ray, f32::INFINITY) else { panic!() };
    assert!((hit.normal - want.as_vec3()).length() < 1e-5, "f32 normal {:?}", hit.normal);
}

/// A ray through the rim of a flat ellipsoid (radii 5.4, 1e-100, 3.6: a disk) reported a
/// normal pointing into it (found by the fuzz target `casts`, whose tangent rays aim at a
/// shape's outline).
///
/// The normal is the gradient `q / r²` at the hit's scaled point `q`; `1 / r²` is 1e200 for
/// the thin axis, the rounding of the point's height (1e-16 at the rim) made it infinite, and
/// the fallback, the ray's reverse, leaned into the disk. The gradient is now scaled by the
/// largest `1 / r` first: the disk's own normal at the rim, on the ray's side.
#[test]
fn ray_through_the_rim_of_a_flat_ellipsoid_has_an_outward_normal() {
    let radii = DVec3::new(5.43746089875639, 1e-100, 3.62706950484474);
    let disk = Ellipsoid::new(radii);
    let ray = Ray::new(
        DVec3::new(3.453660544774926, 1.6093363575989157, 1.472158438503584),
        DVec3::new(0.23730497725945726, -0.3576303016886482, 0.12055214665288846),
    );
    let RayOutcome::Hit(hit) = ray_cast(&disk, &DPose3::IDENTITY, &ray, f64::INFINITY) else {
        panic!("the ray crosses the disk's rim");
    };
    // The farthest point of the ellipsoid along n is |R n| (R the radii); beyond the hit
    // point's plane by at most rounding.
    let n = hit.normal;
    let reach = (n * radii).length() - hit.point.dot(n);
    assert!(reach <= 1e-9, "normal {n:?} at {:?}: the ellipsoid reaches {reach:e} beyond", hit.point);
    assert!(n.dot(ray.direction()) < 0.0, "normal {n:?} faces away from the ray");
}

/// A capsule of radius 1e-12 in f32 hit at its end by a ray tangent there reported a normal
/// pointing back along its core: the cone of segment it left beyond the plane was 0.18 long
/// (found by the fuzz target `casts`, tangent rays).
///
/// The normal is the point's offset from the core over the radius; with the radius far below
/// the rounding of the point (3e-8 here), that offset is the rounding, pointing anywhere.
/// Such a capsule now takes the normal of its core nearest the ray's reverse: at an end,
/// anything not pointing back into the segment.
#[test]
fn ray_at_the_end_of_a_capsule_thinner_than_rounding_has_an_outward_normal() {
    let core = Segment::new(Vec3::new(-0.48236057, -0.24848172, 0.0), Vec3::new(0.0, 1e-12, 1e-12));
    let capsule = Rounded::try_new(core, 1e-12f32).unwrap();
    let pose = Pose3::new(
        Vec3::new(1e-12, -1e-12, 0.0),
        Quat::from_xyzw(-0.58950955, -0.58950955, 0.32240197, 0.44834587),
    );
    let ray = Ray::new(
        Vec3::new(-1.3802004, 0.42070693, 0.95949346),
        Vec3::new(0.77951515, -0.23760855, -0.5419066),
    );
    let RayOutcome::Hit(hit) = ray_cast(&capsule, &pose, &ray, 1e3) else {
        panic!("the ray touches the capsule's end");
    };
    // How far the capsule reaches beyond the plane through the hit point (its support
    // along the normal, in its own frame).
    let n = hit.normal;
    let far = pose.transform_point(capsule.support(pose.inverse_transform_vector(n))) + n * 1e-12;
    let beyond = (far - hit.point).dot(n);
    assert!(beyond <= 1e-6, "normal {n:?} at {:?}: the capsule reaches {beyond:e} beyond", hit.point);
}

/// A triangle with two equal corners (a segment) hit at that corner by a tangent ray
/// reported the ray's reverse as its normal, which pointed back along the segment (0.8 of it
/// beyond the plane; found by the fuzz target `casts`, tangent rays).
///
/// A flat triangle is cast as its three edges; the edge of no length is a point, whose
/// normal is the ray's reverse, and it won the tie at the shared corner by a rounding of
/// the time. Such a point's normal is now the nearest one not pointing back along the
/// other edges.
#[test]
fn ray_at_the_corner_of_a_triangle_with_two_equal_corners_has_an_outward_normal() {
    let corner = DVec3::splat(3.435294117647059);
    let tri = Triangle::new(DVec3::new(0.303921568627451, 1e-100, 3.435294117647059), corner, corner);
    let pose = DPose3::from_translation(corner);
    let ray = Ray::new(
        DVec3::new(6.644008065307515, 7.011966142031559, 6.95579049854328),
        DVec3::new(0.057576425856087465, -0.03592562652520925, -0.0216507993308781),
    );
    // (Through the run-time shape, whose triangle is cast in closed form.)
    let shape = kollide::world::Shape3::from(tri);
    let Some(RayOutcome::Hit(hit)) = kollide::world::ray_cast(&shape, &pose, &ray, 1e3).map(|a| a.value)
    else {
        panic!("the ray touches the corner");
    };
    let n = hit.normal;
    let far = pose.transform_point(tri.support(pose.inverse_transform_vector(n)));
    let beyond = (far - hit.point).dot(n);
    assert!(beyond <= 1e-9, "normal {n:?} at {:?}: the triangle reaches {beyond:e} beyond", hit.point);
}

/// A turning compound cast its parts along straight lines (found by the fuzz target
/// `casts`).
///
/// Each part off the compound's origin was given the velocity its origin has at the start,
/// `v + ω × r`, and cast as a body turning about its own origin: right for the first
/// instant, but the part then runs along the tangent instead of the arc, and a turning
/// compound missed what its parts sweep through (or hit it at the wrong time). A ball on an
/// arm of length 2 turning at 1 rad/s about z meets a ball at (0, 2, 0) when their centres
/// are 1 apart: 4 cos²θ + (2 sin θ - 2)² = 1, sin θ = 7/8, at t = asin(7/8); the tangent
/// (2, 2t, 0) never comes within 2 and was a miss. Both orders (the compound as A, as B) and
/// a mesh triangle off the origin likewise.
#[test]
fn a_turning_compound_carries_its_parts_on_arcs() {
    use kollide::composite::{self, Compound, TriMesh};
    use kollide::query::cast::{CastInput, CastStatus, Motion};
    use kollide::shape::{Ball, Convex3};
    let arm = Compound::new(vec![(
        DPose3::from_translation(DVec3::new(2.0, 0.0, 0.0)),
        Convex3::Ball(Ball::new(0.5)),
    )]);
    let target = Ball::new(0.5);
    let at = DPose3::from_translation(DVec3::new(0.0, 2.0, 0.0));
    let turning = Motion { velocity: DVec3::ZERO, angular_velocity: DVec3::Z };
    let expected = (7.0f64 / 8.0).asin();
    let input = CastInput { motion_a: turning, ..CastInput::linear(DVec3::ZERO, DVec3::ZERO, 3.0) };
    let out = composite::shape_cast(&arm, &DPose3::IDENTITY, &target, &at, &input).expect("a hit").value;
    assert_eq!(out.status, CastStatus::Hit, "{out:?}");
    assert!((out.toi - expected).abs() < 1e-6, "toi {} expected {expected}", out.toi);
    // The compound as B of a pair of composites: B's parts turn about B's origin.
    let still = Compound::new(vec![(at, Convex3::Ball(Ball::new(0.5)))]);
    let input_b = CastInput { motion_b: turning, ..CastInput::linear(DVec3::ZERO, DVec3::ZERO, 3.0) };
    let out = composite::pair_shape_cast(&still, &DPose3::IDENTITY, &arm, &DPose3::IDENTITY, &input_b)
        .expect("a hit")
        .value;
    assert!((out.toi - expected).abs() < 1e-6, "pair toi {} expected {expected}", out.toi);
    // A triangle of a mesh far from the mesh's origin (parts are placed at their first
    // corner): a thin triangle at x = 2 swept round at 1 rad/s meets the ball at (0, 2, 0)
    // when its corner nearest the axis, at distance 2 along the arm, comes within 0.5.
    let mesh = TriMesh::new(
        vec![DVec3::new(2.0, 0.0, -1.0), DVec3::new(3.0, 0.0, -1.0), DVec3::new(2.0, 0.0, 1.0)],
        vec![[0, 1, 2]],
    );
    let out = composite::shape_cast(&mesh, &DPose3::IDENTITY, &target, &at, &input).expect("a hit").value;
    // The triangle's nearest point to the ball's centre is its corner edge at radius 2 (the
    // centre's projection onto the turned plane falls inside radius 2): the chord between
    // two points at radius 2 an angle φ apart is 4 sin(φ / 2), which is 0.5 at
    // φ = 2 asin(1/8) short of a quarter turn.
    let edge = std::f64::consts::FRAC_PI_2 - 2.0 * (0.125f64).asin();
    assert_eq!(out.status, CastStatus::Hit, "{out:?}");
    assert!((out.toi - edge).abs() < 1e-5, "mesh toi {} expected {edge}", out.toi);
}

/// A 2D ray hit a sliver triangle 7.7 units away from it (found by the fuzz target `casts`
/// on a compound; `crates/kollide-fuzz/regressions/casts/`).
///
/// The triangle is 2 long and 1e-12 thick (its third corner 1e-12 off the line of the
/// other two), in f32. The solid 2D triangle was clipped by its three edge lines, which
/// here are parallel within rounding; the ray runs nearly along them, so it crossed each
/// line far from the triangle, and the rounding of the ray's origin in the triangle's frame
/// (1e-6) against a thickness of 1e-12 left a span [6.49, ...] that lies on no line at all.
/// A sliver is now answered by its edges as flat segments, like a collinear triangle.
#[test]
fn a_ray_along_a_sliver_triangle_misses_it() {
    use kollide::math::{Pose2, Rot2, Vec2};
    use kollide::shape::Triangle;
    let tri = Triangle::new(Vec2::new(0.0, 0.0), Vec2::new(0.0, -1.9924315), Vec2::new(1e-12, -1.082353));
    let part = Pose2::new(Vec2::new(0.91668576, 0.3274281), Rot2 { cos: 0.45919666, sin: -0.88833463 });
    let body = Pose2::new(Vec2::new(0.22217518, 1e-12), Rot2 { cos: -0.9480551, sin: -0.3181062 });
    let pose = body.compose(&part);
    // The triangle spans y in [-0.61, 0.83]; the ray stays above y = 7.7 within max_toi.
    let ray = Ray::new(Vec2::new(-1.2486458, 8.0), Vec2::new(1.3748989, -0.019691767));
    assert!(matches!(ray_cast(&tri, &pose, &ray, 15.375), RayOutcome::Miss));
    // And a ray that does cross it, square to its length, still hits it on its long side.
    let mid = pose.transform_point(Vec2::new(0.0, -1.0));
    let across = pose.transform_vector(Vec2::X);
    let ray = Ray::new(mid - across * 3.0, across);
    let RayOutcome::Hit(hit) = ray_cast(&tri, &pose, &ray, 10.0) else { panic!("must hit") };
    assert!((hit.toi - 3.0).abs() < 1e-5, "{hit:?}");
    assert!((hit.normal + across).length() < 1e-5, "{hit:?}");
}

/// A 3D ray 3.3e9 away from a triangle reported hitting it (f32; found by the fuzz target
/// `casts`).
///
/// The triangle (1.6 across, near z = 15) was crossed by the Plücker test: the signs of
/// `d · (p × q)` for its edges seen from the ray's origin. With the origin at z = 3.3e9
/// the corners seen from it are nearly equal vectors 3.3e9 long, whose cross products
/// cancel to noise (eps |o|² = 6e11 against a true 5e9), so the three signs agreed by
/// chance. A crossing is now also required to lie within rounding of the triangle's
/// bounding box: this one lay 1e10 away.
#[test]
fn a_far_ray_does_not_cross_a_triangle_by_rounding() {
    use glam::Quat;
    use kollide::shape::Triangle;
    let tri = Triangle::new(Vec3::new(0.0, 0.0, -0.4998932), Vec3::ZERO, Vec3::new(1.5781796, 0.0, 0.0));
    let pose = Pose3::new(
        Vec3::new(-0.02972839, 1e-12, 15.25),
        Quat::from_xyzw(-0.37025803, -0.71342176, 0.5844034, 0.111405335),
    );
    let ray =
        Ray::new(Vec3::new(-0.044834822, 1.375, 3333333200.0), Vec3::new(3333333200.0, -1964599000.0, 1e-12));
    assert!(matches!(ray_cast(&tri, &pose, &ray, 10.375), RayOutcome::Miss));
    // The same ray moved next to the triangle, aimed through its centroid, still hits.
    let centroid = pose.transform_point((tri.a + tri.b + tri.c) / 3.0);
    let dir = ray.direction().normalize();
    let near = Ray::new(centroid - dir * 5.0, dir);
    let RayOutcome::Hit(hit) = ray_cast(&tri, &pose, &near, 10.0) else { panic!("must hit") };
    assert!((hit.toi - 5.0).abs() < 1e-4, "{hit:?}");
}

/// A ray with direction 1e6 long from 4.9e16 outside a cone 1e17 wide, in f32, was
/// reported starting inside it (fuzz target `casts`). Directions were rescaled only beyond
/// 1e±8, and the cone's quadratic in f32 took products of 1e17 positions and 1e6
/// directions, squared: 1e46, beyond f32. Every direction is now brought near unit length
/// by a power of two.
///
/// Truth, in f64 by the cone's inequality (x² + z² <= (r/2h)² (h - y)², |y| <= h, in the
/// cone's frame): the origin is outside, so with `max_toi = 0` the ray misses; over an
/// unbounded ray the f32 answer matches the f64 one (hit time within 1e-4 relative).
#[test]
fn a_far_ray_with_a_long_direction_does_not_start_in_a_huge_cone() {
    use kollide::math::{DQuat, Quat};
    let q = Quat::from_xyzw(-0.525_129_7, -0.525_129_7, -0.525_129_7, -0.415_591_78);
    let at = Vec3::splat(1e17);
    let (origin, direction) = (Vec3::new(1e17, -7.687_739_4, 1e17), Vec3::new(0.0, -1e-12, -999_328.6));
    // Inside test in f64.
    let q64 = DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize();
    let local = q64.inverse() * (origin.as_dvec3() - at.as_dvec3());
    let (h, r) = (1e17f64, 1e17f64);
    let k = r / (2.0 * h);
    let inside = local.y.abs() <= h && local.x.powi(2) + local.z.powi(2) <= (k * (h - local.y)).powi(2);
    assert!(!inside, "the origin is outside in f64: {local:?}");
    let cone = Cone::new(1e17f32, 1e17);
    let pose = Pose3::try_new(at, q).unwrap();
    let ray = Ray::new(origin, direction);
    assert!(matches!(ray_cast(&cone, &pose, &ray, 0.0), RayOutcome::Miss));
    let pose64 = DPose3::try_new(at.as_dvec3(), q64).unwrap();
    let ray64 = Ray::new(origin.as_dvec3(), direction.as_dvec3());
    match (
        ray_cast(&cone, &pose, &ray, f32::INFINITY),
        ray_cast(&Cone::new(h, r), &pose64, &ray64, f64::INFINITY),
    ) {
        (RayOutcome::Miss, RayOutcome::Miss) => {}
        (RayOutcome::Hit(a), RayOutcome::Hit(b)) => {
            assert!((a.toi as f64 - b.toi).abs() <= 1e-4 * b.toi, "{a:?} against {b:?}");
        }
        (a, b) => panic!("f32 {a:?} against f64 {b:?}"),
    }
}

/// A ball 3e-7 across moving against a sliver triangle 1.2e17 long and 3e-7 wide, in f32
/// (a heightfield's cell with a height of 1e17 beside cells 3e-7 wide: fuzz target `mover`,
/// which got a contact normal 0.89 long). Each item of the sweep is scaled to its largest
/// size, 1e17, so the triangle's short edge and the gaps became ~1e-24 and their squares
/// subnormal. Normals now come from edges and gaps each brought near unit size first.
/// Truth: the face's normal is +x to within 1e-17 (the long edge leans 3e-18 off y), and the
/// ball's centre ends on the face, so the sweep hits, with a unit normal along +x. The
/// exact time is 1 - 0.3 / (x in millionths), but f32's rounding band about a triangle 1e17
/// long is 1e10 wide, so any time up to that one is within the documented accuracy.
#[test]
fn a_tiny_ball_against_a_huge_sliver_gets_unit_normals() {
    use kollide::query::cast::{sweep, BackFaces, SweepOutcome, SweptShape};
    let tri = [[Vec3::ZERO, Vec3::new(0.35, 1.2e17, 0.0), Vec3::new(0.0, 0.0, 3e-7)]];
    for (x, z) in [(1e-6f32, 1.5e-7f32), (5e-7, 1e-7), (3.5e-7, 2e-7)] {
        let centre = Vec3::new(x, 0.5, z);
        let out =
            sweep(SweptShape::ball(centre, 3e-7), Vec3::new(-1e-6, 0.0, 0.0), &tri, BackFaces::Hit, None)
                .unwrap();
        match out {
            SweepOutcome::Hit(h) => {
                assert!((h.normal.length() - 1.0).abs() < 1e-5, "{out:?}");
                assert!((h.normal - Vec3::X).length() < 1e-3, "{out:?}");
                assert!(h.toi <= (x - 3e-7) / 1e-6 + 1e-3, "{out:?}");
            }
            other => panic!("from x = {x}: {other:?}"),
        }
    }
}

/// A ray along the diagonal of a concave polygon's piece to its corner 1e17 out, in f32,
/// was reported inside and leaving at infinity, with a NaN point and a zero normal (fuzz
/// target `casts`): the two edges at that corner have normals that round to exactly square
/// to the ray, so no plane bounded it. A clipping answer at an infinite time now goes to
/// GJK's ray cast. Truth: the origin lies on the chord from (-13, -13) to (1e17, 1e17), inside
/// the polygon, so the ray starts inside and leaves at that corner, at t = 1e17 / 8.
#[test]
fn a_ray_along_a_diagonal_to_a_far_corner_leaves_there() {
    use kollide::composite::ConcavePolygon;
    use kollide::math::{Pose2, Vec2};
    use kollide::world::{self, Shape2};
    use std::sync::Arc;
    let points = [
        Vec2::new(1e17, 1e17),
        Vec2::new(-0.021_538_109, 0.0),
        Vec2::new(-13.0, -13.0),
        Vec2::new(-0.118_612_19, -0.359_372_85),
    ];
    let polygon = Shape2::ConcavePolygon(Arc::new(ConcavePolygon::try_new(&points).unwrap()));
    let pose = Pose2::from_translation(Vec2::new(8.0, 8.0));
    let ray = Ray::new(Vec2::new(8.0, 8.0), Vec2::new(8.0, 8.0));
    let out = world::ray_cast(&polygon, &pose, &ray, 8.0).map(|h| h.value);
    let Some(RayOutcome::Inside { exit }) = out else { panic!("{out:?}") };
    assert!((exit.toi as f64 - 1.25e16).abs() <= 1e-4 * 1.25e16, "{exit:?}");
    assert!(exit.point.is_finite() && (exit.normal.length() - 1.0).abs() < 1e-5, "{exit:?}");
}

/// A ray past a sliver polygon (a triangle 1.7e-12 wide and 0.77 long, in f32) was reported
/// hitting it 6.4 units away (fuzz target `casts`): its edge lines are parallel within
/// rounding, and the clipping put the crossing of two of them far off. A clipping answer
/// beyond the polygon's reach now goes to GJK's ray cast. Truth, by hand in f64: the
/// polygon is, within 2e-12, the segment from the origin to 0.77 along its local y axis,
/// turned to run towards (-0.6338, -0.7735); the ray from (0, -1) along (-1, -1) meets that
/// line 7.2 along it, far past its end: a miss.
#[test]
fn a_ray_past_a_sliver_polygon_misses_it() {
    use kollide::math::{Pose2, Vec2};
    use kollide::shape::ConvexPolygon;
    let polygon = ConvexPolygon::try_from_points(&[
        Vec2::ZERO,
        Vec2::new(1.690_363_9e-12, 0.769_942_9),
        Vec2::new(1e-12, 0.455_489_43),
    ])
    .unwrap();
    let angle = 0.633_762_5f32.atan2(-0.773_527_7);
    let pose = Pose2::from_angle(Vec2::ZERO, angle);
    let ray = Ray::new(Vec2::new(0.0, -1.0), Vec2::new(-13.0, -13.0));
    let out = ray_cast(&polygon, &pose, &ray, 13.0);
    assert!(matches!(out, RayOutcome::Miss), "{out:?}");
    // The hand computation: where the ray meets the polygon's line, in f64.
    let (c, s) = (f64::from(angle).cos(), f64::from(angle).sin());
    // Along the line: (-s y, c y) = (-t, -1 - t) gives t = s y and y = -1 / (c + s).
    let along = -1.0 / (c + s);
    assert!(along > 0.77 * 9.0, "the crossing is {along} along the line");
}

/// A fuzz finding (target `casts`, a compound of one capsule, f32): a ray from 4.3e16 deep
/// inside a capsule 1e17 long and 1e17 thick was reported missing it, whatever `max_toi`.
/// The capsule's discriminant divided the square of a triple product (`((m × d) · e)²`,
/// 2.6e70) by `|e|²`; the square overflowed f32 and the discriminant came out -inf. It is
/// now `(w / |e|²) w`. The answer matches f64's closed form.
#[test]
fn a_ray_from_deep_inside_a_huge_capsule_starts_inside() {
    use kollide::math::{DQuat, Quat};
    use kollide::shape::Capsule;
    let q = [0.6733351, 0.6733351, 0.24723373, 0.17920728];
    let part = DPose3::new(DVec3::new(-4.0, 0.013351644, -0.021538109), DQuat::from_array(q).normalize());
    let pose64 = DPose3::from_translation(DVec3::new(1e17, 0.5, 8.0)).compose(&part);
    let (o, d) = (DVec3::new(1.2921339, -13.5, 11.625), DVec3::new(-1.082353, 1e17, -1e17));
    let truth = ray_cast(&Capsule::new(1e17_f64, 1e17), &pose64, &Ray::new(o, d), 0.0);
    let RayOutcome::Inside { exit: truth } = truth else { panic!("f64: {truth:?}") };
    let pose32 = Pose3::new(pose64.translation.as_vec3(), Quat::from_array(q.map(|x| x as f32)).normalize());
    let ray32 = Ray::new(o.as_vec3(), d.as_vec3());
    for max_toi in [0.0_f32, 1e-20, 1.0] {
        let out = ray_cast(&Capsule::new(1e17_f32, 1e17), &pose32, &ray32, max_toi);
        let RayOutcome::Inside { exit } = out else { panic!("max_toi {max_toi}: {out:?}") };
        assert!((f64::from(exit.toi) - truth.toi).abs() < 1e-4 * truth.toi, "{exit:?} against {truth:?}");
        assert!((exit.normal.as_dvec3() - truth.normal).length() < 1e-3);
    }
}

/// Fuzz (`casts`, f32): a sphere of radius 8 centred at (8, 8, 8), 5.85 from a sliver whose
/// two long edges run from the origin towards (1, 1, 1) and whose short edge is 1e-12 long,
/// was reported `StartedWithin` it by its whole radius. The centre lies on the line of the
/// long edges, far beyond them; in f32 those edges round to that very line, both their
/// sides' cross products are zero, and the inclusive inside test accepted the foot. The
/// triangle's box now bounds the test. Judged by the f64 point-triangle distance.
#[test]
fn a_sphere_on_the_line_of_a_slivers_long_edges_is_not_inside_it() {
    use crate::common::oracle::point_triangle;
    use kollide::query::cast::{sweep, BackFaces, SweepOutcome, SweptShape};
    let c = 0.003_098_039_2_f32;
    let sliver = [Vec3::new(0.0, -1e-12, 0.0), Vec3::ZERO, Vec3::splat(c)];
    let (centre, radius) = (Vec3::splat(8.0), 8.0_f32);
    let d = |p: Vec3| p.as_dvec3();
    let gap = point_triangle(d(centre), d(sliver[0]), d(sliver[1]), d(sliver[2])) - f64::from(radius);
    assert!(gap > 5.8, "the oracle's gap: {gap}");
    // Moving away along (1, 1, 1): nothing is met.
    let away =
        sweep(SweptShape::ball(centre, radius), Vec3::splat(8.0), &[sliver], BackFaces::Hit, None).unwrap();
    assert_eq!(away, SweepOutcome::Miss);
    // Moving towards it: the first contact is at the gap, on the corner nearest the path.
    let toward =
        sweep(SweptShape::ball(centre, radius), Vec3::splat(-8.0), &[sliver], BackFaces::Hit, None).unwrap();
    let SweepOutcome::Hit(hit) = toward else { panic!("{toward:?}") };
    let travelled = f64::from(hit.toi) * d(Vec3::splat(8.0)).length();
    assert!((travelled - gap).abs() < 1e-5 * 8.0, "{hit:?}: travelled {travelled}, gap {gap}");
    // Beside a point-like triangle at its centre, that one is the overlap reported.
    let point = [Vec3::splat(8.0); 3];
    let both =
        sweep(SweptShape::ball(centre, radius), Vec3::splat(8.0), &[sliver, point], BackFaces::Hit, None)
            .unwrap();
    let SweepOutcome::StartedWithin { index, distance, .. } = both else { panic!("{both:?}") };
    assert_eq!((index, distance), (1, -8.0));
}

/// A ray crossing a flat cone from far below it hit at a point 9.6e149 off it (fuzz target
/// `casts`, f64: a cone of radius 1e150 and half height 0.35, the ray from 6e149 below).
///
/// The cone's quadratic `x² + z² - k² (h - y)²` (slope `k = r / 2h`) was formed at a point
/// of the line far outside the slab `|y| <= h`, where its terms are about `(k y)²`; the
/// discriminant cancelled them and kept nothing of the part that decides. (Squaring `k`
/// itself also overflows past 1e154 in f64 and 1e19 in f32.) It is now formed in the
/// middle of the slab, with `x` and `z` shrunk by `1 / k` when `k > 1`.
///
/// Judged by the cone's own geometry: a ray aimed at a point of the sloped face, coming
/// from outside its tangent plane, enters the convex cone exactly there.
#[test]
fn a_ray_crosses_a_flat_cone_where_it_was_aimed() {
    // The finding, in the cone's frame: at the slab (y = 0) the line is 1.96e150 from the
    // axis, nearly twice the radius, so it misses.
    let cone = Cone::<DVec3>::new(0.3536354619668879, 1e150);
    let ray = Ray::new(
        DVec3::new(1.2577075711192113e150, -6.131286251781484e149, 1.0209039888924763e150),
        DVec3::new(-3.372883582123306e149, 9.53691106834803e149, 9.882863128459485e149),
    );
    assert_eq!(ray_cast(&cone, &DPose3::IDENTITY, &ray, 8.0), RayOutcome::Miss);

    let mut rng = crate::common::rng(77);
    use rand::Rng;
    let h = 0.35;
    // Up to the top of the certified range (offsets whose squares stay finite).
    for k in [10.0, 1e4, 1e8, 1e50, 1e150] {
        let r = 2.0 * h * k;
        let cone = Cone::<DVec3>::new(h, r);
        for _ in 0..200 {
            // A point of the sloped face, and a ray into it from `far` away.
            let (rho, phi) = (r * rng.random_range(0.05..0.95), rng.random_range(0.0..std::f64::consts::TAU));
            let aim = DVec3::new(rho * phi.cos(), h - rho / k, rho * phi.sin());
            let d = DVec3::new(rng.random_range(-1.0..1.0), -1.0, rng.random_range(-1.0..1.0));
            let far = r * rng.random_range(0.01..3.0);
            let ray = Ray::new(aim - d * far, d);
            let RayOutcome::Hit(hit) = ray_cast(&cone, &DPose3::IDENTITY, &ray, f64::INFINITY) else {
                panic!("k {k}: the ray aimed at {aim:?} from {far} away must hit");
            };
            assert!((hit.toi - far).abs() <= 1e-9 * far, "k {k}: toi {} for {far}", hit.toi);
            assert!((hit.point - aim).length() <= 1e-9 * r, "k {k}: point {:?} for {aim:?}", hit.point);
            // The face's normal is the gradient (x, k² (h - y), z) ∝ (cos φ, k, sin φ).
            let n = DVec3::new(phi.cos() / k, 1.0, phi.sin() / k).normalize();
            assert!((hit.normal - n).length() < 1e-6, "k {k}: normal {:?}, want {n:?}", hit.normal);
        }
    }
    // f32, to the top of its certified range.
    for k in [10.0f32, 1e4, 1e10, 1e17] {
        let r = 2.0 * 0.35 * k;
        let cone = Cone::<Vec3>::new(0.35, r);
        let aim = Vec3::new(0.5 * r, 0.35 - 0.5 * r / k, 0.0);
        let ray = Ray::new(aim + Vec3::Y * r, Vec3::NEG_Y);
        let RayOutcome::Hit(hit) = ray_cast(&cone, &Pose3::IDENTITY, &ray, f32::INFINITY) else {
            panic!("f32 k {k}: the ray must hit");
        };
        assert!((hit.toi - r).abs() <= 1e-5 * r, "f32 k {k}: toi {} for {r}", hit.toi);
        let n = Vec3::new(1.0 / k, 1.0, 0.0).normalize();
        assert!((hit.normal - n).length() < 1e-5, "f32 k {k}: normal {:?}, want {n:?}", hit.normal);
    }
}

/// A ray with a direction 1e150 long, from 1.7e150 away, hit a turned flat cone (radius
/// 1e150, half height 0.35) at a point 4.6e149 off it (fuzz target `casts`, f64).
///
/// In the cone's frame the line crosses the slab `|y| <= h` 1.45 radii from the axis: a
/// miss. But the slab is crossed within less than one rounding step of the time (4.6e149
/// scaled, whose rounding moves `y` by 1e134), so the point of the line "in the middle of
/// the slab" where the quadratic is formed was computed with `y` at 1e134, far outside it
/// again, and the quadratic formed there called the line inside. That point is now the
/// line's point at `y = 0` with `y` set exactly.
///
/// Judged by the geometry: where the slab is that thin, a line not too steep to it (its
/// `x` and `z` move by at most a few slab heights across it) hits the cone if and only if
/// it crosses the slab within the radius, and then at that crossing, at the time it was
/// aimed there.
#[test]
fn a_long_ray_through_a_turned_flat_cone_hits_only_within_its_radius() {
    use glam::DQuat;
    let cone = Cone::<DVec3>::new(0.3536354619668879, 1e150);
    let pose = DPose3::new(
        DVec3::new(1e150, -0.7098039215686274, 0.3549019607843137),
        DQuat::from_xyzw(0.4056019386585415, 0.5751350266766335, 0.5757851846634359, -0.4161468365471424),
    );
    let ray =
        Ray::new(DVec3::new(5.687464713511863, 1e150, 1e150), DVec3::new(1e150, 8.0, 7.990966659037156));
    assert_eq!(ray_cast(&cone, &pose, &ray, 7.884275577935455), RayOutcome::Miss);

    use rand::Rng;
    let mut rng = crate::common::rng(151);
    let h = 0.35;
    for k in [1e8, 1e50, 1e150] {
        let r = 2.0 * h * k;
        let cone = Cone::<DVec3>::new(h, r);
        for i in 0..400 {
            let pose = DPose3::new(
                crate::common::vec_in::<DVec3>(&mut rng, -r, r),
                crate::common::rotation::<DVec3>(&mut rng),
            );
            // Where the line crosses the slab, in the cone's frame: inside the radius for
            // the even cases (under the sloped face, so within the solid), outside for the odd.
            let hits = i % 2 == 0;
            let rho = r * if hits { rng.random_range(0.0..0.97) } else { rng.random_range(1.03..3.0) };
            let phi = rng.random_range(0.0..std::f64::consts::TAU);
            let y = rng.random_range(-h..if hits { h - rho / k } else { h });
            let aim = DVec3::new(rho * phi.cos(), y, rho * phi.sin());
            // A direction no flatter to the slab than 1 : 3, from 1 to 1e150 long.
            let dir = DVec3::new(rng.random_range(-3.0..3.0), 1.0, rng.random_range(-3.0..3.0))
                * if rng.random_bool(0.5) { 1.0 } else { -1.0 }
                * 10f64.powf(rng.random_range(0.0..150.0));
            let far = r * rng.random_range(0.5..2.0) / dir.length();
            let aim_w = pose.transform_point(aim);
            let ray = Ray::new(aim_w - pose.transform_vector(dir) * far, pose.transform_vector(dir));
            let out = ray_cast(&cone, &pose, &ray, 2.0 * far);
            let what = || format!("k {k} case {i}: aimed at {aim:?} (rho {:.3} r), got {out:?}", rho / r);
            if !hits {
                assert_eq!(out, RayOutcome::Miss, "{}", what());
                continue;
            }
            // The line's path through the slab, within which it enters the cone.
            let through = 2.0 * h * dir.length() / dir.y.abs();
            let RayOutcome::Hit(hit) = out else { panic!("{}", what()) };
            assert!((hit.toi - far).abs() <= 1e-9 * far + through / dir.length(), "{}", what());
            assert!((hit.point - aim_w).length() <= 1e-9 * r + through, "{}", what());
        }
    }
}

/// Two balls far smaller than the rounding of their positions hit with a zero normal
/// (found by the fuzz target `casts`, f64, inside compounds).
///
/// Balls of radius 1e-100 at 0.14 apart, closing head-on at 8 a second: the closed form
/// aims half a tolerance (about 1e-16, the rounding of 0.14) above contact, and at that time
/// both centres rounded to the same point. The normal was the gap over its expected length,
/// zero. Below the rounding the gap has no direction of its own; the balls then meet as
/// points do, along the approach. The judge: at the reported time the true gap is along
/// the motion (its sideways part is the balls' 1e-100 offset), so the normal must be the
/// unit vector against the relative velocity, and the points must be `distance` apart
/// along it.
#[test]
fn tiny_balls_meeting_below_the_rounding_get_the_approach_as_normal() {
    use kollide::composite::{self, Compound};
    use kollide::math::{DQuat, Pose};
    use kollide::query::cast::{shape_cast, CastInput, CastOutput, CastStatus};
    use kollide::shape::{Ball, Convex3, Triangle};

    fn judge<V: Space>(out: &CastOutput<V>, approach: V, what: &str)
    where
        V::Real: Into<f64>,
    {
        assert_eq!(out.status, CastStatus::Hit, "{what}: {out:?}");
        let n = out.normal;
        let len: f64 = n.length().into();
        assert!((len - 1.0).abs() < 1e-6, "{what}: normal {n:?} is not unit");
        let along: f64 = (n.dot(approach) / approach.length()).into();
        assert!(along < -(1.0 - 1e-6), "{what}: normal {n:?} is not against the approach {approach:?}");
        let d: f64 = out.distance.into();
        let off: f64 = (out.point_b - out.point_a - n * out.distance).length().into();
        assert!((0.0..1e-5).contains(&d) && off < 1e-5, "{what}: distance {d}, points off by {off}");
    }

    // The finding, as the fuzzer built it: A a compound of a triangle and a ball of radius
    // 1e-100, B a compound holding one such ball.
    let turn =
        DQuat::from_xyzw(0.5239359793636253, 0.5239359793636253, 0.5239359793636253, 0.42008721545035893);
    let tiny = 1e-100;
    let triangle = Triangle::new(
        DVec3::new(tiny, 8.5, -3.4883955138475624),
        DVec3::new(-1.7826810101472494, -23.750000026077032, tiny),
        DVec3::new(tiny, tiny, -7.951171129930572),
    );
    let a = Compound::new(vec![
        (Pose::new(DVec3::new(7.941649500267033, 8.0, 8.0), DQuat::IDENTITY), Convex3::Triangle(triangle)),
        (Pose::new(DVec3::ZERO, turn), Convex3::Ball(Ball::new(tiny))),
    ]);
    let b = Compound::new(vec![(Pose::new(DVec3::splat(tiny), turn), Convex3::Ball(Ball::new(tiny)))]);
    let pose_a = Pose::new(DVec3::new(0.14215686274509803, tiny, tiny), turn);
    let pose_b = Pose::new(DVec3::splat(tiny), turn);
    let (va, vb) = (DVec3::new(tiny, 8.0, 8.0), DVec3::splat(8.0));
    let input = CastInput::linear(va, vb, 1.1372549019607843);
    let out = composite::pair_shape_cast(&a, &pose_a, &b, &pose_b, &input).expect("a hit").value;
    judge(&out, vb - va, "the finding");

    // Plain balls, from radii far below the rounding of their positions up to just above
    // it, in both precisions and both orders.
    for radius in [1e-300, 1e-100, 1e-30, 1e-18, 1e-16] {
        for place in [0.14215686274509803, 0.9, 3.0] {
            let (p, q) = (DVec3::new(place, 0.0, 0.0), DVec3::new(-place, radius, 0.0));
            let ball = Ball::new(radius);
            let input = CastInput::linear(DVec3::new(-4.0, 0.0, 0.0), DVec3::new(4.0, 0.0, 0.0), 1.0);
            let what = format!("f64 balls of radius {radius:e} from {place}");
            let (pa, pb) = (DPose3::from_translation(p), DPose3::from_translation(q));
            judge(&shape_cast(&ball, &pa, &ball, &pb, &input, None), DVec3::X * 8.0, &what);
            let swapped = CastInput::linear(input.motion_b.velocity, input.motion_a.velocity, 1.0);
            judge(&shape_cast(&ball, &pb, &ball, &pa, &swapped, None), DVec3::NEG_X * 8.0, &what);
            let ball32 = Ball::new((radius as f32).max(f32::MIN_POSITIVE));
            let input32 = CastInput::linear(Vec3::new(-4.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 0.0), 1.0);
            let (pa, pb) = (Pose3::from_translation(p.as_vec3()), Pose3::from_translation(q.as_vec3()));
            judge(
                &shape_cast(&ball32, &pa, &ball32, &pb, &input32, None),
                Vec3::X * 8.0,
                &format!("{what} in f32"),
            );
        }
    }
}

/// A ray along a sliver face of a hull, entering at a corner, hit 1.4e-4 before the corner,
/// off the hull (`f64`; fuzz target `casts`).
///
/// The hull's face planes clip the ray (Cyrus-Beck): the entry is the latest crossing of a
/// plane the ray enters, at the plane's offset over `n · d`. The ray met the sliver's face at
/// 5e-12 rad, so `n · d` was a difference of terms 1e11 times larger and the crossing time
/// came out 1.3e-5 early. A clipping answer at a plane the ray grazes now goes to GJK's ray
/// cast. Judged by hand: the ray's direction is the corner itself (B's frame starts at the
/// ray's origin), and every vertex has `y, z >= 7.18`, so the ray enters there at time 1.
#[test]
fn a_ray_grazing_a_sliver_face_enters_at_its_corner() {
    let corner = 7.184313725490195;
    let points = [
        DVec3::new(-56.0, 8.0, 8.0),
        DVec3::splat(corner),
        DVec3::new(8.000000000007184, 7.9999999999928155, 8.000000000003592),
        DVec3::splat(8.0),
    ];
    let at = DVec3::splat(8.0);
    let hull = ConvexHull::try_from_points(&points).expect("a sliver tetrahedron");
    let ray = Ray::new(at, DVec3::splat(corner));
    let RayOutcome::Hit(hit) = ray_cast(&hull, &DPose3::from_translation(at), &ray, 3.6) else {
        panic!("the ray must hit the sliver at its corner");
    };
    assert!((hit.toi - 1.0).abs() < 1e-10, "toi {} (want 1)", hit.toi);
    assert!((hit.point - (at + DVec3::splat(corner))).length() < 1e-9, "point {:?}", hit.point);

    // In f32 that sliver is flat (refused as coplanar); one 1e7 times thicker still grazes.
    // There the ray runs along the edge from the corner to (8, 8, 8) to rounding, so a miss
    // is a tangent lost to rounding; a hit must be at the corner.
    let mut points32: Vec<Vec3> = points.iter().map(|p| p.as_vec3()).collect();
    points32[2] = Vec3::new(8.0 + 7.2e-5, 8.0 - 7.2e-5, 8.0 + 3.6e-5);
    let hull = ConvexHull::try_from_points(&points32).expect("a sliver tetrahedron (f32)");
    let (at, dir) = (Vec3::splat(8.0), Vec3::splat(corner as f32));
    match ray_cast(&hull, &Pose3::from_translation(at), &Ray::new(at, dir), 3.6) {
        RayOutcome::Hit(hit) => {
            assert!((hit.toi - 1.0).abs() < 2e-5, "toi {} (want 1, f32)", hit.toi);
            assert!((hit.point - (at + dir)).length() < 64.0 * 2e-5, "point {:?} (f32)", hit.point);
        }
        RayOutcome::Miss => {}
        other => panic!("the ray starts outside the sliver (f32): {other:?}"),
    }
}
