//! Mesh files: the same meshes written by hand in all four formats (by the small writers
//! below, which share nothing with the readers) load to the same triangles at the same
//! corners; each format's odd cases; bad files give errors naming the file, the line or
//! element and what is wrong; truncated files never panic.

#![cfg(all(feature = "obj", feature = "stl", feature = "ply", feature = "gltf"))]

use kollide::composite::{MeshFileErrorKind, MeshFormat, TriMesh, Weld};
use kollide::math::{DVec3, Vec3};

type Tri = [[f64; 3]; 3];

/// The unit cube, 12 triangles wound outwards, over 8 corners.
fn cube() -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    (crate::common::cube::corners(), crate::common::cube::triangles())
}

/// A small irregular mesh: an octahedron with uneven arms, coordinates exact in `f32` and
/// in decimal.
fn octahedron() -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let v = vec![
        [1.5, 0.25, 0.0],
        [-0.75, 0.0, 0.125],
        [0.0, 2.0, -0.5],
        [0.0, -1.25, 0.0],
        [0.375, 0.0, 1.0],
        [0.0, 0.5, -3.0],
    ];
    let t = vec![[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]];
    (v, t)
}

fn corners(v: &[[f64; 3]], t: &[[u32; 3]]) -> Vec<Tri> {
    t.iter().map(|t| t.map(|i| v[i as usize])).collect()
}

fn mesh_corners(m: &TriMesh<DVec3>) -> Vec<Tri> {
    (0..m.triangle_count() as u32).map(|i| m.corners(i).map(|p| p.to_array())).collect()
}

// ---- The writers: each format as its specification describes it. ----

fn obj(v: &[[f64; 3]], t: &[[u32; 3]]) -> Vec<u8> {
    let mut s = String::from("# written by the test\no mesh\n");
    for p in v {
        s += &format!("v {} {} {}\n", p[0], p[1], p[2]);
    }
    for f in t {
        s += &format!("f {} {} {}\n", f[0] + 1, f[1] + 1, f[2] + 1);
    }
    s.into_bytes()
}

fn stl_binary(tris: &[Tri], header: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; 80];
    out[..header.len()].copy_from_slice(header);
    out.extend_from_slice(&(tris.len() as u32).to_le_bytes());
    for tri in tris {
        out.extend_from_slice(&[0u8; 12]); // a zero normal: readers must not need it
        for p in tri {
            for x in p {
                out.extend_from_slice(&(*x as f32).to_le_bytes());
            }
        }
        out.extend_from_slice(&[0, 0]);
    }
    out
}

fn stl_ascii(tris: &[Tri], first_line: &str) -> Vec<u8> {
    let mut s = format!("{first_line}\n");
    for tri in tris {
        s += "  facet normal 0 0 1\n    outer loop\n";
        for p in tri {
            s += &format!("      vertex {} {} {}\n", p[0], p[1], p[2]);
        }
        s += "    endloop\n  endfacet\n";
    }
    s += "endsolid test\n";
    s.into_bytes()
}

fn ply_header(format: &str, vertices: usize, faces: usize, extra: &str) -> String {
    format!(
        "ply\nformat {format} 1.0\ncomment written by the test\nelement vertex {vertices}\nproperty float x\nproperty float y\nproperty float z\n{extra}element face {faces}\nproperty list uchar int vertex_indices\nend_header\n"
    )
}

fn ply_ascii(v: &[[f64; 3]], polygons: &[Vec<u32>]) -> Vec<u8> {
    let mut s = ply_header("ascii", v.len(), polygons.len(), "");
    for p in v {
        s += &format!("{} {} {}\n", p[0], p[1], p[2]);
    }
    for f in polygons {
        let list: Vec<String> = f.iter().map(u32::to_string).collect();
        s += &format!("{} {}\n", f.len(), list.join(" "));
    }
    s.into_bytes()
}

fn ply_binary(v: &[[f64; 3]], polygons: &[Vec<u32>]) -> Vec<u8> {
    let mut out = ply_header("binary_little_endian", v.len(), polygons.len(), "").into_bytes();
    for p in v {
        for x in p {
            out.extend_from_slice(&(*x as f32).to_le_bytes());
        }
    }
    for f in polygons {
        out.push(f.len() as u8);
        for i in f {
            out.extend_from_slice(&(*i as i32).to_le_bytes());
        }
    }
    out
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for k in 0..4 {
            s.push(if k <= chunk.len() { A[(n >> (18 - 6 * k)) as usize & 63] as char } else { '=' });
        }
    }
    s
}

