//! Every streaming reader at doubling sizes: what a stream costs must grow with its length,
//! not its square (issue 32, item 3). A bench binary, not criterion: the question is one
//! ratio per doubling, and the quadratic readers this guards against took tens of seconds per
//! run at the larger sizes, too long for criterion's samples.
//!
//! `cargo bench -p tool-tests --features bench --bench stream_doubling [-- NAME,..]`
//!
//! Each stream is fed events built beforehand (building them is not timed), at four sizes,
//! each twice the last; the time is the best of three runs (one run past 2 s), and the last
//! column is its ratio to the size before: about 2 is linear, 4 quadratic.
//!
//! - `openai_chat`, `tensorzero`: every chunk opens a new call and carries `finish_reason`
//!   (each such chunk once walked every call so far);
//! - `openai_responses`: every function call's arguments come in a delta that gives only
//!   `item_id` (each once scanned every item);
//! - `anthropic`: `tool_use` blocks opened, filled and closed;
//! - `gemini`: what the Gemini transport does with a stream (in `agent/transport/gemini.rs`):
//!   each event routed as it comes, then the joined parts routed once at the end;
//! - `text_mistral`, `text_xlam`, `text_phi4_mini`: a call list cut inside its element, then
//!   `]` runs, pushed to `TextStream` 7 bytes at a time (each `]` once read everything held
//!   again);
//! - `text_every_format`: every format's own call cut at each of its character boundaries,
//!   then 16 and 32 KiB of `]` or of `}`, as the format and under `Auto`: the worst ratio of
//!   the 32 KiB time to the 16 KiB one (of cuts whose 16 KiB time is 100 µs or more).

use serde_json::{json, Value};
use std::hint::black_box;
use std::time::{Duration, Instant};
use tool_runtime::router::route;
use tool_runtime::router::stream::{
    Accumulate, AnthropicStream, OpenAiChatStream, OpenAiResponsesStream, TensorZeroStream,
};
use tool_runtime::text::{write_calls, TextFormat, TextStream};
use tool_runtime::{Provider, ToolCall};

/// The best of three runs, or one run when it takes over 2 s.
fn best(mut f: impl FnMut()) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        f();
        let took = t.elapsed();
        best = best.min(took);
        if took > Duration::from_secs(2) {
            break;
        }
    }
    best
}

fn accumulate(mut stream: impl Accumulate, events: &[Value]) {
    for event in events {
        black_box(stream.push(event).expect("a good event"));
    }
    black_box(stream.finish());
}

fn openai_chat(n: usize) -> impl FnMut() {
    let events: Vec<Value> = (0..n)
        .map(|i| {
            json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": i, "id": format!("call_{i}"), "type": "function",
                 "function": {"name": "f", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}]})
        })
        .collect();
    move || accumulate(OpenAiChatStream::new(), &events)
}

fn tensorzero(n: usize) -> impl FnMut() {
    let events: Vec<Value> = (0..n)
        .map(|i| {
            json!({"inference_id": "i", "episode_id": "e", "variant_name": "v",
                   "content": [{"type": "tool_call", "id": format!("call_{i}"), "raw_name": "f",
                                "raw_arguments": "{}"}], "finish_reason": "tool_call"})
        })
        .collect();
    move || accumulate(TensorZeroStream::new(), &events)
}

fn openai_responses(n: usize) -> impl FnMut() {
    let mut events = Vec::with_capacity(3 * n);
    for i in 0..n {
        let item = json!({"type": "function_call", "id": format!("fc_{i}"),
                          "call_id": format!("call_{i}"), "name": "f", "arguments": ""});
        events.push(json!({"type": "response.output_item.added", "output_index": i, "item": item}));
        events.push(json!({"type": "response.function_call_arguments.delta",
                           "item_id": format!("fc_{i}"), "delta": "{}"}));
        let mut done = item;
        done["arguments"] = json!("{}");
        events.push(json!({"type": "response.output_item.done", "output_index": i, "item": done}));
    }
    move || accumulate(OpenAiResponsesStream::new(), &events)
}

fn anthropic(n: usize) -> impl FnMut() {
    let mut events = Vec::with_capacity(3 * n);
    for i in 0..n {
        events.push(
            json!({"type": "content_block_start", "index": i, "content_block":
            {"type": "tool_use", "id": format!("toolu_{i}"), "name": "f", "input": {}}}),
        );
        events.push(json!({"type": "content_block_delta", "index": i,
                           "delta": {"type": "input_json_delta", "partial_json": "{}"}}));
        events.push(json!({"type": "content_block_stop", "index": i}));
    }
    move || accumulate(AnthropicStream::new(), &events)
}

