//! Reading a provider's JSON with errors that say where it went wrong: each reader knows the
//! provider it reads for and takes the JSON pointer of the value it is given. The pointer is
//! anything `Display` (`format_args!` at the call sites), so it is written out only when
//! there is an error to report: routing a good reply allocates no pointers.

use super::error::RouteError;
use crate::Provider;
use serde_json::{Map, Value};
use std::fmt::Display;

/// Reads one provider's output.
#[derive(Clone, Copy)]
pub(crate) struct Reader(pub Provider);

impl Reader {
    /// The value as an object.
    pub(crate) fn object(
        self,
        value: Option<&Value>,
        pointer: impl Display,
    ) -> Result<&Map<String, Value>, RouteError> {
        value
            .and_then(Value::as_object)
            .ok_or_else(|| RouteError::shape(self.0, &pointer.to_string(), "an object", value))
    }

    /// The value as an array; missing or `null` is an empty one (providers omit empty lists).
    pub(crate) fn array(
        self,
        value: Option<&Value>,
        pointer: impl Display,
    ) -> Result<&[Value], RouteError> {
        match value {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(other) => Err(RouteError::shape(
                self.0,
                &pointer.to_string(),
                "an array",
                Some(other),
            )),
        }
    }

    /// The value as a string; missing or `null` is `None`.
    pub(crate) fn string(
        self,
        value: Option<&Value>,
        pointer: impl Display,
    ) -> Result<Option<&str>, RouteError> {
        match value {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(other) => Err(RouteError::shape(
                self.0,
                &pointer.to_string(),
                "a string",
                Some(other),
            )),
        }
    }
}

/// Arguments the provider sends as a JSON *string* (OpenAI): the string itself, exactly as the
/// model wrote it. An object or array (some OpenAI-compatible servers send one) is serialized;
/// a missing or `null` value is the empty string, which the pipeline reads as no arguments.
#[doc(hidden)]
pub fn string_arguments(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    }
}

/// Arguments the provider sends as a JSON *object* (Anthropic, Gemini): serialized to text in
/// the model's key order. Missing or `null` means no arguments: `{}`.
pub(crate) fn object_arguments(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => "{}".to_owned(),
        Some(other) => other.to_string(),
    }
}

/// Every field of `item` except `taken`: what must go back unchanged with the call.
pub(crate) fn passthrough(item: &Map<String, Value>, taken: &[&str]) -> Map<String, Value> {
    item.iter()
        .filter(|(key, _)| !taken.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

/// A provider's error reply, `{"error": ...}` (OpenAI, Gemini, TensorZero) or `{"type":
/// "error", "error": ...}` (Anthropic), as a [`RouteError::Provider`].
pub(crate) fn provider_error(output: &Value) -> Option<RouteError> {
    let error = output.as_object()?.get("error")?;
    if error.is_null() {
        return None;
    }
    // `{"error": "text"}`: TensorZero's gateway and some OpenAI-compatible servers.
    let message = match error {
        Value::String(text) => text.clone(),
        _ => error
            .get("message")
            .and_then(Value::as_str)
            .map_or_else(|| error.to_string(), str::to_owned),
    };
    Some(RouteError::Provider { message })
}

/// Text content that is a string or a list of `{"type": "text", "text": ...}`-style parts
/// (`part_types` names the text part types), joined.
pub(crate) fn text_content(content: Option<&Value>, part_types: &[&str], out: &mut String) {
    match content {
        Some(Value::String(text)) => out.push_str(text),
        Some(Value::Array(parts)) => {
            for part in parts {
                let kind = part.get("type").and_then(Value::as_str).unwrap_or_default();
                if part_types.contains(&kind) {
                    if let Some(text) = part.get("text").and_then(Value::as_str) {
                        out.push_str(text);
                    }
                }
            }
        }
        _ => {}
    }
}

/// Whether any of `blocks` is of type `kind`.
pub(crate) fn has_block(blocks: &[Value], kind: &str) -> bool {
    blocks
        .iter()
        .any(|block| block.get("type").and_then(Value::as_str) == Some(kind))
}
