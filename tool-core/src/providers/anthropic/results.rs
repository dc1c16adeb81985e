//! Anthropic Messages: one user message holding a `tool_result` block per call,
//! `{"type": "tool_result", "tool_use_id", "content", "is_error"?}` (anthropic-sdk-python
//! `types/tool_result_block_param.py`).

use crate::output::ContentBlock;
use crate::results::answer::{arguments_object, model_text, Answer};
use crate::{ToolCall, ToolOutput};
use serde_json::{json, Map, Value};

/// One user message with every call's `tool_result`, in call order and nothing else in it: the
/// API requires each `tool_use` to be answered in the very next message, results first.
/// `is_error: true` marks failures, which always have text (`error_text`: the API refuses an
/// error result without content); other empty text leaves `content` out (it is optional). Rich
/// content becomes a list of text and image blocks: an image in a type the API takes (JPEG,
/// PNG, GIF, WebP) as a base64 image block, anything else as a text block that names it.
pub(crate) fn results(answers: &[Answer<'_>]) -> Vec<Value> {
    if answers.is_empty() {
        return Vec::new();
    }
    let blocks: Vec<Value> = answers
        .iter()
        .map(|answer| {
            let mut block = Map::new();
            block.insert("type".into(), "tool_result".into());
            block.insert("tool_use_id".into(), answer.call.id.clone().into());
            if let ToolOutput::Content(blocks) = &*answer.output {
                let content: Vec<Value> = blocks.iter().filter_map(content_block).collect();
                if !content.is_empty() {
                    block.insert("content".into(), Value::Array(content));
                }
            } else {
                let text = model_text(&answer.output);
                if !text.is_empty() {
                    block.insert("content".into(), text.into());
                }
            }
            if answer.output.is_error() {
                block.insert("is_error".into(), true.into());
            }
            Value::Object(block)
        })
        .collect();
    vec![json!({"role": "user", "content": blocks})]
}

/// The image types a `tool_result` image block takes (anthropic-sdk-python
/// `types/base64_image_source_param.py`).
const IMAGE_TYPES: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/// One block of a `tool_result`'s content; `None` for empty text, which the API refuses.
fn content_block(block: &ContentBlock) -> Option<Value> {
    match block {
        ContentBlock::Image {
            data, mime_type, ..
        } if IMAGE_TYPES.contains(&mime_type.as_str()) => Some(
            json!({"type": "image", "source": {"type": "base64", "media_type": mime_type, "data": data}}),
        ),
        other => {
            let text = other.to_model_text();
            (!text.is_empty()).then(|| json!({"type": "text", "text": text}))
        }
    }
}

/// The assistant message that made the calls: a text block, then one `tool_use` block per
/// call with its passthrough fields.
pub(crate) fn call_turn(text: &str, calls: &[ToolCall]) -> Value {
    let mut content = Vec::with_capacity(calls.len() + 1);
    if !text.is_empty() {
        content.push(json!({"type": "text", "text": text}));
    }
    for call in calls {
        let mut block = call.passthrough.clone();
        block.insert("type".into(), "tool_use".into());
        block.insert("id".into(), call.id.clone().into());
        block.insert("name".into(), call.name.clone().into());
        block.insert("input".into(), arguments_object(call));
        content.push(Value::Object(block));
    }
    json!({"role": "assistant", "content": content})
}
