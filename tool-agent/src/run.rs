//! The loop: send, route, run the turn's calls, answer each, repeat.

use super::budget::surplus;
use super::events::{emit, AgentStream, Events};
use super::history::{CallResult, Turn};
use super::messages;
use super::model::ModelDelta;
use super::{Agent, AgentError, AgentEvent, ModelReply, ModelRequest, Reply, Usage};
use crate::results::answer::model_text;
use crate::text::{self, TextEvent, TextFormat, TextStream};
use crate::{ErrorCode, Provider, ToolCall, ToolOutput};
use std::collections::HashMap;
use tracing::Instrument;

/// What a failing tool is called in the repeat count when the call could not even be read.
const UNREADABLE: &str = "(unreadable call)";

impl Agent {
    /// Sends `prompt` and loops until the model answers without calling a tool: each turn's
    /// calls run and their results go back to the model. Returns the answer; the whole
    /// conversation stays in [`history`](Agent::history), and the next run continues it.
    ///
    /// A model request that fails ends the run with the error, the conversation left as it
    /// was before that request (the prompt and every finished turn, each call answered).
    pub async fn run(&mut self, prompt: impl Into<String>) -> Result<Reply, AgentError> {
        self.drive(prompt.into(), None).await
    }

    /// [`run`](Agent::run), streamed: the replies are requested as server-sent events and
    /// the stream yields [`AgentEvent`]s as they happen, ending with
    /// [`AgentEvent::Done`] (or the run's error).
    ///
    /// ```no_run
    /// use tool_runtime::agent::{Agent, AgentEvent, OpenAiChat};
    /// use tool_runtime::Registry;
    ///
    /// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
    /// let model = OpenAiChat::new("http://127.0.0.1:8000/v1", "Qwen/Qwen3-8B");
    /// let mut agent = Agent::new(model, Registry::builder().build()?);
    /// let mut events = agent.stream("What's in data/?");
    /// while let Some(event) = events.next().await {
    ///     match event? {
    ///         AgentEvent::Text(text) => print!("{text}"),
    ///         AgentEvent::CallReady(call) => println!("\n→ {}({})", call.name, call.arguments),
    ///         AgentEvent::CallResult { output, .. } => println!("← {}", output.to_model_text()),
    ///         _ => {}
    ///     }
    /// }
    /// # Ok(()) }
    /// ```
    pub fn stream(&mut self, prompt: impl Into<String>) -> AgentStream<'_> {
        let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
        let prompt = prompt.into();
        AgentStream::new(receiver, Box::pin(self.drive(prompt, Some(sender))))
    }

    async fn drive(&mut self, prompt: String, events: Events) -> Result<Reply, AgentError> {
        let span = tracing::info_span!(
            "invoke_agent",
            otel.name = "invoke_agent",
            gen_ai.operation.name = "invoke_agent",
            gen_ai.provider.name = provider_name(self.model.provider()),
            gen_ai.request.model = self.model.model_name(),
            gen_ai.usage.input_tokens = tracing::field::Empty,
            gen_ai.usage.output_tokens = tracing::field::Empty,
        );
        let result = self.turns(prompt, &events).instrument(span.clone()).await;
        if let Ok(reply) = &result {
            span.record("gen_ai.usage.input_tokens", reply.usage.input_tokens);
            span.record("gen_ai.usage.output_tokens", reply.usage.output_tokens);
        }
        result
    }

    async fn turns(&mut self, prompt: String, events: &Events) -> Result<Reply, AgentError> {
        let provider = self.model.provider();
        self.conversation.push(messages::user(provider, &prompt));
        self.history.push(Turn::User(prompt));
        let mut usage = Usage::default();
        let mut calls_run = 0;
        let mut failures: HashMap<String, usize> = HashMap::new();
        for turn in 1..=self.max_turns {
            let bytes = self.request_bytes();
            if bytes > self.max_request_bytes {
                return Err(AgentError::RequestTooLarge {
                    bytes,
                    limit: self.max_request_bytes,
                });
            }
            let reply = self.request(turn, events).await?;
            usage += reply.usage;
            self.usage += reply.usage;
            emit(events, AgentEvent::Usage(reply.usage));
            let read = self.read(turn, &reply, events);
            self.conversation.extend(reply.turn);
            self.history.push(Turn::Model {
                text: read.text.clone(),
                calls: read.calls.clone(),
            });
            let model_at = self.history.len() - 1;
            if read.calls.is_empty() && read.unreadable.is_empty() {
                emit(events, AgentEvent::TurnFinished { turn, calls: 0 });
                return Ok(Reply {
                    text: read.text,
                    turns: turn,
                    calls: calls_run,
                    usage,
                });
            }
            // Calls past the per-turn cap are answered, not run.
            let run = self.calls_to_run(read.calls.len());
            let mut outputs = self
                .registry
                .call_all(&read.calls[..run])
                .until(&self.cancel)
                .await;
            let extra = surplus(read.calls.len(), self.max_calls_per_turn);
            outputs.resize(read.calls.len(), extra);
            calls_run += run;
            for (call, output) in read.calls.iter().zip(&outputs) {
                emit(
                    events,
                    AgentEvent::CallResult {
                        call_id: call.id.clone(),
                        tool: call.name.clone(),
                        output: output.clone(),
                    },
                );
            }
            self.answer(model_at, &read, &outputs);
            emit(
                events,
                AgentEvent::TurnFinished {
                    turn,
                    calls: read.calls.len(),
                },
            );
            if self.cancel.is_cancelled() {
                return Err(AgentError::Cancelled);
            }
            self.count_failures(&read, &outputs[..run], &mut failures)?;
        }
        Err(AgentError::MaxTurns(self.max_turns))
    }

    /// One model request, in a `chat {model}` span, dropped if the run is cancelled.
    async fn request(&self, turn: usize, events: &Events) -> Result<ModelReply, AgentError> {
        let span = tracing::info_span!(
            "chat",
            otel.name = tracing::field::Empty,
            gen_ai.operation.name = "chat",
            gen_ai.provider.name = provider_name(self.model.provider()),
            gen_ai.request.model = self.model.model_name(),
            gen_ai.usage.input_tokens = tracing::field::Empty,
            gen_ai.usage.output_tokens = tracing::field::Empty,
            error.type = tracing::field::Empty,
            turn,
        );
        if !span.is_disabled() {
            span.record("otel.name", format!("chat {}", self.model.model_name()));
        }
        let first_native = turn == 1 && self.text_tools.is_none();
        let request = ModelRequest {
            system: self.full_system(),
            messages: self.conversation.messages(),
            tools: self.tools(),
            // What shapes the first reply of a run; the choice and the prefill only with
            // native tools.
            grammar: self.grammar.as_deref().filter(|_| turn == 1),
            tool_choice: self.tool_choice.as_ref().filter(|_| first_native),
            prefill: self.prefill.as_deref().filter(|_| first_native),
        };
        let sent = async {
            match events {
                None => self.model.send(&request).await,
                Some(_) => {
                    // In text-only mode calls are read from the whole reply, so only its
                    // prose is passed on as it streams; the calls are announced once read.
                    let mut text = self
                        .text_tools
                        .map(|format| TextStream::new(format, &*self.registry));
                    let mut on_delta = |delta: ModelDelta| match (&mut text, delta) {
                        (Some(stream), ModelDelta::Text(chunk)) => {
                            for event in stream.push(&chunk) {
                                if let TextEvent::Text(prose) = event {
                                    emit(events, AgentEvent::Text(prose));
                                }
                            }
                        }
                        (Some(_), _) => {}
                        (None, delta) => emit(events, delta.into()),
                    };
                    let reply = self.model.send_streaming(&request, &mut on_delta).await;
                    if let Some(stream) = text {
                        for event in stream.finish() {
                            if let TextEvent::Text(prose) = event {
                                emit(events, AgentEvent::Text(prose));
                            }
                        }
                    }
                    reply
                }
            }
        }
        .instrument(span.clone());
        let reply = tokio::select! {
            reply = sent => reply,
            () = self.cancel.cancelled() => return Err(AgentError::Cancelled),
        };
        match reply {
            Ok(reply) => {
                span.record("gen_ai.usage.input_tokens", reply.usage.input_tokens);
                span.record("gen_ai.usage.output_tokens", reply.usage.output_tokens);
                tracing::debug!(parent: &span, turn, calls = reply.routed.calls.len(), "model replied");
                Ok(reply)
            }
            Err(error) => {
                span.record("error.type", error_type(&error));
                Err(error.into())
            }
        }
    }

    /// The reply's text and calls: the provider's, or in text-only mode those written in
    /// its text, with ids unique in the conversation (`t{turn}_call_{i}`).
    fn read(&self, turn: usize, reply: &ModelReply, events: &Events) -> Read {
        let Some(format) = self.text_tools else {
            return Read {
                text: reply.routed.text.clone(),
                calls: reply.routed.calls.clone(),
                unreadable: Vec::new(),
                format: TextFormat::Auto,
            };
        };
        let parsed = text::parse(&reply.routed.text, format, &*self.registry);
        let calls: Vec<ToolCall> = parsed
            .calls
            .into_iter()
            .enumerate()
            .map(|(i, mut call)| {
                call.id = format!("t{turn}_call_{i}");
                call
            })
            .collect();
        for call in &calls {
            emit(events, AgentEvent::CallReady(call.clone()));
        }
        let unreadable = parsed
            .errors
            .iter()
            .map(|error| format!("{}: {}", error.kind, error.raw))
            .collect();
        Read {
            text: parsed.text,
            calls,
            unreadable,
            format,
        }
    }

    /// Appends one result per call, in the provider's shape, or in text-only mode as one
    /// user message of text; older results are cut past the history's cap.
    fn answer(&mut self, model_at: usize, read: &Read, outputs: &[ToolOutput]) {
        let results: Vec<CallResult> = read
            .calls
            .iter()
            .zip(outputs)
            .map(|(call, output)| CallResult {
                call_id: call.id.clone(),
                tool: call.name.clone(),
                output: output.clone(),
            })
            .collect();
        self.append_results(model_at, read.format, results, &read.unreadable);
    }

    /// Counts failing calls per tool (reset by a success) and stops a model that keeps
    /// failing one. `outputs` are those of the calls that ran: a call past the per-turn cap
    /// is no mistake of the model's to fix.
    fn count_failures(
        &self,
        read: &Read,
        outputs: &[ToolOutput],
        failures: &mut HashMap<String, usize>,
    ) -> Result<(), AgentError> {
        let mut failed: Vec<(&str, String)> = Vec::new();
        for (call, output) in read.calls.iter().zip(outputs) {
            match output.as_error() {
                Some(error) if is_models_mistake(error.code) => {
                    failed.push((&call.name, model_text(output)));
                }
                _ => {
                    failures.remove(&call.name);
                }
            }
        }
        if let Some(first) = read.unreadable.first() {
            failed.push((UNREADABLE, first.clone()));
        } else {
            failures.remove(UNREADABLE);
        }
        for (tool, error) in failed {
            let times = failures.entry(tool.to_owned()).or_default();
            *times += 1;
            if *times >= self.max_repeats {
                return Err(AgentError::RepeatedFailure {
                    tool: tool.to_owned(),
                    times: *times,
                    error,
                });
            }
        }
        Ok(())
    }
}

