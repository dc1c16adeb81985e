//! Prompts and resources that ask their client, served to a protocol 2026-07-28 client over
//! HTTP on 127.0.0.1: each question ends `prompts/get` or `resources/read` with an
//! input-required result, and the client's retry with the answers and the `requestState`
//! gets the result. The state opens only for the request it was given for, answers are
//! checked, and a question the client can't answer is `-32021`.
#![cfg(feature = "mcp")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use std::net::SocketAddr;
use tool_runtime::client::{Elicitation, SamplingRequest};
use tool_runtime::mcp::{HttpOptions, HttpServer, McpServer};
use tool_runtime::resources::{Contents, Prompt, PromptMessage, Resource, ResourceTemplate};
use tool_runtime::Registry;
use tool_test_support::sessionless::post;

/// What the prompt asks the user.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Background {
    /// What the briefing should assume.
    context: String,
}

/// A prompt, a resource and a template that each ask the client one thing.
async fn serve() -> SocketAddr {
    let registry = Registry::builder()
        .without_inventory()
        .prompt(
            Prompt::asking("briefing", |args, cx| async move {
                let context = match cx
                    .ask("user_context")
                    .elicit::<Background>("What context should the prompt use?")
                    .await?
                {
                    Elicitation::Accept(answer) => answer.context,
                    Elicitation::Decline | Elicitation::Cancel => "none".into(),
                };
                let retry = cx.is_retry();
                Ok(vec![PromptMessage::user(format!(
                    "Brief me on {} (context: {context}; retry: {retry})",
                    &args["topic"]
                ))])
            })
            .argument("topic", "What to brief on.", true),
        )
        .resource(Resource::asking("app://roots", "roots", |cx| async move {
            let roots = cx.ask("client_roots").roots().await?;
            let uris: Vec<_> = roots.iter().map(|root| root.uri.as_str()).collect();
            Ok(Contents::text(uris.join(", ")))
        }))
        .resource_template(ResourceTemplate::asking(
            "summary://{topic}",
            "summary",
            |vars, cx| async move {
                let request = SamplingRequest::user(format!("Summarize {}.", &vars["topic"]));
                let answer = cx.sample(request.max_tokens(50)).await?;
                Ok(Contents::text(answer.text()))
            },
        ))
        .build()
        .unwrap();
    let http = HttpServer::bind(
        McpServer::new(registry),
        "127.0.0.1:0".parse().unwrap(),
        HttpOptions::default(),
    )
    .await
    .unwrap();
    let addr = http.local_addr();
    tokio::spawn(http.run());
    addr
}

fn everything() -> Value {
    json!({"sampling": {}, "elicitation": {}, "roots": {}})
}

fn briefing(topic: &str) -> Value {
    json!({"name": "briefing", "arguments": {"topic": topic}})
}

/// `params` with the client's answers and the state of the round before.
fn retry(params: Value, responses: Value, state: &Value) -> Value {
    let mut params = params;
    params["inputResponses"] = responses;
    params["requestState"] = state.clone();
    params
}

/// Asserts `answer` is error `-32602` and its message says `says`.
fn invalid_params(answer: &Value, says: &str) {
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains(says), "{answer}");
}

