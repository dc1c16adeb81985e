//! OpenAI Chat Completions (`POST {base}/chat/completions`): OpenAI itself, and every
//! OpenAI-compatible server (vLLM, llama.cpp's server, Ollama, LM Studio, SGLang, TensorZero's
//! and LiteLLM's OpenAI endpoints).

use super::body::{Body, Field};
use super::read::{event, sse_data};
use super::send::Auth;
use super::{http_transport, Http, Wire};
use crate::agent::model::{ModelDelta, OnDelta};
use crate::agent::{ModelError, ModelReply, ModelRequest, Usage};
use crate::results::call_turn;
use crate::router::stream::{Accumulate, OpenAiChatStream};
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

    /// The request body.
    pub(crate) fn body(&self, request: &ModelRequest<'_>, stream: bool) -> Vec<u8> {
        let system = request
            .system
            .map(|text| json!({"role": "system", "content": text}));
        let mut fields = vec![
            ("model", Field::Str(&self.http.model)),
            ("messages", Field::List(system, request.messages)),
        ];
        if let Some(tools) = request.tools {
            fields.push(("tools", Field::Raw(tools)));
        }
        if stream {
            fields.push(("stream", Field::Bool(true)));
            fields.push((
                "stream_options",
                Field::Value(json!({"include_usage": true})),
            ));
        }
        Body {
            fields,
            extra: &self.http.extra,
        }
        .to_vec()
    }
}

/// A whole reply.
fn whole(value: &Value) -> Result<ModelReply, ModelError> {
    let routed = super::route_body(Provider::OpenAiChat, value, "choices", "a list of choices")?;
    Ok(ModelReply {
        turn: call_turn(Provider::OpenAiChat, &routed.text, &routed.calls),
        usage: Usage::read(value.get("usage"), "prompt_tokens", "completion_tokens"),
        routed,
    })
}

impl Wire for OpenAiChat {
    const PROVIDER: Provider = Provider::OpenAiChat;
    const AUTH: Auth = Auth::Bearer;
    const HEADERS: &'static [(&'static str, &'static str)] = &[];

    fn http(&self) -> &Http {
        &self.http
    }

    fn url(&self, _stream: bool) -> String {
        self.http.url("/chat/completions")
    }

    fn body(&self, request: &ModelRequest<'_>, stream: bool) -> Vec<u8> {
        self.body(request, stream)
    }

    fn whole(value: &Value) -> Result<ModelReply, ModelError> {
        whole(value)
    }

    async fn events(
        &self,
        url: &str,
        response: reqwest::Response,
        on_delta: &mut OnDelta<'_>,
    ) -> Result<ModelReply, ModelError> {
        let mut stream = OpenAiChatStream::new();
        let mut usage = Usage::default();
        let mut finished = false;
        let received = self
            .http
            .read_lines(url, response, |line| {
                if line.trim() == "data: [DONE]" {
                    finished = true;
                }
                let Some(data) = sse_data(line) else {
                    return Ok(());
                };
                let event = event(data)?;
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
                        on_delta(ModelDelta::CallStarted {
                            id: id.to_owned(),
                            name: name.to_owned(),
                        });
                    }
                }
                finished |= !choice["finish_reason"].is_null();
                for done in stream.push(&event)? {
                    on_delta(done.into());
                }
                Ok(())
            })
            .await?;
        if !finished {
            return Err(ModelError::StreamCut { received });
        }
        let routed = stream.finish();
        Ok(ModelReply {
            turn: call_turn(Provider::OpenAiChat, &routed.text, &routed.calls),
            routed,
            usage,
        })
    }
}
