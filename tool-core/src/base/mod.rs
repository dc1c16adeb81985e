//! The floor every stage of a call stands on: the call, its errors (with their violations and
//! format), the tool's definition and spec, its context and state, its output, and the small
//! primitives the stages share (the gate and a call's hold on it, the panic guard, JSON
//! pointers, the schema reader). Nothing here imports the stages above it (pipeline, dispatch,
//! registry, exports, routing, MCP, the agent): they all import it.
//!
//! The crate root re-exports each module under its own name (`crate::error`,
//! `tool_runtime::output`), so the paths users and the stages write don't name this folder.

pub mod approval;
pub mod call;
pub mod context;
pub mod def;
pub mod error;
pub mod error_format;
pub mod error_text;
pub mod gate;
pub mod hold;
pub mod notify;
pub mod output;
pub mod panic;
pub mod pointer;
pub mod provider;
pub mod registration;
pub mod schema;
pub mod schema_nav;
pub mod spec;
pub mod state;
pub mod tool;
pub mod violation;
