"""Type stubs of kollide (the compiled module `kollide._kollide` and the enums)."""

import enum
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

ArrayLike = npt.ArrayLike
F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]
Bools = npt.NDArray[np.bool_]
Shapes = Union["Shape", Sequence["Shape"]]

class Shape:
    """Any kollide shape: immutable, hashable, picklable."""
    @property
    def dim(self) -> int: ...
    def aabb(self, translation: Optional[ArrayLike] = None, rotation: Optional[ArrayLike] = None) -> Tuple[F64, F64]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Ball(Shape):
    def __init__(self, radius: float) -> None: ...

class Cuboid(Shape):
    def __init__(self, half_extents: ArrayLike) -> None: ...

class Capsule(Shape):
    def __init__(self, half_height: float, radius: float) -> None: ...

class Cylinder(Shape):
    def __init__(self, half_height: float, radius: float) -> None: ...

class Cone(Shape):
    def __init__(self, half_height: float, radius: float) -> None: ...

class Ellipsoid(Shape):
    def __init__(self, radii: ArrayLike) -> None: ...

class Segment(Shape):
    def __init__(self, a: ArrayLike, b: ArrayLike) -> None: ...

class Triangle(Shape):
    def __init__(self, a: ArrayLike, b: ArrayLike, c: ArrayLike) -> None: ...

class ConvexHull(Shape):
    def __init__(self, points: ArrayLike) -> None: ...

class Rounded(Shape):
    def __init__(self, shape: Shape, radius: float) -> None: ...

class TriMesh(Shape):
    def __init__(self, vertices: ArrayLike, faces: ArrayLike) -> None: ...
    @staticmethod
    def from_file(path: Union[str, os.PathLike[str]], weld: Optional[float] = 0.0) -> TriMesh: ...
    @property
    def triangle_count(self) -> int: ...

class HeightField(Shape):
    def __init__(self, heights: ArrayLike, scale: ArrayLike) -> None: ...
    @staticmethod
    def from_png(path: str, scale: ArrayLike) -> HeightField: ...

class Compound(Shape):
    def __init__(
        self, shapes: Sequence[Shape], translations: Optional[ArrayLike] = None, rotations: Optional[ArrayLike] = None
    ) -> None: ...

class Circle(Shape):
    def __init__(self, radius: float) -> None: ...

class Rectangle(Shape):
    def __init__(self, half_extents: ArrayLike) -> None: ...

class Capsule2D(Shape):
    def __init__(self, half_height: float, radius: float) -> None: ...

class Ellipse(Shape):
    def __init__(self, radii: ArrayLike) -> None: ...

class Segment2D(Shape):
    def __init__(self, a: ArrayLike, b: ArrayLike) -> None: ...

class Triangle2D(Shape):
    def __init__(self, a: ArrayLike, b: ArrayLike, c: ArrayLike) -> None: ...

class ConvexPolygon(Shape):
    def __init__(self, points: ArrayLike) -> None: ...

class ConcavePolygon(Shape):
    def __init__(self, points: ArrayLike) -> None: ...

class Polyline(Shape):
    def __init__(self, vertices: ArrayLike) -> None: ...

class DistanceResult:
    distance: F64
    point_a: F64
    point_b: F64
    normal: F64
    lower_bound: F64
    upper_bound: F64
    status: I8
    part_a: I64
    part_b: I64

class ContactResult:
    hit: Bools
    distance: F64
    normal: F64
    point_a: F64
    point_b: F64
    status: I8
    part_a: I64
    part_b: I64

class ManifoldResult:
    count: I64
    normal: F64
    point_a: F64
    point_b: F64
    distance: F64
    status: I8
    part_a: I64
    part_b: I64

class CastResult:
    hit: Bools
    toi: F64
    safe_toi: F64
    distance: F64
    point_a: F64
    point_b: F64
    normal: F64
    status: I8

class RayResult:
    hit: Bools
    toi: F64
    point: F64
    normal: F64
    part: I64
    inside: Bools
    body: Optional[I64]

class SweepResult:
    hit: Bools
    toi: F64
    point: F64
    normal: F64
    part: I64
    feature: I8
    started_within: Bools

class MoveResult:
    position: F64
    displacement: F64
    grounded: bool
    ground_normal: Optional[F64]
    ground_body: int
    status: int
    iterations: int
    contacts: List[Dict[str, Any]]

class GjkStatus(enum.IntEnum):
    CONVERGED = 0
    OVERLAPPING = 1
    STALLED = 2
    MAX_ITERATIONS = 3
    NON_FINITE_SUPPORT = 4

class ContactStatus(enum.IntEnum):
    CONVERGED = 0
    STALLED = 1
    MAX_ITERATIONS = 2
    DEGENERATE = 3
    NON_FINITE_SUPPORT = 4

class CastStatus(enum.IntEnum):
    HIT = 0
    MISS = 1
    STARTED_WITHIN = 2
    FAILED = 3

class SweepFeature(enum.IntEnum):
    FACE = 0
    EDGE = 1
    VERTEX = 2

class MoveStatus(enum.IntEnum):
    MOVED = 0
    BLOCKED = 1
    MAX_ITERATIONS = 2
    STARTED_INSIDE = 3

