//! The fuzzers' findings, kept: every input under `tests/fuzz_regressions/<target>/` is
//! replayed through the check its fuzz target runs (`fuzz/src/lib.rs`, included here as it is),
//! so each crash stays fixed without cargo-fuzz. The folders also hold inputs from the fuzz
//! corpora that reach deep into each entry point. RELIABILITY.md §3 tells what each found.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

#[allow(dead_code, unreachable_pub)] // the fuzz crate's library, included whole
#[path = "../../fuzz/src/lib.rs"]
mod checks;

use std::path::PathBuf;
use tool_runtime::router::stream::{
    Accumulate, AnthropicStream, OpenAiChatStream, OpenAiResponsesStream, TensorZeroStream,
};

/// The kept inputs of one target, by file name.
fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz_regressions")
        .join(target);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).expect("readable"))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no inputs kept for {target}");
    files
}

/// Replays each input, naming the one that fails.
fn replay(target: &str, check: impl Fn(&[u8])) {
    for (name, data) in inputs(target) {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&data)));
        assert!(result.is_ok(), "{target}/{name} fails its check again");
    }
}

#[test]
fn text_parser() {
    // As found, and under every other format too.
    replay("text", |data| {
        checks::check_text(data);
        let mut other = data.to_vec();
        // Selector 0 is `Auto`, then every format in turn.
        let formats = u8::try_from(tool_runtime::text::TextFormat::ALL.len()).unwrap();
        for format in 0..=formats {
            if let Some(selector) = other.first_mut() {
                *selector = format;
            }
            checks::check_text(&other);
        }
    });
}

#[test]
fn a_stray_colon_in_an_array_cut_off_at_the_end_is_read_without_panic() {
    // `Open::close` computed `keep - start` with `keep` 0 here: a capacity-overflow panic.
    use tool_runtime::text::{self, TextFormat};
    for input in [
        r#"{"name": "f", "arguments": [1 :"#,
        r#"{"name": "f", "arguments": {"a": [1, 2 :"#,
        r#"<tool_call>{"name": "f", "arguments": {"a": [:"#,
    ] {
        for format in std::iter::once(TextFormat::Auto).chain(TextFormat::ALL) {
            let parsed = text::parse(input, format, &());
            checks::check_text_invariants(input, &parsed);
        }
    }
}

#[test]
fn provider_routers() {
    replay("router", checks::check_router);
}

#[test]
fn an_empty_call_id_is_replaced_like_a_missing_one() {
    for (name, data) in inputs("router") {
        if name.starts_with("empty-id-") {
            let format = checks::provider_format(data[0]);
            let text = String::from_utf8(data[1..].to_vec()).unwrap();
            let routed = checks::route_selected(format, &text).unwrap();
            assert_eq!(routed.calls.len(), 1, "{name}: {routed:?}");
            assert!(!routed.calls[0].id.is_empty(), "{name}: {routed:?}");
        }
    }
}

#[test]
fn stream_accumulators() {
    replay("stream_openai_chat", |d| {
        checks::check_stream(d, OpenAiChatStream::new)
    });
    replay("stream_anthropic", |d| {
        checks::check_stream(d, AnthropicStream::new)
    });
    replay("stream_responses", |d| {
        checks::check_stream(d, OpenAiResponsesStream::new)
    });
    replay("stream_tensorzero", |d| {
        checks::check_stream(d, TensorZeroStream::new)
    });
}

#[test]
fn a_reused_stream_index_is_refused_and_loses_nothing() {
    // Anthropic: a second block at index 0 would have replaced the finished call.
    let mut stream = AnthropicStream::new();
    for (name, data) in inputs("stream_anthropic") {
        if name == "call-index-reused.jsonl" {
            let text = String::from_utf8(data).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for line in &lines[..3] {
                stream.push_line(line).unwrap();
            }
            assert!(stream.push_line(lines[3]).is_err());
        }
    }
    let turn = stream.finish();
    assert_eq!(turn.calls.len(), 1, "{turn:?}");
    assert_eq!(turn.calls[0].arguments, r#"{"a": 1}"#);

    // Responses: a second call at output_index 0 would have been dropped unseen.
    let mut stream = OpenAiResponsesStream::new();
    let (_, data) = inputs("stream_responses")
        .into_iter()
        .find(|(name, _)| name == "second-call-same-index.jsonl")
        .unwrap();
    let text = String::from_utf8(data).unwrap();
    let results: Vec<bool> = text.lines().map(|l| stream.push_line(l).is_ok()).collect();
    assert_eq!(results, [true, true, false, false]);
    assert_eq!(stream.finish().calls.len(), 1);
}

#[test]
fn lenient_json_repair() {
    replay("repair", checks::check_repair);
}

#[test]
fn whole_pipeline_on_the_example_registry() {
    replay("pipeline", checks::check_pipeline);
}

#[test]
fn exports_in_every_dialect() {
    replay("export", checks::check_export);
}
