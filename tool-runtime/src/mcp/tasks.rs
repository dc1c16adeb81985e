//! Tool calls as tasks (SEP-2663, the `io.modelcontextprotocol/tasks` extension): a call to a
//! `#[tool(task)]` tool from a client that declared the extension is answered at once with a
//! `CreateTaskResult`, runs on, and is read with `tasks/get` or stopped with `tasks/cancel`.
//!
//! The server alone decides which calls become tasks (a tool's
//! [`TaskSupport`](crate::spec::TaskSupport)); rmcp's handler answers `-32021` to `tasks/*`
//! from a client that didn't declare the extension, and `-32601` to the removed
//! `tasks/result` and `tasks/list`.

use super::server::McpServer;
use super::task_store::{Owner, TaskStore};
use crate::error::ErrorCode;
use crate::spec::TaskSupport;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities,
    CreateTaskResult, ErrorData, GetTaskParams, GetTaskResult, JsonObject, TaskPayload,
    UpdateTaskParams,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;
use std::time::Duration;

/// How long a task is kept after it is created, unless [`McpServer::task_ttl`] says otherwise.
pub(crate) const DEFAULT_TTL: Duration = Duration::from_secs(10 * 60);
/// How many tasks a server keeps at once, unless [`McpServer::max_tasks`] says otherwise.
pub(crate) const DEFAULT_MAX: usize = 1024;
/// How often a client is asked to poll `tasks/get`.
const POLL_INTERVAL: Duration = Duration::from_millis(500);

/// A server's task store, with the defaults.
pub(crate) fn default_store() -> TaskStore {
    TaskStore::new(DEFAULT_TTL, POLL_INTERVAL, DEFAULT_MAX)
}

/// The store with another TTL or cap (the builder methods), keeping the other setting.
pub(crate) fn store_with(ttl: Duration, max: usize) -> TaskStore {
    TaskStore::new(ttl, POLL_INTERVAL, max.max(1))
}

impl McpServer {
    /// Whether any tool may run as a task: then the server advertises the extension.
    pub(crate) fn has_task_tools(&self) -> bool {
        self.registry()
            .specs()
            .any(|spec| spec.flags().task != TaskSupport::Forbidden)
    }

    /// Starts the call as a task when its tool and the client allow it: the
    /// `CreateTaskResult` to answer with, or `None` to run the call as usual. A
    /// `task = "required"` tool called by a client without the extension is the spec's
    /// `-32021` error, naming the capability it needs.
    pub(crate) fn call_as_task(
        &self,
        request: &CallToolRequestParams,
        cx: &RequestContext<RoleServer>,
    ) -> Result<Option<CallToolResponse>, ErrorData> {
        let support = self
            .registry()
            .get(&request.name)
            .map_or(TaskSupport::Forbidden, |spec| spec.flags().task);
        let declared = cx
            .client_capabilities()
            .is_some_and(|caps| caps.supports_tasks());
        match (support, declared) {
            (TaskSupport::Forbidden, _) | (TaskSupport::Optional, false) => return Ok(None),
            (TaskSupport::Required, false) => {
                return Err(ErrorData::missing_required_client_capability(
                    ClientCapabilities::builder().enable_tasks().build(),
                ))
            }
            (_, true) => {}
        }
        let (task, cancel) = self
            .tasks
            .create(owner(cx))
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        // The call runs on after this request is answered: its own context, cancelled by
        // `tasks/cancel` or the task's expiry instead of by the request's end.
        let mut call_cx = cx.clone();
        call_cx.ct = cancel;
        let (server, request, id) = (self.clone(), request.clone(), task.task_id.clone());
        tokio::spawn(async move {
            let ran = server.run_call(request, call_cx, None).await;
            let outcome = match ran.and_then(|(call, output)| super::server::finish(call, output)) {
                Ok((call, output)) => match output.as_error() {
                    // A panic is the server failing, not the tool reporting an error: the
                    // spec's `failed` status, with the JSON-RPC error it would have been.
                    Some(error) if error.code == ErrorCode::Panicked => TaskPayload::Failed {
                        error: object(ErrorData::internal_error(error.message.clone(), None)),
                    },
                    _ => TaskPayload::Completed {
                        result: object(server.call_result(&call, output)),
                    },
                },
                Err(error) => TaskPayload::Failed {
                    error: object(error),
                },
            };
            server.tasks.finish(&id, outcome);
        });
        Ok(Some(CallToolResponse::Task(CreateTaskResult::new(task))))
    }

