//! What one MCP client may make a server keep or do with resources, and what an imported
//! server may send our user (issue 33, items 5, 9, 10): subscriptions only to URIs the
//! registry serves, a bounded number of them per session; a template's variable that
//! decodes to a path refused before the reader runs; a link from an imported server that
//! would not open what it reads as never reaching the user. Each test failed on the code
//! before its fix.
#![cfg(feature = "mcp")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientResult, ContentBlock,
    ElicitRequest, ElicitRequestParams, ErrorData, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ResourceUpdatedNotificationParam, ServerCapabilities, ServerConfig,
    ServerRequest, SubscribeRequestParams, Tool,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient, RoleServer, ServiceError};
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::{ClientHandler, ServerHandler};
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tool_runtime::client::Client;
use tool_runtime::mcp::{McpImport, McpServer};
use tool_runtime::resources::{Contents, Resource, ResourceTemplate, VariableValues};
use tool_runtime::Registry;

mod serving;
use serving::{bounded, Scripted};

/// A client that keeps the URIs it is told were updated.
#[derive(Clone, Default)]
struct Updates(Arc<Mutex<Vec<String>>>);

impl ClientHandler for Updates {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _cx: NotificationContext<RoleClient>,
    ) {
        self.0.lock().unwrap().push(params.uri);
    }
}

/// `client` connected to `server` over an in-memory stream pair.
async fn connect<C: ClientHandler>(
    server: McpServer,
    client: C,
) -> rmcp::service::RunningService<RoleClient, C> {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(server_io);
    tokio::spawn(server.serve_io(sr, sw));
    let (cr, cw) = tokio::io::split(client_io);
    bounded(10, rmcp::ServiceExt::serve(client, (cr, cw)))
        .await
        .expect("handshake")
}

/// A registry with one fixed resource and one template, each counting its reads.
fn registry(reads: &Arc<AtomicUsize>) -> Registry {
    let counted = Arc::clone(reads);
    let templated = Arc::clone(reads);
    Registry::builder()
        .without_inventory()
        .resource(Resource::new("memo://today", "today", move || {
            counted.fetch_add(1, Ordering::SeqCst);
            async { Ok(Contents::text("Ship it.")) }
        }))
        .resource_template(ResourceTemplate::new(
            "file:///docs/{name}",
            "doc",
            move |vars| {
                templated.fetch_add(1, Ordering::SeqCst);
                async move { Ok(Contents::text(format!("the doc {}", &vars["name"]))) }
            },
        ))
        .build()
        .unwrap()
}

/// The JSON-RPC error code of a failed request.
fn code(error: ServiceError) -> i32 {
    match error {
        ServiceError::McpError(error) => error.code.0,
        other => panic!("not an MCP error: {other}"),
    }
}

