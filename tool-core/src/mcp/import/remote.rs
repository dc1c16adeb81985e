//! A connected server as its imported tools see it: each call forwarded as `tools/call`
//! (input-required rounds answered, progress relayed, a cancel passed on), each answer read
//! back into a [`ToolOutput`].

use super::asking::Asking;
use super::handler::{Handler, Unwatch};
use super::rounds::{Retry, RoundError};
use crate::error::{ErrorCode, ToolError};
use crate::mcp::content;
use crate::{ToolContext, ToolOutput};
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientRequest, ServerResult,
};
use rmcp::service::{PeerRequestOptions, RoleClient, RunningService};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

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
pub(super) struct Remote {
    pub(super) client: RunningService<RoleClient, Handler>,
    pub(super) handler: Handler,
    pub(super) server: String,
    pub(super) prefix: String,
    pub(super) call_timeout: Duration,
}

impl Remote {
    /// Forwards one call; every failure is an error output. `wrapped` is `Some` for a tool
    /// with an output schema (`content::remote_structured_output`). An input-required result
    /// (protocol 2026-07-28) is answered through the call's context and the call sent again,
    /// a bounded number of times.
    pub(super) async fn call(
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
        for _ in 0..super::rounds::MAX_ROUNDS {
            let mut params =
                CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments.clone());
            params.input_responses = retry.input_responses.take();
            params.request_state = retry.request_state.take();
            let answer = match self.round(params, &cx, &asking).await {
                Ok(Some(ServerResult::InputRequiredResult(result))) => {
                    match super::rounds::answer(&self.handler.asks, &asking, result).await {
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
                super::rounds::MAX_ROUNDS
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
