"""The same shapes and poses for kollide, python-fcl and coal (and the bench's peers).

Conventions that differ, and how they are met here:

- kollide's quaternions are [x, y, z, w]; the peers take rotation matrices here.
- boxes: kollide takes half extents, fcl and coal full sizes.
- capsules: kollide's axis is y with `half_height`; fcl's and coal's axis is z with the
  full length `lz`. A peer capsule is turned by R_ZY (z onto y) inside its pose.
- hulls: fcl needs faces; they come from coal's qhull (`keepTriangles=True`), and the
  same points go to kollide, which builds its own hull.
"""

import warnings

import numpy as np

# Rotation by -90 degrees about x: maps z to y.
R_ZY = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]])


def random_quaternions(rng, n):
    """Uniform random unit quaternions [x, y, z, w] (normalised Gaussians)."""
    q = rng.normal(size=(n, 4))
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def quat_to_matrix(q):
    """The rotation matrix of a unit quaternion [x, y, z, w]."""
    x, y, z, w = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


class Spec:
    """A shape described once: `kind` ('box', 'capsule', 'hull') and its numbers."""

    def __init__(self, kind, **kw):
        self.kind = kind
        self.kw = kw

    def kollide(self):
        import kollide

        if self.kind == "box":
            return kollide.Cuboid(self.kw["half_extents"])
        if self.kind == "capsule":
            return kollide.Capsule(self.kw["half_height"], self.kw["radius"])
        return kollide.ConvexHull(self.kw["points"])

    def _hull_triangles(self):
        import coal

        v = coal.StdVec_Vec3s()
        for p in self.kw["points"]:
            v.append(np.asarray(p, dtype=float))
        c = coal.Convex.convexHull(v, True, None)
        with warnings.catch_warnings():
            # coal 3 marks the triangle accessors deprecated; they are still its only way out.
            warnings.simplefilter("ignore", DeprecationWarning)
            pts = np.array([c.points(i) for i in range(c.num_points)])
            tris = np.array([[c.polygons(k)[i] for i in range(3)] for k in range(c.num_polygons)])
        return pts, tris

    def fcl(self):
        """(geometry, fixed rotation inside the pose)."""
        import fcl

        if self.kind == "box":
            return fcl.Box(*(2 * np.asarray(self.kw["half_extents"]))), np.eye(3)
        if self.kind == "capsule":
            return fcl.Capsule(self.kw["radius"], 2 * self.kw["half_height"]), R_ZY
        pts, tris = self._hull_triangles()
        faces = np.hstack([np.full((len(tris), 1), 3), tris]).ravel()
        return fcl.Convex(pts, len(tris), faces), np.eye(3)

    def coal(self):
        """(geometry, fixed rotation inside the pose)."""
        import coal

        if self.kind == "box":
            return coal.Box(*(2 * np.asarray(self.kw["half_extents"]))), np.eye(3)
        if self.kind == "capsule":
            return coal.Capsule(self.kw["radius"], 2 * self.kw["half_height"]), R_ZY
        v = coal.StdVec_Vec3s()
        for p in self.kw["points"]:
            v.append(np.asarray(p, dtype=float))
        return coal.Convex.convexHull(v, False, None), np.eye(3)


def random_spec(rng, kind):
    if kind == "box":
        return Spec("box", half_extents=rng.uniform(0.2, 1.0, 3))
    if kind == "capsule":
        return Spec("capsule", half_height=float(rng.uniform(0.1, 0.8)), radius=float(rng.uniform(0.1, 0.5)))
    # Points on a squashed sphere, so that most of them are vertices of the hull.
    d = rng.normal(size=(32, 3))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    return Spec("hull", points=d * rng.uniform(0.3, 1.0, 3))


def random_poses(rng, n, spread):
    """n poses: translations uniform in a cube of half side `spread`, random rotations."""
    return rng.uniform(-spread, spread, (n, 3)), random_quaternions(rng, n)


def fcl_pair(spec_a, spec_b, t_a, q_a, t_b, q_b):
    import fcl

    ga, fa = spec_a.fcl()
    gb, fb = spec_b.fcl()
    oa = fcl.CollisionObject(ga, fcl.Transform(quat_to_matrix(q_a) @ fa, t_a))
    ob = fcl.CollisionObject(gb, fcl.Transform(quat_to_matrix(q_b) @ fb, t_b))
    return oa, ob


def coal_pose(q, t, fixed):
    import coal

    return coal.Transform3s(quat_to_matrix(q) @ fixed, np.asarray(t, dtype=float))
