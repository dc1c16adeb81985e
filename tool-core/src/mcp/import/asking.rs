//! An imported server asking *us* for sampling or elicitation (form or URL mode) during a
//! forwarded `tools/call`, `prompts/get` or `resources/read`: the question is asked through
//! the [`AskContext`] of that request (the client of the call or read when we serve it over
//! MCP, or of its [`Client::scope`](crate::client::Client::scope)), else answered by the
//! handler set on the import ([`McpImport::on_sampling`](crate::mcp::McpImport::on_sampling),
//! [`on_elicitation`](crate::mcp::McpImport::on_elicitation)), else refused: an error for
//! sampling, `decline` for elicitation.

use crate::client::{
    AskContext, AskError, BoxError, Elicitation, ElicitationId, ElicitationRequest,
    SamplingRequest, SamplingResult,
};
use crate::mcp::lock::lock;
use rmcp::model::{
    ClientCapabilities, ElicitRequestParams, ElicitResult, ElicitationCapability, ErrorData,
    FormElicitationCapability, JsonObject, RequestId, UrlElicitationCapability,
};
#[allow(deprecated)] // sampling: deprecated by the 2026 draft, in the 2025-11-25 spec.
use rmcp::model::{CreateMessageRequestParams, CreateMessageResult, SamplingCapability};
use rmcp::service::{InboundStreamOrigin, RequestContext, RoleClient};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Answer<T> = Pin<Box<dyn Future<Output = Result<T, BoxError>> + Send>>;
type SamplingFn = dyn Fn(SamplingRequest) -> Answer<SamplingResult> + Send + Sync;
type ElicitationFn = dyn Fn(ElicitationRequest) -> Answer<Elicitation<Value>> + Send + Sync;

/// The handlers set on an import, for requests no served call can forward.
#[derive(Clone, Default)]
pub(crate) struct Answerers {
    sampling: Option<Arc<SamplingFn>>,
    elicitation: Option<Arc<ElicitationFn>>,
}

impl Answerers {
    pub(crate) fn on_sampling<F, Fut>(&mut self, answer: F)
    where
        F: Fn(SamplingRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<SamplingResult, BoxError>> + Send + 'static,
    {
        self.sampling = Some(Arc::new(move |request| Box::pin(answer(request))));
    }

    pub(crate) fn on_elicitation<F, Fut>(&mut self, answer: F)
    where
        F: Fn(ElicitationRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Elicitation<Value>, BoxError>> + Send + 'static,
    {
        self.elicitation = Some(Arc::new(move |request| Box::pin(answer(request))));
    }
}

impl fmt::Debug for Answerers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Answerers")
            .field("sampling", &self.sampling.is_some())
            .field("elicitation", &self.elicitation.is_some())
            .finish()
    }
}

/// The asking context of one forwarded request, and the first question it could not ask
/// for want of a client or a capability: the typed error the request fails with when the
/// server gives up because of it.
pub(crate) struct Asking {
    cx: AskContext,
    refused: Mutex<Option<AskError>>,
}

impl Asking {
    pub(crate) fn new(cx: AskContext) -> Arc<Asking> {
        Arc::new(Asking {
            cx,
            refused: Mutex::new(None),
        })
    }

    /// Why a question of the server could not be asked: `NoClient` or `Unsupported`, the
    /// errors a local tool or prompt asking the same would get.
    pub(crate) fn refusal(&self) -> Option<AskError> {
        lock(&self.refused).take()
    }

    /// Keeps `error` when it says the question could not be asked at all (the first one).
    fn note(&self, error: &AskError) {
        let typed = match error {
            AskError::NoClient { capability } => AskError::NoClient { capability },
            AskError::Unsupported { capability } => AskError::Unsupported { capability },
            _ => return,
        };
        lock(&self.refused).get_or_insert(typed);
    }
}

/// What the import's client answers: the requests in flight (whose clients it can forward
/// to) and the import's handlers.
#[derive(Default)]
pub(crate) struct Asks {
    answerers: Answerers,
    /// The forwarded requests waiting for their answer, oldest first.
    calls: Mutex<Vec<(RequestId, Arc<Asking>)>>,
    /// Told when a request is added to `calls`.
    added: tokio::sync::Notify,
    /// The URL-mode elicitations of the server that our client accepted, by the server's
    /// id: who to tell, under our id, when the server says the interaction is done.
    urls: Mutex<HashMap<String, (AskContext, ElicitationId)>>,
}

