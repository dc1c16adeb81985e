//! What a client may keep in a server's tasks (issue 33, items 3, 4, 7 and 8), driven over
//! HTTP with raw requests: classic sessions and sessionless 2026-07-28 clients side by side.

use crate::spec::{TaskSupport, ToolFlags};
use crate::{DynamicTool, Registry, ToolOutput};
use crate::{HttpOptions, HttpServer, McpServer};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;
use tool_test_support::sessionless::{exchange, message};

/// The tasks extension, as a client declares it.
fn tasks_extension() -> Value {
    json!({"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}})
}

/// A tool that may run as a task: waits `ms` milliseconds, or asks one question first when
/// `ask` is set (and then waits on its client). Sets `stopped` if its future is dropped
/// before it ends.
fn waiting_tool(name: &str, flags: ToolFlags, stopped: Arc<AtomicBool>) -> DynamicTool {
    DynamicTool::new(
        name,
        "Waits, or asks then waits.",
        json!({"type": "object", "properties": {
            "ms": {"type": "integer"}, "ask": {"type": "boolean"}, "pad": {"type": "string"}
        }}),
        move |args, cx| {
            let stopped = Arc::clone(&stopped);
            async move {
                let mut finished = Finished(stopped, false);
                if args["ask"].as_bool() == Some(true) {
                    let schema = json!({"type": "object", "properties": {}});
                    if let Err(error) = cx.ask("go").elicit_json("Go on?", &schema).await {
                        finished.1 = true;
                        return ToolOutput::error(
                            crate::error::ErrorCode::ToolFailed,
                            error.to_string(),
                        );
                    }
                }
                let became_task = cx.continue_as_task();
                let ms = args["ms"].as_u64().unwrap_or(0);
                tokio::time::sleep(Duration::from_millis(ms)).await;
                finished.1 = true;
                ToolOutput::text(format!("waited {ms} ms (task: {became_task})"))
            }
        },
    )
    .with_flags(flags)
}

/// Sets its flag when dropped before the call ended: the call was stopped.
struct Finished(Arc<AtomicBool>, bool);

impl Drop for Finished {
    fn drop(&mut self) {
        if !self.1 {
            self.0.store(true, Ordering::SeqCst);
        }
    }
}

fn flags(task: TaskSupport, defer_task: bool) -> ToolFlags {
    ToolFlags {
        parallel: Some(true),
        task,
        defer_task,
        ..ToolFlags::default()
    }
}

/// Serves `server` on 127.0.0.1 over HTTP.
async fn serve(server: McpServer) -> (SocketAddr, CancellationToken) {
    let http = HttpServer::bind(server, ([127, 0, 0, 1], 0).into(), HttpOptions::default())
        .await
        .unwrap();
    let (addr, stop) = (http.local_addr(), http.stop_token());
    tokio::spawn(http.run());
    (addr, stop)
}

fn registry(tools: Vec<DynamicTool>) -> Registry {
    tools
        .into_iter()
        .fold(Registry::builder().without_inventory(), |b, t| b.dynamic(t))
        .build()
        .unwrap()
}

/// A 2026-07-28 request from a client with the tasks extension, with `headers` (each ending
/// in `\r\n`) beside the protocol's own; from a blocking thread.
fn post_with(addr: SocketAddr, method: &str, params: Value, headers: &str) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": tasks_extension(),
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
    });
    let name = ["name", "taskId"]
        .iter()
        .find_map(|key| params.get(*key).and_then(Value::as_str))
        .map(|name| format!("Mcp-Name: {name}\r\n"))
        .unwrap_or_default();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n{name}{headers}Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let answer = tokio::runtime::Handle::current().block_on(exchange(addr, &request));
    message(&answer).unwrap_or_else(|| panic!("no JSON-RPC answer in {answer}"))
}

fn post(addr: SocketAddr, method: &str, params: Value) -> Value {
    post_with(addr, method, params, "")
}

/// A classic (2025-11-25) session that declared the tasks extension at `initialize`.
struct Session {
    addr: SocketAddr,
    id: String,
}

