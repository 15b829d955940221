#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kollide_fuzz::mover(data));
