//! [`McpServer`]: rmcp's `ServerHandler` over a [`Registry`].

use crate::client::Client;
use crate::content;
use crate::error::ErrorCode;
use crate::lock::lock;
use crate::notify::{LogLevel, Notification, NotificationKind, Notifier};
use crate::rounds::input_required::{self, InputRound, RequestStates};
use crate::rounds::url_required::RequiredUrls;
use crate::Provider;
use crate::{Registry, ToolOutput};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams,
    CompleteRequestParams, CompleteResult, ErrorData, GetPromptRequestParams, GetPromptResponse,
    GetTaskParams, GetTaskResult, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig, SubscribeRequestParams, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
#[allow(deprecated)] // MCP logging: deprecated by the 2026 draft, in the 2025-11-25 spec.
use rmcp::model::{LoggingMessageNotificationParam, SetLevelRequestParams};
use rmcp::service::{Peer, RequestContext, RoleServer};
use rmcp::ServerHandler;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use tool_core::ToolCall;

/// A [`Registry`] as an MCP server: rmcp's `ServerHandler`, for [`serve_stdio`](crate::serve_stdio),
/// [`HttpServer`](crate::HttpServer), or any rmcp transport.
///
/// - `tools/list`: each tool's [`Provider::Mcp`] export (`name`, `title`, `description`,
///   `inputSchema`, `annotations`), [`page_size`](Self::page_size) per page with a cursor.
/// - `tools/call`: the registry's pipeline and dispatcher (gate, timeouts, approval,
///   cancellation by the client's `notifications/cancelled`). Every output is a result the
///   model reads, `isError: true` for failures (bad arguments, timeouts, panics, denials),
///   except a tool the registry doesn't have, which the MCP spec makes a protocol error
///   (`-32602`, with the closest names in `data.suggestions`).
/// - A tool's [`progress`](crate::ToolContext::progress) goes to the client when the call
///   carries a `progressToken`; its [`log`](crate::ToolContext::log) lines at or above the
///   level the client set with `logging/setLevel` (`info` until it sets one).
/// - A tool's [`sample`](crate::ToolContext::sample) and [`elicit`](crate::ToolContext::elicit)
///   are requests to the client, on the call's own stream over HTTP, when the client declared
///   `sampling` or `elicitation`.
/// - The registry's [`resources`](crate::Registry::resources): `resources/*` (with
///   subscriptions), `prompts/*` and `completion/complete`, declared only when it has some.
///   A prompt or resource that asks its client ([`AskContext`](crate::client::AskContext))
///   asks as a tool does.
#[derive(Clone)]
pub struct McpServer {
    registry: Arc<Registry>,
    /// The tool list, converted once: a registry doesn't change.
    tools: Arc<[Tool]>,
    info: Arc<Implementation>,
    instructions: Option<Arc<str>>,
    pub(crate) page_size: usize,
    /// The client's `logging/setLevel`: one per session.
    log_level: Arc<Mutex<LogLevel>>,
    /// The resources the client subscribed to: one set per session.
    subscriptions: Arc<super::resources::Subscriptions>,
    /// Seals protocol 2026-07-28's `requestState`.
    pub(crate) request_states: Arc<RequestStates>,
    /// Calls running as tasks; shared by every session (each task answers only its own).
    pub(crate) tasks: Arc<crate::tasks::store::Tasks>,
    /// How long a question to the client waits for its answer ([`McpServer::ask_timeout`]).
    pub(crate) ask_timeout: std::time::Duration,
}

impl McpServer {
    /// The tools of `registry` as an MCP server named `tool-runtime`.
    pub fn new(registry: impl Into<Arc<Registry>>) -> McpServer {
        let registry = registry.into();
        let tools = content::tool_list(&registry.export(Provider::Mcp).shared());
        McpServer {
            registry,
            tools: tools.into(),
            info: Arc::new(Implementation::new(
                "tool-runtime",
                env!("CARGO_PKG_VERSION"),
            )),
            instructions: None,
            page_size: 100,
            log_level: Arc::new(Mutex::new(LogLevel::Info)),
            subscriptions: Arc::default(),
            request_states: Arc::new(RequestStates::random()),
            tasks: Arc::new(crate::tasks::TaskStore::memory().bind(super::tasks::DEFAULT_LIMITS)),
            ask_timeout: crate::client::DEFAULT_ASK_TIMEOUT,
        }
    }

    /// The key that seals the `requestState` of protocol 2026-07-28's input-required
    /// results (an HMAC; at least 32 bytes). By default each server draws a random one, so
    /// a client must bring its answers back to the same process: give every replica behind
    /// a load balancer the same key.
    ///
    /// # Errors
    ///
    /// rmcp's `RequestStateError` when the key is shorter than 32 bytes.
    pub fn request_state_key(
        mut self,
        key: impl Into<Vec<u8>>,
    ) -> Result<McpServer, rmcp::model::RequestStateError> {
        self.request_states = Arc::new(RequestStates::with_key(key.into())?);
        Ok(self)
    }

