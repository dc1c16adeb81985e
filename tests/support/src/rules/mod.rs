//! Each provider's documented rules for tool definitions, written from its documentation (not
//! from the exporter's code), as checkers that list every violation they find.
//!
//! Every rule names its source. A checker returns one line per violation:
//! `tool /json/pointer: what is wrong [source]`, so a failing test says all of it at once.

pub mod anthropic;
pub mod common;
pub mod gemini;
pub mod gemini_request;
pub mod mcp;
pub mod ollama;
pub mod openai;
pub mod tensorzero;

use serde_json::Value;
use tool_runtime::Provider;

/// Every export to check: each provider, and in strict mode too where it has one.
pub fn dialects() -> Vec<(Provider, bool)> {
    Provider::ALL
        .into_iter()
        .flat_map(|p| [(p, false), (p, true)])
        .filter(|&(p, strict)| !strict || p.has_strict_mode())
        .collect()
}

/// The provider's rules, for one export.
pub fn violations(provider: Provider, export: &Value) -> Vec<String> {
    match provider {
        Provider::OpenAiChat => openai::check_chat(export),
        Provider::OpenAiResponses => openai::check_responses(export),
        Provider::Anthropic => anthropic::check(export),
        Provider::Gemini => gemini::check(export),
        Provider::Mcp => mcp::check(export),
        Provider::TensorZero => tensorzero::check(export),
        Provider::Ollama => ollama::check(export),
        other => vec![format!("no rules for {other:?}")],
    }
}
