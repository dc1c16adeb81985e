//! Gemini (`POST {base}/models/{model}:generateContent`, streamed through
//! `:streamGenerateContent?alt=sse`): the conversation as `contents`, the system prompt as
//! `systemInstruction`, the tools as one `functionDeclarations` entry, and the model's
//! content sent back with its parts as they came (`thoughtSignature` included).

use crate::error::ModelError;
use crate::model::{ModelDelta, OnDelta};
use crate::model::{ModelReply, ModelRequest, Usage};
use crate::providers::gemini::results::call_turn;
use crate::providers::gemini::route::gemini;
use crate::providers::gemini::stream::GeminiStream;
use crate::router::routed::Routed;
use crate::tool_choice::ToolChoice;
use crate::transport::body::Field;
use crate::transport::read::End;
use crate::transport::send::Auth;
use crate::transport::{http_transport, Http, Wire};
use crate::Provider;
use serde_json::{json, Value};

/// A model behind the Gemini API (`generativelanguage.googleapis.com`).
///
/// ```no_run
/// use serde_json::json;
/// use tool_runtime::agent::Gemini;
///
/// let model = Gemini::new("https://generativelanguage.googleapis.com/v1beta", "gemini-2.5-flash")
///     .body_field("generationConfig", json!({"temperature": 0.2}));
/// # let _ = model;
/// ```
///
/// The key is read from `GEMINI_API_KEY` when it is set and sent as `x-goog-api-key`.
#[derive(Debug)]
pub struct Gemini {
    http: Http,
}

http_transport!(Gemini);

impl Gemini {
    /// A model named `model` at `base_url` (the part before `/models/...`, for example
    /// `https://generativelanguage.googleapis.com/v1beta`).
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Gemini {
        Gemini {
            http: Http::new(base_url, model, "GEMINI_API_KEY"),
        }
    }
}

impl Wire for Gemini {
    const PROVIDER: Provider = Provider::Gemini;
    const AUTH: Auth = Auth::Header("x-goog-api-key");
    const REPLY: (&'static str, &'static str) = ("candidates", "a list of candidates");

    fn body(&self, request: &ModelRequest<'_>, _stream: bool) -> Vec<u8> {
        let mut fields = vec![("contents", Field::List(None, request.messages, None))];
        if let Some(system) = request.system {
            fields.push((
                "systemInstruction",
                Field::Value(json!({"parts": [{"text": system}]})),
            ));
        }
        if let Some(tools) = request.tools {
            fields.push(("tools", Field::RawInList(tools)));
        }
        if let Some(choice) = request.tool_choice {
            let config = match choice {
                ToolChoice::Auto => json!({"mode": "AUTO"}),
                ToolChoice::Required => json!({"mode": "ANY"}),
                ToolChoice::None => json!({"mode": "NONE"}),
                ToolChoice::Tool(name) => json!({"mode": "ANY", "allowedFunctionNames": [name]}),
            };
            fields.push((
                "toolConfig",
                Field::Value(json!({"functionCallingConfig": config})),
            ));
        }
        self.http.body(fields)
    }

    fn url(&self, stream: bool) -> String {
        let method = if stream {
            ":streamGenerateContent?alt=sse"
        } else {
            ":generateContent"
        };
        self.http
            .url(&format!("/models/{}{method}", self.http.model))
    }

    fn usage(response: &Value) -> Usage {
        Usage::read(
            response.get("usageMetadata"),
            "promptTokenCount",
            "candidatesTokenCount",
        )
    }

    /// The model's content to send back, or one rebuilt from its text and calls when the
    /// reply has none (a blocked candidate).
    fn turn(response: &Value, routed: &Routed) -> Vec<Value> {
        match response["candidates"][0].get("content") {
            Some(content) if content["parts"].as_array().is_some_and(|p| !p.is_empty()) => {
                vec![content.clone()]
            }
            _ => vec![call_turn(&routed.text, &routed.calls)],
        }
    }

    async fn events(
        &self,
        url: &str,
        response: reqwest::Response,
        on_delta: &mut OnDelta<'_>,
    ) -> Result<ModelReply, ModelError> {
        let mut stream = GeminiStream::default();
        self.http
            .read_events(url, response, End::Event, |event| {
                let (texts, finished) = stream.push(event)?;
                for text in texts {
                    on_delta(ModelDelta::Text(text));
                }
                Ok(finished)
            })
            .await?;
        let (whole, last) = stream.finish();
        let routed = gemini(&whole)?;
        for call in &routed.calls {
            on_delta(ModelDelta::CallStarted {
                id: call.id.clone(),
                name: call.name.clone(),
            });
            on_delta(ModelDelta::Call(call.clone()));
        }
        Ok(ModelReply {
            turn: Self::turn(&whole, &routed),
            usage: Self::usage(&last),
            routed,
        })
    }
}
