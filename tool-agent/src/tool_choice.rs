//! Which tools the model may or must call: sent with the first request of a run, in each
//! provider's own shape (the wires write it).

use std::fmt;
use std::str::FromStr;

/// Which tools the model may or must call on the first request of each run
/// ([`Agent::tool_choice`](crate::Agent::tool_choice)), sent in the provider's own shape:
///
/// | | OpenAI Chat | OpenAI Responses | Anthropic | Gemini (`toolConfig.functionCallingConfig`) | TensorZero |
/// |---|---|---|---|---|---|
/// | `Auto` | `"auto"` | `"auto"` | `{"type": "auto"}` | `{"mode": "AUTO"}` | `"auto"` |
/// | `Required` | `"required"` | `"required"` | `{"type": "any"}` | `{"mode": "ANY"}` | `"required"` |
/// | `None` | `"none"` | `"none"` | `{"type": "none"}` | `{"mode": "NONE"}` | `"none"` |
/// | `Tool(name)` | `{"type": "function", "function": {"name"}}` | `{"type": "function", "name"}` | `{"type": "tool", "name"}` | `{"mode": "ANY", "allowedFunctionNames": [name]}` | `{"specific": name}` |
///
/// Ollama's `/api/chat` has no such field: its transport sends none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolChoice {
    /// The model decides whether to call (every API's default when tools are sent).
    Auto,
    /// The model must call one of the tools or more.
    Required,
    /// The model must not call a tool.
    None,
    /// The model must call this tool.
    Tool(String),
}

impl fmt::Display for ToolChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolChoice::Auto => f.write_str("auto"),
            ToolChoice::Required => f.write_str("required"),
            ToolChoice::None => f.write_str("none"),
            ToolChoice::Tool(name) => f.write_str(name),
        }
    }
}

/// `auto`, `required`, `none`, or a tool's name (the CLI's `--tool-choice`).
impl FromStr for ToolChoice {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<ToolChoice, Self::Err> {
        Ok(match text {
            "auto" => ToolChoice::Auto,
            "required" => ToolChoice::Required,
            "none" => ToolChoice::None,
            name => ToolChoice::Tool(name.to_owned()),
        })
    }
}
