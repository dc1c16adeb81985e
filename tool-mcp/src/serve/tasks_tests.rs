//! Tasks served over HTTP, driven with raw 2026-07-28 requests.

use crate::spec::{TaskSupport, ToolFlags};
use crate::{DynamicTool, Registry, ToolOutput};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Sets its flag when dropped unfinished: the tool's future was stopped.
struct Stopped(Arc<AtomicBool>, bool);

impl Drop for Stopped {
    fn drop(&mut self) {
        if !self.1 {
            self.0.store(true, Ordering::SeqCst);
        }
    }
}

fn tool(name: &str, task: TaskSupport, stopped: Arc<AtomicBool>) -> DynamicTool {
    let flags = ToolFlags {
        parallel: Some(true),
        task,
        ..ToolFlags::default()
    };
    DynamicTool::new(
        name,
        "Waits `ms` milliseconds.",
        json!({"type": "object", "properties": {"ms": {"type": "integer"}}}),
        move |args, _| {
            let guard = Stopped(Arc::clone(&stopped), false);
            async move {
                // Moved whole: the block would otherwise capture only the field it sets.
                let mut guard = guard;
                let ms = args["ms"].as_u64().unwrap_or(0);
                tokio::time::sleep(Duration::from_millis(ms)).await;
                guard.1 = true;
                ToolOutput::text(format!("waited {ms} ms"))
            }
        },
    )
    .with_flags(flags)
}

/// A 2026-07-28 request (sessionless: capabilities in `_meta`), posted and answered, from a
/// blocking thread: a client that declared elicitation, and the tasks extension if `tasks`.
fn post(addr: std::net::SocketAddr, method: &str, params: Value, tasks: bool) -> Value {
    let capabilities = if tasks {
        json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
    } else {
        json!({"elicitation": {}})
    };
    let posted = tool_test_support::sessionless::post(addr, method, params, capabilities);
    tokio::runtime::Handle::current().block_on(posted)
}

/// Calls `tool` as a client with the tasks extension, and gives the id of the task it
/// started.
fn started(addr: std::net::SocketAddr, tool: &str, arguments: Value) -> String {
    let created = post(
        addr,
        "tools/call",
        json!({"name": tool, "arguments": arguments}),
        true,
    );
    let id = created["result"]["taskId"].as_str();
    id.unwrap_or_else(|| panic!("no task: {created}"))
        .to_owned()
}

async fn serve(
    tools: Vec<DynamicTool>,
) -> (std::net::SocketAddr, tokio_util::sync::CancellationToken) {
    let registry = tools
        .into_iter()
        .fold(Registry::builder().without_inventory(), |b, t| b.dynamic(t))
        .build()
        .unwrap();
    crate::transport::http::serve_loopback(registry).await
}

