//! MCP `tools/list` entries.
//!
//! Sources (modelcontextprotocol, spec 2025-11-25):
//! - [TM] `docs/specification/2025-11-25/server/tools.mdx`, "Tool names": "SHOULD be between 1
//!   and 128 characters"; "uppercase and lowercase ASCII letters (A-Z, a-z), digits (0-9),
//!   underscore (_), hyphen (-), and dot (.)". "Tool": `inputSchema` "MUST be a valid JSON
//!   Schema object (not `null`)", with a root `type: "object"`; JSON Schema 2020-12 unless
//!   `$schema` says otherwise.
//! - [TS] `schema/2025-11-25/schema.ts`: `Tool` has `name`, `title?`, `description?`,
//!   `inputSchema`, `outputSchema?`, `annotations?`, `icons?`, `execution?`, `_meta?`;
//!   `ToolAnnotations` has `title?`, `readOnlyHint?`, `destructiveHint?`, `idempotentHint?`,
//!   `openWorldHint?`, all booleans but the title.

use super::common::{meta_valid, name_ok, unknown_keys};
use serde_json::Value;

/// The `tools` array of a `tools/list` result.
pub fn check(tools: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(list) = tools.as_array() else {
        return vec!["`tools` is not an array [TS]".into()];
    };
    let mut seen = Vec::new();
    for tool in list {
        let Some(entry) = tool.as_object() else {
            out.push("a tool is not an object [TS]".into());
            continue;
        };
        let name = entry.get("name").and_then(Value::as_str).unwrap_or("");
        let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
        if !name_ok(name, 128, allowed) {
            out.push(format!(
                "{name:?}: name breaks [A-Za-z0-9_.-]{{1,128}} [TM]"
            ));
        }
        if seen.contains(&name) {
            out.push(format!("{name}: two tools share the name [TM]"));
        }
        seen.push(name);
        let known = [
            "name",
            "title",
            "description",
            "inputSchema",
            "outputSchema",
            "annotations",
            "icons",
            "execution",
            "_meta",
        ];
        for key in unknown_keys(entry, &known) {
            out.push(format!("{name}: unexpected key `{key}` [TS]"));
        }
        for key in ["title", "description"] {
            if entry.get(key).is_some_and(|v| !v.is_string()) {
                out.push(format!("{name}: {key} is not a string [TS]"));
            }
        }
        let schema = entry.get("inputSchema").unwrap_or(&Value::Null);
        if schema.get("type") != Some(&Value::from("object")) {
            out.push(format!("{name}: inputSchema is not type object [TM]"));
        }
        meta_valid(name, "inputSchema", schema, &mut out);
        if let Some(annotations) = entry.get("annotations") {
            let Some(a) = annotations.as_object() else {
                out.push(format!("{name}: annotations is not an object [TS]"));
                continue;
            };
            let hints = [
                "readOnlyHint",
                "destructiveHint",
                "idempotentHint",
                "openWorldHint",
            ];
            for key in unknown_keys(
                a,
                &[
                    "title",
                    "readOnlyHint",
                    "destructiveHint",
                    "idempotentHint",
                    "openWorldHint",
                ],
            ) {
                out.push(format!("{name}: unexpected annotation `{key}` [TS]"));
            }
            for hint in hints {
                if a.get(hint).is_some_and(|v| !v.is_boolean()) {
                    out.push(format!("{name}: {hint} is not a bool [TS]"));
                }
            }
        }
    }
    out
}
