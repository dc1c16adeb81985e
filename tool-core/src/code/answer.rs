//! The code tool's answer: what the code printed, then the value of its last expression as a
//! REPL shows it; or, when it failed, what it printed and the Python traceback.

use crate::error::{ErrorCode, ToolError};
use crate::output::ToolOutput;
use monty_types::{MontyException, MontyObject};

/// The code ran to its end.
pub(crate) fn finished(printed: &str, value: &MontyObject) -> ToolOutput {
    let mut text = printed.to_owned();
    if !matches!(value, MontyObject::None) {
        text.push_str(&value.py_repr());
    }
    if text.is_empty() {
        text.push_str("(the code printed nothing and its last line has no value)");
    }
    ToolOutput::text(text)
}

/// The code raised, didn't parse, or ran out of a limit: a traceback naming the line.
pub(crate) fn failed(printed: &str, error: &MontyException) -> ToolOutput {
    let mut message = String::new();
    if !printed.is_empty() {
        message.push_str("Printed before the error:\n");
        message.push_str(printed);
        if !printed.ends_with('\n') {
            message.push('\n');
        }
    }
    message.push_str(&error.to_string());
    ToolOutput::from(
        ToolError::with_code(ErrorCode::ToolFailed, message)
            .with_retry_hint("fix the code where the traceback points and run it again"),
    )
}
