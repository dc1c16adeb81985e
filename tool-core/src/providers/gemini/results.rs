//! Gemini: one user content of `functionResponse` parts,
//! `{"functionResponse": {"id"?, "name", "response": {"output": ..} | {"error": ..}}}`
//! (python-genai `types.py`: `FunctionResponse`, whose `response` must be an object: "Use
//! "output" key to specify function output and "error" key to specify error details").

use super::route::GENERATED_ID_PREFIX as GEMINI_GENERATED_ID_PREFIX;
use crate::output::{ContentBlock, ResourceBody};
use crate::results::answer::{arguments_object, error_text, Answer};
use crate::{ToolCall, ToolOutput};
use serde_json::{json, Map, Value};

/// One user content with a `functionResponse` part per call, in call order. Ids the router
/// made up (the model gave none) are left out: Gemini then pairs responses with calls by name
/// and order.
///
/// Passthrough fields are not put here: Gemini wants a `thoughtSignature` back on the exact
/// part it came on, the `functionCall` part of the model's turn (send that turn back as
/// received, or rebuild it with [`call_turn`](super::call_turn)).
pub(crate) fn results(answers: &[Answer<'_>]) -> Vec<Value> {
    if answers.is_empty() {
        return Vec::new();
    }
    let parts: Vec<Value> = answers
        .iter()
        .map(|answer| {
            let mut parts = Vec::new();
            let response = match &*answer.output {
                ToolOutput::Text(text) => json!({"output": text}),
                ToolOutput::Json(json) => json!({"output": json.to_value()}),
                ToolOutput::Error(error) => json!({"error": error_text(error)}),
                ToolOutput::Content(blocks) => {
                    let mut texts = Vec::new();
                    for block in blocks {
                        match inline_data(block) {
                            Some(part) => parts.push(part),
                            None => texts.push(block.to_model_text()),
                        }
                    }
                    json!({"output": texts.join("\n")})
                }
            };
            let mut function_response = Map::new();
            if let Some(id) = model_id(answer.call) {
                function_response.insert("id".into(), id.into());
            }
            function_response.insert("name".into(), answer.call.name.clone().into());
            function_response.insert("response".into(), response);
            if !parts.is_empty() {
                function_response.insert("parts".into(), Value::Array(parts));
            }
            json!({"functionResponse": function_response})
        })
        .collect();
    vec![json!({"role": "user", "parts": parts})]
}

/// The media types a function response part may carry inline (Gemini's multimodal function
/// responses: images and PDF); text goes in `response`.
const INLINE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/webp", "application/pdf"];

/// A `FunctionResponsePart` with the block's bytes, when Gemini takes them inline
/// (python-genai `types.py`: `FunctionResponsePart.inline_data`, a `FunctionResponseBlob`).
fn inline_data(block: &ContentBlock) -> Option<Value> {
    let (data, mime_type) = match block {
        ContentBlock::Image {
            data, mime_type, ..
        } => (data, mime_type.as_str()),
        ContentBlock::Resource(resource) => match (&resource.body, resource.mime_type.as_deref()) {
            (ResourceBody::Blob { blob }, Some(mime_type)) => (blob, mime_type),
            _ => return None,
        },
        _ => return None,
    };
    INLINE_TYPES
        .contains(&mime_type)
        .then(|| json!({"inlineData": {"mimeType": mime_type, "data": data}}))
}

/// The model content that made the calls: a text part, then one `functionCall` part per call
/// with its passthrough fields (`thoughtSignature`) back on the part.
#[doc(hidden)]
pub fn call_turn(text: &str, calls: &[ToolCall]) -> Value {
    let mut parts = Vec::with_capacity(calls.len() + 1);
    if !text.is_empty() {
        parts.push(json!({"text": text}));
    }
    for call in calls {
        let mut function_call = Map::new();
        if let Some(id) = model_id(call) {
            function_call.insert("id".into(), id.into());
        }
        function_call.insert("name".into(), call.name.clone().into());
        function_call.insert("args".into(), arguments_object(call));
        let mut part = Map::new();
        part.insert("functionCall".into(), Value::Object(function_call));
        part.extend(call.passthrough.clone());
        parts.push(Value::Object(part));
    }
    json!({"role": "model", "parts": parts})
}

/// The call's id if the model gave it, `None` if the router made it up.
fn model_id(call: &ToolCall) -> Option<&str> {
    (!call.id.starts_with(GEMINI_GENERATED_ID_PREFIX)).then_some(call.id.as_str())
}
