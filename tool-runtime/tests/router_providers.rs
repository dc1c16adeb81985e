//! Provider routers and stream accumulators on recorded-shape payloads
//! (`tests/fixtures/providers/`, sources in its README).

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use std::path::PathBuf;
use tool_runtime::router::stream::{
    Accumulate, AnthropicStream, OpenAiChatStream, OpenAiResponsesStream, StreamEvent,
};
use tool_runtime::router::{self, RouteError, Routed};
use tool_runtime::{results, Provider, ToolCall};

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/providers")
        .join(name)
}

fn fixture(name: &str) -> Value {
    let text = std::fs::read_to_string(path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn lines(name: &str) -> Vec<String> {
    std::fs::read_to_string(path(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .lines()
        .map(str::to_owned)
        .collect()
}

fn load_events(name: &str) -> Vec<Value> {
    lines(name)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Routes a fixture both ways (named and detected) and checks they agree.
fn route(provider: Provider, name: &str) -> Routed {
    let output = fixture(name);
    let routed = router::route(provider, &output).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(router::detect(&output), Some(provider), "{name}");
    assert_eq!(router::route_auto(&output).unwrap(), routed, "{name}");
    assert_eq!(routed.provider, provider);
    routed
}

fn summary(routed: &Routed) -> Vec<(&str, &str, &str)> {
    routed
        .calls
        .iter()
        .map(|c| (c.id.as_str(), c.name.as_str(), c.arguments.as_str()))
        .collect()
}

// ---- whole responses -----------------------------------------------------------------------

#[test]
fn openai_chat_responses() {
    let one = route(Provider::OpenAiChat, "openai_chat/one_call.json");
    assert_eq!(
        summary(&one),
        [(
            "call_abc123",
            "get_current_weather",
            "{\n\"location\": \"Boston, MA\"\n}"
        )]
    );
    assert_eq!(one.text, "");

    let parallel = route(Provider::OpenAiChat, "openai_chat/parallel_calls.json");
    assert_eq!(
        summary(&parallel),
        [
            (
                "call_12345xyz",
                "get_weather",
                r#"{"location":"Paris, France"}"#
            ),
            (
                "call_67890abc",
                "get_weather",
                r#"{"location":"Bogotá, Colombia"}"#
            ),
            (
                "call_99999def",
                "send_email",
                r#"{"to":"bob@email.com","body":"Hi bob"}"#
            ),
        ]
    );

    let mixed = route(Provider::OpenAiChat, "openai_chat/text_and_calls.json");
    assert_eq!(mixed.text, "Let me look up the weather in Paris first.");
    assert_eq!(mixed.calls.len(), 1);

    let none = route(Provider::OpenAiChat, "openai_chat/no_calls.json");
    assert!(none.calls.is_empty());
    assert_eq!(none.text, "\n\nHello there, how may I assist you today?");
}

#[test]
fn openai_responses_responses() {
    let one = route(Provider::OpenAiResponses, "openai_responses/one_call.json");
    assert_eq!(
        summary(&one),
        [(
            "call_12345xyz",
            "get_weather",
            r#"{"location":"Paris, France"}"#
        )]
    );
    assert_eq!(one.calls[0].passthrough["id"], "fc_12345xyz");

    let parallel = route(
        Provider::OpenAiResponses,
        "openai_responses/parallel_calls.json",
    );
    let ids: Vec<&str> = parallel.calls.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["call_67890abc", "call_99999def"]);
    assert!(
        parallel.other_calls.is_empty(),
        "the reasoning item is not a call"
    );

    let mixed = route(
        Provider::OpenAiResponses,
        "openai_responses/text_and_calls.json",
    );
    assert_eq!(mixed.text, "Let me check the current temperature in Paris.");
    assert_eq!(mixed.calls[0].id, "call_Ab12Cd34Ef56");

    let none = route(Provider::OpenAiResponses, "openai_responses/no_calls.json");
    assert!(none.calls.is_empty());
    assert!(none.text.starts_with("In a peaceful grove"));

    // The output list alone routes the same.
    let output = &fixture("openai_responses/parallel_calls.json")["output"];
    assert_eq!(router::route_auto(output).unwrap(), parallel);
}

#[test]
fn anthropic_responses() {
    let one = route(Provider::Anthropic, "anthropic/one_call.json");
    assert_eq!(
        summary(&one),
        [(
            "toolu_01A09q90qw90lq917835lq9",
            "get_weather",
            r#"{"location":"San Francisco, CA","unit":"celsius"}"#
        )]
    );

    let mixed = route(Provider::Anthropic, "anthropic/text_and_calls.json");
    assert_eq!(
        mixed.text,
        "I'll check the current weather in San Francisco for you."
    );
    assert_eq!(mixed.calls, one.calls);

    let parallel = route(Provider::Anthropic, "anthropic/parallel_calls.json");
    assert_eq!(
        summary(&parallel),
        [
            (
                "toolu_01",
                "get_weather",
                r#"{"location":"San Francisco, CA"}"#
            ),
            (
                "toolu_02",
                "get_time",
                r#"{"timezone":"America/Los_Angeles"}"#
            ),
        ]
    );

    let none = route(Provider::Anthropic, "anthropic/no_calls.json");
    assert!(none.calls.is_empty());
    assert_eq!(none.text, "Hi! My name is Claude.");
}

#[test]
fn gemini_responses() {
    let one = route(Provider::Gemini, "gemini/one_call.json");
    assert_eq!(
        summary(&one),
        [(
            "gemini_call_0_get_current_temperature",
            "get_current_temperature",
            r#"{"location":"London"}"#
        )]
    );

    let parallel = route(Provider::Gemini, "gemini/parallel_calls.json");
    assert_eq!(
        summary(&parallel),
        [
            (
                "gemini_call_0_power_disco_ball",
                "power_disco_ball",
                r#"{"power":true}"#
            ),
            (
                "gemini_call_1_start_music",
                "start_music",
                r#"{"energetic":true,"loud":true}"#
            ),
            (
                "gemini_call_2_dim_lights",
                "dim_lights",
                r#"{"brightness":0.3}"#
            ),
        ]
    );
    // The signature belongs to the first call's part only.
    assert!(parallel.calls[0]
        .passthrough
        .contains_key("thoughtSignature"));
    assert!(parallel.calls[1].passthrough.is_empty());
    // Routing again gives the same ids.
    assert_eq!(
        route(Provider::Gemini, "gemini/parallel_calls.json"),
        parallel
    );

    let mixed = route(Provider::Gemini, "gemini/text_and_calls.json");
    assert_eq!(
        mixed.text,
        "Sure, I'll set up a meeting with Bob and Alice for you."
    );
    assert_eq!(
        mixed.calls[0].arguments,
        r#"{"attendees":["Bob","Alice"],"date":"2025-03-27","time":"10:00","topic":"Q3 planning"}"#
    );

    let signed = route(Provider::Gemini, "gemini/thought_signature.json");
    assert_eq!(signed.text, "", "the thought part is not text");
    assert_eq!(signed.calls[0].id, "9vbd2kp1");

    let none = route(Provider::Gemini, "gemini/no_calls.json");
    assert!(none.calls.is_empty());
    assert_eq!(none.text, "It is currently 16°C and cloudy in London.");
}

/// Rebuilding the model's turn from the routed calls gives back what the provider sent:
/// every field the calls carry, passthrough fields (Gemini's `thoughtSignature`, the Responses
/// item id) on the part or item they came on.
#[test]
fn call_turn_rebuilds_the_models_turn() {
    for name in [
        "parallel_calls.json",
        "text_and_calls.json",
        "one_call.json",
    ] {
        let original = fixture(&format!("anthropic/{name}"));
        let routed = router::route(Provider::Anthropic, &original).unwrap();
        let rebuilt = results::call_turn(routed.provider, &routed.text, &routed.calls);
        assert_eq!(
            rebuilt,
            [json!({"role": "assistant", "content": original["content"]})],
            "{name}"
        );

        let original = fixture(&format!("openai_chat/{name}"));
        let routed = router::route(Provider::OpenAiChat, &original).unwrap();
        let rebuilt = results::call_turn(routed.provider, &routed.text, &routed.calls);
        let message = &original["choices"][0]["message"];
        assert_eq!(rebuilt[0]["tool_calls"], message["tool_calls"], "{name}");
        assert_eq!(rebuilt[0]["content"], message["content"], "{name}");

        let original = fixture(&format!("openai_responses/{name}"));
        let routed = router::route(Provider::OpenAiResponses, &original).unwrap();
        let rebuilt = results::call_turn(routed.provider, &routed.text, &routed.calls);
        let calls: Vec<&Value> = original["output"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|item| item["type"] == "function_call")
            .collect();
        let rebuilt_calls: Vec<&Value> = rebuilt
            .iter()
            .filter(|i| i["type"] == "function_call")
            .collect();
        assert_eq!(rebuilt_calls, calls, "{name}");
    }
    for name in [
        "parallel_calls.json",
        "text_and_calls.json",
        "thought_signature.json",
    ] {
        let original = fixture(&format!("gemini/{name}"));
        let routed = router::route(Provider::Gemini, &original).unwrap();
        let rebuilt = results::call_turn(routed.provider, &routed.text, &routed.calls);
        let parts: Vec<&Value> = original["candidates"][0]["content"]["parts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["thought"] != true)
            .collect();
        let rebuilt_parts: Vec<&Value> = rebuilt[0]["parts"].as_array().unwrap().iter().collect();
        assert_eq!(rebuilt_parts, parts, "{name}");
        assert_eq!(rebuilt[0]["role"], "model");
    }
}

// ---- streams -------------------------------------------------------------------------------

fn feed<A: Accumulate>(mut stream: A, events: &[Value]) -> (Vec<StreamEvent>, Routed) {
    let mut out = Vec::new();
    for event in events {
        out.extend(
            stream
                .push(event)
                .unwrap_or_else(|e| panic!("{e}: {event}")),
        );
    }
    (out, stream.finish())
}

fn calls_of(events: &[StreamEvent]) -> Vec<ToolCall> {
    events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Call(call) => Some(call.clone()),
            StreamEvent::Text(_) => None,
        })
        .collect()
}

fn text_of(events: &[StreamEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Text(text) => Some(text.as_str()),
            StreamEvent::Call(_) => None,
        })
        .collect()
}

#[test]
fn openai_chat_streams() {
    let (events, routed) = feed(
        OpenAiChatStream::new(),
        &load_events("openai_chat/stream_parallel_calls.jsonl"),
    );
    assert_eq!(
        summary(&routed),
        [
            (
                "call_DdmO9pD3xa9XTPNJ32zg2hcA",
                "get_weather",
                r#"{"location":"Paris, France"}"#
            ),
            (
                "call_kL2mN3oP4qR5sT6uV7wX8yZ9",
                "get_weather",
                r#"{"location":"Bogotá, Colombia"}"#
            ),
        ]
    );
    assert_eq!(
        calls_of(&events),
        routed.calls,
        "each call is announced once, at finish_reason"
    );

    let (events, routed) = feed(
        OpenAiChatStream::new(),
        &load_events("openai_chat/stream_text_and_call.jsonl"),
    );
    assert_eq!(routed.text, "I'll check the weather in Tokyo.");
    assert_eq!(text_of(&events), routed.text);
    assert_eq!(
        routed.calls[0].arguments,
        r#"{"location": "Tokyo, Japan", "unit": "celsius"}"#
    );
}

#[test]
fn anthropic_streams() {
    let (events, routed) = feed(
        AnthropicStream::new(),
        &load_events("anthropic/stream_text_and_call.jsonl"),
    );
    assert_eq!(
        routed.text,
        "Okay, let's check the weather for San Francisco, CA:"
    );
    assert_eq!(
        summary(&routed),
        [(
            "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
            "get_weather",
            r#"{"location": "San Francisco, CA", "unit": "fahrenheit"}"#
        )]
    );
    assert_eq!(calls_of(&events), routed.calls);

    let all = load_events("anthropic/stream_parallel_calls.jsonl");
    let (events, routed) = feed(AnthropicStream::new(), &all);
    assert_eq!(
        summary(&routed),
        [
            (
                "toolu_01Hq2Wj4Lk6Mn8Pq0Rs2Tu4V",
                "get_weather",
                r#"{"location": "Paris, France"}"#
            ),
            (
                "toolu_01Xy3Za5Bc7De9Fg1Hi3Jk5L",
                "get_time",
                r#"{"timezone": "Europe/Paris"}"#
            ),
            ("toolu_01Mn5Op7Qr9St1Uv3Wx5Yz7A", "get_holidays", "{}"),
        ]
    );
    // Each call is ready at its own content_block_stop, before the next block starts.
    let mut stream = AnthropicStream::new();
    let first_stop = all
        .iter()
        .position(|e| e["type"] == "content_block_stop")
        .unwrap();
    let mut early = Vec::new();
    for event in &all[..=first_stop] {
        early.extend(stream.push(event).unwrap());
    }
    assert_eq!(calls_of(&early), routed.calls[..1]);
    assert_eq!(calls_of(&events), routed.calls);
}

#[test]
fn responses_streams() {
    let all = load_events("openai_responses/stream_parallel_calls.jsonl");
    let (events, routed) = feed(OpenAiResponsesStream::new(), &all);
    assert_eq!(
        summary(&routed),
        [
            (
                "call_2345abc",
                "get_weather",
                r#"{"location":"Paris, France"}"#
            ),
            (
                "call_6789def",
                "get_weather",
                r#"{"location":"Bogotá, Colombia"}"#
            ),
        ]
    );
    assert_eq!(calls_of(&events), routed.calls);
    // The stream gives what routing the final response (in `response.completed`) gives.
    let completed = &all.last().unwrap()["response"];
    assert_eq!(
        router::route(Provider::OpenAiResponses, completed)
            .unwrap()
            .calls,
        routed.calls
    );

    let all = load_events("openai_responses/stream_text_and_call.jsonl");
    let (events, routed) = feed(OpenAiResponsesStream::new(), &all);
    assert_eq!(routed.text, "Let me check the weather in Tokyo.");
    assert_eq!(text_of(&events), routed.text);
    let completed = &all.last().unwrap()["response"];
    let whole = router::route(Provider::OpenAiResponses, completed).unwrap();
    assert_eq!(
        (whole.text.as_str(), &whole.calls),
        (routed.text.as_str(), &routed.calls)
    );
}

#[test]
fn streams_read_raw_sse_lines() {
    // The same events as a server sends them: `event:` lines, `data:` lines, blank lines.
    let mut sse = Vec::new();
    for line in lines("anthropic/stream_text_and_call.jsonl") {
        let event: Value = serde_json::from_str(&line).unwrap();
        sse.push(format!("event: {}", event["type"].as_str().unwrap()));
        sse.push(format!("data: {line}"));
        sse.push(String::new());
    }
    let mut stream = AnthropicStream::new();
    for line in &sse {
        stream.push_line(line).unwrap();
    }
    let (_, expected) = feed(
        AnthropicStream::new(),
        &load_events("anthropic/stream_text_and_call.jsonl"),
    );
    assert_eq!(stream.finish(), expected);

    let mut stream = OpenAiChatStream::new();
    for line in lines("openai_chat/stream_parallel_calls.jsonl") {
        stream.push_line(&format!("data: {line}")).unwrap();
    }
    stream.push_line("data: [DONE]").unwrap();
    assert_eq!(stream.finish().calls.len(), 2);
}

/// A small deterministic PRNG (xorshift64*), so a failing order can be replayed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n as u64) as usize
    }
}

