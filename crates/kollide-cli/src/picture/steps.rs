//! GJK's and EPA's iterations as small panels, and the 3D picture's axis triad.
//!
//! GJK works on the Minkowski difference of the cores, `A - B`, in A's frame: it keeps a
//! simplex of support points, finds its point `v` closest to the origin, and asks for the
//! support point `w` along `-v`; the shapes touch when the origin is in the difference. A
//! panel per iteration draws that difference (its outline from the two support functions),
//! the simplex the iteration started from, the origin, `v` and `w`, with `|v|` (an upper
//! bound on the cores' distance) and the best lower bound in its caption. When the cores
//! overlap, a contact goes on with EPA: a polytope inside the difference around the origin,
//! grown towards its face nearest the origin (drawn red) until the support point `w` along
//! that face's normal lies no farther out; that face's distance `d` is the depth. 3D panels use the
//! picture's oblique projection, turned with A so they match the main panel.

use super::draw::{Look, Plane};
use super::short;
use super::svg::{nice_step, Page, Panel, Prim};
use crate::session::Scope;
use crate::space::Body;
use kollide::math::{DVec2, DVec3, Rotation};
use kollide::query::cast::{shape_cast, CastInput, CastStep};
use kollide::query::{contact, distance_cached, ContactTrace, SatAxis, SatStep, SimplexCache};
use kollide::shape::Support;

/// The panels of a query's iterations on two convex bodies, one `(caption, prims)` each, or
/// why there are none (a composite body, or a pair answered in closed form or by separating
/// axes). `contact` and `manifold` show the contact's own GJK run and, when the cores
/// overlap, EPA's; the other queries show GJK's distance iterations.
pub(super) fn iterations<V: Plane>(
    query: &str,
    a: &Body<V>,
    b: &Body<V>,
    margin: f64,
) -> Result<Vec<(String, Vec<Prim>)>, String> {
    let (ca, cb, trace) = trace(query, a, b, margin)?;
    let pose_ab = a.pose.inv_compose(&b.pose);
    let turn = a.pose.rotation;
    // A point of A's frame, turned into the world's orientation (GJK's points are
    // differences: their translation cancels), in the picture plane.
    let at = |p: V| V::plane(turn.rotate(p));
    let cso: Vec<DVec2> = (0..96)
        .map(|k| {
            let angle = core::f64::consts::TAU * k as f64 / 96.0;
            let local = turn.inverse_rotate(V::world_dir(DVec2::new(angle.cos(), angle.sin())));
            let on_b = pose_ab.transform_point(cb.support(pose_ab.inverse_transform_vector(-local)));
            at(ca.support(local) - on_b)
        })
        .collect();
    let origin = V::ZERO;
    let marks = |prims: &mut Vec<Prim>, w: V| {
        let o = V::plane(origin);
        prims.push(Prim::Dot { at: o, world: V::coords(origin), label: "O".into(), class: "origin" });
        let w = turn.rotate(w);
        prims.push(Prim::Dot { at: V::plane(w), world: V::coords(w), label: "w".into(), class: "step-w" });
    };
    let mut panels = sat_panels(a, b, &trace.sat);
    panels.extend(trace.gjk.iter().enumerate().map(|(i, step)| {
        let mut prims = vec![Prim::Path { points: cso.clone(), closed: true, class: "cso" }];
        let simplex: Vec<DVec2> = step.simplex.vertices().iter().map(|s| at(s.w)).collect();
        prims.push(Prim::Path { points: simplex.clone(), closed: simplex.len() > 2, class: "simplex" });
        for s in step.simplex.vertices() {
            let p = turn.rotate(s.w);
            prims.push(Prim::Dot {
                at: V::plane(p),
                world: V::coords(p),
                label: String::new(),
                class: "simplex",
            });
        }
        prims.push(Prim::Arrow {
            from: V::plane(origin),
            to: at(step.v),
            label: "v".into(),
            class: "step-v",
        });
        marks(&mut prims, step.w);
        let caption =
            format!("GJK {}: |v| = {}\nlower bound {}", i + 1, short(step.upper), short(step.lower));
        (caption, prims)
    }));
    for (i, step) in trace.epa.iter().enumerate() {
        let mut prims = vec![Prim::Path { points: cso.clone(), closed: true, class: "cso" }];
        for (k, face) in step.faces.iter().enumerate() {
            let class = if k == step.closest { "epa-closest" } else { "epa-face" };
            prims.push(Prim::Path {
                points: face.iter().map(|p| at(*p)).collect(),
                closed: face.len() > 2,
                class,
            });
        }
        let foot = step.normal * step.lower;
        prims.push(Prim::Arrow { from: V::plane(origin), to: at(foot), label: "d".into(), class: "step-v" });
        marks(&mut prims, step.w);
        let caption = format!(
            "EPA {}: depth >= {}\nnext support {} out",
            i + 1,
            short(step.lower),
            short(step.normal.dot(step.w))
        );
        panels.push((caption, prims));
    }
    Ok(panels)
}

