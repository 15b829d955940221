"""The batch queries against closed forms, and their handling of poses and arrays."""

import numpy as np
import pytest

import kollide

RNG = np.random.default_rng(7)


def test_ball_ball_distance_is_the_gap_between_centres_minus_the_radii():
    centres = RNG.uniform(-5, 5, (1000, 3))
    r = kollide.distance(kollide.Ball(0.5), kollide.Ball(0.25), translations_b=centres)
    gap = np.linalg.norm(centres, axis=1) - 0.75
    apart = gap > 0
    assert 0.2 < apart.mean() < 1.0
    np.testing.assert_allclose(r.distance[apart], gap[apart], rtol=0, atol=1e-12)
    assert (r.distance[~apart] == 0).all()
    # The points are on the spheres, along the line of centres.
    u = centres[apart] / np.linalg.norm(centres[apart], axis=1, keepdims=True)
    np.testing.assert_allclose(r.point_a[apart], 0.5 * u, atol=1e-12)
    np.testing.assert_allclose(r.point_b[apart], centres[apart] - 0.25 * u, atol=1e-12)
    np.testing.assert_allclose(r.normal[apart], u, atol=1e-12)
    assert (r.lower_bound <= r.distance).all() and (r.distance <= r.upper_bound).all()
    np.testing.assert_array_equal(
        kollide.intersects(kollide.Ball(0.5), kollide.Ball(0.25), translations_b=centres), ~apart
    )


def test_box_to_point_distance_is_the_distance_to_the_clamped_point():
    half = np.array([0.5, 1.0, 1.5])
    q = RNG.uniform(-4, 4, (500, 3))
    # A point is a ball of tiny radius; the distance to the box is |q - clamp(q)| - radius.
    rad = 1e-3
    r = kollide.distance(kollide.Cuboid(half), kollide.Ball(rad), translations_b=q)
    expect = np.linalg.norm(q - np.clip(q, -half, half), axis=1) - rad
    out = expect > 0
    assert out.mean() > 0.5
    np.testing.assert_allclose(r.distance[out], expect[out], atol=1e-9)


def test_rotated_boxes_distance_matches_the_closed_form_along_the_axis():
    # Two unit cubes, B turned 45 degrees about z at x = d: the gap is d - 0.5 - sqrt(2)/2.
    s = np.sin(np.pi / 8)
    q = [0, 0, s, np.cos(np.pi / 8)]
    d = np.linspace(2.0, 5.0, 7)
    t = np.stack([d, np.zeros(7), np.zeros(7)], axis=1)
    r = kollide.distance(kollide.Cuboid([0.5] * 3), kollide.Cuboid([0.5] * 3), translations_b=t, rotations_b=q)
    np.testing.assert_allclose(r.distance, d - 0.5 - np.sqrt(0.5), atol=1e-9)
    assert (r.status == kollide.GjkStatus.CONVERGED).all()


def test_rays_at_a_sphere_hit_at_the_closed_form_time():
    n = 2000
    origins = RNG.uniform(-5, 5, (n, 3))
    # Aimed at points within 2.5 of the centre: about half of them hit.
    dirs = [0.5, 0, 0] + RNG.uniform(-2.5, 2.5, (n, 3)) - origins
    h = kollide.ray_cast(kollide.Ball(1.5), origins, dirs, translation=[0.5, 0, 0])
    # |o + t d - c|^2 = r^2: the smaller root, when real and >= 0.
    o = origins - [0.5, 0, 0]
    a = (dirs * dirs).sum(1)
    b = 2 * (o * dirs).sum(1)
    c = (o * o).sum(1) - 1.5**2
    disc = b * b - 4 * a * c
    inside = c < 0
    t = (-b - np.sqrt(np.maximum(disc, 0))) / (2 * a)
    hits = (disc >= 0) & (t >= 0) & ~inside
    assert 0.05 < hits.mean() < 0.95
    np.testing.assert_array_equal(h.hit[~inside], hits[~inside])
    np.testing.assert_allclose(h.toi[hits], t[hits], rtol=1e-9, atol=1e-9)
    p = origins[hits] + t[hits, None] * dirs[hits]
    np.testing.assert_allclose(h.point[hits], p, atol=1e-8)
    np.testing.assert_allclose(h.normal[hits], (p - [0.5, 0, 0]) / 1.5, atol=1e-8)
    assert (h.part[h.hit] == -1).all() and (h.part[~h.hit] == -1).all()
    assert h.inside[inside].all() and (h.toi[inside] == 0).all()
    assert np.isinf(h.toi[~h.hit]).all()


