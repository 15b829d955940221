//! Each query's scene and answer as primitives: the bodies, then what `kollide query`
//! answered, read back from its reply so the picture shows exactly that answer.

use super::draw::{Look, Plane};
use super::svg::Prim;
use super::{extent, point, short, steps, Drawing, MAX_STEPS};
use crate::cast_answer::{motion, non_negative};
use crate::json::{Obj, Result};
use crate::session::Scope;
use crate::space::{body, Body};
use kollide::math::Pose;
use serde_json::Value;

const A: Look = Look { body_b: false, later: false };
const B: Look = Look { body_b: true, later: false };
const A_LATER: Look = Look { body_b: false, later: true };

/// The drawing of one query line (already answered without error: `answer`).
pub(super) fn draw<V: Plane>(
    scope: &Scope,
    query: &str,
    top: &Obj,
    answer: &Value,
    want_steps: bool,
) -> Result<Drawing> {
    let mut d = Drawing {
        prims: Vec::new(),
        summary: String::new(),
        legend: String::new(),
        steps: Vec::new(),
        no_steps: None,
    };
    let panels = match query {
        "ray" => {
            ray::<V>(scope, top, answer, &mut d)?;
            Err("--steps: a ray is answered in closed form or by GJK's ray cast, whose iterations are not traced (SAT's, GJK's and EPA's are: intersects, distance, contact, manifold; a cast's advancements and a sweep's tests are)".to_string())
        }
        "cast" => {
            cast::<V>(scope, top, answer, &mut d)?;
            if want_steps {
                steps::cast_panels::<V>(scope, top)
            } else {
                Ok(Vec::new())
            }
        }
        "sweep" => {
            sweep::<V>(scope, top, answer, &mut d)?;
            if want_steps {
                super::sweep_steps::sweep_panels::<V>(scope, top)
            } else {
                Ok(Vec::new())
            }
        }
        _ => {
            let (a, b) = (body::<V>(scope, top.get("a")?, "a")?, body::<V>(scope, top.get("b")?, "b")?);
            V::draw_shape(&a.shape, &a.pose, A, &mut d.prims);
            V::draw_shape(&b.shape, &b.pose, B, &mut d.prims);
            pair::<V>(query, answer, &mut d);
            let margin = top.opt("margin").and_then(Value::as_f64).unwrap_or(0.0);
            if want_steps {
                steps::iterations::<V>(query, &a, &b, margin)
            } else {
                Ok(Vec::new())
            }
        }
    };
    if want_steps {
        match panels {
            Ok(mut s) => {
                // At most MAX_STEPS panels; the last says how many more there were.
                if s.len() > MAX_STEPS {
                    let more = s.len() - MAX_STEPS;
                    s.truncate(MAX_STEPS);
                    if let Some((caption, _)) = s.last_mut() {
                        caption.push_str(&format!(" ({more} more not drawn)"));
                    }
                }
                d.steps = s;
            }
            Err(why) => d.no_steps = Some(why),
        }
    }
    Ok(d)
}

fn dot<V: Plane>(p: V, label: &str) -> Prim {
    Prim::Dot { at: V::plane(p), world: V::coords(p), label: label.to_string(), class: "answer" }
}

/// An arrow from `from` along the unit `dir`, `len` long in the plane's units.
fn arrow<V: Plane>(from: V, dir: V, len: f64, label: &str) -> Prim {
    Prim::Arrow {
        from: V::plane(from),
        to: V::plane(from + dir * len),
        label: label.to_string(),
        class: "answer",
    }
}

fn field<V: Plane>(answer: &Value, key: &str) -> Option<V> {
    answer.get(key).and_then(point::<V>)
}

fn num(answer: &Value, key: &str) -> Option<f64> {
    answer.get(key).and_then(Value::as_f64)
}

fn text<'a>(answer: &'a Value, key: &str) -> &'a str {
    answer.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The answer of `intersects`, `distance`, `contact` and `manifold`.
