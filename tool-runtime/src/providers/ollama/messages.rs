//! The messages the agent writes itself: `{"role", "content"}` with `content` a string
//! (`api/types.go` `Message`).

use serde_json::{json, Value};

/// A user message holding `text`.
pub(crate) fn user(text: &str) -> Value {
    json!({"role": "user", "content": text})
}

/// An assistant message holding `text` (an earlier turn the agent did not run itself).
pub(crate) fn assistant(text: &str) -> Value {
    json!({"role": "assistant", "content": text})
}
