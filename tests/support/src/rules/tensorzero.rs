//! TensorZero's tool definitions: the entries of `additional_tools` in a native `/inference`
//! request, and of `[tools.NAME]` in `tensorzero.toml`.
//!
//! Sources:
//! - [API] TensorZero "API Reference: Inference", `additional_tools`: "Each tool is an object
//!   with the following fields: description, name, parameters, and strict. The fields are
//!   identical to those in the configuration file, except that the parameters field should
//!   contain the JSON schema itself rather than a path to it."
//! - [CFG] the gateway's own config check (tensorzero 2026.6.0, through
//!   `tests/gateways/tensorzero_config.py`): `unknown field ..., expected one of description,
//!   parameters, name, strict`; a schema that doesn't compile is refused; "Tool name cannot
//!   start with 'tensorzero::'".
//! - [FD] TensorZero sends the name and schema on to the model's provider, so they must also
//!   meet the strictest provider's rules: OpenAI's (`rules/openai.rs`), strict mode included,
//!   since TensorZero passes `strict` on to OpenAI-compatible providers.

use super::openai::check_function;
use serde_json::Value;

/// `[{"name", "description", "parameters", "strict"}]`.
pub fn check(tools: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(list) = tools.as_array() else {
        return vec!["the tool list is not an array [API]".into()];
    };
    for tool in list {
        let Some(entry) = tool.as_object() else {
            out.push("a tool entry is not an object [API]".into());
            continue;
        };
        let name = entry
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if name.starts_with("tensorzero::") {
            out.push(format!("{name}: starts with `tensorzero::` [CFG]"));
        }
        // The same four keys as an OpenAI function [API], and OpenAI's rules on them [FD].
        check_function(entry, &mut out);
    }
    out
}
