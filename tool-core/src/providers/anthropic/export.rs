//! Anthropic Messages `tools`: `{"name", "description", "input_schema"}`, plus
//! `"strict": true` for a tool in strict form (anthropic-sdk-python `types/tool_param.py`;
//! "Strict tool use": "Set `"strict": true` as a top-level property in your tool definition").

use crate::export::plan;
use crate::export::strict::Target;
use crate::export::tool_list::ToolList;
use serde_json::{Map, Value};

/// The tool list; with `strict`, each tool in strict form unless it can't be.
pub(crate) fn tools(tools: ToolList<'_>, strict: bool) -> Value {
    let tools = plan::entries(tools, Target::Anthropic, strict)
        .into_iter()
        .map(|e| {
            // By hand, not with `json!`, which would copy the schema through `to_value`.
            let mut tool = Map::with_capacity(4);
            tool.insert("name".into(), e.name.into());
            tool.insert("description".into(), e.spec.description().into());
            tool.insert("input_schema".into(), e.schema);
            if e.strict {
                tool.insert("strict".into(), Value::Bool(true));
            }
            Value::Object(tool)
        })
        .collect();
    Value::Array(tools)
}
