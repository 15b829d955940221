//! STL, ASCII and binary, through the `stl_io` crate.
//!
//! A facet is three corners of its own, so the soup repeats every shared corner; welding
//! joins them. The facets' stored normals are not read.

use super::{MeshFileError, MeshFileErrorKind, ReadContext, Soup};
use std::borrow::Cow;
use std::io::Cursor;

/// The soup of an STL file: three new positions per facet, in file order.
pub(crate) fn read(bytes: &[u8], cx: &ReadContext<'_>) -> Result<Soup, MeshFileError> {
    let bytes = normalized(bytes);
    let mut cursor = Cursor::new(bytes.as_ref());
    let syntax = |at: String, e: &std::io::Error| {
        let message = match e.kind() {
            std::io::ErrorKind::UnexpectedEof => format!("the file ends early ({e})"),
            _ => e.to_string(),
        };
        MeshFileError::new(MeshFileErrorKind::Syntax, at, message)
    };
    let facets = stl_io::create_stl_reader(&mut cursor).map_err(|e| syntax(String::new(), &e))?;
    let mut soup = Soup::default();
    for (i, facet) in facets.enumerate() {
        let at = || format!("facets[{i}]");
        let facet = facet.map_err(|e| syntax(at(), &e))?;
        let first = soup.positions.len();
        if first > u32::MAX as usize - 4 {
            let msg = "more vertices than u32 indices address";
            return Err(MeshFileError::new(MeshFileErrorKind::TooLarge, at(), msg));
        }
        for (k, v) in facet.vertices.iter().enumerate() {
            let mut p = [0.0; 3];
            for (axis, slot) in p.iter_mut().enumerate() {
                *slot = cx.coordinate(f64::from(v[axis]), axis, || format!("facets[{i}] vertex {k}"))?;
            }
            soup.positions.push(p);
        }
        let first = first as u32;
        soup.triangles.push([first, first + 1, first + 2]);
    }
    Ok(soup)
}

/// The bytes as `stl_io` tells ASCII from binary (ASCII when the file starts with
/// `"solid "`). A binary file whose 80-byte header starts with `solid` (many exporters
/// write one) is binary when its size is exactly 84 + 50 n for the n its header gives:
/// its first byte, which no reader uses, is masked. An ASCII file whose first line is a
/// bare `solid` gets the space `stl_io` looks for.
fn normalized(bytes: &[u8]) -> Cow<'_, [u8]> {
    if !bytes.starts_with(b"solid") {
        return Cow::Borrowed(bytes);
    }
    if let Some(count) = bytes.get(80..84) {
        let n = u32::from_le_bytes([count[0], count[1], count[2], count[3]]) as u64;
        if 84 + 50 * n == bytes.len() as u64 {
            let mut masked = bytes.to_vec();
            masked[0] = b'_';
            return Cow::Owned(masked);
        }
    }
    if bytes.starts_with(b"solid ") {
        return Cow::Borrowed(bytes);
    }
    let mut spaced = b"solid ".to_vec();
    spaced.extend_from_slice(&bytes[5..]);
    Cow::Owned(spaced)
}
