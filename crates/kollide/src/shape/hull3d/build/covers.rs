//! Which points a finished hull contains to within a tolerance, without testing every point
//! against every face: a point is located by walking to the face its direction from an
//! interior point crosses, and only the faces it sees (a small disc around that face) are
//! measured. The clean-up asks this of every vertex it removed (tens of thousands on a
//! million `f32` sphere points, against two million faces).

use super::{Builder, NONE};
use crate::shape::hull3d::predicates::{orient, P};

impl Builder<'_> {
    /// For each point of `points`, `true` when it is at most `tol` above every face.
    pub(super) fn covers(&self, points: &[u32], tol: f64) -> Vec<bool> {
        if points.is_empty() {
            return Vec::new();
        }
        // The walk needs a point strictly inside; the centre of the first tetrahedron is,
        // unless rounding moved it (a sliver): then test against every face.
        let centre = self.centre;
        let strictly_inside = self.live().all(|f| {
            let [a, b, c] = self.corners_of(f);
            orient(a, b, c, centre) < 0.0
        });
        if !strictly_inside {
            return points.iter().map(|&v| self.covers_by_scan(v, tol)).collect();
        }
        // Neighbouring points in the build order are close: each walk starts where the
        // previous one ended.
        let mut order: Vec<usize> = (0..points.len()).collect();
        order.sort_unstable_by_key(|&k| points[k]);
        let mut inside = vec![true; points.len()];
        let mut mark = vec![0u32; self.faces.len()];
        let (mut at, mut queue) = (self.live().next().unwrap_or(0), Vec::new());
        for (search, k) in order.into_iter().enumerate() {
            let p = self.pts[points[k] as usize];
            let Some(f) = self.locate(at, centre, p) else {
                inside[k] = self.covers_by_scan(points[k], tol);
                continue;
            };
            at = f;
            // Where the ray from the centre through `p` leaves the hull: `p` before it is
            // inside, below every face. Beyond it, the faces `p` sees form a disc around
            // `f`, and only those can have `p` above them by more than `tol`.
            if !self.sees(f, p) {
                continue;
            }
            let stamp = search as u32 + 1;
            mark[f as usize] = stamp;
            queue.clear();
            queue.push(f);
            while let Some(g) = queue.pop() {
                let [_, b, c] = self.corners_of(g);
                if !self.plane_of(g).at_most(&[b, c], p, tol) {
                    inside[k] = false;
                    break;
                }
                for h in self.faces[g as usize].adj {
                    if mark[h as usize] != stamp && self.sees(h, p) {
                        mark[h as usize] = stamp;
                        queue.push(h);
                    }
                }
            }
        }
        inside
    }

    /// `true` when point `v` is at most `tol` above every face, by testing every face.
    fn covers_by_scan(&self, v: u32, tol: f64) -> bool {
        self.live().all(|f| {
            let [_, b, c] = self.corners_of(f);
            self.plane_of(f).at_most(&[b, c], self.pts[v as usize], tol)
        })
    }

    /// The face whose cone from `centre` (strictly inside) holds `p`, walking from face
    /// `start` across the edge whose plane through `centre` separates the face from `p`.
    /// The edge tried first turns from step to step, and the edge just crossed is not tried
    /// back (a remembering stochastic walk: it cannot cycle forever, but a cap stops it and
    /// answers `None` all the same).
    fn locate(&self, start: u32, centre: P, p: P) -> Option<u32> {
        let (mut f, mut came_from) = (start, NONE);
        let mut turn = 0x9e37_79b9u32;
        for _ in 0..self.faces.len() + 16 {
            let face = &self.faces[f as usize];
            turn ^= turn << 13;
            turn ^= turn >> 17;
            turn ^= turn << 5;
            let first = (turn % 3) as usize;
            let across = (0..3).map(|j| (first + j) % 3).find(|&i| {
                let (a, b) = (self.pts[face.v[i] as usize], self.pts[face.v[(i + 1) % 3] as usize]);
                face.adj[i] != came_from && orient(centre, a, b, p) < 0.0
            });
            match across {
                Some(i) => (came_from, f) = (f, face.adj[i]),
                None => return Some(f),
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points on and around a sphere's hull: the walk answers what testing every face does.
    #[test]
    fn covers_matches_the_scan() {
        let mut unit = crate::shape::hull3d::predicates::unit_sampler(0x9e37_79b9_7f4a_7c15_u64);
        let mut direction = || loop {
            let p: P = core::array::from_fn(|_| unit());
            let l = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
            if l > 0.1 && l <= 1.0 {
                break p.map(|x| x / l);
            }
        };
        let (hull_count, probe_count) = (3000, 4000);
        let mut pts: Vec<P> = (0..hull_count).map(|_| direction().map(|x| x * 0.5)).collect();
        // Probes at radii from well inside to just outside, where the answer turns on `tol`.
        for k in 0..probe_count {
            let r = 0.5 * (1.0 - 1e-4 * (k % 7) as f64 + 1e-5 * (k % 5) as f64);
            pts.push(direction().map(|x| x * r));
        }
        let ids: Vec<u32> = (0..hull_count as u32).collect();
        let tol = 1e-6;
        let hull = Builder::run(&pts, &ids, tol).unwrap_or_else(|_| panic!("a sphere has volume"));
        let probes: Vec<u32> = (hull_count as u32..pts.len() as u32).rev().collect();
        let walked = hull.covers(&probes, tol);
        let scanned: Vec<bool> = probes.iter().map(|&v| hull.covers_by_scan(v, tol)).collect();
        assert_eq!(walked, scanned);
        let outside = scanned.iter().filter(|&&c| !c).count();
        assert!(outside > 100 && outside < probe_count - 100, "{outside} probes outside");
    }
}
