//! Convex polygon (2D): the convex hull of a point set.

use super::error::check_points;
use super::predicates2d::Exact;
use super::{Feature, Primitive, ShapeError, Support, SupportFace};
use crate::math::{Real, Vector2};

/// Vertex count above which the support function walks from the hinted vertex instead of
/// scanning every vertex (measured: the scan wins below this on 2 cores of x86_64).
const SCAN_LIMIT: usize = 16;

/// A convex polygon: the convex hull of the points it was built from, counter-clockwise.
///
/// Points inside the hull, duplicates and points in the middle of an edge are not vertices
/// of the hull, so they are not kept (the shape is the same set either way).
///
/// ```
/// use kollide::shape::{ConvexPolygon, Support};
/// use glam::Vec2;
/// let square = ConvexPolygon::try_from_points(&[
///     Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0),
///     Vec2::new(0.0, 1.0), Vec2::new(0.5, 0.5), // inside: not a vertex
/// ]).unwrap();
/// assert_eq!(square.vertices().len(), 4);
/// assert_eq!(square.support(Vec2::new(1.0, 2.0)), Vec2::new(1.0, 1.0));
/// ```
///
/// Contacts between polygons and rectangles ([`crate::query::contact`],
/// [`crate::query::manifold`]) come from separating axes: the depth is exact up to the
/// rounding of the coordinates (a few `ε` times their magnitude; tested within `1e-5` of
/// the size in `f32` and `1e-10` in `f64`), and a manifold gives the ends of the touching
/// edges with ids that name the polygon's vertices and edges:
///
/// ```
/// use kollide::math::{DPose2, DVec2};
/// use kollide::query::{contact, manifold};
/// use kollide::shape::{ConvexPolygon, Cuboid, Feature};
/// let floor = Cuboid::new(DVec2::new(5.0, 0.5)); // top face at y = 0.5
/// let hexagon = ConvexPolygon::from_points(&[
///     DVec2::new(-0.5, -0.3), DVec2::new(0.5, -0.3), DVec2::new(0.7, 0.0),
///     DVec2::new(0.5, 0.3), DVec2::new(-0.5, 0.3), DVec2::new(-0.7, 0.0),
/// ]);
/// // The hexagon's bottom edge sunk 0.05 into the floor (world frame):
/// let pose = DPose2::from_translation(DVec2::new(1.0, 0.75));
/// let c = contact(&floor, &DPose2::IDENTITY, &hexagon, &pose, 0.0, None).unwrap();
/// assert!((c.distance + 0.05).abs() < 1e-12);
/// assert!((c.normal - DVec2::Y).length() < 1e-12);
/// let m = manifold(&floor, &DPose2::IDENTITY, &hexagon, &pose, 0.0);
/// assert_eq!(m.len(), 2); // both ends of the bottom edge, at x = 0.5 and 1.5
/// assert!(m.points().iter().all(|p| (p.distance + 0.05).abs() < 1e-12));
/// assert!(m.points().iter().all(|p| p.id.a == Feature::Face(3))); // the floor's top face
/// ```
#[derive(Clone, Debug, PartialEq)]
// Serialized as its points and rebuilt (validated) when deserialized: see `serde_points.rs`.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(
        try_from = "super::serde_points::PointsRepr<V>",
        into = "super::serde_points::PointsRepr<V>",
        bound(
            serialize = "V: Vector2 + serde::Serialize",
            deserialize = "V: Vector2 + serde::de::DeserializeOwned"
        )
    )
)]
pub struct ConvexPolygon<V> {
    vertices: Vec<V>,
    normals: Vec<V>,
    /// The extreme vertex along each of 8 directions 45° apart (E, NE, N, ...): where an
    /// unhinted search starts, a few steps from any answer.
    starts: [u32; 8],
    /// Two radii about the local origin, stored as a 2-vector `(inner, outer)`: every
    /// support value `max p·u` over unit `u` lies between them (inner: the least distance
    /// to an edge line when the origin is inside, else `-outer`; outer: the largest vertex
    /// norm). Separating-axis tests skip edges with them.
    radii: V,
}

