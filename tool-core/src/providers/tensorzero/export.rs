//! TensorZero's tool entry, `{"name", "description", "parameters", "strict"}`: the shape of
//! `additional_tools` in a native `/inference` request (TensorZero's "Inference API
//! reference"), and what a `[tools.NAME]` entry of `tensorzero.toml` holds, with its
//! `parameters` in a file of its own ([`TensorZeroConfig`](super::config::TensorZeroConfig)).
//!
//! TensorZero hands the schema on to the model's provider, and in strict mode passes `strict`
//! on to OpenAI-compatible ones: the schemas follow OpenAI's rules, strict form included.

use crate::export::plan;
use crate::export::strict::Target;
use crate::export::tool_list::ToolList;
use serde_json::{Map, Value};

/// The tool list; with `strict`, each tool in strict form unless it can't be.
pub(crate) fn tools(tools: ToolList<'_>, strict: bool) -> Value {
    let tools = plan::entries(tools, Target::OpenAi, strict)
        .into_iter()
        .map(|e| {
            // By hand, not with `json!`, which would copy the schema through `to_value`.
            let mut tool = Map::with_capacity(4);
            tool.insert("name".into(), e.name.into());
            tool.insert("description".into(), e.spec.description().into());
            tool.insert("parameters".into(), e.schema);
            tool.insert("strict".into(), e.strict.into());
            Value::Object(tool)
        })
        .collect();
    Value::Array(tools)
}
