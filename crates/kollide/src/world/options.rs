//! What a body is besides its shape and pose: its kind, its collision groups and the
//! user's own value, and what a frame of contacts reports.

use super::bodies::{BodyId, ContactPair};
use crate::query::Space;

/// How a body moves, which decides the pairs it takes part in (as in Box2D and rapier).
///
/// Contact pairs are formed only when at least one body is [`BodyKind::Dynamic`]: two
/// static bodies, two kinematic ones, or a static and a kinematic one never make a pair
/// (a kinematic body is moved by its user, who asks its own queries, such as the mover's).
/// Every kind answers the world's queries (rays, casts, overlaps, closest).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyKind {
    /// Moved by a simulation: pairs with every kind.
    #[default]
    Dynamic,
    /// Moved by its user (a platform, a character): pairs with dynamic bodies only.
    Kinematic,
    /// Does not move (ground, walls): pairs with dynamic bodies only.
    Static,
}

/// Collision groups: which groups a body belongs to and which it meets, 32 bits each.
///
/// Two bodies meet when each one's `memberships` share a bit with the other's `filter`
/// (`a.memberships & b.filter != 0 && b.memberships & a.filter != 0`), the rule of Box2D's
/// category and mask bits and of rapier's interaction groups. Filtered-out pairs get no
/// contacts; the queries (rays, casts, overlaps, closest) ignore groups.
///
/// ```
/// use kollide::world::CollisionGroups;
/// let player = CollisionGroups::new(0b01, 0b10);
/// let enemy = CollisionGroups::new(0b10, 0b01);
/// let ghost = CollisionGroups::new(0b100, 0);
/// assert!(player.interacts_with(enemy));
/// assert!(!player.interacts_with(ghost));
/// assert!(CollisionGroups::ALL.interacts_with(CollisionGroups::ALL));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionGroups {
    /// The groups the body belongs to.
    pub memberships: u32,
    /// The groups it meets.
    pub filter: u32,
}

impl CollisionGroups {
    /// Member of every group, meeting every group: the default.
    pub const ALL: Self = Self { memberships: u32::MAX, filter: u32::MAX };
    /// Meets nothing.
    pub const NONE: Self = Self { memberships: 0, filter: 0 };

    /// Groups from their two masks.
    #[must_use]
    pub const fn new(memberships: u32, filter: u32) -> Self {
        Self { memberships, filter }
    }

    /// Whether two bodies with these groups meet (the rule is symmetric).
    #[must_use]
    pub const fn interacts_with(self, other: Self) -> bool {
        self.memberships & other.filter != 0 && other.memberships & self.filter != 0
    }
}

impl Default for CollisionGroups {
    fn default() -> Self {
        Self::ALL
    }
}

/// Everything about a new body but its shape and pose, for
/// [`World::insert_with`](super::World::insert_with). The default is a dynamic body in
/// every group with user data 0: what [`World::insert`](super::World::insert) makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyOptions {
    /// How it moves.
    pub kind: BodyKind,
    /// Which bodies it meets.
    pub groups: CollisionGroups,
    /// The user's own value (an entity id, an index), handed back untouched.
    pub user_data: u64,
}

impl BodyOptions {
    /// A body of `kind`, in every group, user data 0.
    #[must_use]
    pub fn of_kind(kind: BodyKind) -> Self {
        Self { kind, ..Self::default() }
    }
}

/// Whether two bodies get contacts: one at least is dynamic and their groups meet.
#[inline]
pub(super) fn pairs_with(a: &BodyOptions, b: &BodyOptions) -> bool {
    (a.kind == BodyKind::Dynamic || b.kind == BodyKind::Dynamic) && a.groups.interacts_with(b.groups)
}

/// The contacts of a frame ([`World::contacts`](super::World::contacts)): the pairs in
/// contact now, and which pairs began and stopped being in contact since the previous
/// frame. All sorted by body ids; each pair `(a, b)` has `a < b`.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactFrame<V: Space> {
    /// Pairs whose manifold has points within the frame's margin.
    pub pairs: Vec<ContactPair<V>>,
    /// Pairs in contact now and not at the previous frame.
    pub started: Vec<(BodyId, BodyId)>,
    /// Pairs in contact at the previous frame and not now: parted, filtered out since, or a
    /// body removed (its id is the removed body's).
    pub stopped: Vec<(BodyId, BodyId)>,
}