/// Interleaves the events at random where the protocol allows it: events keep their order
/// within one key (one call, one block, one item); the events before the first keyed one and
/// after the last stay where they are.
fn interleave(
    events: &[Value],
    key: impl Fn(&Value) -> Option<String>,
    rng: &mut Rng,
) -> Vec<Value> {
    let keyed: Vec<usize> = (0..events.len())
        .filter(|&i| key(&events[i]).is_some())
        .collect();
    let (Some(&first), Some(&last)) = (keyed.first(), keyed.last()) else {
        return events.to_vec();
    };
    let mut queues: Vec<(String, Vec<Value>)> = Vec::new();
    for event in &events[first..=last] {
        let k = key(event).unwrap_or_else(|| "unkeyed".to_owned());
        match queues.iter_mut().find(|(q, _)| *q == k) {
            Some((_, queue)) => queue.push(event.clone()),
            None => queues.push((k, vec![event.clone()])),
        }
    }
    for (_, queue) in &mut queues {
        queue.reverse();
    }
    let mut out = events[..first].to_vec();
    while !queues.is_empty() {
        let pick = rng.below(queues.len());
        out.push(queues[pick].1.pop().unwrap());
        if queues[pick].1.is_empty() {
            queues.remove(pick);
        }
    }
    out.extend_from_slice(&events[last + 1..]);
    out
}