/// The binary buffer of a glTF mesh: positions (f32) then indices (u32).
fn gltf_buffer(v: &[[f64; 3]], t: &[[u32; 3]]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in v {
        for x in p {
            out.extend_from_slice(&(*x as f32).to_le_bytes());
        }
    }
    for i in t.iter().flatten() {
        out.extend_from_slice(&i.to_le_bytes());
    }
    out
}

/// A glTF document over one buffer (`uri`: a data URI, or none for the GLB chunk) with one
/// mesh of one primitive, placed by `nodes` (JSON text of the nodes array) in scene 0.
fn gltf_json(v: &[[f64; 3]], t: &[[u32; 3]], uri: Option<&str>, nodes: &str, mode: u32) -> String {
    let positions = 12 * v.len();
    let indices = 4 * 3 * t.len();
    let (lo, hi) = bounds(v);
    let uri = uri.map_or(String::new(), |u| format!("\"uri\": \"{u}\", "));
    format!(
        r#"{{"asset": {{"version": "2.0"}}, "scene": 0, "scenes": [{{"nodes": [0]}}], "nodes": {nodes},
"meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}, "indices": 1, "mode": {mode}}}]}}],
"buffers": [{{{uri}"byteLength": {len}}}],
"bufferViews": [{{"buffer": 0, "byteOffset": 0, "byteLength": {positions}}}, {{"buffer": 0, "byteOffset": {positions}, "byteLength": {indices}}}],
"accessors": [{{"bufferView": 0, "componentType": 5126, "count": {nv}, "type": "VEC3", "min": {lo:?}, "max": {hi:?}}},
              {{"bufferView": 1, "componentType": 5125, "count": {ni}, "type": "SCALAR"}}]}}"#,
        len = positions + indices,
        nv = v.len(),
        ni = 3 * t.len(),
    )
}

fn bounds(v: &[[f64; 3]]) -> ([f32; 3], [f32; 3]) {
    let mut lo = [f32::MAX; 3];
    let mut hi = [f32::MIN; 3];
    for p in v {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k] as f32);
            hi[k] = hi[k].max(p[k] as f32);
        }
    }
    (lo, hi)
}

fn gltf_embedded(v: &[[f64; 3]], t: &[[u32; 3]], nodes: &str) -> Vec<u8> {
    let uri = format!("data:application/octet-stream;base64,{}", base64(&gltf_buffer(v, t)));
    gltf_json(v, t, Some(&uri), nodes, 4).into_bytes()
}

fn glb(v: &[[f64; 3]], t: &[[u32; 3]], nodes: &str) -> Vec<u8> {
    let mut json = gltf_json(v, t, None, nodes, 4).into_bytes();
    while json.len() % 4 != 0 {
        json.push(b' ');
    }
    let mut bin = gltf_buffer(v, t);
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}

const ONE_NODE: &str = r#"[{"mesh": 0}]"#;

fn load(bytes: &[u8], format: MeshFormat) -> TriMesh<DVec3> {
    TriMesh::<DVec3>::from_bytes(bytes, format, Weld::Exact).unwrap_or_else(|e| {
        panic!("{format}: {e}\n{}", String::from_utf8_lossy(&bytes[..bytes.len().min(400)]))
    })
}

// ---- Same mesh, every format. ----

