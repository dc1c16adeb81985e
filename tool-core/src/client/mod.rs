//! Asking the client that runs the call: sampling (its model writes a message) and
//! elicitation (its user fills in a form, or visits a URL of the server's).
//!
//! A tool asks through its [`ToolContext`](crate::ToolContext):
//! [`sample`](crate::ToolContext::sample), [`elicit`](crate::ToolContext::elicit),
//! [`elicit_json`](crate::ToolContext::elicit_json) and
//! [`elicit_url`](crate::ToolContext::elicit_url), after checking
//! [`can_sample`](crate::ToolContext::can_sample) or
//! [`can_elicit`](crate::ToolContext::can_elicit) if it has another way. The request goes to
//! the [`Client`] of the call, set by whoever runs it with [`Client::scope`]: the MCP server
//! sets one per call, forwarding to its client as `sampling/createMessage` and
//! `elicitation/create`. A call with no client (a plain [`Registry::call`](crate::Registry::call))
//! gets [`AskError::NoClient`]. All of this is the `client` cargo feature, which `mcp` and
//! `agent` turn on: a crate of tools that ask needs only it, without an HTTP stack. A prompt or a resource asks the same questions through an [`AskContext`]
//! ([`Prompt::asking`](crate::resources::Prompt::asking) and its kin).
//!
//! A question holds nothing of the registry while it waits: a tool call gives its pass through
//! the registry's gate (and its place under the concurrency limit) back while a question is
//! out, and takes it again before it reads the answer, so a client slow to answer, or one that
//! never does, delays only its own call. Each question waits at most the client's
//! [`ask_timeout`](Client::ask_timeout) (over MCP the server's, [`DEFAULT_ASK_TIMEOUT`]
//! unless set), then the tool gets [`AskError::TimedOut`]. What the tool read before a question may have changed by the
//! time its answer comes; a lock the tool holds itself stays held while it waits.
//!
//! ```
//! use serde::Deserialize;
//! use tool_runtime::client::{Elicitation, SamplingRequest};
//! use tool_runtime::{tool, ToolContext, ToolError};
//!
//! /// Where to ship the order.
//! #[derive(Deserialize, schemars::JsonSchema)]
//! struct Address {
//!     /// The street and number.
//!     street: String,
//!     /// The city.
//!     city: String,
//! }
//!
//! /// Ship an order, asking the user where to.
//! #[tool]
//! async fn ship(cx: ToolContext, order: u64) -> Result<String, ToolError> {
//!     let address = match cx.elicit::<Address>("Where should the order go?").await? {
//!         Elicitation::Accept(address) => address,
//!         Elicitation::Decline | Elicitation::Cancel => return Ok("Not shipped.".into()),
//!     };
//!     let note = cx
//!         .sample(SamplingRequest::user(format!("A one-line thank-you note for order {order}.")).max_tokens(60))
//!         .await?;
//!     Ok(format!("Order {order} ships to {}, {}. {}", address.street, address.city, note.text()))
//! }
//! ```

mod ask;
mod ask_context;
mod elicitation;
mod error;
mod question;
mod roots;
mod sampling;
mod schema;
mod task;
mod url_elicitation;
mod url_required;

pub use ask::Ask;
pub use ask_context::AskContext;
pub use elicitation::{Elicitation, ElicitationRequest};
pub use error::{AskError, InputPending, SchemaError, SchemaErrorKind};
pub use roots::Root;
pub use sampling::{
    IncludeContext, ModelPreferences, Role, SamplingContent, SamplingMessage, SamplingRequest,
    SamplingResult, SamplingTool, StopReason, ToolChoice,
};
pub use schema::{elicitation_schema, elicitation_schema_for};
pub use url_elicitation::{ElicitationId, UrlElicitationRequest};
// The import checks the links its servers send as a local tool's are checked.
#[cfg(feature = "mcp")]
pub(crate) use url_elicitation::check_url;
pub use url_required::UrlRequired;

use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

/// How long a question to an MCP client waits for its answer unless the server is given
/// another deadline (`McpServer::ask_timeout`, which sets it on every [`Client`] the server
/// makes): five minutes, long enough for a person to read and fill in a form, short enough
/// that a client that never answers doesn't keep the tool for the life of its session.
pub const DEFAULT_ASK_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// An error from whatever carries a request to the client (a transport, rmcp), kept whole.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// What [`ClientRequests`]' methods return: the answer's JSON, later.
pub type ClientFuture = Pin<Box<dyn Future<Output = Result<Value, BoxError>> + Send + 'static>>;

/// What [`ClientRequests`]' notifications return: sent, or why not, later.
pub type NotifyFuture = Pin<Box<dyn Future<Output = Result<(), BoxError>> + Send + 'static>>;

