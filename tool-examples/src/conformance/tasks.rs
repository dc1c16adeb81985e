//! The conformance tools the tasks scenarios (`tasks-*`, SEP-2663) call: `greet` never runs
//! as a task, `slow_compute` and `protocol_error_job` may (`#[tool(task)]`), and
//! `failing_job` must (`#[tool(task = "required")]`). `confirm_delete` and `multi_input`
//! ask their client from inside the task; `test_tool_with_task` asks first, in
//! input-required rounds, and continues as a task with the answer (`defer_task`).

use schemars::JsonSchema;
use serde::Deserialize;
use std::time::Duration;
use tool_runtime::client::Elicitation;
use tool_runtime::{tool, ToolContext, ToolError};

/// Greets someone, at once.
///
/// Scenarios `tasks-lifecycle` and `tasks-dispatch-and-envelope`: a tool without task support
/// answers with its result (`Hello, {name}!`) even for a client that supports tasks.
#[tool(read_only, parallel)]
pub(super) fn greet(
    /// Who to greet.
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Computes slowly: waits `seconds`, then reports what it computed.
///
/// Scenarios `tasks-*`: runs as a task for a client that supports them (`seconds: 60` to
/// have one to cancel), and as a plain call for the others.
#[tool(read_only, parallel, task)]
pub(super) async fn slow_compute(
    /// How long to take, in seconds.
    seconds: u64,
    /// A label to echo back.
    #[tool(default = String::new())]
    label: String,
) -> String {
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    format!("Computed {label} in {seconds}s")
}

/// Fails after a second, as a tool reporting an error.
///
/// Scenarios `tasks-lifecycle` (the task settles `completed` with `isError: true`) and
/// `tasks-required-task-error` (only runs as a task: a client without the extension gets
/// `-32021`).
#[tool(read_only, parallel, task = "required")]
pub(super) async fn failing_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err(ToolError::new("The job failed, as it always does"))
}

/// Panics: the server failing rather than the tool reporting an error.
///
/// Scenario `tasks-lifecycle`: the task settles `failed`, its JSON-RPC error inlined.
#[tool(read_only, parallel, task)]
pub(super) async fn protocol_error_job() -> String {
    tokio::time::sleep(Duration::from_millis(100)).await;
    panic!("protocol_error_job breaks the server on purpose")
}

/// A yes or no.
#[derive(Deserialize, JsonSchema)]
struct Confirm {
    /// Yes, go ahead.
    confirm: bool,
}

/// Deletes a file once the user confirms it.
///
/// Scenarios `tasks-mrtr-input` and `tasks-dispatch-and-envelope`: the task waits in
/// `input_required` on one elicitation until `tasks/update` answers it. The deletion is a
/// pretend one, nothing is touched: hence not `destructive`, which the conformance server
/// (with no approver) would refuse to run.
#[tool(parallel, task)]
pub(super) async fn confirm_delete(
    cx: ToolContext,
    /// The file to delete.
    filename: String,
) -> Result<String, ToolError> {
    let answer = cx.elicit::<Confirm>(format!("Delete {filename}?")).await?;
    Ok(match answer {
        Elicitation::Accept(Confirm { confirm: true }) => format!("Deleted {filename}"),
        _ => format!("Kept {filename}"),
    })
}

/// A name, confirmed.
#[derive(Deserialize, JsonSchema)]
struct Entry {
    /// The name.
    name: String,
    /// Whether it is right.
    confirm: bool,
}

/// Asks for two entries at once and reports both.
///
/// Scenario `tasks-mrtr-input`'s partial fulfilment: both questions wait in the task
/// together, and the task stays `input_required` until the second is answered.
#[tool(read_only, parallel, task)]
pub(super) async fn multi_input(cx: ToolContext) -> Result<String, ToolError> {
    let (first, second) = tokio::try_join!(
        cx.elicit::<Entry>("First entry?"),
        cx.elicit::<Entry>("Second entry?"),
    )?;
    let said = |answer: Elicitation<Entry>| match answer {
        Elicitation::Accept(entry) if entry.confirm => entry.name,
        _ => "(none)".to_owned(),
    };
    Ok(format!("Got {} and {}", said(first), said(second)))
}

/// A name.
#[derive(Deserialize, JsonSchema)]
struct Name {
    /// Your name.
    name: String,
}

/// Asks the user's name, then greets them from a task.
///
/// Scenario `tasks-mrtr-composition`: round 1 is an input-required result asking
/// `user_name`; the retry with the answer continues as a task, whose result names them.
#[tool(read_only, parallel, task = "required", defer_task)]
pub(super) async fn test_tool_with_task(cx: ToolContext) -> Result<String, ToolError> {
    let name = match cx
        .ask("user_name")
        .elicit::<Name>("What is your name?")
        .await?
    {
        Elicitation::Accept(Name { name }) => name,
        Elicitation::Decline | Elicitation::Cancel => "stranger".to_owned(),
    };
    cx.continue_as_task();
    tokio::time::sleep(Duration::from_millis(100)).await;
    Ok(format!("Hello, {name}! (from a task)"))
}

#[cfg(test)]
mod tests {
    use tool_runtime::registry::TaskSupport;

    #[test]
    fn the_task_tools_say_how_they_run() {
        let registry = super::super::builder().build().unwrap();
        let task = |name: &str| registry.get(name).unwrap().flags().task;
        assert_eq!(task("greet"), TaskSupport::Forbidden);
        assert_eq!(task("slow_compute"), TaskSupport::Optional);
        assert_eq!(task("protocol_error_job"), TaskSupport::Optional);
        assert_eq!(task("failing_job"), TaskSupport::Required);
        assert_eq!(task("confirm_delete"), TaskSupport::Optional);
        assert_eq!(task("test_tool_with_task"), TaskSupport::Required);
        assert!(
            registry
                .get("test_tool_with_task")
                .unwrap()
                .flags()
                .defer_task
        );
        let greeting = registry.call_blocking("greet", r#"{"name": "World"}"#);
        assert_eq!(greeting.to_model_text(), "Hello, World!");
        let computed = registry.call_blocking("slow_compute", r#"{"seconds": 0, "label": "x"}"#);
        assert_eq!(computed.to_model_text(), "Computed x in 0s");
    }
}
