#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| kollide_fuzz::mesh_files(data));