impl<V> ConvexPolygon<V> {
    /// The vertices, when the support scans them (few of them): one pass over them is then
    /// the cheapest way to their extremes along several directions.
    pub(crate) fn scanned_vertices(&self) -> Option<&[V]> {
        (self.vertices.len() <= SCAN_LIMIT).then_some(self.vertices.as_slice())
    }
}

impl<V: Vector2> ConvexPolygon<V> {
    /// The convex hull of `points` (Andrew's monotone chain).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] naming the first bad coordinate (`points[4].y`),
    /// [`ShapeError::TooFewPoints`] for fewer than 3 points, [`ShapeError::Collinear`] when
    /// the points span no area.
    pub fn try_from_points(points: &[V]) -> Result<Self, ShapeError> {
        check_points(points, 3)?;
        let vertices = monotone_chain(points);
        if vertices.len() < 3 {
            return Err(ShapeError::Collinear { count: points.len() });
        }
        let n = vertices.len();
        let normals: Vec<V> = (0..n)
            .map(|i| {
                let (a, b) = (vertices[i], vertices[(i + 1) % n]);
                let e = b - a;
                // An edge from -1e308 to 1e308 overflows: its halves do not (and only the
                // direction matters). Fuzz target `shapes` found NaN normals there.
                let e = if e.is_finite_vec() { e } else { b * V::Real::HALF - a * V::Real::HALF };
                // Normalized after scaling by a power of two (exact): an edge 1e-300 long has
                // a square that underflows to 0, and the normal was infinite (found by the
                // fuzz target `shapes`); a subnormal one loses its digits.
                let out = V::new2(e[1], -e[0]);
                let out = out * out.abs_elem().max_component().recip_pow2();
                out / out.length()
            })
            .collect();
        let starts = core::array::from_fn(|k| {
            let d = octant_direction::<V>(k);
            let mut best = 0;
            for (i, p) in vertices.iter().enumerate() {
                if p.dot(d) > vertices[best].dot(d) {
                    best = i;
                }
            }
            best as u32
        });
        let outer = vertices.iter().fold(V::Real::ZERO, |m, p| m.max(p.length_safe()));
        // Between two edge normals the support value is `|v| cos(θ - φ)` for one vertex v,
        // concave while positive: with the origin inside, its least value is at a normal.
        let inner = vertices.iter().zip(&normals).fold(V::Real::MAX, |m, (p, n): (&V, &V)| m.min(n.dot(*p)));
        let inner = if inner > V::Real::ZERO { inner } else { -outer };
        Ok(Self { vertices, normals, starts, radii: V::new2(inner, outer) })
    }

    /// The convex hull of `points`.
    ///
    /// # Panics
    /// On the inputs [`ConvexPolygon::try_from_points`] refuses.
    #[must_use]
    pub fn from_points(points: &[V]) -> Self {
        Self::try_from_points(points).unwrap_or_else(|e| panic!("ConvexPolygon::from_points: {e}"))
    }

    /// The vertices, counter-clockwise, no three collinear.
    #[must_use]
    pub fn vertices(&self) -> &[V] {
        &self.vertices
    }

    /// The outward unit normal of edge `i` (from vertex `i` to vertex `i + 1`).
    #[must_use]
    pub fn normals(&self) -> &[V] {
        &self.normals
    }

    /// A lower bound of the support value `max p·u` over unit directions `u` (local frame):
    /// the least distance from the origin to an edge line, or `-outer` when the origin is
    /// not inside.
    #[inline]
    pub(crate) fn inner_radius(&self) -> V::Real {
        self.radii[0]
    }

    /// A vertex a few steps from the extreme one along `dir` (from the table of 8
    /// directions): where a walk over the boundary starts.
    #[inline]
    pub(crate) fn start_vertex(&self, dir: V) -> usize {
        self.starts[octant_of(dir)] as usize
    }
}

