//! TensorZero's native format as the real gateway produced it: the fixtures in
//! `tests/fixtures/providers/tensorzero/` were made by
//! `.venv-gateways/bin/python tests/gateways/tensorzero_fixtures.py tool-runtime/tests/fixtures/providers/tensorzero`
//! (the PyPI package's embedded gateway in front of a scripted OpenAI-compatible upstream;
//! see the folder's README section). Each is routed here by our code, whole and streamed, and
//! our results are checked against the input the gateway accepted.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use std::path::PathBuf;
use tool_runtime::router::stream::{Accumulate, StreamEvent, TensorZeroStream};
use tool_runtime::router::{self, Routed};
use tool_runtime::{results, tool, ErrorCode, Provider, Registry, ToolCall, ToolError, ToolOutput};

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/providers/tensorzero")
        .join(name)
}

fn fixture(name: &str) -> Value {
    let text = std::fs::read_to_string(path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Routes a whole response both ways (named and detected) and checks they agree.
fn route(name: &str) -> Routed {
    let output = fixture(name);
    let routed =
        router::route(Provider::TensorZero, &output).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        router::detect(&output),
        Some(Provider::TensorZero),
        "{name}"
    );
    assert_eq!(router::route_auto(&output).unwrap(), routed, "{name}");
    routed
}

/// Feeds a recorded stream, as the `data:` lines of server-sent events, then `[DONE]`.
fn stream(name: &str) -> (Vec<StreamEvent>, Routed) {
    let text = std::fs::read_to_string(path(name)).unwrap();
    let mut stream = TensorZeroStream::new();
    let mut events = Vec::new();
    for line in text.lines().chain(["[DONE]"]) {
        events.extend(stream.push_line(&format!("data: {line}")).unwrap());
    }
    (events, stream.finish())
}

fn calls(routed: &Routed) -> Vec<(&str, &str, &str)> {
    routed
        .calls
        .iter()
        .map(|c| (c.id.as_str(), c.name.as_str(), c.arguments.as_str()))
        .collect()
}

#[test]
fn one_call_and_two_calls_route_as_the_model_wrote_them() {
    let one = route("one_call.json");
    assert_eq!(
        calls(&one),
        [("call_weather_1", "get_weather", r#"{"city":"Paris"}"#)]
    );
    assert_eq!(one.text, "");
    let two = route("two_calls.json");
    assert_eq!(two.text, "Let me check the weather and run the code.");
    assert_eq!(
        calls(&two),
        [
            (
                "call_weather_1",
                "get_weather",
                r#"{"city": "Paris", "unit": "celsius"}"#
            ),
            ("call_python_1", "python_exec", r#"{"code": "print(1)"}"#),
        ]
    );
    let text = route("text_only.json");
    assert!(text.calls.is_empty());
    assert!(!text.text.is_empty());
}

#[test]
fn calls_tensorzero_could_not_validate_still_reach_the_pipeline() {
    // `name: null, arguments: null`: the model's own name and text are routed, so the
    // registry answers with an error the model can act on.
    let unknown = route("unknown_tool.json");
    assert_eq!(
        calls(&unknown),
        [("call_unknown_1", "send_email", r#"{"to": "a@example.com"}"#)]
    );
    let bad = route("bad_arguments.json");
    assert_eq!(
        calls(&bad),
        [
            ("call_bad_json", "get_weather", r#"{"city": "Par"#),
            ("call_bad_schema", "get_weather", r#"{"city": 12}"#),
        ]
    );

    let registry = Registry::builder()
        .without_inventory()
        .register(get_weather::TOOL)
        .build()
        .unwrap();
    let outputs: Vec<ToolOutput> = unknown
        .calls
        .iter()
        .chain(&bad.calls)
        .map(|c| registry.call_blocking(&c.name, &c.arguments))
        .collect();
    let codes: Vec<ErrorCode> = outputs
        .iter()
        .map(|o| match o {
            ToolOutput::Error(e) => e.code,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(codes[0], ErrorCode::UnknownTool);
    // The cut-off JSON is repaired (the default policy); the number for a string is not.
    assert!(matches!(
        codes[2],
        ErrorCode::InvalidArguments | ErrorCode::MalformedArguments
    ));
}

/// Get the weather for a city.
#[tool]
fn get_weather(city: String) -> String {
    format!("Sunny in {city}")
}

#[test]
fn thought_blocks_are_not_text() {
    let routed = route("thought.json");
    assert_eq!(routed.text, "Checking the weather in Paris.");
    assert_eq!(
        calls(&routed),
        [("call_weather_1", "get_weather", r#"{"city":"Paris"}"#)]
    );
    let (_, streamed) = stream("thought.stream.jsonl");
    assert_eq!(streamed.text, routed.text);
    assert_eq!(streamed.calls, routed.calls);
}

#[test]
fn streams_give_the_same_turn_as_the_whole_responses() {
    for (streamed, whole) in [
        ("one_call.stream.jsonl", "one_call.json"),
        ("two_calls.stream.jsonl", "two_calls.json"),
    ] {
        let (events, routed) = stream(streamed);
        let whole = route(whole);
        assert_eq!(routed.text, whole.text, "{streamed}");
        assert_eq!(calls(&routed), calls(&whole), "{streamed}");
        // Each call came out once, when the chunk with `finish_reason` arrived.
        let done: Vec<&ToolCall> = events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::Call(call) => Some(call),
                StreamEvent::Text(_) => None,
            })
            .collect();
        assert_eq!(done.len(), whole.calls.len(), "{streamed}");
        let text: String = events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::Text(text) => Some(text.as_str()),
                StreamEvent::Call(_) => None,
            })
            .collect();
        assert_eq!(text, whole.text);
    }
}

#[test]
fn our_turn_and_results_have_the_shape_the_gateway_accepted() {
    // The second turn the real gateway took (and passed on to the upstream): the assistant's
    // `tool_call` blocks, then one user message of `tool_result` blocks.
    let accepted = fixture("second_turn.request.json");
    let messages = accepted["input"]["messages"].as_array().unwrap();
    let routed = route("two_calls.json");
    let turn = results::call_turn(Provider::TensorZero, &routed.text, &routed.calls);
    assert_eq!(turn.len(), 1);
    let ours = &turn[0]["content"];
    let theirs = &messages[1]["content"];
    assert_eq!(ours[0], theirs[0], "the text block");
    for i in 1..3 {
        for key in ["type", "id", "name"] {
            assert_eq!(ours[i][key], theirs[i][key]);
        }
        // The arguments as the model wrote them: a string, which the gateway takes verbatim.
        let parsed: Value = serde_json::from_str(ours[i]["arguments"].as_str().unwrap()).unwrap();
        assert_eq!(parsed, theirs[i]["arguments"]);
    }

    let outputs = [
        (
            "call_weather_1".to_owned(),
            ToolOutput::json(&json!({"temperature": 21, "unit": "celsius"})),
        ),
        (
            "call_python_1".to_owned(),
            ToolOutput::from(ToolError::new(
                "python_exec is not available in this sandbox",
            )),
        ),
    ];
    let formatted = results::answer(Provider::TensorZero, &routed.calls, &outputs);
    assert!(formatted.problems.is_empty());
    assert_eq!(formatted.messages.len(), 1);
    let ours = &formatted.messages[0];
    let theirs = &messages[2];
    assert_eq!(ours["role"], theirs["role"]);
    for (a, b) in ours["content"]
        .as_array()
        .unwrap()
        .iter()
        .zip(theirs["content"].as_array().unwrap())
    {
        for key in ["type", "id", "name"] {
            assert_eq!(a[key], b[key]);
        }
        assert!(a["result"].is_string());
    }
    assert_eq!(
        ours["content"][1]["result"],
        "Error: python_exec is not available in this sandbox"
    );
    // And the upstream saw each result as a tool message, errors said in the text.
    let upstream = fixture("second_turn.upstream.json");
    let tool_messages: Vec<&Value> = upstream["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .collect();
    assert_eq!(tool_messages.len(), 2);
    assert_eq!(tool_messages[1]["content"], theirs["content"][1]["result"]);
}

#[test]
fn every_call_gets_exactly_one_result() {
    let routed = route("two_calls.json");
    // Only the first call finished.
    let outputs = [("call_weather_1".to_owned(), ToolOutput::text("21°C"))];
    let formatted = results::answer(Provider::TensorZero, &routed.calls, &outputs);
    let blocks = formatted.messages[0]["content"].as_array().unwrap();
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[1]["id"], "call_python_1");
    assert!(blocks[1]["result"].as_str().unwrap().starts_with("Error: "));
    assert_eq!(formatted.problems.len(), 1);
}
