//! What can go wrong serving or importing over MCP.

/// An MCP server that could not be served, or a server whose tools could not be imported.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum McpError {
    /// The server process could not be started.
    #[error("could not start MCP server `{command}`: {reason}")]
    Spawn {
        /// The command line.
        command: String,
        /// What the system said.
        reason: String,
    },
    /// The server was reached but the MCP session could not be set up, or it failed later.
    #[error("MCP server `{server}`: {reason}")]
    Protocol {
        /// The command line or URL.
        server: String,
        /// What went wrong.
        reason: String,
    },
    /// The server did not answer in time.
    #[error("MCP server `{server}` did not answer within {seconds:.1}s while {doing}")]
    Timeout {
        /// The command line or URL.
        server: String,
        /// What was waited for.
        doing: &'static str,
        /// How long.
        seconds: f64,
    },
    /// Serving failed: the address could not be bound, or the transport broke.
    #[error("could not serve MCP: {0}")]
    Serve(String),
}
