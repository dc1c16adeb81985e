#![no_main]
//! See `fuzz/src/code.rs` for the input layout and what is checked.

#[path = "../src/code.rs"]
mod code;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tool_fuzz::setup();
    code::check_code_workers(data);
});
