//! The tasks an MCP server runs (SEP-2663): the store that keeps them, bounded in time,
//! number and bytes, and the client a call running as a task asks through.

pub(crate) mod client;
pub(crate) mod limits;
pub(crate) mod store;

pub use limits::TaskStoreError;