impl Session {
    fn open(addr: SocketAddr) -> Session {
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": tasks_extension(),
            "clientInfo": {"name": "classic", "version": "1"},
        }});
        let (answer, id) = Session::send(addr, "POST", &init.to_string(), None);
        let id = id.unwrap_or_else(|| panic!("no session: {answer}"));
        let session = Session { addr, id };
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        session.raw("POST", &initialized.to_string());
        session
    }

    /// A request in the session: its JSON-RPC answer.
    fn request(&self, method: &str, params: Value) -> Value {
        let body = json!({"jsonrpc": "2.0", "id": 2, "method": method, "params": params});
        let answer = self.raw("POST", &body.to_string());
        message(&answer).unwrap_or_else(|| panic!("no JSON-RPC answer in {answer}"))
    }

    fn raw(&self, method: &str, body: &str) -> String {
        Session::send(self.addr, method, body, Some(&self.id)).0
    }

    /// One exchange: the whole answer and the session id it gave.
    fn send(
        addr: SocketAddr,
        method: &str,
        body: &str,
        session: Option<&str>,
    ) -> (String, Option<String>) {
        let session = session.map_or_else(String::new, |id| {
            format!("Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: 2025-11-25\r\n")
        });
        let request = format!(
            "{method} /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{session}Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let answer = tokio::runtime::Handle::current().block_on(exchange(addr, &request));
        let id = answer.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        });
        (answer, id)
    }
}

/// The task id of a `tools/call` answered with a task.
fn task_id(created: &Value) -> String {
    created["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("no task: {created}"))
        .to_owned()
}

/// Polls `tasks/get` (sessionless) until the task has settled (at most 10 s).
fn settled(addr: SocketAddr, id: &str) -> Value {
    let start = Instant::now();
    loop {
        let got = post(addr, "tasks/get", json!({"taskId": id}));
        if !matches!(got["result"]["status"].as_str(), Some("working")) {
            return got;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{got}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits (at most 10 s) until `flag` is set.
async fn set_within(flag: &AtomicBool, what: &str) {
    let start = Instant::now();
    while !flag.load(Ordering::SeqCst) {
        assert!(start.elapsed() < Duration::from_secs(10), "{what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Item 3: one client's settled tasks filled every slot, and another client's calls were
/// refused until they expired. Settled tasks make way first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_clients_settled_tasks_make_way_for_another_client() {
    let stopped = Arc::new(AtomicBool::new(false));
    let tool = waiting_tool("wait", flags(TaskSupport::Optional, false), stopped);
    let (addr, stop) = serve(McpServer::new(registry(vec![tool])).max_tasks(4)).await;
    tokio::task::spawn_blocking(move || {
        // The attacker: zero-second tasks until the store is full, each settled.
        for _ in 0..4 {
            let id = task_id(&post(
                addr,
                "tools/call",
                json!({"name": "wait", "arguments": {}}),
            ));
            assert_eq!(settled(addr, &id)["result"]["status"], "completed");
        }
        let session = Session::open(addr);
        let theirs = session.request("tools/call", json!({"name": "wait", "arguments": {}}));
        assert_eq!(theirs["result"]["resultType"], "task", "{theirs}");
    })
    .await
    .unwrap();
    stop.cancel();
}

/// Item 3: a `task = "required"` + `defer_task` call whose `continue_as_task` found the store
/// full ran on as a plain call; it is an error now, and the call is stopped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn continuing_as_a_task_into_a_full_store_is_an_error() {
    let (held, deferred_stopped) = (Arc::default(), Arc::new(AtomicBool::new(false)));
    let tools = vec![
        waiting_tool("hold", flags(TaskSupport::Optional, false), held),
        waiting_tool(
            "later",
            flags(TaskSupport::Required, true),
            Arc::clone(&deferred_stopped),
        ),
    ];
    let (addr, stop) = serve(McpServer::new(registry(tools)).max_tasks(1)).await;
    tokio::task::spawn_blocking(move || {
        let running = post(
            addr,
            "tools/call",
            json!({"name": "hold", "arguments": {"ms": 60_000}}),
        );
        task_id(&running);
        let refused = post(
            addr,
            "tools/call",
            json!({"name": "later", "arguments": {"ms": 60_000}}),
        );
        assert_eq!(refused["error"]["code"], -32603, "{refused}");
        let why = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(why.contains("too many tasks"), "{refused}");
    })
    .await
    .unwrap();
    set_within(&deferred_stopped, "the refused call still runs").await;
    stop.cancel();
}

/// Item 4: tasks waiting on their client kept their arguments (up to the body limit) for
/// the whole TTL, with no connection open: the bytes a client's tasks keep are bounded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bytes_a_clients_tasks_keep_are_bounded() {
    let tool = waiting_tool("ask", flags(TaskSupport::Optional, false), Arc::default());
    let (addr, stop) = serve(McpServer::new(registry(vec![tool]))).await;
    tokio::task::spawn_blocking(move || {
        // Just under the registry's 1 MiB limit on a call's arguments.
        let pad = "x".repeat((1 << 20) - 1024);
        let mut kept = Vec::new();
        let refused = loop {
            let arguments = json!({"ask": true, "ms": 0, "pad": pad});
            let answer = post(
                addr,
                "tools/call",
                json!({"name": "ask", "arguments": arguments}),
            );
            if answer.get("error").is_some() {
                break answer;
            }
            kept.push(task_id(&answer));
            // Still waiting (its arguments held), not settled by a refusal.
            let first = post(addr, "tasks/get", json!({"taskId": kept[0]}));
            let status = first["result"]["status"].as_str();
            assert!(
                matches!(status, Some("working" | "input_required")),
                "{first}"
            );
            assert!(kept.len() <= 16, "16 MiB of waiting tasks kept");
        };
        let why = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(why.contains("this client's tasks have"), "{refused}");
        // The default budget, 8 MiB: eight such tasks fit with their questions, a ninth
        // does not.
        assert_eq!(kept.len(), 8, "{refused}");
        // A cancelled task gives its arguments' bytes back: room for one more.
        post(addr, "tasks/cancel", json!({"taskId": kept[0]}));
        let arguments = json!({"ask": true, "ms": 0, "pad": pad});
        let again = post(
            addr,
            "tools/call",
            json!({"name": "ask", "arguments": arguments}),
        );
        task_id(&again);
    })
    .await
    .unwrap();
    stop.cancel();
}

/// Item 7: expired tasks were dropped only when a later request came, so with none a task
/// ran past its TTL to its end. Its call is stopped at the TTL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_is_stopped_at_its_ttl_with_no_request_coming() {
    let stopped = Arc::new(AtomicBool::new(false));
    let tool = waiting_tool(
        "wait",
        flags(TaskSupport::Optional, false),
        Arc::clone(&stopped),
    );
    let server = McpServer::new(registry(vec![tool])).task_ttl(Duration::from_millis(300));
    let (addr, stop) = serve(server).await;
    tokio::task::spawn_blocking(move || {
        task_id(&post(
            addr,
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 60_000}}),
        ));
    })
    .await
    .unwrap();
    set_within(&stopped, "the task ran past its TTL").await;
    stop.cancel();
}

