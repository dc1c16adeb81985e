//! Model output in, normalized [`ToolCall`](crate::ToolCall)s out: a provider's reply
//! ([`route`], [`route_auto`]), a stream of it ([`stream`]), and calls written inside plain
//! text by models without native tools (`tool_runtime::text`, a crate of its own).
//!
//! Three doors: [`route`] reads a reply as the [`Provider`] named, [`route_auto`] finds the
//! provider by the reply's shape ([`detect`] says which it would pick). Both take the reply
//! parsed (`&Value`) or as the text that came over the wire (`&str`, a [`RouteInput`]), and
//! give back a [`Routed`]: the calls, in the order the model made them, and the assistant's
//! text. Each provider's own reader lives in its folder (`providers/<name>/route.rs`).
//!
//! | provider | reads | arguments arrive as |
//! |---|---|---|
//! | OpenAI Chat | a Chat Completions response (or its `message`) | a JSON string, kept as written |
//! | OpenAI Responses | a Responses API response (or its `output` list) | a JSON string, kept as written |
//! | Anthropic | a Messages API response | an object, serialized to text |
//! | Gemini | a `generateContent` response (or one `Content`) | an object, serialized to text |
//! | TensorZero | a native `/inference` chat response (or a message) | `raw_arguments`, the model's text |
//! | Ollama | an `/api/chat` reply, whole or one streamed line (or its `message`) | an object, serialized to text |
//!
//! ```
//! use serde_json::json;
//! use tool_runtime::{router, Provider};
//!
//! let response = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
//!     "role": "assistant", "content": null,
//!     "tool_calls": [{"id": "call_abc123", "type": "function",
//!                     "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}]});
//! let routed = router::route_auto(&response).unwrap();
//! assert_eq!(routed.provider, Provider::OpenAiChat);
//! assert_eq!(routed.calls[0].id, "call_abc123");
//! assert_eq!(routed.calls[0].arguments, r#"{"city":"Paris"}"#);
//!
//! // The same reply as text: a byte order mark skipped, a number past `f64` kept as text.
//! let text = format!("\u{feff}{response}");
//! assert_eq!(router::route(Provider::OpenAiChat, text.as_str()).unwrap(), routed);
//! ```
//!
//! Bad input is an error ([`RouteError`]) that names the JSON pointer at fault, never a panic.
//! One odd call does not sink the rest: a call without an id gets one, a call without a name
//! keeps an empty one (the pipeline answers it with an unknown-tool error), so that every call
//! still gets its result.

pub mod stream;

mod detect;
#[doc(hidden)]
pub mod error;
mod input;
#[doc(hidden)]
pub mod reply_json;
#[doc(hidden)]
pub mod routed;
#[doc(hidden)]
pub mod shape;

pub use detect::detect;
pub use error::{JsonError, RouteError};
pub use input::RouteInput;
pub use reply_json::MAX_REPLY_DEPTH;
pub use routed::{OtherCall, Routed};

use crate::providers::api;
use crate::Provider;

/// Routes `provider`'s reply, given parsed or as text ([`RouteInput`]).
///
/// # Errors
///
/// A [`RouteError`] naming the JSON pointer at fault when the reply is not `provider`'s
/// shape, the provider's own error reply, [`RouteError::NoReply`] for MCP, and for text,
/// [`RouteError::NotJson`] or [`RouteError::TooDeep`].
pub fn route<'a>(provider: Provider, reply: impl RouteInput<'a>) -> Result<Routed, RouteError> {
    let reply = reply.reply()?;
    (api(provider).route)(&reply)
}

/// Routes a reply from whichever provider's shape it has ([`detect`]), given parsed or as
/// text ([`RouteInput`]).
///
/// # Errors
///
/// [`RouteError::Undetected`] when it has none, the provider's error reply, or what
/// [`route`] gives for the provider found.
pub fn route_auto<'a>(reply: impl RouteInput<'a>) -> Result<Routed, RouteError> {
    let reply = reply.reply()?;
    if let Some(error) = shape::provider_error(&reply) {
        return Err(error);
    }
    let detected = detect(&reply).ok_or(RouteError::Undetected)?;
    (api(detected).route)(&reply)
}
