//! The Ollama transport (`agent::Ollama`, `POST /api/chat`) against the scripted upstream: a
//! fixture standing in for an Ollama server, not a model. It answers with replies in
//! Ollama's documented `ChatResponse` shape (`replies::ollama_*`), whole or as
//! newline-delimited JSON, and checks every request body against Ollama's request types
//! (`rules::ollama`). A full loop each way, with a turn of several calls and a tool error,
//! and what a broken stream gives.
#![cfg(feature = "agent")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use futures_util::StreamExt;
use serde_json::{json, Value};
use tool_runtime::agent::{Agent, AgentError, AgentEvent, ModelError, Ollama};
use tool_runtime::{tool, Registry, ToolError};
use tool_test_support::replies::*;
use tool_test_support::upstream::{Scripted, Upstream};

/// Get the current weather in a city.
#[tool(read_only)]
fn get_weather(
    /// City and country, for example "Paris, France".
    location: String,
) -> Result<String, ToolError> {
    if location == "Atlantis" {
        return Err(ToolError::new("no weather station in Atlantis"));
    }
    Ok(format!("18°C in {location}"))
}

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register(get_weather::TOOL)
        .build()
        .unwrap()
}

/// Two calls of one tool (the second fails), the first with the server's id, the second
/// without one (as servers before call ids send them).
fn calls() -> [(&'static str, &'static str, Value); 2] {
    [
        ("call_k3x9q2ab", "get_weather", json!({"location": "Paris"})),
        ("", "get_weather", json!({"location": "Atlantis"})),
    ]
}

/// What a streamed run ends with.
async fn last_event(agent: &mut Agent) -> Result<AgentEvent, AgentError> {
    agent
        .stream("Weather?")
        .collect::<Vec<_>>()
        .await
        .pop()
        .unwrap()
}

fn model(upstream: &Upstream) -> Ollama {
    Ollama::new(upstream.url(), "qwen3")
}

/// The second request: the system prompt, the prompt, the model's turn, then one `tool`
/// message per call, in order, naming its tool and quoting its id.
fn check_second_request(second: &Value) -> &Value {
    assert_eq!(second["model"], "qwen3");
    assert_eq!(
        second["tools"][0],
        json!({"type": "function", "function": {
            "name": "get_weather",
            "description": "Get the current weather in a city.",
            "parameters": second["tools"][0]["function"]["parameters"].clone()}})
    );
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 5, "{messages:#?}");
    assert_eq!(
        messages[0],
        json!({"role": "system", "content": "Be brief."})
    );
    assert_eq!(messages[1], json!({"role": "user", "content": "Weather?"}));
    assert_eq!(
        messages[3],
        json!({"role": "tool", "content": "18°C in Paris", "tool_name": "get_weather", "tool_call_id": "call_k3x9q2ab"})
    );
    assert_eq!(messages[4]["role"], "tool");
    assert_eq!(messages[4]["tool_name"], "get_weather");
    assert_eq!(messages[4]["tool_call_id"], "call_1");
    let error = messages[4]["content"].as_str().unwrap();
    assert!(
        error.starts_with("Error: no weather station in Atlantis"),
        "{error}"
    );
    let turn = &messages[2];
    assert_eq!(turn["role"], "assistant");
    assert_eq!(turn["thinking"], "The user wants the weather.");
    assert_eq!(
        turn["tool_calls"][0]["function"]["arguments"],
        json!({"location": "Paris"})
    );
    turn
}

#[tokio::test]
async fn a_whole_loop_sends_each_result_as_a_tool_message_and_the_message_back() {
    let upstream = Upstream::start([
        Scripted::json(ollama_calls(&calls())),
        Scripted::json(ollama_text("18°C in Paris; Atlantis has no station.")),
    ]);
    let mut agent = Agent::new(model(&upstream), registry()).system("Be brief.");
    let reply = agent.run("Weather?").await.unwrap();
    assert_eq!(reply.text, "18°C in Paris; Atlantis has no station.");
    assert_eq!(reply.usage.input_tokens, 2 * 169);
    assert_eq!(reply.usage.output_tokens, 2 * 18);
    let requests = upstream.requests();
    assert_eq!(requests[0].path, "/api/chat");
    assert!(requests[0].header("authorization").is_none());
    // Ollama streams unless told not to.
    assert_eq!(requests[0].body["stream"], false);
    let turn = check_second_request(&requests[1].body);
    // The reply's message goes back as it came: the call without an id still has none.
    assert_eq!(turn, &ollama_calls(&calls())["message"]);
}

