//! A question out to a client never holds the registry's gate, and never waits past its
//! deadline: a client that calls an asking tool and never answers (over a session, or through
//! a task waiting in `input_required`) stops no other client's calls, and its own call ends
//! with `AskError::TimedOut` once the server's `ask_timeout` has passed. And an answer sealed
//! in a 2026-07-28 `requestState` can't be replaced by a later round's `inputResponses`.
//!
//! Served over HTTP on 127.0.0.1; the clients are rmcp's (through `McpImport`, each its own
//! session) and raw 2026-07-28 requests (sessionless).
#![cfg(feature = "mcp")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;
use tool_runtime::client::Elicitation;
use tool_runtime::mcp::{HttpOptions, HttpServer, McpImport, McpServer};
use tool_runtime::{tool, Registry, ToolContext, ToolError};
use tool_test_support::sessionless::post;

mod serving;
use serving::bounded;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Sure {
    /// Go ahead?
    sure: bool,
}

/// Deletes something once the user says so: not `parallel`, so it runs alone.
#[tool(task)]
async fn delete(cx: ToolContext) -> Result<String, ToolError> {
    Ok(match cx.elicit::<Sure>("Delete it?").await? {
        Elicitation::Accept(Sure { sure: true }) => "deleted".into(),
        _ => "kept".into(),
    })
}

/// Writes: not `parallel`, so it needs the gate to itself.
#[tool]
async fn write() -> String {
    "written".into()
}

/// Reads: `parallel`, so it shares the gate.
#[tool(parallel)]
async fn read() -> String {
    "read".into()
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Word {
    /// A word.
    word: String,
}

/// Asks two questions in turn, each in its own round under 2026-07-28, and says both answers.
#[tool(parallel)]
async fn two_words(cx: ToolContext) -> Result<String, ToolError> {
    let mut words = Vec::new();
    for key in ["first", "second"] {
        match cx
            .ask(key)
            .elicit::<Word>(format!("The {key} word?"))
            .await?
        {
            Elicitation::Accept(Word { word }) => words.push(format!("{key}={word}")),
            other => words.push(format!("{key}:{}", other.action())),
        }
    }
    Ok(words.join(", "))
}

/// Serves the tools on 127.0.0.1 with questions waiting at most `ask_timeout`.
async fn serve(ask_timeout: Duration) -> SocketAddr {
    let registry = Registry::builder()
        .without_inventory()
        .register(delete::TOOL)
        .register(write::TOOL)
        .register(read::TOOL)
        .register(two_words::TOOL)
        .build()
        .unwrap();
    let server = McpServer::new(registry).ask_timeout(ask_timeout);
    let http = HttpServer::bind(
        server,
        "127.0.0.1:0".parse().unwrap(),
        HttpOptions::default(),
    )
    .await
    .unwrap();
    let addr = http.local_addr();
    tokio::spawn(http.run());
    addr
}

/// A session whose user is asked and never answers; `asked` is told when a question comes.
async fn silent_client(addr: SocketAddr, asked: Arc<Notify>) -> Registry {
    let import = McpImport::http(format!("http://{addr}/mcp"))
        .named("far")
        .on_elicitation(move |_| {
            let asked = Arc::clone(&asked);
            async move {
                asked.notify_one();
                std::future::pending().await
            }
        });
    let tools = bounded(30, import.connect()).await.unwrap();
    Registry::builder()
        .without_inventory()
        .mcp_tools(tools)
        .build()
        .unwrap()
}

/// Another session, which answers nothing and asks only tools that don't ask.
async fn other_client(addr: SocketAddr) -> Registry {
    let import = McpImport::http(format!("http://{addr}/mcp")).named("far");
    let tools = bounded(30, import.connect()).await.unwrap();
    Registry::builder()
        .without_inventory()
        .mcp_tools(tools)
        .build()
        .unwrap()
}

/// Issue 33, item 1: the silent client's call holds nothing while its question is out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unanswered_question_stops_no_other_clients_calls() {
    let addr = serve(Duration::from_secs(600)).await;
    let asked = Arc::new(Notify::new());
    let silent = silent_client(addr, Arc::clone(&asked)).await;
    let waiting = tokio::spawn(async move { silent.call("far__delete", "{}").await });
    bounded(30, asked.notified()).await;

    let other = other_client(addr).await;
    // One at a time, then many at once, exclusive and parallel mixed.
    for _ in 0..3 {
        let written = bounded(30, other.call("far__write", "{}")).await;
        assert_eq!(written.to_model_text(), "written");
        let read = bounded(30, other.call("far__read", "{}")).await;
        assert_eq!(read.to_model_text(), "read");
    }
    let calls = (0..8).map(|i| {
        let name = if i % 2 == 0 {
            "far__write"
        } else {
            "far__read"
        };
        other.call(name, "{}")
    });
    let outputs = bounded(30, futures_util::future::join_all(calls)).await;
    for (i, output) in outputs.iter().enumerate() {
        let expected = if i % 2 == 0 { "written" } else { "read" };
        assert_eq!(output.to_model_text(), expected);
    }
    assert!(
        !waiting.is_finished(),
        "the question is still out, and the other client was answered all the same"
    );
    waiting.abort();
}

