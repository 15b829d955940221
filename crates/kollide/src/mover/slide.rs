//! `move_and_slide`: one step of a character through a world.

use super::feature::touched_feature;
use super::output::{Ground, MoveContact, MoveOutput, MoveStatus};
use super::planes::closest_allowed;
use super::settings::{Character, MoverError, MoverSettings, UpRotation};
use super::trace::{MovePhase, MoveStep, SlidePlane};
use crate::composite::{self, SoupParts};
use crate::math::{Aabb, Pose, Real, Vector3};
use crate::query::cast::SweepFeature;
use crate::query::cast::{BackFaces, CastInput, CastStatus, Motion, SweepError, SweepOutcome, SweptShape};
use crate::query::Space;
use crate::shape::Ellipsoid;
use crate::world::RuntimeShape;
use crate::world::{BodyId, Shape3, World};

/// Pushes out of an overlapping start at most this many times.
const RECOVERY_ROUNDS: usize = 4;

/// Moves `character` from `position` by `displacement` (world frame) through `world`,
/// sliding along what it meets, and returns where it ends (see [`MoveOutput`]).
///
/// Each iteration casts the character along the motion left (a shape cast against every
/// body of the world that its swept box reaches) to where it first comes within `skin` of
/// the world, moves there, and adds the contact plane (normal from the world to the
/// character). The motion left is then replaced by the closest motion every plane of the
/// step allows, all planes solved together (a crease of two walls, a corner of three), and
/// cast again. Slopes steeper than `max_slope` (facing up) cannot be climbed by sliding
/// unless `climb_walls`: the motion may then rise no more than the motion asked.
/// A start that overlaps the world is first pushed out along the contact normals.
/// A character that started on the ground and met a wall also tries the stairs' path: up by
/// `step_height`, across, and down again; that path is kept when it lands on walkable
/// ground further across. After the move, a character that started on the ground and did
/// not ask to rise is moved down to the ground when it lies within `snap_to_ground`; the
/// ground is then looked for within twice the skin.
///
/// The mover keeps no state between steps: the caller adds gravity to the displacement.
///
/// With `trace`, each cast is appended there (world frame): the pushes out of an
/// overlapping start, then for each slide iteration where the cast started, the motion
/// cast, where it met what, the planes of the step, the motion wanted of the plane solve,
/// the motion it allows and the one cast next; then the stairs' path, the snap to the
/// ground and the looks for the ground ([`MoveStep`]). The answer does not depend on the
/// trace; nothing is recorded when the input is refused.
///
/// ```
/// use kollide::mover::{move_and_slide, Character, MoverSettings, MoveStatus};
/// use kollide::world::{Shape3, World};
/// use kollide::shape::Cuboid;
/// use kollide::math::{DPose3, DVec3};
/// let mut world = World::new();
/// // A floor whose top is y = 0, and a wall whose face is x = 2.
/// world.insert(Shape3::from(Cuboid::new(DVec3::new(10.0, 1.0, 10.0))), DPose3::from_translation(DVec3::NEG_Y)).unwrap();
/// world.insert(Shape3::from(Cuboid::new(DVec3::new(1.0, 5.0, 10.0))), DPose3::from_translation(DVec3::new(3.0, 0.0, 0.0))).unwrap();
/// let ball = Character::Ball { radius: 0.5 };
/// let settings = MoverSettings::default();
/// // Walk into the wall at 45 degrees while falling: slides along it, stays on the floor.
/// let out = move_and_slide(&world, &ball, DVec3::new(0.0, 0.5, 0.0), DVec3::new(3.0, -0.1, 3.0), &settings, None).unwrap();
/// assert!((out.position.x - 1.5).abs() < 0.01 && (out.position.z - 3.0).abs() < 1e-9);
/// assert!(out.grounded());
/// assert_eq!(out.status, MoveStatus::Moved);
///
/// // Traced: the wall is met when the ball is a skin short of it, half way across; the
/// // rest of the motion is solved against the wall's plane, the slide along z.
/// let mut trace = Vec::new();
/// move_and_slide(&world, &ball, DVec3::new(0.0, 0.5, 0.0), DVec3::new(3.0, 0.0, 3.0), &settings, Some(&mut trace)).unwrap();
/// let first = trace.iter().find(|s| s.phase == kollide::mover::MovePhase::Slide && s.contact.is_some()).unwrap();
/// assert!((first.contact.unwrap().normal - DVec3::NEG_X).length() < 1e-9);
/// let solved = first.solved.unwrap();
/// assert!(solved.x.abs() < 1e-9 && solved.z > 1.4);
/// ```
///
/// # Errors
/// A bad setting or character, or a position or displacement that is not finite (nothing
/// moves).
pub fn move_and_slide<V: Vector3 + Space + UpRotation>(
    world: &World<V, Shape3<V>>,
    character: &Character<V>,
    position: V,
    displacement: V,
    settings: &MoverSettings<V>,
    trace: Option<&mut Vec<MoveStep<V>>>,
) -> Result<MoveOutput<V>, MoverError> {
    move_impl(world, character, position, displacement, settings, trace)
}

