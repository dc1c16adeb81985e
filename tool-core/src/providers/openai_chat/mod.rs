//! OpenAI Chat Completions: `tools: [{"type": "function", "function": {..}}]`, calls in
//! `choices[0].message.tool_calls`, results as `role: "tool"` messages, streamed as
//! `choices[0].delta` chunks. Many servers speak it too (vLLM, llama.cpp, LiteLLM, Ollama's
//! `/v1`, TensorZero's OpenAI-compatible endpoint).

pub(crate) mod export;
#[doc(hidden)]
pub mod results;
#[doc(hidden)]
pub mod route;
#[doc(hidden)]
pub mod stream;

use super::interface::{role_content, Api};
use crate::export::names::NameRule;
use crate::export::strict::Target;

/// Chat Completions' row of the table.
pub(crate) const API: Api = Api {
    name: "openai-chat",
    title: "OpenAI Chat Completions",
    otel_name: "openai",
    strict: Some(Target::OpenAi),
    names: NameRule::OpenAiAnthropic,
    export: export::tools,
    route: route::openai_chat,
    is_reply: route::is_reply,
    is_message: route::is_message,
    results: results::results,
    call_turn: |text, calls| vec![results::call_turn(text, calls)],
    user: |text| role_content("user", text),
    assistant: |text| role_content("assistant", text),
};