fn check_orders<A: Accumulate>(
    new: impl Fn() -> A,
    name: &str,
    key: impl Fn(&Value) -> Option<String> + Copy,
) {
    let events = load_events(name);
    let (_, expected) = feed(new(), &events);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut orders_seen = std::collections::HashSet::new();
    for _ in 0..300 {
        let shuffled = interleave(&events, key, &mut rng);
        orders_seen.insert(format!("{shuffled:?}"));
        let (streamed, routed) = feed(new(), &shuffled);
        assert_eq!(routed, expected, "{name} in the order {shuffled:#?}");
        let mut announced = calls_of(&streamed);
        announced.sort_by(|a, b| a.id.cmp(&b.id));
        let mut all = expected.calls.clone();
        all.sort_by(|a, b| a.id.cmp(&b.id));
        assert_eq!(announced, all, "every call announced once: {name}");
    }
    assert!(
        orders_seen.len() > 10,
        "{name}: the shuffle should vary the order"
    );
}

#[test]
fn interleaved_streams_give_the_same_turn() {
    // OpenAI Chat: pieces of different calls (by `index`) and the text may interleave.
    let chat_key = |e: &Value| {
        let delta = &e["choices"][0]["delta"];
        if let Some(index) = delta["tool_calls"][0]["index"].as_u64() {
            Some(format!("call {index}"))
        } else {
            delta["content"]
                .as_str()
                .filter(|t| !t.is_empty())
                .map(|_| "text".to_owned())
        }
    };
    check_orders(
        OpenAiChatStream::new,
        "openai_chat/stream_parallel_calls.jsonl",
        chat_key,
    );
    check_orders(
        OpenAiChatStream::new,
        "openai_chat/stream_text_and_call.jsonl",
        chat_key,
    );

    // Anthropic: events of different content blocks (by `index`) may interleave.
    let block_key = |e: &Value| e["index"].as_u64().map(|i| format!("block {i}"));
    check_orders(
        AnthropicStream::new,
        "anthropic/stream_parallel_calls.jsonl",
        block_key,
    );
    check_orders(
        AnthropicStream::new,
        "anthropic/stream_text_and_call.jsonl",
        block_key,
    );

    // Responses: events of different output items (by `output_index`) may interleave.
    let item_key = |e: &Value| e["output_index"].as_u64().map(|i| format!("item {i}"));
    check_orders(
        OpenAiResponsesStream::new,
        "openai_responses/stream_parallel_calls.jsonl",
        item_key,
    );
    check_orders(
        OpenAiResponsesStream::new,
        "openai_responses/stream_text_and_call.jsonl",
        item_key,
    );
}

