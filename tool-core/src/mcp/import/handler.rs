//! The import's side of the connection (rmcp's `ClientHandler`): the server's progress
//! notifications relayed to the calls that asked for them, and its questions answered.

use super::asking::Asks;
use crate::mcp::lock::lock;
use crate::ToolContext;
use rmcp::model::{
    ClientConfig, Implementation, NumberOrString, ProgressNotificationParam, ProgressToken,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient};
use rmcp::ClientHandler;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Stops watching a call's progress when the call ends, however it ends: a moment later,
/// for progress still being delivered (it reaches the call's context, which may have a
/// listener still).
pub(super) struct Unwatch<'a>(pub(super) &'a Handler, pub(super) &'a ProgressToken);

/// How long a finished call's progress token is still routed.
const LATE_PROGRESS: Duration = Duration::from_millis(500);

impl Drop for Unwatch<'_> {
    fn drop(&mut self) {
        let (handler, token) = (self.0.clone(), self.1.clone());
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    tokio::time::sleep(LATE_PROGRESS).await;
                    handler.unwatch(&token);
                });
            }
            Err(_) => handler.unwatch(&token),
        }
    }
}

/// The client side of the connection: passes the server's progress for a call to that call's
/// context, its log lines to `tracing`, and its sampling and elicitation requests to the
/// call's client or the import's handlers.
#[derive(Clone)]
pub(super) struct Handler {
    progress: Arc<Mutex<Progress>>,
    pub(super) asks: Arc<Asks>,
}

/// Progress routing: the calls waiting for theirs, and progress that came before its call
/// was watched (the server may answer before `watch` runs).
#[derive(Default)]
struct Progress {
    calls: HashMap<String, ToolContext>,
    early: HashMap<String, Vec<ProgressNotificationParam>>,
}

/// How many unclaimed progress tokens are kept before they are dropped.
const EARLY_MAX: usize = 256;

impl Handler {
    pub(super) fn new(asks: Asks) -> Handler {
        Handler {
            progress: Arc::default(),
            asks: Arc::new(asks),
        }
    }

    /// Routes the progress of `token` to `cx`, with what already came.
    pub(super) fn watch(&self, token: &ProgressToken, cx: ToolContext) {
        let key = token_text(token);
        let early = {
            let mut progress = lock(&self.progress);
            progress.calls.insert(key.clone(), cx.clone());
            progress.early.remove(&key).unwrap_or_default()
        };
        for params in early {
            cx.progress(params.progress, params.total, params.message.as_deref());
        }
    }

    fn unwatch(&self, token: &ProgressToken) {
        let key = token_text(token);
        let mut progress = lock(&self.progress);
        progress.calls.remove(&key);
        progress.early.remove(&key);
    }
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::default();
        config.client_info = Implementation::new("tool-runtime", env!("CARGO_PKG_VERSION"));
        // What an `initialize` offers: rmcp's default is its newest version, 2026-07-28,
        // which has no `initialize` (the conformance suite's `initialize` scenario refuses
        // it). Protocol 2026-07-28 itself is asked for by the lifecycle (`McpProtocol`).
        config.protocol_version = rmcp::model::ProtocolVersion::LATEST_WITH_INITIALIZE;
        config.capabilities = Asks::capabilities();
        config
    }

    #[allow(deprecated)] // sampling: deprecated by the 2026 draft, in the 2025-11-25 spec.
    async fn create_message(
        &self,
        params: rmcp::model::CreateMessageRequestParams,
        cx: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::CreateMessageResult, rmcp::ErrorData> {
        self.asks.sample(params, &cx).await
    }

    async fn create_elicitation(
        &self,
        params: rmcp::model::ElicitRequestParams,
        cx: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, rmcp::ErrorData> {
        self.asks.elicit(params, &cx).await
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _cx: NotificationContext<RoleClient>,
    ) {
        let key = token_text(&params.progress_token);
        let cx = {
            let mut progress = lock(&self.progress);
            match progress.calls.get(&key) {
                Some(cx) => Some(cx.clone()),
                None => {
                    if progress.early.len() >= EARLY_MAX {
                        progress.early.clear();
                    }
                    progress.early.entry(key).or_default().push(params.clone());
                    None
                }
            }
        };
        if let Some(cx) = cx {
            cx.progress(params.progress, params.total, params.message.as_deref());
        }
    }

    /// rmcp has no type for `notifications/elicitation/complete`: it comes as a custom one.
    async fn on_custom_notification(
        &self,
        notification: rmcp::model::CustomNotification,
        _cx: NotificationContext<RoleClient>,
    ) {
        if notification.method != "notifications/elicitation/complete" {
            return;
        }
        let id = notification
            .params
            .as_ref()
            .and_then(|params| params.get("elicitationId"))
            .and_then(Value::as_str);
        if let Some(id) = id {
            self.asks.completed(id).await;
        }
    }

    #[allow(deprecated)] // MCP logging: deprecated by the 2026 draft, in the 2025-11-25 spec.
    async fn on_logging_message(
        &self,
        params: rmcp::model::LoggingMessageNotificationParam,
        _cx: NotificationContext<RoleClient>,
    ) {
        let logger = params.logger.as_deref().unwrap_or_default();
        tracing::info!(logger, level = ?params.level, data = %params.data, "MCP server log");
    }
}

fn token_text(token: &ProgressToken) -> String {
    match &token.0 {
        NumberOrString::String(text) => text.to_string(),
        NumberOrString::Number(n) => n.to_string(),
    }
}
