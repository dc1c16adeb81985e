//! What a call returns: text, JSON, or an error, and how return values become one.

use crate::error::{ErrorCode, ToolError};
use serde::de::{Deserializer, Error as _};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::any::Any;
use std::fmt;

/// The one result every call ends with.
///
/// Serialized as `{"kind": "text", "text": ...}`, `{"kind": "object", "json": ...}` or
/// `{"kind": "error", "error": {"code": ..., "message": ...}}`.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolOutput {
    /// Plain text for the model (a tool returning `String` gives this).
    Text(String),
    /// A JSON value (a tool returning any other `Serialize` type gives this).
    Json(JsonOutput),
    /// The call failed; the message says why.
    Error(ToolError),
}

/// A serialized JSON value. Kept as text so a call's output is serialized once, not built as
/// a `serde_json::Value` first and serialized again.
#[derive(Clone)]
pub struct JsonOutput(String);

impl JsonOutput {
    /// Serializes a value.
    pub fn from_serialize<T: Serialize + ?Sized>(
        value: &T,
    ) -> Result<JsonOutput, serde_json::Error> {
        serde_json::to_string(value).map(JsonOutput)
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The JSON text, owned.
    pub fn into_string(self) -> String {
        self.0
    }

    /// The JSON as a `serde_json::Value`.
    pub fn to_value(&self) -> serde_json::Value {
        // The text was produced by serde_json, so it parses.
        serde_json::from_str(&self.0).unwrap_or(serde_json::Value::Null)
    }

    /// The text as a raw JSON value, to embed in a larger document without re-encoding.
    pub fn as_raw(&self) -> &RawValue {
        // The text was produced by serde_json, so it is one valid JSON value.
        serde_json::from_str(&self.0).unwrap_or(RawValue::NULL)
    }
}

impl From<serde_json::Value> for JsonOutput {
    fn from(value: serde_json::Value) -> JsonOutput {
        JsonOutput(value.to_string())
    }
}

impl PartialEq for JsonOutput {
    fn eq(&self, other: &JsonOutput) -> bool {
        self.as_str() == other.as_str()
    }
}

impl fmt::Debug for JsonOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for JsonOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ToolOutput {
    /// A text output.
    pub fn text(text: impl Into<String>) -> ToolOutput {
        ToolOutput::Text(text.into())
    }

    /// A JSON output from any serializable value; a value that fails to serialize gives an
    /// error output instead.
    pub fn json<T: Serialize + ?Sized>(value: &T) -> ToolOutput {
        match JsonOutput::from_serialize(value) {
            Ok(json) => ToolOutput::Json(json),
            Err(e) => ToolOutput::error(
                ErrorCode::OutputError,
                format!("the tool's result could not be serialized: {e}"),
            ),
        }
    }

    /// An error output.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ToolOutput {
        ToolOutput::Error(ToolError::with_code(code, message))
    }

    /// Whether the call failed.
    pub fn is_error(&self) -> bool {
        matches!(self, ToolOutput::Error(_))
    }

    /// The error, if the call failed.
    pub fn as_error(&self) -> Option<&ToolError> {
        match self {
            ToolOutput::Error(e) => Some(e),
            _ => None,
        }
    }

    /// The output as the model reads it: the text, the JSON text, or the error message.
    pub fn to_model_text(&self) -> String {
        match self {
            ToolOutput::Text(text) => text.clone(),
            ToolOutput::Json(json) => json.as_str().to_owned(),
            ToolOutput::Error(error) => error.message.clone(),
        }
    }
}

impl Serialize for ToolOutput {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("ToolOutput", 2)?;
        match self {
            ToolOutput::Text(text) => {
                out.serialize_field("kind", "text")?;
                out.serialize_field("text", text)?;
            }
            ToolOutput::Json(json) => {
                out.serialize_field("kind", "object")?;
                out.serialize_field("json", json.as_raw())?;
            }
            ToolOutput::Error(error) => {
                out.serialize_field("kind", "error")?;
                out.serialize_field("error", error)?;
            }
        }
        out.end()
    }
}

impl<'de> Deserialize<'de> for ToolOutput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ToolOutput, D::Error> {
        #[derive(Deserialize)]
        #[serde(tag = "kind", rename_all = "snake_case")]
        enum Wire {
            Text { text: String },
            Object { json: serde_json::Value },
            Error { error: ToolError },
        }
        Ok(match Wire::deserialize(deserializer)? {
            Wire::Text { text } => ToolOutput::Text(text),
            Wire::Object { json } => {
                ToolOutput::Json(JsonOutput::from_serialize(&json).map_err(D::Error::custom)?)
            }
            Wire::Error { error } => ToolOutput::Error(error),
        })
    }
}