#[test]
fn a_stream_cut_short_still_gives_every_call_it_opened() {
    let all = load_events("anthropic/stream_parallel_calls.jsonl");
    let cut = all
        .iter()
        .position(|e| e["type"] == "content_block_stop" && e["index"] == 1)
        .unwrap();
    let (_, routed) = feed(AnthropicStream::new(), &all[..cut - 1]);
    assert_eq!(routed.calls.len(), 2);
    assert_eq!(
        routed.calls[1].arguments, r#"{"timezone": "#,
        "what arrived, for the pipeline to reject"
    );

    let all = load_events("openai_chat/stream_parallel_calls.jsonl");
    let (events, routed) = feed(OpenAiChatStream::new(), &all[..all.len() - 3]);
    assert!(
        calls_of(&events).is_empty(),
        "no finish_reason, so nothing announced"
    );
    assert_eq!(routed.calls.len(), 2);
}

// ---- bad input -----------------------------------------------------------------------------

#[test]
fn bad_input_is_a_structured_error() {
    assert!(matches!(
        router::route_auto("{not json"),
        Err(RouteError::NotJson(_))
    ));
    assert_eq!(
        router::route_auto(&json!({"hello": 1})),
        Err(RouteError::Undetected)
    );
    let err = router::route(Provider::Gemini, &fixture("anthropic/one_call.json")).unwrap_err();
    assert!(
        matches!(
            err,
            RouteError::Shape {
                provider: Provider::Gemini,
                ..
            }
        ),
        "{err}"
    );
    let err = router::route_auto(&json!({"error": {"code": 429, "message": "Resource has been exhausted", "status": "RESOURCE_EXHAUSTED"}}),
    )
    .unwrap_err();
    assert_eq!(
        err,
        RouteError::Provider {
            message: "Resource has been exhausted".into()
        }
    );
    let err = router::route(
        Provider::Anthropic,
        &json!({"type": "message", "content": [{"type": "tool_use", "id": 7}]}),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the model output is not Anthropic Messages output: expected a string at `/content/0/id`, found a number"
    );
}