/// Item 5: 400 subscriptions to 1 MB URIs nothing serves grew the process by 394 MB. Now
/// a URI nothing serves is `-32002`, one over the URI limit `-32602`, and a session's
/// subscriptions stop at 256; what is served still hears its updates.
#[tokio::test]
#[allow(deprecated)] // `resources/subscribe`: legacy, and the 2025-11-25 way.
async fn a_session_subscribes_only_to_what_is_served_and_only_so_many() {
    let reads = Arc::default();
    let registry = registry(&reads);
    let resources = Arc::clone(registry.resources());
    let updates = Updates::default();
    let client = connect(McpServer::new(registry), updates.clone()).await;
    let subscribe = |uri: String| {
        let peer = client.peer().clone();
        async move { bounded(10, peer.subscribe(SubscribeRequestParams::new(uri))).await }
    };

    let nothing = subscribe("memo://nothing-serves-this".into()).await;
    assert_eq!(code(nothing.unwrap_err()), -32002);
    let huge = format!("memo://{}", "x".repeat(1 << 20));
    assert_eq!(code(subscribe(huge).await.unwrap_err()), -32602);
    let escaping = subscribe("file:///docs/..%2F..%2Fetc%2Fpasswd".into()).await;
    assert_eq!(code(escaping.unwrap_err()), -32602);

    subscribe("memo://today".into()).await.unwrap();
    for n in 1..256 {
        subscribe(format!("file:///docs/{n}.md")).await.unwrap();
    }
    // The 257th is refused; one already kept is no new one.
    let past = subscribe("file:///docs/257.md".into()).await;
    assert_eq!(code(past.unwrap_err()), -32602);
    subscribe("file:///docs/1.md".into()).await.unwrap();

    resources.updated("memo://nothing-serves-this");
    resources.updated("file:///docs/257.md");
    resources.updated("memo://today");
    bounded(10, async {
        while updates.0.lock().unwrap().is_empty() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert_eq!(*updates.0.lock().unwrap(), ["memo://today"]);
    assert_eq!(
        reads.load(Ordering::SeqCst),
        0,
        "a subscription reads nothing"
    );
}

/// Item 10: `{name}` matched `..%2F..%2Fetc%2Fpasswd` and the reader got `../../etc/passwd`
/// (and `a%00b` as `a\0b`). Now the read is `-32602` and the reader never runs, unless the
/// template opted in.
#[tokio::test]
async fn a_value_that_decodes_to_a_path_never_reaches_the_reader() {
    let reads = Arc::default();
    let client = connect(McpServer::new(registry(&reads)), ()).await;
    let read = |uri: &str| {
        let peer = client.peer().clone();
        let uri = uri.to_owned();
        async move { bounded(10, peer.read_resource(ReadResourceRequestParams::new(uri))).await }
    };
    for uri in [
        "file:///docs/..%2F..%2Fetc%2Fpasswd",
        "file:///docs/..",
        "file:///docs/%2E%2E",
        "file:///docs/a%00b",
        "file:///docs/a%5C..%5Cb",
    ] {
        let error = read(uri).await.unwrap_err();
        assert_eq!(code(error), -32602, "{uri}");
    }
    assert_eq!(reads.load(Ordering::SeqCst), 0);
    let long = format!("file:///docs/{}", "a".repeat(16 * 1024));
    assert_eq!(code(read(&long).await.unwrap_err()), -32602);
    read("file:///docs/guide%20one.md").await.unwrap();
    assert_eq!(reads.load(Ordering::SeqCst), 1);

    // Opted in: a relative path, never a `..` segment.
    let paths = Registry::builder()
        .without_inventory()
        .resource_template(
            ResourceTemplate::new("file:///{path}", "file", |vars| async move {
                Ok(Contents::text(vars["path"].to_owned()))
            })
            .variable_values("path", VariableValues::Path),
        )
        .build()
        .unwrap();
    let read = paths.resources().read("file:///docs%2Fa.md").await.unwrap();
    assert_eq!(
        read[0].body,
        tool_runtime::output::ResourceBody::Text {
            text: "docs/a.md".into()
        }
    );
    assert!(paths
        .resources()
        .read("file:///docs%2F..%2F..%2Fx")
        .await
        .is_err());
    // An opt-in naming no variable is a build error, not a silent default.
    let typo = Registry::builder()
        .without_inventory()
        .resource_template(
            ResourceTemplate::new("file:///{path}", "file", |_| async {
                Ok(Contents::text(""))
            })
            .variable_values("paht", VariableValues::Path),
        )
        .build();
    assert!(typo.is_err());
}

/// A server that, on `sign_in`, asks its client to send the user to the URL the call names.
#[derive(Clone)]
struct Linker;

impl ServerHandler for Linker {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _cx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tool: Tool = serde_json::from_value(json!({
            "name": "sign_in", "description": "Sends the user to a page.",
            "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}},
                            "required": ["url"]}
        }))
        .unwrap();
        Ok(ListToolsResult::with_all_items(vec![tool]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let url = request.arguments.unwrap()["url"]
            .as_str()
            .unwrap()
            .to_owned();
        let params = ElicitRequestParams::UrlElicitationParams {
            meta: None,
            message: "Sign in.".into(),
            url,
            elicitation_id: "remote-1".into(),
        };
        let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
        let said = match cx.peer.send_request(request).await {
            Ok(ClientResult::ElicitResult(answer)) => format!("answered {:?}", answer.action),
            Ok(other) => format!("answered {other:?}"),
            Err(error) => format!("refused: {error}"),
        };
        let text = ContentBlock::text(said);
        Ok(CallToolResponse::from(CallToolResult::success(vec![text])))
    }
}

/// Serves [`Linker`] over streamable HTTP on 127.0.0.1; gives its URL.
async fn serve_linker() -> String {
    let addr = serving::serve_rmcp(Linker, StreamableHttpServerConfig::default()).await;
    format!("http://{addr}/mcp")
}

/// Item 9, the import: an imported server's URL-mode elicitation reached our user with any
/// URL a local tool could not send. Now the server's URL passes the same check, or the
/// server is told `-32602` and our client is asked nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_servers_unsafe_link_never_reaches_the_user() {
    let url = serve_linker().await;
    let tools = bounded(30, McpImport::http(&url).named("far").connect())
        .await
        .unwrap();
    let registry = Registry::builder()
        .without_inventory()
        .mcp_tools(tools)
        .build()
        .unwrap();
    let user = Scripted::new("", json!({}));
    let client = Client::new(user.clone());
    for unsafe_link in [
        "javascript:alert(document.cookie)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "http://example.com/sign-in",
        "https://accounts.example@evil.example/",
        "https://example.com\u{200b}.evil.example/",
        "https://exa\u{2060}mple.com/",
        "https://pay\u{ad}pal.com/",
    ] {
        let args = json!({ "url": unsafe_link }).to_string();
        let out = bounded(
            30,
            client.clone().scope(registry.call("far__sign_in", &args)),
        )
        .await;
        let text = out.to_model_text();
        assert!(text.starts_with("refused: "), "{unsafe_link:?}: {text}");
        assert!(text.contains("-32602"), "{unsafe_link:?}: {text}");
    }
    assert!(user.asked.lock().unwrap().is_empty());

    // A link that opens what it reads as still goes through.
    let args = json!({ "url": "https://accounts.example/sign-in?state=1" }).to_string();
    let out = bounded(30, client.scope(registry.call("far__sign_in", &args))).await;
    assert_eq!(out.to_model_text(), "answered Accept");
    let asked = user.asked.lock().unwrap();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0]["url"], "https://accounts.example/sign-in?state=1");
}