tokio::task_local! {
    /// The client of the calls running in this task, set by [`Client::scope`].
    static CURRENT: Client;
}

/// What the client of a call said it can do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ClientCapabilities {
    /// It answers `sampling/createMessage`.
    pub sampling: bool,
    /// It takes tools in a sampling request (`sampling.tools`).
    pub sampling_tools: bool,
    /// It may add context to a sampling request's prompt (`sampling.context`), which an
    /// `includeContext` other than `none` asks for.
    pub sampling_context: bool,
    /// It answers `elicitation/create` in form mode.
    pub elicitation: bool,
    /// It answers `elicitation/create` in URL mode (`elicitation.url`): it sends its user to
    /// a URL of the server's.
    pub elicitation_url: bool,
    /// It answers `roots/list`.
    pub roots: bool,
}

impl ClientCapabilities {
    /// A client that can do everything asked of it here: for tests and in-process clients.
    pub fn all() -> ClientCapabilities {
        ClientCapabilities {
            sampling: true,
            sampling_tools: true,
            sampling_context: true,
            elicitation: true,
            elicitation_url: true,
            roots: true,
        }
    }
}

/// Carries a call's requests to its client. The MCP server implements it over its session;
/// implement it to answer a tool's questions yourself (a terminal prompt, your own model),
/// and run calls inside [`Client::scope`].
///
/// Requests and answers are the JSON of MCP's `params` and `result`
/// (`CreateMessageRequest`, `ElicitRequest` in form or URL mode): what [`SamplingRequest`] and
/// [`SamplingResult`] serialize to, and `{"action": ..., "content": ...}` for elicitation.
pub trait ClientRequests: Send + Sync + 'static {
    /// What the client can do.
    fn capabilities(&self) -> ClientCapabilities;

    /// Sends `sampling/createMessage` with `params`, and gives the result's JSON. Called by
    /// the default [`request`](Self::request) only; by default the client does not sample:
    /// an error.
    fn create_message(&self, params: Value) -> ClientFuture {
        let _ = params;
        Box::pin(async { Err("this client does not sample".into()) })
    }

    /// Sends `elicitation/create` with `params` (form mode, or URL mode with `mode: "url"`),
    /// and gives the result's JSON. Called by the default [`request`](Self::request) only;
    /// by default the client does not elicit: an error.
    fn elicit(&self, params: Value) -> ClientFuture {
        let _ = params;
        Box::pin(async { Err("this client does not elicit".into()) })
    }

    /// Tells the client that the out-of-band interaction of the URL-mode elicitation
    /// `elicitation_id` is done (`notifications/elicitation/complete`). By default there is
    /// no one to tell: nothing is sent.
    fn elicitation_complete(&self, elicitation_id: &str) -> NotifyFuture {
        let _ = elicitation_id;
        Box::pin(async { Ok(()) })
    }

    /// Sends `roots/list`, and gives the result's JSON (`{"roots": [...]}`). Called by the
    /// default [`request`](Self::request) only; by default the client has no roots to give:
    /// an error.
    fn list_roots(&self) -> ClientFuture {
        Box::pin(async { Err("this client does not list roots".into()) })
    }

    /// Sends the request `method` (`sampling/createMessage`, `elicitation/create` or
    /// `roots/list`) with `params`, named `key` when the tool named it
    /// ([`ToolContext::ask`](crate::ToolContext::ask)): every question a tool asks comes
    /// through here. By default the name is dropped and the method's own function called;
    /// an implementation that carries every method alike (a transport, protocol
    /// 2026-07-28's input-required results, which keep questions by name) overrides this one
    /// alone, and answers a question whose answer is still to come with an [`InputPending`]
    /// error.
    fn request(&self, key: Option<&str>, method: &str, params: Value) -> ClientFuture {
        let _ = key;
        match method {
            "sampling/createMessage" => self.create_message(params),
            "elicitation/create" => self.elicit(params),
            "roots/list" => self.list_roots(),
            other => {
                let error = format!("no such client request: {other}");
                Box::pin(async move { Err(error.into()) })
            }
        }
    }

    /// Told when a question is not sent because the client did not declare `capability`
    /// (`sampling`, `sampling.tools`, `sampling.context`, `elicitation`, `elicitation.url`,
    /// `roots`): a server may then answer a call that fails for it with an error naming the
    /// capability. Does nothing by default.
    fn refused(&self, capability: &'static str) {
        let _ = capability;
    }

    /// Told when the call ends with a [`UrlRequired`] error, and the client declared
    /// `elicitation.url`: the URL interactions the user must complete before the call can
    /// succeed. A server answers the call with them (`-32042`, or an input-required round
    /// under protocol 2026-07-28) instead of the error's text. Does nothing by default.
    fn url_required(&self, elicitations: &[UrlElicitationRequest]) {
        let _ = elicitations;
    }

    /// Whether the call runs again with answers to an earlier run's questions
    /// ([`ToolContext::is_retry`](crate::ToolContext::is_retry)); false by default.
    fn is_retry(&self) -> bool {
        false
    }

    /// Answers the call's request with a task now, the call running on
    /// ([`ToolContext::continue_as_task`](crate::ToolContext::continue_as_task)): whether the
    /// call runs as a task from here on. False by default: only a server that runs tasks
    /// can.
    fn continue_as_task(&self) -> bool {
        false
    }
}