/// Every value in every fixture swapped for every other JSON type: routing and streaming give
/// a result or an error, never a panic.
#[test]
fn no_mutation_of_a_fixture_panics() {
    fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => map
                .iter()
                .for_each(|(k, v)| pointers(v, format!("{at}/{k}"), out)),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .for_each(|(i, v)| pointers(v, format!("{at}/{i}"), out)),
            _ => {}
        }
        out.push(at);
    }
    let replacements = [
        json!(null),
        json!(-1),
        json!("x"),
        json!([]),
        json!({}),
        json!([{}]),
    ];
    let files = [
        (Provider::OpenAiChat, "openai_chat/parallel_calls.json"),
        (
            Provider::OpenAiResponses,
            "openai_responses/text_and_calls.json",
        ),
        (Provider::Anthropic, "anthropic/parallel_calls.json"),
        (Provider::Gemini, "gemini/thought_signature.json"),
    ];
    for (format, name) in files {
        let original = fixture(name);
        let mut all = Vec::new();
        pointers(&original, String::new(), &mut all);
        for pointer in &all {
            for replacement in &replacements {
                let mut mutated = original.clone();
                *mutated.pointer_mut(pointer).unwrap() = replacement.clone();
                let _ = router::route(format, &mutated);
                let _ = router::route_auto(&mutated);
            }
        }
    }
    let streams = [
        "openai_chat/stream_text_and_call.jsonl",
        "anthropic/stream_text_and_call.jsonl",
        "openai_responses/stream_text_and_call.jsonl",
    ];
    for name in streams {
        let events = load_events(name);
        for (i, event) in events.iter().enumerate() {
            let mut all = Vec::new();
            pointers(event, String::new(), &mut all);
            for pointer in &all {
                for replacement in &replacements {
                    let mut mutated = events.clone();
                    *mutated[i].pointer_mut(pointer).unwrap() = replacement.clone();
                    let mut chat = OpenAiChatStream::new();
                    let mut anthropic = AnthropicStream::new();
                    let mut responses = OpenAiResponsesStream::new();
                    for event in &mutated {
                        let _ = chat.push(event);
                        let _ = anthropic.push(event);
                        let _ = responses.push(event);
                    }
                    let _ = (chat.finish(), anthropic.finish(), responses.finish());
                }
            }
        }
    }
}

