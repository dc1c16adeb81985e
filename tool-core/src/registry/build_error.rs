//! Why a registry could not be built.

use crate::def::SourceLocation;
use std::fmt;

/// A registry that would misbehave at call time is refused at build time, with every
/// problem named.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// Two tools share a name.
    #[error("two tools are named `{name}`: one at {first}, one at {second}; rename one with #[tool(name = \"...\")] or leave one out with `.exclude(...)`")]
    DuplicateName {
        /// The shared name.
        name: String,
        /// Where the first was defined.
        first: Location,
        /// Where the second was defined.
        second: Location,
    },
    /// A tool takes a `State<T>` the builder was not given.
    #[error("tool `{tool}` takes State<{type_name}>, but the registry was given no {type_name}: add `.state(...)` with one to the builder")]
    MissingState {
        /// The tool.
        tool: String,
        /// The missing type.
        type_name: &'static str,
    },
    /// A tool's schema doesn't compile as JSON Schema: a `#[tool]` fn's or a
    /// [`Tool`](crate::Tool)'s, or under
    /// [`strict_build`](crate::RegistryBuilder::strict_build) a
    /// [`DynamicTool`](crate::DynamicTool)'s (otherwise that tool is left out with a
    /// [`BuildNote::ToolLeftOut`](crate::registry::BuildNote::ToolLeftOut)).
    #[error("the input schema of tool `{tool}` is not valid JSON Schema: {reason}")]
    InvalidSchema {
        /// The tool.
        tool: String,
        /// What the validator said.
        reason: String,
    },
    /// A tool's input schema marks a parameter with an `x-mcp-header` that MCP clients
    /// refuse (MCP 2026-07-28's custom headers: a name that isn't an HTTP token or is taken
    /// twice, on a property that isn't a string, integer or boolean, ...): a `#[tool]` fn's
    /// (`#[tool(mcp_header = "...")]`) or a [`Tool`](crate::Tool)'s, or under
    /// [`strict_build`](crate::RegistryBuilder::strict_build) a
    /// [`DynamicTool`](crate::DynamicTool)'s (otherwise that tool is left out with a
    /// [`BuildNote::ToolLeftOut`](crate::registry::BuildNote::ToolLeftOut)). A client drops
    /// such a tool from its list without a word; the build says so instead.
    #[error("tool `{tool}`: {problem}")]
    McpHeader {
        /// The tool.
        tool: String,
        /// Which annotation, and what is wrong with it.
        #[source]
        problem: super::McpHeaderError,
    },
    /// `.only(...)`, `.exclude(...)`, `.resolver(...)`, `.timeout(...)` or `.parallel(...)`
    /// names a tool that doesn't exist.
    #[error("`.{filter}(...)` names `{name}`, but no tool has that name")]
    UnknownName {
        /// `only`, `exclude`, `resolver`, `timeout`, `parallel` or `tool_max_output`.
        filter: &'static str,
        /// The name given.
        name: String,
    },
    /// Tools from outside the program (an MCP server's) could not be loaded.
    #[error("the tools of `{origin}` could not be loaded: {reason}")]
    ToolSource {
        /// Where they were to come from: a command line, a URL.
        origin: String,
        /// Why not.
        reason: String,
    },
    /// A resource template that is not an RFC 6570 level-1 URI template.
    #[cfg(feature = "mcp")]
    #[error("the resource template `{template}` can't be used: {source}")]
    UriTemplate {
        /// The template as written.
        template: String,
        /// What is wrong with it.
        #[source]
        source: crate::resources::TemplateError,
    },
    /// Two resources share a URI, two templates a template, or two prompts a name.
    #[cfg(feature = "mcp")]
    #[error("two {kind} are `{name}`: leave one out or rename one")]
    DuplicateResource {
        /// `resources`, `resource templates` or `prompts`.
        kind: &'static str,
        /// The shared URI, template or name.
        name: String,
    },
    /// Several of the above.
    #[error("{}", list(.0))]
    Multiple(Vec<BuildError>),
}

/// Where a tool came from, as build errors report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// A `#[tool]` fn.
    Source(SourceLocation),
    /// A tool registered at run time.
    Runtime,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Source(location) => location.fmt(f),
            Location::Runtime => f.write_str("(registered at run time)"),
        }
    }
}

fn list(errors: &[BuildError]) -> String {
    let mut text = format!("{} problems:", errors.len());
    for error in errors {
        text.push_str("\n  - ");
        text.push_str(&error.to_string());
    }
    text
}

impl BuildError {
    /// The individual problems (one, unless this is [`BuildError::Multiple`]).
    pub fn problems(&self) -> &[BuildError] {
        match self {
            BuildError::Multiple(all) => all,
            single => std::slice::from_ref(single),
        }
    }

    /// The individual problems, owned.
    pub fn into_problems(self) -> Vec<BuildError> {
        match self {
            BuildError::Multiple(all) => all,
            single => vec![single],
        }
    }

    pub(crate) fn from_list(mut errors: Vec<BuildError>) -> Option<BuildError> {
        match errors.len() {
            0 => None,
            1 => errors.pop(),
            _ => Some(BuildError::Multiple(errors)),
        }
    }
}
