//! Shapes at their poses as picture primitives, in 2D (the world plane) and 3D (a fixed
//! oblique projection: looking down 25 degrees, turned 30 degrees about the vertical).
//!
//! A convex shape is drawn by its outline, found with its own support function: the point
//! farthest along each of 128 directions of the picture plane (in 3D, that is the exact
//! silhouette of the projection). Polytopes add their edges, round shapes a circle or two,
//! so a reader sees the solid. Composites draw their parts: segments, triangles (sorted back
//! to front and shaded), or each convex part.

use super::svg::{Class, Prim};
use crate::space::Space;
use kollide::math::{DPose2, DPose3, DVec2, DVec3, Pose};
use kollide::shape::{Convex2, Convex3, Support};
use kollide::world::{Shape2, Shape3};

/// Directions sampled for an outline.
const OUTLINE_DIRECTIONS: usize = 128;
/// Triangles of a mesh or terrain drawn one by one; beyond, the picture draws the first ones
/// and says so in its title.
pub const MAX_MESH_TRIANGLES: usize = 20_000;

/// Which body a shape is, and whether it is drawn at a later time (dashed, unfilled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    pub body_b: bool,
    pub later: bool,
}

impl Look {
    fn outline(self) -> Class {
        match (self.body_b, self.later) {
            (false, false) => "body-a",
            (true, false) => "body-b",
            (false, true) => "body-a-later",
            (true, true) => "body-b-later",
        }
    }

    fn edge(self) -> Class {
        if self.body_b {
            "edge-b"
        } else {
            "edge-a"
        }
    }
}

/// The picture plane of a dimension: 2D draws the world plane, 3D its oblique projection.
pub trait Plane: Space<Real = f64> {
    /// A world point in the picture plane.
    fn plane(p: Self) -> DVec2;
    /// The world direction drawn as the plane direction `u` (unit for unit `u`).
    fn world_dir(u: DVec2) -> Self;
    /// The components of a point.
    fn coords(p: Self) -> Vec<f64>;
    /// A point from its components (`None` for the wrong count).
    fn from_coords(c: &[f64]) -> Option<Self>;
    /// The primitives of a shape at a pose.
    fn draw_shape(shape: &Self::Shape, pose: &Pose<Self>, look: Look, out: &mut Vec<Prim>);
    /// The segments (2D) or triangles (3D) of a soup, drawn as a mesh.
    fn soup(items: &[Vec<Self>], hit: Option<usize>, out: &mut Vec<Prim>);
}

/// The oblique view: screen right, screen up (their cross product points at the viewer).
fn view() -> (DVec3, DVec3, DVec3) {
    let (az, el) = (30f64.to_radians(), 25f64.to_radians());
    let toward = DVec3::new(el.cos() * az.sin(), el.sin(), el.cos() * az.cos());
    let right = DVec3::new(az.cos(), 0.0, -az.sin());
    (right, toward.cross(right), toward)
}

/// The outline of a convex shape at a pose: its farthest point along each plane direction.
pub fn outline<V: Plane, S: Support<V> + ?Sized>(s: &S, pose: &Pose<V>) -> Vec<DVec2> {
    let mut out: Vec<DVec2> = Vec::with_capacity(OUTLINE_DIRECTIONS);
    for k in 0..OUTLINE_DIRECTIONS {
        let angle = core::f64::consts::TAU * k as f64 / OUTLINE_DIRECTIONS as f64;
        let d = V::world_dir(DVec2::new(angle.cos(), angle.sin()));
        let p = pose.transform_point(s.support(pose.inverse_transform_vector(d))) + d * s.radius();
        let q = V::plane(p);
        if out.last().is_none_or(|last| (*last - q).length() > 1e-12 * (1.0 + q.length())) {
            out.push(q);
        }
    }
    out
}

fn path(points: Vec<DVec2>, closed: bool, class: Class) -> Prim {
    Prim::Path { points, closed, class }
}

