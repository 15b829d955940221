//! What the viewer page draws, in world coordinates: meshes (stored once), and items that
//! place them or mark the answer, either fixed (every frame) or in one frame of the slider.
//! Written into the page as one JSON object (see [`Scene::to_json`]).

use kollide::math::DVec3;
use serde_json::{json, Value};

/// A triangle mesh with its feature lines (a polytope's edges, a 2D outline), in world
/// coordinates unless an item moves it. A mesh may have lines and no triangles (a polyline).
#[derive(Clone, Debug, Default)]
pub struct Mesh {
    pub positions: Vec<DVec3>,
    pub triangles: Vec<[u32; 3]>,
    pub edges: Vec<[u32; 2]>,
}

impl Mesh {
    /// Appends `other`, renumbering its indices.
    pub fn append(&mut self, other: Mesh) {
        let base = self.positions.len() as u32;
        self.positions.extend(other.positions);
        self.triangles.extend(other.triangles.iter().map(|t| t.map(|i| i + base)));
        self.edges.extend(other.edges.iter().map(|e| e.map(|i| i + base)));
    }

    /// A closed loop of points as edges (no triangles).
    pub fn add_loop(&mut self, points: &[DVec3], closed: bool) {
        let base = self.positions.len() as u32;
        let n = points.len() as u32;
        self.positions.extend_from_slice(points);
        let count = if closed { n } else { n.saturating_sub(1) };
        self.edges.extend((0..count).map(|i| [base + i, base + (i + 1) % n]));
    }
}

/// The colours of the page (the same as the pictures': A blue, B orange, answers red).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paint {
    BodyA,
    BodyB,
    Ground,
    Hit,
    Answer,
    Path,
    Minkowski,
    Simplex,
    Origin,
    Support,
}

impl Paint {
    fn css(self) -> &'static str {
        match self {
            Paint::BodyA => "#4a7bd0",
            Paint::BodyB => "#e08a2c",
            Paint::Ground => "#c9b48f",
            Paint::Hit => "#e04848",
            Paint::Answer => "#b01818",
            Paint::Path => "#555555",
            Paint::Minkowski => "#6fae6f",
            Paint::Simplex => "#1f6f1f",
            Paint::Origin => "#000000",
            Paint::Support => "#d07000",
        }
    }
}

/// Something drawn: a mesh (moved by `at`; `ghost` draws it faint with dashed edges, as at a
/// later time), a
/// polyline (thin, or a thick bar), a labelled point or an arrow.
#[derive(Clone, Debug)]
pub enum Item {
    Mesh {
        mesh: usize,
        at: DVec3,
        paint: Paint,
        ghost: bool,
    },
    Line {
        points: Vec<DVec3>,
        paint: Paint,
        dashed: bool,
    },
    /// A thick polyline (a projection interval).
    Bar {
        points: Vec<DVec3>,
        paint: Paint,
    },
    Point {
        at: DVec3,
        label: String,
        paint: Paint,
    },
    Arrow {
        from: DVec3,
        to: DVec3,
        label: String,
        paint: Paint,
    },
}

/// One position of the slider: what it shows besides the fixed items, and its caption.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    pub label: String,
    pub items: Vec<Item>,
}

/// The whole page's data.
#[derive(Clone, Debug, Default)]
pub struct Scene {
    pub title: String,
    /// What the colours and marks mean.
    pub caption: String,
    /// What the slider steps through ("query line", "step", "iteration").
    pub slider: String,
    /// 2D scenes are drawn in the z = 0 plane, seen from +z at first.
    pub flat: bool,
    /// Each frame is its own scene (a query file's lines): the view fits each one.
    pub refit: bool,
    /// The view fits the frame's own items only, not the fixed ones (a mover's casts,
    /// small beside the world they move through).
    pub focus: bool,
    pub meshes: Vec<Mesh>,
    pub fixed: Vec<Item>,
    pub frames: Vec<Frame>,
}

impl Scene {
    /// Stores a mesh; returns its index for [`Item::Mesh`].
    pub fn add_mesh(&mut self, mesh: Mesh) -> usize {
        self.meshes.push(mesh);
        self.meshes.len() - 1
    }

    /// The page's data as JSON. Mesh coordinates are written to `f32` precision (enough to
    /// draw); the marks of the answer keep every digit, so a reader can check them.
    pub fn to_json(&self) -> String {
        let meshes: Vec<Value> = self
            .meshes
            .iter()
            .map(|m| {
                let v: Vec<f32> =
                    m.positions.iter().flat_map(|p| [p.x, p.y, p.z]).map(|x| x as f32).collect();
                let t: Vec<u32> = m.triangles.iter().flatten().copied().collect();
                let e: Vec<u32> = m.edges.iter().flatten().copied().collect();
                json!({"v": v, "t": t, "e": e})
            })
            .collect();
        let frames: Vec<Value> =
            self.frames.iter().map(|f| json!({"label": f.label, "items": items(&f.items)})).collect();
        json!({
            "title": self.title,
            "caption": self.caption,
            "slider": self.slider,
            "flat": self.flat,
            "refit": self.refit,
            "focus": self.focus,
            "meshes": meshes,
            "fixed": items(&self.fixed),
            "frames": frames,
        })
        .to_string()
    }
}

fn xyz(p: DVec3) -> Value {
    json!([p.x, p.y, p.z])
}

fn items(items: &[Item]) -> Vec<Value> {
    items
        .iter()
        .map(|item| match item {
            Item::Mesh { mesh, at, paint, ghost } => {
                // The ground is opaque; bodies let the marks inside them show; a ghost is faint.
                let alpha = match (ghost, paint) {
                    (true, _) => 0.18,
                    (false, Paint::Ground) => 1.0,
                    (false, Paint::Minkowski | Paint::Simplex) => 0.3,
                    _ => 0.8,
                };
                json!({"mesh": mesh, "at": xyz(*at), "color": paint.css(), "ghost": ghost, "alpha": alpha})
            }
            Item::Line { points, paint, dashed } => json!({
                "line": points.iter().flat_map(|p| [p.x, p.y, p.z]).collect::<Vec<f64>>(),
                "color": paint.css(),
                "dashed": dashed,
            }),
            Item::Bar { points, paint } => json!({
                "line": points.iter().flat_map(|p| [p.x, p.y, p.z]).collect::<Vec<f64>>(),
                "color": paint.css(),
                "width": 5,
            }),
            Item::Point { at, label, paint } => json!({"point": xyz(*at), "label": label, "color": paint.css()}),
            Item::Arrow { from, to, label, paint } => {
                json!({"arrow": [from.x, from.y, from.z, to.x, to.y, to.z], "label": label, "color": paint.css()})
            }
        })
        .collect()
}
