//! Decomposition of a simple polygon into few convex pieces: ear-clipping triangulation,
//! then Hertel–Mehlhorn removal of the diagonals that are not needed.
//!
//! Sources: ear clipping by the two-ears theorem (G. H. Meisters, "Polygons have ears",
//! 1975); the merging pass of S. Hertel and K. Mehlhorn, "Fast triangulation of simple
//! polygons", 1983. Every diagonal Hertel–Mehlhorn keeps is essential for a reflex endpoint
//! (removing it would make that corner reflex), and a reflex vertex has at most two
//! essential diagonals, so the result has at most `2r + 1` pieces for `r` reflex vertices,
//! while any convex partition needs at least `ceil(r / 2) + 1`: at most 4 times the optimum.
//!
//! All decisions use the exact orientation of [`super::predicates2d`], so the output is a
//! true partition of the polygon for any valid input, whatever the rounding.

use super::predicates2d::Exact;

/// A convex piece: indices into the polygon's vertices, counter-clockwise, in the
/// polygon's cyclic order. Corners may be straight (180°) where a piece edge runs through a
/// polygon vertex.
pub(crate) type Piece = Vec<usize>;

/// Splits the simple counter-clockwise polygon `ex` (at least 3 points, no repeated
/// points, validated simple) into convex pieces.
///
/// O(n²) for ear clipping (an ear test scans the remaining vertices, and only the two
/// neighbours of a clipped ear are tested again) plus O(n·k) for merging into pieces of
/// up to k vertices.
pub(crate) fn convex_pieces(ex: &Exact) -> Vec<Piece> {
    let triangles = ear_clip(ex);
    hertel_mehlhorn(ex, triangles)
}

/// Ear clipping: `n - 2` counter-clockwise triangles, each with positive area.
fn ear_clip(ex: &Exact) -> Vec<[usize; 3]> {
    let n = ex.p.len();
    let mut prev: Vec<usize> = (0..n).map(|i| (i + n - 1) % n).collect();
    let mut next: Vec<usize> = (0..n).map(|i| (i + 1) % n).collect();
    let mut alive = vec![true; n];
    let is_ear = |i: usize, prev: &[usize], next: &[usize], alive: &[bool]| -> bool {
        let (p, q) = (prev[i], next[i]);
        if ex.orient(p, i, q) <= 0 {
            return false;
        }
        // No other remaining vertex in the closed triangle (one on the diagonal p-q would
        // make the diagonal touch the boundary). The triangle's box rejects most vertices
        // with comparisons alone.
        let (a, b, c) = (ex.p[p], ex.p[i], ex.p[q]);
        let lo = [a[0].min(b[0]).min(c[0]), a[1].min(b[1]).min(c[1])];
        let hi = [a[0].max(b[0]).max(c[0]), a[1].max(b[1]).max(c[1])];
        let mut j = next[q];
        while j != p {
            let r = ex.p[j];
            if alive[j]
                && (lo[0] <= r[0] && r[0] <= hi[0] && lo[1] <= r[1] && r[1] <= hi[1])
                && ex.orient(p, i, j) >= 0
                && ex.orient(i, q, j) >= 0
                && ex.orient(q, p, j) >= 0
            {
                return false;
            }
            j = next[j];
        }
        true
    };
    let mut ear: Vec<bool> = (0..n).map(|i| is_ear(i, &prev, &next, &alive)).collect();
    let mut out = Vec::with_capacity(n.saturating_sub(2));
    let mut remaining = n;
    let mut cursor = 0;
    // Each pass clips one ear; a simple polygon of 4 or more vertices always has one, and
    // the scan visits every remaining vertex at most once, so both loops are bounded.
    while remaining > 3 {
        let mut found = None;
        let mut i = cursor;
        for _ in 0..remaining {
            if ear[i] {
                found = Some(i);
                break;
            }
            i = next[i];
        }
        // Unreachable for a simple polygon with exact predicates (two-ears theorem); if it
        // ever happened, clipping a strictly convex corner still makes progress and keeps
        // every triangle positive.
        debug_assert!(found.is_some(), "ear clipping found no ear");
        let i = match found {
            Some(i) => i,
            None => {
                let mut k = cursor;
                for _ in 0..remaining {
                    if ex.orient(prev[k], k, next[k]) > 0 {
                        break;
                    }
                    k = next[k];
                }
                k
            }
        };
        let (p, q) = (prev[i], next[i]);
        out.push([p, i, q]);
        alive[i] = false;
        next[p] = q;
        prev[q] = p;
        remaining -= 1;
        ear[p] = is_ear(p, &prev, &next, &alive);
        ear[q] = is_ear(q, &prev, &next, &alive);
        cursor = q;
    }
    let a = (0..n).find(|&k| alive[k]).unwrap_or(0);
    out.push([prev[a], a, next[a]]);
    out
}

