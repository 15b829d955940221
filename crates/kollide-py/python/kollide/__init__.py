"""kollide for Python: collision detection in 2D and 3D for numpy batches.

Shapes are immutable, hashable and picklable. Every query takes one shape (or a list of
N shapes) per side and N poses, and answers with numpy arrays, one row per query, in f64,
computed on all cores without the GIL.

>>> import numpy as np, kollide
>>> a, b = kollide.Ball(1.0), kollide.Cuboid([0.5, 0.5, 0.5])
>>> r = kollide.distance(a, b, translations_b=np.array([[3.0, 0, 0], [4.0, 0, 0]]))
>>> r.distance
array([1.5, 2.5])
>>> kollide.GjkStatus(r.status[0]).name
'CONVERGED'
>>> kollide.intersects(a, b, translations_b=[[1.4, 0, 0], [1.6, 0, 0]])
array([ True, False])
"""

import enum as _enum

from . import _kollide
from ._kollide import (
    Ball,
    Capsule,
    Capsule2D,
    CastResult,
    Circle,
    Compound,
    ConcavePolygon,
    Cone,
    ContactResult,
    Contacts,
    ConvexHull,
    ConvexPolygon,
    Cuboid,
    Cylinder,
    DistanceResult,
    Ellipse,
    Ellipsoid,
    HeightField,
    ManifoldResult,
    MoveResult,
    Polyline,
    RayResult,
    Rectangle,
    Rounded,
    Segment,
    Segment2D,
    Shape,
    SweepResult,
    Triangle,
    Triangle2D,
    TriMesh,
    World,
    contact,
    distance,
    intersects,
    manifold,
    move_and_slide,
    move_and_slide_many,
    ray_cast,
    shape_cast,
    sweep_ellipsoid,
    sweep_sphere,
)


class GjkStatus(_enum.IntEnum):
    """How a distance query ended (the codes of `DistanceResult.status`)."""

    CONVERGED = 0
    """The bounds met within the tolerance."""
    OVERLAPPING = 1
    """The cores overlap."""
    STALLED = 2
    """Rounding stopped progress; the bounds still hold."""
    MAX_ITERATIONS = 3
    """The iteration cap was reached; the bounds still hold."""
    NON_FINITE_SUPPORT = 4
    """A support point was not finite: nothing is certified."""


class ContactStatus(_enum.IntEnum):
    """How a contact or manifold query ended (-1 in the arrays: no contact)."""

    CONVERGED = 0
    STALLED = 1
    MAX_ITERATIONS = 2
    DEGENERATE = 3
    NON_FINITE_SUPPORT = 4


class CastStatus(_enum.IntEnum):
    """How a shape cast ended (the codes of `CastResult.status`)."""

    HIT = 0
    MISS = 1
    STARTED_WITHIN = 2
    FAILED = 3


class SweepFeature(_enum.IntEnum):
    """The feature of a triangle a sweep or a mover touched (-1: none)."""

    FACE = 0
    EDGE = 1
    VERTEX = 2


class MoveStatus(_enum.IntEnum):
    """How a move ended (`MoveResult.status`, `move_and_slide_many(...)["status"]`)."""

    MOVED = 0
    BLOCKED = 1
    MAX_ITERATIONS = 2
    STARTED_INSIDE = 3


__all__ = [
    "Ball",
    "Capsule",
    "Capsule2D",
    "CastResult",
    "CastStatus",
    "Circle",
    "Compound",
    "ConcavePolygon",
    "Cone",
    "ContactResult",
    "ContactStatus",
    "ConvexHull",
    "Contacts",
    "ConvexPolygon",
    "Cuboid",
    "Cylinder",
    "DistanceResult",
    "Ellipse",
    "Ellipsoid",
    "GjkStatus",
    "HeightField",
    "ManifoldResult",
    "MoveResult",
    "MoveStatus",
    "Polyline",
    "RayResult",
    "Rectangle",
    "Rounded",
    "Segment",
    "Segment2D",
    "Shape",
    "SweepFeature",
    "SweepResult",
    "Triangle",
    "Triangle2D",
    "TriMesh",
    "World",
    "contact",
    "distance",
    "intersects",
    "manifold",
    "move_and_slide",
    "move_and_slide_many",
    "ray_cast",
    "shape_cast",
    "sweep_ellipsoid",
    "sweep_sphere",
]
