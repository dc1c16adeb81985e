//! Running a model's turn and answering it in one step.

use super::{answer_in_order, FormattedResults};
use crate::{Provider, Registry, ToolCall, ToolOutput};

impl Registry {
    /// Runs every call of a model's turn with [`call_all`](Registry::call_all)
    /// (parallel-safe tools concurrently, others alone) and answers them in `provider`'s
    /// shape: the messages its next request carries, in the model's order.
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