fn context(text: &str) -> Value {
    json!({"user_context": {"action": "accept", "content": {"context": text}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_asks_and_gets_its_messages_once_answered() {
    let addr = serve().await;
    let answer = context("a sailing club");
    let (first, got) = answered(addr, "prompts/get", briefing("tides"), answer).await;
    let asked = &first["result"];
    assert_eq!(asked["resultType"], "input_required", "{first}");
    assert_eq!(
        asked["inputRequests"]["user_context"],
        json!({"method": "elicitation/create", "params": {
            "mode": "form",
            "message": "What context should the prompt use?",
            "requestedSchema": {"type": "object", "properties": {"context": {
                "type": "string", "description": "What the briefing should assume."}},
                "required": ["context"]}}})
    );
    assert!(asked["requestState"].is_string(), "{first}");
    assert_eq!(got["result"]["resultType"], "complete", "{got}");
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"],
        "Brief me on tides (context: a sailing club; retry: true)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_opens_only_for_the_request_it_was_given_for() {
    let addr = serve().await;
    let first = post(addr, "prompts/get", briefing("tides"), everything()).await;
    let state = &first["result"]["requestState"];
    let refused = |answer: &Value| invalid_params(answer, "requestState");
    // Other arguments, another method, a changed state.
    let other_topic = retry(briefing("taxes"), context("x"), state);
    refused(&post(addr, "prompts/get", other_topic, everything()).await);
    let read = retry(json!({"uri": "app://roots"}), json!({}), state);
    refused(&post(addr, "resources/read", read, everything()).await);
    let tool = retry(briefing("tides"), context("x"), state);
    refused(&post(addr, "tools/call", tool, everything()).await);
    let tampered = json!(format!("{}x", state.as_str().unwrap()));
    let changed = retry(briefing("tides"), context("x"), &tampered);
    refused(&post(addr, "prompts/get", changed, everything()).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_that_do_not_fit_their_question_are_invalid_params() {
    let addr = serve().await;
    let first = post(addr, "prompts/get", briefing("tides"), everything()).await;
    let state = &first["result"]["requestState"];
    let retried = |answers| {
        post(
            addr,
            "prompts/get",
            retry(briefing("tides"), answers, state),
            everything(),
        )
    };
    // Not an elicitation result at all: refused before the prompt reads it.
    let answer = retried(json!({"user_context": 12345})).await;
    invalid_params(&answer, "inputResponses.user_context");
    // An accepted form that doesn't fit the prompt's type.
    let answer =
        retried(json!({"user_context": {"action": "accept", "content": {"context": 5}}})).await;
    invalid_params(&answer, "could not be read");
    // No answer to the question asked: asked again.
    let again = retried(json!({"other": {"action": "decline"}})).await;
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_the_capability_gets_missing_capability() {
    let addr = serve().await;
    let answer = post(
        addr,
        "prompts/get",
        briefing("tides"),
        json!({"sampling": {}}),
    )
    .await;
    assert_eq!(answer["error"]["code"], -32021, "{answer}");
    assert!(
        answer["error"]["data"]["requiredCapabilities"]["elicitation"].is_object(),
        "{answer}"
    );
    let answer = post(
        addr,
        "resources/read",
        json!({"uri": "summary://tides"}),
        json!({}),
    )
    .await;
    assert_eq!(answer["error"]["code"], -32021, "{answer}");
    assert!(
        answer["error"]["data"]["requiredCapabilities"]["sampling"].is_object(),
        "{answer}"
    );
}

/// Asks `method` with `params`, then again with `answers` and the state the first answer
/// gave: both answers.
async fn answered(addr: SocketAddr, method: &str, params: Value, answers: Value) -> (Value, Value) {
    let first = post(addr, method, params.clone(), everything()).await;
    let state = &first["result"]["requestState"];
    let second = post(addr, method, retry(params, answers, state), everything()).await;
    (first, second)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resource_and_a_template_ask_as_a_prompt_does() {
    let addr = serve().await;
    let roots = json!({"client_roots": {"roots": [{"uri": "file:///work", "name": "work"}]}});
    let (first, read) =
        answered(addr, "resources/read", json!({"uri": "app://roots"}), roots).await;
    assert_eq!(
        first["result"]["inputRequests"]["client_roots"]["method"], "roots/list",
        "{first}"
    );
    assert_eq!(
        read["result"]["contents"][0],
        json!({"uri": "app://roots", "text": "file:///work"}),
        "{read}"
    );

    let message = json!({"sampling-1": {"role": "assistant", "model": "m",
        "content": {"type": "text", "text": "Water goes up and down."}}});
    let (first, read) = answered(
        addr,
        "resources/read",
        json!({"uri": "summary://tides"}),
        message,
    )
    .await;
    let question = &first["result"]["inputRequests"]["sampling-1"];
    assert_eq!(question["method"], "sampling/createMessage", "{first}");
    assert_eq!(
        question["params"]["messages"][0]["content"]["text"],
        "Summarize tides."
    );
    assert_eq!(
        read["result"]["contents"][0]["text"], "Water goes up and down.",
        "{read}"
    );
}
