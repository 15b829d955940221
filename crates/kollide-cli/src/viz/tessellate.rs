//! Shapes at their poses as world-space meshes for the viewer.
//!
//! A convex shape's surface is the convex hull of its support points: the farthest point of
//! the core along each of a few hundred directions spread over the sphere, pushed out by the
//! radius (core plus radius), hulled by kollide's own quickhull. That works for every convex
//! shape, a user's too, through the one support function. Polytopes (boxes, hulls) use their
//! vertices and show their true edges. 2D shapes lie in the z = 0 plane: their outline (from
//! the support function too) filled. Composites draw their parts.

use super::scene::Mesh;
use crate::picture::draw::{cuboid_corners, outline, Plane};
use kollide::math::{DPose2, DPose3, DVec2, DVec3, Pose};
use kollide::shape::{Convex2, Convex3, ConvexHull, Support};
use kollide::world::{Shape2, Shape3};

/// Directions sampled for a curved shape's surface.
const SURFACE_DIRECTIONS: usize = 320;

/// A dimension the viewer draws: 3D as is, 2D in the z = 0 plane.
pub trait Solid: Plane {
    /// A point of this dimension in the viewer's 3D world.
    fn lift(p: Self) -> DVec3;
    /// The mesh of a shape at a pose, in world coordinates.
    fn mesh(shape: &Self::Shape, pose: &Pose<Self>) -> Mesh;
    /// The mesh of a segment (2D) or triangle (3D) soup.
    fn soup_mesh(items: &[Vec<Self>]) -> Mesh;
    /// `n` unit directions spread evenly (around the circle in 2D, in order).
    fn directions(n: usize) -> Vec<Self>;
    /// The filled convex hull of support points taken along [`Solid::directions`], in
    /// their order.
    fn hull(points: &[Self]) -> Mesh;
}

impl Solid for DVec2 {
    fn lift(p: Self) -> DVec3 {
        DVec3::new(p.x, p.y, 0.0)
    }

    fn mesh(shape: &Shape2<DVec2>, pose: &DPose2) -> Mesh {
        let mut m = Mesh::default();
        let lifted = |pts: &[DVec2]| pts.iter().map(|p| Self::lift(*p)).collect::<Vec<_>>();
        match shape {
            Shape2::Convex(c) => m.append(convex2(c, pose)),
            Shape2::Polyline(p) => {
                let pts: Vec<DVec2> = p.vertices().iter().map(|v| pose.transform_point(*v)).collect();
                m.add_loop(&lifted(&pts), p.is_closed());
            }
            Shape2::HeightField(h) => {
                let pts: Vec<DVec2> =
                    (0..h.heights().len()).map(|i| pose.transform_point(h.point(i))).collect();
                m.add_loop(&lifted(&pts), false);
            }
            Shape2::Compound(c) => {
                for (part_pose, part) in c.parts() {
                    m.append(convex2(part, &pose.compose(part_pose)));
                }
            }
            Shape2::ConcavePolygon(c) => {
                // The convex pieces fill it; the boundary is its outline.
                for piece in c.pieces() {
                    let pts: Vec<DVec2> = piece.vertices().iter().map(|v| pose.transform_point(*v)).collect();
                    let mut filled = fan(&lifted(&pts));
                    filled.edges.clear();
                    m.append(filled);
                }
                let pts: Vec<DVec2> = c.vertices().iter().map(|v| pose.transform_point(*v)).collect();
                m.add_loop(&lifted(&pts), true);
            }
        }
        m
    }

    fn directions(n: usize) -> Vec<Self> {
        (0..n)
            .map(|k| core::f64::consts::TAU * k as f64 / n as f64)
            .map(|a| DVec2::new(a.cos(), a.sin()))
            .collect()
    }

    fn hull(points: &[Self]) -> Mesh {
        // Support points along directions in angular order go around the shape in order.
        fan(&points.iter().map(|p| Self::lift(*p)).collect::<Vec<_>>())
    }

    fn soup_mesh(items: &[Vec<Self>]) -> Mesh {
        let mut m = Mesh::default();
        for s in items {
            m.add_loop(&s.iter().map(|p| Self::lift(*p)).collect::<Vec<_>>(), false);
        }
        m
    }
}

/// A convex polygon (its points in order) filled by a fan, with its outline as edges.
fn fan(points: &[DVec3]) -> Mesh {
    let mut m = Mesh::default();
    m.add_loop(points, true);
    let n = points.len() as u32;
    m.triangles.extend((1..n.saturating_sub(1)).map(|i| [0, i, i + 1]));
    m
}

fn convex2(c: &Convex2<DVec2>, pose: &DPose2) -> Mesh {
    let pts: Vec<DVec3> = outline(c, pose).into_iter().map(DVec2::lift).collect();
    fan(&pts)
}

impl Solid for DVec3 {
    fn lift(p: Self) -> DVec3 {
        p
    }

