//! Turning the fuzzer's bytes into numbers that matter to geometry.
//!
//! A float drawn uniformly from its bit patterns is almost always huge, tiny or NaN, which
//! tests only the constructors' refusals. Here most numbers are ordinary (a few units, small
//! integers, values a rounding error off an integer), and some are the hostile ones: zero,
//! subnormals, 1e-30 to 1e30, the limits of f32, infinity and NaN.

/// A reader over the fuzzer's input; past its end every read gives zero.
#[derive(Debug)]
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
    /// The smallest and largest non-zero finite magnitudes drawn (see [`Bytes::limit`]).
    range: (f64, f64),
}

/// The hostile constants drawn by the last class of numbers.
const EXTREMES: [f64; 16] = [
    1e30,
    -1e30,
    1e-30,
    -1e-30,
    3.0e38,
    1e-40,
    f64::MIN_POSITIVE,
    1e-310,
    1e154,
    -1e154,
    1e300,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    1e19,
    1e-19,
];

impl<'a> Bytes<'a> {
    /// Reads `data` from its start.
    #[must_use]
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, at: 0, range: (0.0, f64::MAX) }
    }

    /// Draws non-zero finite numbers within `[tiny, huge]` in magnitude from now on (others
    /// become `±tiny` or `±huge`; zero, infinities and NaN stay, the last two for the
    /// constructors to refuse). The query targets keep to the range in which the library's
    /// answers are certified (see `promises::certified_range`).
    pub fn limit(&mut self, (tiny, huge): (f64, f64)) {
        self.range = (tiny, huge);
    }

    /// Whether every byte has been read.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.at >= self.data.len()
    }

    /// The next byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// The next two bytes as a number.
    pub fn u16(&mut self) -> u16 {
        u16::from(self.u8()) | (u16::from(self.u8()) << 8)
    }

    /// A number in `0..n` (`n` at most 256).
    pub fn below(&mut self, n: usize) -> usize {
        usize::from(self.u8()) % n.max(1)
    }

    /// A coin.
    pub fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    /// A value in `[-1, 1]` on a grid of 65,536 steps.
    fn unit(&mut self) -> f64 {
        f64::from(self.u16()) / 32767.5 - 1.0
    }

    /// A number: mostly ordinary, sometimes extreme (see the module docs). May be NaN or
    /// infinite.
    pub fn f64(&mut self) -> f64 {
        let x = self.any_f64();
        let (tiny, huge) = self.range;
        if x.is_finite() && x.abs() > huge {
            huge.copysign(x)
        } else if x != 0.0 && x.abs() < tiny {
            tiny.copysign(x)
        } else {
            x
        }
    }

    fn any_f64(&mut self) -> f64 {
        let c = self.u8();
        let low = i32::from(c & 15);
        match c >> 4 {
            0 => 0.0,
            1..=7 | 14 => self.unit() * 2f64.powi(low / 3 - 2),
            8 | 9 => f64::from(self.u8() as i8) / 8.0,
            10 => self.unit() * 10f64.powi(4 * low - 30),
            11 => f64::from(self.u8() as i8) / 4.0 + f64::from(self.u8() as i8) * 2f64.powi(-40 + low),
            12 => self.unit() * 1e-300,
            13 => EXTREMES[low as usize],
            _ => self.unit() * 8.0,
        }
    }

    /// A finite ordinary number in `[-r, r]`, for sizes of scenes that must stay meaningful.
    pub fn tame(&mut self, r: f64) -> f64 {
        self.unit() * r
    }
}
