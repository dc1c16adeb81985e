//! The shapes in which a registry's tool list is exported, one per model API.

use crate::spec::ToolSpec;
use serde_json::{json, Map, Value};

/// A model API's way of listing tools. Pass one to
/// [`Registry::export_schema`](crate::Registry::export_schema).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Dialect {
    /// OpenAI Chat Completions `tools`: `[{"type": "function", "function": {...}}]`.
    OpenAiChat {
        /// OpenAI structured outputs ("strict mode").
        strict: bool,
    },
    /// OpenAI Responses `tools`: `[{"type": "function", "name", ...}]`.
    OpenAiResponses {
        /// OpenAI structured outputs ("strict mode").
        strict: bool,
    },
    /// Anthropic Messages `tools`: `[{"name", "description", "input_schema"}]`.
    Anthropic {
        /// Anthropic strict tool use.
        strict: bool,
    },
    /// Gemini `{"functionDeclarations": [...]}`, schemas in Gemini's OpenAPI subset.
    Gemini,
    /// Model Context Protocol `tools/list` entries: `{name, description, inputSchema, annotations?}`.
    Mcp,
}

impl Dialect {
    /// Every dialect (non-strict variants), for tools that try them all.
    pub const ALL: &'static [Dialect] = &[
        Dialect::OpenAiChat { strict: false },
        Dialect::OpenAiResponses { strict: false },
        Dialect::Anthropic { strict: false },
        Dialect::Gemini,
        Dialect::Mcp,
    ];

    /// The dialect's name as the CLI spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::OpenAiChat { .. } => "openai-chat",
            Dialect::OpenAiResponses { .. } => "openai-responses",
            Dialect::Anthropic { .. } => "anthropic",
            Dialect::Gemini => "gemini",
            Dialect::Mcp => "mcp",
        }
    }

    /// The same dialect with strict mode on or off (no effect where there is none).
    #[must_use]
    pub fn with_strict(self, on: bool) -> Dialect {
        match self {
            Dialect::OpenAiChat { .. } => Dialect::OpenAiChat { strict: on },
            Dialect::OpenAiResponses { .. } => Dialect::OpenAiResponses { strict: on },
            Dialect::Anthropic { .. } => Dialect::Anthropic { strict: on },
            other => other,
        }
    }

    /// Exports a list of tools in this dialect.
    pub(crate) fn export<'a>(self, tools: impl Iterator<Item = &'a ToolSpec>) -> Value {
        match self {
            Dialect::Mcp => Value::Array(tools.map(mcp_tool).collect()),
            // The plain shapes; strict-mode lowering and Gemini's schema subset are applied by
            // the dialect modules as they land.
            Dialect::OpenAiChat { strict } => Value::Array(
                tools
                    .map(|t| json!({"type": "function", "function": {"name": t.name(), "description": t.description(), "parameters": t.input_schema(), "strict": strict}}))
                    .collect(),
            ),
            Dialect::OpenAiResponses { strict } => Value::Array(
                tools
                    .map(|t| json!({"type": "function", "name": t.name(), "description": t.description(), "parameters": t.input_schema(), "strict": strict}))
                    .collect(),
            ),
            Dialect::Anthropic { .. } => Value::Array(
                tools.map(|t| json!({"name": t.name(), "description": t.description(), "input_schema": t.input_schema()})).collect(),
            ),
            Dialect::Gemini => json!({"functionDeclarations": tools.map(|t| json!({"name": t.name(), "description": t.description(), "parameters": t.input_schema()})).collect::<Vec<_>>()}),
        }
    }
}

impl std::str::FromStr for Dialect {
    type Err = String;
    fn from_str(text: &str) -> Result<Dialect, String> {
        Dialect::ALL
            .iter()
            .copied()
            .find(|d| d.as_str() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.as_str()).collect();
                format!(
                    "unknown dialect `{text}`; expected one of: {}",
                    names.join(", ")
                )
            })
    }
}

fn mcp_tool(spec: &ToolSpec) -> Value {
    let mut tool = Map::new();
    tool.insert("name".into(), spec.name().into());
    tool.insert("description".into(), spec.description().into());
    tool.insert("inputSchema".into(), spec.input_schema().clone());
    let flags = spec.flags();
    let mut annotations = Map::new();
    // MCP's defaults are readOnly=false, destructive=true, idempotent=false, openWorld=true:
    // say only what the flags establish.
    if flags.read_only {
        annotations.insert("readOnlyHint".into(), json!(true));
    }
    if flags.destructive {
        annotations.insert("destructiveHint".into(), json!(true));
    }
    if flags.idempotent {
        annotations.insert("idempotentHint".into(), json!(true));
    }
    if flags.open_world {
        annotations.insert("openWorldHint".into(), json!(true));
    }
    if !annotations.is_empty() {
        tool.insert("annotations".into(), Value::Object(annotations));
    }
    Value::Object(tool)
}
