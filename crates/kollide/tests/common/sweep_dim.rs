//! The dimension-generic face of the sweep tests: each dimension's items (triangles or
//! segments) and sweeps, and conversions to and from the oracle's f64.
#![allow(dead_code)]

use super::sweep_oracle::{closest, first_contact, Closest, Frame, Region, Truth};
use kollide::query::cast::{SweepFeature, SweepHit};
use kollide::query::Space;

use super::common::{FromParts, RotF64};
use glam::{DVec2, DVec3, Vec2, Vec3};
use kollide::math::{Pose, Real};
use kollide::query::cast::{sweep, BackFaces, SweepError, SweepOutcome, SweptShape};
use kollide::shape::Ellipsoid;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// What the tests need of a dimension: its items (triangles or segments) and its sweeps.
pub trait Dim: Space
where
    Self::Rotation: FromParts + RotF64<Self>,
{
    type Item: Copy + std::fmt::Debug;
    fn item(pts: &[DVec3]) -> Self::Item;
    fn corners(item: &Self::Item) -> Vec<DVec3>;
    fn try_sweep(
        c: Self,
        r: Self::Real,
        d: Self,
        items: &[Self::Item],
        bf: BackFaces,
    ) -> Result<SweepOutcome<Self>, SweepError>;
    fn try_sweep_ell(
        e: &Ellipsoid<Self>,
        pose: &Pose<Self>,
        d: Self,
        items: &[Self::Item],
        bf: BackFaces,
    ) -> Result<SweepOutcome<Self>, SweepError>;
    /// The sweep of good input (the tests of bad input call `try_sweep`).
    fn sweep(c: Self, r: Self::Real, d: Self, items: &[Self::Item], bf: BackFaces) -> SweepOutcome<Self> {
        Self::try_sweep(c, r, d, items, bf).unwrap_or_else(|e| panic!("sweep refused its input: {e}"))
    }
    fn sweep_ell(
        e: &Ellipsoid<Self>,
        pose: &Pose<Self>,
        d: Self,
        items: &[Self::Item],
        bf: BackFaces,
    ) -> SweepOutcome<Self> {
        Self::try_sweep_ell(e, pose, d, items, bf).unwrap_or_else(|e| panic!("sweep refused its input: {e}"))
    }
}

macro_rules! dim3 {
    ($v:ty) => {
        impl Dim for $v {
            type Item = [$v; 3];
            fn item(p: &[DVec3]) -> Self::Item {
                [v(p[0]), v(p[1]), v(p[2])]
            }
            fn corners(item: &Self::Item) -> Vec<DVec3> {
                item.iter().map(|&p| f(p)).collect()
            }
            fn try_sweep(
                c: Self,
                r: Self::Real,
                d: Self,
                items: &[Self::Item],
                bf: BackFaces,
            ) -> Result<SweepOutcome<Self>, SweepError> {
                sweep(SweptShape::ball(c, r), d, items, bf, None)
            }
            fn try_sweep_ell(
                e: &Ellipsoid<Self>,
                pose: &Pose<Self>,
                d: Self,
                items: &[Self::Item],
                bf: BackFaces,
            ) -> Result<SweepOutcome<Self>, SweepError> {
                sweep(SweptShape::ellipsoid(e, pose), d, items, bf, None)
            }
        }
    };
}
macro_rules! dim2 {
    ($v:ty) => {
        impl Dim for $v {
            type Item = [$v; 2];
            fn item(p: &[DVec3]) -> Self::Item {
                [v(p[0]), v(p[1])]
            }
            fn corners(item: &Self::Item) -> Vec<DVec3> {
                item.iter().map(|&p| f(p)).collect()
            }
            fn try_sweep(
                c: Self,
                r: Self::Real,
                d: Self,
                items: &[Self::Item],
                bf: BackFaces,
            ) -> Result<SweepOutcome<Self>, SweepError> {
                sweep(SweptShape::ball(c, r), d, items, bf, None)
            }
            fn try_sweep_ell(
                e: &Ellipsoid<Self>,
                pose: &Pose<Self>,
                d: Self,
                items: &[Self::Item],
                bf: BackFaces,
            ) -> Result<SweepOutcome<Self>, SweepError> {
                sweep(SweptShape::ellipsoid(e, pose), d, items, bf, None)
            }
        }
    };
}
dim3!(Vec3);
dim3!(DVec3);
dim2!(Vec2);
dim2!(DVec2);

