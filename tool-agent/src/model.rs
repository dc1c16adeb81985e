//! The [`Model`] trait: one request in, one reply out, whole or streamed. The agent loop talks
//! to every model through it; the built-in HTTP transports implement it, and so can anything
//! else (a local inference engine, a recorded conversation, another framework's client).

use super::error::ModelError;
use crate::router::routed::Routed;
use crate::router::stream::accumulate::StreamEvent;
use crate::{Provider, ToolCall};
use futures_util::future::BoxFuture;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;
use std::ops::AddAssign;

/// What the agent asks a model: the system prompt, the conversation so far in the model's
/// [`Provider`] shape, and the tool list as JSON text written once by the registry.
#[derive(Clone, Copy, Debug)]
pub struct ModelRequest<'a> {
    /// The system prompt (instructions), if any.
    pub system: Option<&'a str>,
    /// The conversation: user messages, the model's own turns as it sent them, and tool
    /// results, each in the provider's shape.
    pub messages: &'a [Value],
    /// The tools in the provider's shape (`registry.export(provider).raw_json()`), or `None`
    /// when the model gets no native tools (text-only mode, or an empty registry).
    pub tools: Option<&'a RawValue>,
    /// A grammar the reply must follow, in GBNF (llama.cpp's `grammar` field), or `None`.
    /// The OpenAI Chat transport sends it; the others, whose APIs have no such field, don't.
    pub grammar: Option<&'a str>,
    /// Which tools the model may or must call, or `None` to leave it to the API's default;
    /// each transport sends it in its provider's shape ([`ToolChoice`](crate::ToolChoice)).
    pub tool_choice: Option<&'a crate::ToolChoice>,
    /// The start of the model's reply, written for it: an assistant message at the end of
    /// the conversation, which the model continues. The OpenAI Chat and Responses transports
    /// send it (for llama.cpp's server, which continues a final assistant message) and the
    /// Anthropic one (which documents it); the others send none.
    pub prefill: Option<&'a str>,
}

/// One reply of a model.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelReply {
    /// The model's turn as the next request must carry it back, in the provider's shape:
    /// thinking blocks, item ids and thought signatures kept.
    pub turn: Vec<Value>,
    /// The turn's text and calls, normalized.
    pub routed: Routed,
    /// The tokens this request took.
    pub usage: Usage,
}

/// Tokens a request (or a whole run, summed) took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Tokens the model read (prompt, conversation, tools).
    pub input_tokens: u64,
    /// Tokens the model wrote.
    pub output_tokens: u64,
}

impl AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
    }
}

impl Usage {
    /// Reads two token counts out of a provider's usage object; missing ones count 0.
    pub(crate) fn read(usage: Option<&Value>, input: &str, output: &str) -> Usage {
        let count = |key: &str| {
            usage
                .and_then(|u| u.get(key))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        Usage {
            input_tokens: count(input),
            output_tokens: count(output),
        }
    }
}

/// Something a streamed reply has produced so far.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ModelDelta {
    /// Assistant text, as it arrives.
    Text(String),
    /// The model began writing a call: its id and name are known, its arguments are not yet.
    CallStarted {
        /// The call's id.
        id: String,
        /// The tool it names.
        name: String,
    },
    /// The model finished writing a call.
    Call(ToolCall),
}

impl From<StreamEvent> for ModelDelta {
    fn from(event: StreamEvent) -> ModelDelta {
        match event {
            StreamEvent::Text(text) => ModelDelta::Text(text),
            StreamEvent::Call(call) => ModelDelta::Call(call),
        }
    }
}

/// Where a streamed reply's deltas go as they arrive.
pub type OnDelta<'a> = dyn FnMut(ModelDelta) + Send + 'a;

