//! Serving over stdio: the client started this process and speaks JSON-RPC on its stdin and
//! stdout (so nothing else may write to stdout; logs go to stderr).

use crate::Registry;
use crate::{McpError, McpServer};
use rmcp::ServiceExt;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};

/// Serves `registry` over this process's stdin and stdout until the client closes them.
///
/// # Errors
///
/// An [`McpError`] when the MCP session can't start (a broken handshake) or the transport fails.
pub async fn serve_stdio(registry: impl Into<Arc<Registry>>) -> Result<(), McpError> {
    McpServer::new(registry).serve_stdio().await
}

impl McpServer {
    /// Serves over this process's stdin and stdout until the client closes them.
    ///
    /// # Errors
    ///
    /// An [`McpError`] when the MCP session can't start or the transport fails.
    pub async fn serve_stdio(self) -> Result<(), McpError> {
        self.serve_io(tokio::io::stdin(), tokio::io::stdout()).await
    }

    /// Serves one client over a byte stream pair (a socket's halves, an in-memory duplex)
    /// until it closes.
    ///
    /// # Errors
    ///
    /// An [`McpError`] when the MCP session can't start or the stream fails.
    pub async fn serve_io<R, W>(self, read: R, write: W) -> Result<(), McpError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        // A session of its own: clones of one server serve several streams, and one client's
        // `logging/setLevel` must not silence another's logs.
        let running = self
            .for_session()
            .serve((shielded(read), write))
            .await
            .map_err(|e| McpError::Serve {
                doing: "starting a session".to_owned(),
                source: Box::new(e),
            })?;
        running.waiting().await.map_err(|e| McpError::Serve {
            doing: "serving a session".to_owned(),
            source: Box::new(e),
        })?;
        Ok(())
    }
}

/// `read`, one JSON-RPC line at a time, with every `tools/call` whose arguments repeat a key
/// rewritten so the registry sees their exact text (`raw_arguments`). A task copies the lines
/// through a pipe; it ends when either side closes.
fn shielded<R>(read: R) -> tokio::io::DuplexStream
where
    R: AsyncRead + Send + Unpin + 'static,
{
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let (pipe, mut feed) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let mut lines = BufReader::new(read);
        let mut line = Vec::new();
        loop {
            line.clear();
            match lines.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let written = match super::raw_arguments::shield(&line) {
                Some(mut rewritten) => {
                    rewritten.push(b'\n');
                    feed.write_all(&rewritten).await
                }
                None => feed.write_all(&line).await,
            };
            if written.is_err() {
                break;
            }
        }
    });
    pipe
}
