//! Results back to the model: provider payloads routed, run through a registry, and formatted
//! for each provider's next request.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use std::path::PathBuf;
use tool_runtime::results::{self, ResultProblem};
use tool_runtime::router::{self, Routed};
use tool_runtime::{tool, Provider, Registry, ToolCall, ToolError, ToolOutput};

/// Get the current weather in a city.
#[tool(read_only)]
fn get_weather(
    /// City and country, for example "Paris, France".
    location: String,
    /// "celsius" or "fahrenheit".
    unit: Option<String>,
) -> Result<Value, ToolError> {
    if location.starts_with("Bogot") {
        return Err(ToolError::new("the weather station in Bogotá is offline")
            .with_retry_hint("Ask for another city."));
    }
    Ok(json!({"location": location, "temp_c": 18, "unit": unit}))
}

/// Send an email.
#[tool]
fn send_email(
    /// The address.
    to: String,
    /// The text.
    body: String,
) -> String {
    format!("sent {} bytes to {to}", body.len())
}

/// The current temperature in a city, in °C.
#[tool(read_only)]
fn get_current_temperature(
    /// The city.
    location: String,
) -> f64 {
    let _ = location;
    16.5
}

/// Turn the disco ball on or off.
#[tool]
fn power_disco_ball(
    /// On or off.
    power: bool,
) -> String {
    format!("disco ball {}", if power { "on" } else { "off" })
}

/// Play music.
#[tool]
fn start_music(
    /// Energetic music.
    energetic: bool,
    /// Loud music.
    loud: bool,
) -> Value {
    json!({"playing": true, "energetic": energetic, "loud": loud})
}

/// Dim the lights.
#[tool]
fn dim_lights(
    /// From 0 to 1.
    brightness: f64,
) {
    let _ = brightness;
}

fn registry() -> Registry {
    Registry::builder().build().unwrap()
}

fn fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/providers")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn routed(name: &str) -> Routed {
    router::route_auto(&fixture(name)).unwrap()
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

fn run(name: &str) -> (Routed, results::FormattedResults) {
    let routed = routed(name);
    let dialect = routed.provider;
    let formatted = block_on(registry().answer_all(dialect, &routed.calls));
    (routed, formatted)
}

