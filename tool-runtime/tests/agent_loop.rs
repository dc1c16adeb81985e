//! The agent loop against the scripted upstream (a fixture, not a model) over real HTTP, with
//! the Chat Completions transport: calls run and answered once each, errors sent back for the
//! model to fix, limits, retries, timeouts, bad replies, cut streams, cancellation, streaming.
#![cfg(feature = "agent")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tool_runtime::agent::{Agent, AgentError, AgentEvent, ModelError, OpenAiChat, Turn};
use tool_runtime::pipeline::CancellationToken;
use tool_runtime::{tool, Registry};
use tool_test_support::replies::*;
use tool_test_support::upstream::{Scripted, Upstream};

/// Get the current weather in a city.
#[tool(read_only)]
fn get_weather(
    /// City and country, for example "Paris, France".
    location: String,
) -> String {
    format!("18°C in {location}")
}

/// Add two numbers.
#[tool(read_only)]
fn add(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
) -> i64 {
    a + b
}

/// Waits a while.
#[tool]
async fn slow() -> String {
    tokio::time::sleep(Duration::from_secs(30)).await;
    "done".into()
}

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register(get_weather::TOOL)
        .register(add::TOOL)
        .register(slow::TOOL)
        .build()
        .unwrap()
}

fn model(upstream: &Upstream) -> OpenAiChat {
    OpenAiChat::new(format!("{}/v1", upstream.url()), "scripted")
        .max_retry_wait(Duration::from_secs(2))
}

fn agent(upstream: &Upstream) -> Agent {
    Agent::new(model(upstream), registry()).system("Be brief.")
}

fn tool_messages(body: &Value) -> Vec<&Value> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .collect()
}

#[tokio::test]
async fn a_call_then_an_answer_runs_the_tool_and_sends_its_one_result() {
    let upstream = Upstream::start([
        Scripted::json(chat_calls(&[(
            "call_1",
            "get_weather",
            r#"{"location": "Paris"}"#,
        )])),
        Scripted::json(chat_text("It is 18°C in Paris.")),
    ]);
    let mut agent = agent(&upstream);
    let reply = agent.run("Weather in Paris?").await.unwrap();
    assert_eq!(reply.text, "It is 18°C in Paris.");
    assert_eq!((reply.turns, reply.calls), (2, 1));
    assert_eq!(reply.usage.input_tokens, 120);
    assert_eq!(reply.usage.output_tokens, 15);

    let requests = upstream.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].path, "/v1/chat/completions");
    let (first, second) = (&requests[0].body, &requests[1].body);
    assert_eq!(first["model"], "scripted");
    assert_eq!(
        first["messages"][0],
        json!({"role": "system", "content": "Be brief."})
    );
    assert_eq!(
        first["messages"][1],
        json!({"role": "user", "content": "Weather in Paris?"})
    );
    assert_eq!(first["tools"].as_array().unwrap().len(), 3);
    assert_eq!(
        first["tools"], second["tools"],
        "the same cached tool list each time"
    );
    assert!(first.get("stream").is_none());
    // The model's turn, then exactly one result for its one call.
    assert_eq!(second["messages"][2]["role"], "assistant");
    assert_eq!(second["messages"][2]["tool_calls"][0]["id"], "call_1");
    let results = tool_messages(second);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["tool_call_id"], "call_1");
    assert_eq!(results[0]["content"], "18°C in Paris");

    let history = agent.history();
    assert!(matches!(&history[0], Turn::User(p) if p == "Weather in Paris?"));
    assert!(matches!(&history[1], Turn::Model { calls, .. } if calls[0].name == "get_weather"));
    assert!(
        matches!(&history[2], Turn::Results(r) if r[0].output.to_model_text() == "18°C in Paris")
    );
    assert!(
        matches!(&history[3], Turn::Model { text, calls } if calls.is_empty() && text.contains("18°C"))
    );
}

