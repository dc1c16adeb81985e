//! What a registry knows about each tool, as callers and exporters read it: its
//! [`ToolSpec`], its [`ToolFlags`], where it was written ([`SourceLocation`]), and the
//! [`ToolDef`] a `#[tool]` fn's `TOOL` constant is.

pub use crate::def::{SourceLocation, TaskSupport, ToolDef, ToolFlags};
use crate::error_format::ErrorFormat;
use serde_json::Value;

/// A tool as the registry holds it: name, description, input schema, flags and origin.
#[derive(Clone, Debug)]
pub struct ToolSpec {
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: String,
    pub(crate) input_schema: Value,
    pub(crate) flags: ToolFlags,
    pub(crate) location: Option<SourceLocation>,
    pub(crate) error_format: ErrorFormat,
}

impl ToolSpec {
    /// The name the model calls the tool by.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A human-readable name for UIs (`#[tool(title = "...")]`), exported as MCP's `title`.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// What the tool does, for the model (Markdown).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The JSON Schema of the arguments object.
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// The `#[tool(...)]` flags.
    pub fn flags(&self) -> ToolFlags {
        self.flags
    }

    /// How the tool's errors read to the model (`#[tool(error_format = "...")]`;
    /// [`ErrorFormat::Text`] unless the tool chose another). An error's own
    /// [`format`](crate::ToolError::format) wins over it.
    pub fn error_format(&self) -> ErrorFormat {
        self.error_format
    }

    /// Where the tool was defined, for `#[tool]` fns.
    pub fn location(&self) -> Option<SourceLocation> {
        self.location
    }
}
