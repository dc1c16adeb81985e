//! What a call returns: a [`ToolOutput`] (text, JSON, an error, or rich content made of
//! [`ContentBlock`]s); how return values become one ([`safe_serialize`]: never failing the
//! call), and how an output is kept within a byte budget ([`ToolOutput::bounded`]: text loses
//! its middle, JSON stays JSON, [`Truncation`] says what went).
//!
//! - `content.rs`: rich content blocks and their annotations;
//! - `structured.rs`: a declared output schema, and the structured result it describes;
//! - `safe.rs`: the serializer that turns any `Serialize` value into JSON without failing;
//! - `truncate.rs`, `truncate_json.rs` (+ `json_text.rs`): the cuts, the JSON one read in place.

mod content;
#[doc(hidden)]
pub mod json_text;
pub(crate) mod safe;
pub(crate) mod structured;
mod truncate;
mod truncate_json;

pub use content::{Annotations, ContentBlock, Resource, ResourceBody};
// How a tool's errors read to the model, and what it sends its client while it runs, are its
// output too.
pub use crate::error_format::{ErrorFormat, UnknownErrorFormat};
pub use crate::notify::{LogLevel, Notification, NotificationKind, Notifier};
pub use safe::safe_serialize;
pub use structured::OutputSchema;

use crate::error::{ErrorCode, ToolError};
use serde::de::{Deserializer, Error as _};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::any::{Any, TypeId};
use std::fmt;

/// The one result every call ends with.
///
/// Serialized as `{"kind": "text", "text": ...}`, `{"kind": "json", "json": ...}`,
/// `{"kind": "error", "error": {"code": ..., "message": ...}}` or
/// `{"kind": "content", "content": [{"type": "text" | "image" | "audio" | "resource", ...}]}`, with
/// `"truncated": {"original_bytes", "removed_bytes", "removed_lines"}` added when the output
/// cap cut it ([`truncation`](Self::truncation)).
#[derive(Clone, Debug, PartialEq)]
pub enum ToolOutput {
    /// Plain text for the model (a tool returning `String` gives this).
    Text(String),
    /// A JSON value (a tool returning any other `Serialize` type gives this).
    Json(JsonOutput),
    /// The call failed; the message says why.
    Error(Box<ToolError>),
    /// Text, images, audio and embedded resources, in order
    /// ([`ToolOutput::content`]); each provider gets the nearest form it accepts.
    Content(Vec<ContentBlock>),
}

/// A serialized JSON value. Kept as text so a call's output is serialized once, not built as
/// a `serde_json::Value` first and serialized again.
#[derive(Clone)]
pub struct JsonOutput {
    text: String,
    /// Set when the value was shrunk to fit the output cap. Boxed: rare, and it would double
    /// the size of every output moved along the call path.
    truncation: Option<Box<Truncation>>,
}

impl JsonOutput {
    /// Serializes a value the way a tool's return value is ([`safe_serialize`]): non-finite
    /// floats, bytes and non-string map keys get stand-ins; only a `Serialize` impl that
    /// fails or panics is an error.
    pub fn from_serialize<T: Serialize + ?Sized>(
        value: &T,
    ) -> Result<JsonOutput, serde_json::Error> {
        match safe::to_json(value) {
            Ok(text) => Ok(JsonOutput::new(text)),
            Err(failure) => Err(serde::ser::Error::custom(
                failure.error(std::any::type_name::<T>()).message,
            )),
        }
    }

    /// Text serde_json wrote.
    pub(crate) fn new(text: String) -> JsonOutput {
        JsonOutput {
            text,
            truncation: None,
        }
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The JSON text, owned.
    #[inline]
    pub fn into_string(self) -> String {
        self.text
    }

    /// The JSON as a `serde_json::Value`; the text itself, as a JSON string, for a value
    /// nested deeper than serde_json parses (128 levels), which its serializer still writes.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|_| serde_json::Value::String(self.text.clone()))
    }

