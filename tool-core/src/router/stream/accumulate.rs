//! What every stream reader is: [`Accumulate`], the events it gives, and its error.

use crate::router::error::RouteError;
use crate::router::routed::Routed;
use crate::ToolCall;
use serde_json::Value;

/// Something a stream has finished: a piece of text, or a whole call.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    /// Assistant text, as it arrives.
    Text(String),
    /// A call whose arguments are complete: ready to run.
    Call(ToolCall),
}

/// An event the accumulator could not use. The accumulator is left as it was, so the stream
/// can go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// The event is not JSON, has the wrong shape, or is the provider's error event.
    #[error(transparent)]
    Route(#[from] RouteError),
    /// A piece for a call or block that no earlier event opened.
    #[error("`{event}` for {what} {key}, which no earlier event opened")]
    Unopened {
        /// The event's type.
        event: String,
        /// What it refers to: `"content block"`, `"output item"`.
        what: &'static str,
        /// The index or id it gave.
        key: String,
    },
}

/// A stream accumulator: events in, text and finished calls out.
pub trait Accumulate {
    /// Takes one event (one parsed `data:` payload) and returns what it completed.
    fn push(&mut self, event: &Value) -> Result<Vec<StreamEvent>, StreamError>;

    /// Ends the stream: completes every call still open and returns the whole turn, calls and
    /// text ordered by the provider's indexes. Calls already returned by [`push`](Self::push)
    /// are included.
    fn finish(self) -> Routed;

    /// Takes one line of a server-sent-events stream (or one line of JSONL): `data: {...}` or
    /// bare JSON is an event; `event:` lines, comments, blank lines and `[DONE]` are skipped.
    fn push_line(&mut self, line: &str) -> Result<Vec<StreamEvent>, StreamError> {
        let line = line.trim();
        let payload = match line.strip_prefix("data:") {
            Some(data) => data.trim_start(),
            None if line.is_empty() || line.starts_with(':') || line.starts_with("event:") => {
                return Ok(Vec::new())
            }
            None => line,
        };
        if payload.is_empty() || payload == "[DONE]" {
            return Ok(Vec::new());
        }
        let event: Value = serde_json::from_str(payload)
            .map_err(|e| StreamError::Route(RouteError::NotJson(e.into())))?;
        self.push(&event)
    }
}

/// Reads a JSON number used as an index.
pub(crate) fn index(value: Option<&Value>) -> Option<u64> {
    value.and_then(Value::as_u64)
}
