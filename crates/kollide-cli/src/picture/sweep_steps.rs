//! A sweep's tests, a panel each: for every triangle (segment) whose box the swept mover's
//! box meets, whether it was culled or out of reach, what the start said, then the face
//! plane's root and, when the face does not answer, each edge's and each corner's root
//! (Fauerby's swept sphere: the earliest root on its feature wins). Each panel draws the
//! soup with the item tested in red, the mover's path, the mover where the root puts it and
//! the point it touches there. Shared by `kollide picture --steps` and `kollide viz --steps`.

use super::draw::{Look, Plane};
use super::short;
use super::svg::Prim;
use crate::cast_answer::back_faces;
use crate::json::Obj;
use crate::session::Scope;
use crate::space::{body, soup_items, Body};
use kollide::math::Pose;
use kollide::query::cast::{SweepStep, SweepTest, SweepVerdict};

/// A sweep line's mover, displacement and soup, and the tests its sweep tried.
pub(crate) struct SweepTraced<V: Plane> {
    pub mover: Body<V>,
    pub displacement: V,
    pub items: Vec<Vec<V>>,
    pub steps: Vec<SweepStep<V>>,
}

/// Sweeps a `sweep` line again with its tests recorded.
///
/// # Errors
/// Why there are none: a sweep through a composite `b` (answered through its parts, not
/// traced), or no item near the path; or a bad field.
pub(crate) fn sweep_trace<V: Plane>(scope: &Scope, top: &Obj) -> Result<SweepTraced<V>, String> {
    if top.opt("b").is_some() {
        return Err(format!(
            "--steps: a sweep through a composite \"b\" answers through its parts and is not traced; give its {} as \"{}\" to see each test",
            V::SOUP, V::SOUP
        ));
    }
    let err = |e: crate::json::InputError| e.to_string();
    let mover = body::<V>(scope, top.get("mover").map_err(err)?, "mover").map_err(err)?;
    let displacement: V = top.vec("displacement").map_err(err)?;
    let cull = back_faces(top).map_err(err)?;
    let items = soup_items::<V>(top).map_err(err)?;
    let mut steps = Vec::new();
    let soup = top.get(V::SOUP).map_err(err)?;
    crate::space::sweep(&mover, "mover", displacement, soup, V::SOUP, cull, Some(&mut steps)).map_err(err)?;
    if steps.is_empty() {
        return Err(format!(
            "--steps: no {}'s box meets the swept mover's box: nothing was tested",
            V::SOUP_ITEM
        ));
    }
    Ok(SweepTraced { mover, displacement, items, steps })
}

/// What a step tested, in a few words: "triangle 2, edge 1 (b-c)".
pub(crate) fn test_words<V: Plane>(step: &SweepStep<V>) -> String {
    let corner = |k: u8| ["a", "b", "c"][usize::from(k.min(2))];
    let what = match step.test {
        SweepTest::Culled => "back".to_string(),
        SweepTest::OutOfReach => "plane".to_string(),
        SweepTest::Start => "start".to_string(),
        SweepTest::Face if V::DIM == 2 => "line".to_string(),
        SweepTest::Face => "face plane".to_string(),
        SweepTest::Edge(k) => format!("edge {k} ({}-{})", corner(k), corner((k + 1) % 3)),
        SweepTest::Vertex(k) => format!("corner {}", corner(k)),
    };
    format!("{} {}, {what}", V::SOUP_ITEM, step.index)
}

/// What a step concluded, in a few words: "t = 0.36: hit".
pub(crate) fn verdict_words<V: Plane>(step: &SweepStep<V>) -> String {
    let t = step.toi.map_or_else(String::new, |t| format!("t = {}", short(t)));
    let feature = match step.test {
        SweepTest::Face if V::DIM == 2 => "segment",
        SweepTest::Face => "triangle",
        SweepTest::Edge(_) => "edge",
        _ => "item",
    };
    match (step.verdict, step.test) {
        (SweepVerdict::Skipped, SweepTest::Culled) => "back face: culled".into(),
        (SweepVerdict::Skipped, _) => "out of reach: skipped".into(),
        (SweepVerdict::Overlapping, _) => "overlapping at the start".into(),
        (SweepVerdict::Grazing, _) => "touching, moving away".into(),
        (SweepVerdict::NoRoot, _) => "no root".into(),
        (SweepVerdict::TooLate, _) => format!("{t}, too late"),
        (SweepVerdict::OffFeature, _) => format!("{t}, off the {feature}"),
        (SweepVerdict::Hit, _) => format!("{t}: hit"),
    }
}

/// The panels of a sweep line's tests, one `(caption, prims)` per test.
///
/// # Errors
/// As [`sweep_trace`].
pub(super) fn sweep_panels<V: Plane>(scope: &Scope, top: &Obj) -> Result<Vec<(String, Vec<Prim>)>, String> {
    let t = sweep_trace::<V>(scope, top)?;
    let start = t.mover.pose.translation;
    Ok(t.steps
        .iter()
        .enumerate()
        .map(|(k, step)| {
            let mut prims = Vec::new();
            V::soup(&t.items, Some(step.index), &mut prims);
            V::draw_shape(&t.mover.shape, &t.mover.pose, Look { body_b: false, later: false }, &mut prims);
            prims.push(Prim::Path {
                points: vec![V::plane(start), V::plane(start + t.displacement)],
                closed: false,
                class: "path",
            });
            if let Some(toi) = step.toi {
                let at = Pose::new(start + t.displacement * toi, t.mover.pose.rotation);
                V::draw_shape(&t.mover.shape, &at, Look { body_b: false, later: true }, &mut prims);
            }
            if let Some(p) = step.point {
                let label = if step.verdict == SweepVerdict::Hit { "hit" } else { "" };
                prims.push(Prim::Dot {
                    at: V::plane(p),
                    world: V::coords(p),
                    label: label.into(),
                    class: "answer",
                });
            }
            let caption = format!("{}. {}\n{}", k + 1, test_words(step), verdict_words(step));
            (caption, prims)
        })
        .collect())
}
