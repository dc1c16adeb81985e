//! Serving a registry over MCP: [`McpServer`] (rmcp's `ServerHandler`), the registry's
//! resources and prompts, the wire shape of its tools and results, paging, a served call's
//! questions to its client, and calls run as tasks.

mod asking;
mod listen;
mod paging;
pub(crate) mod peer_client;
mod resources;
mod server;
mod tasks;

pub use server::McpServer;