def test_rays_at_a_mesh_name_the_triangle_hit():
    verts = [[-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1]]
    mesh = kollide.TriMesh(verts, [[0, 2, 1], [0, 3, 2]])
    origins = [[0.5, 2, -0.5], [-0.5, 2, 0.5], [3, 2, 0]]
    h = kollide.ray_cast(mesh, origins, [0, -1, 0])
    assert h.hit.tolist() == [True, True, False]
    np.testing.assert_allclose(h.toi[:2], [2, 2])
    # Triangle 0 is (v0, v2, v1): below the diagonal x > z; triangle 1 the other half.
    assert h.part.tolist() == [0, 1, -1]
    np.testing.assert_allclose(np.abs(h.normal[:2, 1]), [1, 1])


def test_contact_of_a_cube_sunk_into_a_floor():
    floor, cube = kollide.Cuboid([5, 0.5, 5]), kollide.Cuboid([0.5, 0.5, 0.5])
    ys = np.array([0.99, 0.9, 1.2])
    c = kollide.contact(floor, cube, translations_b=np.stack([np.zeros(3), ys, np.zeros(3)], 1))
    assert c.hit.tolist() == [True, True, False]
    np.testing.assert_allclose(c.distance[:2], ys[:2] - 1.0, atol=1e-12)
    np.testing.assert_allclose(c.normal[:2], [[0, 1, 0]] * 2, atol=1e-12)
    assert c.status[2] == -1 and np.isnan(c.distance[2])
    m = kollide.manifold(floor, cube, translations_b=np.stack([np.zeros(3), ys, np.zeros(3)], 1))
    assert m.count.tolist() == [4, 4, 0]
    np.testing.assert_allclose(m.distance[0], [-0.01] * 4, atol=1e-12)
    assert np.isnan(m.distance[2]).all()


def test_shape_cast_of_a_falling_ball_meets_the_floor_at_the_closed_form_time():
    ball, floor = kollide.Ball(0.5), kollide.Cuboid([5, 0.5, 5])
    heights = np.array([3.0, 5.0, 9.0])
    r = kollide.shape_cast(
        ball, floor, translations_a=np.stack([np.zeros(3), heights, np.zeros(3)], 1), velocities_a=[0, -4, 0]
    )
    # The ball's bottom (h - 0.5) meets the floor's top (0.5) at t = (h - 1) / 4, within max_toi=1.
    t = (heights - 1) / 4
    assert r.hit.tolist() == [True, True, False]
    np.testing.assert_allclose(r.toi[:2], t[:2], atol=1e-5)
    assert r.status.tolist() == [kollide.CastStatus.HIT] * 2 + [kollide.CastStatus.MISS]


def test_a_turning_cast_hits_where_the_turn_reaches():
    # A 2 x 0.2 x 0.2 bar turning about z at 1 rad/s hits a ball at x = 0, y = 0.8.
    bar, ball = kollide.Cuboid([1.0, 0.1, 0.1]), kollide.Ball(0.1)
    r = kollide.shape_cast(bar, ball, translations_b=[0, 0.8, 0], angular_velocities_a=[0, 0, 1.0], max_toi=3.0)
    assert r.hit[0]
    # The bar's corner track: contact when its far edge (distance 1 along, 0.1 across)
    # reaches the ball, before the quarter turn.
    assert 0.3 < r.toi[0] < np.pi / 2


