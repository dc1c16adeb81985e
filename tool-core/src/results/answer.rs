//! What every provider's results are written from: a call with its output, and the texts an
//! output reads as.

use crate::{ToolCall, ToolError, ToolOutput};
use serde_json::Value;
use std::borrow::Cow;

/// One call and the output that answers it.
#[doc(hidden)]
pub struct Answer<'a> {
    pub call: &'a ToolCall,
    pub output: Cow<'a, ToolOutput>,
}

/// The text the model reads for an output: the text, the JSON text, or the error in its
/// [`ErrorFormat`](crate::ErrorFormat).
#[doc(hidden)]
pub fn model_text(output: &ToolOutput) -> String {
    match output {
        ToolOutput::Error(error) => error_text(error),
        other => other.to_model_text(),
    }
}

/// An error as its [`ErrorFormat`](crate::ErrorFormat) writes it (by default its message and,
/// on a new line, its retry hint). Never blank: Anthropic refuses a `tool_result` with
/// `is_error: true` and no content ("content cannot be empty if `is_error` is true"), and a
/// blank error tells no model anything.
pub(crate) fn error_text(error: &ToolError) -> String {
    crate::error_text::render(error)
}

/// The text for APIs without an error flag (OpenAI): errors say they are errors. Text ones
/// start `Error: `; a JSON error or a traceback says so by its shape, and goes as it is.
pub(crate) fn flagless_text(output: &ToolOutput) -> String {
    match output {
        ToolOutput::Error(error)
            if error.format.unwrap_or_default() == crate::ErrorFormat::Text =>
        {
            format!("Error: {}", error_text(error))
        }
        other => model_text(other),
    }
}

/// A call's arguments as a JSON object, for APIs that take an object (`{}` when they are not
/// one: only calls that came from a string-arguments API can be).
pub(crate) fn arguments_object(call: &ToolCall) -> Value {
    match serde_json::from_str::<Value>(&call.arguments) {
        Ok(object @ Value::Object(_)) => object,
        _ => Value::Object(serde_json::Map::new()),
    }
}
