//! What the tests that serve a registry over MCP and import it back share: a server on
//! 127.0.0.1, a bound on every wait, and a scripted client on the importing side.
// Each test binary that includes it uses a part of it.
#![allow(dead_code)]

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::ServerHandler;
use serde_json::{json, Value};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tool_runtime::client::{ClientCapabilities, ClientFuture, ClientRequests, NotifyFuture};
use tool_runtime::mcp::{HttpOptions, HttpServer, McpServer};
use tool_runtime::Registry;

/// `future`, which must end within `seconds`: a hang is a failure, not a stuck test.
pub(crate) async fn bounded<F: Future>(seconds: u64, future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(seconds), future)
        .await
        .unwrap_or_else(|_| panic!("took longer than {seconds} s"))
}

/// Serves `registry` over streamable HTTP on 127.0.0.1 (a free port), for as long as the
/// test's runtime runs; gives the URL.
pub(crate) async fn serve(registry: Registry) -> String {
    let server = HttpServer::bind(
        McpServer::new(registry),
        "127.0.0.1:0".parse().unwrap(),
        HttpOptions::default(),
    )
    .await
    .unwrap();
    let url = server.url();
    tokio::spawn(server.run());
    url
}

/// Serves `handler` with rmcp's own streamable-HTTP service (not ours: a server nobody here
/// wrote, for the import to meet) on a free loopback port, for as long as the test's runtime
/// runs; gives its address.
pub(crate) async fn serve_rmcp<H>(handler: H, config: StreamableHttpServerConfig) -> SocketAddr
where
    H: ServerHandler + Clone + Send + Sync + 'static,
{
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let service = service.clone();
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(move |request| {
                    let service = service.clone();
                    async move { Ok::<_, std::convert::Infallible>(service.handle(request).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), handler)
                    .await;
            });
        }
    });
    addr
}

/// The client of a call or read this side would serve: answers from a script, keeps what it
/// was asked and the elicitations it was told are complete.
#[derive(Clone)]
pub(crate) struct Scripted {
    pub(crate) asked: Arc<Mutex<Vec<Value>>>,
    pub(crate) completed: Arc<Mutex<Vec<String>>>,
    /// It declares sampling and form elicitation only (no URL mode, no `includeContext`).
    basic: bool,
    /// The model's message.
    sampled: &'static str,
    /// The form the user fills in.
    form: Value,
}

impl Scripted {
    /// A client whose model says `sampled` and whose user accepts with `form`.
    pub(crate) fn new(sampled: &'static str, form: Value) -> Scripted {
        Scripted {
            asked: Arc::default(),
            completed: Arc::default(),
            basic: false,
            sampled,
            form,
        }
    }

    /// The same client, declaring sampling and form elicitation only.
    pub(crate) fn basic(mut self) -> Scripted {
        self.basic = true;
        self
    }
}

impl ClientRequests for Scripted {
    fn capabilities(&self) -> ClientCapabilities {
        let mut capabilities = ClientCapabilities::all();
        if self.basic {
            capabilities.elicitation_url = false;
            capabilities.sampling_context = false;
        }
        capabilities
    }
    fn elicitation_complete(&self, elicitation_id: &str) -> NotifyFuture {
        let mut completed = self.completed.lock().unwrap();
        completed.push(elicitation_id.to_owned());
        Box::pin(async { Ok(()) })
    }
    fn create_message(&self, params: Value) -> ClientFuture {
        self.asked.lock().unwrap().push(params);
        let text = self.sampled;
        Box::pin(async move {
            Ok(
                json!({"role": "assistant", "content": {"type": "text", "text": text}, "model": "upstream-1"}),
            )
        })
    }
    fn elicit(&self, params: Value) -> ClientFuture {
        self.asked.lock().unwrap().push(params);
        let form = self.form.clone();
        Box::pin(async move { Ok(json!({"action": "accept", "content": form})) })
    }
}
