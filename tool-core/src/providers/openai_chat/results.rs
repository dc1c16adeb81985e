//! OpenAI Chat Completions: one `{"role": "tool", "tool_call_id", "content"}` message per call
//! (openai-python `types/chat/chat_completion_tool_message_param.py`).

use crate::results::answer::{flagless_text, Answer};
use crate::ToolCall;
use serde_json::{json, Map, Value};

/// One tool message per call. The API has no error flag, so an error's text starts `Error:`.
pub(crate) fn results(answers: &[Answer<'_>]) -> Vec<Value> {
    answers
        .iter()
        .map(|answer| {
            json!({
                "role": "tool",
                "tool_call_id": answer.call.id,
                "content": flagless_text(&answer.output),
            })
        })
        .collect()
}

/// The assistant message that made the calls.
#[doc(hidden)]
pub fn call_turn(text: &str, calls: &[ToolCall]) -> Value {
    let mut message = Map::new();
    message.insert("role".into(), "assistant".into());
    message.insert(
        "content".into(),
        if text.is_empty() {
            Value::Null
        } else {
            text.into()
        },
    );
    if !calls.is_empty() {
        let tool_calls = calls
            .iter()
            .map(|call| {
                let mut item = call.passthrough.clone();
                item.insert("id".into(), call.id.clone().into());
                item.insert("type".into(), "function".into());
                item.insert(
                    "function".into(),
                    json!({"name": call.name, "arguments": call.arguments}),
                );
                Value::Object(item)
            })
            .collect();
        message.insert("tool_calls".into(), Value::Array(tool_calls));
    }
    Value::Object(message)
}
