//! Tool calls as tasks (SEP-2663, the `io.modelcontextprotocol/tasks` extension): a call to a
//! `#[tool(task)]` tool from a client that declared the extension is answered at once with a
//! `CreateTaskResult`, runs on, and is read with `tasks/get` or stopped with `tasks/cancel`.
//! A `#[tool(task, defer_task)]` call runs as a plain call (input-required rounds and all)
//! until the tool calls `continue_as_task`, and is answered with the task then.
//!
//! A task's questions to its client wait in the task: `tasks/get` shows them
//! (`input_required`, `inputRequests`), and `tasks/update` brings the answers, each to the
//! question waiting for it, while the call waits where it asked.
//!
//! The server alone decides which calls become tasks (a tool's
//! [`TaskSupport`](crate::spec::TaskSupport)); rmcp's handler answers `-32021` to `tasks/*`
//! from a client that didn't declare the extension, and `-32601` to the removed
//! `tasks/result` and `tasks/list`.

use super::server::{finish, Ran};
use crate::error::ErrorCode;
use crate::spec::TaskSupport;
use crate::tasks::client::{DeferredTask, TaskClient};
use crate::tasks::json::{json_len, object};
use crate::tasks::limits::Limits;
use crate::tasks::limits::{said, AnswerError, TaskStoreError};
use crate::tasks::owner::{Owner, PeerAddress};
use crate::tasks::TaskStore;
use crate::McpServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities,
    CreateTaskResult, ErrorData, GetTaskParams, GetTaskResult, TaskPayload, UpdateTaskParams,
};
use rmcp::service::{RequestContext, RoleServer};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How often a client is asked to poll `tasks/get`.
const POLL_INTERVAL: Duration = Duration::from_millis(500);

/// What a server's tasks keep unless its builder methods say otherwise.
pub(crate) const DEFAULT_LIMITS: Limits = Limits {
    ttl: McpServer::DEFAULT_TASK_TTL,
    poll_interval: POLL_INTERVAL,
    max: McpServer::DEFAULT_MAX_TASKS,
    max_per_client: McpServer::DEFAULT_MAX_TASKS_PER_CLIENT,
    bytes: McpServer::DEFAULT_MAX_TASK_BYTES,
    bytes_per_client: McpServer::DEFAULT_MAX_TASK_BYTES_PER_CLIENT,
};

/// What a client may keep in a server's tasks: how many, how many bytes; each bound has a
/// default (`docs/mcp.md`, "Tasks", says what they come to).
impl McpServer {
    /// The default of [`task_ttl`](Self::task_ttl): 10 minutes.
    pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(10 * 60);
    /// The default of [`max_tasks`](Self::max_tasks).
    pub const DEFAULT_MAX_TASKS: usize = 1024;
    /// The default of [`max_tasks_per_client`](Self::max_tasks_per_client): a sixteenth of
    /// [`DEFAULT_MAX_TASKS`](Self::DEFAULT_MAX_TASKS), so that one client takes at most that
    /// share of the slots.
    pub const DEFAULT_MAX_TASKS_PER_CLIENT: usize = 64;
    /// The default of [`max_task_bytes`](Self::max_task_bytes): 64 MiB.
    pub const DEFAULT_MAX_TASK_BYTES: usize = 64 << 20;
    /// The default of [`max_task_bytes_per_client`](Self::max_task_bytes_per_client): 8 MiB,
    /// room for eight waiting tasks whose arguments are as large as a registry takes by
    /// default (1 MiB).
    pub const DEFAULT_MAX_TASK_BYTES_PER_CLIENT: usize = 8 << 20;

    /// How many tasks one client may keep at once (default
    /// [`DEFAULT_MAX_TASKS_PER_CLIENT`](Self::DEFAULT_MAX_TASKS_PER_CLIENT), at least 1): a
    /// client is its HTTP session, or its address for sessionless (2026-07-28) requests.
    /// Past it, the client's oldest settled task is dropped to make room, and when all its
    /// tasks still run a call that would start another is refused
    /// ([`TaskStoreError::ClientFull`](crate::TaskStoreError::ClientFull)): one client can't
    /// take every slot of [`max_tasks`](Self::max_tasks).
    #[must_use]
    pub fn max_tasks_per_client(self, max: usize) -> McpServer {
        let limits = self.tasks.limits();
        self.with_task_limits(Limits {
            max_per_client: max.max(1),
            ..limits
        })
    }

    /// How many bytes every task together may keep (default
    /// [`DEFAULT_MAX_TASK_BYTES`](Self::DEFAULT_MAX_TASK_BYTES)): a task keeps its
    /// arguments while its call runs, the questions it waits on, and its result once
    /// settled, each counted as its JSON length. Past it, the oldest settled tasks are
    /// dropped to make room; when only running tasks are left, a call that would start a
    /// task is refused and a question that would wait in one fails
    /// ([`TaskStoreError::Bytes`](crate::TaskStoreError::Bytes)), and a result that doesn't
    /// fit settles its task `failed`, saying so.
    #[must_use]
    pub fn max_task_bytes(self, bytes: usize) -> McpServer {
        let limits = self.tasks.limits();
        self.with_task_limits(Limits { bytes, ..limits })
    }

