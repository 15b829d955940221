//! Terrain from an image: a grayscale PNG read as a heightfield (the `png` feature).

use super::error::HeightFieldError;
use crate::composite::HeightField;
use crate::math::{Real, Vector3};
use crate::query::Space;
use std::io::{BufRead, Cursor, Seek};

impl<V: Vector3 + Space> HeightField<V> {
    /// The terrain of a grayscale PNG image: pixel row `r` is heights row `r` (along z),
    /// pixel column `c` is column `c` (along x), each sample scaled to `[0, 1]` (`v / 255`
    /// for 8-bit images, `v / 65535` for 16-bit) and then by `scale` as in
    /// [`try_new`](Self::try_new). One line of code for a terrain:
    ///
    /// ```no_run
    /// use kollide::composite::HeightField;
    /// use kollide::math::Vec3;
    /// let terrain = HeightField::from_png("examples/terrain.png", Vec3::new(256.0, 30.0, 256.0)).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`HeightFieldError::Io`] when the file cannot be read (naming the path), then as
    /// [`from_png_bytes`](Self::from_png_bytes).
    pub fn from_png(path: impl AsRef<std::path::Path>, scale: V) -> Result<Self, HeightFieldError> {
        let path = path.as_ref();
        let file = std::fs::File::open(path)
            .map_err(|e| HeightFieldError::Io { path: path.display().to_string(), message: e.to_string() })?;
        Self::from_png_reader(std::io::BufReader::new(file), scale)
    }

    /// [`from_png`](Self::from_png) on the bytes of a PNG file (an image embedded with
    /// `include_bytes!`, say).
    ///
    /// # Errors
    /// [`HeightFieldError::Decode`] for bytes that are not a PNG image,
    /// [`HeightFieldError::NotGrayscale`] naming the colour type of a colour, palette or
    /// grayscale-with-alpha image, [`HeightFieldError::BitDepth`] for 1-, 2- or 4-bit
    /// grayscale, and the errors of [`try_new`](Self::try_new) (an image smaller than 2x2).
    pub fn from_png_bytes(bytes: &[u8], scale: V) -> Result<Self, HeightFieldError> {
        Self::from_png_reader(Cursor::new(bytes), scale)
    }

    fn from_png_reader(reader: impl BufRead + Seek, scale: V) -> Result<Self, HeightFieldError> {
        let decode = |e: png::DecodingError| HeightFieldError::Decode { message: e.to_string() };
        let mut decoder = png::Decoder::new(reader);
        // The samples as stored: no expansion, no stripping of 16-bit samples.
        decoder.set_transformations(png::Transformations::IDENTITY);
        let mut reader = decoder.read_info().map_err(decode)?;
        let info = reader.info();
        let color_type = match info.color_type {
            png::ColorType::Grayscale => None,
            png::ColorType::Rgb => Some("RGB"),
            png::ColorType::Rgba => Some("RGBA"),
            png::ColorType::Indexed => Some("indexed (a palette)"),
            png::ColorType::GrayscaleAlpha => Some("grayscale with alpha"),
        };
        if let Some(color_type) = color_type {
            return Err(HeightFieldError::NotGrayscale { color_type });
        }
        let bits = info.bit_depth as u8;
        if bits != 8 && bits != 16 {
            return Err(HeightFieldError::BitDepth { bits });
        }
        let (width, height) = (info.width as usize, info.height as usize);
        let size =
            reader.output_buffer_size().ok_or(HeightFieldError::TooLarge { rows: height, cols: width })?;
        let mut buf = vec![0u8; size];
        let frame = reader.next_frame(&mut buf).map_err(decode)?;
        let line = frame.line_size;
        let mut samples = Vec::with_capacity(width * height);
        for r in 0..height {
            let row = &buf[r * line..r * line + line];
            for c in 0..width {
                let v = if bits == 8 {
                    f64::from(row[c]) / 255.0
                } else {
                    f64::from(u16::from_be_bytes([row[2 * c], row[2 * c + 1]])) / 65535.0
                };
                samples.push(V::Real::from_f64(v));
            }
        }
        Self::try_from_grid(height, width, samples, scale)
    }
}
