//! The MCP import over streamable HTTP at its limits: an answer larger than the client takes,
//! and a server that redirects the client elsewhere. Each test failed on the code before its
//! fix.
#![cfg(feature = "mcp")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::ServerHandler;
use serde_json::json;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tool_runtime::mcp::McpImport;
use tool_runtime::Registry;

mod serving;
use serving::bounded;

/// A server with one tool, `big`, whose answer is a text of `bytes` bytes.
#[derive(Clone)]
struct Big {
    bytes: usize,
}

impl ServerHandler for Big {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tool: Tool =
            serde_json::from_value(json!({"name": "big", "inputSchema": {"type": "object"}}))
                .unwrap();
        Ok(ListToolsResult::with_all_items(vec![tool]))
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let text = "x".repeat(self.bytes);
        let result: CallToolResult =
            serde_json::from_value(json!({"content": [{"type": "text", "text": text}]})).unwrap();
        Ok(CallToolResponse::from(result))
    }
}

/// Serves `handler` with rmcp's streamable-HTTP service on a free loopback port (`json`: plain
/// JSON answers instead of SSE); its address.
async fn serve<H: ServerHandler + Clone>(handler: H, json: bool) -> SocketAddr {
    serving::serve_rmcp(
        handler,
        StreamableHttpServerConfig::default().with_json_response(json),
    )
    .await
}

async fn import(url: &str) -> Registry {
    let tools = bounded(30, McpImport::http(url).named("s").connect())
        .await
        .expect("connect");
    Registry::builder()
        .without_inventory()
        .mcp_tools(tools)
        .build()
        .expect("the imported tools build")
}

/// An answer over the client's 16 MiB limit is refused at once, with an error that says it was
/// too large and what the limit is, over SSE and over plain JSON; not waited for until the
/// call timeout and reported as "did not answer".
#[tokio::test]
async fn an_answer_over_the_size_limit_is_an_error_at_once() {
    for json in [false, true] {
        let addr = serve(Big { bytes: 20 << 20 }, json).await;
        let registry = import(&format!("http://{addr}/mcp")).await;
        let out = bounded(30, registry.call("s__big", "{}")).await;
        let text = out.to_model_text();
        assert!(
            out.is_error(),
            "json {json}: {}",
            &text[..text.len().min(200)]
        );
        assert!(text.contains("too large"), "json {json}: {text}");
        assert!(text.contains("16 MiB"), "json {json}: {text}");
    }
}

/// A listener that records the first bytes each connection sends (headers and body), and
/// answers nothing: where a redirect to another origin leads.
async fn recorder() -> (SocketAddr, Arc<std::sync::Mutex<Vec<u8>>>) {
    use tokio::io::AsyncReadExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let kept = Arc::clone(&seen);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let kept = Arc::clone(&kept);
            tokio::spawn(async move {
                let mut buffer = [0u8; 4096];
                while let Ok(read @ 1..) = stream.read(&mut buffer).await {
                    kept.lock().unwrap().extend_from_slice(&buffer[..read]);
                }
            });
        }
    });
    (addr, seen)
}

/// Serves MCP (the `Big` tool, small answers) at `/mcp`, and answers `307` at `/moved`
/// with `Location: {to}`; its address.
async fn serve_redirecting(
    to: impl Fn(SocketAddr) -> String + Send + Sync + 'static,
) -> SocketAddr {
    let service = StreamableHttpService::new(
        || Ok(Big { bytes: 2 }),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let to = Arc::new(to);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let service = service.clone();
            let to = Arc::clone(&to);
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(
                    move |request: hyper::Request<hyper::body::Incoming>| {
                        let service = service.clone();
                        let to = Arc::clone(&to);
                        async move {
                            if request.uri().path() == "/moved" {
                                let moved = hyper::Response::builder()
                                    .status(307)
                                    .header("location", to(addr))
                                    .body(Default::default())
                                    .unwrap();
                                return Ok::<_, std::convert::Infallible>(moved);
                            }
                            Ok(service.handle(request).await)
                        }
                    },
                );
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), handler)
                    .await;
            });
        }
    });
    addr
}

/// A server that redirects the import to another origin (a 307 keeps the method and the
/// body) gets an error naming the redirect; the other origin receives nothing, neither the
/// token nor the request. reqwest alone drops only `Authorization` there.
#[tokio::test]
async fn a_redirect_to_another_origin_is_refused_and_sends_nothing() {
    let (elsewhere, seen) = recorder().await;
    let addr = serve_redirecting(move |_| format!("http://{elsewhere}/mcp")).await;
    let connected = bounded(
        30,
        McpImport::http(format!("http://{addr}/moved"))
            .bearer_token("s3cret-token")
            .connect_timeout(Duration::from_secs(10))
            .connect(),
    )
    .await;
    // Let anything sent arrive before looking.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let sent = String::from_utf8_lossy(&seen.lock().unwrap()).into_owned();
    assert!(sent.is_empty(), "the other origin received: {sent}");
    let Err(error) = connected else {
        panic!("the connect through a cross-origin redirect succeeded");
    };
    // The reason is in the error's sources (reqwest's, then the import's refusal).
    let mut chain = error.to_string();
    let mut next = std::error::Error::source(&error);
    while let Some(cause) = next {
        chain.push_str(&format!(": {cause}"));
        next = cause.source();
    }
    assert!(chain.contains("another origin"), "{chain}");
}

/// A redirect within the same origin (scheme, host, port) is followed.
#[tokio::test]
async fn a_redirect_within_the_origin_is_followed() {
    let addr = serve_redirecting(|addr| format!("http://{addr}/mcp")).await;
    let tools = bounded(
        30,
        McpImport::http(format!("http://{addr}/moved"))
            .named("s")
            .connect(),
    )
    .await
    .expect("connect through a same-origin redirect");
    let registry = Registry::builder()
        .without_inventory()
        .mcp_tools(tools)
        .build()
        .unwrap();
    let out = bounded(30, registry.call("s__big", "{}")).await;
    assert_eq!(out.to_model_text(), "xx");
}