impl Plane for DVec2 {
    fn plane(p: Self) -> DVec2 {
        p
    }
    fn world_dir(u: DVec2) -> Self {
        u
    }
    fn coords(p: Self) -> Vec<f64> {
        vec![p.x, p.y]
    }
    fn from_coords(c: &[f64]) -> Option<Self> {
        (c.len() == 2).then(|| DVec2::new(c[0], c[1]))
    }
    fn draw_shape(shape: &Shape2<DVec2>, pose: &DPose2, look: Look, out: &mut Vec<Prim>) {
        match shape {
            Shape2::Convex(c) => convex2(c, pose, look, out),
            Shape2::Polyline(p) => {
                let pts = p.vertices().iter().map(|v| pose.transform_point(*v)).collect();
                out.push(path(pts, p.is_closed(), look.edge()));
            }
            Shape2::HeightField(h) => {
                let pts = (0..h.heights().len()).map(|i| pose.transform_point(h.point(i))).collect();
                out.push(path(pts, false, look.edge()));
            }
            Shape2::Compound(c) => {
                for (part_pose, part) in c.parts() {
                    convex2(part, &pose.compose(part_pose), look, out);
                }
            }
            Shape2::ConcavePolygon(c) => {
                let pts = c.vertices().iter().map(|v| pose.transform_point(*v)).collect();
                out.push(path(pts, true, look.outline()));
                for i in 0..c.pieces().len() {
                    for [p, q] in c.piece_diagonals(i) {
                        let at = |k: &u32| pose.transform_point(c.vertices()[*k as usize]);
                        out.push(path(vec![at(p), at(q)], false, look.edge()));
                    }
                }
            }
        }
    }
    fn soup(items: &[Vec<Self>], hit: Option<usize>, out: &mut Vec<Prim>) {
        for (i, s) in items.iter().enumerate() {
            let class = if Some(i) == hit { "mesh-hit" } else { "mesh" };
            out.push(path(s.clone(), false, class));
        }
    }
}

fn convex2(c: &Convex2<DVec2>, pose: &DPose2, look: Look, out: &mut Vec<Prim>) {
    out.push(path(outline(c, pose), true, look.outline()));
    // A rounded shape shows its core too: the picture of "core plus radius".
    if let Convex2::Rounded(r) = c {
        out.push(path(outline(r.inner(), pose), true, look.edge()));
    }
}

impl Plane for DVec3 {
    fn plane(p: Self) -> DVec2 {
        let (right, up, _) = view();
        DVec2::new(p.dot(right), p.dot(up))
    }
    fn world_dir(u: DVec2) -> Self {
        let (right, up, _) = view();
        right * u.x + up * u.y
    }
    fn coords(p: Self) -> Vec<f64> {
        vec![p.x, p.y, p.z]
    }
    fn from_coords(c: &[f64]) -> Option<Self> {
        (c.len() == 3).then(|| DVec3::new(c[0], c[1], c[2]))
    }
    fn draw_shape(shape: &Shape3<DVec3>, pose: &DPose3, look: Look, out: &mut Vec<Prim>) {
        match shape {
            Shape3::Convex(c) => convex3(c, pose, look, out),
            Shape3::TriMesh(m) => {
                let tris =
                    (0..m.triangle_count() as u32).map(|i| m.corners(i).map(|p| pose.transform_point(p)));
                mesh(tris, None, out);
            }
            Shape3::HeightField(h) => {
                let tris = (0..h.triangle_count() as u32).map(|i| h.triangle(i)).map(|t| [t.a, t.b, t.c]);
                mesh(tris.map(|t| t.map(|p| pose.transform_point(p))), None, out);
            }
            Shape3::Compound(c) => {
                for (part_pose, part) in c.parts() {
                    convex3(part, &pose.compose(part_pose), look, out);
                }
            }
        }
    }
    fn soup(items: &[Vec<Self>], hit: Option<usize>, out: &mut Vec<Prim>) {
        let tris = items.iter().filter(|t| t.len() == 3).map(|t| [t[0], t[1], t[2]]);
        mesh(tris, hit, out);
    }
}

/// Triangles sorted back to front (a painter's algorithm: correct for the terrains and
/// meshes of a query, which do not interpenetrate), at most [`MAX_MESH_TRIANGLES`].
fn mesh(tris: impl Iterator<Item = [DVec3; 3]>, hit: Option<usize>, out: &mut Vec<Prim>) {
    let mut all: Vec<(f64, usize, [DVec3; 3])> = tris
        .take(MAX_MESH_TRIANGLES)
        .enumerate()
        .map(|(i, t)| ((t[0] + t[1] + t[2]).dot(view().2), i, t))
        .collect();
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    for (_, i, t) in all {
        let class = if Some(i) == hit { "mesh-hit" } else { "mesh" };
        out.push(path(t.iter().map(|p| DVec3::plane(*p)).collect(), true, class));
    }
}