    fn mesh(shape: &Shape3<DVec3>, pose: &DPose3) -> Mesh {
        let mut m = Mesh::default();
        match shape {
            Shape3::Convex(c) => m = convex3(c, pose),
            Shape3::TriMesh(t) => {
                for i in 0..t.triangle_count() as u32 {
                    m.append(triangle(t.corners(i).map(|p| pose.transform_point(p)), false));
                }
            }
            Shape3::HeightField(h) => {
                for i in 0..h.triangle_count() as u32 {
                    let t = h.triangle(i);
                    m.append(triangle([t.a, t.b, t.c].map(|p| pose.transform_point(p)), false));
                }
            }
            Shape3::Compound(c) => {
                for (part_pose, part) in c.parts() {
                    m.append(convex3(part, &pose.compose(part_pose)));
                }
            }
        }
        m
    }

    fn directions(n: usize) -> Vec<Self> {
        sphere_directions(n).collect()
    }

    fn hull(points: &[Self]) -> Mesh {
        hull_or_loop(points, &DPose3::IDENTITY)
    }

    fn soup_mesh(items: &[Vec<Self>]) -> Mesh {
        let mut m = Mesh::default();
        for t in items.iter().filter(|t| t.len() == 3) {
            m.append(triangle([t[0], t[1], t[2]], true));
        }
        m
    }
}

/// One triangle, with its three edges when `edges`.
fn triangle(corners: [DVec3; 3], edges: bool) -> Mesh {
    let mut m = Mesh { positions: corners.to_vec(), triangles: vec![[0, 1, 2]], edges: Vec::new() };
    if edges {
        m.edges = vec![[0, 1], [1, 2], [2, 0]];
    }
    m
}

/// Directions spread evenly over the unit sphere (a Fibonacci lattice).
fn sphere_directions(n: usize) -> impl Iterator<Item = DVec3> {
    let golden = core::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n).map(move |i| {
        let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
        let r = (1.0 - y * y).max(0.0).sqrt();
        let a = golden * i as f64;
        DVec3::new(r * a.cos(), y, r * a.sin())
    })
}

/// A convex shape's surface: a polytope's own hull and edges, any other shape's hull of its
/// support points. A flat shape (a triangle, a segment) is drawn as it is.
fn convex3(c: &Convex3<DVec3>, pose: &DPose3) -> Mesh {
    let world = |p: DVec3| pose.transform_point(p);
    match c {
        Convex3::Triangle(t) => return triangle([t.a, t.b, t.c].map(world), true),
        Convex3::Segment(s) => {
            let mut m = Mesh::default();
            m.add_loop(&[world(s.a), world(s.b)], false);
            return m;
        }
        Convex3::ConvexHull(h) => return polytope(h, pose),
        Convex3::Cuboid(b) => {
            if let Ok(hull) = ConvexHull::try_from_points(&cuboid_corners(b.half_extents)) {
                return polytope(&hull, pose);
            }
        }
        _ => {}
    }
    let r = c.radius();
    let points: Vec<DVec3> = sphere_directions(SURFACE_DIRECTIONS).map(|d| c.support(d) + d * r).collect();
    hull_or_loop(&points, pose)
}

/// The hull of points (a curved surface: no edges drawn) at a pose, or the points as a
/// loop when they are too flat to hull.
fn hull_or_loop(points: &[DVec3], pose: &DPose3) -> Mesh {
    let world = |p: DVec3| pose.transform_point(p);
    match ConvexHull::try_from_points(points) {
        Ok(hull) => {
            let mut m = polytope(&hull, pose);
            m.edges.clear(); // a curved surface has no edges to show: shading shows its form
            m
        }
        // Too flat to hull (a degenerate user shape): its support points as a loop.
        Err(_) => {
            let mut m = Mesh::default();
            m.add_loop(&points.iter().map(|p| world(*p)).collect::<Vec<_>>(), false);
            m
        }
    }
}

/// A hull at a pose: its triangles and its true edges (between faces of different planes).
fn polytope(h: &ConvexHull<DVec3>, pose: &DPose3) -> Mesh {
    Mesh {
        positions: h.vertices().iter().map(|p| pose.transform_point(*p)).collect(),
        triangles: h.triangles().to_vec(),
        edges: h.edges().iter().map(|(e, _)| *e).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide::shape::{Ball, Cuboid};

    #[test]
    fn a_box_is_twelve_triangles_and_twelve_edges_at_its_pose() {
        let pose = DPose3::from_translation(DVec3::new(5.0, 0.0, 0.0));
        let m = DVec3::mesh(&Shape3::from(Cuboid::new(DVec3::new(1.0, 2.0, 3.0))), &pose);
        assert_eq!(m.triangles.len(), 12);
        assert_eq!(m.edges.len(), 12);
        assert!(m.positions.iter().all(|p| (p.x - 5.0).abs() == 1.0 && p.y.abs() == 2.0 && p.z.abs() == 3.0));
    }

    #[test]
    fn a_ball_surface_lies_on_the_sphere_and_closes() {
        let m = DVec3::mesh(&Shape3::from(Ball::new(2.0)), &DPose3::IDENTITY);
        assert!(m.positions.iter().all(|p| (p.length() - 2.0).abs() < 1e-12));
        // A closed triangulated sphere: Euler's V - E + F = 2 with E = 3F/2.
        let (v, f) = (m.positions.len() as i64, m.triangles.len() as i64);
        assert_eq!(v - 3 * f / 2 + f, 2, "{v} vertices, {f} triangles");
    }
}
