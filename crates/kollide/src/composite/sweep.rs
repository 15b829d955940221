//! The swept sphere and ellipsoid (circle and ellipse in 2D) against the triangles of a
//! mesh or terrain (the segments of a polyline), through the composite's walk.

use super::Composite;
use crate::math::{Aabb, Pose, Real, Vector2, Vector3};
use crate::query::cast::{
    check_ball, check_ellipsoid, drive_ball, drive_scaled, BackFaces, Candidates, SweepError, SweepOutcome,
};
use crate::query::Space;
use crate::shape::Ellipsoid;

/// A composite whose parts are triangles (a mesh, a heightfield): what the swept sphere
/// and ellipsoid need.
pub trait TriangleParts<V: Vector3 + Space>: Composite<V> {
    /// Triangle `i`'s corners, in the composite's local frame.
    fn triangle_corners(&self, i: u32) -> [V; 3];
}

/// A composite whose parts are segments (a polyline, a 2D heightfield): what the swept
/// circle and ellipse need.
pub trait SegmentParts<V: Vector2 + Space>: Composite<V> {
    /// Segment `i`'s ends, in the composite's local frame.
    fn segment_ends(&self, i: u32) -> [V; 2];
}

/// The walk of a composite as a sweep's candidates: items near to far along the swept box.
struct Walk<'a, C: ?Sized, F> {
    composite: &'a C,
    item: F,
}

impl<V: Space, T, C: Composite<V> + ?Sized, F: Fn(&C, u32) -> T> Candidates<V, T> for Walk<'_, C, F> {
    fn visit(self, center: V, disp: V, reach: V, mut offer: impl FnMut(usize, T) -> Option<V::Real>) {
        let start = Aabb::new(center - reach, center + reach);
        let c = self.composite;
        c.cast_aabb(&start, disp, V::Real::ONE, |i, _| offer(i as usize, (self.item)(c, i)));
    }
}

/// Maps a sweep's answer in the composite's frame to the world.
fn outcome_to_world<V: Space>(pose: &Pose<V>, o: SweepOutcome<V>) -> SweepOutcome<V> {
    match o {
        SweepOutcome::Hit(mut h) => {
            h.point = pose.transform_point(h.point);
            h.normal = pose.transform_vector(h.normal);
            SweepOutcome::Hit(h)
        }
        SweepOutcome::StartedWithin { index, distance, normal } => {
            SweepOutcome::StartedWithin { index, distance, normal: pose.transform_vector(normal) }
        }
        SweepOutcome::Miss => SweepOutcome::Miss,
    }
}

/// [`sweep_sphere`](crate::query::cast::sweep_sphere) against the triangles of a mesh or
/// terrain placed by `pose_c`: the sphere of `radius` at `center` moved by `displacement`
/// (world frame), the answer's `index` naming the triangle. Only the triangles the
/// sphere's swept box reaches are tested, near to far.
///
/// # Errors
/// [`SweepError`] naming a bad centre, radius or displacement (the composite was checked
/// when built).
///
/// ```
/// use kollide::composite::{composite_sweep_sphere, TriMesh};
/// use kollide::query::cast::{BackFaces, SweepFeature, SweepOutcome};
/// use kollide::math::{DPose3, DVec3};
/// let floor = TriMesh::new(
///     vec![DVec3::new(-4.0, 0.0, -4.0), DVec3::new(4.0, 0.0, -4.0), DVec3::new(4.0, 0.0, 4.0), DVec3::new(-4.0, 0.0, 4.0)],
///     vec![[0, 2, 1], [0, 3, 2]],
/// );
/// let out = composite_sweep_sphere(&floor, &DPose3::IDENTITY, DVec3::new(1.0, 2.0, 0.5), 0.5,
///     DVec3::new(0.0, -3.0, 0.0), BackFaces::Hit).unwrap();
/// let SweepOutcome::Hit(hit) = out else { panic!("{out:?}") };
/// assert!((hit.toi - 0.5).abs() < 1e-12);
/// assert_eq!(hit.feature, SweepFeature::Face);
/// ```
pub fn composite_sweep_sphere<V: Vector3 + Space, C: TriangleParts<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    center: V,
    radius: V::Real,
    displacement: V,
    back_faces: BackFaces,
) -> Result<SweepOutcome<V>, SweepError> {
    check_ball(center, radius, displacement)?;
    let walk = Walk { composite: c, item: |c: &C, i| c.triangle_corners(i) };
    let local = drive_ball(
        pose_c.inverse_transform_point(center),
        radius,
        pose_c.inverse_transform_vector(displacement),
        back_faces,
        walk,
        &mut (),
    );
    Ok(outcome_to_world(pose_c, local))
}

/// [`sweep_ellipsoid`](crate::query::cast::sweep_ellipsoid) against the triangles of a
/// mesh or terrain placed by `pose_c` (world frame), the answer's `index` naming the
/// triangle.
///
/// # Errors
/// [`SweepError`] naming a bad pose, semi-axis or displacement.
pub fn composite_sweep_ellipsoid<V: Vector3 + Space, C: TriangleParts<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    ellipsoid: &Ellipsoid<V>,
    pose: &Pose<V>,
    displacement: V,
    back_faces: BackFaces,
) -> Result<SweepOutcome<V>, SweepError> {
    check_ellipsoid(ellipsoid.radii, pose, displacement)?;
    let walk = Walk { composite: c, item: |c: &C, i| c.triangle_corners(i) };
    let local = drive_scaled(
        ellipsoid.radii,
        &pose_c.inv_compose(pose),
        pose_c.inverse_transform_vector(displacement),
        back_faces,
        walk,
        &mut (),
    )?;
    Ok(outcome_to_world(pose_c, local))
}

/// [`sweep_circle`](crate::query::cast::sweep_circle) against the segments of a polyline
/// or 2D heightfield placed by `pose_c` (world frame), the answer's `index` naming the
/// segment.
///
/// # Errors
/// [`SweepError`] naming a bad centre, radius or displacement.
pub fn composite_sweep_circle<V: Vector2 + Space, C: SegmentParts<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    center: V,
    radius: V::Real,
    displacement: V,
    back_faces: BackFaces,
) -> Result<SweepOutcome<V>, SweepError> {
    check_ball(center, radius, displacement)?;
    let walk = Walk { composite: c, item: |c: &C, i| c.segment_ends(i) };
    let local = drive_ball(
        pose_c.inverse_transform_point(center),
        radius,
        pose_c.inverse_transform_vector(displacement),
        back_faces,
        walk,
        &mut (),
    );
    Ok(outcome_to_world(pose_c, local))
}

/// [`sweep_ellipse`](crate::query::cast::sweep_ellipse) against the segments of a
/// polyline or 2D heightfield placed by `pose_c` (world frame).
///
/// # Errors
/// [`SweepError`] naming a bad pose, semi-axis or displacement.
pub fn composite_sweep_ellipse<V: Vector2 + Space, C: SegmentParts<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    ellipse: &Ellipsoid<V>,
    pose: &Pose<V>,
    displacement: V,
    back_faces: BackFaces,
) -> Result<SweepOutcome<V>, SweepError> {
    check_ellipsoid(ellipse.radii, pose, displacement)?;
    let walk = Walk { composite: c, item: |c: &C, i| c.segment_ends(i) };
    let local = drive_scaled(
        ellipse.radii,
        &pose_c.inv_compose(pose),
        pose_c.inverse_transform_vector(displacement),
        back_faces,
        walk,
        &mut (),
    )?;
    Ok(outcome_to_world(pose_c, local))
}
