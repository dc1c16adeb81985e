//! The text the model reads for a failed call: a [`ToolError`] rendered in its
//! [`ErrorFormat`], the one rendering every provider's results use.

use crate::error::{ErrorCode, ToolError};
use crate::error_format::ErrorFormat;
use crate::violation::Violation;
use serde::Serialize;

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
