//! OpenAI Responses (`POST {base}/responses`): the conversation goes as `input` items, the
//! system prompt as `instructions`, and the model's output items go back into the next
//! request unchanged (reasoning items and item ids included).

use super::body::{Body, Field};
use super::read::{event, sse_data};
use super::send::Auth;
use super::{http_transport, Http, Wire};
use crate::agent::model::{ModelDelta, OnDelta};
use crate::agent::{ModelError, ModelReply, ModelRequest, Usage};
use crate::results::call_turn;
use crate::router::stream::{Accumulate, OpenAiResponsesStream};
use crate::router::Routed;
use crate::Provider;
use serde_json::Value;

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

    /// The request body.
    pub(crate) fn body(&self, request: &ModelRequest<'_>, stream: bool) -> Vec<u8> {
        let mut fields = vec![("model", Field::Str(&self.http.model))];
        if let Some(system) = request.system {
            fields.push(("instructions", Field::Str(system)));
        }
        fields.push(("input", Field::List(None, request.messages)));
        if let Some(tools) = request.tools {
            fields.push(("tools", Field::Raw(tools)));
        }
        if stream {
            fields.push(("stream", Field::Bool(true)));
        }
        Body {
            fields,
            extra: &self.http.extra,
        }
        .to_vec()
    }
}

/// The output items to send back: the response's own, or rebuilt from the calls when it
/// gave none.
fn turn(response: &Value, routed: &Routed) -> Vec<Value> {
    match response.get("output").and_then(Value::as_array) {
        Some(items) => items.clone(),
        None => call_turn(Provider::OpenAiResponses, &routed.text, &routed.calls),
    }
}

fn usage(response: &Value) -> Usage {
    Usage::read(response.get("usage"), "input_tokens", "output_tokens")
}

/// A whole reply.
fn whole(value: &Value) -> Result<ModelReply, ModelError> {
    let routed = super::route_body(
        Provider::OpenAiResponses,
        value,
        "output",
        "a list of output items",
    )?;
    Ok(ModelReply {
        turn: turn(value, &routed),
        usage: usage(value),
        routed,
    })
}

impl Wire for OpenAiResponses {
    const PROVIDER: Provider = Provider::OpenAiResponses;
    const AUTH: Auth = Auth::Bearer;
    const HEADERS: &'static [(&'static str, &'static str)] = &[];

    fn http(&self) -> &Http {
        &self.http
    }

    fn url(&self, _stream: bool) -> String {
        self.http.url("/responses")
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
        let mut stream = OpenAiResponsesStream::new();
        // The final response, from `response.completed` (or `.incomplete`).
        let mut last: Option<Value> = None;
        let received = self
            .http
            .read_lines(url, response, |line| {
                let Some(data) = sse_data(line) else {
                    return Ok(());
                };
                let event = event(data)?;
                match event["type"].as_str() {
                    Some("response.output_item.added")
                        if event["item"]["type"] == "function_call" =>
                    {
                        on_delta(ModelDelta::CallStarted {
                            id: event["item"]["call_id"]
                                .as_str()
                                .unwrap_or_default()
                                .to_owned(),
                            name: event["item"]["name"]
                                .as_str()
                                .unwrap_or_default()
                                .to_owned(),
                        });
                    }
                    Some("response.completed" | "response.incomplete") => {
                        last = Some(event["response"].clone());
                    }
                    _ => {}
                }
                for done in stream.push(&event)? {
                    on_delta(done.into());
                }
                Ok(())
            })
            .await?;
        let Some(last) = last else {
            return Err(ModelError::StreamCut { received });
        };
        let routed = stream.finish();
        Ok(ModelReply {
            turn: turn(&last, &routed),
            usage: usage(&last),
            routed,
        })
    }
}