#[tokio::test]
async fn a_streamed_loop_reads_ndjson_and_rebuilds_the_turn() {
    let upstream = Upstream::start([
        Scripted::ndjson(ollama_call_lines(&calls(), true)),
        Scripted::ndjson(vec![ollama_text("Done.")]),
    ]);
    let mut agent = Agent::new(model(&upstream), registry()).system("Be brief.");
    let events: Vec<AgentEvent> = agent.stream("Weather?").map(Result::unwrap).collect().await;
    match events.last().unwrap() {
        AgentEvent::Done(reply) => {
            assert_eq!(reply.text, "Done.");
            assert_eq!(reply.usage.input_tokens, 2 * 169);
        }
        other => panic!("{other:?}"),
    }
    assert!(events.contains(&AgentEvent::Text("Let me ".into())));
    for id in ["call_k3x9q2ab", "call_1"] {
        assert!(
            events.contains(&AgentEvent::CallStarted {
                id: id.into(),
                name: "get_weather".into()
            }),
            "{id}: {events:#?}"
        );
    }
    let requests = upstream.requests();
    assert_eq!(requests[0].body["stream"], true);
    let turn = check_second_request(&requests[1].body);
    assert_eq!(turn["content"], "Let me check.");
    assert_eq!(turn["tool_calls"][1]["id"], "call_1");
    assert_eq!(turn["tool_calls"][1]["function"]["index"], 1);
}

#[tokio::test]
async fn a_stream_without_its_done_line_is_cut() {
    let upstream = Upstream::start([Scripted::ndjson(ollama_call_lines(&calls(), false))]);
    let mut agent = Agent::new(model(&upstream), registry());
    let last = last_event(&mut agent).await;
    assert!(
        matches!(last, Err(AgentError::Model(ModelError::StreamCut { .. }))),
        "{last:?}"
    );
}

#[tokio::test]
async fn an_error_line_mid_stream_is_the_servers_error() {
    let mut lines = ollama_call_lines(&[], false);
    lines.truncate(3);
    lines.push(json!({"error": "an error was encountered while running the model"}));
    let upstream = Upstream::start([Scripted::ndjson(lines)]);
    let mut agent = Agent::new(model(&upstream), registry());
    let last = last_event(&mut agent).await;
    let error = last.unwrap_err();
    assert!(
        matches!(&error, AgentError::Model(ModelError::Stream(_))),
        "{error:?}"
    );
    // The server's message is in the error's chain of causes.
    let mut chain = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        chain.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    assert!(chain.contains("running the model"), "{chain}");
}

#[tokio::test]
async fn a_line_over_the_limit_is_too_large_not_held() {
    let long = "x".repeat(64 << 10);
    let lines = vec![
        json!({"model": "qwen3", "message": {"role": "assistant", "content": long}, "done": false}),
    ];
    let upstream = Upstream::start([Scripted::ndjson(lines)]);
    let mut agent = Agent::new(model(&upstream).max_reply_bytes(16 << 10), registry());
    let last = last_event(&mut agent).await;
    assert!(
        matches!(
            last,
            Err(AgentError::Model(ModelError::TooLarge { limit })) if limit == 16 << 10
        ),
        "{last:?}"
    );
}

#[tokio::test]
async fn an_unknown_model_is_the_servers_error_and_the_key_goes_as_a_bearer_token() {
    let upstream = Upstream::start([Scripted::status(
        404,
        json!({"error": "model \"qwen3\" not found, try pulling it first"}),
    )]);
    let mut agent = Agent::new(
        model(&upstream).api_key("ollama-key-123").max_retries(0),
        registry(),
    );
    let error = agent.run("Weather?").await.unwrap_err();
    assert!(
        matches!(&error, AgentError::Model(ModelError::Http { status: 404, body, .. }) if body.contains("try pulling it")),
        "{error:?}"
    );
    assert_eq!(
        upstream.requests()[0].header("authorization"),
        Some("Bearer ollama-key-123")
    );
}
