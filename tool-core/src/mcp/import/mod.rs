//! Importing a server's tools: [`McpImport`] connects (a command over stdio, or a
//! streamable-HTTP URL), lists the tools, and gives each as a [`DynamicTool`] that forwards
//! its calls.

mod asking;
mod builder;
mod command;
mod handler;
mod http_client;
mod local_names;
#[cfg(feature = "mcp-oauth")]
mod oauth;
mod param_headers;
mod protocol;
mod remote;
mod resources;
mod rounds;
mod schema_in;
mod tools;

#[cfg(feature = "mcp-oauth-jwt")]
pub use oauth::JwtAlgorithm;
#[cfg(feature = "mcp-oauth")]
pub use oauth::{AuthorizationPrompt, IdentityProvider, McpOAuth};
pub use protocol::McpProtocol;
pub use tools::{ImportNote, McpTools};

use self::command::{keep_tail, split_command_line, with_stderr};
use self::handler::Handler;
use self::remote::Remote;

use self::asking::{Answerers, Asks};
use crate::client::{BoxError, Elicitation, ElicitationRequest, SamplingRequest, SamplingResult};
use crate::def::ToolFlags;
use crate::mcp::McpError;
use crate::DynamicTool;
use rmcp::model::Implementation;
use rmcp::service::ClientServiceExt;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::Value;
use std::collections::{HashSet, VecDeque};
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
    Stdio {
        command: String,
        args: Vec<String>,
    },
    Http {
        url: String,
        token: Option<String>,
        /// Signing in when the server asks (boxed: most imports don't).
        #[cfg(feature = "mcp-oauth")]
        oauth: Option<Box<McpOAuth>>,
    },
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
    /// `https` needs TLS, which the `agent` and `mcp-oauth` features bring.
    pub fn http(url: impl Into<String>) -> McpImport {
        McpImport::from_source(Source::Http {
            url: url.into(),
            token: None,
            #[cfg(feature = "mcp-oauth")]
            oauth: None,
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

    /// Signs in when the server asks (HTTP servers only; feature `mcp-oauth`): a `401` to the
    /// first request starts OAuth 2.1's authorization-code flow as `oauth` says (see
    /// [`McpOAuth`]); the token then rides every request and is refreshed before it
    /// expires. The time the user takes to sign in doesn't count against the connect
    /// timeout (it has [`McpOAuth::wait`]).
    #[cfg(feature = "mcp-oauth")]
    #[must_use]
    pub fn oauth(mut self, oauth: McpOAuth) -> McpImport {
        if let Source::Http { oauth: slot, .. } = &mut self.source {
            *slot = Some(Box::new(oauth));
        }
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
        // The listed tools' `x-mcp-header` annotations, for the HTTP client.
        let params = self::param_headers::ParamHeaders::default();
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
                Source::Http { url, token, .. } => {
                    // rmcp builds a reqwest client, which needs a TLS provider when the
                    // `agent` feature has turned rustls on.
                    #[cfg(any(feature = "agent", feature = "mcp-oauth"))]
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
                    let http = self::http_client::ImportClient::new(params.clone()).map_err(|e| {
                        McpError::Protocol {
                            server: server.clone(),
                            reason: format!("could not build the HTTP client: {e}"),
                            source: Some(Box::new(e)),
                        }
                    })?;
                    #[cfg(feature = "mcp-oauth")]
                    let signing = match &self.source {
                        Source::Http { oauth, .. } => oauth.as_deref().cloned(),
                        Source::Stdio { .. } => None,
                    };
                    #[cfg(not(feature = "mcp-oauth"))]
                    let signing: Option<std::convert::Infallible> = None;
                    match signing {
                        None => {
                            let transport = StreamableHttpClientTransport::with_client(http, config);
                            handler
                                .clone()
                                .serve_with_lifecycle(transport, self.protocol.lifecycle())
                                .await
                        }
                        // Signing in when the server asks, around our client.
                        #[cfg(feature = "mcp-oauth")]
                        Some(oauth) => {
                            let http = self::oauth::SigningIn::new(http, url, oauth);
                            let transport = StreamableHttpClientTransport::with_client(http, config);
                            handler
                                .clone()
                                .serve_with_lifecycle(transport, self.protocol.lifecycle())
                                .await
                        }
                        #[cfg(not(feature = "mcp-oauth"))]
                        Some(never) => match never {},
                    }
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
            params.learn(&tools);
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
        // A sign-in waits for a user, for at most its own `wait`, on top of the connect time.
        #[cfg(feature = "mcp-oauth")]
        let limit = match &self.source {
            Source::Http {
                oauth: Some(oauth), ..
            } => self.connect_timeout + oauth.wait,
            _ => self.connect_timeout,
        };
        #[cfg(not(feature = "mcp-oauth"))]
        let limit = self.connect_timeout;
        let error = match tokio::time::timeout(limit, connecting).await {
            Ok(Ok(connected)) => Ok(connected),
            Ok(Err(error)) => Err(error),
            Err(_) => Err(McpError::Timeout {
                server: server.clone(),
                doing: "starting and listing its tools",
                seconds: limit.as_secs_f64(),
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
