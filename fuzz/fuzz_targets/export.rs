#![no_main]
//! See `tool_fuzz::check_export` for the input and what is checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tool_fuzz::setup();
    tool_fuzz::check_export(data);
});