/// One reply, read: what the history and the answers need.
struct Read {
    text: String,
    calls: Vec<ToolCall>,
    /// Calls in the text that could not be read, described for the model.
    unreadable: Vec<String>,
    /// The format results go back in (text-only mode).
    format: TextFormat,
}

/// Errors the model caused and can fix by writing the call again.
fn is_models_mistake(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::UnknownTool
            | ErrorCode::MalformedArguments
            | ErrorCode::InvalidArguments
            | ErrorCode::LimitExceeded
    )
}

/// OpenTelemetry's `gen_ai.provider.name` values.
fn provider_name(provider: Provider) -> &'static str {
    crate::providers::api(provider).otel_name
}

/// A short name for an error, for the span's `error.type`.
fn error_type(error: &super::ModelError) -> String {
    use super::ModelError;
    match error {
        ModelError::Http { status, .. } => status.to_string(),
        ModelError::Timeout(_) => "timeout".into(),
        ModelError::HandlingTimeout { .. } => "handling_timeout".into(),
        ModelError::Transport { .. } => "transport".into(),
        ModelError::Route(_) | ModelError::Stream(_) => "bad_reply".into(),
        ModelError::StreamCut { .. } => "stream_cut".into(),
        ModelError::TooLarge { .. } => "too_large".into(),
        ModelError::MissingApiKey(_) => "missing_api_key".into(),
        ModelError::Config(_) => "config".into(),
        ModelError::CrossOriginRedirect { .. } => "cross_origin_redirect".into(),
    }
}
