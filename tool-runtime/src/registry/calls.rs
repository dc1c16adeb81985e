//! Running calls, the registry's one verb family: [`call`](Registry::call) and
//! [`call_blocking`](Registry::call_blocking) for one call, [`call_all`](Registry::call_all)
//! for a model's whole turn, [`answer_all`](Registry::answer_all) to run a turn and answer it.
//! Each delegates to its stage: `pipeline` prepares and runs one call, `dispatch` a batch,
//! `results` the answer.

use super::Registry;
use crate::pipeline::CallReport;
use crate::results::{answer_in_order, FormattedResults};
use crate::{CancellationToken, Provider, ToolCall, ToolOutput};

impl Registry {
    /// Calls a tool with JSON arguments and returns its output. Never panics on bad input:
    /// an unknown tool, broken or oversized JSON, or arguments that don't fit the schema give
    /// an error output the model can act on.
    pub async fn call(&self, name: &str, args: &str) -> ToolOutput {
        self.execute(name, None, args, None, None).await
    }

    /// [`call`](Self::call) for code that isn't async. A sync tool runs right here, on the
    /// calling thread (outside the gate and the concurrency limit: the caller asked to block);
    /// an async tool, a call that needs approval, or a sync tool with a timeout to keep runs
    /// on a small runtime the registry keeps for this, the sync tool on its blocking pool, so a
    /// call past its timeout ends with a `timeout` error output as it would under `call`.
    /// From inside an async runtime such a call is an error output: use `call(...).await`
    /// there.
    #[inline]
    pub fn call_blocking(&self, name: &str, args: &str) -> ToolOutput {
        self.run_blocking(name, args)
    }

    /// [`call`](Self::call), also returning what each stage did and how long it took. It
    /// always takes the full path, so that every repair and filled default is recorded.
    pub async fn call_with_report(&self, name: &str, args: &str) -> (ToolOutput, CallReport) {
        let mut report = CallReport::default();
        let output = self
            .execute(name, None, args, Some(&mut report), None)
            .await;
        (output, report)
    }

    /// Runs a model's whole turn and returns one output per call, in the calls' order.
    ///
    /// Parallel-safe tools (`read_only` ones, unless marked otherwise) run concurrently; any
    /// other call runs alone, with nothing beside it. Sync tools run on tokio's blocking pool.
    /// Every call ends with exactly one output: its result, or an error for a validation
    /// failure, a timeout, a panic, a denial or a cancellation. Each call's id reaches its
    /// tool's context.
    pub async fn call_all(&self, calls: impl AsRef<[ToolCall]>) -> Vec<ToolOutput> {
        // No token: nothing can cancel these calls, so none waits on one.
        self.dispatch(calls.as_ref(), None).await
    }

    /// [`call_all`](Self::call_all) that stops when `cancel` fires: calls still running or
    /// waiting get a `cancelled` error output (a running async tool is dropped at its next
    /// await; a running sync tool finishes in the background).
    pub async fn call_all_until(
        &self,
        calls: impl AsRef<[ToolCall]>,
        cancel: &CancellationToken,
    ) -> Vec<ToolOutput> {
        self.dispatch(calls.as_ref(), Some(cancel)).await
    }

    /// Runs every call of a model's turn with [`call_all`](Registry::call_all) and answers
    /// them in `provider`'s shape: the messages its next request carries, in the model's
    /// order.
    ///
    /// ```
    /// use tool_runtime::{tool, Provider, Registry, ToolCall};
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
    /// let results = registry.answer_all(Provider::OpenAiChat, &calls).await;
    /// assert_eq!(results.messages[0]["content"], "Hello, Ada!");
    /// # });
    /// ```
    pub async fn answer_all(&self, provider: Provider, calls: &[ToolCall]) -> FormattedResults {
        let outputs: Vec<Option<ToolOutput>> =
            self.call_all(calls).await.into_iter().map(Some).collect();
        answer_in_order(provider, calls, &outputs)
    }
}
