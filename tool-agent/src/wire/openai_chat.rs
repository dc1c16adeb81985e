//! OpenAI Chat Completions (`POST {base}/chat/completions`): OpenAI itself, and every
//! OpenAI-compatible server (vLLM, llama.cpp's server, Ollama, LM Studio, SGLang, TensorZero's
//! and LiteLLM's OpenAI endpoints).

use crate::error::ModelError;
use crate::model::OnDelta;
use crate::model::{ModelReply, ModelRequest, Usage};
use crate::providers::openai_chat::stream::OpenAiChatStream;
use crate::tool_choice::ToolChoice;
use crate::transport::body::Field;
use crate::transport::read::{accumulate, started, End};
use crate::transport::send::Auth;
use crate::transport::{http_transport, Http, Wire};

use crate::router::routed::Routed;
use crate::router::stream::accumulate::Accumulate;
use crate::Provider;
use serde_json::{json, Value};

/// A model behind the Chat Completions API.
///
/// ```no_run
/// use tool_runtime::agent::OpenAiChat;
///
/// let local = OpenAiChat::new("http://127.0.0.1:8000/v1", "Qwen/Qwen3-8B");
/// let openai = OpenAiChat::new("https://api.openai.com/v1", "gpt-5-mini")
///     .body_field("parallel_tool_calls", true.into());
/// # let _ = (local, openai);
/// ```
///
/// The key is read from `OPENAI_API_KEY` when it is set (see `api_key_env`). The system
/// prompt goes first as a `system` message; streamed requests ask for usage
/// (`stream_options.include_usage`).
#[derive(Debug)]
pub struct OpenAiChat {
    http: Http,
}

http_transport!(OpenAiChat);

impl OpenAiChat {
    /// A model named `model` at `base_url` (the part before `/chat/completions`, for example
    /// `http://127.0.0.1:8000/v1`).
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> OpenAiChat {
        OpenAiChat {
            http: Http::new(base_url, model, "OPENAI_API_KEY"),
        }
    }
}

impl Wire for OpenAiChat {
    const PROVIDER: Provider = Provider::OpenAiChat;
    const AUTH: Auth = Auth::Bearer;
    const PATH: &'static str = "/chat/completions";
    const REPLY: (&'static str, &'static str) = ("choices", "a list of choices");

    fn body(&self, request: &ModelRequest<'_>, stream: bool) -> Vec<u8> {
        // A prefill is the start of the assistant's turn: llama.cpp's server continues a final
        // assistant message (vLLM with `continue_final_message`).
        let prefill = request
            .prefill
            .map(|text| crate::messages::assistant(Self::PROVIDER, text));
        let mut fields = self.http.chat_fields(request, prefill);
        // llama.cpp's field, only when asked for: OpenAI's own API refuses fields it doesn't know.
        if let Some(grammar) = request.grammar {
            fields.push(("grammar", Field::Str(grammar)));
        }
        if let Some(choice) = request.tool_choice {
            let choice = match choice {
                ToolChoice::Tool(name) => json!({"type": "function", "function": {"name": name}}),
                other => json!(other.to_string()),
            };
            fields.push(("tool_choice", Field::Value(choice)));
        }
        if stream {
            fields.push(("stream", Field::Bool(true)));
            fields.push((
                "stream_options",
                Field::Value(json!({"include_usage": true})),
            ));
        }
        self.http.body(fields)
    }

    fn turn(_value: &Value, routed: &Routed) -> Vec<Value> {
        vec![crate::providers::openai_chat::results::call_turn(
            &routed.text,
            &routed.calls,
        )]
    }

    fn usage(value: &Value) -> Usage {
        Usage::read(value.get("usage"), "prompt_tokens", "completion_tokens")
    }

    async fn events(
        &self,
        url: &str,
        response: reqwest::Response,
        on_delta: &mut OnDelta<'_>,
    ) -> Result<ModelReply, ModelError> {
        let mut stream = OpenAiChatStream::new();
        let mut usage = Usage::default();
        self.http
            .read_events(url, response, End::EventOrDone, |event| {
                if event.get("usage").is_some_and(Value::is_object) {
                    usage = Usage::read(event.get("usage"), "prompt_tokens", "completion_tokens");
                }
                let choice = &event["choices"][0];
                for piece in choice["delta"]["tool_calls"]
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    if let (Some(id), Some(name)) =
                        (piece["id"].as_str(), piece["function"]["name"].as_str())
                    {
                        on_delta(started(id, name));
                    }
                }
                accumulate(&mut stream, &event, on_delta)?;
                Ok(!choice["finish_reason"].is_null())
            })
            .await?;
        let routed = stream.finish();
        Ok(ModelReply {
            turn: vec![crate::providers::openai_chat::results::call_turn(
                &routed.text,
                &routed.calls,
            )],
            routed,
            usage,
        })
    }
}