/// Polls `tasks/get` until the task settles (at most 10 s).
fn settled(addr: std::net::SocketAddr, id: &str) -> Value {
    let start = Instant::now();
    loop {
        let got = post(addr, "tasks/get", json!({"taskId": id}), true);
        let status = got["result"]["status"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if status != "working" {
            return got["result"].clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "still working: {got}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_runs_on_and_its_result_is_read_with_tasks_get() {
    let stopped = Arc::new(AtomicBool::new(false));
    let (addr, stop) = serve(vec![tool(
        "wait",
        TaskSupport::Optional,
        Arc::clone(&stopped),
    )])
    .await;
    tokio::task::spawn_blocking(move || {
        let created = post(
            addr,
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 50}}),
            true,
        );
        let result = &created["result"];
        assert_eq!(result["resultType"], "task", "{created}");
        assert_eq!(result["status"], "working");
        assert_eq!(result["ttlMs"], 600_000);
        let done = settled(addr, result["taskId"].as_str().unwrap());
        assert_eq!(done["status"], "completed", "{done}");
        assert_eq!(done["resultType"], "complete");
        assert_eq!(done["result"]["content"][0]["text"], "waited 50 ms");

        // A client without the extension gets the result itself.
        let plain = post(
            addr,
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 0}}),
            false,
        );
        assert_eq!(
            plain["result"]["content"][0]["text"], "waited 0 ms",
            "{plain}"
        );
        assert!(plain["result"].get("taskId").is_none());
    })
    .await
    .unwrap();
    assert!(!stopped.load(Ordering::SeqCst));
    stop.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_task_stops_its_call() {
    let stopped = Arc::new(AtomicBool::new(false));
    let (addr, stop) = serve(vec![tool(
        "wait",
        TaskSupport::Optional,
        Arc::clone(&stopped),
    )])
    .await;
    tokio::task::spawn_blocking(move || {
        let id = started(addr, "wait", json!({"ms": 60_000}));
        let ack = post(addr, "tasks/cancel", json!({"taskId": id}), true);
        assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
        assert_eq!(settled(addr, &id)["status"], "cancelled");
        let unknown = post(addr, "tasks/get", json!({"taskId": "no-such-task"}), true);
        assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    })
    .await
    .unwrap();
    // The tool's future is dropped once the cancellation reaches the dispatcher.
    let start = Instant::now();
    while !stopped.load(Ordering::SeqCst) {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the call still runs"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    stop.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_task_needs_a_client_with_the_extension() {
    let stopped = Arc::new(AtomicBool::new(false));
    let (addr, stop) = serve(vec![tool("job", TaskSupport::Required, stopped)]).await;
    tokio::task::spawn_blocking(move || {
        let refused = post(
            addr,
            "tools/call",
            json!({"name": "job", "arguments": {}}),
            false,
        );
        assert_eq!(refused["error"]["code"], -32021, "{refused}");
        let extensions = &refused["error"]["data"]["requiredCapabilities"]["extensions"];
        assert!(
            extensions.get("io.modelcontextprotocol/tasks").is_some(),
            "{refused}"
        );
    })
    .await
    .unwrap();
    stop.cancel();
}

/// Asks `asks` questions at once (an `ok` boolean each), then says which were yes; a
/// `defer_task` tool continues as a task after its answers, and runs as one from its start
/// otherwise.
fn asking(name: &str, asks: usize, defer_task: bool) -> DynamicTool {
    let flags = ToolFlags {
        parallel: Some(true),
        task: TaskSupport::Optional,
        defer_task,
        ..ToolFlags::default()
    };
    DynamicTool::new(
        name,
        "Asks for confirmations.",
        json!({"type": "object", "properties": {}}),
        move |_, cx| async move {
            let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}});
            let questions = (1..=asks).map(|n| {
                let (cx, schema) = (&cx, &schema);
                async move { cx.ask(format!("q{n}")).elicit_json("Sure?", schema).await }
            });
            let answers = match futures_util::future::try_join_all(questions).await {
                Ok(answers) => answers,
                Err(error) => {
                    return ToolOutput::error(
                        crate::error::ErrorCode::ToolFailed,
                        error.to_string(),
                    )
                }
            };
            let yes: Vec<String> = answers
                .iter()
                .map(|a| {
                    a.clone()
                        .accepted()
                        .map_or(Value::Null, |v| v["ok"].clone())
                        .to_string()
                })
                .collect();
            let became_task = cx.continue_as_task();
            ToolOutput::text(format!("{} (task: {became_task})", yes.join(" ")))
        },
    )
    .with_flags(flags)
}

