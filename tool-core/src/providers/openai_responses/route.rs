//! OpenAI Responses: `function_call` items in `output`, each
//! `{"type": "function_call", "id": "fc_..", "call_id", "name", "arguments": "<JSON text>"}`;
//! the result quotes `call_id` (openai-python `types/responses/response_function_tool_call.py`,
//! `response_output_message.py`).

use crate::router::error::RouteError;
use crate::router::routed::{OtherCall, Routed};
use crate::router::shape::{self, Reader};
use crate::Provider;
use crate::ToolCall;
use serde_json::{Map, Value};

const READ: Reader = Reader(Provider::OpenAiResponses);

/// Routes a Responses API response (or its `output` list): the function calls, keyed by their
/// `call_id`, and the text of its `message` items. Server-side tool items (web search, file
/// search, ...) and reasoning items are skipped; other client-side calls (custom tools,
/// computer use, shell) are listed in [`Routed::other_calls`].
///
/// # Errors
///
/// A [`RouteError`] naming the JSON pointer where the output stops being a Responses
/// response, or [`RouteError::Provider`] for the provider's error reply.
pub(crate) fn openai_responses(output: &Value) -> Result<Routed, RouteError> {
    if let Some(error) = shape::provider_error(output) {
        return Err(error);
    }
    let (items, pointer) = match output {
        Value::Array(items) => (items.as_slice(), ""),
        _ => {
            let top = READ.object(Some(output), "")?;
            (READ.array(top.get("output"), "/output")?, "/output")
        }
    };
    let mut routed = Routed::new(Provider::OpenAiResponses);
    for (i, item) in items.iter().enumerate() {
        let at = format!("{pointer}/{i}");
        let item = READ.object(Some(item), &at)?;
        read_item(item, &at, i, &mut routed)?;
    }
    Ok(routed)
}

/// Adds one output item to the turn (shared with the stream accumulator).
pub(crate) fn read_item(
    item: &Map<String, Value>,
    at: &str,
    position: usize,
    routed: &mut Routed,
) -> Result<(), RouteError> {
    let kind = READ.string(item.get("type"), format_args!("{at}/type"))?;
    match kind {
        Some("message") => {
            for part in READ.array(item.get("content"), format_args!("{at}/content"))? {
                match part.get("type").and_then(Value::as_str) {
                    Some("output_text") => push_str(&mut routed.text, part.get("text")),
                    Some("refusal") => push_str(&mut routed.text, part.get("refusal")),
                    _ => {}
                }
            }
        }
        Some("function_call") => routed.calls.push(function_call(item, at, position)?),
        Some(other) => {
            // Client-side calls carry a `call_id` their output must quote; server-side tool
            // items (web_search_call, mcp_call, ...) don't, and need nothing from us.
            if let Some(call_id) = item.get("call_id").and_then(Value::as_str) {
                routed.other_calls.push(OtherCall {
                    id: call_id.to_owned(),
                    name: item
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    kind: other.to_owned(),
                });
            }
        }
        None => {}
    }
    Ok(())
}

/// A `function_call` item as a call; `position` numbers it when it has no id at all.
pub(crate) fn function_call(
    item: &Map<String, Value>,
    at: &str,
    position: usize,
) -> Result<ToolCall, RouteError> {
    let call_id = READ.string(item.get("call_id"), format_args!("{at}/call_id"))?;
    let item_id = READ.string(item.get("id"), format_args!("{at}/id"))?;
    let name = READ
        .string(item.get("name"), format_args!("{at}/name"))?
        .unwrap_or_default();
    Ok(ToolCall {
        // An empty id is no id: the result could not quote it (found by fuzzing).
        id: call_id
            .filter(|id| !id.is_empty())
            .or(item_id.filter(|id| !id.is_empty()))
            .map_or_else(|| format!("call_{position}"), str::to_owned),
        name: name.to_owned(),
        arguments: shape::string_arguments(item.get("arguments")),
        passthrough: shape::passthrough(item, &["type", "call_id", "name", "arguments"]),
    })
}

fn push_str(text: &mut String, value: Option<&Value>) {
    if let Some(part) = value.and_then(Value::as_str) {
        text.push_str(part);
    }
}

/// A Responses API response (`"object": "response"`, an `output` list), or a list of typed
/// output items.
pub(crate) fn is_reply(reply: &Value) -> bool {
    match reply {
        Value::Array(items) => {
            !items.is_empty()
                && items
                    .iter()
                    .all(|item| item.get("type").and_then(Value::as_str).is_some())
        }
        _ => {
            reply.get("object").and_then(Value::as_str) == Some("response")
                || reply.get("output").is_some_and(Value::is_array)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_call_id_is_the_id_and_the_item_id_travels_along() {
        let output = json!([{"type": "function_call", "id": "fc_1", "call_id": "call_1",
                             "name": "f", "arguments": "{}", "status": "completed"}]);
        let call = &openai_responses(&output).unwrap().calls[0];
        assert_eq!(call.id, "call_1");
        assert_eq!(call.passthrough["id"], "fc_1");
        assert_eq!(call.passthrough["status"], "completed");
    }

    #[test]
    fn server_side_items_are_skipped_and_client_side_ones_listed() {
        let output = json!({"output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {"type": "web_search_call", "id": "ws_1", "status": "completed"},
            {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_9", "name": "patch", "input": "..."}]});
        let routed = openai_responses(&output).unwrap();
        assert!(routed.calls.is_empty());
        assert_eq!(
            routed.other_calls,
            vec![OtherCall {
                id: "call_9".into(),
                name: "patch".into(),
                kind: "custom_tool_call".into()
            }]
        );
    }

    #[test]
    fn wrong_shapes_are_errors() {
        assert!(openai_responses(&json!({"output": {}})).is_err());
        let err = openai_responses(&json!({"output": [{"type": "function_call", "call_id": 5}]}))
            .unwrap_err();
        assert!(err.to_string().contains("/output/0/call_id"), "{err}");
    }
}
