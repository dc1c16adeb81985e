#![no_main]
//! See `tool_fuzz::check_repair` for the input layout and what is checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tool_fuzz::setup();
    tool_fuzz::check_repair(data);
});
