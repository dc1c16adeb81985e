//! MCP at its edges, against hand-written rmcp servers and clients: schemas other SDKs write
//! (draft-07 tuples, a root `$ref`), text beside `structuredContent`, names a local tool has,
//! a forwarded call given up, one log level per client, a huge page size, dotted tool names.
//! Each test failed on the code before the fix it guards. (The session cap's test is in
//! `mcp/http.rs`, beside the cap's other test.)
#![cfg(feature = "mcp")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::ServerHandler;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tool_runtime::mcp::{McpImport, McpServer};
use tool_runtime::{DynamicTool, Registry, ToolOutput};

mod serving;
use serving::bounded;

/// `client` connected to `server` over an in-memory stream pair.
async fn connect<C: rmcp::ClientHandler>(
    server: McpServer,
    client: C,
) -> rmcp::service::RunningService<rmcp::service::RoleClient, C> {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_io);
    tokio::spawn(server.serve_io(sr, sw));
    let (cr, cw) = tokio::io::split(client_io);
    bounded(10, rmcp::ServiceExt::serve(client, (cr, cw)))
        .await
        .expect("handshake")
}

/// A hand-written MCP server: a fixed tool list, and a fixed result per tool name.
#[derive(Clone)]
struct Canned {
    tools: Arc<Vec<Value>>,
    results: Arc<Vec<(String, Value)>>,
    /// Set when a call marked `{"stall": true}` is cancelled by the client.
    cancelled: Arc<std::sync::atomic::AtomicBool>,
}

impl ServerHandler for Canned {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools: Vec<Tool> = self
            .tools
            .iter()
            .map(|t| serde_json::from_value(t.clone()).unwrap())
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let result = self
            .results
            .iter()
            .find(|(name, _)| name.as_str() == request.name.as_ref())
            .map(|(_, result)| result.clone())
            .ok_or_else(|| ErrorData::invalid_params("no such tool", None))?;
        if result.get("stall").is_some() {
            tokio::select! {
                () = _cx.ct.cancelled() => {
                    self.cancelled.store(true, std::sync::atomic::Ordering::SeqCst);
                }
                () = tokio::time::sleep(Duration::from_secs(20)) => {}
            }
            return Ok(CallToolResponse::from(CallToolResult::success(vec![])));
        }
        let result: CallToolResult = serde_json::from_value(result).unwrap();
        Ok(CallToolResponse::from(result))
    }
}

/// Serves `handler` over streamable HTTP on a free loopback port; its URL.
async fn serve_canned(tools: Vec<Value>, results: Vec<(&str, Value)>) -> String {
    serve_canned_with(tools, results, Arc::default()).await
}

async fn serve_canned_with(
    tools: Vec<Value>,
    results: Vec<(&str, Value)>,
    cancelled: Arc<std::sync::atomic::AtomicBool>,
) -> String {
    let handler = Canned {
        cancelled,
        tools: Arc::new(tools),
        results: Arc::new(
            results
                .into_iter()
                .map(|(n, r)| (n.to_owned(), r))
                .collect(),
        ),
    };
    let addr = serving::serve_rmcp(handler, StreamableHttpServerConfig::default()).await;
    format!("http://{addr}/mcp")
}

/// Imports the canned server's tools into a registry.
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

