//! What a task keeps, as JSON: results and errors as the objects `tasks/get` inlines, and
//! their lengths, counted without writing them out.

use rmcp::model::TaskPayload;

/// A result or error as the JSON object a `DetailedTask` inlines.
pub(crate) fn object(value: impl serde::Serialize) -> rmcp::model::JsonObject {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Object(object)) => object,
        // Both types serialize to objects; this is only what the types can't promise.
        Ok(_) | Err(_) => rmcp::model::JsonObject::default(),
    }
}

/// The length of `value` as JSON, counted without writing it out: what a task keeps is
/// counted in the bytes its client would read.
pub(crate) fn json_len(value: &impl serde::Serialize) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing to a counter fails only if the value can't serialize, and then it keeps
    // nothing more than what was counted.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// What a task's outcome counts: its result or error as JSON (a status alone counts
/// nothing more than the task itself).
pub(crate) fn payload_len(outcome: &TaskPayload) -> usize {
    match outcome {
        TaskPayload::Completed { result } => json_len(result),
        TaskPayload::Failed { error } => json_len(error),
        TaskPayload::InputRequired { input_requests } => json_len(input_requests),
        _ => 0,
    }
}
