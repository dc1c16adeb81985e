//! The floor for the agent-loop bench: the same two requests written by hand, with the HTTP
//! client both frameworks use (reqwest) and `serde_json`, no framework. The tool list is
//! written once as JSON text and copied into each body; the call runs through
//! `baseline::call`. It shows how much of a turn is the HTTP exchange itself.

use crate::baseline;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// How many calls the hand-written loop has run.
pub static CALLS: AtomicUsize = AtomicUsize::new(0);

/// A hand-written loop against `{base_url}/chat/completions`.
pub struct Loop {
    client: reqwest::Client,
    url: String,
    tools: Box<RawValue>,
}

/// What one run gives back.
pub struct LoopReply {
    /// The final answer's text.
    pub text: String,
    /// The model requests the run made.
    pub requests: usize,
}

impl Loop {
    /// The loop, offering `search` and `tools - 1` fillers with the same schema (the tool list
    /// as our registry exports it for Chat Completions).
    pub fn new(base_url: &str, tools: usize) -> Loop {
        // As in `agent_rig`: reqwest needs a process-wide TLS provider to build a client.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let registry = crate::agent_ours::registry(crate::agent_ours::SearchKind::Inline, tools);
        let export = registry
            .export(tool_runtime::Provider::OpenAiChat)
            .raw_json();
        Loop {
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .expect("a reqwest client"),
            url: format!("{base_url}/chat/completions"),
            tools: RawValue::from_string(export.get().to_owned()).expect("the export is JSON"),
        }
    }

    async fn post(&self, messages: &[&Value]) -> Value {
        #[derive(serde::Serialize)]
        struct Body<'a> {
            model: &'a str,
            messages: &'a [&'a Value],
            tools: &'a RawValue,
        }
        let body = serde_json::to_vec(&Body {
            model: "scripted",
            messages,
            tools: &self.tools,
        })
        .expect("a body");
        let response = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .bearer_auth("scripted")
            .body(body)
            .send()
            .await
            .expect("the request is sent");
        assert!(response.status().is_success(), "{}", response.status());
        let bytes = response.bytes().await.expect("the reply is read");
        serde_json::from_slice(&bytes).expect("the reply is JSON")
    }

    /// One run: the prompt, the call, the result, the final answer.
    pub async fn run(&self, prompt: &str) -> LoopReply {
        let user = json!({"role": "user", "content": prompt});
        let mut reply = self.post(&[&user]).await;
        let message = reply["choices"][0]["message"].take();
        let call = &message["tool_calls"][0];
        let name = call["function"]["name"].as_str().expect("a call's name");
        let arguments = call["function"]["arguments"]
            .as_str()
            .expect("a call's arguments");
        let output = baseline::call(name, arguments).unwrap_or_else(|e| e);
        CALLS.fetch_add(1, Ordering::Relaxed);
        let result = json!({"role": "tool", "tool_call_id": call["id"], "content": output});
        let mut reply = self.post(&[&user, &message, &result]).await;
        let text = match reply["choices"][0]["message"]["content"].take() {
            Value::String(text) => text,
            other => panic!("no final text: {other}"),
        };
        LoopReply { text, requests: 2 }
    }
}