/// How long a request of the server waits for the call it came on to be marked in flight: a
/// call is marked once rmcp has sent it and given its id, and a quick server may ask before.
const MARKING: Duration = Duration::from_secs(5);
/// The same wait for a request that can't say which call it came on (stdio), when no call
/// is in flight: shorter, since it may belong to none (then the handlers answer).
const MARKING_ANY: Duration = Duration::from_secs(1);
/// How many accepted URL-mode elicitations wait for their completion at most: a server that
/// never completes them can't grow the map without bound.
const URLS_MAX: usize = 256;

impl Asks {
    pub(crate) fn new(answerers: Answerers) -> Asks {
        Asks {
            answerers,
            ..Asks::default()
        }
    }

    /// What the import's client declares: sampling (with `includeContext`) and elicitation
    /// in form and URL mode, always, since a request served over MCP may forward them
    /// whatever the handlers; a caller that can't answer makes the question fail as a local
    /// one would.
    pub(crate) fn capabilities() -> ClientCapabilities {
        let mut capabilities = ClientCapabilities::default();
        #[allow(deprecated)]
        {
            let mut sampling = SamplingCapability::default();
            sampling.context = Some(JsonObject::new());
            capabilities.sampling = Some(sampling);
        }
        capabilities.elicitation = Some(
            ElicitationCapability::new()
                .with_form(FormElicitationCapability::new())
                .with_url(UrlElicitationCapability::new()),
        );
        capabilities
    }

    /// Marks `id` in flight for `asking` until the guard drops.
    pub(crate) fn in_flight(self: &Arc<Asks>, id: RequestId, asking: &Arc<Asking>) -> InFlight {
        lock(&self.calls).push((id.clone(), Arc::clone(asking)));
        self.added.notify_waiters();
        InFlight(Arc::clone(self), id)
    }

    /// The request a request of the server belongs to: the one whose HTTP stream it came on,
    /// or the only one in flight (stdio can't tell several apart). The request may come
    /// before its call is marked: it waits for that, a bounded while.
    async fn call_of(&self, cx: &RequestContext<RoleClient>) -> Option<Arc<Asking>> {
        let origin = match cx.extensions.get::<InboundStreamOrigin>() {
            Some(InboundStreamOrigin::OutboundRequest(id)) => Some(id.clone()),
            _ => None,
        };
        let waiting = async {
            loop {
                // Listening before looking, so that a call marked in between is not missed.
                let added = self.added.notified();
                tokio::pin!(added);
                added.as_mut().enable();
                if let Some(found) = self.find(origin.as_ref()) {
                    return found;
                }
                added.await;
            }
        };
        let limit = if origin.is_some() {
            MARKING
        } else {
            MARKING_ANY
        };
        tokio::time::timeout(limit, waiting).await.ok().flatten()
    }

    /// The request of `origin` when it is in flight (`Some(None)`: it can't be told); the
    /// only one without an origin. `None`: not marked yet.
    fn find(&self, origin: Option<&RequestId>) -> Option<Option<Arc<Asking>>> {
        let calls = lock(&self.calls);
        match (origin, calls.as_slice()) {
            (Some(id), calls) => calls
                .iter()
                .find(|(call, _)| call == id)
                .map(|(_, asking)| Some(Arc::clone(asking))),
            (None, []) => None,
            (None, [(_, only)]) => Some(Some(Arc::clone(only))),
            (None, _) => Some(None),
        }
    }

    /// Answers the server's `sampling/createMessage`.
    #[allow(deprecated)]
    pub(crate) async fn sample(
        &self,
        params: CreateMessageRequestParams,
        cx: &RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let call = self.call_of(cx).await;
        self.sample_for(params, call.as_deref(), None).await
    }

    /// Answers a sampling request asked during `call` (named `key` in an input-required
    /// result). `includeContext` goes as it came: our caller's client refuses it when it did
    /// not declare `sampling.context`.
    #[allow(deprecated)]
    pub(crate) async fn sample_for(
        &self,
        params: CreateMessageRequestParams,
        call: Option<&Asking>,
        key: Option<&str>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let handler = &self.answerers.sampling;
        // A handler answers only for a caller that can't: the caller's own client first.
        let caller = call.filter(|call| call.cx.can_sample() || handler.is_none());
        let answer = match (caller, handler) {
            (Some(call), _) => {
                let request: SamplingRequest = convert(&params)?;
                match call.cx.ask_as(key).sample(request).await {
                    Ok(answer) => answer,
                    Err(error) => {
                        call.note(&error);
                        return Err(refused(error));
                    }
                }
            }
            (_, Some(handler)) => handler(convert(&params)?).await.map_err(|e| refused(&*e))?,
            (None, None) => {
                return Err(ErrorData::invalid_request(
                    "sampling is not available: the call is not served to a client that samples, and the import has no on_sampling handler",
                    None,
                ))
            }
        };
        convert(&answer)
    }

