//! A model's whole turn as one value: [`Registry::call_all`] gives a [`CallAll`], a future
//! awaited as is, or first told what cancels it ([`CallAll::until`]). One verb for a batch,
//! with or without a token.

use super::Registry;
use crate::{CancellationToken, ToolCall, ToolOutput};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// A turn's calls, ready to run: `.await` it for one output per call, in the calls' order.
///
/// ```
/// use tool_runtime::pipeline::CancellationToken;
/// use tool_runtime::{tool, Registry, ToolCall};
///
/// /// Say hello.
/// #[tool]
/// fn greet(
///     /// Who to greet.
///     name: String,
/// ) -> String {
///     format!("Hello, {name}!")
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let registry = Registry::builder().build().unwrap();
/// let calls = [ToolCall::new("call_1", "greet", r#"{"name": "Ada"}"#)];
/// let stop = CancellationToken::new();
/// let outputs = registry.call_all(&calls).until(&stop).await;
/// assert_eq!(outputs[0].to_model_text(), "Hello, Ada!");
/// # });
/// ```
#[must_use = "a turn's calls run only when awaited"]
pub struct CallAll<'a, C> {
    registry: &'a Registry,
    cancel: Option<&'a CancellationToken>,
    stage: Stage<'a, C>,
}

/// Where a [`CallAll`] is: its calls not yet started, its turn running, or done.
enum Stage<'a, C> {
    Waiting(C),
    Running(Turn<'a>),
    Done,
}

/// A running turn's future: boxed once per turn, not per call, since it can't be named.
type Turn<'a> = Pin<Box<dyn Future<Output = Vec<ToolOutput>> + Send + 'a>>;

// The calls are moved into the boxed turn at the first poll and never pinned in place, so a
// `CallAll` may move whatever `C` is.
impl<C> Unpin for CallAll<'_, C> {}

impl<'a, C> CallAll<'a, C> {
    pub(super) fn new(registry: &'a Registry, calls: C) -> Self {
        CallAll {
            registry,
            cancel: None,
            stage: Stage::Waiting(calls),
        }
    }

    /// Stops the turn when `cancel` fires: calls still running or waiting get a `cancelled`
    /// error output (a running async tool is dropped at its next await; a running sync tool
    /// finishes in the background).
    pub fn until(mut self, cancel: &'a CancellationToken) -> Self {
        self.cancel = Some(cancel);
        self
    }
}

impl<'a, C> Future for CallAll<'a, C>
where
    C: AsRef<[ToolCall]> + Send + 'a,
{
    type Output = Vec<ToolOutput>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Vec<ToolOutput>> {
        let this = self.get_mut();
        let mut turn = match std::mem::replace(&mut this.stage, Stage::Done) {
            Stage::Waiting(calls) => {
                let (registry, cancel) = (this.registry, this.cancel);
                Box::pin(async move { registry.run_all(calls.as_ref(), cancel).await })
            }
            Stage::Running(turn) => turn,
            // Polled again after it finished: a turn runs once.
            Stage::Done => return Poll::Ready(Vec::new()),
        };
        let polled = turn.as_mut().poll(cx);
        if polled.is_pending() {
            this.stage = Stage::Running(turn);
        }
        polled
    }
}
