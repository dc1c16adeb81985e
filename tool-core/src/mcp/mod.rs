//! What the registry needs of MCP itself: importing a server's tools
//! ([`McpImport`], which `RegistryBuilder::mcp_stdio` and `mcp_http` name and `build_async`
//! connects), and the content conversion, errors and lock the server shares with it. Serving a
//! registry is the crate above (`tool_runtime::mcp`, which re-exports these).

#[doc(hidden)]
pub mod content;
mod error;
mod import;
#[doc(hidden)]
pub mod lock;

pub use error::{BoxError, McpError};
#[cfg(feature = "mcp-oauth-jwt")]
pub use import::JwtAlgorithm;
#[cfg(feature = "mcp-oauth")]
pub use import::{AuthorizationPrompt, IdentityProvider, McpOAuth};
pub use import::{ImportNote, McpImport, McpProtocol, McpTools};