/// The separating-axis test's panels, one per axis tried: both bodies, the axis through A's
/// origin (dashed), and the two cores' projections on it as thick bars (A blue, B orange,
/// B's beside A's), captioned with the axis, the separation and the best so far.
fn sat_panels<V: Plane>(a: &Body<V>, b: &Body<V>, steps: &[SatStep<V>]) -> Vec<(String, Vec<Prim>)> {
    let mut bodies = Vec::new();
    V::draw_shape(&a.shape, &a.pose, Look { body_b: false, later: false }, &mut bodies);
    V::draw_shape(&b.shape, &b.pose, Look { body_b: true, later: false }, &mut bodies);
    let size = super::extent(&bodies);
    steps
        .iter()
        .enumerate()
        .map(|(k, step)| {
            let mut prims = bodies.clone();
            let on_axis = |s: f64| V::plane(a.pose.transform_point(step.axis * s));
            let (lo, hi) = (step.a[0].min(step.b[0]), step.a[1].max(step.b[1]));
            let reach = 0.1 * (hi - lo);
            prims.push(Prim::Path {
                points: vec![on_axis(lo - reach), on_axis(hi + reach)],
                closed: false,
                class: "sat-axis",
            });
            let along = on_axis(hi) - on_axis(lo);
            let side = if along.length() > 1e-12 * size { along.perp().normalize() } else { DVec2::Y };
            let bar = |range: [f64; 2], shift: f64, class| Prim::Path {
                points: vec![on_axis(range[0]) + side * shift, on_axis(range[1]) + side * shift],
                closed: false,
                class,
            };
            prims.push(bar(step.a, 0.03 * size, "sat-a"));
            prims.push(bar(step.b, 0.06 * size, "sat-b"));
            let what = match step.kind {
                SatAxis::FaceA(i) => format!("A's face {i}"),
                SatAxis::FaceB(j) => format!("B's face {j}"),
                SatAxis::Edges(i, j) => format!("edges {i} x {j}"),
            };
            let caption = format!("SAT {}: {what}\ns = {:.4}, best {:.4}", k + 1, step.separation, step.best);
            (caption, prims)
        })
        .collect()
}

/// The advancements of a `cast` line on two convex bodies: the bodies, their motions and
/// the trace (world frame).
///
/// # Errors
/// Why there are none: a composite body, a closed form (two balls), a start within the
/// target.
pub(crate) fn cast_trace<V: Plane>(scope: &Scope, top: &crate::json::Obj) -> Result<CastTraced<V>, String> {
    let err = |e: crate::json::InputError| e.to_string();
    let a = crate::space::body::<V>(scope, top.get("a").map_err(err)?, "a").map_err(err)?;
    let b = crate::space::body::<V>(scope, top.get("b").map_err(err)?, "b").map_err(err)?;
    let input = crate::cast_answer::cast_input::<V>(top).map_err(err)?;
    let (Some(ca), Some(cb)) = (V::as_convex(&a.shape), V::as_convex(&b.shape)) else {
        return Err(
            "--steps: a composite body casts through its parts; the steps are drawn for two convex bodies"
                .into(),
        );
    };
    let mut steps = Vec::new();
    let _ = shape_cast(ca, &a.pose, cb, &b.pose, &input, Some(&mut steps));
    if steps.is_empty() {
        return Err("--steps: this cast has no advancements to show (two balls meet in closed form; a pair that starts within the target is answered at once)".into());
    }
    Ok(CastTraced { a, b, input, steps })
}

