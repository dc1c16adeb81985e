//! OpenAI Chat Completions `tools`: the function nested in `{"type": "function", "function"}`
//! (Responses lists the same fields flat: `openai_responses/export.rs`).
//!
//! `strict` is always written: the Responses API treats a tool without it as strict
//! (`openai-python` `types/responses/function_tool.py`: `strict` "Default `true`"), Chat
//! Completions as not (`shared_params/function_definition.py`).

use crate::export::plan::{self, Planned};
use crate::export::strict::Target;
use crate::export::tool_list::ToolList;
use serde_json::{Map, Value};

/// `[{"type": "function", "function": {"name", "description", "parameters", "strict"}}]`.
pub(crate) fn tools(tools: ToolList<'_>, strict: bool) -> Value {
    let tools = plan::entries(tools, Target::OpenAi, strict)
        .into_iter()
        .map(|e| {
            let mut tool = Map::with_capacity(2);
            tool.insert("type".into(), "function".into());
            tool.insert(
                "function".into(),
                Value::Object(function(e, Map::with_capacity(4))),
            );
            Value::Object(tool)
        })
        .collect();
    Value::Array(tools)
}

/// Adds the function's fields to `tool`. Built by hand, not with `json!`: `json!` copies an
/// interpolated `Value` through `to_value`, a full re-serialization of every schema.
pub(crate) fn function(entry: Planned<'_>, mut tool: Map<String, Value>) -> Map<String, Value> {
    tool.insert("name".into(), entry.name.into());
    tool.insert("description".into(), entry.spec.description().into());
    tool.insert("parameters".into(), entry.schema);
    tool.insert("strict".into(), entry.strict.into());
    tool
}