/// The client of the calls run inside [`scope`](Client::scope): where their sampling and
/// elicitation requests go.
///
/// ```
/// use serde_json::{json, Value};
/// use tool_runtime::client::{Client, ClientCapabilities, ClientFuture, ClientRequests};
/// use tool_runtime::{tool, Registry, ToolContext, ToolError};
///
/// /// Always says yes, as "Ada".
/// struct Yes;
///
/// impl ClientRequests for Yes {
///     fn capabilities(&self) -> ClientCapabilities {
///         ClientCapabilities::all()
///     }
///     fn create_message(&self, _: Value) -> ClientFuture {
///         Box::pin(async { Ok(json!({"role": "assistant", "content": {"type": "text", "text": "yes"}, "model": "yes-1"})) })
///     }
///     fn elicit(&self, _: Value) -> ClientFuture {
///         Box::pin(async { Ok(json!({"action": "accept", "content": {"name": "Ada"}})) })
///     }
/// }
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Name {
///     name: String,
/// }
///
/// /// Greet whoever the user says.
/// #[tool]
/// async fn greet(cx: ToolContext) -> Result<String, ToolError> {
///     let name = cx.elicit::<Name>("Who?").await?.accepted().map_or("nobody".into(), |n| n.name);
///     Ok(format!("Hello, {name}!"))
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let registry = Registry::builder().build().unwrap();
/// let out = Client::new(Yes).scope(registry.call("greet", "{}")).await;
/// assert_eq!(out.to_model_text(), "Hello, Ada!");
/// # });
/// ```
#[derive(Clone)]
pub struct Client {
    requests: Arc<dyn ClientRequests>,
    /// How long each question waits for its answer; `None`: as long as `requests` takes.
    ask_timeout: Option<Duration>,
}

impl Client {
    /// A client that sends its requests through `requests`. Its questions wait as long as
    /// `requests` takes to answer (it is the program's own code) unless given a deadline
    /// with [`with_ask_timeout`](Self::with_ask_timeout); the clients an MCP server makes
    /// for its calls always have one.
    pub fn new(requests: impl ClientRequests) -> Client {
        Client {
            requests: Arc::new(requests),
            ask_timeout: None,
        }
    }

    /// The same client, each question waiting at most `limit` for its answer: past it the
    /// question is withdrawn (its future dropped, which tells an MCP client
    /// `notifications/cancelled`) and the tool gets [`AskError::TimedOut`]. A client that
    /// never answers then keeps the tool no longer than `limit`. The deadline is kept with
    /// tokio's timer: run the calls on a runtime with time enabled (`enable_time`,
    /// `enable_all`, `#[tokio::main]`); outside a tokio runtime there is none.
    #[must_use]
    pub fn with_ask_timeout(mut self, limit: Duration) -> Client {
        self.ask_timeout = Some(limit);
        self
    }

    /// How long each question waits for its answer
    /// ([`with_ask_timeout`](Self::with_ask_timeout)); `None`: no deadline.
    pub fn ask_timeout(&self) -> Option<Duration> {
        self.ask_timeout
    }

    /// Runs `future` (a registry call, a batch, anything that runs calls) with this client:
    /// every call it starts in this task asks it.
    pub async fn scope<F: Future>(self, future: F) -> F::Output {
        CURRENT.scope(self, future).await
    }

    /// What the client can do.
    pub fn capabilities(&self) -> ClientCapabilities {
        self.requests.capabilities()
    }

    #[doc(hidden)]
    pub fn requests(&self) -> &dyn ClientRequests {
        &*self.requests
    }

    /// Whether a client is set for the calls running in this task.
    pub(crate) fn in_scope() -> bool {
        CURRENT.try_with(|_| ()).is_ok()
    }

    /// The client of the calls running in this task, if any.
    pub(crate) fn current() -> Option<Client> {
        CURRENT.try_with(Client::clone).ok()
    }
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Client").field(&self.capabilities()).finish()
    }
}
