//! Runs one target on given files and prints each broken promise:
//! `cargo run --release -p kollide-fuzz --example replay_one -- TARGET FILE...`.

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().expect("usage: replay_one TARGET FILE...");
    let (_, target) =
        kollide_fuzz::TARGETS.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("no target {name}"));
    for file in args {
        let data = std::fs::read(&file).expect("readable file");
        let ok = std::panic::catch_unwind(|| target(&data)).is_ok();
        println!("{file}: {}", if ok { "ok" } else { "BROKEN" });
    }
}
