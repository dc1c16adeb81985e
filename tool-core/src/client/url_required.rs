//! A call refused until the user has been to a page of the server's (MCP 2025-11-25's
//! `URLElicitationRequiredError`): the tool fails saying which URL interactions it needs, and
//! the client shows them and calls again once the user is done.

use super::error::AskError;
use super::url_elicitation::{self, ElicitationId, UrlElicitationRequest};
use super::Client;
use crate::error::{ErrorCode, ToolError};
use crate::ToolContext;
use std::fmt;

impl ToolContext {
    /// Refuses the call until the user has opened `url` (for the reason in `message`): a
    /// sign-in, a payment, what must not pass through the client or its model. Return it as
    /// the tool's error; unlike [`elicit_url`](Self::elicit_url) the tool does not wait, and
    /// the client calls again once the user is done (after
    /// [`complete_elicitation`](Self::complete_elicitation) of [`UrlRequired::id`], when it
    /// takes URL mode). [`UrlRequired::and`] adds more URLs.
    ///
    /// ```
    /// use tool_runtime::{tool, ToolContext, ToolError};
    ///
    /// /// Read the user's calendar.
    /// #[tool]
    /// async fn read_calendar(cx: ToolContext) -> Result<String, ToolError> {
    ///     let signed_in = false; // ... whether the OAuth callback of this user has landed
    ///     if !signed_in {
    ///         let required = cx.url_required(
    ///             "https://calendar.example.com/oauth/start?state=8d1f",
    ///             "Sign in to your calendar to let me read it.",
    ///         )?;
    ///         // ... keep `required.id()` with `state=8d1f`, to complete it when the callback lands
    ///         return Err(required.into());
    ///     }
    ///     Ok("Nothing today.".into())
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// // Outside MCP the model reads the URL.
    /// let registry = tool_runtime::Registry::builder().build().unwrap();
    /// let out = registry.call("read_calendar", "{}").await;
    /// assert!(out.to_model_text().contains("https://calendar.example.com/oauth/start?state=8d1f"));
    /// # });
    /// ```
    ///
    /// # Errors
    ///
    /// [`AskError::InvalidUrl`] for a URL [`elicit_url`](crate::ToolContext::elicit_url)
    /// refuses: not `https` (or `http` to a loopback host), with a user-info part, or
    /// holding spaces, control characters or invisible format characters.
    pub fn url_required(
        &self,
        url: impl Into<String>,
        message: impl Into<String>,
    ) -> Result<UrlRequired, AskError> {
        UrlRequired::new(self.asking.client().cloned(), url.into(), message.into())
    }
}

/// The URL interactions (a sign-in, a payment) a tool needs before it can do the call: made
/// by [`ToolContext::url_required`](crate::ToolContext::url_required), returned as the tool's
/// error (`?` or `.into()` make it a [`ToolError`] of code [`ErrorCode::UrlRequired`]).
///
/// Served over MCP to a client that declared `elicitation.url`, the call answers with the
/// JSON-RPC error `-32042` whose `data.elicitations` lists them (under protocol 2026-07-28,
/// which has no such error, with an input-required round asking them in URL mode). Anywhere
/// else the error's text gives the model each URL and why the user should open it.
///
/// Keep [`id`](Self::id) to tell the client when the interaction is done
/// ([`complete_elicitation`](crate::ToolContext::complete_elicitation)) and to know the
/// client's retry.
#[derive(Clone, Debug)]
pub struct UrlRequired {
    elicitations: Vec<UrlElicitationRequest>,
    /// The call's client, told of the interactions when this becomes the call's error.
    client: Option<Client>,
}

impl UrlRequired {
    /// The interaction of `url`, for the reason in `message`, under a new id.
    pub(super) fn new(
        client: Option<Client>,
        url: String,
        message: String,
    ) -> Result<UrlRequired, AskError> {
        Ok(UrlRequired {
            elicitations: vec![request(url, message)?],
            client,
        })
    }

