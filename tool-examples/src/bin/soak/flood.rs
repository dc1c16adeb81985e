//! The session flood, after the load: sessions opened with a bare `initialize` and then left
//! alone (never used, never ended), past the server's cap on open sessions. The server must
//! refuse the ones past the cap (503), hold its memory, end them on `DELETE`, and still serve
//! a new client afterwards.

use crate::calls::{self, Client};
use crate::server::{self, Sample, Server};
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use serde_json::json;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"soak-flood","version":"1"}}}"#;

pub struct Flood {
    pub tried: usize,
    pub opened: usize,
    /// 503 answers.
    pub refused: usize,
    /// Any other answer, by status (0: no HTTP answer).
    pub other: BTreeMap<u16, usize>,
    pub seconds: f64,
    /// The server with every session open.
    pub full: Sample,
    /// Sessions ended by `DELETE` (2xx).
    pub deleted: usize,
    /// The server 1 s after the `DELETE`s.
    pub emptied: Sample,
    /// A new rmcp client's `read_file` call after the flood.
    pub serves_after: Result<(), String>,
}

pub async fn run(server: &Server, tries: usize) -> Flood {
    let (addr, path) = server.addr_and_path();
    let started = Instant::now();
    let mut sessions = Vec::new();
    let mut refused = 0;
    let mut other = BTreeMap::new();
    for _ in 0..tries {
        let answer = tokio::time::timeout(
            Duration::from_secs(10),
            calls::exchange(&addr, "POST", &path, "", INITIALIZE.as_bytes()),
        )
        .await;
        let response = match answer {
            Ok(Ok(response)) => response,
            _ => String::new(),
        };
        match (
            calls::status(&response),
            calls::header(&response, "mcp-session-id"),
        ) {
            (Some(200), Some(id)) => sessions.push(id.to_owned()),
            (Some(503), _) => refused += 1,
            (status, _) => *other.entry(status.unwrap_or(0)).or_insert(0) += 1,
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let full = server::sample(server.pid).unwrap_or_default();

    let mut deleted = 0;
    for id in &sessions {
        let headers = format!("Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: 2025-11-25\r\n");
        if let Ok(Ok(response)) = tokio::time::timeout(
            Duration::from_secs(10),
            calls::exchange(&addr, "DELETE", &path, &headers, b""),
        )
        .await
        {
            if calls::status(&response).is_some_and(|s| (200..300).contains(&s)) {
                deleted += 1;
            }
        }
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let emptied = server::sample(server.pid).unwrap_or_default();
    let serves_after = serve_one(&server.url).await;
    Flood {
        tried: tries,
        opened: sessions.len(),
        refused,
        other,
        seconds,
        full,
        deleted,
        emptied,
        serves_after,
    }
}

/// A new session and one good call.
async fn serve_one(url: &str) -> Result<(), String> {
    let transport = StreamableHttpClientTransport::from_uri(url);
    let client: Client = tokio::time::timeout(Duration::from_secs(10), ().serve(transport))
        .await
        .map_err(|_| "initialize timed out".to_owned())?
        .map_err(|e| format!("initialize failed: {e}"))?;
    let arguments = json!({"path": "docs/f0.txt"});
    let params = CallToolRequestParams::new("read_file")
        .with_arguments(arguments.as_object().cloned().unwrap_or_default());
    let result = tokio::time::timeout(Duration::from_secs(10), client.peer().call_tool(params))
        .await
        .map_err(|_| "read_file timed out".to_owned())?
        .map_err(|e| format!("read_file failed: {e}"));
    let _ = tokio::time::timeout(Duration::from_secs(5), client.cancel()).await;
    match result? {
        r if r.is_error == Some(true) => Err(format!("read_file: {:?}", r.content)),
        _ => Ok(()),
    }
}
