//! Telling the providers' outputs apart by the keys each one alone uses.

use crate::Provider;
use serde_json::Value;

/// Which provider's response `output` is, by its shape; `None` when it matches none.
///
/// - `candidates`, or a `Content` with `parts`: Gemini;
/// - `choices`, or an assistant message with `tool_calls` or string content: OpenAI Chat;
/// - `"object": "response"`, an `output` list, or a list of typed output items: OpenAI Responses;
/// - `inference_id` with `content`, or `tool_call` content blocks: TensorZero;
/// - a `message` object beside a boolean `done`: Ollama (its `ChatResponse`, whole or one
///   streamed line; a bare Ollama message has Chat Completions' keys and routes as such);
/// - `"type": "message"`, or an assistant message whose `content` is a list of blocks: Anthropic.
pub fn detect(output: &Value) -> Option<Provider> {
    let object = match output {
        Value::Array(items) => {
            let typed = !items.is_empty()
                && items
                    .iter()
                    .all(|item| item.get("type").and_then(Value::as_str).is_some());
            return typed.then_some(Provider::OpenAiResponses);
        }
        Value::Object(object) => object,
        _ => return None,
    };
    let kind = object.get("type").and_then(Value::as_str);
    // A blocked prompt comes back with `promptFeedback` and no `candidates`.
    if object.contains_key("candidates")
        || object.contains_key("promptFeedback")
        || object.get("parts").is_some_and(Value::is_array)
    {
        return Some(Provider::Gemini);
    }
    if object.get("message").is_some_and(Value::is_object)
        && object.get("done").is_some_and(Value::is_boolean)
    {
        return Some(Provider::Ollama);
    }
    if object.contains_key("choices")
        || object.get("object").and_then(Value::as_str) == Some("chat.completion")
    {
        return Some(Provider::OpenAiChat);
    }
    if object.get("object").and_then(Value::as_str) == Some("response")
        || object.get("output").is_some_and(Value::is_array)
    {
        return Some(Provider::OpenAiResponses);
    }
    // TensorZero's native response: its ids, or `tool_call` blocks (also in its input messages).
    let tensorzero_blocks = object
        .get("content")
        .and_then(Value::as_array)
        .is_some_and(|blocks| {
            blocks
                .iter()
                .any(|block| block.get("type").and_then(Value::as_str) == Some("tool_call"))
        });
    if (object.contains_key("inference_id") && object.contains_key("content")) || tensorzero_blocks
    {
        return Some(Provider::TensorZero);
    }
    if kind == Some("message") && object.get("content").is_some_and(Value::is_array) {
        return Some(Provider::Anthropic);
    }
    if object.get("role").and_then(Value::as_str) == Some("assistant") {
        if object.contains_key("tool_calls") {
            return Some(Provider::OpenAiChat);
        }
        return match object.get("content") {
            Some(Value::Array(_)) => Some(Provider::Anthropic),
            Some(Value::String(_) | Value::Null) | None => Some(Provider::OpenAiChat),
            _ => None,
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_shape_is_told_apart() {
        let cases = [
            (json!({"candidates": []}), Some(Provider::Gemini)),
            (
                json!({"role": "model", "parts": []}),
                Some(Provider::Gemini),
            ),
            (
                json!({"object": "chat.completion", "choices": []}),
                Some(Provider::OpenAiChat),
            ),
            (
                json!({"role": "assistant", "content": null, "tool_calls": []}),
                Some(Provider::OpenAiChat),
            ),
            (
                json!({"object": "response", "output": []}),
                Some(Provider::OpenAiResponses),
            ),
            (
                json!([{"type": "function_call"}]),
                Some(Provider::OpenAiResponses),
            ),
            (
                json!({"type": "message", "role": "assistant", "content": []}),
                Some(Provider::Anthropic),
            ),
            (
                json!({"role": "assistant", "content": [{"type": "tool_use"}]}),
                Some(Provider::Anthropic),
            ),
            (
                json!({"inference_id": "x", "variant_name": "v", "content": []}),
                Some(Provider::TensorZero),
            ),
            (
                json!({"role": "assistant", "content": [{"type": "text"}, {"type": "tool_call"}]}),
                Some(Provider::TensorZero),
            ),
            (
                json!({"model": "qwen3", "message": {"role": "assistant", "content": ""}, "done": true}),
                Some(Provider::Ollama),
            ),
            (json!({"message": "hi", "done": true}), None),
            (json!({"hello": "world"}), None),
            (json!([]), None),
            (json!("text"), None),
        ];
        for (output, expected) in cases {
            assert_eq!(detect(&output), expected, "{output}");
        }
    }
}
