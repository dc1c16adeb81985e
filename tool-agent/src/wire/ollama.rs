//! `agent::Ollama`: `POST {base}/api/chat`, whole (`"stream": false`) or as
//! newline-delimited JSON.

use crate::error::ModelError;
use crate::model::{ModelReply, ModelRequest, OnDelta, Usage};
use crate::providers::ollama::stream::OllamaStream;
use crate::router::routed::Routed;
use crate::router::stream::accumulate::{Accumulate, StreamEvent};
use crate::transport::body::Field;
use crate::transport::read::{started, End};
use crate::transport::send::Auth;
use crate::transport::{http_transport, Http, Wire};
use crate::Provider;
use serde_json::Value;

/// A model served by Ollama, through its native chat API.
///
/// ```no_run
/// use serde_json::json;
/// use tool_runtime::agent::Ollama;
///
/// let local = Ollama::new("http://127.0.0.1:11434", "qwen3")
///     .body_field("options", json!({"temperature": 0.2, "num_ctx": 8192}));
/// let cloud = Ollama::new("https://ollama.com", "gpt-oss:120b");
/// # let _ = (local, cloud);
/// ```
///
/// The base URL is the server's, before `/api/chat`. No key is needed locally; for
/// ollama.com the key is read from `OLLAMA_API_KEY` when it is set and sent as a bearer
/// token. The system prompt goes first as a `system` message. Every request says `stream`,
/// since Ollama streams unless told not to; a streamed reply is newline-delimited JSON,
/// complete at its `"done": true` line. The model's thinking (`message.thinking`) goes back
/// with its turn.
#[derive(Debug)]
pub struct Ollama {
    http: Http,
}

http_transport!(Ollama);

impl Ollama {
    /// A model named `model` (for example `qwen3:8b`) on the Ollama server at `base_url`
    /// (for example `http://127.0.0.1:11434`).
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Ollama {
        Ollama {
            http: Http::new(base_url, model, "OLLAMA_API_KEY"),
        }
    }
}

impl Wire for Ollama {
    const PROVIDER: Provider = Provider::Ollama;
    const AUTH: Auth = Auth::Bearer;
    const PATH: &'static str = "/api/chat";
    const REPLY: (&'static str, &'static str) = ("message", "the model's message");
    const STREAM_TYPE: &'static str = "application/x-ndjson";

    fn body(&self, request: &ModelRequest<'_>, stream: bool) -> Vec<u8> {
        let mut fields = self.http.chat_fields(request, None);
        fields.push(("stream", Field::Bool(stream)));
        self.http.body(fields)
    }

    /// The reply's `message` as it came (thinking and call ids kept), as Ollama's docs append
    /// it to the history.
    fn turn(value: &Value, routed: &Routed) -> Vec<Value> {
        match value.get("message") {
            Some(message @ Value::Object(_)) => vec![message.clone()],
            _ => vec![crate::providers::ollama::results::call_turn(
                &routed.text,
                &routed.calls,
            )],
        }
    }

    fn usage(value: &Value) -> Usage {
        Usage::read(Some(value), "prompt_eval_count", "eval_count")
    }

    async fn events(
        &self,
        url: &str,
        response: reqwest::Response,
        on_delta: &mut OnDelta<'_>,
    ) -> Result<ModelReply, ModelError> {
        let mut stream = OllamaStream::new();
        let mut usage = Usage::default();
        let mut thinking = String::new();
        self.http
            .read_events(url, response, End::Event, |line| {
                // A call comes whole, so it starts and completes at once; its id is the one
                // the accumulator gave it when the server sent none.
                for event in stream.push(&line)? {
                    if let StreamEvent::Call(call) = &event {
                        on_delta(started(&call.id, &call.name));
                    }
                    on_delta(event.into());
                }
                if let Some(part) = line["message"]["thinking"].as_str() {
                    thinking.push_str(part);
                }
                if stream.is_done() {
                    usage = Self::usage(&line);
                }
                Ok(stream.is_done())
            })
            .await?;
        let routed = stream.finish();
        let mut turn = crate::providers::ollama::results::call_turn(&routed.text, &routed.calls);
        if !thinking.is_empty() {
            turn["thinking"] = thinking.into();
        }
        Ok(ModelReply {
            turn: vec![turn],
            routed,
            usage,
        })
    }
}