fn pair<V: Plane>(query: &str, answer: &Value, d: &mut Drawing) {
    let len = 0.15 * extent(&d.prims);
    let (pa, pb, n) =
        (field::<V>(answer, "point_a"), field::<V>(answer, "point_b"), field::<V>(answer, "normal"));
    match query {
        "intersects" => {
            let yes = answer.get("intersects").and_then(Value::as_bool).unwrap_or(false);
            d.summary = if yes { "the shapes intersect".into() } else { "the shapes are apart".into() };
        }
        "distance" => {
            let dist = num(answer, "distance").unwrap_or(f64::NAN);
            let iters = answer.get("iterations").and_then(Value::as_u64).unwrap_or(0);
            d.summary = format!(
                "{} ({}, {iters} iteration{})",
                short(dist),
                text(answer, "status"),
                if iters == 1 { "" } else { "s" }
            );
            if let (Some(pa), Some(pb), Some(n)) = (pa, pb, n) {
                d.prims.push(Prim::Path {
                    points: vec![V::plane(pa), V::plane(pb)],
                    closed: false,
                    class: "answer",
                });
                d.prims.push(dot(pa, "point_a"));
                d.prims.push(dot(pb, "point_b"));
                d.prims.push(arrow(pa, n, len, "normal"));
            }
        }
        "contact" => {
            if answer.get("contact").and_then(Value::as_bool) != Some(true) {
                d.summary = "no contact within the margin".into();
                return;
            }
            let dist = num(answer, "distance").unwrap_or(f64::NAN);
            let what =
                if dist < 0.0 { format!("depth {}", short(-dist)) } else { format!("{} apart", short(dist)) };
            d.summary = format!("{what} ({})", text(answer, "status"));
            if let (Some(pa), Some(pb), Some(n)) = (pa, pb, n) {
                d.prims.push(dot(pa, "point_a"));
                d.prims.push(dot(pb, "point_b"));
                d.prims.push(arrow(pa, n, len, "normal"));
            }
        }
        _ => {
            let points = answer.get("points").and_then(Value::as_array).cloned().unwrap_or_default();
            if points.is_empty() {
                d.summary = "empty manifold: no contact within the margin".into();
                return;
            }
            d.summary = format!("{} contact points ({})", points.len(), text(answer, "status"));
            let mut centre = V::ZERO;
            for (i, p) in points.iter().enumerate() {
                let id: Vec<&str> = p
                    .get("id")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let dist = num(p, "distance").unwrap_or(f64::NAN);
                if let Some(pa) = field::<V>(p, "point_a") {
                    d.prims.push(dot(pa, &format!("{}: {} ({})", i + 1, id.join(" / "), short(dist))));
                    centre += pa;
                }
                if let Some(pb) = field::<V>(p, "point_b") {
                    d.prims.push(dot(pb, ""));
                }
            }
            if let Some(n) = n {
                d.prims.push(arrow(centre * (1.0 / points.len() as f64), n, len, "normal"));
            }
        }
    }
}

fn ray<V: Plane>(scope: &Scope, top: &Obj, answer: &Value, d: &mut Drawing) -> Result<()> {
    let b = body::<V>(scope, top.get("b")?, "b")?;
    V::draw_shape(&b.shape, &b.pose, B, &mut d.prims);
    let origin: V = top.vec("origin")?;
    let direction: V = top.vec("direction")?;
    let max_toi = non_negative(top, "max_toi", f64::INFINITY)?;
    let scene = extent(&d.prims).max((V::plane(origin) - V::plane(b.pose.translation)).length());
    let status = text(answer, "status");
    // The ray is drawn to where the answer says it stops, or to max_toi, or past the scene.
    let reach = 1.5 * scene / direction.length();
    let end = match status {
        "hit" => num(answer, "toi"),
        "inside" => num(answer, "exit_toi"),
        _ => None,
    }
    .unwrap_or(max_toi.min(reach));
    d.prims.push(Prim::Path {
        points: vec![V::plane(origin), V::plane(origin + direction * end)],
        closed: false,
        class: "ray",
    });
    d.prims.push(dot(origin, "origin"));
    let len = 0.15 * extent(&d.prims);
    match status {
        "hit" => {
            d.summary = format!("hit at toi {}", short(num(answer, "toi").unwrap_or(f64::NAN)));
            if let (Some(p), Some(n)) = (field::<V>(answer, "point"), field::<V>(answer, "normal")) {
                d.prims.push(dot(p, "hit"));
                d.prims.push(arrow(p, n, len, "normal"));
            }
        }
        "inside" => {
            d.summary =
                format!("starts inside, exits at toi {}", short(num(answer, "exit_toi").unwrap_or(f64::NAN)));
            if let (Some(p), Some(n)) = (field::<V>(answer, "exit_point"), field::<V>(answer, "exit_normal"))
            {
                d.prims.push(dot(p, "exit"));
                d.prims.push(arrow(p, n, len, "exit normal"));
            }
        }
        _ => {
            d.summary = if max_toi.is_finite() {
                format!("miss (up to toi {})", short(max_toi))
            } else {
                "miss".into()
            }
        }
    }
    Ok(())
}

