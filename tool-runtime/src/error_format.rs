//! How a tool's errors read to the model: the [`ErrorFormat`] a tool (or one error) chooses,
//! and the one rendering every provider's results use.

use crate::error::{ErrorCode, ToolError};
use crate::pipeline::Violation;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How an error reads to the model: the text a failed call's result carries.
///
/// A tool chooses one with `#[tool(error_format = "json")]` (or
/// [`DynamicTool::with_error_format`](crate::DynamicTool::with_error_format),
/// [`Tool::error_format`](crate::Tool::error_format)); one error overrides it with
/// [`ToolError::with_format`]. Every provider's results use it; the error flags (Anthropic's
/// `is_error`, MCP's `isError`) are set whatever the format.
///
/// | format | the model reads |
/// |---|---|
/// | `text` (default) | the message, then the retry hint on a new line; `Error: ` first for OpenAI, which has no error flag |
/// | `json` | `{"error": {"code", "message", "tool"?, "violations"?, "suggestions"?, "retry_hint"?}}`, compact |
/// | `traceback` | a Python-style traceback: a message that already is one verbatim, else one built from the code, the message and each schema violation; the hint as `Hint: ...` |
///
/// ```
/// use tool_runtime::{ErrorFormat, ToolError};
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

/// The first line of a Python traceback: a message that starts with it is one already.
const TRACEBACK_HEADER: &str = "Traceback (most recent call last):";

/// The text the model reads for `error`, in its format ([`ErrorFormat::Text`] when it has
/// none). Never blank: a blank message reads [`NO_MESSAGE`].
pub(crate) fn render(error: &ToolError) -> String {
    match error.format.unwrap_or_default() {
        ErrorFormat::Text => text(error),
        ErrorFormat::Json => json(error),
        ErrorFormat::Traceback => traceback(error),
    }
}

/// An error's text when the tool gave no message.
pub(crate) const NO_MESSAGE: &str = "The tool failed without saying why.";

/// The message or, when blank, [`NO_MESSAGE`].
fn message(error: &ToolError) -> &str {
    match error.message.trim() {
        "" => NO_MESSAGE,
        _ => &error.message,
    }
}

/// The retry hint, unless there is none or it is blank.
fn hint(error: &ToolError) -> Option<&str> {
    error.retry_hint.as_deref().filter(|h| !h.trim().is_empty())
}

/// The message and, on a new line, the retry hint.
fn text(error: &ToolError) -> String {
    let message = message(error);
    match hint(error) {
        Some(hint) => format!("{message}\n{hint}"),
        None => message.to_owned(),
    }
}

/// `{"error": {...}}`: the error as serialized, without its format, in one compact line.
fn json(error: &ToolError) -> String {
    /// The fields in the order a reader wants them, borrowed from the error.
    #[derive(Serialize)]
    struct Body<'a> {
        code: ErrorCode,
        message: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        tool: Option<&'a str>,
        #[serde(skip_serializing_if = "<[_]>::is_empty")]
        violations: &'a [Violation],
        #[serde(skip_serializing_if = "<[_]>::is_empty")]
        suggestions: &'a [String],
        #[serde(skip_serializing_if = "Option::is_none")]
        retry_hint: Option<&'a str>,
    }
    #[derive(Serialize)]
    struct Wrapper<'a> {
        error: Body<'a>,
    }
    let wrapper = Wrapper {
        error: Body {
            code: error.code,
            message: message(error),
            tool: error.tool.as_deref(),
            violations: &error.violations,
            suggestions: &error.suggestions,
            retry_hint: hint(error),
        },
    };
    // Strings, string lists and JSON values only: serde_json can't fail on them.
    serde_json::to_string(&wrapper).unwrap_or_else(|_| text(error))
}

/// A Python-style traceback: the message itself when it is one, else one built from the
/// error; the retry hint last, as `Hint: ...`.
fn traceback(error: &ToolError) -> String {
    let message = message(error);
    // Trailing whitespace carries nothing, and would put a blank line before the hint.
    let given = message.trim_end();
    let mut out = if given.trim_start().starts_with(TRACEBACK_HEADER) {
        given.trim_start().to_owned()
    } else {
        let mut out = String::from(TRACEBACK_HEADER);
        if let Some(tool) = &error.tool {
            out.push_str(&format!("\n  in tool `{tool}`"));
        }
        out.push_str(&format!("\n{}: {given}", exception_name(error.code)));
        for violation in &error.violations {
            let at = match violation.pointer.as_str() {
                "" => "(root)",
                pointer => pointer,
            };
            out.push_str(&format!("\n  at {at}: {}", violation.message));
        }
        out
    };
    if let Some(hint) = hint(error) {
        out.push_str(&format!("\nHint: {hint}"));
    }
    out
}

