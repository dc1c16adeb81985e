//! Code mode through the agent loop: the model gets one tool, writes one snippet that calls
//! the tools twenty times, and the agent answers it in one turn. Against the scripted upstream
//! (a fixture that plays a model's replies, not a model), whole and streamed.
#![cfg(all(feature = "agent", feature = "code"))]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tool_runtime::agent::{Agent, AgentEvent, OpenAiChat};
use tool_runtime::code::CodeSettings;
use tool_runtime::{tool, Registry, State};
use tool_test_support::replies::*;
use tool_test_support::upstream::{Scripted, Upstream};

/// Add two numbers.
#[tool(read_only)]
fn add(a: i64, b: i64, count: State<AtomicUsize>) -> i64 {
    count.fetch_add(1, Ordering::SeqCst);
    a + b
}

const CODE: &str =
    "total = 0\nfor i in range(20):\n    total = add(a=total, b=i)\nprint('sum', total)";

fn agent(upstream: &Upstream, count: &Arc<AtomicUsize>) -> Agent {
    let registry = Registry::builder()
        .without_inventory()
        .register(add::TOOL)
        .state_arc(Arc::clone(count))
        .build()
        .unwrap();
    let model = OpenAiChat::new(format!("{}/v1", upstream.url()), "scripted");
    Agent::new(model, registry)
        .code_mode(CodeSettings::default())
        .unwrap()
}

#[tokio::test]
async fn one_turn_of_code_runs_twenty_calls() {
    let args = json!({ "code": CODE }).to_string();
    let upstream = Upstream::start([
        Scripted::json(chat_calls(&[("c1", "run_python", &args)])),
        Scripted::json(chat_text("The sum is 190.")),
    ]);
    let count = Arc::new(AtomicUsize::new(0));
    let mut agent = agent(&upstream, &count);
    let reply = agent.run("Add up 0 to 19, one at a time.").await.unwrap();
    assert_eq!(reply.text, "The sum is 190.");
    assert_eq!(count.load(Ordering::SeqCst), 20);
    let requests = upstream.requests();
    assert_eq!(requests.len(), 2, "one model turn for twenty calls");
    // The model saw one tool, and its description has the tools as Python functions.
    let tools = requests[0].body["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["function"]["name"], "run_python");
    let description = tools[0]["function"]["description"].as_str().unwrap();
    assert!(
        description.contains("def add(a: int, b: int) -> Any:"),
        "{description}"
    );
    // The result went back as one tool message.
    let messages = requests[1].body["messages"].as_array().unwrap();
    let result = messages.last().unwrap();
    assert_eq!(result["role"], "tool");
    assert_eq!(result["tool_call_id"], "c1");
    assert_eq!(result["content"], "sum 190\n");
    assert!(upstream.take_violations().is_empty());
}

#[tokio::test]
async fn a_streamed_turn_of_code_runs_the_same() {
    let args = json!({ "code": CODE }).to_string();
    let upstream = Upstream::start([
        Scripted::sse(chat_call_chunks("c1", "run_python", &args, true)),
        Scripted::sse(chat_text_chunks("The sum ", "is 190.")),
    ]);
    let count = Arc::new(AtomicUsize::new(0));
    let mut agent = agent(&upstream, &count);
    let mut events = agent.stream("Add up 0 to 19, one at a time.");
    let mut results = Vec::new();
    while let Some(event) = events.next().await {
        if let AgentEvent::CallResult { output, .. } = event.unwrap() {
            results.push(output.to_model_text());
        }
    }
    drop(events);
    assert_eq!(results, ["sum 190\n"]);
    assert_eq!(count.load(Ordering::SeqCst), 20);
    assert_eq!(upstream.requests().len(), 2);
}
