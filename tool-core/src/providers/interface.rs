//! [`Api`]: what every provider implements, as a struct of plain fns. A provider's folder
//! fills one in as a `const`, and [`api`](super::api) hands it out; calls through it are
//! direct calls through a `'static` table, with nothing boxed and nothing generic.

use crate::export::names::NameRule;
use crate::export::strict::Target;
use crate::export::tool_list::ToolList;
use crate::results::answer::Answer;
use crate::router::error::RouteError;
use crate::router::routed::Routed;
use crate::ToolCall;
use serde_json::{Map, Value};

/// One provider: its names, its rules, and a fn for each thing the runtime does in its shape.
#[doc(hidden)]
pub struct Api {
    /// The name the CLI and serde spell it with (`openai-chat`, ...).
    pub name: &'static str,
    /// The API's name, as error messages give it.
    pub title: &'static str,
    #[cfg_attr(not(feature = "agent"), allow(dead_code))]
    /// OpenTelemetry's `gen_ai.provider.name` for it.
    pub otel_name: &'static str,
    /// The strict-mode rules its schemas follow, `None` when it has no strict mode.
    pub strict: Option<Target>,
    /// The rule its tool names must follow.
    pub names: NameRule,
    /// The tool list in its shape; `strict` asks for strict mode (ignored without one).
    pub export: fn(tools: ToolList<'_>, strict: bool) -> Value,
    /// A whole reply (or one message of it) read into calls and text.
    pub route: fn(reply: &Value) -> Result<Routed, RouteError>,
    /// Whether a reply has a shape only this provider's replies have (`route_auto`).
    pub is_reply: fn(reply: &Value) -> bool,
    /// Whether a bare assistant message, which no provider's reply shape claimed, is this
    /// provider's: asked only after every [`is_reply`](Self::is_reply) said no.
    pub is_message: fn(message: &Map<String, Value>) -> bool,
    /// Each call's result, in call order, as the next request carries them.
    pub results: fn(answers: &[Answer<'_>]) -> Vec<Value>,
    /// The model's turn rebuilt from its text and normalized calls.
    pub call_turn: fn(text: &str, calls: &[ToolCall]) -> Vec<Value>,
    #[cfg_attr(not(feature = "agent"), allow(dead_code))]
    /// A user message holding `text`.
    pub user: fn(text: &str) -> Value,
    #[cfg_attr(not(feature = "agent"), allow(dead_code))]
    /// An assistant message holding `text` (an earlier turn the agent did not run).
    pub assistant: fn(text: &str) -> Value,
}

/// For a provider with no shape of its own to claim ([`Api::is_reply`], [`Api::is_message`]).
pub(crate) fn never<T: ?Sized>(_: &T) -> bool {
    false
}

/// `{"role": role, "content": text}`: the message most chat APIs take.
pub(crate) fn role_content(role: &str, text: &str) -> Value {
    let mut message = Map::with_capacity(2);
    message.insert("role".into(), role.into());
    message.insert("content".into(), text.into());
    Value::Object(message)
}