    /// Answers the server's `elicitation/create`.
    pub(crate) async fn elicit(
        &self,
        params: ElicitRequestParams,
        cx: &RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let call = self.call_of(cx).await;
        self.elicit_for(params, call.as_deref(), None).await
    }

    /// Answers an elicitation asked during `call` (named `key` in an input-required result).
    pub(crate) async fn elicit_for(
        &self,
        params: ElicitRequestParams,
        call: Option<&Asking>,
        key: Option<&str>,
    ) -> Result<ElicitResult, ErrorData> {
        let (message, requested_schema) = match params {
            ElicitRequestParams::FormElicitationParams {
                message,
                requested_schema,
                ..
            } => (message, requested_schema),
            ElicitRequestParams::UrlElicitationParams {
                message,
                url,
                elicitation_id,
                ..
            } => return self.open_url(call, key, url, message, elicitation_id).await,
            // A mode this version doesn't know: not one the import's client declared.
            _ => return convert(&serde_json::json!({"action": "decline"})),
        };
        let schema = serde_json::to_value(&requested_schema).map_err(internal)?;
        let answer = match (
            call.filter(|c| c.cx.can_elicit()),
            &self.answerers.elicitation,
        ) {
            (Some(call), _) => call
                .cx
                .ask_as(key)
                .elicit_json(message, &schema)
                .await
                .map_err(refused)?,
            (None, Some(handler)) => handler(ElicitationRequest {
                message,
                requested_schema: schema,
            })
            .await
            .map_err(|e| refused(&*e))?,
            // Nobody can be asked: the user, in effect, says no.
            (None, None) => Elicitation::Decline,
        };
        convert(&answer)
    }

    /// A URL-mode elicitation: our caller's client sends its user to the server's URL when it
    /// declared `elicitation.url`; else the user, in effect, says no (the import's handlers
    /// answer forms only). An accepted one is remembered under the server's id (none from
    /// 2026-07-28 on), for its completion.
    ///
    /// The server is not trusted with our user: its URL passes the check a local tool's does
    /// ([`elicit_url`](crate::ToolContext::elicit_url): `https`, no user-info part, no
    /// invisible character) or the server gets `-32602` and nobody is asked.
    async fn open_url(
        &self,
        call: Option<&Asking>,
        key: Option<&str>,
        url: String,
        message: String,
        remote_id: String,
    ) -> Result<ElicitResult, ErrorData> {
        let url = match crate::client::check_url(&url) {
            Ok(checked) => checked,
            Err(reason) => {
                let refused = AskError::InvalidUrl { url, reason };
                return Err(ErrorData::invalid_params(refused.to_string(), None));
            }
        };
        let Some(call) = call.filter(|c| c.cx.can_elicit_url()) else {
            return convert(&serde_json::json!({"action": "decline"}));
        };
        let answer = call
            .cx
            .ask_as(key)
            .elicit_url(url, message)
            .await
            .map_err(refused)?;
        let action = answer.action();
        if let Elicitation::Accept(ours) = answer {
            if !remote_id.is_empty() {
                let mut urls = lock(&self.urls);
                if urls.len() >= URLS_MAX {
                    urls.clear();
                }
                urls.insert(remote_id, (call.cx.clone(), ours));
            }
        }
        convert(&serde_json::json!({ "action": action }))
    }

    /// The server's `notifications/elicitation/complete` for its elicitation `remote_id`:
    /// passed on to the client that accepted it, under the id that client knows.
    pub(crate) async fn completed(&self, remote_id: &str) {
        let Some((cx, ours)) = lock(&self.urls).remove(remote_id) else {
            return;
        };
        if let Err(error) = cx.complete_elicitation(&ours).await {
            tracing::debug!(%error, "notifications/elicitation/complete could not be passed on");
        }
    }
}

/// Keeps a forwarded request in flight while it lives.
pub(crate) struct InFlight(Arc<Asks>, RequestId);

impl Drop for InFlight {
    fn drop(&mut self) {
        lock(&self.0.calls).retain(|(id, _)| *id != self.1);
    }
}

/// One type to another through their common MCP JSON.
fn convert<A: serde::Serialize, B: serde::de::DeserializeOwned>(from: &A) -> Result<B, ErrorData> {
    let json = serde_json::to_value(from).map_err(internal)?;
    serde_json::from_value(json).map_err(|e| ErrorData::invalid_params(e.to_string(), None))
}

fn refused(error: impl fmt::Display) -> ErrorData {
    ErrorData::internal_error(error.to_string(), None)
}

fn internal(error: serde_json::Error) -> ErrorData {
    ErrorData::internal_error(error.to_string(), None)
}