/// A cast's bodies, motions and advancements.
#[derive(Debug)]
pub(crate) struct CastTraced<V: Plane> {
    pub a: Body<V>,
    pub b: Body<V>,
    pub input: CastInput<V>,
    pub steps: Vec<CastStep<V>>,
}

/// A panel per advancement of a cast: both bodies where they are at the time reached, the
/// closest points there and the segment between them.
pub(super) fn cast_panels<V: Plane>(
    scope: &Scope,
    top: &crate::json::Obj,
) -> Result<Vec<(String, Vec<Prim>)>, String> {
    let t = cast_trace::<V>(scope, top)?;
    Ok(t.steps
        .iter()
        .enumerate()
        .map(|(k, step)| {
            let mut prims = Vec::new();
            let pa = t.input.motion_a.pose_at(&t.a.pose, step.time);
            let pb = t.input.motion_b.pose_at(&t.b.pose, step.time);
            V::draw_shape(&t.a.shape, &pa, Look { body_b: false, later: false }, &mut prims);
            V::draw_shape(&t.b.shape, &pb, Look { body_b: true, later: false }, &mut prims);
            let (p, q) = (step.point_a, step.point_b);
            prims.push(Prim::Path { points: vec![V::plane(p), V::plane(q)], closed: false, class: "answer" });
            for (x, label) in [(p, "a"), (q, "b")] {
                prims.push(Prim::Dot {
                    at: V::plane(x),
                    world: V::coords(x),
                    label: label.into(),
                    class: "answer",
                });
            }
            let caption =
                format!("advance {}: t = {}\ndistance {}", k + 1, short(step.time), short(step.distance));
            (caption, prims)
        })
        .collect())
}

/// Two convex bodies' shapes and the trace of their query.
pub(crate) type Traced<'b, V> =
    (&'b <V as crate::space::Space>::Convex, &'b <V as crate::space::Space>::Convex, ContactTrace<V>);

/// The iterations of a query on two convex bodies: the contact's GJK and EPA for `contact`
/// and `manifold`, GJK's distance iterations for the others; with the bodies' shapes.
///
/// # Errors
/// Why there are none: a composite body, or a pair answered in closed form or by separating
/// axes.
pub(crate) fn trace<'b, V: Plane>(
    query: &str,
    a: &'b Body<V>,
    b: &'b Body<V>,
    margin: f64,
) -> Result<Traced<'b, V>, String> {
    let (Some(ca), Some(cb)) = (V::as_convex(&a.shape), V::as_convex(&b.shape)) else {
        return Err(
            "--steps: a composite body answers through its parts; the steps are drawn for two convex bodies"
                .into(),
        );
    };
    let mut trace = ContactTrace::default();
    if query == "contact" || query == "manifold" {
        let _ = contact(ca, &a.pose, cb, &b.pose, margin, Some(&mut trace));
    } else {
        let _ = distance_cached(ca, &a.pose, cb, &b.pose, &mut SimplexCache::default(), Some(&mut trace.gjk));
    }
    if trace.gjk.is_empty() && trace.epa.is_empty() && trace.sat.is_empty() {
        return Err("--steps: this pair is answered in closed form (balls, capsules, segments): no iterations to show".into());
    }
    Ok((ca, cb, trace))
}

/// The 3D picture's axes, bottom left of `panel`, each arm one "nice" length long and
/// labelled, with a scale bar of that length beside them.
pub(super) fn triad(page: &mut Page, panel: &Panel) {
    let unit = nice_step(60.0 * panel.unit());
    let px = unit / panel.unit();
    let base = DVec2::new(panel.x + 60.0, panel.y + panel.h - 40.0);
    for (axis, class, name) in
        [(DVec3::X, "axis-x", "x"), (DVec3::Y, "axis-y", "y"), (DVec3::Z, "axis-z", "z")]
    {
        let d = DVec3::plane(axis);
        let tip = base + DVec2::new(d.x, -d.y) * px;
        page.line(base, tip, class);
        page.text(tip + DVec2::new(d.x, -d.y) * 10.0 + DVec2::new(-3.0, 4.0), name, "ticklabel", "start");
    }
    let bar = DVec2::new(panel.x + panel.w - 30.0 - px, panel.y + panel.h - 20.0);
    page.line(bar, bar + DVec2::new(px, 0.0), "tick");
    page.text(bar + DVec2::new(px * 0.5, -6.0), &format!("{unit}"), "ticklabel", "middle");
}