    /// Adds another interaction the call needs (the user must sign in to two services).
    ///
    /// # Errors
    ///
    /// [`AskError::InvalidUrl`] for a URL [`elicit_url`](crate::ToolContext::elicit_url)
    /// refuses: not `https` (or `http` to a loopback host), with a user-info part, or
    /// holding spaces, control characters or invisible format characters.
    pub fn and(
        mut self,
        url: impl Into<String>,
        message: impl Into<String>,
    ) -> Result<UrlRequired, AskError> {
        self.elicitations.push(request(url.into(), message.into())?);
        Ok(self)
    }

    /// The id of the first interaction (the one [`url_required`](crate::ToolContext::url_required)
    /// made).
    pub fn id(&self) -> &ElicitationId {
        // Never empty: built with one, and only ever added to.
        &self.elicitations[0].elicitation_id
    }

    /// Every interaction, in the order added: each one's URL, message and id.
    pub fn elicitations(&self) -> &[UrlElicitationRequest] {
        &self.elicitations
    }
}

/// An interaction, its URL checked before anything can be sent.
fn request(url: String, message: String) -> Result<UrlElicitationRequest, AskError> {
    match url_elicitation::check_url(&url) {
        Ok(checked) => Ok(UrlElicitationRequest::new(checked, message)),
        Err(reason) => Err(AskError::InvalidUrl { url, reason }),
    }
}