def intersects(
    a: Shapes,
    b: Shapes,
    *,
    translations_a: Optional[ArrayLike] = None,
    rotations_a: Optional[ArrayLike] = None,
    translations_b: Optional[ArrayLike] = None,
    rotations_b: Optional[ArrayLike] = None,
) -> Bools: ...
def distance(
    a: Shapes,
    b: Shapes,
    *,
    translations_a: Optional[ArrayLike] = None,
    rotations_a: Optional[ArrayLike] = None,
    translations_b: Optional[ArrayLike] = None,
    rotations_b: Optional[ArrayLike] = None,
) -> DistanceResult: ...
def contact(
    a: Shapes,
    b: Shapes,
    margin: float = 0.0,
    *,
    translations_a: Optional[ArrayLike] = None,
    rotations_a: Optional[ArrayLike] = None,
    translations_b: Optional[ArrayLike] = None,
    rotations_b: Optional[ArrayLike] = None,
) -> ContactResult: ...
def manifold(
    a: Shapes,
    b: Shapes,
    margin: float = 0.0,
    *,
    translations_a: Optional[ArrayLike] = None,
    rotations_a: Optional[ArrayLike] = None,
    translations_b: Optional[ArrayLike] = None,
    rotations_b: Optional[ArrayLike] = None,
) -> ManifoldResult: ...
def shape_cast(
    a: Shapes,
    b: Shapes,
    *,
    velocities_a: Optional[ArrayLike] = None,
    velocities_b: Optional[ArrayLike] = None,
    angular_velocities_a: Optional[ArrayLike] = None,
    angular_velocities_b: Optional[ArrayLike] = None,
    max_toi: float = 1.0,
    target_distance: float = 0.0,
    translations_a: Optional[ArrayLike] = None,
    rotations_a: Optional[ArrayLike] = None,
    translations_b: Optional[ArrayLike] = None,
    rotations_b: Optional[ArrayLike] = None,
) -> CastResult: ...
def ray_cast(
    shape: Shape,
    origins: ArrayLike,
    directions: ArrayLike,
    max_toi: float = ...,
    *,
    translation: Optional[ArrayLike] = None,
    rotation: Optional[ArrayLike] = None,
) -> RayResult: ...
def sweep_sphere(
    mesh: Union[Shape, ArrayLike],
    centers: ArrayLike,
    radius: Union[float, ArrayLike],
    displacements: ArrayLike,
    *,
    translation: Optional[ArrayLike] = None,
    rotation: Optional[ArrayLike] = None,
    back_faces: bool = True,
) -> SweepResult: ...
def sweep_ellipsoid(
    mesh: Union[Shape, ArrayLike],
    centers: ArrayLike,
    radii: ArrayLike,
    displacements: ArrayLike,
    *,
    rotations: Optional[ArrayLike] = None,
    translation: Optional[ArrayLike] = None,
    rotation: Optional[ArrayLike] = None,
    back_faces: bool = True,
) -> SweepResult: ...

class World:
    def __init__(self, margin: float = 0.1) -> None: ...
    def __len__(self) -> int: ...
    def insert(
        self,
        shape: Shape,
        translation: Optional[ArrayLike] = None,
        rotation: Optional[ArrayLike] = None,
        *,
        kind: str = "dynamic",
        memberships: int = 0xFFFFFFFF,
        filter: int = 0xFFFFFFFF,
        user_data: int = 0,
    ) -> int: ...
    def user_data(self, id: int) -> int: ...
    def insert_many(
        self, shapes: Shapes, translations: Optional[ArrayLike] = None, rotations: Optional[ArrayLike] = None
    ) -> I64: ...
    def remove(self, ids: Union[int, ArrayLike]) -> None: ...
    def set_poses(
        self, ids: Union[int, ArrayLike], translations: Optional[ArrayLike] = None, rotations: Optional[ArrayLike] = None
    ) -> None: ...
    def ray_cast(self, origins: ArrayLike, directions: ArrayLike, max_toi: float = ...) -> RayResult: ...
    def overlaps(
        self, shape: Shape, translation: Optional[ArrayLike] = None, rotation: Optional[ArrayLike] = None
    ) -> Tuple[I64, I64]: ...
    def closest(
        self,
        shape: Shape,
        translations: Optional[ArrayLike] = None,
        rotations: Optional[ArrayLike] = None,
        max_distance: float = ...,
    ) -> Dict[str, np.ndarray]: ...
    def contact_pairs(self, margin: float = 0.0) -> Tuple[I64, I64, ManifoldResult]: ...
    def contacts(self, margin: float = 0.0) -> Contacts: ...

class Contacts:
    a: I64
    b: I64
    manifolds: ManifoldResult
    started: I64
    stopped: I64

def move_and_slide(
    world: World,
    character: Shape,
    position: ArrayLike,
    displacement: ArrayLike,
    *,
    skin: float = 0.001,
    max_iterations: int = 8,
    up: Optional[ArrayLike] = None,
    max_slope: float = 0.8,
    step_height: float = 0.0,
    snap_to_ground: float = 0.0,
    climb_walls: bool = False,
) -> MoveResult: ...
def move_and_slide_many(
    world: World,
    character: Shape,
    positions: ArrayLike,
    displacements: ArrayLike,
    *,
    skin: float = 0.001,
    max_iterations: int = 8,
    up: Optional[ArrayLike] = None,
    max_slope: float = 0.8,
    step_height: float = 0.0,
    snap_to_ground: float = 0.0,
    climb_walls: bool = False,
) -> Dict[str, np.ndarray]: ...