    /// `tasks/get`: the task with its result or error inlined once it has settled.
    pub(crate) fn get_task_state(
        &self,
        request: &GetTaskParams,
        cx: &RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.tasks
            .get(&request.task_id, &owner(cx))
            .map(GetTaskResult::new)
            .ok_or_else(|| unknown_task(&request.task_id))
    }

    /// `tasks/cancel`: stops a running task's call; a settled task is acknowledged as is.
    pub(crate) fn cancel_task_call(
        &self,
        request: &CancelTaskParams,
        cx: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks
            .cancel(&request.task_id, &owner(cx))
            .ok_or_else(|| unknown_task(&request.task_id))
    }

    /// `tasks/update`: our tasks never wait for input, so every response is one the spec says
    /// to ignore; an unknown task is still an error.
    pub(crate) fn update_task_inputs(
        &self,
        request: &UpdateTaskParams,
        cx: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks
            .get(&request.task_id, &owner(cx))
            .map(drop)
            .ok_or_else(|| unknown_task(&request.task_id))
    }
}

/// The HTTP session the request came on, if the protocol has one: only it sees the task.
fn owner(cx: &RequestContext<RoleServer>) -> Owner {
    let parts = cx.extensions.get::<hyper::http::request::Parts>()?;
    let session = parts.headers.get("mcp-session-id")?;
    session.to_str().ok().map(str::to_owned)
}

fn unknown_task(id: &str) -> ErrorData {
    ErrorData::invalid_params(format!("unknown task {id:?} (or it has expired)"), None)
}

/// A result or error as the JSON object a `DetailedTask` inlines.
fn object(value: impl serde::Serialize) -> JsonObject {
    match serde_json::to_value(value) {
        Ok(Value::Object(object)) => object,
        // Both types serialize to objects; this is only what the types can't promise.
        Ok(_) | Err(_) => JsonObject::default(),
    }
}

#[cfg(test)]
mod tests {
    use crate::mcp::{HttpOptions, HttpServer, McpServer};
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

    /// A 2026-07-28 request (sessionless: capabilities in `_meta`), posted and answered.
    fn post(addr: std::net::SocketAddr, method: &str, params: Value, tasks: bool) -> Value {
        use std::io::{Read, Write};
        let capabilities = if tasks {
            json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
        } else {
            json!({})
        };
        let mut params = params;
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        });
        let name = params
            .get("name")
            .or_else(|| params.get("taskId"))
            .and_then(Value::as_str)
            .map(|name| format!("Mcp-Name: {name}\r\n"))
            .unwrap_or_default();
        let body =
            json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n{name}Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream.write_all(head.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        // A result comes as an SSE event, an error refused early as a plain JSON body.
        let data = answer
            .lines()
            .find_map(|line| {
                let line = line.strip_prefix("data: ").unwrap_or(line);
                line.starts_with('{').then_some(line)
            })
            .unwrap_or_else(|| panic!("no JSON-RPC answer in {answer}"));
        serde_json::from_str(data).unwrap()
    }

    async fn serve(
        tools: Vec<DynamicTool>,
    ) -> (std::net::SocketAddr, tokio_util::sync::CancellationToken) {
        let registry = tools
            .into_iter()
            .fold(Registry::builder().without_inventory(), |b, t| b.dynamic(t))
            .build()
            .unwrap();
        let server = McpServer::new(registry);
        let http = HttpServer::bind(
            server,
            "127.0.0.1:0".parse().unwrap(),
            HttpOptions::default(),
        )
        .await
        .unwrap();
        let (addr, stop) = (http.local_addr(), http.stop_token());
        tokio::spawn(http.run());
        (addr, stop)
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
            let created = post(
                addr,
                "tools/call",
                json!({"name": "wait", "arguments": {"ms": 60_000}}),
                true,
            );
            let id = created["result"]["taskId"].as_str().unwrap().to_owned();
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
}
