//! Why a provider's output could not be routed: where in the JSON, and what was expected there.

use crate::Provider;
use serde_json::Value;

/// Model output that is not the shape the provider documents, or a provider's error reply.
///
/// Each message is a whole clause with its own subject, so it reads the same alone, after a
/// wrapper's `: ` (the CLI's "the model output could not be routed: ..."), or as the message
/// of a wrapper that is transparent (the agent's `ModelError::Route`). A message never
/// repeats its source's: the JSON parser's error, with its line and column, is
/// [`NotJson`](RouteError::NotJson)'s source, printed after it by whoever prints the chain.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RouteError {
    /// The text is not JSON at all.
    #[error("the model output is not JSON")]
    NotJson(#[source] JsonError),
    /// A value in the output has the wrong JSON type, or a required one is missing.
    #[error("the model output is not {} output: expected {expected} at {}, found {found}", .provider.title(), display_pointer(.pointer))]
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
    #[error("the output matches no known provider's shape (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini, TensorZero, Ollama); name the provider instead of detecting it")]
    Undetected,
    /// The provider has no model reply to route: MCP's tool calls arrive as `tools/call`
    /// requests, which [`mcp`](crate::mcp) serves.
    #[error("{} has no model reply to route", .provider.title())]
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
    // A wrapper that shows the parser's error as its own message: its source is the parser's
    // source, so a printed chain says each thing once.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&*self.0)
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
    #[doc(hidden)]
    pub fn shape(
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
        // "expected at least one choice, found an array" misread an empty list.
        Value::Array(items) if items.is_empty() => "an empty array",
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An error and its sources, as the CLI prints them: `a: b: c`.
    pub(crate) fn chain(error: &dyn std::error::Error) -> String {
        let mut text = error.to_string();
        let mut source = error.source();
        while let Some(cause) = source {
            text.push_str(": ");
            text.push_str(&cause.to_string());
            source = cause.source();
        }
        text
    }

    /// One of each variant, the shapes from real routing of wrong replies.
    pub(crate) fn every_route_error() -> Vec<RouteError> {
        let not_json = serde_json::from_str::<Value>("{\"output\": ").unwrap_err();
        vec![
            RouteError::NotJson(not_json.into()),
            crate::router::route(Provider::OpenAiResponses, &json!({"output": 5})).unwrap_err(),
            crate::router::route(Provider::TensorZero, &json!({"content": {}})).unwrap_err(),
            crate::router::route(Provider::OpenAiChat, &json!({"choices": []})).unwrap_err(),
            crate::router::route(Provider::Anthropic, &json!([1])).unwrap_err(),
            crate::router::route(Provider::Gemini, &json!({"candidates": "x"})).unwrap_err(),
            crate::router::route(
                Provider::OpenAiChat,
                &json!({"error": {"message": "Rate limit reached"}}),
            )
            .unwrap_err(),
            RouteError::TooDeep { max: 128 },
            crate::router::route_auto(&json!({"hello": 1})).unwrap_err(),
            crate::router::route(Provider::Mcp, &json!({})).unwrap_err(),
        ]
    }

    /// Issue 32 item 16: every variant's message, alone and behind the wrappers that carry
    /// it, reads as one sentence: no "not a not", no message said twice in a chain.
    #[test]
    fn every_route_error_reads_well_alone_and_wrapped() {
        let expected = [
            "the model output is not JSON: EOF while parsing a value at line 1 column 11",
            "the model output is not OpenAI Responses output: expected an array at `/output`, found a number",
            "the model output is not TensorZero output: expected an array at `/content`, found an object",
            "the model output is not OpenAI Chat Completions output: expected at least one choice at `/choices`, found an empty array",
            "the model output is not Anthropic Messages output: expected an object at the top level, found an array",
            "the model output is not Gemini output: expected an array at `/candidates`, found a string",
            "the provider returned an error instead of a response: Rate limit reached",
            "the model output nests deeper than 128 levels",
            "the output matches no known provider's shape (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini, TensorZero, Ollama); name the provider instead of detecting it",
            "MCP has no model reply to route",
        ];
        let errors = every_route_error();
        assert_eq!(errors.len(), expected.len());
        for (error, expected) in errors.iter().zip(expected) {
            let printed = chain(error);
            assert_eq!(printed, expected);
            let stream = crate::router::stream::accumulate::StreamError::from(error.clone());
            assert_eq!(chain(&stream), expected);
            check_sentence(&printed);
        }
    }

    /// What no message may hold: a doubled negation or article, or the same clause twice.
    pub(crate) fn check_sentence(printed: &str) {
        for bad in [
            "not a not",
            "is not a the",
            "is not a not",
            "not not",
            "a a ",
            "the the ",
        ] {
            assert!(!printed.contains(bad), "{printed:?} holds {bad:?}");
        }
        let clauses: Vec<&str> = printed.split(": ").collect();
        for (i, clause) in clauses.iter().enumerate() {
            assert!(
                !clauses[i + 1..].contains(clause),
                "{printed:?} says {clause:?} twice"
            );
        }
    }
}