#[test]
fn openai_chat_gets_one_tool_message_per_call() {
    let (routed, formatted) = run("openai_chat/parallel_calls.json");
    assert!(formatted.problems.is_empty());
    assert_eq!(formatted.messages.len(), routed.calls.len());
    assert_eq!(
        formatted.messages[0],
        json!({"role": "tool", "tool_call_id": "call_12345xyz",
               "content": r#"{"location":"Paris, France","temp_c":18,"unit":null}"#})
    );
    assert_eq!(
        formatted.messages[1],
        json!({"role": "tool", "tool_call_id": "call_67890abc",
               "content": "Error: the weather station in Bogotá is offline\nAsk for another city."})
    );
    assert_eq!(formatted.messages[2]["tool_call_id"], "call_99999def");
    assert_eq!(
        formatted.messages[2]["content"],
        "sent 6 bytes to bob@email.com"
    );
}

#[test]
fn responses_get_one_function_call_output_per_call() {
    let (_, formatted) = run("openai_responses/parallel_calls.json");
    assert_eq!(
        formatted.messages,
        [
            json!({"type": "function_call_output", "call_id": "call_67890abc",
                   "output": r#"{"location":"Paris, France","temp_c":18,"unit":null}"#}),
            json!({"type": "function_call_output", "call_id": "call_99999def",
                   "output": "Error: the weather station in Bogotá is offline\nAsk for another city."}),
        ]
    );
}

/// Anthropic refuses a `tool_result` with `is_error: true` and no content ("content cannot be
/// empty if `is_error` is true"), which a tool failing with an empty message (a command's
/// empty stderr) would give.
#[test]
fn an_anthropic_error_result_always_has_content() {
    let calls = [ToolCall::new("toolu_1", "run_quiet", "{}")];
    for message in ["", "  "] {
        let output = ToolOutput::from(ToolError::new(message));
        let formatted = results::answer(
            Provider::Anthropic,
            &calls,
            &[("toolu_1".to_owned(), output)],
        );
        let block = &formatted.messages[0]["content"][0];
        assert_eq!(block["is_error"], true, "{block}");
        assert_eq!(
            block["content"], "The tool failed without saying why.",
            "{block}"
        );
    }
}

#[test]
fn anthropic_gets_one_user_message_of_tool_results() {
    let (_, formatted) = run("anthropic/text_and_calls.json");
    assert_eq!(
        formatted.messages,
        [json!({"role": "user", "content": [{
            "type": "tool_result",
            "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
            "content": r#"{"location":"San Francisco, CA","temp_c":18,"unit":"celsius"}"#}]})]
    );

    // Unknown tools are answered too, flagged as errors; the blocks are all tool results,
    // in the order of the tool_use blocks.
    let (routed, formatted) = run("anthropic/workspace_calls.json");
    let blocks = formatted.messages[0]["content"].as_array().unwrap();
    assert_eq!(blocks.len(), routed.calls.len());
    for (block, call) in blocks.iter().zip(&routed.calls) {
        assert_eq!(block["type"], "tool_result");
        assert_eq!(block["tool_use_id"], call.id.as_str());
        assert_eq!(block["is_error"], true);
        assert!(
            block["content"]
                .as_str()
                .unwrap()
                .starts_with("Unknown tool"),
            "{block}"
        );
    }
}

#[test]
fn gemini_gets_one_content_of_function_responses() {
    let (_, formatted) = run("gemini/parallel_calls.json");
    assert_eq!(
        formatted.messages,
        [json!({"role": "user", "parts": [
            {"functionResponse": {"name": "power_disco_ball", "response": {"output": "disco ball on"}}},
            {"functionResponse": {"name": "start_music",
                                  "response": {"output": {"playing": true, "energetic": true, "loud": true}}}},
            {"functionResponse": {"name": "dim_lights", "response": {"output": ""}}},
        ]})],
        "made-up ids stay out; the thought signature goes back with the model's turn, not here"
    );

    // A call with the model's own id is answered under that id; an error is `{"error": ..}`.
    let (_, formatted) = run("gemini/thought_signature.json");
    let part = &formatted.messages[0]["parts"][0]["functionResponse"];
    assert_eq!(part["id"], "9vbd2kp1");
    assert_eq!(part["name"], "check_flight");
    assert!(part["response"]["error"]
        .as_str()
        .unwrap()
        .starts_with("Unknown tool"));
    assert!(part["response"].get("output").is_none());
}

#[test]
fn mcp_gets_a_call_tool_result_per_call() {
    let registry = registry();
    let calls = [
        ToolCall::new("1", "get_weather", r#"{"location": "Paris, France"}"#),
        ToolCall::new("2", "get_current_temperature", r#"{"location": "London"}"#),
        ToolCall::new("3", "send_email", r#"{"to": "a@b.c", "body": "hi"}"#),
        ToolCall::new("4", "get_weather", r#"{"location": "Bogotá"}"#),
    ];
    let formatted = block_on(registry.answer_all(Provider::Mcp, &calls));
    assert_eq!(
        formatted.messages,
        [
            json!({"content": [{"type": "text", "text": r#"{"location":"Paris, France","temp_c":18,"unit":null}"#}],
                   "structuredContent": {"location": "Paris, France", "temp_c": 18, "unit": null},
                   "isError": false}),
            json!({"content": [{"type": "text", "text": "16.5"}],
                   "structuredContent": {"result": 16.5}, "isError": false}),
            json!({"content": [{"type": "text", "text": "sent 2 bytes to a@b.c"}], "isError": false}),
            json!({"content": [{"type": "text", "text": "the weather station in Bogotá is offline\nAsk for another city."}],
                   "isError": true}),
        ]
    );
}

/// For every fixture and every dialect: one result per call, carrying the call's id, in the
/// calls' order, whatever the outputs were.
#[test]
fn every_call_gets_exactly_one_result_in_every_dialect() {
    let registry = registry();
    let names = [
        "openai_chat/parallel_calls.json",
        "openai_chat/workspace_calls.json",
        "openai_responses/parallel_calls.json",
        "anthropic/parallel_calls.json",
        "anthropic/workspace_calls.json",
        "gemini/parallel_calls.json",
        "gemini/thought_signature.json",
        "openai_chat/no_calls.json",
    ];
    for name in names {
        let calls = routed(name).calls;
        let outputs: Vec<Option<ToolOutput>> = calls
            .iter()
            .map(|call| block_on(registry.call_all(std::slice::from_ref(call))).pop())
            .collect();
        for dialect in Provider::ALL {
            let formatted = results::answer_in_order(dialect, &calls, &outputs);
            assert!(formatted.problems.is_empty(), "{name} {dialect:?}");
            let answered: Vec<Value> = match dialect {
                Provider::OpenAiChat => formatted
                    .messages
                    .iter()
                    .map(|m| m["tool_call_id"].clone())
                    .collect(),
                Provider::OpenAiResponses => formatted
                    .messages
                    .iter()
                    .map(|m| m["call_id"].clone())
                    .collect(),
                Provider::Anthropic => formatted
                    .messages
                    .iter()
                    .flat_map(|m| {
                        m["content"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|b| b["tool_use_id"].clone())
                    })
                    .collect(),
                Provider::TensorZero => formatted
                    .messages
                    .iter()
                    .flat_map(|m| {
                        m["content"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|b| b["id"].clone())
                    })
                    .collect(),
                Provider::Ollama => formatted
                    .messages
                    .iter()
                    .map(|m| m["tool_call_id"].clone())
                    .collect(),
                Provider::Gemini => formatted
                    .messages
                    .iter()
                    .flat_map(|m| {
                        m["parts"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|p| p["functionResponse"]["name"].clone())
                    })
                    .collect(),
                _ => formatted.messages.iter().map(|_| Value::Null).collect(),
            };
            let expected: Vec<Value> = calls
                .iter()
                .map(|c| match dialect {
                    Provider::Gemini => json!(c.name),
                    Provider::Mcp => Value::Null,
                    _ => json!(c.id),
                })
                .collect();
            assert_eq!(answered, expected, "{name} {dialect:?}");
            if calls.is_empty() {
                assert!(
                    formatted.messages.is_empty(),
                    "no calls, nothing to send: {name} {dialect:?}"
                );
            }
        }
    }
}

#[test]
fn a_call_without_output_is_answered_and_a_stray_output_reported() {
    let calls = routed("anthropic/parallel_calls.json").calls;
    // Only get_weather finished; get_time was cancelled; one output names no call.
    let outputs = [
        (calls[0].id.clone(), ToolOutput::text("18°C")),
        ("toolu_99".to_owned(), ToolOutput::text("from another turn")),
    ];
    let formatted = results::answer(Provider::Anthropic, &calls, &outputs);
    let blocks = formatted.messages[0]["content"].as_array().unwrap();
    assert_eq!(blocks.len(), 2);
    assert_eq!(
        blocks[0],
        json!({"type": "tool_result", "tool_use_id": "toolu_01", "content": "18°C"})
    );
    assert_eq!(blocks[1]["tool_use_id"], "toolu_02");
    assert_eq!(blocks[1]["is_error"], true);
    let text = blocks[1]["content"].as_str().unwrap();
    assert!(
        text.starts_with("The call to get_time did not finish"),
        "{text}"
    );
    assert_eq!(
        formatted.problems,
        [
            ResultProblem::UnmatchedOutput {
                call_id: "toolu_99".into()
            },
            ResultProblem::MissingOutput {
                call_id: "toolu_02".into(),
                tool: "get_time".into()
            },
        ]
    );
    assert!(!blocks.iter().any(|b| b["tool_use_id"] == "toolu_99"));
}

/// The whole loop for Gemini: the model turn goes back with its thought signature on the call
/// part, followed by the function responses.
#[test]
fn gemini_history_keeps_the_signature_on_the_call_part() {
    let response = fixture("gemini/parallel_calls.json");
    let routed = router::route(Provider::Gemini, &response).unwrap();
    let formatted = block_on(registry().answer_all(Provider::Gemini, &routed.calls));
    let model_turn = results::call_turn(Provider::Gemini, &routed.text, &routed.calls);
    assert_eq!(model_turn[0], response["candidates"][0]["content"]);
    let parts = formatted.messages[0]["parts"].as_array().unwrap();
    assert!(parts.iter().all(|p| p.get("thoughtSignature").is_none()));
}
