"""Shapes: construction, validation errors, repr, equality, hashing and pickling."""

import pickle

import numpy as np
import pytest

import kollide


def all_shapes():
    hull_points = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.2, 0.2, 0.2]])
    mesh = kollide.TriMesh([[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]], [[0, 2, 1], [0, 3, 2]])
    return [
        kollide.Ball(0.5),
        kollide.Cuboid([0.5, 1.0, 2.0]),
        kollide.Capsule(0.5, 0.25),
        kollide.Cylinder(1.0, 0.5),
        kollide.Cone(1.0, 0.5),
        kollide.Ellipsoid([1.0, 2.0, 3.0]),
        kollide.Segment([0, 0, 0], [1, 0, 0]),
        kollide.Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]),
        kollide.ConvexHull(hull_points),
        kollide.Rounded(kollide.Cuboid([1, 1, 1]), 0.1),
        mesh,
        kollide.HeightField(np.arange(12.0).reshape(3, 4) / 10, [10, 1, 10]),
        kollide.Compound([kollide.Ball(1.0), kollide.Cuboid([1, 1, 1])], translations=[[-2, 0, 0], [2, 0, 0]]),
        kollide.Circle(1.0),
        kollide.Rectangle([1.0, 0.5]),
        kollide.Capsule2D(0.5, 0.25),
        kollide.Ellipse([1.0, 0.5]),
        kollide.Segment2D([0, 0], [1, 1]),
        kollide.Triangle2D([0, 0], [1, 0], [0, 1]),
        kollide.ConvexPolygon([[0, 0], [1, 0], [1, 1], [0, 1]]),
        kollide.ConcavePolygon([[0, 0], [2, 0], [2, 2], [1, 1], [0, 2]]),
        kollide.Polyline([[0, 0], [1, 0], [2, 1]]),
        kollide.Rounded(kollide.Rectangle([1, 1]), 0.2),
        kollide.Compound([kollide.Circle(1.0), kollide.Circle(1.0)], translations=[[-2, 0], [2, 0]], rotations=[0.0, 0.5]),
    ]


@pytest.mark.parametrize("shape", all_shapes(), ids=lambda s: type(s).__name__)
def test_pickle_round_trip_gives_an_equal_shape_with_the_same_hash_and_answers(shape):
    back = pickle.loads(pickle.dumps(shape))
    assert type(back) is type(shape)
    assert back == shape and hash(back) == hash(shape)
    assert repr(back) == repr(shape)
    probe = kollide.Ball(0.3) if shape.dim == 3 else kollide.Circle(0.3)
    t = [[3.0, 0.5, 0.2]] if shape.dim == 3 else [[3.0, 0.5]]
    d1 = kollide.distance(shape, probe, translations_b=t).distance
    d2 = kollide.distance(back, probe, translations_b=t).distance
    assert d1 == d2


def test_repr_names_the_class_and_its_arguments():
    assert repr(kollide.Ball(0.5)) == "Ball(radius=0.5)"
    assert repr(kollide.Capsule(0.5, 0.25)) == "Capsule(half_height=0.5, radius=0.25)"
    assert repr(kollide.Cuboid([1, 2, 3])) == "Cuboid(half_extents=[1.0, 2.0, 3.0])"
    assert repr(kollide.ConvexHull(np.eye(3).tolist() + [[0, 0, 0]])) == "ConvexHull(points=<array of shape (4, 3)>)"


def test_equal_arguments_make_equal_shapes_and_different_ones_do_not():
    assert kollide.Ball(1.0) == kollide.Ball(1)
    assert kollide.Ball(1.0) != kollide.Ball(1.5)
    assert kollide.Ball(1.0) != kollide.Circle(1.0)
    assert len({kollide.Ball(1.0), kollide.Ball(1.0), kollide.Ball(2.0)}) == 2
    assert kollide.Ball(1.0) != "Ball(radius=1.0)"


def test_shapes_are_immutable():
    b = kollide.Ball(1.0)
    with pytest.raises(AttributeError):
        b.radius = 2.0


def test_every_shape_is_a_shape_of_its_dimension():
    for s in all_shapes():
        assert isinstance(s, kollide.Shape)
        assert s.dim in (2, 3)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: kollide.Ball(-1.0), "radius: must be > 0, got -1"),
        (lambda: kollide.Ball(0.0), "radius: must be > 0, got 0"),
        (lambda: kollide.Ball(float("nan")), "radius: is not finite"),
        (lambda: kollide.Cuboid([1, -2, 1]), "half_extents"),
        (lambda: kollide.Cuboid([1, 2]), "half_extents: expected shape (3,), got [2]"),
        (lambda: kollide.Capsule(0.5, -0.1), "radius: must be > 0"),
        (lambda: kollide.ConvexHull([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]), "points"),
        (lambda: kollide.ConvexHull(np.zeros((5, 2))), "points: expected shape (N, 3)"),
        (lambda: kollide.TriMesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 3]]), "faces[0]: vertex index 3 is out of range"),
        (lambda: kollide.TriMesh([[0, 0, 0], [1, 0, 0], [np.inf, 1, 0]], [[0, 1, 2]]), "vertices"),
        (lambda: kollide.HeightField(np.zeros(4), [1, 1, 1]), "heights: expected a 2D array"),
        (lambda: kollide.Rounded(kollide.Ball(1.0), -0.5), "radius"),
        (lambda: kollide.Compound([]), "shapes: a compound needs at least one part"),
        (lambda: kollide.ConcavePolygon([[0, 0], [2, 2], [2, 0], [0, 2]]), "points"),
        (lambda: kollide.TriMesh.from_file("/nonexistent/rock.obj"), "path"),
        (lambda: kollide.TriMesh.from_file("mesh.xyz"), "unknown mesh format"),
    ],
)
def test_bad_values_raise_value_error_naming_the_argument(make, message):
    with pytest.raises(ValueError) as e:
        make()
    assert message in str(e.value)


@pytest.mark.parametrize(
    "make",
    [
        lambda: kollide.Ball("one"),
        lambda: kollide.Cuboid(["a", "b", "c"]),
        lambda: kollide.TriMesh(np.zeros((3, 3)), np.array([[0.0, 1.0, 2.0]])),
        lambda: kollide.Rounded("ball", 0.1),
        lambda: kollide.Compound([kollide.Ball(1.0), kollide.TriMesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]])]),
        lambda: kollide.Compound([kollide.Ball(1.0), 3]),
    ],
)
def test_wrong_types_raise_type_error(make):
    with pytest.raises(TypeError):
        make()


def test_a_mesh_from_a_file_matches_the_same_mesh_from_arrays(tmp_path):
    path = tmp_path / "quad.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 3 2\nf 1 4 3\n")
    m = kollide.TriMesh.from_file(str(path))
    assert m.triangle_count == 2
    same = kollide.TriMesh([[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]], [[0, 2, 1], [0, 3, 2]])
    assert m == same
    assert pickle.loads(pickle.dumps(m)) == m


def test_heightfield_from_png_reads_the_repositorys_terrain():
    import pathlib

    png = pathlib.Path(__file__).resolve().parents[3] / "examples" / "terrain.png"
    if not png.exists():
        pytest.skip("examples/terrain.png is not in this checkout")
    h = kollide.HeightField.from_png(str(png), [64, 4, 64])
    lo, hi = h.aabb()
    assert lo[0] == pytest.approx(-32) and hi[2] == pytest.approx(32)
    assert 0 <= lo[1] <= hi[1] <= 4
    assert pickle.loads(pickle.dumps(h)) == h