/// Polls `tasks/get` until the task waits on its client with `keys` (at most 10 s).
fn waiting(addr: std::net::SocketAddr, id: &str, keys: &[&str]) -> Value {
    let start = Instant::now();
    loop {
        let got = post(addr, "tasks/get", json!({"taskId": id}), true)["result"].clone();
        let waiting: Vec<&str> = got["inputRequests"]
            .as_object()
            .map(|requests| requests.keys().map(String::as_str).collect())
            .unwrap_or_default();
        if got["status"] == "input_required" && waiting == keys {
            return got;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "not waiting on {keys:?}: {got}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn yes() -> Value {
    json!({"action": "accept", "content": {"ok": true}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_waits_for_its_answers_and_takes_them_one_at_a_time() {
    let (addr, stop) = serve(vec![asking("confirm", 2, false)]).await;
    tokio::task::spawn_blocking(move || {
        let id = started(addr, "confirm", json!({}));
        let got = waiting(addr, &id, &["q1", "q2"]);
        assert_eq!(
            got["inputRequests"]["q1"]["method"], "elicitation/create",
            "{got}"
        );
        assert_eq!(got["inputRequests"]["q1"]["params"]["message"], "Sure?");

        // An answer that isn't an elicitation result is refused, and nothing is taken.
        let bad = post(
            addr,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"q1": {"ok": true}, "q2": yes()}}),
            true,
        );
        assert_eq!(bad["error"]["code"], -32602, "{bad}");
        assert!(
            bad["error"]["message"].as_str().unwrap().contains("q1"),
            "{bad}"
        );
        waiting(addr, &id, &["q1", "q2"]);

        // One answer (and a key nobody asked, ignored): the other question still waits.
        let ack = post(
            addr,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"q2": yes(), "nobody-asked": {}}}),
            true,
        );
        assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
        waiting(addr, &id, &["q1"]);

        let no = json!({"action": "accept", "content": {"ok": false}});
        post(
            addr,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"q1": no}}),
            true,
        );
        let done = settled(addr, &id);
        assert_eq!(done["status"], "completed", "{done}");
        assert_eq!(
            done["result"]["content"][0]["text"],
            "false true (task: true)"
        );
        assert!(done.get("inputRequests").is_none(), "{done}");

        let unknown = post(
            addr,
            "tasks/update",
            json!({"taskId": "no-such-task", "inputResponses": {}}),
            true,
        );
        assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    })
    .await
    .unwrap();
    stop.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_task_that_waits_for_input_ends_it() {
    let (addr, stop) = serve(vec![asking("confirm", 1, false)]).await;
    tokio::task::spawn_blocking(move || {
        let id = started(addr, "confirm", json!({}));
        waiting(addr, &id, &["q1"]);
        post(addr, "tasks/cancel", json!({"taskId": id}), true);
        let done = settled(addr, &id);
        assert_eq!(done["status"], "cancelled", "{done}");
        assert!(done.get("inputRequests").is_none(), "{done}");
        // An answer after the end is no answer: acknowledged, and the task stays cancelled.
        post(
            addr,
            "tasks/update",
            json!({"taskId": id, "inputResponses": {"q1": yes()}}),
            true,
        );
        assert_eq!(settled(addr, &id)["status"], "cancelled");
    })
    .await
    .unwrap();
    stop.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deferred_task_asks_in_rounds_then_answers_with_the_task() {
    let (addr, stop) = serve(vec![asking("later", 1, true)]).await;
    tokio::task::spawn_blocking(move || {
        // Round 1: a plain input-required result, no task yet.
        let first = post(addr, "tools/call", json!({"name": "later", "arguments": {}}), true);
        let result = &first["result"];
        assert_eq!(result["resultType"], "input_required", "{first}");
        assert!(result.get("taskId").is_none(), "{first}");
        assert_eq!(result["inputRequests"]["q1"]["method"], "elicitation/create");
        let state = result["requestState"].clone();

        // Round 2, answered: the tool continues as a task, which ends with the answer.
        let second = post(
            addr,
            "tools/call",
            json!({"name": "later", "arguments": {}, "inputResponses": {"q1": yes()}, "requestState": state}),
            true,
        );
        let result = &second["result"];
        assert_eq!(result["resultType"], "task", "{second}");
        assert!(result.get("requestState").is_none(), "{second}");
        assert!(result.get("inputRequests").is_none(), "{second}");
        let done = settled(addr, result["taskId"].as_str().unwrap());
        assert_eq!(done["status"], "completed", "{done}");
        assert_eq!(done["result"]["content"][0]["text"], "true (task: true)");

        // A client without the extension: the same tool is a plain call all through.
        let plain = post(
            addr,
            "tools/call",
            json!({"name": "later", "arguments": {}, "inputResponses": {"q1": yes()}, "requestState": state}),
            false,
        );
        assert_eq!(plain["result"]["content"][0]["text"], "true (task: false)", "{plain}");
    })
    .await
    .unwrap();
    stop.cancel();
}

#[cfg(feature = "redis")]
#[path = "tasks_redis_tests.rs"]
mod redis;
