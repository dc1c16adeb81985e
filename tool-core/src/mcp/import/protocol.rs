//! Which protocol an import speaks with its server: [`McpProtocol`].

use rmcp::model::ProtocolVersion;
use rmcp::service::ClientLifecycleMode;

/// The protocol an [`McpImport`](crate::mcp::McpImport) speaks with its server, set with
/// [`McpImport::protocol`](crate::mcp::McpImport::protocol).
///
/// ```no_run
/// use tool_runtime::mcp::{McpImport, McpProtocol};
/// use tool_runtime::Registry;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// // Sessionless when the server speaks 2026-07-28: each call can go to any replica, and
/// // the arguments its tools mark `x-mcp-header` travel as `Mcp-Param-*` headers too.
/// let registry = Registry::builder()
///     .mcp(McpImport::http("http://127.0.0.1:3000/mcp").protocol(McpProtocol::V2026_07_28))
///     .build_async()
///     .await?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpProtocol {
    /// The `initialize` handshake and a session (protocol 2025-11-25 and older): what every
    /// server speaks. The default.
    #[default]
    Handshake,
    /// Protocol 2026-07-28 when the server speaks it: no handshake (`server/discover` finds
    /// the versions it speaks), no session, each request carrying its version, and each
    /// `tools/call` the `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` headers a load balancer
    /// routes on. A server that doesn't know `server/discover` gets the handshake.
    V2026_07_28,
}

impl McpProtocol {
    /// How rmcp's client begins the session.
    pub(crate) fn lifecycle(self) -> ClientLifecycleMode {
        match self {
            McpProtocol::Handshake => ClientLifecycleMode::Initialize,
            McpProtocol::V2026_07_28 => ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
            },
        }
    }
}
