//! The measurement of record for meshes kept across lines: a 270,000-triangle rock (the
//! example generator's, n = 150) written as OBJ, defined once, and 20,000 rays at it, one
//! ray per line and as one batch line, through the release binary. Ignored in the default
//! run (it writes 20 MB of files and takes about ten seconds with the checks); run it with
//!
//! ```sh
//! cargo test --release -p kollide-cli --test big_mesh -- --ignored --nocapture
//! ```
//!
//! It prints each run's time and peak memory (from `/usr/bin/time -v` where present), and
//! checks: both runs under 3 s including the load; every ray aimed inside the closed rock
//! hits and every other misses; the batch's answers are the per-line answers; on a sample,
//! the mesh given in full on each line answers the same.

#[path = "../../kollide/examples/make_rock.rs"]
#[allow(dead_code)]
mod make_rock;
#[path = "../../kollide/examples/mesh_rays.rs"]
#[allow(dead_code)]
mod mesh_rays;

use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

const RAYS: usize = 20_000;

/// Runs `kollide query FILE` (under `/usr/bin/time -v` when it exists): the answers, the
/// seconds, and the peak resident memory in MB when known.
fn query(file: &Path) -> (Vec<Value>, f64, Option<f64>) {
    let exe = env!("CARGO_BIN_EXE_kollide");
    let timed = Path::new("/usr/bin/time").exists();
    let mut command = if timed {
        let mut c = Command::new("/usr/bin/time");
        c.args(["-v", exe]);
        c
    } else {
        Command::new(exe)
    };
    command.arg("query").arg(file).stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let out = command.output().expect("run kollide");
    let seconds = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let peak = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes): "))
        .and_then(|kb| kb.trim().parse::<f64>().ok())
        .map(|kb| kb / 1024.0);
    let answers =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (answers, seconds, peak)
}

fn unlined(v: &Value) -> Value {
    let mut v = v.clone();
    v.as_object_mut().unwrap().remove("line");
    v
}

#[test]
#[ignore = "a measurement: cargo test --release -p kollide-cli --test big_mesh -- --ignored --nocapture"]
fn a_big_mesh_defined_once_answers_20000_rays_in_under_3_s() {
    let dir = std::env::temp_dir().join(format!("kollide-big-mesh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (vertices, triangles) = make_rock::rock(150);
    let text = make_rock::obj_text(&vertices, &triangles);
    std::fs::write(dir.join("rock.obj"), &text).unwrap();
    println!(
        "mesh: {} triangles, {} vertices written, {:.1} MB of OBJ",
        triangles.len(),
        vertices.len(),
        text.len() as f64 / 1e6
    );

    let rays: Vec<(Vec<f64>, Vec<f64>)> = (0..RAYS)
        .map(|k| {
            let r = mesh_rays::ray(k, RAYS);
            (r.origin().to_array().to_vec(), r.direction().to_array().to_vec())
        })
        .collect();
    let b = json!({"shape": {"ref": "rock"}, "translation": [0, 0, 0]});
    let define = json!({"define": "rock", "shape": {"type": "trimesh", "file": "rock.obj"}});
    let mut per_line = format!("{define}\n");
    for (o, d) in &rays {
        per_line += &format!("{}\n", json!({"query": "ray", "origin": o, "direction": d, "b": b}));
    }
    std::fs::write(dir.join("per_line.jsonl"), &per_line).unwrap();
    let (origins, directions): (Vec<_>, Vec<_>) = rays.iter().cloned().unzip();
    let batch = json!({"query": "ray", "origins": origins, "directions": directions, "b": b});
    std::fs::write(dir.join("batch.jsonl"), format!("{define}\n{batch}\n")).unwrap();

    let (lines, t_lines, m_lines) = query(&dir.join("per_line.jsonl"));
    let (batched, t_batch, m_batch) = query(&dir.join("batch.jsonl"));
    let mb = |m: Option<f64>| m.map_or("unknown".to_string(), |m| format!("{m:.0} MB"));
    println!("{RAYS} rays, one a line: {t_lines:.2} s, peak memory {}", mb(m_lines));
    println!("{RAYS} rays, one batch line: {t_batch:.2} s, peak memory {}", mb(m_batch));
    println!("define: {}", lines[0]);

    // Every ray aimed inside the closed rock hits it; every one aimed away misses.
    let answers = &lines[1..];
    assert_eq!(answers.len(), RAYS);
    for (k, a) in answers.iter().enumerate() {
        assert_eq!(a["status"], if k % 2 == 0 { "hit" } else { "miss" }, "ray {k}: {a}");
    }
    let items = batched[1]["answers"].as_array().unwrap();
    assert_eq!(items.len(), RAYS);
    for (k, (one, item)) in answers.iter().zip(items).enumerate() {
        assert_eq!(&unlined(one), item, "ray {k}");
    }

    // The mesh given in full on each line (as before `define`), on a sample of rays.
    let written: Vec<[f64; 3]> = text
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let x: Vec<f64> = l.split(' ').map(|w| w.parse().unwrap()).collect();
            [x[0], x[1], x[2]]
        })
        .collect();
    let full = json!({"type": "trimesh", "vertices": written, "indices": triangles, "weld": "exact"});
    let sample = [0, 1, 2, 3, 4, 5, 1234, 9999, 15000, RAYS - 1];
    let mut inline = String::new();
    for &k in &sample {
        let (o, d) = &rays[k];
        inline += &format!(
            "{}\n",
            json!({"query": "ray", "origin": o, "direction": d, "b": {"shape": full, "translation": [0, 0, 0]}})
        );
    }
    std::fs::write(dir.join("inline.jsonl"), &inline).unwrap();
    let (in_full, t_full, _) = query(&dir.join("inline.jsonl"));
    println!(
        "{} rays with the mesh on each line: {t_full:.2} s ({:.0} MB of JSON)",
        sample.len(),
        inline.len() as f64 / 1e6
    );
    for (i, &k) in sample.iter().enumerate() {
        assert_eq!(unlined(&in_full[i]), unlined(&answers[k]), "ray {k}: mesh in full vs defined once");
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(t_lines < 3.0 && t_batch < 3.0, "{t_lines:.2} s and {t_batch:.2} s: over 3 s");
}
