//! Streamed responses put back together: feed each event as it arrives, get back text as it
//! comes and each call once it is complete, and at the end the whole turn as a [`Routed`](super::Routed).
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
//! - [`OllamaStream`]: Ollama's newline-delimited `ChatResponse` lines, each call whole in one
//!   line (complete as soon as it is read), the turn complete at `"done": true`.
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

#[doc(hidden)]
pub mod accumulate;

pub use crate::providers::anthropic::stream::AnthropicStream;
pub use crate::providers::ollama::stream::OllamaStream;
pub use crate::providers::openai_chat::stream::OpenAiChatStream;
pub use crate::providers::openai_responses::stream::OpenAiResponsesStream;
pub use crate::providers::tensorzero::stream::TensorZeroStream;
pub use accumulate::{Accumulate, StreamError, StreamEvent};
