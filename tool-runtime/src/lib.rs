//! Give an LLM your Rust functions as tools.
//!
//! Put [`#[tool]`](macro@tool) on an ordinary `fn`; [`Registry::builder`] collects every such
//! fn, [`Registry::export`] lists them in a model API's shape, and [`Registry::call`]
//! runs the calls the model makes, turning every result (errors included) into one
//! [`ToolOutput`].
//!
//! ```
//! use tool_runtime::{tool, Registry};
//!
//! /// Say hello.
//! #[tool]
//! fn greet(
//!     /// Who to greet.
//!     name: String,
//! ) -> String {
//!     format!("Hello, {name}!")
//! }
//!
//! let registry = Registry::builder().build().unwrap();
//! let output = registry.call_blocking("greet", r#"{"name": "Ada"}"#);
//! assert_eq!(output.to_model_text(), "Hello, Ada!");
//! ```
//!
//! The root holds what a normal program names; everything else lives in its module:
//! [`providers`] (each model API in a folder of its own: [`Provider`], and how to add one),
//! [`export`] (tool lists, strict mode), [`router`] (model replies into calls), [`results`]
//! (answers per provider), [`text`] (calls written in plain text), [`pipeline`] (limits,
//! repair, the ParamResolver, validation, injection, approval, cancellation), [`output`]
//! (outputs, how errors read to the model, notifications), [`registry`] (the builder's
//! settings, build errors, what `#[tool]` generates); with the `client` feature (which `mcp`
//! and `agent` turn on), `client` (a tool asking the client of its call for sampling or
//! elicitation); with the `mcp` feature, `mcp` (serve a registry, import a server's tools) and
//! `resources` (resources, templates and prompts beside the tools); with the `agent` feature,
//! `agent` (the model in the loop: `Agent` and HTTP transports for each provider); with the
//! `code` feature, `code` (code mode: one tool that runs the model's Python, whose functions
//! are the tools), and with `code-workers` its `WorkerPool` (the Python in worker processes
//! that may crash without the host). The workspace's `docs/` has a guide for each; `docs/how-tool-calls-work.md` follows one call
//! through every stage.
//!
//! This crate builds no code of its own: it re-exports `tool-core` (the call, the registry and
//! each model API's shapes), `tool-text`, `tool-mcp` and `tool-agent` under these paths.
#![warn(missing_docs)]

// `#[tool]` names this crate `::tool_runtime`, in its own tests too.
extern crate self as tool_runtime;

/// The README's and the guides' examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
mod guide_doctests {
    #[doc = include_str!("../../README.md")]
    struct Readme;
    #[doc = include_str!("../../docs/writing-tools.md")]
    struct WritingTools;
    #[doc = include_str!("../../docs/exporting.md")]
    struct Exporting;
    #[doc = include_str!("../../docs/call-pipeline.md")]
    struct CallPipeline;
    #[doc = include_str!("../../docs/running-calls.md")]
    struct RunningCalls;
    #[doc = include_str!("../../docs/outputs.md")]
    struct Outputs;
    #[doc = include_str!("../../docs/routing-and-results.md")]
    struct RoutingAndResults;
    #[doc = include_str!("../../docs/text-only-models.md")]
    struct TextOnlyModels;
    #[cfg(feature = "mcp")]
    #[doc = include_str!("../../docs/mcp.md")]
    struct Mcp;
    #[doc = include_str!("../../docs/cli.md")]
    struct Cli;
    #[cfg(feature = "agent")]
    #[doc = include_str!("../../docs/agent.md")]
    struct AgentGuide;
    #[cfg(feature = "agent")]
    #[doc = include_str!("../../docs/tensorzero.md")]
    struct TensorZeroGuide;
    #[cfg(feature = "code")]
    #[doc = include_str!("../../docs/code-mode.md")]
    struct CodeModeGuide;
}

#[cfg(feature = "agent")]
#[doc(inline)]
pub use tool_agent as agent;
#[doc(inline)]
pub use tool_text as text;

#[cfg(feature = "client")]
pub use tool_core::client;
#[cfg(feature = "code")]
pub use tool_core::code;
#[cfg(feature = "mcp")]
pub use tool_core::resources;
pub use tool_core::{export, output, pipeline, providers, registry, results, router};
#[cfg(feature = "mcp")]
#[doc(inline)]
pub use tool_mcp as mcp;

pub use tool_core::{
    DynamicTool, ErrorCode, Provider, Registry, RegistryBuilder, State, Tool, ToolCall,
    ToolContext, ToolError, ToolOutput, ToolSpec,
};

/// Turns an ordinary `fn` (sync or `async`) into a tool an LLM can call.
///
/// ```
/// use tool_runtime::{tool, ToolError};
///
/// /// Add two numbers.
/// #[tool(read_only, idempotent)]
/// fn add(
///     /// The first number.
///     a: i64,
///     /// The second number.
///     #[tool(default = 1)]
///     b: i64,
/// ) -> Result<i64, ToolError> {
///     a.checked_add(b).ok_or_else(|| ToolError::new("the sum overflows"))
/// }
///
/// assert_eq!(add(2, 3).unwrap(), 5); // still an ordinary fn
/// ```
///
/// On the fn, `#[tool(...)]` takes:
///
/// | key | meaning |
/// |---|---|
/// | `name = "..."` | the tool's name (default: the fn's), `^[a-zA-Z0-9_-]{1,64}$` |
/// | `title = "..."` | a display name for UIs (MCP's `title`) |
/// | `description = "..."` | the description (default: the doc comment) |
/// | `read_only`, `destructive`, `idempotent`, `open_world` | hints, exported as MCP annotations; `destructive` calls need approval |
/// | `parallel`, `parallel = false` | whether calls may run beside others (default: `read_only`) |
/// | `inline` | a sync fn `call(..).await` runs on the caller's task, not tokio's blocking pool: for cheap fns (not with `timeout`) |
/// | `timeout = "30s"` | the call's timeout (`ms`, `s`, `m`, `h`) |
/// | `max_output = 16384` | this tool's output cap in bytes (default: the registry's, 8 KiB) |
/// | `strict = false` | never export the tool in a provider's strict mode |
/// | `resolver = path::to_fn` | a [`ResolverFn`](crate::pipeline::ResolverFn) filling what the model left out |
/// | `error_format = "json"` | how the tool's errors read to the model: `"text"` (default), `"json"` or `"traceback"` ([`ErrorFormat`](output::ErrorFormat)) |
///
/// On a parameter it takes `default = EXPR` and `inject`. `#[serde(...)]` and
/// `#[schemars(...)]` on a parameter are forwarded to the generated argument struct.
pub use tool_macros::tool;

/// What the code `#[tool]` generates refers to. Not a public API.
#[doc(hidden)]
pub use tool_core::__private;
