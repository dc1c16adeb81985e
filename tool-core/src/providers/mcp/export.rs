//! MCP `tools/list` entries: `{name, title?, description, inputSchema, outputSchema?,
//! annotations?}`
//! (MCP 2025-11-25 `schema.ts` `Tool`; `inputSchema` is JSON Schema 2020-12 with an object
//! root, which the registry's schemas already are).

use crate::export::names::NameRule;
use crate::export::tool_list::ToolList;
use crate::spec::ToolSpec;
use serde_json::{json, Map, Value};

/// Every tool's entry.
pub(crate) fn tools(tools: ToolList<'_>, _strict: bool) -> Value {
    let list = tools
        .specs()
        .enumerate()
        .map(|(i, spec)| tool(tools.name(NameRule::Mcp, i), spec))
        .collect();
    Value::Array(list)
}

fn tool(name: &str, spec: &ToolSpec) -> Value {
    let mut tool = Map::new();
    tool.insert("name".into(), name.into());
    if let Some(title) = spec.title() {
        tool.insert("title".into(), title.into());
    }
    tool.insert("description".into(), spec.description().into());
    tool.insert("inputSchema".into(), spec.input_schema().clone());
    if let Some(output_schema) = spec.output_schema() {
        tool.insert("outputSchema".into(), output_schema.clone());
    }
    let flags = spec.flags();
    let mut annotations = Map::new();
    // MCP's defaults are readOnly=false, destructive=true, idempotent=false, openWorld=true:
    // say only what the flags establish.
    if flags.read_only {
        annotations.insert("readOnlyHint".into(), json!(true));
    }
    if flags.destructive {
        annotations.insert("destructiveHint".into(), json!(true));
    }
    if flags.idempotent {
        annotations.insert("idempotentHint".into(), json!(true));
    }
    if flags.open_world {
        annotations.insert("openWorldHint".into(), json!(true));
    }
    if !annotations.is_empty() {
        tool.insert("annotations".into(), Value::Object(annotations));
    }
    Value::Object(tool)
}
