//! [`AskContext`]: the questions a prompt or a resource asks the client that sent the request,
//! with the verbs and errors of a tool's [`ToolContext`](crate::ToolContext).

use super::{Ask, AskError, Client, ClientCapabilities, Elicitation, Root};
use super::{ElicitationId, SamplingRequest, SamplingResult};
use crate::hold::CallHold;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::sync::Arc;

/// The client of a `prompts/get` or `resources/read`, for the closure answering it to ask a
/// model's message ([`sample`](Self::sample)), the user's input ([`elicit`](Self::elicit)) or
/// the client's roots ([`roots`](Self::roots)): the same questions, answers and
/// [`AskError`]s as a tool's [`ToolContext`](crate::ToolContext). A closure given to
/// [`Prompt::asking`](crate::resources::Prompt::asking),
/// [`Resource::asking`](crate::resources::Resource::asking) or
/// [`ResourceTemplate::asking`](crate::resources::ResourceTemplate::asking) receives one.
///
/// Over MCP the questions are requests to the client under the handshake protocols, and an
/// input-required result under 2026-07-28, after which the client asks again with the
/// answers and the closure runs again from the start (see
/// [`is_retry`](Self::is_retry)). Read directly ([`Resources::get_prompt`], [`Resources::read`])
/// the questions go to the [`Client`] of the [`Client::scope`] around the read, and without
/// one fail with [`AskError::NoClient`].
///
/// [`Resources::get_prompt`]: crate::resources::Resources::get_prompt
/// [`Resources::read`]: crate::resources::Resources::read
///
/// ```
/// use serde_json::{json, Value};
/// use tool_runtime::client::{AskContext, Client, ClientCapabilities, ClientFuture, ClientRequests, Elicitation};
/// use tool_runtime::resources::{Prompt, PromptArgs, PromptMessage};
/// use tool_runtime::Registry;
///
/// /// Who the explanation is for.
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Audience {
///     /// A kind of reader: "a child", "an engineer".
///     who: String,
/// }
///
/// let explain = Prompt::asking("explain", |args, cx: AskContext| async move {
///     let who = match cx.ask("audience").elicit::<Audience>("Who is it for?").await? {
///         Elicitation::Accept(audience) => audience.who,
///         Elicitation::Decline | Elicitation::Cancel => "anyone".into(),
///     };
///     Ok(vec![PromptMessage::user(format!("Explain {} to {who}.", &args["topic"]))])
/// })
/// .argument("topic", "What to explain.", true);
///
/// // A client of your own (an MCP server is one per request): the user says "a child".
/// struct User;
/// impl ClientRequests for User {
///     fn capabilities(&self) -> ClientCapabilities {
///         ClientCapabilities::all()
///     }
///     fn create_message(&self, _: Value) -> ClientFuture {
///         Box::pin(async { Err("no model here".into()) })
///     }
///     fn elicit(&self, _: Value) -> ClientFuture {
///         Box::pin(async { Ok(json!({"action": "accept", "content": {"who": "a child"}})) })
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let registry = Registry::builder().without_inventory().prompt(explain).build().unwrap();
/// let get = registry.resources().get_prompt("explain", PromptArgs::new([("topic", "tides")]));
/// let messages = Client::new(User).scope(get).await.unwrap();
/// assert_eq!(messages[0].content.to_model_text(), "Explain tides to a child.");
///
/// // No client to ask: the prompt fails, saying so.
/// let alone = registry.resources().get_prompt("explain", PromptArgs::new([("topic", "tides")])).await;
/// assert!(alone.unwrap_err().to_string().contains("not served over MCP"));
/// # });
/// ```
#[derive(Clone)]
pub struct AskContext {
    client: Option<Client>,
    /// The hold on the registry's gate of the tool call asking, given back while a question
    /// is out; `None` for a prompt or a resource, which hold none.
    held: Option<Arc<CallHold>>,
}

impl AskContext {
    /// The client of the task this runs in ([`Client::scope`]), if any.
    #[cfg(feature = "mcp")]
    pub(crate) fn current() -> AskContext {
        AskContext::for_call(None)
    }

    /// The client of the task this runs in, for a tool call whose hold is `held`.
    pub(crate) fn for_call(held: Option<&Arc<CallHold>>) -> AskContext {
        AskContext {
            client: Client::current(),
            held: held.map(Arc::clone),
        }
    }

    /// Whether the client answers sampling requests ([`sample`](Self::sample)): false
    /// outside MCP, and for a client that did not declare `sampling`.
    pub fn can_sample(&self) -> bool {
        self.declared(|c| c.sampling)
    }

    /// Whether the client answers elicitation requests ([`elicit`](Self::elicit)): false
    /// outside MCP, and for a client that did not declare `elicitation` (form mode).
    pub fn can_elicit(&self) -> bool {
        self.declared(|c| c.elicitation)
    }

    /// Whether the client sends its user to a URL ([`elicit_url`](Self::elicit_url)): false
    /// outside MCP, and for a client that did not declare `elicitation.url`.
    pub fn can_elicit_url(&self) -> bool {
        self.declared(|c| c.elicitation_url)
    }

    /// Whether the client lists its roots ([`roots`](Self::roots)): false outside MCP, and
    /// for a client that did not declare `roots`.
    pub fn can_list_roots(&self) -> bool {
        self.declared(|c| c.roots)
    }

    /// Whether this run is a client's retry carrying answers to questions an earlier run
    /// asked (protocol 2026-07-28's input-required results): the closure runs again from the
    /// start, so whatever it did before its first question was done already.
    pub fn is_retry(&self) -> bool {
        self.client
            .as_ref()
            .is_some_and(|client| client.requests().is_retry())
    }

    /// Asks the client's server side to answer with a task now
    /// ([`ToolContext::continue_as_task`](crate::ToolContext::continue_as_task)): only a
    /// tool's call can become one.
    pub(crate) fn continue_as_task(&self) -> bool {
        self.client
            .as_ref()
            .is_some_and(|client| client.requests().continue_as_task())
    }

    /// The next question under a name of the closure's choosing: the key of the request in
    /// the input-required result's `inputRequests` under protocol 2026-07-28, and of the
    /// answer in the client's retry. Unnamed questions are `sampling-1`, `elicitation-1`,
    /// `roots-1`, ... in the order asked. See [`ToolContext::ask`](crate::ToolContext::ask).
    pub fn ask(&self, key: impl Into<String>) -> Ask<'_> {
        Ask::new(self.client.as_ref(), self.held.as_ref(), Some(key.into()))
    }

    /// Asks the client's model for a message (`sampling/createMessage`).
    ///
    /// # Errors
    ///
    /// As [`ToolContext::sample`](crate::ToolContext::sample).
    pub async fn sample(
        &self,
        request: impl Into<SamplingRequest>,
    ) -> Result<SamplingResult, AskError> {
        self.unnamed().sample(request).await
    }

    /// Asks the user to fill in a form (`elicitation/create`) shaped by `T`.
    ///
    /// # Errors
    ///
    /// As [`ToolContext::elicit`](crate::ToolContext::elicit).
    pub async fn elicit<T: JsonSchema + DeserializeOwned>(
        &self,
        message: impl Into<String>,
    ) -> Result<Elicitation<T>, AskError> {
        self.unnamed().elicit(message).await
    }

    /// Asks the user to fill in a form given as a JSON schema, and gives the answer as JSON.
    ///
    /// # Errors
    ///
    /// As [`ToolContext::elicit`](crate::ToolContext::elicit).
    pub async fn elicit_json(
        &self,
        message: impl Into<String>,
        schema: &Value,
    ) -> Result<Elicitation<Value>, AskError> {
        self.unnamed().elicit_json(message, schema).await
    }

    /// Asks the user to open `url` (`elicitation/create` in URL mode).
    ///
    /// # Errors
    ///
    /// As [`ToolContext::elicit_url`](crate::ToolContext::elicit_url).
    pub async fn elicit_url(
        &self,
        url: impl Into<String>,
        message: impl Into<String>,
    ) -> Result<Elicitation<ElicitationId>, AskError> {
        self.unnamed().elicit_url(url, message).await
    }

    /// Tells the client that the interaction of the URL-mode elicitation `id` is done
    /// (`notifications/elicitation/complete`).
    ///
    /// # Errors
    ///
    /// As [`ToolContext::complete_elicitation`](crate::ToolContext::complete_elicitation).
    pub async fn complete_elicitation(&self, id: &ElicitationId) -> Result<(), AskError> {
        let client = self.client.as_ref().ok_or(AskError::NoClient {
            capability: "elicitation.url",
        })?;
        client
            .requests()
            .elicitation_complete(id.as_str())
            .await
            .map_err(|source| AskError::Request {
                method: "notifications/elicitation/complete",
                source,
            })
    }

    /// Asks the client for its roots (`roots/list`).
    ///
    /// # Errors
    ///
    /// As [`ToolContext::roots`](crate::ToolContext::roots).
    pub async fn roots(&self) -> Result<Vec<Root>, AskError> {
        self.unnamed().roots().await
    }

    /// The client of the request, if any.
    pub(super) fn client(&self) -> Option<&Client> {
        self.client.as_ref()
    }

    fn unnamed(&self) -> Ask<'_> {
        Ask::new(self.client.as_ref(), self.held.as_ref(), None)
    }

    /// The next question, named `key` when given: an imported server's question keeps the
    /// server's own key, so that the answer a retry brings finds it again.
    #[cfg(feature = "mcp")]
    pub(crate) fn ask_as(&self, key: Option<&str>) -> Ask<'_> {
        Ask::new(
            self.client.as_ref(),
            self.held.as_ref(),
            key.map(str::to_owned),
        )
    }

    fn declared(&self, capability: fn(ClientCapabilities) -> bool) -> bool {
        self.client
            .as_ref()
            .is_some_and(|client| capability(client.capabilities()))
    }
}

impl std::fmt::Debug for AskContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AskContext")
            .field("client", &self.client)
            .finish()
    }
}
