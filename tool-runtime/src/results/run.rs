//! Running a turn's calls and formatting their results in one step.

use super::{format_in_order, FormattedResults};
use crate::{Dialect, Registry, ToolCall, ToolOutput};

impl Registry {
    /// Runs every call through the pipeline with [`dispatch_all`](Registry::dispatch_all)
    /// (parallel-safe tools concurrently, others alone) and formats the results for
    /// `dialect`, in the model's order.
    ///
    /// ```
    /// use tool_runtime::{tool, Dialect, Registry, ToolCall};
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
    /// let results = registry.run_calls(Dialect::OpenAiChat { strict: false }, &calls).await;
    /// assert_eq!(results.messages[0]["content"], "Hello, Ada!");
    /// # });
    /// ```
    pub async fn run_calls(&self, dialect: Dialect, calls: &[ToolCall]) -> FormattedResults {
        let outputs: Vec<Option<ToolOutput>> = self
            .dispatch_all(calls)
            .await
            .into_iter()
            .map(Some)
            .collect();
        format_in_order(dialect, calls, &outputs)
    }
}
