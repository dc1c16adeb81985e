//! MCP both ways, on the official Rust SDK (`rmcp`); the `mcp` cargo feature.
//!
//! **Serve** a registry to any MCP client: [`serve_stdio`] (the client started this process)
//! or [`serve_http`] (streamable HTTP, on 127.0.0.1 unless told otherwise, `Host` and
//! `Origin` checked, optional bearer token: [`HttpServer`] for the options). `tools/list`
//! gives every tool's MCP export (paginated), and `tools/call` goes through the same pipeline
//! as [`Registry::call`](crate::Registry::call): a bad call, a timeout, a panic or a denial is
//! an `isError: true` result the model can read. A tool's
//! [`progress`](crate::ToolContext::progress) and [`log`](crate::ToolContext::log) reach the
//! client as notifications, and its [`sample`](crate::ToolContext::sample) and
//! [`elicit`](crate::ToolContext::elicit) become `sampling/createMessage` and
//! `elicitation/create` requests to the client (see [`client`]). The registry's
//! [`resources`] (resources, templates, prompts) are served beside the
//! tools, and imported beside a server's tools.
//!
//! **Import** a server's tools: [`McpImport`] connects to a server (a command over stdio, or a
//! streamable-HTTP URL) and gives its tools as [`DynamicTool`]s named
//! `server__tool`, their schemas cleaned so that they export to every dialect; calls are
//! forwarded, and a server that dies or stalls gives error outputs. An import begins with the
//! handshake, or speaks protocol 2026-07-28 when asked ([`McpProtocol`]). On the builder,
//! [`RegistryBuilder::mcp_stdio`](crate::RegistryBuilder::mcp_stdio) and
//! [`mcp_http`](crate::RegistryBuilder::mcp_http) do the same, connecting in
//! [`build_async`](crate::RegistryBuilder::build_async) (connecting is async, and `build` is
//! not).
//!
//! The folders follow what MCP does here: `serve/` serves a registry (the server, its
//! resources and prompts, calls as tasks), `import/` imports a server's, `tasks/` keeps the
//! tasks a server runs, `rounds/` holds protocol 2026-07-28's multi-round requests
//! (input-required and URL-required results, `requestState`), and `transport/` carries
//! either over stdio or streamable HTTP.
//!
//! ```no_run
//! use tool_runtime::Registry;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! // A registry of this program's tools and a server's, served over stdio.
//! let registry = Registry::builder()
//!     .mcp_stdio("npx", ["-y", "@modelcontextprotocol/server-everything"])
//!     .build_async()
//!     .await?;
//! tool_runtime::mcp::serve_stdio(registry).await?;
//! # Ok(())
//! # }
//! ```

mod rounds;
mod serve;
mod tasks;
mod transport;

// Importing lives in the core, beside the registry builder that connects it.
#[cfg(feature = "oauth-jwt")]
pub use tool_core::mcp::JwtAlgorithm;
#[cfg(feature = "oauth")]
pub use tool_core::mcp::{AuthorizationPrompt, IdentityProvider, McpOAuth};
pub use tool_core::mcp::{BoxError, ImportNote, McpError, McpImport, McpProtocol, McpTools};
// What the server names from the core, under the paths it used inside tool-runtime.
pub use serve::McpServer;
#[cfg(feature = "redis")]
pub use tasks::RedisConfig;
pub use tasks::{TaskStore, TaskStoreError, Unavailable};
use tool_core::mcp::{content, lock};
use tool_core::{
    client, error, notify, output, pipeline, resources, results, spec, Provider, Registry,
    ToolOutput,
};
// Named by the docs' links.
#[cfg(test)]
use tool_core::ToolError;
#[allow(unused_imports)]
use tool_core::{DynamicTool, RegistryBuilder, ToolContext};
pub use transport::{serve_http, serve_stdio, HttpOptions, HttpServer};
