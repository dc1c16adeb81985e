//! Why a tool can't be exported in a provider's strict mode, each reason at a JSON pointer.

use std::fmt;

/// Why a tool is exported without strict mode: every reason found, for one tool.
///
/// Returned by [`Export::check`](crate::export::Export::check) and
/// [`ToolSpec::strict_compatibility`](crate::ToolSpec::strict_compatibility). The export
/// itself never fails: such a tool is listed with `strict: false`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("tool `{tool}` can't use strict mode: {}", join(issues))]
pub struct StrictIssues {
    /// The tool.
    pub tool: String,
    /// Every reason, in schema order.
    pub issues: Vec<StrictIssue>,
}

/// One reason a schema can't be strict, and where.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{kind} (at {})", if pointer.is_empty() { "the root" } else { pointer })]
pub struct StrictIssue {
    /// A JSON pointer into the tool's input schema (`""` is the whole schema).
    pub pointer: String,
    /// What is wrong there.
    pub kind: StrictIssueKind,
}

/// What keeps a schema out of strict mode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StrictIssueKind {
    /// The dialect has no strict mode (Gemini, MCP).
    #[error("this dialect has no strict mode")]
    NoStrictMode,
    /// The registry has no tool of that name.
    #[error("there is no tool of that name")]
    UnknownTool,
    /// The tool opted out with `#[tool(strict = false)]`.
    #[error("the tool opted out with #[tool(strict = false)]")]
    OptedOut,
    /// An object that takes keys beyond its listed properties (a map, such as
    /// `HashMap<String, V>`): strict mode needs `additionalProperties: false` on every object.
    #[error("an object with keys not listed in `properties` (a map): strict mode needs `additionalProperties: false` on every object")]
    OpenObject,
    /// A schema that accepts any value (`serde_json::Value`): strict mode needs a type.
    #[error("a value of any type: strict mode needs a type for every value")]
    AnyValue,
    /// A keyword with no strict equivalent that changes what is valid (`allOf`, `not`,
    /// `if`/`then`/`else`, `prefixItems`, ...).
    #[error("`{0}` is not supported in strict mode")]
    Unsupported(String),
    /// A recursive type (Anthropic's strict mode rejects recursive schemas).
    #[error("the type `{0}` contains itself, and recursive schemas are not supported")]
    Recursive(String),
    /// An optional property that has no default and doesn't accept `null`: strict mode would
    /// have the model send `null` for it, which the tool would reject.
    #[error("an optional property with no default that doesn't accept null: give it a default or make it an Option")]
    OptionalWithoutDefault,
    /// The schema's root is not an object with properties.
    #[error("the root is not an object")]
    RootNotObject,
    /// An `enum` with objects or arrays among its values (Anthropic allows only primitives).
    #[error("an enum with non-primitive values")]
    ComplexEnum,
    /// A documented size limit is exceeded.
    #[error("{limit}: {value} exceeds the limit of {max}")]
    Limit {
        /// Which limit.
        limit: StrictLimit,
        /// What the schema (or the request so far) has.
        value: usize,
        /// What the provider allows.
        max: usize,
    },
}

/// A documented strict-mode size limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StrictLimit {
    /// OpenAI: object properties in one schema (5000).
    Properties,
    /// OpenAI: levels of nesting (10).
    Nesting,
    /// OpenAI: enum values across the schema (1000).
    EnumValues,
    /// OpenAI: characters of one string enum with more than 250 values (15,000).
    EnumChars,
    /// OpenAI: characters of property names, definition names, enum and const values (120,000).
    TotalChars,
    /// Anthropic: strict tools in one request (20).
    StrictTools,
    /// Anthropic: optional parameters across a request's strict tools (24).
    OptionalParams,
    /// Anthropic: parameters using `anyOf` or type arrays across a request's strict tools (16).
    UnionParams,
}

impl fmt::Display for StrictLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StrictLimit::Properties => "object properties in the schema",
            StrictLimit::Nesting => "levels of nesting",
            StrictLimit::EnumValues => "enum values in the schema",
            StrictLimit::EnumChars => "characters in one enum of more than 250 values",
            StrictLimit::TotalChars => "characters of names, enum and const values",
            StrictLimit::StrictTools => "strict tools in the request",
            StrictLimit::OptionalParams => "optional parameters across the request's strict tools",
            StrictLimit::UnionParams => "union-typed parameters across the request's strict tools",
        })
    }
}

impl StrictIssue {
    pub(crate) fn new(pointer: &str, kind: StrictIssueKind) -> StrictIssue {
        StrictIssue {
            pointer: pointer.to_owned(),
            kind,
        }
    }
}

fn join(issues: &[StrictIssue]) -> String {
    let parts: Vec<String> = issues.iter().map(ToString::to_string).collect();
    parts.join("; ")
}
