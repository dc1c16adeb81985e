//! TensorZero's native `/inference` response: `content` blocks, each `{"type": "text",
//! "text"}`, `{"type": "tool_call", "id", "name", "arguments", "raw_name", "raw_arguments"}`,
//! `{"type": "thought", ...}` or `{"type": "unknown", ...}` (the `tensorzero` Python client,
//! `types.py`: `ChatInferenceResponse`, `parse_content_block`).
//!
//! The gateway sets `name` and `arguments` only when the model named a tool it knows and wrote
//! arguments that fit its schema; `raw_name` and `raw_arguments` are always what the model
//! wrote. The router reads the raw ones, so that a call TensorZero could not validate still
//! reaches the pipeline, which repairs it or answers it with an error the model can act on:
//! every call gets its result.

use crate::router::error::RouteError;
use crate::router::routed::Routed;
use crate::router::shape::{self, Reader};
use crate::Provider;
use crate::ToolCall;
use serde_json::{Map, Value};

const READ: Reader = Reader(Provider::TensorZero);

/// The fields of a `tool_call` block the call is made of; the rest travel along.
const TAKEN: [&str; 6] = [
    "type",
    "id",
    "name",
    "arguments",
    "raw_name",
    "raw_arguments",
];

/// Routes a native TensorZero chat response (or a message `{"role", "content": [..]}` in its
/// input format): its `tool_call` blocks and its `text` blocks. `thought` and `unknown` blocks
/// are skipped.
///
/// ```
/// use serde_json::json;
/// use tool_runtime::{router, Provider};
///
/// let response = json!({
///     "inference_id": "0196c682-72e0-7c83-a92b-9d1a3c7630f2",
///     "episode_id": "0196c682-72e0-7c83-a92b-9d1a3c7630f3",
///     "variant_name": "default",
///     "content": [{"type": "tool_call", "id": "call_1", "name": "get_weather",
///                  "arguments": {"city": "Paris"},
///                  "raw_name": "get_weather", "raw_arguments": "{\"city\": \"Paris\"}"}],
///     "usage": {"input_tokens": 10, "output_tokens": 5},
///     "finish_reason": "tool_call"});
/// let routed = router::route(Provider::TensorZero, &response).unwrap();
/// assert_eq!(routed.calls[0].name, "get_weather");
/// assert_eq!(routed.calls[0].arguments, r#"{"city": "Paris"}"#);
/// ```
///
/// # Errors
///
/// A [`RouteError`] naming the JSON pointer where the output stops being a TensorZero chat
/// response, or [`RouteError::Provider`] for the gateway's error reply (`{"error": ...}`).
pub(crate) fn tensorzero(output: &Value) -> Result<Routed, RouteError> {
    if let Some(error) = shape::provider_error(output) {
        return Err(error);
    }
    let response = READ.object(Some(output), "")?;
    let mut routed = Routed::new(Provider::TensorZero);
    let content = match response.get("content") {
        // An input message may carry plain text instead of blocks.
        Some(Value::String(text)) => {
            routed.text.push_str(text);
            return Ok(routed);
        }
        content => READ.array(content, "/content")?,
    };
    for (i, block) in content.iter().enumerate() {
        let block = READ.object(Some(block), format_args!("/content/{i}"))?;
        match READ.string(block.get("type"), format_args!("/content/{i}/type"))? {
            Some("text") => {
                if let Some(text) =
                    READ.string(block.get("text"), format_args!("/content/{i}/text"))?
                {
                    routed.text.push_str(text);
                }
            }
            Some("tool_call") => routed.calls.push(tool_call(block, i)?),
            _ => {}
        }
    }
    Ok(routed)
}

/// A `tool_call` block as a call.
fn tool_call(block: &Map<String, Value>, i: usize) -> Result<ToolCall, RouteError> {
    let id = READ
        .string(block.get("id"), format_args!("/content/{i}/id"))?
        .filter(|id| !id.is_empty());
    let raw_name = READ.string(block.get("raw_name"), format_args!("/content/{i}/raw_name"))?;
    let name = READ.string(block.get("name"), format_args!("/content/{i}/name"))?;
    let arguments = match block.get("raw_arguments") {
        Some(Value::String(raw)) => raw.clone(),
        // Without the model's text (an input message holds only `arguments`): the parsed
        // arguments, as a string or an object.
        None | Some(Value::Null) => shape::string_arguments(block.get("arguments")),
        Some(other) => {
            return Err(RouteError::shape(
                Provider::TensorZero,
                &format!("/content/{i}/raw_arguments"),
                "a string",
                Some(other),
            ))
        }
    };
    Ok(ToolCall {
        id: id.map_or_else(|| format!("tool_call_{i}"), str::to_owned),
        // What the model wrote; the validated name when the model's is missing.
        name: raw_name.or(name).unwrap_or_default().to_owned(),
        arguments,
        passthrough: shape::passthrough(block, &TAKEN),
    })
}

/// A native `/inference` response (`inference_id` with `content`), or anything with
/// `tool_call` content blocks (its input messages have them too).
pub(crate) fn is_reply(reply: &Value) -> bool {
    let content = reply.get("content");
    (reply.get("inference_id").is_some() && content.is_some())
        || content
            .and_then(Value::as_array)
            .is_some_and(|blocks| shape::has_block(blocks, "tool_call"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_call_tensorzero_could_not_validate_still_routes() {
        let response = json!({"content": [
            {"type": "thought", "text": "hmm"},
            {"type": "text", "text": "Let me check."},
            {"type": "tool_call", "id": "c1", "name": null, "arguments": null,
             "raw_name": "get_wether", "raw_arguments": "{\"city\": \"Par"}]});
        let routed = tensorzero(&response).unwrap();
        assert_eq!(routed.text, "Let me check.");
        assert_eq!(
            routed.calls,
            vec![ToolCall::new("c1", "get_wether", "{\"city\": \"Par")]
        );
    }

    #[test]
    fn an_input_message_block_uses_its_parsed_arguments() {
        let message = json!({"role": "assistant", "content": [
            {"type": "tool_call", "id": "c1", "name": "f", "arguments": {"a": 1}}]});
        assert_eq!(
            tensorzero(&message).unwrap().calls[0].arguments,
            r#"{"a":1}"#
        );
        let message = json!({"content": [
            {"type": "tool_call", "name": "f", "arguments": "{\"a\": 1}"}]});
        let call = &tensorzero(&message).unwrap().calls[0];
        assert_eq!(
            (call.id.as_str(), call.arguments.as_str()),
            ("tool_call_0", "{\"a\": 1}")
        );
    }

    #[test]
    fn bad_shapes_name_their_pointer_and_errors_are_provider_errors() {
        let err =
            tensorzero(&json!({"content": [{"type": "tool_call", "raw_name": 7}]})).unwrap_err();
        assert!(err.to_string().contains("/content/0/raw_name"), "{err}");
        let err = tensorzero(&json!({"error": "Unknown function: nope"})).unwrap_err();
        assert_eq!(
            err,
            RouteError::Provider {
                message: "Unknown function: nope".into()
            }
        );
        assert!(tensorzero(&json!({"content": {}})).is_err());
    }
}