/// `()` → an empty text output.
pub fn unit_output(_: ()) -> ToolOutput {
    ToolOutput::Text(String::new())
}

/// Any return value → an output: a `ToolOutput` is kept, a `String` is text, anything else
/// is serialized to JSON (a value that serializes to a JSON string is text too).
pub fn value_output<T: Serialize + 'static>(value: T) -> ToolOutput {
    let mut slot = Some(value);
    let any: &mut dyn Any = &mut slot;
    if let Some(output) = any.downcast_mut::<Option<ToolOutput>>() {
        return output.take().unwrap_or_else(|| unit_output(()));
    }
    if let Some(text) = any.downcast_mut::<Option<String>>() {
        return ToolOutput::Text(text.take().unwrap_or_default());
    }
    match slot {
        Some(value) => match JsonOutput::from_serialize(&value) {
            Ok(json) if json.as_str().starts_with('"') => {
                ToolOutput::Text(serde_json::from_str(json.as_str()).unwrap_or_default())
            }
            Ok(json) => ToolOutput::Json(json),
            Err(e) => ToolOutput::error(
                ErrorCode::OutputError,
                format!("the tool's result could not be serialized: {e}"),
            ),
        },
        None => unit_output(()),
    }
}

/// `Result<T, E>` → `Ok` through [`value_output`], `Err` an error output (a [`ToolError`]
/// keeps its code; any other error becomes [`ErrorCode::ToolFailed`] with its `Display` text).
pub fn result_output<T: Serialize + 'static, E: fmt::Display + 'static>(
    result: Result<T, E>,
) -> ToolOutput {
    match result {
        Ok(value) => value_output(value),
        Err(error) => {
            let mut slot = Some(error);
            let any: &mut dyn Any = &mut slot;
            if let Some(tool_error) = any
                .downcast_mut::<Option<ToolError>>()
                .and_then(Option::take)
            {
                return ToolOutput::Error(tool_error);
            }
            let message = slot.map(|e| e.to_string()).unwrap_or_default();
            ToolOutput::Error(ToolError::new(message))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wire_shapes() {
        let text = serde_json::to_value(ToolOutput::text("hi")).unwrap();
        assert_eq!(text, json!({"kind": "text", "text": "hi"}));
        let object = serde_json::to_value(ToolOutput::json(&json!({"a": 1}))).unwrap();
        assert_eq!(object, json!({"kind": "object", "json": {"a": 1}}));
        let error = serde_json::to_value(ToolOutput::error(ErrorCode::UnknownTool, "no such tool"))
            .unwrap();
        assert_eq!(
            error,
            json!({"kind": "error", "error": {"code": "unknown_tool", "message": "no such tool"}})
        );
    }

    #[test]
    fn outputs_round_trip() {
        for output in [
            ToolOutput::text("a"),
            ToolOutput::json(&[1, 2]),
            ToolOutput::Error(ToolError::new("x").for_tool("t")),
        ] {
            let text = serde_json::to_string(&output).unwrap();
            assert_eq!(serde_json::from_str::<ToolOutput>(&text).unwrap(), output);
        }
    }

    #[test]
    fn return_values_pick_their_kind() {
        assert_eq!(value_output(String::from("s")), ToolOutput::text("s"));
        assert_eq!(value_output("static str"), ToolOutput::text("static str"));
        assert_eq!(value_output(vec![1, 2]), ToolOutput::json(&[1, 2]));
        assert_eq!(
            value_output(ToolOutput::text("kept")),
            ToolOutput::text("kept")
        );
        assert_eq!(unit_output(()), ToolOutput::text(""));
    }

    #[test]
    fn errors_keep_their_code_or_become_tool_failed() {
        let coded: Result<(), ToolError> =
            Err(ToolError::with_code(ErrorCode::InvalidArguments, "bad"));
        assert_eq!(
            result_output(coded).as_error().unwrap().code,
            ErrorCode::InvalidArguments
        );
        let plain: Result<u8, String> = Err("disk full".into());
        let out = result_output(plain);
        assert_eq!(out.as_error().unwrap().code, ErrorCode::ToolFailed);
        assert_eq!(out.as_error().unwrap().message, "disk full");
    }

    #[test]
    fn serialization_failure_is_an_error_output() {
        let mut map = std::collections::HashMap::new();
        map.insert(vec![1u8], 1);
        assert_eq!(
            value_output(map).as_error().unwrap().code,
            ErrorCode::OutputError
        );
    }
}
