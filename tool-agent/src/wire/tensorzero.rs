//! TensorZero's native inference endpoint (`POST {base}/inference`): a function (or a model)
//! by name, a pinned variant, the episode carried from one request to the next, and the
//! registry's tools as `additional_tools` unless the function's config already has them.
//! Its OpenAI-compatible endpoint is [`OpenAiChat`](crate::OpenAiChat)'s, with
//! `tensorzero::function_name::NAME` as the model.

use crate::error::ModelError;
use crate::model::OnDelta;
use crate::model::{ModelReply, ModelRequest, Usage};
use crate::providers::tensorzero::stream::TensorZeroStream;
use crate::router::routed::Routed;
use crate::router::stream::accumulate::Accumulate;
use crate::tool_choice::ToolChoice;
use crate::transport::body::Field;
use crate::transport::read::{accumulate, started, End};
use crate::transport::send::Auth;
use crate::transport::{http_transport, Http, Wire};
use crate::Provider;
use serde_json::{json, Value};
use std::sync::Mutex;

/// A TensorZero function (or model) behind the gateway's native `/inference` endpoint.
///
/// ```no_run
/// use tool_runtime::agent::TensorZero;
///
/// // A chat function of tensorzero.toml, its tools written there by
/// // `registry.export_tensorzero().function("assistant")`:
/// let model = TensorZero::function("http://127.0.0.1:3000", "assistant")
///     .variant("gpt-4o-mini")
///     .tools_in_config();
/// // Or any model, the registry's tools sent with each request as `additional_tools`:
/// let direct = TensorZero::model("http://127.0.0.1:3000", "openai::gpt-4o-mini");
/// # let _ = (model, direct);
/// ```
///
/// The first reply's `episode_id` is sent with every later request, so a whole conversation
/// is one episode in TensorZero's records ([`episode_id`](Self::episode_id) reads it,
/// [`new_episode`](Self::new_episode) starts another). Without
/// [`tools_in_config`](Self::tools_in_config) the registry's tools go as `additional_tools`;
/// extra request fields (`params`, `tool_choice`, `parallel_tool_calls`, `tags`, `dryrun`,
/// `allowed_tools`...) are [`body_field`](Self::body_field)s. A key, when the gateway wants
/// one, is read from `TENSORZERO_API_KEY`.
#[derive(Debug)]
pub struct TensorZero {
    http: Http,
    /// `function_name` or `model_name`: what `http.model` names.
    target: &'static str,
    variant: Option<String>,
    tools_in_config: bool,
    episode: Mutex<Option<String>>,
}

http_transport!(TensorZero);

impl TensorZero {
    /// The chat function `name` of the gateway at `base_url` (for example
    /// `http://127.0.0.1:3000`, the part before `/inference`).
    pub fn function(base_url: impl Into<String>, name: impl Into<String>) -> TensorZero {
        TensorZero::new(base_url, name, "function_name")
    }

    /// A model of the gateway by name, without a function: one of its config, or a
    /// short-hand such as `openai::gpt-4o-mini`.
    pub fn model(base_url: impl Into<String>, name: impl Into<String>) -> TensorZero {
        TensorZero::new(base_url, name, "model_name")
    }

    fn new(base_url: impl Into<String>, name: impl Into<String>, target: &'static str) -> Self {
        TensorZero {
            http: Http::new(base_url, name, "TENSORZERO_API_KEY"),
            target,
            variant: None,
            tools_in_config: false,
            episode: Mutex::new(None),
        }
    }

    /// Pins the function's variant (`variant_name`) instead of letting the gateway sample
    /// one.
    #[must_use]
    pub fn variant(mut self, name: impl Into<String>) -> Self {
        self.variant = Some(name.into());
        self
    }

    /// The function's tools are in its `tensorzero.toml` entry
    /// ([`Registry::export_tensorzero`](crate::Registry::export_tensorzero)): the registry's
    /// tools are not sent again as `additional_tools`.
    #[must_use]
    pub fn tools_in_config(mut self) -> Self {
        self.tools_in_config = true;
        self
    }

