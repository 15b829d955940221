//! The clean-up's view of a finished build: which vertices are corners (the facet grouping),
//! and the live faces as an indexed mesh.

use super::{Builder, HullMesh, NONE};
use crate::shape::hull3d::predicates::{certainly_off_plane, dot, Plane};

impl Builder<'_> {
    /// The vertices that are corners: their faces span at least three near-planar facets;
    /// `None` when every vertex is one.
    ///
    /// Facets grow from the largest faces first; a face joins a facet when its three vertices
    /// are within `tol` of the seed face's plane (the seed's plane, not its neighbour's, so a
    /// gently curved surface cannot creep into one facet).
    pub(super) fn corners(&self, pinned: &[bool]) -> Option<Vec<u32>> {
        let near = |f: u32, plane: &Plane, v: u32| {
            let [_, b, c] = self.corners_of(f);
            self.faces[f as usize].v.contains(&v) || plane.near(&[b, c], self.pts[v as usize], self.tol)
        };
        // Fast path (a sphere): no face has a neighbour in its plane, so no facet has two
        // faces and every vertex, on at least three faces, is a corner.
        let flat_pair = self.live().any(|f| {
            let face = &self.faces[f as usize];
            let [a, b, c] = self.corners_of(f);
            let off =
                |v: u32| !face.v.contains(&v) && certainly_off_plane(a, b, c, self.pts[v as usize], self.tol);
            let maybe = face.adj.iter().any(|&g| !self.faces[g as usize].v.iter().any(|&v| off(v)));
            maybe && {
                let plane = self.plane_of(f);
                face.adj.iter().any(|&g| self.faces[g as usize].v.iter().all(|&v| near(f, &plane, v)))
            }
        });
        if !flat_pair {
            return None;
        }
        // Largest first, ties in face order; the keys beside the faces (no lookups while
        // sorting).
        let mut by_size: Vec<(f64, u32)> = self.live().map(|f| (self.plane_of(f).len, f)).collect();
        by_size.sort_unstable_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        let seeds: Vec<u32> = by_size.into_iter().map(|(_, f)| f).collect();
        let mut facet = vec![NONE; self.faces.len()];
        let mut queue = Vec::new();
        for &seed in &seeds {
            if facet[seed as usize] != NONE {
                continue;
            }
            // The seed's plane only once a neighbour passes the cheap filter (most do not).
            let [a, b, c] = self.corners_of(seed);
            let seed_v = self.faces[seed as usize].v;
            let mut plane = None;
            let mut joins = |v: u32| {
                seed_v.contains(&v)
                    || (!certainly_off_plane(a, b, c, self.pts[v as usize], self.tol)
                        && near(seed, plane.get_or_insert_with(|| self.plane_of(seed)), v))
            };
            facet[seed as usize] = seed;
            queue.clear();
            queue.push(seed);
            while let Some(f) = queue.pop() {
                for g in self.faces[f as usize].adj {
                    let face = &self.faces[g as usize];
                    if facet[g as usize] == NONE && face.v.iter().all(|&v| joins(v)) {
                        facet[g as usize] = seed;
                        queue.push(g);
                    }
                }
            }
        }
        let mut incidences: Vec<(u32, u32)> =
            seeds.iter().flat_map(|&f| self.faces[f as usize].v.map(|v| (v, facet[f as usize]))).collect();
        incidences.sort_unstable();
        incidences.dedup();
        // A vertex on one facet is inside it; on two, on their common edge, within
        // `tol / cos(θ/2)` of it for normals `θ` apart: a corner unless θ <= 120°.
        let corner = |run: &[(u32, u32)]| match run {
            [(v, _), ..] if pinned[*v as usize] => true,
            [_] => false,
            [(_, f), (_, g)] => {
                let (p, q) = (self.plane_of(*f), self.plane_of(*g));
                dot(p.n, q.n) < -0.5 * p.len * q.len
            }
            _ => true,
        };
        Some(incidences.chunk_by(|x, y| x.0 == y.0).filter(|run| corner(run)).map(|run| run[0].0).collect())
    }

    /// The live faces, re-indexed: vertices in order of first use.
    pub(super) fn mesh(&self) -> HullMesh {
        let mut triangle_of = vec![NONE; self.faces.len()];
        let mut count = 0;
        for f in self.live() {
            triangle_of[f as usize] = count;
            count += 1;
        }
        let mut local = vec![NONE; self.pts.len()];
        let mut vertices = Vec::new();
        let (mut triangles, mut adjacent) =
            (Vec::with_capacity(count as usize), Vec::with_capacity(count as usize));
        for face in self.faces.iter().filter(|f| !f.is_dead()) {
            triangles.push(face.v.map(|v| {
                if local[v as usize] == NONE {
                    local[v as usize] = vertices.len() as u32;
                    vertices.push(v);
                }
                local[v as usize]
            }));
            adjacent.push(face.adj.map(|g| triangle_of[g as usize]));
        }
        HullMesh { vertices, triangles, adjacent, clean: false }
    }
}
