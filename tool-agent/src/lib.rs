//! The model in the loop: an [`Agent`] sends the conversation and the registry's tools to a
//! [`Model`], runs the calls in its reply, sends each call's one result back, and repeats
//! until the model answers without calls.
//!
//! ```no_run
//! use tool_runtime::agent::{Agent, OpenAiChat};
//! use tool_runtime::{tool, Registry};
//!
//! /// Get the current weather in a city.
//! #[tool(read_only)]
//! fn get_weather(
//!     /// City and country, for example "Paris, France".
//!     location: String,
//! ) -> String {
//!     format!("18°C in {location}")
//! }
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let registry = Registry::builder().build()?;
//! let model = OpenAiChat::new("http://127.0.0.1:8000/v1", "Qwen/Qwen3-8B");
//! let mut agent = Agent::new(model, registry).system("You are a careful assistant.").max_turns(8);
//! let reply = agent.run("What's the weather in Paris?").await?;
//! println!("{}", reply.text);
//! for turn in agent.history() {
//!     println!("{turn:?}");
//! }
//! # Ok(()) }
//! ```
//!
//! - **Transports**: [`OpenAiChat`] (Chat Completions: OpenAI and every OpenAI-compatible
//!   server), [`OpenAiResponses`], [`Anthropic`] (Messages) and [`Gemini`]
//!   (generateContent), over HTTP(S), whole or streamed (server-sent events). Or any
//!   [`Model`] of your own.
//! - **Text-only models**: [`Agent::text_tools`] puts the tools and how to call them in the
//!   system prompt, finds the calls in the reply's text, and sends the results back as text.
//! - **The loop**: each turn's calls run with
//!   [`Registry::call_all`](crate::Registry::call_all) and its token (gating, approval, timeouts,
//!   panics, cancellation as always), and every call gets exactly one result in the
//!   provider's shape. An error (bad arguments, an unknown tool) goes back to the model as
//!   that call's result, with its retry hint, so the model can fix the call; a model that
//!   fails calls to the same tool [`max_repeats`](Agent::max_repeats) times in a row is
//!   stopped.
//! - **Streaming**: [`Agent::stream`] yields [`AgentEvent`]s: text as it arrives, each call as
//!   the model starts and finishes writing it, each result, usage, the end of each turn.
//! - **Failures are values** ([`AgentError`], [`ModelError`]): HTTP errors with the
//!   provider's error body, bounded retries on 429 and 5xx that honour `Retry-After`,
//!   timeouts, replies in the wrong shape, a stream cut short. The conversation never holds a
//!   call without its result.
//! - **Tracing**: an `invoke_agent` span per run and a `chat {model}` span per request, after
//!   OpenTelemetry's GenAI conventions, with the calls' `execute_tool` spans inside.

mod budget;
pub(crate) mod error;
mod events;
mod history;
mod messages;
pub(crate) mod model;
mod run;
mod sampling;
mod tool_choice;
pub(crate) mod transport;
mod wire;

pub use error::{AgentError, ModelError};
pub use events::{AgentEvent, AgentStream};
pub use history::{CallResult, Turn};
pub use model::{Model, ModelDelta, ModelReply, ModelRequest, OnDelta, Usage};
pub use sampling::{ModelSampling, SamplingError};
pub use tool_choice::ToolChoice;
pub use wire::anthropic::Anthropic;
pub use wire::gemini::Gemini;
pub use wire::ollama::Ollama;
pub use wire::openai_chat::OpenAiChat;
pub use wire::openai_responses::OpenAiResponses;
pub use wire::tensorzero::TensorZero;

// What the loop names from the crates below, under the paths it used inside tool-runtime.
use tool_core::{
    client, providers, results, router, tls, CancellationToken, ErrorCode, Provider, Registry,
    ToolCall, ToolOutput,
};
#[cfg(test)]
use tool_core::{tool, ToolContext, ToolError};
use tool_text as text;

use crate::text::TextFormat;
use serde_json::value::RawValue;
use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// What a run ends with: the model's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The model's last reply's text: its answer.
    pub text: String,
    /// How many model requests the run made.
    pub turns: usize,
    /// How many tool calls it ran.
    pub calls: usize,
    /// The tokens the run took, summed over its requests.
    pub usage: Usage,
}

