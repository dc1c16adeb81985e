#![no_main]
//! Lines of a server-sent-events stream into `OpenAiChatStream`: see `tool_fuzz::check_stream`.

use tool_runtime::router::stream::OpenAiChatStream;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tool_fuzz::setup();
    tool_fuzz::check_stream(data, OpenAiChatStream::new);
});
