"""kollide against python-fcl, coal, pybullet and trimesh + Embree, on identical inputs, one run.

    python crates/kollide-py/bench/peers.py [--pairs N] [--shapes K] [--rays N] [--threads T]

Prints one table: time per query of each library, kollide's speed-up (the peer's time over
kollide's), how many answers disagree and by how much at most.

Inputs. Each convex row asks N queries of K distinct random shape pairs (query i uses pair
i mod K; K = 20 by default, as a planner asks the same few shapes at many poses), every
query at its own random poses. `--shapes N` gives every query its own pair. The ray row
casts N rays from a sphere of radius 3 at a closed 269,360-triangle bumpy sphere (the
`rock` function), aimed within 0.6 of its centre. The mover row walks 1,000 ellipsoids 60
steps over a terrain with 40 boxes.

Method. Every input is built before the clock starts (shapes, the peers' objects and
transforms, the mesh, the world), so the times are the queries alone. kollide answers a
batch in one call (all cores, the GIL released); fcl and coal are called once per pair, as
their Python APIs require; pybullet's `getClosestPoints` once per pair, its `rayTestBatch`
in batches of 16,000 rays (it answers at most 16,383) with `numThreads` = the cores; trimesh's Embree
intersector in one call. Each figure is the best of `--repeat` runs.

Agreement. Distances: a pair disagrees when the peer's distance is more than 1e-5 from
kollide's (pybullet's come from its convex-convex solver with collision margins, and
disagree by up to its margin). Overlap: kollide's answer
against the peer's, counted only for pairs farther than 1e-5 from touching (closer, a 1e-6
tolerance decides either way). Rays: hit or miss differ, or the hit times differ by more
than 1e-4 relative (Embree works in f32).
"""

import argparse
import os
import pathlib
import sys
import tempfile
import time

# numpy's OpenBLAS keeps worker threads spinning after a matrix product (the peers' poses
# are built with `@`); on a 2-core machine they took time from kollide's batch threads
# (`blas_thread_server` in a profile of a kollide batch). No row uses BLAS for its queries.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
import kollide  # noqa: E402
from peer_shapes import coal_pose, fcl_pair, quat_to_matrix, random_poses, random_spec  # noqa: E402

TOL = 1e-5
# Rays per rayTestBatch call: pybullet answers at most 16,383 (it drops the rest).
BULLET_BATCH = 16000


def best(f, repeat):
    """The least wall time of `repeat` calls of f, and its last result."""
    t, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        t = min(t, time.perf_counter() - t0)
    return t, out


# How far B is spread around A: about half the pairs overlap (see the notes printed).
SPREAD = {"hull": 1.1, "box": 1.6, "capsule": 1.0}


def pair_cases(kind, n, k, seed):
    """n queries over k distinct shape pairs (query i uses pair i mod k), each at its own
    random poses."""
    rng = np.random.default_rng(seed)
    distinct = [(random_spec(rng, kind), random_spec(rng, kind)) for _ in range(k)]
    specs = [distinct[i % k] for i in range(n)]
    ta, qa = random_poses(rng, n, 0.3)
    tb, qb = random_poses(rng, n, SPREAD[kind])
    return distinct, specs, ta, qa, tb, qb


def bullet_shape(p, spec):
    """A pybullet collision shape and the fixed rotation inside its pose (capsules: z to y)."""
    from peer_shapes import R_ZY

    if spec.kind == "box":
        return p.createCollisionShape(p.GEOM_BOX, halfExtents=list(spec.kw["half_extents"])), np.eye(3)
    if spec.kind == "capsule":
        return p.createCollisionShape(p.GEOM_CAPSULE, radius=spec.kw["radius"], height=2 * spec.kw["half_height"]), R_ZY
    return p.createCollisionShape(p.GEOM_MESH, vertices=spec.kw["points"].tolist()), np.eye(3)


