//! Importing a server's tools: [`McpImport`] connects (a command over stdio, or a
//! streamable-HTTP URL), lists the tools, and gives each as a [`DynamicTool`] that forwards
//! its calls.

mod asking;
mod builder;
mod http_client;
mod local_names;
mod protocol;
mod resources;
mod rounds;
mod schema_in;

pub use protocol::McpProtocol;

use self::asking::{Answerers, Asking, Asks};
use self::rounds::{Retry, RoundError};
use crate::client::{BoxError, Elicitation, ElicitationRequest, SamplingRequest, SamplingResult};
use crate::def::ToolFlags;
use crate::error::{ErrorCode, ToolError};
use crate::mcp::content;
use crate::mcp::McpError;
use crate::{DynamicTool, ToolContext, ToolOutput};
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientConfig,
    ClientRequest, Implementation, NumberOrString, ProgressNotificationParam, ProgressToken,
    ServerResult,
};
use rmcp::service::{
    ClientServiceExt, NotificationContext, PeerRequestOptions, RequestContext, RoleClient,
    RunningService,
};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::ClientHandler;
use serde_json::Value;
use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A server to import tools from, and how: see [`connect`](McpImport::connect).
///
/// ```no_run
/// use std::time::Duration;
/// use tool_runtime::mcp::McpImport;
/// use tool_runtime::Registry;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let everything = McpImport::stdio("npx", ["-y", "@modelcontextprotocol/server-everything"])
///     .named("everything")
///     .call_timeout(Duration::from_secs(30))
///     .connect()
///     .await?;
/// for note in everything.notes() {
///     eprintln!("note: {note}"); // renamed tools, schemas cleaned
/// }
/// let registry = Registry::builder().mcp_tools(everything).build()?;
/// let out = registry.call("everything__echo", r#"{"message": "hi"}"#).await;
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct McpImport {
    source: Source,
    name: Option<String>,
    connect_timeout: Duration,
    call_timeout: Duration,
    protocol: McpProtocol,
    answerers: Answerers,
}

#[derive(Clone, Debug)]
enum Source {
    Stdio { command: String, args: Vec<String> },
    Http { url: String, token: Option<String> },
}

