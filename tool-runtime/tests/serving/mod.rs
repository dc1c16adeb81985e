//! What the tests that serve a registry over MCP and import it back share: a server on
//! 127.0.0.1, a bound on every wait, and a scripted client on the importing side.
// Each test binary that includes it uses a part of it.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::future::Future;
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
