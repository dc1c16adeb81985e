//! A call that goes on as an MCP task once it has what it needs from the client.

use crate::ToolContext;

impl ToolContext {
    /// Answers the client now with a task and goes on running: the client reads the
    /// result later with `tasks/get`. For a `#[tool(task, defer_task)]` tool, which is a
    /// plain call until it says so: it can ask its questions first (answered in the
    /// client's input-required rounds under protocol 2026-07-28), then leave the slow part
    /// to the task. Questions it asks afterwards wait in the task (`input_required`) for
    /// the client's `tasks/update`.
    ///
    /// Returns whether the call now runs as a task (it already did, for a tool whose tasks
    /// start with the call). False outside MCP, for a client without the tasks extension
    /// (of a `task = "optional"` tool), and for a tool that never runs as a task: the call
    /// then simply goes on, and its result is the answer.
    ///
    /// False too when the server has no room for another task (its client's share or
    /// every slot is taken by running tasks): then the client is answered with that error
    /// and the call is cancelled, so the tool should return rather than go on.
    ///
    /// ```
    /// use tool_runtime::client::Elicitation;
    /// use tool_runtime::{tool, ToolContext, ToolError};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Traveller {
    ///     /// Who travels.
    ///     name: String,
    /// }
    ///
    /// /// Book a trip: asks who travels, then books it in the background.
    /// #[tool(task = "required", defer_task)]
    /// async fn book_trip(cx: ToolContext, to: String) -> Result<String, ToolError> {
    ///     let who = match cx.ask("traveller").elicit::<Traveller>("Who travels?").await? {
    ///         Elicitation::Accept(who) => who.name,
    ///         Elicitation::Decline | Elicitation::Cancel => return Ok("Nothing booked.".into()),
    ///     };
    ///     cx.continue_as_task(); // the client gets a task id here; the booking runs on
    ///     // ... the slow part ...
    ///     Ok(format!("Booked {who} to {to}."))
    /// }
    /// ```
    pub fn continue_as_task(&self) -> bool {
        self.asking.continue_as_task()
    }
}