impl McpImport {
    /// A server this process starts: `command` with `args`, speaking MCP on its stdin and
    /// stdout. Its stderr is kept (the last lines go into the error if it fails to start).
    pub fn stdio<I, S>(command: impl Into<String>, args: I) -> McpImport
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        McpImport::from_source(Source::Stdio {
            command: command.into(),
            args: args.into_iter().map(Into::into).collect(),
        })
    }

    /// A server this process starts, from one command line (`npx -y some-server --flag`):
    /// split on spaces, with `'...'` and `"..."` quoting and `\` escapes, as a shell would
    /// (without expansions).
    ///
    /// # Errors
    ///
    /// An [`McpError`] for an empty command line or an unterminated quote.
    pub fn command_line(line: &str) -> Result<McpImport, McpError> {
        let mut words = split_command_line(line).map_err(|reason| McpError::Spawn {
            command: line.to_owned(),
            reason,
            source: None,
        })?;
        if words.is_empty() {
            return Err(McpError::Spawn {
                command: line.to_owned(),
                reason: "the command line is empty".to_owned(),
                source: None,
            });
        }
        let command = words.remove(0);
        Ok(McpImport::stdio(command, words))
    }

    /// A server reached over streamable HTTP at `url` (`http://127.0.0.1:3000/mcp`).
    /// Plain `http` only: this build's HTTP client has no TLS.
    pub fn http(url: impl Into<String>) -> McpImport {
        McpImport::from_source(Source::Http {
            url: url.into(),
            token: None,
        })
    }

    fn from_source(source: Source) -> McpImport {
        McpImport {
            source,
            name: None,
            connect_timeout: Duration::from_secs(30),
            call_timeout: Duration::from_secs(120),
            protocol: McpProtocol::default(),
            answerers: Answerers::default(),
        }
    }

    /// The prefix of the tools' names, `{name}__{tool}` (default: the name the server gives
    /// itself, its last `/`-separated part).
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> McpImport {
        self.name = Some(name.into());
        self
    }

    /// Sends `Authorization: Bearer {token}` (HTTP servers only).
    #[must_use]
    pub fn bearer_token(mut self, token: impl Into<String>) -> McpImport {
        if let Source::Http { token: slot, .. } = &mut self.source {
            *slot = Some(token.into());
        }
        self
    }

    /// How long starting the server and listing its tools may take (default 30 s).
    #[must_use]
    pub fn connect_timeout(mut self, limit: Duration) -> McpImport {
        self.connect_timeout = limit;
        self
    }

    /// How long one forwarded call may take before it is an error output (default 120 s).
    #[must_use]
    pub fn call_timeout(mut self, limit: Duration) -> McpImport {
        self.call_timeout = limit;
        self
    }

    /// The protocol to speak with the server (default: the handshake, which every server
    /// speaks). See [`McpProtocol`]; [`McpTools::protocol_version`] says which one the server
    /// agreed to.
    #[must_use]
    pub fn protocol(mut self, protocol: McpProtocol) -> McpImport {
        self.protocol = protocol;
        self
    }

    /// Answers the server's sampling requests (`sampling/createMessage`) during a call, a
    /// prompt or a read whose client can't sample (a client that can is asked instead).
    /// Without it, such a request gets an error, and the call fails with the
    /// [`AskError`](crate::client::AskError) a local tool asking would get.
    ///
    /// ```no_run
    /// use tool_runtime::client::{SamplingContent, SamplingResult, Role};
    /// use tool_runtime::mcp::McpImport;
    ///
    /// let import = McpImport::stdio("some-server", ["--stdio"]).on_sampling(|request| async move {
    ///     // Ask a model of your own here; this one echoes.
    ///     let asked = request.messages.len();
    ///     Ok(SamplingResult {
    ///         role: Role::Assistant,
    ///         content: vec![SamplingContent::text(format!("{asked} messages read"))],
    ///         model: "echo".into(),
    ///         stop_reason: None,
    ///     })
    /// });
    /// ```
    #[must_use]
    pub fn on_sampling<F, Fut>(mut self, answer: F) -> McpImport
    where
        F: Fn(SamplingRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<SamplingResult, BoxError>> + Send + 'static,
    {
        self.answerers.on_sampling(answer);
        self
    }

    /// Answers the server's elicitation requests (`elicitation/create`, form mode) during a
    /// call, a prompt or a read whose client can't elicit (a client that can is asked
    /// instead). Without it, such a request is declined; so is a URL-mode one whose client
    /// did not declare `elicitation.url`.
    ///
    /// ```no_run
    /// use serde_json::json;
    /// use tool_runtime::client::Elicitation;
    /// use tool_runtime::mcp::McpImport;
    ///
    /// let import = McpImport::stdio("some-server", ["--stdio"])
    ///     .on_elicitation(|request| async move {
    ///         eprintln!("the server asks: {}", request.message);
    ///         Ok(Elicitation::Accept(json!({"confirmed": true})))
    ///     });
    /// ```
    #[must_use]
    pub fn on_elicitation<F, Fut>(mut self, answer: F) -> McpImport
    where
        F: Fn(ElicitationRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Elicitation<Value>, BoxError>> + Send + 'static,
    {
        self.answerers.on_elicitation(answer);
        self
    }

    /// The command line or URL, for messages.
    pub fn describe(&self) -> String {
        match &self.source {
            Source::Stdio { command, args } => std::iter::once(command.as_str())
                .chain(args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" "),
            Source::Http { url, .. } => url.clone(),
        }
    }

    /// Starts (or reaches) the server, runs the MCP handshake and lists every tool, within
    /// the connect timeout.
    ///
    /// # Errors
    ///
    /// An [`McpError`] when the server can't be started or reached, the handshake fails, or its
    /// tools aren't listed within the connect timeout.
    pub async fn connect(self) -> Result<McpTools, McpError> {
        Ok(self.open().await?.into_tools(&mut HashSet::new()))
    }

    /// Connects and lists the tools; naming waits for [`Connected::into_tools`], so that a
    /// builder importing several servers names them one after another.
    pub(crate) async fn open(self) -> Result<Connected, McpError> {
        let server = self.describe();
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let mut reader = None;
        let handler = Handler::new(Asks::new(self.answerers.clone()));
        let connecting = async {
            let client = match &self.source {
                Source::Stdio { command, args } => {
                    let mut cmd = tokio::process::Command::new(command);
                    cmd.args(args);
                    let (transport, child_stderr) = TokioChildProcess::builder(cmd)
                        .stderr(std::process::Stdio::piped())
                        .spawn()
                        .map_err(|e| McpError::Spawn {
                            command: server.clone(),
                            reason: e.to_string(),
                            source: Some(e),
                        })?;
                    if let Some(child_stderr) = child_stderr {
                        let keep = keep_tail(child_stderr, Arc::clone(&stderr), server.clone());
                        reader = Some(tokio::spawn(keep));
                    }
                    handler
                        .clone()
                        .serve_with_lifecycle(transport, self.protocol.lifecycle())
                        .await
                }
                Source::Http { url, token } => {
                    // rmcp builds a reqwest client, which needs a TLS provider when the
                    // `agent` feature has turned rustls on.
                    #[cfg(feature = "agent")]
                    crate::tls::ensure_provider();
                    let mut config =
                        rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(
                            url.as_str(),
                        );
                    if let Some(token) = token {
                        config = config.auth_header(token.clone());
                    }
                    // Not rmcp's default client: this one refuses redirects to another origin
                    // and names an answer too large to read (`import_http`).
                    let http = self::http_client::ImportClient::new().map_err(|e| {
                        McpError::Protocol {
                            server: server.clone(),
                            reason: format!("could not build the HTTP client: {e}"),
                            source: Some(Box::new(e)),
                        }
                    })?;
                    handler
                        .clone()
                        .serve_with_lifecycle(
                            StreamableHttpClientTransport::with_client(http, config),
                            self.protocol.lifecycle(),
                        )
                        .await
                }
            }
            .map_err(|e| McpError::Protocol {
                server: server.clone(),
                reason: format!("the MCP handshake failed: {e}"),
                source: Some(Box::new(e)),
            })?;
            let tools = client
                .peer()
                .list_all_tools()
                .await
                .map_err(|e| McpError::Protocol {
                    server: server.clone(),
                    reason: format!("tools/list failed: {e}"),
                    source: Some(Box::new(e)),
                })?;
            let listed =
                self::resources::list(client.peer())
                    .await
                    .map_err(|e| McpError::Protocol {
                        server: server.clone(),
                        reason: format!("listing its resources and prompts failed: {e}"),
                        source: Some(Box::new(e)),
                    })?;
            Ok::<_, McpError>((client, tools, listed))
        };
        let error = match tokio::time::timeout(self.connect_timeout, connecting).await {
            Ok(Ok(connected)) => Ok(connected),
            Ok(Err(error)) => Err(error),
            Err(_) => Err(McpError::Timeout {
                server: server.clone(),
                doing: "starting and listing its tools",
                seconds: self.connect_timeout.as_secs_f64(),
            }),
        };
        let (client, tools, listed) = match error {
            Ok(connected) => connected,
            Err(error) => {
                // A server that died has closed its stderr: read what it said last.
                if let Some(reader) = reader {
                    let _ = tokio::time::timeout(Duration::from_millis(500), reader).await;
                }
                return Err(with_stderr(error, &stderr));
            }
        };
        let peer_info = client.peer().peer_info();
        let info = peer_info.as_ref().and_then(|info| info.server_info.clone());
        let protocol_version = peer_info.map(|info| info.protocol_version.to_string());
        let prefix = local_names::prefix(
            &self
                .name
                .clone()
                .or_else(|| info.as_ref().map(|i| short_name(&i.name)))
                .unwrap_or_else(|| "mcp".to_owned()),
        );
        Ok(Connected {
            remote: Arc::new(Remote {
                client,
                handler,
                server,
                prefix,
                call_timeout: self.call_timeout,
            }),
            info,
            protocol_version,
            tools,
            listed,
        })
    }
}

/// A connected server and its tool list, not yet named.
pub(crate) struct Connected {
    remote: Arc<Remote>,
    info: Option<Implementation>,
    protocol_version: Option<String>,
    tools: Vec<rmcp::model::Tool>,
    listed: self::resources::Listed,
}

impl Connected {
    /// The tools as dynamic tools, named so that none takes a name in `taken`.
    pub(crate) fn into_tools(self, taken: &mut HashSet<String>) -> McpTools {
        let remote_names: Vec<&str> = self.tools.iter().map(|t| t.name.as_ref()).collect();
        let (local_names, mut notes) =
            local_names::assign(&self.remote.prefix, &remote_names, taken);
        let mut tools = Vec::with_capacity(self.tools.len());
        for (tool, name) in self.tools.iter().zip(local_names) {
            let remote_name = tool.name.to_string();
            let (schema, changes) = schema_in::clean(&Value::Object((*tool.input_schema).clone()));
            if !changes.is_empty() {
                notes.push(ImportNote::SchemaCleaned {
                    tool: remote_name.clone(),
                    changes,
                });
            }
            let description = tool
                .description
                .as_deref()
                .filter(|d| !d.trim().is_empty())
                .map(str::to_owned)
                .or_else(|| tool.title.clone())
                .unwrap_or_else(|| format!("The `{remote_name}` tool of {}.", self.remote.prefix));
            // Kept as the server wrote it (but for a draft marker, which would change the
            // validator's dialect); the registry checks every result against it.
            let output_schema = tool.output_schema.as_ref().map(|schema| {
                let mut schema = (**schema).clone();
                schema.remove("$schema");
                Value::Object(schema)
            });
            let wrapped = output_schema
                .as_ref()
                .map(crate::output::structured::is_wrapper);
            let remote = Arc::clone(&self.remote);
            let called = remote_name.clone();
            let mut dynamic = DynamicTool::new(name, description, schema, move |args, cx| {
                let remote = Arc::clone(&remote);
                let called = called.clone();
                async move { remote.call(&called, args, cx, wrapped).await }
            })
            .with_flags(flags(tool.annotations.as_ref()));
            if let Some(output_schema) = output_schema {
                dynamic = dynamic.with_output_schema(output_schema);
                dynamic.output_wrapped = wrapped.unwrap_or(false);
            }
            if let Some(title) = tool
                .title
                .clone()
                .or_else(|| tool.annotations.as_ref().and_then(|a| a.title.clone()))
            {
                dynamic = dynamic.with_title(title);
            }
            tools.push(dynamic);
        }
        let forward = self::resources::Forwarder {
            peer: self.remote.client.peer().clone(),
            timeout: self.remote.call_timeout,
            server: self.remote.server.clone(),
            asks: Arc::clone(&self.remote.handler.asks),
            keep: self.remote.clone(),
        };
        let imported =
            self::resources::adopt(self.listed, &self.remote.prefix, &forward, &mut notes);
        McpTools {
            prefix: self.remote.prefix.clone(),
            server: self.remote.server.clone(),
            info: self.info,
            protocol_version: self.protocol_version,
            tools,
            imported,
            notes,
        }
    }
}

/// A connected server's tools, ready for
/// [`RegistryBuilder::mcp_tools`](crate::RegistryBuilder::mcp_tools). The connection lives as
/// long as one of its tools does (the child process is stopped when the last goes).
pub struct McpTools {
    prefix: String,
    server: String,
    info: Option<Implementation>,
    protocol_version: Option<String>,
    tools: Vec<DynamicTool>,
    /// The server's resources, templates and prompts, when it has some.
    imported: self::resources::Imported,
    notes: Vec<ImportNote>,
}

impl McpTools {
    /// The prefix of the tools' names.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The command line or URL.
    pub fn server(&self) -> &str {
        &self.server
    }

    /// The name and version the server gave in the handshake.
    pub fn server_name(&self) -> Option<(&str, &str)> {
        self.info
            .as_ref()
            .map(|i| (i.name.as_str(), i.version.as_str()))
    }

    /// The protocol version the server agreed to (`"2025-11-25"`, `"2026-07-28"`): see
    /// [`McpImport::protocol`].
    pub fn protocol_version(&self) -> Option<&str> {
        self.protocol_version.as_deref()
    }

    /// The tools.
    pub fn tools(&self) -> &[DynamicTool] {
        &self.tools
    }

    /// The tools, owned.
    pub fn into_tools(self) -> Vec<DynamicTool> {
        self.tools
    }

    /// The server's resources, which read from it (their URIs are the server's).
    pub fn resources(&self) -> &[crate::resources::Resource] {
        &self.imported.resources
    }

    /// The server's resource templates, which read from it.
    pub fn templates(&self) -> &[crate::resources::ResourceTemplate] {
        &self.imported.templates
    }

    /// The server's prompts, named `{prefix}__{prompt}` like its tools, which get from it.
    pub fn prompts(&self) -> &[crate::resources::Prompt] {
        &self.imported.prompts
    }

    /// The tools, and the resources, templates and prompts.
    pub(crate) fn into_parts(self) -> (Vec<DynamicTool>, self::resources::Imported) {
        (self.tools, self.imported)
    }

    /// What the import changed: tools renamed, schemas cleaned.
    pub fn notes(&self) -> &[ImportNote] {
        &self.notes
    }
}

impl fmt::Debug for McpTools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpTools")
            .field("server", &self.server)
            .field(
                "tools",
                &self.tools.iter().map(DynamicTool::name).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

/// Something an import changed, worth telling the user.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImportNote {
    /// A tool's local name isn't plainly `{server}__{tool}`.
    Renamed {
        /// The server's name for it.
        tool: String,
        /// Its name here.
        name: String,
        /// Why.
        reason: &'static str,
    },
    /// A resource template (or other listing) this registry can't serve was left out.
    LeftOut {
        /// What: `resource template \`...\``.
        what: String,
        /// Why.
        reason: String,
    },
    /// A tool's input schema was changed so that every dialect takes it.
    SchemaCleaned {
        /// The server's name for the tool.
        tool: String,
        /// What was changed, one line each.
        changes: Vec<String>,
    },
}

impl fmt::Display for ImportNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportNote::Renamed { tool, name, reason } => {
                write!(f, "`{tool}` is called `{name}` here: {reason}")
            }
            ImportNote::LeftOut { what, reason } => write!(f, "the {what} is left out: {reason}"),
            ImportNote::SchemaCleaned { tool, changes } => {
                write!(
                    f,
                    "the input schema of `{tool}` was cleaned: {}",
                    changes.join("; ")
                )
            }
        }
    }
}

