//! [`Agent::stream`](super::Agent::stream)'s events, and the stream that yields them while the
//! run goes on.

use super::model::ModelDelta;
use super::{AgentError, Reply, Usage};
use crate::{ToolCall, ToolOutput};
use futures_util::future::BoxFuture;
use futures_util::Stream;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

/// Something that happened during a streamed run, in order.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AgentEvent {
    /// Assistant text, as it arrives (in text-only mode, the prose around the calls).
    Text(String),
    /// The model began writing a call (native tools only: a text-only model's call is seen
    /// whole).
    CallStarted {
        /// The call's id.
        id: String,
        /// The tool it names.
        name: String,
    },
    /// The model finished writing a call; it runs once the reply is complete.
    CallReady(ToolCall),
    /// A call's result, as the model will get it.
    CallResult {
        /// The call's id.
        call_id: String,
        /// The tool.
        tool: String,
        /// What it gave.
        output: ToolOutput,
    },
    /// The tokens one model request took.
    Usage(Usage),
    /// A turn is over: the model replied and its calls (if any) have their results.
    TurnFinished {
        /// The turn's number, from 1.
        turn: usize,
        /// How many calls it ran.
        calls: usize,
    },
    /// The run is over: the model answered without calls. Always the last event of a run
    /// that succeeded.
    Done(Reply),
}

impl From<ModelDelta> for AgentEvent {
    fn from(delta: ModelDelta) -> AgentEvent {
        match delta {
            ModelDelta::Text(text) => AgentEvent::Text(text),
            ModelDelta::CallStarted { id, name } => AgentEvent::CallStarted { id, name },
            ModelDelta::Call(call) => AgentEvent::CallReady(call),
        }
    }
}

/// Where a run sends its events: nowhere ([`Agent::run`](super::Agent::run)) or to a stream.
pub(crate) type Events = Option<UnboundedSender<AgentEvent>>;

pub(crate) fn emit(events: &Events, event: AgentEvent) {
    if let Some(events) = events {
        // A dropped stream stops the run at its next await; events sent meanwhile go nowhere.
        let _ = events.send(event);
    }
}

/// The events of one run, as it goes ([`Agent::stream`](super::Agent::stream)). Ends with
/// [`AgentEvent::Done`], or with the run's error. Dropping it stops the run: a tool call
/// already running is dropped at its next await (a sync tool finishes in the background).
#[must_use = "a stream does nothing until polled"]
pub struct AgentStream<'a> {
    events: UnboundedReceiver<AgentEvent>,
    run: Option<BoxFuture<'a, Result<Reply, AgentError>>>,
    end: Option<Result<Reply, AgentError>>,
}

impl<'a> AgentStream<'a> {
    pub(crate) fn new(
        events: UnboundedReceiver<AgentEvent>,
        run: BoxFuture<'a, Result<Reply, AgentError>>,
    ) -> AgentStream<'a> {
        AgentStream {
            events,
            run: Some(run),
            end: None,
        }
    }
}

impl AgentStream<'_> {
    /// The next event, or `None` once the run is over: what `StreamExt::next` gives, without
    /// a futures crate in scope.
    pub async fn next(&mut self) -> Option<Result<AgentEvent, AgentError>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }
}

impl Stream for AgentStream<'_> {
    type Item = Result<AgentEvent, AgentError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            if let Poll::Ready(Some(event)) = self.events.poll_recv(cx) {
                return Poll::Ready(Some(Ok(event)));
            }
            let Some(run) = self.run.as_mut() else {
                // The run is over and its sender gone: the events are drained.
                return Poll::Ready(self.end.take().map(|end| end.map(AgentEvent::Done)));
            };
            match run.as_mut().poll(cx) {
                Poll::Ready(end) => {
                    // Dropping the run drops its sender, so the loop drains what is left.
                    self.run = None;
                    self.end = Some(end);
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}
