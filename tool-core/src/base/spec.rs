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
    /// The declared schema of the structured result, an object at the root.
    pub(crate) output_schema: Option<Value>,
    /// Whether the structured result is the output wrapped as `{"result": output}`: the
    /// output's own schema has no object root, which MCP requires of `outputSchema`.
    pub(crate) output_wrapped: bool,
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

    /// The JSON Schema every successful call's structured result conforms to, when the tool
    /// declares one (`#[tool(output_schema)]`, [`Tool::output_schema`],
    /// [`DynamicTool::with_output_schema`], an imported tool's `outputSchema`): exported as
    /// MCP's `outputSchema` and Gemini's `response`, and checked against each output before
    /// it leaves the registry.
    ///
    /// Its root is always an object, as MCP requires: a return type whose schema is not an
    /// object (`Vec<T>`, `String`, an enum) is described as `{"result": ...}`, the form its
    /// `structuredContent` takes.
    ///
    /// [`DynamicTool::with_output_schema`]: crate::DynamicTool::with_output_schema
    /// [`Tool::output_schema`]: crate::Tool::output_schema
    pub fn output_schema(&self) -> Option<&Value> {
        self.output_schema.as_ref()
    }

    /// Whether the structured result is the output wrapped as `{"result": output}`, for the
    /// MCP server.
    #[doc(hidden)]
    pub fn output_wrapped(&self) -> bool {
        self.output_wrapped
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