#[test]
fn every_format_loads_the_same_triangles() {
    for (name, (v, t)) in [("cube", cube()), ("octahedron", octahedron())] {
        let want = corners(&v, &t);
        let tris = corners(&v, &t);
        let polygons: Vec<Vec<u32>> = t.iter().map(|f| f.to_vec()).collect();
        let files: Vec<(&str, MeshFormat, Vec<u8>)> = vec![
            ("obj", MeshFormat::Obj, obj(&v, &t)),
            ("stl binary", MeshFormat::Stl, stl_binary(&tris, b"binary")),
            ("stl ascii", MeshFormat::Stl, stl_ascii(&tris, "solid test")),
            ("ply ascii", MeshFormat::Ply, ply_ascii(&v, &polygons)),
            ("ply binary", MeshFormat::Ply, ply_binary(&v, &polygons)),
            ("gltf", MeshFormat::Gltf, gltf_embedded(&v, &t, ONE_NODE)),
            ("glb", MeshFormat::Gltf, glb(&v, &t, ONE_NODE)),
        ];
        for (what, format, bytes) in files {
            let m = load(&bytes, format);
            assert_eq!(mesh_corners(&m), want, "{name} as {what}");
            // Welded to the positions: the soups of STL and glTF share their corners again.
            assert_eq!(m.vertices().len(), v.len(), "{name} as {what}");
            let r = m.report();
            assert!(r.closed && r.oriented && r.boundary_edges == 0, "{name} as {what}: {r:?}");
            // Unwelded, a soup keeps its repeats (STL: three corners a facet).
            let raw = TriMesh::<DVec3>::from_bytes(&bytes, format, Weld::None).unwrap();
            if what.starts_with("stl") {
                assert_eq!(raw.vertices().len(), 3 * t.len(), "{name} as {what}");
            }
            // In f32 too, to the same corners (all exact in f32).
            let m32 = TriMesh::<Vec3>::from_bytes(&bytes, format, Weld::Exact).unwrap();
            let got: Vec<Tri> = (0..m32.triangle_count() as u32)
                .map(|i| m32.corners(i).map(|p| p.as_dvec3().to_array()))
                .collect();
            assert_eq!(got, want, "{name} as {what} in f32");
        }
    }
}