    /// Continues the episode `id` (one the gateway gave before) from the first request on.
    #[must_use]
    pub fn with_episode(self, id: impl Into<String>) -> Self {
        *lock(&self.episode) = Some(id.into());
        self
    }

    /// The episode the next request continues: the one the last reply named.
    pub fn episode_id(&self) -> Option<String> {
        lock(&self.episode).clone()
    }

    /// Forgets the episode: the next request starts a new one.
    pub fn new_episode(&self) {
        *lock(&self.episode) = None;
    }

    /// Keeps the episode the gateway named.
    fn remember_episode(&self, value: &Value) {
        if let Some(id) = value.get("episode_id").and_then(Value::as_str) {
            let mut episode = lock(&self.episode);
            if episode.as_deref() != Some(id) {
                *episode = Some(id.to_owned());
            }
        }
    }
}

fn lock(episode: &Mutex<Option<String>>) -> std::sync::MutexGuard<'_, Option<String>> {
    // A panic elsewhere while it was held leaves a plain `Option` behind: still good.
    episode
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The model's turn as the next request's input takes it: text and thought blocks as they
/// came, each `tool_call` as `{"type", "id", "name", "arguments"}` with what the model wrote
/// (TensorZero's output blocks carry `raw_name`/`raw_arguments`, which its input does not
/// take).
fn turn(content: &[Value]) -> Vec<Value> {
    let blocks = content
        .iter()
        .map(|block| match block.get("type").and_then(Value::as_str) {
            Some("tool_call") => {
                let name = block
                    .get("raw_name")
                    .filter(|name| name.is_string())
                    .or_else(|| block.get("name"))
                    .cloned()
                    .unwrap_or_default();
                let arguments = match block.get("raw_arguments") {
                    Some(Value::String(raw)) => raw.clone(),
                    _ => crate::router::shape::string_arguments(block.get("arguments")),
                };
                json!({"type": "tool_call", "id": block.get("id").cloned().unwrap_or_default(),
                       "name": name, "arguments": arguments})
            }
            _ => block.clone(),
        })
        .collect();
    vec![json!({"role": "assistant", "content": Value::Array(blocks)})]
}

impl Wire for TensorZero {
    const PROVIDER: Provider = Provider::TensorZero;
    const AUTH: Auth = Auth::Bearer;
    const PATH: &'static str = "/inference";
    const REPLY: (&'static str, &'static str) = (
        "content",
        "a list of content blocks (a chat function's response)",
    );

    fn body(&self, request: &ModelRequest<'_>, stream: bool) -> Vec<u8> {
        let mut fields = vec![(self.target, Field::Str(&self.http.model))];
        if let Some(variant) = &self.variant {
            fields.push(("variant_name", Field::Str(variant)));
        }
        let episode = self.episode_id();
        if let Some(episode) = &episode {
            fields.push(("episode_id", Field::Str(episode)));
        }
        let mut input = Vec::with_capacity(2);
        if let Some(system) = request.system {
            input.push(("system", Field::Str(system)));
        }
        input.push(("messages", Field::List(None, request.messages, None)));
        fields.push(("input", Field::Object(input)));
        if let Some(tools) = request.tools.filter(|_| !self.tools_in_config) {
            fields.push(("additional_tools", Field::Raw(tools)));
        }
        if let Some(choice) = request.tool_choice {
            let choice = match choice {
                ToolChoice::Tool(name) => json!({"specific": name}),
                other => json!(other.to_string()),
            };
            fields.push(("tool_choice", Field::Value(choice)));
        }
        if stream {
            fields.push(("stream", Field::Bool(true)));
        }
        self.http.body(fields)
    }