/// A model the agent can talk to: one request in, one reply out.
///
/// The built-in transports ([`OpenAiChat`](super::OpenAiChat),
/// [`OpenAiResponses`](super::OpenAiResponses), [`Anthropic`](super::Anthropic),
/// [`Gemini`](super::Gemini)) speak HTTP; implement it for anything else. Only
/// [`send`](Model::send) is required: the default [`send_streaming`](Model::send_streaming)
/// sends the request whole and replays the reply as deltas.
///
/// ```
/// use futures_util::future::BoxFuture;
/// use serde_json::json;
/// use tool_runtime::agent::{Model, ModelError, ModelReply, ModelRequest, Usage};
/// use tool_runtime::{router, Provider};
///
/// /// Answers every request with the same text.
/// struct Parrot;
///
/// impl Model for Parrot {
///     fn provider(&self) -> Provider {
///         Provider::OpenAiChat
///     }
///     fn model_name(&self) -> &str {
///         "parrot"
///     }
///     fn send<'a>(&'a self, _: &'a ModelRequest<'a>) -> BoxFuture<'a, Result<ModelReply, ModelError>> {
///         Box::pin(async {
///             let message = json!({"role": "assistant", "content": "Polly wants a cracker."});
///             let reply = json!({"choices": [{"message": message.clone()}]});
///             Ok(ModelReply {
///                 turn: vec![message],
///                 routed: router::route(Provider::OpenAiChat, &reply)?,
///                 usage: Usage::default(),
///             })
///         })
///     }
/// }
/// ```
pub trait Model: Send + Sync {
    /// The shape of the conversation this model reads and writes: the agent writes user
    /// messages and tool results in it, and exports the tools for it.
    fn provider(&self) -> Provider;

    /// The model's name, for spans and errors.
    fn model_name(&self) -> &str;

    /// Sends one request and returns the whole reply.
    fn send<'a>(
        &'a self,
        request: &'a ModelRequest<'a>,
    ) -> BoxFuture<'a, Result<ModelReply, ModelError>>;

    /// Sends one request and streams the reply: `on_delta` gets text and calls as they
    /// arrive; the whole reply comes back at the end, as [`send`](Model::send) gives it.
    fn send_streaming<'a>(
        &'a self,
        request: &'a ModelRequest<'a>,
        on_delta: &'a mut OnDelta<'_>,
    ) -> BoxFuture<'a, Result<ModelReply, ModelError>> {
        Box::pin(async move {
            let reply = self.send(request).await?;
            replay(&reply, on_delta);
            Ok(reply)
        })
    }
}

/// A model behind a pointer is that model: `Box<dyn Model>` to choose one at run time, and
/// `Arc<M>` to keep a handle to a model an agent uses (a TensorZero model's
/// [`episode_id`](super::TensorZero::episode_id)).
macro_rules! forward_model {
    ($($pointer:ident)::+) => {
        impl<M: Model + ?Sized> Model for $($pointer)::+<M> {
            fn provider(&self) -> Provider {
                (**self).provider()
            }
            fn model_name(&self) -> &str {
                (**self).model_name()
            }
            fn send<'a>(
                &'a self,
                request: &'a ModelRequest<'a>,
            ) -> BoxFuture<'a, Result<ModelReply, ModelError>> {
                (**self).send(request)
            }
            fn send_streaming<'a>(
                &'a self,
                request: &'a ModelRequest<'a>,
                on_delta: &'a mut OnDelta<'_>,
            ) -> BoxFuture<'a, Result<ModelReply, ModelError>> {
                (**self).send_streaming(request, on_delta)
            }
        }
    };
}
forward_model!(Box);
forward_model!(std::sync::Arc);

/// Replays a whole reply as the deltas a stream of it would have given.
pub(crate) fn replay(reply: &ModelReply, on_delta: &mut OnDelta<'_>) {
    if !reply.routed.text.is_empty() {
        on_delta(ModelDelta::Text(reply.routed.text.clone()));
    }
    for call in &reply.routed.calls {
        on_delta(ModelDelta::CallStarted {
            id: call.id.clone(),
            name: call.name.clone(),
        });
        on_delta(ModelDelta::Call(call.clone()));
    }
}
