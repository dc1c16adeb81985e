//! Running calls: a batch in order with [`Registry::call_all`], each call gated,
//! limited, timed and isolated by [`run`].

mod run;

use crate::call::ToolCall;
use crate::output::ToolOutput;
use crate::registry::Registry;
use tokio_util::sync::CancellationToken;

impl Registry {
    /// Runs `calls` concurrently where the gate allows, one output per call in their order
    /// ([`Registry::call_all`]); `cancel` stops what hasn't finished.
    pub(crate) async fn dispatch(
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
