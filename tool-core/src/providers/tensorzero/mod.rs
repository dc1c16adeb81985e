//! TensorZero's native `/inference` API: tools as `[{"name", "description", "parameters",
//! "strict"}]` (or a `tensorzero.toml` with one schema file per tool: `config.rs`), calls in
//! `tool_call` content blocks, results as `tool_result` blocks in one user message. Its
//! OpenAI-compatible endpoint is Chat Completions.

pub(crate) mod config;
pub(crate) mod export;
#[doc(hidden)]
pub mod results;
#[doc(hidden)]
pub mod route;
#[doc(hidden)]
pub mod stream;

use super::interface::{never, role_content, Api};
use crate::export::names::NameRule;
use crate::export::strict::Target;

/// TensorZero's row of the table.
pub(crate) const API: Api = Api {
    name: "tensorzero",
    title: "TensorZero",
    otel_name: "tensorzero",
    // TensorZero passes `strict` on to OpenAI-compatible providers: OpenAI's rules.
    strict: Some(Target::OpenAi),
    // It sends the name on to the model's provider: the strictest common rule.
    names: NameRule::OpenAiAnthropic,
    export: export::tools,
    route: route::tensorzero,
    is_reply: route::is_reply,
    is_message: never,
    results: results::results,
    call_turn: |text, calls| vec![results::call_turn(text, calls)],
    user: |text| role_content("user", text),
    assistant: |text| role_content("assistant", text),
};
