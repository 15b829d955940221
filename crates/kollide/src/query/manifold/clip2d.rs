//! Contact manifolds in 2D: clipping the incident edge against the reference edge (to be
//! written).

use super::Manifold;
use crate::math::Vector2;
use crate::query::contact::CoreContact;
use crate::shape::SupportFace;

/// Clips the core faces `face_a` and `face_b` (A's frame) along `contact` into `out`.
pub(crate) fn clip<V: Vector2>(
    face_a: &SupportFace<V>,
    face_b: &SupportFace<V>,
    contact: &CoreContact<V>,
    radius_a: V::Real,
    radius_b: V::Real,
    margin: V::Real,
    out: &mut Manifold<V>,
) {
    let _ = (face_a, face_b, contact, radius_a, radius_b, margin, out);
}