def test_sweep_sphere_through_a_mesh_and_a_soup_agree():
    verts = np.array([[-9, 0.5, -9], [-9, 0.5, 9], [9, 0.5, 9], [9, 0.5, -9]], float)
    faces = np.array([[0, 1, 2], [0, 2, 3]])
    mesh = kollide.TriMesh(verts, faces)
    soup = verts[faces]
    centres = np.array([[1.0, 3.0, 3.0], [-2, 1.4, -2], [20, 3, 0]])
    a = kollide.sweep_sphere(mesh, centres, 0.5, [0, -4.0, 0])
    b = kollide.sweep_sphere(soup, centres, 0.5, [0, -4.0, 0])
    np.testing.assert_allclose(a.toi[:2], [(3.0 - 1.0) / 4, (1.4 - 1.0) / 4], atol=1e-9)
    assert a.hit.tolist() == [True, True, False]
    np.testing.assert_array_equal(a.hit, b.hit)
    np.testing.assert_allclose(a.toi, b.toi)
    assert (a.feature[:2] == kollide.SweepFeature.FACE).all()
    e = kollide.sweep_ellipsoid(mesh, centres, [0.5, 1.0, 0.5], [0, -4.0, 0])
    # The ellipsoid reaches 1.0 below its centre: the second one starts 0.1 into the ground.
    np.testing.assert_allclose(e.toi[:2], [(3.0 - 1.5) / 4, 0.0], atol=1e-9)
    assert e.started_within.tolist() == [False, True, False]


def test_poses_broadcast_against_each_other_and_against_lists_of_shapes():
    a, b = kollide.Ball(1.0), kollide.Ball(1.0)
    ta = np.zeros((4, 3))
    tb = np.array([3.0, 0, 0])
    r = kollide.distance(a, b, translations_a=ta, translations_b=tb)
    assert r.distance.shape == (4,) and r.point_a.shape == (4, 3)
    np.testing.assert_allclose(r.distance, 1.0)
    shapes = [kollide.Ball(0.5), kollide.Ball(1.0), kollide.Cuboid([1, 1, 1]), kollide.Ball(2.0)]
    r = kollide.distance(shapes, b, translations_b=tb)
    np.testing.assert_allclose(r.distance, [1.5, 1.0, 1.0, 0.0])
    with pytest.raises(ValueError, match="translations_b"):
        kollide.distance(a, b, translations_a=np.zeros((4, 3)), translations_b=np.zeros((3, 3)))


def test_float32_and_int_inputs_give_float64_answers():
    t32 = np.array([[3.0, 0, 0]], dtype=np.float32)
    r = kollide.distance(kollide.Ball(1.0), kollide.Ball(1.0), translations_b=t32, rotations_b=np.array([0, 0, 0, 1], np.float32))
    assert r.distance.dtype == np.float64 and r.distance[0] == 1.0
    r = kollide.distance(kollide.Ball(1.0), kollide.Ball(1.0), translations_b=[[3, 0, 0]])
    assert r.distance[0] == 1.0


def test_2d_queries_take_2d_translations_and_angles():
    a, b = kollide.Rectangle([1.0, 0.5]), kollide.Circle(0.5)
    r = kollide.distance(a, b, translations_b=[[3, 0], [0, 3]])
    np.testing.assert_allclose(r.distance, [1.5, 2.0])
    # A quarter turn of the rectangle swaps its extents.
    r = kollide.distance(a, b, rotations_a=np.pi / 2, translations_b=[[3, 0], [0, 3]])
    np.testing.assert_allclose(r.distance, [2.0, 1.5], atol=1e-12)
    # One angle per query, (N,), broadcast against the translations.
    r = kollide.distance(a, b, rotations_a=[0.0, np.pi / 2], translations_b=[3, 0])
    np.testing.assert_allclose(r.distance, [1.5, 2.0], atol=1e-12)
    h = kollide.ray_cast(kollide.Circle(1.0), [[-5, 0]], [1, 0])
    np.testing.assert_allclose(h.toi, [4.0])
    with pytest.raises(TypeError, match="2D"):
        kollide.distance(kollide.Circle(1.0), kollide.Ball(1.0))


