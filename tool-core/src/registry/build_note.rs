//! What a build changed or left aside without failing.

use serde_json::Value;
use std::fmt;

/// Something the build did not use as written, without refusing the registry: schemas from
/// outside the program (an MCP server's, an OpenAPI document's) are not the user's to fix, so
/// what can be worked around is, and said here once. Read them with
/// [`Registry::notes`](crate::Registry::notes); the CLI prints them on stderr.
///
/// ```
/// use serde_json::json;
/// use tool_runtime::registry::BuildNote;
/// use tool_runtime::{DynamicTool, Registry, ToolOutput};
///
/// let weather = DynamicTool::new(
///     "weather",
///     "The weather in a city.",
///     json!({"type": "object", "properties": {
///         "city": {"type": "string"},
///         "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "N/A"}
///     }, "required": ["city"]}),
///     |args, _cx| async move { ToolOutput::json(&args) },
/// );
/// let registry = Registry::builder().without_inventory().dynamic(weather).build().unwrap();
/// assert!(matches!(&registry.notes()[0], BuildNote::UnusableDefault { pointer, .. }
///     if pointer == "/properties/unit/default"));
/// // The call is valid without `unit`: the default is not filled in.
/// let output = registry.call_blocking("weather", r#"{"city": "Oslo"}"#);
/// assert_eq!(output.to_model_text(), r#"{"city":"Oslo"}"#);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum BuildNote {
    /// A schema `default` that the schema it sits in refuses (`null` on a `string`, a value
    /// outside the `enum`): it is never filled in for a parameter the model left out, and a
    /// `null` sent for "use the default" where `null` isn't allowed is dropped, not filled.
    UnusableDefault {
        /// The tool.
        tool: String,
        /// Where, as a JSON pointer into the tool's input schema.
        pointer: String,
        /// The default.
        default: Value,
        /// Why the schema refuses it.
        reason: String,
    },
    /// A schema given at run time ([`DynamicTool`](crate::DynamicTool), an imported tool)
    /// written in an older draft's forms, rewritten to their JSON Schema 2020-12 meaning:
    /// draft-04/OpenAPI 3.0 boolean `exclusiveMinimum`/`exclusiveMaximum`, draft-03
    /// `required: true` and `divisibleBy`, draft-07 `dependencies`, OpenAPI 3.0 `nullable`.
    SchemaRewritten {
        /// The tool.
        tool: String,
        /// What was rewritten, one line per kind of change.
        changes: Vec<String>,
    },
    /// A tool given at run time whose schema can't be used (it doesn't compile, names a
    /// definition that isn't there, nests past
    /// [`MAX_SCHEMA_DEPTH`](crate::registry::MAX_SCHEMA_DEPTH), or has an `x-mcp-header`
    /// that MCP clients refuse): it is left out and the others are kept. With
    /// [`RegistryBuilder::strict_build`](crate::RegistryBuilder::strict_build) it is a
    /// [`BuildError::InvalidSchema`](crate::registry::BuildError::InvalidSchema) (or
    /// [`BuildError::McpHeader`](crate::registry::BuildError::McpHeader)) instead.
    ToolLeftOut {
        /// The tool.
        tool: String,
        /// Why its schema can't be used.
        reason: String,
    },
}

impl fmt::Display for BuildNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildNote::UnusableDefault {
                tool,
                pointer,
                default,
                reason,
            } => write!(
                f,
                "tool `{tool}`: the default {default} at {pointer} is not used ({reason})"
            ),
            BuildNote::SchemaRewritten { tool, changes } => write!(
                f,
                "tool `{tool}`: its input schema was rewritten to JSON Schema 2020-12: {}",
                changes.join("; ")
            ),
            BuildNote::ToolLeftOut { tool, reason } => write!(
                f,
                "tool `{tool}` was left out: its input schema can't be used ({reason})"
            ),
        }
    }
}