    fn turn(value: &Value, _routed: &Routed) -> Vec<Value> {
        turn(
            value["content"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default(),
        )
    }

    fn usage(value: &Value) -> Usage {
        Usage::read(value.get("usage"), "input_tokens", "output_tokens")
    }

    fn seen_whole(&self, value: &Value) {
        self.remember_episode(value);
    }

    async fn events(
        &self,
        url: &str,
        response: reqwest::Response,
        on_delta: &mut OnDelta<'_>,
    ) -> Result<ModelReply, ModelError> {
        let mut stream = TensorZeroStream::new();
        let mut usage_seen = Usage::default();
        let mut seen = std::collections::HashSet::new();
        let mut thoughts = Thoughts::default();
        self.http
            .read_events(url, response, End::EventOrDone, |chunk| {
                self.remember_episode(&chunk);
                if chunk.get("usage").is_some_and(Value::is_object) {
                    usage_seen = Self::usage(&chunk);
                }
                for piece in chunk["content"].as_array().into_iter().flatten() {
                    if piece["type"] == "thought" {
                        thoughts.push(piece);
                    }
                    if piece["type"] == "tool_call" {
                        let id = piece["id"].as_str().unwrap_or_default();
                        let name = piece["raw_name"].as_str().unwrap_or_default();
                        if !name.is_empty() && seen.insert(id.to_owned()) {
                            on_delta(started(id, name));
                        }
                    }
                }
                accumulate(&mut stream, &chunk, on_delta)?;
                Ok(!chunk["finish_reason"].is_null())
            })
            .await?;
        let routed = stream.finish();
        let mut turn = vec![crate::providers::tensorzero::results::call_turn(
            &routed.text,
            &routed.calls,
        )];
        if let Some(Value::Array(content)) = turn.first_mut().and_then(|m| m.get_mut("content")) {
            content.splice(0..0, thoughts.finish());
        }
        Ok(ModelReply {
            turn,
            routed,
            usage: usage_seen,
        })
    }
}

/// Thought blocks rebuilt from a stream's pieces, by id in the order they appeared: their
/// text joined, their signature kept, so a provider that wants them back (Anthropic's
/// thinking with tools) gets them unchanged.
#[derive(Default)]
struct Thoughts {
    blocks: Vec<(String, serde_json::Map<String, Value>)>,
}

impl Thoughts {
    fn push(&mut self, piece: &Value) {
        let id = piece["id"].as_str().unwrap_or_default();
        let at = match self.blocks.iter().position(|(known, _)| known == id) {
            Some(at) => at,
            None => {
                let mut block = serde_json::Map::new();
                block.insert("type".into(), "thought".into());
                self.blocks.push((id.to_owned(), block));
                self.blocks.len() - 1
            }
        };
        let block = &mut self.blocks[at].1;
        if let Some(text) = piece["text"].as_str() {
            let entry = block
                .entry("text")
                .or_insert_with(|| Value::String(String::new()));
            if let Value::String(all) = entry {
                all.push_str(text);
            }
        }
        for key in ["signature", "provider_type"] {
            if let Some(value) = piece.get(key).filter(|v| !v.is_null()) {
                block.insert(key.into(), value.clone());
            }
        }
    }

    fn finish(self) -> Vec<Value> {
        self.blocks
            .into_iter()
            .map(|(_, block)| Value::Object(block))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thought_pieces_join_by_id_and_keep_their_signature() {
        let mut thoughts = Thoughts::default();
        for piece in [
            json!({"type": "thought", "id": "1", "text": "The user ", "signature": null}),
            json!({"type": "thought", "id": "1", "text": "asks.", "provider_type": "anthropic"}),
            json!({"type": "thought", "id": "1", "signature": "sig"}),
        ] {
            thoughts.push(&piece);
        }
        assert_eq!(
            thoughts.finish(),
            [
                json!({"type": "thought", "text": "The user asks.", "provider_type": "anthropic",
                    "signature": "sig"})
            ]
        );
    }

    #[test]
    fn the_whole_turn_keeps_thoughts_and_writes_calls_as_input_blocks() {
        let content = [
            json!({"type": "thought", "text": "hmm", "signature": "s"}),
            json!({"type": "tool_call", "id": "c1", "name": null, "arguments": null,
                   "raw_name": "f", "raw_arguments": "{\"a\": 1}"}),
        ];
        assert_eq!(
            turn(&content),
            [json!({"role": "assistant", "content": [
                {"type": "thought", "text": "hmm", "signature": "s"},
                {"type": "tool_call", "id": "c1", "name": "f", "arguments": "{\"a\": 1}"}]})]
        );
    }
}
