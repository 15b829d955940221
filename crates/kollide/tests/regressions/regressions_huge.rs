//! Regressions of the fuzz target `queries` at the top of f32's range (shapes near 1e17 and
//! segments 3e26 long). Each test checks its answer against closed forms in f64 written here,
//! independent of the code under test.

use kollide::math::{DPose3, DQuat, DVec3, Pose, Pose2, Pose3, Quat, Vec2, Vec3};
use kollide::query::{contact, ContactStatus};
use kollide::shape::{Cone, Ellipsoid, Rounded, Segment};

/// The push of B out of A along unit `n`, in f64 by closed forms: A is an ellipsoid with
/// `radii` grown by `grow`, at `pose_a`; B a cone (apex up local y) at `at_b`, unturned.
fn push_ellipsoid_cone(
    radii: DVec3,
    grow: f64,
    pose_a: &DPose3,
    (hh, r): (f64, f64),
    at_b: DVec3,
    n: DVec3,
) -> f64 {
    // Ellipsoid: max over the surface of u·x is |R u| with u in its frame.
    let u = pose_a.rotation.inverse() * n;
    let extent_a = (radii * u).length() + grow + n.dot(pose_a.translation);
    // Cone: min of n·x over the apex and the base rim.
    let apex = DVec3::new(0.0, hh, 0.0);
    let across = DVec3::new(n.x, 0.0, n.z).length();
    let rim_low = -hh * n.y - r * across;
    let low_b = n.dot(apex).min(rim_low) + n.dot(at_b);
    extent_a - low_b
}

/// A rounded ellipsoid (radii 8, 2.9, 1e17, grown by 1e17) against a cone 1e17 wide, in
/// f32. GJK stopped on the cores apart by an upper bound 40% over their true gap, and the
/// radii turned that into a depth 5% short of the true one: B moved out by it along the
/// normal still overlapped A (fuzz target `queries`). Truth: moved by the reported depth
/// along the reported normal, B clears A (the f64 push along the normal is at most the
/// depth, up to f32's rounding of the coordinates), and the depth is within 1% of the least
/// push over directions, which is below the push along the normal GJK stopped on.
#[test]
fn a_stalled_depth_at_1e17_in_f32_separates() {
    let radii = Vec3::new(8.0, 2.917_647_1, 1e17);
    let a = Rounded::try_new(Ellipsoid::new(radii), 1e17f32).unwrap();
    let b = Cone::new(1e17f32, 1e17);
    let qa = Quat::from_xyzw(0.470_057_58, 0.470_057_58, 0.047_141_46, 0.745_566_55);
    let ta = Vec3::new(1e17, 8.0, 2.937_422_8);
    let tb = Vec3::new(-0.244_186_31, 0.003_098_039_2, 0.003_098_039_2);
    let pose_a = Pose::try_new(ta, qa).unwrap();
    let c = contact(&a, &pose_a, &b, &Pose::from_translation(tb), 0.0, None).unwrap();
    assert!(c.distance < 0.0 && (c.normal.length() - 1.0).abs() < 1e-5, "{c:?}");
    let pose64 = DPose3::try_new(
        ta.as_dvec3(),
        DQuat::from_xyzw(qa.x as f64, qa.y as f64, qa.z as f64, qa.w as f64).normalize(),
    )
    .unwrap();
    let n = c.normal.as_dvec3().normalize();
    let push =
        |n: DVec3| push_ellipsoid_cone(radii.as_dvec3(), 1e17, &pose64, (1e17, 1e17), tb.as_dvec3(), n);
    let depth = -(c.distance as f64);
    let rounding = 64.0 * f32::EPSILON as f64 * 3e17;
    assert!(push(n) <= depth + rounding, "push along the normal {:e} > depth {depth:e}", push(n));
    // The least push over a fine sweep of directions (an upper bound of the true depth
    // that is tight to the sweep's spacing): the depth reported is not far above it.
    let mut least = f64::INFINITY;
    let steps = 720;
    for i in 0..steps {
        let theta = std::f64::consts::PI * (i as f64 + 0.5) / steps as f64;
        for j in 0..2 * steps {
            let phi = std::f64::consts::PI * j as f64 / steps as f64;
            let u = DVec3::new(theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin());
            least = least.min(push(u));
        }
    }
    assert!(depth <= 1.01 * least, "depth {depth:e} against the least push swept {least:e}");
}

