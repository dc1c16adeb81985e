//! The text tool-call parser's throughput, in bytes per second (criterion prints MiB/s and
//! GiB/s from `Throughput::Bytes`).
//!
//! `cargo bench -p tool-tests --features bench --bench text_parser`
//!
//! - `prose`: 1 MiB of plain prose with no call in it: the common case, which must cost next
//!   to nothing (target ≥ 1 GB/s: the scanner jumps between trigger bytes with `memchr`);
//! - `markdown`: 1 MiB of prose full of trigger bytes (`[`, `(`, `` ` ``, `{`, `<`) that start
//!   nothing;
//! - `calls_100`: the prose with 100 Hermes `<tool_call>` blocks spread through it;
//! - each text parsed whole with `text::parse`, and fed to `TextStream` in 16-byte chunks
//!   (the events collected, as a caller does);
//! - `text_parser_hostile`: text that opens calls and never closes them, at 64, 128 and
//!   256 KiB, whose time must double with its size.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tool_runtime::text::{self, TextEvent, TextFormat, TextStream};

const MIB: usize = 1 << 20;

fn repeat_to(piece: &str, len: usize) -> String {
    let mut text = String::with_capacity(len + piece.len());
    while text.len() + piece.len() <= len {
        text.push_str(piece);
    }
    text
}

const PROSE: &str =
    "The quick brown fox jumps over the lazy dog, then rests; nothing here looks like a call. ";
const MARKDOWN: &str =
    "See [the docs](https://example.com/a_(b)) and `code`, compare {a, b} with x < y. \n";

/// 1 MiB of prose with `calls` Hermes calls evenly spread through it.
fn with_calls(calls: usize) -> String {
    let call = "<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"rust tools\", \"limit\": 5, \"mode\": \"fast\"}}\n</tool_call>\n";
    let prose_len = MIB - calls * call.len();
    let piece = repeat_to(PROSE, prose_len / calls);
    let mut text = String::with_capacity(MIB);
    for _ in 0..calls {
        text.push_str(&piece);
        text.push_str(call);
    }
    text
}

fn stream(text: &str, format: TextFormat) -> Vec<TextEvent> {
    let mut stream = TextStream::new(format, &());
    let mut events = Vec::new();
    // The texts are ASCII, so every 16-byte chunk is a str.
    for chunk in text.as_bytes().chunks(16) {
        events.extend(stream.push(std::str::from_utf8(chunk).expect("ASCII")));
    }
    events.extend(stream.finish());
    events
}

fn bench(c: &mut Criterion) {
    let prose = repeat_to(PROSE, MIB);
    let markdown = repeat_to(MARKDOWN, MIB);
    let calls = with_calls(100);
    assert_eq!(text::parse(&prose, TextFormat::Auto, &()).calls.len(), 0);
    assert_eq!(text::parse(&markdown, TextFormat::Auto, &()).calls.len(), 0);
    let parsed = text::parse(&calls, TextFormat::Auto, &());
    assert_eq!((parsed.calls.len(), parsed.errors.len()), (100, 0));
    let streamed: text::TextParse = stream(&calls, TextFormat::Auto).into_iter().collect();
    assert_eq!(streamed.calls, parsed.calls);

    let mut group = c.benchmark_group("text_parser");
    for (label, text) in [
        ("prose", &prose),
        ("markdown", &markdown),
        ("calls_100", &calls),
    ] {
        group.throughput(Throughput::Bytes(text.len() as u64));
        for format in [TextFormat::Auto, TextFormat::Hermes] {
            group.bench_function(format!("{label}/parse_{format:?}"), |b| {
                b.iter(|| text::parse(black_box(text), format, &()))
            });
        }
        group.bench_function(format!("{label}/stream_16B_Auto"), |b| {
            b.iter(|| stream(black_box(text), TextFormat::Auto))
        });
    }
    group.finish();
}

