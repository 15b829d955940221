//! One query line as a frame of the viewer: its bodies as meshes, and the answer of
//! `kollide query` marked in world coordinates (closest points and normal, contact points
//! with their ids, the ray and its hit, a cast's bodies at the time of impact and their
//! paths, a sweep's path, stop and the triangle hit). The frame's caption is the answer in
//! the words of `kollide picture`'s title.

use super::scene::{Frame, Item, Paint, Scene};
use super::tessellate::Solid;
use crate::cast_answer::{motion, non_negative};
use crate::json::{Obj, Result};
use crate::picture::Answered;
use crate::session::Scope;
use crate::space::{body, Body};
use kollide::math::{DVec3, Pose};
use serde_json::Value;

/// What a frame holds while it is built: its items and the box around them.
struct Marks<'s> {
    scene: &'s mut Scene,
    items: Vec<Item>,
    lo: DVec3,
    hi: DVec3,
}

impl Marks<'_> {
    fn grow(&mut self, p: DVec3) {
        if p.is_finite() {
            self.lo = self.lo.min(p);
            self.hi = self.hi.max(p);
        }
    }

    fn body<V: Solid>(&mut self, b: &Body<V>, pose: &Pose<V>, paint: Paint, ghost: bool) {
        let mesh = V::mesh(&b.shape, pose);
        mesh.positions.iter().for_each(|p| self.grow(*p));
        let mesh = self.scene.add_mesh(mesh);
        self.items.push(Item::Mesh { mesh, at: DVec3::ZERO, paint, ghost });
    }

    fn point<V: Solid>(&mut self, p: V, label: &str) {
        self.items.push(Item::Point { at: V::lift(p), label: label.into(), paint: Paint::Answer });
    }

    fn line<V: Solid>(&mut self, points: &[V], paint: Paint, dashed: bool) {
        let points: Vec<DVec3> = points.iter().map(|p| V::lift(*p)).collect();
        points.iter().for_each(|p| self.grow(*p));
        self.items.push(Item::Line { points, paint, dashed });
    }

    /// An arrow along the unit `dir`, a sixth of the frame's size long.
    fn arrow<V: Solid>(&mut self, from: V, dir: V, label: &str) {
        let size = (self.hi - self.lo).max_element();
        let len = if size.is_finite() && size > 0.0 { size / 6.0 } else { 1.0 };
        let (from, dir) = (V::lift(from), V::lift(dir));
        self.items.push(Item::Arrow {
            from,
            to: from + dir * len,
            label: label.into(),
            paint: Paint::Answer,
        });
    }
}

fn field<V: Solid>(answer: &Value, key: &str) -> Option<V> {
    let c: Vec<f64> = answer.get(key)?.as_array()?.iter().map(Value::as_f64).collect::<Option<_>>()?;
    V::from_coords(&c)
}

fn num(answer: &Value, key: &str) -> Option<f64> {
    answer.get(key).and_then(Value::as_f64)
}

fn text<'a>(answer: &'a Value, key: &str) -> &'a str {
    answer.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The frame of an answered query line; its meshes go into `scene`.
pub(super) fn frame<V: Solid>(n: usize, line: &Answered, scene: &mut Scene) -> Result<Frame> {
    let top = line.top()?;
    let answer = &line.answer;
    let mut m = Marks { scene, items: Vec::new(), lo: DVec3::INFINITY, hi: DVec3::NEG_INFINITY };
    let scope = &line.scope;
    match line.query.as_str() {
        "ray" => ray::<V>(scope, &top, answer, &mut m)?,
        "cast" => cast::<V>(scope, &top, answer, &mut m)?,
        "sweep" => sweep::<V>(scope, &top, answer, &mut m)?,
        _ => {
            let (a, b) = (body::<V>(scope, top.get("a")?, "a")?, body::<V>(scope, top.get("b")?, "b")?);
            m.body(&a, &a.pose, Paint::BodyA, false);
            m.body(&b, &b.pose, Paint::BodyB, false);
            pair::<V>(answer, &mut m);
        }
    }
    Ok(Frame { label: format!("line {n}, {}: {}", line.query, line.summary()), items: m.items })
}

/// Closest points (distance), contact points (contact) or the manifold's points with their
/// ids, and the normal.
fn pair<V: Solid>(answer: &Value, m: &mut Marks) {
    let (pa, pb, n) =
        (field::<V>(answer, "point_a"), field::<V>(answer, "point_b"), field::<V>(answer, "normal"));
    if let Some(points) = answer.get("points").and_then(Value::as_array) {
        let mut centre = DVec3::ZERO;
        for (i, p) in points.iter().enumerate() {
            let id: Vec<&str> = p
                .get("id")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(a) = field::<V>(p, "point_a") {
                m.point(a, &format!("{}: {}", i + 1, id.join(" / ")));
                centre += V::lift(a);
            }
            if let Some(b) = field::<V>(p, "point_b") {
                m.point(b, "");
            }
        }
        if let (Some(n), false) = (n, points.is_empty()) {
            let centre = centre / points.len() as f64;
            let size = (m.hi - m.lo).max_element().max(1e-300) / 6.0;
            let to = centre + V::lift(n) * size;
            m.items.push(Item::Arrow { from: centre, to, label: "normal".into(), paint: Paint::Answer });
        }
        return;
    }
    if let (Some(pa), Some(pb), Some(n)) = (pa, pb, n) {
        m.line(&[pa, pb], Paint::Answer, false);
        m.point(pa, "point_a");
        m.point(pb, "point_b");
        m.arrow(pa, n, "normal");
    }
}

