//! OpenAI Responses: `tools: [{"type": "function", "name", ..}]`, `function_call` output items,
//! results as `function_call_output` items, streamed as `response.*` events.

pub(crate) mod export;
#[doc(hidden)]
pub mod results;
#[doc(hidden)]
pub mod route;
#[doc(hidden)]
pub mod stream;

use super::interface::{never, Api};
use crate::export::names::NameRule;
use crate::export::strict::Target;
use serde_json::{json, Value};

/// Responses' row of the table.
pub(crate) const API: Api = Api {
    name: "openai-responses",
    title: "OpenAI Responses",
    otel_name: "openai",
    strict: Some(Target::OpenAi),
    names: NameRule::OpenAiAnthropic,
    export: export::tools,
    route: route::openai_responses,
    is_reply: route::is_reply,
    is_message: never,
    results: results::results,
    call_turn: results::call_turn,
    user: |text| message("user", text),
    assistant: |text| message("assistant", text),
};

/// An input message item: `{"type": "message", "role", "content"}`.
fn message(role: &str, text: &str) -> Value {
    json!({"type": "message", "role": role, "content": text})
}