fn convex3(c: &Convex3<DVec3>, pose: &DPose3, look: Look, out: &mut Vec<Prim>) {
    out.push(path(outline(c, pose), true, look.outline()));
    let mut lines: Vec<Vec<DVec3>> = Vec::new();
    edges3(c, &mut lines);
    for line in lines {
        let pts = line.iter().map(|p| DVec3::plane(pose.transform_point(*p))).collect();
        out.push(path(pts, false, look.edge()));
    }
}

/// Lines that show a convex shape's form, in its local frame: a polytope's edges, the rims
/// of a cylinder and a cone, the equator of a ball or ellipsoid, a capsule's core segment,
/// a rounded shape's core.
fn edges3(c: &Convex3<DVec3>, lines: &mut Vec<Vec<DVec3>>) {
    let circle = |r: DVec3, y: f64| -> Vec<DVec3> {
        (0..=48)
            .map(|k| k as f64 * core::f64::consts::TAU / 48.0)
            .map(|a| DVec3::new(r.x * a.cos(), y, r.z * a.sin()))
            .collect()
    };
    match c {
        Convex3::Cuboid(b) => {
            let corners = cuboid_corners(b.half_extents);
            let corner = |i: usize| corners[i];
            for i in 0..8 {
                for bit in 0..3 {
                    if i & (1 << bit) == 0 {
                        lines.push(vec![corner(i), corner(i | (1 << bit))]);
                    }
                }
            }
        }
        Convex3::ConvexHull(h) => {
            for ([p, q], _) in h.edges() {
                lines.push(vec![h.vertices()[*p as usize], h.vertices()[*q as usize]]);
            }
        }
        Convex3::Triangle(t) => lines.push(vec![t.a, t.b, t.c, t.a]),
        Convex3::Segment(s) => lines.push(vec![s.a, s.b]),
        Convex3::Capsule(c) => {
            let (a, b) = c.segment();
            lines.push(vec![a, b]);
        }
        Convex3::Cylinder(c) => {
            let r = DVec3::splat(c.radius);
            lines.push(circle(r, c.half_height));
            lines.push(circle(r, -c.half_height));
        }
        Convex3::Cone(c) => lines.push(circle(DVec3::splat(c.radius), -c.half_height)),
        Convex3::Ball(b) => lines.push(circle(DVec3::splat(b.radius), 0.0)),
        Convex3::Ellipsoid(e) => lines.push(circle(e.radii, 0.0)),
        Convex3::Rounded(r) => edges3(r.inner(), lines),
        Convex3::User(_) => {}
    }
}

/// A box's corners in its frame: corner `i` has `+h` along axis `k` where bit `k` of `i`
/// is set, `-h` where it is not.
pub(crate) fn cuboid_corners(h: DVec3) -> [DVec3; 8] {
    let sign = |i: usize, bit: usize| if i & (1 << bit) == 0 { -1.0 } else { 1.0 };
    core::array::from_fn(|i| DVec3::new(sign(i, 0) * h.x, sign(i, 1) * h.y, sign(i, 2) * h.z))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide::shape::Cuboid;

    #[test]
    fn the_view_is_a_right_handed_orthonormal_frame() {
        let (r, u, t) = view();
        assert!((r.length() - 1.0).abs() < 1e-12 && (u.length() - 1.0).abs() < 1e-12);
        assert!(r.dot(u).abs() < 1e-12);
        assert!((r.cross(u) - t).length() < 1e-12);
        assert!(u.y > 0.8, "up is mostly the world's up");
    }

    #[test]
    fn a_square_outline_is_its_four_corners() {
        let square = Cuboid::new(DVec2::new(1.0, 0.5));
        let pose = DPose2::from_translation(DVec2::new(3.0, 1.0));
        let mut pts = outline(&square, &pose);
        pts.dedup_by(|a, b| (*a - *b).length() < 1e-9);
        assert_eq!(pts.len(), 4, "{pts:?}");
        assert!(pts
            .iter()
            .all(|p| ((p.x - 3.0).abs() - 1.0).abs() < 1e-12 && ((p.y - 1.0).abs() - 0.5).abs() < 1e-12));
    }
}
