//! Why a provider's output could not be routed: where in the JSON, and what was expected there.

use crate::Provider;
use serde_json::Value;

/// Model output that is not the shape the provider documents, or a provider's error reply.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RouteError {
    /// The text is not JSON at all.
    #[error("the model output is not JSON: {0}")]
    NotJson(#[source] JsonError),
    /// A value in the output has the wrong JSON type, or a required one is missing.
    #[error("not {} output: expected {expected} at {}, found {found}", .provider.title(), display_pointer(.pointer))]
    Shape {
        /// The provider whose shape was expected.
        provider: Provider,
        /// Where, as a JSON pointer (`""` is the whole output).
        pointer: String,
        /// What should have been there, for example `"an array"`.
        expected: &'static str,
        /// What was there: a JSON type name, or `"nothing"`.
        found: &'static str,
    },
    /// The output is the provider's error reply (`{"error": {...}}`), not a response.
    #[error("the provider returned an error instead of a response: {message}")]
    Provider {
        /// The error's message (or the whole error object, as JSON text).
        message: String,
    },
    /// The output nests deeper than [`MAX_REPLY_DEPTH`](super::MAX_REPLY_DEPTH) levels.
    #[error("the model output nests deeper than {max} levels")]
    TooDeep {
        /// The deepest nesting read.
        max: usize,
    },
    /// Auto-detection matched no provider's shape.
    #[error("the output matches no known provider's shape (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini, TensorZero); name the provider instead of detecting it")]
    Undetected,
    /// The provider has no model reply to route: MCP's tool calls arrive as `tools/call`
    /// requests, which [`mcp`](crate::mcp) serves.
    #[error("{provider} has no model reply to route")]
    NoReply {
        /// The provider named.
        provider: Provider,
    },
}

/// The JSON parser's own error, kept whole (as the [`RouteError::NotJson`] source, with its
/// line and column); compared by its message, so routes compare as values.
#[derive(Clone, Debug)]
pub struct JsonError(std::sync::Arc<serde_json::Error>);

impl JsonError {
    /// The parser's error.
    pub fn get(&self) -> &serde_json::Error {
        &self.0
    }
}

impl From<serde_json::Error> for JsonError {
    fn from(error: serde_json::Error) -> Self {
        JsonError(std::sync::Arc::new(error))
    }
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for JsonError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.0)
    }
}

impl PartialEq for JsonError {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_string() == other.0.to_string()
    }
}

impl Eq for JsonError {}

impl RouteError {
    /// A [`RouteError::Shape`] for `value` (or its absence) at `pointer`.
    pub(crate) fn shape(
        provider: Provider,
        pointer: &str,
        expected: &'static str,
        value: Option<&Value>,
    ) -> RouteError {
        RouteError::Shape {
            provider,
            pointer: pointer.to_owned(),
            expected,
            found: value.map_or("nothing", json_type),
        }
    }
}

/// The JSON type of a value, as an error message names it.
pub(crate) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn display_pointer(pointer: &str) -> String {
    if pointer.is_empty() {
        "the top level".to_owned()
    } else {
        format!("`{pointer}`")
    }
}