    /// How long a task (a `#[tool(task)]` call) is kept after it starts, result included
    /// (default 10 minutes): `tasks/get` finds it until then, and a call still running then
    /// is cancelled.
    #[must_use]
    pub fn task_ttl(self, ttl: std::time::Duration) -> McpServer {
        let limits = self.tasks.limits();
        self.with_task_limits(crate::tasks::limits::Limits { ttl, ..limits })
    }

    /// How many tasks are kept at once (default 1,024): past it, the oldest settled task is
    /// dropped to make room, and when every task still runs a call that would start a task
    /// is refused with an error until one settles or expires.
    #[must_use]
    pub fn max_tasks(self, max: usize) -> McpServer {
        let limits = self.tasks.limits();
        self.with_task_limits(crate::tasks::limits::Limits {
            max: max.max(1),
            ..limits
        })
    }

    /// How long a tool's (a prompt's, a resource's) question to its client waits for the
    /// answer: a sampling or elicitation request, `roots/list`, or a task's question waiting
    /// in `input_required` for `tasks/update` (default
    /// [`DEFAULT_ASK_TIMEOUT`](crate::client::DEFAULT_ASK_TIMEOUT), five minutes). Past it the
    /// question is withdrawn and the tool gets
    /// [`AskError::TimedOut`](crate::client::AskError::TimedOut).
    ///
    /// The wait never holds the registry's gate (a call gives its pass back while its
    /// question is out), so a client that never answers stops no other call; the deadline
    /// bounds how long it keeps its own call, and whatever that call holds itself.
    #[must_use]
    pub fn ask_timeout(mut self, limit: std::time::Duration) -> McpServer {
        self.ask_timeout = limit;
        self
    }

