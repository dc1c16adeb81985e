//! The questions a tool asks through its [`ToolContext`] (and a prompt or resource through its
//! [`AskContext`](super::AskContext)): the capability checks, then one request each for
//! sampling, elicitation (a form, or a URL) and roots, through an [`Ask`] that may name them.

use super::elicitation::Form;
use super::error::{AskError, InputPending};
use super::question::Question;
use super::roots::ListRoots;
use super::url_elicitation::{self, ElicitationId, UrlElicitationRequest};
use super::{schema, Client, Elicitation, Root, SamplingRequest, SamplingResult};
use crate::hold::CallHold;
use crate::ToolContext;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::sync::Arc;

impl ToolContext {
    /// Whether the call's client answers sampling requests ([`sample`](Self::sample)):
    /// false outside MCP, and for a client that did not declare `sampling`.
    pub fn can_sample(&self) -> bool {
        self.asking.can_sample()
    }

    /// Whether the call's client answers elicitation requests ([`elicit`](Self::elicit)):
    /// false outside MCP, and for a client that did not declare `elicitation` (form mode).
    pub fn can_elicit(&self) -> bool {
        self.asking.can_elicit()
    }

    /// Whether the call's client sends its user to a URL ([`elicit_url`](Self::elicit_url)):
    /// false outside MCP, and for a client that did not declare `elicitation.url`.
    pub fn can_elicit_url(&self) -> bool {
        self.asking.can_elicit_url()
    }

    /// Whether the call's client lists its roots ([`roots`](Self::roots)): false outside
    /// MCP, and for a client that did not declare `roots`.
    pub fn can_list_roots(&self) -> bool {
        self.asking.can_list_roots()
    }

    /// Whether this run of the call is a client's retry carrying answers to questions an
    /// earlier run asked (protocol 2026-07-28's input-required results): the tool runs
    /// again from the start, so whatever it did before its first question was done already.
    /// Check it to skip a side effect that must happen once.
    pub fn is_retry(&self) -> bool {
        self.asking.is_retry()
    }