/// The unit direction of octant `k` (0 = +x, counter-clockwise in steps of 45°).
fn octant_direction<V: Vector2>(k: usize) -> V {
    let h = V::Real::from_f64(core::f64::consts::FRAC_1_SQRT_2);
    let (o, z) = (V::Real::ONE, V::Real::ZERO);
    let xy = [(o, z), (h, h), (z, o), (-h, h), (-o, z), (-h, -h), (z, -o), (h, -h)][k];
    V::new2(xy.0, xy.1)
}

/// The octant (as in [`octant_direction`]) nearest to the direction of `d`, by comparisons.
#[inline(always)]
fn octant_of<V: Vector2>(d: V) -> usize {
    let (x, y) = (d[0], d[1]);
    let (ax, ay) = (x.abs(), y.abs());
    // tan(22.5°) = 0.41421356: within it of an axis, the axis; otherwise the diagonal.
    let t = V::Real::from_f64(0.414_213_562_373_095_1);
    let z = V::Real::ZERO;
    if ay <= t * ax {
        if x >= z {
            0
        } else {
            4
        }
    } else if ax <= t * ay {
        if y >= z {
            2
        } else {
            6
        }
    } else {
        match (x >= z, y >= z) {
            (true, true) => 1,
            (false, true) => 3,
            (false, false) => 5,
            (true, false) => 7,
        }
    }
}

/// Andrew's monotone chain: the strictly convex hull, counter-clockwise from the lowest-x
/// point. Collinear and duplicate points are dropped by the `<= 0` turn test.
fn monotone_chain<V: Vector2>(points: &[V]) -> Vec<V> {
    let mut pts: Vec<V> = points.to_vec();
    // Coordinates were checked finite, so the order is total. `+ 0.0` makes -0.0 equal to
    // 0.0: total_cmp puts -0.0 first, which put (-0, 8) before (0, 0) on the same vertical
    // and the chain dropped it from the hull (found by the fuzz target `shapes`).
    let key = |p: &V, i: usize| p[i].to_f64() + 0.0;
    pts.sort_by(|p, q| key(p, 0).total_cmp(&key(q, 0)).then(key(p, 1).total_cmp(&key(q, 1))));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    // The turn test is the exact orientation predicate: in plain arithmetic its products
    // underflowed for f32 points of 1e-23 (left the origin outside the hull: fuzz target
    // `shapes`). Every finite input is decided exactly (subnormal f64 points beside points
    // near 7 dropped a corner until the predicate summed its products as integers).
    let exact = Exact::new(pts.iter().map(|p| [p[0].to_f64(), p[1].to_f64()]));
    let left_turn = |o: usize, a: usize, b: usize| exact.orient(o, a, b) > 0;
    let mut hull: Vec<usize> = Vec::with_capacity(2 * pts.len());
    for pass in 0..2 {
        let start = hull.len();
        let order: Box<dyn Iterator<Item = usize>> =
            if pass == 0 { Box::new(0..pts.len()) } else { Box::new((0..pts.len()).rev()) };
        for i in order {
            while hull.len() >= start + 2 && !left_turn(hull[hull.len() - 2], hull[hull.len() - 1], i) {
                hull.pop();
            }
            hull.push(i);
        }
        hull.pop(); // the last point of each chain starts the other one
    }
    hull.into_iter().map(|i| pts[i]).collect()
}