    /// The name and version the server gives clients in `initialize`.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>, version: impl Into<String>) -> McpServer {
        self.info = Arc::new(Implementation::new(name, version));
        self
    }

    /// Instructions for the client's model, sent in `initialize`.
    #[must_use]
    pub fn instructions(mut self, text: impl Into<String>) -> McpServer {
        self.instructions = Some(text.into().into());
        self
    }

    /// How many tools (resources, templates, prompts) one `*/list` page holds (default 100);
    /// more come with a cursor.
    #[must_use]
    pub fn page_size(mut self, tools: usize) -> McpServer {
        self.page_size = tools.max(1);
        self
    }

    /// The registry served.
    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    /// A copy for a new session: the same tools, its own log level and subscriptions.
    pub(crate) fn for_session(&self) -> McpServer {
        McpServer {
            log_level: Arc::new(Mutex::new(LogLevel::Info)),
            subscriptions: Arc::default(),
            ..self.clone()
        }
    }

    /// One page of the tool list.
    fn page(&self, cursor: Option<&str>) -> Result<ListToolsResult, ErrorData> {
        let start = match cursor {
            None => 0,
            Some(cursor) => cursor
                .parse::<usize>()
                .ok()
                .filter(|&at| at <= self.tools.len())
                .ok_or_else(|| {
                    ErrorData::invalid_params(format!("invalid cursor {cursor:?}"), None)
                })?,
        };
        // Saturating: `page_size(usize::MAX)` means "one page".
        let end = start.saturating_add(self.page_size).min(self.tools.len());
        let mut page = ListToolsResult::with_all_items(self.tools[start..end].to_vec());
        page.next_cursor = (end < self.tools.len()).then(|| end.to_string());
        Ok(page)
    }

    /// Runs one call through the registry, forwarding its notifications as they come.
    pub(crate) async fn call(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let (asking, client) = self.request_asking(&request, &cx)?;
        let ran = self.run_call(request, cx, client).await?;
        self.respond(ran, &asking)
    }

    /// How the request's call asks its client, and the [`Client`] it asks through: under
    /// 2026-07-28, which has no server-to-client requests, its input-required round
    /// (questions without an answer end the call instead); otherwise the session, which keeps
    /// the URL interactions the call ends needing.
    ///
    /// # Errors
    ///
    /// `-32602` for a `requestState` this server didn't give for this call.
    pub(crate) fn request_asking(
        &self,
        request: &CallToolRequestParams,
        cx: &RequestContext<RoleServer>,
    ) -> Result<(RequestAsking, Client), ErrorData> {
        let round = input_required::sessionless(cx)
            .then(|| InputRound::open(&self.request_states, request, cx))
            .transpose()?;
        let urls = Arc::<RequiredUrls>::default();
        let client = match &round {
            Some(round) => round.client(),
            None => Client::new(super::peer_client::PeerClient::new(
                cx.peer.clone(),
                cx.id.clone(),
                Arc::clone(&urls),
            )),
        };
        Ok((RequestAsking { round, urls }, client))
    }

    /// The answer to a call that ran: an input-required result when its round has questions
    /// without answers, `-32042` when it ended needing URL interactions, its result otherwise.
    pub(crate) fn respond(
        &self,
        (call, output): Ran,
        asking: &RequestAsking,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(round) = &asking.round {
            let failed = output.as_ref().is_some_and(|o| o.as_error().is_some());
            if let Some(input_required) = round.outcome(&self.request_states, failed)? {
                return Ok(CallToolResponse::InputRequired(input_required));
            }
        }
        if let Some(error) = output
            .as_ref()
            .and_then(ToolOutput::as_error)
            .and_then(|error| asking.urls.error_for(error))
        {
            return Err(error);
        }
        let (call, output) = finish(call, output)?;
        Ok(self.call_result(&call, output).into())
    }

    /// The `CallToolResult` of a call's output, its structured content wrapped as the
    /// tool's output schema says.
    pub(crate) fn call_result(&self, call: &ToolCall, output: ToolOutput) -> CallToolResult {
        let wrapped = self
            .registry
            .called(&call.name)
            .and_then(|spec| spec.output_schema().map(|_| spec.output_wrapped()));
        content::call_result(call, output, wrapped)
    }

    /// Runs a call through the registry, its notifications forwarded to the client and its
    /// questions asking `client`: the output as the registry gave it (a task reads it before
    /// it becomes a `CallToolResult`), `None` if it gave none.
    pub(crate) async fn run_call(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
        client: Client,
    ) -> Result<Ran, ErrorData> {
        let arguments = match &request.arguments {
            // Arguments that repeat a key come as their own text, for the registry to refuse.
            Some(arguments) => crate::transport::raw_arguments::carried(arguments).map_or_else(
                || Value::Object(arguments.clone()).to_string(),
                str::to_owned,
            ),
            None => "{}".to_owned(),
        };
        let call = ToolCall::new(
            format!("mcp-{}", request_id(&cx)),
            request.name.as_ref(),
            arguments,
        );
        let forward = Forward {
            peer: cx.peer.clone(),
            progress: cx.meta.get_progress_token(),
            // 2026-07-28 has no `logging/setLevel`: a request that names no level in its
            // `_meta` wants no log lines.
            level: if input_required::sessionless(&cx) {
                #[allow(deprecated)] // logging: see the import above
                cx.meta.log_level().map(content::log_level)
            } else {
                Some(*lock(&self.log_level))
            },
        };
        let (notifier, mut messages) = Notifier::channel();
        let client = client.with_ask_timeout(self.ask_timeout);
        let run = client.scope(notifier.scope(async {
            let mut outputs = self
                .registry
                .call_all(std::slice::from_ref(&call))
                .until(&cx.ct)
                .await;
            outputs.pop()
        }));
        let output = {
            let mut run = std::pin::pin!(run);
            loop {
                tokio::select! {
                    biased;
                    Some(message) = messages.recv() => forward.send(message).await,
                    output = &mut run => break output,
                }
            }
        };
        // What the call sent last, before its result: the client sees it in order.
        while let Ok(message) = messages.try_recv() {
            forward.send(message).await;
        }
        Ok((call, output))
    }
}

/// What a call asking its client through its own request keeps until it is answered: the
/// 2026-07-28 round (`None` under the handshake protocols), and the URL interactions it
/// ended needing.
pub(crate) struct RequestAsking {
    round: Option<Arc<InputRound>>,
    urls: Arc<RequiredUrls>,
}

/// A call that ran: the call, and the output the registry gave (`None`: it gave none).
pub(crate) type Ran = (ToolCall, Option<ToolOutput>);

