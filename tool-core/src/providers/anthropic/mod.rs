//! Anthropic Messages: `tools: [{"name", "description", "input_schema"}]`, `tool_use` blocks,
//! results as `tool_result` blocks in one user message, streamed as `content_block_*` events.

pub(crate) mod export;
pub(crate) mod results;
pub(crate) mod route;
#[doc(hidden)]
pub mod stream;

use super::interface::{role_content, Api};
use crate::export::names::NameRule;
use crate::export::strict::Target;

/// Anthropic's row of the table.
pub(crate) const API: Api = Api {
    name: "anthropic",
    title: "Anthropic Messages",
    otel_name: "anthropic",
    strict: Some(Target::Anthropic),
    names: NameRule::OpenAiAnthropic,
    export: export::tools,
    route: route::anthropic,
    is_reply: route::is_reply,
    is_message: route::is_message,
    results: results::results,
    call_turn: |text, calls| vec![results::call_turn(text, calls)],
    user: |text| role_content("user", text),
    assistant: |text| role_content("assistant", text),
};
