//! The provider-neutral tool list: `[{"name", "description", "parameters"}]`, each schema the
//! registry's own JSON Schema (2020-12, an object root), unchanged but for an imported tool's
//! `$schema`, which a model API doesn't take ([`super::for_model`]). What a backend that takes
//! JSON Schema directly wants (vLLM's guided decoding, a TensorZero tool config), or a prompt
//! that lists the tools for a model without native tool calling.

use super::tool_list::ToolList;
use serde_json::{Map, Value};

/// Every tool's entry, under its own name.
pub(crate) fn tools(tools: ToolList<'_>) -> Value {
    let tools = tools
        .specs()
        .map(|spec| {
            let mut tool = Map::new();
            tool.insert("name".into(), spec.name().into());
            tool.insert("description".into(), spec.description().into());
            tool.insert("parameters".into(), super::for_model(spec.input_schema()));
            Value::Object(tool)
        })
        .collect();
    Value::Array(tools)
}