/// Item 8: after a session ended, a sessionless request carrying its id read its task and
/// answered it. A session's end cancels and drops its tasks, and a dead session owns none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sessions_end_cancels_and_drops_its_tasks() {
    let stopped = Arc::new(AtomicBool::new(false));
    let tool = waiting_tool(
        "ask",
        flags(TaskSupport::Optional, false),
        Arc::clone(&stopped),
    );
    let (addr, stop) = serve(McpServer::new(registry(vec![tool]))).await;
    tokio::task::spawn_blocking(move || {
        let session = Session::open(addr);
        let created = session.request(
            "tools/call",
            json!({"name": "ask", "arguments": {"ask": true, "ms": 60_000}}),
        );
        let id = task_id(&created);
        let mine = session.request("tasks/get", json!({"taskId": id}));
        assert!(mine.get("result").is_some(), "{mine}");
        let ended = session.raw("DELETE", "");
        assert!(ended.starts_with("HTTP/1.1 200"), "{ended}");

        let dead = format!("Mcp-Session-Id: {}\r\n", session.id);
        let read = post_with(addr, "tasks/get", json!({"taskId": id}), &dead);
        assert_eq!(read["error"]["code"], -32602, "{read}");
        let answers =
            json!({"taskId": id, "inputResponses": {"go": {"action": "accept", "content": {}}}});
        let answered = post_with(addr, "tasks/update", answers, &dead);
        assert_eq!(answered["error"]["code"], -32602, "{answered}");
        // A task started on the dead id belongs to no session: sessionless.
        let call = json!({"name": "ask", "arguments": {"ms": 0}});
        let created = post_with(addr, "tools/call", call, &dead);
        let done = settled(addr, &task_id(&created));
        assert_eq!(done["result"]["status"], "completed", "{done}");
    })
    .await
    .unwrap();
    set_within(&stopped, "the dead session's task still runs").await;
    stop.cancel();
}
