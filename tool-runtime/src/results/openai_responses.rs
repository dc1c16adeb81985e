//! OpenAI Responses: one `{"type": "function_call_output", "call_id", "output"}` input item per
//! call (openai-python `types/responses/response_input_param.py`: `FunctionCallOutput`).

use super::{flagless_text, Answer};
use crate::ToolCall;
use serde_json::{json, Value};

/// One `function_call_output` item per call. The API has no error flag, so an error's text
/// starts `Error:`.
pub(crate) fn results(answers: &[Answer<'_>]) -> Vec<Value> {
    answers
        .iter()
        .map(|answer| {
            json!({
                "type": "function_call_output",
                "call_id": answer.call.id,
                "output": flagless_text(&answer.output),
            })
        })
        .collect()
}

/// The output items that made the calls: an assistant message for the text, then one
/// `function_call` item per call (its `id` and `status` from the passthrough fields).
pub(crate) fn call_turn(text: &str, calls: &[ToolCall]) -> Vec<Value> {
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
