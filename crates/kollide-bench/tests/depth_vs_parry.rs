//! Penetration depths of kollide (`f32` and `f64`) and parry (`f32`) against the f64
//! brute-force oracle (`oracle3::penetration`, `oracle2::penetration`: the least overlap over
//! every candidate axis), on the same random overlapping pairs.
//!
//! kollide must stay within its documented tolerance; parry's worst error is printed for
//! the record (it is the peer, not the subject), with the pair where it happens.
//! `cargo test --release -p kollide-bench --test depth_vs_parry -- --nocapture` prints the
//! table quoted in BENCHMARKS.md.

use kollide_bench::gen::{self, Spread};
use kollide_bench::oracle2::{self, Oracle2};
use kollide_bench::oracle3::{self, Oracle3};
use kollide_bench::scene::{Scene2, Scene3};
use kollide_bench::spec2::{PolygonSpec, RectSpec, Spec2};
use kollide_bench::spec3::{CuboidSpec, HullSpec, Spec3};

const PAIRS: usize = 1500;

/// Worst absolute depth errors against the oracle.
#[derive(Debug, Default)]
struct Worst {
    overlapping: usize,
    kollide32: f64,
    kollide64: f64,
    parry: f64,
    parry_pair: usize,
}

impl Worst {
    fn record(&mut self, i: usize, truth: f64, k32: Option<f64>, k64: Option<f64>, parry: Option<f64>) {
        self.overlapping += 1;
        let err = |d: Option<f64>| d.map_or(truth, |d| (d - truth).abs());
        self.kollide32 = self.kollide32.max(err(k32));
        self.kollide64 = self.kollide64.max(err(k64));
        if err(parry) > self.parry {
            self.parry = err(parry);
            self.parry_pair = i;
        }
    }

    fn check(&self, name: &str) {
        eprintln!(
            "{name}: {} overlapping pairs; worst depth error: kollide f32 {:.2e}, kollide f64 {:.2e}, parry f32 {:.2e} (pair {})",
            self.overlapping, self.kollide32, self.kollide64, self.parry, self.parry_pair
        );
        assert!(self.overlapping > PAIRS / 4, "{name}: too few overlapping pairs");
        // Sizes about 1, coordinates up to about 7: f32 rounding is a few 1e-7.
        assert!(self.kollide32 <= 2e-5, "{name}: kollide f32 depth error {:.2e}", self.kollide32);
        assert!(self.kollide64 <= 1e-10, "{name}: kollide f64 depth error {:.2e}", self.kollide64);
    }
}

/// One body for 2D and 3D: `$scene`, `$spec`, `$oracle` (module), `$shape` (its polytope
/// variant) and `$parry` name the dimension's types.
macro_rules! depth_case {
    ($fn_name:ident, $scene:ident, $spec:ident, $oracle:ident, $shape:path, $parry:ident, $spread:expr) => {
        fn $fn_name<A: $spec, B: $spec>(name: &str, seed: u64, a: Vec<A>, b: Vec<B>) {
            let mut rng = gen::rng(seed);
            let scene = $scene::new(&mut rng, PAIRS, a, b, Spread::around($spread));
            let mut worst = Worst::default();
            for (i, pair) in scene.pairs.iter().enumerate() {
                let (sa, sb) = (&scene.shapes_a[pair.ia], &scene.shapes_b[pair.ib]);
                let [(ta, ra), (tb, rb)] = pair.f64_parts();
                let (Some($shape(oa)), Some($shape(ob))) =
                    (sa.oracle().map(|o| o.placed(ta, ra)), sb.oracle().map(|o| o.placed(tb, rb)))
                else {
                    panic!("{name}: not polytopes")
                };
                let truth = $oracle::penetration(&oa, &ob);
                if truth <= 1e-4 {
                    continue;
                }
                let [ka, kb] = pair.kollide();
                let k32 = kollide::query::contact(&sa.kollide(), &ka, &sb.kollide(), &kb, 0.0, None)
                    .map(|c| -f64::from(c.distance));
                let [da, db] = pair.kollide64();
                let k64 = kollide::query::contact(&sa.kollide64(), &da, &sb.kollide64(), &db, 0.0, None)
                    .map(|c| -c.distance);
                let [pa, pb] = pair.parry();
                let p = $parry::query::contact(&pa, &sa.parry(), &pb, &sb.parry(), 0.0)
                    .expect("parry supports the pair")
                    .map(|c| -f64::from(c.dist));
                worst.record(i, truth, k32, k64, p);
            }
            worst.check(name);
        }
    };
}

depth_case!(polytopes3, Scene3, Spec3, oracle3, Oracle3::Polytope, parry3d, 0.9);
depth_case!(polygons2, Scene2, Spec2, oracle2, Oracle2::Polygon, parry2d, 0.95);

#[test]
fn cuboid_cuboid_depths() {
    let mut r = gen::rng(901);
    let pool = |r: &mut _| (0..32).map(|_| CuboidSpec::random(r)).collect::<Vec<_>>();
    let (a, b) = (pool(&mut r), pool(&mut r));
    polytopes3("cuboid-cuboid", 902, a, b);
}

#[test]
fn hull_hull_depths() {
    let mut r = gen::rng(903);
    let pool = |r: &mut _| (0..12).map(|_| HullSpec::random(r, 12)).collect::<Vec<_>>();
    let (a, b) = (pool(&mut r), pool(&mut r));
    polytopes3("hull12", 904, a, b);
}

#[test]
fn cuboid_hull_depths() {
    let mut r = gen::rng(905);
    let a = (0..16).map(|_| CuboidSpec::random(&mut r)).collect::<Vec<_>>();
    let b = (0..12).map(|_| HullSpec::random(&mut r, 12)).collect::<Vec<_>>();
    polytopes3("cuboid-hull12", 906, a, b);
}

#[test]
fn polygon_depths() {
    let mut r = gen::rng(907);
    let a = (0..16).map(|_| PolygonSpec::random(&mut r, 8)).collect::<Vec<_>>();
    let b = (0..16).map(|_| PolygonSpec::random(&mut r, 8)).collect::<Vec<_>>();
    polygons2("poly8", 908, a, b);
    let a = (0..16).map(|_| RectSpec::random(&mut r)).collect::<Vec<_>>();
    let b = (0..16).map(|_| PolygonSpec::random(&mut r, 8)).collect::<Vec<_>>();
    polygons2("rect-poly8", 909, a, b);
    let a = (0..16).map(|_| PolygonSpec::random(&mut r, 64)).collect::<Vec<_>>();
    let b = (0..16).map(|_| PolygonSpec::random(&mut r, 64)).collect::<Vec<_>>();
    polygons2("poly64", 910, a, b);
}