/// A conversation between a [`Model`] and a [`Registry`]'s tools.
///
/// Build it once, then [`run`](Agent::run) (or [`stream`](Agent::stream)) a prompt; each run
/// continues the same conversation, which [`history`](Agent::history) shows.
pub struct Agent {
    model: Box<dyn Model>,
    registry: Arc<Registry>,
    system: Option<String>,
    max_turns: usize,
    max_repeats: usize,
    max_calls_per_turn: usize,
    max_history_result_bytes: usize,
    max_request_bytes: usize,
    text_tools: Option<TextFormat>,
    /// llama.cpp's `grammar`, sent with the first request of each run.
    grammar: Option<String>,
    /// Sent with the first request of each run, when the model gets native tools.
    tool_choice: Option<ToolChoice>,
    /// The start of the first reply of each run, when the model gets native tools.
    prefill: Option<String>,
    strict: bool,
    cancel: CancellationToken,
    /// The conversation in the model's shape, as requests carry it, with its sizes.
    conversation: budget::Conversation,
    history: Vec<Turn>,
    usage: Usage,
    /// The system prompt with the text-only tool prompt, written once.
    full_system: OnceLock<Option<String>>,
    /// The tool list as the requests carry it, written once.
    tools: OnceLock<Option<Arc<RawValue>>>,
}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agent")
            .field("model", &self.model.model_name())
            .field("provider", &self.model.provider())
            .field("max_turns", &self.max_turns)
            .field("max_calls_per_turn", &self.max_calls_per_turn)
            .field("max_history_result_bytes", &self.max_history_result_bytes)
            .field("max_request_bytes", &self.max_request_bytes)
            .field("text_tools", &self.text_tools)
            .field("history", &self.history.len())
            .finish_non_exhaustive()
    }
}

impl Agent {
    /// An agent giving `registry`'s tools to `model`. At most 8 requests per run, 3 failing
    /// calls in a row to one tool, 16 calls run per turn, 1 MiB of tool results kept, 8 MiB
    /// per request; native tools.
    pub fn new(model: impl Model + 'static, registry: impl Into<Arc<Registry>>) -> Agent {
        Agent {
            model: Box::new(model),
            registry: registry.into(),
            system: None,
            max_turns: 8,
            max_repeats: 3,
            max_calls_per_turn: budget::DEFAULT_MAX_CALLS_PER_TURN,
            max_history_result_bytes: budget::DEFAULT_MAX_HISTORY_RESULT_BYTES,
            max_request_bytes: budget::DEFAULT_MAX_REQUEST_BYTES,
            text_tools: None,
            grammar: None,
            tool_choice: None,
            prefill: None,
            strict: false,
            cancel: CancellationToken::new(),
            conversation: budget::Conversation::default(),
            history: Vec::new(),
            usage: Usage::default(),
            full_system: OnceLock::new(),
            tools: OnceLock::new(),
        }
    }

    /// The system prompt.
    #[must_use]
    pub fn system(mut self, text: impl Into<String>) -> Agent {
        self.system = Some(text.into());
        self.full_system = OnceLock::new();
        self
    }

    /// The most model requests one run makes (at least 1). A model still calling tools after
    /// that ends the run with [`AgentError::MaxTurns`], every call answered.
    #[must_use]
    pub fn max_turns(mut self, turns: usize) -> Agent {
        self.max_turns = turns.max(1);
        self
    }

    /// The most calls of one reply that run (at least 1; default 16). The rest are not run:
    /// each is answered with a short `limit_exceeded` error telling the model to call it
    /// again in a later turn, so every call still has its one result. A model server can't
    /// start an unbounded amount of work, or grow the conversation by thousands of results,
    /// with one reply. Those errors don't count towards [`max_repeats`](Agent::max_repeats):
    /// the calls were not wrong, only too many.
    #[must_use]
    pub fn max_calls_per_turn(mut self, calls: usize) -> Agent {
        self.max_calls_per_turn = calls.max(1);
        self
    }

    /// The most bytes of tool results the conversation keeps (default 1 MiB, about 250,000
    /// tokens). Past it the oldest results are cut, in [`history`](Agent::history) and in the
    /// [`messages`](Agent::messages) alike, each to a marker naming its size
    /// (`[result cut: 65536 bytes, to keep the conversation's tool results under 1048576
    /// bytes]`), so the newest stay whole. Results of 160 bytes or less are not counted:
    /// the marker would be as long.
    #[must_use]
    pub fn max_history_result_bytes(mut self, bytes: usize) -> Agent {
        self.max_history_result_bytes = bytes;
        self
    }

    /// The largest request the agent sends, in bytes of the conversation, the system prompt
    /// and the tool list as JSON (default 8 MiB). Tool results are already bounded by
    /// [`max_history_result_bytes`](Agent::max_history_result_bytes); this bounds what is
    /// left, the model's own turns sent back: a request over it is not sent and the run
    /// ends with [`AgentError::RequestTooLarge`].
    #[must_use]
    pub fn max_request_bytes(mut self, bytes: usize) -> Agent {
        self.max_request_bytes = bytes;
        self
    }

    /// How many calls in a row to one tool may fail with the model's mistake (an unknown
    /// tool, arguments that are broken or don't fit the schema, a call that can't be read)
    /// before the run stops with [`AgentError::RepeatedFailure`] (at least 1; default 3).
    #[must_use]
    pub fn max_repeats(mut self, repeats: usize) -> Agent {
        self.max_repeats = repeats.max(1);
        self
    }

    /// Text-only mode, for a model without native tool calling: no tools go in the request;
    /// the system prompt lists them and shows how to call them in `format`
    /// ([`text::tool_prompt`]); calls are read from the reply's text and their
    /// results go back as text (`<tool_response>` tags, `[TOOL_RESULTS]` for Mistral).
    /// [`TextFormat::Auto`] reads every format and prompts with Hermes tags.
    #[must_use]
    pub fn text_tools(mut self, format: TextFormat) -> Agent {
        self.text_tools = Some(format);
        self.full_system = OnceLock::new();
        self.tools = OnceLock::new();
        self
    }

