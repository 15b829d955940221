//! What the 2D and 3D heightfields' walks share.

use crate::math::Real;

/// Offers the candidates `(entry time, part)` to `f(part, best)` in order of entry time
/// (then of part), skipping those entered after the best hit so far, with the contract of
/// [`Bvh::cast_ray`](crate::bvh::Bvh::cast_ray): `f` returns the part's hit time when at or
/// before `best` (`max_toi` at first). Returns the best part and time.
pub(super) fn offer_in_order<R: Real>(
    mut found: Vec<(R, u32)>,
    max_toi: R,
    mut f: impl FnMut(u32, R) -> Option<R>,
) -> Option<(u32, R)> {
    found.sort_by(|a, b| a.0.to_f64().total_cmp(&b.0.to_f64()).then(a.1.cmp(&b.1)));
    let mut limit = max_toi;
    let mut best = None;
    for (t, i) in found {
        if t > limit {
            break;
        }
        if let Some(hit) = f(i, limit) {
            if hit <= limit {
                limit = hit;
                best = Some((i, hit));
            }
        }
    }
    best
}