    /// The text as a raw JSON value, to embed in a larger document without re-encoding.
    pub fn as_raw(&self) -> &RawValue {
        // The text was produced by serde_json, so it is one valid JSON value.
        serde_json::from_str(&self.text).unwrap_or(RawValue::NULL)
    }

    /// What was cut to fit the output cap, if anything was.
    pub fn truncation(&self) -> Option<Truncation> {
        self.truncation.as_deref().copied()
    }
}

impl From<serde_json::Value> for JsonOutput {
    fn from(value: serde_json::Value) -> JsonOutput {
        JsonOutput::new(value.to_string())
    }
}

impl PartialEq for JsonOutput {
    fn eq(&self, other: &JsonOutput) -> bool {
        self.as_str() == other.as_str() && self.truncation == other.truncation
    }
}

/// What the output cap cut from an output: see [`ToolOutput::bounded`].
///
/// A text output's marker (`[... truncated 91234 of 100000 bytes, 1203 lines ...]`) carries
/// the same numbers, so the model reads them too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Truncation {
    /// The output's size before it was cut: the text, or the compact JSON text, in bytes.
    pub original_bytes: usize,
    /// How many of those bytes the model doesn't see (markers not counted).
    pub removed_bytes: usize,
    /// How many line breaks were among them (in JSON: inside strings).
    pub removed_lines: usize,
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

impl From<ToolError> for ToolOutput {
    fn from(error: ToolError) -> ToolOutput {
        ToolOutput::Error(Box::new(error))
    }
}

impl ToolOutput {
    /// The output cap a registry applies unless told otherwise: 8 KiB, about 2,000 tokens,
    /// enough for a page of a file or a command's last lines without crowding the context.
    pub const DEFAULT_MAX_OUTPUT: usize = 8 * 1024;

    /// A text output.
    pub fn text(text: impl Into<String>) -> ToolOutput {
        ToolOutput::Text(text.into())
    }

    /// A JSON output from any serializable value, through [`safe_serialize`]: a value that
    /// can't be serialized gives an error output instead.
    pub fn json<T: Serialize + ?Sized>(value: &T) -> ToolOutput {
        safe_serialize(value)
    }

    /// An error output.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ToolOutput {
        ToolOutput::from(ToolError::with_code(code, message))
    }

    /// Rich content: text, images, audio, embedded resources, in the order given.
    pub fn content(blocks: impl IntoIterator<Item = ContentBlock>) -> ToolOutput {
        ToolOutput::Content(blocks.into_iter().collect())
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
            ToolOutput::Content(blocks) => blocks
                .iter()
                .map(ContentBlock::to_model_text)
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    /// The output cut to at most `max_bytes`, as the registry does with every call's output
    /// (see `RegistryBuilder::max_output`).
    ///
    /// Text loses its middle, on UTF-8 and (nearby) line boundaries, and gets a marker saying
    /// how many bytes and lines went. JSON stays valid JSON: long strings and arrays are
    /// shortened with markers, objects keep their keys; JSON that can't shrink enough that
    /// way becomes marked text. An error's message is cut like text. A budget smaller than
    /// the marker leaves the marker alone.
    ///
    /// ```
    /// use tool_runtime::ToolOutput;
    ///
    /// let log: String = (1..=1000).map(|i| format!("line {i}\n")).collect();
    /// let out = ToolOutput::text(log).bounded(200);
    /// let text = out.to_model_text();
    /// assert!(text.len() <= 200);
    /// assert!(text.starts_with("line 1\n") && text.ends_with("line 1000\n"));
    /// let cut = out.truncation().unwrap();
    /// assert_eq!(cut.original_bytes, 8893);
    /// assert!(text.contains(&format!("[... truncated {} of 8893 bytes", cut.removed_bytes)));
    /// ```
    #[inline]
    pub fn bounded(self, max_bytes: usize) -> ToolOutput {
        match &self {
            ToolOutput::Json(json) if json.text.len() <= max_bytes => self,
            _ => self.bounded_slow(max_bytes),
        }
    }

    /// [`bounded`](Self::bounded) past the common case of JSON that fits.
    fn bounded_slow(self, max_bytes: usize) -> ToolOutput {
        match self {
            ToolOutput::Text(text) => match truncate::truncate_middle(&text, max_bytes) {
                Some(cut) => ToolOutput::Text(cut.text),
                None => ToolOutput::Text(text),
            },
            ToolOutput::Json(json) if json.text.len() > max_bytes => {
                truncate_json::truncate(&json.text, max_bytes)
            }
            ToolOutput::Error(mut error) => {
                if let Some(cut) = truncate::truncate_middle(&error.message, max_bytes) {
                    error.message = cut.text;
                }
                ToolOutput::Error(error)
            }
            ToolOutput::Content(blocks) => ToolOutput::Content(content::bounded(blocks, max_bytes)),
            fits => fits,
        }
    }

    /// What the output cap cut from this output, if anything: read from a JSON output, and
    /// from the marker in a text output or an error message.
    pub fn truncation(&self) -> Option<Truncation> {
        match self {
            ToolOutput::Text(text) => truncate::find(text),
            ToolOutput::Json(json) => json.truncation(),
            ToolOutput::Error(error) => truncate::find(&error.message),
            ToolOutput::Content(blocks) => content::truncation(blocks),
        }
    }
}

