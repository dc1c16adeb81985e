//! A [`Model`] answering sampling requests (`sampling/createMessage`): the agent's model
//! stands in for an MCP client's, for a tool's [`sample`](crate::ToolContext::sample) run
//! in-process and for an imported server that asks during a call.

use super::error::ModelError;
use super::messages;
use super::model::{Model, ModelRequest};
use crate::client::{
    BoxError, ClientCapabilities, ClientFuture, ClientRequests, Role, SamplingContent,
    SamplingRequest, SamplingResult, StopReason,
};
use futures_util::future::BoxFuture;
use serde_json::Value;
use std::sync::Arc;

/// Why a [`Model`] could not answer a sampling request.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SamplingError {
    /// The request holds what a text conversation can't carry (an image, audio, a tool use)
    /// or offers tools: the model answers text only.
    #[error("the model answers text only, and the request holds {0}")]
    Unsupported(&'static str),
    /// The model failed.
    #[error("the model failed to answer")]
    Model(#[source] ModelError),
}

/// A [`Model`] as the answerer of sampling requests: text in, text out, the request's system
/// prompt as the model's. The model's own settings (its token limit, its temperature) stay
/// as they are: a client may change a sampling request, and the model's owner chose them.
///
/// In-process, it is a [`Client`](crate::client::Client) whose calls may sample; for an
/// import, [`handler`](ModelSampling::handler) is what `McpImport::on_sampling` (feature
/// `mcp`) takes.
///
/// ```
/// # use futures_util::future::BoxFuture;
/// # use serde_json::json;
/// # use tool_runtime::agent::{Model, ModelError, ModelReply, ModelRequest, Usage};
/// # use tool_runtime::{router, Provider};
/// # struct Parrot;
/// # impl Model for Parrot {
/// #     fn provider(&self) -> Provider { Provider::OpenAiChat }
/// #     fn model_name(&self) -> &str { "parrot" }
/// #     fn send<'a>(&'a self, _: &'a ModelRequest<'a>) -> BoxFuture<'a, Result<ModelReply, ModelError>> {
/// #         Box::pin(async {
/// #             let message = json!({"role": "assistant", "content": "A short summary."});
/// #             let reply = json!({"choices": [{"message": message.clone()}]});
/// #             Ok(ModelReply { turn: vec![message], routed: router::route(Provider::OpenAiChat, &reply)?, usage: Usage::default() })
/// #         })
/// #     }
/// # }
/// use tool_runtime::agent::ModelSampling;
/// use tool_runtime::client::{Client, SamplingRequest};
/// use tool_runtime::{tool, Registry, ToolContext, ToolError};
///
/// /// Summarize a text with the client's model.
/// #[tool]
/// async fn summarize(cx: ToolContext, text: String) -> Result<String, ToolError> {
///     Ok(cx.sample(SamplingRequest::user(format!("Summarize: {text}"))).await?.text())
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let registry = Registry::builder().build().unwrap();
/// let sampler = Client::new(ModelSampling::new(Parrot)); // any Model: OpenAiChat, Gemini, ...
/// let out = sampler.scope(registry.call("summarize", r#"{"text": "..."}"#)).await;
/// assert_eq!(out.to_model_text(), "A short summary.");
/// # });
/// ```
pub struct ModelSampling<M> {
    model: Arc<M>,
}

impl<M: Model + 'static> ModelSampling<M> {
    /// Answers with `model`.
    pub fn new(model: M) -> ModelSampling<M> {
        ModelSampling {
            model: Arc::new(model),
        }
    }

    /// Sends `request` to the model and gives its text as the sampling result.
    ///
    /// # Errors
    ///
    /// [`SamplingError::Unsupported`] for a request with tools, or with images, audio or
    /// tool blocks; [`SamplingError::Model`] when the model fails.
    pub async fn answer(&self, request: SamplingRequest) -> Result<SamplingResult, SamplingError> {
        answer(&*self.model, request).await
    }

    /// The answerer as `McpImport::on_sampling` (feature `mcp`) takes it: an imported server
    /// that asks for a completion during a call not served to an MCP client gets the model's.
    ///
    /// ```ignore
    /// let import = McpImport::stdio("some-server", ["--stdio"])
    ///     .on_sampling(ModelSampling::new(OpenAiChat::new(url, "Qwen/Qwen3-8B")).handler());
    /// ```
    pub fn handler(
        self,
    ) -> impl Fn(SamplingRequest) -> BoxFuture<'static, Result<SamplingResult, BoxError>>
           + Send
           + Sync
           + 'static {
        let model = self.model;
        move |request| {
            let model = Arc::clone(&model);
            Box::pin(async move { Ok(answer(&*model, request).await?) })
        }
    }
}

async fn answer<M: Model + ?Sized>(
    model: &M,
    request: SamplingRequest,
) -> Result<SamplingResult, SamplingError> {
    if !request.tools.is_empty() || request.tool_choice.is_some() {
        return Err(SamplingError::Unsupported("tools"));
    }
    let provider = model.provider();
    let messages = request
        .messages
        .iter()
        .map(|message| {
            let text = text_of(&message.content)?;
            Ok(match message.role {
                Role::User => messages::user(provider, &text),
                Role::Assistant => messages::assistant(provider, &text),
            })
        })
        .collect::<Result<Vec<Value>, SamplingError>>()?;
    let asked = ModelRequest {
        system: request.system_prompt.as_deref(),
        messages: &messages,
        tools: None,
        grammar: None,
        tool_choice: None,
        prefill: None,
    };
    let reply = model.send(&asked).await.map_err(SamplingError::Model)?;
    Ok(SamplingResult {
        role: Role::Assistant,
        content: vec![SamplingContent::text(reply.routed.text)],
        model: model.model_name().to_owned(),
        stop_reason: Some(StopReason::EndTurn),
    })
}

