//! Separating-axis tests.

mod box_box;

pub(crate) use box_box::boxes_intersect;
