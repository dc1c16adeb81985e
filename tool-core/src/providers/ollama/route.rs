//! A whole `/api/chat` reply (`"stream": false`): one `ChatResponse`, or just its `message`.

use super::message::{self, READ};
use crate::router::error::RouteError;
use crate::router::routed::Routed;
use crate::router::shape;
use crate::Provider;
use serde_json::Value;

/// Routes an Ollama `/api/chat` reply, or just its assistant `message`: the calls (arguments,
/// an object on the wire, as JSON text) and the message's `content`.
///
/// # Errors
///
/// A [`RouteError`] naming the JSON pointer where the output stops being an Ollama chat
/// reply, or [`RouteError::Provider`] for Ollama's `{"error": "..."}`.
pub(crate) fn ollama(output: &Value) -> Result<Routed, RouteError> {
    if let Some(error) = shape::provider_error(output) {
        return Err(error);
    }
    let top = READ.object(Some(output), "")?;
    let (message, at) = match top.get("message") {
        Some(value) => (READ.object(Some(value), "/message")?, "/message"),
        None => (top, ""),
    };
    let read = message::read(message, at, 0)?;
    let mut routed = Routed::new(Provider::Ollama);
    routed.text.push_str(read.text);
    routed.calls = read.calls;
    Ok(routed)
}

/// A `message` object beside a boolean `done`: a `ChatResponse`, whole or one streamed line.
/// No other provider's reply has either at its top.
pub(crate) fn is_reply(reply: &Value) -> bool {
    reply.get("message").is_some_and(Value::is_object)
        && reply.get("done").is_some_and(Value::is_boolean)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolCall;
    use serde_json::json;

    /// `docs/api.md`, "Chat request (No streaming, with tools)", with the id today's server adds.
    #[test]
    fn the_documented_reply_routes_with_object_arguments_as_text() {
        let reply = json!({
            "model": "llama3.2", "created_at": "2025-07-07T20:32:53.844124Z",
            "message": {"role": "assistant", "content": "", "tool_calls": [
                {"id": "call_k3x9q2ab", "function": {"index": 0, "name": "get_weather", "arguments": {"city": "Tokyo"}}}]},
            "done_reason": "stop", "done": true, "prompt_eval_count": 169, "eval_count": 18});
        let routed = ollama(&reply).unwrap();
        assert_eq!(routed.provider, Provider::Ollama);
        assert_eq!(
            routed.calls,
            vec![ToolCall::new(
                "call_k3x9q2ab",
                "get_weather",
                r#"{"city":"Tokyo"}"#
            )]
        );
        assert_eq!(routed.text, "");
    }

    #[test]
    fn calls_without_ids_are_numbered_and_a_bare_message_routes() {
        let message = json!({"role": "assistant", "content": "Checking.", "thinking": "hmm", "tool_calls": [
            {"function": {"name": "f", "arguments": {"a": 1}}},
            {"id": "", "function": {"name": "g"}}]});
        let routed = ollama(&message).unwrap();
        assert_eq!(routed.text, "Checking.");
        assert_eq!(
            routed.calls,
            vec![
                ToolCall::new("call_0", "f", r#"{"a":1}"#),
                ToolCall::new("call_1", "g", "{}")
            ]
        );
    }

    #[test]
    fn wrong_shapes_name_the_pointer_and_errors_are_the_providers() {
        let err = ollama(&json!({"message": {"tool_calls": [{"function": []}]}})).unwrap_err();
        assert_eq!(
            err,
            RouteError::Shape {
                provider: Provider::Ollama,
                pointer: "/message/tool_calls/0/function".into(),
                expected: "an object",
                found: "an empty array"
            }
        );
        assert!(ollama(&json!({"message": "hi"})).is_err());
        assert!(ollama(&json!([1])).is_err());
        assert_eq!(
            ollama(&json!({"error": "model \"llama9\" not found, try pulling it first"})),
            Err(RouteError::Provider {
                message: "model \"llama9\" not found, try pulling it first".into()
            })
        );
    }
}