fn move_impl<V: Vector3 + Space + UpRotation>(
    world: &World<V, Shape3<V>>,
    character: &Character<V>,
    position: V,
    displacement: V,
    settings: &MoverSettings<V>,
    trace: Option<&mut Vec<MoveStep<V>>>,
) -> Result<MoveOutput<V>, MoverError> {
    settings.validate()?;
    let shape = character.shape()?;
    for (what, v) in [("position", position), ("displacement", displacement)] {
        if !v.is_finite_vec() {
            return Err(MoverError::NonFinite { what, value: v.to_f64_array() });
        }
    }
    // The caller's list is filled in place (taken and given back): nothing is allocated
    // when untraced.
    let mut trace = trace;
    let mut step = Step {
        world,
        character,
        shape,
        settings,
        contacts: Vec::new(),
        iterations: 0,
        phase: MovePhase::Recover,
        trace: trace.as_deref_mut().map(std::mem::take),
        origin: position,
        min_up: V::Real::from_f64(settings.max_slope.to_f64().cos() - 1e-9),
    };
    let start = position;
    let (from, pushed) = step.recover(position);
    step.origin = from;
    let zero = V::Real::ZERO;
    step.phase = MovePhase::Ground;
    let on_ground =
        (settings.step_height > zero || settings.snap_to_ground > zero) && step.ground(from).is_some();
    let mut position = from;
    step.phase = MovePhase::Slide;
    let mut status = step.slide(&mut position, displacement);
    if on_ground && settings.step_height > zero && step.met_a_wall() {
        step.try_step_up(from, displacement, &mut position, &mut status);
    }
    if pushed {
        status = MoveStatus::StartedInside;
    }
    let up = settings.up;
    if on_ground && settings.snap_to_ground > zero && displacement.dot(up) <= zero {
        step.phase = MovePhase::Snap;
        step.snap(&mut position);
    }
    step.phase = MovePhase::Ground;
    let ground = step.ground(position);
    if let (Some(mine), Some(theirs)) = (step.trace.take(), trace) {
        *theirs = mine;
    }
    Ok(MoveOutput {
        position,
        displacement: position - start,
        ground,
        contacts: step.contacts,
        status,
        iterations: step.iterations,
    })
}

/// The solved motion tilted a hair (1e-7 of its length) away from each touching plane it
/// runs along: solved exactly tangent, rounding can leave it approaching the plane by
/// 1e-17, and the next cast would report the same contact at time 0 again and again (a
/// trap at the edge of a box). The tilt only ever moves away from the world.
fn leave_planes<V: Vector3 + Space>(v: V, planes: &[SlidePlane<V>]) -> V {
    let lift = v.length() * V::Real::from_f64(1e-7);
    let mut out = v;
    for p in planes.iter().filter(|p| p.offset == V::Real::ZERO) {
        let along = out.dot(p.normal);
        if along < lift {
            out += p.normal * (lift - along);
        }
    }
    out
}