    /// A grammar the model's first reply of each run must follow, in GBNF: llama.cpp's
    /// `grammar` request field, which the OpenAI Chat transport sends (other transports send
    /// none). [`text::call_grammar`] writes one from the tools for a text format, so that the
    /// first reply is a call the parser reads, even from a model too small to follow the
    /// prompt; later requests of the run go without it, so the model can answer from the
    /// results. (A grammar on every request would make every reply a call: give the transport
    /// `body_field("grammar", ..)` for that.)
    #[must_use]
    pub fn grammar(mut self, grammar: impl Into<String>) -> Agent {
        self.grammar = Some(grammar.into());
        self
    }

    /// Which tools the model may or must call on the first request of each run
    /// ([`ToolChoice`]: auto, required, none, or one tool by name), sent in the provider's
    /// own shape; later requests of the run go without it, so that the model can answer from
    /// the results. Sent only when the model gets native tools: in text-only mode, a
    /// [`grammar`](Agent::grammar) is what makes a call required.
    #[must_use]
    pub fn tool_choice(mut self, choice: ToolChoice) -> Agent {
        self.tool_choice = Some(choice);
        self
    }

    /// The start of the model's first reply of each run, written for it: an assistant
    /// message at the end of the first request, which the model continues. Anthropic
    /// documents it; llama.cpp's server continues a final assistant message too, and
    /// `"<tool_call>\n"` there makes a small model write a call where
    /// [`tool_choice`](Agent::tool_choice) `Required` alone still lets it write prose first
    /// (docs/agent.md). Sent by the OpenAI Chat, Responses and Anthropic transports, with
    /// native tools only; the reply is read as the server returns it, so the prefill is not part of the
    /// turn's text.
    #[must_use]
    pub fn prefill(mut self, text: impl Into<String>) -> Agent {
        self.prefill = Some(text.into());
        self
    }

    /// Code mode: the model gets one tool, the code tool over the registry's tools
    /// ([`Registry::code_registry`]), and writes Python that calls them, many calls in one
    /// turn. For the code tool beside the tools, give the agent a registry built with
    /// `RegistryBuilder::code_mode(CodeMode::Beside)` instead.
    ///
    /// # Errors
    ///
    /// A [`BuildError`](tool_core::BuildError) when the code tool's name is not a usable
    /// tool name.
    #[cfg(feature = "code")]
    pub fn code_mode(
        mut self,
        settings: tool_core::code::CodeSettings,
    ) -> Result<Agent, tool_core::BuildError> {
        self.registry = Arc::new(self.registry.code_registry(settings)?);
        self.full_system = OnceLock::new();
        self.tools = OnceLock::new();
        Ok(self)
    }

    /// Exports the tools in the provider's strict mode (OpenAI `strict: true`, Anthropic
    /// `strict`), where each tool allows it.
    #[must_use]
    pub fn strict(mut self, on: bool) -> Agent {
        self.strict = on;
        self.tools = OnceLock::new();
        self
    }

    /// Runs stop when `token` fires: a model request is dropped, running calls end with a
    /// `cancelled` result, and the run returns [`AgentError::Cancelled`].
    #[must_use]
    pub fn cancel_on(mut self, token: CancellationToken) -> Agent {
        self.cancel = token;
        self
    }

    /// The conversation so far: each prompt, each reply with its calls, each call's result.
    pub fn history(&self) -> &[Turn] {
        &self.history
    }

    /// The conversation as the next request will carry it, in the model's provider shape.
    pub fn messages(&self) -> &[Value] {
        self.conversation.messages()
    }

    /// The tokens every run so far took.
    pub fn usage(&self) -> Usage {
        self.usage
    }

    /// The registry whose tools the model gets.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The model.
    pub fn model(&self) -> &dyn Model {
        &*self.model
    }

    /// Forgets the conversation (the settings stay).
    pub fn clear(&mut self) {
        self.conversation.clear();
        self.history.clear();
    }

    /// The system prompt the requests carry: the one given, and in text-only mode the tools
    /// and how to call them.
    fn full_system(&self) -> Option<&str> {
        self.full_system
            .get_or_init(|| {
                let tools = self
                    .text_tools
                    .map(|format| crate::text::tool_prompt(format, self.registry.specs()));
                match (&self.system, tools) {
                    (Some(system), Some(tools)) => Some(format!("{system}\n\n{tools}")),
                    (Some(system), None) => Some(system.clone()),
                    (None, tools) => tools,
                }
            })
            .as_deref()
    }

    /// The tool list the requests carry: none in text-only mode or for an empty registry.
    fn tools(&self) -> Option<&RawValue> {
        self.tools
            .get_or_init(|| {
                if self.text_tools.is_some() || self.registry.is_empty() {
                    return None;
                }
                let export = self.registry.export(self.model.provider());
                Some(export.strict(self.strict).raw_json())
            })
            .as_deref()
    }
}
