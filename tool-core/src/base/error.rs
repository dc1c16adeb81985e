//! The error a call can end with: what the model (and the caller) is told went wrong.

use crate::error_format::ErrorFormat;
use crate::violation::Violation;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a call failed, in a form the model can act on.
///
/// A tool returns it (`Result<T, ToolError>`) to fail with a message of its own; the runtime
/// builds one for every call it rejects or can't complete.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolError {
    /// What kind of failure this is, for code that reacts to it.
    pub code: ErrorCode,
    /// The sentence the model reads.
    pub message: String,
    /// The tool the call named, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Every way the arguments broke the tool's schema, with JSON-pointer paths.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<Violation>,
    /// Tool names close to an unknown one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<String>,
    /// What the model should do next, for an agent loop to send back with the result.
    /// (A boxed `str`: it keeps `ToolError` small, and `Result<T, ToolError>` cheap to return.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_hint: Option<Box<str>>,
    /// How the error reads to the model. `None` takes the format of the tool that failed
    /// (`#[tool(error_format = "...")]`), or [`ErrorFormat::Text`] when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<ErrorFormat>,
}

/// The kinds of failure, serialized in `snake_case`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// The call named a tool the registry doesn't have.
    UnknownTool,
    /// The arguments aren't JSON.
    MalformedArguments,
    /// The arguments are JSON but don't fit the tool's parameters.
    InvalidArguments,
    /// The tool ran and reported a failure.
    ToolFailed,
    /// The tool's return value couldn't be turned into an output.
    OutputError,
    /// A value the tool needs wasn't available to inject.
    MissingState,
    /// The runtime itself couldn't run the call (for example, no async runtime).
    RuntimeError,
    /// The argument text broke a size or nesting limit.
    LimitExceeded,
    /// A resolver function failed while filling arguments.
    ResolverFailed,
    /// The call ran past its timeout and was cancelled.
    Timeout,
    /// The tool panicked.
    Panicked,
    /// The batch was cancelled before the call finished.
    Cancelled,
    /// The approver denied the call.
    Denied,
    /// The user must first open a URL of the tool's (a sign-in, a payment): a
    /// [`UrlRequired`](crate::client::UrlRequired) error.
    UrlRequired,
}

impl ToolError {
    /// An error the tool reports about its own work ([`ErrorCode::ToolFailed`]).
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError::with_code(ErrorCode::ToolFailed, message)
    }

    /// An error of a given kind.
    pub fn with_code(code: ErrorCode, message: impl Into<String>) -> ToolError {
        ToolError {
            code,
            message: message.into(),
            tool: None,
            violations: Vec::new(),
            suggestions: Vec::new(),
            retry_hint: None,
            format: None,
        }
    }

    /// Adds what the model should do next.
    #[must_use]
    pub fn with_retry_hint(mut self, hint: impl Into<String>) -> ToolError {
        self.retry_hint = Some(hint.into().into_boxed_str());
        self
    }

    /// Chooses how this error reads to the model, over the tool's own format.
    ///
    /// ```
    /// use tool_runtime::ToolError;
    /// use tool_runtime::output::ErrorFormat;
    ///
    /// let error = ToolError::new("quota exceeded").with_format(ErrorFormat::Json);
    /// assert_eq!(error.format, Some(ErrorFormat::Json));
    /// ```
    #[must_use]
    pub fn with_format(mut self, format: ErrorFormat) -> ToolError {
        self.format = Some(format);
        self
    }

    /// Names the tool the error is about.
    #[must_use]
    pub fn for_tool(mut self, tool: impl Into<String>) -> ToolError {
        self.tool = Some(tool.into());
        self
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A `ToolError` is an error like any other to the program around the tool (`Box<dyn Error>`,
/// `anyhow`, `?` in the caller). It has no `source`: it is the message for the model, and a
/// tool that wraps another error says what it needs in that message. A tool may still return
/// `Result<T, E>` for any `E: Display`; a `ToolError` returned that way keeps its code.
impl std::error::Error for ToolError {}

#[cfg(test)]
mod tests {
    /// Clippy's `result_large_err` flags errors of 128 bytes or more, in users' tools too.
    #[test]
    fn tool_error_is_a_std_error() {
        let boxed: Box<dyn std::error::Error + Send + Sync> =
            Box::new(super::ToolError::new("the file is gone"));
        assert_eq!(boxed.to_string(), "the file is gone");
        assert!(boxed.source().is_none());
    }

    #[test]
    fn tool_error_stays_small() {
        assert!(std::mem::size_of::<super::ToolError>() < 128);
    }
}