/// One step's context.
struct Step<'a, V: Vector3 + Space + UpRotation> {
    world: &'a World<V, Shape3<V>>,
    character: &'a Character<V>,
    shape: Shape3<V>,
    settings: &'a MoverSettings<V>,
    contacts: Vec<MoveContact<V>>,
    iterations: u32,
    /// What the casts are for, for the trace.
    phase: MovePhase,
    /// The trace, when asked for.
    trace: Option<Vec<MoveStep<V>>>,
    /// Where the step started (after any push out of an overlap): the foot there is what a
    /// step's edge is measured from while sliding, so that the stairs' path (which first
    /// rises by the step height) cannot climb another step's height on top of it.
    origin: V,
    /// The least `up` component of a walkable normal: `cos(max_slope)`, less 1e-9.
    min_up: V::Real,
}

/// A cast's answer the mover uses: time, normal, and the contact.
struct Touch<V: Vector3 + Space> {
    toi: V::Real,
    /// The signed distance of a start already within the skin (`StartedWithin`).
    depth: Option<V::Real>,
    contact: MoveContact<V>,
}

impl<V: Vector3 + Space> Touch<V> {
    /// Which of two bodies' contacts the step meets first: a start within the skin before
    /// any later contact (the deeper first), then the earlier time.
    fn before(&self, other: &Self) -> bool {
        match (self.depth, other.depth) {
            (Some(a), Some(b)) => a < b,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => self.toi < other.toi,
        }
    }
}

