//! OpenAI's two tool shapes: Chat Completions nests the function, Responses lists it flat.
//!
//! `strict` is always written: the Responses API treats a tool without it as strict
//! (`openai-python` `types/responses/function_tool.py`: `strict` "Default `true`"), Chat
//! Completions as not (`shared_params/function_definition.py`).

use super::plan::{self, Entry};
use super::strict::Target;
use crate::registry::Registry;
use serde_json::{json, Value};

/// `[{"type": "function", "function": {"name", "description", "parameters", "strict"}}]`.
pub(crate) fn chat(registry: &Registry, strict: bool) -> Value {
    let tools = plan::entries(registry, Target::OpenAi, strict)
        .into_iter()
        .map(|e| json!({"type": "function", "function": function(e)}))
        .collect();
    Value::Array(tools)
}

/// `[{"type": "function", "name", "description", "parameters", "strict"}]`.
pub(crate) fn responses(registry: &Registry, strict: bool) -> Value {
    let tools = plan::entries(registry, Target::OpenAi, strict)
        .into_iter()
        .map(|e| {
            let mut tool = json!({"type": "function"});
            if let (Value::Object(tool), Value::Object(function)) = (&mut tool, function(e)) {
                tool.extend(function);
            }
            tool
        })
        .collect();
    Value::Array(tools)
}

fn function(entry: Entry<'_>) -> Value {
    json!({
        "name": entry.name,
        "description": entry.spec.description(),
        "parameters": entry.schema,
        "strict": entry.strict,
    })
}