    /// The next question under a name of the tool's choosing: under protocol 2026-07-28 it
    /// is the key of the request in the `inputRequests` of the input-required result, and of
    /// the answer in the client's retry. Unnamed questions ([`sample`](Self::sample),
    /// [`elicit`](Self::elicit), ...) are `sampling-1`, `elicitation-1`, `roots-1`, ... in
    /// the order asked. Names only matter to clients that look at them; in the handshake
    /// protocols they are not sent.
    ///
    /// ```
    /// use tool_runtime::{tool, ToolContext, ToolError};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Name {
    ///     name: String,
    /// }
    ///
    /// /// Greet the user by name.
    /// #[tool]
    /// async fn greet(cx: ToolContext) -> Result<String, ToolError> {
    ///     let name = cx.ask("user_name").elicit::<Name>("What is your name?").await?;
    ///     Ok(format!("Hello, {}!", name.accepted().map_or("stranger".into(), |n| n.name)))
    /// }
    /// ```
    pub fn ask(&self, key: impl Into<String>) -> Ask<'_> {
        self.asking.ask(key)
    }

    /// Asks the client for its roots (`roots/list`): the directories or files it lets the
    /// server work in.
    ///
    /// # Errors
    ///
    /// As [`sample`](Self::sample), for the capability `roots`.
    pub async fn roots(&self) -> Result<Vec<Root>, AskError> {
        self.asking.roots().await
    }

    /// Asks the client's model for a message (`sampling/createMessage`): a [`SamplingRequest`],
    /// or just the user's text. The client may show the request to its user, change it, or
    /// refuse it.
    ///
    /// ```
    /// use tool_runtime::client::SamplingRequest;
    /// use tool_runtime::{tool, ToolContext, ToolError};
    ///
    /// /// Summarize a text with the client's model.
    /// #[tool]
    /// async fn summarize(cx: ToolContext, text: String) -> Result<String, ToolError> {
    ///     let request = SamplingRequest::user(format!("Summarize in one line:\n{text}"))
    ///         .system_prompt("You write terse summaries.")
    ///         .max_tokens(80);
    ///     Ok(cx.sample(request).await?.text())
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// [`AskError::NoClient`] outside MCP, [`AskError::Unsupported`] when the client did not
    /// declare `sampling` (or `sampling.tools`, for a request with tools),
    /// [`AskError::Request`] when the client refused or failed, [`AskError::Answer`] for an
    /// answer that isn't a sampling result.
    pub async fn sample(
        &self,
        request: impl Into<SamplingRequest>,
    ) -> Result<SamplingResult, AskError> {
        self.asking.sample(request).await
    }

    /// Asks the user to fill in a form (`elicitation/create`) shaped by `T`: a struct of
    /// strings, numbers, booleans, enums and lists of enum values (multi-select), as
    /// [`elicitation_schema_for`](super::elicitation_schema_for) flattens it. Doc comments are
    /// the fields' descriptions, `#[serde(default)]` values their defaults.
    ///
    /// ```
    /// use serde::Deserialize;
    /// use tool_runtime::client::Elicitation;
    /// use tool_runtime::{tool, ToolContext, ToolError};
    ///
    /// #[derive(Deserialize, schemars::JsonSchema)]
    /// struct Confirm {
    ///     /// Really delete?
    ///     sure: bool,
    /// }
    ///
    /// /// Delete a file, once the user says so.
    /// #[tool(destructive)]
    /// async fn delete(cx: ToolContext, path: String) -> Result<String, ToolError> {
    ///     match cx.elicit::<Confirm>(format!("Delete {path}?")).await? {
    ///         Elicitation::Accept(Confirm { sure: true }) => Ok(format!("{path} deleted")),
    ///         _ => Ok("kept".into()),
    ///     }
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// [`AskError::Schema`] (before anything is sent) when `T` is not a flat form,
    /// [`AskError::NoClient`] outside MCP, [`AskError::Unsupported`] when the client did not
    /// declare `elicitation`, [`AskError::Request`] when the client failed,
    /// [`AskError::Answer`] when the accepted content does not fit `T`.
    pub async fn elicit<T: JsonSchema + DeserializeOwned>(
        &self,
        message: impl Into<String>,
    ) -> Result<Elicitation<T>, AskError> {
        self.asking.elicit(message).await
    }

    /// Asks the user to fill in a form given as a JSON schema (flattened as
    /// [`elicitation_schema`](super::elicitation_schema) does), and gives the answer as JSON:
    /// for dynamic tools, whose forms are only known at run time.
    ///
    /// # Errors
    ///
    /// As [`elicit`](Self::elicit).
    pub async fn elicit_json(
        &self,
        message: impl Into<String>,
        schema: &Value,
    ) -> Result<Elicitation<Value>, AskError> {
        self.asking.elicit_json(message, schema).await
    }

    /// Asks the user to open `url` (`elicitation/create` in URL mode, MCP 2025-11-25), for
    /// what must not pass through the client: a sign-in, a payment, a key to paste. The
    /// client shows `message` and the URL, and says whether the user agreed to go there;
    /// what they do on the page reaches the tool by the page's own way (an OAuth callback,
    /// the tool's store), and the tool then tells the client with
    /// [`complete_elicitation`](Self::complete_elicitation).
    ///
    /// Under protocol 2026-07-28 the question travels in an input-required result, as any
    /// other ([`AskError::InputRequired`]), and the call runs again with the answer.
    ///
    /// ```
    /// use tool_runtime::client::Elicitation;
    /// use tool_runtime::{tool, ToolContext, ToolError};
    ///
    /// /// Connect the user's calendar.
    /// #[tool]
    /// async fn connect_calendar(cx: ToolContext) -> Result<String, ToolError> {
    ///     let url = "https://calendar.example.com/oauth/start?state=8d1f";
    ///     match cx.elicit_url(url, "Sign in to your calendar to let me read it.").await? {
    ///         Elicitation::Accept(id) => {
    ///             // ... wait for the OAuth callback of `state=8d1f`, then:
    ///             cx.complete_elicitation(&id).await?;
    ///             Ok("Calendar connected.".into())
    ///         }
    ///         Elicitation::Decline | Elicitation::Cancel => Ok("Not connected.".into()),
    ///     }
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// [`AskError::InvalidUrl`] (before anything is sent) for a URL that is not `https` (or
    /// `http` to a loopback host), has a user-info part (`name@host`), or holds spaces,
    /// control characters or invisible format characters (Unicode `Cf`), [`AskError::NoClient`] outside
    /// MCP, [`AskError::Unsupported`] when the client did not declare `elicitation.url`,
    /// [`AskError::Request`] when the client failed, [`AskError::Answer`] for an answer
    /// without a valid `action`.
    pub async fn elicit_url(
        &self,
        url: impl Into<String>,
        message: impl Into<String>,
    ) -> Result<Elicitation<ElicitationId>, AskError> {
        self.asking.elicit_url(url, message).await
    }

    /// Tells the client that the interaction of the URL-mode elicitation `id` is done
    /// (`notifications/elicitation/complete`): it may close its "waiting" dialog. Protocol
    /// 2026-07-28 has no such notification (the client's retry carries the answer): nothing
    /// is sent there.
    ///
    /// # Errors
    ///
    /// [`AskError::NoClient`] outside MCP, [`AskError::Request`] when the notification could
    /// not be sent (the client has gone).
    pub async fn complete_elicitation(&self, id: &ElicitationId) -> Result<(), AskError> {
        self.asking.complete_elicitation(id).await
    }
}

/// The error for a question the client can't answer, told to the client too.
fn refused(client: &Client, capability: &'static str) -> AskError {
    client.requests().refused(capability);
    AskError::Unsupported { capability }
}

/// One question to the client, maybe named: [`ToolContext::ask`],
/// [`AskContext::ask`](super::AskContext::ask). Its methods are [`ToolContext`]'s, with the
/// same errors.
pub struct Ask<'a> {
    /// The client of the call or request; none outside MCP.
    client: Option<&'a Client>,
    /// The asking tool call's hold on the registry's gate, given back while the question is
    /// out; none for a prompt or a resource.
    held: Option<&'a Arc<CallHold>>,
    key: Option<String>,
}

