//! What can go wrong serving or importing over MCP. Each error keeps the one that caused it
//! (the system's, rmcp's) as its `source`.

/// An error from below (the system, rmcp), kept whole.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

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
        /// The system's error, when there is one (not for a command line that can't be read).
        #[source]
        source: Option<std::io::Error>,
    },
    /// The server was reached but the MCP session could not be set up, or it failed later.
    #[error("MCP server `{server}`: {reason}")]
    Protocol {
        /// The command line or URL.
        server: String,
        /// What went wrong.
        reason: String,
        /// rmcp's error.
        #[source]
        source: Option<BoxError>,
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
    #[error("could not serve MCP: {doing}: {source}")]
    Serve {
        /// What was being done (`binding 127.0.0.1:8080`, `serving a session`).
        doing: String,
        /// The transport's or rmcp's error.
        #[source]
        source: BoxError,
    },
}
