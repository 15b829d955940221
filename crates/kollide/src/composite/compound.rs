//! Compounds: convex shapes, each with its own pose, in one BVH.

use super::Composite;
use crate::bvh::Bvh;
use crate::math::Pose;
use crate::query::Space;
use crate::shape::{bounding_box, Support};
use std::fmt;

/// Why a [`Compound`] could not be built.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CompoundError {
    /// No parts.
    Empty,
    /// A part's pose is not finite or its rotation is not normalized.
    BadPose {
        /// The part.
        part: usize,
    },
    /// A part's bounding box is not finite (its support function gave a non-finite point).
    NonFiniteBounds {
        /// The part.
        part: usize,
    },
    /// More parts than `u32` indices address.
    TooLarge {
        /// How many were given.
        count: usize,
    },
}

impl fmt::Display for CompoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("a compound needs at least one part, got none"),
            Self::BadPose { part } => {
                write!(f, "parts[{part}] has a pose that is not finite or whose rotation is not normalized")
            }
            Self::NonFiniteBounds { part } => {
                write!(f, "parts[{part}] has a bounding box that is not finite")
            }
            Self::TooLarge { count } => write!(f, "{count} parts are more than u32 indices address"),
        }
    }
}

impl std::error::Error for CompoundError {}

/// Convex shapes, each placed by its own pose in the compound's **local frame**, in a
/// [`Bvh`]. Queries answer through the parts ([`super::distance`], ...), naming
/// the part. The parts are solids: a shape inside one overlaps the compound.
///
/// `S` is any convex shape type; [`Convex2`](crate::shape::Convex2) /
/// [`Convex3`](crate::shape::Convex3) mix shapes chosen at run time.
///
/// ```
/// use kollide::composite::{self, Compound};
/// use kollide::shape::{Ball, Convex3, Cuboid, Cylinder};
/// use kollide::math::{DPose3, DVec3};
/// // A tree: a trunk and a crown.
/// let tree = Compound::new(vec![
///     (DPose3::IDENTITY, Convex3::Cylinder(Cylinder::new(1.0, 0.2))),
///     (DPose3::from_translation(DVec3::new(0.0, 2.0, 0.0)), Convex3::Ball(Ball::new(1.0))),
/// ]);
/// let out = composite::distance(&tree, &DPose3::IDENTITY, &Ball::new(0.5), &DPose3::from_translation(DVec3::new(0.0, 4.0, 0.0)));
/// assert_eq!(out.part_a, Some(1));
/// assert!((out.value.distance - 0.5).abs() < 1e-12);
/// ```
#[derive(Clone, Debug)]
pub struct Compound<V: Space, S> {
    parts: Vec<(Pose<V>, S)>,
    bvh: Bvh<V>,
}

impl<V: Space, S: Support<V>> Compound<V, S> {
    /// The compound of `parts`, each `(pose in the compound's frame, shape)`.
    ///
    /// # Errors
    /// [`CompoundError`] naming the part: no parts, a non-finite or unnormalized pose, a
    /// non-finite bounding box.
    pub fn try_new(parts: Vec<(Pose<V>, S)>) -> Result<Self, CompoundError> {
        if parts.is_empty() {
            return Err(CompoundError::Empty);
        }
        if parts.len() >= u32::MAX as usize {
            return Err(CompoundError::TooLarge { count: parts.len() });
        }
        let mut boxes = Vec::with_capacity(parts.len());
        for (part, (pose, shape)) in parts.iter().enumerate() {
            if Pose::try_new(pose.translation, pose.rotation).is_err() {
                return Err(CompoundError::BadPose { part });
            }
            let b = bounding_box(shape, pose);
            if !b.is_finite() {
                return Err(CompoundError::NonFiniteBounds { part });
            }
            boxes.push(b);
        }
        let bvh = Bvh::try_new_best(&boxes).map_err(|_| CompoundError::TooLarge { count: parts.len() })?;
        Ok(Self { parts, bvh })
    }

    /// The compound of `parts`.
    ///
    /// # Panics
    /// With the message of [`try_new`](Self::try_new)'s error.
    #[must_use]
    pub fn new(parts: Vec<(Pose<V>, S)>) -> Self {
        Self::try_new(parts).unwrap_or_else(|e| panic!("Compound::new: {e}"))
    }

    /// The parts and their poses.
    #[must_use]
    pub fn parts(&self) -> &[(Pose<V>, S)] {
        &self.parts
    }

    /// The hierarchy over the parts' boxes (item `i` is part `i`).
    #[must_use]
    pub fn bvh(&self) -> &Bvh<V> {
        &self.bvh
    }
}

impl<V: Space, S: Support<V>> Composite<V> for Compound<V, S> {
    type Part<'a>
        = &'a S
    where
        S: 'a;

    fn part_count(&self) -> usize {
        self.parts.len()
    }

    #[inline]
    fn part(&self, i: u32) -> &S {
        &self.parts[i as usize].1
    }

    #[inline]
    fn part_pose(&self, i: u32) -> Option<Pose<V>> {
        Some(self.parts[i as usize].0)
    }

    walks_of_bvh!(self => self.bvh);
}
