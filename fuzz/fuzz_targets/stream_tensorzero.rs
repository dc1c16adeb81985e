#![no_main]
//! Lines of a server-sent-events stream into `TensorZeroStream` (TensorZero's native chunks): see `tool_fuzz::check_stream`.

use tool_runtime::router::stream::TensorZeroStream;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tool_fuzz::setup();
    tool_fuzz::check_stream(data, TensorZeroStream::new);
});