/// Tells the server a forwarded call was cancelled, if dropped while it still holds the call.
struct CancelOnDrop(Option<(rmcp::Peer<RoleClient>, rmcp::model::RequestId)>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some((peer, id)) = self.0.take() else {
            return;
        };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let reason = Some("cancelled by the caller".to_owned());
                let _ = peer
                    .notify_cancelled(CancelledNotificationParam::new(Some(id), reason))
                    .await;
            });
        }
    }
}

/// The connection to one server, shared by its tools.
struct Remote {
    client: RunningService<RoleClient, Handler>,
    handler: Handler,
    server: String,
    prefix: String,
    call_timeout: Duration,
}

impl Remote {
    /// Forwards one call; every failure is an error output. `wrapped` is `Some` for a tool
    /// with an output schema (`content::remote_structured_output`). An input-required result
    /// (protocol 2026-07-28) is answered through the call's context and the call sent again,
    /// a bounded number of times.
    async fn call(
        &self,
        tool: &str,
        args: Value,
        cx: ToolContext,
        wrapped: Option<bool>,
    ) -> ToolOutput {
        let arguments = match args {
            Value::Object(map) => map,
            _ => serde_json::Map::new(),
        };
        let asking = Asking::new(cx.asking.clone());
        let mut retry = Retry::default();
        let failed = |code, message: String| {
            ToolOutput::from(ToolError::with_code(code, message).with_retry_hint(
                "The tool's server may be down; try again later, or another tool.",
            ))
        };
        for _ in 0..rounds::MAX_ROUNDS {
            let mut params =
                CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments.clone());
            params.input_responses = retry.input_responses.take();
            params.request_state = retry.request_state.take();
            let answer = match self.round(params, &cx, &asking).await {
                Ok(Some(ServerResult::InputRequiredResult(result))) => {
                    match rounds::answer(&self.handler.asks, &asking, result).await {
                        Ok(next) => {
                            retry = next;
                            continue;
                        }
                        Err(RoundError::Ask(error)) => {
                            return ToolOutput::from(ToolError::from(error))
                        }
                        Err(error) => {
                            return failed(
                                ErrorCode::RuntimeError,
                                format!(
                                    "The MCP server {} asked for input during `{tool}`: {error}.",
                                    self.prefix
                                ),
                            )
                        }
                    }
                }
                answer => answer,
            };
            return match answer {
                Ok(Some(ServerResult::CallToolResult(result))) => {
                    // The server's tool failed after a question nobody could answer: the
                    // question's error, as a local tool asking it would give.
                    if result.is_error == Some(true) {
                        if let Some(refused) = asking.refusal() {
                            return ToolOutput::from(ToolError::from(refused));
                        }
                    }
                    match wrapped {
                        Some(wrapped) => content::remote_structured_output(&result, wrapped),
                        None => content::remote_output(&result),
                    }
                }
                Ok(Some(_)) => failed(
                    ErrorCode::RuntimeError,
                    format!(
                        "The MCP server {} answered the call to `{tool}` with something other than a result (a task, which this client doesn't take).",
                        self.prefix
                    ),
                ),
                Ok(None) => failed(
                    ErrorCode::Timeout,
                    format!(
                        "The MCP server {} did not answer the call to `{tool}` within {:.1}s.",
                        self.prefix,
                        self.call_timeout.as_secs_f64()
                    ),
                ),
                Err(error) => failed(
                    ErrorCode::RuntimeError,
                    format!(
                        "The MCP server {} could not run `{tool}`: {error}.",
                        self.prefix
                    ),
                ),
            };
        }
        failed(
            ErrorCode::RuntimeError,
            format!(
                "The MCP server {} still asked for input after {} rounds of `{tool}`.",
                self.prefix,
                rounds::MAX_ROUNDS
            ),
        )
    }

    /// One request of a call: its progress routed to `cx`, its questions to `asking`, and the
    /// server told when it is given up. `None`: no answer within the call timeout.
    async fn round(
        &self,
        params: CallToolRequestParams,
        cx: &ToolContext,
        asking: &Arc<Asking>,
    ) -> Result<Option<ServerResult>, rmcp::ServiceError> {
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let peer = self.client.peer();
        // rmcp gives the request its progress token: watch it before waiting.
        let handle = peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await?;
        let (id, token) = (handle.id.clone(), handle.progress_token.clone());
        self.handler.watch(&token, cx.clone());
        // While it runs, the server may ask for sampling or elicitation: for this call.
        let _asking = self.handler.asks.in_flight(id.clone(), asking);
        let _watching = Unwatch(&self.handler, &token);
        // Dropped before the answer (the registry's timeout, a cancelled batch, the MCP
        // client here cancelling): the server is told, so its tool stops too.
        let mut unanswered = CancelOnDrop(Some((peer.clone(), id.clone())));
        let answer = tokio::time::timeout(self.call_timeout, handle.await_response()).await;
        unanswered.0 = None;
        match answer {
            Ok(answer) => {
                // rmcp hands each notification to a task of its own, so the last progress
                // may still be on its way: let it run before the result is returned.
                tokio::task::yield_now().await;
                answer.map(Some)
            }
            Err(_) => {
                let reason = Some("timed out".to_owned());
                let _ = peer
                    .notify_cancelled(CancelledNotificationParam::new(Some(id), reason))
                    .await;
                Ok(None)
            }
        }
    }
}

