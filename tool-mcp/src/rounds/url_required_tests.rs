//! A tool that needs a URL visited, served over streamable HTTP on 127.0.0.1 and called with
//! raw requests: `-32042` with `data.elicitations` under 2025-11-25, a URL-mode input
//! request under 2026-07-28.

use crate::{DynamicTool, Registry, ToolError, ToolOutput};
use serde_json::{json, Value};
use std::net::SocketAddr;

const URL: &str = "https://example.com/connect?state=8d1f";

/// A server whose one tool, `connect`, always needs `URL` visited.
async fn serve() -> (SocketAddr, tokio_util::sync::CancellationToken) {
    let tool = DynamicTool::new(
        "connect",
        "Connects.",
        json!({"type": "object"}),
        |_, cx| {
            let required = cx.url_required(URL, "Sign in to connect.");
            async move { ToolOutput::from(ToolError::from(required.unwrap())) }
        },
    );
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(tool)
        .build()
        .unwrap();
    crate::transport::http::serve_loopback(registry).await
}

/// Posts `body` in session `session` (2025-11-25), bounded (10 s): the session the answer names,
/// and the JSON-RPC message it holds (`Null` for none, as a notification's 202).
async fn post(addr: SocketAddr, body: &Value, session: Option<&str>) -> (Option<String>, Value) {
    let body = body.to_string();
    let session = session.map_or_else(String::new, |id| {
        format!("Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: 2025-11-25\r\n")
    });
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{session}Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let answer = tool_test_support::sessionless::exchange(addr, &request).await;
    let session = answer.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("mcp-session-id")
            .then(|| value.trim().to_owned())
    });
    let message = tool_test_support::sessionless::message(&answer).unwrap_or(Value::Null);
    (session, message)
}

#[tokio::test]
async fn a_handshake_client_with_url_mode_gets_32042_with_the_elicitations() {
    let (addr, stop) = serve().await;
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "connect", "arguments": {}}});
    for (capabilities, url_mode) in [
        (json!({"elicitation": {"url": {}}}), true),
        (json!({"elicitation": {}}), false),
    ] {
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": capabilities,
            "clientInfo": {"name": "raw", "version": "1"}}});
        let (session, _) = post(addr, &initialize, None).await;
        let session = session.expect("a session");
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        post(addr, &initialized, Some(&session)).await;
        let (_, answer) = post(addr, &call, Some(&session)).await;
        if !url_mode {
            // Told nothing in URL mode: the result's text names the URL.
            assert_eq!(answer["result"]["isError"], true, "{answer}");
            let text = answer["result"]["content"][0]["text"].as_str().unwrap();
            assert!(text.contains(URL), "{text}");
            continue;
        }
        let error = &answer["error"];
        assert_eq!(error["code"], -32042, "{answer}");
        assert!(error["message"].as_str().unwrap().contains(URL), "{error}");
        let elicitations = error["data"]["elicitations"].as_array().unwrap();
        assert_eq!(elicitations.len(), 1, "{error}");
        let elicitation = &elicitations[0];
        assert_eq!(elicitation["mode"], "url");
        assert_eq!(elicitation["url"], URL);
        assert_eq!(elicitation["message"], "Sign in to connect.");
        assert!(elicitation["elicitationId"]
            .as_str()
            .unwrap()
            .starts_with("elicitation-"));
    }
    stop.cancel();
}

#[tokio::test]
async fn a_2026_client_gets_a_url_mode_input_request_then_the_text() {
    let (addr, stop) = serve().await;
    let capabilities = json!({"elicitation": {"url": {}}});
    let params = json!({"name": "connect", "arguments": {}});
    let first = tool_test_support::sessionless::post(
        addr,
        "tools/call",
        params.clone(),
        capabilities.clone(),
    )
    .await;
    // 2026-07-28 has no -32042: the interaction is an input request.
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    let request = &result["inputRequests"]["elicitation-1"];
    assert_eq!(request["method"], "elicitation/create", "{first}");
    assert_eq!(request["params"]["mode"], "url");
    assert_eq!(request["params"]["url"], URL);
    assert_eq!(request["params"]["message"], "Sign in to connect.");
    // 2026-07-28 has no `elicitationId` (rmcp writes it empty).
    assert_eq!(
        request["params"]["elicitationId"]
            .as_str()
            .unwrap_or_default(),
        ""
    );
    // The user went; the tool still needs it: the model is told, not asked again.
    let mut retry = params;
    retry["inputResponses"] = json!({"elicitation-1": {"action": "accept"}});
    retry["requestState"] = result["requestState"].clone();
    let second =
        tool_test_support::sessionless::post(addr, "tools/call", retry, capabilities).await;
    assert_eq!(second["result"]["isError"], true, "{second}");
    let text = second["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains(URL), "{text}");
    stop.cancel();
}
