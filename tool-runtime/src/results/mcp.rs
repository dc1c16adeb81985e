//! MCP: one `CallToolResult` per call, `{"content": [{"type": "text", "text"}],
//! "structuredContent"?, "isError"}` (MCP `schema/2025-11-25/schema.ts`).

use super::{model_text, Answer};
use crate::ToolOutput;
use serde_json::{json, Map, Value};

/// One `CallToolResult` per call, in call order. A JSON output is also `structuredContent`,
/// wrapped as `{"result": ..}` when it is not an object (2025-11-25 requires an object); its
/// text block carries the same JSON, as the spec asks for older clients. Errors set `isError`,
/// so the model sees them and can correct itself.
pub(crate) fn results(answers: &[Answer<'_>]) -> Vec<Value> {
    answers
        .iter()
        .map(|answer| {
            let text = model_text(&answer.output);
            let mut result = Map::new();
            let content = if text.is_empty() {
                json!([])
            } else {
                json!([{"type": "text", "text": text}])
            };
            result.insert("content".into(), content);
            if let ToolOutput::Json(json) = &*answer.output {
                let structured = match json.to_value() {
                    object @ Value::Object(_) => object,
                    other => json!({"result": other}),
                };
                result.insert("structuredContent".into(), structured);
            }
            result.insert("isError".into(), answer.output.is_error().into());
            Value::Object(result)
        })
        .collect()
}