/// Stops watching a call's progress when the call ends, however it ends: a moment later,
/// for progress still being delivered (it reaches the call's context, which may have a
/// listener still).
struct Unwatch<'a>(&'a Handler, &'a ProgressToken);

/// How long a finished call's progress token is still routed.
const LATE_PROGRESS: Duration = Duration::from_millis(500);

impl Drop for Unwatch<'_> {
    fn drop(&mut self) {
        let (handler, token) = (self.0.clone(), self.1.clone());
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    tokio::time::sleep(LATE_PROGRESS).await;
                    handler.unwatch(&token);
                });
            }
            Err(_) => handler.unwatch(&token),
        }
    }
}

/// The client side of the connection: passes the server's progress for a call to that call's
/// context, its log lines to `tracing`, and its sampling and elicitation requests to the
/// call's client or the import's handlers.
#[derive(Clone)]
struct Handler {
    progress: Arc<Mutex<Progress>>,
    asks: Arc<Asks>,
}

/// Progress routing: the calls waiting for theirs, and progress that came before its call
/// was watched (the server may answer before `watch` runs).
#[derive(Default)]
struct Progress {
    calls: HashMap<String, ToolContext>,
    early: HashMap<String, Vec<ProgressNotificationParam>>,
}

/// How many unclaimed progress tokens are kept before they are dropped.
const EARLY_MAX: usize = 256;