/// A 2D segment 3.3e26 long (beyond the range of f32 squares) crossing a short one, in f32:
/// `contact` returned a zero normal marked converged (the side normal's length overflowed to
/// infinity; fuzz target `queries`). Truth: the segments cross (B runs across A's line at
/// y = 0); in f32 the depth, 10 along y, is far below the rounding of coordinates of 3e26,
/// so the answer must be a unit normal with a depth within that rounding. In f64 the same
/// segments give the exact answer: depth 10 along +y (B moved up by 10 clears A's top end).
#[test]
fn a_segment_3e26_long_gets_a_unit_normal() {
    let a = Segment::new(Vec2::new(-9.17e9, 10.0), Vec2::new(1.8e9, -3.3e26));
    let b = Segment::new(Vec2::new(-1e10, 0.0), Vec2::new(-8e9, 0.0));
    let c = contact(&a, &Pose2::IDENTITY, &b, &Pose2::IDENTITY, 0.0, None).unwrap();
    assert!((c.normal.length() - 1.0).abs() < 1e-5, "{c:?}");
    let rounding = 64.0 * f32::EPSILON * 3.3e26;
    assert!(c.distance <= 0.0 && c.distance >= -10.0 - rounding, "{c:?}");
    use kollide::math::{DPose2, DVec2};
    let a = Segment::new(DVec2::new(-9.17e9, 10.0), DVec2::new(1.8e9, -3.3e26));
    let b = Segment::new(DVec2::new(-1e10, 0.0), DVec2::new(-8e9, 0.0));
    let c = contact(&a, &DPose2::IDENTITY, &b, &DPose2::IDENTITY, 0.0, None).unwrap();
    assert_eq!(c.status, ContactStatus::Converged);
    assert!((c.distance + 10.0).abs() < 1e-6 && (c.normal - DVec2::Y).length() < 1e-12, "{c:?}");
}

