//! A prompt or resource that asks its client ([`AskContext`](crate::client::AskContext)),
//! served: its closure runs with the request's [`Client`], whose questions are requests to the
//! client under the handshake protocols, and end the request with an input-required result
//! under 2026-07-28, as a tool's do.

use super::peer_client::PeerClient;
use crate::client::Client;
use crate::rounds::input_required::{self, InputRound};
use crate::rounds::round_trip::RoundTrip;
use crate::McpServer;
use rmcp::model::{ErrorData, InputRequiredResult};
use rmcp::service::{RequestContext, RoleServer};
use std::future::Future;

/// What a request's closure ended in: its own output, or questions the client must answer
/// first.
pub(crate) enum Asked<T> {
    /// The closure's output: the request's result or its error.
    Done(T),
    /// The closure asked what the request did not bring (2026-07-28).
    InputRequired(InputRequiredResult),
}

impl McpServer {
    /// Runs `work` (a prompt's render, a resource's read) with the client of `request`.
    ///
    /// # Errors
    ///
    /// `-32602` for a `requestState` that is not this request's or an answer that does not
    /// fit its question, `-32021` when `work` failed after asking what the client did not
    /// declare (2026-07-28).
    pub(crate) async fn asking<T, E>(
        &self,
        request: &impl RoundTrip,
        cx: &RequestContext<RoleServer>,
        work: impl Future<Output = Result<T, E>>,
    ) -> Result<Asked<Result<T, E>>, ErrorData> {
        if !input_required::sessionless(cx) {
            // Only a tool ends needing URLs (`ToolContext::url_required`): nothing to keep.
            let client = Client::new(PeerClient::new(
                cx.peer.clone(),
                cx.id.clone(),
                Default::default(),
            ))
            .with_ask_timeout(self.ask_timeout);
            return Ok(Asked::Done(client.scope(work).await));
        }
        let round = InputRound::open(&self.request_states, request, cx)?;
        let client = round.client().with_ask_timeout(self.ask_timeout);
        let output = client.scope(work).await;
        Ok(
            match round.outcome(&self.request_states, output.is_err())? {
                Some(input_required) => Asked::InputRequired(input_required),
                None => Asked::Done(output),
            },
        )
    }
}