def matrix_to_quat(m):
    """[x, y, z, w] of a rotation matrix (Shepperd's method)."""
    t = np.trace(m)
    if t > 0:
        s = 2 * np.sqrt(t + 1)
        return np.array([(m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4])
    i = int(np.argmax(np.diag(m)))
    j, k = (i + 1) % 3, (i + 2) % 3
    s = 2 * np.sqrt(1 + m[i, i] - m[j, j] - m[k, k])
    q = np.zeros(4)
    q[i] = s / 4
    q[j] = (m[j, i] + m[i, j]) / s
    q[k] = (m[k, i] + m[i, k]) / s
    q[3] = (m[k, j] - m[j, k]) / s
    return q


def convex_rows(kind, n, k, repeat, rows):
    import coal
    import fcl
    import pybullet as p

    distinct, specs, ta, qa, tb, qb = pair_cases(kind, n, k, seed={"hull": 1, "box": 2, "capsule": 3}[kind])
    ka = [s.kollide() for s, _ in distinct]
    kb = [s.kollide() for _, s in distinct]
    a = [ka[i % k] for i in range(n)]
    b = [kb[i % k] for i in range(n)]
    poses = dict(translations_a=ta, rotations_a=qa, translations_b=tb, rotations_b=qb)
    t_kd, r = best(lambda: kollide.distance(a, b, **poses), repeat)
    t_ki, hits = best(lambda: kollide.intersects(a, b, **poses), repeat)
    d_k = r.distance
    clear = np.abs(d_k) > TOL  # overlap decided away from touching
    # Pairs that overlap by less than TOL count as near touching too.
    over = ~(d_k > 0)
    if over.any():
        c = kollide.contact([a[i] for i in np.where(over)[0]], [b[i] for i in np.where(over)[0]],
                            translations_a=ta[over], rotations_a=qa[over], translations_b=tb[over], rotations_b=qb[over])
        clear[np.where(over)[0]] = c.distance < -TOL

    # fcl: one geometry per distinct shape, one object (geometry and transform) per query.
    fg = [(sa.fcl(), sb.fcl()) for sa, sb in distinct]
    objs = []
    for i in range(n):
        (ga, fa), (gb, fb) = fg[i % k]
        objs.append((fcl.CollisionObject(ga, fcl.Transform(quat_to_matrix(qa[i]) @ fa, ta[i])),
                     fcl.CollisionObject(gb, fcl.Transform(quat_to_matrix(qb[i]) @ fb, tb[i]))))
    dreq = fcl.DistanceRequest()
    creq = fcl.CollisionRequest()

    def fcl_dist():
        return np.array([fcl.distance(oa, ob, dreq, fcl.DistanceResult()) for oa, ob in objs])

    def fcl_hit():
        return np.array([fcl.collide(oa, ob, creq, fcl.CollisionResult()) > 0 for oa, ob in objs])

    t_fd, d_f = best(fcl_dist, repeat)
    t_fi, h_f = best(fcl_hit, repeat)

    # coal: one geometry per distinct shape, transforms per query.
    cgeo = [(sa.coal(), sb.coal()) for sa, sb in distinct]
    cg = []
    for i in range(n):
        (ga, fa), (gb, fb) = cgeo[i % k]
        cg.append((ga, coal_pose(qa[i], ta[i], fa), gb, coal_pose(qb[i], tb[i], fb)))
    cdreq, ccreq = coal.DistanceRequest(), coal.CollisionRequest()

    def coal_dist():
        return np.array([coal.distance(ga, pa, gb, pb, cdreq, coal.DistanceResult()) for ga, pa, gb, pb in cg])

    def coal_hit():
        return np.array([coal.collide(ga, pa, gb, pb, ccreq, coal.CollisionResult()) > 0 for ga, pa, gb, pb in cg])

    t_cd, d_c = best(coal_dist, repeat)
    t_ci, h_c = best(coal_hit, repeat)

    # pybullet: one collision shape per distinct shape, two bodies per query, placed once.
    cid = p.connect(p.DIRECT)
    bshapes = [(bullet_shape(p, sa), bullet_shape(p, sb)) for sa, sb in distinct]
    bodies = []
    for i in range(n):
        pair = []
        for (shape, fixed), t, q in zip(bshapes[i % k], (ta[i], tb[i]), (qa[i], qb[i])):
            rot = matrix_to_quat(quat_to_matrix(q) @ fixed)
            pair.append(p.createMultiBody(baseMass=0, baseCollisionShapeIndex=shape, basePosition=list(t),
                                          baseOrientation=list(rot), physicsClientId=cid))
        bodies.append(pair)

    def bullet_dist():
        out = np.empty(len(bodies))
        for i, (ba, bb) in enumerate(bodies):
            pts = p.getClosestPoints(ba, bb, 100.0, physicsClientId=cid)
            out[i] = min(pt[8] for pt in pts) if pts else np.inf
        return out

    def bullet_hit():
        return np.array([len(p.getClosestPoints(ba, bb, 0.0, physicsClientId=cid)) > 0 for ba, bb in bodies])

    t_bd, d_b = best(bullet_dist, repeat)
    t_bi, h_b = best(bullet_hit, repeat)
    p.disconnect(cid)

    def dist_disagree(d_peer):
        """(count, largest difference) of pairs whose distances differ by more than TOL."""
        sep = d_k > TOL
        # Apart in kollide: the peer's distance; overlapping: the peer must say <= TOL.
        diff = np.where(sep, np.abs(np.maximum(d_peer, 0) - d_k), np.where(clear, np.maximum(d_peer, 0), 0))
        return int((diff > TOL).sum()), float(diff.max())

    def hit_disagree(h_peer):
        return int(((h_peer != hits) & clear).sum()), None

    name = {"hull": "hulls of 32 points", "box": "boxes", "capsule": "capsules"}[kind] + f" ({k} pairs of shapes)"
    rows.append((f"distance, {name}", n, t_kd / n, [("fcl", t_fd / n, dist_disagree(d_f)), ("coal", t_cd / n, dist_disagree(d_c)),
                                                    ("pybullet", t_bd / n, dist_disagree(d_b))]))
    rows.append((f"intersects, {name}", n, t_ki / n, [("fcl", t_fi / n, hit_disagree(h_f)), ("coal", t_ci / n, hit_disagree(h_c)),
                                                      ("pybullet", t_bi / n, hit_disagree(h_b))]))
    return int(hits.sum()), int((~clear).sum())


def rock(nu=520, nv=260, seed=5):
    """A closed bumpy sphere of 2 * nu * (nv - 1) triangles (269,360 by default): a UV
    sphere whose radius varies smoothly with direction, poles as single vertices."""
    theta = np.linspace(0, np.pi, nv + 1)[1:-1]  # nv - 1 rings
    phi = np.linspace(0, 2 * np.pi, nu, endpoint=False)
    th, ph = np.meshgrid(theta, phi, indexing="ij")
    d = np.stack([np.sin(th) * np.cos(ph), np.cos(th), np.sin(th) * np.sin(ph)], -1).reshape(-1, 3)
    d = np.vstack([[0, 1, 0], d, [0, -1, 0]])
    rng = np.random.default_rng(seed)
    k = rng.normal(size=(6, 3)) * 2.0
    bump = 1 + 0.08 * np.sin(d @ k.T).sum(1) / 3
    v = d * bump[:, None]
    ring = lambda r: 1 + r * nu  # noqa: E731
    faces = []
    j = np.arange(nu)
    jn = (j + 1) % nu
    faces.append(np.stack([np.zeros(nu, int), ring(0) + jn, ring(0) + j], 1))
    for r in range(nv - 2):
        a, b = ring(r) + j, ring(r) + jn
        c, e = ring(r + 1) + j, ring(r + 1) + jn
        faces.append(np.stack([a, b, e], 1))
        faces.append(np.stack([a, e, c], 1))
    last = len(v) - 1
    faces.append(np.stack([np.full(nu, last), ring(nv - 2) + j, ring(nv - 2) + jn], 1))
    return v, np.vstack(faces)


def ray_rows(n_rays, repeat, threads, rows):
    import pybullet as p
    import trimesh

    v, f = rock()
    mesh = kollide.TriMesh(v, f)
    rng = np.random.default_rng(11)
    # From a sphere of radius 3, aimed at points near the centre: most hit.
    o = rng.normal(size=(n_rays, 3))
    o = 3 * o / np.linalg.norm(o, axis=1, keepdims=True)
    aim = rng.uniform(-0.6, 0.6, (n_rays, 3))
    dirs = aim - o
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    t_k, h = best(lambda: kollide.ray_cast(mesh, o, dirs), repeat)

    # pybullet: one static concave mesh, rays as segments of length 10. The mesh goes
    # through an OBJ file: pybullet takes at most 131,072 vertices in memory.
    cid = p.connect(p.DIRECT)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "rock.obj")
        with open(path, "w") as out:
            out.write("".join(f"v {x!r} {y!r} {z!r}\n" for x, y, z in v.tolist()))
            out.write("".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in f.tolist()))
        shape = p.createCollisionShape(p.GEOM_MESH, fileName=path, flags=p.GEOM_FORCE_CONCAVE_TRIMESH, physicsClientId=cid)
    p.createMultiBody(baseMass=0, baseCollisionShapeIndex=shape, physicsClientId=cid)
    length = 10.0
    to = o + length * dirs

    def bullet():
        out = []
        for s in range(0, n_rays, BULLET_BATCH):
            out += p.rayTestBatch(o[s:s + BULLET_BATCH].tolist(), to[s:s + BULLET_BATCH].tolist(), numThreads=threads, physicsClientId=cid)
        assert len(out) == n_rays, "pybullet dropped rays"
        return np.array([r[2] * length if r[0] >= 0 else np.inf for r in out])

    t_b, toi_b = best(bullet, repeat)
    p.disconnect(cid)

    # trimesh + Embree (embreex), f32.
    tm = trimesh.Trimesh(v, f, process=False)
    inter = trimesh.ray.ray_pyembree.RayMeshIntersector(tm)

    def embree():
        tri, ray, loc = inter.intersects_id(o, dirs, multiple_hits=False, return_locations=True)
        out = np.full(n_rays, np.inf)
        out[ray] = np.linalg.norm(loc - o[ray], axis=1)
        return out

    t_e, toi_e = best(embree, repeat)

    def disagree(toi_peer):
        hit_peer = np.isfinite(toi_peer)
        bad = hit_peer != h.hit
        both = hit_peer & h.hit
        diff = np.abs(toi_peer[both] - h.toi[both])
        bad[both] |= diff > 1e-4 * np.maximum(1, h.toi[both])
        return int(bad.sum()), float(diff.max()) if both.any() else 0.0

    rows.append((f"rays, {len(f):,}-triangle mesh", n_rays, t_k / n_rays, [("pybullet", t_b / n_rays, disagree(toi_b)), ("embree", t_e / n_rays, disagree(toi_e))]))
    return int(h.hit.sum())