/// f64 (z = 0 in 2D) from a kollide vector, and back (rounded for f32).
pub fn f<V: Space>(p: V) -> DVec3 {
    DVec3::from_array(p.to_f64_array())
}
pub fn v<V: Space>(p: DVec3) -> V {
    V::from_f64_array(p.to_array())
}
pub fn real<V: Space>(x: f64) -> V::Real {
    V::Real::from_f64(x)
}
pub fn eps<V: Space>() -> f64 {
    V::Real::EPSILON.to_f64()
}

/// A random point of `[-s, s]^DIM` (z = 0 in 2D).
pub fn point<V: Space>(r: &mut ChaCha8Rng, s: f64) -> DVec3 {
    let mut p = DVec3::new(r.random_range(-s..s), r.random_range(-s..s), r.random_range(-s..s));
    if V::DIM == 2 {
        p.z = 0.0;
    }
    p
}

/// An outcome read in f64.
#[derive(Debug)]
pub enum Seen {
    Hit { toi: f64, point: DVec3, normal: DVec3, feature: SweepFeature, index: usize },
    Miss,
    Within { index: usize, distance: Option<f64>, normal: DVec3 },
}

pub fn seen<V: Space>(o: SweepOutcome<V>) -> Seen {
    match o {
        SweepOutcome::Hit(SweepHit { toi, point, normal, feature, index }) => {
            Seen::Hit { toi: toi.to_f64(), point: f(point), normal: f(normal), feature, index }
        }
        SweepOutcome::Miss => Seen::Miss,
        SweepOutcome::StartedWithin { index, distance, normal } => {
            Seen::Within { index, distance: Some(distance.to_f64()), normal: f(normal) }
        }
    }
}

pub fn region(f: SweepFeature) -> Region {
    match f {
        SweepFeature::Face => Region::Face,
        SweepFeature::Edge => Region::Edge,
        SweepFeature::Vertex => Region::Vertex,
    }
}

/// The tolerances of one comparison, in the oracle's space.
pub struct Tol {
    /// Distances within this of the radius (depths, clearances) are a matter of rounding.
    pub band: f64,
    /// Times of impact.
    pub toi: f64,
    /// Points and normals (lengths, and differences of unit vectors).
    pub len: f64,
    /// Regions closer than this to another region may come out as either.
    pub margin: f64,
    /// Unit lengths.
    pub unit: f64,
    /// The rounding of a point's coordinates at their magnitude (far from the origin).
    pub coords: f64,
}

/// How one comparison went.
#[derive(Default, Debug)]
pub struct Tally {
    pub cases: usize,
    pub hits: usize,
    pub ambiguous: usize,
    pub within: usize,
    pub feature_checked: usize,
    pub max_toi_err: f64,
}