def test_rotations_are_quaternions_x_y_z_w():
    # A quarter turn about z maps the box's long x axis onto y.
    q = [0, 0, np.sin(np.pi / 4), np.cos(np.pi / 4)]
    r = kollide.distance(kollide.Cuboid([2, 0.1, 0.1]), kollide.Ball(0.1), rotations_a=q, translations_b=[[0, 3, 0], [3, 0, 0]])
    np.testing.assert_allclose(r.distance, [0.9, 2.8], atol=1e-12)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: kollide.distance(kollide.Ball(1), kollide.Ball(1), translations_b=[[np.nan, 0, 0]]), ValueError, "translations_b[0]"),
        (lambda: kollide.distance(kollide.Ball(1), kollide.Ball(1), rotations_b=[0, 0, 0, 2]), ValueError, "rotations_b[0]: rotation norm is 2"),
        (lambda: kollide.distance(kollide.Ball(1), kollide.Ball(1), translations_b=[[1, 0]]), ValueError, "translations_b: expected shape (3,) or (N, 3)"),
        (lambda: kollide.distance(kollide.Ball(1), kollide.Ball(1), translations_b="far"), TypeError, "translations_b"),
        (lambda: kollide.distance(kollide.Ball(1), "ball"), TypeError, "b: expected a kollide shape"),
        (lambda: kollide.ray_cast(kollide.Ball(1), [0, 0, 0], [0, 0, 0]), ValueError, "directions[0]"),
        (lambda: kollide.ray_cast(kollide.Ball(1), [0, 0, 0], [1, 0, 0], max_toi=-1), ValueError, "max_toi"),
        (lambda: kollide.contact(kollide.Ball(1), kollide.Ball(1), margin=-1), ValueError, "margin"),
        (lambda: kollide.sweep_sphere(kollide.Ball(1), [0, 0, 0], 0.5, [1, 0, 0]), TypeError, "mesh"),
        (lambda: kollide.sweep_sphere(np.zeros((1, 3, 3)), [0, 0, 0], -0.5, [1, 0, 0]), ValueError, "radius: must be > 0"),
        (lambda: kollide.shape_cast(kollide.Ball(1), kollide.Ball(1), velocities_a=[[1, 0, 0]] * 3, translations_b=np.zeros((2, 3))), ValueError, "rows"),
    ],
)
def test_bad_query_inputs_raise_naming_the_argument(call, error, message):
    with pytest.raises(error) as e:
        call()
    assert message in str(e.value)


def test_composites_answer_with_their_parts():
    comp = kollide.Compound([kollide.Ball(1.0), kollide.Ball(1.0)], translations=[[-2, 0, 0], [2, 0, 0]])
    r = kollide.distance(comp, kollide.Ball(0.5), translations_b=[[5, 0, 0], [-5, 0, 0]])
    np.testing.assert_allclose(r.distance, [1.5, 1.5])
    assert r.part_a.tolist() == [1, 0] and r.part_b.tolist() == [-1, -1]


@pytest.mark.parametrize(
    "enum, names",
    [
        (kollide.GjkStatus, kollide._kollide.GJK_STATUS),
        (kollide.ContactStatus, kollide._kollide.CONTACT_STATUS),
        (kollide.CastStatus, kollide._kollide.CAST_STATUS),
        (kollide.SweepFeature, kollide._kollide.SWEEP_FEATURE),
        (kollide.MoveStatus, kollide._kollide.MOVE_STATUS),
    ],
)
def test_status_enums_are_kollides_names_in_code_order(enum, names):
    # The compiled module writes codes as positions in its name lists.
    assert [m.name.lower() for m in enum] == list(names)
    assert [int(m) for m in enum] == list(range(len(names)))


def test_overlapping_cores_report_overlapping_status_and_zero_distance():
    r = kollide.distance(kollide.Cuboid([1, 1, 1]), kollide.ConvexHull(np.eye(3).tolist() + [[0, 0, 0]]), translations_b=[[0.1, 0.1, 0.1], [5, 0, 0]])
    assert r.status.tolist() == [kollide.GjkStatus.OVERLAPPING, kollide.GjkStatus.CONVERGED]
    assert r.distance[0] == 0 and r.distance[1] > 3