impl std::fmt::Debug for Ask<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ask")
            .field("client", &self.client)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl<'a> Ask<'a> {
    pub(super) fn new(
        client: Option<&'a Client>,
        held: Option<&'a Arc<CallHold>>,
        key: Option<String>,
    ) -> Ask<'a> {
        Ask { client, held, key }
    }

    /// [`ToolContext::sample`], under this name.
    ///
    /// # Errors
    ///
    /// As [`ToolContext::sample`].
    pub async fn sample(
        self,
        request: impl Into<SamplingRequest>,
    ) -> Result<SamplingResult, AskError> {
        self.request(request.into()).await
    }

    /// [`ToolContext::elicit`], under this name.
    ///
    /// # Errors
    ///
    /// As [`ToolContext::elicit`].
    pub async fn elicit<T: JsonSchema + DeserializeOwned>(
        self,
        message: impl Into<String>,
    ) -> Result<Elicitation<T>, AskError> {
        let schema = schema::elicitation_schema_for::<T>()?;
        self.request(Form::new(message.into(), schema)).await
    }

    /// [`ToolContext::elicit_json`], under this name.
    ///
    /// # Errors
    ///
    /// As [`ToolContext::elicit`].
    pub async fn elicit_json(
        self,
        message: impl Into<String>,
        schema: &Value,
    ) -> Result<Elicitation<Value>, AskError> {
        let schema = schema::elicitation_schema(schema)?;
        self.request(Form::new(message.into(), schema)).await
    }

    /// [`ToolContext::elicit_url`], under this name.
    ///
    /// # Errors
    ///
    /// As [`ToolContext::elicit_url`].
    pub async fn elicit_url(
        self,
        url: impl Into<String>,
        message: impl Into<String>,
    ) -> Result<Elicitation<ElicitationId>, AskError> {
        let url = url.into();
        // What goes out is what was checked: the parsed URL, written back.
        let url = match url_elicitation::check_url(&url) {
            Ok(checked) => checked,
            Err(reason) => return Err(AskError::InvalidUrl { url, reason }),
        };
        self.request(UrlElicitationRequest::new(url, message)).await
    }

    /// [`ToolContext::roots`], under this name.
    ///
    /// # Errors
    ///
    /// As [`ToolContext::roots`].
    pub async fn roots(self) -> Result<Vec<Root>, AskError> {
        self.request(ListRoots).await
    }

    /// Every question's one path: the client and its capabilities checked, the request
    /// written, sent and its answer read.
    pub(crate) async fn request<Q: Question>(self, question: Q) -> Result<Q::Answer, AskError> {
        let client = self.client_for(Q::CAPABILITY)?;
        if let Some(capability) = question.missing(client.capabilities()) {
            return Err(refused(client, capability));
        }
        let params = question.params().map_err(|source| AskError::Encode {
            method: Q::METHOD,
            source,
        })?;
        let answer = self.send(client, Q::METHOD, params).await?;
        question.answer(answer).map_err(|source| AskError::Answer {
            method: Q::METHOD,
            source,
        })
    }

    /// Sends the request and waits for the answer, at most the client's
    /// [`ask_timeout`](Client::ask_timeout) when it has one ([`AskError::TimedOut`]); an
    /// answer still to come in the client's retry is [`AskError::InputRequired`].
    ///
    /// A tool call gives its hold on the registry's gate back while it waits and takes it
    /// again before the tool reads the answer (`dispatch::hold`): a client slow to answer, or
    /// one that never does, delays only this call.
    async fn send(
        &self,
        client: &Client,
        method: &'static str,
        params: Value,
    ) -> Result<Value, AskError> {
        let away = self.held.map(|held| held.step_out());
        let request = client
            .requests()
            .request(self.key.as_deref(), method, params);
        // Timers need a tokio runtime; under another executor the question waits unbounded,
        // as a call's own timeout does.
        let limit = client
            .ask_timeout()
            .filter(|_| tokio::runtime::Handle::try_current().is_ok());
        let answer = match limit {
            Some(limit) => tokio::time::timeout(limit, request)
                .await
                .map_err(|_| limit),
            None => Ok(request.await),
        };
        if let Some(away) = away {
            away.back().await;
        }
        match answer {
            Err(after) => Err(AskError::TimedOut { method, after }),
            Ok(answer) => answer.map_err(|source| match source.downcast::<InputPending>() {
                Ok(pending) => AskError::InputRequired {
                    method,
                    key: pending.key,
                },
                Err(source) => AskError::Request { method, source },
            }),
        }
    }

    /// The call's client, or the error saying there is none.
    fn client_for(&self, capability: &'static str) -> Result<&'a Client, AskError> {
        self.client.ok_or(AskError::NoClient { capability })
    }
}

#[cfg(test)]
#[path = "ask_tests.rs"]
mod tests;