fn cast<V: Plane>(scope: &Scope, top: &Obj, answer: &Value, d: &mut Drawing) -> Result<()> {
    let (a, b) = (body::<V>(scope, top.get("a")?, "a")?, body::<V>(scope, top.get("b")?, "b")?);
    let (ma, mb) = (motion::<V>(top, "a")?, motion::<V>(top, "b")?);
    let max_toi = non_negative(top, "max_toi", 1.0)?;
    V::draw_shape(&a.shape, &a.pose, A, &mut d.prims);
    V::draw_shape(&b.shape, &b.pose, B, &mut d.prims);
    // Each body's origin over [0, max_toi], as a path.
    for (pose, m) in [(&a.pose, &ma), (&b.pose, &mb)] {
        let pts =
            (0..=32).map(|k| V::plane(m.pose_at(pose, max_toi * k as f64 / 32.0).translation)).collect();
        d.prims.push(Prim::Path { points: pts, closed: false, class: "path" });
    }
    let status = text(answer, "status");
    let at = match status {
        "hit" => num(answer, "toi"),
        "failed" => num(answer, "safe_toi"),
        _ => None,
    };
    if let Some(t) = at {
        let later = |body: &Body<V>, m: &kollide::query::Motion<V>, look, out: &mut Vec<Prim>| {
            let moved: Pose<V> = m.pose_at(&body.pose, t);
            if moved != body.pose {
                V::draw_shape(&body.shape, &moved, look, out);
            }
        };
        later(&a, &ma, A_LATER, &mut d.prims);
        later(&b, &mb, Look { body_b: true, later: true }, &mut d.prims);
    }
    d.legend = "; dotted: the paths of the bodies' origins; dashed: the bodies at the time reported".into();
    let len = 0.15 * extent(&d.prims);
    let iters = answer.get("iterations").and_then(Value::as_u64).unwrap_or(0);
    d.summary = match status {
        "hit" => format!(
            "hit at toi {} ({iters} iterations); dashed: the bodies then",
            short(at.unwrap_or(f64::NAN))
        ),
        "started_within" => {
            format!("started within (distance {})", short(num(answer, "distance").unwrap_or(f64::NAN)))
        }
        "failed" => format!("failed: apart up to toi {}", short(at.unwrap_or(f64::NAN))),
        _ => format!("miss up to toi {}", short(max_toi)),
    };
    if let (Some(pa), Some(pb), Some(n)) =
        (field::<V>(answer, "point_a"), field::<V>(answer, "point_b"), field::<V>(answer, "normal"))
    {
        d.prims.push(dot(pa, "point_a"));
        d.prims.push(dot(pb, "point_b"));
        d.prims.push(arrow(pa, n, len, "normal"));
    }
    Ok(())
}

fn sweep<V: Plane>(scope: &Scope, top: &Obj, answer: &Value, d: &mut Drawing) -> Result<()> {
    let mover = body::<V>(scope, top.get("mover")?, "mover")?;
    let displacement: V = top.vec("displacement")?;
    let item = answer.get(V::SOUP_ITEM).and_then(Value::as_u64).map(|i| i as usize);
    match top.opt("b") {
        Some(b) => {
            let b = body::<V>(scope, b, "b")?;
            V::draw_shape(&b.shape, &b.pose, B, &mut d.prims);
        }
        None => {
            let items = crate::space::soup_items::<V>(top)?;
            V::soup(&items, item, &mut d.prims);
        }
    }
    V::draw_shape(&mover.shape, &mover.pose, A, &mut d.prims);
    let end = Pose::new(mover.pose.translation + displacement, mover.pose.rotation);
    d.prims.push(Prim::Path {
        points: vec![V::plane(mover.pose.translation), V::plane(end.translation)],
        closed: false,
        class: "path",
    });
    let status = text(answer, "status");
    d.legend = "; dotted: the centre's path; dashed: the mover where it stops".into();
    let len = 0.15 * extent(&d.prims);
    match status {
        "hit" => {
            let toi = num(answer, "toi").unwrap_or(f64::NAN);
            let at = Pose::new(mover.pose.translation + displacement * toi, mover.pose.rotation);
            V::draw_shape(&mover.shape, &at, A_LATER, &mut d.prims);
            let feature = text(answer, "feature");
            d.summary =
                format!("hit the {feature} of {} {} at toi {}", V::SOUP_ITEM, item.unwrap_or(0), short(toi));
            if let (Some(p), Some(n)) = (field::<V>(answer, "point"), field::<V>(answer, "normal")) {
                d.prims.push(dot(p, &format!("{feature} hit")));
                d.prims.push(arrow(p, n, len, "slide plane normal"));
            }
        }
        "started_within" => {
            d.summary = format!(
                "started within {} {} (distance {})",
                V::SOUP_ITEM,
                item.unwrap_or(0),
                short(num(answer, "distance").unwrap_or(f64::NAN))
            );
        }
        _ => {
            V::draw_shape(&mover.shape, &end, A_LATER, &mut d.prims);
            d.summary = "miss: the whole displacement is free".into();
        }
    }
    Ok(())
}
