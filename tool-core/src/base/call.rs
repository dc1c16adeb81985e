//! A tool call as every provider's output is normalized to.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One call a model asked for, whatever API or text format it came from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The call's id, which its result must quote back (generated when the provider gives none).
    pub id: String,
    /// The tool's name, as the model wrote it.
    pub name: String,
    /// The arguments as raw JSON text, exactly as the model wrote them (possibly invalid).
    pub arguments: String,
    /// Provider fields that must be sent back unchanged with the result (Gemini's
    /// `thoughtSignature`, for one).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub passthrough: Map<String, Value>,
}

impl ToolCall {
    /// A call with an id, a name and JSON arguments.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: arguments.into(),
            passthrough: Map::new(),
        }
    }
}
