//! [`Violation`]: one way a call's arguments break the tool's schema, as the validation stage
//! finds it and as an error carries it; and how a violation's message shows the model's values.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One way the arguments break the schema.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// Where, as a JSON pointer into the arguments (`""` for the whole object).
    pub pointer: String,
    /// The JSON Schema keyword that failed (`required`, `maximum`, `enum`, ...).
    pub keyword: String,
    /// What is wrong, in a sentence for the model.
    pub message: String,
    /// The values allowed here, when the schema lists them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed: Vec<Value>,
}

/// A value as JSON, cut short: a model's 10 MB string must not be echoed back to it.
pub(crate) fn short(value: &Value) -> String {
    truncate(&value.to_string(), 60)
}

/// `text` cut to `max` characters, an ellipsis marking the cut.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}
