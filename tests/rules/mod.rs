//! Each provider's documented rules for tool definitions, written from its documentation (not
//! from the exporter's code), as checkers that list every violation they find.
//!
//! Every rule names its source. A checker returns one line per violation:
//! `tool /json/pointer: what is wrong [source]`, so a failing test says all of it at once.

#![allow(dead_code)]

pub mod anthropic;
pub mod common;
pub mod gemini;
pub mod mcp;
pub mod openai;

use serde_json::Value;
use tool_runtime::Dialect;

/// Every dialect, strict and not.
pub fn dialects() -> Vec<Dialect> {
    let mut all: Vec<Dialect> = Vec::new();
    for dialect in Dialect::ALL.iter().flat_map(|d| [*d, d.with_strict(true)]) {
        if !all.contains(&dialect) {
            all.push(dialect);
        }
    }
    all
}

/// The provider's rules, for one export.
pub fn violations(dialect: Dialect, export: &Value) -> Vec<String> {
    match dialect {
        Dialect::OpenAiChat { .. } => openai::check_chat(export),
        Dialect::OpenAiResponses { .. } => openai::check_responses(export),
        Dialect::Anthropic { .. } => anthropic::check(export),
        Dialect::Gemini => gemini::check(export),
        Dialect::Mcp => mcp::check(export),
        other => vec![format!("no rules for {other:?}")],
    }
}
