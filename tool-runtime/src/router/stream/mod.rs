//! Streamed responses put back together: feed each event as it arrives, get back text as it
//! comes and each call once it is complete, and at the end the whole turn as a [`Routed`].
//!
//! - [`OpenAiChatStream`]: Chat Completions chunks, `choices[0].delta.tool_calls[]` pieces
//!   keyed by `index` (id and name in the first piece only, arguments in fragments). Calls are
//!   complete when the choice's `finish_reason` arrives.
//! - [`AnthropicStream`]: Messages events, a `tool_use` block opened by
//!   `content_block_start`, its input in `input_json_delta` fragments, complete at
//!   `content_block_stop`.
//! - [`OpenAiResponsesStream`]: Responses events, a `function_call` item opened by
//!   `response.output_item.added`, its arguments in `response.function_call_arguments.delta`,
//!   complete at `response.output_item.done`.
//! - [`TensorZeroStream`]: TensorZero's native chunks, `tool_call` pieces keyed by `id` with
//!   `raw_arguments` fragments, complete when `finish_reason` arrives.
//!
//! Pieces of different calls may interleave; each is keyed by the index the provider gives it,
//! and [`Accumulate::finish`] orders calls and text by that index, so the turn comes out the same
//! whatever the interleaving. A stream that ends early still gives every call it opened (with
//! whatever arguments arrived, which the pipeline then reports as broken), because each call
//! must get a result.
//!
//! Each event costs in proportion to its own size, however many came before it: calls are
//! found by the index or id an event gives through a map, never by scanning the calls so far,
//! and `finish_reason` completes only the calls still open (issue 32 found a Responses stream
//! of 20,000 items taking 38 s). `cargo bench -p tool-tests --features bench --bench
//! stream_doubling` measures every reader at doubling sizes.
//!
//! ```
//! use serde_json::json;
//! use tool_runtime::router::stream::{Accumulate, AnthropicStream, StreamEvent};
//!
//! let mut stream = AnthropicStream::new();
//! for event in [
//!     json!({"type": "content_block_start", "index": 0,
//!            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}}),
//!     json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"city\": "}}),
//!     json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "\"Paris\"}"}}),
//! ] {
//!     assert!(stream.push(&event).unwrap().is_empty());
//! }
//! let done = stream.push(&json!({"type": "content_block_stop", "index": 0})).unwrap();
//! let StreamEvent::Call(call) = &done[0] else { panic!() };
//! assert_eq!(call.arguments, r#"{"city": "Paris"}"#);
//! ```

mod anthropic;
mod openai_chat;
mod openai_responses;
mod tensorzero;

pub use crate::providers::ollama::OllamaStream;
pub use anthropic::AnthropicStream;
pub use openai_chat::OpenAiChatStream;
pub use openai_responses::OpenAiResponsesStream;
pub use tensorzero::TensorZeroStream;

use super::{RouteError, Routed};
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
fn index(value: Option<&Value>) -> Option<u64> {
    value.and_then(Value::as_u64)
}