/// Hostile text that opens calls and never closes them, at 64, 128 and 256 KiB: the time must
/// double with the size (it grew with its cube before: 11 s for 144 KB of unclosed Qwen XML).
fn hostile(c: &mut Criterion) {
    let patterns = [
        ("qwen_xml_unclosed", "<tool_call><function=f><parameter=a>"),
        ("tool_call_open", "<tool_call>"),
        (
            "json_string_open",
            "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"",
        ),
        ("mistral_open", "[TOOL_CALLS]f[ARGS]{\"a\": ["),
        ("pythonic_open", "[a(x=["),
    ];
    let mut group = c.benchmark_group("text_parser_hostile");
    group.sample_size(10);
    for (label, piece) in patterns {
        for kib in [64, 128, 256] {
            let text = repeat_to(piece, kib * 1024);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_function(format!("{label}/{kib}KiB"), |b| {
                b.iter(|| text::parse(black_box(&text), TextFormat::Auto, &()))
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    bench,
    hostile,
    stream_without_index,
    stream_small_chunks
);
criterion_main!(benches);

/// `OpenAiChatStream` fed deltas without `index`, each opening a call with a new id, at
/// 20,000, 40,000 and 80,000 deltas: the time must double with the count (80,000 took 14 s
/// when each piece searched every call before it for its id).
fn stream_without_index(c: &mut Criterion) {
    use tool_runtime::router::stream::{Accumulate, OpenAiChatStream};
    let mut group = c.benchmark_group("openai_chat_stream_no_index");
    group.sample_size(10);
    for count in [20_000u32, 40_000, 80_000] {
        let chunks: Vec<serde_json::Value> = (0..count)
            .map(|i| {
                serde_json::json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {
                    "tool_calls": [{"id": format!("call_{i}"), "type": "function",
                                    "function": {"name": "f", "arguments": "{}"}}]}}]})
            })
            .collect();
        group.bench_function(format!("{count}_deltas"), |b| {
            b.iter(|| {
                let mut stream = OpenAiChatStream::new();
                for chunk in &chunks {
                    black_box(stream.push(chunk).expect("a chunk"));
                }
                stream.finish()
            })
        });
    }
    group.finish();
}

/// One long call streamed 4 bytes a push, at 64, 128 and 256 KiB: Mistral's `[TOOL_CALLS]`
/// list and a Llama 3 bare object whose arguments hold many small objects. Every push with a
/// `}` used to read the whole unfinished call again (3 s for 269 KB); the stream now walks the
/// call as it arrives, so the time must double with the size.
fn stream_small_chunks(c: &mut Criterion) {
    let mut group = c.benchmark_group("text_stream_4B_chunks");
    group.sample_size(10);
    for (label, head, item, tail) in [
        (
            "mistral",
            "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {\"a\": [",
            "{\"x\": 1}, ",
            "{}]}}]",
        ),
        (
            "llama3_bare",
            "{\"name\": \"f\", \"parameters\": {\"a\": [",
            "{\"x\": 1}, ",
            "{}]}}",
        ),
    ] {
        for kib in [64, 128, 256] {
            let text = format!("{head}{}{tail}", repeat_to(item, kib * 1024));
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_function(format!("{label}/{kib}KiB"), |b| {
                b.iter(|| {
                    let mut stream = TextStream::new(TextFormat::Auto, &());
                    let mut calls = 0;
                    for chunk in text.as_bytes().chunks(4) {
                        let events = stream.push(std::str::from_utf8(chunk).expect("ASCII"));
                        calls += events
                            .iter()
                            .filter(|e| matches!(e, TextEvent::Call { .. }))
                            .count();
                    }
                    calls += stream
                        .finish()
                        .iter()
                        .filter(|e| matches!(e, TextEvent::Call { .. }))
                        .count();
                    assert_eq!(calls, 1);
                })
            });
        }
    }
    group.finish();
}