impl<V: Vector3 + Space + UpRotation> Step<'_, V> {
    fn pose(&self, at: V) -> Pose<V> {
        self.character.pose(at, self.settings.up)
    }

    /// Whether a contact normal is walkable ground.
    fn walkable(&self, n: V) -> bool {
        n.dot(self.settings.up) >= self.min_up
    }

    /// Whether a contact is a step's edge for the character at `at`: an edge or a corner
    /// (not a face, whose slope `max_slope` judges) met from above, no higher than
    /// `step_height` above the character's lowest point there.
    fn step_edge(&self, c: &MoveContact<V>, at: V) -> bool {
        let up = self.settings.up;
        let foot = at - up * self.character.half_height();
        self.settings.step_height > V::Real::ZERO
            && c.feature != SweepFeature::Face
            && c.normal.dot(up) > V::Real::from_f64(1e-6)
            && (c.point - foot).dot(up) <= self.settings.step_height
    }

    /// Whether a contact met while sliding is ground to walk up (the motion into it is
    /// taken up along `up`): walkable, and, with stairs on, an edge or a corner no higher
    /// above the step's starting foot than the step height (higher, it is a wall whatever
    /// its slope).
    fn ground_while_sliding(&self, c: &MoveContact<V>) -> bool {
        self.walkable(c.normal)
            && (c.feature == SweepFeature::Face
                || self.settings.step_height <= V::Real::ZERO
                || self.step_edge(c, self.origin))
    }

    /// Whether a contact holds the character at `at` up. A face: walkable ground. An edge or
    /// a corner, with stairs on: a step's edge (whatever its slope; one higher than the step
    /// height above the foot is not, even at a gentle slope, or a ball could perch its way
    /// up a riser too high); with stairs off, by its slope like a face.
    fn supports(&self, c: &MoveContact<V>, at: V) -> bool {
        if c.feature == SweepFeature::Face || self.settings.step_height <= V::Real::ZERO {
            self.walkable(c.normal)
        } else {
            self.step_edge(c, at)
        }
    }

    /// The first contact along `motion` from `at` (to within the skin), if any before the
    /// end of the motion: the bodies the swept box reaches, nearest first, each answered by
    /// [`Step::touch`].
    fn cast(&mut self, at: V, motion: V) -> Option<Touch<V>> {
        self.iterations += 1;
        let this = &*self;
        let pose = this.pose(at);
        let swept = this.shape.aabb(&pose).loosened(this.settings.skin);
        let mut best: Option<Touch<V>> = None;
        this.world.visit_swept(&swept, motion, V::Real::ONE, |id, body, body_pose, limit| {
            let t = this.touch(id, body, body_pose, &pose, motion, limit)?;
            if best.as_ref().is_none_or(|b| t.before(b)) {
                let toi = t.toi;
                best = Some(t);
                return Some(toi);
            }
            None
        });
        let phase = self.phase;
        if let Some(trace) = self.trace.as_mut() {
            trace.push(MoveStep {
                phase,
                from: at,
                motion,
                toi: best.as_ref().map(|t| t.toi),
                contact: best.as_ref().map(|t| t.contact),
                planes: Vec::new(),
                wanted: None,
                solved: None,
                next: None,
            });
        }
        best
    }

    /// One body's first contact within `limit`. A ball or an ellipsoid against a mesh or a
    /// terrain takes the swept sphere or the swept ellipsoid (closed forms per face, edge
    /// and corner; the ellipsoid by the change of space that makes it a unit sphere), its
    /// radii grown by the skin; a start already within the skin, and every other pair, take
    /// the shape cast to within the skin (which also knows whether the character
    /// approaches).
    fn touch(
        &self,
        id: BodyId,
        body: &Shape3<V>,
        body_pose: &Pose<V>,
        pose: &Pose<V>,
        motion: V,
        limit: V::Real,
    ) -> Option<Touch<V>> {
        if let Some(answer) = self.swept(id, body, body_pose, pose, motion, limit) {
            return answer;
        }
        let input = CastInput {
            motion_a: Motion::linear(V::ZERO),
            motion_b: Motion::linear(motion),
            max_toi: limit,
            target_distance: self.settings.skin,
        };
        let hit = Shape3::shape_cast(body, body_pose, &self.shape, pose, &input)?;
        let out = hit.value;
        let toi = match out.status {
            CastStatus::Hit | CastStatus::StartedWithin => out.toi,
            // A search that could not finish: stop where the world is proven clear.
            CastStatus::Failed => out.safe_toi,
            CastStatus::Miss => return None,
        };
        let against = -motion / motion.length();
        // A failed search knows no contact plane: a plane facing the motion stops it there.
        let normal = if out.status != CastStatus::Failed
            && out.normal.is_finite_vec()
            && out.normal.length_squared() > V::Real::ZERO
        {
            out.normal
        } else {
            against
        };
        let feature = touched_feature(body, body_pose, hit.part_a, out.point_a, normal);
        let depth = (out.status == CastStatus::StartedWithin).then_some(out.distance);
        Some(Touch {
            toi,
            depth,
            contact: MoveContact { point: out.point_a, normal, feature, body: id, part: hit.part_a },
        })
    }

    /// The swept sphere or ellipsoid of [`Step::touch`]: `Some(answer)` when it decides,
    /// `None` when the shape cast must.
    fn swept(
        &self,
        id: BodyId,
        body: &Shape3<V>,
        body_pose: &Pose<V>,
        pose: &Pose<V>,
        motion: V,
        limit: V::Real,
    ) -> Option<Option<Touch<V>>> {
        let outcome = match body {
            Shape3::TriMesh(m) => self.sweep_parts(&**m, body_pose, pose, motion)?,
            Shape3::HeightField(h) => self.sweep_parts(&**h, body_pose, pose, motion)?,
            _ => return None,
        };
        match outcome {
            Ok(SweepOutcome::Hit(h)) => Some((h.toi <= limit).then_some(Touch {
                toi: h.toi,
                depth: None,
                contact: MoveContact {
                    point: h.point,
                    normal: h.normal,
                    feature: h.feature,
                    body: id,
                    part: Some(h.index as u32),
                },
            })),
            Ok(SweepOutcome::Miss) => Some(None),
            Ok(SweepOutcome::StartedWithin { .. }) | Err(_) => None,
        }
    }

    /// The swept sphere (ball) or swept ellipsoid against a mesh's or terrain's triangles,
    /// its radii grown by the skin; `None` for a capsule (no closed form here).
    fn sweep_parts<C: SoupParts<V> + ?Sized>(
        &self,
        parts: &C,
        body_pose: &Pose<V>,
        pose: &Pose<V>,
        motion: V,
    ) -> Option<Result<SweepOutcome<V>, SweepError>> {
        let skin = self.settings.skin;
        match *self.character {
            Character::Ball { radius } => Some(composite::sweep(
                parts,
                body_pose,
                SweptShape::ball(pose.translation, radius + skin),
                motion,
                BackFaces::Hit,
            )),
            Character::Ellipsoid { radii } => {
                let grown = Ellipsoid::new(radii + V::splat(skin));
                Some(composite::sweep(
                    parts,
                    body_pose,
                    SweptShape::ellipsoid(&grown, pose),
                    motion,
                    BackFaces::Hit,
                ))
            }
            Character::Capsule { .. } => None,
        }
    }

    /// The slide iterations; moves `position`.
    fn slide(&mut self, position: &mut V, displacement: V) -> MoveStatus {
        let up = self.settings.up;
        let scale = self.character.reach() + position.abs_elem().max_component() + displacement.length();
        let tiny = scale * V::Real::EPSILON * V::Real::from_f64(16.0);
        let mut planes: Vec<SlidePlane<V>> = Vec::new();
        let mut left = displacement;
        for _ in 0..self.settings.max_iterations {
            if left.length() <= tiny {
                return MoveStatus::Moved;
            }
            let Some(touch) = self.cast(*position, left) else {
                *position += left;
                return MoveStatus::Moved;
            };
            *position += left * touch.toi;
            let mut rest = left * (V::Real::ONE - touch.toi);
            let n = touch.contact.normal;
            // On walkable ground the motion into the ground is taken up along `up`, not along
            // the normal: walking keeps its pace up and down a slope, and gravity alone does
            // not slide a character down a slope it can stand on.
            let ground = self.ground_while_sliding(&touch.contact);
            if ground && rest.dot(n) < V::Real::ZERO {
                rest -= up * (rest.dot(n) / n.dot(up));
            }
            self.contacts.push(touch.contact);
            if !planes.iter().any(|p| {
                p.offset == V::Real::ZERO && p.normal.dot(n) > V::Real::ONE - V::Real::from_f64(1e-9)
            }) {
                planes.push(SlidePlane { normal: n, offset: V::Real::ZERO });
            }
            let steep = !ground && n.dot(up) > V::Real::from_f64(-1e-6);
            // A steep slope may not lift the character higher than it asked to rise.
            let cap = planes.iter().position(|p| p.offset != V::Real::ZERO || p.normal == -up);
            if steep && !self.settings.climb_walls && cap.is_none() {
                planes.push(SlidePlane { normal: -up, offset: -rest.dot(up).max(V::Real::ZERO) });
            } else if let Some(k) = cap {
                planes[k].offset = -rest.dot(up).max(V::Real::ZERO);
            }
            let solved = closest_allowed(rest, &planes);
            left = leave_planes(solved, &planes);
            // Never against the motion asked: in a crease the closest allowed motion can turn
            // back up one side (a projection on the far plane), and the character would
            // shuttle between the two sides step after step (the classic corner jitter).
            // Walking slowly up walkable ground (a slope, a step's edge) turns the motion up
            // against gravity's share of the step: that is the walk, not a turn back, as long
            // as it goes on across `up` (by more than the planes' tilt).
            let across = displacement - up * displacement.dot(up);
            let slack = V::Real::from_f64(1e-6) * left.length() * across.length();
            if left.dot(displacement) <= V::Real::ZERO && left.dot(across) <= slack {
                left = V::ZERO;
            }
            if let Some(last) = self.trace.as_mut().and_then(|t| t.last_mut()) {
                last.planes.clone_from(&planes);
                (last.wanted, last.solved, last.next) = (Some(rest), Some(solved), Some(left));
            }
            if left.length() <= tiny {
                return if rest.length() <= tiny { MoveStatus::Moved } else { MoveStatus::Blocked };
            }
        }
        if left.length() <= tiny {
            MoveStatus::Moved
        } else {
            MoveStatus::MaxIterations
        }
    }

    /// Whether the step met a wall: a contact too steep to stand on and not facing down.
    fn met_a_wall(&self) -> bool {
        self.contacts
            .iter()
            .any(|c| !self.walkable(c.normal) && c.normal.dot(self.settings.up) > V::Real::from_f64(-1e-6))
    }

    /// Stairs: moves again from `from`, first up by the step height (less where a ceiling
    /// stops it), then by the displacement across `up`, then down by as much as it rose
    /// plus the displacement's own fall (one cast, no slide); keeps that path when it lands
    /// on walkable ground and gets further across than the plain slide did.
    fn try_step_up(&mut self, from: V, displacement: V, position: &mut V, status: &mut MoveStatus) {
        let up = self.settings.up;
        let across = displacement - up * displacement.dot(up);
        let across_len = across.length();
        if across_len <= V::Real::ZERO {
            return;
        }
        let mut trial = Step {
            contacts: Vec::new(),
            iterations: 0,
            shape: self.shape.clone(),
            phase: MovePhase::Stairs { kept: false },
            trace: self.trace.as_ref().map(|_| Vec::new()),
            ..*self
        };
        let mut at = from;
        trial.slide(&mut at, up * self.settings.step_height);
        let rose = (at - from).dot(up);
        let mut trial_status = trial.slide(&mut at, across);
        // Down without sliding: a slide would deflect off the step's edge and lose the
        // ground that the straight drop finds.
        let fall = up * -(rose + (-displacement.dot(up)).max(V::Real::ZERO));
        let landing = trial.cast(at, fall);
        self.iterations += trial.iterations;
        // A landing on walkable ground, or on a step's edge no higher above the start's foot
        // than the step height (a rounded character climbs a step by its edge).
        let landed = landing.filter(|l| self.supports(&l.contact, from));
        let mut kept = false;
        if let Some(landing) = landed {
            at += fall * landing.toi;
            trial.contacts.push(landing.contact);
            let dir = across / across_len;
            let gain = (at - from).dot(dir) - (*position - from).dot(dir);
            if gain > across_len * V::Real::from_f64(1e-6) {
                if trial_status == MoveStatus::Moved
                    && (at - from).dot(dir) < across_len * V::Real::from_f64(1.0 - 1e-9)
                {
                    trial_status = MoveStatus::Blocked;
                }
                *position = at;
                *status = trial_status;
                self.contacts = std::mem::take(&mut trial.contacts);
                kept = true;
            }
        }
        if let (Some(mine), Some(theirs)) = (self.trace.as_mut(), trial.trace.as_mut()) {
            for step in theirs.iter_mut() {
                step.phase = MovePhase::Stairs { kept };
            }
            mine.append(theirs);
        }
    }

    /// Pushes an overlapping start out along the contact normals; returns the new start and
    /// whether it overlapped.
    fn recover(&mut self, mut at: V) -> (V, bool) {
        let mut overlapped = false;
        let skin = self.settings.skin;
        if let Some(lift) = self.under_terrain(at) {
            overlapped = true;
            if let Some(trace) = self.trace.as_mut() {
                trace.push(MoveStep {
                    phase: MovePhase::Recover,
                    from: at,
                    motion: lift,
                    toi: None,
                    contact: None,
                    planes: Vec::new(),
                    wanted: None,
                    solved: None,
                    next: None,
                });
            }
            at += lift;
        }
        for _ in 0..RECOVERY_ROUNDS {
            let pose = self.pose(at);
            let mut push = V::ZERO;
            for hit in self.world.overlaps(&self.shape, &pose) {
                let Some((body, body_pose)) = self.world.body(hit.body) else { continue };
                let Some(c) = crate::world::contact(body, body_pose, &self.shape, &pose, V::Real::ZERO)
                else {
                    continue;
                };
                let depth = -c.value.distance;
                if depth > V::Real::ZERO && c.value.normal.is_finite_vec() {
                    push += c.value.normal * (depth + skin);
                }
            }
            if push == V::ZERO {
                break;
            }
            overlapped = true;
            // Bounded: never more than the character's size in one round.
            let reach = self.character.reach();
            let len = push.length();
            let made = if len > reach { push * (reach / len) } else { push };
            if let Some(trace) = self.trace.as_mut() {
                trace.push(MoveStep {
                    phase: MovePhase::Recover,
                    from: at,
                    motion: made,
                    toi: None,
                    contact: None,
                    planes: Vec::new(),
                    wanted: None,
                    solved: None,
                    next: None,
                });
            }
            at += made;
        }
        (at, overlapped)
    }

    /// A terrain is solid below its surface: a character whose position lies under a
    /// heightfield's surface, inside its footprint, is inside the ground. The lift along the
    /// terrain's up that stands it on the surface over its position (the deepest terrain's,
    /// where several hold it), the skin above; the overlap rounds settle the rest.
    fn under_terrain(&self, at: V) -> Option<V> {
        // Terrains above the character: the column over its position.
        let up = self.settings.up;
        let column = Aabb::from_point(at).swept(up * V::Real::from_f64(1.0e6));
        let mut lift: Option<V> = None;
        self.world.visit_overlaps(&column, |_, body, body_pose| {
            if let Shape3::HeightField(field) = body {
                let local = body_pose.inverse_transform_point(at);
                if let Some(surface) = field.surface_height(local[0], local[2]) {
                    let depth = surface - local[1];
                    if depth > V::Real::ZERO {
                        let field_up = body_pose.transform_vector(V::axis(1));
                        let rise = depth + self.character.half_height() + self.settings.skin;
                        let l = field_up * rise;
                        if lift.is_none_or(|m| l.length_squared() > m.length_squared()) {
                            lift = Some(l);
                        }
                    }
                }
            }
        });
        lift
    }

    /// Moves down to the ground within `snap_to_ground`, if walkable ground is there.
    fn snap(&mut self, position: &mut V) {
        let down = -self.settings.up * self.settings.snap_to_ground;
        if let Some(t) = self.cast(*position, down) {
            if self.supports(&t.contact, *position + down * t.toi) {
                *position += down * t.toi;
            }
        }
    }

    /// The ground within twice the skin below `at`: of the contacts there (every body's,
    /// not only the nearest: a ball resting on a floor may touch a step's edge beside it
    /// first), the one that holds the character up (walkable, or a step's edge) with the
    /// normal nearest `up`.
    fn ground(&mut self, at: V) -> Option<Ground<V>> {
        let up = self.settings.up;
        let probe = -up * (self.settings.skin * V::Real::from_f64(2.0));
        // The nearest contact first (the common case: it is the floor).
        let first = self.cast(at, probe)?;
        if self.supports(&first.contact, at) {
            let c = first.contact;
            return Some(Ground { normal: c.normal, body: c.body, part: c.part });
        }
        let touches = self.touches(at, probe);
        let best = touches
            .iter()
            .filter(|t| self.supports(&t.contact, at))
            .max_by(|x, y| {
                x.contact
                    .normal
                    .dot(up)
                    .partial_cmp(&y.contact.normal.dot(up))
                    .unwrap_or(core::cmp::Ordering::Equal)
            })
            .map(|t| t.contact);
        best.map(|c| Ground { normal: c.normal, body: c.body, part: c.part })
    }

    /// Every body's first contact along `motion` from `at` (unordered), recorded in the
    /// trace as one cast whose contact is the nearest.
    fn touches(&mut self, at: V, motion: V) -> Vec<Touch<V>> {
        self.iterations += 1;
        let this = &*self;
        let pose = this.pose(at);
        let swept = this.shape.aabb(&pose).loosened(this.settings.skin);
        let mut all: Vec<Touch<V>> = Vec::new();
        this.world.visit_swept(&swept, motion, V::Real::ONE, |id, body, body_pose, limit| {
            if let Some(t) = this.touch(id, body, body_pose, &pose, motion, limit) {
                all.push(t);
            }
            None
        });
        let phase = self.phase;
        if let Some(trace) = self.trace.as_mut() {
            let first = all.iter().reduce(|a, b| if b.before(a) { b } else { a });
            trace.push(MoveStep {
                phase,
                from: at,
                motion,
                toi: first.map(|t| t.toi),
                contact: first.map(|t| t.contact),
                planes: Vec::new(),
                wanted: None,
                solved: None,
                next: None,
            });
        }
        all
    }
}