// ---- response shapes the providers send that the routers once misread ----------------------

/// Gemini answers a blocked prompt with no `candidates` at all, only `promptFeedback`
/// (python-genai `GenerateContentResponse`: "If the prompt was blocked, no candidates are
/// returned"). The Gemini router reads it as a provider error, but `route_auto` doesn't
/// recognize it as Gemini at all, so the caller is told to name the format.
#[test]
fn a_blocked_gemini_prompt_is_a_provider_error_under_auto_too() {
    let blocked = json!({
        "promptFeedback": {
            "blockReason": "SAFETY",
            "safetyRatings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH"}]
        },
        "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "abc123"
    });
    let named = router::route(Provider::Gemini, &blocked);
    assert!(
        matches!(named, Err(RouteError::Provider { .. })),
        "the Gemini router itself calls it a blocked prompt: {named:?}"
    );
    assert_eq!(
        router::detect(&blocked),
        Some(Provider::Gemini),
        "a Gemini response with only promptFeedback (a blocked prompt) is not detected as Gemini"
    );
    assert_eq!(
        router::route_auto(&blocked),
        named,
        "route_auto gives a different answer than Provider::Gemini for a blocked Gemini prompt"
    );
}

/// Chat Completions still answers requests that use `functions` (the API's deprecated but
/// supported form) with `message.function_call` and `finish_reason: "function_call"`
/// (openai-python `ChatCompletionMessage.function_call`). The router returns no call and no
/// error: the call is silently dropped.
#[test]
fn a_chat_function_call_is_not_silently_dropped() {
    let response = json!({"id": "chatcmpl-1", "object": "chat.completion", "choices": [{
        "index": 0, "finish_reason": "function_call",
        "message": {"role": "assistant", "content": null,
                    "function_call": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}}]});
    let routed = router::route_auto(&response);
    let calls = routed.as_ref().map(|r| r.calls.len()).unwrap_or(usize::MAX);
    assert!(
        calls == 1 || routed.is_err(),
        "a Chat `function_call` was dropped without an error: {routed:?}"
    );
}

