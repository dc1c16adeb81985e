//! Progress and log messages a tool sends while it runs, and where they go.
//!
//! A tool calls [`ToolContext::progress`](crate::ToolContext::progress) or
//! [`ToolContext::log`](crate::ToolContext::log); the message goes to the [`Notifier`] of the
//! call, if whoever runs the call set one with [`Notifier::scope`] (the MCP server does, and
//! forwards each message to its client as `notifications/progress` or `notifications/message`).
//! Without one, the message is a `tracing` event, so nothing is lost in a plain program.

use std::future::Future;
use std::sync::Arc;

tokio::task_local! {
    /// The notifier of the calls running in this task, set by [`Notifier::scope`].
    static CURRENT: Notifier;
}

/// A message from a running call.
#[derive(Clone, Debug, PartialEq)]
pub struct Notification {
    /// The tool that sent it.
    pub tool: String,
    /// The id of the call that sent it, if the call has one.
    pub call_id: Option<String>,
    /// What it says.
    pub kind: NotificationKind,
}

/// What a [`Notification`] says.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum NotificationKind {
    /// How far the call has got: `progress` out of `total` (when known), which should only
    /// grow during a call.
    Progress {
        /// The progress so far.
        progress: f64,
        /// The total, when known.
        total: Option<f64>,
        /// What is happening, for people.
        message: Option<String>,
    },
    /// A log line.
    Log {
        /// How severe it is.
        level: LogLevel,
        /// The line.
        message: String,
    },
}

/// The severity of a log line: syslog's levels (RFC 5424), which MCP uses too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detailed information for debugging.
    Debug,
    /// Normal operation.
    Info,
    /// Normal but significant.
    Notice,
    /// Something may be wrong.
    Warning,
    /// Something failed.
    Error,
    /// A critical condition.
    Critical,
    /// Action must be taken now.
    Alert,
    /// The system is unusable.
    Emergency,
}

/// Receives the [`Notification`]s of the calls run inside [`scope`](Notifier::scope).
///
/// ```
/// use tool_runtime::{tool, Registry, ToolContext};
/// use tool_runtime::output::{Notifier, NotificationKind};
///
/// /// Count to three, saying how far it got.
/// #[tool]
/// async fn count(cx: ToolContext) -> u32 {
///     for i in 1..=3 {
///         cx.progress(i as f64, Some(3.0), None);
///     }
///     3
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let registry = Registry::builder().build().unwrap();
/// let (notifier, mut messages) = Notifier::channel();
/// notifier.scope(registry.call("count", "{}")).await;
/// let mut seen = Vec::new();
/// while let Ok(message) = messages.try_recv() {
///     if let NotificationKind::Progress { progress, .. } = message.kind {
///         seen.push(progress);
///     }
/// }
/// assert_eq!(seen, [1.0, 2.0, 3.0]);
/// # });
/// ```
#[derive(Clone)]
pub struct Notifier(Arc<dyn Fn(Notification) + Send + Sync>);

impl Notifier {
    /// A notifier that hands each message to `deliver`. It is called on the tool's own thread,
    /// so it should return quickly (queue the message, don't send it over a network).
    pub fn new(deliver: impl Fn(Notification) + Send + Sync + 'static) -> Notifier {
        Notifier(Arc::new(deliver))
    }

    /// A notifier that queues every message, in order, on an unbounded channel.
    pub fn channel() -> (Notifier, tokio::sync::mpsc::UnboundedReceiver<Notification>) {
        let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
        let notifier = Notifier::new(move |message| {
            // Nobody listening any more: the message has nowhere to go.
            let _ = sender.send(message);
        });
        (notifier, receiver)
    }

    /// Runs `future` (a registry call, a batch, anything that runs calls) with this notifier:
    /// every call it starts in this task sends its messages here.
    pub async fn scope<F: Future>(self, future: F) -> F::Output {
        CURRENT.scope(self, future).await
    }

    pub(crate) fn send(&self, message: Notification) {
        (self.0)(message)
    }

    /// The notifier of the calls running in this task, if any.
    pub(crate) fn current() -> Option<Notifier> {
        CURRENT.try_with(Notifier::clone).ok()
    }
}

impl std::fmt::Debug for Notifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Notifier")
    }
}

/// Where a message goes when no notifier listens: a `tracing` event.
pub(crate) fn trace(message: &Notification) {
    let tool = message.tool.as_str();
    let call_id = message.call_id.as_deref().unwrap_or_default();
    match &message.kind {
        NotificationKind::Progress {
            progress,
            total,
            message,
        } => tracing::debug!(tool, call_id, progress, total, message, "tool progress"),
        NotificationKind::Log { level, message } => match level {
            LogLevel::Debug => tracing::debug!(tool, call_id, "{message}"),
            LogLevel::Info | LogLevel::Notice => tracing::info!(tool, call_id, "{message}"),
            LogLevel::Warning => tracing::warn!(tool, call_id, "{message}"),
            _ => tracing::error!(tool, call_id, level = ?level, "{message}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_scope_reaches_only_its_own_future() {
        let (notifier, mut messages) = Notifier::channel();
        assert!(Notifier::current().is_none());
        notifier
            .scope(async {
                Notifier::current().unwrap().send(Notification {
                    tool: "t".into(),
                    call_id: None,
                    kind: NotificationKind::Log {
                        level: LogLevel::Info,
                        message: "hi".into(),
                    },
                });
            })
            .await;
        assert!(Notifier::current().is_none());
        assert_eq!(messages.try_recv().unwrap().tool, "t");
    }

    #[test]
    fn levels_are_ordered_by_severity() {
        assert!(LogLevel::Debug < LogLevel::Info && LogLevel::Error < LogLevel::Emergency);
    }
}
