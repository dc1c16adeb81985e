//! Anthropic Messages: `tool_use` content blocks, each `{"type": "tool_use", "id": "toolu_..",
//! "name", "input": {..}}` with `input` an object (anthropic-sdk-python `types/tool_use_block.py`).

use crate::router::error::RouteError;
use crate::router::routed::Routed;
use crate::router::shape::{self, Reader};
use crate::Provider;
use crate::ToolCall;
use serde_json::{Map, Value};

const READ: Reader = Reader(Provider::Anthropic);

/// Routes a Messages API response (or an assistant message `{"role", "content": [..]}`): its
/// `tool_use` blocks, `input` serialized to text in the model's key order, and its `text`
/// blocks. Thinking blocks and server-side tools (`server_tool_use`, web search results) are
/// skipped: the API runs those itself.
///
/// # Errors
///
/// A [`RouteError`] naming the JSON pointer where the output stops being a Messages
/// response, or [`RouteError::Provider`] for the provider's error reply.
pub(crate) fn anthropic(output: &Value) -> Result<Routed, RouteError> {
    if let Some(error) = shape::provider_error(output) {
        return Err(error);
    }
    let message = READ.object(Some(output), "")?;
    let mut routed = Routed::new(Provider::Anthropic);
    let content = match message.get("content") {
        // A message param may carry plain text instead of blocks.
        Some(Value::String(text)) => {
            routed.text.push_str(text);
            return Ok(routed);
        }
        content => READ.array(content, "/content")?,
    };
    for (i, block) in content.iter().enumerate() {
        let at = format!("/content/{i}");
        let block = READ.object(Some(block), &at)?;
        match READ.string(block.get("type"), format_args!("{at}/type"))? {
            Some("text") => {
                if let Some(text) = READ.string(block.get("text"), format_args!("{at}/text"))? {
                    routed.text.push_str(text);
                }
            }
            Some("tool_use") => routed.calls.push(tool_use(
                block,
                &at,
                shape::object_arguments(block.get("input")),
                i,
            )?),
            _ => {}
        }
    }
    Ok(routed)
}

/// A `tool_use` block as a call, with its arguments already in text form (shared with the
/// stream accumulator, which gets them in pieces).
pub(crate) fn tool_use(
    block: &Map<String, Value>,
    at: &str,
    arguments: String,
    position: usize,
) -> Result<ToolCall, RouteError> {
    // An empty id is no id: the result could not quote it (found by fuzzing).
    let id = READ
        .string(block.get("id"), format_args!("{at}/id"))?
        .filter(|id| !id.is_empty());
    let name = READ.string(block.get("name"), format_args!("{at}/name"))?;
    Ok(ToolCall {
        id: id.map_or_else(|| format!("toolu_{position}"), str::to_owned),
        name: name.unwrap_or_default().to_owned(),
        arguments,
        passthrough: shape::passthrough(block, &["type", "id", "name", "input"]),
    })
}

/// A Messages API response: `"type": "message"` with a list of content blocks, none of them
/// TensorZero's `tool_call`.
pub(crate) fn is_reply(reply: &Value) -> bool {
    reply.get("type").and_then(Value::as_str) == Some("message")
        && reply
            .get("content")
            .and_then(Value::as_array)
            .is_some_and(|blocks| !shape::has_block(blocks, "tool_call"))
}

/// An assistant message whose content is a list of blocks (and which has no `tool_calls`).
pub(crate) fn is_message(message: &Map<String, Value>) -> bool {
    !message.contains_key("tool_calls") && message.get("content").is_some_and(Value::is_array)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn input_is_serialized_in_the_models_key_order() {
        let message = json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"z": 1, "a": [true, null]}}]});
        assert_eq!(
            anthropic(&message).unwrap().calls[0].arguments,
            r#"{"z":1,"a":[true,null]}"#
        );
    }

    #[test]
    fn thinking_and_server_tools_are_not_calls() {
        let message = json!({"type": "message", "role": "assistant", "content": [
            {"type": "thinking", "thinking": "hmm", "signature": "sig"},
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x"}},
            {"type": "text", "text": "Done."}]});
        let routed = anthropic(&message).unwrap();
        assert!(routed.calls.is_empty());
        assert_eq!(routed.text, "Done.");
    }

    #[test]
    fn extra_block_fields_travel_along() {
        let message = json!({"content": [{"type": "tool_use", "id": "toolu_1", "name": "f",
                                          "input": {}, "caller": {"type": "direct"}}]});
        let call = &anthropic(&message).unwrap().calls[0];
        assert_eq!(call.arguments, "{}");
        assert_eq!(call.passthrough["caller"], json!({"type": "direct"}));
    }

    #[test]
    fn an_error_event_is_a_provider_error() {
        let err = anthropic(&json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}))
            .unwrap_err();
        assert_eq!(
            err,
            RouteError::Provider {
                message: "Overloaded".into()
            }
        );
        assert!(anthropic(&json!({"content": [42]})).is_err());
    }
}
