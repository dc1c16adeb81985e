//! A served call's [`Client`](crate::client::Client): its sampling and elicitation requests
//! go to the MCP client over the call's own session, on the call's own HTTP stream (a URL-mode
//! elicitation's completion, a notification, on the session's).

use crate::client::{
    BoxError, ClientCapabilities, ClientFuture, ClientRequests, NotifyFuture, UrlElicitationRequest,
};
use crate::content::declared;
use crate::rounds::url_required::RequiredUrls;
#[allow(deprecated)]
// roots: deprecated by SEP-2577 (a later draft), in 2025-11-25 and 2026-07-28.
use rmcp::model::ListRootsRequest;
use rmcp::model::{
    CancelledNotificationParam, ClientResult, CustomNotification, ElicitRequest,
    ElicitRequestParams, GetExtensions, RequestId, ServerNotification, ServerRequest,
};
#[allow(deprecated)] // sampling: deprecated by the 2026 draft, in the 2025-11-25 spec.
use rmcp::model::{CreateMessageRequest, CreateMessageRequestParams};
use rmcp::service::{OriginatingRequestId, Peer, PeerRequestOptions, RoleServer};
use serde_json::Value;
use std::sync::Arc;

/// The client of one served call: its session, and the id of its `tools/call`.
pub(crate) struct PeerClient {
    peer: Peer<RoleServer>,
    /// The `tools/call` request: over streamable HTTP, requests ride its response stream.
    call: RequestId,
    /// Where the URL interactions the call ends needing go, for its `-32042`.
    urls: Arc<RequiredUrls>,
}

impl PeerClient {
    pub(crate) fn new(
        peer: Peer<RoleServer>,
        call: RequestId,
        urls: Arc<RequiredUrls>,
    ) -> PeerClient {
        PeerClient { peer, call, urls }
    }

    /// Sends the request built from a tool's parameters (or reports why it couldn't be
    /// built) and reads the client's answer with `read`.
    fn ask(
        &self,
        request: Result<ServerRequest, serde_json::Error>,
        read: fn(ClientResult) -> Result<Value, BoxError>,
    ) -> ClientFuture {
        let request = match request {
            Ok(request) => request,
            Err(error) => return Box::pin(async move { Err(error.into()) }),
        };
        let sent = self.send(request);
        Box::pin(async move { read(sent.await?) })
    }

    /// Sends `request` and waits for the answer, telling the client when the call stops
    /// waiting first (its timeout, a cancel), so that it can close its dialog.
    fn send(
        &self,
        mut request: ServerRequest,
    ) -> impl std::future::Future<Output = Result<ClientResult, BoxError>> + Send + 'static {
        // rmcp finds the originating request in a task-local, which a tool run on another task
        // (the blocking pool, a spawned future) doesn't see: name it on the request itself.
        request
            .extensions_mut()
            .insert(OriginatingRequestId(self.call.clone()));
        let peer = self.peer.clone();
        async move {
            let handle = peer
                .send_request_with_option(request, PeerRequestOptions::no_options())
                .await?;
            let mut waiting = CancelOnDrop(Some((peer, handle.id.clone())));
            let answer = handle.await_response().await;
            waiting.0 = None;
            Ok(answer?)
        }
    }
}

impl ClientRequests for PeerClient {
    fn capabilities(&self) -> ClientCapabilities {
        capabilities(&self.peer)
    }

    fn create_message(&self, params: Value) -> ClientFuture {
        #[allow(deprecated)]
        let request = serde_json::from_value::<CreateMessageRequestParams>(params)
            .map(|params| ServerRequest::CreateMessageRequest(CreateMessageRequest::new(params)));
        self.ask(request, |answer| match answer {
            ClientResult::CreateMessageResult(result) => Ok(serde_json::to_value(result)?),
            other => Err(unexpected("sampling/createMessage", &other)),
        })
    }

    fn elicit(&self, params: Value) -> ClientFuture {
        let request = serde_json::from_value::<ElicitRequestParams>(params)
            .map(|params| ServerRequest::ElicitRequest(ElicitRequest::new(params)));
        self.ask(request, |answer| match answer {
            ClientResult::ElicitResult(result) => Ok(serde_json::to_value(result)?),
            other => Err(unexpected("elicitation/create", &other)),
        })
    }

    fn elicitation_complete(&self, elicitation_id: &str) -> NotifyFuture {
        // rmcp has no type for it: a notification of the spec's method and params.
        let params = serde_json::json!({ "elicitationId": elicitation_id });
        let notification = ServerNotification::CustomNotification(CustomNotification::new(
            "notifications/elicitation/complete",
            Some(params),
        ));
        let peer = self.peer.clone();
        Box::pin(async move { Ok(peer.send_notification(notification).await?) })
    }

    fn list_roots(&self) -> ClientFuture {
        self.roots()
    }

    fn url_required(&self, elicitations: &[UrlElicitationRequest]) {
        self.urls.keep(elicitations);
    }
}

impl PeerClient {
    /// `roots/list`, kept apart from the trait impl so that it reads like the other two.
    fn roots(&self) -> ClientFuture {
        #[allow(deprecated)]
        let sent = self.send(ServerRequest::ListRootsRequest(ListRootsRequest::default()));
        Box::pin(async move {
            match sent.await? {
                ClientResult::ListRootsResult(result) => Ok(serde_json::to_value(result)?),
                other => Err(unexpected("roots/list", &other)),
            }
        })
    }
}

/// What the client declared in `initialize`. A client that negotiated no handshake (protocol
/// 2026-07-28, which has no server-to-client requests) declared nothing here: its requests
/// carry their capabilities (see `input_required.rs`).
pub(crate) fn capabilities(peer: &Peer<RoleServer>) -> ClientCapabilities {
    peer.peer_info()
        .map(|info| declared(&info.capabilities))
        .unwrap_or_default()
}

fn unexpected(method: &str, answer: &ClientResult) -> BoxError {
    let kind = match answer {
        ClientResult::EmptyResult(_) => "an empty result",
        ClientResult::ListRootsResult(_) => "a roots list",
        ClientResult::ElicitResult(_) => "an elicitation result",
        _ => "another kind of result",
    };
    format!("the client answered {method} with {kind}").into()
}

/// Tells the client a request was given up, if dropped while the request is unanswered.
struct CancelOnDrop(Option<(Peer<RoleServer>, RequestId)>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some((peer, id)) = self.0.take() else {
            return;
        };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let reason = Some("the tool call stopped waiting".to_owned());
                let _ = peer
                    .notify_cancelled(CancelledNotificationParam::new(Some(id), reason))
                    .await;
            });
        }
    }
}