/// Issue 33, item 1: past the server's `ask_timeout` the tool gets `AskError::TimedOut`,
/// and the call ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unanswered_question_ends_at_its_deadline() {
    let addr = serve(Duration::from_millis(500)).await;
    let asked = Arc::new(Notify::new());
    let silent = silent_client(addr, Arc::clone(&asked)).await;
    let output = bounded(30, silent.call("far__delete", "{}")).await;
    assert!(output.is_error(), "{}", output.to_model_text());
    let text = output.to_model_text();
    assert!(
        text.contains("did not answer elicitation/create within 0.5 s"),
        "{text}"
    );
    // The call holds nothing after it: the next exclusive call passes.
    let other = other_client(addr).await;
    assert_eq!(
        bounded(30, other.call("far__write", "{}"))
            .await
            .to_model_text(),
        "written"
    );
}

/// A sessionless 2026-07-28 request from a client that declared elicitation and tasks.
async fn sessionless(addr: SocketAddr, method: &str, params: Value) -> Value {
    let capabilities =
        json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}});
    post(addr, method, params, capabilities).await
}

/// Starts `delete` as a task and waits (at most 10 s) until it waits on its question.
async fn task_waiting_for_input(addr: SocketAddr) -> String {
    let created = sessionless(addr, "tools/call", json!({"name": "delete"})).await;
    let id = created["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("no task: {created}"))
        .to_owned();
    bounded(10, async {
        loop {
            let got = sessionless(addr, "tasks/get", json!({"taskId": id})).await;
            if got["result"]["status"] == "input_required" {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    id
}

/// Issue 33, item 2: a task waiting in `input_required` holds nothing either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_waiting_for_input_stops_no_other_call() {
    let addr = serve(Duration::from_secs(600)).await;
    let id = task_waiting_for_input(addr).await;
    let written = sessionless(addr, "tools/call", json!({"name": "write"})).await;
    assert_eq!(
        written["result"]["content"][0]["text"], "written",
        "{written}"
    );
    let got = sessionless(addr, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(got["result"]["status"], "input_required", "{got}");
}

/// Issue 33, item 2: a task's question waits no longer than `ask_timeout` either: the task
/// settles with the tool's error, and no longer lists the question.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_question_ends_at_its_deadline() {
    let addr = serve(Duration::from_millis(500)).await;
    let id = task_waiting_for_input(addr).await;
    let settled = bounded(10, async {
        loop {
            let got = sessionless(addr, "tasks/get", json!({"taskId": id})).await;
            let status = got["result"]["status"].as_str().unwrap_or_default();
            if !matches!(status, "working" | "input_required") {
                return got["result"].clone();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert_eq!(settled["status"], "completed", "{settled}");
    assert_eq!(settled["result"]["isError"], true, "{settled}");
    let text = settled["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("did not answer elicitation/create"), "{text}");
    assert!(settled.get("inputRequests").is_none(), "{settled}");
}

fn word(word: &str) -> Value {
    json!({"action": "accept", "content": {"word": word}})
}

/// Issue 33, item 11: an answer sealed in `requestState` is the one the tool gets, whatever
/// a later round's `inputResponses` says under its key.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sealed_answer_wins_over_a_new_one_under_its_key() {
    let addr = serve(Duration::from_secs(600)).await;
    let call = json!({"name": "two_words"});
    let first = sessionless(addr, "tools/call", call.clone()).await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let mut second = call.clone();
    second["inputResponses"] = json!({"first": word("apple")});
    second["requestState"] = first["result"]["requestState"].clone();
    let second = sessionless(addr, "tools/call", second).await;
    let asked = &second["result"];
    assert_eq!(asked["resultType"], "input_required", "{second}");
    assert!(asked["inputRequests"].get("second").is_some(), "{second}");

    // The client answers the second question and "answers" the first again.
    let mut third = call;
    third["inputResponses"] = json!({"first": word("forged"), "second": word("pear")});
    third["requestState"] = asked["requestState"].clone();
    let third = sessionless(addr, "tools/call", third).await;
    assert_eq!(
        third["result"]["content"][0]["text"], "first=apple, second=pear",
        "{third}"
    );
}