/// Draft-07 tuple arrays (`items: [...]`, `additionalItems`), as zod-to-json-schema and other
/// draft-07 generators write them. Draft-07 markers are removed on the way in, so the schema
/// must be rewritten to its 2020-12 meaning (`prefixItems`, `items`); left as is, the import
/// either fails to build or checks nothing.
#[tokio::test]
async fn a_draft07_tuple_schema_is_imported_with_its_meaning() {
    let url = serve_canned(
        vec![json!({"name": "move", "inputSchema": {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"to": {
                "type": "array",
                "items": [{"type": "number"}, {"type": "number"}],
                "additionalItems": false,
                "minItems": 2
            }},
            "required": ["to"]
        }})],
        vec![(
            "move",
            json!({"content": [{"type": "text", "text": "moved"}]}),
        )],
    )
    .await;
    let tools = bounded(30, McpImport::http(&url).named("s").connect())
        .await
        .expect("connect");
    let registry = Registry::builder()
        .without_inventory()
        .mcp_tools(tools)
        .build();
    let registry = match registry {
        Ok(registry) => registry,
        Err(error) => panic!("a valid draft-07 tuple schema was refused at build: {error}"),
    };
    let good = bounded(30, registry.call("s__move", r#"{"to": [1, 2]}"#)).await;
    assert_eq!(good, ToolOutput::text("moved"), "a good call");
    let bad = bounded(30, registry.call("s__move", r#"{"to": [1, 2, 3]}"#)).await;
    assert!(
        bad.is_error(),
        "a third item breaks `additionalItems: false` but the call went through: {bad:?}"
    );
}

/// A server may send a human-readable text beside `structuredContent`; the rustdoc of the
/// import says JSON is used only when the content is the text copy of it.
#[tokio::test]
async fn text_beside_structured_content_is_not_lost() {
    let url = serve_canned(
        vec![json!({"name": "weather", "inputSchema": {"type": "object"}})],
        vec![(
            "weather",
            json!({
                "content": [{"type": "text", "text": "Sunny in Paris; carry sunscreen."}],
                "structuredContent": {"temp_c": 24}
            }),
        )],
    )
    .await;
    let registry = import(&url).await;
    let out = bounded(30, registry.call("s__weather", "{}")).await;
    assert!(
        out.to_model_text().contains("sunscreen"),
        "the server's text was dropped; the model reads only {:?}",
        out.to_model_text()
    );
}

/// README: names are "given a hash when two tools would share a name".
#[tokio::test]
async fn an_imported_name_that_a_local_tool_has_gets_a_hash() {
    let url = serve_canned(
        vec![json!({"name": "t", "inputSchema": {"type": "object"}})],
        vec![(
            "t",
            json!({"content": [{"type": "text", "text": "remote"}]}),
        )],
    )
    .await;
    let local = DynamicTool::new(
        "s__t",
        "A local tool.",
        json!({"type": "object"}),
        |_, _| async { ToolOutput::text("local") },
    );
    let built = bounded(
        30,
        Registry::builder()
            .without_inventory()
            .dynamic(local)
            .mcp(McpImport::http(&url).named("s"))
            .build_async(),
    )
    .await;
    let registry = match built {
        Ok(registry) => registry,
        Err(error) => panic!("an imported tool named like a local one failed the build: {error}"),
    };
    assert_eq!(registry.call("s__t", "{}").await, ToolOutput::text("local"));
}

/// `page_size(usize::MAX)` ("no pages") and a cursor from the client.
#[tokio::test]
async fn a_huge_page_size_and_a_cursor_do_not_panic() {
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(DynamicTool::new(
            "a",
            "A.",
            json!({"type": "object"}),
            |_, _| async { ToolOutput::text("") },
        ))
        .dynamic(DynamicTool::new(
            "b",
            "B.",
            json!({"type": "object"}),
            |_, _| async { ToolOutput::text("") },
        ))
        .build()
        .unwrap();
    let client = connect(McpServer::new(registry).page_size(usize::MAX), ()).await;
    let mut params = PaginatedRequestParams::default();
    params.cursor = Some("1".to_owned());
    let page = tokio::time::timeout(
        Duration::from_secs(10),
        client.peer().list_tools(Some(params)),
    )
    .await;
    let page = page.expect("tools/list with a cursor got no answer (the handler panicked)");
    let page = page.expect("tools/list");
    assert_eq!(page.tools.len(), 1);
}

/// Cancelling a forwarded call (what `McpServer` does on the client's
/// `notifications/cancelled`, and what a registry timeout does) must reach the remote server:
/// otherwise the remote tool keeps running after everyone stopped waiting for it.
#[tokio::test]
async fn cancelling_a_forwarded_call_tells_the_remote_server() {
    let cancelled = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let url = serve_canned_with(
        vec![json!({"name": "slow", "inputSchema": {"type": "object"}})],
        vec![("slow", json!({"stall": true}))],
        Arc::clone(&cancelled),
    )
    .await;
    let registry = import(&url).await;
    let stop = tool_runtime::pipeline::CancellationToken::new();
    let call = tool_runtime::ToolCall::new("1", "s__slow", "{}");
    let cancel = stop.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        cancel.cancel();
    });
    let outputs = bounded(30, registry.call_all([call]).until(&stop)).await;
    assert!(outputs[0].is_error(), "{:?}", outputs[0]);
    // Give the notification time to arrive.
    for _ in 0..40 {
        if cancelled.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the call was cancelled here, but the remote server was never told (no notifications/cancelled): its tool is still running");
}

/// A root `$ref` schema (Go's invopop/jsonschema writes them by default): the import adds
/// `properties: {}` beside the `$ref`, and the OpenAI strict export then sends a root with no
/// properties and `additionalProperties: false`: every real call breaks the schema the model
/// is constrained to.
#[tokio::test]
async fn a_root_ref_schema_exports_a_strict_schema_that_takes_its_arguments() {
    let url = serve_canned(
        vec![json!({"name": "t", "inputSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": "#/$defs/Args",
            "$defs": {"Args": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
                "additionalProperties": false
            }}
        }})],
        vec![("t", json!({"content": [{"type": "text", "text": "ok"}]}))],
    )
    .await;
    let registry = import(&url).await;
    assert_eq!(
        bounded(30, registry.call("s__t", r#"{"city": "Paris"}"#)).await,
        ToolOutput::text("ok"),
        "the call itself is good"
    );
    let export = registry
        .export(tool_runtime::Provider::OpenAiChat)
        .strict(true)
        .to_value();
    let function = &export[0]["function"];
    if function["strict"] == true {
        let parameters = &function["parameters"];
        let validator = jsonschema::validator_for(parameters).unwrap();
        assert!(
            validator.is_valid(&json!({"city": "Paris"})),
            "the strict schema sent to OpenAI refuses the only valid call: {parameters}"
        );
    }
}

/// MCP tool names may hold dots (`files.delete`). A call to a tool the server doesn't have
/// (`trash.delete`) is the spec's `-32602` (README), not a run of another tool.
#[tokio::test]
async fn a_call_to_another_namespace_does_not_run_a_different_tool() {
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(DynamicTool::new(
            "files.delete",
            "Delete a file.",
            json!({"type": "object"}),
            |_, _| async { ToolOutput::text("files.delete ran") },
        ))
        .build()
        .unwrap();
    let client = connect(McpServer::new(registry), ()).await;
    let answer = bounded(
        10,
        client
            .peer()
            .call_tool(CallToolRequestParams::new("trash.delete")),
    )
    .await;
    assert!(
        answer.is_err(),
        "a call to the unknown `trash.delete` ran `files.delete`: {answer:?}"
    );
}

/// A client that keeps the log lines the server sends it.
#[derive(Clone, Default)]
struct LogClient(Arc<std::sync::Mutex<Vec<String>>>);

impl rmcp::ClientHandler for LogClient {
    #[allow(deprecated)]
    async fn on_logging_message(
        &self,
        params: rmcp::model::LoggingMessageNotificationParam,
        _cx: rmcp::service::NotificationContext<rmcp::service::RoleClient>,
    ) {
        self.0.lock().unwrap().push(params.data.to_string());
    }
}

/// `serve_io` serves "one client over a byte stream pair (a socket's halves...)": serving
/// several sockets means cloning the `McpServer`. The log level is "one per session"
/// (`McpServer::log_level`), but clones share it: one client's `logging/setLevel` silences
/// another client's logs.
#[tokio::test]
#[allow(deprecated)]
async fn one_clients_log_level_does_not_silence_another_client() {
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(DynamicTool::new(
            "work",
            "Work and say so.",
            json!({"type": "object"}),
            |_, cx| async move {
                cx.log(tool_runtime::output::LogLevel::Info, "working");
                ToolOutput::text("done")
            },
        ))
        .build()
        .unwrap();
    let server = McpServer::new(registry);
    let mut clients = Vec::new();
    let mut logs = Vec::new();
    for _ in 0..2 {
        let log = LogClient::default();
        logs.push(Arc::clone(&log.0));
        clients.push(connect(server.clone(), log).await);
    }
    // Client 0 wants errors only; client 1 never said, so it gets `info` and above.
    bounded(
        10,
        clients[0]
            .peer()
            .set_level(rmcp::model::SetLevelRequestParams::new(
                rmcp::model::LoggingLevel::Error,
            )),
    )
    .await
    .unwrap();
    let out = bounded(
        10,
        clients[1]
            .peer()
            .call_tool(CallToolRequestParams::new("work")),
    )
    .await
    .unwrap();
    assert_eq!(out.is_error, Some(false));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !logs[1].lock().unwrap().is_empty(),
        "client 1 got no `info` log line: client 0's `logging/setLevel error` applied to it too"
    );
}
