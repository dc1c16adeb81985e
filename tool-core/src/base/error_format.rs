//! How a tool's errors read to the model: the [`ErrorFormat`] a tool (or one error) chooses.
//! The rendering every provider's results use is `error_text`.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How an error reads to the model: the text a failed call's result carries.
///
/// A tool chooses one with `#[tool(error_format = "json")]` (or
/// [`DynamicTool::with_error_format`](crate::DynamicTool::with_error_format),
/// [`Tool::error_format`](crate::Tool::error_format)); one error overrides it with
/// [`ToolError::with_format`](crate::ToolError::with_format). Every provider's results use
/// it; the error flags (Anthropic's `is_error`, MCP's `isError`) are set whatever the format.
///
/// | format | the model reads |
/// |---|---|
/// | `text` (default) | the message, then the retry hint on a new line; `Error: ` first for OpenAI, which has no error flag |
/// | `json` | `{"error": {"code", "message", "tool"?, "violations"?, "suggestions"?, "retry_hint"?}}`, compact |
/// | `traceback` | a Python-style traceback: a message that already is one verbatim, else one built from the code, the message and each schema violation; the hint as `Hint: ...` |
///
/// ```
/// use tool_runtime::ToolError;
/// use tool_runtime::output::ErrorFormat;
///
/// let format: ErrorFormat = "traceback".parse().unwrap();
/// assert_eq!(format, ErrorFormat::Traceback);
/// assert_eq!(format.as_str(), "traceback");
/// assert_eq!(ErrorFormat::default(), ErrorFormat::Text);
/// assert!("yaml".parse::<ErrorFormat>().is_err());
///
/// let error = ToolError::new("Traceback (most recent call last):\nZeroDivisionError: division by zero")
///     .with_format(ErrorFormat::Traceback);
/// assert_eq!(error.format, Some(ErrorFormat::Traceback));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorFormat {
    /// The message, then the retry hint on a new line.
    #[default]
    Text,
    /// The error as one compact JSON object, `{"error": {...}}`.
    Json,
    /// A Python-style traceback, for tools whose model reads code's errors (`python_exec`).
    Traceback,
}

impl ErrorFormat {
    /// Every format.
    pub const ALL: [ErrorFormat; 3] =
        [ErrorFormat::Text, ErrorFormat::Json, ErrorFormat::Traceback];

    /// The format's name as `#[tool(error_format = "...")]` and serde spell it (`text`, `json`,
    /// `traceback`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorFormat::Text => "text",
            ErrorFormat::Json => "json",
            ErrorFormat::Traceback => "traceback",
        }
    }
}

impl fmt::Display for ErrorFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name [`ErrorFormat::from_str`] doesn't know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown error format `{name}`; expected one of: text, json, traceback")]
pub struct UnknownErrorFormat {
    /// The name given.
    pub name: String,
}

impl FromStr for ErrorFormat {
    type Err = UnknownErrorFormat;

    fn from_str(text: &str) -> Result<ErrorFormat, UnknownErrorFormat> {
        ErrorFormat::ALL
            .into_iter()
            .find(|f| f.as_str() == text)
            .ok_or_else(|| UnknownErrorFormat {
                name: text.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_from_str_and_serde() {
        for format in ErrorFormat::ALL {
            assert_eq!(format.as_str().parse::<ErrorFormat>(), Ok(format));
            let wire = serde_json::to_string(&format).unwrap();
            assert_eq!(wire, format!("\"{}\"", format.as_str()));
            assert_eq!(format.to_string(), format.as_str());
        }
        let error = "Json".parse::<ErrorFormat>().unwrap_err().to_string();
        assert_eq!(
            error,
            "unknown error format `Json`; expected one of: text, json, traceback"
        );
    }
}
