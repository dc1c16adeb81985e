//! The core of [tool-runtime](https://docs.rs/tool-runtime): calls, specs, outputs, errors,
//! context, the registry and its pipeline, exports, routing, results, and MCP.
//!
//! Depend on `tool-runtime`, not on this crate: it re-exports everything here under the same
//! paths and features, beside the text formats and the agent loop, which are crates of their
//! own above this one. The layers inside, bottom up: `base` (the types every stage uses),
//! [`pipeline`] and `dispatch` (the stages of a call), [`registry`] (the façade that calls
//! them), then [`export`], [`providers`], [`router`] and [`results`] (a model API's shapes),
//! and `client`, `resources` and `mcp` on top.
#![warn(missing_docs)]
// The layers inside are public for the crates above (hidden from the docs), and their own
// docs still link the private items they describe.
#![allow(rustdoc::private_intra_doc_links)]

// `#[tool]` names the runtime `::tool_runtime`; in this crate's own tests that is this crate.
extern crate self as tool_runtime;

#[doc(hidden)]
pub mod base;
pub use base::{approval, error_format, notify, output, spec};
#[doc(hidden)]
pub use base::{
    call, context, def, error, error_text, gate, hold, panic, pointer, registration, schema,
    schema_nav, state, tool, violation,
};
#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "code")]
pub mod code;
#[doc(hidden)]
pub mod dispatch;
pub mod export;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod pipeline;
pub mod providers;
pub mod registry;
#[cfg(feature = "mcp")]
pub mod resources;
pub mod results;
pub mod router;
#[cfg(any(feature = "agent", feature = "mcp-oauth"))]
#[doc(hidden)]
pub mod tls;

pub use base::provider::Provider;
pub use call::ToolCall;
pub use context::ToolContext;
pub use error::{ErrorCode, ToolError};
pub use error_format::ErrorFormat;
pub use output::ToolOutput;
pub use registry::{BuildError, Registry, RegistryBuilder};
pub use spec::ToolSpec;
pub use state::State;
pub use tokio_util::sync::CancellationToken;
pub use tool::{DynamicTool, Tool};
pub use tool_macros::tool;

/// What the code `#[tool]` generates refers to. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::__submit as submit;
    pub use crate::context::{CallContext, Inject};
    pub use crate::def::{
        fallback_tool, sync_pending, Args, BoxFuture, Invoke, Pending, SourceLocation, TaskSupport,
        ToolDef, ToolFlags,
    };
    pub use crate::error_format::ErrorFormat;
    pub use crate::output::structured::output_schema_of;
    pub use crate::output::{result_output, unit_output, value_output};
    pub use crate::pipeline::ResolverFn;
    pub use crate::state::StateRequirement;
    #[cfg(feature = "inventory")]
    pub use inventory;
    pub use schemars;
    pub use serde;
    pub use std::boxed::Box;
}
