//! An imported server asking *us* for sampling or elicitation during a call: the request is
//! forwarded to the client of that call when we serve it over MCP (the call's
//! [`Client`](crate::client::Client)), else answered by the handler set on the import
//! ([`McpImport::on_sampling`](super::McpImport::on_sampling),
//! [`on_elicitation`](super::McpImport::on_elicitation)), else refused: an error for
//! sampling, `decline` for elicitation.

use crate::client::{BoxError, Elicitation, ElicitationRequest, SamplingRequest, SamplingResult};
use crate::ToolContext;
use rmcp::model::{
    ClientCapabilities, ElicitRequestParams, ElicitResult, ElicitationCapability, ErrorData,
    FormElicitationCapability, RequestId,
};
#[allow(deprecated)] // sampling: deprecated by the 2026 draft, in the 2025-11-25 spec.
use rmcp::model::{CreateMessageRequestParams, CreateMessageResult, SamplingCapability};
use rmcp::service::{InboundStreamOrigin, RequestContext, RoleClient};
use serde_json::Value;
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

/// What the import's client answers: the calls in flight (whose clients it can forward to)
/// and the import's handlers.
#[derive(Default)]
pub(crate) struct Asks {
    answerers: Answerers,
    /// The forwarded `tools/call`s waiting for their answer, oldest first.
    calls: Mutex<Vec<(RequestId, ToolContext)>>,
    /// Told when a call is added to `calls`.
    added: tokio::sync::Notify,
}

/// How long a request of the server waits for the call it came on to be marked in flight: a
/// call is marked once rmcp has sent it and given its id, and a quick server may ask before.
const MARKING: Duration = Duration::from_secs(5);
/// The same wait for a request that can't say which call it came on (stdio), when no call
/// is in flight: shorter, since it may belong to none (then the handlers answer).
const MARKING_ANY: Duration = Duration::from_secs(1);

impl Asks {
    pub(crate) fn new(answerers: Answerers) -> Asks {
        Asks {
            answerers,
            calls: Mutex::default(),
            added: tokio::sync::Notify::new(),
        }
    }

    /// What the import's client declares: sampling and form elicitation, always, since a call
    /// served over MCP may forward them whatever the handlers.
    pub(crate) fn capabilities() -> ClientCapabilities {
        let mut capabilities = ClientCapabilities::default();
        #[allow(deprecated)]
        {
            capabilities.sampling = Some(SamplingCapability::default());
        }
        capabilities.elicitation =
            Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()));
        capabilities
    }

    /// Marks `id` in flight for `cx` until the guard drops.
    pub(crate) fn in_flight(self: &Arc<Asks>, id: RequestId, cx: ToolContext) -> InFlight {
        lock(&self.calls).push((id.clone(), cx));
        self.added.notify_waiters();
        InFlight(Arc::clone(self), id)
    }

    /// The call a request of the server belongs to: the one whose HTTP stream it came on, or
    /// the only one in flight (stdio can't tell several apart). The request may come before
    /// its call is marked: it waits for that, a bounded while.
    async fn call_of(&self, cx: &RequestContext<RoleClient>) -> Option<ToolContext> {
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

    /// The call of `origin` when it is in flight (`Some(None)`: it can't be told); the only
    /// one without an origin. `None`: not marked yet.
    fn find(&self, origin: Option<&RequestId>) -> Option<Option<ToolContext>> {
        let calls = lock(&self.calls);
        match (origin, calls.as_slice()) {
            (Some(id), calls) => calls
                .iter()
                .find(|(call, _)| call == id)
                .map(|(_, cx)| Some(cx.clone())),
            (None, []) => None,
            (None, [(_, only)]) => Some(Some(only.clone())),
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
        let call = self.call_of(cx).await.filter(ToolContext::can_sample);
        let answer = match (call, &self.answerers.sampling) {
            (Some(call), _) => {
                let request: SamplingRequest = convert(&params)?;
                call.sample(request).await.map_err(refused)?
            }
            (None, Some(handler)) => handler(convert(&params)?).await.map_err(|e| refused(&*e))?,
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
        let ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } = params
        else {
            return Err(ErrorData::invalid_params(
                "URL-mode elicitation is not supported",
                None,
            ));
        };
        let schema = serde_json::to_value(&requested_schema).map_err(internal)?;
        let call = self.call_of(cx).await.filter(ToolContext::can_elicit);
        let answer = match (call, &self.answerers.elicitation) {
            (Some(call), _) => call.elicit_json(message, &schema).await.map_err(refused)?,
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
}

/// Keeps a forwarded call in flight while it lives.
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

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
