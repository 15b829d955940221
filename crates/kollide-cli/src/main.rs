//! `kollide`: collision queries from the command line.
//!
//! `kollide query [FILE] [--f32]` reads JSON lines (one query each) and writes one JSON line
//! per query; `kollide move` runs a character through a scene; `kollide demo` runs the
//! demo world (and `kollide demo --queries` the shipped example queries). The format is described in this
//! crate's README.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use kollide::composite::{MeshFileErrorKind, Weld};
use kollide_cli::run::RunError;
use kollide_cli::session::folder_of;
use kollide_cli::{demo, mesh_info, move_scene, picture, run, viz, Precision, Scope, Session};
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::PathBuf;
use std::process::ExitCode;

/// Collision queries between convex shapes, as JSON lines.
#[derive(Debug, Parser)]
#[command(name = "kollide", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Answer queries: one JSON object per input line, one JSON line per answer.
    ///
    /// Exit code: 0 when every line was answered, 1 when some line was malformed (its
    /// answer is {"line": n, "error": "..."}; the other lines are still answered), 2 when
    /// the input cannot be read.
    ///
    /// A line {"define": NAME, "shape": SHAPE} builds a shape once (a mesh from a file, say);
    /// later lines use it as {"ref": NAME}. Relative paths are from the query file's folder
    /// (the working directory for standard input).
    Query {
        /// The file of queries; `-` or nothing reads standard input.
        file: Option<PathBuf>,
        /// Compute in f32 (Vec2/Vec3) instead of f64 (DVec2/DVec3).
        #[arg(long)]
        f32: bool,
    },
    /// A mesh file's diagnostics as one JSON object: triangles, vertices, welded and
    /// duplicate vertices, zero-area and sliver triangles, boundary, non-manifold and
    /// misoriented edges, whether it is closed and consistently oriented, its box, its memory.
    ///
    /// Exit code: 0 when the mesh was read, 1 when the file is not a valid mesh (the error,
    /// naming the line or element, goes to standard error), 2 when it cannot be read.
    MeshInfo {
        /// The mesh: .obj, .stl, .ply, .gltf or .glb.
        file: PathBuf,
        /// Which vertices to merge: "exact" (at the same position; the default), "none", or
        /// a distance (merge within it).
        #[arg(long, default_value = "exact", value_parser = parse_weld)]
        weld: Weld,
        /// Build the mesh in f32 instead of f64.
        #[arg(long)]
        f32: bool,
    },
    /// Move a character through a scene: one JSON line per step.
    ///
    /// Exit code: 0 when every step was made, 1 when the scene is malformed (the error,
    /// naming its JSON path, goes to standard error) or a step failed, 2 when the file
    /// cannot be read.
    Move {
        /// The scene file (JSON); `-` reads standard input.
        scene: PathBuf,
    },
    /// Draw one query line as an SVG picture: the shapes at their poses, the answer of
    /// `kollide query` (closest points, normal, contact points with ids, ray hit, cast or
    /// sweep with the time of impact) and a title with the status; `--steps` adds the
    /// iterations (separating axes, GJK, EPA) as a strip of panels.
    ///
    /// Exit code: 0 when the picture was written, 1 when the line is missing or malformed
    /// (the error names it), 2 when a file cannot be read or written.
    Picture {
        /// The query file (JSON lines, as `kollide query` reads).
        file: PathBuf,
        /// Where the SVG goes.
        #[arg(long)]
        out: PathBuf,
        /// Which line to draw, counting from 1 (default: the first non-blank line).
        #[arg(long)]
        line: Option<usize>,
        /// Add a panel per iteration: each separating axis tried, GJK's and EPA's steps (for
        /// two convex bodies).
        #[arg(long)]
        steps: bool,
    },
    /// Write a self-contained HTML page with a 3D view to orbit and zoom, and a slider: the
    /// bodies and answers of a query file (a frame per line), one line's GJK and EPA
    /// iterations (--steps), or the run of a `kollide move` scene (a frame per step).
    ///
    /// Exit code: 0 when the page was written, 1 when the input is malformed (the error
    /// names the line or field), 2 when a file cannot be read or written.
    Viz {
        /// A query file (JSON lines, as `kollide query` reads), or a scene of `kollide move`
        /// (a file ending in `.json`).
        input: PathBuf,
        /// Where the HTML page goes.
        #[arg(long)]
        out: PathBuf,
        /// Only this line of a query file, counting from 1 (with --steps: the line whose
        /// iterations are shown; default the first). For a scene: only this step's casts.
        #[arg(long)]
        line: Option<usize>,
        /// Show one query line's iterations instead (SAT, GJK, EPA, a cast's advancements, a
        /// sweep's tests); for a scene, each cast of the mover (every step's, or --line's).
        #[arg(long)]
        steps: bool,
    },
    /// The demo world: a ball and an ellipsoid walked by the mover over a terrain from the
    /// shipped heightmap, among houses, a bridge and trees; prints a summary and writes
    /// pictures (demo-top.svg, demo-profile-ball.svg, demo-profile-ellipsoid.svg).
    Demo {
        /// Where the pictures go.
        #[arg(long, default_value = ".")]
        out: PathBuf,
        /// Instead: run the example queries shipped with kollide, each with its answer.
        #[arg(long)]
        queries: bool,
        /// With --queries: compute in f32 instead of f64.
        #[arg(long)]
        f32: bool,
        /// Also write the walks as a viewer page (as `kollide viz` makes) to this file.
        #[arg(long)]
        viz: Option<PathBuf>,
    },
}

