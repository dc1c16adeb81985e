//! The conformance tools the tasks scenarios (`tasks-*`, SEP-2663) call: `greet` never runs
//! as a task, `slow_compute` and `protocol_error_job` may (`#[tool(task)]`), and
//! `failing_job` must (`#[tool(task = "required")]`).

use std::time::Duration;
use tool_runtime::{tool, ToolError};

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

#[cfg(test)]
mod tests {
    use tool_runtime::spec::TaskSupport;

    #[test]
    fn the_task_tools_say_how_they_run() {
        let registry = super::super::builder().build().unwrap();
        let task = |name: &str| registry.get(name).unwrap().flags().task;
        assert_eq!(task("greet"), TaskSupport::Forbidden);
        assert_eq!(task("slow_compute"), TaskSupport::Optional);
        assert_eq!(task("protocol_error_job"), TaskSupport::Optional);
        assert_eq!(task("failing_job"), TaskSupport::Required);
        let greeting = registry.call_blocking("greet", r#"{"name": "World"}"#);
        assert_eq!(greeting.to_model_text(), "Hello, World!");
        let computed = registry.call_blocking("slow_compute", r#"{"seconds": 0, "label": "x"}"#);
        assert_eq!(computed.to_model_text(), "Computed x in 0s");
    }
}
