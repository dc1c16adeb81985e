//! OpenAI Responses `tools`: the function's fields flat beside `"type": "function"`.
//!
//! `strict` is always written: the Responses API treats a tool without it as strict
//! (`openai-python` `types/responses/function_tool.py`: `strict` "Default `true`").

use crate::export::plan;
use crate::export::strict::Target;
use crate::export::tool_list::ToolList;
use crate::providers::openai_chat::export::function;
use serde_json::{Map, Value};

/// `[{"type": "function", "name", "description", "parameters", "strict"}]`.
pub(crate) fn tools(tools: ToolList<'_>, strict: bool) -> Value {
    let tools = plan::entries(tools, Target::OpenAi, strict)
        .into_iter()
        .map(|e| {
            let mut tool = Map::with_capacity(5);
            tool.insert("type".into(), "function".into());
            Value::Object(function(e, tool))
        })
        .collect();
    Value::Array(tools)
}
