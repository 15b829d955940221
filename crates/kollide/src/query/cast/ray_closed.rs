//! Closed-form ray casts against the primitives, in the shape's local frame.