impl Handler {
    fn new(asks: Asks) -> Handler {
        Handler {
            progress: Arc::default(),
            asks: Arc::new(asks),
        }
    }

    /// Routes the progress of `token` to `cx`, with what already came.
    fn watch(&self, token: &ProgressToken, cx: ToolContext) {
        let key = token_text(token);
        let early = {
            let mut progress = lock(&self.progress);
            progress.calls.insert(key.clone(), cx.clone());
            progress.early.remove(&key).unwrap_or_default()
        };
        for params in early {
            cx.progress(params.progress, params.total, params.message.as_deref());
        }
    }

    fn unwatch(&self, token: &ProgressToken) {
        let key = token_text(token);
        let mut progress = lock(&self.progress);
        progress.calls.remove(&key);
        progress.early.remove(&key);
    }
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::default();
        config.client_info = Implementation::new("tool-runtime", env!("CARGO_PKG_VERSION"));
        config.capabilities = Asks::capabilities();
        config
    }

    #[allow(deprecated)] // sampling: deprecated by the 2026 draft, in the 2025-11-25 spec.
    async fn create_message(
        &self,
        params: rmcp::model::CreateMessageRequestParams,
        cx: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::CreateMessageResult, rmcp::ErrorData> {
        self.asks.sample(params, &cx).await
    }

    async fn create_elicitation(
        &self,
        params: rmcp::model::ElicitRequestParams,
        cx: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, rmcp::ErrorData> {
        self.asks.elicit(params, &cx).await
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _cx: NotificationContext<RoleClient>,
    ) {
        let key = token_text(&params.progress_token);
        let cx = {
            let mut progress = lock(&self.progress);
            match progress.calls.get(&key) {
                Some(cx) => Some(cx.clone()),
                None => {
                    if progress.early.len() >= EARLY_MAX {
                        progress.early.clear();
                    }
                    progress.early.entry(key).or_default().push(params.clone());
                    None
                }
            }
        };
        if let Some(cx) = cx {
            cx.progress(params.progress, params.total, params.message.as_deref());
        }
    }

    /// rmcp has no type for `notifications/elicitation/complete`: it comes as a custom one.
    async fn on_custom_notification(
        &self,
        notification: rmcp::model::CustomNotification,
        _cx: NotificationContext<RoleClient>,
    ) {
        if notification.method != "notifications/elicitation/complete" {
            return;
        }
        let id = notification
            .params
            .as_ref()
            .and_then(|params| params.get("elicitationId"))
            .and_then(Value::as_str);
        if let Some(id) = id {
            self.asks.completed(id).await;
        }
    }

    #[allow(deprecated)] // MCP logging: deprecated by the 2026 draft, in the 2025-11-25 spec.
    async fn on_logging_message(
        &self,
        params: rmcp::model::LoggingMessageNotificationParam,
        _cx: NotificationContext<RoleClient>,
    ) {
        let logger = params.logger.as_deref().unwrap_or_default();
        tracing::info!(logger, level = ?params.level, data = %params.data, "MCP server log");
    }
}

fn token_text(token: &ProgressToken) -> String {
    match &token.0 {
        NumberOrString::String(text) => text.to_string(),
        NumberOrString::Number(n) => n.to_string(),
    }
}

/// The default prefix from a server's name: `example-servers/everything` → `everything`.
fn short_name(name: &str) -> String {
    name.rsplit('/').next().unwrap_or(name).to_owned()
}

/// Tool flags from MCP annotations: only what the server states, never the spec's defaults
/// (a server's annotations are hints, and an unannotated tool is not declared destructive).
fn flags(annotations: Option<&rmcp::model::ToolAnnotations>) -> ToolFlags {
    let mut flags = ToolFlags::default();
    if let Some(a) = annotations {
        flags.read_only = a.read_only_hint == Some(true);
        flags.destructive = a.destructive_hint == Some(true) && !flags.read_only;
        flags.idempotent = a.idempotent_hint == Some(true);
        flags.open_world = a.open_world_hint == Some(true);
    }
    flags
}

/// How many of the server's last stderr lines an error carries.
const STDERR_TAIL: usize = 20;

/// Reads a child's stderr line by line, keeping the last lines for error messages.
async fn keep_tail(
    stderr: tokio::process::ChildStderr,
    tail: Arc<Mutex<VecDeque<String>>>,
    server: String,
) {
    use tokio::io::AsyncBufReadExt;
    let mut lines = tokio::io::BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tracing::debug!(server = %server, "{line}");
        let mut tail = lock(&tail);
        if tail.len() == STDERR_TAIL {
            tail.pop_front();
        }
        tail.push_back(line);
    }
}

