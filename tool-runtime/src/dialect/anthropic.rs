//! Anthropic Messages `tools`: `{"name", "description", "input_schema"}`, plus
//! `"strict": true` for a tool in strict form (anthropic-sdk-python `types/tool_param.py`;
//! "Strict tool use": "Set `"strict": true` as a top-level property in your tool definition").

use super::plan;
use super::strict::Target;
use crate::registry::Registry;
use serde_json::{json, Value};

/// The tool list; with `strict`, each tool in strict form unless it can't be.
pub(crate) fn tools(registry: &Registry, strict: bool) -> Value {
    let tools = plan::entries(registry, Target::Anthropic, strict)
        .into_iter()
        .map(|e| {
            let mut tool = json!({
                "name": e.name,
                "description": e.spec.description(),
                "input_schema": e.schema,
            });
            if e.strict {
                tool["strict"] = Value::Bool(true);
            }
            tool
        })
        .collect();
    Value::Array(tools)
}
