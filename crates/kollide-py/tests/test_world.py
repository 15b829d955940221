"""World and mover."""

import numpy as np
import pytest

import kollide


def floor_world():
    w = kollide.World()
    floor = w.insert(kollide.Cuboid([10, 1, 10]), translation=[0, -1, 0])
    return w, floor


def test_insert_remove_and_move_bodies_in_batches():
    w, floor = floor_world()
    ids = w.insert_many(kollide.Ball(0.5), translations=[[0, 5, 0], [3, 5, 0], [6, 5, 0]])
    assert ids.tolist() == [1, 2, 3] and len(w) == 4
    h = w.ray_cast([[0, 10, 0], [3, 10, 0], [8, 10, 0]], [0, -1, 0])
    assert h.body.tolist() == [1, 2, floor]
    np.testing.assert_allclose(h.toi, [4.5, 4.5, 10.0])
    w.set_poses(ids, translations=[[0, 5, 5], [3, 5, 5], [6, 5, 5]])
    h = w.ray_cast([[0, 10, 0], [0, 10, 5]], [0, -1, 0])
    assert h.body.tolist() == [floor, 1]
    w.remove(ids[:2])
    assert len(w) == 2
    with pytest.raises(ValueError, match="no body 1"):
        w.remove(1)
    with pytest.raises(ValueError, match="no body 99"):
        w.set_poses([99], translations=[0, 0, 0])


def test_overlaps_closest_and_contact_pairs():
    w, floor = floor_world()
    a = w.insert(kollide.Ball(0.5), translation=[0, 0.4, 0])  # sunk 0.1 into the floor
    b = w.insert(kollide.Ball(0.5), translation=[4, 3, 0])
    bodies, parts = w.overlaps(kollide.Ball(1.0), translation=[0.5, 0.5, 0])
    assert bodies.tolist() == [floor, a] and parts.tolist() == [-1, -1]
    c = w.closest(kollide.Ball(0.5), translations=[[4, 5, 0], [0, 3, 0]])
    # Above ball a (its top at 0.9), a ball at y = 3 is 1.6 from it and 2.5 from the floor.
    assert c["body"].tolist() == [b, a]
    np.testing.assert_allclose(c["distance"], [1.0, 1.6], atol=1e-12)
    pa, pb, m = w.contact_pairs()
    assert pa.tolist() == [floor] and pb.tolist() == [a]
    assert m.count[0] == 1
    np.testing.assert_allclose(m.distance[0, 0], -0.1, atol=1e-12)


def test_a_ball_walks_along_the_floor_and_lands():
    w, _ = floor_world()
    at = np.array([0.0, 2.0, 0.0])
    for _ in range(60):
        r = kollide.move_and_slide(w, kollide.Ball(0.5), at, [0.05, -5.0 / 60.0, 0.0])
        at = r.position
    assert at[0] == pytest.approx(3.0, abs=1e-9)
    assert 0.5 <= at[1] < 0.5 + 2e-3
    assert r.grounded and r.ground_body == 0
    assert kollide.MoveStatus(r.status) == kollide.MoveStatus.MOVED


def test_the_batch_mover_agrees_with_one_at_a_time():
    w, _ = floor_world()
    w.insert(kollide.Cuboid([0.5, 2, 5]), translation=[2, 1, 0])  # a wall at x = 1.5
    rng = np.random.default_rng(3)
    pos = np.column_stack([rng.uniform(-3, 1, 64), rng.uniform(0.95, 3, 64), rng.uniform(-3, 3, 64)])
    disp = np.column_stack([rng.uniform(0, 1.5, 64), np.full(64, -0.3), rng.uniform(-0.5, 0.5, 64)])
    ch = kollide.Ellipsoid([0.4, 0.9, 0.4])
    many = kollide.move_and_slide_many(w, ch, pos, disp, step_height=0.3)
    for i in range(64):
        one = kollide.move_and_slide(w, ch, pos[i], disp[i], step_height=0.3)
        np.testing.assert_array_equal(many["position"][i], one.position)
        assert many["grounded"][i] == one.grounded and many["status"][i] == one.status
    # Nobody walks through the wall (its face at x = 1.5, the ellipsoid 0.4 wide).
    assert (many["position"][:, 0] <= 1.5 - 0.4 + 1e-9).all()
    assert (many["contacts"] > 0).any()


def test_mover_errors_name_the_argument():
    w, _ = floor_world()
    with pytest.raises(TypeError, match="character"):
        kollide.move_and_slide(w, kollide.Cuboid([1, 1, 1]), [0, 2, 0], [0, -1, 0])
    with pytest.raises(ValueError, match="max_slope"):
        kollide.move_and_slide(w, kollide.Ball(0.5), [0, 2, 0], [0, -1, 0], max_slope=3.0)
    with pytest.raises(ValueError, match="positions\\[1\\]"):
        kollide.move_and_slide_many(w, kollide.Ball(0.5), [[0, 2, 0], [0, np.nan, 0]], [0, -1, 0])


def test_kinds_groups_user_data_and_contact_events():
    w = kollide.World()
    floor = w.insert(kollide.Cuboid([5, 0.5, 5]), [0, -0.5, 0], kind="static")
    wall = w.insert(kollide.Cuboid([0.5, 2, 5]), [5.4, 1.5, 0], kind="static")  # touches the floor
    ball = w.insert(kollide.Ball(0.5), [0, 0.49, 0], user_data=2**64 - 1)
    ghost = w.insert(kollide.Ball(0.5), [2, 0.49, 0], memberships=0b10, filter=0)
    c = w.contacts()
    # Two static bodies make no pair; the ghost meets no group.
    assert list(zip(c.a.tolist(), c.b.tolist())) == [(floor, ball)]
    assert c.started.tolist() == [[floor, ball]] and c.stopped.shape == (0, 2)
    assert c.manifolds.count.tolist() == [1]
    assert w.user_data(ball) == 2**64 - 1 and w.user_data(wall) == 0
    # Nothing moved: same pairs, no events.
    c = w.contacts()
    assert c.a.tolist() == [floor] and c.started.shape == (0, 2) and c.stopped.shape == (0, 2)
    w.remove([ball])
    c = w.contacts()
    assert c.a.size == 0 and c.stopped.tolist() == [[floor, ball]]
    assert ghost == 3
    with pytest.raises(ValueError, match="kind"):
        w.insert(kollide.Ball(1.0), kind="floating")
    with pytest.raises(ValueError, match="no body 7"):
        w.user_data(7)
    with pytest.raises(ValueError, match="margin"):
        w.contacts(-1.0)
