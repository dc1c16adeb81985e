//! One protocol 2026-07-28 request over streamable HTTP, as a sessionless client sends it:
//! the version, the client's capabilities and info in `_meta`, the `Mcp-Method` and
//! `Mcp-Name` headers. For tests that check the wire shapes themselves (input-required
//! results, `requestState`), where an SDK would hide them.

use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// How long one request may take, connection to last byte.
const LIMIT: Duration = Duration::from_secs(10);

/// Posts `method` with `params` to the server at `addr` (`/mcp`), as a client that declared
/// `capabilities`, and gives the JSON-RPC answer (`result` or `error`).
///
/// # Panics
///
/// When the server does not answer within 10 s or the answer holds no JSON-RPC message.
pub async fn post(addr: SocketAddr, method: &str, params: Value, capabilities: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
    });
    // The header rmcp checks against the request: a tool's or prompt's name, a URI.
    let name = ["name", "uri", "taskId"]
        .iter()
        .find_map(|key| params.get(*key).and_then(Value::as_str))
        .map(|name| format!("Mcp-Name: {name}\r\n"))
        .unwrap_or_default();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n{name}Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let answer = exchange(addr, &request).await;
    message(&answer).unwrap_or_else(|| panic!("no JSON-RPC answer in {answer}"))
}

/// Sends a whole HTTP `request` to `addr` and reads the answer until the server closes
/// (the request should say `Connection: close`).
///
/// # Panics
///
/// When the server does not answer within 10 s.
pub async fn exchange(addr: SocketAddr, request: &str) -> String {
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        answer
    };
    tokio::time::timeout(LIMIT, exchange)
        .await
        .unwrap_or_else(|_| panic!("no answer within {LIMIT:?}"))
}

/// The JSON-RPC message of an HTTP answer: a result comes as a server-sent event, an error
/// refused early as a plain JSON body. `None` when it holds none (a notification's 202).
pub fn message(answer: &str) -> Option<Value> {
    answer
        .lines()
        .find_map(|line| {
            let line = line.strip_prefix("data: ").unwrap_or(line);
            line.starts_with('{').then_some(line)
        })
        .and_then(|line| serde_json::from_str(line).ok())
}
