//! Wavefront OBJ: the `v` and `f` statements.
//!
//! Read by hand rather than through a crate: the geometry of OBJ is two statements, and an
//! error must name its line, which the OBJ crates do not report.

use super::{fan, vertices, MeshFileError, MeshFileErrorKind, ReadContext, Soup};

/// The soup of an OBJ file. Lines are split at `\n` (a `\r` before it is dropped); a line
/// ending in `\` continues on the next.
pub(crate) fn read(bytes: &[u8], cx: &ReadContext<'_>) -> Result<Soup, MeshFileError> {
    let mut soup = Soup::default();
    let mut corners: Vec<u32> = Vec::new();
    let mut joined: Vec<u8> = Vec::new();
    let mut lines = bytes.split(|&b| b == b'\n').enumerate();
    while let Some((i, first)) = lines.next() {
        let number = i + 1;
        let mut line = strip_cr(first);
        // Continuations: the statement is read as one line, named by its first.
        if let Some(head) = line.strip_suffix(b"\\") {
            joined.clear();
            joined.extend_from_slice(head);
            for (_, next) in lines.by_ref() {
                let next = strip_cr(next);
                joined.push(b' ');
                match next.strip_suffix(b"\\") {
                    Some(part) => joined.extend_from_slice(part),
                    None => {
                        joined.extend_from_slice(next);
                        break;
                    }
                }
            }
            line = &joined;
        }
        // A comment runs from `#` to the end of the line.
        let line = line.iter().position(|&b| b == b'#').map_or(line, |k| &line[..k]);
        let at = || format!("line {number}");
        let mut words = line.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty());
        match words.next() {
            Some(b"v") => {
                let mut p = [0.0; 3];
                for (axis, slot) in p.iter_mut().enumerate() {
                    let Some(word) = words.next() else {
                        let msg = format!("a vertex needs 3 coordinates, got {axis}");
                        return Err(MeshFileError::new(MeshFileErrorKind::Syntax, at(), msg));
                    };
                    let x = parse_number(word).ok_or_else(|| {
                        let msg = format!("coordinate {} is not a number: {}", axis + 1, shown(word));
                        MeshFileError::new(MeshFileErrorKind::Syntax, at(), msg)
                    })?;
                    *slot = cx.coordinate(x, axis, at)?;
                }
                if soup.positions.len() >= u32::MAX as usize - 1 {
                    let msg = "more vertices than u32 indices address";
                    return Err(MeshFileError::new(MeshFileErrorKind::TooLarge, at(), msg));
                }
                soup.positions.push(p);
            }
            Some(b"f") => {
                corners.clear();
                for word in words {
                    corners.push(index(word, soup.positions.len(), number)?);
                }
                if corners.len() < 3 {
                    let msg = format!("a face needs at least 3 vertices, got {}", corners.len());
                    return Err(MeshFileError::new(MeshFileErrorKind::TooFewVertices, at(), msg));
                }
                fan(&corners, &mut soup.triangles);
            }
            // Lines, points, curves, texture coordinates, normals, groups, materials: not
            // the surface.
            _ => {}
        }
    }
    Ok(soup)
}

fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// A number as Rust reads floats (`1`, `-2.5`, `1e-3`; also `nan` and `inf`, which the
/// coordinate check then refuses by name).
fn parse_number(word: &[u8]) -> Option<f64> {
    std::str::from_utf8(word).ok()?.parse().ok()
}

/// A word for a message: as text, shortened, `?` for what is not UTF-8.
fn shown(word: &[u8]) -> String {
    let text = String::from_utf8_lossy(word);
    let mut s: String = text.chars().take(24).collect();
    if text.chars().count() > 24 {
        s.push_str("...");
    }
    format!("\"{s}\"")
}

/// The 0-based vertex of a face corner `v`, `v/vt`, `v//vn` or `v/vt/vn`: `v` counts from 1,
/// or back from the last vertex defined when negative.
fn index(word: &[u8], defined: usize, line: usize) -> Result<u32, MeshFileError> {
    let at = format!("line {line}");
    let v = word.split(|&b| b == b'/').next().unwrap_or(word);
    let Some(i) = std::str::from_utf8(v).ok().and_then(|s| s.parse::<i64>().ok()) else {
        let msg =
            format!("a face corner must be a vertex index (v, v/vt, v//vn or v/vt/vn), got {}", shown(word));
        return Err(MeshFileError::new(MeshFileErrorKind::Syntax, at, msg));
    };
    let before = vertices(defined);
    let be = if defined == 1 { "is" } else { "are" };
    let resolved = match i {
        0 => {
            let msg = "vertex index 0 is invalid: OBJ indices count from 1 (negative ones back from the last vertex)";
            return Err(MeshFileError::new(MeshFileErrorKind::IndexOutOfRange, at, msg));
        }
        i if i > 0 => i - 1,
        i => defined as i64 + i,
    };
    if resolved < 0 || resolved >= defined as i64 {
        let msg = format!("vertex index {i} is out of range: {before} {be} defined before this line");
        return Err(MeshFileError::new(MeshFileErrorKind::IndexOutOfRange, at, msg));
    }
    Ok(resolved as u32)
}