// ---- Ollama (`/api/chat`) ------------------------------------------------------------------

#[test]
fn ollama_responses() {
    // `docs/api.md`'s example has no call id: the call is numbered.
    let one = route(Provider::Ollama, "ollama/one_call.json");
    assert_eq!(
        summary(&one),
        [("call_0", "get_weather", r#"{"city":"Tokyo"}"#)]
    );
    let parallel = route(Provider::Ollama, "ollama/parallel_calls.json");
    assert_eq!(
        summary(&parallel),
        [
            ("call_4mq0x7rt", "get_temperature", r#"{"city":"New York"}"#),
            ("call_b2c9ve1k", "get_conditions", r#"{"city":"New York"}"#),
            ("call_zz81pq0a", "get_temperature", r#"{"city":"London"}"#),
            ("call_7hd2m3xn", "get_conditions", r#"{"city":"London"}"#),
        ]
    );
    assert_eq!(parallel.text, "", "the thinking is not the answer");
    let none = route(Provider::Ollama, "ollama/no_calls.json");
    assert!(none.calls.is_empty());
    assert_eq!(none.text, "Hello! How are you today?");

    // Each results message quotes its call and names its tool, in the calls' order.
    let outputs: Vec<Option<tool_runtime::ToolOutput>> = ["22°C", "Partly cloudy", "15°C", "Rainy"]
        .map(|text| Some(tool_runtime::ToolOutput::text(text)))
        .into();
    let formatted = results::answer_in_order(Provider::Ollama, &parallel.calls, &outputs);
    assert_eq!(
        formatted.messages[1],
        json!({"role": "tool", "content": "Partly cloudy", "tool_name": "get_conditions", "tool_call_id": "call_b2c9ve1k"})
    );
    assert_eq!(formatted.messages.len(), 4);
}

#[test]
fn ollama_streams_give_each_call_as_its_line_arrives() {
    use tool_runtime::router::stream::OllamaStream;
    for (name, expected) in [
        (
            "ollama/stream_one_call.jsonl",
            vec![("call_0", "get_weather", r#"{"city":"Tokyo"}"#)],
        ),
        (
            "ollama/stream_text_and_calls.jsonl",
            vec![
                ("call_4mq0x7rt", "get_temperature", r#"{"city":"New York"}"#),
                ("call_zz81pq0a", "get_temperature", r#"{"city":"London"}"#),
            ],
        ),
    ] {
        let mut stream = OllamaStream::new();
        let mut completed = Vec::new();
        for line in lines(name) {
            // Every line of a stream is detected as Ollama's on its own.
            let value: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(router::detect(&value), Some(Provider::Ollama), "{line}");
            for event in stream.push_line(&line).unwrap() {
                if let StreamEvent::Call(call) = event {
                    completed.push(call);
                }
            }
        }
        assert!(stream.is_done(), "{name}");
        let routed = stream.finish();
        assert_eq!(summary(&routed), expected, "{name}");
        assert_eq!(routed.calls, completed, "{name}");
    }
}
