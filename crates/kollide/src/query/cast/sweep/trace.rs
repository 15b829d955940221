//! What the swept sphere (circle, ellipsoid, ellipse) tried, item by item: the record the
//! traced [`super::sweep`] fills, and the probe the per-item tests report to.

use crate::query::Space;

/// Which test of one triangle (segment) a [`SweepStep`] records.
///
/// A triangle is first culled or found out of reach, or else judged at the start (is the
/// sphere already on it?); then its face plane is tried, and when the face does not
/// answer, each edge's cylinder and each corner's sphere. In 2D a segment's interior is its
/// face and its end points its vertices (`Vertex(0)` is `a`, `Vertex(1)` is `b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SweepTest {
    /// A back face skipped under [`super::BackFaces::Cull`].
    Culled,
    /// The plane is farther than the motion reaches before the earliest hit so far.
    OutOfReach,
    /// The sphere starts on the item or within the rounding band of it.
    Start,
    /// The face plane (the segment's line in 2D) at distance `radius`.
    Face,
    /// The cylinder about edge `k` (`0`: a→b, `1`: b→c, `2`: c→a).
    Edge(u8),
    /// The sphere about corner `k` (`0`: a, `1`: b, `2`: c).
    Vertex(u8),
}

/// What a [`SweepStep`]'s test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SweepVerdict {
    /// Nothing to test (culled, or out of reach).
    Skipped,
    /// The sphere starts overlapping the item deeper than the rounding band.
    Overlapping,
    /// The sphere starts touching the item but moves along it or away: no contact.
    Grazing,
    /// The path never comes within the radius (or only grazes within the band, or moves
    /// away or parallel): no root.
    NoRoot,
    /// A root on the feature, but later than the earliest contact known then.
    TooLate,
    /// A root, but the touched point is off the feature (the face plane's foot outside
    /// the triangle, the edge line's point beyond its ends): the edges and corners decide.
    OffFeature,
    /// A root on the feature, the earliest so far for this item: a candidate contact.
    Hit,
}

/// One test of one item by a traced sweep, in the **world frame**.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepStep<V: Space> {
    /// The item's index in the slice (the triangle or segment), 0-based.
    pub index: usize,
    /// What was tested.
    pub test: SweepTest,
    /// What the test concluded.
    pub verdict: SweepVerdict,
    /// The root, as a fraction of the displacement, when the test found one.
    pub toi: Option<V::Real>,
    /// The point of the item touched at that root (for [`SweepTest::Start`], the item's
    /// point closest to the centre).
    pub point: Option<V>,
}

/// What the per-item tests report to: nothing (`()`, compiled away) or a list of steps.
pub trait Probe<V: Space> {
    /// Whether anything is recorded (lets a test skip work done only for the record).
    const ON: bool;
    /// One test of the current item; points in the item's frame.
    fn tried(&mut self, test: SweepTest, verdict: SweepVerdict, toi: Option<V::Real>, point: Option<V>);
    /// The current item is done: names it `index` and places its points by `place`.
    fn item_done(&mut self, index: usize, place: impl Fn(V) -> V);
}

impl<V: Space> Probe<V> for () {
    const ON: bool = false;
    #[inline(always)]
    fn tried(&mut self, _: SweepTest, _: SweepVerdict, _: Option<V::Real>, _: Option<V>) {}
    #[inline(always)]
    fn item_done(&mut self, _: usize, _: impl Fn(V) -> V) {}
}

/// Steps not yet assigned to an item carry this index.
const PENDING: usize = usize::MAX;

impl<V: Space> Probe<V> for Vec<SweepStep<V>> {
    const ON: bool = true;
    fn tried(&mut self, test: SweepTest, verdict: SweepVerdict, toi: Option<V::Real>, point: Option<V>) {
        self.push(SweepStep { index: PENDING, test, verdict, toi, point });
    }
    fn item_done(&mut self, index: usize, place: impl Fn(V) -> V) {
        for step in self.iter_mut().rev().take_while(|s| s.index == PENDING) {
            step.index = index;
            step.point = step.point.map(&place);
        }
    }
}