impl<V: Vector2> Support<V> for ConvexPolygon<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        let mut hint = super::NO_HINT;
        self.support_hinted(dir, &mut hint)
    }

    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        let v = &self.vertices;
        let n = v.len();
        if n <= SCAN_LIMIT {
            let best = super::scan::scan(v, dir);
            *hint = best as u32;
            return v[best];
        }
        // The dot product along a convex polygon's boundary rises to one maximum and falls.
        // Start from the better of the hinted vertex and the extreme vertex of the nearest
        // of 8 directions (so no walk is longer than about n/8, even when GJK's direction
        // swings), pick the uphill side once, then walk it with one dot product a step.
        let mut i = self.starts[octant_of(dir)] as usize;
        let mut d = v[i].dot(dir);
        if let Some(h) = v.get(*hint as usize) {
            let dh = h.dot(dir);
            if dh > d {
                (i, d) = (*hint as usize, dh);
            }
        }
        let next = |k: usize| if k + 1 == n { 0 } else { k + 1 };
        let prev = |k: usize| if k == 0 { n - 1 } else { k - 1 };
        let forward = v[next(i)].dot(dir) > d;
        for _ in 0..n {
            let j = if forward { next(i) } else { prev(i) };
            let dj = v[j].dot(dir);
            if dj <= d {
                break;
            }
            (i, d) = (j, dj);
        }
        *hint = i as u32;
        v[i]
    }

    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Polygon(self)
    }

    /// The edge whose outward normal is most aligned with `dir` (local frame): edge `i`
    /// runs from vertex `i` to vertex `i + 1` (corner ids are vertex indices, the feature
    /// `Feature::edge(i, i + 1)`). That edge ends at the support vertex along `dir`, so only
    /// the two edges there are compared. A zero `dir` gives an edge at the support vertex.
    #[inline]
    fn support_face(&self, dir: V, face: &mut SupportFace<V>) {
        let v = &self.vertices;
        let n = v.len();
        let mut hint = super::NO_HINT;
        self.support_hinted(dir, &mut hint);
        let k = hint as usize % n;
        let before = if k == 0 { n - 1 } else { k - 1 };
        let after = if k + 1 == n { 0 } else { k + 1 };
        // Nearly aligned normals have cosines equal after rounding (1 - θ²/2); compare the
        // sines instead, the drop of `p·dir` along each edge over its length (the difference
        // of the vertices taken first, so a short edge keeps its precision): an edge square
        // to `dir` drops by 0 and wins ties. An edge whose normal faces away from `dir` (a
        // sharp vertex) never wins.
        let zero = V::Real::ZERO;
        let (e_before, e_after) = (v[k] - v[before], v[k] - v[after]);
        let drop_before = e_before.dot(dir) / e_before.length();
        let drop_after = e_after.dot(dir) / e_after.length();
        let i = if self.normals[before].dot(dir) <= zero {
            k
        } else if self.normals[k].dot(dir) <= zero || drop_before < drop_after {
            before
        } else {
            k
        };
        let j = if i + 1 == n { 0 } else { i + 1 };
        face.reset(Feature::edge(i as u32, j as u32));
        face.push(v[i], i as u32);
        face.push(v[j], j as u32);
    }

    #[inline]
    fn interior_point(&self) -> V {
        // The mean of three vertices spread around the polygon is strictly inside.
        let n = self.vertices.len();
        let third = V::Real::ONE / (V::Real::TWO + V::Real::ONE);
        (self.vertices[0] + self.vertices[n / 3] + self.vertices[2 * n / 3]) * third
    }
}

impl<V: crate::math::Vector> ConvexPolygon<V> {
    /// The largest vertex norm (local frame): an upper bound of every support value.
    #[inline]
    pub(crate) fn outer_radius(&self) -> V::Real {
        self.radii[1]
    }

