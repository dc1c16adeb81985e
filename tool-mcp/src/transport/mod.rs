//! Carrying MCP: serving over stdio (the client started this process) or streamable HTTP,
//! with rmcp's session manager, and the duplicate-key shield every transport puts on a
//! `tools/call`'s arguments.

pub(crate) mod http;
pub(crate) mod raw_arguments;
mod sessions;
mod stdio;

pub use http::{serve_http, HttpOptions, HttpServer};
pub use stdio::serve_stdio;