/// The precision the `--f32` flag asks for.
fn precision(f32: bool) -> Precision {
    if f32 {
        Precision::F32
    } else {
        Precision::F64
    }
}

/// `--weld`: `exact`, `none` or a tolerance `>= 0`.
fn parse_weld(s: &str) -> Result<Weld, String> {
    match s {
        "exact" => Ok(Weld::Exact),
        "none" => Ok(Weld::None),
        _ => match s.parse::<f64>() {
            Ok(t) if t.is_finite() && t >= 0.0 => Ok(Weld::Within(t)),
            _ => Err(format!("expected exact, none or a distance >= 0, got {s}")),
        },
    }
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Query { file, f32 } => query(file, precision(f32)),
        Command::MeshInfo { file, weld, f32 } => match mesh_info::mesh_info(&file, weld, precision(f32)) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("kollide: {e}");
                ExitCode::from(if e.kind == MeshFileErrorKind::Io { 2 } else { 1 })
            }
        },
        Command::Move { scene } => move_run(&scene),
        Command::Picture { file, out, line, steps } => picture_run(&file, &out, line, steps),
        Command::Demo { queries: true, f32, .. } => {
            match demo::demo(&mut io::stdout().lock(), precision(f32)) {
                Ok(0) => ExitCode::SUCCESS,
                Ok(_) => ExitCode::from(1),
                Err(e) => write_failed(&e),
            }
        }
        Command::Viz { input, out, line, steps } => viz_run(&input, &out, line, steps),
        Command::Demo { out, viz, .. } => match demo::world(&mut io::stdout().lock(), &out, viz.as_deref()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => write_failed(&e),
        },
    }
}

/// `kollide query`: answers the file (or stdin) on stdout; returns the exit code.
fn query(file: Option<PathBuf>, precision: Precision) -> ExitCode {
    let (input, name, folder): (Box<dyn Read>, String, PathBuf) = match file {
        Some(path) if path.as_os_str() != "-" => match File::open(&path) {
            Ok(f) => (Box::new(f), path.display().to_string(), folder_of(&path)),
            Err(e) => {
                eprintln!("kollide: cannot read {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        _ => (Box::new(io::stdin().lock()), "standard input".to_string(), PathBuf::new()),
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut session = Session::new(precision, folder);
    match run::run(&mut BufReader::new(input), &mut out, &mut session) {
        Ok(s) if s.failed == 0 => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(RunError::Read(e)) => {
            eprintln!("kollide: cannot read {name}: {e}");
            ExitCode::from(2)
        }
        Err(RunError::Write(e)) => write_failed(&e),
    }
}

/// `kollide move`: runs the scene's steps on stdout; returns the exit code.
fn move_run(path: &std::path::Path) -> ExitCode {
    let mut text = String::new();
    let read = if path.as_os_str() == "-" {
        io::stdin().lock().read_to_string(&mut text)
    } else {
        File::open(path).and_then(|mut f| f.read_to_string(&mut text))
    };
    if let Err(e) = read {
        eprintln!("kollide: cannot read {}: {e}", path.display());
        return ExitCode::from(2);
    }
    let folder = if path.as_os_str() == "-" { PathBuf::new() } else { folder_of(path) };
    let scene = match move_scene::read_in(&text, &Scope::in_folder(folder)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("kollide: {}: {e}", path.display());
            return ExitCode::from(1);
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    match scene.run(&mut out) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) => write_failed(&e),
    }
}

/// `kollide picture`: draws the line of `file` into `out`; returns the exit code.
fn picture_run(file: &std::path::Path, out: &std::path::Path, line: Option<usize>, steps: bool) -> ExitCode {
    let folder = folder_of(file);
    file_to_file(file, out, |text| {
        picture::picture_in(&text, &folder, line, steps).map_err(|e| e.to_string())
    })
}

/// `kollide viz`: writes the page of `input` into `out`; returns the exit code.
fn viz_run(input: &std::path::Path, out: &std::path::Path, line: Option<usize>, steps: bool) -> ExitCode {
    let scene = input.extension().is_some_and(|e| e == "json");
    let folder = folder_of(input);
    file_to_file(input, out, |bytes| {
        let page = if scene {
            String::from_utf8(bytes)
                .map_err(|e| viz::VizError(format!("not valid UTF-8: {e}")))
                .and_then(|text| viz::move_run_in(&text, &folder, line, steps))
        } else {
            viz::queries_in(&bytes, &folder, line, steps)
        };
        page.map_err(|e| e.to_string())
    })
}

/// Reads `input`, makes the output with `make` and writes it to `out`. Exit code: 2 when a
/// file cannot be read or written, 1 when `make` refuses the input (its message follows the
/// file's name), 0 when written.
fn file_to_file(
    input: &std::path::Path,
    out: &std::path::Path,
    make: impl FnOnce(Vec<u8>) -> Result<String, String>,
) -> ExitCode {
    let bytes = match std::fs::read(input) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("kollide: cannot read {}: {e}", input.display());
            return ExitCode::from(2);
        }
    };
    let text = match make(bytes) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("kollide: {}: {e}", input.display());
            return ExitCode::from(1);
        }
    };
    if let Err(e) = std::fs::write(out, text) {
        eprintln!("kollide: cannot write {}: {e}", out.display());
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}

/// A closed pipe (`kollide query big.jsonl | head`) ends the run quietly; other write
/// errors are reported.
fn write_failed(e: &io::Error) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    eprintln!("kollide: cannot write the output: {e}");
    ExitCode::from(2)
}