fn gemini(n: usize) -> impl FnMut() {
    let events: Vec<Value> = (0..n)
        .map(|i| {
            let finish = if i + 1 == n {
                json!("STOP")
            } else {
                Value::Null
            };
            json!({"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"name": "f", "args": {"i": i}}}]}, "finishReason": finish}]})
        })
        .collect();
    move || {
        let mut parts = Vec::new();
        for event in &events {
            black_box(route(Provider::Gemini, event).expect("a good event"));
            parts.extend(
                event["candidates"][0]["content"]["parts"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
        }
        let whole = json!({"candidates": [{"content": {"role": "model", "parts": parts}}]});
        black_box(route(Provider::Gemini, &whole).expect("a good reply"));
    }
}

fn push_7(text: &str, format: TextFormat) {
    let mut stream = TextStream::new(format, &());
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + 7).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        black_box(stream.push(&text[at..end]));
        at = end;
    }
    black_box(stream.finish());
}

fn text(cut: &'static str, format: TextFormat) -> impl Fn(usize) -> Box<dyn FnMut()> {
    move |bytes| {
        let text = format!("{cut}{}", "]".repeat(bytes));
        Box::new(move || push_7(&text, format))
    }
}

fn table(name: &str, unit: &str, sizes: [usize; 4], make: impl Fn(usize) -> Box<dyn FnMut()>) {
    println!(
        "\n`{name}`\n\n| {unit}s | time | per {unit} | × the size before |\n|---:|---:|---:|---:|"
    );
    let mut last: Option<Duration> = None;
    for size in sizes {
        let mut run = make(size);
        let took = best(&mut run);
        let ratio = last.map_or_else(String::new, |last| {
            format!("{:.2}", took.as_secs_f64() / last.as_secs_f64())
        });
        println!(
            "| {size} | {took:.2?} | {:.2?} | {ratio} |",
            took.div_f64(size as f64)
        );
        last = Some(took);
    }
}

fn every_format() {
    let call = ToolCall::new("c", "get_weather", r#"{"city": "Paris", "days": 3}"#);
    let mut worst: (f64, String) = (0.0, String::new());
    let mut cells = 0;
    for format in TextFormat::ALL {
        let written = write_calls(format, std::slice::from_ref(&call));
        for cut in (1..=written.len()).filter(|&k| written.is_char_boundary(k)) {
            for closer in ["]", "}"] {
                for parse_as in [format, TextFormat::Auto] {
                    let at = |bytes: usize| format!("{}{}", &written[..cut], closer.repeat(bytes));
                    let (small, large) = (at(16 << 10), at(32 << 10));
                    let small_took = best(|| push_7(&small, parse_as));
                    let large_took = best(|| push_7(&large, parse_as));
                    cells += 1;
                    if small_took < Duration::from_micros(100) {
                        continue;
                    }
                    let mut ratio = large_took.as_secs_f64() / small_took.as_secs_f64();
                    if ratio > 3.0 {
                        // A pause of a busy machine, or the square: measured again to tell.
                        let small_again = (0..3).map(|_| best(|| push_7(&small, parse_as))).min();
                        let large_again = (0..3).map(|_| best(|| push_7(&large, parse_as))).min();
                        if let (Some(small), Some(large)) = (small_again, large_again) {
                            ratio = large.as_secs_f64() / small.as_secs_f64();
                        }
                    }
                    if ratio > worst.0 {
                        worst = (
                            ratio,
                            format!(
                                "`{}` as `{}`, {:?} then `{closer}`: {small_took:.2?} → {large_took:.2?}",
                                format.name(),
                                parse_as.name(),
                                &written[..cut]
                            ),
                        );
                    }
                }
            }
        }
    }
    println!(
        "\n`text_every_format`: {cells} texts; worst ratio of 32 KiB to 16 KiB time {:.2} (2 is linear): {}",
        worst.0, worst.1
    );
}

fn main() {
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .flat_map(|a| a.split(',').map(str::to_owned).collect::<Vec<_>>())
        .collect();
    let wanted = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    let counts = [5_000, 10_000, 20_000, 40_000];
    let kib = [16 << 10, 32 << 10, 64 << 10, 128 << 10];
    type Make = Box<dyn Fn(usize) -> Box<dyn FnMut()>>;
    let streams: Vec<(&str, &str, [usize; 4], Make)> = vec![
        (
            "openai_chat",
            "chunk",
            counts,
            Box::new(|n| Box::new(openai_chat(n))),
        ),
        (
            "tensorzero",
            "chunk",
            counts,
            Box::new(|n| Box::new(tensorzero(n))),
        ),
        (
            "openai_responses",
            "call",
            counts,
            Box::new(|n| Box::new(openai_responses(n))),
        ),
        (
            "anthropic",
            "call",
            counts,
            Box::new(|n| Box::new(anthropic(n))),
        ),
        ("gemini", "event", counts, Box::new(|n| Box::new(gemini(n)))),
        (
            "text_mistral",
            "byte",
            kib,
            Box::new(text("[TOOL_CALLS][{\"name\": \"f\"", TextFormat::Mistral)),
        ),
        (
            "text_xlam",
            "byte",
            kib,
            Box::new(text(
                "[{\"name\": \"f\", \"arguments\": {\"a\": 1}",
                TextFormat::Xlam,
            )),
        ),
        (
            "text_phi4_mini",
            "byte",
            kib,
            Box::new(text(
                "functools[{\"name\": \"f\", \"arguments\": {",
                TextFormat::Phi4Mini,
            )),
        ),
    ];
    for (name, unit, sizes, make) in &streams {
        if wanted(name) {
            table(name, unit, *sizes, make);
        }
    }
    if wanted("text_every_format") {
        every_format();
    }
}
