//! Writes the shipped heightmap `examples/terrain.png`: 128 x 128 samples, 16-bit grayscale,
//! smooth hills around a winding valley, from a fixed formula (run
//! `cargo run -p kollide --example make_heightmap` to write it again; the file is committed).

use std::f64::consts::PI;

fn main() {
    let n = 128usize;
    let mut data = Vec::with_capacity(n * n * 2);
    for r in 0..n {
        for c in 0..n {
            let (x, z) = (c as f64 / (n - 1) as f64, r as f64 / (n - 1) as f64);
            // Rolling hills.
            let hills = 0.5
                + 0.22 * (2.0 * PI * (1.3 * x + 0.2)).sin() * (2.0 * PI * (0.9 * z + 0.1)).cos()
                + 0.12 * (2.0 * PI * (3.1 * x - 2.3 * z)).sin()
                + 0.05 * (2.0 * PI * (7.0 * x + 5.0 * z)).cos();
            // A valley winding from one side to the other, a river bed at its bottom.
            let centre = 0.5 + 0.18 * (2.0 * PI * 1.5 * z).sin();
            let across = (x - centre) / 0.09;
            let valley = 0.45 * (-across * across).exp();
            let h = (hills - valley).clamp(0.0, 1.0);
            let v = (h * 65535.0).round() as u16;
            data.extend_from_slice(&v.to_be_bytes());
        }
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/terrain.png");
    let file = std::fs::File::create(path).expect("examples/ is writable");
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), n as u32, n as u32);
    enc.set_color(png::ColorType::Grayscale);
    enc.set_depth(png::BitDepth::Sixteen);
    let mut w = enc.write_header().expect("header");
    w.write_image_data(&data).expect("data");
    println!("wrote {path}");
}
