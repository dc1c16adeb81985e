//! Text-only mode against a real model server: llama.cpp's `llama-server` with
//! SmolLM2-135M-Instruct (`tests/support/src/llama.rs`). The tools go in the system prompt in
//! Hermes markup, and the reply is held to that markup by llama.cpp's `grammar` field, built
//! from the registry by `text::call_grammar`. Asserted: the protocol (the server accepts each
//! request, the call read out of the model's real text reaches the pipeline and runs, its
//! result goes back as text, the run ends by `max_turns`), never what a 135M model says.
#![cfg(feature = "agent")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use futures_util::StreamExt;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tool_runtime::agent::{Agent, AgentError, AgentEvent, OpenAiChat, Turn};
use tool_runtime::text::{self, TextFormat};
use tool_runtime::{tool, Registry, State};
use tool_test_support::llama::{LlamaServer, MODEL};

/// How many times the tool ran.
#[derive(Default)]
struct Runs(AtomicUsize);

/// Get the current weather in a city.
#[tool(read_only)]
fn get_weather(
    /// The city, for example "Paris".
    location: String,
    runs: State<Runs>,
) -> String {
    runs.0 .0.fetch_add(1, Ordering::SeqCst);
    format!("18°C in {location}")
}

fn agent(server: &LlamaServer, runs: &Arc<Runs>) -> Agent {
    let registry = Registry::builder()
        .without_inventory()
        .register(get_weather::TOOL)
        .state_arc(Arc::clone(runs))
        .build()
        .unwrap();
    let grammar = text::call_grammar(TextFormat::Hermes, registry.specs()).unwrap();
    let model = OpenAiChat::new(&server.url, MODEL)
        .body_field("grammar", json!(grammar))
        // A bound on each reply: a call is about 30 tokens.
        .body_field("max_tokens", json!(120));
    Agent::new(model, registry)
        .system("You are a helpful assistant.")
        .text_tools(TextFormat::Hermes)
        .max_turns(2)
}

/// The calls of the run's model turns, and the results that went back.
fn calls_and_results(agent: &Agent) -> (Vec<String>, Vec<String>) {
    let mut calls = Vec::new();
    let mut results = Vec::new();
    for turn in agent.history() {
        match turn {
            Turn::Model { calls: made, .. } => calls.extend(made.iter().map(|c| c.name.clone())),
            Turn::Results(outputs) => {
                results.extend(outputs.iter().map(|r| r.output.to_model_text()));
            }
            _ => {}
        }
    }
    (calls, results)
}

#[tokio::test]
async fn a_real_model_writes_a_hermes_call_that_runs_and_its_result_goes_back() {
    let server = tokio::task::spawn_blocking(|| LlamaServer::start(&[]))
        .await
        .unwrap();
    let runs = Arc::new(Runs::default());
    let mut agent = agent(&server, &runs);
    let outcome = agent.run("What is the weather in Paris?").await;
    // The grammar makes every reply a call: the run ends by `max_turns`, every call answered,
    // never by a protocol error.
    assert!(
        matches!(outcome, Err(AgentError::MaxTurns(2))),
        "{outcome:?}\n{}",
        server.stderr()
    );
    let (calls, results) = calls_and_results(&agent);
    assert_eq!(
        calls,
        ["get_weather", "get_weather"],
        "{:#?}",
        agent.history()
    );
    assert_eq!(runs.0.load(Ordering::SeqCst), 2);
    assert!(
        results.iter().all(|r| r.starts_with("18°C in ")),
        "{results:?}"
    );
    // The first result went back to the model as text, in the second request.
    let messages = agent.messages();
    let returned = messages
        .iter()
        .filter_map(|m| m["content"].as_str())
        .any(|c| c.contains("<tool_response>") && c.contains("18°C in "));
    assert!(returned, "{messages:#?}");
}

#[tokio::test]
async fn the_streamed_call_is_read_out_of_real_text_as_it_arrives() {
    let server = tokio::task::spawn_blocking(|| LlamaServer::start(&[]))
        .await
        .unwrap();
    let runs = Arc::new(Runs::default());
    let mut agent = agent(&server, &runs);
    let events: Vec<_> = agent
        .stream("What is the weather in Paris?")
        .collect()
        .await;
    let ready = events
        .iter()
        .filter(|e| matches!(e, Ok(AgentEvent::CallReady(c)) if c.name == "get_weather"))
        .count();
    let answered = events
        .iter()
        .filter(|e| matches!(e, Ok(AgentEvent::CallResult { output, .. }) if output.to_model_text().starts_with("18°C in ")))
        .count();
    assert_eq!((ready, answered), (2, 2), "{events:#?}");
    assert!(
        matches!(events.last(), Some(Err(AgentError::MaxTurns(2)))),
        "{:?}",
        events.last()
    );
    assert_eq!(runs.0.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_run_cancelled_mid_stream_closes_and_the_server_serves_the_next() {
    let mut server = tokio::task::spawn_blocking(|| LlamaServer::start(&[]))
        .await
        .unwrap();
    let registry = Registry::builder().without_inventory().build().unwrap();
    let token = tool_runtime::pipeline::CancellationToken::new();
    // No grammar, room for a long answer: the model streams prose until it is stopped.
    let model = OpenAiChat::new(&server.url, MODEL).body_field("max_tokens", json!(2000));
    let mut agent = Agent::new(model, registry)
        .text_tools(TextFormat::Hermes)
        .cancel_on(token.clone());
    let mut stream = agent.stream("Write a very long story about a lighthouse keeper.");
    let mut texts = 0;
    let mut last = None;
    while let Some(event) = stream.next().await {
        if matches!(event, Ok(AgentEvent::Text(_))) {
            texts += 1;
            if texts == 3 {
                token.cancel();
            }
        }
        last = Some(event);
    }
    drop(stream);
    assert!(texts >= 3, "the model streamed no text: {last:?}");
    assert!(matches!(last, Some(Err(AgentError::Cancelled))), "{last:?}");
    assert!(server.is_running());
    // The same server answers the next request.
    let model = OpenAiChat::new(&server.url, MODEL).body_field("max_tokens", json!(8));
    let registry = Registry::builder().without_inventory().build().unwrap();
    let reply = Agent::new(model, registry).run("Say hi.").await;
    assert!(reply.is_ok(), "{reply:?}\n{}", server.stderr());
}