/// The code as an exception name: its wire name in PascalCase (`invalid_arguments` →
/// `InvalidArguments`).
fn exception_name(code: ErrorCode) -> String {
    let wire = serde_json::to_value(code).unwrap_or_default();
    let mut name = String::new();
    for word in wire.as_str().unwrap_or("error").split('_') {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            name.extend(first.to_uppercase());
            name.push_str(chars.as_str());
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn violation(pointer: &str, message: &str) -> Violation {
        Violation {
            pointer: pointer.into(),
            keyword: "required".into(),
            message: message.into(),
            allowed: Vec::new(),
        }
    }

    fn parsed(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

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

    #[test]
    fn text_is_the_message_then_the_hint() {
        let error = ToolError::new("disk full").with_retry_hint("Free some space.");
        assert_eq!(render(&error), "disk full\nFree some space.");
        let plain = ToolError::new("line 1\nline 2").with_format(ErrorFormat::Text);
        assert_eq!(render(&plain), "line 1\nline 2");
        assert_eq!(render(&ToolError::new(" ")), NO_MESSAGE);
    }

    #[test]
    fn json_is_the_error_without_its_format() {
        let mut error =
            ToolError::with_code(ErrorCode::InvalidArguments, "bad \"limit\"\nsee below")
                .for_tool("search")
                .with_retry_hint("Fix it.")
                .with_format(ErrorFormat::Json);
        error.violations = vec![violation("/limit", "500 is greater than 100")];
        let text = render(&error);
        assert!(!text.contains('\n'), "compact: {text}");
        assert_eq!(
            parsed(&text),
            json!({"error": {
                "code": "invalid_arguments",
                "message": "bad \"limit\"\nsee below",
                "tool": "search",
                "violations": [{"pointer": "/limit", "keyword": "required", "message": "500 is greater than 100"}],
                "retry_hint": "Fix it.",
            }})
        );
        // The keys in the order a reader wants them, absent ones left out.
        let bare = render(&ToolError::new("").with_format(ErrorFormat::Json));
        assert_eq!(
            bare,
            format!(r#"{{"error":{{"code":"tool_failed","message":"{NO_MESSAGE}"}}}}"#)
        );
        let mut unknown = ToolError::with_code(ErrorCode::UnknownTool, "Unknown tool \"serch\".")
            .with_format(ErrorFormat::Json);
        unknown.suggestions = vec!["search".into()];
        assert_eq!(
            parsed(&render(&unknown))["error"]["suggestions"],
            json!(["search"])
        );
    }

    #[test]
    fn a_traceback_message_goes_verbatim_with_the_hint_after() {
        let given = "Traceback (most recent call last):\n  File \"<cell>\", line 1, in <module>\n    print(x)\nNameError: name 'x' is not defined\n";
        let error = ToolError::new(given).with_format(ErrorFormat::Traceback);
        assert_eq!(render(&error), given.trim_end());
        let hinted = error.with_retry_hint("Define `x` first.");
        assert_eq!(
            render(&hinted),
            format!("{}\nHint: Define `x` first.", given.trim_end())
        );
    }

    #[test]
    fn a_traceback_is_built_for_any_other_message() {
        let mut error =
            ToolError::with_code(ErrorCode::InvalidArguments, "Invalid arguments for run.")
                .for_tool("run")
                .with_retry_hint("Call run again with the arguments fixed.")
                .with_format(ErrorFormat::Traceback);
        error.violations = vec![
            violation("", "missing required \"code\""),
            violation("/timeout", "-1 is less than the minimum 0"),
        ];
        assert_eq!(
            render(&error),
            "Traceback (most recent call last):\n  in tool `run`\nInvalidArguments: Invalid arguments for run.\n  at (root): missing required \"code\"\n  at /timeout: -1 is less than the minimum 0\nHint: Call run again with the arguments fixed."
        );

        let multi = ToolError::new("first line\nsecond line").with_format(ErrorFormat::Traceback);
        assert_eq!(
            render(&multi),
            "Traceback (most recent call last):\nToolFailed: first line\nsecond line"
        );

        let empty = ToolError::with_code(ErrorCode::Timeout, "\n")
            .for_tool("slow")
            .with_retry_hint(" ")
            .with_format(ErrorFormat::Traceback);
        assert_eq!(
            render(&empty),
            format!("Traceback (most recent call last):\n  in tool `slow`\nTimeout: {NO_MESSAGE}")
        );
    }
}
