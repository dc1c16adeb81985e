//! Anthropic Messages (`POST {base}/messages`, with `anthropic-version: 2023-06-01`): the
//! system prompt as `system`, the model's content blocks sent back as they came (thinking
//! blocks and their signatures included, as the API requires when tools are used).

use crate::error::ModelError;
use crate::model::OnDelta;
use crate::model::{ModelReply, ModelRequest, Usage};
use crate::providers::anthropic::stream::AnthropicStream;
use crate::router::routed::Routed;
use crate::router::stream::accumulate::Accumulate;
use crate::tool_choice::ToolChoice;
use crate::transport::body::Field;
use crate::transport::read::{accumulate, started, End};
use crate::transport::send::Auth;
use crate::transport::{http_transport, Http, Wire};
use crate::Provider;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The API version the transport speaks.
const VERSION: (&str, &str) = ("anthropic-version", "2023-06-01");

/// `max_tokens` is required by the API; this is sent unless a body field sets it.
const DEFAULT_MAX_TOKENS: u32 = 4096;

/// A model behind Anthropic's Messages API (or a gateway that speaks it, such as LiteLLM's
/// proxy).
///
/// ```no_run
/// use tool_runtime::agent::Anthropic;
///
/// let model = Anthropic::new("https://api.anthropic.com/v1", "claude-sonnet-4-5")
///     .body_field("max_tokens", 8192.into());
/// # let _ = model;
/// ```
///
/// The key is read from `ANTHROPIC_API_KEY` when it is set and sent as `x-api-key`.
#[derive(Debug)]
pub struct Anthropic {
    http: Http,
}

http_transport!(Anthropic);

impl Anthropic {
    /// A model named `model` at `base_url` (the part before `/messages`, for example
    /// `https://api.anthropic.com/v1`).
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Anthropic {
        Anthropic {
            http: Http::new(base_url, model, "ANTHROPIC_API_KEY"),
        }
    }
}

impl Wire for Anthropic {
    const PROVIDER: Provider = Provider::Anthropic;
    const AUTH: Auth = Auth::Header("x-api-key");
    const HEADERS: &'static [(&'static str, &'static str)] = &[VERSION];
    const PATH: &'static str = "/messages";
    const REPLY: (&'static str, &'static str) = ("content", "a list of content blocks");

    fn body(&self, request: &ModelRequest<'_>, stream: bool) -> Vec<u8> {
        let mut fields = vec![("model", Field::Str(&self.http.model))];
        if !self.http.extra.contains_key("max_tokens") {
            fields.push(("max_tokens", Field::Value(DEFAULT_MAX_TOKENS.into())));
        }
        if let Some(system) = request.system {
            fields.push(("system", Field::Str(system)));
        }
        // A prefill is the start of the assistant's turn, which Anthropic continues.
        let prefill = request
            .prefill
            .map(|text| crate::messages::assistant(Self::PROVIDER, text));
        fields.push(("messages", Field::List(None, request.messages, prefill)));
        if let Some(tools) = request.tools {
            fields.push(("tools", Field::Raw(tools)));
        }
        if let Some(choice) = request.tool_choice {
            let choice = match choice {
                ToolChoice::Auto => json!({"type": "auto"}),
                ToolChoice::Required => json!({"type": "any"}),
                ToolChoice::None => json!({"type": "none"}),
                ToolChoice::Tool(name) => json!({"type": "tool", "name": name}),
            };
            fields.push(("tool_choice", Field::Value(choice)));
        }
        if stream {
            fields.push(("stream", Field::Bool(true)));
        }
        self.http.body(fields)
    }

    fn turn(value: &Value, _routed: &Routed) -> Vec<Value> {
        vec![assistant(value["content"].clone())]
    }

    fn usage(value: &Value) -> Usage {
        Usage::read(value.get("usage"), "input_tokens", "output_tokens")
    }

    async fn events(
        &self,
        url: &str,
        response: reqwest::Response,
        on_delta: &mut OnDelta<'_>,
    ) -> Result<ModelReply, ModelError> {
        let mut stream = AnthropicStream::new();
        let mut blocks = Blocks::default();
        let mut usage = Usage::default();
        self.http
            .read_events(url, response, End::Event, |event| {
                let stopped = event["type"] == "message_stop";
                match event["type"].as_str() {
                    Some("message_start") => {
                        usage.input_tokens = Usage::read(
                            event["message"].get("usage"),
                            "input_tokens",
                            "output_tokens",
                        )
                        .input_tokens;
                    }
                    Some("message_delta") => {
                        let delta =
                            Usage::read(event.get("usage"), "input_tokens", "output_tokens");
                        usage.output_tokens = delta.output_tokens;
                        usage.input_tokens = usage.input_tokens.max(delta.input_tokens);
                    }
                    Some("content_block_start") if event["content_block"]["type"] == "tool_use" => {
                        let block = &event["content_block"];
                        on_delta(started(
                            block["id"].as_str().unwrap_or_default(),
                            block["name"].as_str().unwrap_or_default(),
                        ));
                    }
                    _ => {}
                }
                // The accumulator checks the event first; the blocks only take what it took.
                accumulate(&mut stream, &event, on_delta)?;
                blocks.push(&event);
                Ok(stopped)
            })
            .await?;
        Ok(ModelReply {
            turn: vec![assistant(Value::Array(blocks.finish()))],
            routed: stream.finish(),
            usage,
        })
    }
}

fn assistant(content: Value) -> Value {
    json!({"role": "assistant", "content": content})
}

/// The message's content blocks rebuilt from a stream, every kind of block kept whole: text,
/// `tool_use` (its input parsed from the joined fragments), and thinking blocks with their
/// signatures, which must go back unchanged.
#[derive(Default)]
struct Blocks {
    blocks: BTreeMap<u64, (Map<String, Value>, String)>,
}

impl Blocks {
    fn push(&mut self, event: &Value) {
        let Some(index) = event["index"].as_u64() else {
            return;
        };
        match event["type"].as_str() {
            Some("content_block_start") => {
                if let Some(block) = event["content_block"].as_object() {
                    self.blocks.insert(index, (block.clone(), String::new()));
                }
            }
            Some("content_block_delta") => {
                let Some((block, json)) = self.blocks.get_mut(&index) else {
                    return;
                };
                let delta = &event["delta"];
                let append = |block: &mut Map<String, Value>, key: &str, piece: &Value| {
                    let piece = piece.as_str().unwrap_or_default();
                    let entry = block
                        .entry(key)
                        .or_insert_with(|| Value::String(String::new()));
                    if let Value::String(text) = entry {
                        text.push_str(piece);
                    }
                };
                match delta["type"].as_str() {
                    Some("text_delta") => append(block, "text", &delta["text"]),
                    Some("thinking_delta") => append(block, "thinking", &delta["thinking"]),
                    Some("signature_delta") => append(block, "signature", &delta["signature"]),
                    Some("input_json_delta") => {
                        json.push_str(delta["partial_json"].as_str().unwrap_or_default());
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn finish(self) -> Vec<Value> {
        self.blocks
            .into_values()
            .map(|(mut block, json)| {
                if !json.is_empty() {
                    // Input the pipeline will report as broken still goes back as an object:
                    // the API refuses anything else in `input`.
                    let input = serde_json::from_str::<Value>(&json)
                        .ok()
                        .filter(Value::is_object)
                        .unwrap_or_else(|| json!({}));
                    block.insert("input".into(), input);
                }
                Value::Object(block)
            })
            .collect()
    }
}
