//! The floor every stage of a call stands on: the call, its errors (with their violations and
//! format), the tool's definition and spec, its context and state, its output, and the small
//! primitives the stages share (the gate and a call's hold on it, the panic guard, JSON
//! pointers, the schema reader). Nothing here imports the stages above it (pipeline, dispatch,
//! registry, exports, routing, MCP, the agent): they all import it.
//!
//! The crate root re-exports each module under its own name (`crate::error`,
//! `tool_runtime::output`), so the paths users and the stages write don't name this folder.

pub mod approval;
pub(crate) mod call;
pub(crate) mod context;
pub(crate) mod def;
pub(crate) mod error;
pub mod error_format;
pub(crate) mod error_text;
pub(crate) mod gate;
pub(crate) mod hold;
pub mod notify;
pub mod output;
pub(crate) mod panic;
pub(crate) mod pointer;
pub(crate) mod provider;
pub(crate) mod registration;
pub(crate) mod schema;
pub(crate) mod schema_nav;
pub mod spec;
pub(crate) mod state;
pub(crate) mod tool;
pub(crate) mod violation;