impl Serialize for ToolOutput {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let truncation = self.truncation();
        let fields = 2 + usize::from(truncation.is_some());
        let mut out = serializer.serialize_struct("ToolOutput", fields)?;
        match self {
            ToolOutput::Text(text) => {
                out.serialize_field("kind", "text")?;
                out.serialize_field("text", text)?;
            }
            ToolOutput::Json(json) => {
                out.serialize_field("kind", "json")?;
                out.serialize_field("json", json.as_raw())?;
            }
            ToolOutput::Error(error) => {
                out.serialize_field("kind", "error")?;
                out.serialize_field("error", error)?;
            }
            ToolOutput::Content(blocks) => {
                out.serialize_field("kind", "content")?;
                out.serialize_field("content", blocks)?;
            }
        }
        if let Some(truncation) = truncation {
            out.serialize_field("truncated", &truncation)?;
        }
        out.end()
    }
}

impl<'de> Deserialize<'de> for ToolOutput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ToolOutput, D::Error> {
        #[derive(Deserialize)]
        #[serde(tag = "kind", rename_all = "snake_case")]
        enum Wire {
            // A text's or an error's truncation is read from its marker.
            Text {
                text: String,
            },
            // `object` is what this kind was called before 0.1 settled on `json`.
            #[serde(alias = "object")]
            Json {
                json: serde_json::Value,
                #[serde(default)]
                truncated: Option<Truncation>,
            },
            Error {
                error: ToolError,
            },
            Content {
                content: Vec<ContentBlock>,
            },
        }
        Ok(match Wire::deserialize(deserializer)? {
            Wire::Text { text } => ToolOutput::Text(text),
            Wire::Json { json, truncated } => {
                let mut json = JsonOutput::from_serialize(&json).map_err(D::Error::custom)?;
                json.truncation = truncated.map(Box::new);
                ToolOutput::Json(json)
            }
            Wire::Error { error } => ToolOutput::from(error),
            Wire::Content { content } => ToolOutput::Content(content),
        })
    }
}

/// `()` → an empty text output.
pub fn unit_output(_: ()) -> ToolOutput {
    ToolOutput::Text(String::new())
}

