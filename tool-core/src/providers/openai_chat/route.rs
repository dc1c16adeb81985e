//! OpenAI Chat Completions: `choices[0].message.tool_calls[]`, each
//! `{"id", "type": "function", "function": {"name", "arguments": "<JSON text>"}}`
//! (openai-python `types/chat/chat_completion_message.py`,
//! `chat_completion_message_function_tool_call.py`).

use crate::router::error::RouteError;
use crate::router::routed::{OtherCall, Routed};
use crate::router::shape::{self, Reader};
use crate::Provider;
use crate::ToolCall;
use serde_json::{Map, Value};

const READ: Reader = Reader(Provider::OpenAiChat);

/// Routes a Chat Completions response, or just its assistant `message`: the function calls
/// (arguments kept as the JSON text the model wrote) and the message's text. Only the first
/// choice is read.
///
/// # Errors
///
/// A [`RouteError`] naming the JSON pointer where the output stops being a Chat Completions
/// response, or [`RouteError::Provider`] for the provider's error reply.
pub(crate) fn openai_chat(output: &Value) -> Result<Routed, RouteError> {
    if let Some(error) = shape::provider_error(output) {
        return Err(error);
    }
    let top = READ.object(Some(output), "")?;
    let (message, at) = match top.get("choices") {
        Some(value) => {
            let choices = READ.array(Some(value), "/choices")?;
            let first = choices.first().ok_or_else(|| {
                RouteError::shape(
                    Provider::OpenAiChat,
                    "/choices",
                    "at least one choice",
                    Some(value),
                )
            })?;
            let choice = READ.object(Some(first), "/choices/0")?;
            (
                READ.object(choice.get("message"), "/choices/0/message")?,
                "/choices/0/message",
            )
        }
        None => (top, ""),
    };

    let mut routed = Routed::new(Provider::OpenAiChat);
    shape::text_content(message.get("content"), &["text"], &mut routed.text);
    if routed.text.is_empty() {
        if let Some(refusal) = READ.string(message.get("refusal"), format_args!("{at}/refusal"))? {
            routed.text.push_str(refusal);
        }
    }
    // The deprecated `functions` API answers with one `function_call`, whose result goes back
    // as a `function` message this crate doesn't write: refused by name, never dropped.
    if message.get("function_call").is_some_and(|c| !c.is_null()) {
        return Err(RouteError::Shape {
            provider: Provider::OpenAiChat,
            pointer: format!("{at}/function_call"),
            expected:
                "`tool_calls` (the deprecated `functions` API is not supported: send `tools`)",
            found: "a legacy `function_call`",
        });
    }
    let pointer = format!("{at}/tool_calls");
    for (i, item) in READ
        .array(message.get("tool_calls"), &pointer)?
        .iter()
        .enumerate()
    {
        let at = format!("{pointer}/{i}");
        let item = READ.object(Some(item), &at)?;
        let id = READ
            .string(item.get("id"), format_args!("{at}/id"))?
            // An empty id is no id: the result could not quote it (found by fuzzing).
            .filter(|id| !id.is_empty())
            .map_or_else(|| format!("call_{i}"), str::to_owned);
        let kind = READ
            .string(item.get("type"), format_args!("{at}/type"))?
            .unwrap_or("function");
        if kind != "function" {
            let name = item
                .get(kind)
                .and_then(|inner| inner.get("name"))
                .and_then(Value::as_str);
            routed.other_calls.push(OtherCall {
                id,
                name: name.unwrap_or_default().to_owned(),
                kind: kind.to_owned(),
            });
            continue;
        }
        let function = READ.object(item.get("function"), format_args!("{at}/function"))?;
        let name = READ
            .string(function.get("name"), format_args!("{at}/function/name"))?
            .unwrap_or_default();
        routed.calls.push(ToolCall {
            id,
            name: name.to_owned(),
            arguments: shape::string_arguments(function.get("arguments")),
            passthrough: shape::passthrough(item, &["id", "type", "function"]),
        });
    }
    Ok(routed)
}

/// A Chat Completions response: `choices`, or `"object": "chat.completion"`.
pub(crate) fn is_reply(reply: &Value) -> bool {
    reply.get("choices").is_some()
        || reply.get("object").and_then(Value::as_str) == Some("chat.completion")
}

/// An assistant message with `tool_calls`, or with string (or no) content.
pub(crate) fn is_message(message: &Map<String, Value>) -> bool {
    message.contains_key("tool_calls")
        || matches!(
            message.get("content"),
            Some(Value::String(_) | Value::Null) | None
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_bare_message_is_read_like_a_whole_response() {
        let message = json!({"role": "assistant", "content": "Checking.", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]});
        let routed = openai_chat(&message).unwrap();
        assert_eq!(routed.text, "Checking.");
        assert_eq!(routed.calls, vec![ToolCall::new("call_1", "f", "{}")]);
    }

    #[test]
    fn arguments_are_kept_exactly_as_written_even_when_broken() {
        let message = json!({"role": "assistant", "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{\"a\": 1,"}}]});
        assert_eq!(
            openai_chat(&message).unwrap().calls[0].arguments,
            "{\"a\": 1,"
        );
    }

    #[test]
    fn compatible_servers_without_ids_or_with_object_arguments_still_route() {
        let message = json!({"role": "assistant", "tool_calls": [
            {"function": {"name": "f", "arguments": {"a": 1}}},
            {"function": {"name": "g"}}]});
        let calls = openai_chat(&message).unwrap().calls;
        assert_eq!(calls[0], ToolCall::new("call_0", "f", r#"{"a":1}"#));
        assert_eq!(calls[1], ToolCall::new("call_1", "g", ""));
    }

    #[test]
    fn custom_tool_calls_are_listed_not_run() {
        let message = json!({"role": "assistant", "tool_calls": [
            {"id": "c", "type": "custom", "custom": {"name": "grammar", "input": "x = 1"}}]});
        let routed = openai_chat(&message).unwrap();
        assert!(routed.calls.is_empty());
        assert_eq!(routed.other_calls[0].kind, "custom");
        assert_eq!(routed.other_calls[0].name, "grammar");
    }

    #[test]
    fn wrong_shapes_name_the_pointer() {
        let err = openai_chat(&json!({"choices": [{"message": {"tool_calls": {}}}]})).unwrap_err();
        assert_eq!(
            err,
            RouteError::Shape {
                provider: Provider::OpenAiChat,
                pointer: "/choices/0/message/tool_calls".into(),
                expected: "an array",
                found: "an object"
            }
        );
        assert!(
            err.to_string().contains("`/choices/0/message/tool_calls`"),
            "{err}"
        );
        assert!(openai_chat(&json!({"choices": []})).is_err());
        assert!(openai_chat(&json!([1])).is_err());
    }

    #[test]
    fn an_error_reply_is_a_provider_error() {
        let err = openai_chat(
            &json!({"error": {"message": "Invalid API key", "type": "invalid_request_error"}}),
        )
        .unwrap_err();
        assert_eq!(
            err,
            RouteError::Provider {
                message: "Invalid API key".into()
            }
        );
    }
}