/// A message's text blocks, joined; any other block is what the model can't read.
fn text_of(content: &[SamplingContent]) -> Result<String, SamplingError> {
    let mut text = String::new();
    for block in content {
        match block {
            SamplingContent::Text { text: more } => {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(more);
            }
            SamplingContent::Image { .. } => return Err(SamplingError::Unsupported("an image")),
            SamplingContent::Audio { .. } => return Err(SamplingError::Unsupported("audio")),
            _ => return Err(SamplingError::Unsupported("a tool use or result")),
        }
    }
    Ok(text)
}

impl<M: Model + 'static> ClientRequests for ModelSampling<M> {
    /// Sampling, without tools: nothing else.
    fn capabilities(&self) -> ClientCapabilities {
        let mut capabilities = ClientCapabilities::default();
        capabilities.sampling = true;
        capabilities
    }

    fn create_message(&self, params: Value) -> ClientFuture {
        let model = Arc::clone(&self.model);
        Box::pin(async move {
            let request: SamplingRequest = serde_json::from_value(params)?;
            let result = answer(&*model, request).await?;
            Ok(serde_json::to_value(result)?)
        })
    }

    fn elicit(&self, _: Value) -> ClientFuture {
        Box::pin(async { Err("a model answers sampling requests, not forms".into()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::{Client, SamplingMessage};
    use crate::{router, tool, Provider, Registry, ToolContext, ToolError};
    use crate::{ModelReply, Usage};
    use serde_json::json;
    use std::sync::Mutex;

    /// A scripted Gemini model (a fixture standing in for a model server): keeps the
    /// requests it got, answers "blue".
    #[derive(Default)]
    struct Scripted(Mutex<Vec<(Option<String>, Vec<Value>)>>);

    impl Model for Scripted {
        fn provider(&self) -> Provider {
            Provider::Gemini
        }
        fn model_name(&self) -> &str {
            "scripted-gemini"
        }
        fn send<'a>(
            &'a self,
            request: &'a ModelRequest<'a>,
        ) -> BoxFuture<'a, Result<ModelReply, ModelError>> {
            let system = request.system.map(str::to_owned);
            self.0
                .lock()
                .unwrap()
                .push((system, request.messages.to_vec()));
            Box::pin(async {
                let reply = json!({"candidates": [{"content": {"role": "model",
                    "parts": [{"text": "blue"}]}, "finishReason": "STOP"}]});
                Ok(ModelReply {
                    turn: vec![reply["candidates"][0]["content"].clone()],
                    routed: router::route(Provider::Gemini, &reply)?,
                    usage: Usage::default(),
                })
            })
        }
    }

    #[tokio::test]
    async fn a_conversation_goes_to_the_model_in_its_shape_and_its_text_comes_back() {
        let sampler = ModelSampling::new(Scripted::default());
        let request = SamplingRequest {
            messages: vec![
                SamplingMessage::user("Name a colour."),
                SamplingMessage::assistant("Red."),
                SamplingMessage::with(
                    Role::User,
                    [
                        SamplingContent::text("Another"),
                        SamplingContent::text("one."),
                    ],
                ),
            ],
            ..SamplingRequest::user("").system_prompt("Answer in one word.")
        };
        let result = sampler.answer(request).await.unwrap();
        assert_eq!(result.text(), "blue");
        assert_eq!(result.model, "scripted-gemini");
        assert_eq!(result.role, Role::Assistant);
        let asked = sampler.model.0.lock().unwrap();
        let (system, messages) = &asked[0];
        assert_eq!(system.as_deref(), Some("Answer in one word."));
        assert_eq!(
            messages,
            &[
                json!({"role": "user", "parts": [{"text": "Name a colour."}]}),
                json!({"role": "model", "parts": [{"text": "Red."}]}),
                json!({"role": "user", "parts": [{"text": "Another\none."}]}),
            ]
        );
    }

    #[tokio::test]
    async fn what_a_text_model_cant_read_is_refused_before_it_is_sent() {
        let sampler = ModelSampling::new(Scripted::default());
        let image = SamplingMessage::with(
            Role::User,
            [SamplingContent::Image {
                data: "iVBORw0KGgo=".into(),
                mime_type: "image/png".into(),
            }],
        );
        let with_image = SamplingRequest {
            messages: vec![image],
            ..SamplingRequest::user("")
        };
        let refused = sampler.answer(with_image).await.unwrap_err();
        assert!(
            matches!(refused, SamplingError::Unsupported("an image")),
            "{refused}"
        );
        assert!(sampler.model.0.lock().unwrap().is_empty());
    }

    /// Asks the client's model to name a colour.
    #[tool]
    async fn colour(cx: ToolContext) -> Result<String, ToolError> {
        Ok(cx.sample("Name a colour.").await?.text())
    }

    #[tokio::test]
    async fn in_process_a_tools_sampling_is_answered_by_the_model() {
        let registry = Registry::builder()
            .without_inventory()
            .register(colour::TOOL)
            .build()
            .unwrap();
        let client = Client::new(ModelSampling::new(Scripted::default()));
        let out = client.scope(registry.call("colour", "{}")).await;
        assert_eq!(out.to_model_text(), "blue");
    }
}