/// The error, with what the server said on stderr if anything.
fn with_stderr(error: McpError, tail: &Mutex<VecDeque<String>>) -> McpError {
    let tail = lock(tail);
    if tail.is_empty() {
        return error;
    }
    let said: Vec<&str> = tail.iter().map(String::as_str).collect();
    let said = said.join("\n  ");
    match error {
        McpError::Protocol {
            server,
            reason,
            source,
        } => McpError::Protocol {
            server,
            reason: format!("{reason}; it said on stderr:\n  {said}"),
            source,
        },
        other => other,
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Splits a command line into words: spaces separate, `'...'` is literal, `"..."` allows `\"`
/// and `\\`, and `\` escapes a character outside quotes.
fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a `'` is not closed".to_owned()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("a `\"` is not closed".to_owned()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a `\"` is not closed".to_owned()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        let words =
            split_command_line(r#"node  'my dir/server.js' --name "a \"b\"" x\ y"#).unwrap();
        assert_eq!(
            words,
            ["node", "my dir/server.js", "--name", "a \"b\"", "x y"]
        );
        assert!(split_command_line("node 'open").is_err());
        assert_eq!(split_command_line("  ").unwrap(), Vec::<String>::new());
        assert!(McpImport::command_line("").is_err());
    }

    #[test]
    fn default_prefixes_come_from_the_server_name() {
        assert_eq!(short_name("example-servers/everything"), "everything");
        assert_eq!(short_name("plain"), "plain");
    }

    #[test]
    fn only_stated_hints_become_flags() {
        assert_eq!(flags(None), ToolFlags::default());
        let mut hints = rmcp::model::ToolAnnotations::new();
        hints.read_only_hint = Some(true);
        hints.destructive_hint = Some(true);
        let flags = flags(Some(&hints));
        assert!(flags.read_only && !flags.destructive);
    }

    #[tokio::test]
    async fn a_command_that_does_not_exist_is_a_spawn_error() {
        let error = McpImport::stdio("/nonexistent/mcp-server", Vec::<String>::new())
            .connect()
            .await
            .unwrap_err();
        assert!(matches!(error, McpError::Spawn { .. }), "{error}");
        // The system's own error is kept as the source, not flattened into the message.
        let source = std::error::Error::source(&error).expect("a source");
        assert_eq!(
            source.downcast_ref::<std::io::Error>().map(|e| e.kind()),
            Some(std::io::ErrorKind::NotFound),
            "{source}"
        );
    }

    #[tokio::test]
    async fn a_server_that_exits_at_once_is_an_error_with_its_stderr() {
        let error = McpImport::stdio("sh", ["-c", "echo 'no such thing' >&2; exit 3"])
            .connect_timeout(Duration::from_secs(10))
            .connect()
            .await
            .unwrap_err();
        let text = error.to_string();
        assert!(matches!(error, McpError::Protocol { .. }), "{text}");
        assert!(text.contains("no such thing"), "{text}");
        assert!(
            std::error::Error::source(&error).is_some(),
            "rmcp's error is kept"
        );
    }

    #[tokio::test]
    async fn a_server_that_never_answers_times_out() {
        let error = McpImport::stdio("sleep", ["30"])
            .connect_timeout(Duration::from_millis(300))
            .connect()
            .await
            .unwrap_err();
        assert!(matches!(error, McpError::Timeout { .. }), "{error}");
    }
}