#[test]
fn files_are_read_by_their_extension() {
    let dir = std::env::temp_dir().join(format!("kollide-mesh-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (v, t) = octahedron();
    let tris = corners(&v, &t);
    let polygons: Vec<Vec<u32>> = t.iter().map(|f| f.to_vec()).collect();
    for (file, bytes) in [
        ("m.obj", obj(&v, &t)),
        ("m.STL", stl_binary(&tris, b"")),
        ("m.ply", ply_ascii(&v, &polygons)),
        ("m.gltf", gltf_embedded(&v, &t, ONE_NODE)),
        ("m.glb", glb(&v, &t, ONE_NODE)),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, bytes).unwrap();
        let m = TriMesh::<DVec3>::from_file(&path, Weld::Exact).unwrap();
        assert_eq!(mesh_corners(&m), tris, "{file}");
    }
    // A .gltf whose buffer is a file beside it, named with an escaped space.
    std::fs::write(dir.join("the buffer.bin"), gltf_buffer(&v, &t)).unwrap();
    std::fs::write(dir.join("external.gltf"), gltf_json(&v, &t, Some("the%20buffer.bin"), ONE_NODE, 4))
        .unwrap();
    let m = TriMesh::<DVec3>::from_file(dir.join("external.gltf"), Weld::Exact).unwrap();
    assert_eq!(mesh_corners(&m), tris);
    // From bytes, the external buffer cannot be reached: said so.
    let e = TriMesh::<DVec3>::from_bytes(
        gltf_json(&v, &t, Some("the%20buffer.bin"), ONE_NODE, 4).as_bytes(),
        MeshFormat::Gltf,
        Weld::Exact,
    )
    .unwrap_err();
    assert_eq!(e.kind, MeshFileErrorKind::Unsupported);
    assert!(
        e.to_string().starts_with("bytes: buffers[0]: the buffer is the file \"the%20buffer.bin\""),
        "{e}"
    );

    // Errors of the file as a whole name it.
    let missing = dir.join("missing.obj");
    let e = TriMesh::<DVec3>::from_file(&missing, Weld::Exact).unwrap_err();
    assert_eq!(e.kind, MeshFileErrorKind::Io);
    assert!(e.to_string().starts_with(&format!("{}: cannot read: ", missing.display())), "{e}");
    let e = TriMesh::<DVec3>::from_file(dir.join("m.txt"), Weld::Exact).unwrap_err();
    assert_eq!(e.kind, MeshFileErrorKind::UnknownFormat);
    std::fs::create_dir_all(dir.join("folder.obj")).unwrap();
    let e = TriMesh::<DVec3>::from_file(dir.join("folder.obj"), Weld::Exact).unwrap_err();
    assert!(e.to_string().ends_with("folder.obj: cannot read: a folder"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- Each format's odd cases. ----

#[test]
fn obj_indices_one_based_negative_and_polygons() {
    let text = "\
# a square and a pentagon, with texture and normal indices
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0   # a comment after a vertex
vt 0 0
vn 0 0 1
f 1/1/1 2/1/1 3//1 4
v 0 0 1
v 1 0 1
v 1.5 0.5 1 1.0
v 1 1 1
v 0 1 1
f -5 -4 -3 \\
  -2 -1
l 1 2
p 3
";
    let m = load(text.as_bytes(), MeshFormat::Obj);
    // The quad fanned from its first corner; the pentagon by negative indices (the five
    // vertices before its line, continued on the next), fanned.
    assert_eq!(m.indices(), &[[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7], [4, 7, 8]]);
    assert_eq!(m.vertices()[6], DVec3::new(1.5, 0.5, 1.0)); // the weight is not a coordinate
    assert_eq!(m.triangle_count(), 5); // the line and the point are no triangles
}

#[test]
fn stl_headers_that_lie_about_the_kind() {
    let (v, t) = cube();
    let tris = corners(&v, &t);
    // Binary, with a header that starts as an ASCII file does.
    let m = load(&stl_binary(&tris, b"solid exported by a program that writes this"), MeshFormat::Stl);
    assert_eq!(mesh_corners(&m), tris);
    // ASCII with a bare "solid" and Windows line ends.
    let crlf = String::from_utf8(stl_ascii(&tris, "solid")).unwrap().replace('\n', "\r\n");
    let m = load(crlf.as_bytes(), MeshFormat::Stl);
    assert_eq!(mesh_corners(&m), tris);
}

#[test]
fn ply_triangle_strips_and_polygons() {
    // A strip over a row of a grid: 0 1 2 3 4 5 zig-zagging, then -1 and a second strip.
    let v: Vec<[f64; 3]> = (0..8).map(|i| [f64::from(i / 2), f64::from(i % 2), 0.0]).collect();
    let mut s = String::from(
        "ply\nformat ascii 1.0\nelement vertex 8\nproperty double x\nproperty double y\nproperty double z\nelement tristrips 1\nproperty list int int vertex_indices\nend_header\n",
    );
    for p in &v {
        s += &format!("{} {} {}\n", p[0], p[1], p[2]);
    }
    // The strip 0 1 2 3 4 5, then after -1 the strip 4 5 6 6 7, whose last two triangles
    // repeat a corner (the stitch a strip uses to jump) and are skipped.
    s += "12 0 1 2 3 4 5 -1 4 5 6 6 7\n";
    let m = load(s.as_bytes(), MeshFormat::Ply);
    // Triangle k of a strip is (k, k+1, k+2), every odd one turned.
    assert_eq!(m.indices(), &[[0, 1, 2], [1, 3, 2], [2, 3, 4], [3, 5, 4], [4, 5, 6]]);
    // So all face the same way: -z, by their corners on the grid.
    for i in 0..5 {
        let [a, b, c] = m.corners(i);
        assert!((b - a).cross(c - a).z < 0.0, "triangle {i}");
    }
    // A quad and a hexagon as PLY faces, fanned.
    let square = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
    let m = load(&ply_ascii(&square, &[vec![0, 1, 2, 3]]), MeshFormat::Ply);
    assert_eq!(m.indices(), &[[0, 1, 2], [0, 2, 3]]);
}

#[test]
fn gltf_node_transforms_are_applied() {
    let (v, t) = octahedron();
    // A parent moved by (1, 2, 3) and turned 90 degrees about z, its child scaled by 2: a
    // point p lands at (1, 2, 3) + Rz(2p) = (1 - 2 p.y, 2 + 2 p.x, 3 + 2 p.z).
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let nodes = format!(
        r#"[{{"translation": [1, 2, 3], "rotation": [0, 0, {s}, {s}], "children": [1]}}, {{"mesh": 0, "scale": [2, 2, 2]}}]"#
    );
    let placed = |p: [f64; 3]| [1.0 - 2.0 * p[1], 2.0 + 2.0 * p[0], 3.0 + 2.0 * p[2]];
    let want: Vec<Tri> = corners(&v, &t).into_iter().map(|tri| tri.map(placed)).collect();
    for bytes in [gltf_embedded(&v, &t, &nodes), glb(&v, &t, &nodes)] {
        let m = load(&bytes, MeshFormat::Gltf);
        let got = mesh_corners(&m);
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            for k in 0..3 {
                for a in 0..3 {
                    assert!((g[k][a] - w[k][a]).abs() < 1e-6, "{g:?} vs {w:?}");
                }
            }
        }
        assert!(m.report().closed && m.report().oriented);
    }
    // A matrix that mirrors x: corners 1 and 2 swap, so the outward side stays outward.
    let mirror = r#"[{"mesh": 0, "matrix": [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]}]"#;
    let m = load(&gltf_embedded(&v, &t, mirror), MeshFormat::Gltf);
    let want: Vec<Tri> =
        corners(&v, &t).into_iter().map(|[a, b, c]| [a, c, b].map(|p| [-p[0], p[1], p[2]])).collect();
    assert_eq!(mesh_corners(&m), want);
    // The original is closed and wound outwards: its signed volume is positive, and so is
    // the mirrored one's.
    let volume = |m: &TriMesh<DVec3>| {
        (0..m.triangle_count() as u32)
            .map(|i| {
                let [a, b, c] = m.corners(i);
                a.dot(b.cross(c)) / 6.0
            })
            .sum::<f64>()
    };
    assert!(volume(&load(&gltf_embedded(&v, &t, ONE_NODE), MeshFormat::Gltf)) > 0.0);
    assert!(volume(&m) > 0.0);
    // One mesh placed by two nodes is there twice.
    let twice = r#"[{"children": [1, 2]}, {"mesh": 0}, {"mesh": 0, "translation": [10, 0, 0]}]"#;
    let m = load(&gltf_embedded(&v, &t, twice), MeshFormat::Gltf);
    assert_eq!(m.triangle_count(), 2 * t.len());
    assert_eq!(m.corners(t.len() as u32)[0], DVec3::from(v[t[0][0] as usize]) + DVec3::new(10.0, 0.0, 0.0));
}

#[test]
fn gltf_strips_fans_and_points() {
    let v: Vec<[f64; 3]> = (0..5).map(|i| [f64::from(i / 2), f64::from(i % 2), 0.0]).collect();
    // The index list 0..5 as given to each mode (5 indices; the JSON says 3 * 1 + 2).
    let idx = vec![[0, 1, 2], [3, 4, 0]];
    let mut strip = gltf_json(&v, &idx, Some(&data_uri(&v, &idx)), ONE_NODE, 5);
    strip = strip.replace("\"count\": 6", "\"count\": 5");
    let m = load(strip.as_bytes(), MeshFormat::Gltf);
    assert_eq!(m.indices(), &[[0, 1, 2], [1, 3, 2], [2, 3, 4]]);
    let fan =
        gltf_json(&v, &idx, Some(&data_uri(&v, &idx)), ONE_NODE, 6).replace("\"count\": 6", "\"count\": 5");
    let m = load(fan.as_bytes(), MeshFormat::Gltf);
    assert_eq!(m.indices(), &[[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
    // Points only: no triangles, which is an error of its own.
    let points = gltf_json(&v, &idx, Some(&data_uri(&v, &idx)), ONE_NODE, 0);
    let e = TriMesh::<DVec3>::from_bytes(points.as_bytes(), MeshFormat::Gltf, Weld::Exact).unwrap_err();
    assert_eq!(e.kind, MeshFileErrorKind::Empty);
}

fn data_uri(v: &[[f64; 3]], t: &[[u32; 3]]) -> String {
    format!("data:application/gltf-buffer;base64,{}", base64(&gltf_buffer(v, t)))
}

// ---- Bad files. ----

fn error(bytes: &[u8], format: MeshFormat) -> (MeshFileErrorKind, String) {
    let e = TriMesh::<DVec3>::from_bytes(bytes, format, Weld::Exact).unwrap_err();
    (e.kind, e.to_string())
}

#[test]
fn bad_obj_files_name_the_line() {
    use MeshFileErrorKind::*;
    let cases: &[(&str, MeshFileErrorKind, &str)] = &[
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", IndexOutOfRange, "bytes: line 4: vertex index 4 is out of range: 3 vertices are defined before this line"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n", IndexOutOfRange, "bytes: line 4: vertex index 0 is invalid: OBJ indices count from 1 (negative ones back from the last vertex)"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n", IndexOutOfRange, "bytes: line 4: vertex index -4 is out of range: 3 vertices are defined before this line"),
        ("v 0 0 0\nv 1 0 0\n\nf 1 2\n", TooFewVertices, "bytes: line 4: a face needs at least 3 vertices, got 2"),
        ("v 0 0 0\nv 1 nan 0\n", NonFinite, "bytes: line 2: coordinate y is not finite (NaN)"),
        ("v 0 0 inf\n", NonFinite, "bytes: line 1: coordinate z is not finite (inf)"),
        ("v 0 0\n", Syntax, "bytes: line 1: a vertex needs 3 coordinates, got 2"),
        ("v 0 zero 0\n", Syntax, "bytes: line 1: coordinate 2 is not a number: \"zero\""),
        ("v 0 0 0\nf 1 x 1\n", Syntax, "bytes: line 2: a face corner must be a vertex index (v, v/vt, v//vn or v/vt/vn), got \"x\""),
        ("# nothing\n", Empty, "bytes: the OBJ file has no vertices"),
        ("v 0 0 0\n", Empty, "bytes: the OBJ file has no triangles"),
    ];
    for (text, kind, message) in cases {
        assert_eq!(error(text.as_bytes(), MeshFormat::Obj), (*kind, message.to_string()), "{text}");
    }
    // A coordinate beyond f32 is an error for an f32 mesh only.
    let big = b"v 0 0 0\nv 1e39 0 0\nv 0 1 0\nf 1 2 3\n";
    assert!(TriMesh::<DVec3>::from_bytes(big, MeshFormat::Obj, Weld::Exact).is_ok());
    let e = TriMesh::<Vec3>::from_bytes(big, MeshFormat::Obj, Weld::Exact).unwrap_err();
    assert_eq!(e.to_string(), "bytes: line 2: coordinate x = 1e39 is beyond the range of f32");
}

#[test]
fn bad_stl_files_name_the_facet() {
    let (v, t) = cube();
    let tris = corners(&v, &t);
    let good = stl_binary(&tris, b"");
    // Cut inside facet 5: the file ends early there.
    let (kind, msg) = error(&good[..84 + 50 * 5 + 20], MeshFormat::Stl);
    assert_eq!(kind, MeshFileErrorKind::Syntax);
    assert!(msg.starts_with("bytes: facets[5]: the file ends early"), "{msg}");
    // A NaN corner.
    let mut nan = good.clone();
    let at = 84 + 50 * 2 + 12 + 12 + 4; // facet 2, corner 1, y
    nan[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    assert_eq!(
        error(&nan, MeshFormat::Stl),
        (
            MeshFileErrorKind::NonFinite,
            "bytes: facets[2] vertex 1: coordinate y is not finite (NaN)".to_string()
        )
    );
    // ASCII: a facet with two vertices.
    let text = "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\nendfacet\nendsolid s\n";
    let (kind, msg) = error(text.as_bytes(), MeshFormat::Stl);
    assert_eq!(kind, MeshFileErrorKind::Syntax);
    assert!(msg.starts_with("bytes: facets[0]: "), "{msg}");
}

#[test]
fn bad_ply_files_name_the_element() {
    let square = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
    assert_eq!(
        error(&ply_ascii(&square, &[vec![0, 1, 2], vec![0, 2, 4]]), MeshFormat::Ply),
        (
            MeshFileErrorKind::IndexOutOfRange,
            "bytes: face[1] (line 16): vertex index 4 is out of range: there are 4 vertices".to_string()
        )
    );
    assert_eq!(
        error(&ply_ascii(&square, &[vec![0, 1]]), MeshFormat::Ply),
        (
            MeshFileErrorKind::TooFewVertices,
            "bytes: face[0] (line 15): a face needs at least 3 vertices, got 2".to_string()
        )
    );
    assert_eq!(
        error(&ply_binary(&square, &[vec![0, 1, 2], vec![3, 2, 9]]), MeshFormat::Ply),
        (
            MeshFileErrorKind::IndexOutOfRange,
            "bytes: face[1]: vertex index 9 is out of range: there are 4 vertices".to_string()
        )
    );
    let mut nan_square = square;
    nan_square[2][0] = f64::NAN;
    assert_eq!(
        error(&ply_binary(&nan_square, &[vec![0, 1, 2]]), MeshFormat::Ply),
        (MeshFileErrorKind::NonFinite, "bytes: vertex[2]: coordinate x is not finite (NaN)".to_string())
    );
    let no_z = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n0 0\n";
    let (kind, msg) = error(no_z.as_bytes(), MeshFormat::Ply);
    assert_eq!(
        (kind, msg.as_str()),
        (MeshFileErrorKind::Syntax, "bytes: vertex[0] (line 9): the vertex has no number property \"z\"")
    );
    // Malformed text is the crate's message, which names the line.
    let bad = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 zero 0\n";
    let (kind, msg) = error(bad.as_bytes(), MeshFormat::Ply);
    assert_eq!(kind, MeshFileErrorKind::Syntax);
    assert!(msg.contains("Line 8") && !msg.contains('\n'), "{msg}");
}

#[test]
fn bad_gltf_files_name_the_object() {
    let (v, t) = octahedron();
    let mut bad_t = t.clone();
    bad_t[3][1] = 6;
    let (kind, msg) = error(&gltf_embedded(&v, &bad_t, ONE_NODE), MeshFormat::Gltf);
    assert_eq!(kind, MeshFileErrorKind::IndexOutOfRange);
    assert_eq!(
        msg,
        "bytes: meshes[0].primitives[0]: index 6 (item 10 of accessors[1]) is out of range: the positions have 6 vertices"
    );
    // A buffer view that runs past its buffer.
    let long = String::from_utf8(gltf_embedded(&v, &t, ONE_NODE))
        .unwrap()
        .replace("\"byteOffset\": 72, \"byteLength\": 96", "\"byteOffset\": 72, \"byteLength\": 960");
    let (kind, msg) = error(long.as_bytes(), MeshFormat::Gltf);
    assert_eq!(kind, MeshFileErrorKind::Syntax);
    assert!(
        msg.starts_with(
            "bytes: meshes[0].primitives[0]: accessors[1]: bufferViews[1] (bytes 72 to 1032) runs past"
        ),
        "{msg}"
    );
    // Not JSON at all.
    let (kind, msg) = error(b"{\"asset\": ", MeshFormat::Gltf);
    assert_eq!(kind, MeshFileErrorKind::Syntax);
    assert!(msg.starts_with("bytes: not a glTF document"), "{msg}");
    // A GLB header whose length is shorter than the header (the gltf crate subtracted 12
    // from it; found by the fuzz target).
    let mut short = glb(&v, &t, ONE_NODE);
    short[8..12].copy_from_slice(&5u32.to_le_bytes());
    let (kind, msg) = error(&short, MeshFormat::Gltf);
    assert_eq!(kind, MeshFileErrorKind::Syntax);
    assert_eq!(
        msg,
        "bytes: not a valid GLB file: its header gives a length of 5 bytes, less than the header"
    );
    assert!(error(b"glTF\x02\0\0", MeshFormat::Gltf).1.contains("ends inside its 12-byte header"));
    // A node that is its own grandparent.
    let cycle = r#"[{"mesh": 0, "children": [1]}, {"children": [0]}]"#;
    let (kind, msg) = error(&gltf_embedded(&v, &t, cycle), MeshFormat::Gltf);
    assert_eq!(kind, MeshFileErrorKind::Syntax, "{msg}");
}

/// Every prefix of every good file, and each with one byte changed, is read or refused:
/// never a panic (the fuzz target `mesh_files` does this on arbitrary bytes).
#[test]
fn damaged_files_never_panic() {
    let (v, t) = octahedron();
    let tris = corners(&v, &t);
    let polygons: Vec<Vec<u32>> = t.iter().map(|f| f.to_vec()).collect();
    let files = [
        (MeshFormat::Obj, obj(&v, &t)),
        (MeshFormat::Stl, stl_binary(&tris, b"")),
        (MeshFormat::Stl, stl_ascii(&tris, "solid x")),
        (MeshFormat::Ply, ply_ascii(&v, &polygons)),
        (MeshFormat::Ply, ply_binary(&v, &polygons)),
        (MeshFormat::Gltf, gltf_embedded(&v, &t, ONE_NODE)),
        (MeshFormat::Gltf, glb(&v, &t, ONE_NODE)),
    ];
    let mut refused = 0;
    for (format, bytes) in &files {
        for cut in 0..bytes.len() {
            refused +=
                usize::from(TriMesh::<DVec3>::from_bytes(&bytes[..cut], *format, Weld::Exact).is_err());
        }
        for at in (0..bytes.len()).step_by(3) {
            let mut changed = bytes.clone();
            changed[at] ^= 0x5a;
            if let Ok(m) = TriMesh::<Vec3>::from_bytes(&changed, *format, Weld::Exact) {
                assert!(m.vertices().iter().all(|p| p.is_finite()));
            }
        }
    }
    assert!(refused > 1000);
}

// ---- The shipped example mesh. ----

#[path = "../../examples/make_rock.rs"]
mod make_rock;
#[path = "../../examples/mesh_rays.rs"]
mod mesh_rays;

fn shipped_rock() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/rock.obj")
}

/// `examples/rock.obj` is what its documented program writes (`make_rock`, n = 20), and its
/// diagnostics are the counts of that construction: 12 n² triangles; 6 (n + 1)² vertices
/// written, of which the copies along the cube's 12 edges and 8 corners weld to 6 n² + 2;
/// a closed surface of genus 0, so E = V + F - 2 edges, each of two triangles.
#[test]
fn the_shipped_rock_is_its_generators_and_counts_as_built() {
    let n = 20u32;
    let (v, t) = make_rock::rock(n);
    let text = std::fs::read_to_string(shipped_rock()).unwrap();
    assert!(
        text == make_rock::obj_text(&v, &t),
        "examples/rock.obj differs from `make_rock 20`: regenerate it"
    );
    let rock = TriMesh::<DVec3>::from_file(shipped_rock(), Weld::Exact).unwrap();
    let r = rock.report();
    let (f, written, welded) = (12 * n * n, 6 * (n + 1) * (n + 1), 6 * n * n + 2);
    assert_eq!(
        (r.triangles, r.vertices, r.welded_vertices),
        (f as usize, welded as usize, (written - welded) as usize)
    );
    assert_eq!(r.edges, (welded + f - 2) as usize);
    assert_eq!((r.boundary_edges, r.non_manifold_edges, r.misoriented_edges), (0, 0, 0));
    assert_eq!(
        (r.zero_area_triangles, r.sliver_triangles, r.duplicate_vertices, r.unused_vertices),
        (0, 0, 0, 0)
    );
    assert!(r.closed && r.oriented);
    // Every vertex within the generator's radii (to the 6 decimals written).
    for p in rock.vertices() {
        let d = p.length();
        assert!((make_rock::MIN_RADIUS - 1e-5..=make_rock::MAX_RADIUS + 1e-5).contains(&d), "{p}");
    }
    assert!(r.aabb.max.max_element() <= make_rock::MAX_RADIUS + 1e-5);
    // Wound outwards: the signed volume is positive.
    let volume: f64 = (0..rock.triangle_count() as u32)
        .map(|i| {
            let [a, b, c] = rock.corners(i);
            a.dot(b.cross(c)) / 6.0
        })
        .sum();
    assert!(volume > 0.0);
}

/// The README's example: 100,000 rays at the shipped rock. Every ray aimed inside the rock
/// (every other one) must hit its closed surface; every one aimed away must miss.
#[test]
fn the_readme_mesh_example_hits_with_every_ray_aimed_inside() {
    let rock = TriMesh::<DVec3>::from_file(shipped_rock(), Weld::Exact).unwrap();
    assert_eq!(mesh_rays::hits(&rock, 100_000), 50_000);
}
