#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| puzzle_fuzz::run(puzzle_fuzz_targets::games, data));