#[tokio::test]
async fn parallel_calls_each_get_one_result_in_the_calls_order() {
    let upstream = Upstream::start([
        Scripted::json(chat_calls(&[
            ("c1", "add", r#"{"a": 1, "b": 2}"#),
            ("c2", "get_weather", r#"{"location": "Oslo"}"#),
            ("c3", "add", r#"{"a": 40, "b": 2}"#),
        ])),
        Scripted::json(chat_text("3, Oslo, 42")),
    ]);
    let mut agent = agent(&upstream);
    agent.run("Do three things").await.unwrap();
    let second = &upstream.requests()[1].body;
    let results: Vec<(String, String)> = tool_messages(second)
        .iter()
        .map(|m| {
            (
                m["tool_call_id"].as_str().unwrap().to_owned(),
                m["content"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        results,
        [
            ("c1".into(), "3".into()),
            ("c2".into(), "18°C in Oslo".into()),
            ("c3".into(), "42".into())
        ]
    );
}

#[tokio::test]
async fn a_bad_call_goes_back_with_its_error_and_the_model_fixes_it() {
    let upstream = Upstream::start([
        Scripted::json(chat_calls(&[("c1", "add", r#"{"a": 1}"#)])),
        Scripted::json(chat_calls(&[("c2", "add", r#"{"a": 1, "b": 2}"#)])),
        Scripted::json(chat_text("3")),
    ]);
    let mut agent = agent(&upstream);
    let reply = agent.run("1+2?").await.unwrap();
    assert_eq!(reply.text, "3");
    let second = &upstream.requests()[1].body;
    let error = tool_messages(second)[0]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        error.contains('b'),
        "the error names the missing field: {error}"
    );
    let third = &upstream.requests()[2].body;
    assert_eq!(tool_messages(third)[1]["content"], "3");
}

#[tokio::test]
async fn a_model_that_keeps_failing_the_same_tool_is_stopped_with_every_call_answered() {
    let bad = || Scripted::json(chat_calls(&[("c", "add", r#"{"a": "x"}"#)]));
    let upstream = Upstream::start([bad(), bad(), bad(), bad()]);
    let mut agent = agent(&upstream);
    let error = agent.run("1+2?").await.unwrap_err();
    let AgentError::RepeatedFailure { tool, times, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!((tool.as_str(), *times), ("add", 3));
    assert_eq!(upstream.requests().len(), 3);
    // Every call in the conversation has its result.
    let calls = agent
        .messages()
        .iter()
        .filter(|m| m["role"] == "assistant")
        .count();
    let results = agent
        .messages()
        .iter()
        .filter(|m| m["role"] == "tool")
        .count();
    assert_eq!(calls, results);
}

#[tokio::test]
async fn max_turns_stops_a_model_that_never_stops_calling() {
    let call = || Scripted::json(chat_calls(&[("c", "add", r#"{"a": 1, "b": 1}"#)]));
    let upstream = Upstream::start([call(), call(), call()]);
    let mut agent = agent(&upstream).max_turns(2);
    let error = agent.run("loop").await.unwrap_err();
    assert!(matches!(error, AgentError::MaxTurns(2)), "{error:?}");
    assert_eq!(upstream.requests().len(), 2);
    assert_eq!(upstream.remaining(), 1);
}

#[tokio::test]
async fn a_429_is_retried_after_its_retry_after() {
    let upstream = Upstream::start([
        Scripted::status(
            429,
            json!({"error": {"message": "slow down", "type": "rate_limit"}}),
        )
        .header("retry-after-ms", "50"),
        Scripted::json(chat_text("ok")),
    ]);
    let reply = agent(&upstream).run("hi").await.unwrap();
    assert_eq!(reply.text, "ok");
    assert_eq!(upstream.requests().len(), 2);
}

#[tokio::test]
async fn a_server_error_is_retried_a_bounded_number_of_times_and_keeps_its_body() {
    let error = || {
        Scripted::status(503, json!({"error": {"message": "overloaded"}}))
            .header("retry-after", "0")
    };
    let upstream = Upstream::start([error(), error(), error(), error()]);
    let mut agent = Agent::new(model(&upstream).max_retries(2), registry());
    let failure = agent.run("hi").await.unwrap_err();
    let AgentError::Model(ModelError::Http { status, body, .. }) = &failure else {
        panic!("{failure:?}")
    };
    assert_eq!(*status, 503);
    assert!(body.contains("overloaded"));
    assert_eq!(upstream.requests().len(), 3, "one try and two retries");
    // The prompt stays; nothing half-done is in the conversation.
    assert_eq!(agent.messages().len(), 1);
}

#[tokio::test]
async fn a_retry_after_past_the_limit_is_not_waited_for() {
    let upstream = Upstream::start([Scripted::status(
        429,
        json!({"error": {"message": "come back tomorrow"}}),
    )
    .header("retry-after", "86400")]);
    let failure = agent(&upstream).run("hi").await.unwrap_err();
    assert!(
        matches!(
            failure,
            AgentError::Model(ModelError::Http {
                status: 429,
                retry_after: Some(_),
                ..
            })
        ),
        "{failure:?}"
    );
    assert_eq!(upstream.requests().len(), 1);
}

#[tokio::test]
async fn a_client_error_is_not_retried() {
    let upstream = Upstream::start([Scripted::status(
        400,
        json!({"error": {"message": "Invalid schema for function 'add'", "type": "invalid_request_error"}}),
    )]);
    let failure = agent(&upstream).run("hi").await.unwrap_err();
    assert_eq!(
        failure.to_string(),
        "the model server answered HTTP 400: Invalid schema for function 'add'"
    );
    let AgentError::Model(ModelError::Http { body, .. }) = &failure else {
        panic!("{failure:?}")
    };
    assert!(body.contains("Invalid schema"));
    assert_eq!(upstream.requests().len(), 1);
}

#[tokio::test]
async fn a_server_that_does_not_answer_in_time_is_a_timeout() {
    let upstream = Upstream::start([Scripted::After(
        Duration::from_secs(5),
        Box::new(Scripted::json(chat_text("late"))),
    )]);
    let model = model(&upstream)
        .timeout(Duration::from_millis(200))
        .max_retries(0);
    let failure = Agent::new(model, registry()).run("hi").await.unwrap_err();
    assert!(
        matches!(failure, AgentError::Model(ModelError::Timeout(_))),
        "{failure:?}"
    );
}

#[tokio::test]
async fn no_server_at_all_is_a_transport_error() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let model = OpenAiChat::new(format!("http://127.0.0.1:{port}/v1"), "m").max_retries(0);
    let failure = Agent::new(model, registry()).run("hi").await.unwrap_err();
    assert!(
        matches!(failure, AgentError::Model(ModelError::Transport { .. })),
        "{failure:?}"
    );
}

#[tokio::test]
async fn a_reply_that_is_not_a_chat_completion_is_a_route_error() {
    let upstream = Upstream::start([Scripted::json(json!({"hello": "world"}))]);
    let failure = agent(&upstream).run("hi").await.unwrap_err();
    assert!(
        matches!(failure, AgentError::Model(ModelError::Route(_))),
        "{failure:?}"
    );
}

#[tokio::test]
async fn a_stream_cut_mid_call_is_an_error_and_leaves_no_call_unanswered() {
    let upstream = Upstream::start([Scripted::sse(chat_call_chunks(
        "c1",
        "get_weather",
        r#"{"location": "Paris"}"#,
        false,
    ))]);
    let mut agent = agent(&upstream);
    let mut events = agent.stream("Weather?");
    let mut seen = Vec::new();
    let mut end = None;
    while let Some(event) = events.next().await {
        match event {
            Ok(event) => seen.push(event),
            Err(error) => end = Some(error),
        }
    }
    drop(events);
    assert!(
        matches!(end, Some(AgentError::Model(ModelError::StreamCut { .. }))),
        "{end:?}"
    );
    assert!(seen.contains(&AgentEvent::CallStarted {
        id: "c1".into(),
        name: "get_weather".into()
    }));
    assert!(!seen
        .iter()
        .any(|e| matches!(e, AgentEvent::CallResult { .. })));
    assert_eq!(agent.messages().len(), 1, "only the prompt");
}

#[tokio::test]
async fn a_streamed_run_yields_text_calls_results_usage_and_done_in_order() {
    let upstream = Upstream::start([
        Scripted::sse(chat_call_chunks(
            "c1",
            "get_weather",
            r#"{"location": "Rome"}"#,
            true,
        )),
        Scripted::sse(chat_text_chunks("It is 18°C ", "in Rome.")),
    ]);
    let mut agent = agent(&upstream);
    let events: Vec<AgentEvent> = agent
        .stream("Weather in Rome?")
        .map(Result::unwrap)
        .collect()
        .await;
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match e {
            AgentEvent::Text(_) => "text",
            AgentEvent::CallStarted { .. } => "started",
            AgentEvent::CallReady(_) => "ready",
            AgentEvent::CallResult { .. } => "result",
            AgentEvent::Usage(_) => "usage",
            AgentEvent::TurnFinished { .. } => "turn",
            AgentEvent::Done(_) => "done",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "text", "started", "ready", "usage", "result", "turn", "text", "text", "usage", "turn",
            "done"
        ]
    );
    let AgentEvent::Done(reply) = events.last().unwrap() else {
        panic!()
    };
    assert_eq!(reply.text, "It is 18°C in Rome.");
    assert_eq!(reply.usage.input_tokens, 40);
    let first = &upstream.requests()[0].body;
    assert_eq!(first["stream"], true);
    assert_eq!(first["stream_options"], json!({"include_usage": true}));
    assert_eq!(
        tool_messages(&upstream.requests()[1].body)[0]["content"],
        "18°C in Rome"
    );
}

#[tokio::test]
async fn cancelling_ends_the_run_and_answers_the_running_call() {
    let upstream = Upstream::start([Scripted::json(chat_calls(&[("c1", "slow", "{}")]))]);
    let token = CancellationToken::new();
    let mut agent = agent(&upstream).cancel_on(token.clone());
    let cancel = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        token.cancel();
    };
    let (result, ()) = tokio::join!(agent.run("go slow"), cancel);
    assert!(matches!(result, Err(AgentError::Cancelled)), "{result:?}");
    let results: Vec<&Value> = agent
        .messages()
        .iter()
        .filter(|m| m["role"] == "tool")
        .collect();
    assert_eq!(results.len(), 1);
    assert!(results[0]["content"].as_str().unwrap().contains("cancel"));
}

#[tokio::test]
async fn the_key_headers_and_extra_fields_are_sent_and_the_key_never_shown() {
    let upstream = Upstream::start([Scripted::json(chat_text("ok"))]);
    let model = model(&upstream)
        .api_key("sk-test-123")
        .header("OpenAI-Organization", "org-1")
        .body_field("temperature", json!(0.1))
        .body_field("model", json!("not-this-one"));
    assert!(!format!("{model:?}").contains("sk-test-123"));
    Agent::new(model, registry()).run("hi").await.unwrap();
    let request = &upstream.requests()[0];
    assert_eq!(request.header("authorization"), Some("Bearer sk-test-123"));
    assert_eq!(request.header("openai-organization"), Some("org-1"));
    assert_eq!(request.body["temperature"], 0.1);
    assert_eq!(
        request.body["model"], "scripted",
        "a body field never overrides the transport's"
    );
}

#[tokio::test]
async fn a_body_the_openai_spec_rejects_is_caught_by_the_upstream() {
    // The check every test relies on is live: a temperature the spec bounds to 0..=2.
    let upstream = Upstream::start([Scripted::json(chat_text("ok"))]);
    let model = model(&upstream).body_field("temperature", json!(7));
    let failure = Agent::new(model, registry()).run("hi").await.unwrap_err();
    assert!(
        matches!(&failure, AgentError::Model(ModelError::Http { status: 400, body, .. }) if body.contains("openai-openapi.yaml")),
        "{failure:?}"
    );
    let violations = upstream.take_violations();
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert!(
        violations[0].1.iter().any(|v| v.contains("temperature")),
        "{violations:?}"
    );
}

#[tokio::test]
async fn a_reply_over_the_byte_limit_is_too_large_whole_or_streamed() {
    let big = "x".repeat(200_000);
    let upstream = Upstream::start([
        Scripted::json(chat_text(&big)),
        Scripted::sse(chat_text_chunks(&big, &big)),
    ]);
    let mut agent = Agent::new(model(&upstream).max_reply_bytes(50_000), registry());
    let whole = agent.run("hi").await.unwrap_err();
    assert!(
        matches!(
            whole,
            AgentError::Model(ModelError::TooLarge { limit: 50_000 })
        ),
        "{whole:?}"
    );
    let streamed: Vec<_> = agent.stream("hi").collect().await;
    assert!(
        matches!(
            streamed.last(),
            Some(Err(AgentError::Model(ModelError::TooLarge {
                limit: 50_000
            })))
        ),
        "{:?}",
        streamed.last()
    );
    // Nothing of either reply joined the conversation: the two prompts only.
    assert_eq!(agent.messages().len(), 2, "{:?}", agent.messages());
}

#[tokio::test]
async fn a_base_url_that_is_not_a_url_is_a_config_error() {
    let model = OpenAiChat::new("127.0.0.1:8000/v1 (no scheme)", "m");
    let failure = Agent::new(model, registry()).run("hi").await.unwrap_err();
    assert!(
        matches!(&failure, AgentError::Model(ModelError::Config(why)) if why.contains("is not a URL")),
        "{failure:?}"
    );
}

#[tokio::test]
async fn a_missing_named_key_variable_is_an_error_before_any_request() {
    let upstream = Upstream::start([Scripted::json(chat_text("ok"))]);
    let model = model(&upstream).api_key_env("TOOL_RUNTIME_TEST_NO_SUCH_KEY");
    let failure = Agent::new(model, registry()).run("hi").await.unwrap_err();
    assert!(
        matches!(&failure, AgentError::Model(ModelError::MissingApiKey(v)) if v == "TOOL_RUNTIME_TEST_NO_SUCH_KEY"),
        "{failure:?}"
    );
    assert!(upstream.requests().is_empty());
}

#[tokio::test]
async fn a_second_run_continues_the_conversation() {
    let upstream = Upstream::start([
        Scripted::json(chat_text("Hello!")),
        Scripted::json(chat_text("You said hi.")),
    ]);
    let mut agent = agent(&upstream);
    agent.run("hi").await.unwrap();
    agent.run("What did I say?").await.unwrap();
    let second = &upstream.requests()[1].body;
    let roles: Vec<&str> = second["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "user"]);
    assert_eq!(agent.usage().output_tokens, 10);
}
