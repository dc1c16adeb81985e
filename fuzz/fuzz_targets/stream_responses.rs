#![no_main]
//! Lines of a server-sent-events stream into `ResponsesStream`: see `tool_fuzz::check_stream`.

use tool_runtime::router::stream::ResponsesStream;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tool_fuzz::setup();
    tool_fuzz::check_stream(data, ResponsesStream::new);
});
