//! The swept sphere and ellipsoid (circle and ellipse in 2D) against the triangles of a
//! mesh or terrain (the segments of a polyline), through the composite's walk.

use super::Composite;
use crate::math::{Aabb, Pose, Real};
use crate::query::cast::{
    check_ball, check_ellipsoid, drive_ball, drive_scaled, BackFaces, Candidates, SoupItem, SweepError,
    SweepOutcome, SweptShape,
};
use crate::query::Space;

/// A composite whose parts are a sweep's soup items: triangles (a mesh, a heightfield) or
/// segments (a polyline, a 2D heightfield). What [`sweep`] needs.
pub trait SoupParts<V: Space>: Composite<V> {
    /// The item type: `[V; 3]` (triangles) or `[V; 2]` (segments).
    type Item: SoupItem<V>;
    /// Part `i`'s corners, in the composite's local frame.
    fn soup_item(&self, i: u32) -> Self::Item;
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

/// [`sweep`](crate::query::cast::sweep) through the parts of a composite placed by
/// `pose_c`: the triangles of a mesh or terrain, the segments of a polyline or 2D terrain.
/// `shape` and `displacement` are in the world frame, and so is the answer; its `index`
/// names the part. Only the parts the swept box reaches are tested, near to far.
///
/// # Errors
/// [`SweepError`] naming a bad centre, radius, pose, semi-axis or displacement (the
/// composite was checked when built).
///
/// ```
/// use kollide::composite::{self, TriMesh};
/// use kollide::query::cast::{BackFaces, SweepFeature, SweepOutcome, SweptShape};
/// use kollide::math::{DPose3, DVec3};
/// let floor = TriMesh::new(
///     vec![DVec3::new(-4.0, 0.0, -4.0), DVec3::new(4.0, 0.0, -4.0), DVec3::new(4.0, 0.0, 4.0), DVec3::new(-4.0, 0.0, 4.0)],
///     vec![[0, 2, 1], [0, 3, 2]],
/// );
/// let ball = SweptShape::ball(DVec3::new(1.0, 2.0, 0.5), 0.5);
/// let out = composite::sweep(&floor, &DPose3::IDENTITY, ball, DVec3::new(0.0, -3.0, 0.0), BackFaces::Hit).unwrap();
/// let SweepOutcome::Hit(hit) = out else { panic!("{out:?}") };
/// assert!((hit.toi - 0.5).abs() < 1e-12);
/// assert_eq!(hit.feature, SweepFeature::Face);
/// ```
pub fn sweep<V: Space, C: SoupParts<V> + ?Sized>(
    c: &C,
    pose_c: &Pose<V>,
    shape: SweptShape<'_, V>,
    displacement: V,
    back_faces: BackFaces,
) -> Result<SweepOutcome<V>, SweepError> {
    let walk = Walk { composite: c, item: |c: &C, i| c.soup_item(i) };
    let local = match shape {
        SweptShape::Ball { center, radius } => {
            check_ball(center, radius, displacement)?;
            drive_ball(
                pose_c.inverse_transform_point(center),
                radius,
                pose_c.inverse_transform_vector(displacement),
                back_faces,
                walk,
                &mut (),
            )
        }
        SweptShape::Ellipsoid { ellipsoid, pose } => {
            check_ellipsoid(ellipsoid.radii, pose, displacement)?;
            drive_scaled(
                ellipsoid.radii,
                &pose_c.inv_compose(pose),
                pose_c.inverse_transform_vector(displacement),
                back_faces,
                walk,
                &mut (),
            )?
        }
    };
    Ok(outcome_to_world(pose_c, local))
}