/// What the model reads: every URL and why, so a client that can't show them loses nothing.
impl fmt::Display for UrlRequired {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.elicitations.as_slice() {
            [one] => write!(f, "The user must first open {} ({})", one.url, one.message),
            all => {
                f.write_str("The user must first open these pages:")?;
                for (n, each) in all.iter().enumerate() {
                    write!(f, " {}. {} ({})", n + 1, each.url, each.message)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for UrlRequired {}

/// The call's error: the client of the call, when it takes URL-mode elicitations, is told of
/// them here, so a server can answer with them instead of the text.
impl From<UrlRequired> for ToolError {
    fn from(required: UrlRequired) -> ToolError {
        if let Some(client) = &required.client {
            if client.capabilities().elicitation_url {
                client.requests().url_required(&required.elicitations);
            }
        }
        ToolError::with_code(ErrorCode::UrlRequired, required.to_string())
            .with_retry_hint("Give the user the URL; call again once they say they are done.")
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ClientCapabilities, ClientFuture, ClientRequests, NotifyFuture};
    use super::*;
    use crate::{DynamicTool, Registry, ToolOutput};
    use serde_json::{json, Value};
    use std::sync::{Arc, Mutex};

    /// A client that keeps the URL interactions it is told of, and the ones told complete.
    #[derive(Clone, Default)]
    struct Told {
        url: bool,
        told: Arc<Mutex<Vec<UrlElicitationRequest>>>,
        completed: Arc<Mutex<Vec<String>>>,
    }

    impl ClientRequests for Told {
        fn capabilities(&self) -> ClientCapabilities {
            ClientCapabilities {
                elicitation_url: self.url,
                ..ClientCapabilities::default()
            }
        }
        fn create_message(&self, _: Value) -> ClientFuture {
            Box::pin(async { Err("not asked".into()) })
        }
        fn elicit(&self, _: Value) -> ClientFuture {
            Box::pin(async { Err("not asked".into()) })
        }
        fn url_required(&self, elicitations: &[UrlElicitationRequest]) {
            self.told.lock().unwrap().extend_from_slice(elicitations);
        }
        fn elicitation_complete(&self, elicitation_id: &str) -> NotifyFuture {
            self.completed
                .lock()
                .unwrap()
                .push(elicitation_id.to_owned());
            Box::pin(async { Ok(()) })
        }
    }

    /// Calls a tool that fails with what `needs` makes of its context, inside `client`'s
    /// scope if any.
    async fn call_read<F>(client: Option<Told>, needs: F) -> ToolOutput
    where
        F: Fn(&ToolContext) -> UrlRequired + Send + Sync + 'static,
    {
        let tool = DynamicTool::new("read", "Reads.", json!({"type": "object"}), move |_, cx| {
            let required = needs(&cx);
            async move { ToolOutput::from(ToolError::from(required)) }
        });
        let registry = Registry::builder()
            .without_inventory()
            .dynamic(tool)
            .build()
            .unwrap();
        let call = registry.call("read", "{}");
        match client {
            Some(client) => Client::new(client).scope(call).await,
            None => call.await,
        }
    }

    /// Calls a tool that needs `urls` (URL, message pairs), inside `client`'s scope if any.
    async fn call_needing(client: Option<Told>, urls: &'static [(&str, &str)]) -> ToolOutput {
        call_read(client, move |cx| {
            let mut required = cx.url_required(urls[0].0, urls[0].1).unwrap();
            for (url, message) in &urls[1..] {
                required = required.and(*url, *message).unwrap();
            }
            required
        })
        .await
    }

    const ONE: &[(&str, &str)] = &[("https://example.com/sign-in", "Sign in.")];

    #[tokio::test]
    async fn outside_mcp_the_model_reads_the_url_and_message() {
        let output = call_needing(None, ONE).await;
        let error = output.as_error().unwrap();
        assert_eq!(error.code, ErrorCode::UrlRequired);
        assert_eq!(
            error.message,
            "The user must first open https://example.com/sign-in (Sign in.)"
        );
        assert!(error.retry_hint.as_deref().unwrap().contains("call again"));
    }

    #[tokio::test]
    async fn a_client_taking_url_mode_is_told_every_interaction_in_order() {
        let client = Told {
            url: true,
            ..Told::default()
        };
        let two = &[
            ("https://a.example.com/", "Sign in to A."),
            ("https://b.example.com/", "Sign in to B."),
        ];
        let output = call_needing(Some(client.clone()), two).await;
        let told = client.told.lock().unwrap().clone();
        let urls: Vec<_> = told.iter().map(|e| e.url.as_str()).collect();
        assert_eq!(urls, ["https://a.example.com/", "https://b.example.com/"]);
        assert_ne!(told[0].elicitation_id, told[1].elicitation_id);
        assert_eq!(
            output.as_error().unwrap().message,
            "The user must first open these pages: 1. https://a.example.com/ (Sign in to A.) \
             2. https://b.example.com/ (Sign in to B.)"
        );
    }

    #[tokio::test]
    async fn a_client_without_url_mode_is_told_nothing_and_gets_the_text() {
        let client = Told::default();
        let output = call_needing(Some(client.clone()), ONE).await;
        assert!(client.told.lock().unwrap().is_empty());
        assert_eq!(output.as_error().unwrap().code, ErrorCode::UrlRequired);
    }

    /// The flow of an OAuth sign-in: the call ends needing the URL, and when the callback
    /// lands (after the call) the tool completes the interaction under the id the client was
    /// given, through the context it kept.
    #[tokio::test]
    async fn a_kept_context_completes_the_interaction_after_the_call() {
        let client = Told {
            url: true,
            ..Told::default()
        };
        let kept: Arc<Mutex<Option<(ToolContext, ElicitationId)>>> = Arc::default();
        let keep = Arc::clone(&kept);
        let output = call_read(Some(client.clone()), move |cx| {
            let required = cx.url_required(ONE[0].0, ONE[0].1).unwrap();
            *keep.lock().unwrap() = Some((cx.clone(), required.id().clone()));
            required
        })
        .await;
        assert!(output.is_error());
        let (cx, id) = kept.lock().unwrap().take().unwrap();
        cx.complete_elicitation(&id).await.unwrap();
        let told = client.told.lock().unwrap()[0].elicitation_id.clone();
        assert_eq!(told, id);
        assert_eq!(*client.completed.lock().unwrap(), [id.as_str()]);
    }

    #[test]
    fn a_url_that_is_not_absolute_is_refused_and_the_id_is_the_first() {
        let refused = UrlRequired::new(None, "example.com/x".into(), "Go.".into()).unwrap_err();
        assert!(matches!(refused, AskError::InvalidUrl { .. }), "{refused}");
        let required = UrlRequired::new(None, "https://a.example.com/".into(), "A".into()).unwrap();
        let first = required.id().clone();
        let required = required.and("https://b.example.com/", "B").unwrap();
        assert_eq!(required.id(), &first);
        assert_eq!(required.elicitations().len(), 2);
        assert!(required.and("https://b .example.com/", "B").is_err());
    }
}
