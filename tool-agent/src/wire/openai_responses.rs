//! OpenAI Responses (`POST {base}/responses`): the conversation goes as `input` items, the
//! system prompt as `instructions`, and the model's output items go back into the next
//! request unchanged (reasoning items and item ids included).

use crate::error::ModelError;
use crate::model::OnDelta;
use crate::model::{ModelReply, ModelRequest, Usage};
use crate::providers::openai_responses::stream::OpenAiResponsesStream;
use crate::tool_choice::ToolChoice;
use crate::transport::body::Field;
use crate::transport::read::{accumulate, started, End};
use crate::transport::send::Auth;
use crate::transport::{http_transport, Http, Wire};

use crate::router::routed::Routed;
use crate::router::stream::accumulate::Accumulate;
use crate::Provider;
use serde_json::{json, Value};

/// A model behind the Responses API.
///
/// ```no_run
/// use serde_json::json;
/// use tool_runtime::agent::OpenAiResponses;
///
/// let model = OpenAiResponses::new("https://api.openai.com/v1", "gpt-5-mini")
///     .body_field("reasoning", json!({"effort": "low"}));
/// # let _ = model;
/// ```
///
/// The key is read from `OPENAI_API_KEY` when it is set (see `api_key_env`).
#[derive(Debug)]
pub struct OpenAiResponses {
    http: Http,
}

http_transport!(OpenAiResponses);

impl OpenAiResponses {
    /// A model named `model` at `base_url` (the part before `/responses`).
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> OpenAiResponses {
        OpenAiResponses {
            http: Http::new(base_url, model, "OPENAI_API_KEY"),
        }
    }
}

impl Wire for OpenAiResponses {
    const PROVIDER: Provider = Provider::OpenAiResponses;
    const AUTH: Auth = Auth::Bearer;
    const PATH: &'static str = "/responses";
    const REPLY: (&'static str, &'static str) = ("output", "a list of output items");

    fn body(&self, request: &ModelRequest<'_>, stream: bool) -> Vec<u8> {
        let mut fields = vec![("model", Field::Str(&self.http.model))];
        if let Some(system) = request.system {
            fields.push(("instructions", Field::Str(system)));
        }
        // A prefill is an assistant message closing the input: llama.cpp's server continues it.
        let prefill = request
            .prefill
            .map(|text| crate::messages::assistant(Self::PROVIDER, text));
        fields.push(("input", Field::List(None, request.messages, prefill)));
        if let Some(tools) = request.tools {
            fields.push(("tools", Field::Raw(tools)));
        }
        if let Some(choice) = request.tool_choice {
            let choice = match choice {
                ToolChoice::Tool(name) => json!({"type": "function", "name": name}),
                other => json!(other.to_string()),
            };
            fields.push(("tool_choice", Field::Value(choice)));
        }
        if stream {
            fields.push(("stream", Field::Bool(true)));
        }
        self.http.body(fields)
    }

    /// The output items to send back: the response's own, or rebuilt from the calls when it
    /// gave none.
    fn turn(response: &Value, routed: &Routed) -> Vec<Value> {
        match response.get("output").and_then(Value::as_array) {
            Some(items) => items.clone(),
            None => {
                crate::providers::openai_responses::results::call_turn(&routed.text, &routed.calls)
            }
        }
    }

    fn usage(response: &Value) -> Usage {
        Usage::read(response.get("usage"), "input_tokens", "output_tokens")
    }

    async fn events(
        &self,
        url: &str,
        response: reqwest::Response,
        on_delta: &mut OnDelta<'_>,
    ) -> Result<ModelReply, ModelError> {
        let mut stream = OpenAiResponsesStream::new();
        // The final response, from `response.completed` (or `.incomplete`).
        let mut last = Value::Null;
        self.http
            .read_events(url, response, End::Event, |event| {
                let mut completed = false;
                match event["type"].as_str() {
                    Some("response.output_item.added")
                        if event["item"]["type"] == "function_call" =>
                    {
                        let item = &event["item"];
                        on_delta(started(
                            item["call_id"].as_str().unwrap_or_default(),
                            item["name"].as_str().unwrap_or_default(),
                        ));
                    }
                    Some("response.completed" | "response.incomplete") => {
                        last = event["response"].clone();
                        completed = true;
                    }
                    _ => {}
                }
                accumulate(&mut stream, &event, on_delta)?;
                Ok(completed)
            })
            .await?;
        let routed = stream.finish();
        Ok(ModelReply {
            turn: Self::turn(&last, &routed),
            usage: Self::usage(&last),
            routed,
        })
    }
}