    /// Each edge's outward unit normal `n` and offset `n · v` (its first vertex `v`): the
    /// polygon is `n · x <= offset` for every edge. For code generic over the dimension
    /// (the ray cast), where [`ConvexPolygon::normals`] cannot be named.
    #[inline]
    pub(crate) fn edge_planes(&self) -> impl Iterator<Item = (V, V::Real)> + '_ {
        self.normals.iter().zip(&self.vertices).map(|(&n, &v)| (n, n.dot(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec2};
    use rand::{Rng, SeedableRng};

    /// Support with no hint, any hint, or a stale one equals the brute-force maximum of the
    /// dot product over all input points, for small (scanned) and large (walked) polygons.
    fn check<V: Vector2>(n: usize, seed: u64) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let pts: Vec<V> = (0..n)
            .map(|_| {
                let a: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                let r: f64 = rng.random_range(0.8..1.0);
                V::from_f64_array([r * a.cos(), r * a.sin(), 0.0])
            })
            .collect();
        let poly = ConvexPolygon::from_points(&pts);
        let mut hint = crate::shape::NO_HINT;
        for k in 0..2000 {
            let a: f64 = rng.random_range(0.0..std::f64::consts::TAU);
            let d = V::from_f64_array([a.cos(), a.sin(), 0.0]);
            let best = pts.iter().map(|p| p.dot(d)).fold(V::Real::MAX * -V::Real::ONE, |m, x| m.max(x));
            assert_eq!(poly.support(d).dot(d), best, "no hint, direction {d:?}");
            if k % 7 == 0 {
                hint = rng.random_range(0..(2 * n as u32));
            }
            assert_eq!(poly.support_hinted(d, &mut hint).dot(d), best, "hint, direction {d:?}");
        }
    }

    #[test]
    fn support_matches_brute_force() {
        for (n, seed) in [(5, 1), (16, 2), (64, 3), (500, 4)] {
            check::<Vec2>(n, seed);
            check::<DVec2>(n, seed + 10);
        }
    }

    /// The support face is the edge of greatest `normal · dir` (brute force over all edges,
    /// up to rounding), named by its two vertex indices.
    fn check_face<V: Vector2>(n: usize, seed: u64, tol: f64) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let pts: Vec<V> = (0..n)
            .map(|_| {
                let a: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                V::from_f64_array([2.0 * a.cos(), 0.5 * a.sin(), 0.0])
            })
            .collect();
        let poly = ConvexPolygon::from_points(&pts);
        let m = poly.vertices().len();
        let mut face = SupportFace::default();
        for _ in 0..2000 {
            let a: f64 = rng.random_range(0.0..std::f64::consts::TAU);
            let d = V::from_f64_array([a.cos(), a.sin(), 0.0]);
            poly.support_face(d, &mut face);
            let best = poly.normals().iter().map(|e| e.dot(d).to_f64()).fold(-1.0, f64::max);
            let (i, j) = (face.ids()[0] as usize, face.ids()[1] as usize);
            assert_eq!(j, (i + 1) % m);
            assert_eq!(face.points(), &[poly.vertices()[i], poly.vertices()[j]]);
            assert_eq!(face.feature(), Feature::edge(i as u32, j as u32));
            let got = poly.normals()[i].dot(d).to_f64();
            assert!(got >= best - tol, "direction {d:?}: edge {i} at {got}, best {best}");
        }
    }

    #[test]
    fn support_face_matches_brute_force() {
        for (n, seed) in [(3, 1), (8, 2), (40, 3), (300, 4)] {
            check_face::<Vec2>(n, seed, 1e-6);
            check_face::<DVec2>(n, seed + 10, 1e-14);
        }
    }

    /// Regression: along the normal of an edge in a chain of nearly collinear edges (a
    /// sliver), the cosines of the neighbouring normals round to 1 in f32 and the face was a
    /// neighbour, too short to hold the contact point. The face is that edge.
    #[test]
    fn nearly_collinear_chain_gives_the_asked_edge() {
        let pts = [
            Vec2::new(-0.5625839, 0.8295564),
            Vec2::new(-0.29223254, 0.4307662),
            Vec2::new(0.15873979, -0.23437637),
            Vec2::new(0.19433391, -0.28687096),
            Vec2::new(0.48283496, -0.7123327),
            Vec2::new(0.8137291, -1.2001339),
            Vec2::new(0.11437043, -0.16842617),
        ];
        let poly = ConvexPolygon::from_points(&pts);
        let mut face = SupportFace::default();
        for (i, &n) in poly.normals().iter().enumerate() {
            poly.support_face(n, &mut face);
            assert_eq!(face.ids()[0] as usize, i, "normal {i}: {:?}", face.feature());
        }
    }
}
