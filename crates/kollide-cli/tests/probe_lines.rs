//! The outside probe's reproducer lines (copied from `shared/probe/` into `tests/data/probe/`)
//! through `kollide query`, in f64 and f32: each gives the right answer or a clear error.
//! The truths come from the probe's findings (closed forms and independent computations),
//! restated beside each check.

mod common;

use common::{kollide, num, Run};
use serde_json::Value;

fn run(file: &str, f32: bool) -> Run {
    let text =
        std::fs::read_to_string(format!("{}/tests/data/probe/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let args: &[&str] = if f32 { &["query", "--f32"] } else { &["query"] };
    let r = kollide(args, &text);
    assert!(r.code == 0 || r.code == 1, "{file}: exit {} {}", r.code, r.stderr);
    r
}

/// An error that says why: no finite answer could be given.
fn no_finite_answer(l: &Value) -> bool {
    l["error"].as_str().is_some_and(|e| e.contains("no finite answer"))
}

/// F1: unit shapes 1e20 apart (true distance 1e20 - 2), a ball of radius 1e30 holding a
/// unit ball (overlap ~1e30).
#[test]
fn overflow_lines() {
    for f32 in [false, true] {
        let r = run("overflow_f32.jsonl", f32);
        let l = &r.lines;
        assert!((num(&l[0], "distance") - 1e20).abs() < 1e14, "{}", l[0]);
        assert!(no_finite_answer(&l[1]) || (num(&l[1], "distance") - 1e20).abs() < 1e14, "{}", l[1]);
        assert_eq!(l[2]["intersects"], false, "{}", l[2]);
        assert!(no_finite_answer(&l[3]) || l[3]["intersects"] == false, "{}", l[3]);
        assert_eq!(l[4]["contact"], false, "{}", l[4]);
        assert_eq!(l[5]["points"].as_array().map(Vec::len), Some(0), "{}", l[5]);
        assert_eq!(l[6]["contact"], true, "{}", l[6]);
        assert!((num(&l[6], "distance") + 1e30).abs() < 1e24, "{}", l[6]);
        assert_eq!(l[7]["intersects"], true, "{}", l[7]);
    }
}

/// F3, F4: centres 1e-22 apart give a unit normal and depth 1; a vanishing capsule in a
/// rectangle a finite manifold at the depth of its centre below the top (2.4200439...).
#[test]
fn tiny_lines() {
    for f32 in [false, true] {
        let r = run("tiny.jsonl", f32);
        let l = &r.lines;
        for p in l[0]["points"].as_array().unwrap() {
            assert!((num(p, "distance") + 2.4200439453125).abs() < 1e-6, "{p}");
        }
        for c in &l[1..3] {
            let n: Vec<f64> = c["normal"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
            assert!((n.iter().map(|x| x * x).sum::<f64>().sqrt() - 1.0).abs() < 1e-7, "{c}");
            assert!((num(c, "distance") + 1.0).abs() < 1e-7, "{c}");
        }
    }
}

/// F5: segments ~1e10 long; the same answer in both orders. Truth for the decimal input
/// (f64): 643884683.6548202 (the probe's independent minimisation); f32 rounds the input,
/// moving it by ~30 (f32 spacing at 1e9 is 64).
#[test]
fn long_segment_lines() {
    for (f32, tol) in [(false, 1e-4), (true, 200.0)] {
        let r = run("segment_f32_overflow.jsonl", f32);
        for l in &r.lines {
            assert!((num(l, "distance") - 643884683.6548202).abs() < tol, "{l}");
        }
    }
}

/// F9: a triangle with a far vertex 1.367e8 (resp. 12.298 for the f32-sized line) from a
/// unit cube: never overlapping, never a contact.
#[test]
fn mixed_scale_lines() {
    for f32 in [false, true] {
        let r = run("mixed_scale.jsonl", f32);
        let l = &r.lines;
        assert!(no_finite_answer(&l[1]) || (num(&l[1], "distance") - 1.3672371e8).abs() < 10.0, "{}", l[1]);
        assert!(no_finite_answer(&l[2]) || l[2]["contact"] == false, "{}", l[2]);
        assert!((num(&l[3], "distance") - 12.298373874).abs() < 1e-4, "{}", l[3]);
        assert_ne!(l[3]["status"], "overlapping");
        assert_eq!(l[4]["intersects"], false, "{}", l[4]);
    }
}

/// F6: a capsule 2e4 long 0.334 from a short one, and (line 5, 2D) a circle 0.9 above a
/// segment 2e6 long: no contact at margin 0. (Line 4 is the f64 case with a 2e12-long
/// capsule: beyond what f32 coordinates resolve, so it is checked in f64 only.)
#[test]
fn long_capsule_lines() {
    for f32 in [false, true] {
        let r = run("capsule_contact.jsonl", f32);
        let l = &r.lines;
        assert_eq!(l[0]["contact"], false, "{}", l[0]);
        assert!((num(&l[1], "distance") - 0.33398045701638684).abs() < 1e-5, "{}", l[1]);
        assert_eq!(l[2]["points"].as_array().map(Vec::len), Some(0), "{}", l[2]);
        if !f32 {
            assert_eq!(l[3]["contact"], false, "{}", l[3]);
        }
        assert_eq!(l[4]["contact"], false, "{}", l[4]);
    }
}