/// A call's output, or the protocol error it is: an unknown tool is `-32602` with the closest
/// names, as the 2025-11-25 spec asks; no output at all is a runtime error.
pub(crate) fn finish(
    call: ToolCall,
    output: Option<ToolOutput>,
) -> Result<(ToolCall, ToolOutput), ErrorData> {
    let output = output.unwrap_or_else(|| ToolOutput::error(ErrorCode::RuntimeError, ""));
    if let Some(error) = output
        .as_error()
        .filter(|e| e.code == ErrorCode::UnknownTool)
    {
        let data = serde_json::json!({"suggestions": error.suggestions});
        return Err(ErrorData::invalid_params(error.message.clone(), Some(data)));
    }
    Ok((call, output))
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("name", &self.info.name)
            .field("tools", &self.tools.len())
            .finish_non_exhaustive()
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        #[allow(deprecated)] // logging: see the import above
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .build();
        let mut capabilities =
            super::resources::capabilities(capabilities, self.registry.resources());
        if self.has_task_tools() {
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(
                    rmcp::model::TASKS_EXTENSION_ID.to_owned(),
                    Default::default(),
                );
        }
        let mut config = ServerConfig::new(capabilities).with_server_info((*self.info).clone());
        if let Some(text) = &self.instructions {
            config = config.with_instructions(text.to_string());
        }
        config
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.page(request.as_ref().and_then(|r| r.cursor.as_deref()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call_tool_request(request, cx).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.get_task_state(&request, &cx).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.update_task_inputs(request, &cx).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.cancel_task_call(&request, &cx).await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.list_resources_page(request.as_ref())
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.list_templates_page(request.as_ref())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.read(request, cx).await
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions
            .subscribe(request.uri, self.registry.resources(), &cx.peer)
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscriptions.unsubscribe(&request.uri);
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &rmcp::model::SubscriptionFilter,
    ) -> Option<rmcp::model::SubscriptionFilter> {
        super::listen::accepted_filter(requested, self.registry.resources())
    }

    async fn listen(
        &self,
        subscription: rmcp::service::SubscriptionContext,
    ) -> Result<(), ErrorData> {
        super::listen::listen(subscription, self.registry.resources()).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.list_prompts_page(request.as_ref())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.get_prompt_messages(request, cx).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.complete_argument(request).await
    }

    #[allow(deprecated)] // logging: see the import above
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        *lock(&self.log_level) = content::log_level(request.level);
        Ok(())
    }
}

/// Where one call's notifications go.
struct Forward {
    peer: Peer<RoleServer>,
    /// The call's `progressToken`: without one, the client asked for no progress.
    progress: Option<ProgressToken>,
    /// The least severe level the client wants; none for no log lines.
    level: Option<LogLevel>,
}

impl Forward {
    async fn send(&self, message: Notification) {
        // A client gone away can't be told; the call's result says what matters.
        match message.kind {
            NotificationKind::Progress {
                progress,
                total,
                message,
            } => {
                let Some(token) = &self.progress else { return };
                let mut params = ProgressNotificationParam::new(token.clone(), progress);
                params.total = total;
                params.message = message;
                let _ = self.peer.notify_progress(params).await;
            }
            NotificationKind::Log {
                level,
                message: line,
            } if self.level.is_some_and(|least| level >= least) => {
                #[allow(deprecated)] // logging: see the import above
                let params =
                    LoggingMessageNotificationParam::new(content::mcp_level(level), line.into())
                        .with_logger(message.tool);
                #[allow(deprecated)]
                let _ = self.peer.notify_logging_message(params).await;
            }
            _ => {}
        }
    }
}

/// The JSON-RPC id of the request, as text.
fn request_id(cx: &RequestContext<RoleServer>) -> String {
    match serde_json::to_value(&cx.id) {
        Ok(Value::String(id)) => id,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DynamicTool;

    fn server(tools: usize) -> McpServer {
        let builder = (0..tools).fold(Registry::builder().without_inventory(), |b, i| {
            b.dynamic(DynamicTool::new(
                format!("t{i}"),
                "A tool.",
                serde_json::json!({"type": "object"}),
                |_, _| async { ToolOutput::text("") },
            ))
        });
        McpServer::new(builder.build().unwrap())
    }

    #[test]
    fn the_tool_list_comes_in_pages_with_cursors() {
        let server = server(5).page_size(2);
        let mut cursor = None;
        let mut names = Vec::new();
        loop {
            let page = server.page(cursor.as_deref()).unwrap();
            assert!(page.tools.len() <= 2);
            names.extend(page.tools.iter().map(|t| t.name.to_string()));
            cursor = page.next_cursor;
            if cursor.is_none() {
                break;
            }
        }
        assert_eq!(names, ["t0", "t1", "t2", "t3", "t4"]);
        assert!(server.page(Some("nonsense")).is_err());
        assert!(server.page(Some("99")).is_err());
        assert!(server.page(None).unwrap().next_cursor.is_some());
        assert!(server
            .page_size(100)
            .page(None)
            .unwrap()
            .next_cursor
            .is_none());
    }

    #[test]
    fn the_server_says_it_has_tools_and_logging() {
        let info = server(1).named("x", "1.2.3").get_info();
        assert_eq!(info.server_info.name, "x");
        assert!(info.capabilities.tools.is_some());
        let wire = serde_json::to_value(&info.capabilities).unwrap();
        assert!(wire.get("logging").is_some(), "{wire}");
    }
}
