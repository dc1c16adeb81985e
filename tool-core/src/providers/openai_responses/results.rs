//! OpenAI Responses: one `{"type": "function_call_output", "call_id", "output"}` input item per
//! call (openai-python `types/responses/response_input_param.py`: `FunctionCallOutput`).

use crate::output::{ContentBlock, ResourceBody};
use crate::results::answer::{flagless_text, Answer};
use crate::{ToolCall, ToolOutput};
use serde_json::{json, Value};

/// One `function_call_output` item per call. The API has no error flag, so an error's text
/// starts `Error:`. Rich content becomes the list form of `output` (openai-python
/// `types/responses/response_input_param.py`: `input_text`, `input_image` with a data URL,
/// `input_file` for a PDF); other binary content is named in an `input_text`.
pub(crate) fn results(answers: &[Answer<'_>]) -> Vec<Value> {
    answers
        .iter()
        .map(|answer| {
            json!({
                "type": "function_call_output",
                "call_id": answer.call.id,
                "output": match &*answer.output {
                    ToolOutput::Content(blocks) => Value::Array(blocks.iter().map(content_item).collect()),
                    output => flagless_text(output).into(),
                },
            })
        })
        .collect()
}

/// One item of an `output` list.
fn content_item(block: &ContentBlock) -> Value {
    match block {
        ContentBlock::Image {
            data, mime_type, ..
        } => {
            json!({"type": "input_image", "image_url": format!("data:{mime_type};base64,{data}")})
        }
        ContentBlock::Resource(resource) => match (&resource.body, resource.mime_type.as_deref()) {
            (ResourceBody::Blob { blob }, Some(mime @ "application/pdf")) => {
                let filename = resource.uri.rsplit('/').next().unwrap_or("file.pdf");
                json!({"type": "input_file", "filename": filename,
                       "file_data": format!("data:{mime};base64,{blob}")})
            }
            _ => json!({"type": "input_text", "text": block.to_model_text()}),
        },
        other => json!({"type": "input_text", "text": other.to_model_text()}),
    }
}

/// The output items that made the calls: an assistant message for the text, then one
/// `function_call` item per call (its `id` and `status` from the passthrough fields).
#[doc(hidden)]
pub fn call_turn(text: &str, calls: &[ToolCall]) -> Vec<Value> {
    let mut items = Vec::with_capacity(calls.len() + 1);
    if !text.is_empty() {
        items.push(json!({"type": "message", "role": "assistant", "content": text}));
    }
    for call in calls {
        let mut item = call.passthrough.clone();
        item.insert("type".into(), "function_call".into());
        item.insert("call_id".into(), call.id.clone().into());
        item.insert("name".into(), call.name.clone().into());
        item.insert("arguments".into(), call.arguments.clone().into());
        items.push(Value::Object(item));
    }
    items
}
