//! Running calls: a batch in order with [`Registry::call_all`], each call gated,
//! limited, timed and isolated by [`run`].

pub(crate) mod gate;
pub(crate) mod panic;
mod run;

use crate::call::ToolCall;
use crate::output::ToolOutput;
use crate::registry::Registry;
use tokio_util::sync::CancellationToken;

impl Registry {
    /// Runs a batch of calls and returns one output per call, in the calls' order.
    ///
    /// Parallel-safe tools (`read_only` ones, unless marked otherwise) run concurrently; any
    /// other call runs alone, with nothing beside it. Sync tools run on tokio's blocking pool.
    /// Every call ends with exactly one output: its result, or an error for a validation
    /// failure, a timeout, a panic, a denial or a cancellation.
    pub async fn call_all(&self, calls: impl AsRef<[ToolCall]>) -> Vec<ToolOutput> {
        // No token: nothing can cancel these calls, so none waits on one.
        self.dispatch(calls.as_ref(), None).await
    }

    /// [`call_all`](Self::call_all) that stops when `cancel` fires: calls still
    /// running or waiting get a `cancelled` error output (a running async tool is dropped at
    /// its next await; a running sync tool finishes in the background).
    pub async fn call_all_until(
        &self,
        calls: impl AsRef<[ToolCall]>,
        cancel: &CancellationToken,
    ) -> Vec<ToolOutput> {
        self.dispatch(calls.as_ref(), Some(cancel)).await
    }

    async fn dispatch(
        &self,
        calls: &[ToolCall],
        cancel: Option<&CancellationToken>,
    ) -> Vec<ToolOutput> {
        // Polled together in this task, so calls borrow the registry; the gate orders them.
        let outputs = calls
            .iter()
            .map(|call| self.execute(&call.name, Some(&call.id), &call.arguments, None, cancel));
        futures_util::future::join_all(outputs).await
    }
}
