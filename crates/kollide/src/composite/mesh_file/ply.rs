//! PLY, ASCII and binary, through the `ply-rs-bw` crate: the `vertex`, `face` and
//! `tristrips` elements.

use super::{fan, strip, vertices, MeshFileError, MeshFileErrorKind, ReadContext, Soup};
use ply_rs_bw::parser::Parser;
use ply_rs_bw::ply::{Encoding, Property, PropertyAccess};

/// One element of the file, keeping only what a mesh needs: the coordinates `x`, `y`, `z`
/// and the list `vertex_indices` (or `vertex_index`). Everything else is dropped as read.
#[derive(Debug, Default)]
struct Item {
    xyz: [f64; 3],
    /// Which of `x`, `y`, `z` were given (bits 0, 1, 2).
    has: u8,
    /// The index list, widened to `i64`.
    list: Option<Vec<i64>>,
    /// The list held floats, which index nothing.
    float_list: bool,
}

impl PropertyAccess for Item {
    fn new() -> Self {
        Self::default()
    }

    fn set_property(&mut self, name: &str, property: Property) {
        let axis = match name {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            "vertex_indices" | "vertex_index" => {
                self.list = match property {
                    Property::ListChar(v) => Some(v.into_iter().map(i64::from).collect()),
                    Property::ListUChar(v) => Some(v.into_iter().map(i64::from).collect()),
                    Property::ListShort(v) => Some(v.into_iter().map(i64::from).collect()),
                    Property::ListUShort(v) => Some(v.into_iter().map(i64::from).collect()),
                    Property::ListInt(v) => Some(v.into_iter().map(i64::from).collect()),
                    Property::ListUInt(v) => Some(v.into_iter().map(i64::from).collect()),
                    Property::ListFloat(_) | Property::ListDouble(_) => {
                        self.float_list = true;
                        None
                    }
                    _ => None,
                };
                return;
            }
            _ => return,
        };
        let x = match property {
            Property::Char(x) => f64::from(x),
            Property::UChar(x) => f64::from(x),
            Property::Short(x) => f64::from(x),
            Property::UShort(x) => f64::from(x),
            Property::Int(x) => f64::from(x),
            Property::UInt(x) => f64::from(x),
            Property::Float(x) => f64::from(x),
            Property::Double(x) => x,
            _ => return,
        };
        self.xyz[axis] = x;
        self.has |= 1 << axis;
    }
}

/// The soup of a PLY file.
pub(crate) fn read(bytes: &[u8], cx: &ReadContext<'_>) -> Result<Soup, MeshFileError> {
    let parser = Parser::<Item>::new();
    let ply = parser.read_ply(&mut &bytes[..]).map_err(|e| {
        // The crate's messages run over several lines, indented by tabs.
        let message = e.to_string().replace("\n\t", "; ").replace('\n', "; ");
        MeshFileError::new(MeshFileErrorKind::Syntax, "", message)
    })?;
    // In an ASCII file each element is a line after the header's.
    let ascii = ply.header.encoding == Encoding::Ascii;
    let mut first_line = header_lines(bytes) + 1;
    let mut element_lines = std::collections::HashMap::new();
    for (name, def) in &ply.header.elements {
        element_lines.insert(name.clone(), first_line);
        first_line = first_line.saturating_add(def.count);
    }
    let at = |element: &str, i: usize| {
        let line = element_lines.get(element).map(|first| first.saturating_add(i));
        match line {
            Some(line) if ascii => format!("{element}[{i}] (line {line})"),
            _ => format!("{element}[{i}]"),
        }
    };

    let mut soup = Soup::default();
    let Some(vertex) = ply.payload.get("vertex") else {
        let msg = "no \"vertex\" element in the header";
        return Err(MeshFileError::new(MeshFileErrorKind::Empty, "", msg));
    };
    for (i, item) in vertex.iter().enumerate() {
        if item.has != 0b111 {
            let missing = (0..3).find(|k| item.has & (1 << k) == 0).map_or("x", |k| ["x", "y", "z"][k]);
            let msg = format!("the vertex has no number property \"{missing}\"");
            return Err(MeshFileError::new(MeshFileErrorKind::Syntax, at("vertex", i), msg));
        }
        let mut p = [0.0; 3];
        for (axis, slot) in p.iter_mut().enumerate() {
            *slot = cx.coordinate(item.xyz[axis], axis, || at("vertex", i))?;
        }
        soup.positions.push(p);
    }
    if soup.positions.len() >= u32::MAX as usize {
        let msg = "more vertices than u32 indices address";
        return Err(MeshFileError::new(MeshFileErrorKind::TooLarge, "", msg));
    }
    let count = soup.positions.len();
    let mut corners: Vec<u32> = Vec::new();
    for (name, polygons) in [("face", true), ("tristrips", false)] {
        let Some(items) = ply.payload.get(name) else { continue };
        for (i, item) in items.iter().enumerate() {
            let Some(list) = &item.list else {
                let msg = if item.float_list {
                    "the vertex_indices list holds floats; indices are integers".to_string()
                } else {
                    format!("the {name} has no list property \"vertex_indices\"")
                };
                return Err(MeshFileError::new(MeshFileErrorKind::Syntax, at(name, i), msg));
            };
            corners.clear();
            for &k in list {
                if !polygons && k == -1 {
                    // The end of a strip.
                    strip(&corners, &mut soup.triangles);
                    corners.clear();
                    continue;
                }
                if k < 0 || k >= count as i64 {
                    let msg = format!("vertex index {k} is out of range: there are {}", vertices(count));
                    return Err(MeshFileError::new(MeshFileErrorKind::IndexOutOfRange, at(name, i), msg));
                }
                corners.push(k as u32);
            }
            if polygons {
                if corners.len() < 3 {
                    let msg = format!("a face needs at least 3 vertices, got {}", corners.len());
                    return Err(MeshFileError::new(MeshFileErrorKind::TooFewVertices, at(name, i), msg));
                }
                fan(&corners, &mut soup.triangles);
            } else {
                strip(&corners, &mut soup.triangles);
            }
        }
    }
    Ok(soup)
}

/// The number of lines up to and including `end_header`.
fn header_lines(bytes: &[u8]) -> usize {
    let mut lines = 0;
    for line in bytes.split(|&b| b == b'\n') {
        lines += 1;
        if line.strip_suffix(b"\r").unwrap_or(line).trim_ascii() == b"end_header" {
            break;
        }
    }
    lines
}