/// Checks one sweep (read in the oracle's space by `map`, identity for spheres) against
/// the oracle on `items` (the oracle's corners), the sphere of radius `r` from `c` by `d`.
#[allow(clippy::too_many_arguments)]
pub fn check(
    got: &Seen,
    items: &[Vec<DVec3>],
    c: DVec3,
    d: DVec3,
    r: f64,
    tol: &Tol,
    tally: &mut Tally,
    what: &str,
) {
    tally.cases += 1;
    // The oracle works about the start (exact subtractions of nearby f64 numbers), so that
    // soups far from the origin keep their precision; `o` brings its points back.
    let o = c;
    let items: Vec<Vec<DVec3>> = items.iter().map(|it| it.iter().map(|&p| p - o).collect()).collect();
    let c = DVec3::ZERO;
    let truths: Vec<Truth> = items.iter().map(|it| first_contact(it, c, d, r)).collect();
    let ambiguous = truths.iter().any(|t| match *t {
        Truth::Start { dist, .. } => dist > r - tol.band,
        Truth::Hit { depth, t, .. } => depth < tol.band || t > 1.0 - tol.toi,
        Truth::Miss { clearance } => clearance < tol.band,
    });
    if ambiguous {
        tally.ambiguous += 1;
        return;
    }
    let within = truths.iter().enumerate().filter_map(|(i, t)| match *t {
        Truth::Start { dist, closest } => Some((i, dist, closest)),
        _ => None,
    });
    let deepest = within.fold(None::<(usize, f64, Closest)>, |b, x| match b {
        Some(b) if b.1 <= x.1 => Some(b),
        _ => Some(x),
    });
    if let Some((i, dist, cl)) = deepest {
        tally.within += 1;
        let Seen::Within { index, distance, normal } = *got else {
            panic!("{what}: expected started-within, got {got:?}")
        };
        let others: Vec<f64> = truths
            .iter()
            .filter_map(|t| if let Truth::Start { dist: o, .. } = t { Some(*o) } else { None })
            .collect();
        // (An ellipsoid's deepest item is the deepest in the world, not in the unit space.)
        if others.iter().filter(|&&o| (o - dist).abs() < tol.len).count() == 1 && distance.is_some() {
            assert_eq!(index, i, "{what}: deepest item");
        }
        if let Some(distance) = distance {
            let distance_true = dist - r;
            let diff = (distance - distance_true).abs();
            assert!(diff <= tol.len, "{what}: distance {distance} vs {distance_true}, difference {diff:e}");
        }
        if dist > tol.len * 1e3 && distance.is_some() {
            let n = (c - cl.point).normalize();
            let diff = (normal.normalize() - n).length();
            assert!(diff <= tol.len * 1e3 / dist, "{what}: normal {normal} vs {n}, difference {diff:e}");
        }
        return;
    }
    let first = truths.iter().enumerate().filter_map(|(i, t)| match *t {
        Truth::Hit { t, cos, closest, .. } => Some((i, t, cos, closest)),
        _ => None,
    });
    let first = first.fold(None::<(usize, f64, f64, Closest)>, |b, x| match b {
        Some(b) if b.1 <= x.1 => Some(b),
        _ => Some(x),
    });
    let Some((i, t, cos, cl)) = first else {
        assert!(matches!(got, Seen::Miss), "{what}: expected a miss, got {got:?}");
        return;
    };
    tally.hits += 1;
    let Seen::Hit { toi, point, normal, feature, index } = *got else {
        panic!("{what}: expected a hit at {t}, got {got:?}")
    };
    // A grazing contact moves fast along the path for a small change of distance.
    let toi_tol = tol.toi / cos.max(1.0e-3);
    let err = (toi - t).abs();
    tally.max_toi_err = tally.max_toi_err.max(err * cos.max(1.0e-3) / tol.toi);
    assert!(err <= toi_tol, "{what}: toi {toi} vs {t}, difference {err:e} > {toi_tol:e} (cos {cos:.3e})");
    let ties = truths
        .iter()
        .filter(|x| matches!(x, Truth::Hit { t: o, .. } if (o - t).abs() <= 2.0 * toi_tol))
        .count();
    if ties == 1 {
        assert_eq!(index, i, "{what}: item hit");
        let point = point - o;
        let on = closest(&items[index], point).dist;
        assert!(on <= tol.len + tol.coords, "{what}: point {point} is {on:e} off the item");
        let at = c + d * toi;
        let slack = tol.len + tol.coords + toi_tol * d.length();
        assert!((point - cl.point).length() <= slack * 1e2, "{what}: point {point} vs {}", cl.point);
        assert!((normal.length() - 1.0).abs() <= tol.unit, "{what}: normal {normal} not unit");
        let n = (at - point) / r;
        assert!(
            (normal - n).length() <= slack * 1e2 / r,
            "{what}: normal {normal} vs (centre - point) / r = {n}"
        );
        if cl.margin > tol.margin {
            tally.feature_checked += 1;
            assert_eq!(region(feature), cl.region, "{what}: feature (margin {:e})", cl.margin);
        }
    }
}

/// The frame of an ellipsoid's unit sphere, in f64 from the pose's own numbers.
pub fn frame<V: Dim>(pose: &Pose<V>, radii: V) -> Frame
where
    V::Rotation: FromParts + RotF64<V>,
{
    let col = |i: usize| {
        let mut a = [0.0; 3];
        a[i] = 1.0;
        DVec3::from_array(pose.rotation.rotate_f64(a, [0.0; 3]))
    };
    let mut radii = f(radii);
    if V::DIM == 2 {
        radii.z = 1.0;
    }
    let cols = if V::DIM == 2 { [col(0), col(1), DVec3::Z] } else { [col(0), col(1), col(2)] };
    Frame { cols, centre: f(pose.translation), radii }
}

/// An ellipsoid's answer read in its unit sphere's space (the world distance of an overlap
/// is checked elsewhere, against closed forms).
pub fn seen_unit(s: Seen, fr: &Frame) -> Seen {
    match s {
        Seen::Hit { toi, point, normal, feature, index } => Seen::Hit {
            toi,
            point: fr.to_unit(point),
            normal: (fr.vec_to_unit(normal) * fr.radii * fr.radii).normalize(),
            feature,
            index,
        },
        Seen::Within { index, normal, .. } => {
            Seen::Within { index, distance: None, normal: fr.vec_to_unit(normal) }
        }
        Seen::Miss => Seen::Miss,
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Shape {
    Sphere,
    Ellipsoid,
}