/// A 2D manifold whose reference edge is 2e175 long (f64): the clipping's unnormalized edge
/// normal times a position overflowed, `inf - inf` gave NaN, and the manifold had a point
/// at (inf, NaN) with distance -inf (fuzz target `queries`: a heightfield against a
/// polyline with such a vertex). Truth: B's segment is parallel to A's diagonal, 1/√2 from
/// it; at this scale f64 rounds positions by about 1e160, so the points must be finite and
/// their distances within that rounding of 1/√2.
#[test]
fn a_manifold_on_an_edge_2e175_long_is_finite() {
    use kollide::math::{DPose2, DVec2};
    use kollide::query::manifold;
    let a = Segment::new(DVec2::new(-1e175, -1e175), DVec2::new(1e175, 1e175));
    let b = Segment::new(DVec2::new(-1.5, -0.5), DVec2::new(0.5, 1.5));
    let m = manifold(&a, &DPose2::IDENTITY, &b, &DPose2::IDENTITY, 1.0);
    assert!(!m.points().is_empty(), "{m:?}");
    for p in m.points() {
        assert!(p.point_a.is_finite() && p.point_b.is_finite(), "{m:?}");
        assert!((p.distance - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e161, "{m:?}");
    }
}

/// A fuzz finding (target `queries`, f32): a rounded ellipsoid whose core is a plate
/// 8 x 0.25 x 1e17 (rounding 1e17) against an ellipsoid of radius 1e17 whose surface passes
/// through the plate's edge. GJK stopped on the cores with a gap of about 1e10, f32's
/// rounding at 1e17, and the contact took that gap's direction, which is noise: depth 1e17
/// along (-0.94, 0.35, 0), and moved out by it B still overlapped. A gap within the rounding
/// of the support points now counts as touching, and EPA's normal, checked by the push along
/// it, is used. Judged in f64 by separation along the reported normal: after the move the
/// two shapes' extents along it (from their f64 support functions) do not overlap beyond
/// f32's rounding at this size.
#[test]
fn a_ball_touching_a_huge_plates_edge_is_pushed_out_in_f32() {
    use kollide::math::Quat;
    use kollide::shape::Support;
    let plate = Ellipsoid::new(Vec3::new(8.0, 0.24805447, 1e17));
    let a = Rounded::try_new(plate, 1e17_f32).unwrap();
    let b = Ellipsoid::new(Vec3::splat(1e17));
    let q = Quat::from_xyzw(-0.5298525, 0.16805854, 0.16805854, 0.8141062).normalize();
    let pose_a = Pose::new(Vec3::new(1e17, 0.0, 8.0), Quat::IDENTITY);
    let pose_b = Pose::new(Vec3::splat(1e17), q);
    let c = contact(&a, &pose_a, &b, &pose_b, 0.30980393, None).unwrap();
    assert!(c.distance < 0.0, "{c:?}");
    // In f64: A's farthest point along n, B's nearest one after moving B out by the depth.
    let n = c.normal.as_dvec3().normalize();
    let a64 = Rounded::try_new(Ellipsoid::new(DVec3::new(8.0, 0.24805447, 1e17)), 1e17).unwrap();
    let b64 = Ellipsoid::new(DVec3::splat(1e17));
    let pa64 = DPose3::new(pose_a.translation.as_dvec3(), DQuat::IDENTITY);
    let moved = pose_b.translation.as_dvec3() - n * f64::from(c.distance);
    let pb64 = DPose3::new(moved, q.as_dquat());
    let reach = |s: &dyn Support<DVec3>, pose: &DPose3, d: DVec3| {
        pose.transform_point(s.support(pose.inverse_transform_vector(d))).dot(d) + s.radius()
    };
    let overlap = reach(&a64, &pa64, n) + reach(&b64, &pb64, -n);
    assert!(overlap <= 1e-5 * 3e17, "still overlapping by {overlap:e} along {n}: {c:?}");
}

/// Fuzz (`queries`, f32): a box 4 x 5.6 x 2e17 (a needle) and a hull with corners at 1e17,
/// 1.1e16 apart, were reported penetrating by 1.8e15 with a `converged` contact (and
/// `intersects` said apart). The separating-axis test skipped every edge pair as parallel:
/// the product of the edges' squared lengths (4e34 x 1e34) overflowed f32. Judged against the
/// brute-force f64 distance between the two point sets, placed by the f32 poses' own numbers.
#[test]
fn a_needle_box_1e16_from_a_huge_hull_is_apart_in_f32() {
    use crate::common::oracle::polytope_distance_3d;
    use crate::solid3d::{corners, world};
    use kollide::query::{distance, intersects};
    use kollide::shape::{ConvexHull, Cuboid};
    let q = |x: f32, y: f32, z: f32, w: f32| Quat::from_xyzw(x, y, z, w).normalize();
    let body_a =
        Pose::new(Vec3::new(1e17, 2.792157, 1e17), q(0.020753339, 0.0016264492, -0.01977677, 0.9995877));
    let pose_a = body_a.compose(&Pose::from_translation(Vec3::new(1e-12, -1.7157245, -2.25)));
    let body_b = Pose::new(Vec3::ZERO, q(0.5249831, 0.5249831, 0.5249831, -0.41614684));
    let pose_b = body_b.compose(&Pose::from_translation(Vec3::new(-3.1657588, -30.75, 0.0)));
    let he = Vec3::new(2.0, 2.792157, 1e17);
    let points = [
        Vec3::new(1e17, 1e17, 6.311986),
        Vec3::new(0.08615625, 1e17, 1e17),
        Vec3::new(1e17, 1e17, 1e17),
        Vec3::new(-1e17, 0.1732433, 1e17),
        Vec3::new(-0.19360265, 8.0, 8.0),
    ];
    let (needle, hull) = (Cuboid::new(he), ConvexHull::from_points(&points));
    let truth = polytope_distance_3d(&world(&pose_a, &corners(he)), &world(&pose_b, &points));
    assert!(truth > 1e16, "the oracle's gap: {truth:e}");
    assert_eq!(contact(&needle, &pose_a, &hull, &pose_b, 0.0, None), None, "apart by {truth:e}: no contact");
    assert!(!intersects(&needle, &pose_a, &hull, &pose_b));
    let d = distance(&needle, &pose_a, &hull, &pose_b);
    // f32 at 1e17: its rounding is 1e10; the bounds must hold the truth.
    let slack = 1e-6 * 1e17;
    assert!(
        f64::from(d.lower_bound) <= truth + slack && truth - slack <= f64::from(d.upper_bound),
        "{d:?} vs {truth:e}"
    );
    // With a margin past the gap there is a contact, apart: at the distance when converged;
    // stalled (GJK on a needle whose width is below f32's rounding at 1e17), an upper bound.
    let c = contact(&needle, &pose_a, &hull, &pose_b, 2e16, None).expect("within the margin");
    let cd = f64::from(c.distance);
    match c.status {
        ContactStatus::Converged => assert!((cd - truth).abs() <= 1e-3 * truth, "{c:?} vs {truth:e}"),
        _ => assert!(truth - slack <= cd && cd <= f64::from(d.upper_bound) + slack, "{c:?} vs {truth:e}"),
    }
}

/// A mesh of slivers 1e17 long touching a long thin triangle at one point, in f32: the
/// composite contact was 1.1e17 deep along the slivers' length (fuzz target `queries`).
///
/// GJK stopped at once, its one point 1e-12 from the origin where the shapes touch, and EPA
/// ran on the support points scaled up by that point's size (2^39): the shapes' points
/// became 1e28 and their cross products overflowed, so EPA's faces were garbage and its
/// "nearest" face was along the slivers. EPA now runs again at the shapes' scale when it
/// meets support points far beyond GJK's. Judged by f64: each part's contact in f64 (the
/// same numbers) is within 1e-12 of touching; the f32 answer must be within f32's rounding
/// at 1e17 of that.
#[test]
fn touching_slivers_1e17_long_are_not_reported_deep_in_f32() {
    use kollide::composite::{self, Composite, TriMesh};
    use kollide::math::Pose3;
    use kollide::shape::Triangle;
    let v = [
        DVec3::new(1e17, 1e17, -1e17),
        DVec3::ZERO,
        DVec3::new(1e17, 1e-12, 1e-12),
        DVec3::new(1e-12, 0.0, 1e-12),
        DVec3::new(1e-12, 1e-12, 1e-12),
    ];
    let indices = vec![[3, 2, 1], [4, 1, 0], [3, 4, 4]];
    let q = [0.5249831, 0.5249831, 0.5249831, -0.41614684];
    let tri = |s: DVec3| Triangle { a: s, b: DVec3::ZERO, c: DVec3::ZERO };
    let far = DVec3::new(-0.04117647, -0.04117647, -1e17);
    // f64: the deepest part's contact.
    let mesh64 = TriMesh::new(v.to_vec(), indices.clone());
    let pose64 = DPose3::try_new(DVec3::ZERO, DQuat::from_xyzw(q[0], q[1], q[2], q[3])).unwrap();
    let truth = (0..mesh64.part_count() as u32)
        .filter_map(|i| contact(&mesh64.part(i), &DPose3::IDENTITY, &tri(far), &pose64, 0.0, None))
        .map(|c| c.distance)
        .fold(f64::INFINITY, f64::min);
    assert!(truth.abs() <= 1e-11, "f64 truth {truth}");
    let mesh = TriMesh::new(v.iter().map(|p| p.as_vec3()).collect(), indices);
    let pose =
        Pose3::try_new(glam::Vec3::ZERO, Quat::from_xyzw(q[0] as f32, q[1] as f32, q[2] as f32, q[3] as f32))
            .unwrap();
    let tri32 = Triangle { a: far.as_vec3(), b: glam::Vec3::ZERO, c: glam::Vec3::ZERO };
    let c = composite::contact(&mesh, &Pose3::IDENTITY, &tri32, &pose, 0.0).expect("they touch");
    // f32's rounding at 1e17 is about 1e10; allow a hundred of it.
    let rounding = 100.0 * f64::from(f32::EPSILON) * 1e17;
    assert!(
        (f64::from(c.value.distance) - truth).abs() <= rounding,
        "f32 contact {:?} (part {}), f64 truth {truth}",
        c.value,
        c.part_a.unwrap()
    );
}

/// A turning cast between a mesh near the origin and a heightfield whose heights reach
/// 1e156 said `started_within` while the two were 1.3e150 apart (found by the fuzz target
/// `casts`, f64).
///
/// Past about 1e154 squares of coordinates overflow f64, and the library's answer there is
/// an explicit status. The distance query said so (`non_finite_support`), but the cast's
/// tolerance came from the bodies' reach, whose square root of a sum of squares was
/// infinite, so the infinite distance passed as "within the tolerance of the target"; the
/// contact then taken at time 0 carried its placeholder distance 0 and its status was not
/// read. The judge, independent of the cast: every point of the mesh, taken into the
/// heightfield's frame, lies about 1e149 beyond the heightfield's x extent (0.18), so the
/// shapes are far apart at time 0. What may be said of them: a `failed` cast (nothing
/// proven) or a miss, never a start within.
#[test]
fn a_turning_cast_past_the_float_range_does_not_start_within() {
    use kollide::composite::{self, HeightField, TriMesh};
    use kollide::query::cast::{shape_cast, CastInput, CastStatus, Motion};
    use kollide::shape::{Ball, Triangle};

    let vertices = vec![
        DVec3::new(0.25, -7.992431525139239, 0.0),
        DVec3::new(7.937987335011826, -8.0, 0.0),
        DVec3::new(2.0, 7.937987335011826, -8.0),
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(0.0, -2.4836194399938964, -4.75),
        DVec3::new(0.0, -0.1098039215686275, -0.1098039215686275),
    ];
    let mesh = TriMesh::new(vertices.clone(), vec![[3, 3, 2], [4, 3, 5], [0, 0, 0], [1, 1, 1]]);
    let heights = [
        [-0.1098039215686275, -3.4980392156862745, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0],
        [0.0, 4.609292744335088e-19, 997924.7730220493, 6.062470435645075],
        [0.9998931868467231, -14.125, -0.125, -0.7225452048523691],
    ];
    let (width, scale) = (0.35206378271152816, 1e150);
    let field =
        HeightField::new(heights.iter().map(|r| r.to_vec()).collect(), DVec3::new(width, scale, scale));
    let pose_a = Pose::new(
        DVec3::new(0.0, -0.1098039215686275, -0.1098039215686275),
        DQuat::from_xyzw(
            0.0015052676599083693,
            0.0015052676599083693,
            0.054833077018774386,
            0.998493265877741,
        ),
    );
    let pose_b = Pose::new(
        DVec3::splat(1e150),
        DQuat::from_xyzw(0.02592802559288394, 0.02592802559288394, 0.16936338964081232, 0.9848713201363333),
    );
    // The judge: the heightfield spans |x| <= width / 2 in its frame.
    for v in &vertices {
        let x = pose_b.inverse_transform_point(pose_a.transform_point(*v)).x;
        assert!(x.abs() > 1e148, "vertex {v:?} is at x = {x:e} in the heightfield's frame");
    }
    let spin = DVec3::splat(-3.0);
    let input = CastInput {
        motion_a: Motion { velocity: DVec3::new(1e150, 0.0, 0.0), angular_velocity: spin },
        motion_b: Motion { velocity: DVec3::ZERO, angular_velocity: spin },
        max_toi: 0.18039215686274512,
        target_distance: 0.5,
    };
    let out = composite::pair_shape_cast(&mesh, &pose_a, &field, &pose_b, &input)
        .expect("parts overlap in time")
        .value;
    assert!(matches!(out.status, CastStatus::Failed | CastStatus::Miss), "{out:?}");
    assert!(out.safe_toi >= 0.0 && out.safe_toi <= input.max_toi, "{out:?}");

    // The same with two convex shapes: a ball at the origin and a triangle 1e156 across
    // whose nearest corner is 1e150 away, turning.
    let huge = Triangle::new(DVec3::ZERO, DVec3::new(0.0, 1e156, 0.0), DVec3::new(0.0, 0.0, 1e156));
    let at = DPose3::from_translation(DVec3::new(1e150, 0.0, 0.0));
    let out = shape_cast(&Ball::new(1.0), &DPose3::IDENTITY, &huge, &at, &input, None);
    assert!(matches!(out.status, CastStatus::Failed | CastStatus::Miss), "{out:?}");
}

/// Fuzz target `casts`, f32: a ray hit a compound's triangle 7e13 long and 3e9 wide with a
/// **zero normal** (at the right time, 0.131). The triangle's normal is a cross product of
/// two edges, about 2.3e23 long: its square overflowed f32, and it was divided by the
/// infinite root. It is now measured through `length_safe`. Judged by the plane of the
/// corners in f64: the time of the crossing and the normal facing the ray, for the
/// triangle placed as the compound placed it and in its own frame.
#[test]
fn a_ray_gets_the_unit_normal_of_a_triangle_whose_normal_squared_overflows() {
    use kollide::query::cast::{ray_cast, Ray, RayOutcome};
    use kollide::shape::Triangle;
    let (a, b, c) = (
        Vec3::new(-1.5745785, -1.9514763, 3333333200.0),
        Vec3::new(3333333200.0, 68834975000000.0, 0.0),
        Vec3::ZERO,
    );
    let triangle = Triangle::new(a, b, c);
    // The finding: the compound's pose, then the triangle's within it.
    let compound = Pose3::new(
        Vec3::new(-3.0431373, -4.983108, 0.0),
        Quat::from_xyzw(0.4706071, 0.4706071, 0.18014985, 0.7242955),
    );
    let part = Pose3::new(
        Vec3::new(8.0, 7.3124895, 7.0598),
        Quat::from_xyzw(-0.5351408, 0.5951935, -0.59539336, -0.06982736),
    );
    let placed = compound.compose(&part);
    let ray = Ray::try_new(
        Vec3::new(-3.0431373, -3.0431373, -3.0431373),
        Vec3::new(-6.3058825, -1.5764706, 41.789883),
    )
    .unwrap();
    // The ray in the triangle's frame, in f64, and where it crosses the triangle's plane.
    let to64 = |p: &Pose3| {
        DPose3::new(p.translation.as_dvec3(), DQuat::from_array(p.rotation.to_array().map(f64::from)))
    };
    let frame = to64(&placed);
    let o = frame.inverse_transform_point(ray.origin().as_dvec3());
    let d = frame.rotation.inverse() * ray.direction().as_dvec3();
    let (a64, b64, c64) = (a.as_dvec3(), b.as_dvec3(), c.as_dvec3());
    let n = (b64 - a64).cross(c64 - a64).normalize();
    let toi = (a64 - o).dot(n) / d.dot(n);
    let facing = if d.dot(n) < 0.0 { n } else { -n };
    let check = |hit: RayOutcome<Vec3>, turn: DQuat, what: &str| {
        let RayOutcome::Hit(h) = hit else { panic!("{what}: {hit:?}, the plane is crossed at {toi}") };
        let normal = turn.inverse() * h.normal.as_dvec3();
        assert!((f64::from(h.toi) - toi).abs() <= 1e-5 * toi, "{what}: time {}, truth {toi}", h.toi);
        assert!(
            (normal - facing).length() <= 1e-5,
            "{what}: normal {normal} (triangle's frame), truth {facing}"
        );
    };
    check(ray_cast(&triangle, &placed, &ray, 2.0), frame.rotation, "the finding");
    let local = Ray::try_new(o.as_vec3(), d.as_vec3()).unwrap();
    check(ray_cast(&triangle, &Pose3::IDENTITY, &local, 2.0), DQuat::IDENTITY, "in its own frame");
}

/// Found while fixing the finding above (f32): the closed forms of the ray against a segment
/// and a triangle take products of three coordinates (`(w × e) · n`, `pa · n`), which
/// overflow for shapes 1e17 across, inside the range f32 queries are promised for. A ray
/// crossing a segment 1e17 long 5e16 from its end, and one crossing a triangle 1e17 across,
/// **missed** them. Both are now solved again at a power-of-two scale (exact) when a product
/// overflows. Truth by hand: both rays cross at time 1, facing back along the ray.
#[test]
fn rays_cross_a_segment_and_a_triangle_1e17_across_in_f32() {
    use kollide::query::cast::{ray_cast, Ray, RayOutcome};
    use kollide::shape::Triangle;
    let segment = Segment::new(Vec3::new(-5e16, 0.0, 0.0), Vec3::new(5e16, 0.0, 0.0));
    let triangle =
        Triangle::new(Vec3::new(-5e16, -5e16, 0.0), Vec3::new(5e16, -5e16, 0.0), Vec3::new(0.0, 5e16, 0.0));
    let on_segment = Ray::try_new(Vec3::new(1000.0, -1e6, 0.0), Vec3::new(0.0, 1e6, 0.0)).unwrap();
    let on_triangle = Ray::try_new(Vec3::new(1000.0, 2000.0, -1e6), Vec3::new(0.0, 0.0, 1e6)).unwrap();
    let cases = [
        (ray_cast(&segment, &Pose3::IDENTITY, &on_segment, 2.0), on_segment, Vec3::NEG_Y),
        (ray_cast(&triangle, &Pose3::IDENTITY, &on_triangle, 2.0), on_triangle, Vec3::NEG_Z),
    ];
    for (cast, ray, normal) in cases {
        let RayOutcome::Hit(hit) = cast else { panic!("{ray:?}: {cast:?}") };
        assert!((hit.toi - 1.0).abs() <= 1e-6, "{ray:?}: {hit:?}");
        assert!((hit.normal - normal).length() <= 1e-6, "{ray:?}: {hit:?}");
    }
}