def mover_row(n, steps, repeat, rows):
    rng = np.random.default_rng(4)
    heights = 0.5 * np.sin(np.linspace(0, 6, 65))[:, None] * np.cos(np.linspace(0, 4, 65))[None, :]
    w = kollide.World()
    w.insert(kollide.HeightField(heights, [64, 1, 64]))
    w.insert_many(kollide.Cuboid([1, 1, 1]), translations=np.column_stack([rng.uniform(-25, 25, 40), np.full(40, 1.0), rng.uniform(-25, 25, 40)]))
    start = np.column_stack([rng.uniform(-25, 25, n), np.full(n, 3.0), rng.uniform(-25, 25, n)])
    vel = np.column_stack([rng.uniform(-3, 3, n), np.zeros(n), rng.uniform(-3, 3, n)]) / 60
    ch = kollide.Ellipsoid([0.4, 0.9, 0.4])

    def walk():
        pos = start.copy()
        for _ in range(steps):
            r = kollide.move_and_slide_many(w, ch, pos, vel + [0, -5 / 60, 0], step_height=0.3)
            pos = r["position"]
        return r

    t, r = best(walk, repeat)
    rows.append((f"mover, {n} ellipsoids x {steps} steps on a terrain", n * steps, t / (n * steps), []))
    return int(r["grounded"].sum())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--shapes", type=int, default=20, help="distinct shape pairs per row")
    ap.add_argument("--rays", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    args = ap.parse_args()
    rows = []
    notes = []
    for kind in ("hull", "box", "capsule"):
        hits, near = convex_rows(kind, args.pairs, args.shapes, args.repeat, rows)
        notes.append(f"{kind}: {hits} of {args.pairs} pairs overlap, {near} within {TOL} of touching")
    hits = ray_rows(args.rays, args.repeat, args.threads, rows)
    notes.append(f"rays: {hits} of {args.rays} hit")
    grounded = mover_row(1000, 60, args.repeat, rows)
    notes.append(f"mover: {grounded} of 1000 grounded after 60 steps")

    us = lambda t: f"{t * 1e6:.2f} us"  # noqa: E731
    print(f"{os.cpu_count()} cores; best of {args.repeat}; speed-up = peer time / kollide time\n")
    print("| query | n | kollide | peer | peer time | speed-up | disagree | largest difference |")
    print("|---|---:|---:|---|---:|---:|---:|---:|")
    for name, n, tk, peers in rows:
        if not peers:
            print(f"| {name} | {n:,} | {us(tk)} | none | | | | |")
        for k, (peer, tp, (bad, diff)) in enumerate(peers):
            first = (name, f"{n:,}", us(tk)) if k == 0 else ("", "", "")
            d = "" if diff is None else f"{diff:.1e}"
            print(f"| {first[0]} | {first[1]} | {first[2]} | {peer} | {us(tp)} | {tp / tk:.1f}x | {bad} | {d} |")
    print()
    for n in notes:
        print(n)


if __name__ == "__main__":
    main()