    /// How many bytes one client's tasks may keep (default
    /// [`DEFAULT_MAX_TASK_BYTES_PER_CLIENT`](Self::DEFAULT_MAX_TASK_BYTES_PER_CLIENT)),
    /// counted as [`max_task_bytes`](Self::max_task_bytes) counts them; past it the client's
    /// own oldest settled tasks make room first
    /// ([`TaskStoreError::ClientBytes`](crate::TaskStoreError::ClientBytes)).
    #[must_use]
    pub fn max_task_bytes_per_client(self, bytes: usize) -> McpServer {
        let limits = self.tasks.limits();
        self.with_task_limits(Limits {
            bytes_per_client: bytes,
            ..limits
        })
    }

    /// Where the server keeps its tasks (default [`TaskStore::memory`]): give every process
    /// of a fleet the same `TaskStore::redis` and any of them answers for any task (see
    /// `docs/mcp.md`, "A fleet of servers"). The limits set before or after apply to it;
    /// `max_tasks` and `max_tasks_per_client` count across every process sharing it.
    #[must_use]
    pub fn task_store(mut self, store: TaskStore) -> McpServer {
        let limits = self.tasks.limits();
        self.tasks = Arc::new(store.bind(limits));
        self
    }

    /// The server's tasks kept within `limits`, in the same store (a new, empty one in
    /// memory; the same Redis).
    pub(crate) fn with_task_limits(mut self, limits: Limits) -> McpServer {
        self.tasks = Arc::new(self.tasks.store().bind(limits));
        self
    }
}

/// When a call that may be a task becomes one.
enum Start {
    /// With the call.
    Now,
    /// When the tool says so (`defer_task`).
    Deferred,
}

impl McpServer {
    /// Whether any tool may run as a task: then the server advertises the extension.
    pub(crate) fn has_task_tools(&self) -> bool {
        self.registry()
            .specs()
            .any(|spec| spec.flags().task != TaskSupport::Forbidden)
    }

    /// Runs a `tools/call`: as a task when its tool and the client allow it, as a plain call
    /// otherwise. A `task = "required"` tool called by a client without the extension is
    /// the spec's `-32021` error, naming the capability it needs.
    pub(crate) async fn call_tool_request(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match self.task_start(&request, &cx)? {
            None => self.call(request, cx).await,
            Some(Start::Now) => self.start_task(request, cx).await,
            Some(Start::Deferred) => self.call_deferred(request, cx).await,
        }
    }

    /// Whether and when the call becomes a task.
    fn task_start(
        &self,
        request: &CallToolRequestParams,
        cx: &RequestContext<RoleServer>,
    ) -> Result<Option<Start>, ErrorData> {
        let flags = self.registry().get(&request.name).map(|spec| spec.flags());
        let support = flags.map_or(TaskSupport::Forbidden, |flags| flags.task);
        let declared = cx
            .client_capabilities()
            .is_some_and(|caps| caps.supports_tasks());
        match (support, declared) {
            (TaskSupport::Forbidden, _) | (TaskSupport::Optional, false) => Ok(None),
            (TaskSupport::Required, false) => Err(ErrorData::missing_required_client_capability(
                ClientCapabilities::builder().enable_tasks().build(),
            )),
            (_, true) if flags.is_some_and(|flags| flags.defer_task) => Ok(Some(Start::Deferred)),
            (_, true) => Ok(Some(Start::Now)),
        }
    }

    /// Answers with a new task at once; the call runs on, its questions waiting in the task.
    async fn start_task(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Before the task exists: a request refused here leaves no task behind.
        let capabilities = self.request_asking(&request, &cx)?.1.capabilities();
        let (task, cancel) = self
            .tasks
            .create(owner(&cx), json_len(&request.arguments))
            .await
            .map_err(|e| refused(&e))?;
        let client = TaskClient::new(Arc::clone(&self.tasks), task.task_id.clone(), capabilities);
        // The call runs on after this request is answered: its own context, cancelled by
        // `tasks/cancel` or the task's expiry instead of by the request's end.
        let mut call_cx = cx;
        call_cx.ct = cancel;
        let (server, id) = (self.clone(), task.task_id.clone());
        tokio::spawn(async move {
            let ran = server
                .run_call(request, call_cx, crate::client::Client::new(client))
                .await;
            server.tasks.finish(&id, server.settled(ran)).await;
        });
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }

    /// Runs a `defer_task` call as a plain call, answering with its task if the tool
    /// continues as one, with its result (or input-required round) if it ends first.
    async fn call_deferred(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let (asking, before) = self.request_asking(&request, &cx)?;
        let cancel = CancellationToken::new();
        let (deferred, mut started) = DeferredTask::new(
            before,
            Arc::clone(&self.tasks),
            (owner(&cx), json_len(&request.arguments)),
            cancel.clone(),
        );
        // Until the call is a task, the request's end (its cancellation, or this handler
        // dropped) stops it.
        let stop_plain_call = cancel.clone().drop_guard();
        let mut call_cx = cx.clone();
        call_cx.ct = cancel;
        let (server, client) = (self.clone(), deferred.client());
        let mut run = tokio::spawn(async move {
            let ran = server.run_call(request, call_cx, client).await;
            match deferred.task_id() {
                Some(id) => {
                    server.tasks.finish(&id, server.settled(ran)).await;
                    None
                }
                None => Some(ran),
            }
        });
        tokio::select! {
            biased;
            Ok(became) = &mut started => match became {
                Ok(task) => {
                    stop_plain_call.disarm();
                    Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
                }
                // No room for the task: the call is stopped (the guard), and the client
                // told why, rather than the call going on as a plain one.
                Err(full) => Err(refused(&full)),
            },
            () = cx.ct.cancelled() => Err(ErrorData::internal_error("the request was cancelled", None)),
            joined = &mut run => match joined {
                Ok(Some(ran)) => self.respond(ran?, &asking),
                // The call became a task as it ended: the task was sent before it ended.
                Ok(None) => match started.await {
                    Ok(Ok(task)) => {
                        stop_plain_call.disarm();
                        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
                    }
                    Ok(Err(full)) => Err(refused(&full)),
                    Err(_) => Err(ErrorData::internal_error("the task was lost", None)),
                },
                Err(panicked) => Err(ErrorData::internal_error(panicked.to_string(), None)),
            },
        }
    }

    /// What a task settles to once its call has run.
    fn settled(&self, ran: Result<Ran, ErrorData>) -> TaskPayload {
        match ran.and_then(|(call, output)| finish(call, output)) {
            Ok((call, output)) => match output.as_error() {
                // A panic is the server failing, not the tool reporting an error: the spec's
                // `failed` status, with the JSON-RPC error it would have been.
                Some(error) if error.code == ErrorCode::Panicked => TaskPayload::Failed {
                    error: object(ErrorData::internal_error(error.message.clone(), None)),
                },
                _ => TaskPayload::Completed {
                    result: object(self.call_result(&call, output)),
                },
            },
            Err(error) => TaskPayload::Failed {
                error: object(error),
            },
        }
    }

    /// `tasks/get`: the task with its result or error inlined once it has settled, and the
    /// questions it waits on while it does.
    pub(crate) async fn get_task_state(
        &self,
        request: &GetTaskParams,
        cx: &RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let found = self.tasks.get(&request.task_id, &owner(cx)).await;
        known(&request.task_id, found.map_err(|e| refused(&e))?).map(GetTaskResult::new)
    }

    /// `tasks/cancel`: stops a running task's call; a settled task is acknowledged as is.
    pub(crate) async fn cancel_task_call(
        &self,
        request: &CancelTaskParams,
        cx: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let found = self.tasks.cancel(&request.task_id, &owner(cx)).await;
        known(&request.task_id, found.map_err(|e| refused(&e))?)
    }

    /// `tasks/update`: the client's answers to the questions the task waits on.
    pub(crate) async fn update_task_inputs(
        &self,
        request: UpdateTaskParams,
        cx: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let answered = self
            .tasks
            .answer(&request.task_id, &owner(cx), request.input_responses)
            .await;
        match answered {
            Ok(()) => Ok(()),
            Err(AnswerError::Unknown) => known(&request.task_id, None),
            Err(AnswerError::Invalid(why)) => Err(ErrorData::invalid_params(why, None)),
            Err(AnswerError::Unavailable(error)) => Err(refused(&error)),
        }
    }
}

/// Who sent the request: the HTTP session it came on, if the protocol has one (only it
/// sees the task), and the peer's address (a sessionless client's share).
pub(crate) fn owner(cx: &RequestContext<RoleServer>) -> Owner {
    let Some(parts) = cx.extensions.get::<hyper::http::request::Parts>() else {
        return Owner::default();
    };
    // rmcp checks a session id against the live sessions only on the classic protocol's
    // requests: on a 2026-07-28 request the header may name a session that has ended, and
    // owning a task by it would reach that session's tasks.
    let session = if crate::rounds::input_required::sessionless(cx) {
        None
    } else {
        let session = parts.headers.get("mcp-session-id");
        session.and_then(|id| id.to_str().ok()).map(str::to_owned)
    };
    Owner {
        session,
        address: parts.extensions.get::<PeerAddress>().map(|peer| peer.0),
    }
}

/// A task refused, or a store that could not answer, as the client is told it: the
/// error's whole chain (a Redis failure says what was being done and why).
fn refused(error: &TaskStoreError) -> ErrorData {
    ErrorData::internal_error(said(error), None)
}

/// What the store found for a task id the client gave, or the spec's `-32602` for an id
/// it doesn't know (or one that expired, or another session's).
fn known<T>(id: &str, found: Option<T>) -> Result<T, ErrorData> {
    found.ok_or_else(|| {
        ErrorData::invalid_params(format!("unknown task {id:?} (or it has expired)"), None)
    })
}

#[cfg(test)]
#[path = "tasks_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "task_limits_tests.rs"]
mod limits_tests;
