//! Telling the providers' outputs apart by the keys each one alone uses: each provider
//! claims its own shapes (`is_reply`, then `is_message` for a bare assistant message).

use crate::providers::api;
use crate::Provider;
use serde_json::Value;

/// Which provider's response `output` is, by its shape; `None` when it matches none.
///
/// - `candidates`, or a `Content` with `parts`: Gemini;
/// - `choices`, or an assistant message with `tool_calls` or string content: OpenAI Chat;
/// - `"object": "response"`, an `output` list, or a list of typed output items: OpenAI Responses;
/// - `inference_id` with `content`, or `tool_call` content blocks: TensorZero;
/// - a `message` object beside a boolean `done`: Ollama (a bare Ollama message has Chat
///   Completions' keys and routes as one);
/// - `"type": "message"`, or an assistant message whose `content` is a list of blocks: Anthropic.
pub fn detect(output: &Value) -> Option<Provider> {
    let by_reply = Provider::ALL
        .into_iter()
        .find(|&provider| (api(provider).is_reply)(output));
    if by_reply.is_some() {
        return by_reply;
    }
    let message = output
        .as_object()
        .filter(|o| o.get("role").and_then(Value::as_str) == Some("assistant"))?;
    Provider::ALL
        .into_iter()
        .find(|&provider| (api(provider).is_message)(message))
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
            (json!({"hello": "world"}), None),
            (json!([]), None),
            (json!("text"), None),
        ];
        for (output, expected) in cases {
            assert_eq!(detect(&output), expected, "{output}");
        }
    }
}