/// A diagonal shared by two pieces, with the pieces on each side.
struct Diagonal {
    a: usize,
    b: usize,
    /// The piece in which the diagonal runs from `a` to `b` (counter-clockwise).
    left: usize,
    /// The piece in which it runs from `b` to `a`.
    right: usize,
}

/// Hertel–Mehlhorn: removes each diagonal whose removal leaves both its endpoints convex
/// (straight corners allowed), in the order the triangles were made.
fn hertel_mehlhorn(ex: &Exact, triangles: Vec<[usize; 3]>) -> Vec<Piece> {
    let n = ex.p.len();
    let mut pieces: Vec<Piece> = triangles.iter().map(|t| t.to_vec()).collect();
    // Triangle edges that are not polygon edges are diagonals, each seen from both sides.
    let is_boundary = |u: usize, v: usize| (u + 1) % n == v;
    let mut owner: std::collections::HashMap<(usize, usize), usize> = std::collections::HashMap::new();
    let mut diagonals = Vec::new();
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (u, v) = (tri[k], tri[(k + 1) % 3]);
            if is_boundary(u, v) {
                continue;
            }
            if let Some(&other) = owner.get(&(v, u)) {
                diagonals.push(Diagonal { a: v, b: u, left: other, right: t });
            } else {
                owner.insert((u, v), t);
            }
        }
    }
    // Merged pieces point to the piece that absorbed them (union-find without ranks).
    let mut parent: Vec<usize> = (0..pieces.len()).collect();
    let find = |parent: &mut Vec<usize>, mut x: usize| {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    };
    for d in &diagonals {
        let (l, r) = (find(&mut parent, d.left), find(&mut parent, d.right));
        let (pl, pr) = (&pieces[l], &pieces[r]);
        // In `pl` the diagonal runs a -> b, in `pr` b -> a.
        let (Some(ia), Some(jb)) = (pl.iter().position(|&x| x == d.a), pr.iter().position(|&x| x == d.b))
        else {
            continue;
        };
        let (ml, mr) = (pl.len(), pr.len());
        if pl[(ia + 1) % ml] != d.b || pr[(jb + 1) % mr] != d.a {
            continue; // not reached: a diagonal stays an edge of both pieces until removed
        }
        let before_a = pl[(ia + ml - 1) % ml];
        let after_b = pl[(ia + 2) % ml];
        let after_a = pr[(jb + 2) % mr];
        let before_b = pr[(jb + mr - 1) % mr];
        if ex.orient(before_a, d.a, after_a) < 0 || ex.orient(before_b, d.b, after_b) < 0 {
            continue;
        }
        // Merged: `pl` from b round to a, then `pr` after a round to before b.
        let mut merged = Vec::with_capacity(ml + mr - 2);
        merged.extend((0..ml).map(|k| pl[(ia + 1 + k) % ml]));
        merged.extend((1..mr - 1).map(|k| pr[(jb + 1 + k) % mr]));
        pieces[l] = merged;
        pieces[r] = Vec::new();
        parent[r] = l;
    }
    pieces.into_iter().filter(|p| !p.is_empty()).collect()
}
