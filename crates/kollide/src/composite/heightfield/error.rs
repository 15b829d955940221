//! Why a heightfield could not be built.

use std::fmt;

/// Why a [`HeightField`](crate::composite::HeightField) or [`HeightField2d`](crate::composite::HeightField2d)
/// could not be built.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum HeightFieldError {
    /// Fewer than 2 samples along a direction (2x2 in 3D, 2 in 2D).
    TooSmall {
        /// Rows given (1 in 2D).
        rows: usize,
        /// Columns given (samples in 2D).
        cols: usize,
    },
    /// A row whose length differs from the first row's.
    Ragged {
        /// The row.
        row: usize,
        /// Its length.
        len: usize,
        /// The first row's length.
        expected: usize,
    },
    /// A sample is NaN or infinite.
    NonFiniteHeight {
        /// Its row (0 in 2D).
        row: usize,
        /// Its column.
        col: usize,
    },
    /// A scale component is not finite or not positive.
    BadScale {
        /// 0 = x, 1 = y, 2 = z.
        axis: usize,
        /// Its value.
        value: f64,
    },
    /// More samples than `u32` triangle numbers address.
    TooLarge {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// The image file could not be read.
    Io {
        /// The path.
        path: String,
        /// The system's message.
        message: String,
    },
    /// The bytes are not a PNG image the decoder accepts.
    Decode {
        /// The decoder's message.
        message: String,
    },
    /// The image is not single-channel grayscale.
    NotGrayscale {
        /// What it is instead (`"RGB"`, `"RGBA"`, `"indexed"`, `"grayscale with alpha"`).
        color_type: &'static str,
    },
    /// A grayscale image of a bit depth other than 8 or 16.
    BitDepth {
        /// Its bits per sample.
        bits: u8,
    },
}

impl fmt::Display for HeightFieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooSmall { rows, cols } => {
                write!(f, "a heightfield needs at least 2x2 samples (2 in 2D), got {rows}x{cols}")
            }
            Self::Ragged { row, len, expected } => {
                write!(f, "heights[{row}] has {len} samples but heights[0] has {expected}")
            }
            Self::NonFiniteHeight { row, col } => write!(f, "heights[{row}][{col}] is not finite"),
            Self::BadScale { axis, value } => write!(f, "scale[{axis}] must be finite and > 0, got {value}"),
            Self::TooLarge { rows, cols } => {
                write!(f, "{rows}x{cols} samples are more than u32 triangle numbers address")
            }
            Self::Io { path, message } => write!(f, "cannot read {path}: {message}"),
            Self::Decode { message } => write!(f, "not a PNG image kollide can read: {message}"),
            Self::NotGrayscale { color_type } => {
                write!(f, "the image is {color_type}; a heightmap must be single-channel grayscale")
            }
            Self::BitDepth { bits } => {
                write!(f, "the image has {bits}-bit samples; a heightmap must be 8- or 16-bit")
            }
        }
    }
}

impl std::error::Error for HeightFieldError {}
