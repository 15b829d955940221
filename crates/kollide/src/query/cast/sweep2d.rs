//! The swept circle against segments (2D).
