#![no_main]
//! Lines of a server-sent-events stream into `OpenAiResponsesStream`: see `tool_fuzz::check_stream`.

use tool_runtime::router::stream::OpenAiResponsesStream;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tool_fuzz::setup();
    tool_fuzz::check_stream(data, OpenAiResponsesStream::new);
});
