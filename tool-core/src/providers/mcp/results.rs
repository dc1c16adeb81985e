//! MCP: one `CallToolResult` per call, `{"content": [...], "structuredContent"?, "isError"}`
//! (MCP `schema/2025-11-25/schema.ts`), content blocks `text`, `image`, `audio` and
//! `resource` as the spec defines them.

use crate::output::{ContentBlock, ResourceBody};
use crate::results::answer::{model_text, Answer};
use crate::ToolOutput;
use serde_json::{json, Map, Value};

/// One `CallToolResult` per call, in call order. A JSON output is also `structuredContent`,
/// wrapped as `{"result": ..}` when it is not an object (2025-11-25 requires an object); its
/// text block carries the same JSON, as the spec asks for older clients. Rich content goes
/// out block for block. Errors set `isError`, so the model sees them and can correct itself.
pub(crate) fn results(answers: &[Answer<'_>]) -> Vec<Value> {
    answers
        .iter()
        .map(|answer| {
            let mut result = Map::new();
            let content = match &*answer.output {
                ToolOutput::Content(blocks) => blocks.iter().map(block).collect(),
                output => {
                    let text = model_text(output);
                    if text.is_empty() {
                        Vec::new()
                    } else {
                        vec![json!({"type": "text", "text": text})]
                    }
                }
            };
            result.insert("content".into(), Value::Array(content));
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

/// One content block in MCP's shape, with its annotations.
#[doc(hidden)]
#[cfg_attr(not(feature = "mcp"), allow(unreachable_pub))]
pub fn block(block: &ContentBlock) -> Value {
    let mut wire = match block {
        ContentBlock::Text { text, .. } => json!({"type": "text", "text": text}),
        ContentBlock::Image {
            data, mime_type, ..
        } => json!({"type": "image", "data": data, "mimeType": mime_type}),
        ContentBlock::Audio {
            data, mime_type, ..
        } => json!({"type": "audio", "data": data, "mimeType": mime_type}),
        ContentBlock::Resource(resource) => {
            let mut contents = Map::new();
            contents.insert("uri".into(), resource.uri.clone().into());
            if let Some(mime_type) = &resource.mime_type {
                contents.insert("mimeType".into(), mime_type.clone().into());
            }
            match &resource.body {
                ResourceBody::Text { text } => contents.insert("text".into(), text.clone().into()),
                ResourceBody::Blob { blob } => contents.insert("blob".into(), blob.clone().into()),
            };
            json!({"type": "resource", "resource": contents})
        }
    };
    if let Some(annotations) = block.annotations() {
        wire["annotations"] = serde_json::to_value(annotations).unwrap_or_default();
    }
    wire
}
