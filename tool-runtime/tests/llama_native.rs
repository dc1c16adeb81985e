//! Native tools against a real model server: llama.cpp's `llama-server` with
//! SmolLM2-135M-Instruct (`tests/support/src/llama.rs`) and Qwen2.5's chat template from
//! llama.cpp's tree (SmolLM2 speaks the same ChatML; its own template declares no tool
//! format, so the server would parse no call). The first request asks for a call
//! (`tool_choice: "required"`) and starts the reply with `<tool_call>` (`Agent::prefill`):
//! llama.cpp's grammar for a required call still allows text before it, which a 135M model
//! fills. Asserted: the protocol (the server's `tool_calls` reach the pipeline and run, the
//! result goes back as a `tool` message, the run ends by the model's text or `max_turns`),
//! not what the model says.
#![cfg(feature = "agent")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use futures_util::StreamExt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tool_runtime::agent::{
    Agent, AgentError, AgentEvent, Anthropic, Model, OpenAiChat, ToolChoice, Turn,
};
use tool_runtime::{tool, Registry, State, ToolCall};
use tool_test_support::llama::{llama, LlamaServer, MODEL};

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

async fn server() -> LlamaServer {
    tokio::task::spawn_blocking(|| {
        let template = llama().templates.join("Qwen-Qwen2.5-7B-Instruct.jinja");
        LlamaServer::start(&["--chat-template-file", template.to_str().unwrap()])
    })
    .await
    .unwrap()
}

fn agent(server: &LlamaServer, runs: &Arc<Runs>) -> Agent {
    let model =
        OpenAiChat::new(&server.url, MODEL).body_field("max_tokens", serde_json::json!(120));
    agent_with(Box::new(model), runs)
}

fn agent_with(model: Box<dyn Model>, runs: &Arc<Runs>) -> Agent {
    let registry = Registry::builder()
        .without_inventory()
        .register(get_weather::TOOL)
        .state_arc(Arc::clone(runs))
        .build()
        .unwrap();
    Agent::new(model, registry)
        .tool_choice(ToolChoice::Required)
        .prefill("<tool_call>\n")
        .max_turns(3)
}

/// The run ended by the model's text or by `max_turns`, never by a protocol error.
fn ended_well(outcome: &Result<tool_runtime::agent::Reply, AgentError>, server: &LlamaServer) {
    assert!(
        matches!(outcome, Ok(_) | Err(AgentError::MaxTurns(3))),
        "{outcome:?}\n{}",
        server.stderr()
    );
}

/// The first reply's calls: native calls the server parsed (not our text reader), at least
/// one, each of `get_weather`, each run.
fn first_calls<'a>(agent: &'a Agent, runs: &Runs, context: &str) -> &'a [ToolCall] {
    let Turn::Model { calls, .. } = &agent.history()[1] else {
        panic!("{:#?}", agent.history());
    };
    assert!(!calls.is_empty(), "{context}{:#?}", agent.history());
    assert!(calls.iter().all(|c| c.name == "get_weather"));
    assert!(runs.0.load(Ordering::SeqCst) >= calls.len());
    calls
}

#[tokio::test]
async fn the_servers_tool_calls_run_and_their_results_go_back() {
    let server = server().await;
    let runs = Arc::new(Runs::default());
    let mut agent = agent(&server, &runs);
    let outcome = agent.run("What is the weather in Paris?").await;
    ended_well(&outcome, &server);
    // The first reply is a native call: the server parsed it, not our text reader.
    let calls = first_calls(&agent, &runs, "");
    // Each result went back as a `tool` message with the server's call id.
    for call in calls {
        let returned = agent.messages().iter().any(|m| {
            m["role"] == "tool"
                && m["tool_call_id"] == call.id.as_str()
                && m["content"]
                    .as_str()
                    .is_some_and(|c| c.starts_with("18°C in "))
        });
        assert!(returned, "{:#?}", agent.messages());
    }
}

#[tokio::test]
async fn the_streamed_call_arrives_as_tool_call_deltas() {
    let server = server().await;
    let runs = Arc::new(Runs::default());
    let mut agent = agent(&server, &runs);
    let events: Vec<_> = agent
        .stream("What is the weather in Paris?")
        .collect()
        .await;
    let first_ready = events.iter().find_map(|e| match e {
        Ok(AgentEvent::CallReady(call)) => Some(call.name.clone()),
        _ => None,
    });
    assert_eq!(first_ready.as_deref(), Some("get_weather"), "{events:#?}");
    assert!(events.iter().any(|e| matches!(
        e,
        Ok(AgentEvent::CallResult { output, .. }) if output.to_model_text().starts_with("18°C in ")
    )));
    let last = events.last().unwrap();
    match last {
        Ok(AgentEvent::Done(_)) | Err(AgentError::MaxTurns(3)) => {}
        other => panic!("{other:?}\n{}", server.stderr()),
    }
}

#[tokio::test]
async fn anthropics_messages_api_on_the_same_server_runs_the_call_too() {
    // This llama-server also serves Anthropic's Messages API (`/v1/messages`), converting
    // `tool_choice` `any` to `required` and the final assistant message to a prefill.
    let server = server().await;
    let runs = Arc::new(Runs::default());
    let model = Anthropic::new(&server.url, MODEL).body_field("max_tokens", serde_json::json!(120));
    let mut agent = agent_with(Box::new(model), &runs);
    let outcome = agent.run("What is the weather in Paris?").await;
    ended_well(&outcome, &server);
    let calls = first_calls(&agent, &runs, "");
    // The results went back as Anthropic `tool_result` blocks with the server's ids.
    for call in calls {
        let returned = agent.messages().iter().any(|m| {
            m["content"].as_array().is_some_and(|blocks| {
                blocks
                    .iter()
                    .any(|b| b["type"] == "tool_result" && b["tool_use_id"] == call.id.as_str())
            })
        });
        assert!(returned, "{:#?}", agent.messages());
    }
}

#[tokio::test]
async fn the_responses_api_on_the_same_server_runs_the_call_too() {
    // This llama-server also serves OpenAI's Responses API (`/v1/responses`); the prefill is
    // an assistant message closing the input.
    let server = server().await;
    for streamed in [false, true] {
        let runs = Arc::new(Runs::default());
        let model = tool_runtime::agent::OpenAiResponses::new(&server.url, MODEL)
            .body_field("max_output_tokens", serde_json::json!(120));
        let mut agent = agent_with(Box::new(model), &runs);
        let outcome = if streamed {
            let events: Vec<_> = agent
                .stream("What is the weather in Paris?")
                .collect()
                .await;
            match events.into_iter().last() {
                Some(Ok(AgentEvent::Done(reply))) => Ok(reply),
                Some(Err(error)) => Err(error),
                other => panic!("{other:?}"),
            }
        } else {
            agent.run("What is the weather in Paris?").await
        };
        ended_well(&outcome, &server);
        let calls = first_calls(&agent, &runs, &format!("streamed {streamed}: "));
        // The results went back as `function_call_output` items with the server's call ids.
        for call in calls {
            let returned = agent
                .messages()
                .iter()
                .any(|m| m["type"] == "function_call_output" && m["call_id"] == call.id.as_str());
            assert!(returned, "{:#?}", agent.messages());
        }
    }
}
