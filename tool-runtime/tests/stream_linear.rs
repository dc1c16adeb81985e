//! Streams that once cost the square of their length (issue 32, item 3), replayed from the
//! attack corpus at full size: every call comes out, in order, and the text stream agrees with
//! the whole text. What they cost at doubling sizes is
//! `cargo bench -p tool-tests --features bench --bench stream_doubling` (BENCHMARKS.md §10.2);
//! the text stream's reading is also counted in `text::stream`'s unit test
//! `bracket_runs_after_a_cut_call_list_are_read_once`.
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use tool_runtime::router::stream::{
    Accumulate, AnthropicStream, OllamaStream, OpenAiChatStream, OpenAiResponsesStream,
    TensorZeroStream,
};
use tool_runtime::router::Routed;
use tool_runtime::text::{parse, TextFormat, TextParse, TextStream};

fn corpus(file: &str) -> Vec<Value> {
    let path = format!("{}/../tests/attacks/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let entries: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!entries.is_empty(), "{path}");
    entries
}

/// Feeds the entry's events (`each`, `#i#` replaced by 0, 1, .. `times - 1`) one at a time.
fn replay(mut stream: impl Accumulate, entry: &Value) -> Routed {
    let times = entry["times"].as_u64().unwrap();
    let each: Vec<String> = entry["each"]
        .as_array()
        .unwrap()
        .iter()
        .map(Value::to_string)
        .collect();
    for i in 0..times {
        for template in &each {
            let event = template
                .replace("\"#i#\"", &i.to_string())
                .replace("#i#", &i.to_string());
            stream.push(&serde_json::from_str(&event).unwrap()).unwrap();
        }
    }
    stream.finish()
}

#[test]
fn streams_of_many_calls_give_every_call_in_order() {
    for entry in corpus("streams/many_calls.jsonl") {
        let name = entry["name"].as_str().unwrap();
        let routed = match entry["stream"].as_str().unwrap() {
            "openai_chat" => replay(OpenAiChatStream::new(), &entry),
            "tensorzero" => replay(TensorZeroStream::new(), &entry),
            "openai_responses" => replay(OpenAiResponsesStream::new(), &entry),
            "anthropic" => replay(AnthropicStream::new(), &entry),
            "ollama" => replay(OllamaStream::new(), &entry),
            other => panic!("{name}: no stream {other}"),
        };
        let calls = entry["expect"]["calls"].as_u64().unwrap() as usize;
        assert_eq!(routed.calls.len(), calls, "{name}");
        for (i, call) in routed.calls.iter().enumerate() {
            assert!(
                call.id.ends_with(&format!("_{i}")) && call.arguments == "{}",
                "{name}: call {i} is {call:?}"
            );
        }
    }
}

#[test]
fn bracket_runs_after_a_cut_call_list_are_answered() {
    for entry in corpus("model_text/bracket_runs.jsonl") {
        let name = entry["name"].as_str().unwrap();
        let text: String = entry["text_gen"]
            .as_array()
            .unwrap()
            .iter()
            .map(|part| {
                part["repeat"]
                    .as_str()
                    .unwrap()
                    .repeat(part["times"].as_u64().unwrap() as usize)
            })
            .collect();
        for format in entry["formats"].as_array().unwrap() {
            let format: TextFormat = serde_json::from_value(format.clone()).unwrap();
            let whole = parse(&text, format, &());
            assert_eq!(
                (whole.calls.len() as u64, whole.errors.len() as u64),
                (
                    entry["expect"]["calls"].as_u64().unwrap(),
                    entry["expect"]["errors"].as_u64().unwrap()
                ),
                "{name} as {format:?}"
            );
            // What follows the list's `]` is prose, not part of the call's error.
            assert!(whole.text.len() + 64 >= text.len(), "{name} as {format:?}");
            let mut stream = TextStream::new(format, &());
            let mut events = Vec::new();
            for piece in text.as_bytes().chunks(7) {
                events.extend(stream.push(std::str::from_utf8(piece).unwrap()));
            }
            events.extend(stream.finish());
            let streamed: TextParse = events.into_iter().collect();
            assert_eq!(streamed, whole, "{name} as {format:?}, streamed");
        }
    }
}
