//! Code mode, in process: the cases of `code/cases.rs` with the interpreter in the test's own
//! process.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use tool_runtime::code::CodeSettings;

/// Where the code runs: here.
async fn engine() -> CodeSettings {
    CodeSettings::default()
}

#[path = "code/cases.rs"]
mod cases;
