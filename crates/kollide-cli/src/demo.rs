//! `kollide demo`: the shipped example queries, each shown with its answer.

use crate::answer::{respond, Precision};
use std::io::{self, Write};

/// The example queries (`examples/queries.jsonl` at the repository root), built in so the
/// demo runs from anywhere.
pub const EXAMPLES: &str = include_str!("../../../examples/queries.jsonl");

/// Prints every example query followed by its answer. Returns the number of lines that
/// failed (0 unless the examples file is broken).
///
/// # Errors
/// When stdout cannot be written.
pub fn demo<W: Write>(out: &mut W, precision: Precision) -> io::Result<usize> {
    let scalar = match precision {
        Precision::F32 => "f32",
        Precision::F64 => "f64",
    };
    let count = EXAMPLES.lines().filter(|l| !l.trim().is_empty()).count();
    writeln!(out, "kollide demo: the {count} queries of examples/queries.jsonl, computed in {scalar}.")?;
    writeln!(out, "Each query is shown after `>`, its answer on the next line.")?;
    writeln!(out, "(`kollide query examples/queries.jsonl` prints the answers alone, as JSON lines.)")?;
    let mut failed = 0;
    for (i, text) in EXAMPLES.lines().enumerate() {
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let reply = respond(i + 1, text, precision);
        failed += usize::from(!reply.ok);
        writeln!(out, "\n> {text}\n{}", reply.json)?;
    }
    out.flush()?;
    Ok(failed)
}

/// The world demo: builds the world, walks the ball and the ellipsoid, prints the summary
/// and writes `demo-top.svg`, `demo-profile-ball.svg` and `demo-profile-ellipsoid.svg`
/// into `out_dir`, and the viewer page to `viz` when given.
///
/// # Errors
/// When stdout, a picture or the page cannot be written.
pub fn world<W: Write>(
    out: &mut W,
    out_dir: &std::path::Path,
    viz: Option<&std::path::Path>,
) -> io::Result<()> {
    use crate::demo_svg;
    use kollide_demo as demo_world;
    let dw = demo_world::build();
    let runs = demo_world::run(&dw);
    writeln!(
        out,
        "kollide demo: a ball and an ellipsoid walked by the mover over the shipped heightmap \
         ({} bodies: terrain, three houses, a block, a bridge, five trees), 60 steps a second.",
        dw.world.len()
    )?;
    let up = kollide::math::DVec3::Y;
    for run in &runs {
        writeln!(out, "{}", demo_world::summary(&dw, run, up))?;
    }
    std::fs::create_dir_all(out_dir)?;
    let mut written = Vec::new();
    let mut save = |name: &str, text: String| -> io::Result<()> {
        let path = out_dir.join(name);
        std::fs::write(&path, text)?;
        written.push(path.display().to_string());
        Ok(())
    };
    save("demo-top.svg", demo_svg::top_view(&dw, &runs))?;
    for run in &runs {
        save(&format!("demo-profile-{}.svg", run.name), demo_svg::profile(&dw, run))?;
    }
    writeln!(out, "pictures: {}", written.join(", "))?;
    if let Some(path) = viz {
        std::fs::write(path, crate::viz::demo(&dw, &runs))?;
        writeln!(out, "viewer page: {} (open it in a browser)", path.display())?;
    }
    out.flush()
}
