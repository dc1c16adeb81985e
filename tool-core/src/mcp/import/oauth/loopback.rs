//! The default user's part: the authorization URL printed on stderr (and handed to the
//! system's browser opener when there is one), and a listener on a free 127.0.0.1 port
//! that takes the browser's redirect (RFC 8252's loopback redirect).

use super::AuthorizationPrompt;
use crate::client::BoxError;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The most a browser's request line and headers may take before the connection is dropped.
const MAX_REQUEST: usize = 16 * 1024;

/// A listener waiting for the redirect.
pub(super) struct Listener {
    listener: TcpListener,
    port: u16,
}

impl Listener {
    /// Binds `port` on 127.0.0.1 (0: a free one).
    pub(super) async fn bind(port: u16) -> Result<Listener, BoxError> {
        let listener = TcpListener::bind(("127.0.0.1", port)).await?;
        let port = listener.local_addr()?.port();
        Ok(Listener { listener, port })
    }

    /// The port it listens on.
    pub(super) fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:PORT/callback`.
    pub(super) fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}/callback", self.port)
    }

    /// Shows the URL, tries the system's opener, and waits for the browser to come back to
    /// `/callback` with a `code` or an `error`; gives the whole callback URL.
    /// `open` hands the URL to the system's opener too.
    pub(super) async fn prompt(
        self,
        prompt: AuthorizationPrompt,
        open: bool,
    ) -> Result<String, BoxError> {
        eprintln!(
            "Open this URL to sign in to the MCP server:\n  {}",
            prompt.url
        );
        if open {
            open_browser(&prompt.url);
        }
        loop {
            let (mut stream, _) = self.listener.accept().await?;
            let mut request = Vec::new();
            let mut chunk = [0u8; 1024];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < MAX_REQUEST {
                let n = stream.read(&mut chunk).await?;
                if n == 0 {
                    break;
                }
                request.extend_from_slice(&chunk[..n]);
            }
            let line = String::from_utf8_lossy(&request);
            let target = line
                .lines()
                .next()
                .and_then(|first| first.strip_prefix("GET "))
                .and_then(|rest| rest.split(' ').next())
                .unwrap_or_default()
                .to_owned();
            if !target.starts_with("/callback?") {
                let _ = stream
                    .write_all(
                        b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    )
                    .await;
                continue;
            }
            let body = "Signed in: you may close this window.";
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(answer.as_bytes()).await;
            return Ok(format!("http://127.0.0.1:{}{target}", self.port));
        }
    }
}

/// Hands `url` to the system's opener, if it has one; the printed URL is enough without.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let _ = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_browsers_redirect_is_the_callback_and_other_paths_are_not() {
        let listener = Listener::bind(0).await.unwrap();
        let redirect = listener.redirect_uri();
        let port = listener.port;
        let waiting = tokio::spawn(listener.prompt(
            AuthorizationPrompt {
                url: "http://127.0.0.1:1/authorize".to_owned(),
                redirect_uri: redirect,
            },
            false,
        ));
        let get = |path: &'static str| async move {
            let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .unwrap();
            let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            stream.write_all(request.as_bytes()).await.unwrap();
            let mut answer = String::new();
            stream.read_to_string(&mut answer).await.unwrap();
            answer
        };
        assert!(get("/favicon.ico").await.starts_with("HTTP/1.1 404"));
        assert!(get("/callback?code=abc&state=xyz")
            .await
            .starts_with("HTTP/1.1 200"));
        let callback = waiting.await.unwrap().unwrap();
        assert_eq!(
            callback,
            format!("http://127.0.0.1:{port}/callback?code=abc&state=xyz")
        );
    }
}
