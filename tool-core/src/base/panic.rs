//! Turning a tool's panic into an error output, so one bad tool can't take the agent down.

use crate::error::{ErrorCode, ToolError};
use crate::output::ToolOutput;
use std::any::Any;

/// The panic's message, when it has one.
pub(crate) fn message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

/// The error output for a tool that panicked.
pub(crate) fn output(tool: &str, payload: &(dyn Any + Send)) -> ToolOutput {
    let message = format!(
        "The tool {tool} failed unexpectedly (it panicked: {}).",
        message(payload)
    );
    ToolOutput::from(
        ToolError::with_code(ErrorCode::Panicked, message)
            .for_tool(tool)
            .with_retry_hint("This is a bug in the tool, not in the call; retrying the same call will likely fail the same way."),
    )
}

/// Runs a sync tool on the current thread, catching a panic.
#[inline]
pub(crate) fn run_caught(tool: &str, run: impl FnOnce() -> ToolOutput) -> ToolOutput {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
        .unwrap_or_else(|payload| output(tool, &*payload))
}
