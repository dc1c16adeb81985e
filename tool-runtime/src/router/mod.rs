//! Model output in, normalized [`ToolCall`](crate::ToolCall)s out: one module per provider
//! API, and [`text`] for calls written inside plain text by models without native tools.
//!
//! Each provider function takes the provider's response as JSON and gives back a [`Routed`]:
//! the calls, in the order the model made them, and the assistant's text.
//!
//! | function | reads | arguments arrive as |
//! |---|---|---|
//! | [`openai_chat`] | a Chat Completions response (or its `message`) | a JSON string, kept as written |
//! | [`openai_responses`] | a Responses API response (or its `output` list) | a JSON string, kept as written |
//! | [`anthropic`] | a Messages API response | an object, serialized to text |
//! | [`gemini`] | a `generateContent` response (or one `Content`) | an object, serialized to text |
//! | [`tensorzero`] | a native `/inference` chat response (or a message) | `raw_arguments`, the model's text |
//! | [`ollama`] | an Ollama `/api/chat` reply (or its `message`) | an object, serialized to text |
//!
//! [`route`] picks the function by [`Provider`]; [`route_auto`] finds the provider by looking
//! at the JSON ([`detect`]). [`stream`] puts streamed calls back together.
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
//! ```
//!
//! Bad input is an error ([`RouteError`]) that names the JSON pointer at fault, never a panic.
//! One odd call does not sink the rest: a call without an id gets one, a call without a name
//! keeps an empty one (the pipeline answers it with an unknown-tool error), so that every call
//! still gets its result.

pub mod stream;
pub mod text;

mod detect;
pub(crate) mod error;
mod reply_json;
pub(crate) mod routed;
pub(crate) mod shape;

pub use crate::providers::anthropic::route::anthropic;
pub use crate::providers::gemini::route::gemini;
pub use crate::providers::ollama::route::ollama;
pub use crate::providers::openai_chat::route::openai_chat;
pub use crate::providers::openai_responses::route::openai_responses;
pub use crate::providers::tensorzero::route::tensorzero;
pub use detect::detect;
pub use error::{JsonError, RouteError};
pub use reply_json::{parse_reply, MAX_REPLY_DEPTH};
pub use routed::{OtherCall, Routed};

use crate::providers::api;
use crate::Provider;
use serde_json::Value;

/// Routes `provider`'s response.
///
/// # Errors
///
/// A [`RouteError`] naming the JSON pointer at fault when the output is not `provider`'s
/// shape, the provider's own error reply, or [`RouteError::NoReply`] for MCP.
pub fn route(provider: Provider, output: &Value) -> Result<Routed, RouteError> {
    (api(provider).route)(output)
}

/// Routes a response from whichever provider's shape it has ([`detect`]).
///
/// # Errors
///
/// [`RouteError::Undetected`] when it has none, the provider's error reply, or what
/// [`route`] gives for the provider found.
pub fn route_auto(output: &Value) -> Result<Routed, RouteError> {
    if let Some(error) = shape::provider_error(output) {
        return Err(error);
    }
    let detected = detect(output).ok_or(RouteError::Undetected)?;
    route(detected, output)
}

/// [`route`] for a response still in text form, read with [`parse_reply`] (a byte order
/// mark skipped, a number too large for an `f64` kept as its text).
///
/// # Errors
///
/// What [`parse_reply`] and [`route`] give.
pub fn route_str(provider: Provider, output: &str) -> Result<Routed, RouteError> {
    route(provider, &parse_reply(output)?)
}

/// [`route_auto`] for a response still in text form, read with [`parse_reply`].
///
/// # Errors
///
/// What [`parse_reply`] and [`route_auto`] give.
pub fn route_auto_str(output: &str) -> Result<Routed, RouteError> {
    route_auto(&parse_reply(output)?)
}