/// Any return value → an output: a `ToolOutput` is kept, a `String` is text, anything else
/// is serialized to JSON by [`safe_serialize`]'s rules (a value that serializes to a JSON
/// string is text too).
#[inline]
pub fn value_output<T: Serialize + 'static>(value: T) -> ToolOutput {
    // `TypeId`s of two known types compare at compile time: for any other `T` both branches
    // vanish, and the value is serialized without going through `dyn Any`.
    if TypeId::of::<T>() == TypeId::of::<ToolOutput>()
        || TypeId::of::<T>() == TypeId::of::<String>()
    {
        let mut slot = Some(value);
        let any: &mut dyn Any = &mut slot;
        if let Some(output) = any
            .downcast_mut::<Option<ToolOutput>>()
            .and_then(Option::take)
        {
            return output;
        }
        if let Some(text) = any.downcast_mut::<Option<String>>().and_then(Option::take) {
            return ToolOutput::Text(text);
        }
        return unit_output(());
    }
    match safe::to_json(&value) {
        Ok(json) if json.starts_with('"') => {
            ToolOutput::Text(serde_json::from_str(&json).unwrap_or_default())
        }
        Ok(json) => ToolOutput::Json(JsonOutput::new(json)),
        Err(failure) => ToolOutput::from(failure.error(std::any::type_name::<T>())),
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
                return ToolOutput::from(tool_error);
            }
            let message = slot.map(|e| e.to_string()).unwrap_or_default();
            ToolOutput::from(ToolError::new(message))
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
        assert_eq!(object, json!({"kind": "json", "json": {"a": 1}}));
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
            ToolOutput::from(ToolError::new("x").for_tool("t")),
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
    fn return_values_serialize_safely() {
        let mut map = std::collections::HashMap::new();
        map.insert(vec![1u8], 1);
        assert_eq!(value_output(map).to_model_text(), "[[[1],1]]");
        assert_eq!(value_output(f64::NAN), ToolOutput::text("NaN"));
        let ok: Result<Vec<f32>, String> = Ok(vec![f32::INFINITY]);
        assert_eq!(result_output(ok).to_model_text(), r#"["Infinity"]"#);

        struct Broken;
        impl Serialize for Broken {
            fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(serde::ser::Error::custom("no"))
            }
        }
        let error = value_output(Broken).as_error().cloned().unwrap();
        assert_eq!(error.code, ErrorCode::OutputError);
        assert!(error.message.contains("Broken"), "{}", error.message);
    }

    #[test]
    fn outputs_within_the_cap_are_untouched() {
        for output in [
            ToolOutput::text("abc"),
            ToolOutput::json(&json!({"a": [1, 2, 3]})),
            ToolOutput::error(ErrorCode::ToolFailed, "bad"),
        ] {
            assert_eq!(output.clone().bounded(1000), output);
            assert_eq!(output.truncation(), None);
        }
    }

    #[test]
    fn every_kind_is_bounded_and_says_so() {
        let long = "word ".repeat(2000);
        let text = ToolOutput::text(long.clone()).bounded(300);
        assert!(text.to_model_text().len() <= 300);
        assert_eq!(text.truncation().unwrap().original_bytes, 10_000);

        let json = ToolOutput::json(&json!({"text": long})).bounded(300);
        assert!(matches!(&json, ToolOutput::Json(j) if j.as_str().len() <= 300));
        assert_eq!(json.truncation().unwrap().original_bytes, 10_000 + 11);

        let error = ToolOutput::error(ErrorCode::ToolFailed, long).bounded(300);
        assert!(error.as_error().unwrap().message.len() <= 300);
        assert_eq!(error.as_error().unwrap().code, ErrorCode::ToolFailed);
        assert_eq!(error.truncation().unwrap().removed_lines, 0);
    }

    #[test]
    fn truncation_is_on_the_wire_and_comes_back() {
        let ids = json!({"ids": (0..1000).collect::<Vec<_>>()});
        let json = ToolOutput::json(&ids).bounded(200);
        let wire = serde_json::to_value(&json).unwrap();
        assert_eq!(wire["kind"], "json");
        assert_eq!(wire["truncated"]["original_bytes"], ids.to_string().len());
        let back: ToolOutput = serde_json::from_value(wire).unwrap();
        assert_eq!(back, json);

        let text = ToolOutput::text("x\n".repeat(500)).bounded(100);
        let wire = serde_json::to_value(&text).unwrap();
        assert_eq!(
            wire["truncated"],
            json!({"original_bytes": 1000, "removed_bytes": wire["truncated"]["removed_bytes"], "removed_lines": wire["truncated"]["removed_lines"]})
        );
        let back: ToolOutput = serde_json::from_value(wire).unwrap();
        assert_eq!(back.truncation(), text.truncation());
    }
}