fn ray<V: Solid>(scope: &Scope, top: &Obj, answer: &Value, m: &mut Marks) -> Result<()> {
    let b = body::<V>(scope, top.get("b")?, "b")?;
    m.body(&b, &b.pose, Paint::BodyB, false);
    let origin: V = top.vec("origin")?;
    let direction: V = top.vec("direction")?;
    m.grow(V::lift(origin));
    let max_toi = non_negative(top, "max_toi", f64::INFINITY)?;
    let scene = (m.hi - m.lo).max_element();
    let end = match text(answer, "status") {
        "hit" => num(answer, "toi"),
        "inside" => num(answer, "exit_toi"),
        _ => None,
    }
    .unwrap_or(max_toi.min(1.5 * scene / direction.length()));
    m.line(&[origin, origin + direction * end], Paint::Answer, false);
    m.point(origin, "origin");
    for (p, n, what) in [("point", "normal", "hit"), ("exit_point", "exit_normal", "exit")] {
        if let (Some(p), Some(n)) = (field::<V>(answer, p), field::<V>(answer, n)) {
            m.point(p, what);
            m.arrow(p, n, n_label(what));
        }
    }
    Ok(())
}

fn n_label(what: &str) -> &'static str {
    if what == "exit" {
        "exit normal"
    } else {
        "normal"
    }
}

fn cast<V: Solid>(scope: &Scope, top: &Obj, answer: &Value, m: &mut Marks) -> Result<()> {
    let (a, b) = (body::<V>(scope, top.get("a")?, "a")?, body::<V>(scope, top.get("b")?, "b")?);
    let (ma, mb) = (motion::<V>(top, "a")?, motion::<V>(top, "b")?);
    let max_toi = non_negative(top, "max_toi", 1.0)?;
    m.body(&a, &a.pose, Paint::BodyA, false);
    m.body(&b, &b.pose, Paint::BodyB, false);
    for (pose, motion) in [(&a.pose, &ma), (&b.pose, &mb)] {
        let path: Vec<V> =
            (0..=32).map(|k| motion.pose_at(pose, max_toi * f64::from(k) / 32.0).translation).collect();
        m.line(&path, Paint::Path, true);
    }
    let at = match text(answer, "status") {
        "hit" => num(answer, "toi"),
        "failed" => num(answer, "safe_toi"),
        _ => None,
    };
    if let Some(t) = at {
        for (body, motion, paint) in [(&a, &ma, Paint::BodyA), (&b, &mb, Paint::BodyB)] {
            let moved = motion.pose_at(&body.pose, t);
            if moved != body.pose {
                m.body(body, &moved, paint, true);
            }
        }
    }
    if let (Some(pa), Some(pb), Some(n)) =
        (field::<V>(answer, "point_a"), field::<V>(answer, "point_b"), field::<V>(answer, "normal"))
    {
        m.point(pa, "point_a");
        m.point(pb, "point_b");
        m.arrow(pa, n, "normal");
    }
    Ok(())
}

fn sweep<V: Solid>(scope: &Scope, top: &Obj, answer: &Value, m: &mut Marks) -> Result<()> {
    let mover = body::<V>(scope, top.get("mover")?, "mover")?;
    let displacement: V = top.vec("displacement")?;
    let hit_item = answer.get(V::SOUP_ITEM).and_then(Value::as_u64).map(|i| i as usize);
    match top.opt("b") {
        Some(b) => {
            let b = body::<V>(scope, b, "b")?;
            m.body(&b, &b.pose, Paint::BodyB, false);
        }
        None => {
            let items = crate::space::soup_items::<V>(top)?;
            let (hit, rest): (Vec<_>, Vec<_>) =
                items.into_iter().enumerate().partition(|(i, _)| Some(*i) == hit_item);
            for (list, paint) in [(rest, Paint::Ground), (hit, Paint::Hit)] {
                let list: Vec<Vec<V>> = list.into_iter().map(|(_, item)| item).collect();
                let mesh = V::soup_mesh(&list);
                mesh.positions.iter().for_each(|p| m.grow(*p));
                let mesh = m.scene.add_mesh(mesh);
                m.items.push(Item::Mesh { mesh, at: DVec3::ZERO, paint, ghost: false });
            }
        }
    }
    m.body(&mover, &mover.pose, Paint::BodyA, false);
    let start = mover.pose.translation;
    m.line(&[start, start + displacement], Paint::Path, true);
    let stop = match text(answer, "status") {
        "hit" => num(answer, "toi"),
        "started_within" => None,
        _ => Some(1.0),
    };
    if let Some(t) = stop {
        m.body(&mover, &Pose::new(start + displacement * t, mover.pose.rotation), Paint::BodyA, true);
    }
    if let (Some(p), Some(n)) = (field::<V>(answer, "point"), field::<V>(answer, "normal")) {
        m.point(p, &format!("{} hit", text(answer, "feature")));
        m.arrow(p, n, "slide plane normal");
    }
    Ok(())
}
