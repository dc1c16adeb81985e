//! TensorZero's native `/inference` input: one user message holding a `tool_result` block per
//! call, `{"type": "tool_result", "id", "name", "result"}` (the `tensorzero` Python client,
//! `types.py`: `ToolResult`; TensorZero's "Inference API reference", `input.messages`).

use crate::results::answer::{flagless_text, Answer};
use crate::ToolCall;
use serde_json::{json, Map, Value};

/// One user message with every call's `tool_result`, in call order. TensorZero has no error
/// flag, so an error's text says it is one (`Error: `, or the tool's own
/// [`ErrorFormat`](crate::ErrorFormat)); rich content goes as its text, which is what the
/// gateway hands on to every provider.
pub(crate) fn results(answers: &[Answer<'_>]) -> Vec<Value> {
    if answers.is_empty() {
        return Vec::new();
    }
    let blocks: Vec<Value> = answers
        .iter()
        .map(|answer| {
            json!({
                "type": "tool_result",
                "id": answer.call.id,
                "name": answer.call.name,
                "result": flagless_text(&answer.output),
            })
        })
        .collect();
    vec![json!({"role": "user", "content": blocks})]
}

/// The assistant message that made the calls: a text block, then one `tool_call` block per
/// call, `{"type": "tool_call", "id", "name", "arguments"}` with the arguments as the model
/// wrote them (a string, which the gateway takes as it is).
#[doc(hidden)]
pub fn call_turn(text: &str, calls: &[ToolCall]) -> Value {
    let mut content = Vec::with_capacity(calls.len() + 1);
    if !text.is_empty() {
        content.push(json!({"type": "text", "text": text}));
    }
    for call in calls {
        let mut block: Map<String, Value> = call.passthrough.clone();
        block.insert("type".into(), "tool_call".into());
        block.insert("id".into(), call.id.clone().into());
        block.insert("name".into(), call.name.clone().into());
        block.insert("arguments".into(), call.arguments.clone().into());
        content.push(Value::Object(block));
    }
    json!({"role": "assistant", "content": content})
}
