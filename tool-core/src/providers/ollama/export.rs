//! Ollama's `tools`: `[{"type": "function", "function": {"name", "description",
//! "parameters"}}]` (`api/types.go` `Tool`, `ToolFunction`): Chat Completions' shape with no
//! `strict`, since Ollama has no strict mode, and each schema reduced to what Ollama keeps
//! (`schema.rs`).

use super::schema;
use crate::export::plan;
use crate::export::strict::Target;
use crate::export::tool_list::ToolList;
use serde_json::{Map, Value};

/// The tool list. Built by hand, not with `json!`, which would copy every schema through
/// `to_value`.
pub(crate) fn tools(tools: ToolList<'_>, _strict: bool) -> Value {
    let tools = plan::entries(tools, Target::OpenAi, false)
        .into_iter()
        .map(|e| {
            let mut function = Map::with_capacity(3);
            function.insert("name".into(), e.name.into());
            function.insert("description".into(), e.spec.description().into());
            function.insert("parameters".into(), schema::reduce(&e.schema));
            let mut tool = Map::with_capacity(2);
            tool.insert("type".into(), "function".into());
            tool.insert("function".into(), Value::Object(function));
            Value::Object(tool)
        })
        .collect();
    Value::Array(tools)
}
