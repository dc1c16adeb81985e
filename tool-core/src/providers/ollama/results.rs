//! Results as Ollama's next request carries them: one `{"role": "tool", "content",
//! "tool_name", "tool_call_id"}` message per call (`docs/api.md` "Chat request (With history,
//! with tools)", `api/types.go` `Message.ToolName`, `Message.ToolCallID`), and the model's turn
//! rebuilt with each call's arguments as an object.

use crate::results::answer::{arguments_object, flagless_text, Answer};
use crate::ToolCall;
use serde_json::{json, Map, Value};

/// One tool message per call, in the calls' order. Ollama has no error flag, so an error's
/// text starts `Error:`. `tool_name` is what Ollama's docs send; `tool_call_id` tells calls
/// of one tool apart.
pub(crate) fn results(answers: &[Answer<'_>]) -> Vec<Value> {
    answers
        .iter()
        .map(|answer| {
            json!({
                "role": "tool",
                "content": flagless_text(&answer.output),
                "tool_name": answer.call.name,
                "tool_call_id": answer.call.id,
            })
        })
        .collect()
}

/// The assistant message that made the calls: `content` a string (empty when there is no
/// text), each call `{"id", "function": {"index", "name", "arguments": {..}}}` with the fields
/// it came with.
#[doc(hidden)]
pub fn call_turn(text: &str, calls: &[ToolCall]) -> Value {
    let mut message = Map::with_capacity(3);
    message.insert("role".into(), "assistant".into());
    message.insert("content".into(), text.into());
    if !calls.is_empty() {
        let tool_calls = calls
            .iter()
            .enumerate()
            .map(|(index, call)| {
                let mut item = call.passthrough.clone();
                item.insert("id".into(), call.id.clone().into());
                item.insert(
                    "function".into(),
                    json!({"index": index, "name": call.name, "arguments": arguments_object(call)}),
                );
                Value::Object(item)
            })
            .collect();
        message.insert("tool_calls".into(), Value::Array(tool_calls));
    }
    Value::Object(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolOutput;
    use std::borrow::Cow;

    #[test]
    fn each_call_gets_a_tool_message_naming_its_tool_and_id() {
        let calls = [
            ToolCall::new("call_a", "get_temperature", r#"{"city":"London"}"#),
            ToolCall::new("call_b", "get_temperature", "{}"),
        ];
        let outputs = [
            ToolOutput::text("15°C"),
            ToolOutput::from(crate::ToolError::new("no such city")),
        ];
        let answers: Vec<Answer<'_>> = calls
            .iter()
            .zip(&outputs)
            .map(|(call, output)| Answer {
                call,
                output: Cow::Borrowed(output),
            })
            .collect();
        assert_eq!(
            results(&answers),
            vec![
                json!({"role": "tool", "content": "15°C", "tool_name": "get_temperature", "tool_call_id": "call_a"}),
                json!({"role": "tool", "content": "Error: no such city", "tool_name": "get_temperature", "tool_call_id": "call_b"}),
            ]
        );
        let turn = call_turn("", &calls);
        assert_eq!(turn["content"], "");
        assert_eq!(
            turn["tool_calls"][0],
            json!({"id": "call_a", "function": {"index": 0, "name": "get_temperature", "arguments": {"city": "London"}}})
        );
        assert_eq!(turn["tool_calls"][1]["function"]["index"], 1);
        assert!(call_turn("Hi.", &[]).get("tool_calls").is_none());
    }
}
